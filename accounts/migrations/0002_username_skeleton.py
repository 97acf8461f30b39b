from django.db import migrations, models


def fill_skeletons(apps, schema_editor):
    from accounts.confusables import skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username").iterator():
        User.objects.filter(pk=user.pk).update(username_skeleton=skeleton(user.username))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(db_index=True, default="", editable=False, max_length=600),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
