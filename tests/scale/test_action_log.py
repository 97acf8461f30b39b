"""Refused actions are logged as structured JSON records without card codes."""

import io
import json
import logging

import pytest
from django.conf import settings

from games.action_log import JsonFormatter, action_kind, log_refused_action, mask_cards


class Capture:
    """Records what the games.actions logger emits, through the configured formatter."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(JsonFormatter())
        self.logger = logging.getLogger("games.actions")

    def __enter__(self) -> "Capture":
        self.logger.addHandler(self.handler)
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self.handler)

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines() if line]


def test_refused_action_is_one_json_line_with_who_what_why() -> None:
    with Capture() as capture:
        log_refused_action(17, 42, 1, "defend", "that card does not beat the attack")
    (record,) = capture.records()
    assert record["event"] == "action_refused"
    assert record["logger"] == "games.actions"
    assert (record["match_id"], record["user_id"], record["seat"]) == (17, 42, 1)
    assert record["kind"] == "defend"
    assert record["reason"] == "that card does not beat the attack"
    assert record["level"] == "INFO"
    assert record["time"].endswith("+00:00")


def test_no_card_code_reaches_the_log() -> None:
    with Capture() as capture:
        fields = log_refused_action(
            3, 9, 0, "0 defend 6H TH", "you do not hold TH; 6H is not on the table (QS, AD)"
        )
    line = capture.stream.getvalue()
    for code in ("6H", "TH", "QS", "AD"):
        assert code not in line
        assert code not in json.dumps(fields)
    assert json.loads(line)["kind"] == "defend"


def test_kind_of_raw_client_input_is_safe() -> None:
    assert action_kind("0 attack 6H 6D") == "attack"
    assert action_kind("take") == "take"
    assert action_kind("") == "malformed"
    assert action_kind(None) == "malformed"
    assert action_kind("0 AS") == "unknown"
    assert action_kind("0 <script>") == "unknown"
    assert action_kind("0 fly 6H") == "unknown"
    assert mask_cards("beat 7C with 9C, not 10C or TAKE") == "beat ?? with ??, not 10C or TAKE"


def test_long_reasons_are_cut() -> None:
    with Capture() as capture:
        log_refused_action(1, 1, 0, "chat", "x" * 5000)
    assert len(capture.records()[0]["reason"]) <= 200


def test_settings_send_games_actions_through_the_json_formatter() -> None:
    config = settings.LOGGING
    logger = config["loggers"]["games.actions"]
    handler = config["handlers"][logger["handlers"][0]]
    assert config["formatters"][handler["formatter"]]["()"] == "games.action_log.JsonFormatter"
    configured = logging.getLogger("games.actions")
    assert configured.isEnabledFor(logging.INFO)
    assert any(isinstance(h.formatter, JsonFormatter) for h in configured.handlers)


@pytest.mark.django_db
def test_a_refused_move_at_the_service_is_logged_without_cards() -> None:
    from durak.engine import Game
    from games import services
    from games.models import RuleVariant
    from tests.scale.conftest import make_user

    host, guest = make_user("log"), make_user("log")
    match = services.create_match(host, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, guest)
    match.refresh_from_db()
    game = Game.from_snapshot(match.state)
    mover = game.to_act()[0]
    other = 1 - mover
    card = game.hand(other)[0]
    users = {0: host, 1: guest}
    with Capture() as capture, pytest.raises(services.Refused):
        services.apply_action(
            match.pk, users[mover], f"{mover} attack {card}", version=match.version
        )
    (record,) = capture.records()
    assert (record["match_id"], record["user_id"], record["seat"]) == (
        match.pk,
        users[mover].pk,
        mover,
    )
    assert record["kind"] == "attack"
    assert record["reason"]
    assert card not in json.dumps(record)
