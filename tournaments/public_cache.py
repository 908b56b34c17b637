"""Public pages served from the cache while their tournament's data version is unchanged.

A player refreshing the standings on his phone costs one small query: the tournament's data version
(:mod:`tournaments.versioning`). The page's ``ETag`` is made of it, so his browser gets ``304 Not
Modified`` while nothing changed; another viewer gets the page rendered once per version and kept in
Django's cache. The version is read from the database on every request, so a hand saved through
any app server shows at once on every other, whatever the cache backend (a per-process memory
cache is just as correct as a shared Redis, only fuller).

Only anonymous requests are cached: a logged-in user's pages carry forms with his own CSRF token and
director buttons. A request with messages waiting (a flash after a redirect) is rendered fresh too.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from .models import Table
from .versioning import current_stamp, stamp


def tournament_version(tournament_id: int) -> tuple[int, str] | None:
    """``(tournament id, version stamp)`` (:func:`~tournaments.versioning.stamp`), or ``None``
    when there is no such tournament."""
    found = current_stamp(tournament_id)
    return None if found is None else (tournament_id, found)


def layout_version(tournament_id: int) -> tuple[int, str] | None:
    """:func:`tournament_version` of the layout version: for pages that show no hand (the
    seating, the rules), which a saved hand leaves as they are."""
    found = current_stamp(tournament_id, layout=True)
    return None if found is None else (tournament_id, found)


def table_version(table_id: int) -> tuple[int, str] | None:
    """``(tournament id, version stamp)`` of the tournament table ``table_id`` is played in."""
    row = (
        Table.objects.filter(pk=table_id)
        .values_list("round__tournament_id", "round__tournament__data_version", "round__tournament__created")
        .first()
    )
    return None if row is None else (row[0], stamp(row[1], row[2]))


def cacheable(request: HttpRequest) -> bool:
    """Whether ``request`` may be answered from the cache: an anonymous GET or HEAD with no
    message waiting to be shown."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return False
    return len(messages.get_messages(request)) == 0


class CachedPublicPage:
    """View mixin: answer anonymous GETs from the cache, keyed by the data version.

    ``version_for(**kwargs)`` gives ``(tournament id, version stamp)`` for the URL's arguments (the
    default reads ``pk`` as a tournament id) or ``None``, in which case the view answers as usual
    (its own 404). The ``ETag`` holds the tournament, its version, the language, whether htmx asked
    for a fragment and the release of the code; the cache key adds the full path with its query.
    Answers are ``Cache-Control: no-cache``: browsers ask again each time and get 304 while the
    version holds. Only 200 answers are kept.
    """

    def version_for(self, **kwargs) -> tuple[int, int] | None:
        return tournament_version(kwargs["pk"])

    def dispatch(self, request, *args, **kwargs):
        if not cacheable(request):
            return super().dispatch(request, *args, **kwargs)
        found = self.version_for(**kwargs)
        if found is None:
            return super().dispatch(request, *args, **kwargs)
        fragment = "f" if getattr(request, "htmx", False) else "p"
        tag = f'W/"{found[0]}.{found[1]}.{get_language()}.{fragment}.{settings.CACHES["default"]["KEY_PREFIX"]}"'
        not_modified = get_conditional_response(request, etag=tag)
        if not_modified is not None:
            return self._finish(not_modified, tag)
        path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:24]
        key = f"page:{found[0]}:{found[1]}:{get_language()}:{fragment}:{path}"
        cached = cache.get(key)
        if cached is not None:
            content, content_type = cached
            return self._finish(HttpResponse(content, content_type=content_type), tag)
        response = super().dispatch(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
        if response.status_code == 200 and not response.streaming:
            cache.set(key, (response.content, response["Content-Type"]))
            return self._finish(response, tag)
        return response

    @staticmethod
    def _finish(response: HttpResponse, tag: str) -> HttpResponse:
        response["ETag"] = tag
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language", "HX-Request"))
        return response
