"""A forgotten password: a link by mail, in the reader's language, and a new password."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)")


def ask(address: str, language: str = "en", ip: str = "10.0.0.1"):
    client = Client(headers={"accept-language": language}, REMOTE_ADDR=ip)
    return client.post(reverse("accounts:password_reset"), {"email": address})


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
    assert mail.outbox == []


def test_asking_again_and_again_sends_no_more_than_the_limit(settings):
    settings.PASSWORD_RESET_LIMIT = 2
    get_user_model().objects.create_user("oleg", "oleg@example.org", "old-secret-911")
    for _ in range(5):
        assert ask("oleg@example.org")["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 2
    # From other addresses too: the address asked for is counted as well as the sender.
    assert ask("oleg@example.org", ip="10.0.0.9")["Location"] == reverse(
        "accounts:password_reset_done"
    )
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
