"""The one bounded cache a process keeps tables, renders and replays in."""

from __future__ import annotations

from games.lru import LruCache


def test_past_its_size_it_forgets_what_was_used_longest_ago():
    cache: LruCache[str, int] = LruCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c")) == (1, 3)
    assert len(cache) == 2


def test_a_value_put_again_is_replaced_and_pop_and_clear_forget():
    cache: LruCache[str, int] = LruCache(3)
    cache.put("a", 1)
    cache.put("a", 5)
    assert cache.get("a") == 5 and len(cache) == 1
    cache.pop("a")
    cache.pop("missing")
    assert cache.get("a") is None
    cache.put("b", 2)
    cache.clear()
    assert len(cache) == 0
