"""Signals the analysis app sends upward."""

from django.dispatch import Signal

# sender=DealAnalysis class; kwargs: analysis (the row, done, its result stored).  Sent
# by the task worker once an analysis is stored, outside any transaction.
analysis_done = Signal()
