"""The Russian catalogue is complete: every string in the code and templates is translated.

The check regenerates the catalogue from a copy of the sources (Django's
``makemessages``, which needs GNU gettext), so a string added anywhere without its
Russian translation fails here, as does an empty or fuzzy entry, or a stale .mo.
"""

from __future__ import annotations

import gettext
import os
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
RU = ROOT / "locale" / "ru" / "LC_MESSAGES"
SKIP_DIRS = shutil.ignore_patterns(
    ".venv", ".git", "staticfiles", "node_modules", "__pycache__", ".*_cache", "*.mo"
)
DOMAINS = ("django", "djangojs")


def problems(po: polib.POFile) -> list[str]:
    found = []
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
        if "fuzzy" in entry.flags:
            found.append(f"fuzzy: {where}")
        elif not entry.translated():
            found.append(f"untranslated: {where}")
    return found


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> dict[str, polib.POFile]:
    """The catalogues as makemessages leaves them for today's sources."""
    copy = tmp_path_factory.mktemp("sources") / "site"
    shutil.copytree(ROOT, copy, ignore=SKIP_DIRS)
    cwd = Path.cwd()
    try:
        os.chdir(copy)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(settings, "LOCALE_PATHS", [str(copy / "locale")])
            for domain in DOMAINS:
                call_command(
                    "makemessages",
                    locale=["ru"],
                    domain=domain,
                    ignore_patterns=["staticfiles/*"],
                    no_obsolete=True,
                    verbosity=0,
                )
    finally:
        os.chdir(cwd)
    catalogues = {}
    for domain in DOMAINS:
        path = copy / "locale" / "ru" / "LC_MESSAGES" / f"{domain}.po"
        catalogues[domain] = polib.pofile(str(path)) if path.exists() else polib.POFile()
    return catalogues


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_string_in_the_sources_has_a_russian_translation(regenerated, domain):
    assert problems(regenerated[domain]) == []


def test_the_django_catalogue_is_not_empty(regenerated):
    assert len(regenerated["django"]) > 500


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_catalogue_is_complete_and_compiled(domain):
    po_path = RU / f"{domain}.po"
    if not po_path.exists():
        assert domain == "djangojs"  # no JavaScript strings to translate yet
        return
    po = polib.pofile(str(po_path))
    assert problems(po) == []
    with open(RU / f"{domain}.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = []
    for entry in po:
        if entry.obsolete or entry.msgid_plural:
            continue
        if entry.msgctxt:
            got = compiled.pgettext(entry.msgctxt, entry.msgid)
        else:
            got = compiled.gettext(entry.msgid)
        if got != entry.msgstr:
            stale.append(entry.msgid)
    assert stale == [], "run `make messages`: the .mo is older than the .po"


def test_the_checker_finds_a_missing_translation():
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Take", msgstr="Взять"))
    po.append(polib.POEntry(msgid="Done", msgstr=""))
    po.append(polib.POEntry(msgid="Pass", msgstr="Пас", flags=["fuzzy"]))
    assert problems(po) == ["untranslated: 'Done'", "fuzzy: 'Pass'"]
