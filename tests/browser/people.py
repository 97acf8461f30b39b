"""A signed-in person's browser page, shared by the browser tests."""

from __future__ import annotations

from django.test import Client
from playwright.sync_api import Browser, Page

LOCALES = {"en": "en-US", "ru": "ru-RU"}


def signed_in_page(browser: Browser, url: str, user, language: str, device: dict) -> Page:
    """A new page of ``user``'s own browser context, in ``language``, on ``device``."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale=LOCALES[language], **device)
    context.set_default_timeout(20_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}]
    )
    return context.new_page()
