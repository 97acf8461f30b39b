"""Each player's reliability, stored on their user row from the games they finished."""

from django.db import migrations
from django.db.models import Count, Exists, OuterRef

PRIOR = 5  # as history.reliability.PRIOR when this was written
ABANDON_SOURCES = ("player", "forfeit")


def store_scores(apps, schema_editor) -> None:
    user_model = apps.get_model("accounts", "User")
    player_game = apps.get_model("history", "PlayerGame")
    move = apps.get_model("games", "Move")
    finished = dict(
        player_game.objects.values("user_id").annotate(n=Count("id")).values_list("user_id", "n")
    )
    resigned = move.objects.filter(
        deal=OuterRef("deal"),
        seat=OuterRef("seat"),
        action__endswith=" resign",
        source__in=ABANDON_SOURCES,
    )
    abandoned = dict(
        player_game.objects.filter(Exists(resigned))
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    for user_id, games in finished.items():
        lost = abandoned.get(user_id, 0)
        score = round(100 * (games - lost + PRIOR) / (games + PRIOR))
        user_model.objects.filter(pk=user_id).update(reliability=score)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_user_reliability"),
        ("games", "0007_open_sockets"),
        ("history", "0002_admin_names"),
    ]

    operations = [migrations.RunPython(store_scores, migrations.RunPython.noop)]
