"""An HTTP request served over ASGI closes its database connections when it ends.

Django's ASGI handler runs a request's synchronous code (its middleware, its view, a
stream's reads) on a thread made for that request alone, so a connection the request
opened can never serve another.  ``CONN_MAX_AGE`` keeps connections open for the
socket consumers' one database thread, where they are used again (settings.py says
why); a request's connection was kept open too, with its file handles, until the
garbage collector found it: some hundreds at once under the API's load
(docs/performance.md).  The test client's handlers are not ASGI handlers, so a
test's connection, which holds its transaction, is left alone.
"""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished
from django.db import connections
from django.dispatch import receiver


@receiver(request_finished, dispatch_uid="durak_site.close_request_connections")
def close_request_connections(sender: Any, **kwargs: Any) -> None:
    """Runs on the request's own thread, as Django sends ``request_finished`` there."""
    if isinstance(sender, type) and issubclass(sender, ASGIHandler):
        connections.close_all()
