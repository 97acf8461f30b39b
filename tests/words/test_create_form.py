"""The create-table form bounds the players field by the variant and words the limit."""

import re

import pytest
from django.utils import translation

from games.models import RuleVariant
from table.forms import CreateTableForm

pytestmark = pytest.mark.django_db


def test_a_fixed_size_variant_is_worded_as_a_single_number():
    teams = RuleVariant.objects.get(slug="teams-2x2")
    form = CreateTableForm(data={"variant": teams.pk, "players": 3})
    assert not form.is_valid()
    assert form.errors["players"] == ["Teams 2x2 is for exactly 4 players."]
    with translation.override("ru"):
        assert teams.players_rule() == "В «Команды 2×2» играют ровно 4 игрока."
    classic = RuleVariant.objects.get(slug="classic")
    assert classic.players_rule() == (
        f"Podkidnoy is played by {classic.min_players} to {classic.max_players} players."
    )


def test_the_players_field_is_bounded_by_the_chosen_variant():
    classic = RuleVariant.objects.get(slug="classic")
    html = str(CreateTableForm(data={"variant": classic.pk, "players": 9})["players"])
    assert f'max="{classic.max_players}"' in html and f'min="{classic.min_players}"' in html
    teams = RuleVariant.objects.get(slug="teams-3x3")
    html = str(CreateTableForm(data={"variant": teams.pk, "players": 6})["players"])
    assert 'max="6"' in html and 'min="6"' in html


def test_every_variant_option_carries_its_table_sizes():
    html = str(CreateTableForm()["variant"])
    options = re.findall(r"<option[^>]*>", html)
    assert options
    for variant in RuleVariant.objects.filter(is_active=True):
        option = next(o for o in options if f'value="{variant.pk}"' in o)
        assert f'data-min-players="{variant.min_players}"' in option
        assert f'data-max-players="{variant.max_players}"' in option


def test_bots_at_one_table_have_names_of_their_own():
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Seat

    creator = get_user_model().objects.create_user("ivan", password="kozyrnaya-shestyorka-42")
    classic = RuleVariant.objects.get(slug="classic")
    match = services.create_match(creator, classic, 4, bots=["easy", "easy", "easy"])
    names = [seat.display_name for seat in Seat.objects.filter(match=match).order_by("number")]
    assert len(set(names)) == 4
    assert names[1:] == ["Bot 2 (Easy)", "Bot 3 (Easy)", "Bot 4 (Easy)"]
    with translation.override("ru"):
        seat = Seat.objects.get(match=match, number=2)
        assert seat.display_name.startswith("Бот 3 (")


@pytest.mark.parametrize(("language", "fifteen"), [("en", "15 s"), ("ru", "15 с")])
def test_the_house_rules_turn_timers_are_worded_in_the_page_language(language, fifteen):
    from matchmaking.forms import HouseRulesForm

    with translation.override(language):
        html = str(HouseRulesForm()["turn_seconds"])
    assert f'<option value="15">{fifteen}</option>' in html
