"""Who is at the table: sockets opening and closing, and those of dead processes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games import presence
from games.models import Match, Seat, ServerProcess, SocketPresence
from games.services import clock
from games.services.common import (
    load_game,
    load_seats,
    lock_match,
    notify_match_changed,
    seat_of,
    table_transaction,
)


def seat_connected(match_id: int, user: Any, channel_name: str) -> int | None:
    """A socket of ``user`` opened; returns their seat number (None: a spectator).

    The socket is recorded as held by this process, so it is released if the process
    dies without closing it; a socket already recorded is not counted twice.
    """
    now = timezone.now()
    # Before the socket's row: a socket of an unregistered process looks orphaned.
    presence.register(now)
    with table_transaction():
        match = lock_match(match_id)
        if match is None:
            return None
        seats = load_seats(match.pk)
        seat = seat_of(seats, user)
        if seat is None:
            return None
        _, created = SocketPresence.objects.get_or_create(
            channel_name=channel_name,
            defaults={"seat": seat, "server": presence.server_name(), "opened_at": now},
        )
        if not created:
            return seat.number
        seat.last_seen = now
        if seat.disconnected_since is None:
            seat.save(update_fields=["last_seen"])
            return seat.number
        game = load_game(match) if match.status == Match.Status.PLAYING else None
        if game is not None:
            clock.charge_budgets(match, [seat], clock.required_seats(game), now)
        seat.disconnected_since = None
        seat.save(update_fields=["disconnected_since", "last_seen"])
        if game is not None:
            # The budget spent so far is charged; from here the turn timer counts again.
            match.turn_deadline = clock.deadline(match, seats, game)
            match.save(update_fields=["turn_deadline"])
        notify_match_changed(match.pk, match.version, what="presence")
        return seat.number


def seat_disconnected(match_id: int, channel_name: str) -> None:
    """A table socket closed: its row goes, whatever seat its user holds now.

    The row names the seat the socket was recorded for; if the user left that seat
    meanwhile, leaving already released it (``leave_match``), so nothing is found.
    """
    with table_transaction():
        match = lock_match(match_id)
        if match is None:
            return
        row = SocketPresence.objects.filter(channel_name=channel_name).first()
        if row is None:
            return
        row.delete()
        seats = load_seats(match.pk)
        seat = next((s for s in seats if s.pk == row.seat_id), None)
        if seat is not None:
            _socket_closed(match, seats, seat, timezone.now())


def _socket_closed(match: Match, seats: list[Seat], seat: Seat, since: datetime) -> None:
    """One of the seat's sockets is gone; with it the last, the seat is away from ``since``."""
    seat.last_seen = since
    if SocketPresence.objects.filter(seat=seat).exists():
        seat.save(update_fields=["last_seen"])
        return
    seat.disconnected_since = since
    fields = ["disconnected_since", "last_seen"]
    if seat.wants_rematch:
        # Leaving the table withdraws an offer of a rematch: the next game must not be
        # dealt to a player who is gone, on the turn timer.
        seat.wants_rematch = False
        fields.append("wants_rematch")
        match.version += 1
        match.save(update_fields=["version"])
    seat.save(update_fields=fields)
    if match.status == Match.Status.PLAYING:
        match.turn_deadline = clock.deadline(match, seats, load_game(match))
        match.save(update_fields=["turn_deadline"])
    notify_match_changed(match.pk, match.version, what="presence")


def release_dead_servers(now: datetime | None = None) -> int:
    """Close the sockets of server processes that stopped beating; returns how many.

    A dead process's seats count as away from its last beat.  Any process may call
    this: each socket is released under its match's row lock, exactly once.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=presence.timeout_seconds())
    released = 0
    for server in ServerProcess.objects.filter(last_beat__lt=cutoff):
        for presence_id, match_id in SocketPresence.objects.filter(server=server.name).values_list(
            "pk", "seat__match_id"
        ):
            released += _release_socket(presence_id, match_id, since=server.last_beat)
        ServerProcess.objects.filter(pk=server.pk, last_beat=server.last_beat).delete()
    # Sockets of a process whose row is gone altogether (released half-way, say).
    orphans = SocketPresence.objects.filter(opened_at__lt=cutoff).exclude(
        server__in=ServerProcess.objects.values("name")
    )
    for presence_id, match_id in orphans.values_list("pk", "seat__match_id"):
        released += _release_socket(presence_id, match_id, since=cutoff)
    return released


def _release_socket(presence_id: int, match_id: int, *, since: datetime) -> int:
    with table_transaction():
        match = lock_match(match_id)
        row = SocketPresence.objects.filter(pk=presence_id).first()
        if match is None or row is None:
            return 0
        row.delete()
        seats = load_seats(match.pk)
        seat = next((s for s in seats if s.pk == row.seat_id), None)
        if seat is None:
            return 0
        _socket_closed(match, seats, seat, since)
        return 1
