"""A password built on the username is refused at sign-up."""

import pytest

from accounts.forms import SignUpForm

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("password", ["alice12345", "12345alice", "Alice2024!"])
def test_a_password_like_the_username_is_refused(password):
    form = SignUpForm(data={"username": "alice", "password1": password, "password2": password})
    assert not form.is_valid()
    assert "password2" in form.errors, form.errors


def test_an_unrelated_password_is_accepted():
    form = SignUpForm(
        data={"username": "alice", "password1": "kozyrnaya-42!", "password2": "kozyrnaya-42!"}
    )
    assert form.is_valid(), form.errors
