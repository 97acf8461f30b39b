"""The turn API: who may act and how (``to_act``), ``is_legal``, ``legal_actions(seat)``
and the bout's public facts, checked against the actions the engine accepts.
"""

from __future__ import annotations

import random

import pytest

from durak.engine import ROLES, Action, Game, IllegalAction, Rules, Turn

VARIANTS = {
    "2p": Rules(),
    "3p-perevodnoy-show": Rules(players=3, mode="perevodnoy", trump_show_transfer=True),
    "4p-teams": Rules(players=4, teams="2x2"),
    "6p-neighbours": Rules(players=6, first_bout_limit=5),
    "2p-swap-one-card-lead": Rules(trump_six_swap=True, multi_card_lead=False),
}


def random_positions(rules: Rules, seed: int, games: int = 4):
    """Every position of a few random games, each with the action played next."""
    rng = random.Random(seed)
    for _ in range(games):
        game = Game.new(rules, rng)
        while not game.is_over:
            acts = game.legal_actions()
            action = acts[rng.randrange(len(acts))]
            yield game, action
            game.apply(action)
        yield game, None


def accepted(game: Game, action: Action) -> bool:
    try:
        game.copy().apply(action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_legal_actions_of_a_seat_are_that_seats_share_of_all(variant):
    rules = VARIANTS[variant]
    for game, _ in random_positions(rules, seed=1):
        every = game.legal_actions()
        for seat in range(rules.players):
            assert game.legal_actions(seat) == [a for a in every if a.seat == seat]


@pytest.mark.parametrize("seat", [-1, 2, 8, 100])
def test_legal_actions_of_a_seat_not_in_the_game_is_an_error(seat):
    with pytest.raises(ValueError, match="no seat"):
        Game.new(Rules(), 3).legal_actions(seat)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_is_legal_agrees_with_apply(variant):
    rules = VARIANTS[variant]
    rng = random.Random(5)
    codes = list(Game.new(rules, 0).deck)
    for game, _ in random_positions(rules, seed=2, games=2):
        for action in game.legal_actions():
            assert game.is_legal(action) and game.is_legal(str(action))
        # Random actions, nearly all illegal: is_legal says exactly what apply accepts.
        for _ in range(12):
            seat = rng.randrange(rules.players)
            kind = rng.choice(["attack", "defend", "transfer", "show", "take", "done", "swap"])
            n = {"defend": 2, "show": 1, "take": 0, "done": 0, "swap": 0}.get(kind, 1)
            action = Action(seat, kind, rng.sample(codes, n))
            assert game.is_legal(action) == accepted(game, action)
        resign = Action(rng.randrange(rules.players), "resign")
        assert game.is_legal(resign) == accepted(game, resign)


def test_is_legal_is_false_for_text_that_is_not_an_action():
    game = Game.new(Rules(), 1)
    for text in ("", "0 fly", "9 take", "0 attack XX", 42):
        assert game.is_legal(text) is False


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_seat_with_a_legal_action_is_to_act_in_a_role_that_allows_it(variant):
    rules = VARIANTS[variant]
    for game, _ in random_positions(rules, seed=3):
        turns = game.to_act()
        assert all(isinstance(t, Turn) and t.role in ROLES for t in turns)
        assert [int(t) for t in turns] == sorted({int(t) for t in turns})
        assert game.view(None)["to_act"] == [int(t) for t in turns]
        by_seat = {t.seat: t for t in turns}
        for action in game.legal_actions():
            if action.kind == "swap":
                continue  # a swap may come at any time, from whoever may make it
            assert action.seat in by_seat
            assert action.kind in by_seat[action.seat].kinds
        for t in turns:
            if t.role == "lead":
                assert (t, game.phase) == (game.attacker, "attack")
            elif t.role == "defend":
                assert t == game.defender and game.unbeaten_cards
            else:
                assert t != game.defender and t in game.attackers


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_bouts_facts_agree_with_the_table_and_the_view(variant):
    rules = VARIANTS[variant]
    for game, _ in random_positions(rules, seed=4, games=2):
        view = game.view(None)
        assert game.unbeaten_cards == [a for a, d in game.table() if d is None]
        assert game.attackers == (
            []
            if game.is_over
            else [game.attacker] + [s for s in view["attackers"] if s != game.attacker]
        )
        assert game.bout_limit == view["bout_limit"]
        if not game.is_over:
            assert game.drawing_order[0] == game.attacker
            assert game.drawing_order[-1] == game.defender
