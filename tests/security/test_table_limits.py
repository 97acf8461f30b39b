"""One account cannot open tables of bots as fast as it clicks: a person has a few
tables with bots at once, and tables are opened at a limited rate per user and per
address (the lobby's form, "Play bots", "Play on from here").  A refusal says why in
the reader's language and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from analysis.models import PlayOn
from games import services
from games.models import Deal, Match, RuleVariant, Seat
from history.seeding import play_match

from .helpers import make_user

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.9"
PLAY_BOTS = {
    "mode": "podkidnoy",
    "players": "3",
    "deck_size": "36",
    "speed": "normal",
    "practice": "1",
    "practice_level": "hard",
}
CAP_EN = "tables with bots open; finish, resign or leave one of them"
CAP_RU = "столов с ботами; доиграйте, сдайтесь или покиньте один из них"
USER_RATE_EN = "You are opening tables too often; try again in 1 minute."
USER_RATE_RU = "Вы слишком часто открываете столы; попробуйте снова через 1 минуту."
ADDRESS_RATE_EN = "Too many tables were opened from your network; try again in 1 minute."
ADDRESS_RATE_RU = "С вашего адреса открыто слишком много столов; попробуйте снова через 1 минуту."


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.GAMES_BOT_PLAYOUTS = 20


def client_for(user, language: str = "en", address: str = "127.0.0.1") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address)
    client.force_login(user)
    return client


def play_bots(client: Client):
    return client.post(reverse("matchmaking:play"), PLAY_BOTS, HTTP_HX_REQUEST="true")


def new_table(client: Client, **seats: str):
    classic = RuleVariant.objects.get(slug="classic")
    return client.post(reverse("table:create"), {"variant": classic.pk, "players": 2, **seats})


def play_on(client: Client, match: Match):
    return client.post(reverse("analysis:play_on", args=[match.pk, 1]), {"step": "4"})


def bot_table(user, players: int = 2) -> Match:
    classic = RuleVariant.objects.get(slug="classic")
    return services.create_match(user, classic, players, bots=["easy"] * (players - 1))


def tables() -> list[tuple[int, str, int]]:
    """What a refused request must leave as it was."""
    return list(Match.objects.order_by("pk").values_list("pk", "status", "version"))


# ------------------------------------------------------------------ the cap


@pytest.mark.parametrize(("language", "words"), [("en", CAP_EN), ("ru", CAP_RU)], ids=["en", "ru"])
def test_play_bots_past_the_cap_says_why_and_opens_nothing(settings, language, words):
    settings.GAMES_BOT_TABLES_PER_USER = 5
    player = make_user("cap")
    client = client_for(player, language)
    for _ in range(5):
        assert "HX-Redirect" in play_bots(client)
    before = tables()
    refused = play_bots(client)
    assert refused.status_code == 200 and "HX-Redirect" not in refused
    assert "5 " + words in refused.content.decode()
    assert tables() == before


@pytest.mark.parametrize(("language", "words"), [("en", CAP_EN), ("ru", CAP_RU)], ids=["en", "ru"])
def test_a_new_table_with_a_bot_past_the_cap_is_refused_one_without_bots_is_not(
    settings, language, words
):
    settings.GAMES_BOT_TABLES_PER_USER = 5
    player = make_user("cap")
    for _ in range(5):
        bot_table(player)
    client = client_for(player, language)
    before = tables()
    refused = new_table(client, seat_1="hard")
    assert refused.status_code == 400 and "5 " + words in refused.content.decode()
    assert tables() == before
    # A table waiting for people uses no bot: it opens as before.
    assert new_table(client, seat_1="").status_code == 302


def test_the_default_cap_is_three_tables_and_a_finished_one_frees_its_place():
    player = make_user("cap")
    client = client_for(player)
    opened = [bot_table(player) for _ in range(3)]
    assert "3 " + CAP_EN in play_bots(client).content.decode()
    services.resign(opened[0].pk, player)
    assert "HX-Redirect" in play_bots(client)


@pytest.mark.parametrize(("language", "words"), [("en", CAP_EN), ("ru", CAP_RU)], ids=["en", "ru"])
def test_play_on_past_the_cap_is_refused_and_ends_nothing(settings, language, words):
    settings.GAMES_BOT_TABLES_PER_USER = 5
    game = play_match(["anna", "boris"], seed=5, is_rated=False)
    anna = Seat.objects.get(match=game, number=0).user
    client = client_for(anna, language)
    assert play_on(client, game).status_code == 302  # one played-on table, with bots
    for _ in range(5):
        bot_table(anna)
    before = (tables(), Deal.objects.count(), PlayOn.objects.count())
    # A new one would end the earlier played-on table, and still be a sixth.
    refused = play_on(client, game)
    assert refused.status_code == 429 and "5 " + words in refused.content.decode()
    assert (tables(), Deal.objects.count(), PlayOn.objects.count()) == before


def test_starting_a_waiting_table_with_bots_past_the_cap_is_refused(settings):
    settings.GAMES_BOT_TABLES_PER_USER = 2
    host = make_user("cap")
    classic = RuleVariant.objects.get(slug="classic")
    waiting = services.create_match(host, classic, 3)
    bot_table(host)
    bot_table(host)
    with pytest.raises(services.Refused, match="2 tables with bots open") as refused:
        services.start_match(waiting, host, bots="hard")
    assert refused.value.code == "bot_tables"
    waiting.refresh_from_db()
    assert waiting.status == Match.Status.WAITING
    assert not Seat.objects.filter(match=waiting).exclude(bot_level="").exists()


def test_a_rematch_against_bots_past_the_cap_is_refused(settings):
    settings.GAMES_BOT_TABLES_PER_USER = 2
    player = make_user("cap")
    first = bot_table(player)
    services.resign(first.pk, player)
    bot_table(player)
    bot_table(player)
    with pytest.raises(services.Refused, match="2 tables with bots open"):
        services.start_next_deal(first.pk, player)
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED
    assert not Seat.objects.filter(match=first, wants_rematch=True).exists()


# ------------------------------------------------------------------ the rate


@pytest.fixture
def two_a_user_three_an_address(settings):
    settings.TABLE_RATE_LIMIT_USER = 2
    settings.TABLE_RATE_LIMIT_ADDRESS = 3
    settings.TABLE_RATE_LIMIT_WINDOW = 60
    settings.GAMES_BOT_TABLES_PER_USER = 100


@pytest.mark.usefixtures("two_a_user_three_an_address")
@pytest.mark.parametrize(
    ("language", "words"), [("en", USER_RATE_EN), ("ru", USER_RATE_RU)], ids=["en", "ru"]
)
def test_one_user_opening_tables_too_often_is_refused_on_every_way_in(language, words):
    player = make_user("fast")
    client = client_for(player, language)
    assert new_table(client, seat_1="hard").status_code == 302
    assert "HX-Redirect" in play_bots(client)
    before = tables()
    form = new_table(client, seat_1="")
    assert form.status_code == 400 and words in form.content.decode()
    practice = play_bots(client)
    assert "HX-Redirect" not in practice and words in practice.content.decode()
    game = play_match(["anna", "boris"], seed=6, is_rated=False)
    before.append(Match.objects.values_list("pk", "status", "version").get(pk=game.pk))
    refused = play_on(client, game)
    assert refused.status_code == 429 and words in refused.content.decode()
    assert tables() == before
    # Another person opens tables as before.
    assert "HX-Redirect" in play_bots(client_for(make_user("calm")))


@pytest.mark.usefixtures("two_a_user_three_an_address")
@pytest.mark.parametrize(
    ("language", "words"), [("en", ADDRESS_RATE_EN), ("ru", ADDRESS_RATE_RU)], ids=["en", "ru"]
)
def test_many_accounts_of_one_address_share_its_rate(language, words):
    accounts = [make_user("sock") for _ in range(4)]
    assert "HX-Redirect" in play_bots(client_for(accounts[0], address=ATTACKER))
    assert new_table(client_for(accounts[1], address=ATTACKER), seat_1="hard").status_code == 302
    assert "HX-Redirect" in play_bots(client_for(accounts[2], address=ATTACKER))
    before = tables()
    refused = play_bots(client_for(accounts[3], language, address=ATTACKER))
    assert "HX-Redirect" not in refused and words in refused.content.decode()
    form = new_table(client_for(accounts[3], language, address=ATTACKER), seat_1="")
    assert form.status_code == 400 and words in form.content.decode()
    assert tables() == before
    # Another address opens tables as before.
    assert "HX-Redirect" in play_bots(client_for(make_user("calm"), address="198.51.100.4"))


@pytest.mark.usefixtures("two_a_user_three_an_address")
def test_play_on_counts_against_the_address_too():
    game = play_match(["anna", "boris"], seed=7, is_rated=False)
    accounts = [make_user("sock") for _ in range(4)]
    for account in accounts[:3]:
        assert play_on(client_for(account, address=ATTACKER), game).status_code == 302
    before = (tables(), PlayOn.objects.count())
    refused = play_on(client_for(accounts[3], "ru", address=ATTACKER), game)
    assert refused.status_code == 429 and ADDRESS_RATE_RU in refused.content.decode()
    assert (tables(), PlayOn.objects.count()) == before
