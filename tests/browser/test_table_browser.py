"""The card table in Chromium, in Russian and in English, as a player uses it.

Every game checks, after each push, that a beaten attack card still shows (the defence
never covers its box, and its corner is the card under the pointer there), that focus
never lands on Resign after the player's own move, and, in Russian, that no English
word is on the page.
"""

from __future__ import annotations

import re
import secrets

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.models import Match, Move, RuleVariant
from tests.browser.moves import LEAD_CARDS, click_a_legal_move

# Bots that answer at once, on a bot worker process beside the server.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_bots"),
]

DESKTOP = {"width": 1100, "height": 860}
PHONE = {"width": 390, "height": 844}
# Names a Russian page may show in Latin letters: the language switcher's own name,
# and messengers' names on the share buttons.
LATIN_ALLOWED = {"English", "Telegram", "WhatsApp"}

# Every text a person can read or hear: text nodes, labels, titles, placeholders and
# the texts scripts put on screen (data-*-text, data-confirm).
PAGE_WORDS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (parent && !parent.closest("script, style")) out.push(walker.currentNode.textContent);
  }
  for (const el of document.body.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      if (["aria-label", "title", "placeholder", "alt", "data-confirm"].includes(attr.name)
          || /^data-.*-text$/.test(attr.name)) out.push(attr.value);
    }
  }
  return out.join("\\n");
}"""

# For each beaten pair: is the attack's box wholly inside the defence's, and is the
# attack's top-left corner (its rank and suit) the card a pointer there would hit?
BEATEN_PAIRS = """(checkCorner) => [...document.querySelectorAll("#table-felt .pair.beaten")].map((pair) => {
  const a = pair.querySelector(".attack .playing-card").getBoundingClientRect();
  const d = pair.querySelector(".defence .playing-card").getBoundingClientRect();
  const covered = d.left <= a.left && d.top <= a.top && d.right >= a.right && d.bottom >= a.bottom;
  let corner = true;
  if (checkCorner) {
    pair.scrollIntoView({ block: "center" });
    const box = pair.querySelector(".attack .playing-card").getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width * 0.08, box.top + box.height * 0.06);
    corner = Boolean(hit && hit.closest(".attack"));
  }
  return { covered, corner };
})"""

# Records, for a few seconds, where each card's glide (an animation of the card
# itself, played over the new state) starts and ends.
WATCH_CARD_MOTION = """() => {
  window.cardMotion = {};
  const end = performance.now() + 5000;
  const look = () => {
    for (const animation of document.getAnimations()) {
      const target = animation.effect && animation.effect.target;
      if (!target || !target.matches || !target.matches(".playing-card[data-card]")) continue;
      const frames = animation.effect.getKeyframes();
      const seen = [frames[0].transform, frames[frames.length - 1].transform];
      const kept = window.cardMotion[target.dataset.card];
      if (!kept || kept[0] === kept[1]) window.cardMotion[target.dataset.card] = seen;
    }
    if (performance.now() < end) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

# Scripts are passed as functions: the site's Content-Security-Policy forbids eval,
# which is how Playwright would run a bare expression.
NEWER_VERSION_OR_ERROR = """(before) =>
  parseInt(document.getElementById("table-version").dataset.version) > before
  || document.querySelector("#table-error.visible") !== null"""
NEWER_VERSION = """(before) =>
  parseInt(document.getElementById("table-version").dataset.version) > before"""
PAGE_WIDTH = "() => document.documentElement.scrollWidth"

FOCUS_ON_RESIGN = (
    "() => Boolean(document.activeElement && document.activeElement.closest('.control-resign'))"
)


class Player:
    """One person at the table: their page and what the checks saw."""

    def __init__(self, browser, url: str, name: str, lang: str, *, viewport=DESKTOP, motion=False):
        self.user = get_user_model().objects.create_user(username=name, password="pw-" + name)
        self.lang = lang
        self.motion = motion
        self.url = url
        client = Client()
        client.force_login(self.user)
        self.context = browser.new_context(
            locale="ru-RU" if lang == "ru" else "en-US",
            viewport=viewport,
            reduced_motion="no-preference" if motion else "reduce",
        )
        self.context.set_default_timeout(15_000)
        self.context.add_cookies(
            [
                {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url},
                {"name": "django_language", "value": lang, "url": url},
            ]
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        # Console errors include what a Content-Security-Policy refuses.
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        self.beaten_seen = 0
        self.moves = 0

    def create_table(self, slug: str, players: int, bots: str = "easy") -> Match:
        page = self.page
        page.goto(self.url + "/")
        page.select_option(
            "form.create-table #id_variant", str(RuleVariant.objects.get(slug=slug).pk)
        )
        page.fill("form.create-table #id_players", str(players))
        for seat in range(1, players):
            page.select_option(f"#id_seat_{seat}", bots)
        page.locator("form.create-table [type=submit]").click()
        page.wait_for_url(re.compile(r".*/games/\d+/$"))
        page.wait_for_selector('#connection-state[data-state="open"]')
        page.wait_for_selector("#table-hand .hand-card")
        return Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))

    # -------------------------------------------------------------- checks
    def check_page(self) -> None:
        if self.lang == "ru":
            words = set(re.findall(r"[A-Za-z]{2,}", self.page.evaluate(PAGE_WORDS)))
            assert not words - LATIN_ALLOWED, f"English on a Russian page: {sorted(words)}"
        # A card in motion has no settled box; with reduced motion the pairs lie still.
        for pair in self.page.evaluate(BEATEN_PAIRS, not self.motion):
            assert not pair["covered"], "a defence covers the whole attack card"
            assert pair["corner"], "the attack card's corner is hidden"
            self.beaten_seen += 1
        assert not self.errors, self.errors

    def version(self) -> int:
        return int(self.page.get_attribute("#table-version", "data-version"))

    def step(self, *, double_click_lead: bool = False) -> bool:
        """One legal move, as a careful player makes it; False when there is none."""
        page = self.page
        before = self.version()
        if not click_a_legal_move(page, double_click_lead=double_click_lead):
            return False
        page.wait_for_function(NEWER_VERSION_OR_ERROR, arg=before)
        assert not page.evaluate(FOCUS_ON_RESIGN), "focus landed on Resign after a move"
        self.moves += 1
        return True

    def play(self, max_steps: int = 2000, until=None) -> None:
        for _ in range(max_steps):
            if self.page.locator("#table-result:not(.is-hidden)").count():
                return
            if until is not None and until():
                return
            if not self.step():
                self.page.wait_for_timeout(60)  # A bot is thinking.
            self.check_page()
        raise AssertionError("the game did not end")

    def finish(self) -> None:
        panel = self.page.locator("#table-result")
        panel.wait_for(state="visible")
        self.check_page()
        assert self.beaten_seen, "no beaten pair was ever checked"
        self.context.close()


def a_card_to_lead(player: Player) -> str:
    """Play on until the player may lead onto an empty table; the card it could lead.

    A push can change the page between the look and the read (once, in a PostgreSQL
    run, no card was left to read for 15 s): the card is read with a short wait, and a
    read that finds none plays on. A deal can end with the player never on lead (it
    takes bout after bout): the rematch deals another.
    """
    page = player.page
    leads = page.locator(LEAD_CARDS)
    for _ in range(20):
        if page.locator("#table-result:not(.is-hidden)").count():
            page.locator("#table-result .control-rematch").click()
            page.wait_for_selector("#table-result.is-hidden", state="attached")
        player.play(until=lambda: a_bout_to_open(player))
        try:
            return leads.first.get_attribute("data-card", timeout=2000)
        except PlaywrightTimeout:
            continue
    raise AssertionError("the player never had a bout to open")


def a_bout_to_open(player: Player) -> bool:
    """The player may lead onto an empty table: nobody else can move meanwhile (a
    throw-in could race the bot's defence, and a move at an old version is refused)."""
    page = player.page
    return not page.locator("#table-felt .pair").count() and bool(page.locator(LEAD_CARDS).count())


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_whole_game_against_a_bot(lang, browser, live_server_url):
    # The English run keeps motion on, so the view-transition path plays a game too.
    me = Player(browser, live_server_url, "Зоя", lang, motion=lang == "en")
    match = me.create_table("short-deck-24", 2)
    me.check_page()
    # A hint arrives in the table's hint line, through the same swaps as any push.
    hint = me.page.locator("#table-controls .control-hint")
    hint.wait_for()
    hint.click()
    me.page.wait_for_function("() => document.getElementById('table-hint').textContent.trim()")
    me.check_page()
    # A double click on a card sends one move: the second click finds the move in flight.
    card = a_card_to_lead(me)
    sent = Move.objects.filter(match=match, source="player").count()
    # A second click on its own (as when the answer to the first came in between and the
    # page changed under the pointer) sends nothing.
    # Dispatched through a locator, which waits for the card: a push that re-renders the
    # hand in between (under load, once) left a plain querySelector with nothing.
    me.page.locator(f'#table-hand .hand-card[data-card="{card}"]').dispatch_event(
        "click", {"bubbles": True, "detail": 2}
    )
    me.page.wait_for_timeout(300)
    assert Move.objects.filter(match=match, source="player").count() == sent
    # A throw-in in the play before may have raced the bot's answer and been refused as
    # stale; the check below is of the double click alone, so that toast fades first.
    me.page.locator("#table-error.visible").wait_for(state="detached")
    if me.motion:
        me.page.evaluate(WATCH_CARD_MOTION)
    assert me.step(double_click_lead=True)
    if me.motion:
        # The card glides from the hand to the table: its group moves.
        motion = me.page.wait_for_function(
            "(card) => { const m = window.cardMotion[card]; return m && m[0] !== m[1] && m; }",
            arg=card,
            timeout=5000,
        )
        start, end = motion.json_value()
        assert start != end, (start, end)
    # Once, in a parallel PostgreSQL run, this count came before the move's row: wait
    # for the row (a lost move still fails), then make sure no second one follows.
    stored = Move.objects.filter(match=match, source="player")
    for _ in range(50):
        if stored.count() > sent:
            break
        me.page.wait_for_timeout(100)
    me.page.wait_for_timeout(300)
    assert stored.count() == sent + 1
    assert not me.page.locator("#table-error.visible").count()
    me.play()
    # The result panel leads to the replay and its analysis.
    links = me.page.locator("#table-result a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    deals = match.deals.count()
    assert any(h.endswith(f"?deal={deals}") and "/replay/" in h for h in hrefs), hrefs
    assert any(h.endswith("#review") for h in hrefs), hrefs
    me.check_page()
    assert me.beaten_seen, "no beaten pair was ever checked"
    assert match.moves.filter(source="bot").exists()
    if lang == "ru":
        # "Your tables" in the lobby opens the finished table's replay.
        me.page.goto(live_server_url + "/")
        me.page.locator(".lobby-mine a", has_text=f"#{match.pk}").click()
        me.page.wait_for_url(f"**/games/{match.pk}/replay/")
        assert me.page.locator("#replay-step [data-card]").count() > 0
    else:
        # The rematch button deals the next game of the match.
        me.page.locator("#table-result .control-rematch").click()
        me.page.wait_for_selector("#table-result.is-hidden", state="attached")
        assert match.deals.count() == deals + 1
    me.context.close()


# A Transfer deal where the bot leads (it holds the lowest trump, the six of spades)
# and the player holds a card of every rank the bot holds: any lead can be passed on.
TRANSFER_DEAL = ["6H", "6S", "7H", "7C", "8H", "8C", "9H", "9C", "TH", "TC", "JH", "JC", "AS"]


# Sends a move through the page's own form, as a click would, at the page's version.
SEND_MOVE = """(text) => {
  const form = document.getElementById("action-form");
  form.elements.action.value = text;
  form.elements.version.value = document.getElementById("table-version").dataset.version;
  form.requestSubmit();
}"""


def test_a_refused_move_is_told_once(browser, live_server_url):
    me = Player(browser, live_server_url, "Ира", "ru")
    match = me.create_table("short-deck-24", 2)
    a_card_to_lead(me)
    seat = me.page.get_attribute("#table-page", "data-seat")
    before = me.version()
    # The player leads here, so taking is not theirs to do.
    me.page.evaluate(SEND_MOVE, f"{seat} take")
    toast = me.page.locator("#table-error.visible")
    toast.wait_for()
    assert re.search("[а-яА-Я]", toast.inner_text()), toast.inner_text()
    me.check_page()
    assert me.version() == before
    assert Match.objects.get(pk=match.pk).version == before
    toast.wait_for(state="detached")  # the toast fades after a few seconds
    # Later pushes carry no refusal: the old one stays gone.
    assert me.step()
    me.page.wait_for_function(NEWER_VERSION, arg=before + 1)
    me.page.wait_for_timeout(300)
    assert not toast.count(), toast.inner_text()


@pytest.fixture
def transfer_deal(monkeypatch):
    from durak.engine import card_index, deck_codes

    deck = TRANSFER_DEAL + [c for c in deck_codes(36) if c not in TRANSFER_DEAL]

    class Arranged(secrets.SystemRandom):
        def shuffle(self, x) -> None:  # type: ignore[override]
            # The engine shuffles the cards' indices.
            x[:] = [card_index(c) for c in deck] if len(x) == len(deck) else x

    # Patched before the server process forks, so its deals use it.
    monkeypatch.setattr(secrets, "SystemRandom", Arranged)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_transfer(lang, transfer_deal, browser, live_server_url):
    me = Player(browser, live_server_url, "Олег", lang)
    # Sound is off until turned on, and the choice outlives a reload.
    toggle = me.page.locator("#sound-toggle")
    match = me.create_table("transfer", 2)
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    me.page.reload()
    me.page.wait_for_selector('#connection-state[data-state="open"]')
    assert toggle.get_attribute("aria-pressed") == "true"
    transfer = me.page.locator("#table-controls .control-transfer")
    transfer.first.wait_for()
    me.check_page()
    before = me.version()
    transfer.first.click()
    me.page.wait_for_function(NEWER_VERSION_OR_ERROR, arg=before)
    assert not me.page.evaluate(FOCUS_ON_RESIGN)
    assert match.moves.filter(action__contains="transfer").exists()
    # Both sevens now lie on the table, attacking the bot.
    assert me.page.locator("#table-felt .pair").count() >= 2
    me.play()
    assert me.page.get_attribute("#table-page", "data-last-sound") in {"turn", "take", "over"}
    me.finish()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_team_game_two_against_two(lang, browser, live_server_url):
    me = Player(browser, live_server_url, "Ира", lang)
    me.create_table("teams-2x2", 4)
    # Around the oval: the opponents on the sides, the partner across the table.
    places = me.page.eval_on_selector_all(
        "#table-seats .seat",
        "seats => seats.map(s => [s.className, s.querySelector('.team')?.className])",
    )
    assert [p[0].split()[1] for p in places] == ["seat-left", "seat-top", "seat-right"]
    assert "team-0" in places[1][1] and "team-1" in places[0][1]
    assert me.page.locator("#table-hand .me .team-0").count() == 1
    me.play()
    me.finish()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_game_on_a_phone(lang, browser, live_server_url):
    me = Player(browser, live_server_url, "Лев", lang, viewport=PHONE)
    me.create_table("short-deck-24", 3)
    page = me.page
    # The table fits the phone's width: nothing scrolls sideways.
    assert page.evaluate(PAGE_WIDTH) <= PHONE["width"]
    # A chat line is sent once, and the input is left empty for the next one.
    page.fill("#chat-text", "привет")
    page.press("#chat-text", "Enter")
    page.locator(".chat-log .chat-line").first.wait_for()
    assert page.input_value("#chat-text") == ""
    page.press("#chat-text", "Enter")
    page.wait_for_timeout(300)
    assert page.locator(".chat-log .chat-line").count() == 1
    # A deal may end before a check finds a beaten pair on the table (the bots beat
    # and take between the player's own moves): the rematch deals another, up to three.
    for deal in range(3):
        if deal:
            page.locator("#table-result .control-rematch").click()
            page.wait_for_selector("#table-result.is-hidden", state="attached")
        me.play()
        assert page.evaluate(PAGE_WIDTH) <= PHONE["width"]
        # At game over the outcome and the way on (Rematch, Replay) are in view.  The
        # bots' pushes may swap the panel in again meanwhile: the check waits for it.
        page.locator("#table-result").wait_for(state="visible")
        for part in (".outcome", ".result-links"):
            expect(page.locator(f"#table-result {part}")).to_be_in_viewport(ratio=1)
        if me.beaten_seen:
            break
    me.finish()


YOUR_TURN = {"ru": "Ваш ход", "en": "Your turn"}


def test_two_people_in_two_languages_play_a_whole_game(browser, live_server_url):
    """A Russian player on a phone against an English one on a desktop: every push
    reaches each page in its own language, whichever of them moved."""
    russian = Player(browser, live_server_url, "Лев", "ru", viewport=PHONE)
    english = Player(browser, live_server_url, "Ника", "en")
    page = russian.page
    page.goto(live_server_url + "/")
    page.select_option(
        "form.create-table #id_variant", str(RuleVariant.objects.get(slug="short-deck-24").pk)
    )
    page.select_option("#id_seat_1", "")  # wait for a player
    page.locator("form.create-table [type=submit]").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_selector('#connection-state[data-state="open"]')
    english.page.goto(page.url)
    english.page.wait_for_selector('#connection-state[data-state="open"]')
    english.page.get_by_role("button", name="Take a seat").click()
    for player in (russian, english):
        player.page.wait_for_selector("#table-hand .hand-card")
    # The tab's title tells each player whose turn it is, in their language, and follows
    # the turn as it passes.
    leader_is_russian = bool(page.locator("#table-hand .me.acting").count())
    leader, defender = (russian, english) if leader_is_russian else (english, russian)
    for player, mine in ((leader, True), (defender, False)):
        player.page.wait_for_function(
            "([label, mine]) => document.title.startsWith(label) === mine",
            arg=[YOUR_TURN[player.lang], mine],
        )
    assert leader.step()
    for player, mine in ((leader, False), (defender, True)):
        player.page.wait_for_function(
            "([label, mine]) => document.title.startsWith(label) === mine",
            arg=[YOUR_TURN[player.lang], mine],
        )
    for _ in range(400):
        if all(p.page.locator("#table-result:not(.is-hidden)").count() for p in (russian, english)):
            break
        if not (russian.step() or english.step()):
            russian.page.wait_for_timeout(60)
        for player in (russian, english):
            player.check_page()
    else:
        raise AssertionError("the game did not end")
    assert russian.moves and english.moves
    for player in (russian, english):
        player.finish()
