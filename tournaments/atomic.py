"""Files written whole or not at all.

A file the project serves later (a rendered export) is written under a temporary name in the same
folder, flushed and synced to the disk, and only then renamed to its final name with
:func:`os.replace` (atomic on one file system): a full disk, a killed process or a power cut leaves
either no file under the final name or the whole one, never half a PDF. The temporary name starts
with ``.`` and ends with :data:`TEMPORARY_SUFFIX`, so it never looks like a final name.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

TEMPORARY_SUFFIX = ".partial"


def write_atomically(path: str | os.PathLike, content: bytes, mode: int | None = None) -> None:
    """Write ``content`` to ``path`` (its folder created if missing): under a temporary name in
    the same folder first, flushed and ``fsync``-ed, then renamed over ``path``. ``mode``: the
    file's permission bits (e.g. ``0o644``; default the temporary file's ``0o600``). Raises
    ``OSError`` (``ENOSPC`` for a full disk, ...) with nothing left behind: no temporary file, and
    ``path`` as it was."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=TEMPORARY_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    sync_folder(target.parent)


def sync_folder(folder: Path) -> None:
    """Make the rename itself durable (``fsync`` of the folder) where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def is_temporary(name: str) -> bool:
    """Whether ``name`` (a file name without folder) is a temporary file of :func:`write_atomically`."""
    return name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)


def remove_stale_temporaries(folder: str | os.PathLike, older_than_s: float = 3600.0) -> int:
    """Delete temporary files of :func:`write_atomically` in ``folder`` older than
    ``older_than_s`` seconds (left by a process killed mid-write; a younger one may still be
    being written). Returns how many were deleted; a folder that does not exist has none."""
    removed = 0
    limit = time.time() - older_than_s
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return 0
    for entry in entries:
        if not is_temporary(entry.name):
            continue
        try:
            if entry.stat().st_mtime < limit:
                os.unlink(entry.path)
                removed += 1
        except FileNotFoundError:
            continue
    return removed
