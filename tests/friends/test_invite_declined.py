"""A declined invite reaches its inviter live, on every page they have open, in their
own language; an accepted one does not say "declined"."""

from __future__ import annotations

import pytest

from friends import services
from friends.models import Friendship
from games import services as games
from games.models import Match, RuleVariant
from tests.live.conftest import Socket
from tests.matchmaking.conftest import make_user
from tests.sockets import db, in_own_loop, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def friends(a, b) -> None:
    services.request_friend(a, b)
    services.accept_friend(b, Friendship.objects.get(from_user=a, to_user=b).pk)


def waiting_table(creator, players: int = 2) -> Match:
    return games.create_match(creator, RuleVariant.objects.get(slug="classic"), players)


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "declined your invite to table"), ("ru", "отклонил(а) ваше приглашение за стол")],
)
@in_own_loop
async def test_a_decline_reaches_the_inviter_on_every_open_page(language, words):
    anna, boris = await db(make_user, language=language), await db(make_user)
    await db(friends, anna, boris)
    match = await db(waiting_table, anna)
    cookie = await db(session_cookie, anna)
    sockets = [
        Socket(f"/ws/games/{match.pk}/", cookie),
        Socket("/ws/lobby/", cookie),
        Socket("/ws/notices/", cookie),
    ]
    for sock in sockets:
        assert (await sock.open())[0]
        await sock.drain()
    invite = await db(services.invite, anna, boris, match.pk)
    await db(services.answer_invite, boris, invite.pk, accept=False)
    for sock in sockets:
        news = await sock.until(lambda f: "invite-answers" in f)
        assert words in news and boris.username in news and f"{match.pk}" in news
        assert 'hx-swap-oob="beforeend:#invite-answers"' in news
    for sock in sockets:
        await sock.close()


@in_own_loop
async def test_an_accepted_invite_is_not_told_as_declined():
    anna, boris = await db(make_user), await db(make_user)
    await db(friends, anna, boris)
    match = await db(waiting_table, anna, 3)  # a seat left after boris takes one
    notices = Socket("/ws/notices/", await db(session_cookie, anna))
    assert (await notices.open())[0]
    await notices.drain()
    invite = await db(services.invite, anna, boris, match.pk)
    await db(services.answer_invite, boris, invite.pk, accept=True)
    # A second invite, declined, is the first news anna's page gets about answers.
    carol = await db(make_user)
    await db(friends, anna, carol)
    other = await db(services.invite, anna, carol, match.pk)
    await db(services.answer_invite, carol, other.pk, accept=False)
    news = await notices.until(lambda f: "invite-answers" in f)
    assert carol.username in news and boris.username not in news
    await notices.close()
