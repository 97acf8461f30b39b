from django.db import migrations
from django.db.models import Q


def remove_puzzles_of_hidden_deals(apps, schema_editor):
    """Puzzles show both hands: those found in a private table's deal or a fixed deal
    (the daily deal) go, with their attempts (deleted with them), and so do those deals'
    scans, which no longer count what is stored. A puzzle whose game is gone is kept:
    nothing says where it came from."""
    Puzzle = apps.get_model("puzzles", "Puzzle")
    PuzzleScan = apps.get_model("puzzles", "PuzzleScan")
    hidden = Q(deal__match__is_private=True) | Q(deal__match__seed__gt="")
    Puzzle.objects.filter(hidden).delete()
    PuzzleScan.objects.filter(hidden).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_match_seed"),
        ("puzzles", "0003_field_labels"),
    ]

    operations = [
        migrations.RunPython(remove_puzzles_of_hidden_deals, migrations.RunPython.noop),
    ]
