"""Static files with content-hashed names, compressed, in debug mode as in production.

Django's manifest storage gives plain names while DEBUG is on; this one always gives
the hashed names, so whitenoise can mark them immutable and a reload asks the server
for none of them.  ``make run`` collects the files before it starts.
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def url(self, name: Any, force: bool = False) -> str:
        return super().url(name, force=True)
