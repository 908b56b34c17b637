"""Who keeps a season cup, and the cup's action log.

A cup is kept by its organisers (:attr:`~scoring.cups.models.Cup.organisers`): whoever creates it is
the first, and they name the others by user name. Only they and a superuser (the site
administrator) change the cup's settings and sub-rankings, import results into it or remove them,
and name or remove its organisers; everyone else gets 403. Creating a cup needs the site-wide
permission ``cups.add_cup`` (the "Organisers" group); keeping one needs no group, as a
tournament's roles need none.

Every command on a cup writes one :class:`~scoring.cups.models.CupAction` (who, when, what) with
:func:`log_cup`, inside the command's own transaction, so the log holds exactly what happened. A
tournament joining or leaving a cup (on the tournament's form) is logged by
:func:`log_tournament_cup`; :func:`may_put_in_cup` says whether the user may put a tournament in a
cup at all (only the cup's organisers may).

The tournaments app, below the cups, asks through its signals (:mod:`tournaments.signals`,
connected in :class:`scoring.cups.apps.CupsConfig`): :func:`cups_kept` answers which cups a user
keeps (its tournament form offers those), :func:`cup_changed` logs a tournament's change of cup.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.mixins import AccessMixin
from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.cups.models import Cup, CupAction
from tournaments.errors import Refused
from tournaments.permissions import acting_user

Action = CupAction.Action


class CupRefused(Refused):
    """A change of a cup's organisers that cannot be made; ``message`` says why, translated."""


def _active(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def may_manage_cup(user, cup: Cup | int) -> bool:
    """Whether ``user`` keeps cup ``cup`` (a :class:`Cup` or its id): an active superuser, or an
    active user among the cup's organisers. Anonymous and inactive users never do."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    cup_id = cup.pk if isinstance(cup, Cup) else cup
    return Cup.organisers.through.objects.filter(cup_id=cup_id, user_id=user.pk).exists()


def managed_cups(user) -> QuerySet:
    """The cups ``user`` keeps (every cup for a superuser, none for anonymous or inactive users)."""
    if not _active(user):
        return Cup.objects.none()
    if user.is_superuser:
        return Cup.objects.all()
    return Cup.objects.filter(organisers=user)


def may_put_in_cup(user, cup: Cup | None, current_cup_id: int | None = None) -> bool:
    """Whether ``user`` may let a tournament whose cup is ``current_cup_id`` be in ``cup``: no cup
    and the cup it is in already are always allowed (a tournament may always leave a cup); another
    cup only for that cup's organisers (:func:`may_manage_cup`): a cup's table is its organisers'
    to fill."""
    if cup is None or cup.pk == current_cup_id:
        return True
    return may_manage_cup(user, cup)


def log_cup(cup: Cup | int, action: str, user=None, detail: str = "") -> CupAction:
    """Write a :class:`~scoring.cups.models.CupAction`: ``action`` (an :class:`Action` value) on cup
    ``cup`` (a :class:`Cup` or its id) by ``user`` (``None`` or anonymous: a command or the system;
    his user name is kept beside him for when he is gone), with what it concerned (``detail``).
    Call it inside the transaction of the change. Raises ``ValueError`` for an unknown action."""
    if action not in Action.values:
        raise ValueError(f"unknown cup action {action!r}")
    actor = acting_user(user)
    return CupAction.objects.create(
        cup_id=cup.pk if isinstance(cup, Cup) else cup,
        action=action,
        detail=detail,
        user=actor,
        user_name=actor.get_username() if actor is not None else "",
    )


def cup_created(cup: Cup, creator, detail: str = "") -> None:
    """The creator of ``cup`` becomes its first organiser, and the creation is logged (call inside
    the transaction that created it). An anonymous creator (a management command) names nobody."""
    if _active(creator):
        cup.organisers.add(creator)
    log_cup(cup, Action.CREATED, creator, detail=detail or cup.name)


def tournament_detail(tournament) -> str:
    """How the cup's log names a tournament: "Herbstturnier Imst (2026-11-21)"."""
    return f"{tournament.name} ({tournament.date.isoformat()})" if tournament.date else tournament.name


def log_tournament_cup(tournament, old_cup_id: int | None, user=None) -> None:
    """Log ``tournament`` leaving cup ``old_cup_id`` and/or joining its cup now
    (``tournament.cup_id``) in those cups' logs; nothing when the cup did not change. Call it in
    the transaction that saved the tournament (its create or edit view), with the cup it had
    before (``form.initial.get("cup")`` of the tournament's model form, ``None`` for a new one)."""
    new_cup_id = tournament.cup_id
    if old_cup_id == new_cup_id:
        return
    detail = tournament_detail(tournament)
    if old_cup_id is not None:
        log_cup(old_cup_id, Action.TOURNAMENT_LEFT, user, detail=detail)
    if new_cup_id is not None:
        log_cup(new_cup_id, Action.TOURNAMENT_JOINED, user, detail=detail)


def cups_kept(sender, user, **kwargs) -> QuerySet:
    """Receiver of :data:`tournaments.signals.cups_kept`: :func:`managed_cups` of ``user``."""
    return managed_cups(user)


def cup_changed(sender, tournament, old_cup_id: int | None, user=None, **kwargs) -> None:
    """Receiver of :data:`tournaments.signals.cup_changed` (inside the transaction that saved
    ``tournament``): :func:`log_tournament_cup`."""
    log_tournament_cup(tournament, old_cup_id, user)


def add_organiser(cup: Cup, username: str, by=None):
    """Make the active user ``username`` an organiser of ``cup`` (logged). Returns the user.
    Raises :class:`CupRefused` for an unknown or inactive user name or one who keeps the cup
    already."""
    name = username.strip()
    user = get_user_model().objects.filter(username=name, is_active=True).first()
    if user is None:
        raise CupRefused(_("There is no active user “%(name)s”.") % {"name": name})
    with transaction.atomic():
        Cup.objects.select_for_update().filter(pk=cup.pk).first()  # two organisers at once take turns
        if cup.organisers.filter(pk=user.pk).exists():
            raise CupRefused(_("%(name)s is an organiser of this cup already.") % {"name": user.get_username()})
        cup.organisers.add(user)
        log_cup(cup, Action.ORGANISER_ADDED, by, detail=user.get_username())
    return user


def remove_organiser(cup: Cup, user_id: int | None, by=None) -> bool:
    """Take user ``user_id`` off ``cup``'s organisers (logged). Returns whether he was one.
    Raises :class:`CupRefused` for the cup's last organiser: a cup always keeps one."""
    with transaction.atomic():
        Cup.objects.select_for_update().filter(pk=cup.pk).first()
        user = cup.organisers.filter(pk=user_id).first() if user_id is not None else None
        if user is None:
            return False
        if not cup.organisers.exclude(pk=user.pk).exists():
            raise CupRefused(_("A cup keeps at least one organiser: name another one first."))
        cup.organisers.remove(user)
        log_cup(cup, Action.ORGANISER_REMOVED, by, detail=user.get_username())
    return True


class CupOrganiserRequiredMixin(AccessMixin):
    """Views of one cup (URL argument ``pk``) for the people who keep it: an anonymous user is sent
    to the login; a logged-in one gets 404 for a cup that does not exist and 403 unless
    :func:`may_manage_cup`. Sets ``self.cup``."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.cup = get_object_or_404(Cup, pk=kwargs["pk"])
        if not may_manage_cup(request.user, self.cup):
            self.raise_exception = True
            return self.handle_no_permission()
        return super().dispatch(request, *args, **kwargs)


def _shown(field, value) -> str:
    """``value`` of form field ``field`` as the log shows it: a choice by its label, nothing as "–"."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    choices = getattr(field, "choices", None)
    if choices is not None and not isinstance(field, forms.ModelMultipleChoiceField):
        return str(dict((str(k), v) for k, v in choices).get(str(value), value))
    return str(value)


def form_changes(form: forms.ModelForm) -> str:
    """What a saved model form changed, for the cup's log: "Name: Cup 26 → Cup 2026; Results
    counted: all → 3" (ticked players as how many were ticked before and now)."""
    parts = []
    for name in form.changed_data:
        field = form.fields.get(name)
        if name == "DELETE" or field is None:
            continue
        label = field.label or name
        old, new = form.initial.get(name), form.cleaned_data.get(name)
        if isinstance(field, forms.ModelMultipleChoiceField):
            parts.append(f"{label}: {len(old or [])} → {len(new or [])}")
        else:
            parts.append(f"{label}: {_shown(field, old)} → {_shown(field, new)}")
    return "; ".join(parts)


def log_cup_edit(cup: Cup, form: forms.ModelForm, formset: forms.BaseInlineFormSet, user, creating: bool) -> None:
    """One cup action per command of a saved settings page (``form`` the cup's settings,
    ``formset`` its sub-rankings, both saved): the cup created (its creator becomes its organiser,
    :func:`cup_created`) or its settings changed, and each sub-ranking added, changed or removed.
    Call it in the transaction of the save, after ``formset.save()``."""
    if creating:
        cup_created(cup, user)
    elif form.changed_data:
        log_cup(cup, Action.EDITED, user, detail=form_changes(form))
    for ranking in formset.new_objects:
        log_cup(cup, Action.RANKING_ADDED, user, detail=ranking.name)
    changed = {ranking.pk for ranking, _fields in formset.changed_objects}
    for sub in formset.forms:
        if sub.instance.pk is not None and sub.instance.pk in changed:
            log_cup(cup, Action.RANKING_CHANGED, user, detail=f"{sub.instance.name}: {form_changes(sub)}")
    for ranking in formset.deleted_objects:
        log_cup(cup, Action.RANKING_REMOVED, user, detail=ranking.name)
