"""Property tests: random rules, random deals, random legal play to the end."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak.engine import KINDS, Action, Game, IllegalAction, Rules, deck_codes
from durak.engine.cards import BIT, CODES, DECK_MASK

CARD_RE = re.compile(r"^[2-9TJQKA][CDHS]$")
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rules_strategy(draw) -> Rules:
    deck = draw(st.sampled_from([24, 36, 52]))
    players = draw(st.integers(2, 8 if deck == 52 else 6))
    hand = draw(st.integers(1, min(7, deck // players)))
    mode = draw(st.sampled_from(["podkidnoy", "perevodnoy"]))
    teams = None
    if players == 4 and draw(st.booleans()):
        teams = "2x2"
    if players == 6 and draw(st.booleans()):
        teams = "3x3"
    one_winner = teams is None and draw(st.integers(0, 4)) == 0
    return Rules(
        players=players,
        deck_size=deck,
        hand_size=hand,
        mode=mode,
        trump_show_transfer=mode == "perevodnoy" and draw(st.booleans()),
        teams=teams,
        throw_in=draw(st.sampled_from(["auto", "all", "neighbours", "attacker"])),
        first_bout_limit=draw(st.sampled_from([None, None, 5, 3, 1])),
        multi_card_lead=draw(st.booleans()),
        one_winner=one_winner,
        epaulettes=not one_winner and draw(st.booleans()),
        trump_six_swap=deck != 24 and draw(st.booleans()),
        next_game_lead=draw(st.sampled_from(["left_of_fool", "fool_defends"])),
    )


def per_bout_bound(n: int) -> int:
    # attack+transfer actions add >= 1 of at most 6 attack cards; <= 6 defences; one
    # show (only the trump of the attack rank); one take; "done" at most once per
    # eligible attacker between two actions that add cards or move the attack (<= 8
    # such stretches); one trump-six swap per game.
    return 6 + 6 + 1 + 1 + 8 * (n - 1) + 1


def two_player_podkidnoy_bound(deck: int, n: int) -> int:
    # Beaten bouts discard >= 2 cards: <= deck/2 of them. Between two beaten bouts the
    # same player attacks every taken bout, playing >= 1 card and drawing no more than
    # it played, so its hand plus the talon shrinks each time: <= deck bouts per run.
    return (deck // 2 + 1) * (deck + 1) * per_bout_bound(n)


def check_cards(g: Game) -> None:
    """Every card of the deck is in exactly one place."""
    places = [*g.hands, sum(BIT[i] for i in g.talon), g.table_mask, g.discard_mask]
    seen = 0
    for m in places:
        assert not seen & m, "a card is in two places"
        seen |= m
    assert seen == DECK_MASK[g.rules.deck_size]
    assert len(g.talon) == len(set(g.talon))
    # Table bookkeeping agrees with the table lists.
    tm = 0
    for a, d in zip(g.attack_cards, g.defence_cards, strict=True):
        tm |= BIT[a] | (BIT[d] if d >= 0 else 0)
    assert tm == g.table_mask


def codes_in(obj) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, str):
        if CARD_RE.match(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in ("legal",):
                out |= codes_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            out |= codes_in(v)
    return out


def check_views(g: Game) -> None:
    table = {c for pair in g.table() for c in pair if c}
    for seat in [None, *range(g.players)]:
        v = g.view(seat)
        json.dumps(v)
        allowed = table | {g.trump} | (set(g.hand(seat)) if seat is not None else set())
        assert codes_in(v) <= allowed, (seat, codes_in(v) - allowed)
        if seat is not None:
            assert codes_in(v["legal"]) <= allowed
        assert v["talon"] == g.talon_count


def random_action(rng: random.Random, g: Game, legal: list[Action]) -> Action | None:
    n = g.players
    deck = deck_codes(g.rules.deck_size)
    roll = rng.random()
    try:
        if legal and roll < 0.5:
            base = rng.choice(legal)
            cards = list(base.cards)
            if cards and rng.random() < 0.6:
                cards[rng.randrange(len(cards))] = rng.choice(deck)
                seat = base.seat
            else:
                seat = rng.randrange(n)
            return Action(seat, base.kind, tuple(cards))
        kind = rng.choice([k for k in KINDS if k != "resign"])
        count = {"defend": 2, "show": 1, "take": 0, "done": 0, "swap": 0}.get(
            kind, rng.randint(1, 4)
        )
        return Action(rng.randrange(n), kind, tuple(rng.sample(deck, count)))
    except IllegalAction:
        return None


def check_events_public(events, before_table: set[str], action: Action, trumps: set[str]):
    allowed = before_table | set(action.cards) | trumps
    for e in events:
        d = e.to_dict()
        json.dumps(d)
        assert codes_in(d) <= allowed, (e, codes_in(d) - allowed)
        if e.kind == "drew":
            assert "cards" not in d


def play_checked(rules: Rules, seed: int, deep: bool) -> Game:
    rng = random.Random(seed)
    g = Game.new(rules, rng)
    n = rules.players
    bout, in_bout, steps = 0, 0, 0
    while not g.is_over:
        check_cards(g)
        legal = g.legal_actions()
        assert legal, "a running game always has a legal action"
        assert len(set(legal)) == len(legal)
        public = set(g.to_act())
        for a in legal:
            if a.kind != "swap":
                assert a.seat in public
        if deep:
            if steps % 2 == 0:
                check_views(g)
            before = g.snapshot()
            lset = set(legal)
            for _ in range(6):
                bad = random_action(rng, g, legal)
                if bad is None or bad in lset:
                    continue
                try:
                    g.apply(bad)
                except IllegalAction as e:
                    assert str(e)
                else:
                    raise AssertionError(f"illegal {bad} was accepted")
                assert g.snapshot() == before
            for a in legal:  # every legal action applies
                g.copy().apply(a)
        action = rng.choice(legal)
        table = {c for pair in g.table() for c in pair if c}
        trumps = {g.trump}
        if action.kind == "swap":  # the six changes hands in the open
            trumps.add("6" + g.trump_suit)
        events = g.apply(action)
        trumps.add(g.trump)
        check_events_public(events, table, action, trumps)
        steps += 1
        in_bout += 1
        if g.bout_number != bout:
            assert in_bout <= per_bout_bound(n)
            bout, in_bout = g.bout_number, 0
        assert steps < 20000
    check_cards(g)
    if n == 2 and rules.mode == "podkidnoy":
        assert steps <= two_player_podkidnoy_bound(rules.deck_size, n)
    r = g.result
    assert set(r) >= {"fool", "fool_team", "draw", "winner", "out_order", "epaulettes"}
    assert 0 <= r["epaulettes"] <= 2
    if r["draw"]:
        assert r["fool"] is None and r["fool_team"] is None
    if rules.one_winner:
        assert r["winner"] is not None and r["fool"] is None
    return g


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_random_play_cards_legality_views_events_and_bounds(rules, seed):
    play_checked(rules, seed, deep=True)


@settings(max_examples=50, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_random_play_to_the_end(rules, seed):
    play_checked(rules, seed, deep=False)


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_record_and_snapshot_reproduce_every_prefix(rules, seed):
    rng = random.Random(seed)
    g = Game.new(rules, rng)
    snaps = []
    while not g.is_over:
        snap = g.snapshot()
        assert Game.from_snapshot(json.loads(json.dumps(snap))).snapshot() == snap
        snaps.append(snap)
        g.apply(rng.choice(g.legal_actions()))
    snaps.append(g.snapshot())
    rec = json.loads(json.dumps(g.to_record()))
    # Replaying the record passes through exactly the same state after every prefix.
    replay = Game.from_record({**rec, "actions": [], "result": None})
    assert replay.snapshot() == snaps[0]
    for i, text in enumerate(rec["actions"]):
        replay.apply(text)
        assert replay.snapshot() == snaps[i + 1]
    # And a record cut at any prefix rebuilds that state (sampled: each is a replay).
    for i in sorted({0, len(snaps) - 1, *rng.sample(range(len(snaps)), min(4, len(snaps)))}):
        cut = {**rec, "actions": rec["actions"][:i], "result": None}
        assert Game.from_record(cut).snapshot() == snaps[i]


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_determinize_agrees_with_everything_the_seat_has_seen(rules, seed):
    rng = random.Random(seed)
    g = Game.new(rules, rng)
    steps = 0
    while not g.is_over:
        if steps % 5 == 0:
            for seat in range(rules.players):
                check_determinize(g, seat, rng)
        g.apply(rng.choice(g.legal_actions()))
        steps += 1


def check_determinize(g: Game, seat: int, rng: random.Random) -> None:
    k = g.knowledge(seat)
    d = k.determinize(rng)
    check_cards(d)
    # Knowledge is the same in the sampled game: it cannot tell them apart.
    assert d.knowledge(seat) == k
    v, dv = g.view(seat), d.view(seat)
    assert dv == v and k.view == v
    assert d.hand(seat) == g.hand(seat)
    for s in range(g.players):
        assert set(k.known_cards(s)) <= set(d.hand(s))
        assert set(k.known_cards(s)) <= set(g.hand(s))
    assert d.discard_mask == g.discard_mask and d.table() == g.table()
    assert d.talon_count == g.talon_count
    if d.talon_count:
        assert d.talon[0] == g.talon[0]  # the face-up trump stays at the bottom
    # The seat's own options are the same in both games.
    mine = sorted(str(a) for a in g.legal_actions() if a.seat == seat and a.kind != "swap")
    assert sorted(str(a) for a in d.legal_actions() if a.seat == seat and a.kind != "swap") == mine
    # And the sampled game plays on.
    for _ in range(5):
        if d.is_over:
            break
        d.apply(rng.choice(d.legal_actions()))


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), cut=st.integers(0, 200))
def test_knowledge_equal_when_only_hidden_cards_differ(rules, seed, cut):
    """Swap two cards the seat cannot see (between other hands / the talon): same Knowledge."""
    rng = random.Random(seed)
    g = Game.new(rules, rng)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    seat = rng.randrange(rules.players)
    k = g.knowledge(seat)
    unseen = [i for i in range(52) if k.unseen_mask >> i & 1]
    if len(unseen) < 2:
        return
    a, b = rng.sample(unseen, 2)
    snap = g.snapshot()
    ca, cb = CODES[a], CODES[b]

    def swap(lst):
        return [cb if c == ca else ca if c == cb else c for c in lst]

    snap["hands"] = [sorted(swap(h), key=CODES.index) for h in snap["hands"]]
    snap["talon"] = swap(snap["talon"])
    other = Game.from_snapshot(snap)
    if other.trump_six:  # who holds the six decides who may swap it
        other.trump_six_holder = next(
            (s for s in range(rules.players) if other.hands[s] & other.trump_six), -1
        )
    assert other.knowledge(seat) == k
    assert other.view(seat) == g.view(seat) or k.rules.trump_six_swap
