"""Reliability again: a player's own resign no longer counts as abandoning a game, only
a forfeit (the reconnect budget ran out).  Stored scores lowered by resigns go back up."""

from django.db import migrations
from django.db.models import Count, Exists, OuterRef

PRIOR = 5  # as history.reliability.PRIOR when this was written
ABANDON_SOURCES = ("forfeit",)


def store_scores(apps, schema_editor) -> None:
    user_model = apps.get_model("accounts", "User")
    player_game = apps.get_model("history", "PlayerGame")
    move = apps.get_model("games", "Move")
    with_a_person = player_game.objects.filter(deal=OuterRef("deal")).exclude(user=OuterRef("user"))
    games = player_game.objects.filter(Exists(with_a_person))
    finished = dict(games.values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    forfeited = move.objects.filter(
        deal=OuterRef("deal"),
        seat=OuterRef("seat"),
        action__endswith=" resign",
        source__in=ABANDON_SOURCES,
    )
    abandoned = dict(
        games.filter(Exists(forfeited))
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    for user_id, played in finished.items():
        lost = abandoned.get(user_id, 0)
        score = round(100 * (played - lost + PRIOR) / (played + PRIOR))
        user_model.objects.filter(pk=user_id).exclude(reliability=score).update(reliability=score)


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0005_reliability_with_people"),
    ]

    operations = [migrations.RunPython(store_scores, migrations.RunPython.noop)]
