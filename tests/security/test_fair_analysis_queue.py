"""One client with many fresh accounts cannot push everyone else's analyses back:
sign-up is limited per address, and so are the analyses waiting from one address.
The page says about how long the wait is."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from analysis.models import DealAnalysis
from history.seeding import get_user, play_match

pytestmark = pytest.mark.django_db
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
ATTACKER = "203.0.113.7"


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def sign_up(client: Client, name: str):
    return client.post(
        reverse("accounts:signup"),
        {"username": name, "password1": "Kozyr-42-shestyorka", "password2": "Kozyr-42-shestyorka"},
    )


def test_sign_up_is_limited_per_address(settings) -> None:
    settings.SIGNUP_RATE_LIMIT_ACCOUNTS = 3
    users = get_user_model().objects
    for number in range(3):
        assert sign_up(Client(REMOTE_ADDR=ATTACKER), f"sock{number}").status_code == 302
    before = users.count()
    refused = sign_up(Client(REMOTE_ADDR=ATTACKER), "sock3")
    assert refused.status_code == 200
    assert "Too many accounts were made from your network" in refused.content.decode()
    assert users.count() == before and not users.filter(username="sock3").exists()
    ru = Client(REMOTE_ADDR=ATTACKER, HTTP_ACCEPT_LANGUAGE="ru")
    assert "слишком много аккаунтов" in sign_up(ru, "sock4").content.decode()
    # Another address signs up as before.
    assert sign_up(Client(REMOTE_ADDR="198.51.100.2"), "honest").status_code == 302


def finished_deal(seed: int):
    match = play_match(["alla", "boris"], deals=1, seed=seed, is_rated=False)
    return match, match.deals.get()


def ask(user, match, deal, address: str):
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client.post(reverse("analysis:deal_analysis", args=[match.pk, deal.number]))


def test_many_accounts_of_one_address_queue_only_that_address_share(settings) -> None:
    settings.TASKS = DATABASE_TASKS
    settings.ANALYSIS_QUOTA_ACTIVE = 2
    settings.ANALYSIS_QUOTA_ACTIVE_PER_IP = 4
    deals = [finished_deal(seed) for seed in range(30, 37)]
    accounts = [get_user(f"fresh{n}") for n in range(3)]
    asked = [
        ask(accounts[n // 2], match, deal, ATTACKER).status_code
        for n, (match, deal) in enumerate(deals[:6])
    ]
    assert asked == [200, 200, 200, 200, 429, 429]
    assert DealAnalysis.objects.filter(requested_from=ATTACKER).count() == 4
    refused = ask(accounts[2], *deals[4], ATTACKER).content.decode()
    assert "4 analyses from your network are already waiting" in refused
    assert not DealAnalysis.objects.filter(deal=deals[4][1]).exists()

    # Someone else's analysis waits behind those four only, and the page says how long.
    DealAnalysis.objects.create(
        deal=deals[5][1],
        status=DealAnalysis.Status.DONE,
        started_at=timezone.now() - timedelta(seconds=50),
        finished_at=timezone.now(),
    )
    honest = get_user("honest")
    match, deal = deals[6]
    page = ask(honest, match, deal, "198.51.100.2").content.decode()
    assert "4 analyses ahead." in page
    assert "Expected wait: about 5 minutes." in page  # five runs of about 50 s
