"""Every page of the site opens in Chromium with no console error: no style or script
the Content-Security-Policy refuses, no failed request, no script error.

The pages come from the URL configuration itself: a new page that this test does not
open, and does not name as something other than a page, fails it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from arena import services as arena_services
from arena.chat import post_arena_chat
from arena.models import Arena
from friends import services as friends
from games import services
from games.models import RuleVariant
from tests.analysis.helpers import analysed_match
from tests.puzzles.helpers import stored_puzzle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Routes that are not pages a person browses: form posts, JSON, redirects into a flow,
# files for the browser itself.  Each is exercised by the tests of its own feature.
NOT_PAGES = {
    "set_language",
    "healthz",
    "manifest",
    "service_worker",
    "accounts:logout",
    "accounts:password_reset_confirm",
    "accounts:password_change_done",
    "accounts:password_reset_done",
    "accounts:password_reset_complete",
    "table:create",
    "table:join",
    "table:leave",
    "table:start",
    "table:join_by_token",
    "matchmaking:play",
    "matchmaking:play_as_guest",
    "matchmaking:cancel",
    "matchmaking:bots_now",
    "matchmaking:new_opponent",
    "matchmaking:challenge",
    "friends:add",
    "friends:accept",
    "friends:remove",
    "friends:block",
    "friends:unblock",
    "friends:invite",
    "friends:answer",
    "history:record",
    "history:deal_ratings",
    "moderation:report",
    "analysis:hint",
    "analysis:hint_answer",
    "analysis:result_accuracy",
    "analysis:play_on",
    "puzzles:attempt",
    "daily:play",
    "arena:join",
    "arena:create",  # the arenas page's form posts here
    "arena:pause",
    "arena:resume",
    "arena:withdraw",
    "arena:berserk",  # the arena table's Berserk button posts here
    "arena:standings",  # the arena page's live part, fetched by the page itself
    "notifications:subscribe",
    "notifications:unsubscribe",
    "api:new_token",
    "api:revoke_token",
    "api:become_bot",
    "opendata:download",  # a month's .gz file, downloaded (tests/opendata)
    # The JSON API for programs (tests/api); its docs page is opened below.
    "api_v1:api-root",
    "api_v1:openapi-json",
    "api_v1:account",
    "api_v1:become_bot",
    "api_v1:user_profile",
    "api_v1:user_games",
    "api_v1:game_record",
    "api_v1:play_action",
    "api_v1:resign",
    "api_v1:new_table",
    "api_v1:game_stream",
    "api_v1:event_stream",
    "api_v1:accept_invite",
    "api_v1:decline_invite",
    "api_v1:new_challenge",
    "api_v1:new_seek",
    "api_v1:end_seek",
    "api_v1:leave_table",
    "api_v1:befriend",
    "api_v1:say_at_table",
    "api_v1:ask_rematch",
    "api_v1:decline_rematch",
    "api_v1:bots_board",
}


def named_routes() -> set[str]:
    """Every named route of the site outside the admin, as ``namespace:name``."""
    names: set[str] = set()

    def walk(resolver: URLResolver, namespace: str | None) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                if entry.app_name != "admin":
                    walk(entry, entry.namespace or namespace)
            elif isinstance(entry, URLPattern) and entry.name:
                names.add(f"{namespace}:{entry.name}" if namespace else entry.name)

    walk(get_resolver(), None)
    return names


@pytest.fixture(autouse=True)
def quick_analyses(settings, no_puzzle_search):
    from tests.analysis.conftest import IMMEDIATE

    settings.TASKS = IMMEDIATE
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2


def pages_of_a_player() -> tuple[object, dict[str, str]]:
    """A player with a reviewed game, an open table, a puzzle to solve, and a friend
    (admin too, for the admin's own pages), and the path of each page they see."""
    match, deal, _row = analysed_match(players=("anna", "boris"))
    anna = get_user_model().objects.get(username="anna")
    anna.is_staff = anna.is_superuser = True
    anna.save()
    table = services.create_match(anna, RuleVariant.objects.get(slug="classic"), 2, bots=("easy",))
    boris = get_user_model().objects.get(username="boris")
    friends.accept_friend(anna, friends.request_friend(boris, anna).pk)
    puzzle = stored_puzzle()
    arena = Arena.objects.create(
        name="Evening arena",
        variant=RuleVariant.objects.get(slug="classic"),
        starts_at=timezone.now(),
        status=Arena.Status.RUNNING,
    )
    arena_services.join(anna, arena)
    private_arena = Arena.objects.create(
        name="Private arena",
        variant=RuleVariant.objects.get(slug="classic"),
        starts_at=timezone.now(),
        status=Arena.Status.RUNNING,
        password="secret",
    )
    boris_line = post_arena_chat(arena.pk, boris, "Всем удачи!")
    number = deal.number
    pages = {
        "table:lobby": "/",
        "table:live": "/games/live/",
        "table:table": f"/games/{table.pk}/",
        "table:rules": "/rules/",
        "accounts:players": "/players/",
        "accounts:profile": "/u/boris/",
        "accounts:profile, one's own with friends": "/u/anna/",
        "accounts:password_change": "/accounts/password/",
        "accounts:email": "/accounts/email/",
        "history:games": "/u/anna/games/",
        "analysis:replay": f"/games/{match.pk}/replay/",
        "analysis:deal_analysis": f"/games/{match.pk}/analysis/{number}/",
        "analysis:learn": f"/games/{match.pk}/learn/{number}/",
        "puzzles:next": "/puzzles/",
        "puzzles:puzzle": f"/puzzles/{puzzle.pk}/",
        "daily:today": "/daily/",
        "daily:day": "/daily/2026-01-01/",
        "daily:leaderboard": "/leaderboard/",
        "arena:list": "/arena/",
        "arena:detail": f"/arena/{arena.pk}/",
        "arena:invite": f"/arena/{private_arena.pk}/invite/{private_arena.invite_token}/",
        "arena:report_line": f"/arena/{arena.pk}/chat/{boris_line.pk}/report/",
        "offline": "/offline/",
        "api_v1:openapi-view": "/api/docs",
        "opendata:index": "/open-data/",
        "admin:index": "/admin/",
        "admin:dashboard": "/admin/dashboard/",
    }
    return anna, pages


ANONYMOUS_PAGES = {
    "accounts:login": "/accounts/login/",
    "accounts:signup": "/accounts/signup/",
    "accounts:password_reset": "/accounts/password/reset/",
}


def console_errors_on(context, base_url: str, paths: dict[str, str]) -> dict[str, list[str]]:
    """Each page's console errors and uncaught script errors, after it settled."""
    found: dict[str, list[str]] = {}
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    for name, path in paths.items():
        errors.clear()
        response = page.goto(base_url + path)
        assert response is not None and response.ok, (name, path, response and response.status)
        page.wait_for_load_state("networkidle")
        if errors:
            found[name] = list(errors)
    page.close()
    return found


def test_every_page_opens_without_a_console_error(browser, live_server_url) -> None:
    anna, pages = pages_of_a_player()
    # Every page the site routes is opened here, or named above as not a page.
    unvisited = named_routes() - set(pages) - set(ANONYMOUS_PAGES) - NOT_PAGES
    assert unvisited == set(), f"pages this test does not open: {sorted(unvisited)}"

    client = Client()
    client.force_login(anna)
    phone_ru = browser.new_context(
        locale="ru-RU", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone_ru.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    phone_ru.set_default_timeout(15_000)
    assert console_errors_on(phone_ru, live_server_url, pages) == {}
    phone_ru.close()

    desktop_en = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    desktop_en.set_default_timeout(15_000)
    assert console_errors_on(desktop_en, live_server_url, ANONYMOUS_PAGES) == {}
    desktop_en.close()
