"""Helpers to build readable scenarios: decks from desired hands, and action runners."""

from __future__ import annotations

from durak.engine import Game, Rules, deck_codes


def deck_for(
    hands: list[str] | list[list[str]],
    trump: str | None = None,
    talon: str | list[str] = "",
    rules: Rules | None = None,
    dealer: int | None = None,
    fill: bool = True,
) -> list[str]:
    """A deck that deals ``hands`` (seat order), turns up ``trump``, then ``talon``.

    Hands and talon may be given as space-separated strings. ``talon`` is in draw
    order (top first); with ``fill`` the cards not named anywhere are appended to the
    talon's end (drawn last before the trump) in deck order.
    """
    rules = rules or Rules(players=len(hands))
    n = rules.players
    hs = [h.split() if isinstance(h, str) else list(h) for h in hands]
    assert len(hs) == n, "one hand per seat"
    for h in hs:
        assert len(h) == rules.hand_size, f"hand {h} must have {rules.hand_size} cards"
    if dealer is None:
        dealer = n - 1
    deck = []
    for i in range(n * rules.hand_size):
        seat = (dealer + 1 + i) % n
        deck.append(hs[seat][i // n])
    tal = talon.split() if isinstance(talon, str) else list(talon)
    if trump is not None:
        used = set(deck) | {trump} | set(tal)
        rest = [c for c in deck_codes(rules.deck_size) if c not in used] if fill else []
        deck += [trump, *tal, *rest]
    assert len(deck) == len(set(deck)), "a card is named twice"
    return deck


def game_for(hands, trump=None, talon="", rules=None, **kw) -> Game:
    rules = rules or Rules(players=len(hands))
    dealer = kw.pop("dealer", None)
    deck = deck_for(hands, trump, talon, rules, dealer=dealer, fill=kw.pop("fill", True))
    return Game(rules, deck, dealer=dealer, **kw)


def play(game: Game, *actions: str) -> list:
    """Apply several action texts; return all events."""
    events = []
    for a in actions:
        events.extend(game.apply(a))
    return events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]
