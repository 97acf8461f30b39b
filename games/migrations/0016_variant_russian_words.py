"""Russian words for an admin's variant, and the standard variants named by the game as
players call it ("Podkidnoy", "Perevodnoy"), as "Play now" names them.

A standard variant is renamed only if it still has the name it was seeded with: a name
an admin chose stays.
"""

from django.db import migrations, models

RENAMED = [
    ("classic", "Classic", "Podkidnoy"),
    ("transfer", "Transfer", "Perevodnoy"),
    ("transfer-trump-show", "Transfer with trump show", "Perevodnoy with trump show"),
]


def rename(apps, schema_editor, *, backwards: bool = False) -> None:
    variant_model = apps.get_model("games", "RuleVariant")
    for slug, seeded, now in RENAMED:
        old, new = (now, seeded) if backwards else (seeded, now)
        variant_model.objects.filter(slug=slug, name=old).update(name=new)


def rename_back(apps, schema_editor) -> None:
    rename(apps, schema_editor, backwards=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_match_bot_claimed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulevariant",
            name="name_ru",
            field=models.CharField(blank=True, max_length=80, verbose_name="name in Russian"),
        ),
        migrations.AddField(
            model_name="rulevariant",
            name="description_ru",
            field=models.TextField(blank=True, verbose_name="description in Russian"),
        ),
        migrations.RunPython(rename, rename_back),
    ]
