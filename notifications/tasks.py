"""Sending pushes: on the task worker, never in a web process (a push service may take
seconds to answer)."""

from __future__ import annotations

import json
import logging

from django.utils import timezone
from django_tasks import task
from pywebpush import WebPushException, webpush

from notifications import conf
from notifications.models import PushSubscription
from notifications.texts import notice

logger = logging.getLogger(__name__)

# Above the analyses and puzzle searches (priority 0): a turn lasts seconds.
PUSH_PRIORITY = 20
# A push service that does not answer in this long is not waited for.
TIMEOUT_SECONDS = 10
# The push service's answer that the browser's subscription is gone for good.
GONE = (404, 410)


@task(priority=PUSH_PRIORITY)
def send_push(
    user_id: int,
    kind: str,
    match_id: int | None = None,
    from_user_id: int | None = None,
    arena_id: int | None = None,
) -> int:
    """Send the notice ``kind`` to each browser of ``user_id`` that asked for pushes, in
    its language; returns how many push services took it.  A subscription the push
    service calls gone is deleted."""
    if not conf.enabled():
        return 0
    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=user_id).select_related("user"):
        language = subscription.user.language or subscription.language
        message = notice(
            kind, language, match_id=match_id, from_user_id=from_user_id, arena_id=arena_id
        )
        try:
            webpush(
                subscription.info(),
                data=json.dumps(message.payload(), ensure_ascii=False),
                vapid_private_key=conf.private_key(),
                vapid_claims={"sub": conf.contact()},
                ttl=message.ttl,
                timeout=TIMEOUT_SECONDS,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                subscription.delete()
            else:
                logger.warning("push to user %s failed: %s", user_id, status or error)
            continue
        except Exception:  # the service unreachable: this push is lost, the next may go
            logger.warning("push to user %s could not be sent", user_id, exc_info=True)
            continue
        sent += 1
        PushSubscription.objects.filter(pk=subscription.pk).update(last_used=timezone.now())
    return sent
