from django.db import migrations, models


def one_move_lines(apps, schema_editor):
    """Puzzles stored before lines existed are one-move puzzles."""
    Puzzle = apps.get_model("puzzles", "Puzzle")
    for puzzle in Puzzle.objects.all():
        puzzle.line = {
            "options": puzzle.options,
            "answers": puzzle.answers,
            "next": {answer: {"replies": [], "step": None} for answer in puzzle.answers},
        }
        puzzle.save(update_fields=["line"])


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="line",
            field=models.JSONField(default=dict),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="puzzle",
            name="player_moves",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="The solver's moves on the longest branch of the line."
            ),
        ),
        migrations.AddField(
            model_name="puzzleattempt",
            name="path",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(one_move_lines, migrations.RunPython.noop),
    ]
