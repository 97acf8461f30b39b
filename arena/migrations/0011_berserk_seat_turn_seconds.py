from django.db import migrations


def give_berserkers_their_time(apps, schema_editor):
    """A berserker's halved turn time now lives on their seat: set it for the seats of
    the arena games still being played, as ``arena.scoring.berserk_seconds`` does."""
    ArenaGame = apps.get_model("arena", "ArenaGame")
    Seat = apps.get_model("games", "Seat")
    playing = ArenaGame.objects.filter(match__status="playing").exclude(berserk_seats=[])
    for game in playing.select_related("match"):
        seconds = max(1, (game.match.turn_seconds + 1) // 2)
        Seat.objects.filter(match_id=game.match_id, number__in=game.berserk_seats).update(
            turn_seconds=seconds
        )


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0010_arena_settings_shared"),
        ("games", "0018_seat_turn_seconds"),
    ]

    operations = [migrations.RunPython(give_berserkers_their_time, migrations.RunPython.noop)]
