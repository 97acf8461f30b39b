"""A player's public arena is news for their friends: a push through the site's Web
Push path, in each friend's language, opening the arena's page.  A private arena, or
an arena an admin makes, tells nobody; nor is anyone but a friend told."""

from __future__ import annotations

import json

import http_ece
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from arena import player_arenas
from arena.models import Arena
from friends import services as friends
from friends.models import Friendship
from games import services as games
from games.models import RuleVariant
from notifications.models import PushSubscription
from notifications.tasks import send_push
from tests.live.conftest import Socket
from tests.notifications.conftest import push_service, vapid  # noqa: F401 (fixtures)
from tests.notifications.keys import Browser
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import person

pytestmark = pytest.mark.django_db

ARENA_FORM = {
    "name": "Вечерний подкидной",
    "players_per_table": 2,
    "turn_seconds": 15,
    "minutes": 30,
    "starts_in": 10,
    "is_rated": False,
    "password": "",
}


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()  # arenas created per user and per address are counted in the cache
    yield
    cache.clear()


def subscribe(user, endpoint: str = "", language: str = "ru") -> Browser:
    browser = Browser.new()
    info = browser.subscription(endpoint or f"https://push.example.net/{user.pk}")
    PushSubscription.objects.create(
        user=user, endpoint=info["endpoint"], **info["keys"], language=language
    )
    return browser


def befriend(a, b) -> None:
    friends.request_friend(a, b)
    friends.accept_friend(b, Friendship.objects.get(from_user=a, to_user=b).pk)


def arena_pushes() -> list[tuple[int, dict]]:
    rows = DBTaskResult.objects.filter(task_path="notifications.tasks.send_push")
    return sorted(
        (row.args_kwargs["args"][0], row.args_kwargs["kwargs"])
        for row in rows
        if row.args_kwargs["args"][1] == "arena"
    )


def create(creator, password: str = "") -> Arena:
    client = Client()
    client.force_login(creator)
    response = client.post(
        reverse("arena:create"),
        {
            "name": "Вечерний подкидной",
            "variant": RuleVariant.objects.get(slug="classic").pk,
            "players_per_table": 2,
            "turn_seconds": 15,
            "minutes": 30,
            "starts_in": 10,
            "password": password,
        },
    )
    assert response.status_code == 302
    return Arena.objects.filter(created_by=creator).latest("pk")


def test_each_friend_with_pushes_is_told_of_a_public_arena_and_nobody_else(
    vapid,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    creator, anna, boris, stranger, quiet = (person() for _ in range(5))
    for friend in (anna, boris, quiet):
        befriend(creator, friend)
    for user in (anna, boris, stranger):
        subscribe(user)
    with django_capture_on_commit_callbacks(execute=True):
        arena = create(creator)
    told = {"arena_id": arena.pk, "from_user_id": creator.pk}
    assert arena_pushes() == [(anna.pk, told), (boris.pk, told)]


def test_a_private_arena_tells_nobody(vapid, django_capture_on_commit_callbacks):  # noqa: F811
    creator, friend = person(), person()
    befriend(creator, friend)
    subscribe(friend)
    with django_capture_on_commit_callbacks(execute=True):
        create(creator, password="svoi")
    assert arena_pushes() == []


def test_an_arena_made_by_hand_tells_nobody(vapid, django_capture_on_commit_callbacks):  # noqa: F811
    creator, friend = person(), person()
    befriend(creator, friend)
    subscribe(friend)
    with django_capture_on_commit_callbacks(execute=True):
        Arena.objects.create(
            name="Admin's",
            variant=RuleVariant.objects.get(slug="classic"),
            starts_at=timezone.now(),
            created_by=creator,
        )
    assert arena_pushes() == []


@pytest.mark.parametrize(
    ("language", "title", "body"),
    [
        ("ru", "Арена друга", "{name} создаёт арену «Вечерний подкидной». Присоединяйтесь!"),
        ("en", "A friend's arena", "{name} created the arena “Вечерний подкидной”. Join it!"),
    ],
)
def test_the_push_reads_in_the_friends_language_and_opens_the_arena(
    vapid,  # noqa: F811
    push_service,  # noqa: F811
    language,
    title,
    body,
):
    creator, friend = person(), person()
    befriend(creator, friend)
    browser = subscribe(friend, f"{push_service.origin}/device", language=language)
    arena = create(creator)
    assert send_push.call(friend.pk, "arena", arena_id=arena.pk, from_user_id=creator.pk) == 1
    ((_path, _headers, sent),) = push_service.received
    news = json.loads(
        http_ece.decrypt(sent, private_key=browser.keys.private, auth_secret=browser.secret)
    )
    assert news == {
        "title": title,
        "body": body.format(name=creator.username),
        "url": f"/arena/{arena.pk}/",
        "tag": f"arena-{arena.pk}",
    }


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_friends_open_pages_show_the_news_at_once_in_their_language():
    creator = await db(person)
    russian = await db(person)
    await db(get_user_model().objects.filter(pk=russian.pk).update, language="ru")
    stranger = await db(person)
    await db(befriend, creator, russian)
    table = await db(
        lambda: games.create_match(russian, RuleVariant.objects.get(slug="classic"), 2)
    )
    cookie = await db(session_cookie, russian)
    pages = [
        Socket("/ws/lobby/", cookie),
        Socket(f"/ws/games/{table.pk}/", cookie),
        Socket("/ws/notices/", cookie),
    ]
    strangers_page = Socket("/ws/notices/", await db(session_cookie, stranger))
    for sock in [*pages, strangers_page]:
        assert (await sock.open())[0]
        await sock.drain()
    data = {**ARENA_FORM, "variant": await db(lambda: RuleVariant.objects.get(slug="classic"))}
    arena = await db(player_arenas.create_player_arena, creator, "10.0.0.9", data)
    for sock in pages:
        news = await sock.until(lambda f: "friend-arena" in f, timeout=5)
        assert f"{creator.username} создаёт арену «Вечерний подкидной»." in news
        assert f'href="/arena/{arena.pk}/"' in news and "Открыть арену" in news
        assert 'hx-swap-oob="beforeend:#invite-answers"' in news
    await strangers_page.drain()
    assert not any("friend-arena" in frame for frame in strangers_page.frames)
    private = await db(
        player_arenas.create_player_arena, creator, "10.0.0.9", {**data, "password": "svoi"}
    )
    await pages[2].drain()
    assert not any(f"/arena/{private.pk}/" in frame for frame in pages[2].frames)
    for sock in [*pages, strangers_page]:
        await sock.close()
