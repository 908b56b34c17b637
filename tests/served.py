"""Talking to a server that a test started as its own process (``scripts/serve``, a venue and a
public site): a free port for it and a plain HTTP client that keeps cookies like a browser."""

from __future__ import annotations

import http.cookiejar
import re
import socket
import urllib.error
import urllib.parse
import urllib.request

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Cookies kept, redirects not followed, every status returned (never raised). ``timeout``:
    seconds an answer may take."""

    def __init__(self, base: str, timeout: float = 60):
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def request(self, path, data=None, headers=None) -> tuple[int, dict, bytes]:
        """``(status, headers, body)`` of a GET of ``path``, a form POST when ``data`` is given."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        try:
            with self.opener.open(req, timeout=self.timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def cookie(self, name):
        return next((c for c in self.jar if c.name == name), None)

    def form_post(self, page, path, data) -> tuple[int, dict, bytes]:
        """GET ``page`` for its CSRF token, POST ``data`` with it to ``path``."""
        _status, _headers, body = self.request(page)
        token = CSRF.search(body)
        assert token, f"no form on {page}"
        return self.request(path, {"csrfmiddlewaretoken": token.group(1).decode(), **data})
