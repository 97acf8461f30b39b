"""The sender against a push service of the test's own: a signed request (VAPID), a body
only the subscribed browser can read, and a subscription the service calls gone is
forgotten."""

from __future__ import annotations

import json
import time

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from notifications.models import PushSubscription
from notifications.tasks import send_push
from tests.matchmaking.conftest import make_user
from tests.notifications.conftest import CONTACT
from tests.notifications.keys import Browser, b64url, b64url_bytes

pytestmark = pytest.mark.django_db


def check_vapid(header: str, site_public: str, audience: str) -> dict:
    """The claims of a valid VAPID Authorization header (RFC 8292) signed by the site."""
    scheme, _, params = header.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == site_public
    signed, _, signature = fields["t"].rpartition(".")
    head, _, claims = signed.partition(".")
    assert json.loads(b64url_bytes(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = b64url_bytes(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_bytes(site_public))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(b64url_bytes(claims))
    assert claims["aud"] == audience and claims["sub"] == CONTACT
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    return claims


def test_a_turn_push_reaches_the_service_signed_and_reads_in_russian(vapid, push_service):
    player = make_user()
    match_id = 7
    browser = Browser.new()
    info = browser.subscription(f"{push_service.origin}/wpush/v2/device-1")
    subscription = PushSubscription.objects.create(
        user=player, endpoint=info["endpoint"], **info["keys"], language="ru"
    )
    assert send_push.call(player.pk, "turn", match_id=match_id) == 1
    ((path, headers, body),) = push_service.received
    assert path == "/wpush/v2/device-1"
    check_vapid(headers["authorization"], vapid.public_b64, push_service.origin)
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    # Only the browser's private key and secret open the body.
    news = json.loads(
        http_ece.decrypt(body, private_key=browser.keys.private, auth_secret=browser.secret)
    )
    assert news == {
        "title": "Ваш ход",
        "body": f"Стол №{match_id} ждёт вашего хода.",
        "url": f"/games/{match_id}/",
        "tag": f"turn-{match_id}",
    }
    with pytest.raises(Exception):  # noqa: B017,PT011 (any failure: another key cannot read it)
        http_ece.decrypt(body, private_key=Browser.new().keys.private, auth_secret=browser.secret)
    subscription.refresh_from_db()
    assert subscription.last_used is not None


def test_a_forged_signature_is_caught_by_the_check(vapid, push_service):
    # The check above must be able to fail: claims changed after signing do not pass.
    player = make_user()
    info = Browser.new().subscription(f"{push_service.origin}/device")
    PushSubscription.objects.create(user=player, endpoint=info["endpoint"], **info["keys"])
    send_push.call(player.pk, "friend_request", from_user_id=player.pk)
    ((_path, headers, _body),) = push_service.received
    header = headers["authorization"]
    claims = header.split("t=", 1)[1].split(".")[1]
    forged_claims = {**json.loads(b64url_bytes(claims)), "aud": "https://elsewhere.example"}
    forged = header.replace(claims, b64url(json.dumps(forged_claims).encode()))
    with pytest.raises(InvalidSignature):
        check_vapid(forged, vapid.public_b64, push_service.origin)


def test_the_account_language_wins_and_names_are_named(vapid, push_service):
    sender, reader = make_user(), make_user(language="en")
    browser = Browser.new()
    info = browser.subscription(f"{push_service.origin}/device")
    PushSubscription.objects.create(
        user=reader, endpoint=info["endpoint"], **info["keys"], language="ru"
    )
    send_push.call(reader.pk, "friend_request", from_user_id=sender.pk)
    ((_path, _headers, body),) = push_service.received
    news = json.loads(
        http_ece.decrypt(body, private_key=browser.keys.private, auth_secret=browser.secret)
    )
    assert news["title"] == "A friend request"
    assert news["body"] == f"{sender.username} wants to be your friend."


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_service_calls_gone_is_deleted(vapid, push_service, status):
    player = make_user()
    kept = Browser.new().subscription(f"{push_service.origin}/kept")
    gone = Browser.new().subscription(f"{push_service.origin}/gone")
    for info in (kept, gone):
        PushSubscription.objects.create(user=player, endpoint=info["endpoint"], **info["keys"])
    push_service.status = status
    assert send_push.call(player.pk, "invite", match_id=1, from_user_id=player.pk) == 0
    assert len(push_service.received) == 2
    assert not PushSubscription.objects.filter(user=player).exists()


def test_a_service_error_keeps_the_subscription(vapid, push_service):
    player = make_user()
    info = Browser.new().subscription(f"{push_service.origin}/busy")
    PushSubscription.objects.create(user=player, endpoint=info["endpoint"], **info["keys"])
    push_service.status = 503
    assert send_push.call(player.pk, "turn", match_id=1) == 0
    assert PushSubscription.objects.filter(user=player).count() == 1
