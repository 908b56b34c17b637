"""Giving and taking roles in a tournament (issue 17): only its organiser does, every change is
logged, and a tournament never loses its last organiser."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from . import actions
from .errors import Refused
from .models import Tournament, TournamentRole
from .versioning import touch

Level = TournamentRole.Level


class RoleRefused(Refused):
    """A role change that cannot be made; ``message`` says why, translated."""


ORGANISERS = "Organisers"
ORGANISER_PERMISSIONS = ("add_tournament", "add_player", "change_player", "delete_player", "add_cup", "change_cup")


def organisers_group():
    """The "Organisers" group (created by the migration that brought roles): who may create
    tournaments and keep the player register. Its permissions are set again if a site
    administrator removed some."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=ORGANISERS)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="tournaments", codename__in=ORGANISER_PERMISSIONS)
    )
    return group


def create_tournament_roles(tournament: Tournament, creator) -> None:
    """The creator of ``tournament`` becomes its organiser (logged as its creation); an anonymous
    creator (a management command) gives no role."""
    if creator is not None and creator.is_authenticated:
        TournamentRole.objects.get_or_create(tournament=tournament, user=creator, defaults={"level": Level.ORGANISER})
    actions.log(tournament.pk, actions.Action.CREATED, creator)


def give_role(tournament: Tournament, username: str, level: str, by=None) -> TournamentRole:
    """Give user ``username`` the role ``level`` in ``tournament`` (replacing the one he has).
    Raises :class:`RoleRefused` for an unknown or inactive user, an unknown role, or when it would
    take the tournament's last organiser away."""
    if level not in Level.values:
        raise RoleRefused(_("Choose organiser, director or scorer."))
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise RoleRefused(_("There is no active user “%(name)s”.") % {"name": username.strip()})
    with transaction.atomic():
        touch(tournament.pk)  # locks the row: two organisers changing roles at once take turns
        role = TournamentRole.objects.filter(tournament=tournament, user=user).first()
        if role is not None and role.level == level:
            return role
        if role is not None and role.level == Level.ORGANISER:
            _keep_an_organiser(tournament, role)
        if role is None:
            role = TournamentRole.objects.create(tournament=tournament, user=user, level=level)
        else:
            role.level = level
            role.save(update_fields=["level"])
        # In the words of the organiser who gave it, as the log's other entries.
        actions.log(tournament.pk, actions.Action.ROLE_GIVEN, by, detail=f"{user.get_username()}: {role.get_level_display()}")
    return role


def remove_role(tournament: Tournament, role_id: int, by=None) -> bool:
    """Take role ``role_id`` away. Returns whether there was one. Raises :class:`RoleRefused`
    for the tournament's last organiser."""
    with transaction.atomic():
        touch(tournament.pk)
        role = TournamentRole.objects.filter(tournament=tournament, pk=role_id).select_related("user").first()
        if role is None:
            return False
        if role.level == Level.ORGANISER:
            _keep_an_organiser(tournament, role)
        role.delete()
        actions.log(tournament.pk, actions.Action.ROLE_REMOVED, by, detail=f"{role.user.get_username()}: {role.get_level_display()}")
    return True


def _keep_an_organiser(tournament: Tournament, leaving: TournamentRole) -> None:
    others = TournamentRole.objects.filter(tournament=tournament, level=Level.ORGANISER).exclude(pk=leaving.pk)
    if not others.exists():
        raise RoleRefused(_("A tournament keeps at least one organiser: give the role to someone else first."))
