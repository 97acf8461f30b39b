from tests.matchmaking.conftest import (  # noqa: F401  (the same fixtures apply here)
    drop_stray_connections,
    fresh_channel_layer,
    fresh_limits,
)
