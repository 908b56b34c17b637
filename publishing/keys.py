"""Publishing keys: made for an organiser (into one of his cups, if named), checked in constant
time, revoked.

A key reads ``tpk_<prefix>_<secret>``: ``prefix`` 10 hex digits (public: it finds the key, and
shows on the organiser's page and in the push log), ``secret`` from ``secrets.token_urlsafe(32)``
(256 bits). Only the prefix and the SHA-256 of the whole key (hex) are stored
(:class:`~publishing.models.PublishingKey`); the key itself is shown once, when it is made.

:func:`check_key` finds the key by its prefix and compares the hashes with
``hmac.compare_digest``; an unknown prefix is compared with a stand-in hash all the same, so the
answer takes as long whether the prefix exists or not. Unknown → :class:`KeyRefused` with status
401, revoked → 403.

Who may make a key (:func:`may_make_key`): an active user who may create tournaments
(``tournaments.add_tournament``, the "Organisers" group; a superuser), for himself; into a cup
only one he keeps (:func:`scoring.cups.roles.may_manage_cup`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.cups.roles import may_manage_cup
from tournaments.errors import Refused
from tournaments.versioning import PreparedQuery

from .models import PublishingKey

KEY_START = "tpk_"
# Who may publish: who may create tournaments (may_make_key asks it of the user, check_key in _PERMISSION).
PUBLISHING_PERMISSION = "tournaments.add_tournament"
PREFIX_LENGTH = 10
# The longest key text looked at: a made one is 4 + 10 + 1 + 43 characters.
MAX_KEY_LENGTH = 200
_KEY_FORM = re.compile(r"tpk_([0-9a-f]{10})_[A-Za-z0-9_\-]{20,150}")
# Compared with when no key has the presented prefix: the same work as for a real one.
_STAND_IN_HASH = hashlib.sha256(b"no such publishing key").hexdigest()


class KeyRefused(Refused):
    """A publishing key that cannot be used or made; ``message`` says why (translated) and
    ``status`` is the HTTP status a push is answered with (401 unknown, 403 revoked or not
    allowed); ``key`` the stored key refused, if it is one (for the log)."""

    def __init__(self, message, status: int = 403, key: PublishingKey | None = None):
        super().__init__(message)
        self.status = status
        self.key = key  # the key refused, when it is one of this site's (revoked …), for the log


def digest(key: str) -> str:
    """The SHA-256 of the whole key text, hex: what is stored."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def prefix_of(presented: str) -> str | None:
    """The prefix of a key of the right form, else ``None`` (nothing is looked up for it)."""
    found = _KEY_FORM.fullmatch(presented or "") if len(presented or "") <= MAX_KEY_LENGTH else None
    return found.group(1) if found else None


def may_make_key(user, cup=None) -> bool:
    """Whether ``user`` may make a publishing key for himself (into ``cup``, if given)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if not user.has_perm(PUBLISHING_PERMISSION):
        return False
    return cup is None or may_manage_cup(user, cup)


def make_key(user, cup=None, label: str = "") -> tuple[PublishingKey, str]:
    """Make a key that publishes tournaments as ``user``'s (into ``cup``, a
    :class:`~scoring.cups.models.Cup`, if given), with ``label`` (his words: "Gasthof Post").
    Returns ``(the stored key, the key text)``; the text is not stored and cannot be shown again.
    Raises :class:`KeyRefused` when ``user`` may not (:func:`may_make_key`)."""
    if not may_make_key(user):
        raise KeyRefused(_("Only organisers (who may create tournaments) make publishing keys."))
    if cup is not None and not may_make_key(user, cup):
        raise KeyRefused(
            _("Only the organisers of the cup “%(cup)s” may publish tournaments into it.") % {"cup": cup.name}
        )
    for _attempt in range(5):
        prefix = secrets.token_hex(PREFIX_LENGTH // 2)
        plain = f"{KEY_START}{prefix}_{secrets.token_urlsafe(32)}"
        try:
            with transaction.atomic():
                stored = PublishingKey.objects.create(
                    user=user, cup=cup, label=(label or "").strip()[:100], prefix=prefix, secret_hash=digest(plain)
                )
        except IntegrityError:  # another key has this prefix (1 in 10^12): draw again
            continue
        return stored, plain
    raise KeyRefused(_("No key could be made; try again."))  # pragma: no cover


def _permission_query(user_id):
    """Whether user ``user_id`` holds :data:`PUBLISHING_PERMISSION` himself, or through one of his
    groups: one row ``(by_user, by_group)`` (the two queries of Django's ``ModelBackend``, which
    :func:`may_make_key` asks, in one)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    app_label, codename = PUBLISHING_PERMISSION.split(".")
    granted = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    return (
        get_user_model().objects.filter(pk=user_id).order_by()
        .values_list(Exists(granted.filter(user=OuterRef("pk"))), Exists(granted.filter(group__user=OuterRef("pk"))))
    )


# Compiled (and on PostgreSQL planned) once per connection: building and planning it took
# several times the key's own query, on every push.
_PERMISSION = PreparedQuery(_permission_query, arity=1)


def check_key(presented: str | None) -> PublishingKey:
    """The stored key of the key text ``presented`` (with its user and cup loaded). Raises
    :class:`KeyRefused`: 401 for no key, a malformed one or one this site does not have, 403 for
    a revoked key or one whose user can no longer publish (inactive, no longer an organiser: as
    :func:`may_make_key` says, read in one prepared query). The hashes are compared in constant
    time, also when no key has the prefix."""
    presented = presented or ""
    prefix = prefix_of(presented)
    found = None
    if prefix is not None:
        found = PublishingKey.objects.select_related("user", "cup").filter(prefix=prefix).first()
    # Always one comparison of two SHA-256 hex digests, whatever was found.
    expected = found.secret_hash if found is not None else _STAND_IN_HASH
    matches = hmac.compare_digest(digest(presented[:MAX_KEY_LENGTH]), expected)
    if found is None or not matches:
        raise KeyRefused(_("This publishing key is not known on this site: check it, or make a new one on the site's “Publishing keys” page."), status=401)
    if found.revoked is not None:
        raise KeyRefused(_("This publishing key was revoked: make a new one on the site's “Publishing keys” page."), status=403, key=found)
    user = found.user
    if not (user.is_active and (user.is_superuser or any(_PERMISSION.rows(user.pk)[0]))):
        raise KeyRefused(_("The organiser of this publishing key may no longer publish tournaments on this site."), status=403, key=found)
    return found


def revoke(key: PublishingKey) -> bool:
    """Revoke ``key`` now (it publishes nothing from now on; its mirrors stay as they are).
    Returns whether it was revoked by this call (``False``: it was already)."""
    now = timezone.now()
    done = PublishingKey.objects.filter(pk=key.pk, revoked__isnull=True).update(revoked=now)
    if done:
        key.revoked = now
    return bool(done)


def keys_of(user):
    """The keys of ``user``, newest first, with their cups."""
    return PublishingKey.objects.filter(user=user).select_related("cup").order_by("-created")
