"""Replay a game's public history on the engine itself, for the inference.

A seat's Knowledge holds the public actions but only the present state. Inference needs
the past too: what lay on the table when a player took, how many cards each seat drew
since. So the actions are replayed by the engine, on a deck that agrees with everything
public: every card a seat plays is dealt or drawn into that seat's hand before it plays
it. The cards nobody has seen stand in for each other anywhere, so the bout's flow (who
defends, who may throw in, the limit, the drawing, who goes out) is the real one, and
the replay reads it through the engine's public API. It never sees a hidden card: the
deck is made from the public actions alone.
"""

from __future__ import annotations

from collections.abc import Callable

from durak.engine import (
    Action,
    Drew,
    Game,
    IllegalAction,
    Knowledge,
    deck_codes,
)

# The refusals a replay mends by moving a card into the hand that needs it; any other
# refusal means the history does not start from a deal (a made-up position).
_NOT_HELD = frozenset({"not_held", "not_six_holder"})


class PublicReplay:
    """The replayed game (read through its public API), and how many cards each seat drew
    from the talon after the deal."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.drawn = [0] * game.players

    def step(self, action: Action) -> None:
        for event in self.game.apply(action):
            if isinstance(event, Drew):
                self.drawn[event.seat] += event.count


def replay(
    knowledge: Knowledge,
    before: Callable[[PublicReplay, Action], None] | None = None,
) -> PublicReplay:
    """Replay the knowledge's public history; ``before(replay, action)`` sees the state
    before each action. A history that does not start from a deal is replayed as far as
    it agrees with one.
    """
    history = list(knowledge.history)
    deck = _deck_for(knowledge, history)
    out = PublicReplay(_deal(knowledge, deck))
    for action in history:
        if out.game.is_over:
            break
        if before is not None:
            before(out, action)
        try:
            out.step(action)
        except IllegalAction:
            break
    return out


def _deal(knowledge: Knowledge, deck: list[str]) -> Game:
    return Game(
        knowledge.rules,
        deck,
        dealer=knowledge.dealer,
        first_attacker=knowledge.first_attacker,
    )


def _deck_for(knowledge: Knowledge, history: list[Action]) -> list[str]:
    """A deck order on which the whole history is legal, made from public facts only.

    Start from any order with the face-up trump in its place; whenever an action needs a
    card its seat does not hold, swap that card in the deck with one the seat holds that
    no action has named yet, and replay again. Neither card was named before, so the
    actions before stay legal and each replay gets past one more action.
    """
    deck = deck_codes(knowledge.rules.deck_size)
    face_up = deck.index(_deal(knowledge, deck).trump)
    trump = deck.index(_first_face_up(knowledge, history))
    deck[face_up], deck[trump] = deck[trump], deck[face_up]
    for _ in range(len(history) + 1):
        game = _deal(knowledge, deck)
        named = {deck[face_up]}
        for action in history:
            if game.is_over:
                return deck
            try:
                game.apply(action)
            except IllegalAction as refusal:
                if refusal.code not in _NOT_HELD:
                    return deck
                hand = game.hand(action.seat)
                needed = _needed(game, action)
                spare = [c for c in hand if c not in named and c not in needed]
                missing = [c for c in needed if c not in hand]
                if not missing or len(spare) < len(missing):
                    return deck
                for card, other in zip(missing, spare, strict=False):
                    i, j = deck.index(card), deck.index(other)
                    deck[i], deck[j] = deck[j], deck[i]
                break
            named.update(action.cards, _needed(game, action))
        else:
            return deck
    return deck


def _needed(game: Game, action: Action) -> list[str]:
    """The cards ``action`` takes from its seat's hand."""
    if action.kind == "swap":
        return ["6" + game.trump_suit]
    return _needed_cards(action)


def _needed_cards(action: Action) -> list[str]:
    """The cards ``action`` names from its seat's hand (a defence names the attack card
    too, which was the attacker's)."""
    return [action.cards[1]] if action.kind == "defend" else list(action.cards)


def _first_face_up(knowledge: Knowledge, history: list[Action]) -> str:
    """The face-up trump of the deal, or one that plays the same.

    After a trump-six swap the six lies face up and the card it replaced went to the
    swapper's hand, which shows publicly only when the swapper plays it. So the stand-in
    is a trump first played by the swapper after the swap: the earliest such, since the
    card it got was in its hand from the swap on; if there is none, one nobody played.
    """
    swaps = [i for i, a in enumerate(history) if a.kind == "swap"]
    if not swaps:
        return knowledge.trump
    swap = swaps[0]
    swapper = history[swap].seat
    # The first play of each card, or -1 if another seat played it first or it was
    # played before the swap. Later plays do not count: a card can be taken and played
    # by the taker.
    first_play: dict[str, int] = {}
    for i, a in enumerate(history):
        for card in _needed_cards(a):
            first_play.setdefault(card, i if a.seat == swapper and i > swap else -1)
    trumps = [c for c in deck_codes(knowledge.rules.deck_size) if c[1] == knowledge.trump[1]]
    unplayed = len(history)
    candidates = [
        (first_play.get(c, unplayed), c)
        for c in trumps
        if c != knowledge.trump and first_play.get(c, unplayed) >= 0
    ]
    return min(candidates)[1] if candidates else knowledge.trump
