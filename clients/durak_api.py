"""A small client of the Durak Online HTTP API, standard library only.

    from durak_api import DurakClient
    client = DurakClient("http://127.0.0.1:8000", "durak_…")
    table = client.create_table(level="hard")
    for state in client.stream(table["match_id"]):
        ...
    for event in client.events():  # {"type": "game_started", "match_id": 7, "seat": 0}
        ...

Every refusal raises ``ApiError`` with the API's ``status``, ``code`` and ``message``.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

# A move the site was too busy for (503 ``busy``) is sent again this many times, after
# the wait its ``Retry-After`` asks.  At one version a move is played at most once, so
# sending it again is safe: one that did go through is then refused as ``stale``.
BUSY_RETRIES = 3


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retry_after: float = 1.0) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after  # seconds, when the site asks to be asked again


class DurakClient:
    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # ---------------------------------------------------------------- plumbing

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        try:
            with urllib.request.urlopen(
                self._request(method, path, body), timeout=self.timeout
            ) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise _api_error(error) from None

    # ---------------------------------------------------------------- reading

    def account(self) -> dict[str, Any]:
        return self._call("GET", "/api/account")

    def become_bot(self) -> dict[str, Any]:
        """Make the token's account a bot account, once and for good (``bot`` scope);
        refused for an account that has played."""
        return self._call("POST", "/api/account/bot")

    def user(self, username: str) -> dict[str, Any]:
        return self._call("GET", f"/api/users/{urllib.request.quote(username)}")

    def games(self, username: str, page: int = 1) -> dict[str, Any]:
        return self._call("GET", f"/api/users/{urllib.request.quote(username)}/games?page={page}")

    def record(self, match_id: int) -> dict[str, Any]:
        return self._call("GET", f"/api/games/{int(match_id)}/record")

    # ---------------------------------------------------------------- playing

    def create_table(
        self, level: str = "hard", players: int = 2, variant: str = "classic", **extra: Any
    ) -> dict[str, Any]:
        """A table against the site's bots, you in seat 0; it starts at once."""
        body = {"level": level, "players": players, "variant": variant, **extra}
        return self._call("POST", "/api/tables", body)

    def play(self, match_id: int, action: str, version: int) -> dict[str, Any]:
        """Play ``action`` (engine notation, ``"0 attack 6H"``) at table ``version``."""
        path, body = f"/api/games/{int(match_id)}/actions", {"action": action, "version": version}
        retries = 0
        while True:
            try:
                return self._call("POST", path, body)
            except ApiError as error:
                if error.code != "busy" or retries == BUSY_RETRIES:
                    raise
                retries += 1
                time.sleep(error.retry_after)

    def resign(self, match_id: int) -> dict[str, Any]:
        return self._call("POST", f"/api/games/{int(match_id)}/resign")

    def say(
        self, match_id: int, text: str | None = None, phrase: str | None = None
    ) -> dict[str, Any]:
        """Say ``text`` (or a quick ``phrase``: ``"good_game"``) to the players of your
        game in progress; their streams get it as a ``chat`` line."""
        body = {"text": text} if phrase is None else {"phrase": phrase}
        return self._call("POST", f"/api/games/{int(match_id)}/chat", body)

    def rematch(self, match_id: int) -> dict[str, Any]:
        """Offer a rematch once the game is over, or accept the one offered (a
        ``rematch_offered`` event): ``status`` is ``offered`` or ``started``."""
        return self._call("POST", f"/api/games/{int(match_id)}/rematch")

    def decline_rematch(self, match_id: int) -> dict[str, Any]:
        return self._call("POST", f"/api/games/{int(match_id)}/rematch/decline")

    def accept_invite(self, invite_id: int) -> dict[str, Any]:
        """Accept an invite (a challenge) from the event stream: you take a seat at its
        table (``match_id``), which starts once every seat is taken."""
        return self._call("POST", f"/api/invites/{int(invite_id)}/accept")

    def decline_invite(self, invite_id: int) -> dict[str, Any]:
        return self._call("POST", f"/api/invites/{int(invite_id)}/decline")

    def befriend(self, username: str) -> dict[str, Any]:
        """Ask a player to be friends, or accept their request (a ``friend_request``
        of the event stream); ``friends`` in the answer says which."""
        return self._call("POST", f"/api/friends/{urllib.request.quote(username)}")

    def challenge(self, username: str, **rules: Any) -> dict[str, Any]:
        """Challenge a friend (a person or a bot account) to a private table for two;
        ``rules``: ``mode``, ``deck_size``, ``speed``, ``is_rated`` (each optional)."""
        return self._call("POST", "/api/challenges", {"username": username, **rules})

    def leave(self, match_id: int) -> dict[str, Any]:
        """Leave a table before it starts; its creator leaving closes it (and so
        withdraws a challenge)."""
        return self._call("POST", f"/api/games/{int(match_id)}/leave")

    def seek(self, **wishes: Any) -> dict[str, Any]:
        """Look for a game as "Play now" does; ``wishes``: ``mode``, ``players``,
        ``deck_size``, ``speed``, ``is_rated``, ``allow_bots``, ``min_reliability``."""
        return self._call("POST", "/api/seeks", wishes)

    def cancel_seek(self) -> dict[str, Any]:
        return self._call("DELETE", "/api/seeks")

    def stream(self, match_id: int, *, rematch: bool = False) -> Iterator[dict[str, Any]]:
        """Your seat's states, one dict a change, and the table's ``chat`` lines (see
        ``"type"``), until the game is over; with ``rematch`` it then waits a while for
        a rematch (``rematch`` lines) and follows the next game."""
        wait = "?rematch=true" if rematch else ""
        return self._lines(f"/api/games/{int(match_id)}/stream{wait}")

    def events(self) -> Iterator[dict[str, Any]]:
        """Your account's events, one dict each, for as long as you read them: first a
        ``game_started`` for each game in progress and an ``invite`` for each waiting
        invite, then ``game_started``, ``game_finished`` and ``invite`` as they come."""
        return self._lines("/api/stream/event")

    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        """The JSON lines of a long-lived response; a refusal raises at the first read."""
        request = self._request("GET", path)
        try:
            # No read timeout beyond the keep-alive lines' period, with room to spare.
            response = urllib.request.urlopen(request, timeout=max(self.timeout, 60))
        except urllib.error.HTTPError as error:
            raise _api_error(error) from None
        with response:
            for raw in response:
                line = raw.strip()
                if line:  # blank lines only keep the connection alive
                    yield json.loads(line)


def _api_error(error: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(error.read() or b"{}")
    except ValueError:
        body = {}
    try:
        retry_after = float(error.headers.get("Retry-After") or 1.0)
    except ValueError:  # an HTTP date: wait the usual second
        retry_after = 1.0
    return ApiError(
        error.code, body.get("code", "error"), body.get("message", str(error)), retry_after
    )
