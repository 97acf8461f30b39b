import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Deal, Match, Move
from history.models import PlayerGame
from history.records import EXPORT_FORMAT
from history.replay import deal_record

from .helpers import play_match

pytestmark = pytest.mark.django_db


def _export(*args):
    out = io.StringIO()
    call_command("export_games", *args, stdout=out, stderr=io.StringIO())
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _import(tmp_path, lines):
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("import_games", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_export_then_import_gives_identical_games(tmp_path):
    play_match(["anna", "boris"], "classic", deals=3, seed=1)
    play_match(["anna", "vera", "gleb", "medium"], "transfer", seed=2, is_private=True)
    play_match(["dasha", "egor", "fedor", "zhenya"], "teams-2x2", seed=3)
    exported = _export("-o", str(tmp_path / "out.jsonl"))
    assert exported == []  # -o writes the file, not stdout
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert len(lines) == 5
    before_ids = set(Deal.objects.values_list("id", flat=True))
    before = [json.loads(line) for line in lines]
    assert all(line["format"] == EXPORT_FORMAT for line in before)
    # Import into an empty site: drop every game and player first.
    Match.objects.all().delete()
    get_user_model().objects.all().delete()
    out, err = _import(tmp_path, lines)
    assert err == ""
    assert "Imported 5 deal(s), refused 0." in out
    assert Deal.objects.filter(id__in=before_ids).count() == 0
    after = _export()
    strip = [_without_ids(line) for line in before]
    assert [_without_ids(line) for line in after] == strip
    # The records are the same games move for move, and the results were recorded.
    assert [a["record"] for a in after] == [b["record"] for b in before]
    assert PlayerGame.objects.count() == 2 * 3 + 3 + 4
    anna = get_user_model().objects.get(username="anna")
    assert anna.is_active is False and not anna.has_usable_password()
    assert Match.objects.filter(is_private=True).count() == 1
    assert Match.objects.count() == 3


def _without_ids(line):
    line = json.loads(json.dumps(line))
    line["match"].pop("id")
    return line


def test_export_filters(tmp_path):
    play_match(["anna", "boris"], "classic", seed=1)
    play_match(["anna", "vera", "gleb"], "transfer", seed=2)
    play_match(["boris", "vera"], "classic", seed=3)
    assert len(_export()) == 3
    assert len(_export("--variant", "transfer")) == 1
    assert len(_export("--user", "ANNA")) == 2
    assert len(_export("--user", "anna", "--variant", "classic")) == 1
    assert len(_export("--since", "2999-01-01")) == 0
    assert len(_export("--since", "2000-01-01")) == 3


def _tamper(line, change):
    data = json.loads(line)
    change(data)
    return json.dumps(data)


def test_bad_records_are_refused_with_line_and_reason_and_the_rest_load(tmp_path):
    play_match(["anna", "boris"], "classic", seed=4)
    play_match(["anna", "vera"], "classic", seed=5)
    good, other = _export()
    good, other = json.dumps(good), json.dumps(other)
    first_move = json.loads(good)["record"]["actions"][0]

    def bad_card(d):
        d["record"]["deck"][0] = "1X"

    def illegal_move(d):
        seat = int(first_move.split()[0])
        d["record"]["actions"][0] = f"{1 - seat} take"

    def wrong_format(d):
        d["record"]["format"] = "durak-record/0"

    Match.objects.all().delete()
    lines = [
        _tamper(good, bad_card),
        "{not json",
        _tamper(good, illegal_move),
        _tamper(good, wrong_format),
        _tamper(good, lambda d: d.pop("seats")),
        _tamper(good, lambda d: d["match"].update(variant="no-such-variant")),
        other,
        _tamper(good, lambda d: d["record"]["actions"].pop()),
    ]
    out, err = _import(tmp_path, lines)
    assert "Imported 1 deal(s), refused 7." in out
    refused = dict((int(row.split(":")[0].split()[1]), row) for row in err.strip().splitlines())
    assert sorted(refused) == [1, 2, 3, 4, 5, 6, 8]
    assert "bad card code '1X'" in refused[1]
    assert "not JSON" in refused[2]
    assert "record action 0" in refused[3]
    assert "record format must be 'durak-record/1'" in refused[4]
    assert "'seats'" in refused[5]
    assert "no variant 'no-such-variant'" in refused[6]
    assert "not over" in refused[8] or "does not match" in refused[8]
    # Only the good line left anything behind.
    assert Match.objects.count() == 1
    assert Move.objects.count() == json.loads(other)["deal"]["sources"].__len__()
    deal = Deal.objects.get()
    assert deal_record(deal) == json.loads(other)["record"]


def test_seed_history_plays_finished_games():
    out = io.StringIO()
    call_command("seed_history", "4", "--user", "zoya", "--seed", "3", stdout=out)
    assert "Seeded 4 games for zoya." in out.getvalue()
    rows = PlayerGame.objects.filter(user__username="zoya")
    assert rows.count() == 4
    for deal in Deal.objects.filter(player_games__user__username="zoya"):
        assert deal.status == Deal.Status.FINISHED
        assert deal.moves.count() == deal.move_count
        assert deal_record(deal)["result"] == deal.result


def test_how_the_first_attacker_was_chosen_is_stored_and_round_trips(tmp_path):
    play_match(["anna", "boris"], "classic", deals=2, seed=6)
    first, second = Deal.objects.order_by("number")
    assert first.first_attacker_by in ("lowest_trump", "draw")
    assert second.first_attacker_by == "given"  # the match names who leads a rematch
    lines = [json.dumps(line) for line in _export()]
    # A rematch imported alone is its match's only deal there: it still keeps "given".
    Match.objects.all().delete()
    out, err = _import(tmp_path, [lines[1]])
    assert "Imported 1 deal(s), refused 0." in out, err
    stored = Deal.objects.get()
    assert stored.first_attacker_by == "given"
    assert deal_record(stored) == json.loads(lines[1])["record"]


def test_the_migration_infers_how_earlier_first_attackers_were_chosen():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0005_deal_first_attacker_by_and_presence")
    play_match(["anna", "boris"], "classic", deals=3, seed=7)
    expected = list(Deal.objects.order_by("number").values_list("first_attacker_by", flat=True))
    assert expected[0] in ("lowest_trump", "draw") and expected[1:] == ["given", "given"]
    # Rows written before the field existed all got its default.
    Deal.objects.update(first_attacker_by="lowest_trump")
    migration.fill_first_attacker_by(apps, None)
    assert list(Deal.objects.order_by("number").values_list("first_attacker_by", flat=True)) == (
        expected
    )
