"""Every label the admin shows for the project's models reads in Russian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.apps import AppConfig, apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from games.models import RuleVariant
from tests.admin.conftest import make_match

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def project_apps() -> list[AppConfig]:
    """The installed apps whose code is this repository's."""
    root = Path(settings.BASE_DIR)
    return [c for c in apps.get_app_configs() if Path(c.path).parent == root]


def labels() -> list[tuple[str, str]]:
    """(where, label) for each model's names and each of its fields."""
    out = []
    for config in project_apps():
        for model in config.get_models():
            name = model._meta.label
            out.append((name, model._meta.verbose_name))
            out.append((name, model._meta.verbose_name_plural))
            for field in model._meta.get_fields():
                if field.concrete and not field.auto_created:
                    out.append((f"{name}.{field.name}", field.verbose_name))
    return out


def test_every_model_and_field_has_a_russian_label():
    assert {c.label for c in project_apps()} >= {"accounts", "games", "history", "puzzles"}
    with translation.override("ru"):
        english = [(where, str(label)) for where, label in labels()]
        english = [(where, label) for where, label in english if not CYRILLIC.search(label)]
    assert english == [], "labels the Russian admin shows in English"


@pytest.mark.django_db
def test_the_russian_admin_names_a_matchs_fields_and_seats_in_russian(admin_client):
    anna = get_user_model().objects.create_user("anna")
    match = make_match(RuleVariant.objects.get(slug="classic"), [anna], bots=("easy",))
    page = admin_client.get(
        f"/admin/games/match/{match.pk}/change/", HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    # The rules in words too, and the variant by its Russian name.
    for label in (
        "Создатель",
        "Секунд на ход",
        "Места",
        "Уровень бота",
        "подкидной · 36",
        "Подкидной",
    ):
        assert label in page, label
    for english in ("Creator", "Turn seconds", "Seats", "Bot level"):
        assert english not in page, english


@pytest.mark.django_db
def test_every_section_of_the_russian_admin_is_titled_in_russian(admin_client):
    page = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ru")
    titles = [app["name"] for app in page.context["app_list"]]
    titles += [model["name"] for app in page.context["app_list"] for model in app["models"]]
    assert len(titles) > 20
    assert [title for title in titles if not CYRILLIC.search(str(title))] == []
