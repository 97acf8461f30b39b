import pytest
from django.core.cache import cache

from history import replay


@pytest.fixture(autouse=True)
def _fresh_replay_cache():
    # Deal ids repeat across tests (each rolls back), so cached timelines must not.
    cache.clear()
    replay._memo.clear()
    yield
    cache.clear()
    replay._memo.clear()
