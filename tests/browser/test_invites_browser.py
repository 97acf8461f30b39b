"""Invites in a real browser: the invite banner sits under the site header, never over
it, and a declined invite is seen by its inviter at once (Russian on a 390x844 phone,
English on a desktop, each side both ways)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone

from friends.models import Friendship, Invite
from games.models import Seat

from .test_play_now_browser import DESKTOP, PHONE, person

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

SHOTS = Path("/tmp/shots-invites")
WORDS = {
    "en": {
        "decline": "Decline",
        "invites": "invites you to table",
        "declined": "declined your invite to table",
        "ok": "OK",
    },
    "ru": {
        "decline": "Отклонить",
        "invites": "приглашает вас за стол",
        "declined": "отклонил(а) ваше приглашение за стол",
        "ok": "Понятно",
    },
}


def box(page, selector: str) -> dict:
    return page.locator(selector).first.evaluate(
        "el => { const b = el.getBoundingClientRect();"
        " return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; }"
    )


@pytest.mark.parametrize(
    ("host_language", "host_device", "guest_language", "guest_device"),
    [("en", DESKTOP, "ru", PHONE), ("ru", PHONE, "en", DESKTOP)],
    ids=["en-desktop-invites-ru-phone", "ru-phone-invites-en-desktop"],
)
def test_the_banner_clears_the_header_and_a_decline_reaches_the_inviter(
    browser, live_server_url, host_language, host_device, guest_language, guest_device
):
    host, host_user = person(browser, live_server_url, "Anna", host_language, host_device)
    guest, guest_user = person(browser, live_server_url, "Boris", guest_language, guest_device)
    Friendship.objects.create(from_user=host_user, to_user=guest_user, accepted_at=timezone.now())
    host.select_option("#id_seat_1", "")
    host.locator("form.create-table button[type=submit]").click()
    host.wait_for_url(re.compile(r".*/games/\d+/$"))
    host.wait_for_selector('#connection-state[data-state="open"]')
    host.locator(".invite-friends").get_by_role("button", name=re.compile("Boris")).click()

    # The guest reads the lobby: the banner arrives live, below the header.
    banner = guest.locator("#invite-notice .invite")
    banner.wait_for()
    assert WORDS[guest_language]["invites"] in banner.inner_text()
    header, notice = box(guest, ".site-header"), box(guest, "#invite-notice .invite")
    width = guest_device["viewport"]["width"]
    assert notice["top"] >= header["bottom"], (header, notice)
    assert notice["left"] >= 0 and notice["right"] <= width
    # Every link of the header is still there to tap: nothing lies over it.
    for link in guest.locator(".site-header a, .site-header button").all():
        if link.is_visible():
            middle = link.evaluate(
                "el => { const b = el.getBoundingClientRect();"
                " const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);"
                " return el === hit || el.contains(hit); }"
            )
            assert middle, link.inner_text()
    guest.screenshot(path=str(SHOTS / f"banner-{guest_language}.png"))

    # The guest declines; the host, waiting at the table, is told at once.
    banner.get_by_role("button", name=WORDS[guest_language]["decline"]).click()
    news = host.locator("#invite-answers .invite-declined")
    news.wait_for()
    assert re.search(
        rf"Boris {re.escape(WORDS[host_language]['declined'])} (#|№)\d+", news.inner_text()
    )
    assert Invite.objects.get().status == Invite.Status.DECLINED
    assert not Seat.objects.filter(user=guest_user).exists()
    host_header, told = box(host, ".site-header"), box(host, "#invite-answers .invite-declined")
    assert told["top"] >= host_header["bottom"]
    host.screenshot(path=str(SHOTS / f"declined-{host_language}.png"))
    # The host closes the notice.
    news.get_by_role("button", name=WORDS[host_language]["ok"]).click()
    expect_gone = host.locator("#invite-answers .invite-declined")
    expect_gone.wait_for(state="detached")
