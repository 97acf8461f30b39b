"""The monthly files of open game data: every finished public game of a month, one
export line (``history.records``, ``durak-export/1``) per game, gzipped.

A month's file is ``durak-games-YYYY-MM.jsonl.gz`` in ``settings.OPEN_DATA_DIR``,
beside ``durak-games-YYYY-MM.json``, what the listing shows of it (games, size,
SHA-256), written after the file.  Both are written to a temporary name and renamed
into place, so a reader sees the old file or the new one, never half of one.

The same games give the same bytes: the lines are in the order the games finished,
their keys sorted, and the gzip header holds no time and no name.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games.models import Deal, Seat
from history.records import export_lines, finished_deals

PREFIX = "durak-games-"
# Games read from the database at once: a month may hold far more than fit in memory.
BATCH = 500
CHUNK = 1 << 16


@dataclass(frozen=True)
class MonthFile:
    month: str  # "2026-10"
    games: int
    size: int
    sha256: str
    built_at: str

    @property
    def first_day(self) -> date:
        year, month = self.month.split("-")
        return date(int(year), int(month), 1)

    @property
    def filename(self) -> str:
        return f"{PREFIX}{self.month}.jsonl.gz"


def data_dir() -> Path:
    return Path(settings.OPEN_DATA_DIR)


def month_key(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


def parse_month(text: str) -> tuple[int, int]:
    """``"2026-10"`` as (2026, 10); a ValueError for anything else."""
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts) or len(parts[0]) != 4:
        raise ValueError(f"not a month (YYYY-MM): {text!r}")
    year, month = int(parts[0]), int(parts[1])
    if not 1 <= month <= 12 or year < 1:
        raise ValueError(f"not a month (YYYY-MM): {text!r}")
    return year, month


def month_bounds(year: int, month: int) -> tuple[datetime, datetime]:
    """The month in UTC, start included, end excluded: every mirror splits it alike."""
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def last_month(now: datetime | None = None) -> tuple[int, int]:
    now = (now or timezone.now()).astimezone(UTC)
    return (now.year, now.month - 1) if now.month > 1 else (now.year - 1, 12)


def has_ended(year: int, month: int, now: datetime | None = None) -> bool:
    return month_bounds(year, month)[1] <= (now or timezone.now())


def published_deals(year: int, month: int) -> QuerySet[Deal]:
    """The month's finished games anyone may replay, less those of suspended players.

    A private table's games are its players' only; a player suspended (for a time or
    for good) when the file is built takes their games out of it; an aborted game is
    no game.  Guests' games stay: the site shows them to everyone, under a generated
    name that tells nothing of anyone.
    """
    start, end = month_bounds(year, month)
    now = timezone.now()
    suspended_seat = Seat.objects.filter(match=OuterRef("match")).filter(
        Q(user__suspended_forever=True) | Q(user__suspended_until__gt=now)
    )
    return (
        finished_deals()
        .filter(finished_at__gte=start, finished_at__lt=end, match__is_private=False)
        .exclude(end_reason=Deal.EndReason.ABORTED)
        .exclude(Exists(suspended_seat))
    )


def _batches(deals: QuerySet[Deal]) -> Iterator[list[Deal]]:
    batch: list[Deal] = []
    for deal in deals.iterator(chunk_size=BATCH):
        batch.append(deal)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _replace(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` through a temporary file in its folder, then rename it in place."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def build_month(year: int, month: int) -> MonthFile:
    """(Re)build the month's file and its description; returns the description."""
    key = month_key(year, month)
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    games = 0

    def write_data(out: BinaryIO) -> None:
        nonlocal games
        # No name and a fixed time in the gzip header: the same games, the same bytes.
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as packed:
            for batch in _batches(published_deals(year, month)):
                for line in export_lines(batch):
                    packed.write(
                        (json.dumps(line, separators=(",", ":"), sort_keys=True) + "\n").encode()
                    )
                    games += 1

    data_path = folder / f"{PREFIX}{key}.jsonl.gz"
    _replace(data_path, write_data)
    described = MonthFile(
        month=key,
        games=games,
        size=data_path.stat().st_size,
        sha256=file_sha256(data_path),
        built_at=timezone.now().astimezone(UTC).isoformat(timespec="seconds"),
    )
    text = json.dumps(asdict(described), sort_keys=True).encode()
    _replace(folder / f"{PREFIX}{key}.json", lambda out: out.write(text))
    return described


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        while chunk := data.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def month_file(year: int, month: int) -> MonthFile | None:
    """The month's built file, or None if there is none (or it is half-written)."""
    key = month_key(year, month)
    described_path = data_dir() / f"{PREFIX}{key}.json"
    if not (data_dir() / f"{PREFIX}{key}.jsonl.gz").is_file() or not described_path.is_file():
        return None
    try:
        fields = json.loads(described_path.read_text(encoding="utf-8"))
        return MonthFile(**fields)
    except (ValueError, TypeError):
        return None


def data_path(described: MonthFile) -> Path:
    return data_dir() / described.filename


def month_files() -> list[MonthFile]:
    """Every built month, newest first."""
    folder = data_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob(f"{PREFIX}*.json"):
        try:
            year, month = parse_month(path.name[len(PREFIX) : -len(".json")])
        except ValueError:
            continue
        described = month_file(year, month)
        if described is not None:
            found.append(described)
    return sorted(found, key=lambda f: f.month, reverse=True)
