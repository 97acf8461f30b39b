"""Moves in words, in English and in Russian."""

import pytest
from django.utils import translation

from durak.engine import Action, Game, Rules
from games.move_words import (
    beating_card_in_words,
    card_in_words,
    card_name,
    cards_in_words,
    describe_action,
    suggest_action,
)

NAMES = ["Ivan", "Bot (Hard)", "Bob"]
RU_NAMES = ["Иван", "Бот (сильный)", "Боб"]


def words(text: str, names=NAMES, language: str = "en", **kwargs) -> str:
    with translation.override(language):
        return describe_action(Action.parse(text), names, **kwargs)


@pytest.mark.parametrize(
    ("code", "english", "russian"),
    [
        ("7D", "7♦", "7♦"),
        ("TS", "10♠", "10♠"),
        ("QH", "Q♥", "Д♥"),
        ("JC", "J♣", "В♣"),
        ("KD", "K♦", "К♦"),
        ("AS", "A♠", "Т♠"),
    ],
)
def test_card_in_words(code, english, russian):
    with translation.override("en"):
        assert card_in_words(code) == english
    with translation.override("ru"):
        assert card_in_words(code) == russian


@pytest.mark.parametrize(
    ("code", "russian"),
    [
        ("2C", "двойкой ♣"),
        ("6D", "шестёркой ♦"),
        ("7H", "семёркой ♥"),
        ("8S", "восьмёркой ♠"),
        ("9D", "девяткой ♦"),
        ("TD", "десяткой ♦"),
        ("JS", "валетом ♠"),
        ("QD", "дамой ♦"),
        ("KH", "королём ♥"),
        ("AC", "тузом ♣"),
    ],
)
def test_russian_beating_card_takes_the_instrumental_case(code, russian):
    with translation.override("ru"):
        assert beating_card_in_words(code) == russian


def test_card_names_spell_the_suit():
    with translation.override("en"):
        assert card_name("QD") == "queen of diamonds"
    with translation.override("ru"):
        assert card_name("QD") == "дама бубён"
        assert card_name("6H") == "шестёрка червей"
        assert card_name("AS") == "туз пик"


def test_defence_in_both_languages():
    assert words("0 defend 7D QD") == "Ivan beats 7♦ with Q♦"
    assert words("0 defend 7D QD", RU_NAMES, "ru") == "Иван кроет 7♦ дамой ♦"
    assert words("2 defend TS AS", RU_NAMES, "ru") == "Боб кроет 10♠ тузом ♠"


def test_take_transfer_and_resign():
    assert words("1 take") == "Bot (Hard) takes"
    assert words("1 take", RU_NAMES, "ru") == "Бот (сильный) берёт"
    assert words("2 transfer 8H") == "Bob transfers with 8♥"
    assert words("2 transfer 8H", RU_NAMES, "ru") == "Боб переводит 8♥"
    assert words("0 resign") == "Ivan resigns"
    assert words("0 resign", RU_NAMES, "ru") == "Иван сдаётся"


def test_attack_with_several_cards_lists_them():
    assert words("0 attack 7D 7S 7C") == "Ivan attacks with 7♣, 7♦ and 7♠"
    assert words("0 attack 7D 7S", RU_NAMES, "ru") == "Иван ходит 7♦ и 7♠"
    with translation.override("ru"):
        assert cards_in_words(["6H"]) == "6♥"


def test_trump_show_and_swap():
    assert words("1 show 6D") == "Bot (Hard) shows the trump 6♦ and transfers"
    assert words("1 show 6D", RU_NAMES, "ru") == "Бот (сильный) показывает козырь 6♦ и переводит"
    assert words("0 swap") == "Ivan swaps the trump six"
    assert words("0 swap", view={"trump": "KH"}) == "Ivan swaps the trump six for K♥"
    assert words("0 swap", RU_NAMES, "ru") == "Иван меняет козырную шестёрку"


def test_the_state_before_the_move_tells_a_throw_in_and_a_done():
    game = Game.new(Rules(players=2), 7)
    lead = next(a for a in game.legal_actions() if a.kind == "attack" and len(a.cards) == 1)
    before = game.view(None)
    with translation.override("ru"):
        assert describe_action(lead, RU_NAMES, view=before).startswith("Иван ходит ")
    game.apply(lead)
    take = next(a for a in game.legal_actions() if a.kind == "take")
    game.apply(take)
    view = game.view(None)
    assert view["phase"] == "taking"
    done = next(a for a in game.legal_actions() if a.kind == "done")
    assert words(str(done), view=view) == "Ivan has nothing more to throw in"
    assert words(str(done), RU_NAMES, "ru", view=view) == "Иван больше не подкидывает"
    assert words(str(done), RU_NAMES, "ru") == "Иван: бито"
    assert words("0 attack 9S", view={"table": [["7S", None]]}) == "Ivan throws in 9♠"
    assert words("0 attack 9S", RU_NAMES, "ru", view={"table": [["7S", None]]}) == (
        "Иван подкидывает 9♠"
    )


def test_unknown_seat_is_named_by_number():
    assert words("5 take") == "Seat 6 takes"
    assert words("5 take", language="ru") == "Место 6 берёт"


def test_names_may_be_a_mapping():
    assert words("1 take", {1: "Maria"}) == "Maria takes"


@pytest.mark.parametrize(
    ("text", "english", "russian"),
    [
        ("0 attack 6H", "Play 6♥.", "Ходите 6♥."),
        ("0 defend 7D QD", "Beat 7♦ with Q♦.", "Покройте 7♦ дамой ♦."),
        ("0 transfer 8H", "Transfer with 8♥.", "Переведите 8♥."),
        ("0 take", "Take the cards.", "Возьмите карты."),
        ("0 done", "Say done.", "Завершите ход."),
    ],
)
def test_advice_in_both_languages(text, english, russian):
    action = Action.parse(text)
    with translation.override("en"):
        assert suggest_action(action) == english
    with translation.override("ru"):
        assert suggest_action(action) == russian


def test_no_engine_notation_in_any_wording():
    game = Game.new(Rules(players=3, mode="perevodnoy"), 3)
    seen = 0
    while not game.is_over and seen < 200:
        view = game.view(None)
        action = game.legal_actions()[-1]
        for language in ("en", "ru"):
            with translation.override(language):
                text = describe_action(action, RU_NAMES, view=view)
            assert str(action) not in text
            for code in action.cards:
                assert code not in text.split()
        game.apply(action)
        seen += 1


def test_the_hint_partial_words_the_advice():
    from django.template.loader import render_to_string

    action = Action.parse("1 defend 7D QD")
    with translation.override("ru"):
        html = render_to_string("analysis/hint.html", {"action": action})
    assert "Подсказка. Покройте 7♦ дамой ♦." in html
    assert 'data-action="1 defend 7D QD"' in html
    html = render_to_string("analysis/hint.html", {"action": action})
    assert "Hint: Beat 7♦ with Q♦." in html
