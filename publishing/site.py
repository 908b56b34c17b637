"""The public site's end of a push (the protocol: :mod:`publishing`): every check, then the
mirror brought to the new version in one transaction: a patch written into its copy in place, or
the whole archive restored as a new copy that replaces the old one.

:func:`take_push` answers one ``POST /publish/push/``. In this order, each refusal naming its
reason (translated) and changing nothing:

1. ``Content-Length`` above ``PUBLISH_MAX_BYTES`` (default :data:`archive.backup.MAX_PACKED_BYTES`)
   → 413, before a byte is read;
2. the key (``Authorization: Bearer …``, :func:`publishing.keys.check_key`, constant time) → 401
   unknown, 403 revoked (or its organiser no longer one);
3. the key's rate (``PUBLISH_RATE``, default ``120/m``, django-ratelimit counted per key prefix in
   the default cache; it fails open like the site's other limits) → 429 with ``Retry-After``;
4. the body, read in one bounded read of at most ``PUBLISH_MAX_BYTES`` + 1 bytes whatever
   ``Content-Length`` said (never ``request.body``) → 413 above the limit; empty → 400;
5. the signature (``X-Tarock-Signature: sha256=<hex HMAC-SHA256 of the body keyed with the key>``,
   ``hmac.compare_digest``) → 400;
6. the headers: ``X-Tarock-Tournament`` a UUID, ``X-Tarock-Version`` a whole number ≥ 0,
   ``X-Tarock-Base`` (a patch's) a whole number below it → 400;
7. the mirror of that uid, if there is one: published by another organiser → 403; holding a
   newer version than the backup the venue's tournament was restored from
   (``X-Tarock-Restored-From``, a whole number not above the version, else 400) → 409
   ``{"code": "newer", "held": <the mirror's version>, "url": …}`` (its hands saved after that
   backup would be lost: the venue's director decides); holding this version or a newer one →
   ``200 {"status": "ignored"}`` (before the archive is unpacked);
8. the archive, checked as content exactly as a restore checks it
   (:func:`archive.backup.checked_archive`) → 400 with the restore's reason; its tournament's
   ``uid`` and ``data_version`` must be the headers' → 400. A patch
   (:func:`archive.patch.check_patch`): the mirror's copy must be the base, its version the
   header's and its sheet stamps the patch's → 409 (the venue sends the whole archive then); its
   rows are checked by the same checks, against the copy's tournament, tables and seats → 400.

A patch is written in one transaction too (:func:`_take_patch`): the mirror row locked, its
owner, version and base checked again under the lock, the changed tables' hands replaced in the
copy (:func:`archive.patch.apply_patch`), the mirror's version set. The copy keeps its id and
every address; its data version becomes the patch's version (its layout version stays).

Otherwise, one transaction: the :class:`~publishing.models.Mirror` row is locked (``select_for_update``;
made on the first push, so two first pushes at once take turns as well), the owner and version
checked again under the lock, the archive restored as a new tournament
(:func:`archive.backup.restore` with ``mirror_of``: read-only from its ``INSERT``, no roles, no
user linked, its data version the venue's), the mirror pointed at it, the old copy's id recorded
as a :class:`~publishing.models.MirrorAlias` and the old copy deleted (its rendered exports once
the transaction committed). A viewer sees the old version or the new one, never a mix. Nothing
in it calls :func:`tournaments.versioning.touch`. A database failure on the way is answered 503
with ``Retry-After`` (the venue sends it again), its details only in the log.

Decisions where the protocol is silent:

- **Who may update a mirror**: any key of the organiser who published it first (a revoked key
  replaced by a new one keeps publishing the same tournament); the mirror then records the key
  that pushed last, whose cup it follows. Another organiser's key gets 403.
- **The cup**: the key's cup, while its organiser still keeps that cup and the cup ranks the
  tournament's ruleset; otherwise none (the push is stored, the log says why). The archive's
  own cup name is not used. The cup's log records the mirror joining or leaving, not each version.
- **Source**: ``X-Tarock-Source`` is read as UTF-8 (Latin-1 where it is not), percent-encoding
  undone, controls and invisible characters removed, at most 300 characters; empty → "a venue"
  (in the site's language).
- **Old addresses**: for the alias middleware (:mod:`publishing.middleware`) each old copy's
  registrations (→ player) and tables (→ round and table number) are kept in the cache for
  ``PUBLISH_ALIAS_SECONDS`` (default a day): a phone showing a player's page or a table's sheet
  follows the mirror to its new copy.

Every push is logged: a :class:`~publishing.models.PushLog` row (outcome, status, reason, size,
address, milliseconds) and a line in the ``publishing`` logger (INFO stored/ignored, WARNING
refused).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import shutil
import time
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction
from django.http import JsonResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from archive import backup
from archive import patch as patches
from scoring.cups.roles import log_tournament_cup, may_manage_cup
from tournaments import text
from tournaments.links import absolute
from tournaments.models import Registration, Round, Table, Tournament
from tournaments.ratelimits import client_address

from . import keys
from .models import Mirror, MirrorAlias, PublishingKey, PushLog

log = logging.getLogger("publishing")

RATE_GROUP = "publish-push"
MAX_VERSION = 2**63 - 1
LAST_USED_SECONDS = 60  # a key's "last used" is written at most this often
# Cache keys of an old copy's registrations and tables (publishing.middleware reads them).
REGISTRATION_KEY = "publishing:registration:{}"
TABLE_KEY = "publishing:table:{}"


class PushRefused(Exception):
    """A push answered with ``status`` and ``{"error": message}`` (and ``extra``'s fields);
    nothing changed. ``retry_after``: seconds, for a 429."""

    def __init__(self, status: int, message: str, retry_after: int | None = None, extra: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.retry_after, self.extra = status, str(message), retry_after, extra or {}


@dataclass
class _Push:
    """What is known of a push so far, for its answer and its log."""

    address: str
    key: PublishingKey | None = None
    uid: uuid.UUID | None = None
    version: int | None = None
    size: int = 0
    note: str = ""  # something the log should say of a stored push (the cup left out)
    restored_from: int | None = None  # X-Tarock-Restored-From


def max_bytes() -> int:
    """The largest push taken: ``PUBLISH_MAX_BYTES``, by default (and at most, since a restore
    reads no more) :data:`archive.backup.MAX_PACKED_BYTES`."""
    return min(getattr(settings, "PUBLISH_MAX_BYTES", None) or backup.MAX_PACKED_BYTES, backup.MAX_PACKED_BYTES)


def mirror_url(uid) -> str:
    """The stable public address of the mirror of ``uid`` (``/m/<uid>/``, absolute)."""
    return absolute(f"/m/{uid}/")


# ------------------------------------------------------------------------------------ checks


def _too_large(size: int, limit: int) -> PushRefused:
    return PushRefused(
        413,
        _("The push is %(size)s bytes; this site takes archives of at most %(limit)s bytes. Nothing was stored.")
        % {"size": size, "limit": limit},
    )


def _content_length(request) -> int | None:
    raw = request.META.get("CONTENT_LENGTH") or ""
    return int(raw) if raw.isdigit() and len(raw) <= 19 else None


def _bearer(request) -> str:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _sep, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise PushRefused(401, _("The push carries no publishing key (the header “Authorization: Bearer <key>”)."))
    return value.strip()


def _rate_limited(request, key: PublishingKey) -> int | None:
    """Seconds to wait when ``key`` is over ``PUBLISH_RATE``, else ``None`` (counts this push)."""
    usage = get_usage(
        request, group=RATE_GROUP, key=lambda _group, _request: key.prefix, rate=settings.PUBLISH_RATE, increment=True
    )
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def _read_body(request, limit: int) -> bytes:
    """The body, read once and bounded: at most ``limit`` + 1 bytes are ever held. Never
    ``request.body``, which refuses more than ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    body = request.read(limit + 1)
    if len(body) > limit:
        raise _too_large(len(body), limit)
    if not body:
        raise PushRefused(400, _("The push has no body: it must carry the tournament's archive."))
    return body


def signature(key_text: str, body: bytes) -> str:
    """The ``X-Tarock-Signature`` value of ``body`` pushed with ``key_text``: ``sha256=<hex>``."""
    return "sha256=" + hmac.new(key_text.encode(), body, hashlib.sha256).hexdigest()


def _check_signature(request, key_text: str, body: bytes) -> None:
    presented = request.META.get("HTTP_X_TAROCK_SIGNATURE", "").strip()
    scheme, _sep, value = presented.partition("=")
    expected = hmac.new(key_text.encode(), body, hashlib.sha256).hexdigest()
    # compare_digest wants ASCII on both sides: anything else cannot match anyway.
    value = value.lower() if value.isascii() else ""
    if scheme.lower() != "sha256" or not hmac.compare_digest(value, expected):
        raise PushRefused(
            400,
            _("The signature (X-Tarock-Signature) does not match the body: it was changed on its way or signed with another key. Nothing was stored."),
        )


def _mark_used(key: PublishingKey) -> None:
    """Set the key's ``last_used`` (shown on its organiser's page) to now, unless it was set in the
    last :data:`LAST_USED_SECONDS`: a venue pushing every second would otherwise write the key's
    row once a second, a commit of its own, for a time shown to the minute."""
    now = timezone.now()
    if key.last_used is None or (now - key.last_used).total_seconds() >= LAST_USED_SECONDS:
        PublishingKey.objects.filter(pk=key.pk).update(last_used=now)
        key.last_used = now


def _headers(request) -> tuple[uuid.UUID, int]:
    raw_uid = request.META.get("HTTP_X_TAROCK_TOURNAMENT", "").strip()
    try:
        uid = uuid.UUID(raw_uid)
    except ValueError:
        raise PushRefused(400, _("The header X-Tarock-Tournament must be the tournament's identifier (a UUID), not “%(value)s”.") % {"value": raw_uid[:60]}) from None
    raw_version = request.META.get("HTTP_X_TAROCK_VERSION", "").strip()
    version = _version_number(raw_version)
    if version is None:
        raise PushRefused(400, _("The header X-Tarock-Version must be the tournament's data version (a whole number from 0), not “%(value)s”.") % {"value": raw_version[:40]})
    return uid, version


def _version_number(raw: str) -> int | None:
    """``raw`` (a header's value, stripped) as a data version: a whole number from 0 to
    :data:`MAX_VERSION` in ASCII digits; ``None`` for anything else."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19):
        return None
    number = int(raw)
    return number if number <= MAX_VERSION else None


def _base(request, version: int) -> int | None:
    """The version a patch changes (``X-Tarock-Base``), or ``None`` for a whole archive."""
    raw = request.META.get("HTTP_X_TAROCK_BASE")
    if raw is None:
        return None
    raw = raw.strip()
    base = _version_number(raw)
    if base is None or base >= version:
        raise PushRefused(400, _("The header X-Tarock-Base must be the version the patch changes (a whole number below the push's version), not “%(value)s”.") % {"value": raw[:40]})
    return base


def _restored_from(request, version: int) -> int | None:
    """The version of the backup the venue's tournament was restored from
    (``X-Tarock-Restored-From``), or ``None`` without the header."""
    raw = request.META.get("HTTP_X_TAROCK_RESTORED_FROM")
    if raw is None:
        return None
    raw = raw.strip()
    restored = _version_number(raw)
    if restored is None or restored > version:
        raise PushRefused(400, _("The header X-Tarock-Restored-From must be the version of the backup the tournament was restored from (a whole number not above the push's version), not “%(value)s”.") % {"value": raw[:40]})
    return restored


def _check_not_newer(mirror: Mirror | None, push: _Push) -> None:
    """409 "newer" when the venue's tournament was restored from a backup older than the version
    the mirror holds: the mirror has hands the venue lacks, which a push would drop."""
    if push.restored_from is None or mirror is None or mirror.tournament_id is None or mirror.version <= push.restored_from:
        return
    raise PushRefused(
        409,
        _("This site holds version %(held)s of the tournament, newer than the backup it was restored from at the venue (version %(restored)s): hands saved after that backup are here, not there. Nothing was stored; publish over it at the venue to replace it.")
        % {"held": mirror.version, "restored": push.restored_from},
        extra={"code": "newer", "held": mirror.version, "url": mirror_url(mirror.uid)},
    )


def _not_the_base(held: int | None, base: int) -> PushRefused:
    """409: the mirror is not the version a patch changes; the venue sends the whole archive."""
    if held is None:
        return PushRefused(409, _("This site has no copy of the tournament yet: send the whole archive."))
    return PushRefused(409, _("This site holds version %(held)s of the tournament, not version %(base)s that the patch changes: send the whole archive.") % {"held": held, "base": base})


def clean_source(raw: str) -> str:
    """``X-Tarock-Source`` as text to show: its bytes read as UTF-8 (as Latin-1 where they are
    not), percent-encoding undone, line breaks and tabs as spaces, controls and invisible
    characters removed, spaces collapsed, at most 300 characters ("" for none)."""
    try:
        value = raw.encode("latin-1").decode("utf-8")  # WSGI hands headers over as Latin-1
    except (UnicodeEncodeError, UnicodeDecodeError):
        value = raw
    if re.search(r"%[0-9A-Fa-f]{2}", value):
        try:
            value = unquote(value, errors="strict")
        except UnicodeDecodeError:
            pass
    value = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") and c.isspace() else c for c in value)
    return " ".join(text.visible(value).split())[:300]


def _fallback_source() -> str:
    with translation.override(settings.LANGUAGE_CODE):
        return _("a venue")


def _owner_refusal() -> PushRefused:
    return PushRefused(403, _("This tournament is published on this site by another organiser: this key cannot update it. Nothing was stored."))


def _other_owner(mirror: Mirror, key: PublishingKey) -> bool:
    if mirror.key_id == key.pk:
        return False
    return not PublishingKey.objects.filter(pk=mirror.key_id, user_id=key.user_id).exists()


def _cup_for(key: PublishingKey, ruleset_key: str, push: _Push):
    """The cup a mirror published with ``key`` joins (see the module: decisions), or ``None``."""
    cup = key.cup
    if cup is None:
        return None
    if not may_manage_cup(key.user, cup):
        push.note = _("not in the cup “%(cup)s”: the key's organiser no longer keeps it") % {"cup": cup.name}
        return None
    if cup.ruleset != ruleset_key:
        push.note = _("not in the cup “%(cup)s”: it ranks another ruleset") % {"cup": cup.name}
        return None
    return cup


# --------------------------------------------------------------------------------------- swap


def _delete_copy(tournament_id: int) -> None:
    """Delete a mirror's old copy with everything in it, inside the caller's transaction. Its
    hands, their flags and their history go by plain ``DELETE`` statements (no history entry per
    deleted hand, which a mirror replaced at every version would pile up), the rest as
    :func:`archive.backup.delete_with_backup` deletes a tournament."""
    from scoring.models import Hand, HandFlag

    quote = connection.ops.quote_name
    hands = Hand.objects.filter(table__round__tournament_id=tournament_id).values("pk")
    tables = Table.objects.filter(round__tournament_id=tournament_id).values("pk")
    with connection.cursor() as cursor:
        for model, column, subquery in (
            (HandFlag, "hand_id", hands),
            (Hand.history.model, "table_id", tables),
            (Hand, "table_id", tables),
        ):
            sql, params = subquery.query.sql_with_params()
            cursor.execute(f"DELETE FROM {quote(model._meta.db_table)} WHERE {quote(column)} IN ({sql})", params)
    Round.objects.filter(tournament_id=tournament_id).delete()
    Tournament.objects.filter(pk=tournament_id).delete()
    transaction.on_commit(lambda: _remove_exports(tournament_id))


def _remove_exports(tournament_id: int) -> None:
    """Remove the rendered exports of a deleted copy (``exports/<id>/`` of
    :func:`scoring.exporters.base.storage_name`, on the file system storage; another storage keeps
    them until its own clean-up): each whole version of a mirror is a copy of its own, whose files
    nobody asks for again."""
    from django.core.files.storage import default_storage

    try:
        folder = Path(default_storage.path(f"exports/{int(tournament_id)}"))
    except NotImplementedError:
        return
    shutil.rmtree(folder, ignore_errors=True)


def _remember_old_addresses(tournament_id: int, mirror_id: int) -> dict:
    """``{cache key: value}`` of the old copy's registrations (→ ``(mirror id, player id)``) and
    tables (→ ``(mirror id, round number, table number)``), read before it is deleted."""
    found = {
        REGISTRATION_KEY.format(pk): (mirror_id, player)
        for pk, player in Registration.objects.filter(tournament_id=tournament_id).values_list("pk", "player_id")
    }
    found.update(
        (TABLE_KEY.format(pk), (mirror_id, round_number, number))
        for pk, round_number, number in Table.objects.filter(round__tournament_id=tournament_id).values_list("pk", "round__number", "number")
    )
    return found


def _store_addresses(addresses: dict) -> None:
    if addresses:
        try:
            cache.set_many(addresses, timeout=int(getattr(settings, "PUBLISH_ALIAS_SECONDS", 24 * 3600)))
        except Exception:  # a cache outage: the old sub-pages lead to the tournament's page only
            log.warning("could not keep the old addresses of a mirror's copy in the cache", exc_info=True)


def _swap(checked, key: PublishingKey, push: _Push, source: str, cup) -> tuple[str, Mirror]:
    """Store version ``push.version`` of the mirror of ``push.uid`` (see the module). Returns
    ``("stored" | "ignored", the mirror)``; raises :class:`PushRefused` (403: another
    organiser's) or :class:`archive.backup.BackupRefused` with nothing changed."""
    with transaction.atomic():
        mirror, created = Mirror.objects.select_for_update().get_or_create(
            uid=push.uid, defaults={"key": key, "version": push.version}
        )
        if not created:
            if _other_owner(mirror, key):
                raise _owner_refusal()
            _check_not_newer(mirror, push)
            if mirror.tournament_id is not None and push.version <= mirror.version:
                return PushLog.Outcome.IGNORED, mirror
        old_id = mirror.tournament_id
        old_cup_id = Tournament.objects.filter(pk=old_id).values_list("cup_id", flat=True).first() if old_id else None
        restored = backup.restore(None, None, checked=checked, mirror_of=source or _fallback_source(), cup=cup)
        mirror.tournament = restored.tournament
        mirror.key = key
        mirror.version = push.version
        mirror.source = source
        mirror.updated = timezone.now()
        mirror.save()
        if old_id is not None:
            MirrorAlias.objects.get_or_create(tournament_id=old_id, defaults={"mirror": mirror})
            # Kept at once, not on commit: they name the player and the table, not a copy, so they
            # are right whether this commits or not (and unused while the old copy exists).
            _store_addresses(_remember_old_addresses(old_id, mirror.pk))
            _delete_copy(old_id)
        if old_cup_id != restored.tournament.cup_id:
            log_tournament_cup(restored.tournament, old_cup_id, key.user)
    return PushLog.Outcome.STORED, mirror


def _take_patch(body: bytes, key: PublishingKey, push: _Push, source: str, mirror: Mirror | None, base: int) -> tuple[str, Mirror]:
    """Check the patch ``body`` from version ``base`` against the mirror's copy and write it
    into the copy in place (:mod:`archive.patch`). Raises :class:`PushRefused`: 409 when the
    copy is not that version (the venue sends the whole archive then), 400 for a patch the checks
    refuse."""
    if mirror is None or mirror.tournament_id is None or mirror.version != base:
        raise _not_the_base(mirror.version if mirror is not None and mirror.tournament_id is not None else None, base)
    copy = mirror.tournament  # read with the mirror
    if copy is None:
        raise _not_the_base(None, base)
    try:
        checked = patches.check_patch(body, copy, str(push.uid), push.version, base)
    except patches.PatchDoesNotFit as refused:
        raise PushRefused(409, refused.message) from None  # the copy is not the base: the whole archive
    except backup.BackupRefused as refused:
        raise PushRefused(400, refused.message) from None
    cup = _cup_for(key, copy.ruleset, push)
    with transaction.atomic():
        mirror = Mirror.objects.select_for_update().get(pk=mirror.pk)
        if _other_owner(mirror, key):
            raise _owner_refusal()
        _check_not_newer(mirror, push)
        if mirror.tournament_id is not None and push.version <= mirror.version:
            return PushLog.Outcome.IGNORED, mirror
        if mirror.version != base or mirror.tournament_id != checked.copy_id:
            raise _not_the_base(mirror.version if mirror.tournament_id is not None else None, base)
        patches.apply_patch(checked)
        shown_source = source or _fallback_source()
        changes = {name: value for name, value in (("mirrored_from", shown_source), ("cup_id", cup.pk if cup else None))
                   if getattr(copy, name) != value}
        if changes:
            Tournament.objects.filter(pk=copy.pk).update(**changes)
        if "cup_id" in changes:
            old_cup_id = copy.cup_id
            copy.refresh_from_db()
            log_tournament_cup(copy, old_cup_id, key.user)
        mirror.key = key
        mirror.version = push.version
        mirror.source = source
        mirror.updated = timezone.now()
        mirror.save()
    return PushLog.Outcome.STORED, mirror


# ------------------------------------------------------------------------------------- answer


def _take(request, push: _Push) -> tuple[str, Mirror]:
    """``(outcome, the mirror)`` of the push ``request``; raises :class:`PushRefused`."""
    limit = max_bytes()
    length = _content_length(request)
    if length is not None and length > limit:
        push.size = length
        raise _too_large(length, limit)
    key_text = _bearer(request)
    try:
        key = keys.check_key(key_text)
    except keys.KeyRefused as refused:
        push.key = refused.key
        raise PushRefused(refused.status, refused.message) from None
    push.key = key
    wait = _rate_limited(request, key)
    if wait is not None:
        raise PushRefused(429, ngettext("Too many pushes with this key: wait %(seconds)s second.", "Too many pushes with this key: wait %(seconds)s seconds.", wait) % {"seconds": wait}, retry_after=wait)
    body = _read_body(request, limit)
    push.size = len(body)
    _check_signature(request, key_text, body)
    push.uid, push.version = _headers(request)
    _mark_used(key)
    source = clean_source(request.META.get("HTTP_X_TAROCK_SOURCE", ""))

    base = _base(request, push.version)
    push.restored_from = _restored_from(request, push.version)

    mirror = Mirror.objects.select_related("tournament").filter(uid=push.uid).first()
    if mirror is not None:
        if _other_owner(mirror, key):
            raise _owner_refusal()
        _check_not_newer(mirror, push)
        if mirror.tournament_id is not None and push.version <= mirror.version:
            return PushLog.Outcome.IGNORED, mirror
    if base is not None:
        return _take_patch(body, key, push, source, mirror, base)

    try:
        checked = backup.checked_archive(body)
    except backup.BackupRefused as refused:
        raise PushRefused(400, refused.message) from None
    del body
    if checked.uid != str(push.uid):
        raise PushRefused(
            400,
            _("The archive holds another tournament (identifier %(archive)s) than the push names (%(header)s). Nothing was stored.")
            % {"archive": checked.uid or "–", "header": push.uid},
        )
    if checked.data_version != push.version:
        raise PushRefused(
            400,
            _("The archive holds version %(archive)s of the tournament, the push names version %(header)s. Nothing was stored.")
            % {"archive": checked.data_version if checked.data_version is not None else "–", "header": push.version},
        )
    cup = _cup_for(key, checked.ruleset.key, push)
    try:
        return _swap(checked, key, push, source, cup)
    except backup.BackupRefused as refused:
        if isinstance(refused.__cause__, DatabaseError):  # the database, not the archive: send it again
            raise refused.__cause__ from None
        raise PushRefused(400, refused.message) from None


def take_push(request) -> JsonResponse:
    """Answer the push ``request`` (see the module) and log it (:class:`PushLog`, the
    ``publishing`` logger)."""
    started = time.monotonic()
    push = _Push(address=client_address(request))
    try:
        outcome, mirror = _take(request, push)
        response = JsonResponse({"status": str(outcome), "version": mirror.version, "url": mirror_url(mirror.uid)})
        reason = push.note
    except PushRefused as refused:
        response = JsonResponse({"error": refused.message, **refused.extra}, status=refused.status)
        if refused.retry_after is not None:
            response["Retry-After"] = str(refused.retry_after)
        outcome, reason = PushLog.Outcome.REFUSED, refused.message
    except DatabaseError as error:  # the database, not the push: the venue sends it again
        log.exception("a push could not be stored")
        response = JsonResponse({"error": _("The site could not store the push just now; it will be taken when it is sent again.")}, status=503)
        response["Retry-After"] = "10"
        outcome, reason = PushLog.Outcome.REFUSED, str(error)
    _log(push, outcome, response.status_code, reason, (time.monotonic() - started) * 1000)
    return response


def _log(push: _Push, outcome: str, status: int, reason: str, milliseconds: float) -> None:
    level = logging.INFO if outcome != PushLog.Outcome.REFUSED else logging.WARNING
    log.log(
        level, "push %s %s: key %s, tournament %s, version %s, %s bytes from %s in %.0f ms%s",
        outcome, status, push.key.prefix if push.key else "-", push.uid or "-", push.version if push.version is not None else "-",
        push.size, push.address, milliseconds, f": {reason}" if reason else "",
    )
    try:
        PushLog.objects.create(
            key=push.key, uid=push.uid, version=push.version, outcome=outcome, status=status,
            reason=reason, size=push.size, address=push.address[:64], milliseconds=milliseconds,
        )
    except DatabaseError:
        log.exception("a push could not be logged")
