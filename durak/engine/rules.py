"""The rules of one variant: an immutable, validated, hashable value."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .cards import DECK_MASK

MODES = ("podkidnoy", "perevodnoy")
TEAMS = (None, "2x2", "3x3")
THROW_IN = ("auto", "all", "neighbours", "attacker")
NEXT_GAME_LEAD = ("left_of_fool", "fool_defends")
MAX_ATTACK = 6
# The most seats any variant has (8 players with 52 cards); seats are 0 to MAX_PLAYERS - 1.
MAX_PLAYERS = 8


@dataclass(frozen=True)
class Rules:
    """A Durak variant.

    ``throw_in="auto"`` is the default of RULES.md: every opponent of the defender may
    throw in with 2-4 players, only the two players next to the defender with 5 or more.
    ``effective_throw_in`` gives the resolved scope ("all", "neighbours" or "attacker").
    """

    players: int = 2
    deck_size: int = 36
    hand_size: int = 6
    mode: str = "podkidnoy"
    trump_show_transfer: bool = False
    teams: str | None = None
    throw_in: str = "auto"
    first_bout_limit: int | None = None
    multi_card_lead: bool = True
    one_winner: bool = False
    epaulettes: bool = False
    trump_six_swap: bool = False
    next_game_lead: str = "left_of_fool"

    def __post_init__(self) -> None:
        def is_int(v: Any) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)

        for name in (
            "trump_show_transfer",
            "multi_card_lead",
            "one_winner",
            "epaulettes",
            "trump_six_swap",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if not is_int(self.deck_size) or self.deck_size not in DECK_MASK:
            raise ValueError(f"deck_size must be 24, 36 or 52, not {self.deck_size!r}")
        if not is_int(self.players):
            raise ValueError(f"players must be an int, not {self.players!r}")
        top = Rules.most_players(self.deck_size)
        if not 2 <= self.players <= top:
            raise ValueError(
                f"players must be 2-{top} with a {self.deck_size}-card deck, not {self.players}"
            )
        if not is_int(self.hand_size) or self.hand_size < 1:
            raise ValueError(f"hand_size must be a positive int, not {self.hand_size!r}")
        if self.players * self.hand_size > self.deck_size:
            raise ValueError(
                f"hand_size {self.hand_size} x players {self.players} needs "
                f"{self.players * self.hand_size} cards, more than deck_size {self.deck_size}"
            )
        if self.mode not in MODES:
            raise ValueError(f"mode must be 'podkidnoy' or 'perevodnoy', not {self.mode!r}")
        if self.trump_show_transfer and self.mode != "perevodnoy":
            raise ValueError("trump_show_transfer needs mode 'perevodnoy'")
        if self.teams not in TEAMS:
            raise ValueError(f"teams must be None, '2x2' or '3x3', not {self.teams!r}")
        if self.teams == "2x2" and self.players != 4:
            raise ValueError("teams '2x2' needs players=4")
        if self.teams == "3x3" and self.players != 6:
            raise ValueError("teams '3x3' needs players=6")
        if self.throw_in not in THROW_IN:
            raise ValueError(
                f"throw_in must be one of {', '.join(THROW_IN)}, not {self.throw_in!r}"
            )
        fbl = self.first_bout_limit
        if fbl is not None and (not is_int(fbl) or not 1 <= fbl <= MAX_ATTACK):
            raise ValueError(f"first_bout_limit must be None or 1-{MAX_ATTACK}, not {fbl!r}")
        if self.next_game_lead not in NEXT_GAME_LEAD:
            raise ValueError(
                f"next_game_lead must be 'left_of_fool' or 'fool_defends', "
                f"not {self.next_game_lead!r}"
            )
        # A team game has a losing team, a one-winner game has a single winning seat:
        # together they say two different things about who won.
        if self.one_winner and self.teams:
            raise ValueError("one_winner cannot be combined with teams")
        # Epaulettes go to the fool, and a one-winner game has no fool.
        if self.one_winner and self.epaulettes:
            raise ValueError("epaulettes need a fool, so they cannot be combined with one_winner")
        if self.trump_six_swap and self.deck_size == 24:
            raise ValueError("trump_six_swap needs a deck with sixes (deck_size 36 or 52)")

    @staticmethod
    def most_players(deck_size: int) -> int:
        """The most seats a deal of ``deck_size`` cards allows (6, or 8 with 52 cards)."""
        return MAX_PLAYERS if deck_size == 52 else 6

    @property
    def effective_throw_in(self) -> str:
        if self.throw_in != "auto":
            return self.throw_in
        return "all" if self.players <= 4 else "neighbours"

    @property
    def team_of(self) -> tuple[int, ...] | None:
        """Team index per seat (seats alternate: even seats team 0, odd seats team 1)."""
        if not self.teams:
            return None
        return tuple(s % 2 for s in range(self.players))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a dict, not {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown rules field(s): {', '.join(map(str, unknown))}")
        return cls(**data)
