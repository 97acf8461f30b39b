"""The month that just ended is published once a game of the new month finishes.

The site has no clock of its own that runs tasks on a date: the first game finished
after a month ends is what queues its file.  It is asked at most once an hour
(a cache key), and only while the file is missing, so a finished game costs a cache
read; ``manage.py build_open_data`` builds any month by hand.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.dispatch import receiver

from games.signals import deal_finished
from opendata import files

ASK_EVERY_SECONDS = 3600


def queue_last_month() -> bool:
    """Queue the build of last month's file if it is missing; whether it was queued."""
    year, month = files.last_month()
    if not cache.add(f"opendata-asked:{files.month_key(year, month)}", 1, ASK_EVERY_SECONDS):
        return False
    if files.month_file(year, month) is not None:
        return False
    from opendata.tasks import build_month_file

    build_month_file.enqueue(year, month)
    return True


@receiver(deal_finished, dispatch_uid="opendata.queue_last_month")
def on_deal_finished(sender: Any, deal: Any, **kwargs: Any) -> None:
    transaction.on_commit(queue_last_month)
