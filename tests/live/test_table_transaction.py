"""The service layer's write transaction: on SQLite this process's writers take turns
on a lock of their own, given up at the commit, before the commit's pushes run, and
given up too when the transaction fails."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from games.models import RuleVariant
from games.services.common import table_transaction

pytestmark = pytest.mark.django_db(transaction=True)


def rename_variant(slug: str, name: str) -> None:
    with table_transaction():
        RuleVariant.objects.filter(slug=slug).update(name=name)


def in_thread(target, *args) -> threading.Thread:
    def run() -> None:
        try:
            target(*args)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_commit_hook_may_write_through_another_thread():
    """A push's hook that waits for another writer does not wait on its own turn."""
    joined: list[bool] = []

    def hook() -> None:
        writer = in_thread(rename_variant, "classic", "from the hook")
        writer.join(timeout=10)
        joined.append(not writer.is_alive())

    with table_transaction():
        RuleVariant.objects.filter(slug="classic").update(name="first")
        transaction.on_commit(hook)
    assert joined == [True]
    assert RuleVariant.objects.get(slug="classic").name == "from the hook"


def test_a_failed_transaction_gives_up_its_turn_and_writes_nothing():
    before = RuleVariant.objects.get(slug="classic").name
    with pytest.raises(RuntimeError), table_transaction():
        RuleVariant.objects.filter(slug="classic").update(name="never")
        raise RuntimeError("refused")
    assert RuleVariant.objects.get(slug="classic").name == before
    writer = in_thread(rename_variant, "classic", "after the failure")
    writer.join(timeout=10)
    assert not writer.is_alive()
    assert RuleVariant.objects.get(slug="classic").name == "after the failure"


def test_writers_of_many_threads_all_commit():
    names = [f"writer {n}" for n in range(8)]
    writers = [in_thread(rename_variant, "classic", name) for name in names]
    for writer in writers:
        writer.join(timeout=30)
    assert not any(writer.is_alive() for writer in writers)
    assert RuleVariant.objects.get(slug="classic").name in names
