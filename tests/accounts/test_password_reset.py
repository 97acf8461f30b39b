"""A forgotten password: a link by mail, in the reader's language, and a new password.

The mail goes from the task worker: the page only queues it, whatever the address.
"""

from __future__ import annotations

import os
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from django_tasks_db.models import DBTaskResult

from tests.subprocesses import run_python

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)")
RESET_MAIL_TASK = "accounts.tasks.send_password_reset_mail"
MAIL_SERVER_SECONDS = 3.0


class SlowMailBackend(EmailBackend):
    """A mail server that takes its time to answer, as a remote one may."""

    def send_messages(self, messages):
        time.sleep(MAIL_SERVER_SECONDS)
        return super().send_messages(messages)


@pytest.fixture(autouse=True)
def task_table(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def ask(address: str, language: str = "en", ip: str = "10.0.0.1"):
    client = Client(headers={"accept-language": language}, REMOTE_ADDR=ip)
    return client.post(reverse("accounts:password_reset"), {"email": address})


def send_queued_mails(worker_language: str = "en") -> int:
    """Run the queued reset mails from what the task table holds, as the task worker
    does, in a process whose own language is ``worker_language``; how many ran."""
    queued = list(DBTaskResult.objects.ready().filter(task_path=RESET_MAIL_TASK))
    with translation.override(worker_language):
        for row in queued:
            row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"])
            row.set_successful(None)
    return len(queued)


@pytest.mark.parametrize(
    ("language", "subject", "greeting"),
    [
        ("en", "A new password for Durak Online", "Hello, nina."),
        ("ru", "Новый пароль в «Дурак Онлайн»", "Здравствуйте, nina."),
    ],
)
def test_a_link_by_mail_sets_a_new_password_once(language, subject, greeting):
    nina = get_user_model().objects.create_user("nina", "nina@example.org", "old-secret-911")
    response = ask("NINA@example.org", language)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []
    # The worker renders the mail in the language of the page it was asked from.
    assert send_queued_mails(worker_language="ru" if language == "en" else "en") == 1
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["nina@example.org"] and message.subject == subject
    assert greeting in message.body
    link = LINK.search(message.body).group(1)

    client = Client(headers={"accept-language": language})
    form_page = client.get(link, follow=True)
    set_password = form_page.redirect_chain[-1][0]
    done = client.post(
        set_password,
        {"new_password1": "fresh-Secret-482", "new_password2": "fresh-Secret-482"},
    )
    assert done["Location"] == reverse("accounts:password_reset_complete")
    nina.refresh_from_db()
    assert nina.check_password("fresh-Secret-482") and not nina.check_password("old-secret-911")
    # The link works once.
    again = Client().get(link, follow=True).content.decode()
    assert 'data-testid="reset-link-used"' in again


def test_an_unknown_address_reads_the_same_and_sends_nothing():
    response = ask("nobody@example.org")
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert send_queued_mails() == 1
    assert mail.outbox == []


def test_asking_again_and_again_sends_no_more_than_the_limit(settings):
    settings.PASSWORD_RESET_LIMIT = 2
    get_user_model().objects.create_user("oleg", "oleg@example.org", "old-secret-911")
    for _ in range(5):
        assert ask("oleg@example.org")["Location"] == reverse("accounts:password_reset_done")
    assert send_queued_mails() == 2
    assert len(mail.outbox) == 2
    # From other addresses too: the address asked for is counted as well as the sender.
    assert ask("oleg@example.org", ip="10.0.0.9")["Location"] == reverse(
        "accounts:password_reset_done"
    )
    assert send_queued_mails() == 0
    assert len(mail.outbox) == 2


def test_the_log_in_page_leads_to_it_in_each_language():
    english = Client(headers={"accept-language": "en"}).get(reverse("accounts:login"))
    russian = Client(headers={"accept-language": "ru"}).get(reverse("accounts:login"))
    url = reverse("accounts:password_reset")
    assert f'href="{url}"' in english.content.decode()
    assert "Forgotten your password?" in english.content.decode()
    assert "Забыли пароль?" in russian.content.decode()


def email_page_post(user, data: dict, language: str = "en"):
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client.post(reverse("accounts:email"), data, follow=True)


def test_a_player_sets_the_address_the_link_goes_to_with_their_password():
    pavel = get_user_model().objects.create_user("pavel", "", "old-secret-911")
    page = email_page_post(pavel, {"email": "pavel@example.org", "password": "old-secret-911"})
    assert "Your email address is saved." in page.content.decode()
    pavel.refresh_from_db()
    assert pavel.email == "pavel@example.org"
    ask("pavel@example.org")
    send_queued_mails()
    assert [m.to for m in mail.outbox] == [["pavel@example.org"]]
    # Blank: no address kept.
    email_page_post(pavel, {"email": "", "password": "old-secret-911"})
    pavel.refresh_from_db()
    assert pavel.email == ""


def test_a_wrong_password_changes_nothing_and_says_so():
    rita = get_user_model().objects.create_user("rita", "rita@example.org", "old-secret-911")
    page = email_page_post(rita, {"email": "thief@example.org", "password": "guess"}, "ru")
    assert "Это не ваш пароль." in page.content.decode()
    rita.refresh_from_db()
    assert rita.email == "rita@example.org"


def test_the_page_is_for_signed_in_players():
    response = Client().get(reverse("accounts:email"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


@override_settings(EMAIL_BACKEND="tests.accounts.test_password_reset.SlowMailBackend")
def test_a_known_address_answers_as_an_unknown_one_and_the_worker_sends_the_mail():
    nina = get_user_model().objects.create_user("nina", "nina@example.org", "old-secret-911")
    unknown = ask("nobody@example.org", ip="10.0.0.2")
    started = time.monotonic()
    known = ask("nina@example.org", ip="10.0.0.3")
    seconds = time.monotonic() - started
    # Nothing is mailed inside the request, so the slow mail server is never waited for.
    assert mail.outbox == []
    assert seconds < MAIL_SERVER_SECONDS
    assert (known.status_code, known["Location"], known.content) == (
        unknown.status_code,
        unknown["Location"],
        unknown.content,
    )
    assert sorted(known.headers) == sorted(unknown.headers)
    # Both addresses are queued alike; the worker finds the account behind one of them.
    queued = DBTaskResult.objects.filter(task_path=RESET_MAIL_TASK)
    assert sorted(row.args_kwargs["kwargs"]["address"] for row in queued) == [
        "nina@example.org",
        "nobody@example.org",
    ]
    assert send_queued_mails() == 2
    assert [m.to for m in mail.outbox] == [["nina@example.org"]]
    link = LINK.search(mail.outbox[0].body).group(1)
    form_page = Client().get(link, follow=True)
    assert form_page.status_code == 200
    assert 'name="new_password1"' in form_page.content.decode()
    assert form_page.context["form"].user == nina


def worker_env() -> dict[str, str]:
    """The worker process uses this test's database and prints its mail."""
    name = connection.settings_dict["NAME"]
    env = {
        "LOG_LEVEL": "WARNING",
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
    }
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        env["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    return env


@pytest.mark.django_db(transaction=True)
def test_the_mail_waits_in_the_task_table_until_a_worker_sends_it_in_the_readers_language():
    get_user_model().objects.create_user("nina", "nina@example.org", "old-secret-911")
    ask("nina@example.org", "ru")
    queued = DBTaskResult.objects.get(task_path=RESET_MAIL_TASK)
    assert queued.status == "READY" and mail.outbox == []
    connection.close()
    worker = run_python(
        "manage.py",
        "task_worker",
        "--batch",
        "--no-reload",
        "--no-startup-delay",
        drop={"DJANGO_ALLOW_ASYNC_UNSAFE"},
        env=worker_env(),
    )
    assert worker.returncode == 0, worker.stderr[-2000:]
    assert "Здравствуйте, nina." in worker.stdout
    assert "To: nina@example.org" in worker.stdout
    assert LINK.search(worker.stdout)
    queued.refresh_from_db()
    assert queued.status == "SUCCESSFUL"
