import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

User = get_user_model()
STRONG = "kozyrnaya-shestyorka-42"


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    yield
    cache.clear()


def sign_up(client, username="ivan", password=STRONG, confirm=None, email=""):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": username,
            "email": email,
            "password1": password,
            "password2": confirm if confirm is not None else password,
        },
    )


@pytest.mark.django_db
def test_sign_up_creates_user_and_logs_in(client):
    response = sign_up(client, email="ivan@example.com")
    assert response.status_code == 302
    user = User.objects.get(username="ivan")
    assert user.email == "ivan@example.com"
    assert int(client.session["_auth_user_id"]) == user.pk
    page = client.get(reverse("table:lobby"))
    assert 'data-testid="user-menu">ivan<' in page.content.decode()


@pytest.mark.django_db
def test_sign_up_email_is_optional(client):
    assert sign_up(client, username="olga").status_code == 302
    assert User.objects.get(username="olga").email == ""


@pytest.mark.django_db
def test_sign_up_refuses_duplicate_name_in_other_case(client):
    User.objects.create_user("Ivan", password=STRONG)
    response = sign_up(client, username="iVAN")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_database_enforces_case_insensitive_unique_usernames():
    from django.db import IntegrityError, transaction

    User.objects.create_user("Masha", password=STRONG)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("masha", password=STRONG)


@pytest.mark.django_db
def test_sign_up_refuses_weak_password_next_to_field(client):
    response = sign_up(client, password="123")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="id_password2_errors"' in html
    assert "too short" in html
    assert not User.objects.exists()


@pytest.mark.django_db
def test_sign_up_refuses_mismatched_confirmation(client):
    response = sign_up(client, confirm=STRONG + "x")
    assert response.status_code == 200
    assert "The two password fields didn" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_log_in_any_case_and_log_out(client):
    User.objects.create_user("Pyotr", password=STRONG)
    response = client.post(reverse("accounts:login"), {"username": "pyotr", "password": STRONG})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_log_in_wrong_password_shows_error(client):
    User.objects.create_user("pyotr", password=STRONG)
    response = client.post(reverse("accounts:login"), {"username": "pyotr", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_password_change(client):
    user = User.objects.create_user("anya", password=STRONG)
    client.force_login(user)
    new_password = "novyi-parol-dlya-anyi-77"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": STRONG, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new_password)
    # The session survives the change (Django rotates the session hash).
    assert client.get(reverse("accounts:password_change")).status_code == 200


@pytest.mark.django_db
def test_password_change_requires_login(client):
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


@pytest.mark.django_db
def test_login_rate_limit_per_username(client):
    User.objects.create_user("boris", password=STRONG)
    for _ in range(5):
        response = client.post(reverse("accounts:login"), {"username": "boris", "password": "bad"})
        assert "Too many failed" not in response.content.decode()
    # Sixth try from another address: blocked by the username counter, even
    # with the right password.
    response = client.post(
        reverse("accounts:login"),
        {"username": "BORIS", "password": STRONG},
        REMOTE_ADDR="10.9.9.9",
    )
    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_rate_limit_per_ip(client):
    User.objects.create_user("gleb", password=STRONG)
    for index in range(5):
        client.post(reverse("accounts:login"), {"username": f"nobody{index}", "password": "x"})
    response = client.post(reverse("accounts:login"), {"username": "gleb", "password": STRONG})
    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_rate_limit_window_expires(client, settings):
    settings.LOGIN_RATE_LIMIT_WINDOW = 1
    User.objects.create_user("zoya", password=STRONG)
    for _ in range(5):
        client.post(reverse("accounts:login"), {"username": "zoya", "password": "bad"})
    cache.clear()  # the window passing, without sleeping
    response = client.post(reverse("accounts:login"), {"username": "zoya", "password": STRONG})
    assert response.status_code == 302


@pytest.mark.django_db
def test_profile_page(client):
    User.objects.create_user("Vera", password=STRONG)
    response = client.get(reverse("accounts:profile", args=["vera"]))
    assert response.status_code == 200
    assert "Vera" in response.content.decode()
    assert client.get(reverse("accounts:profile", args=["nobody"])).status_code == 404


@pytest.mark.django_db
def test_language_switch_to_russian(client):
    response = client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert '<html lang="ru">' in page
    assert "Войти" in page  # "Log in"
    assert "Лобби" in page  # "Lobby"


@pytest.mark.django_db
def test_russian_form_errors(client):
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    User.objects.create_user("Ivan", password=STRONG)
    html = sign_up(client, username="IVAN").content.decode()
    assert "Пользователь с таким именем уже существует." in html
