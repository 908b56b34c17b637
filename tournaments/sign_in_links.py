"""One-time sign-in links: how someone without a password (a scorer or director whose account the
organiser just created on the Roles page, or one who forgot his password) gets in, without e-mail,
a shell or the admin.

**Making one.** On a tournament's Roles page its organiser makes a link for a user who holds a role
there (:func:`make_link`); the rules of who may get one are those of a one-time password
(:func:`tournaments.passwords.one_time_refusal` with :data:`~tournaments.passwords.SIGN_IN_LINK`,
so that a refusal names the link: not himself, nobody who may do more than he may).
A link is made at once for an account the organiser creates by giving it a role
(:func:`tournaments.roles.give_role` with ``create=True``). The page shows the link once, with a QR
code for a phone to scan from the organiser's screen; a new link voids the one before (one per
user, :class:`~tournaments.models.SignInLink`).

**The key is kept nowhere.** A link is ``/accounts/sign-in/<key>/``. :func:`make_link` draws a
random *secret*; the key is a keyed digest of it (:func:`key_of`, ``SECRET_KEY``), and the database
keeps only a keyed digest of the key (:func:`key_check`). The secret waits in the organiser's
session until the Roles page has shown the link once, so neither the database nor the session
alone tells the key. The server's logs hide it (:mod:`config.log_filters`), and no answer to the
link lets a browser send its address on as a Referer or a ``next``
(:func:`tournaments.views_accounts.no_referrer`, :func:`~tournaments.views_accounts.refused_link`).

**Using one.** Opening the link (:class:`tournaments.views_accounts.SignInLinkView`) logs nobody in
and uses nothing up (a messenger's preview opening it changes nothing): a valid link gives this
browser's session the right to choose the user's password (the one-time password's page,
:class:`~tournaments.views_accounts.ChoosePasswordView`, for
:data:`~tournaments.passwords.CHOOSE_WITHIN_SECONDS`). Choosing it uses the link up
(:func:`use`, under a lock: of two browsers, only the first succeeds) and logs the user in. A
password the user had before works until then.

**Refused** (:func:`refusal`, a page that says why): a link used already, one older than
:data:`VALID_SECONDS` (as long as a one-time password), one voided (a newer one made, or the
user's role in its tournament taken away, :func:`revoke`), and one the organiser who made it could
not make now. Every link made and used is in the tournament's action log.
"""

from __future__ import annotations

import base64
import datetime
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import actions, links, passwords
from .errors import Refused
from .models import SignInLink, Tournament, TournamentRole

# How long a link may be used after it was made: as long as a one-time password.
VALID_SECONDS = passwords.VALID_SECONDS


class LinkRefused(Refused):
    """A link that may not be made or used; ``message`` says why, translated."""


def new_secret() -> str:
    """A random secret for a new link (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def key_of(secret: str) -> str:
    """The key in the link made from ``secret``: a keyed digest (``SECRET_KEY``), 43 URL-safe
    characters."""
    digest = salted_hmac("tournaments.sign_in_links.key", secret, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def key_check(key: str) -> str:
    """What the database keeps of a link's ``key``: a keyed digest, 64 hexadecimal digits."""
    return salted_hmac("tournaments.sign_in_links.check", key, algorithm="sha256").hexdigest()


def url_of(secret: str) -> str:
    """The absolute link made from ``secret``, on the public address phones reach
    (:func:`tournaments.links.absolute`)."""
    return links.absolute(reverse("sign_in_link", args=[key_of(secret)]))


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI for an ``<img>`` (the Content-Security-Policy allows
    ``data:`` images), black on white, about 250 px wide, for a phone to scan from a screen."""
    import segno

    return segno.make(url, error="m").svg_data_uri(scale=6, dark="#000", light="#fff")


def make_link(tournament: Tournament, role_id: int | None, by) -> tuple:
    """Make a new sign-in link for the user of role ``role_id`` of ``tournament``, made by ``by``
    now: the user's link made before (used or not) is replaced, so it works no more; logged in the
    tournament's action log. The user's row is locked meanwhile (two organisers or a double click
    take turns: the link made last is the one that works). His password is left as it is.
    Returns ``(user, secret)``: the link is :func:`url_of` ``secret``, which is kept nowhere, so
    this is the only time it can be shown. Raises :class:`LinkRefused` for no such role or a user
    who may not get one (:func:`tournaments.passwords.one_time_refusal`); nothing is changed then."""
    with transaction.atomic():
        role = TournamentRole.objects.filter(tournament=tournament, pk=role_id).first() if role_id is not None else None
        if role is None:
            raise LinkRefused(_("That user holds no role in this tournament (any more)."))
        user = get_user_model().objects.select_for_update().get(pk=role.user_id)
        refused = passwords.one_time_refusal(tournament, by, user, passwords.SIGN_IN_LINK)
        if refused:
            raise LinkRefused(refused)
        secret = new_secret()
        SignInLink.objects.update_or_create(
            user=user,
            defaults={"made_by": by, "tournament": tournament, "made_at": timezone.now(), "key_check": key_check(key_of(secret)), "used_at": None},
        )
        hours = VALID_SECONDS // 3600
        actions.log(
            tournament.pk,
            actions.Action.SIGN_IN_LINK_MADE,
            by,
            detail=ngettext(
                "Sign-in link made for %(name)s: it works once, for %(hours)s hour",
                "Sign-in link made for %(name)s: it works once, for %(hours)s hours",
                hours,
            ) % {"name": user.get_username(), "hours": hours},
        )
    return user, secret


def waiting(user, secret: str) -> bool:
    """Whether the link made from ``secret`` is still ``user``'s, unused (not replaced by a newer
    one, not used, not voided)."""
    return SignInLink.objects.filter(user_id=user.pk, key_check=key_check(key_of(secret)), used_at__isnull=True).exists()


def find(key: str) -> SignInLink | None:
    """The link whose key is ``key``, or ``None`` (never made, replaced by a newer one, voided)."""
    if not isinstance(key, str) or not 20 <= len(key) <= 100:
        return None
    return SignInLink.objects.filter(key_check=key_check(key)).select_related("user").first()


def expires_at(link: SignInLink) -> datetime.datetime:
    """When ``link`` stops working (aware)."""
    return link.made_at + datetime.timedelta(seconds=VALID_SECONDS)


def refusal(link: SignInLink | None, now: datetime.datetime) -> str | None:
    """Why ``link`` (from :func:`find`) may not be used at ``now`` (aware), translated and saying
    what to do; ``None`` when it may."""
    ask = _("Ask your tournament's organiser for a new sign-in link.")
    if link is None:
        return _(
            "This sign-in link does not work: a newer one was made since, the role it was made for was "
            "taken away, or it was copied incompletely."
        ) + " " + ask
    if link.used_at is not None:
        return _(
            "This sign-in link was used already, on %(when)s: it works only once. Log in with the password "
            "chosen then, or ask your tournament's organiser for a new link."
        ) % {"when": date_format(timezone.localtime(link.used_at), "SHORT_DATETIME_FORMAT")}
    if not 0 <= (now - link.made_at).total_seconds() <= VALID_SECONDS:
        hours = VALID_SECONDS // 3600
        return ngettext(
            "This sign-in link has expired: it works for %(hours)s hour after it is made.",
            "This sign-in link has expired: it works for %(hours)s hours after it is made.",
            hours,
        ) % {"hours": hours} + " " + ask
    by = get_user_model().objects.filter(pk=link.made_by_id).first()
    tournament = Tournament.objects.filter(pk=link.tournament_id).first()
    if by is None or tournament is None or passwords.one_time_refusal(tournament, by, link.user, passwords.SIGN_IN_LINK) is not None:
        return _(
            "This sign-in link works no more: your rights, or those of the organiser who made it, have changed since."
        ) + " " + ask
    return None


def pending_refusal(check: str, user, now: datetime.datetime) -> str | None:
    """:func:`refusal` of the link whose :func:`key_check` is ``check`` if it is ``user``'s (a
    session opened it and may choose his password), else of none."""
    return refusal(SignInLink.objects.filter(key_check=check, user_id=user.pk).select_related("user").first(), now)


def use(check: str, user, now: datetime.datetime) -> SignInLink:
    """Use the link whose :func:`key_check` is ``check`` for ``user`` at ``now``: it is marked used
    and logged in its tournament's action log, by ``user``; a one-time password he held ends
    (:func:`tournaments.passwords.password_chosen`). Call it in the transaction that sets his new
    password. The link's row is locked, so of two browsers choosing at once only the first gets
    through. Raises :class:`LinkRefused` (:func:`refusal`) when it may not be used (any more)."""
    link = SignInLink.objects.select_for_update().filter(key_check=check, user_id=user.pk).select_related("user").first()
    refused = refusal(link, now)
    if refused:
        raise LinkRefused(refused)
    link.used_at = now
    link.save(update_fields=["used_at"])
    passwords.password_chosen(user)
    actions.log(
        link.tournament_id,
        actions.Action.SIGN_IN_LINK_USED,
        user,
        detail=_("%(name)s chose a password through the sign-in link and is logged in") % {"name": user.get_username()},
    )
    return link


def revoke(tournament: Tournament, user) -> int:
    """Void ``user``'s sign-in link made in ``tournament`` (his role there is taken away); returns
    how many were voided (0 or 1)."""
    deleted, _per_model = SignInLink.objects.filter(tournament=tournament, user_id=user.pk, used_at__isnull=True).delete()
    return deleted
