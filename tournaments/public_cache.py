"""Public pages served from the cache while their tournament's data version is unchanged.

A player refreshing the standings on his phone costs one small query: the tournament's data version
(:mod:`tournaments.versioning`). The page's ``ETag`` is made of it, so his browser gets ``304 Not
Modified`` while nothing changed; another viewer gets the page rendered once per version and kept in
Django's cache. The version is read from the database on every request, so a hand saved through
any app server shows at once on every other, whatever the cache backend (a per-process memory
cache is just as correct as a shared Redis, only fuller). A page that shows less than the whole
tournament is keyed by less (its view's ``version_for``): the seating and the rules by the layout
version (:func:`layout_version`), a table's score sheet by the layout version and its own hands
(:func:`scoring.services.tables.sheet_page_version`), so a hand saved at one table leaves them
as the viewers have them.

A read-only mirror's every page names the mirror's version and when it came (its note,
``templates/mirror_note.html``), so its seating, rules and score sheets are pages of each data
version too (:func:`~tournaments.versioning.with_mirror_version`); their content is rendered once
per content version all the same and kept without the note, and a new version only puts its note
in (:meth:`CachedPublicPage._rendered`): a push of a few hands leaves the seating as it was.

Only anonymous requests are cached: a logged-in user's pages carry forms with his own CSRF token and
director buttons. A request with messages waiting (a flash after a redirect) is rendered fresh too.

Strangers cannot fill the cache: a page's key holds only what the view declares as its canonical
query parameters (:meth:`CachedPublicPage.cache_params`), and the page is rendered seeing only
those, so ``?x=1`` … ``?x=300`` are one page; a value naming nothing is a 404, which is not
kept. A render for an anonymous visitor (a miss) counts against his address's rate
(:mod:`tournaments.ratelimits`); hits and ``304`` never do.

The cache may fail (a Redis outage reads as misses and drops writes): then every request renders
its page itself, at once, and nobody waits for a render mark that was never written.

A visitor the middleware would not act on (no session, no message) gets his ``304`` or the cached
page before the middleware runs (:mod:`config.conditional`, through
:meth:`CachedPublicPage.unrendered_answer`): the version query and, for a page, the cache, or the
copy of it this process took from the cache in the last seconds (:class:`RecentPages`).

A page is kept gzipped beside its plain bytes (:func:`stored_page`, compressed once per version when
it is rendered) and sent gzipped to a browser that accepts it (``Accept-Encoding``): a 5,000-player
standings page is 1.9 MB of HTML and about a tenth of that gzipped, which is what a phone on the
venue's Wi-Fi or a club's site downloads every time the standings change. Both encodings carry the
same weak ``ETag`` (the same page) and ``Vary: Accept-Encoding``. The pages hold nothing secret (the
same bytes go to every anonymous visitor), so compressing them leaks nothing (BREACH needs a secret
in a compressed answer).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.gzip import re_accepts_gzip
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.text import compress_string
from django.utils.translation import get_language

from . import ratelimits
from .models import Table, Tournament
from .versioning import PreparedQuery, current_stamp, stamp, without_mirror_version

# A page being rendered is marked for at most RENDER_LOCK_S (a worker killed mid-render leaves the
# mark to expire); others wait up to RENDER_WAIT_S for it (a 1,000-player standings page takes
# about 0.1 s, several times that on a loaded machine).
RENDER_LOCK_S = 10
RENDER_WAIT_S = 2.0

# Pages from this size on are kept gzipped too (:func:`stored_page`); below it gzip saves a few
# hundred bytes at most.
GZIP_MIN_BYTES = 1024

# A kept page: (content, content type, the content gzipped or None).
StoredPage = tuple[bytes, str, bytes | None]


def stored_page(content: bytes, content_type: str) -> StoredPage:
    """What the cache keeps of a rendered page: ``(content, content type, gzipped)``, ``gzipped``
    being the content compressed by Django's :func:`~django.utils.text.compress_string` (gzip
    level 6, no time stamp: the same bytes on every server), or ``None`` for a page under
    :data:`GZIP_MIN_BYTES` or one that gzip does not make smaller. About 15 ms for a 2 MB page,
    once per version."""
    gzipped = compress_string(content) if len(content) >= GZIP_MIN_BYTES else None
    if gzipped is not None and len(gzipped) >= len(content):
        gzipped = None
    return content, content_type, gzipped


def accepts_gzip(meta: Mapping[str, str]) -> bool:
    """Whether a request's headers (``request.META``) accept a gzipped answer: ``gzip`` in its
    ``Accept-Encoding``, read as Django's ``GZipMiddleware`` reads it."""
    return bool(re_accepts_gzip.search(meta.get("HTTP_ACCEPT_ENCODING", "")))


def page_body(page: tuple, gzip_ok: bool) -> tuple[bytes, str, str | None]:
    """``(body, content type, content encoding)`` of a kept page (:func:`stored_page`; a page
    kept by an earlier release, ``(content, content type)``, is sent as it is) for a request
    that accepts gzip (``gzip_ok``) or not: ``"gzip"`` or ``None`` as the encoding."""
    if gzip_ok and len(page) > 2 and page[2] is not None:
        return page[2], page[1], "gzip"
    return page[0], page[1], None


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


_TABLE_STAMP = PreparedQuery(
    lambda pk: Table.objects.filter(pk=pk).order_by().values_list(
        "round__tournament_id", "round__tournament__data_version", "round__tournament__created"
    ),
    arity=1,
)


def table_version(table_id: int) -> tuple[int, str] | None:
    """``(tournament id, version stamp)`` of the tournament table ``table_id`` is played in (one
    query, compiled once: :class:`~tournaments.versioning.PreparedQuery`)."""
    rows = _TABLE_STAMP.rows(table_id)
    return None if not rows else (rows[0][0], stamp(rows[0][1], rows[0][2]))


def canonical_query(params: Mapping[str, object]) -> str:
    """``params`` as a query string in a fixed order (``"mode=prizes&seconds=20"``; ``""`` for none)."""
    query = QueryDict(mutable=True)
    for name in sorted(params):
        query[name] = str(params[name])
    return query.urlencode()


def page_key(found: tuple[int, str], language: str, fragment: str, full_path: str) -> str:
    """The cache key of a public page: its tournament and version (``found``), language, whether
    it is an htmx fragment (``"f"``) or the page (``"p"``), and its path with the canonical query
    (``request.path`` and :func:`canonical_query`; never the query as the visitor typed it)."""
    path = hashlib.sha256(full_path.encode()).hexdigest()[:24]
    return f"page:{found[0]}:{found[1]}:{language}:{fragment}:{path}"


# The request headers that make a GET conditional (django.utils.cache.get_conditional_response).
CONDITIONS = ("HTTP_IF_MATCH", "HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_UNMODIFIED_SINCE")


def page_tag(found: tuple[int, str], language: str, fragment: str) -> str:
    """The ``ETag`` of a public page: its tournament and version (``found``), language, page or
    fragment (``"p"``/``"f"``) and the release of the code (the cache's key prefix), weak
    (``W/"1.7.1795756373730265.de.p.3f2a9c1b7d4e"``)."""
    return f'W/"{found[0]}.{found[1]}.{language}.{fragment}.{settings.CACHES["default"]["KEY_PREFIX"]}"'


def cacheable(request: HttpRequest) -> bool:
    """Whether ``request`` may be answered from the cache: an anonymous GET or HEAD with no
    message waiting to be shown."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return False
    return len(messages.get_messages(request)) == 0


class RecentPages:
    """The pages this process took from the cache lately, by their cache key, for at most
    ``seconds`` each and ``max_bytes`` together (least recently used out first). A key holds the
    page's version, so its page does not change while the key lives: a copy in the process is as
    good as the cache's, and reading it costs microseconds instead of a round trip to Redis and
    the unpickling. Only :meth:`CachedPublicPage.unrendered_answer` (the answer before the
    middleware) reads and fills it. ``get`` returns the kept page (:func:`stored_page`) or
    ``None``; a page's size is its plain and gzipped bytes together."""

    def __init__(self, seconds: float = 30.0, max_bytes: int = 8 * 1024 * 1024):
        self.seconds = seconds
        self.max_bytes = max_bytes
        self._pages: OrderedDict[str, tuple[float, tuple]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # the development server and threaded workers share it

    @staticmethod
    def size(page: tuple) -> int:
        return len(page[0]) + (len(page[2]) if len(page) > 2 and page[2] is not None else 0)

    def get(self, key: str) -> tuple | None:
        with self._lock:
            found = self._pages.get(key)
            if found is None:
                return None
            if found[0] < time.monotonic():
                self._drop(key)
                return None
            self._pages.move_to_end(key)
            return found[1]

    def put(self, key: str, page: tuple) -> None:
        size = self.size(page)
        if size > self.max_bytes // 8:
            return  # a page this big (a 5,000-player standings) would push out dozens
        with self._lock:
            if key in self._pages:
                self._drop(key)
            self._pages[key] = (time.monotonic() + self.seconds, page)
            self._bytes += size
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._pages)))

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._bytes = 0

    def _drop(self, key: str) -> None:
        _expires, page = self._pages.pop(key)
        self._bytes -= self.size(page)


recent_pages = RecentPages()


def mirror_note(tournament_id: int) -> bytes | None:
    """The note a page of the read-only mirror ``tournament_id`` shows (where it is run from,
    when its version came and which, ``templates/mirror_note.html``, as ``base.html`` renders it
    in the active language), encoded as the page is; ``None`` when it is no mirror (any more).
    One query."""
    tournament = Tournament.objects.select_related("mirror").filter(pk=tournament_id).exclude(mirrored_from="").first()
    if tournament is None:
        return None
    return render_to_string("mirror_note.html", {"tournament": tournament}).encode(settings.DEFAULT_CHARSET)


class CachedPublicPage:
    """View mixin: answer anonymous GETs from the cache, keyed by the data version.

    ``version_for(**kwargs)`` gives ``(tournament id, version stamp)`` for the URL's arguments (the
    default reads ``pk`` as a tournament id) or ``None``, in which case the view answers as usual
    (its own 404). The ``ETag`` holds the tournament, its version, the language, whether htmx asked
    for a fragment and the release of the code; the cache key adds the path and the canonical
    query parameters (:meth:`cache_params`). Answers are ``Cache-Control: no-cache``: browsers ask
    again each time and get 304 while the version holds. Only 200 answers are kept. A render for
    the cache counts against ``RATE_LIMIT_PAGES`` for the visitor's address (429 over it).
    """

    def version_for(self, **kwargs) -> tuple[int, int] | None:
        return tournament_version(kwargs["pk"])

    def cache_params(self) -> dict[str, int | str]:
        """The query parameters that choose what this page shows, in canonical form (``{"after":
        2}``; ``{}`` by default): read from ``self.request.GET`` with ``self.kwargs`` at hand. Only
        these reach the cache key, and the cached render sees only these (``request.GET`` is
        replaced by them), so unknown parameters and other spellings share one page. Called on
        every request, cache hits too: read the values without a query (``whole_number``) and let
        the render answer 404 for one that names nothing (a 404 is never kept, and the render
        counts against the visitor's rate)."""
        return {}

    def dispatch(self, request, *args, **kwargs):
        if not cacheable(request):
            return super().dispatch(request, *args, **kwargs)
        found = self.version_for(**kwargs)
        if found is None:
            return super().dispatch(request, *args, **kwargs)
        fragment = "f" if getattr(request, "htmx", False) else "p"
        tag = page_tag(found, get_language(), fragment)
        not_modified = get_conditional_response(request, etag=tag)
        if not_modified is not None:
            return self._finish(not_modified, tag)
        query = canonical_query(self.cache_params())
        request.META["QUERY_STRING"] = query
        request.GET = QueryDict(query)
        key = self._key(found, get_language(), fragment, query)
        rendering = key + ":rendering"
        cached = cache.get(key)
        owner = False
        if cached is None:
            added = cache.add(rendering, 1, timeout=RENDER_LOCK_S)
            owner = bool(added)
            if added is False:  # another worker renders it (None: the cache failed, render it here)
                cached = self._rendered_meanwhile(key, rendering)
        gzip_ok = accepts_gzip(request.META)
        if cached is not None:
            body, content_type, encoding = page_body(cached, gzip_ok)
            return self._finish(self._encoded(HttpResponse(body, content_type=content_type), encoding), tag)
        wait = ratelimits.over_limit(request, "page-render", ratelimits.PAGES)
        if wait is not None:
            if owner:
                cache.delete(rendering)
            return ratelimits.too_many_requests(request, wait)
        try:
            response = self._rendered(request, found, fragment, query, *args, **kwargs)
            if response.status_code == 200 and not response.streaming:
                page = stored_page(response.content, response["Content-Type"])
                cache.set(key, page)
                body, _type, encoding = page_body(page, gzip_ok)
                if encoding is not None:
                    response.content = body
                return self._finish(self._encoded(response, encoding), tag)
            return response
        finally:
            if owner:
                cache.delete(rendering)

    def _render(self, request, *args, **kwargs) -> HttpResponse:
        response = super().dispatch(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
        return response

    def _rendered(self, request, found: tuple[int, str], fragment: str, query: str, *args, **kwargs) -> HttpResponse:
        """The page rendered for the cache. A mirror's page whose content is keyed by less than
        its data version (``found`` made by :func:`~tournaments.versioning.with_mirror_version`:
        the seating, the rules, a score sheet) is rendered once per content version: its
        rendering is kept without the mirror's note (its version and time,
        ``templates/mirror_note.html``) under the content's key, and each new version of the
        mirror gets it with the note of now put in (one query for the note instead of the
        page's). A rendering in which the note of now is not found once (a push came between the
        note and the page) is sent as it is and not kept."""
        content_stamp, of_mirror = without_mirror_version(found[1])
        if not of_mirror:
            return self._render(request, *args, **kwargs)
        key = self._key((found[0], content_stamp), get_language(), fragment, query) + ":without-note"
        note = mirror_note(found[0])
        kept = cache.get(key) if note is not None else None
        if kept is not None:
            before, after, content_type = kept
            return HttpResponse(before + note + after, content_type=content_type)
        response = self._render(request, *args, **kwargs)
        if note is not None and response.status_code == 200 and not response.streaming and response.content.count(note) == 1:
            before, _note, after = response.content.partition(note)
            cache.set(key, (before, after, response["Content-Type"]))
        return response

    def unrendered_answer(self, language: str, fragment: str) -> tuple[int, str, bytes, str | None, str | None] | None:
        """What :meth:`dispatch` answers to an anonymous GET or HEAD with no message waiting
        when it renders nothing, as ``(status, ETag, body, content type, content encoding)``:
        ``(304, tag, b"", None, None)``, or the cached page ``(200, tag, body, its type,
        "gzip" or None)`` (gzipped when the request accepts it and the page was kept gzipped:
        :func:`page_body`); its headers are those :meth:`_finish` gives, and ``Content-Encoding``
        for a gzipped body. ``None`` when :meth:`dispatch` would render (no version, no page in
        the cache or the cache failed) or answer otherwise (a failed precondition: ``412``).
        For the answer before the middleware (:mod:`config.conditional`): call it on a view after
        ``setup()``, with the language the request would be given and ``"f"`` for an htmx
        request (``"p"`` else). Queries: the version (one); the cache: one read, none for a 304.
        Reads ``self.request`` and never changes it."""
        found = self.version_for(**self.kwargs)
        if found is None:
            return None
        tag = page_tag(found, language, fragment)
        meta = self.request.META
        if meta.get("HTTP_IF_NONE_MATCH") == tag and "HTTP_IF_MATCH" not in meta and "HTTP_IF_UNMODIFIED_SINCE" not in meta:
            return 304, tag, b"", None, None  # the browser's own ETag back: get_conditional_response's 304
        if any(name in meta for name in CONDITIONS):
            answer = get_conditional_response(self.request, etag=tag)
            if answer is not None:
                return (304, tag, b"", None, None) if answer.status_code == 304 else None
        key = self._key(found, language, fragment, canonical_query(self.cache_params()))
        cached = recent_pages.get(key)
        if cached is None:
            cached = cache.get(key)
            if cached is None:
                return None
            recent_pages.put(key, cached)
        return 200, tag, *page_body(cached, accepts_gzip(meta))

    def _key(self, found: tuple[int, str], language: str, fragment: str, query: str) -> str:
        path = self.request.path
        return page_key(found, language, fragment, f"{path}?{query}" if query else path)

    @staticmethod
    def _rendered_meanwhile(key: str, rendering: str):
        """One render per version, not one per viewer who asks in the same instant: the first to
        miss marks the page as being rendered (``cache.add`` of ``rendering``, atomic in Redis and
        in the memory cache) and renders it; the others come here and wait for the cached page,
        checking every 20 ms for at most :data:`RENDER_WAIT_S`. Returns it, or ``None`` (the
        caller renders it then) if it did not come in time or the mark is gone without it (the
        render failed, or the cache failed meanwhile)."""
        deadline = time.monotonic() + RENDER_WAIT_S
        while time.monotonic() < deadline:
            time.sleep(0.02)
            found = cache.get_many([key, rendering])
            if found.get(key) is not None:
                return found[key]
            if rendering not in found:
                return None
        return None

    @staticmethod
    def _encoded(response: HttpResponse, encoding: str | None) -> HttpResponse:
        if encoding is not None:
            response["Content-Encoding"] = encoding
        return response

    @staticmethod
    def _finish(response: HttpResponse, tag: str) -> HttpResponse:
        """The headers of every answer of a cached page, whatever its encoding."""
        response["ETag"] = tag
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language", "HX-Request", "Accept-Encoding"))
        return response
