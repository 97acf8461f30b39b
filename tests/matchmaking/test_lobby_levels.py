"""The lobby names each bot level with its measured Elo, in English and in Russian."""

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import number_format

from durak.bots import ELO
from history.seeding import get_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "hard", "note"),
    [
        ("en", "Hard (Elo ~{elo})", "Bot strength is on the Elo scale"),
        ("ru", "Сильный (Эло ~{elo})", "Сила ботов — по шкале Эло"),
    ],
)
def test_lobby_shows_each_bot_level_with_its_elo(language, hard, note):
    client = Client()
    client.force_login(get_user("alice"))
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        elo = number_format(ELO["hard"], force_grouping=True)
    assert hard.format(elo=elo) in page
    assert note in page
