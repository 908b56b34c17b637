"""Giving and taking roles in a tournament: only its organiser does, every change is logged (in
whole sentences, in the words of the organiser who made it), and a tournament never loses its last
organiser.

**Someone without an account.** The organiser gives a role by user name. When no account has that
name, :func:`give_role` says so (:class:`NoSuchUser`) and, asked again with ``create=True`` (the
Roles page's "create the account" button: a typo must not make an account), creates it without a
usable password and logs it; the Roles page then makes him a one-time sign-in link
(:mod:`tournaments.sign_in_links`) through which he chooses his password. A name that differs from
an existing one only in capitals is refused, naming the existing one, rather than making a second
"Anna" beside "anna". Taking a role away voids a sign-in link made in that tournament."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from . import actions, sign_in_links
from .errors import Refused
from .models import Tournament, TournamentRole
from .versioning import touch

Level = TournamentRole.Level


class RoleRefused(Refused):
    """A role change that cannot be made; ``message`` says why, translated."""


class NoSuchUser(RoleRefused):
    """No account has the user name given (``username``): :func:`give_role` with ``create=True``
    creates it."""

    def __init__(self, message, username: str):
        super().__init__(message)
        self.username = username


ORGANISERS = "Organisers"


def organisers_group():
    """The "Organisers" group (created by the migration that brought roles): who may create
    tournaments and cups and keep the player register, the permissions named in the setting
    ``ORGANISER_PERMISSIONS`` (``"app_label.codename"``, so that each app above this one names its
    own). Its permissions are set again if a site administrator removed some."""
    from django.contrib.auth.models import Group, Permission
    from django.db.models import Q

    group, _created = Group.objects.get_or_create(name=ORGANISERS)
    wanted = Q(pk__in=[])
    for name in settings.ORGANISER_PERMISSIONS:
        app_label, codename = name.split(".")
        wanted |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.add(*Permission.objects.filter(wanted))
    return group


def create_tournament_roles(tournament: Tournament, creator) -> None:
    """The creator of ``tournament`` becomes its organiser (logged as its creation); an anonymous
    creator (a management command) gives no role."""
    if creator is not None and creator.is_authenticated:
        TournamentRole.objects.get_or_create(tournament=tournament, user=creator, defaults={"level": Level.ORGANISER})
    actions.log(tournament.pk, actions.Action.CREATED, creator)


def give_role(tournament: Tournament, username: str, level: str, by=None, *, create: bool = False) -> TournamentRole:
    """Give user ``username`` the role ``level`` in ``tournament`` (replacing the one he has).
    Without an account of that name, raises :class:`NoSuchUser`, or with ``create`` creates it
    (no usable password, logged as "account created"); the role returned then has
    ``account_created`` true. Raises :class:`RoleRefused` for a switched-off user, a name that is
    no user name or differs from an existing one only in capitals, an unknown role, or when it
    would take the tournament's last organiser away; nothing is changed then."""
    if level not in Level.values:
        raise RoleRefused(_("Choose organiser, director or scorer."))
    name = username.strip()
    with transaction.atomic():
        touch(tournament.pk)  # locks the row: two organisers changing roles at once take turns
        user, created = _user_named(name, create, tournament, by)
        role = TournamentRole.objects.filter(tournament=tournament, user=user).first()
        if role is not None and role.level == level:
            role.account_created = False
            return role
        if role is not None and role.level == Level.ORGANISER:
            _keep_an_organiser(tournament, role)
        if role is None:
            role = TournamentRole.objects.create(tournament=tournament, user=user, level=level)
            # In the words of the organiser who gave it, as the log's other entries.
            detail = _("Role given: %(name)s as %(role)s") % {"name": user.get_username(), "role": role.get_level_display()}
        else:
            before = role.get_level_display()
            role.level = level
            role.save(update_fields=["level"])
            detail = _("Role changed: %(name)s from %(before)s to %(role)s") % {
                "name": user.get_username(), "before": before, "role": role.get_level_display(),
            }
        actions.log(tournament.pk, actions.Action.ROLE_GIVEN, by, detail=detail)
    role.account_created = created
    return role


def _user_named(name: str, create: bool, tournament: Tournament, by) -> tuple:
    """The active user called ``name`` and whether he was created now (see :func:`give_role`)."""
    users = get_user_model()
    user = users.objects.filter(**{users.USERNAME_FIELD: name}).first()
    if user is not None:
        if not user.is_active:
            raise RoleRefused(_("The account “%(name)s” is switched off: ask the site administrator.") % {"name": name})
        return user, False
    similar = users.objects.filter(**{f"{users.USERNAME_FIELD}__iexact": name}).first()
    if similar is not None:
        raise RoleRefused(
            _("There is no user “%(name)s”, but there is “%(existing)s”: give the role to that name, or choose another.")
            % {"name": name, "existing": similar.get_username()}
        )
    if not create:
        raise NoSuchUser(_("There is no account “%(name)s” yet.") % {"name": name}, name)
    try:
        users._meta.get_field(users.USERNAME_FIELD).run_validators(name)
    except ValidationError:
        raise RoleRefused(
            _("“%(name)s” cannot be a user name: one word of letters, digits and @ . + - _ (e.g. anna or anna.huber), at most 150 characters.")
            % {"name": name}
        ) from None
    try:
        with transaction.atomic():
            user = users.objects.create_user(name)  # no password given: an unusable one
    except IntegrityError:  # created by someone else a moment ago
        raise RoleRefused(_("The account “%(name)s” was created a moment ago by someone else: give the role again.") % {"name": name}) from None
    actions.log(
        tournament.pk, actions.Action.ACCOUNT_CREATED, by,
        detail=_("Account created: %(name)s, without a password until a sign-in link is used") % {"name": name},
    )
    return user, True


def remove_role(tournament: Tournament, role_id: int, by=None) -> bool:
    """Take role ``role_id`` away, and void its user's unused sign-in link made in this tournament
    (:func:`tournaments.sign_in_links.revoke`). Returns whether there was one. Raises
    :class:`RoleRefused` for the tournament's last organiser."""
    with transaction.atomic():
        touch(tournament.pk)
        role = TournamentRole.objects.filter(tournament=tournament, pk=role_id).select_related("user").first()
        if role is None:
            return False
        if role.level == Level.ORGANISER:
            _keep_an_organiser(tournament, role)
        role.delete()
        voided = sign_in_links.revoke(tournament, role.user)
        names = {"name": role.user.get_username(), "role": role.get_level_display()}
        if voided:
            detail = _("Role taken away: %(name)s was %(role)s; the sign-in link made for this role works no more") % names
        else:
            detail = _("Role taken away: %(name)s was %(role)s") % names
        actions.log(tournament.pk, actions.Action.ROLE_REMOVED, by, detail=detail)
    return True


def _keep_an_organiser(tournament: Tournament, leaving: TournamentRole) -> None:
    others = TournamentRole.objects.filter(tournament=tournament, level=Level.ORGANISER).exclude(pk=leaving.pk)
    if not others.exists():
        raise RoleRefused(_("A tournament keeps at least one organiser: give the role to someone else first."))
