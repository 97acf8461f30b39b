import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from games.services import Refused, create_match, join_match, post_chat
from moderation.models import AuditLogEntry

from .conftest import PASSWORD, User, make_match

LIST_URL = reverse("admin:accounts_user_changelist")
LOGIN_URL = reverse("accounts:login")


def run_action(client, action: str, users: list, **form):
    data = {"action": action, "_selected_action": [u.pk for u in users]}
    if not form:
        return client.post(LIST_URL, {**data, "index": 0}, follow=True)
    page = client.post(LIST_URL, {**data, "index": 0})
    assert page.status_code == 200 and "<form" in page.content.decode()
    return client.post(LIST_URL, {**data, "_apply": "1", **form}, follow=True)


@pytest.mark.django_db
def test_suspend_for_days_with_reason_then_lift(moderator_client, moderator, players):
    ivan, olga, _ = players
    run_action(moderator_client, "suspend", [ivan, olga], duration="3", reason="Insults")
    ivan.refresh_from_db()
    assert ivan.is_suspended and not ivan.suspended_forever
    expected = timezone.now() + datetime.timedelta(days=3)
    assert abs(ivan.suspended_until - expected) < datetime.timedelta(minutes=1)
    assert ivan.suspension_reason == "Insults"
    entries = AuditLogEntry.objects.filter(action="suspend")
    assert {e.target_id for e in entries} == {str(ivan.pk), str(olga.pk)}
    assert {e.actor for e in entries} == {moderator}
    assert {e.reason for e in entries} == {"Insults"}

    run_action(moderator_client, "unsuspend", [ivan])
    ivan.refresh_from_db()
    assert not ivan.is_suspended
    assert AuditLogEntry.objects.get(action="unsuspend").target_id == str(ivan.pk)


@pytest.mark.django_db
def test_suspend_forever_and_mute(admin_client, players):
    ivan, olga, _ = players
    run_action(admin_client, "suspend", [ivan], duration="forever", reason="Cheating")
    run_action(admin_client, "mute", [olga], minutes="60", reason="Spam")
    ivan.refresh_from_db()
    olga.refresh_from_db()
    assert ivan.suspended_forever and ivan.is_suspended
    assert olga.is_muted and not olga.is_suspended
    assert olga.muted_until - timezone.now() > datetime.timedelta(minutes=59)
    assert AuditLogEntry.objects.get(action="mute").reason == "Spam"
    run_action(admin_client, "unmute", [olga])
    olga.refresh_from_db()
    assert not olga.is_muted
    assert AuditLogEntry.objects.filter(action="unmute").count() == 1


@pytest.mark.django_db
def test_a_moderator_cannot_moderate_staff_or_themselves(moderator_client, moderator, superuser):
    response = run_action(
        moderator_client, "suspend", [moderator, superuser], duration="1", reason="x"
    )
    assert "left alone" in response.content.decode()
    assert not User.objects.filter(
        pk__in=[moderator.pk, superuser.pk], suspended_until__isnull=False
    )
    assert not AuditLogEntry.objects.exists()


@pytest.mark.django_db
def test_suspended_user_is_refused_at_login_with_reason_and_date(client, players):
    ivan = players[0]
    ivan.suspended_until = timezone.now() + datetime.timedelta(days=2)
    ivan.suspension_reason = "Insulting other players"
    ivan.save()
    response = client.post(LOGIN_URL, {"username": "ivan", "password": PASSWORD})
    html = response.content.decode()
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "suspended until" in html and "Insulting other players" in html
    assert str(ivan.suspended_until.year) in html
    # A wrong password says nothing about the suspension.
    response = client.post(LOGIN_URL, {"username": "ivan", "password": "wrong-password"})
    assert "suspended" not in response.content.decode()
    # Once it has run out, the player logs in again.
    ivan.suspended_until = timezone.now() - datetime.timedelta(seconds=1)
    ivan.save()
    assert client.post(LOGIN_URL, {"username": "ivan", "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_logged_in_player_suspended_meanwhile_is_signed_out_and_told(client, players):
    ivan = players[0]
    client.force_login(ivan)
    assert client.get("/").status_code == 200
    User.objects.filter(pk=ivan.pk).update(suspended_forever=True, suspension_reason="Bots")
    response = client.get("/", follow=True)
    assert "_auth_user_id" not in client.session
    assert response.redirect_chain[0][0] == LOGIN_URL
    assert "suspended for good" in response.content.decode()
    assert "Bots" in response.content.decode()


@pytest.mark.django_db
def test_suspended_user_cannot_create_join_or_chat(classic, players):
    ivan, olga, petr = players
    table = make_match(classic, [olga], status="waiting", players=3)
    User.objects.filter(pk=ivan.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(hours=1)
    )
    ivan.refresh_from_db()
    with pytest.raises(Refused) as refused:
        join_match(table, ivan)
    assert refused.value.code == "suspended"
    with pytest.raises(Refused) as refused:
        create_match(ivan, classic, 2)
    assert refused.value.code == "suspended"
    with pytest.raises(Refused) as refused:
        post_chat(table.pk, ivan, "hello")
    assert refused.value.code == "suspended"
    # Someone not suspended is let through by the same calls.
    assert join_match(table, petr).number == 1
    assert post_chat(table.pk, petr, "hello").text == "hello"


@pytest.mark.django_db
def test_muted_user_cannot_chat_but_may_play(classic, players):
    ivan, olga, _ = players
    table = make_match(classic, [olga, ivan])
    User.objects.filter(pk=ivan.pk).update(muted_until=timezone.now() + datetime.timedelta(hours=1))
    ivan.refresh_from_db()
    with pytest.raises(Refused) as refused:
        post_chat(table.pk, ivan, "hello")
    assert refused.value.code == "muted"
    assert create_match(ivan, classic, 2).creator == ivan


@pytest.mark.django_db
def test_moderator_cannot_see_or_change_passwords(moderator_client, players):
    ivan = players[0]
    change = reverse("admin:accounts_user_change", args=[ivan.pk])
    page = moderator_client.get(change)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Suspend" in moderator_client.get(LIST_URL).content.decode()
    # Neither the link to the password form nor the hash summary (md5 in tests).
    assert "password/" not in html and "md5" not in html
    password_url = reverse("admin:auth_user_password_change", args=[ivan.pk])
    response = moderator_client.post(
        password_url, {"password1": "NewPassw0rd!x", "password2": "NewPassw0rd!x"}
    )
    assert response.status_code == 403
    moderator_client.post(change, {"username": "renamed"})
    ivan.refresh_from_db()
    assert ivan.username == "ivan" and ivan.check_password(PASSWORD)


@pytest.mark.django_db
def test_superuser_still_sees_the_password_link(admin_client, players):
    change = reverse("admin:accounts_user_change", args=[players[0].pk])
    assert "../password/" in admin_client.get(change).content.decode()


@pytest.mark.django_db
def test_moderation_actions_need_the_moderation_right(client, players):
    viewer = User.objects.create_user("viewer", password="x", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_user"))
    client.force_login(viewer)
    client.post(
        LIST_URL,
        {
            "action": "suspend",
            "_selected_action": [players[0].pk],
            "_apply": "1",
            "duration": "forever",
            "reason": "x",
        },
    )
    players[0].refresh_from_db()
    assert not players[0].is_suspended


@pytest.mark.django_db
def test_suspended_player_with_an_open_session_cannot_join_over_http(client, classic, players):
    ivan, olga, _ = players
    table = make_match(classic, [olga], status="waiting", players=2)
    client.force_login(ivan)
    User.objects.filter(pk=ivan.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=1), suspension_reason="Abuse"
    )
    response = client.post(reverse("table:join", args=[table.pk]), follow=True)
    assert not table.seats.filter(user=ivan).exists()
    assert "_auth_user_id" not in client.session
    assert "suspended until" in response.content.decode()
