"""The site installs as an app: its manifest, its service worker, its offline page."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "name", "short_name"),
    [("en", "Durak Online", "Durak"), ("ru", "Дурак Онлайн", "Дурак")],
)
def test_the_manifest_names_the_app_in_the_readers_language(language, name, short_name):
    response = Client(headers={"accept-language": language}).get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == name and manifest["short_name"] == short_name
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    # Every icon it names is a file the site serves.
    for icon in manifest["icons"]:
        path = icon["src"].split("/static/", 1)[1]
        assert finders.find(path), icon


def test_every_page_links_the_manifest_and_registers_the_worker():
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "js/site.js" in page


def test_the_worker_is_served_from_the_root_fresh_every_time():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    assert '"/offline/"' in script and "css/site.css" in script


def test_the_offline_page_says_it_in_both_languages_and_needs_no_account():
    response = Client().get("/offline/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Нет связи с сервером" in text and "No connection to the server" in text
