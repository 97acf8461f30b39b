"""Analyses run on the task queue: one per deal, within a user's quota, on the worker."""

import os
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from analysis import services
from analysis.models import DealAnalysis
from history.seeding import get_user, play_match
from tests.subprocesses import run_python

from .conftest import DATABASE

pytestmark = pytest.mark.django_db


def _deal(seed=3, players=("alice", "bob")):
    match = play_match(list(players), deals=1, seed=seed, is_rated=False)
    return match, match.deals.get()


def _url(match, deal):
    return reverse("analysis:deal_analysis", args=[match.pk, deal.number])


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_an_analysis_runs_once_and_everyone_who_may_replay_sees_it():
    match, deal = _deal()
    alice = _client(get_user("alice"))
    assert 'hx-post="' in alice.get(_url(match, deal)).content.decode()
    assert alice.post(_url(match, deal)).status_code == 200
    row = DealAnalysis.objects.get(deal=deal)
    assert row.status == DealAnalysis.Status.DONE and row.progress == 100
    assert row.result["decisions"]
    # Stored: a visitor of this public game sees it without asking again.
    html = Client().get(_url(match, deal)).content.decode()
    assert "every 1s" not in html and 'data-testid="eval-graph"' in html
    _, started = services.start_analysis(deal, get_user("bob"))
    assert not started
    assert DealAnalysis.objects.filter(deal=deal).count() == 1


def test_the_web_process_only_queues_the_work(settings):
    settings.TASKS = DATABASE
    match, deal = _deal(seed=4)
    response = _client(get_user("alice")).post(_url(match, deal))
    assert response.status_code == 200
    row = DealAnalysis.objects.get(deal=deal)
    assert row.status == DealAnalysis.Status.QUEUED and row.result is None
    task = DBTaskResult.objects.get()
    assert task.args_kwargs["args"] == [row.pk]
    html = response.content.decode()
    assert 'hx-trigger="every 1s"' in html and "Waiting for the analysis worker" in html
    # Asking again (or as someone else) queues nothing more.
    _client(get_user("bob")).post(_url(match, deal))
    assert DBTaskResult.objects.count() == 1


def test_a_user_may_have_only_so_many_analyses_waiting(settings):
    settings.TASKS = DATABASE
    settings.ANALYSIS_QUOTA_ACTIVE = 2
    alice = _client(get_user("alice"))
    deals = [_deal(seed=seed) for seed in (5, 6, 7)]
    for match, deal in deals[:2]:
        assert alice.post(_url(match, deal)).status_code == 200
    match, deal = deals[2]
    response = alice.post(_url(match, deal))
    assert response.status_code == 429
    assert "2 analyses waiting" in response.content.decode()
    assert not DealAnalysis.objects.filter(deal=deal).exists()
    assert DBTaskResult.objects.count() == 2
    # Another user is not held back by alice's queue.
    assert _client(get_user("bob")).post(_url(match, deal)).status_code == 200


def test_a_user_may_ask_for_so_many_analyses_a_day(settings):
    settings.TASKS = DATABASE
    settings.ANALYSIS_QUOTA_ACTIVE = 10
    settings.ANALYSIS_QUOTA_PER_DAY = 2
    alice = _client(get_user("alice"))
    deals = [_deal(seed=seed) for seed in (8, 9, 10)]
    for match, deal in deals[:2]:
        assert alice.post(_url(match, deal)).status_code == 200
    match, deal = deals[2]
    response = alice.post(_url(match, deal))
    assert response.status_code == 429 and "2 analyses a day" in response.content.decode()
    assert not DealAnalysis.objects.filter(deal=deal).exists()
    # A day later the oldest request no longer counts.
    DealAnalysis.objects.update(created_at=timezone.now() - timedelta(days=1, seconds=1))
    assert alice.post(_url(match, deal)).status_code == 200


def test_a_failed_or_abandoned_run_may_be_claimed_again():
    match, deal = _deal(seed=11)
    row = DealAnalysis.objects.create(
        deal=deal, status=DealAnalysis.Status.RUNNING, started_at=timezone.now()
    )
    _, started = services.start_analysis(deal, get_user("alice"))
    assert not started
    DealAnalysis.objects.filter(pk=row.pk).update(heartbeat_at=timezone.now())
    _, started = services.start_analysis(deal, get_user("alice"))
    assert not started
    # Its worker died: no progress for longer than a step ever takes.
    DealAnalysis.objects.filter(pk=row.pk).update(
        heartbeat_at=timezone.now() - services.RUNNING_STALE_AFTER - timedelta(seconds=1)
    )
    _, started = services.start_analysis(deal, get_user("alice"))
    assert started
    assert DealAnalysis.objects.get(pk=row.pk).status == DealAnalysis.Status.DONE
    DealAnalysis.objects.filter(pk=row.pk).update(status=DealAnalysis.Status.FAILED)
    _, started = services.start_analysis(deal, get_user("alice"))
    assert started
    # Queued with no worker to take it for a long while: queued again.
    DealAnalysis.objects.filter(pk=row.pk).update(status=DealAnalysis.Status.QUEUED)
    _, started = services.start_analysis(deal, get_user("bob"))
    assert not started
    DealAnalysis.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - services.QUEUED_STALE_AFTER - timedelta(seconds=1)
    )
    _, started = services.start_analysis(deal, get_user("bob"))
    assert started


def test_anonymous_visitors_cannot_start_one():
    match, deal = _deal(seed=12)
    assert Client().post(_url(match, deal)).status_code == 403
    assert not DealAnalysis.objects.exists()


def _child_env() -> dict[str, str]:
    """The worker process uses this test's database."""
    name = connection.settings_dict["NAME"]
    env = {"ANALYSIS_SECONDS": "0.01", "ANALYSIS_SAMPLES": "2", "LOG_LEVEL": "WARNING"}
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        env["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    return env


@pytest.mark.django_db(transaction=True)
def test_the_worker_command_runs_a_queued_analysis(settings):
    settings.TASKS = DATABASE
    match, deal = _deal(seed=13)
    _client(get_user("alice")).post(_url(match, deal))
    assert DealAnalysis.objects.get(deal=deal).status == DealAnalysis.Status.QUEUED
    connection.close()
    done = run_python(
        "manage.py",
        "task_worker",
        "--batch",
        "--no-reload",
        "--no-startup-delay",
        drop={"DJANGO_ALLOW_ASYNC_UNSAFE"},
        env=_child_env(),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    row = DealAnalysis.objects.get(deal=deal)
    assert row.status == DealAnalysis.Status.DONE, row.error
    assert row.result["decisions"]
    # Other apps queue work of their own on a finished deal (its puzzles): this is the analysis.
    analysis = DBTaskResult.objects.get(task_path="analysis.tasks.analyse_deal")
    assert analysis.status == "SUCCESSFUL"


def test_a_polling_panel_reloads_the_page_when_the_analysis_is_done(settings):
    settings.TASKS = DATABASE
    match, deal = _deal(seed=14)
    alice = _client(get_user("alice"))
    alice.post(_url(match, deal), HTTP_HX_REQUEST="true")
    polled = alice.get(_url(match, deal) + "?poll=1", HTTP_HX_REQUEST="true")
    assert "HX-Refresh" not in polled and "every 1s" in polled.content.decode()
    services.run_analysis(DealAnalysis.objects.get(deal=deal).pk)
    polled = alice.get(_url(match, deal) + "?poll=1", HTTP_HX_REQUEST="true")
    # The move list's marks and the board's notes come with the page.
    assert polled["HX-Refresh"] == "true"
