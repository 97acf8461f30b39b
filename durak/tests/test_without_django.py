"""The library's own tests run with no Django at all (``make test`` runs them so,
with ``DJANGO_SETTINGS_MODULE`` unset and pytest's Django plugin off)."""

from __future__ import annotations

import os
import sys


def test_this_run_has_no_django_settings_and_loaded_no_django() -> None:
    assert "DJANGO_SETTINGS_MODULE" not in os.environ
    assert not any(name == "django" or name.startswith("django.") for name in sys.modules)
