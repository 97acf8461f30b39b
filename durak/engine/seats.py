"""Seat rules of a bout, over plain values: who defends, who may throw in, how many cards
a bout holds, who draws first, and when a bout is over.

They take the variant's ``Config`` and masks rather than a game: a bout's start, its end
and the legality checks call them on the hot path with the values at hand. A set of
seats is a mask with bit s for seat s.
"""

from __future__ import annotations

from collections.abc import Sequence

from .config import Config
from .rules import MAX_ATTACK


def next_opponent(c: Config, gone: int, s: int) -> int:
    """The next seat after ``s`` not in ``gone`` and (in teams) not a partner; -1 if none."""
    n = c.players
    team = c.team_of
    t = s
    for _ in range(n - 1):
        t += 1
        if t == n:
            t = 0
        if not gone >> t & 1 and (team is None or team[t] != team[s]):
            return t
    return -1


def next_in_game(c: Config, out: int, s: int) -> int:
    """The next seat after ``s`` that is not out of the game; -1 if none."""
    n = c.players
    t = s
    for _ in range(n - 1):
        t += 1
        if t == n:
            t = 0
        if not out >> t & 1:
            return t
    return -1


def eligible_attackers(c: Config, out: int, att: int, d: int) -> int:
    """The seats that may throw in against ``d`` with ``att`` attacking, as a mask.

    ``throw_in``: "attacker" only the principal attacker; "all" every opponent of the
    defender still in the game; "neighbours" the nearest such seat on each side of the
    defender. The principal attacker is always one of them.
    """
    key = (out << 6) | (att << 3) | d
    m = c.attackers_cache.get(key)
    if m is not None:
        return m
    n = c.players
    team = c.team_of
    m = 1 << att
    if c.throw_in == "all":
        for s in range(n):
            if s != d and not out >> s & 1 and (team is None or team[s] != team[d]):
                m |= 1 << s
    elif c.throw_in == "neighbours":
        for step in (1, -1):
            s = d
            for _ in range(n - 1):
                s = (s + step) % n
                if s != d and not out >> s & 1 and (team is None or team[s] != team[d]):
                    m |= 1 << s
                    break
    c.attackers_cache[key] = m
    return m


def attack_limit(c: Config, bout_number: int) -> int:
    """The most attack cards a bout may hold before the defender's hand caps it."""
    fbl = c.first_bout_limit
    return fbl if fbl and bout_number == 0 else MAX_ATTACK


def bout_limit(c: Config, bout_number: int, defender_cards: int) -> int:
    """The bout's limit: 6 (or the first bout's limit), and never more than the defender holds."""
    fbl = c.first_bout_limit
    cap = fbl if fbl and bout_number == 0 else MAX_ATTACK  # attack_limit, without a call
    return defender_cards if defender_cards < cap else cap


def drawing_order(attacker: int, joined: Sequence[int], defender: int) -> list[int]:
    """Who draws after a bout: the principal attacker (after transfers: the last to pass
    the attack on), the other attackers in the order they joined, the defender last.
    """
    if len(joined) < 2 and (not joined or joined[0] == attacker):  # the usual bout
        return [attacker, defender]
    return [attacker] + [s for s in joined if s != attacker and s != defender] + [defender]


def bout_is_over(
    taking: bool, unbeaten: int, attack_count: int, limit: int, defender_cards: int, pending: int
) -> bool:
    """Whether a bout under way ends now because nobody is left who could act in it.

    ``pending`` is the mask of eligible attackers holding cards who have not said done.
    A taken bout ends at the limit or when no attacker is pending; a defended one once
    every card is beaten and the limit is reached, the defender has no cards, or no
    attacker is pending.
    """
    if taking:
        return attack_count >= limit or not pending
    return not unbeaten and (attack_count >= limit or not defender_cards or not pending)
