"""What a suspended or muted player is told."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _


def _when(moment) -> str:
    # The date, then a 24-hour time: the sentence's full stop never follows an
    # abbreviation's own ("p.m..", "г..").
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'DATE_FORMAT')} {formats.time_format(local, 'H:i')}"


def suspension_notice(user) -> str:
    """Why and until when ``user`` is suspended, in words for them."""
    reason = user.suspension_reason or _("no reason was given")
    if user.suspended_forever:
        return _("Your account is suspended for good. Reason: %(reason)s") % {"reason": reason}
    return _("Your account is suspended until %(until)s. Reason: %(reason)s") % {
        "until": _when(user.suspended_until),
        "reason": reason,
    }


def mute_notice(user) -> str:
    return _("You are muted in chat until %(until)s.") % {"until": _when(user.muted_until)}
