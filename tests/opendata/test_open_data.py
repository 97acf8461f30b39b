"""The monthly open-data files: which games they hold, that the records replay, the
listing's figures, the downloads, and how a month's file is queued."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from durak.engine import Game
from games.models import Deal, Match, Move
from history.seeding import get_user, play_match
from opendata import files
from opendata.receivers import queue_last_month

pytestmark = pytest.mark.django_db

OCTOBER = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)


def lines_of(path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as data:
        return [json.loads(line) for line in data]


def october_file() -> list[dict]:
    built = files.build_month(2026, 10)
    return lines_of(files.data_path(built))


def test_a_public_game_is_in_its_months_file_and_others_are_not():
    public = play_match(["anna", "boris"], seed=1, started_at=OCTOBER)
    private = play_match(["anna", "vera"], seed=2, started_at=OCTOBER, is_private=True)
    suspended = play_match(["gleb", "dasha"], seed=3, started_at=OCTOBER)
    gleb = get_user("gleb")
    gleb.suspended_forever = True
    gleb.save()
    aborted = play_match(["egor", "boris"], seed=4, started_at=OCTOBER)
    Deal.objects.filter(match=aborted).update(
        status=Deal.Status.ABORTED, end_reason=Deal.EndReason.ABORTED
    )
    Match.objects.filter(pk=aborted.pk).update(status=Match.Status.ABORTED)
    november = play_match(["anna", "boris"], seed=5, started_at=datetime(2026, 11, 2, tzinfo=UTC))
    in_file = {line["match"]["id"] for line in october_file()}
    assert public.pk in in_file
    assert not in_file & {private.pk, suspended.pk, aborted.pk, november.pk}
    # The suspension lifted, the next build holds the game again.
    gleb.suspended_forever = False
    gleb.save()
    assert suspended.pk in {line["match"]["id"] for line in october_file()}


def test_a_temporary_suspension_leaves_the_games_out_while_it_lasts():
    match = play_match(["anna", "boris"], seed=1, started_at=OCTOBER)
    boris = get_user("boris")
    boris.suspended_until = datetime(2999, 1, 1, tzinfo=UTC)
    boris.save()
    assert match.pk not in {line["match"]["id"] for line in october_file()}


def test_the_records_replay_through_the_engine_with_the_stored_moves():
    play_match(["anna", "boris"], seed=1, deals=2, started_at=OCTOBER)
    play_match(["anna", "vera", "gleb"], "transfer", seed=2, started_at=OCTOBER)
    lines = october_file()
    assert len(lines) == 3
    for line in lines:
        assert line["format"] == "durak-export/1"
        game = Game.from_record(line["record"])
        assert game.is_over
        deal = Deal.objects.get(match_id=line["match"]["id"], number=line["deal"]["number"])
        stored = list(
            Move.objects.filter(deal=deal).order_by("seq").values_list("action", flat=True)
        )
        assert line["record"]["actions"] == stored
        assert game.to_record() == line["record"]
    # In the order the games finished.
    finished = [line["deal"]["finished_at"] for line in lines]
    assert finished == sorted(finished)


def test_the_listing_shows_size_count_and_checksum_of_the_file():
    play_match(["anna", "boris"], seed=1, deals=2, started_at=OCTOBER)
    built = files.build_month(2026, 10)
    on_disk = files.data_path(built).read_bytes()
    page = Client().get("/open-data/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-month="2026-10"' in html
    assert f'data-games="{len(lines_of(files.data_path(built)))}"' in html
    assert built.games == 2
    assert f'data-bytes="{len(on_disk)}"' in html
    assert hashlib.sha256(on_disk).hexdigest() in html
    assert "/open-data/durak-games-2026-10.jsonl.gz" in html
    download = Client().get("/open-data/durak-games-2026-10.jsonl.gz")
    assert download.status_code == 200
    assert download["Content-Type"] == "application/gzip"
    assert "attachment" in download["Content-Disposition"]
    body = b"".join(download.streaming_content)
    assert body == on_disk
    assert hashlib.sha256(body).hexdigest() == built.sha256


def test_the_listing_in_russian():
    play_match(["anna", "boris"], seed=1, started_at=OCTOBER)
    files.build_month(2026, 10)
    html = Client(headers={"accept-language": "ru"}).get("/open-data/").content.decode()
    assert "Открытые данные партий" in html
    assert "Октябрь 2026" in html


def test_an_empty_listing_says_so():
    html = Client().get("/open-data/").content.decode()
    assert "No month has been published yet." in html


def test_a_month_with_no_file_is_not_found():
    play_match(["anna", "boris"], seed=1, started_at=OCTOBER)
    files.build_month(2026, 10)
    client = Client()
    assert client.get("/open-data/durak-games-2026-09.jsonl.gz").status_code == 404
    assert client.get("/open-data/durak-games-2026-13.jsonl.gz").status_code == 404
    assert client.get("/open-data/durak-games-2026-10.jsonl.gz").status_code == 200


def test_building_twice_gives_the_same_file():
    play_match(["anna", "boris"], seed=1, deals=2, started_at=OCTOBER)
    first = files.build_month(2026, 10)
    first_bytes = files.data_path(first).read_bytes()
    second = files.build_month(2026, 10)
    assert files.data_path(second).read_bytes() == first_bytes
    assert (second.sha256, second.size, second.games) == (first.sha256, first.size, first.games)


def test_the_command_builds_a_past_month_and_refuses_others():
    play_match(["anna", "boris"], seed=1, started_at=OCTOBER)
    out = io.StringIO()
    call_command("build_open_data", "2026-10", stdout=out)
    assert "durak-games-2026-10.jsonl.gz: 1 game(s)" in out.getvalue()
    assert files.month_file(2026, 10).games == 1
    for bad in ("2026-13", "October", "2026-1-1"):
        with pytest.raises(CommandError, match="not a month"):
            call_command("build_open_data", bad)
    with pytest.raises(CommandError, match="has not ended"):
        call_command("build_open_data", "2999-01")
    assert [f.month for f in files.month_files()] == ["2026-10"]


def test_a_finished_game_queues_last_months_file_once(
    settings, no_puzzle_search, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    year, month = files.last_month()
    play_match(["anna", "boris"], seed=1, started_at=datetime(year, month, 15, tzinfo=UTC))
    assert files.month_file(year, month) is None
    # A game finishing this month builds last month's file (on the worker; at once here).
    with django_capture_on_commit_callbacks(execute=True):
        play_match(["anna", "boris"], seed=2)
    built = files.month_file(year, month)
    assert built is not None and built.games == 1
    # Asked once: later games queue nothing more.
    assert queue_last_month() is False


def test_queueing_waits_while_the_file_is_missing_only(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    from django_tasks_db.models import DBTaskResult

    year, month = files.last_month()
    files.build_month(year, month)
    assert queue_last_month() is False
    assert not DBTaskResult.objects.exists()


def test_every_page_links_the_open_data_in_its_footer():
    english = Client().get("/rules/").content.decode()
    assert '<a href="/open-data/">Open game data</a>' in english
    russian = Client(headers={"accept-language": "ru"}).get("/rules/").content.decode()
    assert '<a href="/open-data/">Открытые данные партий</a>' in russian
