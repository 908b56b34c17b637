"""The old addresses of a mirror's pages lead to its current copy."""

from __future__ import annotations

import re

from django.core.cache import cache
from django.http import HttpResponseRedirect

# A tournament's public pages, and the pages of one of its tables.
TOURNAMENT_PATH = re.compile(r"^/t/(?P<id>[0-9]{1,18})/(?P<rest>.*)$", re.S)
API_PATH = re.compile(r"^/api/v1/tournaments/(?P<id>[0-9]{1,18})/(?P<rest>.*)$", re.S)
TABLE_PATH = re.compile(r"^/table/(?P<id>[0-9]{1,18})/(?P<rest>.*)$", re.S)
PLAYER_REST = re.compile(r"^players/(?P<id>[0-9]{1,18})/(?P<rest>.*)$", re.S)


class MirrorAliasMiddleware:
    """A ``404`` for ``/t/<id>/…`` whose id a mirror had for an earlier version is answered with a
    redirect (302) to the same page of the mirror's current tournament (the public API's
    ``/api/v1/tournaments/<id>/…`` too, with ``Access-Control-Allow-Origin: *``; a version pushed
    as a whole archive is a new copy with a new id, :mod:`publishing.site`). Its player pages (``/t/<id>/players/<reg>/``)
    and table pages (``/table/<id>/…``) follow too, while the cache keeps what the old copy's
    registration and table were (:data:`publishing.site.REGISTRATION_KEY`, ``TABLE_KEY``); a player
    page no longer known leads to the mirror's list of players. Only ``GET`` and ``HEAD``. Costs
    nothing on any other answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 404 or request.method not in ("GET", "HEAD"):
            return response
        target = current_address(request.path_info)
        if target is None:
            return response
        query = request.META.get("QUERY_STRING", "")
        redirect = HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + target + (f"?{query}" if query else ""))
        if target.startswith("/api/"):
            redirect["Access-Control-Allow-Origin"] = "*"  # a club's page reading the API follows it
        return redirect


def current_address(path: str) -> str | None:
    """The path of the mirror's current copy of the page ``path`` of an old copy, or ``None``."""
    if found := TOURNAMENT_PATH.match(path):
        return _tournament_page(int(found["id"]), found["rest"])
    if found := API_PATH.match(path):
        return _tournament_page(int(found["id"]), found["rest"], prefix="/api/v1/tournaments/")
    if found := TABLE_PATH.match(path):
        return _table_page(int(found["id"]), found["rest"])
    return None


def _tournament_page(old_id: int, rest: str, prefix: str = "/t/") -> str | None:
    from .models import MirrorAlias

    current = MirrorAlias.objects.filter(tournament_id=old_id, mirror__tournament__isnull=False).values_list("mirror__tournament_id", flat=True).first()
    if current is None:
        return None
    if player := PLAYER_REST.match(rest):
        registration = _registration_now(int(player["id"]), current)
        rest = f"players/{registration}/{player['rest']}" if registration is not None else "players/"
    return f"{prefix}{current}/{rest}"


def _registration_now(old_id: int, tournament_id: int) -> int | None:
    from tournaments.models import Registration

    from .site import REGISTRATION_KEY

    kept = cache.get(REGISTRATION_KEY.format(old_id))
    if kept is None:
        return None
    _mirror_id, player_id = kept
    return Registration.objects.filter(tournament_id=tournament_id, player_id=player_id).values_list("pk", flat=True).first()


def _table_page(old_id: int, rest: str) -> str | None:
    from tournaments.models import Table

    from .models import Mirror
    from .site import TABLE_KEY

    kept = cache.get(TABLE_KEY.format(old_id))
    if kept is None:
        return None
    mirror_id, round_number, number = kept
    tournament_id = Mirror.objects.filter(pk=mirror_id).values_list("tournament_id", flat=True).first()
    table = Table.objects.filter(round__tournament_id=tournament_id, round__number=round_number, number=number).values_list("pk", flat=True).first()
    return f"/table/{table}/{rest}" if table is not None else f"/t/{tournament_id}/round/{round_number}/" if tournament_id else None
