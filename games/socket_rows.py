"""The rows that record open sockets: server processes, seated players' presence, and
every socket of a user for the socket caps.  (Kept apart from games/models.py only
for length; they are the games app's models like any other.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ServerProcess(models.Model):
    """A server process that holds table sockets; it proves it is alive by beating.

    When a process stops beating (killed, frozen, its machine gone) the others release
    its sockets, so the seats count as away and their reconnect budgets run.
    """

    name = models.CharField(max_length=100, primary_key=True, verbose_name=_("name"))
    host = models.CharField(max_length=100, blank=True, verbose_name=_("host"))
    pid = models.PositiveIntegerField(default=0, verbose_name=_("process id"))
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=_("started at"))
    last_beat = models.DateTimeField(db_index=True, verbose_name=_("last heartbeat"))

    class Meta:
        verbose_name = _("server process")
        verbose_name_plural = _("server processes")

    def __str__(self) -> str:
        return self.name


class SocketPresence(models.Model):
    """One open table socket of a seated player, held by one server process."""

    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="sockets", verbose_name=_("seat")
    )
    server = models.CharField(max_length=100, db_index=True, verbose_name=_("server"))
    channel_name = models.CharField(max_length=200, unique=True, verbose_name=_("channel name"))
    opened_at = models.DateTimeField(verbose_name=_("opened at"))

    class Meta:
        verbose_name = _("open socket")
        verbose_name_plural = _("open sockets")

    def __str__(self) -> str:
        return f"{self.seat} on {self.server}"


class OpenSocket(models.Model):
    """One open socket (a table's or the lobby's) of a user: the socket caps count
    these, and a table's pushes go to the channels of its rows.

    The process that holds the socket renews its rows on its beat; a row not renewed
    for ``GAMES_SERVER_TIMEOUT`` belongs to a process that died without closing it, and
    no longer counts.
    """

    channel_name = models.CharField(max_length=200, unique=True, verbose_name=_("channel name"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    # The table's id; none for the lobby.
    match_id = models.PositiveBigIntegerField(
        null=True, blank=True, db_index=True, verbose_name=_("table id")
    )
    # The process that holds the socket (``presence.server_name``).
    server = models.CharField(max_length=100, db_index=True, default="", verbose_name=_("server"))
    renewed_at = models.DateTimeField(db_index=True, verbose_name=_("renewed at"))

    class Meta:
        verbose_name = _("counted socket")
        verbose_name_plural = _("counted sockets")
        indexes = [models.Index(fields=["user", "renewed_at"])]

    def __str__(self) -> str:
        return f"socket of user {self.user_id} at {self.match_id or 'the lobby'}"
