"""Games between bot accounts only are rated in a class of their own, ``bots``."""

from django.db import migrations, models

CHOICES = [
    ("two_player", "Two players"),
    ("multi", "Three or more players"),
    ("teams", "Teams"),
    ("bots", "Bot accounts"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0007_player_game_week_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name=model,
            name="rating_class",
            field=models.CharField(choices=CHOICES, max_length=12, verbose_name="rating class"),
        )
        for model in ("rating", "ratingchange", "playergame")
    ]
