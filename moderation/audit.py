"""Writing the audit log: every moderator action goes through ``record``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from moderation.models import AuditLogEntry


def _entry(
    actor: Any, action: str, target: models.Model | None, reason: str, details: dict | None
) -> AuditLogEntry:
    entry = AuditLogEntry(
        actor=actor if getattr(actor, "pk", None) else None,
        actor_name=getattr(actor, "get_username", lambda: "")(),
        action=action,
        reason=reason or "",
        details=details or {},
    )
    if target is not None:
        entry.target_type = ContentType.objects.get_for_model(target, for_concrete_model=False)
        entry.target_id = str(target.pk)
        entry.target_repr = str(target)[:200]
    return entry


def record(
    actor: Any,
    action: str,
    target: models.Model | None = None,
    reason: str = "",
    details: dict | None = None,
) -> AuditLogEntry:
    """Write one audit log entry for ``actor`` doing ``action`` to ``target``."""
    entry = _entry(actor, action, target, reason, details)
    entry.save()
    return entry


def record_many(
    actor: Any,
    action: str,
    targets: Iterable[models.Model],
    reason: str = "",
    details: dict | None = None,
) -> list[AuditLogEntry]:
    """One entry per target, in one insert: bulk actions touch many rows at once."""
    return AuditLogEntry.objects.bulk_create(
        [_entry(actor, action, target, reason, details) for target in targets]
    )
