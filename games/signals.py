"""Signals other apps hook into.  Both are sent inside the transaction that
changes the match, so a receiver's writes commit or roll back with it."""

from django.dispatch import Signal

# sender=Deal class; kwargs: deal (the finished Deal, result stored)
deal_finished = Signal()

# sender=Match class; kwargs: match, reason, by (user or None)
match_aborted = Signal()
