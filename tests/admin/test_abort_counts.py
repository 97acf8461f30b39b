"""The abort action counts the matches it aborted and those it left alone, in words that
agree with the number, however the list was filtered."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Match

from .conftest import make_deal, make_match

LIST_URL = reverse("admin:games_match_changelist")


def abort_messages(client, url: str, matches: list[Match], language: str = "en") -> list[str]:
    data = {"action": "abort", "_selected_action": [m.pk for m in matches]}
    response = client.post(
        url, {**data, "_apply": "1", "reason": "Test"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 302
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.django_db
def test_a_list_filtered_to_playing_matches_counts_none_as_already_over(
    admin_client, classic, players
):
    match = make_match(classic, players[:2])
    make_deal(match, status="playing")
    said = abort_messages(admin_client, f"{LIST_URL}?status__exact=playing", [match])
    assert said == ["1 match aborted; its players were told."]
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED


@pytest.mark.django_db
def test_matches_already_over_are_counted_once(admin_client, classic, players):
    playing = [make_match(classic, players[:2]), make_match(classic, players[1:])]
    over = [make_match(classic, players[:2], status=Match.Status.FINISHED) for _ in range(2)]
    said = abort_messages(admin_client, LIST_URL, playing + over, "ru")
    assert said == [
        "Прерваны 2 матча, игроки уведомлены.",
        "2 матча уже закончились, их не тронули.",
    ]
