"""Friends in a real browser: a request accepted live, an invite that arrives live and
seats its friend, "Play" beside a friend, and a blocked player refused at the table
(Russian phone, English desktop)."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from friends.models import Block, Friendship
from games.models import Match, Seat

from .test_play_now_browser import DESKTOP, PHONE, person

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]


def create_waiting_table(page, button: str) -> None:
    page.select_option("#id_seat_1", "")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_selector('#connection-state[data-state="open"]')


def test_a_friend_request_accepted_and_an_invite_arriving_live(browser, live_server_url):
    anna, anna_user = person(browser, live_server_url, "Anna", "en", DESKTOP)
    boris, boris_user = person(browser, live_server_url, "Boris", "ru", PHONE)
    anna.goto(f"{live_server_url}/u/Boris/")
    anna.get_by_role("button", name="Add friend").click()
    anna.wait_for_selector("text=Friend request sent")
    # Boris is in the lobby: the request shows there without a reload.
    boris.wait_for_selector("#friends-panel >> text=Anna хочет с вами дружить.")
    boris.locator("#friends-panel").get_by_role("button", name="Принять").click()
    boris.wait_for_selector('#friends-panel [data-friend="Anna"]')
    anna.goto(live_server_url + "/")
    create_waiting_table(anna, "Create table")
    anna.locator(".invite-friends").get_by_role("button", name=re.compile("Boris")).click()
    anna.wait_for_selector("text=Boris is invited.")
    # The invite reaches Boris's open lobby live; he joins from it.
    notice = boris.locator("#invite-notice .invite")
    notice.wait_for()
    assert "Anna приглашает вас за стол" in notice.inner_text()
    notice.get_by_role("button", name="Сесть").click()
    boris.wait_for_url(anna.url)
    match = Match.objects.get(seats__user=anna_user)
    assert Seat.objects.filter(match=match, user=boris_user).exists()
    anna.wait_for_selector("#table-hand .hand-card")


def test_an_invite_arrives_live_on_a_profile_page_and_join_seats_the_friend(
    browser, live_server_url
):
    vera, vera_user = person(browser, live_server_url, "Vera", "en", DESKTOP)
    gleb, gleb_user = person(browser, live_server_url, "Gleb", "ru", PHONE)
    Friendship.objects.create(from_user=vera_user, to_user=gleb_user, accepted_at=timezone.now())
    # Gleb reads a profile: a page with no socket of its own but the notice socket.
    gleb.goto(f"{live_server_url}/u/Vera/")
    gleb.wait_for_selector('.notice-socket[ws-connect="/ws/notices/"]', state="attached")
    gleb.evaluate("window.sameLoad = true")  # gone if the page reloads
    create_waiting_table(vera, "Create table")
    vera.locator(".invite-friends").get_by_role("button", name=re.compile("Gleb")).click()
    vera.wait_for_selector("text=Gleb is invited.")
    notice = gleb.locator("#invite-notice .invite")
    notice.wait_for()
    assert "Vera приглашает вас за стол" in notice.inner_text()
    assert gleb.evaluate("window.sameLoad === true")  # it came without a reload
    notice.get_by_role("button", name="Сесть").click()
    gleb.wait_for_url(vera.url)
    assert Seat.objects.filter(match__seats__user=vera_user, user=gleb_user).exists()
    vera.wait_for_selector("#table-hand .hand-card")


def test_play_beside_a_friend_makes_a_table_for_two_and_the_friend_joins(browser, live_server_url):
    lena, lena_user = person(browser, live_server_url, "Lena", "ru", PHONE)
    mark, mark_user = person(browser, live_server_url, "Mark", "en", DESKTOP)
    Friendship.objects.create(from_user=lena_user, to_user=mark_user, accepted_at=timezone.now())
    lena.reload()
    lena.locator('#friends-panel [data-friend="Mark"]').get_by_role(
        "button", name="Сыграть"
    ).click()
    lena.wait_for_url(re.compile(r".*/games/\d+/$"))
    match = Match.objects.get(seats__user=lena_user)
    assert match.is_private and match.players == 2
    # Mark waits in the lobby: the invite reaches him there, and he sits down.
    notice = mark.locator("#invite-notice .invite")
    notice.wait_for()
    assert f"Lena invites you to table #{match.pk}." in notice.inner_text()
    notice.get_by_role("button", name="Join").click()
    mark.wait_for_url(lena.url)
    lena.wait_for_selector("#table-hand .hand-card")
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


def test_a_blocked_player_cannot_join(browser, live_server_url):
    dana, dana_user = person(browser, live_server_url, "Dana", "en", PHONE)
    carl, carl_user = person(browser, live_server_url, "Carl", "ru", DESKTOP)
    dana.goto(live_server_url + "/")
    create_waiting_table(dana, "Create table")
    table = dana.url
    carl.goto(live_server_url + "/")
    join = carl.locator("#open-tables").get_by_role("button", name="Сесть")
    join.wait_for()
    # Dana blocks Carl while his lobby still shows her table.
    dana.goto(f"{live_server_url}/u/Carl/")
    dana.get_by_role("button", name="Block").click()
    dana.wait_for_selector("text=Unblock")
    assert Block.objects.filter(blocker=dana_user, blocked=carl_user).exists()
    join.click()
    carl.wait_for_selector("text=Игрок за этим столом заблокировал вас.")
    assert not Seat.objects.filter(user=carl_user).exists()
    # From now on his lobby leaves her table out, and the table does not open for him.
    carl.goto(live_server_url + "/")
    assert carl.locator("#open-tables").get_by_text("Открытых столов сейчас нет").count() == 1
    assert carl.goto(table).status == 404
