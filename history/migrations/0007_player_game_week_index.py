from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0006_resigning_is_not_abandoning"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="playergame",
            index=models.Index(fields=["finished_at"], name="player_game_week_idx"),
        ),
    ]
