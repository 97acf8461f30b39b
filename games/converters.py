"""URL converters shared by the apps' HTTP and socket routes."""

from __future__ import annotations

from django.urls import register_converter

# Primary keys are 64-bit signed integers on every database the site runs on.
LARGEST_ID = 2**63 - 1


class RowIdConverter:
    """A primary key in a URL: ``/games/<id:match_id>/``.

    A number no row can have (zero, or past 64 bits) matches no route, so it gets
    a plain 404 instead of reaching the database, where SQLite would overflow.
    """

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= LARGEST_ID:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    register_converter(RowIdConverter, "id")
