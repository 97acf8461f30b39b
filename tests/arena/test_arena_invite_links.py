"""A private arena's invite link: its creator and the admins see it; a signed-in
person who opens it joins without typing the password; a wrong, old or another
arena's link is refused with nothing changed; the link is on no other page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from arena import services
from arena.invites import renew_invite_links
from arena.models import Arena, ArenaPlayer
from games.models import RuleVariant
from games.services import Refused

from .conftest import entry, person, running_arena

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()  # arenas created per user and per address are counted in the cache
    yield
    cache.clear()


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def invite_url(arena: Arena, token: str | None = None) -> str:
    return reverse("arena:invite", args=[arena.pk, token or arena.invite_token])


def players() -> list[dict]:
    return list(ArenaPlayer.objects.values())


def players_private_arena(creator) -> Arena:
    """A private arena made through the arenas page's form by ``creator``."""
    response = signed_in(creator).post(
        reverse("arena:create"),
        {
            "name": "Для своих",
            "variant": RuleVariant.objects.get(slug="classic").pk,
            "players_per_table": 2,
            "turn_seconds": 15,
            "minutes": 30,
            "starts_in": 10,
            "password": "tolko-svoi",
        },
    )
    assert response.status_code == 302
    return Arena.objects.get(created_by=creator)


def test_the_creator_sees_a_copyable_link_and_a_friend_joins_by_it_without_the_password():
    creator, friend = person(), person()
    arena = players_private_arena(creator)
    page = signed_in(creator).get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert 'data-testid="arena-invite-link"' in page
    assert f'value="http://testserver{invite_url(arena)}"' in page  # readonly, to copy
    assert "Share the invite link" in page

    client = signed_in(friend)
    opened = client.get(invite_url(arena))
    assert opened.status_code == 200
    html = opened.content.decode()
    assert "You were invited: join without the password." in html
    assert 'name="password"' not in html
    assert f'name="invite" value="{arena.invite_token}" form="arena-join-form"' in html
    joined = client.post(reverse("arena:join", args=[arena.pk]), {"invite": arena.invite_token})
    assert joined.status_code == 302
    assert entry(arena, friend).withdrawn is False


def test_the_link_is_shown_to_nobody_else_and_on_no_public_page():
    creator, stranger = person(), person()
    arena = players_private_arena(creator)
    token = arena.invite_token
    assert len(token) >= 32
    pages = [
        signed_in(stranger).get(reverse("arena:detail", args=[arena.pk])),
        Client().get(reverse("arena:detail", args=[arena.pk])),
        signed_in(creator).get(reverse("arena:list")),
        signed_in(creator).get(reverse("arena:standings", args=[arena.pk])),
        signed_in(creator).get(reverse("table:lobby")),
        Client().get(reverse("arena:list")),
    ]
    for response in pages:
        assert response.status_code == 200
        html = response.content.decode()
        assert token not in html and "/invite/" not in html
    # A player who joined with the password sees no link either: it is the creator's.
    services.join(stranger, arena, "tolko-svoi")
    page = signed_in(stranger).get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert token not in page


def test_an_admin_sees_the_link_on_the_page_and_in_the_admin():
    arena = running_arena(password="secret")
    admin = get_user_model().objects.create_superuser(username="adm", password="pw-adm")
    client = signed_in(admin)
    page = client.get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert invite_url(arena) in page
    change = client.get(reverse("admin:arena_arena_change", args=[arena.pk])).content.decode()
    assert invite_url(arena) in change


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This invite link is wrong or no longer valid; ask for a new one."),
        ("ru", "Эта ссылка-приглашение неверна или больше не действует; попросите новую."),
    ],
)
def test_a_wrong_link_is_refused_clearly_and_changes_nothing(language, words):
    arena = running_arena(password="secret")
    user = person()
    client = signed_in(user, language)
    forged = arena.invite_token[:-4] + "AAAA"
    opened = client.get(invite_url(arena, forged))
    assert opened.status_code == 403
    html = opened.content.decode()
    assert words in html
    assert arena.invite_token not in html  # a guess never shows the real link
    joined = client.post(reverse("arena:join", args=[arena.pk]), {"invite": forged})
    assert joined.status_code == 403 and words in joined.content.decode()
    assert players() == []


def test_the_link_of_another_arena_opens_nothing():
    mine = running_arena(password="one")
    theirs = running_arena(password="two")
    user = person()
    with pytest.raises(Refused) as refusal:
        services.join(user, mine, invite_token=theirs.invite_token)
    assert refusal.value.code == "invite"
    assert signed_in(user).get(invite_url(mine, theirs.invite_token)).status_code == 403
    assert players() == []
    services.join(user, theirs, invite_token=theirs.invite_token)
    assert list(ArenaPlayer.objects.values_list("arena_id", flat=True)) == [theirs.pk]


def test_a_renewed_link_refuses_the_old_one():
    arena = running_arena(password="secret")
    old = arena.invite_token
    admin = get_user_model().objects.create_superuser(username="adm2", password="pw-adm2")
    response = signed_in(admin).post(
        reverse("admin:arena_arena_changelist"),
        {"action": "renew_invites", "_selected_action": [arena.pk]},
    )
    assert response.status_code == 302
    arena.refresh_from_db()
    assert arena.invite_token and arena.invite_token != old
    user = person()
    with pytest.raises(Refused) as refusal:
        services.join(user, arena, invite_token=old)
    assert refusal.value.code == "invite"
    assert players() == []
    services.join(user, arena, invite_token=arena.invite_token)
    assert renew_invite_links([arena.pk]) == 1


def test_a_new_password_in_the_admin_makes_a_new_link():
    arena = running_arena(password="secret")
    old = arena.invite_token
    admin = get_user_model().objects.create_superuser(username="adm3", password="pw-adm3")
    client = signed_in(admin)
    form = client.get(reverse("admin:arena_arena_change", args=[arena.pk])).context["adminform"]
    data = {name: value for name, value in form.form.initial.items() if value is not None}
    data.update(
        {
            "variant": arena.variant_id,
            "starts_at_0": arena.starts_at.strftime("%Y-%m-%d"),
            "starts_at_1": arena.starts_at.strftime("%H:%M:%S"),
            "password": "new-secret",
            "players-TOTAL_FORMS": 0,
            "players-INITIAL_FORMS": 0,
        }
    )
    data.pop("is_rated", None)
    data.pop("bots_allowed", None)
    data.pop("min_rating", None)
    data.pop("min_reliability", None)
    response = client.post(reverse("admin:arena_arena_change", args=[arena.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    arena.refresh_from_db()
    assert arena.password == "new-secret" and arena.invite_token != old
    with pytest.raises(Refused):
        services.join(person(), arena, invite_token=old)


def test_a_signed_out_visitor_is_asked_to_log_in_first():
    arena = running_arena(password="secret")
    response = Client().get(invite_url(arena))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]
    assert players() == []


def test_a_public_arena_has_no_link_and_its_address_leads_to_the_page():
    arena = running_arena()
    assert arena.invite_token == ""
    response = signed_in(person()).get(reverse("arena:invite", args=[arena.pk, "anything"]))
    assert response.status_code == 302
    assert response["Location"] == reverse("arena:detail", args=[arena.pk])
    made_open = running_arena(password="secret")
    made_open.password = ""
    made_open.save()
    assert made_open.invite_token == ""


def test_the_link_still_checks_the_other_conditions():
    arena = running_arena(password="secret", min_reliability=90)
    user = person()
    get_user_model().objects.filter(pk=user.pk).update(reliability=50)
    user.refresh_from_db()
    with pytest.raises(Refused) as refusal:
        services.join(user, arena, invite_token=arena.invite_token)
    assert refusal.value.code == "reliability"
    assert players() == []


def test_an_invited_player_refused_for_another_condition_keeps_the_invite_on_the_page():
    arena = running_arena(password="secret", min_reliability=90)
    user = person()
    get_user_model().objects.filter(pk=user.pk).update(reliability=50)
    client = signed_in(user)
    response = client.post(reverse("arena:join", args=[arena.pk]), {"invite": arena.invite_token})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This arena asks for a reliability of at least 90; yours is 50." in html
    assert "You were invited: join without the password." in html
    assert 'name="password"' not in html
    wrong = client.post(reverse("arena:join", args=[arena.pk]), {"invite": "not-the-token"})
    html = wrong.content.decode()
    assert wrong.status_code == 403 and "You were invited" not in html
    assert 'name="password"' in html and "not-the-token" not in html
    assert players() == []


def test_an_arena_made_private_behind_the_models_back_gets_a_link_on_its_next_save():
    arena = running_arena()
    Arena.objects.filter(pk=arena.pk).update(password="secret")
    arena.refresh_from_db()
    assert arena.invite_token == ""
    admin = get_user_model().objects.create_superuser(username="adm4", password="pw-adm4")
    page = signed_in(admin).get(reverse("arena:detail", args=[arena.pk]))
    assert page.status_code == 200 and "/invite/" not in page.content.decode()  # no link yet
    arena.status = Arena.Status.FINISHED
    arena.save(update_fields=["status"])
    stored = Arena.objects.get(pk=arena.pk)
    assert stored.status == Arena.Status.FINISHED and len(stored.invite_token) >= 32
