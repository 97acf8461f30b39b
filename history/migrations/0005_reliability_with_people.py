"""Reliability again, now counting only the games with another person at the table."""

from django.db import migrations
from django.db.models import Count, Exists, OuterRef

PRIOR = 5  # as history.reliability.PRIOR when this was written
ABANDON_SOURCES = ("player", "forfeit")


def store_scores(apps, schema_editor) -> None:
    user_model = apps.get_model("accounts", "User")
    player_game = apps.get_model("history", "PlayerGame")
    move = apps.get_model("games", "Move")
    with_a_person = player_game.objects.filter(deal=OuterRef("deal")).exclude(user=OuterRef("user"))
    games = player_game.objects.filter(Exists(with_a_person))
    finished = dict(games.values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    resigned = move.objects.filter(
        deal=OuterRef("deal"),
        seat=OuterRef("seat"),
        action__endswith=" resign",
        source__in=ABANDON_SOURCES,
    )
    abandoned = dict(
        games.filter(Exists(resigned))
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    # A player whose every game was against bots is back at the newcomer's 100.
    user_model.objects.exclude(pk__in=finished).exclude(reliability=100).update(reliability=100)
    for user_id, played in finished.items():
        lost = abandoned.get(user_id, 0)
        score = round(100 * (played - lost + PRIOR) / (played + PRIOR))
        user_model.objects.filter(pk=user_id).update(reliability=score)


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0004_field_labels"),
    ]

    operations = [migrations.RunPython(store_scores, migrations.RunPython.noop)]
