"""Numbers read as Russian: "2 раза", "5 ошибок", never "1 ошибке" after "своей"; a
zero streak is not announced; a wrong puzzle answer names the move chosen as a choice."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from analysis.review import build_review
from daily import services as daily
from games import services as games
from games.models import RuleVariant
from history.seeding import get_user, play_match
from puzzles.services import open_attempt
from tests.analysis.helpers import analysed_match
from tests.puzzles.helpers import puzzle_of, wrong_move

pytestmark = pytest.mark.django_db


def russian(username: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(get_user(username))
    return client


def form(n: int, one: str, few: str, many: str) -> str:
    """The Russian word for ``n`` things: 1, 21 ошибка; 2, 3, 4 ошибки; 5-20 ошибок."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def test_the_helper_knows_the_russian_forms():
    assert [form(n, "a", "b", "c") for n in (1, 2, 5, 11, 12, 21, 24, 25, 0)] == list("abcccabcc")


def test_the_match_tally_counts_times_in_russian_words():
    anna = get_user("anna")
    match = games.create_match(anna, RuleVariant.objects.get(slug="classic"), 2, bots=["random"])
    games.resign(match.pk, anna)
    html = russian("anna").get(reverse("table:table", args=[match.pk])).content.decode()
    tally = html[html.index('class="data tally"') :]
    tally = tally[: tally.index("</table>")]
    assert "<th>В дураках</th>" in tally and "Раз был дураком" not in tally
    assert re.findall(r"<td>(\d+ раза?)</td>", tally) == ["1 раз", "0 раз"]


def test_the_profile_tiles_agree_with_their_numbers():
    play_match(["anna", "boris"], "classic", deals=3, seed=4)
    html = russian("anna").get(reverse("accounts:profile", args=["anna"])).content.decode()
    tiles = dict(re.findall(r'data-stat="([\w-]+)">([^<]*)</strong>', html))
    labels = {
        stat: re.search(rf'data-stat="{stat}">(\d+)</strong>([^<]*)<', html).groups()
        for stat in ("games", "fools", "safe", "draws")
    }
    n, label = labels["games"]
    assert label == form(int(n), "партия", "партии", "партий")
    n, label = labels["fools"]
    assert label == form(int(n), "раз в дураках", "раза в дураках", "раз в дураках")
    n, label = labels["safe"]
    assert label == form(int(n), "раз не в дураках", "раза не в дураках", "раз не в дураках")
    n, label = labels["draws"]
    assert label == form(int(n), "ничья", "ничьи", "ничьих")
    assert tiles["fool-rate"].endswith("%") and "доля поражений" in html
    assert "процент дурака" not in html and "Раз был дураком" not in html.lower()


def test_a_zero_streak_is_not_announced():
    html = russian("anna").get(reverse("daily:today")).content.decode()
    assert "Ваша серия" not in html and "0 дней" not in html
    anna = get_user("anna")
    yesterday = daily.deal_of_the_day(
        RuleVariant.objects.get(slug="classic"), daily.today() - timedelta(days=1)
    )
    match = games.create_match(anna, yesterday.variant, 2, bots=["hard"], is_private=True)
    daily.DailyEntry.objects.create(daily=yesterday, user=anna, match=match)
    html = russian("anna").get(reverse("daily:today")).content.decode()
    assert "Ваша серия: 1 день подряд" in html


def test_the_learn_link_counts_mistakes_in_russian(settings):
    # The analysis runs at once, with a tiny search budget.
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2
    match, _deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    for seat, name in enumerate(("anna", "boris")):
        count = len(review.mistakes_of(seat))
        if not count:
            continue
        html = russian(name).get(reverse("analysis:replay", args=[match.pk])).content.decode()
        link = re.search(r'data-testid="learn-link">([^<]*)<', html).group(1)
        assert link == f"Разобрать {count} {form(count, 'ошибку', 'ошибки', 'ошибок')}"


@pytest.mark.parametrize(
    ("language", "wrong", "chose", "right"),
    [
        ("en", "Not this one.", "You chose “", "The right move"),
        ("ru", "Не тот ход.", "Вы выбрали «", "Верн"),
    ],
)
def test_a_wrong_puzzle_answer_names_the_choice_and_the_right_move(language, wrong, chose, right):
    puzzle_of(moves=1)
    attempt = open_attempt(get_user("anna"))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(attempt.user)
    url = reverse("puzzles:attempt", args=[attempt.puzzle_id, attempt.pk])
    html = client.post(
        url, {"action": wrong_move(attempt.puzzle.line)}, HTTP_HX_REQUEST="true"
    ).content.decode()
    verdict = re.search(r'class="puzzle-bad">(.*?)</p>', html, re.S).group(1)
    tried = re.search(r'data-testid="puzzle-tried">([^<]*)<', verdict).group(1)
    assert verdict.startswith(f"✗ {wrong}") and tried.startswith(chose)
    # The move chosen reads as a choice, not as advice to follow.
    assert "Возьмите карты" not in tried and "Take the cards" not in tried
    after = html[html.index('class="puzzle-bad"') :]
    assert re.search(rf"<p>{right}[^<]*:</p>\s*<ul class=\"puzzle-answers\"", after)
