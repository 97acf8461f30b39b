import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.browser

PASSWORD = "valet-kozyrnoi-masti-9"


def test_sign_up_log_out_and_log_in_again(page, live_server_url):
    page.goto(live_server_url + "/accounts/signup/")
    page.fill("#id_username", "Svetlana")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form.card button[type=submit], main form button[type=submit]")
    page.wait_for_url(live_server_url + "/")
    assert page.locator("[data-testid=user-menu]").inner_text() == "Svetlana"
    assert "Welcome, Svetlana!" in page.locator(".messages").inner_text()

    page.click("[data-testid=user-menu]")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(live_server_url + "/")
    assert page.locator("[data-testid=user-menu]").count() == 0
    assert page.get_by_role("link", name="Log in").is_visible()

    page.get_by_role("link", name="Log in").click()
    page.fill("#id_username", "svetlana")
    page.fill("#id_password", "wrong-password")
    page.click("main form button[type=submit]")
    assert (
        "Please enter a correct username and password" in page.locator(".form-errors").inner_text()
    )

    page.fill("#id_username", "svetlana")
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(live_server_url + "/")
    assert page.locator("[data-testid=user-menu]").inner_text() == "Svetlana"
    assert get_user_model().objects.filter(username="Svetlana").count() == 1


def test_a_profile_and_its_games_fit_a_phone_in_russian(browser, live_server_url):
    from history.seeding import get_user, play_match

    user = get_user("Svetlana")
    user.set_password(PASSWORD)
    user.save()
    play_match(["Svetlana", "boris"], seed=3)
    context = browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server_url + "/accounts/login/")
    page.fill("#id_username", "Svetlana")
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(live_server_url + "/")
    page.goto(live_server_url + "/u/Svetlana/")
    assert page.locator("[data-testid=stats-variant]").is_visible()
    assert "Задачи" in page.locator("[data-testid=profile-puzzles]").inner_text()
    # Every statistics table fits the phone whole: nothing to scroll sideways.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    tables = page.locator("[data-testid=profile-history] table").evaluate_all(
        "(tables) => tables.map((t) => [t.scrollWidth, t.clientWidth])"
    )
    assert len(tables) == 3 and all(scroll <= width for scroll, width in tables), tables
    # The list of games: each game's replay link is on the screen, no sideways scroll.
    page.goto(live_server_url + "/u/Svetlana/games/")
    replay = page.get_by_role("link", name="Повтор").first
    box = replay.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    context.close()
