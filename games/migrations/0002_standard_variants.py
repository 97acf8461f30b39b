"""The standard rule variants every site starts with."""

from django.db import migrations

STANDARD_VARIANTS = [
    {
        "slug": "classic",
        "name": "Classic",
        "description": "Podkidnoy durak with a 36-card deck: throw in cards of ranks on the table.",
        "min_players": 2,
        "max_players": 6,
    },
    {
        "slug": "transfer",
        "name": "Transfer",
        "description": "Perevodnoy durak: the defender may pass the attack on with a card of "
        "the same rank.",
        "mode": "perevodnoy",
        "min_players": 2,
        "max_players": 6,
    },
    {
        "slug": "transfer-trump-show",
        "name": "Transfer with trump show",
        "description": "Perevodnoy durak where showing a trump of the attack's rank also passes "
        "the attack on.",
        "mode": "perevodnoy",
        "trump_show_transfer": True,
        "min_players": 2,
        "max_players": 6,
    },
    {
        "slug": "teams-2x2",
        "name": "Teams 2x2",
        "description": "Two against two, partners sitting opposite each other.",
        "teams": "2x2",
        "min_players": 4,
        "max_players": 4,
    },
    {
        "slug": "teams-3x3",
        "name": "Teams 3x3",
        "description": "Three against three, partners in alternate seats, with the full deck.",
        "teams": "3x3",
        "deck_size": 52,
        "min_players": 6,
        "max_players": 6,
    },
    {
        "slug": "full-deck-52",
        "name": "52-card",
        "description": "The full deck, seven cards each, up to eight players.",
        "deck_size": 52,
        "hand_size": 7,
        "min_players": 2,
        "max_players": 7,
    },
    {
        "slug": "short-deck-24",
        "name": "24-card",
        "description": "A quick game with nines to aces.",
        "deck_size": 24,
        "min_players": 2,
        "max_players": 4,
    },
    {
        "slug": "one-winner",
        "name": "One winner",
        "description": "The first player to run out of cards wins and the game ends.",
        "one_winner": True,
        "min_players": 2,
        "max_players": 6,
    },
]


def create_variants(apps, schema_editor):
    RuleVariant = apps.get_model("games", "RuleVariant")
    for ordering, fields in enumerate(STANDARD_VARIANTS):
        values = dict(fields)
        slug = values.pop("slug")
        RuleVariant.objects.update_or_create(
            slug=slug, defaults={**values, "ordering": ordering * 10}
        )


def remove_variants(apps, schema_editor):
    RuleVariant = apps.get_model("games", "RuleVariant")
    RuleVariant.objects.filter(
        slug__in=[v["slug"] for v in STANDARD_VARIANTS], matches__isnull=True
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(create_variants, remove_variants)]
