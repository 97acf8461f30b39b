"""A player reports another player from the table page."""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import RuleVariant
from moderation.models import Report

from .conftest import make_user


@pytest.mark.django_db
def test_a_player_reports_the_other_player_from_the_table(client):
    kira, lev = make_user("kira"), make_user("lev")
    match = services.create_match(kira, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, lev)
    client.force_login(kira)
    page = client.get(reverse("table:table", args=[match.pk])).content.decode()
    form = page[page.index('class="report-form"') :]
    form = form[: form.index("</form>")]
    assert f'name="reported_user" value="{lev.pk}"' in form
    # Nobody is offered a form to report themselves.
    assert f'name="reported_user" value="{kira.pk}"' not in page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = client.post(
        reverse("moderation:report"),
        {
            "csrfmiddlewaretoken": token,
            "match": match.pk,
            "reported_user": lev.pk,
            "chat_message": "",
            "category": "abuse",
            "reason": "Rude in chat",
        },
    )
    assert response.status_code in (200, 302)
    report = Report.objects.get()
    assert (report.reporter, report.reported_user, report.match_id) == (kira, lev, match.pk)
    assert report.status == Report.Status.OPEN


@pytest.mark.django_db
def test_a_suspended_player_is_told_why_and_until_when_at_join():
    from datetime import timedelta

    from django.utils import timezone

    kira = make_user("kira")
    lev = make_user(
        "lev",
        suspended_until=timezone.now() + timedelta(days=3),
        suspension_reason="Insulting other players",
    )
    match = services.create_match(kira, RuleVariant.objects.get(slug="classic"), 2)
    with pytest.raises(services.Refused) as refused:
        services.join_match(match, lev)
    assert "suspended until" in refused.value.message
    assert "Insulting other players" in refused.value.message
    assert not match.seats.filter(user=lev).exists()
