"""Each refusal carries a stable reason code next to its English message."""

import ast
import pickle
from pathlib import Path

import pytest

from durak import engine
from durak.engine import Action, IllegalAction, Rules

from .helpers import game_for

HANDS = ["6C 6D 8C 9C TC JC", "7D 8D 9D TD JD QD"]


def refusal(game, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.apply(text)
    return info.value


@pytest.mark.parametrize(
    ("actions", "text", "code", "message"),
    [
        ([], "0 attack 7D", "not_held", "0 attack 7D: seat 0 does not hold 7D"),
        ([], "0 attack 6C 8C", "mixed_ranks", "cards played together must be of one rank"),
        ([], "1 attack 7D", "not_your_lead", "seat 0 leads this bout, not seat 1"),
        ([], "1 take", "nothing_to_defend", "the table is empty"),
        ([], "0 done", "bout_not_started", "the bout has not started"),
        ([], "5 resign", "no_such_seat", "there is no seat 5"),
        (["0 attack 9C"], "1 defend 9C 8D", "does_not_beat", "8D does not beat 9C"),
        (["0 attack 9C"], "1 defend 6C 8D", "not_on_table", "6C is not an attack card"),
        (["0 attack 9C"], "0 attack 8C", "rank_not_on_table", "rank 8 is not on the table"),
        (["0 attack 9C"], "0 done", "unbeaten_cards", "attack cards are still unbeaten"),
        (["0 attack 9C"], "1 transfer 9D", "no_transfers", "transfers need mode perevodnoy"),
        (["0 attack 9C", "1 take"], "1 defend 9C TD", "already_taking", "chosen to take"),
        (["0 resign"], "1 take", "game_over", "the game is over"),
    ],
)
def test_refusals_carry_their_reason_code(actions, text, code, message):
    g = game_for(HANDS, trump="6H", first_attacker=0)
    for a in actions:
        g.apply(a)
    error = refusal(g, text)
    assert error.code == code
    assert message in str(error)  # the English explanation is unchanged


def test_a_transfer_of_the_wrong_rank_and_too_late():
    rules = Rules(players=3, mode="perevodnoy")
    hands = ["6C 6D 8C 9C AC JC", "7D 8D 9D TC JD QD", "7C 7S 8S 9S TS JS"]
    g = game_for(hands, trump="6H", rules=rules, first_attacker=0)
    g.apply("0 attack 9C")
    assert refusal(g, "1 transfer 8D").code == "wrong_transfer_rank"
    g.apply("1 defend 9C TC")
    assert refusal(g, "1 transfer 9D").code == "too_late_to_transfer"


def test_text_that_is_not_an_action_is_malformed():
    for text in ["", "0", "x attack 6C", "0 fly", "0 attack ZZ", "0 attack 6C 6C", "0 take 6C"]:
        with pytest.raises(IllegalAction) as info:
            Action.parse(text)
        assert info.value.code == "malformed", text


def test_the_code_is_optional_and_survives_pickling():
    assert IllegalAction("no reason given").code is None
    error = IllegalAction("0 take: nothing", code="nothing_to_take")
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.code) == ("0 take: nothing", "nothing_to_take")
    assert isinstance(error, ValueError)


def raised_codes() -> set[str]:
    """The codes the engine's source gives: ``code="..."`` and ``code = "..."``."""
    codes = set()
    for path in Path(engine.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            pairs = []
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                pairs = [(kw.arg, kw.value) for kw in node.keywords]
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        pairs += [
                            (getattr(t, "id", None), v)
                            for t, v in zip(target.elts, node.value.elts, strict=False)
                        ]
                    else:
                        pairs.append((getattr(target, "id", None), node.value))
            for name, value in pairs:
                if name == "code" and isinstance(value, ast.Constant):
                    codes.add(value.value)
    return codes
