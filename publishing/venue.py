"""The venue's end of publishing: one push of a tournament to a public site, what its answer means
for the next one, and the status a director reads.

:func:`send` takes the tournament's current version as one consistent snapshot (:func:`snapshot`:
a patch of the version the site stored when only hands changed since, :mod:`archive.patch`, else
the whole archive), POSTs it as the protocol says (:mod:`publishing`) and reads the answer into a
:class:`PushResult`; it never raises. :func:`push_once` does that for a :class:`~publishing.models.PublishTarget` and
records it: a :class:`~publishing.models.PushAttempt` row, a line in the log ``publishing``, and the
target's state:

- **stored** / **ignored** (200): ``pushed_version`` is the version sent, ``pushed_at`` now,
  ``mirror_url`` the site's address of the mirror; failures forgotten. The next push waits
  :func:`pace`: :data:`PACE_FACTOR` times as long as the site took to answer, when that is a second or more
  (a site slowed down by many venues at once gets fewer pushes, each carrying every hand saved
  meanwhile, instead of a queue; a site that answers in 100 ms is not held back).
- **offline**: no answer (refused connection, name not found, time-out), an answer that is not the
  site's (5xx, a proxy's or a Wi-Fi login page's: a redirect, or anything but the protocol's JSON),
  or 429 (too many pushes): ``failures`` + 1, ``waiting_since`` the first failure, the next try
  after :func:`backoff` (2, 4, 8, 16 s, then every :data:`OFFLINE_CAP_SECONDS` s, a little less at
  random; at least the site's ``Retry-After``).
- **refused** (any other 4xx): the site's ``error`` text is kept. A refused key (401, 403) will not
  heal by waiting: the target is ``paused``, and nothing is sent until it is saved again (its page
  says so). Any other refusal (400: the archive's content, a bad signature; 413: too large; 404: no
  publishing at that address) is tried again after a longer back-off (1, 2, 4 … minutes, at most
  :data:`REFUSED_CAP_SECONDS`), as the director may correct the tournament meanwhile.
- **newer** (409 with ``"code": "newer"``): the site holds a newer version than the backup this
  tournament was restored from (:func:`send`): the target is ``paused`` with the site's version
  (``held_version``) and what to do in ``last_error``, until the director publishes over it
  (:func:`publish_over`) or saves the target again.

The result is written only while the target still has the address and key it was sent with: a push
that was on its way while the director saved another key changes nothing but the log.

The push never runs where hands are entered: the background task (:mod:`publishing.tasks`) calls it.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import random
import ssl
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import quote, urljoin, urlsplit

from django.db import connection, transaction
from django.db.models import F
from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from publishing.models import PublishTarget, PushAttempt

log = logging.getLogger("publishing.venue")

Outcome = PushAttempt.Outcome

PUSH_PATH = "publish/push/"
TIMEOUT_SECONDS = 20.0  # per connect, send and read: a 1 MB archive over an inn's slow uplink fits
ANSWER_LIMIT = 64 * 1024  # the most of an answer read: the protocol's answers are a few lines of JSON
OFFLINE_FIRST_SECONDS = 2.0
# The longest wait between tries while the site does not answer: within this (and a second) of the
# network's return the site has the newest version.
OFFLINE_CAP_SECONDS = 20.0
REFUSED_FIRST_SECONDS = 60.0
REFUSED_CAP_SECONDS = 15 * 60.0
RETRY_AFTER_CAP_SECONDS = 5 * 60.0
JITTER = 0.1  # each wait is up to this fraction shorter, so venues that failed together spread out
# After an acknowledged push whose answer took t, the next one waits until PACE_FACTOR × t have
# passed (from a second on, at most PACE_CAP_SECONDS): a venue keeps the site busy a tenth of its time.
PACE_FACTOR = 10
PACE_MIN_SECONDS = 1.0  # below this the chain's own next step (a second on) comes later anyway
PACE_CAP_SECONDS = 20.0
KEY_REFUSALS = {401, 403}  # the key is unknown or revoked, or does not publish this tournament
SOURCE_LIMIT = 300  # the mirror keeps this many characters of where it is run from


@dataclass(frozen=True)
class PushResult:
    """What one push came to. ``outcome``: an :class:`~publishing.models.PushAttempt.Outcome` value
    ("stored", "ignored", "offline", "refused"); ``version``: the data version sent (0 if the
    archive could not be made); ``status``: the HTTP status (``None`` without an answer);
    ``message``: the site's words (its ``error``; the mirror's address when acknowledged) or what
    went wrong on the way, one line; ``mirror_url``: the mirror's address the site gave ("" if none);
    ``milliseconds``: how long it took; ``retry_after``: seconds the site asked to wait (429), if
    it said; ``stored``: what the site holds once it stored this push (:class:`Stored`, the base
    of the next patch); ``patch``: whether the body sent last was a patch; ``answer_milliseconds``:
    how long the site took to answer the last POST, from sending it (the venue's own work of making
    the body not counted: the pace of the next push, :func:`pace`, is the site's);
    ``site_version``: the newer version the site holds (outcome ``newer``; else ``None``)."""

    outcome: str
    version: int
    status: int | None = None
    message: str = ""
    mirror_url: str = ""
    milliseconds: float = 0.0
    retry_after: float | None = None
    stored: Stored | None = None
    patch: bool = False
    answer_milliseconds: float = 0.0
    site_version: int | None = None

    @property
    def acknowledged(self) -> bool:
        """Whether the site holds this version or a newer one now."""
        return self.outcome in (Outcome.STORED, Outcome.IGNORED)


# ------------------------------------------------------------------------------------- one push


def push_url(site_url: str) -> str:
    """The push endpoint of the public site at ``site_url`` (``https://tarock.example.org`` or
    with a path the site is served under)."""
    return urljoin(site_url.rstrip("/") + "/", PUSH_PATH)


def signature(key: str, body: bytes) -> str:
    """The ``X-Tarock-Signature`` of ``body`` for ``key``: ``sha256=<hex HMAC-SHA256>``."""
    return "sha256=" + hmac.new(key.encode(), body, hashlib.sha256).hexdigest()


def source_header(text: str) -> str:
    """``text`` (where the tournament is run from) as a header value: at most
    :data:`SOURCE_LIMIT` characters, printable ASCII as it is but ``%``, everything else (umlauts,
    line breaks) percent-encoded as UTF-8 (``urllib.parse.unquote`` gives it back)."""
    printable = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")
    return quote(" ".join(text.split())[:SOURCE_LIMIT], safe=printable)


def source_of(tournament) -> str:
    """Where ``tournament`` is run from, as the push says it: its venue, or this site's address."""
    return tournament.venue or urlsplit(settings.PUBLIC_URL).netloc or "venue"


@dataclass(frozen=True)
class Stored:
    """What a site stored of a tournament, as the venue knows it: the data ``version``, and the
    ``layout`` version and sheet stamps (``tables``, :func:`archive.patch.sheet_stamps`) the
    tournament had at that version; the next push may be a patch of it."""

    version: int
    layout: int
    tables: dict[str, int]


@dataclass(frozen=True)
class Snapshot:
    """One push's body: the tournament's data ``version``, the ``body`` (the whole archive, or a
    patch of version ``base``: :mod:`archive.patch`), what the site holds once it stores it
    (``stored``), and the version of the backup the tournament was restored from, until a site
    stored one of it (``restored_from``, ``None`` for none)."""

    version: int
    body: bytes
    base: int | None
    stored: Stored
    restored_from: int | None = None


def snapshot(tournament, since: Stored | None = None) -> Snapshot:
    """The push of ``tournament`` as committed now, one consistent snapshot: the versions and the
    body are read in one transaction (SQLite: a transaction holds the database's write lock from
    its start, so nothing changes under it; PostgreSQL: the transaction reads one snapshot,
    REPEATABLE READ, and writers are not held up), so the body is of exactly that version.

    The body is a patch of ``since`` (what the site stored, :class:`Stored`) when the tournament
    changed only in its hands since (its layout version is ``since.layout``,
    :mod:`tournaments.versioning`): the changed tables only, a few kilobytes however big the
    tournament. Otherwise (no ``since``, a layout change) it is the whole archive. Raises the
    archive's and the database's errors."""
    from archive.backup import export_tournament
    from archive.patch import export_patch, sheet_stamps
    from tournaments.models import Tournament

    fresh = not connection.in_atomic_block
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        current = Tournament.objects.select_related("cup").get(pk=tournament.pk)
        stamps = sheet_stamps(current.pk)
        stored = Stored(current.data_version, current.layout_version, stamps)
        if since is not None and since.layout == current.layout_version and since.version < current.data_version:
            body = export_patch(current, since.version, since.tables, stamps)
            return Snapshot(current.data_version, body, since.version, stored, current.restored_from)
        return Snapshot(current.data_version, export_tournament(current), None, stored, current.restored_from)


def stored_of(target: PublishTarget) -> Stored | None:
    """What ``target``'s site stored, for a patch (:class:`Stored`), or ``None``: send the whole
    archive."""
    if target.pk is None or not target.pushed_version or target.pushed_layout is None or not isinstance(target.pushed_tables, dict):
        return None
    return Stored(target.pushed_version, target.pushed_layout, target.pushed_tables)


def _post(url: str, headers: dict[str, str], body: bytes, timeout: float) -> tuple[int, str, dict[str, str], bytes]:
    """POST ``body`` to ``url`` without following redirects; ``(status, reason, headers in lower
    case, the first ANSWER_LIMIT bytes of the answer)``. Raises ``OSError`` (and
    ``http.client.HTTPException``) when no answer came."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        conn = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        path = parts.path or "/"
        conn.request("POST", path + (f"?{parts.query}" if parts.query else ""), body=body, headers=headers)
        response = conn.getresponse()
        content = response.read(ANSWER_LIMIT)
        return response.status, response.reason, {k.lower(): v for k, v in response.getheaders()}, content
    finally:
        conn.close()


def _retry_after(value: str | None) -> float | None:
    try:
        return min(max(float(value), 0.0), RETRY_AFTER_CAP_SECONDS) if value else None
    except ValueError:
        return None


def _one_line(text: str, limit: int = 500) -> str:
    return " ".join(str(text).split())[:limit]


def _mirror_address(site_url: str, answer: dict) -> str:
    """The mirror's address in the site's answer (``url``), absolute; "" when it gives none fit
    to show (not http or https, too long)."""
    mirror = answer.get("url") if isinstance(answer.get("url"), str) else ""
    mirror = urljoin(site_url.rstrip("/") + "/", mirror) if mirror else ""
    return mirror if urlsplit(mirror).scheme in ("http", "https") and len(mirror) <= 500 else ""


def interpret(site_url: str, version: int, status: int, reason: str, headers: dict[str, str], content: bytes) -> PushResult:
    """The :class:`PushResult` of the site's answer (without ``milliseconds``): see the module."""
    try:
        answer = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        answer = None
    answer = answer if isinstance(answer, dict) else {}
    said = _one_line(answer.get("error", "")) if isinstance(answer.get("error"), str) else ""
    if status == 200 and answer.get("status") in (Outcome.STORED, Outcome.IGNORED):
        mirror = _mirror_address(site_url, answer)
        return PushResult(answer["status"], version, status, mirror, mirror)
    held = answer.get("held")
    if status == 409 and answer.get("code") == "newer" and isinstance(held, int) and not isinstance(held, bool) and held >= 0:
        return PushResult(Outcome.NEWER, version, status, said, _mirror_address(site_url, answer), site_version=held)
    if 300 <= status < 400:
        where = _one_line(headers.get("location", ""), 300)
        message = _("The answer was a redirect to %(where)s: a Wi-Fi login page, or the site has moved (then enter its new address).") % {"where": where or "?"}
        return PushResult(Outcome.OFFLINE, version, status, message)
    if status == 429 or status >= 500 or status == 200:
        message = said or (_("The site answered “%(status)s %(reason)s”.") % {"status": status, "reason": _one_line(reason, 100)})
        if status == 200:
            message = _("The answer was not the public site's (a Wi-Fi login page?).")
        return PushResult(Outcome.OFFLINE, version, status, message, retry_after=_retry_after(headers.get("retry-after")))
    message = said or (_("The site answered “%(status)s %(reason)s”.") % {"status": status, "reason": _one_line(reason, 100)})
    return PushResult(Outcome.REFUSED, version, status, message)


def newer_text(held: int | None, restored_from: int | None) -> str:
    """What the outcome ``newer`` means and what the director does, in the active language: the
    site holds version ``held``, newer than the backup (version ``restored_from``) this
    tournament was restored from."""
    return _(
        "The public site holds version %(site)s of this tournament, newer than the backup it was restored from "
        "here (version %(backup)s): hands saved after that backup on another computer are there, not here. "
        "Enter them here again (the public site shows them), then publish over it. Nothing is sent until then."
    ) % {"site": held if held is not None else "?", "backup": restored_from if restored_from is not None else "?"}


def _restored_from(target: PublishTarget) -> int | None:
    from tournaments.models import Tournament

    return Tournament.objects.filter(pk=target.tournament_id).values_list("restored_from", flat=True).first()


def send(tournament, url: str, key: str, *, timeout: float = TIMEOUT_SECONDS, since: Stored | None = None) -> PushResult:
    """Push the current version of ``tournament`` to the public site at ``url`` with publishing key
    ``key`` and read the answer (:func:`interpret`): a patch of ``since`` where it can be
    (:func:`snapshot`), the whole archive otherwise, and the whole archive at once when the site
    refuses the patch (409: its copy is not that version; or any refusal but of the key, as a
    site that knows no patches gives). Never raises: an archive that could not be made or a
    network error is a result like the others (``offline``, with what happened).

    A tournament restored here from a backup that kept its identifier (``restored_from``,
    :func:`archive.backup.restore`) says so in every push (``X-Tarock-Restored-From``) until the
    site stores one: a site that holds a newer version than that backup holds hands saved after
    it on another computer, and answers 409 "newer" (nothing stored there). The result is then
    ``newer``, its message (in this site's language) says what the director does: enter those
    hands here again, the public site shows them, then publish over it (:func:`publish_over`).
    When a push is stored, ``restored_from`` is cleared: the site holds this tournament's history."""
    from tournaments.models import Tournament

    started = time.monotonic()

    def took() -> float:
        return round((time.monotonic() - started) * 1000, 1)

    while True:
        try:
            snap = snapshot(tournament, since)
        except Exception as error:  # noqa: BLE001 - whatever it was, the push waits and tries again
            log.exception("publishing: the archive of tournament %s could not be made", tournament.pk)
            message = _("The archive could not be made: %(error)s") % {"error": _one_line(f"{type(error).__name__}: {error}")}
            return PushResult(Outcome.OFFLINE, 0, None, message, milliseconds=took())
        headers = {
            "Authorization": f"Bearer {key}",
            "X-Tarock-Tournament": str(tournament.uid),
            "X-Tarock-Version": str(snap.version),
            "X-Tarock-Signature": signature(key, snap.body),
            "X-Tarock-Source": source_header(source_of(tournament)),
            "Content-Type": "application/octet-stream",
            "Accept": "application/json",
            "User-Agent": "tarock-venue",
            "Accept-Language": translation.get_language() or settings.LANGUAGE_CODE,  # the site's refusals in ours
        }
        if snap.base is not None:
            headers["X-Tarock-Base"] = str(snap.base)
        if snap.restored_from is not None:
            headers["X-Tarock-Restored-From"] = str(snap.restored_from)
        posted = time.monotonic()
        try:
            status, reason, answer_headers, content = _post(push_url(url), headers, snap.body, timeout)
        except (OSError, http.client.HTTPException, ValueError) as error:
            # ValueError: an address http.client cannot use (a port that is no number)
            message = _("No answer from the site: %(error)s") % {"error": _one_line(str(error) or type(error).__name__)}
            return PushResult(Outcome.OFFLINE, snap.version, None, message, milliseconds=took())
        answered = round((time.monotonic() - posted) * 1000, 1)
        result = interpret(url, snap.version, status, reason, answer_headers, content)
        if snap.base is not None and result.outcome == Outcome.REFUSED and status not in KEY_REFUSALS:
            log.info("publishing: tournament %s: the site took no patch of version %s (%s %s); the whole archive follows",
                     tournament.pk, snap.base, status, result.message)
            since = None
            continue
        message = result.message
        if result.outcome == Outcome.NEWER:
            message = newer_text(result.site_version, snap.restored_from)
            log.warning("publishing: tournament %s: %s", tournament.pk, message)
        elif result.outcome == Outcome.STORED and snap.restored_from is not None:
            Tournament.objects.filter(pk=tournament.pk, restored_from=snap.restored_from).update(restored_from=None)
        return PushResult(result.outcome, snap.version, status, message, result.mirror_url, took(), result.retry_after,
                          stored=snap.stored, patch=snap.base is not None, answer_milliseconds=answered,
                          site_version=result.site_version)


# ----------------------------------------------------------------------- its record and back-off


def backoff(outcome: str, failures: int, status: int | None = None, retry_after: float | None = None) -> timedelta | None:
    """How long to wait before the next try after the ``failures``-th failure in a row that was
    ``outcome``; ``None``: no try until the target is saved again (a refused key). Offline:
    2 s doubling up to :data:`OFFLINE_CAP_SECONDS` (at least ``retry_after``); refused: 60 s
    doubling up to :data:`REFUSED_CAP_SECONDS`. Each wait is up to :data:`JITTER` shorter at
    random."""
    if outcome == Outcome.REFUSED:
        if status in KEY_REFUSALS:
            return None
        first, cap = REFUSED_FIRST_SECONDS, REFUSED_CAP_SECONDS
    else:
        first, cap = OFFLINE_FIRST_SECONDS, OFFLINE_CAP_SECONDS
    seconds = min(first * 2 ** min(max(failures, 1) - 1, 30), cap) * (1 - JITTER * random.random())
    if retry_after is not None:
        seconds = max(seconds, retry_after)
    return timedelta(seconds=seconds)


def pace(milliseconds: float) -> timedelta | None:
    """How long after an acknowledged push whose answer took ``milliseconds`` (from sending the
    POST: the site's time and the network's) the next one may go: :data:`PACE_FACTOR` times as long, at most
    :data:`PACE_CAP_SECONDS`; ``None`` (at once) below :data:`PACE_MIN_SECONDS`. Not a rule of
    the protocol (``publishing``): the venue's courtesy to a site that has many venues to serve,
    which keeps the time to the public standings within a few seconds as long as the site
    answers within a few hundred milliseconds."""
    seconds = min(PACE_FACTOR * max(milliseconds, 0.0) / 1000, PACE_CAP_SECONDS)
    return timedelta(seconds=seconds) if seconds >= PACE_MIN_SECONDS else None


def record(target: PublishTarget, result: PushResult, now: datetime | None = None) -> None:
    """Keep ``result`` of a push to ``target`` (a saved one, with the ``url`` and ``key`` it was
    sent with): the attempt's row, the log line and the target's state (see the module), the
    latter only while the target still has that address and key. ``target`` is updated in memory
    too."""
    now = now or timezone.now()
    PushAttempt.objects.create(
        target=target, version=result.version, outcome=result.outcome, message=result.message, milliseconds=result.milliseconds
    )
    same = PublishTarget.objects.filter(pk=target.pk, url=target.url, key=target.key)
    if result.acknowledged:
        log.info("publishing: tournament %s version %s %s by %s (%.0f ms)", target.tournament_id, result.version, result.outcome, target.url, result.milliseconds)
        wait = pace(result.answer_milliseconds)
        changes = {
            "pushed_at": now, "mirror_url": result.mirror_url or target.mirror_url, "failures": 0, "waiting_since": None,
            "last_error": "", "next_try": now + wait if wait else None, "last_outcome": result.outcome, "paused": False,
        }
        if same.update(**changes):
            # never back: a slower push of an older version cannot undo a newer one's. Only a
            # stored version is a base for a patch: "ignored" says the site holds that version
            # or a newer one, not which content.
            stored = result.stored if result.outcome == Outcome.STORED else None
            newer = {
                "pushed_version": result.version,
                "pushed_layout": stored.layout if stored else None,
                "pushed_tables": stored.tables if stored else None,
            }
            if same.filter(pushed_version__lt=result.version).update(**newer):
                changes.update(newer)
    elif result.outcome == Outcome.NEWER:
        # Not a failure to wait out: nothing is sent until the director publishes over it.
        changes = {
            "failures": 0, "waiting_since": None, "last_error": result.message, "next_try": None, "last_outcome": result.outcome,
            "paused": True, "held_version": result.site_version, "mirror_url": result.mirror_url or target.mirror_url,
            "pushed_layout": None, "pushed_tables": None,
        }
        same.update(**changes)
    else:
        failures = target.failures + 1
        wait = backoff(result.outcome, failures, result.status, result.retry_after)
        # the first failure and every tenth of a row loud, the others for whoever reads INFO
        log.log(
            logging.WARNING if failures == 1 or failures % 10 == 0 else logging.INFO,
            "publishing: tournament %s version %s %s by %s (%s, failure %s in a row; %s)", target.tournament_id, result.version,
            result.outcome, target.url, result.message, failures, f"next try in {wait.total_seconds():.0f} s" if wait else "paused until saved again",
        )
        changes = {
            "failures": F("failures") + 1, "waiting_since": target.waiting_since or now, "last_error": result.message,
            "next_try": now + wait if wait else None, "last_outcome": result.outcome, "paused": wait is None,
        }
        same.update(**changes)
        changes["failures"] = failures
    for name, value in changes.items():
        setattr(target, name, value)


def push_once(target: PublishTarget) -> PushResult:
    """Push the current version of ``target.tournament`` to ``target`` (:func:`send`) and, for a
    saved target, :func:`record` it. Never raises for the push itself; writing its record raises
    the database's errors."""
    result = send(target.tournament, target.url, target.key, since=stored_of(target))
    if target.pk is not None:
        record(target, result)
    else:
        log.info("publishing: tournament %s version %s %s by %s: %s", target.tournament.pk, result.version, result.outcome, target.url, result.message)
    return result


def due(target: PublishTarget, data_version: int, now: datetime | None = None) -> bool:
    """Whether ``target`` should be pushed now, its tournament being at ``data_version``: enabled,
    not paused, its back-off over, and the site behind."""
    now = now or timezone.now()
    return (
        target.enabled and not target.paused and (target.next_try is None or target.next_try <= now)
        and data_version > target.pushed_version
    )


# --------------------------------------------------------------------------------- the status


def key_hint(key: str) -> str:
    """The public beginning of a stored key, to tell it from another, never its secret: the
    prefix of a key as public sites make them (``"tpk_0123456789_…"``, as the site's organiser
    sees it on his page), else its first characters (at most 8, a third of it: ``"abcdefgh…"``)."""
    if not key:
        return ""
    end = key.find("_", len("tpk_")) if key.startswith("tpk_") else -1
    if len("tpk_") < end <= len("tpk_") + 16 and end < len(key) // 2:
        return f"{key[: end + 1]}…"
    return f"{key[: min(8, len(key) // 3)]}…"


def when(moment: datetime, now: datetime | None = None) -> str:
    """``moment`` in local time as a director reads it: the time today ("14:02"), the date and time
    on another day."""
    local, today = timezone.localtime(moment), timezone.localtime(now or timezone.now()).date()
    if local.date() == today:
        return formats.time_format(local, "TIME_FORMAT")
    return formats.date_format(local, "SHORT_DATETIME_FORMAT")


@dataclass(frozen=True)
class VenueStatus:
    """The publishing status of a target for its pages. ``kind``: ``"stopped"``, ``"paused"``
    (a refused key), ``"newer"`` (the site holds a newer version than the backup this tournament
    was restored from; nothing is sent until the director publishes over it), ``"refused"``,
    ``"waiting"`` (for the network), ``"published"`` or ``"starting"`` (nothing acknowledged
    yet); ``text``: one sentence (``newer``: three), translated, with localized times;
    ``behind``: the tournament's versions the site does not have; ``mirror_url``."""

    kind: str
    text: str
    behind: int
    mirror_url: str = ""

    @property
    def warning(self) -> bool:
        """Whether the director must act: nothing is published until he does (or a refusal)."""
        return self.kind in ("paused", "refused", "newer")


def status(target: PublishTarget, data_version: int, now: datetime | None = None) -> VenueStatus:
    """The :class:`VenueStatus` of ``target``, its tournament being at ``data_version``."""
    now = now or timezone.now()
    behind = max(data_version - target.pushed_version, 0)
    versions_behind = ngettext("%(count)s version behind", "%(count)s versions behind", behind) % {"count": behind}
    if not target.enabled:
        return VenueStatus("stopped", _("Publishing is stopped."), behind, target.mirror_url)
    if target.paused and target.last_outcome == Outcome.NEWER:
        return VenueStatus("newer", newer_text(target.held_version, _restored_from(target)), behind, target.mirror_url)
    if target.paused:
        text = _("Refused by the site: %(reason)s Nothing is sent until the address or the key is saved again.") % {"reason": target.last_error}
        return VenueStatus("paused", text, behind, target.mirror_url)
    if target.failures and target.last_outcome == Outcome.REFUSED:
        text = _("Refused by the site: %(reason)s Trying again at %(time)s.") % {
            "reason": target.last_error, "time": when(target.next_try, now) if target.next_try else "?",
        }
        return VenueStatus("refused", text, behind, target.mirror_url)
    if target.failures and target.waiting_since:
        text = _("Waiting for the network since %(time)s (%(behind)s).") % {"time": when(target.waiting_since, now), "behind": versions_behind}
        return VenueStatus("waiting", text, behind, target.mirror_url)
    if target.pushed_version and target.pushed_at:
        text = _("Published: version %(version)s at %(time)s.") % {"version": target.pushed_version, "time": when(target.pushed_at, now)}
        if behind:
            text = f"{text} ({versions_behind})"
        return VenueStatus("published", text, behind, target.mirror_url)
    return VenueStatus("starting", _("Not published yet: the first push is on its way."), behind, target.mirror_url)


# ------------------------------------------------------------------------------- the settings


def configure(tournament, *, url: str, key: str | None, enabled: bool) -> PublishTarget:
    """Save where ``tournament`` is published: the site's ``url``, the publishing ``key``
    (``None``/"": keep the stored one) and whether publishing is ``enabled``. A new address or key
    starts afresh (nothing counts as pushed there yet); any save lifts a pause and lets the next
    push go at once. Returns the target; the caller starts publishing
    (:func:`publishing.tasks.ensure_publishing`). Only the fields named here are written, so a push
    finishing meanwhile is not overwritten."""
    with transaction.atomic():
        target = PublishTarget.objects.select_for_update().filter(tournament=tournament).first()
        if target is None:
            return PublishTarget.objects.create(tournament=tournament, url=url, key=key or "", enabled=enabled)
        fields = {"enabled": enabled, "paused": False, "next_try": None}
        if url != target.url or (key and key != target.key):
            fields.update(
                url=url, key=key or target.key, pushed_version=0, pushed_at=None, pushed_layout=None, pushed_tables=None,
                mirror_url="", failures=0, waiting_since=None, last_error="", last_outcome="", held_version=None,
            )
        for name, value in fields.items():
            setattr(target, name, value)
        target.save(update_fields=list(fields))
        return target


def overrule(tournament_id: int, held: int) -> int | None:
    """Make this database's tournament ``tournament_id`` the one to publish over a site's newer
    version ``held`` (the outcome ``newer``): ``restored_from`` cleared and the data version moved
    past ``held`` when it is not beyond it (:func:`tournaments.versioning.move_past`). Returns
    the new data version when it moved, else ``None``."""
    from tournaments.models import Tournament
    from tournaments.versioning import move_past

    with transaction.atomic():
        Tournament.objects.filter(pk=tournament_id).update(restored_from=None)
        return move_past(tournament_id, held)


def publish_over(target: PublishTarget) -> int | None:
    """The director's "Publish over it" after the outcome ``newer`` (the site holds a newer
    version than the backup this tournament was restored from, ``target.held_version``): the
    tournament no longer says it was restored (``restored_from`` cleared: this database's content
    is the tournament's now), its data version is moved past the site's when it is not already
    beyond (:func:`tournaments.versioning.move_past`), and the pause is lifted, so the next push,
    the whole archive, replaces the site's copy. One transaction, the target's row locked (a
    double click, a second tab: the second finds it in another state). Returns the site's
    version that is replaced, or ``None`` for a target in another state, to which nothing is
    done. The caller starts publishing (:func:`publishing.tasks.ensure_publishing`)."""
    with transaction.atomic():
        target = PublishTarget.objects.select_for_update().get(pk=target.pk)
        if not (target.paused and target.last_outcome == Outcome.NEWER):
            return None
        held = target.held_version or 0
        moved = overrule(target.tournament_id, held)
        PublishTarget.objects.filter(pk=target.pk).update(
            paused=False, next_try=None, held_version=None, last_error="", last_outcome="", pushed_layout=None, pushed_tables=None,
        )
    log.warning("publishing: tournament %s published over the site's version %s (now version %s)",
                target.tournament_id, held, moved or "unchanged")
    return held


def stop(target: PublishTarget) -> None:
    """Stop publishing to ``target``: nothing more is sent, its chain ends at its next step."""
    PublishTarget.objects.filter(pk=target.pk).update(enabled=False, chain="", chain_until=None)
    target.enabled, target.chain, target.chain_until = False, "", None
