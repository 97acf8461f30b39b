"""Each daily try keeps the player's streak on its day, for the leaderboard; the tries
made before are given theirs from the days each player played."""

from datetime import timedelta

from django.db import migrations, models


def count_streaks(apps, schema_editor) -> None:
    entry_model = apps.get_model("daily", "DailyEntry")
    entries = entry_model.objects.filter(aborted=False).order_by("user_id", "daily__day")
    streak_on: dict[tuple[int, object], int] = {}
    for user_id, day in entries.values_list("user_id", "daily__day").distinct():
        streak_on[user_id, day] = streak_on.get((user_id, day - timedelta(days=1)), 0) + 1
    for (user_id, day), streak in streak_on.items():
        if streak > 1:
            entry_model.objects.filter(user_id=user_id, daily__day=day).update(streak=streak)


class Migration(migrations.Migration):
    dependencies = [
        ("daily", "0003_field_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailyentry",
            name="streak",
            field=models.PositiveIntegerField(default=1, verbose_name="days in a row"),
        ),
        migrations.RunPython(count_streaks, migrations.RunPython.noop),
    ]
