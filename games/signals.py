"""Signals other apps hook into: the news the games app sends upward.

``deal_finished`` and ``match_aborted`` are sent inside the transaction that changes
the match, so a receiver's writes commit or roll back with it; the others say when
each is sent.  Signals only tell: no sender reads what a receiver returns (an app
above that has a say registers with the app below: ``games.seat_rules``,
``history.replay_access``)."""

from django.dispatch import Signal

# sender=Deal class; kwargs: deal (the finished Deal, result stored)
deal_finished = Signal()

# sender=Match class; kwargs: match, reason, by (user or None)
match_aborted = Signal()

# sender=None; kwargs: user_id.  A lobby socket, or a seated player's table socket,
# of this user opened or closed (their presence may have changed).
socket_changed = Signal()

# sender=Match class; kwargs: user_ids.  Sent after the commit that seated these
# players, freed their seats, or started, finished or aborted their table (their
# presence, which follows the seat, may have changed).
seats_changed = Signal()

# sender=None; no kwargs.  Sent on every tick of a web process's ticker, outside the
# event loop's thread: the periodic work of the apps above (pairing waiting seeks).
# A receiver that raises ends that tick; the next one runs as usual.
ticked = Signal()

# sender=Match class; kwargs: match_id, user_ids.  Sent after the commit of a move or
# a deal that started these players' turn while none of their sockets to that table
# was open (push notifications tell them).
turn_started = Signal()
