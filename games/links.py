"""The addresses of a stored game's pages, for the apps below the ones that show them.

The lobby and the live table are the table app's pages and the replay the analysis
app's, all above most apps that link to them (a friend's Watch button, a history
list's Replay, the Play now panel's Go to the table). Those apps ask here by what
the page is; the site's settings (``GAME_PAGE_URLS``) say which route serves it.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def lobby_url() -> str:
    return reverse(settings.GAME_PAGE_URLS["lobby"])


def table_url(match_id: int) -> str:
    return reverse(settings.GAME_PAGE_URLS["table"], args=[match_id])


def replay_url(match_id: int) -> str:
    return reverse(settings.GAME_PAGE_URLS["replay"], args=[match_id])
