"""What table creators may change in the standard variants."""

from django.db import migrations

ALL_DECKS = {"deck_24": True, "deck_36": True, "deck_52": True}
EVERYTHING = {
    **ALL_DECKS,
    "may_choose_throw_in": True,
    "may_choose_transfer": True,
    "may_choose_first_bout_limit": True,
    "may_choose_trump_six_swap": True,
}
# Variants whose point is a fixed deck or a fixed seating keep it.
PLAY_ONLY = {
    "may_choose_throw_in": True,
    "may_choose_first_bout_limit": True,
    "may_choose_trump_six_swap": True,
}
BOUNDS = {
    "classic": EVERYTHING,
    "transfer": EVERYTHING,
    "transfer-trump-show": EVERYTHING,
    "one-winner": EVERYTHING,
    "teams-2x2": PLAY_ONLY,
    "teams-3x3": PLAY_ONLY,
    "full-deck-52": PLAY_ONLY,
    "short-deck-24": PLAY_ONLY,
}


def create_bounds(apps, schema_editor):
    RuleVariant = apps.get_model("games", "RuleVariant")
    HouseRuleBounds = apps.get_model("matchmaking", "HouseRuleBounds")
    for variant in RuleVariant.objects.filter(slug__in=BOUNDS):
        HouseRuleBounds.objects.get_or_create(variant=variant, defaults=BOUNDS[variant.slug])


def remove_bounds(apps, schema_editor):
    HouseRuleBounds = apps.get_model("matchmaking", "HouseRuleBounds")
    HouseRuleBounds.objects.filter(variant__slug__in=BOUNDS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("matchmaking", "0002_house_rule_bounds"),
        ("games", "0002_standard_variants"),
    ]

    operations = [migrations.RunPython(create_bounds, remove_bounds)]
