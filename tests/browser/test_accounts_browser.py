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
