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

    name = models.CharField(_("name"), max_length=100, primary_key=True)
    host = models.CharField(_("host"), max_length=100, blank=True)
    pid = models.PositiveIntegerField(_("process id"), default=0)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    last_beat = models.DateTimeField(_("last heartbeat"), db_index=True)

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
    server = models.CharField(_("server"), max_length=100, db_index=True)
    channel_name = models.CharField(_("channel name"), max_length=200, unique=True)
    opened_at = models.DateTimeField(_("opened at"))

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

    channel_name = models.CharField(_("channel name"), max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    # The table's id; none for the lobby.
    match_id = models.PositiveBigIntegerField(_("table id"), null=True, blank=True, db_index=True)
    # The process that holds the socket (``presence.server_name``).
    server = models.CharField(_("server"), max_length=100, db_index=True, default="")
    renewed_at = models.DateTimeField(_("renewed at"), db_index=True)

    class Meta:
        verbose_name = _("counted socket")
        verbose_name_plural = _("counted sockets")
        indexes = [models.Index(fields=["user", "renewed_at"])]

    def __str__(self) -> str:
        return f"socket of user {self.user_id} at {self.match_id or 'the lobby'}"
