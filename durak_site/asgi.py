"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Sockets pass through AllowedHostsOriginValidator (foreign Origins are refused)
and channels' AuthMiddlewareStack (the user comes from the session cookie), which
``socket_auth_stack`` teaches the keys of SECRET_KEY_FALLBACKS.
"""

import faulthandler
import gc
import os
import signal

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from durak_site.routing import websocket_urlpatterns  # noqa: E402
from games.socket_guard import socket_auth_stack  # noqa: E402
from games.ticker import TickerMiddleware, start_with_server  # noqa: E402

# A process that does not stop can be asked where it is: ``kill -USR1 <pid>`` prints
# every thread's stack to its stderr (the launcher does so before it kills one).
faulthandler.register(signal.SIGUSR1, all_threads=True)

# The ticker (turn timers, bot moves, heartbeat) starts with the server, or failing
# that with the first request this process serves.
start_with_server()
application = TickerMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                socket_auth_stack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)

# What the server loaded to start lives as long as the process: frozen, the collector
# no longer walks it.  The young generation is collected after 50,000 allocations
# rather than 700, so a move's short-lived objects die young without a collection
# per handful of them.  Each collection also walks every object that survived into
# it, and an open socket keeps thousands alive: at 60 live tables, thresholds of
# 20,000 instead of 50,000 cost 1 ms of CPU a move more (docs/performance.md).
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 10)
