"""``{% lobby_url %}``, ``{{ match_id|table_url }}``, ``{{ match_id|replay_url }}``:
the game pages' addresses for the templates of apps below the pages (``games.links``)."""

from __future__ import annotations

from django import template

from games import links

register = template.Library()

register.simple_tag(links.lobby_url, name="lobby_url")
register.filter("table_url", links.table_url)
register.filter("replay_url", links.replay_url)
