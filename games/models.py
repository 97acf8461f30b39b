"""Tables, deals, seats and moves.

A ``Match`` is a table; it plays a series of ``Deal``s (games in the sense of
RULES.md "Match").  Each deal stores its deck, its rules and its moves, so the
engine record rebuilds it exactly; ``Match.state`` keeps the engine snapshot of
the deal in progress, so loading a table never replays it from the start.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from durak.engine import Rules
from games.bot_speed import BotSpeed
from games.variant_words import variant_name

# The rules a variant plays by (the admin shows them together); RULE_FIELDS adds the
# deck and the hand size.
PLAY_RULE_FIELDS = (
    "mode",
    "trump_show_transfer",
    "teams",
    "throw_in",
    "first_bout_limit",
    "multi_card_lead",
    "one_winner",
    "epaulettes",
    "trump_six_swap",
    "next_game_lead",
)
RULE_FIELDS = ("deck_size", "hand_size", *PLAY_RULE_FIELDS)


class BotLevel(models.TextChoices):
    RANDOM = "random", _("Random")
    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")


class RuleVariant(models.Model):
    """A named set of rules an admin can edit; tables are created from it."""

    class Mode(models.TextChoices):
        PODKIDNOY = "podkidnoy", _("Podkidnoy (throw-in)")
        PEREVODNOY = "perevodnoy", _("Perevodnoy (transfer)")

    class Teams(models.TextChoices):
        TWO_BY_TWO = "2x2", _("2 against 2")
        THREE_BY_THREE = "3x3", _("3 against 3")

    class ThrowIn(models.TextChoices):
        AUTO = "auto", _("Everyone up to 4 players, neighbours of the defender from 5")
        ALL = "all", _("Every opponent of the defender")
        NEIGHBOURS = "neighbours", _("Only the two players next to the defender")
        ATTACKER = "attacker", _("Only the attacker")

    class NextGameLead(models.TextChoices):
        LEFT_OF_FOOL = "left_of_fool", _("The player to the fool's left leads")
        FOOL_DEFENDS = "fool_defends", _("The fool defends first")

    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    # An admin's variant in Russian, for readers of the Russian site (empty: the words
    # above); the standard variants' Russian is in the catalogue (games/variant_words.py).
    name_ru = models.CharField(_("name in Russian"), max_length=80, blank=True)
    description_ru = models.TextField(_("description in Russian"), blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    ordering = models.PositiveSmallIntegerField(_("ordering"), default=0)

    min_players = models.PositiveSmallIntegerField(
        _("fewest players"), default=2, help_text=_("The smallest table this variant allows.")
    )
    max_players = models.PositiveSmallIntegerField(
        _("most players"), default=6, help_text=_("The largest table this variant allows.")
    )
    deck_size = models.PositiveSmallIntegerField(
        _("deck size"),
        default=36,
        choices=[(24, "24 (9–A)"), (36, "36 (6–A)"), (52, "52 (2–A)")],
        help_text=_("How many cards are in the deck."),
    )
    hand_size = models.PositiveSmallIntegerField(
        _("hand size"), default=6, help_text=_("How many cards each player holds after drawing.")
    )
    mode = models.CharField(
        _("mode"),
        max_length=12,
        choices=Mode.choices,
        default=Mode.PODKIDNOY,
        help_text=_(
            "Perevodnoy lets the defender pass the attack on by adding a card of the same rank."
        ),
    )
    trump_show_transfer = models.BooleanField(
        _("transfer by showing a trump"),
        default=False,
        help_text=_(
            "In perevodnoy, the defender may pass the attack on by only showing a trump of "
            "the attack's rank."
        ),
    )
    teams = models.CharField(
        _("teams"),
        max_length=3,
        choices=Teams.choices,
        blank=True,
        default="",
        help_text=_(
            "2x2: partners sit opposite; 3x3: partners in alternate seats. Partners never "
            "attack each other. Leave empty for everyone playing alone."
        ),
    )
    throw_in = models.CharField(
        _("who may throw in"),
        max_length=12,
        choices=ThrowIn.choices,
        default=ThrowIn.AUTO,
        help_text=_("Which players may add cards to an attack."),
    )
    first_bout_limit = models.PositiveSmallIntegerField(
        _("first bout limit"),
        null=True,
        blank=True,
        help_text=_(
            "At most this many attack cards in the first bout of a game (often 5). "
            "Leave empty for the usual limit of six."
        ),
    )
    multi_card_lead = models.BooleanField(
        _("lead several cards"),
        default=True,
        help_text=_("The attacker may lead several cards of one rank at once."),
    )
    one_winner = models.BooleanField(
        _("one winner"),
        default=False,
        help_text=_("The first player to run out of cards wins at once; nobody is the fool."),
    )
    epaulettes = models.BooleanField(
        _("epaulettes"),
        default=False,
        help_text=_("If the deciding play has sixes, the fool gets them as epaulettes."),
    )
    trump_six_swap = models.BooleanField(
        _("trump six swap"),
        default=False,
        help_text=_(
            "Whoever was dealt or drew the six of trumps may swap it for the face-up trump."
        ),
    )
    next_game_lead = models.CharField(
        _("who leads the next game"),
        max_length=12,
        choices=NextGameLead.choices,
        default=NextGameLead.LEFT_OF_FOOL,
        help_text=_("Who attacks first in the following games of a match."),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("turn timer (seconds)"),
        default=30,
        help_text=_(
            "How long a player has for each move; then the server plays the safe move "
            "(the defender takes, an attacker says done)."
        ),
    )
    reconnect_seconds = models.PositiveSmallIntegerField(
        _("reconnect budget (seconds)"),
        default=45,
        help_text=_("Total time a player may be away when it is their turn before forfeiting."),
    )
    rated_with_bots = models.BooleanField(
        _("rated with bots"),
        default=False,
        help_text=_("Whether games with a bot at the table count for ratings."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["ordering", "name"]
        verbose_name = _("rule variant")
        verbose_name_plural = _("rule variants")

    def __str__(self) -> str:
        # In the reader's language: the seeded variants' names are in the catalogue, an
        # admin's own variant has its Russian name beside the name it was typed with.
        return variant_name(self)

    def rates_a_table(self, with_bots: bool) -> bool:
        """Whether a rated table of this variant counts for ratings, with bots seated or not."""
        return not with_bots or self.rated_with_bots

    def rules_for(self, players: int) -> Rules:
        """The engine rules of this variant at a table of ``players``; raises ValueError."""
        values = {name: getattr(self, name) for name in RULE_FIELDS}
        values["teams"] = values["teams"] or None
        return Rules(players=players, **values)

    def players_rule(self) -> str:
        """How many play this variant, as a sentence: "Teams 2x2 is for 4 players."."""
        words = {"variant": variant_name(self), "low": self.min_players, "high": self.max_players}
        if self.min_players == self.max_players:
            return (
                ngettext(
                    "%(variant)s is for exactly %(high)d player.",
                    "%(variant)s is for exactly %(high)d players.",
                    self.max_players,
                )
                % words
            )
        return gettext("%(variant)s is played by %(low)d to %(high)d players.") % words

    def clean(self) -> None:
        if self.min_players > self.max_players:
            raise ValidationError(
                {"max_players": _("The most players cannot be fewer than the fewest.")}
            )
        errors: dict[str, list[str]] = {}
        for players in sorted({self.min_players, self.max_players}):
            try:
                self.rules_for(players)
            except ValueError as error:
                field = _field_named_in(str(error))
                errors.setdefault(field, []).append(str(error))
        if errors:
            raise ValidationError(errors)


def _field_named_in(message: str) -> str:
    """The model field an engine ``Rules`` error is about (it names it first)."""
    names = (*RULE_FIELDS, "players")
    named = [n for n in names if message.startswith(n)] or [
        n for n in names if f" {n} " in f" {message} "
    ]
    if not named:
        return "__all__"
    return "max_players" if named[0] == "players" else named[0]


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Match(models.Model):
    """A table: a series of deals among the same seats."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    variant = models.ForeignKey(
        RuleVariant, on_delete=models.PROTECT, related_name="matches", verbose_name=_("variant")
    )
    players = models.PositiveSmallIntegerField(_("players"))
    rules = models.JSONField(_("rules"), help_text=_("The engine rules, fixed at creation."))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_matches",
        verbose_name=_("creator"),
    )
    is_private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(
        _("invite token"), max_length=32, default=new_invite_token, unique=True
    )
    is_rated = models.BooleanField(_("rated"), default=True)
    bot_speed = models.CharField(  # How soon its bots move (games.bot_speed).
        _("bots' speed"), max_length=8, choices=BotSpeed.choices, default=BotSpeed.NORMAL
    )
    # A fixed deal (the daily deal): its deck is shuffled by this seed and its bots'
    # random choices are seeded from it and the move number, so the same moves by a
    # person always meet the same replies.  Empty: a deal shuffled at random.
    seed = models.CharField(_("seed"), max_length=64, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds a turn"), default=30)
    reconnect_seconds = models.PositiveSmallIntegerField(_("seconds to reconnect"), default=45)
    version = models.PositiveIntegerField(_("version"), default=0)
    # The engine snapshot of the deal in progress: server-side only.
    state = models.JSONField(_("engine state"), null=True, blank=True)
    # When the seats that must act now time out; any process may claim it.
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True, db_index=True)
    abort_reason = models.TextField(_("abort reason"), blank=True)
    # The deal in progress (or the last one), so an action needs no extra lookup.
    live_deal = models.ForeignKey(
        "Deal",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("live deal"),
    )
    # Moves applied in this match: the next Move.seq, kept here so seq stays gap-free.
    move_count = models.PositiveIntegerField(_("move count"), default=0)
    # When the seats that must act now got their turn (turn timer and think time).
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    # When a bot seat should move next; a process claims it by moving it forward.
    bot_due_at = models.DateTimeField(_("bot moves at"), null=True, blank=True, db_index=True)
    # When a bot worker last claimed a bot turn here: workers serve first the tables of
    # the creator they served longest ago, so many tables of one person starve nobody.
    bot_claimed_at = models.DateTimeField(_("bot turn claimed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [models.Index(fields=["creator", "bot_claimed_at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.variant} ({self.get_status_display()})"

    @property
    def engine_rules(self) -> Rules:
        return Rules.from_dict(self.rules)


class Seat(models.Model):
    """A user or a bot at a match."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    team = models.PositiveSmallIntegerField(_("team"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("user"),
    )
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices, blank=True)
    fools = models.PositiveSmallIntegerField(_("times fool in this match"), default=0)
    # Set by the player's Rematch once a game is over; the next game starts when every
    # person seated has asked (bots always agree), and clears it.
    wants_rematch = models.BooleanField(_("asked for a rematch"), default=False)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    reconnect_budget_ms = models.PositiveIntegerField(_("reconnect time left (ms)"), default=45_000)
    # A turn time of the seat's own, shorter than the table's (an arena's berserk halves
    # the berserker's); empty: the table's ``turn_seconds``.
    turn_seconds = models.PositiveSmallIntegerField(_("own seconds a turn"), null=True, blank=True)
    # Away since (no SocketPresence row: no open socket); the reconnect budget runs from here.
    disconnected_since = models.DateTimeField(_("disconnected since"), null=True, blank=True)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="unique_user_per_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number} {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def display_name(self) -> str:
        if self.user_id:
            return self.user.username
        if self.bot_level:
            # Numbered by seat: three bots of one level at a table need three names.
            return _("Bot %(number)d (%(level)s)") % {
                "number": self.number + 1,
                "level": self.get_bot_level_display(),
            }
        return "—"


class FirstAttackerBy(models.TextChoices):
    """How a deal's first attacker was chosen (the engine record's ``first_attacker_by``)."""

    LOWEST_TRUMP = "lowest_trump", _("Lowest trump")
    DRAW = "draw", _("Drawn at random")
    GIVEN = "given", _("Set by the match (previous fool)")


class Deal(models.Model):
    """One game of a match, with its deck, rules, moves and result."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class EndReason(models.TextChoices):
        NORMAL = "normal", _("Played out")
        RESIGNED = "resigned", _("Resigned")
        FORFEIT = "forfeit", _("Reconnect budget spent")
        ABORTED = "aborted", _("Aborted")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="deals", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    rules = models.JSONField(_("rules"))
    # The deck order is server-side only until the deal is over.
    deck = models.JSONField(_("deck"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    first_attacker = models.PositiveSmallIntegerField(_("first attacker"), null=True, blank=True)
    first_attacker_by = models.CharField(
        _("first attacker chosen by"),
        max_length=12,
        choices=FirstAttackerBy.choices,
        default=FirstAttackerBy.LOWEST_TRUMP,
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    result = models.JSONField(_("result"), null=True, blank=True)
    fool_seat = models.PositiveSmallIntegerField(_("fool seat"), null=True, blank=True)
    fool_team = models.PositiveSmallIntegerField(_("fool team"), null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(_("winner seat"), null=True, blank=True)
    is_draw = models.BooleanField(_("draw"), default=False)
    epaulettes = models.PositiveSmallIntegerField(_("epaulettes"), default=0)
    end_reason = models.CharField(
        _("end reason"), max_length=10, choices=EndReason.choices, blank=True
    )
    move_count = models.PositiveIntegerField(_("move count"), default=0)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_deal_number"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}.{self.number}"


# Table chat, the moves and the rows of open sockets live in modules of their own; they
# are models of this app.
from games.chat_rows import ChatMessage  # noqa: E402, F401
from games.move_rows import Move  # noqa: E402, F401
from games.socket_rows import OpenSocket, ServerProcess, SocketPresence  # noqa: E402, F401
