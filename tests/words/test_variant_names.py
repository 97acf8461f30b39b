"""A variant has one name everywhere in a language: the game's name that "Play now" uses
("Podkidnoy", «Подкидной»), and an admin's variant its Russian name for Russian readers."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services as games
from games.models import RuleVariant
from history.seeding import play_match

pytestmark = pytest.mark.django_db


def reader(language: str, name: str = "anna") -> Client:
    user = get_user_model().objects.filter(username=name).first()
    user = user or get_user_model().objects.create_user(username=name, password="pw")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "podkidnoy", "perevodnoy"),
    [("en", "Podkidnoy", "Perevodnoy"), ("ru", "Подкидной", "Переводной")],
)
def test_play_now_tables_daily_and_history_name_the_game_alike(language, podkidnoy, perevodnoy):
    client = reader(language)
    anna = get_user_model().objects.get(username="anna")
    lobby = page(client, reverse("table:lobby"))
    # "Play now" offers the two games by these names.
    for mode, name in (("podkidnoy", podkidnoy), ("perevodnoy", perevodnoy)):
        choice = re.search(rf'name="mode" value="{mode}"[^>]*>\s*([^<]+?)\s*</label>', lobby)
        assert choice and choice.group(1) == name
    # The new-table form, the daily deal, a table, the replay and the history.
    assert re.search(rf">{podkidnoy} \(2–\d\)<", lobby)
    assert re.search(rf">{perevodnoy} \(2–\d\)<", lobby)
    assert f"<h2>{podkidnoy} · " in page(client, reverse("daily:today"))
    table = games.create_match(anna, RuleVariant.objects.get(slug="transfer"), 2)
    assert f"<h1>{perevodnoy} " in page(client, reverse("table:table", args=[table.pk]))
    match = play_match([anna, "boris"], "classic", seed=3)
    assert f"· {podkidnoy}</h1>" in page(client, reverse("analysis:replay", args=[match.pk]))
    assert f"<td>{podkidnoy} <span" in page(client, reverse("history:games", args=["anna"]))
    profile = page(client, reverse("accounts:profile", args=["anna"]))
    assert f">{podkidnoy}</td>" in profile and f"· {podkidnoy}</a>" in profile
    for text in (lobby, profile):
        assert "Classic" not in text and "Transfer with" not in text


@pytest.fixture
def admins_variant() -> RuleVariant:
    return RuleVariant.objects.create(
        slug="kings",
        name="Kings' durak",
        name_ru="Королевский дурак",
        description="Podkidnoy where kings are high.",
        description_ru="Подкидной, где короли старше.",
        ordering=1,
    )


def test_an_admins_variant_reads_in_russian_to_russian_readers(admins_variant):
    ru = page(reader("ru"), reverse("table:rules"))
    assert "Королевский дурак" in ru and "Подкидной, где короли старше." in ru
    assert "Kings&#x27; durak" not in ru and "kings are high" not in ru
    en = page(reader("en"), reverse("table:rules"))
    assert "Kings&#x27; durak" in en and "Podkidnoy where kings are high." in en
    assert "Королевский" not in en
    # Its tables, in the lobby's form and at the table, are named alike.
    form = page(reader("ru"), reverse("table:lobby"))
    assert re.search(r">Королевский дурак \(2–\d\)<", form)
    anna = get_user_model().objects.get(username="anna")
    table = games.create_match(anna, admins_variant, 2)
    assert "<h1>Королевский дурак " in page(reader("ru"), reverse("table:table", args=[table.pk]))


def test_without_russian_words_the_main_ones_are_shown(admins_variant):
    admins_variant.name_ru = admins_variant.description_ru = ""
    admins_variant.save()
    ru = page(reader("ru"), reverse("table:rules"))
    assert "Kings&#x27; durak" in ru and "Podkidnoy where kings are high." in ru


def test_the_admin_edits_the_russian_words(admin_client, admins_variant):
    url = reverse("admin:games_rulevariant_change", args=[admins_variant.pk])
    html = admin_client.get(url).content.decode()
    assert 'name="name_ru"' in html and 'name="description_ru"' in html
    assert 'value="Королевский дурак"' in html
    assert "Readers of the Russian site see the name and description in Russian" in html


def test_the_migration_renames_only_the_seeded_names():
    from importlib import import_module

    from django.apps import apps

    RuleVariant.objects.filter(slug="classic").update(name="Our podkidnoy")
    RuleVariant.objects.filter(slug="transfer").update(name="Transfer")
    import_module("games.migrations.0016_variant_russian_words").rename(apps, None)
    names = dict(RuleVariant.objects.values_list("slug", "name"))
    assert names["classic"] == "Our podkidnoy" and names["transfer"] == "Perevodnoy"


def test_a_house_rule_refusal_names_the_variant_in_the_readers_language():
    from django.utils import translation

    from games.services import Refused
    from matchmaking.house_rules import table_rules
    from matchmaking.models import HouseRuleBounds

    short = RuleVariant.objects.get(slug="short-deck-24")
    HouseRuleBounds.objects.update_or_create(
        variant=short, defaults={"deck_24": True, "deck_36": False, "deck_52": False}
    )
    with translation.override("ru"), pytest.raises(Refused) as refused:
        table_rules(short, 2, {"deck_size": "52"})
    assert refused.value.message == "В «24 карты» не играют колодой из 52 карт."
