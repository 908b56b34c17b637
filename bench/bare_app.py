"""A bare WSGI app answering the load benchmark's requests with bytes the real app gave: its floor.

``bench/load_bench.py`` records, from the running app, one answer for each kind of page its crowd
asks for (standings, a table's sheet as a viewer and as a scorer, the round's seating, the
tournament page, the login page) into the JSON file named by ``BARE_APP_PAGES``, then serves this
module with the same gunicorn and the same number of workers and sends the same crowd at it. What is
left is the cost of serving those bytes (gunicorn, the network, locust itself) without Django, a
database or a cache: the time no change to the project can take away.

Routes, by path shape: ``/t/<n>/standings/``, ``/t/<n>/round/<r>/``, ``/t/<n>/`` and
``/table/<pk>/`` answer their recorded page (the scorer's sheet when the request carries the
cookie the fake login sets), or 304 when ``If-None-Match`` names the recorded ETag;
``/accounts/login/`` answers the login page, and a POST to it a 302 that sets the cookie; a POST to
``/manage/table/<pk>/hands/`` answers the 302 to ``/table/<pk>/`` a saved hand gets. Anything else
is a 404.
"""

from __future__ import annotations

import base64
import json
import os
import re

COOKIE = "bare-session"
_PAGES = None

ROUTES = [
    ("standings", re.compile(r"^/t/\d+/standings/$")),
    ("seating", re.compile(r"^/t/\d+/round/\d+/$")),
    ("tournament", re.compile(r"^/t/\d+/$")),
    ("sheet", re.compile(r"^/table/\d+/$")),
    ("login", re.compile(r"^/accounts/login/$")),
]
HAND = re.compile(r"^/manage/table/(\d+)/hands/$")


def pages() -> dict:
    """``{kind: {"status": int, "headers": [(name, value)], "body": bytes}}`` from ``BARE_APP_PAGES``."""
    global _PAGES
    if _PAGES is None:
        with open(os.environ["BARE_APP_PAGES"], encoding="utf-8") as source:
            recorded = json.load(source)
        _PAGES = {
            kind: {"status": page["status"], "headers": [tuple(h) for h in page["headers"]], "body": base64.b64decode(page["body"])}
            for kind, page in recorded.items()
        }
    return _PAGES


def application(environ, start_response):
    path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
    if method == "POST":
        environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        if path == "/accounts/login/":
            start_response("302 Found", [("Location", "/"), ("Set-Cookie", f"{COOKIE}=1; Path=/"), ("Content-Length", "0")])
            return [b""]
        if found := HAND.match(path):
            start_response("302 Found", [("Location", f"/table/{found.group(1)}/"), ("Content-Length", "0")])
            return [b""]
    else:
        for kind, pattern in ROUTES:
            if pattern.match(path):
                if kind == "sheet" and COOKIE in environ.get("HTTP_COOKIE", ""):
                    kind = "sheet (director)"
                page = pages()[kind]
                etag = dict(page["headers"]).get("ETag")
                if etag and environ.get("HTTP_IF_NONE_MATCH") == etag:
                    start_response("304 Not Modified", [("ETag", etag)])
                    return [b""]
                start_response(f"{page['status']} OK", [*page["headers"], ("Content-Length", str(len(page["body"])))])
                return [page["body"]]
    start_response("404 Not Found", [("Content-Length", "0")])
    return [b""]
