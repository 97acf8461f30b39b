import pytest
from django.urls import reverse

from games.models import Match, RuleVariant
from moderation.models import AuditLogEntry

from .conftest import make_deal, make_match

ADD_URL = reverse("admin:games_rulevariant_add")
LIST_URL = reverse("admin:games_rulevariant_changelist")


def variant_form(**overrides) -> dict:
    data = {
        "name": "House rules",
        "slug": "house-rules",
        "description": "",
        "is_active": "on",
        "ordering": "5",
        "min_players": "2",
        "max_players": "4",
        "deck_size": "36",
        "hand_size": "6",
        "mode": "podkidnoy",
        "teams": "",
        "throw_in": "auto",
        "first_bout_limit": "",
        "multi_card_lead": "on",
        "next_game_lead": "left_of_fool",
        "turn_seconds": "30",
        "reconnect_seconds": "45",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


@pytest.mark.django_db
def test_valid_variant_is_created_and_logged(admin_client, superuser):
    response = admin_client.post(ADD_URL, variant_form())
    assert response.status_code == 302
    variant = RuleVariant.objects.get(slug="house-rules")
    assert variant.rules_for(4).players == 4
    entry = AuditLogEntry.objects.get(action=AuditLogEntry.Action.VARIANT_CREATED)
    assert entry.actor == superuser and entry.target_id == str(variant.pk)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "field", "text"),
    [
        # A 2x2 team game with 2-4 players: the engine refuses teams at 2 players.
        ({"teams": "2x2"}, "teams", "teams &#x27;2x2&#x27; needs players=4"),
        # Six players of six cards need 36 cards; a 24-card deck has too few.
        (
            {"deck_size": "24", "max_players": "6", "hand_size": "6"},
            "hand_size",
            "more than deck_size 24",
        ),
        ({"trump_show_transfer": "on"}, "trump_show_transfer", "needs mode"),
        ({"one_winner": "on", "epaulettes": "on"}, "epaulettes", "epaulettes need a fool"),
        ({"min_players": "5", "max_players": "3"}, "max_players", "cannot be fewer"),
    ],
)
def test_impossible_variant_is_refused_with_the_field_named(admin_client, overrides, field, text):
    response = admin_client.post(ADD_URL, variant_form(**overrides))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors, errors
    assert text in response.content.decode()
    assert not RuleVariant.objects.filter(slug="house-rules").exists()


@pytest.mark.django_db
def test_editing_a_variant_into_an_impossible_one_is_refused(admin_client, classic):
    url = reverse("admin:games_rulevariant_change", args=[classic.pk])
    response = admin_client.post(
        url, variant_form(name=classic.name, slug=classic.slug, deck_size="24", max_players="6")
    )
    assert response.status_code == 200
    assert "hand_size" in response.context["adminform"].form.errors
    classic.refresh_from_db()
    assert classic.deck_size == 36


@pytest.mark.django_db
def test_changelist_counts_games_per_variant_without_a_query_per_row(
    admin_client, classic, players, django_assert_max_num_queries
):
    match = make_match(classic, players[:2])
    make_deal(match, number=1, fool_seat=0)
    make_deal(match, number=2, fool_seat=1)
    make_deal(match, number=3, status="playing")
    other = make_match(RuleVariant.objects.get(slug="transfer"), players[1:])
    make_deal(other, fool_seat=0)
    response = admin_client.get(LIST_URL)
    rows = {v.slug: v for v in response.context["cl"].result_list}
    assert rows["classic"]._games == 2
    assert rows["transfer"]._games == 1
    assert rows["teams-2x2"]._games == 0
    # The count is annotated: the page costs the same with any number of variants.
    with django_assert_max_num_queries(12):
        admin_client.get(LIST_URL)


@pytest.mark.django_db
def test_deleting_a_played_variant_is_refused_with_a_message(admin_client, classic, players):
    match = make_match(classic, players[:2], status=Match.Status.FINISHED)
    url = reverse("admin:games_rulevariant_delete", args=[classic.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert RuleVariant.objects.filter(pk=classic.pk).exists()
    assert "cannot be deleted: deactivate it instead" in response.content.decode()
    # The bulk action refuses the same way, even with an unused variant selected.
    unused = RuleVariant.objects.get(slug="short-deck-24")
    response = admin_client.post(
        LIST_URL,
        {"action": "delete_unused", "_selected_action": [classic.pk, unused.pk], "index": 0},
        follow=True,
    )
    assert "cannot be deleted" in response.content.decode()
    assert RuleVariant.objects.filter(pk__in=[classic.pk, unused.pk]).count() == 2
    # Old tables keep the rules they were created with, whatever the variant says now.
    rules_before = dict(match.rules)
    admin_client.post(
        reverse("admin:games_rulevariant_change", args=[classic.pk]),
        variant_form(name=classic.name, slug=classic.slug, hand_size="5"),
    )
    match.refresh_from_db()
    assert RuleVariant.objects.get(pk=classic.pk).hand_size == 5
    assert match.rules == rules_before


@pytest.mark.django_db
def test_an_unplayed_variant_can_be_deleted(admin_client):
    unused = RuleVariant.objects.get(slug="short-deck-24")
    response = admin_client.post(
        LIST_URL, {"action": "delete_unused", "_selected_action": [unused.pk], "index": 0}
    )
    assert response.status_code == 200  # Django's "are you sure?" page
    admin_client.post(
        LIST_URL, {"action": "delete_unused", "_selected_action": [unused.pk], "post": "yes"}
    )
    assert not RuleVariant.objects.filter(pk=unused.pk).exists()
    assert AuditLogEntry.objects.filter(action=AuditLogEntry.Action.VARIANT_DELETED).count() == 1


@pytest.mark.django_db
def test_deactivate_and_activate_in_bulk_are_logged(admin_client, classic):
    transfer = RuleVariant.objects.get(slug="transfer")
    admin_client.post(
        LIST_URL,
        {"action": "deactivate", "_selected_action": [classic.pk, transfer.pk], "index": 0},
    )
    assert not RuleVariant.objects.filter(pk__in=[classic.pk, transfer.pk], is_active=True)
    admin_client.post(
        LIST_URL, {"action": "activate", "_selected_action": [classic.pk], "index": 0}
    )
    assert RuleVariant.objects.get(pk=classic.pk).is_active
    actions = list(AuditLogEntry.objects.values_list("action", flat=True))
    assert actions.count(AuditLogEntry.Action.VARIANT_DEACTIVATED) == 2
    assert actions.count(AuditLogEntry.Action.VARIANT_ACTIVATED) == 1


@pytest.mark.django_db
def test_moderator_cannot_edit_variants(moderator_client, classic):
    assert moderator_client.get(LIST_URL).status_code == 200  # may look
    assert moderator_client.get(ADD_URL).status_code == 403
    change = reverse("admin:games_rulevariant_change", args=[classic.pk])
    moderator_client.post(change, variant_form(name="Hacked", slug=classic.slug))
    assert RuleVariant.objects.get(pk=classic.pk).name == classic.name
    response = moderator_client.post(
        LIST_URL, {"action": "deactivate", "_selected_action": [classic.pk], "index": 0}
    )
    assert RuleVariant.objects.get(pk=classic.pk).is_active
    assert response.status_code in (200, 302)
    assert moderator_client.post(
        reverse("admin:games_rulevariant_delete", args=[classic.pk]), {"post": "yes"}
    ).status_code in (302, 403)
    assert RuleVariant.objects.filter(pk=classic.pk).exists()
