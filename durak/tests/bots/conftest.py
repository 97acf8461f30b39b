"""Variants every bot level must handle."""

from durak.engine import Rules

VARIANTS = {
    "podkidnoy": Rules(players=2),
    "perevodnoy": Rules(players=2, mode="perevodnoy"),
    "trump-show": Rules(players=3, mode="perevodnoy", trump_show_transfer=True),
    "teams-2x2": Rules(players=4, teams="2x2", mode="perevodnoy"),
    "teams-3x3": Rules(players=6, teams="3x3"),
    "deck-24": Rules(players=2, deck_size=24),
    "deck-52-8p": Rules(players=8, deck_size=52, hand_size=6),
    "deck-52-7cards": Rules(players=4, deck_size=52, hand_size=7),
    "one-winner": Rules(players=3, one_winner=True),
    "swap": Rules(players=2, trump_six_swap=True),
    "neighbours-5p": Rules(players=5, first_bout_limit=5, multi_card_lead=False),
    "attacker-only-6p": Rules(players=6, throw_in="attacker", epaulettes=True),
}
