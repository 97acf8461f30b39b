"""House rules at a new table: within the variant's bounds, refused beyond them, shown as tags."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, RuleVariant
from games.services import Refused
from matchmaking.house_rules import rule_tags, table_rules
from matchmaking.models import HouseRuleBounds
from tests.house_rule_bounds import bounded_variant

from .conftest import make_user

pytestmark = pytest.mark.django_db


def test_choices_within_the_bounds_make_the_tables_rules():
    classic = bounded_variant("classic")
    rules, turn = table_rules(
        classic,
        4,
        {
            "deck_size": "52",
            "throw_in": "neighbours",
            "transfer": "trump_show",
            "first_bout_limit": "5",
            "trump_six_swap": "on",
            "turn_seconds": "45",
        },
    )
    assert (rules.deck_size, rules.throw_in, rules.mode, rules.trump_show_transfer) == (
        52,
        "neighbours",
        "perevodnoy",
        True,
    )
    assert rules.first_bout_limit == 5 and rules.trump_six_swap and turn == 45
    # Nothing chosen: the variant's own rules.
    assert table_rules(classic, 2, {}) == (classic.rules_for(2), classic.turn_seconds)


@pytest.mark.parametrize(
    ("bounds", "choice", "words"),
    [
        ({"deck_52": False}, {"deck_size": "52"}, "not dealt with 52 cards"),
        ({"may_choose_throw_in": False}, {"throw_in": "neighbours"}, "who may throw in is fixed"),
        ({"may_choose_transfer": False}, {"transfer": "on"}, "the transfer is fixed"),
        ({"may_choose_first_bout_limit": False}, {"first_bout_limit": "5"}, "first bout limit"),
        ({"may_choose_trump_six_swap": False}, {"trump_six_swap": "on"}, "trump six swap"),
        ({"max_turn_seconds": 30}, {"turn_seconds": "90"}, "15 to 30 seconds"),
        ({}, {"turn_seconds": "7"}, "does not exist"),
        ({}, {"transfer": "sideways"}, "does not exist"),
        ({}, {"deck_size": "24", "players": 6}, "24-card deck is not enough for 6 players"),
        ({}, {"deck_size": "24", "trump_six_swap": "on"}, "24-card deck starts at nines"),
    ],
)
def test_choices_beyond_the_bounds_are_refused_in_words(bounds, choice, words):
    classic = bounded_variant("classic", **bounds)
    players = choice.pop("players", 2)
    with pytest.raises(Refused) as refused:
        table_rules(classic, players, choice)
    assert words in refused.value.message and refused.value.code == "house_rules"


def test_a_variant_without_bounds_lets_only_the_turn_time_change():
    classic = RuleVariant.objects.get(slug="classic")
    HouseRuleBounds.objects.filter(variant=classic).delete()
    assert table_rules(classic, 2, {"turn_seconds": "60"})[1] == 60
    with pytest.raises(Refused):
        table_rules(classic, 2, {"deck_size": "24"})


def post_table(client: Client, slug: str, **house) -> object:
    data = {"variant": RuleVariant.objects.get(slug=slug).pk, "players": 2, "seat_1": "", **house}
    return client.post(reverse("table:create"), data)


def test_a_forged_option_gets_a_clear_refusal_and_makes_no_table():
    bounded_variant("teams-2x2")
    bounded_variant("short-deck-24", deck_36=False, deck_52=False)
    client = Client()
    client.force_login(make_user())
    response = post_table(client, "short-deck-24", deck_size="52")
    assert response.status_code == 400
    assert "24-card is not dealt with 52 cards." in response.content.decode()
    response = post_table(client, "classic", throw_in="<script>")
    assert response.status_code == 400 and "<script>" not in response.content.decode()
    assert not Match.objects.exists()


def test_a_table_with_house_rules_is_listed_with_its_tags_in_both_languages():
    bounded_variant("classic")
    creator = make_user()
    client = Client()
    client.force_login(creator)
    response = post_table(
        client, "classic", deck_size="36", transfer="on", throw_in="neighbours", turn_seconds="15"
    )
    match = Match.objects.get()
    assert response.status_code == 302 and match.turn_seconds == 15
    assert match.engine_rules.mode == "perevodnoy"
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/").content.decode()
    assert "perevodnoy · 36 cards · neighbours · 15 s a move" in english
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/").content.decode()
    assert "переводной · 36 карт · соседи · 15 с на ход" in russian


def test_tags_name_each_rule_that_differs():
    classic = bounded_variant("classic")
    rules, turn = table_rules(
        classic, 5, {"transfer": "trump_show", "first_bout_limit": "5", "trump_six_swap": "on"}
    )
    assert rule_tags(rules, turn) == [
        "perevodnoy",
        "36 cards",
        "transfer by a trump",
        "neighbours",
        "first bout 5",
        "trump six swap",
        "30 s a move",
    ]


def lobby_data(client: Client, element_id: str) -> dict:
    import json
    import re

    page = client.get("/").content.decode()
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page)
    assert found is not None, f"no {element_id} on the lobby"
    return json.loads(found.group(1))


def test_the_lobby_names_the_choices_each_variants_bounds_allow_and_the_server_agrees():
    classic = bounded_variant(
        "classic", deck_52=False, may_choose_transfer=False, max_turn_seconds=45
    )
    client = Client()
    client.force_login(make_user())
    allowed = lobby_data(client, "house-choices")[str(classic.pk)]
    assert allowed["deck_size"] == ["24", "36"]
    assert allowed["transfer"] == ["off"]  # classic's own rule: choosing it changes nothing
    assert allowed["turn_seconds"] == ["15", "30", "45"]
    assert allowed["throw_in"] == ["all", "neighbours"]
    # What the page greys out is what the server refuses, and what it leaves is made.
    assert post_table(client, "classic", deck_size="52").status_code == 400
    assert post_table(client, "classic", turn_seconds="60").status_code == 400
    assert not Match.objects.exists()
    assert post_table(client, "classic", deck_size="24", turn_seconds="45").status_code == 302


def test_a_variant_without_bounds_offers_only_its_own_rules_and_the_turn_time():
    classic = RuleVariant.objects.get(slug="classic")
    HouseRuleBounds.objects.filter(variant=classic).delete()
    client = Client()
    client.force_login(make_user())
    allowed = lobby_data(client, "house-choices")[str(classic.pk)]
    assert allowed["deck_size"] == [str(classic.deck_size)]
    assert allowed["trump_six_swap"] == ["on" if classic.trump_six_swap else "off"]
    assert allowed["turn_seconds"] == ["15", "30", "45", "60"]


def test_play_now_offers_only_decks_a_variant_of_the_game_deals_and_refuses_others():
    from matchmaking import services
    from matchmaking.models import Seek

    podkidnoy = RuleVariant.objects.filter(mode="podkidnoy")
    podkidnoy.filter(deck_size=52).update(is_active=False)
    for each in podkidnoy:
        bounded_variant(each.slug, deck_52=False)
    client = Client()
    client.force_login(make_user())
    choices = lobby_data(client, "seek-choices")
    assert choices["podkidnoy"]["2"] == [24, 36]
    assert 24 not in choices["podkidnoy"]["6"]  # six hands of six need 36 cards
    assert 52 in choices["perevodnoy"]["2"]
    seeker = make_user()
    with pytest.raises(Refused) as refused:
        services.create_seek(
            seeker,
            mode="podkidnoy",
            players=2,
            deck_size=52,
            speed="normal",
            is_rated=True,
            allow_bots=False,
        )
    assert "52" in refused.value.message
    assert not Seek.objects.filter(user=seeker).exists()


def test_no_id_is_on_the_lobby_twice():
    import re
    from collections import Counter

    client = Client()
    client.force_login(make_user())
    page = client.get("/").content.decode()
    ids = Counter(re.findall(r'\sid="([^"]+)"', page))
    assert ids["seek_players"] == 1 and ids["id_players"] == 1
    assert [name for name, count in ids.items() if count > 1] == []
