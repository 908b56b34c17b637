"""Who may change what: roles per tournament, site-wide permissions, nothing from ``is_staff``.

A user's rights in a tournament come from his :class:`~tournaments.models.TournamentRole` there
(organiser ⊃ director ⊃ scorer) or from being a superuser (the site administrator, every
tournament's organiser). What a role may do:

- **organiser**: everything, the roles of others included;
- **director**: everything on the day but the roles: settings, registrations, draws, swaps,
  substitutes, lots, ended tables, verification and reopening, flags, hands (deleting them too);
- **scorer**: enters and edits hands at the tables, raw rows, a hand's history; nothing else.

Site-wide actions need a Django permission, given through groups ("Organisers"): creating a
tournament (``tournaments.add_tournament``), keeping the player register
(``tournaments.add_player``/``change_player``, merging also ``delete_player``).

A read-only mirror (``Tournament.mirrored_from`` not empty: a tournament run at a venue and
published here, :mod:`publishing`) gives nobody a role, not even a superuser: it is changed at its
venue only. Whether a tournament is one is kept per request on the user object beside the roles,
learned from a query the caller makes anyway where it can (:class:`RoleRequiredMixin` reads it with
the tournament's id, :func:`remember_tournament` from a tournament object at hand); a user with
a role asks nothing more (his role's query reads it), a superuser one query per tournament and
request at most. :func:`tournaments.versioning.touch` refuses every change of a mirror besides.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth.mixins import AccessMixin, PermissionRequiredMixin
from django.http import Http404

from .models import Tournament, TournamentRole

Level = TournamentRole.Level
RANK = {Level.SCORER: 1, Level.DIRECTOR: 2, Level.ORGANISER: 3}


def _mirrors(user) -> dict:
    """``{tournament id: whether it is a read-only mirror}`` known for this request (on the user
    object, which lives as long as the request)."""
    return user.__dict__.setdefault("_mirror_tournaments", {})


def is_mirror(user, tournament_id: int) -> bool:
    """Whether tournament ``tournament_id`` is a read-only mirror; kept on ``user`` for the
    request (one query the first time unless the caller told it, :func:`remember_tournament`)."""
    known = _mirrors(user)
    if tournament_id not in known:
        known[tournament_id] = Tournament.objects.filter(pk=tournament_id).exclude(mirrored_from="").exists()
    return known[tournament_id]


def remember_tournament(user, tournament) -> None:
    """Tell :func:`role_of` whether ``tournament`` (a loaded :class:`Tournament`) is a read-only
    mirror: nothing more is asked of the database for it in this request."""
    if user is not None and "mirrored_from" in tournament.__dict__:
        _mirrors(user)[tournament.pk] = bool(tournament.mirrored_from)


def role_of(user, tournament_id: int | None) -> str | None:
    """``user``'s role in tournament ``tournament_id`` ("organiser", "director", "scorer") or
    ``None``; a superuser is organiser everywhere but in a read-only mirror, where nobody has a
    role; an inactive or anonymous user has none. Cached on the user object for the request."""
    if tournament_id is None or not (user and user.is_authenticated and user.is_active):
        return None
    if user.is_superuser:
        return None if is_mirror(user, tournament_id) else Level.ORGANISER
    cache = user.__dict__.setdefault("_tournament_roles", {})
    if tournament_id not in cache:
        cache[tournament_id] = (
            TournamentRole.objects.filter(tournament_id=tournament_id, user=user, tournament__mirrored_from="")
            .values_list("level", flat=True)
            .first()
        )
    return cache[tournament_id]


def remember_role(user, tournament_id: int, level: str | None, *, mirror: bool | None = None) -> None:
    """Tell :func:`role_of` the ``level`` (a :class:`Level`, or ``None`` for no role) ``user``
    holds in the tournament, read by the caller in a query of its own (a view loading the table
    with the role): :func:`role_of` then asks the database nothing for it in this request.
    ``mirror``: whether the tournament is a read-only mirror, where known (a mirror's role is
    none, whatever ``level`` says)."""
    if mirror is not None:
        _mirrors(user)[tournament_id] = mirror
        if mirror:
            level = None
    user.__dict__.setdefault("_tournament_roles", {})[tournament_id] = level


def has_role(user, tournament_id: int | None, at_least: str) -> bool:
    """Whether ``user`` holds ``at_least`` (a :class:`Level`) or a higher role in the tournament."""
    role = role_of(user, tournament_id)
    return role is not None and RANK[role] >= RANK[at_least]


class Can:
    """What the user may do in one tournament, for templates: ``can.score``, ``can.direct``,
    ``can.organise`` (each includes the ones before it)."""

    def __init__(self, user, tournament_id: int | None):
        self.role = role_of(user, tournament_id)
        rank = RANK.get(self.role, 0)
        self.score = rank >= RANK[Level.SCORER]
        self.direct = rank >= RANK[Level.DIRECTOR]
        self.organise = rank >= RANK[Level.ORGANISER]


# kind -> (model, the lookup from it to its tournament's id), for :func:`tournament_of`.
TOURNAMENT_OF = {
    "tournament": ("tournaments.Tournament", "pk"),
    "table": ("tournaments.Table", "round__tournament_id"),
    "round": ("tournaments.Round", "tournament_id"),
    "hand": ("scoring.Hand", "table__round__tournament_id"),
    "flag": ("scoring.HandFlag", "hand__table__round__tournament_id"),
}


def tournament_of(kind: str, pk) -> int:
    """The id of the tournament that object ``pk`` of ``kind`` ("tournament", "table", "hand",
    "flag", "round") belongs to; a deleted hand's is found in its history (a second click on
    "delete" is answered with a message, not a 404). Raises :class:`~django.http.Http404` when
    there is none."""
    return tournament_and_mirror(kind, pk)[0]


def tournament_and_mirror(kind: str, pk) -> tuple[int, bool]:
    """``(tournament id, whether it is a read-only mirror)`` for object ``pk`` of ``kind``, in the
    one query of :func:`tournament_of` (same answers, same 404)."""
    model, field = TOURNAMENT_OF[kind]
    mirrored = "mirrored_from" if field == "pk" else field.removesuffix("_id") + "__mirrored_from"
    found = apps.get_model(model).objects.filter(pk=pk).values_list(field, mirrored).first()
    if found is None and kind == "hand":
        found = apps.get_model(model).history.filter(id=pk).values_list(field, mirrored).first()
    if found is None or found[0] is None:
        raise Http404
    return found[0], bool(found[1])


def acting_user(user):
    """The user to record as who did something (logs, hand history): ``user`` when logged in,
    else ``None`` (an anonymous request, a management command, a test without one)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


class _Answers403ToHtmx(AccessMixin):
    """A page asked for by the browser is redirected to the login; a fragment asked for by htmx
    (the entry form's save, the preview) is answered ``403`` instead, so the form says the save
    failed and keeps what was typed rather than showing the login page in its place. A logged-in
    user without the right gets ``403`` (Django's default)."""

    def handle_no_permission(self):
        if getattr(self.request, "htmx", False):
            self.raise_exception = True
        return super().handle_no_permission()


class RoleRequiredMixin(_Answers403ToHtmx):
    """Class-based views that change a tournament: the user needs ``required_role`` (default
    director) in the tournament the URL names. ``tournament_from`` = ``(kind, URL argument)``
    says how to find it (:func:`tournament_of`); the default is the tournament ``pk``. An
    anonymous user is sent to the login first; a logged-in one gets 404 for an object that does
    not exist and 403 without the role."""

    required_role = Level.DIRECTOR
    tournament_from = ("tournament", "pk")

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        kind, argument = self.tournament_from
        self.permission_tournament_id, mirror = tournament_and_mirror(kind, kwargs[argument])
        _mirrors(request.user)[self.permission_tournament_id] = mirror
        if not has_role(request.user, self.permission_tournament_id, self.required_role):
            return self.handle_no_permission()
        return super().dispatch(request, *args, **kwargs)


class SitePermissionRequiredMixin(_Answers403ToHtmx, PermissionRequiredMixin):
    """Site-wide actions (a new tournament, the player register): a Django permission, given
    through a group such as "Organisers" (``permission_required``)."""
