"""Turning pushes on and off for one browser: what is stored, and what is refused."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from notifications.models import PushSubscription
from notifications.subscriptions import MAX_PER_USER
from tests.matchmaking.conftest import make_user
from tests.notifications.keys import Browser, b64url

pytestmark = pytest.mark.django_db

ENDPOINT = "https://push.example.net/send/abc123"


def post(client: Client, name: str, body, **headers):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(
        reverse(f"notifications:{name}"), data, content_type="application/json", **headers
    )


def signed_in(language: str = "ru"):
    user = make_user()
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return user, client


def test_a_subscription_is_stored_in_the_page_language_and_removed(vapid):
    user, client = signed_in("ru")
    browser = Browser.new()
    response = post(client, "subscribe", browser.subscription(ENDPOINT))
    assert response.status_code == 200 and response.json() == {"ok": True}
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.endpoint, stored.language) == (user, ENDPOINT, "ru")
    assert stored.p256dh == browser.keys.public_b64 and stored.auth == b64url(browser.secret)
    # The same browser again is the same subscription.
    assert post(client, "subscribe", browser.subscription(ENDPOINT)).status_code == 200
    assert PushSubscription.objects.count() == 1
    response = post(client, "unsubscribe", {"endpoint": ENDPOINT})
    assert response.json() == {"ok": True, "removed": 1}
    assert not PushSubscription.objects.exists()


def test_a_browser_that_changes_hands_is_the_new_players(vapid):
    first, first_client = signed_in()
    second, second_client = signed_in()
    subscription = Browser.new().subscription(ENDPOINT)
    post(first_client, "subscribe", subscription)
    post(second_client, "subscribe", subscription)
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [second.pk]
    # Someone else's subscription is not theirs to remove.
    assert post(first_client, "unsubscribe", {"endpoint": ENDPOINT}).json()["removed"] == 0
    assert PushSubscription.objects.count() == 1


def bad_bodies():
    good = Browser.new().subscription(ENDPOINT)
    keys = good["keys"]
    short_key = b64url(b"\x04" + bytes(40))
    not_a_point = b64url(b"\x05" + bytes(64))
    return {
        "not json": "{endpoint",
        "a list": [good],
        "no endpoint": {"keys": keys},
        "http endpoint": {**good, "endpoint": "http://push.example.net/send/1"},
        "javascript endpoint": {**good, "endpoint": "javascript:alert(1)"},
        "endpoint with a password": {**good, "endpoint": "https://a:b@push.example.net/x"},
        "endpoint too long": {**good, "endpoint": "https://push.example.net/" + "a" * 1000},
        "no keys": {"endpoint": ENDPOINT},
        "key not base64": {**good, "keys": {**keys, "p256dh": "not base64!"}},
        "key too short": {**good, "keys": {**keys, "p256dh": short_key}},
        "key not a point": {**good, "keys": {**keys, "p256dh": not_a_point}},
        "secret too long": {**good, "keys": {**keys, "auth": b64url(bytes(32))}},
        "secret missing": {**good, "keys": {"p256dh": keys["p256dh"]}},
        "secret a number": {**good, "keys": {**keys, "auth": 12345}},
    }


@pytest.mark.parametrize("case", list(bad_bodies()))
def test_bad_input_is_refused_with_a_reason_and_nothing_stored(vapid, case):
    _user, client = signed_in("en")
    response = post(client, "subscribe", bad_bodies()[case])
    assert response.status_code == 400
    answer = response.json()
    assert answer["ok"] is False and answer["error"]
    assert not PushSubscription.objects.exists()


def test_refusals_read_in_russian(vapid):
    _user, client = signed_in("ru")
    body = {**Browser.new().subscription(ENDPOINT), "endpoint": "http://push.example.net/1"}
    assert post(client, "subscribe", body).json()["error"] == (
        "Адрес службы уведомлений должен начинаться с https://."
    )


def test_a_player_has_at_most_so_many_subscriptions(vapid):
    user, client = signed_in("en")
    for n in range(MAX_PER_USER):
        assert (
            post(client, "subscribe", Browser.new().subscription(f"{ENDPOINT}/{n}")).status_code
            == 200
        )
    response = post(client, "subscribe", Browser.new().subscription(f"{ENDPOINT}/more"))
    assert response.status_code == 409 and "too many devices" in response.json()["error"]
    assert PushSubscription.objects.filter(user=user).count() == MAX_PER_USER
    # A browser already on the list may subscribe afresh (new keys).
    assert post(client, "subscribe", Browser.new().subscription(f"{ENDPOINT}/0")).status_code == 200


def test_anonymous_get_and_no_csrf_are_refused(vapid):
    body = Browser.new().subscription(ENDPOINT)
    assert post(Client(), "subscribe", body).status_code == 403
    user, client = signed_in()
    assert client.get(reverse("notifications:subscribe")).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert post(strict, "subscribe", body).status_code == 403
    assert not PushSubscription.objects.exists()


def test_without_keys_pushes_are_off_and_nothing_is_offered(settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    user, client = signed_in("en")
    response = post(client, "subscribe", Browser.new().subscription(ENDPOINT))
    assert response.status_code == 404 and response.json()["ok"] is False
    assert not PushSubscription.objects.exists()
    page = client.get(reverse("accounts:profile", args=[user.username])).content.decode()
    assert "data-push-opt-in" not in page


def test_the_own_profile_offers_the_button_with_the_public_key(vapid):
    user, client = signed_in("ru")
    page = client.get(reverse("accounts:profile", args=[user.username])).content.decode()
    assert f'data-key="{vapid.public_b64}"' in page
    assert "Уведомлять, когда мой ход" in page
    other = make_user()
    page = client.get(reverse("accounts:profile", args=[other.username])).content.decode()
    assert "data-push-opt-in" not in page
