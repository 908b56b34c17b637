"""Plain HTTP to an app started as a process of its own (``scripts/serve``, gunicorn, a venue and
a public site), for the benchmarks and for the tests that start one (``tests/test_serve.py``,
``tests/publishing/test_end_to_end.py``): a free port to start it on, and a client that keeps
cookies as a browser does, follows no redirect and returns every status. The standard library
only, so a benchmark script runs it as it is (``from plain_http import ...``, its own folder
first on the path) and a test imports it as ``bench.plain_http``."""

from __future__ import annotations

import http.cookiejar
import re
import socket
import urllib.error
import urllib.parse
import urllib.request

# The CSRF token of a form on a page (bytes).
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now (bound by the system, released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """An opener's handler that follows no redirect: the 3xx comes back as the answer."""

    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Cookies kept, redirects not followed, every status returned (an HTTP error status is an
    answer, never raised; no answer at all raises ``OSError`` as ``urllib`` does). ``timeout``:
    seconds an answer may take."""

    def __init__(self, base: str, timeout: float = 60):
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

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
        """The cookie ``name`` this browser holds, or ``None``."""
        return next((c for c in self.jar if c.name == name), None)

    def form_post(self, page, path, data) -> tuple[int, dict, bytes]:
        """GET ``page`` for its CSRF token, POST ``data`` with it to ``path``."""
        _status, _headers, body = self.request(page)
        token = CSRF.search(body)
        assert token, f"no form on {page}"
        return self.request(path, {"csrfmiddlewaretoken": token.group(1).decode(), **data})

    def log_in(self, username: str, password: str) -> bool:
        """Log in through the login page; whether it was accepted (the redirect after it)."""
        _status, _headers, body = self.request("/accounts/login/")
        token = CSRF.search(body)
        status, _headers, _body = self.request(
            "/accounts/login/",
            {"csrfmiddlewaretoken": token.group(1).decode() if token else "", "username": username, "password": password, "next": "/"},
        )
        return status == 302
