"""Bot accounts' own rating: a game between bot accounts moves only their bots'
rating (Glicko-2, the history app's), never a people's one; a game between a person
and a bot account moves nobody's; the leaderboard's "Bot accounts" board lists bot
accounts, marked as bots, and no person, and the people's boards no bot account; the
API's profile shows the bots' rating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from friends import services as friends
from friends.models import Invite
from games import services
from games.models import Match
from history.models import PlayerGame, Rating, RatingChange
from matchmaking import challenges
from matchmaking import services as matchmaking
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.models import Seek
from tests.api.helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db
WISHES = {
    "mode": "podkidnoy", "players": 2, "deck_size": 36, "speed": "normal",
    "is_rated": True, "allow_bots": False,
}  # fmt: skip


@pytest.fixture(autouse=True)
def one_game_on_the_board(settings) -> None:
    settings.LEADERBOARD_MIN_GAMES = 1
    settings.MATCHMAKING_ALONE_BOT_SECONDS = 60


def paired(one, other, *, bot_pool: bool) -> Match:
    matchmaking.create_seek(one, **WISHES, bot_pool=bot_pool)
    seek = matchmaking.create_seek(other, **WISHES, bot_pool=bot_pool)
    assert seek.match is not None
    return seek.match


def ratings_of(user) -> dict[str, int]:
    return dict(Rating.objects.filter(user=user).values_list("rating_class", "games"))


def test_a_game_between_bot_accounts_moves_only_their_bots_rating():
    robo, droid = turn_into_bot(make_user("robo")), turn_into_bot(make_user("droid"))
    match = paired(robo, droid, bot_pool=True)

    services.resign(match.pk, robo)

    assert ratings_of(robo) == {"bots": 1} and ratings_of(droid) == {"bots": 1}
    assert Rating.objects.get(user=droid).rating > Rating.objects.get(user=robo).rating
    rows = PlayerGame.objects.filter(match=match)
    assert {(r.rating_class, r.is_rated) for r in rows} == {("bots", True)}
    assert set(RatingChange.objects.values_list("rating_class", flat=True)) == {"bots"}


def test_a_game_between_a_person_and_a_bot_account_moves_no_rating():
    ann, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    friends.accept_friend(robo, friends.request_friend(ann, robo).pk)
    match = challenges.challenge(ann, robo, {"is_rated": True})
    # Even a table marked rated (as one made before this rule was) rates nobody.
    Match.objects.filter(pk=match.pk).update(is_rated=True)
    friends.answer_invite(robo, Invite.objects.get(match=match).pk, accept=True)

    services.resign(match.pk, ann)

    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not PlayerGame.objects.filter(is_rated=True).exists()


def test_a_bot_seeks_rating_is_its_bots_rating():
    robo, droid = turn_into_bot(make_user("robo")), turn_into_bot(make_user("droid"))
    services.resign(paired(robo, droid, bot_pool=True).pk, robo)
    seek = matchmaking.create_seek(droid, **WISHES, bot_pool=True)
    assert seek.rating == Rating.objects.get(user=droid, rating_class="bots").rating


def boards() -> tuple[object, object, object]:
    """Two bot accounts and two people, each pair after one rated game of its own."""
    robo, droid = turn_into_bot(make_user("robo")), turn_into_bot(make_user("droid"))
    ann, bob = make_user("ann"), make_user("bob")
    services.resign(paired(robo, droid, bot_pool=True).pk, robo)
    services.resign(paired(ann, bob, bot_pool=False).pk, ann)
    return robo, droid, ann


@pytest.mark.parametrize(
    "language, label, badge", [("en", "Bot accounts", "bot"), ("ru", "Аккаунты ботов", "бот")]
)
def test_the_bots_board_lists_bot_accounts_marked_as_bots_and_no_person(language, label, badge):
    boards()
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("daily:leaderboard") + "?class=bots")
    html = page.content.decode()
    board = html.split('data-testid="leaderboard"')[1].split("</table>")[0]
    assert f"<strong>{label}</strong>" in html
    assert board.index(">droid<") < board.index(">robo<")  # the winner first
    assert board.count(badge) >= 2
    assert ">ann<" not in board and ">bob<" not in board


def test_the_peoples_boards_list_no_bot_account():
    boards()
    page = Client().get(reverse("daily:leaderboard") + "?class=two_player")
    board = page.content.decode().split('data-testid="leaderboard"')[1].split("</table>")[0]
    assert ">bob<" in board and ">ann<" in board
    assert ">robo<" not in board and ">droid<" not in board


def test_the_api_profile_shows_the_bots_rating():
    robo, _droid, ann = boards()
    shown = api_client(token_of(ann)).get("/api/users/robo").json()
    assert shown["is_bot"] is True
    assert [(r["rating_class"], r["games"]) for r in shown["ratings"]] == [("bots", 1)]
    person = api_client(token_of(robo)).get("/api/users/ann").json()
    assert [r["rating_class"] for r in person["ratings"]] == ["two_player"]


def test_a_bot_tables_page_shows_the_bots_ratings_to_a_watcher():
    robo, droid = turn_into_bot(make_user("robo")), turn_into_bot(make_user("droid"))
    services.resign(paired(robo, droid, bot_pool=True).pk, robo)
    shown = {u.username: round(Rating.objects.get(user=u).rating) for u in (robo, droid)}
    assert shown["robo"] != 1500 and shown["droid"] != 1500
    # Their ratings are far apart now: they pair once both windows have widened.
    matchmaking.create_seek(robo, **WISHES, bot_pool=True)
    matchmaking.create_seek(droid, **WISHES, bot_pool=True)
    Seek.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    [second] = matchmaking.pair_all()
    watcher = Client()
    watcher.force_login(make_user("ann"))
    page = watcher.get(reverse("table:table", args=[second])).content.decode()
    header = page.split('data-testid="table-ratings"')[1].split("</p>")[0]
    assert f"robo <strong>{shown['robo']}</strong>" in header
    assert f"droid <strong>{shown['droid']}</strong>" in header


def test_the_site_profile_shows_a_bot_accounts_bots_rating_and_a_persons_none():
    robo, _droid, ann = boards()
    reader = Client(HTTP_ACCEPT_LANGUAGE="ru")
    bot_page = reader.get(reverse("accounts:profile", args=["robo"])).content.decode()
    row = bot_page.split('data-class="bots"')[1].split("</tr>")[0]
    assert "Аккаунты ботов" in row
    assert f"<td>{round(Rating.objects.get(user=robo).rating)} " in row
    person_page = reader.get(reverse("accounts:profile", args=["ann"])).content.decode()
    assert 'data-class="two_player"' in person_page
    assert 'data-class="bots"' not in person_page
