"""Absolute links for what leaves the screen (QR codes, printed cards, score sheets): always on
``settings.PUBLIC_URL``, the address phones at the venue or on the internet reach, never on the
host name the request happened to use (``127.0.0.1`` on the director's laptop)."""

import functools

from django.conf import settings
from django.urls import reverse


def absolute(path: str) -> str:
    """``path`` (from ``reverse``, starting with ``/``) on the public address, e.g.
    ``http://192.168.1.23:8000/sheet/AbC.../``."""
    return settings.PUBLIC_URL.rstrip("/") + path


def private_link(token: str) -> str:
    """The absolute private link of the table with ``token`` (its players' sheet, no login)."""
    return absolute(reverse("scoring:private_sheet", args=[token]))


def player_names_link(tournament_id: int) -> str:
    """The absolute link of the tournament's "find my name" page (every player's own page)."""
    return absolute(reverse("live:player_names", args=[tournament_id]))


@functools.lru_cache(maxsize=256)
def qr_png(url: str, scale: int = 3) -> str:
    """A QR code of ``url`` as a PNG data URI: for the prints (WeasyPrint draws a PNG at once)
    and the pages (the Content-Security-Policy allows ``data:`` images). Kept per process for the
    last 256 links (a few KB each): encoding one costs several milliseconds, as much as the rest of
    a seating page of a hundred players."""
    import segno

    return segno.make(url, error="m").png_data_uri(scale=scale)
