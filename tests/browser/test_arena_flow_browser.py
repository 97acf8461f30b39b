"""A whole arena in Chromium, one player on a Russian phone and one on an English
desktop: they join, are paired, and their first game ends with the English player
resigning at the table; they come back to the arena's page and see their points;
paired again, they play a second game to its end by clicking cards (a fixed short
deal; the Russian player goes berserk before the first move), and the Russian player,
twice not the fool, is on fire 🔥.  A third player (English, on a phone) joins during
that game and is paired as soon as the Russian player comes back; then the arena's
end comes and every page shows the podium and the final standings without a reload.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from arena import services
from arena.models import Arena
from durak.engine import Game
from games.models import Deal, Match, RuleVariant
from games.services import load_seats
from tests.arena.conftest import entry, person, running_arena

from .hand_table import TICK_SECONDS
from .moves import tap_card
from .people import signed_in_page
from .test_arena_browser import JOIN, TO_TABLE, WITHDRAW
from .test_table_browser import DESKTOP, LATIN_ALLOWED, NEWER_VERSION, PAGE_WORDS, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

SHOTS = "/tmp/shots-arena"
OVER = {"ru": "Арена закончилась.", "en": "The arena is over."}
WAITING = {"ru": "Ждём соперника…", "en": "Waiting for an opponent…"}
TAKE = {"ru": "Взять", "en": "Take"}
BACK = {"ru": "Вернуться на арену", "en": "Back to the arena"}
# The second game's deal: all 24 cards in the two hands, hearts trumps (the last card
# dealt).  The Russian player holds every queen, king and ace and leads them rank by
# rank; the English player takes each bout, and the Russian player is out after three.
RU_HAND = ["QC", "QD", "QS", "KC", "KD", "KS", "AC", "AD", "AS", "QH", "KH", "AH"]
EN_HAND = ["9C", "9D", "9S", "TC", "TD", "TS", "JC", "JD", "JS", "9H", "TH", "JH"]


@pytest.fixture(autouse=True)
def quick_ticks(settings) -> None:
    # The server's ticker pairs the arena and pushes the moves of the other process.
    settings.GAMES_TICK_SECONDS = TICK_SECONDS


def wait_until(check, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not (value := check()):
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.1)
    return value


def new_table_of(arena: Arena, user, *, besides: set[int]) -> int:
    """The table the server's ticker seats ``user`` at, other than ``besides``."""
    return wait_until(
        lambda: (found := services.open_table_of(arena, user)) not in besides and found,
        "the server's ticker paired nobody",
    )


def deal_fixed(match_id: int, hands: dict[int, list[str]]) -> None:
    """Deal ``hands`` (by seat number) at the table the pairing just dealt at random,
    before anyone moved; seat 0 leads.  The version moves on, so no page or process
    shows the random deal again."""
    match = Match.objects.get(pk=match_id)
    deck = [code for pair in zip(hands[0], hands[1], strict=True) for code in pair]
    game = Game(match.engine_rules, deck, dealer=1, first_attacker=0)
    Deal.objects.filter(pk=match.live_deal_id).update(
        deck=game.deck, dealer=1, first_attacker=0, first_attacker_by=game.first_attacker_by
    )
    assert Match.objects.filter(pk=match_id, move_count=0).update(
        state=game.snapshot(), version=F("version") + 1
    )


def english_words(page, names: list[str]) -> set[str]:
    """Latin words on a Russian page, besides the players' names."""
    text = page.evaluate(PAGE_WORDS)
    for name in names:
        text = text.replace(name, "")
    return set(re.findall(r"[A-Za-z]{2,}", text)) - LATIN_ALLOWED


def within_the_screen(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def my_row(page):
    return page.locator('[data-testid="arena-my-row"]')


def points_of(page) -> str:
    return my_row(page).locator("td").nth(2).inner_text()


def version(page) -> int:
    return int(page.get_attribute("#table-version", "data-version"))


def click_card(page, code: str) -> None:
    """Lead or throw in ``code`` and wait until it has left the hand."""
    tap_card(page.locator(f'#table-hand .hand-card[data-card="{code}"]:not([disabled])'))
    page.locator(f'#table-hand .hand-card[data-card="{code}"]').wait_for(state="detached")


def click_control(page, selector: str) -> None:
    before = version(page)
    page.locator(f"#table-controls {selector}").click()
    page.wait_for_function(NEWER_VERSION, arg=before)


def back_to_the_arena(page, lang: str, arena_url: str) -> None:
    """From the table, by its link to the arena's page."""
    page.get_by_role("link", name=BACK[lang]).click()
    page.wait_for_url(arena_url)


def test_an_arena_from_the_join_to_the_podium(live_server_url, browser):
    # A short deck dealt out whole: no talon, so a game lasts three bouts.
    variant = RuleVariant.objects.get(slug="short-deck-24")
    variant.hand_size = 12
    variant.save(update_fields=["hand_size"])
    arena = running_arena(name="Ночная арена", variant=variant, turn_seconds=60)
    arena_url = f"{live_server_url}/arena/{arena.pk}/"
    ru_user, en_user, late_user = person("Вера"), person("Nina"), person("Late")
    names = [ru_user.username, en_user.username, late_user.username]
    pages = {
        "ru": signed_in_page(browser, live_server_url, ru_user, "ru", {"viewport": PHONE}),
        "en": signed_in_page(browser, live_server_url, en_user, "en", {"viewport": DESKTOP}),
    }
    ru, en = pages["ru"], pages["en"]
    for lang, page in pages.items():
        page.goto(arena_url)
        page.get_by_role("button", name=JOIN[lang]).click()
        page.get_by_role("button", name=WITHDRAW[lang]).wait_for()

    # ---------------------------------------------------------------- the first game
    first = new_table_of(arena, ru_user, besides=set())
    for lang, page in pages.items():
        page.get_by_role("link", name=TO_TABLE[lang]).click()
        page.wait_for_url(f"**/games/{first}/")
        page.wait_for_selector('#connection-state[data-state="open"]')
    en.on("dialog", lambda dialog: dialog.accept())
    en.locator(".control-resign").click()
    for page in pages.values():
        page.locator("#table-result:not(.is-hidden)").wait_for()

    # Back on the arena's page each sees their points: not the fool 2, the fool 0.
    for lang, page in pages.items():
        back_to_the_arena(page, lang, arena_url)
    assert points_of(ru) == "2" and points_of(en) == "0"
    assert my_row(ru).locator(".arena-fire").count() == 0

    # --------------------------------------------------------------- the second game
    second = new_table_of(arena, ru_user, besides={first})
    assert services.open_table_of(arena, en_user) == second
    seats = {seat.user_id: seat.number for seat in load_seats(second)}
    deal_fixed(second, {seats[ru_user.pk]: RU_HAND, seats[en_user.pk]: EN_HAND})
    for lang, page in pages.items():
        # The pairing reaches each page over the arena's socket.
        page.get_by_role("link", name=TO_TABLE[lang]).click()
        page.wait_for_url(f"**/games/{second}/")
        page.wait_for_selector('#connection-state[data-state="open"]')
    # The Russian player goes berserk before the first move: the page reloads with it.
    ru.locator('[data-testid="berserk"]').click()
    wait_until(lambda: ru.locator('[data-testid="berserk"]').count() == 0, "no berserk")
    ru.wait_for_selector('#connection-state[data-state="open"]')

    # A third player joins while the two play: nobody is free to meet them yet.
    late = signed_in_page(browser, live_server_url, late_user, "en", {"viewport": PHONE})
    late.goto(arena_url)
    late.get_by_role("button", name=JOIN["en"]).click()
    late.get_by_text(WAITING["en"]).wait_for()

    for number, rank in enumerate("QKA"):
        lead, *more = [code for code in RU_HAND if code[0] == rank]
        click_card(ru, lead)
        en.get_by_role("button", name=TAKE["en"]).wait_for()
        if number == 0:
            en.screenshot(path=f"{SHOTS}/flow-table-en.png", full_page=True)
            ru.screenshot(path=f"{SHOTS}/flow-table-ru.png", full_page=True)
            within_the_screen(ru, PHONE["width"])
        click_control(en, ".control-take")
        for code in more:
            click_card(ru, code)
        if rank != "A":
            click_control(ru, ".control-done")
    for page in pages.values():
        page.locator("#table-result:not(.is-hidden)").wait_for()
    ru.screenshot(path=f"{SHOTS}/flow-result-ru.png", full_page=True)
    en.screenshot(path=f"{SHOTS}/flow-result-en.png", full_page=True)
    assert not english_words(ru, names)

    # Not the fool again, after berserk: 2 + 1; twice in a row not the fool, on fire.
    assert (entry(arena, ru_user).points, entry(arena, ru_user).on_fire) == (5, True)
    back_to_the_arena(ru, "ru", arena_url)
    assert points_of(ru) == "5"
    assert my_row(ru).locator(".arena-fire").is_visible()
    assert my_row(ru).locator('[data-testid="arena-berserk"]').is_visible()
    # Back on the page, the Russian player meets the late one (not the same opponent
    # again while another waits); the late player's page shows their table at once.
    third = new_table_of(arena, late_user, besides={first, second})
    assert services.open_table_of(arena, ru_user) == third
    late.get_by_role("link", name=TO_TABLE["en"]).wait_for(timeout=10_000)
    ru.get_by_role("link", name=TO_TABLE["ru"]).wait_for(timeout=10_000)
    back_to_the_arena(en, "en", arena_url)
    assert points_of(en) == "0"
    en.get_by_text(WAITING["en"]).wait_for()
    for lang, page in (("ru", ru), ("en", en)):
        page.screenshot(path=f"{SHOTS}/flow-points-{lang}.png", full_page=True)
    late.screenshot(path=f"{SHOTS}/flow-late-en-phone.png", full_page=True)
    assert not english_words(ru, names)

    # ------------------------------------------------------------------ the end
    # The arena's time runs out: the server's ticker ends it, and each page, still open,
    # shows the podium and the final standings.
    Arena.objects.filter(pk=arena.pk).update(
        starts_at=timezone.now() - timedelta(minutes=arena.minutes)
    )
    for lang, page in (("ru", ru), ("en", en), ("en-phone", late)):
        # The podium may come first, on a board pushed to the page; the clock's words and
        # the controls come with the fetch of the whole part that the end asks of every page.
        page.get_by_text(OVER[lang[:2]]).wait_for(timeout=15_000)
        podium = page.locator('[data-testid="arena-podium"]')
        assert podium.is_visible()
        assert podium.locator("li").first.inner_text().startswith(f"{ru_user.username} · 5")
        assert podium.locator("li").count() == 3
        assert page.get_by_role("button", name=WITHDRAW[lang[:2]]).count() == 0
        page.screenshot(path=f"{SHOTS}/flow-podium-{lang}.png", full_page=True)
    for page, width in ((ru, PHONE["width"]), (late, PHONE["width"]), (en, DESKTOP["width"])):
        within_the_screen(page, width)
    assert "5 очков" in ru.locator('[data-testid="arena-podium"]').inner_text()
    # On a narrower phone still, the page keeps to the screen.
    ru.set_viewport_size({"width": 320, "height": 700})
    within_the_screen(ru, 320)
    ru.screenshot(path=f"{SHOTS}/flow-podium-ru-320.png", full_page=True)
    assert not english_words(ru, names)
    assert Arena.objects.get(pk=arena.pk).status == Arena.Status.FINISHED
