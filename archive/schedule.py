"""The scheduled backups: an archive of every tournament whose data changed since its last one,
written into one folder (``DATA_DIR/backups``), each read back once before it takes its name, and
the folder pruned per tournament by count and age without ever removing a tournament's newest
archive. ``manage.py backup_tournaments`` runs :func:`run`; ``scripts/serve`` calls it every
``BACKUP_MINUTES``.

Names. ``tournament-<id>-c<created>-<written>Z-v<data version>.tarock.json.gz``, e.g.
``tournament-7-c1795683502123456-20261126-143000Z-v000042.tarock.json.gz``: ``<created>`` is the
tournament's creation time in microseconds since 1970 (as :func:`tournaments.versioning.stamp`
carries it), so tournament 1 of a database that was reset beside the same folder is not taken for
the old tournament 1; ``<written>`` is when the archive was written, in UTC. Archives are ordered by
that time (and the file's modification time), never by their version: a new tournament 1 at
version 3 is newer than the old one's version 900.

Writing. The archive is written under a hidden temporary name by
:func:`archive.backup.write_archive`, read back from the file once
(:func:`archive.backup.check_archive`), checked to be of this tournament, and only then renamed
to its name — with the version the archive itself holds, so a hand saved while it was written does
not put a wrong version into the name. The file's form decides whether it is kept: a file that
does not unpack, parse or match its checksum, or a write that fails (a full disk), leaves nothing
behind and is reported. An archive whose content a restore would refuse (a player's name stored
before the text checks existed) is kept under its name, as it is the best backup there is, and
reported as a warning naming what to correct on the site; the command then exits non-zero. Whether a version is written already is read from
the folder: only archives that were read back carry a final name, so an archive of the same
tournament (id and creation time) and version there means it is written.

Pruning. Per tournament (id and creation time), newest first: the newest archive is always kept;
the others are removed beyond the newest ``keep`` or when older than ``keep_days`` days. Files of
the former naming (``tournament-<id>-v<version>.tarock.json.gz``) belong to the tournament of that
id that existed when they were written (by their modification time) and are removed only when they
are older than the archives kept of it; other files in the folder (archives written on deletion,
``*.bad``, anything else) are never touched.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from archive import backup
from tournaments import atomic

SUFFIX = ".tarock.json.gz"
NAME = re.compile(r"^tournament-(?P<id>\d+)-c(?P<created>\d+)-(?P<written>\d{8}-\d{6})Z-v(?P<version>\d+)\.tarock\.json\.gz$")
OLD_NAME = re.compile(r"^tournament-(?P<id>\d+)-v(?P<version>\d+)\.tarock\.json\.gz$")
TEMPORARY = ".tournament-"  # the hidden names archives are written under before they are read back
WRITTEN_FORMAT = "%Y%m%d-%H%M%S"


class BackupFailed(Exception):
    """One tournament's archive could not be written or did not read back; ``message`` says which
    and why (translated), for the command's report. Nothing of it is left in the folder."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def created_micros(created: dt.datetime) -> int:
    """A tournament's creation time as its archive's name carries it: microseconds since 1970
    (the same number as in :func:`tournaments.versioning.stamp`)."""
    return int(created.timestamp() * 1_000_000)


def _same_moment(archived: dt.datetime, created: dt.datetime) -> bool:
    """Whether a creation time read from an archive is ``created``: the archive's JSON keeps
    times to the millisecond."""
    return abs(archived - created) < dt.timedelta(milliseconds=1)


def archive_name(tournament_id: int, created: dt.datetime, version: int, written: dt.datetime) -> str:
    """The file name of an archive of tournament ``tournament_id`` (created at ``created``, aware)
    at data version ``version``, written at ``written`` (aware; the name carries it in UTC)."""
    stamp = written.astimezone(dt.timezone.utc).strftime(WRITTEN_FORMAT)
    return f"tournament-{tournament_id}-c{created_micros(created)}-{stamp}Z-v{version:06d}{SUFFIX}"


@dataclass(frozen=True)
class ArchiveFile:
    """An archive found in the folder. ``created`` (µs since 1970) is ``None`` for a file of the
    former naming, which does not say which tournament of that id it holds. ``time`` is what it is
    ordered by, in seconds since 1970: the time in its name (the modification time for the former
    naming); ``mtime_ns`` breaks ties."""

    path: Path
    tournament_id: int
    created: int | None
    version: int
    time: float
    mtime_ns: int

    @property
    def group(self) -> tuple[int, int | None]:
        """``(tournament id, created)``: the archives of one tournament."""
        return (self.tournament_id, self.created)

    def order(self) -> tuple:
        """Sort key, oldest first: the time, then the modification time, then the name."""
        return (self.time, self.mtime_ns, self.path.name)


def read_folder(folder: Path) -> list[ArchiveFile]:
    """Every archive of the scheduled backups in ``folder`` (both namings), in no order. Files
    that vanish while it is read, and any other file, are left out."""
    found = []
    for path in folder.iterdir():
        match = NAME.match(path.name) or OLD_NAME.match(path.name)
        if match is None:
            continue
        try:
            mtime_ns = path.stat().st_mtime_ns
        except FileNotFoundError:
            continue
        if "created" in match.groupdict():
            written = dt.datetime.strptime(match["written"], WRITTEN_FORMAT).replace(tzinfo=dt.timezone.utc)
            found.append(ArchiveFile(path, int(match["id"]), int(match["created"]), int(match["version"]), written.timestamp(), mtime_ns))
        else:
            found.append(ArchiveFile(path, int(match["id"]), None, int(match["version"]), mtime_ns / 1e9, mtime_ns))
    return found


def is_written(archives: list[ArchiveFile], tournament) -> bool:
    """Whether ``archives`` (:func:`read_folder`) hold one of ``tournament`` at its current data
    version. Files of the former naming do not count: they do not say which tournament of the id
    they hold."""
    group = (tournament.pk, created_micros(tournament.created))
    return any(a.group == group and a.version == tournament.data_version for a in archives)


def _remove(*paths: Path) -> None:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def read_back(content: bytes, tournament) -> tuple[int, backup.BackupRefused | None]:
    """Read an archive's bytes back once (:func:`archive.backup.check_archive`: one unpack and
    parse) and check that it holds ``tournament`` (same id and creation time). Returns ``(the data
    version it holds, the refusal of its content or None)``: a content refusal does not make the
    file bad, only one that a restore would refuse until the data is corrected. Raises
    :class:`~archive.backup.BackupRefused` when the file is not a whole archive (its form),
    :class:`ValueError` when it holds another tournament."""
    check = backup.check_archive(content)
    row = check.tournament
    created = parse_datetime(str(row.get("created"))) if row.get("created") else None
    if created is None or row.get("id") != tournament.pk or not _same_moment(created, tournament.created):
        raise ValueError(_("the archive holds another tournament"))
    version = row.get("data_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError(_("the archive has no data version"))
    return version, check.refusal


@dataclass(frozen=True)
class Written:
    """An archive :func:`write_checked` wrote: its ``path``, and ``warning`` (translated) when its
    content would not restore (``None`` when it would): which tournament, which file, what a
    restore refuses and what to correct on the site."""

    path: Path
    warning: str | None = None


def _warning(label: str, path: Path, refused: backup.BackupRefused) -> str:
    reason = refused.message if refused.where is None else _("%(where)s: %(problem)s") % {"where": refused.where, "problem": refused.problem}
    return _(
        "%(tournament)s: the archive %(file)s is kept, as it is the best backup there is, but it would not restore: "
        "%(reason)s To fix it, %(fix)s; the next backup after that restores."
    ) % {"tournament": label, "file": path.name, "reason": reason, "fix": backup.how_to_fix(refused)}


def write_checked(tournament, folder: Path, now: dt.datetime) -> Written:
    """Write the archive of ``tournament`` into ``folder``, read it back from the file and give it
    its name (:func:`archive_name`, with the version the archive holds); returns it
    (:class:`Written`, with a warning when its content would not restore: it is kept all the
    same). Raises :class:`BackupFailed` when the write fails (a full disk among others) or the
    file does not read back as a whole archive of this tournament; nothing of it is left in
    ``folder`` then."""
    temporary = folder / f"{TEMPORARY}{tournament.pk}.{secrets.token_hex(6)}.writing"
    label = _("tournament %(id)s (%(name)s)") % {"id": tournament.pk, "name": tournament.name}
    try:
        try:
            backup.write_archive(tournament, temporary)  # whole and synced, or nothing and OSError
            content = temporary.read_bytes()
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise BackupFailed(
                    _("%(tournament)s: not backed up, the disk holding %(folder)s is full (%(error)s). "
                      "Nothing was written; free some space (or prune with --keep/--keep-days).")
                    % {"tournament": label, "folder": folder, "error": error.strerror}
                ) from error
            raise BackupFailed(
                _("%(tournament)s: not backed up, writing to %(folder)s failed: %(error)s") % {"tournament": label, "folder": folder, "error": error}
            ) from error
        try:
            version, refusal = read_back(content, tournament)
        except (backup.BackupRefused, ValueError, TypeError, KeyError) as error:
            reason = error.message if isinstance(error, backup.BackupRefused) else error
            raise BackupFailed(
                _("%(tournament)s: the archive just written does not read back (%(reason)s); it was removed.") % {"tournament": label, "reason": reason}
            ) from error
        del content
        path = folder / archive_name(tournament.pk, tournament.created, version, now)
        written = Written(path, None if refusal is None else _warning(label, path, refusal))
        if path.exists():  # same tournament, version and second: it is there already
            _remove(temporary)
            return written
        try:
            os.replace(temporary, path)
        except OSError as error:
            raise BackupFailed(
                _("%(tournament)s: not backed up, naming the archive in %(folder)s failed: %(error)s") % {"tournament": label, "folder": folder, "error": error}
            ) from error
        atomic.sync_folder(folder)
        return written
    except BaseException:
        _remove(temporary)
        raise


def prune(folder: Path, keep: int, keep_days: float | None, now: dt.datetime) -> list[Path]:
    """Remove old archives from ``folder``; returns the paths removed.

    Per tournament (id and creation time), newest first by the time in the name: the newest is
    always kept, every other one is removed when it is not among the newest ``keep`` (at least 1)
    or is older than ``keep_days`` days (``None``: no age limit). A file of the former naming is
    counted with the tournament of its id whose creation time is the latest before the file was
    written (none known: it is left alone), so it goes only when it is older than the archives
    kept of that tournament."""
    if keep < 1:
        raise ValueError("keep at least one archive per tournament")
    archives = read_folder(folder)
    groups: dict[tuple[int, int | None], list[ArchiveFile]] = {}
    created_by_id: dict[int, set[int]] = {}
    for archive in archives:
        if archive.created is not None:
            groups.setdefault(archive.group, []).append(archive)
            created_by_id.setdefault(archive.tournament_id, set()).add(archive.created)
    for archive in archives:
        if archive.created is None:
            before = [c for c in created_by_id.get(archive.tournament_id, ()) if c <= archive.mtime_ns // 1000]
            if before:
                groups[(archive.tournament_id, max(before))].append(archive)
    oldest = None if keep_days is None else now.timestamp() - keep_days * 86400
    removed = []
    for members in groups.values():
        members.sort(key=ArchiveFile.order, reverse=True)
        for index, archive in enumerate(members[1:], start=1):
            if index >= keep or (oldest is not None and archive.time < oldest):
                _remove(archive.path)
                removed.append(archive.path)
    return removed


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files of a run that was killed while writing (call it holding the
    folder's lock: no other run is writing then): the hidden ``.tournament-<id>.<random>.writing``
    names and the temporary files :func:`tournaments.atomic.write_atomically` writes them through
    (``..tournament-<id>.<random>.writing.<random>.partial``); returns them."""
    leftovers = [p for p in folder.iterdir() if p.name.lstrip(".").startswith(TEMPORARY[1:]) and ".writing" in p.name]
    _remove(*leftovers)
    return leftovers


@contextlib.contextmanager
def folder_lock(folder: Path):
    """Hold an exclusive lock on ``folder`` for one run; yields whether it was got (``False``:
    another run holds it). Where the system has no ``flock`` the run goes ahead unlocked."""
    try:
        import fcntl
    except ImportError:  # not on this system: one run at a time is then up to the schedule
        yield True
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@dataclass
class Report:
    """What one run did: ``written`` archive paths, ``removed`` (pruned) paths, ``failures``
    (messages, one per tournament not backed up), ``warnings`` (messages, one per archive written
    and kept whose content would not restore) and whether another run held the folder (``busy``:
    nothing was done)."""

    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    busy: bool = False

    @property
    def ok(self) -> bool:
        """Whether every tournament was backed up and every archive written would restore."""
        return not self.failures and not self.warnings


def run(folder: Path, keep: int = 20, keep_days: float | None = None, now: dt.datetime | None = None) -> Report:
    """Back up every tournament whose current data version has no archive in ``folder`` yet
    (:func:`write_checked`), then :func:`prune` the folder. A tournament that fails, or whose
    archive would not restore (kept, and written again only once its data changed), is reported
    in the :class:`Report` and the others go on. Raises :class:`OSError` only when the folder itself
    cannot be made or read."""
    from tournaments.models import Tournament

    if keep < 1:
        raise ValueError("keep at least one archive per tournament")
    folder.mkdir(parents=True, exist_ok=True)
    report = Report()
    with folder_lock(folder) as locked:
        if not locked:
            report.busy = True
            return report
        remove_leftovers(folder)
        archives = read_folder(folder)
        # Mirrors are copies of tournaments run elsewhere (a new copy per version): the venue keeps
        # their backups, this site would only pile up copies of copies.
        for tournament in Tournament.objects.filter(mirrored_from="").order_by("pk").iterator():
            if is_written(archives, tournament):
                continue
            try:
                written = write_checked(tournament, folder, now or dt.datetime.now(dt.timezone.utc))
            except BackupFailed as failed:
                report.failures.append(failed.message)
                continue
            report.written.append(written.path)
            if written.warning:
                report.warnings.append(written.warning)
        report.removed = prune(folder, keep, keep_days, now or dt.datetime.now(dt.timezone.utc))
    return report
