"""Hostile paths and values get a JSON refusal, never a server error."""

from __future__ import annotations

import pytest

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db

HUGE = 2**63


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        (f"/api/games/{HUGE}/record", 422, "malformed"),
        (f"/api/games/{'9' * 40}/record", 422, "malformed"),
        (f"/api/games/{HUGE}/stream", 422, "malformed"),
        ("/api/games/-1/record", 422, "malformed"),
        ("/api/games/0/stream", 422, "malformed"),
        ("/api/users/" + "x" * 300, 404, "not_found"),
        (f"/api/users/ann/games?page={2**70}", 400, "malformed"),
        ("/api/users/ann/games?page=0", 400, "malformed"),
        ("/api/users/ann/games?page=two", 422, "malformed"),
    ],
)
def test_hostile_reads_are_refused_with_json(path, status, code):
    response = api_client(token_of(make_user("ann"))).get(path)
    assert (response.status_code, response.json()["code"]) == (status, code)


@pytest.mark.parametrize("what", ["actions", "resign"])
def test_hostile_table_numbers_in_moves_are_refused(what):
    response = api_client(token_of(make_user("ann"))).post(
        f"/api/games/{HUGE}/{what}", {"action": "0 take", "version": 1},
        content_type="application/json",
    )  # fmt: skip
    assert (response.status_code, response.json()["code"]) == (422, "malformed")


@pytest.mark.parametrize("version", [10**30, -1, "7"])
def test_odd_versions_are_refused_by_the_service(version):
    response = api_client(token_of(make_user("ann"))).post(
        "/api/games/1/actions", {"action": "0 take", "version": version},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400 and response.json()["code"] == "not_found"
