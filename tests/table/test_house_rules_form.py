"""The new-table form's house rules: each refusal names its real conflict and makes
nothing, the box stays open on an error, every "As in the variant" names the variant's
rule, no choice is offered that no variant allows, and a table is named and tagged as
its house rules play it."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Match, RuleVariant
from matchmaking.forms import HouseRulesForm
from matchmaking.house_rules import rule_tags
from matchmaking.models import HouseRuleBounds
from tests.house_rule_bounds import bounded_variant

pytestmark = pytest.mark.django_db


def signed_in(language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    user, _ = get_user_model().objects.get_or_create(username=f"host-{language}")
    client.force_login(user)
    return client


def create(client: Client, slug: str, players: int = 2, **house):
    seats = {f"seat_{n}": "" for n in range(1, players)}  # the table waits in the lobby
    data = {"variant": RuleVariant.objects.get(slug=slug).pk, "players": players, **seats}
    return client.post(reverse("table:create"), {**data, **house})


def house_box(page: str) -> str:
    """The house rules box of the lobby page: its opening tag and its inside."""
    found = re.search(r'(<details class="house-rules"[^>]*>.*?</details>)', page, re.S)
    assert found is not None, "no house rules box"
    return found.group(1)


@pytest.mark.parametrize(
    ("players", "house", "reason"),
    [
        (
            2,
            {"deck_size": "24", "trump_six_swap": "on"},
            "The trump six swap needs sixes, and a 24-card deck starts at nines",
        ),
        (
            5,
            {"deck_size": "24"},
            "A 24-card deck is not enough for 5 players: each is dealt 6 cards.",
        ),
        (2, {"deck_size": "52", "variant_bounds": {"deck_52": False}}, "not dealt with 52 cards"),
        (
            2,
            {"transfer": "on", "variant_bounds": {"may_choose_transfer": False}},
            "the transfer is fixed",
        ),
    ],
    ids=["24-cards-with-the-swap", "24-cards-for-five", "deck-out-of-bounds", "fixed-transfer"],
)
def test_each_refusal_names_its_own_reason_keeps_the_box_open_and_makes_nothing(
    players, house, reason
):
    bounded_variant("classic", **house.pop("variant_bounds", {}))
    response = create(signed_in(), "classic", players, **house)
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    box = house_box(page)
    assert box.startswith('<details class="house-rules" open')
    assert reason in box
    # Only the real conflict is named: the 24-card swap is no matter of players.
    assert ("not enough" in box) == ("not enough" in reason)
    assert not Match.objects.exists()


def test_a_refusal_is_worded_in_russian_for_a_russian_reader():
    bounded_variant("classic")
    response = create(signed_in("ru"), "classic", deck_size="24", trump_six_swap="on")
    box = house_box(html.unescape(response.content.decode()))
    assert "колода из 24 карт начинается с девяток" in box
    assert not Match.objects.exists()


def test_the_house_rules_the_player_chose_stay_chosen_and_open_after_another_error():
    bounded_variant("classic")
    client = signed_in()
    teams = RuleVariant.objects.get(slug="teams-2x2")
    # A wrong table size (a main form error) with a house rule chosen.
    data = {"variant": teams.pk, "players": 3, "throw_in": "neighbours"}
    page = client.post(reverse("table:create"), data).content.decode()
    box = house_box(page)
    assert box.startswith('<details class="house-rules" open')
    assert re.search(r'<option value="neighbours" selected>', box)


def test_every_as_in_the_variant_names_the_variants_rule():
    classic = RuleVariant.objects.get(slug="classic")
    labels = HouseRulesForm().kept_labels(classic)
    assert labels == {
        "deck_size": "As in the variant (36)",
        "throw_in": "As in the variant (everyone; 5+ players: neighbours)",
        "transfer": "As in the variant (no transfer)",
        "first_bout_limit": "As in the variant (up to six cards)",
        "trump_six_swap": "As in the variant (no)",
        "turn_seconds": f"As in the variant ({classic.turn_seconds} s)",
    }
    transfer = RuleVariant.objects.get(slug="transfer")
    assert HouseRulesForm().kept_labels(transfer)["transfer"] == "As in the variant (with transfer)"
    # The page's form names the chosen (first) variant's rules; the others ride along
    # for the page to name them when another variant is chosen.
    page = html.unescape(signed_in("ru").get("/").content.decode())
    box = house_box(page)
    assert "Как в варианте (" in box and ">Как в варианте<" not in box
    kept = re.search(r'<script id="house-kept" type="application/json">(.*?)</script>', page)
    assert kept is not None and str(transfer.pk) in kept.group(1)


def test_no_turn_time_is_offered_that_no_variant_allows():
    page = signed_in().get("/").content.decode()
    offered = re.findall(r'<option value="(\d+)"', house_box(page).split('name="turn_seconds"')[1])
    allowed = {b.max_turn_seconds for b in HouseRuleBounds.objects.filter(variant__is_active=True)}
    assert offered and all(int(seconds) <= max(allowed | {60}) for seconds in offered)
    assert "90" not in offered
    # Once a variant's admin allows 90 s, it is on the form and makes a table.
    bounded_variant("classic", max_turn_seconds=90)
    page = signed_in("ru").get("/").content.decode()
    assert '<option value="90"' in house_box(page)
    assert create(signed_in("en"), "classic", turn_seconds="90").status_code == 302
    assert Match.objects.get().turn_seconds == 90


@pytest.mark.parametrize(
    ("language", "name", "tags"),
    [
        ("en", "Perevodnoy", "perevodnoy · 24 cards · everyone throws in · 30 s a move"),
        ("ru", "Переводной", "переводной · 24 карты · подкидывают все · 30 с на ход"),
    ],
)
def test_a_table_is_named_and_tagged_as_its_house_rules_play_it(language, name, tags):
    bounded_variant("classic")
    client = signed_in(language)
    response = create(client, "classic", deck_size="24", transfer="on", turn_seconds="30")
    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.engine_rules.mode, match.engine_rules.deck_size) == ("perevodnoy", 24)
    table = html.unescape(client.get(response["Location"]).content.decode())
    heading = re.search(r"<h1>(.*?) <span", table)
    assert heading is not None and heading.group(1) == name
    shown = re.search(r'data-testid="rule-tags"[^>]*>(.*?)</div>', table)
    assert shown is not None and shown.group(1) == tags
    # The tags are the stored rules', word for word.
    from django.utils import translation

    with translation.override(language):
        assert shown.group(1) == " · ".join(rule_tags(match.engine_rules, match.turn_seconds))
    # The lobby's row says the same: no "Podkidnoy" over "perevodnoy".
    lobby = html.unescape(signed_in(language).get("/").content.decode())
    row = re.search(rf'<tr data-match="{match.pk}">(.*?)</tr>', lobby, re.S)
    assert row is not None
    assert f">{name}</a>" in row.group(1) and tags in row.group(1)
