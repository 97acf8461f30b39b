"""The "moderators" group: may moderate players, chat, reports and matches,
but may not edit rule variants or user records (so never a password)."""

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP_NAME = "moderators"

PERMISSIONS = [
    ("accounts", "view_user"),
    ("games", "view_rulevariant"),
    ("games", "view_match"),
    ("games", "view_seat"),
    ("games", "view_deal"),
    ("games", "view_move"),
    ("games", "view_chatmessage"),
    ("moderation", "view_report"),
    ("moderation", "change_report"),
    ("moderation", "view_auditlogentry"),
    ("moderation", "moderate_users"),
    ("moderation", "abort_match"),
    ("moderation", "hide_chat"),
]


def create_group(apps, schema_editor):
    # Permissions are normally made after all migrations have run; the group
    # needs them now.
    alias = schema_editor.connection.alias
    for label in {app for app, _ in PERMISSIONS}:
        create_permissions(
            global_apps.get_app_config(label), verbosity=0, using=alias, apps=apps
        )
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(alias).get_or_create(name=GROUP_NAME)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.using(alias).get(
                content_type__app_label=app_label, codename=codename
            )
        )


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0001_initial"),
        ("games", "0002_standard_variants"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
