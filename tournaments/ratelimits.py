"""Bounds on what strangers can make the server do: rate limits by visitor address.

Counted with django-ratelimit in the default cache (``config.settings``: ``RATE_LIMIT_PAGES``,
``RATE_LIMIT_EXPORTS``, ``RATE_LIMIT_PRIVATE_POSTS``). Only work counts: a public page or a
download rendered for an anonymous visitor (a page served from the cache, a file from the
storage, a ``304`` never), and a post through a table's private link. A request over its limit is
answered ``429 Too Many Requests`` with a translated page and ``Retry-After``. The limiter fails
open: when the cache cannot count (Redis down), nothing is limited.

The page cache (:mod:`tournaments.public_cache`) and the download view
(:class:`scoring.exporters.views.ExportView`) count their renders with :func:`over_limit` where
they know a render is due; the limit of the private links' posts is a decorator applied in the URL
module, where the limited address can be seen.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

PAGES = "RATE_LIMIT_PAGES"
EXPORTS = "RATE_LIMIT_EXPORTS"
PRIVATE_POSTS = "RATE_LIMIT_PRIVATE_POSTS"


def client_address(request: HttpRequest) -> str:
    """The visitor's IP address as text: the last address in the header ``RATE_LIMIT_IP_HEADER``
    names (the one the trusted reverse proxy added) when that setting is on and the header holds
    one, else the connection's ``REMOTE_ADDR``; ``"0.0.0.0"`` when neither is an address (a Unix
    socket), so such requests share one count instead of failing."""
    candidates = []
    header = getattr(settings, "RATE_LIMIT_IP_HEADER", "")
    if header:
        candidates.append(request.META.get(header, "").split(",")[-1].strip())
    candidates.append(request.META.get("REMOTE_ADDR", ""))
    for value in candidates:
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            continue
    return "0.0.0.0"


def over_limit(request: HttpRequest, group: str, setting: str, extra: str = "") -> int | None:
    """Count one unit of work of ``group`` (a name, e.g. ``"page-render"``) for the visitor's
    address and ``extra`` (e.g. a private link's token; the key is hashed) against the rate in
    ``settings.<setting>``. Returns ``None`` while under the limit (or when the cache cannot
    count), else the seconds until the count starts again (at least 1)."""
    address = client_address(request)
    usage = get_usage(
        request,
        group=group,
        key=lambda _group, _request: f"{address}|{extra}",
        rate=getattr(settings, setting),
        increment=True,
    )
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def too_many_requests(request: HttpRequest, retry_after: int = 60) -> HttpResponse:
    """The translated ``429`` page (``templates/429.html``) with ``Retry-After: retry_after``."""
    response = render(request, "429.html", {"retry_after": retry_after}, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def limit_private_posts(view: Callable) -> Callable:
    """Wrap a private-link view (URL argument ``token``): its POSTs (confirm, flag) count per
    link and visitor address against ``RATE_LIMIT_PRIVATE_POSTS`` and are answered 429 over it.
    GETs are not limited."""

    @wraps(view)
    def limited(request, *args, **kwargs):
        if request.method == "POST":
            wait = over_limit(request, "private-link-post", PRIVATE_POSTS, extra=str(kwargs.get("token", "")))
            if wait is not None:
                return too_many_requests(request, wait)
        return view(request, *args, **kwargs)

    return limited
