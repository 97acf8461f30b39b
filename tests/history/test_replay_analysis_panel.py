"""The replay page carries the review panel of the deal it shows."""

import pytest
from django.urls import reverse

from history.seeding import play_match


@pytest.mark.django_db
def test_replay_page_offers_to_analyse_its_deal(client):
    match = play_match(["anna", "boris"], "classic", seed=5)
    deal = match.deals.get()
    client.force_login(match.seats.get(number=0).user)
    page = client.get(reverse("analysis:replay", args=[match.pk])).content.decode()
    panel_url = reverse("analysis:deal_analysis", args=[match.pk, deal.number])
    # Nothing analysed yet: the panel offers to start, and the start URL is the panel's.
    assert 'data-testid="deal-analysis"' in page
    assert f'hx-post="{panel_url}"' in page
    panel = client.get(panel_url)
    assert panel.status_code == 200
    assert f'hx-post="{panel_url}"' in panel.content.decode()
