"""The error pages a visitor may meet are the site's own, in the visitor's language."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db

NOT_FOUND = {"en": "Page not found", "ru": "Страница не найдена"}
LOBBY = {"en": "Back to the lobby", "ru": "Вернуться в лобби"}
OUT_OF_DATE = {"en": "The form was out of date", "ru": "Форма устарела"}
WENT_WRONG = {"en": "Something went wrong", "ru": "Что-то пошло не так"}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_table_that_does_not_exist_is_a_page_of_the_site(client, language):
    client.force_login(get_user_model().objects.create_user("nina"))
    response = client.get("/games/999999/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{NOT_FOUND[language]}</h1>" in html
    assert LOBBY[language] in html and 'class="site-header"' in html


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_form_sent_without_its_token_is_refused_in_words(language):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/accounts/login/",
        {"username": "nina", "password": "x"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 403
    assert OUT_OF_DATE[language] in response.content.decode()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_server_error_page_needs_no_context(language):
    with translation.override(language):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert WENT_WRONG[language] in response.content.decode()
