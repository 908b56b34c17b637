"""Getting back into an account without e-mail: the one-time password an organiser sets, and
whether the site may send password-reset links at all.

**Reset links only by a real mail server.** Without ``EMAIL_HOST`` the site would "send" mail to
the console backend, i.e. print the reset link (a key to the account) into the server's log.
:func:`mail_configured` is false then, and the reset page sends nothing and tells the user to ask
his tournament's organiser instead.

**One-time passwords.** On a tournament's Roles page its organiser sets a generated password for a
user who holds a role there (:func:`set_one_time_password`); it is shown to him once, to pass on.
Who set it, in which tournament and when is recorded in a
:class:`~tournaments.models.OneTimePassword`, one per user (the site administrator sees them,
read-only, in the admin), with :func:`check`, a keyed digest of the password's hash as set: a
password set since in another way (in the admin, by ``manage.py changepassword``) is no one-time
password, and its login is an ordinary one that drops the stale record.

His next login with it is not a login but the way to choose a new password
(:mod:`tournaments.views_accounts`): the one-time password stops working at that moment
(:func:`one_time_used` replaces it with a random one nobody knows), and only the session that used
it may choose the new one, for :data:`CHOOSE_WITHIN_SECONDS`. That login is refused, and the
password ends unused (:func:`login_refusal`), once it is older than :data:`VALID_SECONDS` or when
the organiser who set it could not set it now (:func:`one_time_refusal`: the user gained rights
since, the organiser lost his, either was switched off): whoever knows it could otherwise act as
the user with rights its organiser never had.

**Who may get one** (:func:`one_time_refusal`): a user who holds a role in the organiser's
tournament, who is active, not the organiser himself, not a superuser and not staff (the admin's
login would let him in without choosing). And, as whoever knows the password can act as the user,
only a user who can do nothing the organiser cannot do himself: every tournament he holds a role
in is one the organiser organises, every cup he keeps one the organiser keeps, and he has no
site-wide permission the organiser lacks. Everyone else asks the site administrator. Every
one-time password set is in the tournament's action log ("role given", with a detail).

A one-time sign-in link (:mod:`tournaments.sign_in_links`) is the other way in, for someone who has
no password yet: the same rules, the same validity, the same page to choose the password.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import OneTimePassword, Tournament, TournamentRole

from . import actions, signals
from .errors import Refused
from .permissions import Level, role_of

# How long a one-time password may be used after it was set.
VALID_SECONDS = 24 * 60 * 60
# How long the session that used a one-time password may take to choose the new one.
CHOOSE_WITHIN_SECONDS = 15 * 60
# Mail backends that write a message where a log is kept: never used for a reset link.
LOGGING_MAIL_BACKENDS = (
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
)
# Letters and digits that cannot be mistaken for each other when read out or copied by hand.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class PasswordRefused(Refused):
    """A one-time password that may not be set; ``message`` says why, translated."""


def mail_configured() -> bool:
    """Whether password-reset links may be sent: an SMTP server is named (``EMAIL_HOST``) and the
    mail backend is not one that writes the message into a log or a file."""
    return bool(settings.EMAIL_HOST) and settings.EMAIL_BACKEND not in LOGGING_MAIL_BACKENDS


def generate_password(groups: int = 3, size: int = 4) -> str:
    """A random password of ``groups`` groups of ``size`` characters from :data:`ALPHABET`, e.g.
    ``"k7mq-4vtx-9cpa"`` (about 59 bits for 3 × 4), easy to read out and type."""
    return "-".join("".join(secrets.choice(ALPHABET) for _i in range(size)) for _g in range(groups))


def check(password_hash: str) -> str:
    """A keyed digest (``SECRET_KEY``) of a user's stored password hash, 64 hexadecimal digits:
    whether his password is still the one a :class:`~tournaments.models.OneTimePassword` was
    recorded for, without keeping the hash twice."""
    return salted_hmac("tournaments.passwords.one_time", password_hash, algorithm="sha256").hexdigest()


def _digest(user, password_hash: str | None) -> str:
    return check(user.password if password_hash is None else password_hash)


def must_choose(user, password_hash: str | None = None) -> bool:
    """Whether ``user``'s password is a one-time password, so that his login must choose a new
    one: his :class:`~tournaments.models.OneTimePassword` holds the :func:`check` of his password
    hash (``password_hash``: the hash as it was before the login, which may re-hash it; by default
    the present one)."""
    if not user.is_authenticated:
        return False
    return one_time_record(user, password_hash) is not None


def one_time_record(user, password_hash: str | None = None) -> OneTimePassword | None:
    """The record of who set ``user``'s present password as a one-time password, where and when
    (``set_by_id``, ``tournament_id``, ``set_at``, aware), or ``None`` (no one-time password, or
    the one on record was replaced since). ``password_hash`` as for :func:`must_choose`."""
    if user.pk is None:
        return None
    return OneTimePassword.objects.filter(user_id=user.pk, password_check=_digest(user, password_hash)).first()


def _forget(user) -> None:
    """``user`` holds no one-time password any more: its record goes."""
    OneTimePassword.objects.filter(user_id=user.pk).delete()


def forget_replaced(user) -> None:
    """``user``'s password is no one-time password (set since in another way, e.g. in the admin):
    the record of one he held before goes."""
    _forget(user)


# What one_time_refusal is asked about: a one-time password, or a sign-in link
# (tournaments.sign_in_links), under the same rules.
ONE_TIME_PASSWORD = "password"
SIGN_IN_LINK = "link"


def one_time_refusal(tournament: Tournament, by, user, what: str = ONE_TIME_PASSWORD) -> str | None:
    """Why ``by`` may not set a one-time password for ``user`` in ``tournament`` (translated), or
    ``None`` when he may (see the module's rules). ``what`` is :data:`ONE_TIME_PASSWORD` or
    :data:`SIGN_IN_LINK` (the same rules; a refusal that names the thing names that one)."""
    name = user.get_username()
    if by is None or role_of(by, tournament.pk) != Level.ORGANISER:
        if what == SIGN_IN_LINK:
            return _("Only an organiser of this tournament makes sign-in links.")
        return _("Only an organiser of this tournament sets one-time passwords.")
    if user.pk == by.pk:
        return _("Not for yourself: log out and use “Forgotten your password?”, or ask the site administrator.")
    if not user.is_active:
        return _("%(name)s cannot log in (the account is switched off): ask the site administrator.") % {"name": name}
    if user.is_superuser or user.is_staff:
        return _("%(name)s works in the site's administration: only the site administrator sets his password.") % {"name": name}
    if not TournamentRole.objects.filter(tournament=tournament, user=user).exists():
        return _("%(name)s holds no role in this tournament.") % {"name": name}
    if by.is_superuser:
        return None
    elsewhere = TournamentRole.objects.filter(user=user).exclude(tournament=tournament).values_list("tournament_id", flat=True)
    more_rights = (
        any(role_of(by, tournament_id) != Level.ORGANISER for tournament_id in set(elsewhere))
        or _keeps_other_cups(user, by)
        or not user.get_all_permissions() <= by.get_all_permissions()
    )
    if more_rights:
        return _(
            "%(name)s may do things you may not (in other tournaments or cups, or on the whole site): "
            "only the site administrator sets his password."
        ) % {"name": name}
    return None


def _keeps_other_cups(user, by) -> bool:
    """Whether ``user`` keeps a cup ``by`` does not keep (:data:`tournaments.signals.cups_kept`;
    none without an app of cups)."""
    kept = signals.answer(signals.cups_kept, Tournament, user=user)
    return kept is not None and kept.exclude(pk__in=signals.answer(signals.cups_kept, Tournament, user=by)).exists()


def set_one_time_password(tournament: Tournament, role_id: int | None, by) -> tuple:
    """Set a new generated password for the user of role ``role_id`` of ``tournament`` and make
    his next login choose another, recording that ``by`` set it now in ``tournament`` (his
    :class:`~tournaments.models.OneTimePassword`; a one-time password he held before ends); lift a login lock on his user name; log it in the
    tournament's action log. The user's row is locked meanwhile, so two organisers (or a double
    click) setting one at once take turns: the one set last is the one that works. Returns
    ``(user, password)``: the password is not kept anywhere but in the user's hash, so this is the
    only time it can be shown. Raises :class:`PasswordRefused` for no such role or a user it may
    not be set for (:func:`one_time_refusal`); nothing is changed then."""
    with transaction.atomic():
        role = TournamentRole.objects.filter(tournament=tournament, pk=role_id).first() if role_id is not None else None
        if role is None:
            raise PasswordRefused(_("That user holds no role in this tournament (any more)."))
        user = get_user_model().objects.select_for_update().get(pk=role.user_id)
        refused = one_time_refusal(tournament, by, user)  # after the lock: what holds while it is set
        if refused:
            raise PasswordRefused(refused)
        password = generate_password()
        user.set_password(password)
        user.save(update_fields=["password"])
        OneTimePassword.objects.update_or_create(
            user=user, defaults={"set_by": by, "tournament": tournament, "set_at": timezone.now(), "password_check": check(user.password)}
        )
        actions.log(
            tournament.pk, actions.Action.ROLE_GIVEN, by, detail=_("One-time password set for %(name)s") % {"name": user.get_username()}
        )
    _lift_login_lock(user.get_username())
    return user, password


def login_refusal(user, now: datetime.datetime, password_hash: str | None = None) -> str | None:
    """Why ``user``, who just gave his one-time password at the login (:func:`must_choose`), may
    not use it at ``now`` (aware), translated and telling him to ask his organiser again; ``None``
    when he may. Refused: a password set more than :data:`VALID_SECONDS` ago (or without a record
    of it), and one the organiser who set it could not set now (:func:`one_time_refusal`),
    e.g. because the user may do more than he since, or he is no organiser of that tournament any
    more, or either is deleted. ``password_hash`` as for :func:`must_choose`."""
    record = one_time_record(user, password_hash)
    if record is None or not 0 <= (now - record.set_at).total_seconds() <= VALID_SECONDS:
        hours = VALID_SECONDS // 3600
        return ngettext(
            "This one-time password has expired: it works for %(hours)s hour after it is set. Ask your tournament's organiser for a new one.",
            "This one-time password has expired: it works for %(hours)s hours after it is set. Ask your tournament's organiser for a new one.",
            hours,
        ) % {"hours": hours}
    by = get_user_model().objects.filter(pk=record.set_by_id).first()
    tournament = Tournament.objects.filter(pk=record.tournament_id).first()
    if by is None or tournament is None or one_time_refusal(tournament, by, user) is not None:
        return _(
            "This one-time password works no more: your rights, or those of the organiser who set it, have changed since. "
            "Ask your tournament's organiser again."
        )
    return None


def _lift_login_lock(username: str) -> None:
    """Forget the failed logins of ``username`` (django-axes), so the one-time password works now."""
    from axes.utils import reset

    reset(username=username)


def one_time_used(user) -> None:
    """``user`` logged in with his one-time password, or was refused it (:func:`login_refusal`):
    it stops working (replaced by a random password nobody knows, so a reset by e-mail still
    finds him) and its record goes; after a login the session that used it chooses the new one."""
    with transaction.atomic():
        user.set_password(secrets.token_urlsafe(32))
        user.save(update_fields=["password"])
        _forget(user)


def password_chosen(user) -> None:
    """``user`` chose his own password (after a one-time password or a reset link): his next
    login is an ordinary one."""
    _forget(user)


def pending_user(session, now: float):
    """The user whose new password this ``session`` may choose (it used his one-time password less
    than :data:`CHOOSE_WITHIN_SECONDS` before ``now``, a Unix time), or ``None``."""
    pending = session.get(PENDING_KEY)
    if not isinstance(pending, dict) or not isinstance(pending.get("since"), (int, float)):
        return None
    if not 0 <= now - pending["since"] <= CHOOSE_WITHIN_SECONDS:
        return None
    return get_user_model().objects.filter(pk=pending.get("user"), is_active=True).first()


# The session's note of a one-time password used: {"user": pk, "since": Unix time, "next": URL}.
PENDING_KEY = "one_time_password_used"
