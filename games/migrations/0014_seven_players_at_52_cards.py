"""The 52-card variant seats at most seven (seven cards each): its description said eight."""

from django.db import migrations

SAID = "The full deck, seven cards each, up to eight players."
MEANT = "The full deck, seven cards each, up to seven players."


def mend(apps, schema_editor) -> None:
    # Only the words as seeded: an admin's own description stays as they wrote it.
    variants = apps.get_model("games", "RuleVariant").objects
    variants.filter(slug="full-deck-52", description=SAID).update(description=MEANT)


def unmend(apps, schema_editor) -> None:
    variants = apps.get_model("games", "RuleVariant").objects
    variants.filter(slug="full-deck-52", description=MEANT).update(description=SAID)


class Migration(migrations.Migration):
    dependencies = [("games", "0013_chat_quick_phrases")]

    operations = [migrations.RunPython(mend, unmend)]
