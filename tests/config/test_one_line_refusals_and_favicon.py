"""A refused request is one line in the server's log (status, path, user), not a traceback, while a
server error keeps its traceback; no log line holds the key of a reset or sign-in link; and
``/favicon.ico`` answers with the site's icon instead of a 404."""

import datetime
import io
import logging
from types import SimpleNamespace

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from gunicorn.glogging import SafeAtoms
from PIL import Image

from config.log_filters import HIDDEN, SIGN_IN_HIDDEN, redact


@pytest.fixture
def server_log():
    """What the settings' stderr handler writes (the one gunicorn passes to the journal)."""
    handler = next(h for h in logging.getLogger("django").handlers if h.get_name() == "stderr")
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        yield stream
    finally:
        handler.setStream(old)


@pytest.mark.django_db
def test_a_403_is_one_line_with_status_path_and_user(server_log, four_table, django_user_model):
    player = django_user_model.objects.create_user("spieler", password="x-123-geheim")
    visitor = Client()
    visitor.force_login(player)
    path = f"/manage/t/{four_table.round.tournament_id}/board/"
    assert visitor.get(path).status_code == 403
    lines = server_log.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "WARNING django.request: Forbidden (Permission denied): " + path in lines[0]
    assert lines[0].endswith("[403 GET, user spieler]")
    assert "Traceback" not in server_log.getvalue()


@pytest.mark.django_db
def test_a_server_error_keeps_its_traceback(server_log, monkeypatch):
    from scoring import views_public

    def broken(self, *args, **kwargs):
        raise RuntimeError("the standings could not be computed")

    monkeypatch.setattr(views_public.StandingsView, "get", broken)
    assert Client(raise_request_exception=False).get("/t/1/standings/").status_code == 500
    text = server_log.getvalue()
    assert "ERROR django.request: Internal Server Error: /t/1/standings/" in text
    assert "Traceback (most recent call last)" in text and "RuntimeError" in text


@pytest.mark.django_db
def test_a_suspicious_request_is_one_line_too(server_log, settings):
    settings.ALLOWED_HOSTS = ["tarock.example.org"]
    assert Client(HTTP_HOST="evil.example.com").get("/").status_code == 400
    text = server_log.getvalue()
    assert "django.security.DisallowedHost" in text and "[400 GET, user " in text
    assert "Traceback" not in text


def test_no_log_line_holds_the_key_of_a_link():
    assert redact("Gone: /accounts/sign-in/Q2x7-abc_DEF/") == f"Gone: {SIGN_IN_HIDDEN}"
    assert redact("GET /accounts/reset/MQ/cj4k2m-abc/ HTTP/1.1") == f"GET {HIDDEN} HTTP/1.1"
    assert redact("GET /accounts/sign-in/ HTTP/1.1") == "GET /accounts/sign-in/ HTTP/1.1"  # no key in it


SIGN_IN_KEY = "Q2x7-abc_DEF0123456789ghijklmnopqrstuvwxyz0"
RESET_TOKEN = "cj4k2m-5f0e8d2a9b1c7e3f4a6b"


def test_gunicorns_access_log_holds_no_key_of_a_link():
    """gunicorn's access log (config.access_log.RedactingLogger, the logger_class scripts/serve
    starts gunicorn with): a sign-in link opened from a page whose address was a reset link. Its
    path, request line, Referer (as a header and in the environment) and a Location answered are
    each logged with ``…`` in place of the keys, whatever the format prints."""
    from gunicorn.config import Config

    from config.access_log import RedactingLogger

    sign_in = f"/accounts/sign-in/{SIGN_IN_KEY}/"
    reset = f"https://tarock.example.org/accounts/reset/MQ/{RESET_TOKEN}/"
    environ = {
        "REMOTE_ADDR": "192.0.2.7",
        "REQUEST_METHOD": "GET",
        "RAW_URI": sign_in + "?from=qr",
        "PATH_INFO": sign_in,
        "QUERY_STRING": "from=qr",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": reset,
        "HTTP_USER_AGENT": "Mozilla/5.0 (Android)",
    }
    request = SimpleNamespace(headers=[("HOST", "tarock.example.org"), ("REFERER", reset)])
    response = SimpleNamespace(status="302 Found", sent=0, headers=[("Location", f"/accounts/reset/MQ/{RESET_TOKEN}/")])
    logger = RedactingLogger(Config())
    atoms = logger.atoms(response, request, environ, datetime.timedelta(milliseconds=12))
    logged = "\n".join(str(value) for value in atoms.values())
    assert SIGN_IN_KEY not in logged and RESET_TOKEN not in logged, logged
    assert atoms["r"] == f"GET {SIGN_IN_HIDDEN}?from=qr HTTP/1.1" and atoms["U"] == SIGN_IN_HIDDEN
    assert atoms["f"] == atoms["{referer}i"] == atoms["{http_referer}e"] == f"https://tarock.example.org{HIDDEN}"
    assert atoms["{location}o"] == HIDDEN
    line = Config().access_log_format % SafeAtoms(atoms)  # gunicorn's default format, as logged
    assert SIGN_IN_HIDDEN in line and SIGN_IN_KEY not in line and RESET_TOKEN not in line


@pytest.mark.django_db
def test_a_refused_link_is_logged_without_its_key(server_log):
    assert Client().get("/accounts/sign-in/NoSuchKey-123/").status_code == 410
    text = server_log.getvalue()
    assert SIGN_IN_HIDDEN in text and "NoSuchKey-123" not in text


@pytest.mark.django_db
def test_favicon_ico_is_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.ico"
    assert "max-age=86400" in response["Cache-Control"]
    icon = Image.open(finders.find("favicon.ico"))
    assert icon.format == "ICO" and icon.size[0] >= 16
    page = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in page and "data:," not in page
    assert finders.find("favicon.svg")


def test_the_access_log_says_how_long_each_answer_took():
    """The served app's access line (``config/gunicorn.py``) ends with the request's time, so an
    operator finds a slow answer in the log; the rest is gunicorn's own line."""
    import runpy
    from pathlib import Path

    from gunicorn.config import Config

    from config.access_log import RedactingLogger

    settings = runpy.run_path(str(Path(__file__).resolve().parents[2] / "config" / "gunicorn.py"))
    environ = {"REMOTE_ADDR": "192.0.2.7", "REQUEST_METHOD": "GET", "RAW_URI": "/t/5/standings/", "PATH_INFO": "/t/5/standings/",
               "QUERY_STRING": "", "SERVER_PROTOCOL": "HTTP/1.1"}
    atoms = RedactingLogger(Config()).atoms(SimpleNamespace(status="200 OK", sent=5120, headers=[]), SimpleNamespace(headers=[]),
                                            environ, datetime.timedelta(milliseconds=143))
    line = settings["access_log_format"] % SafeAtoms(atoms)
    assert line.startswith('192.0.2.7 - - [') and '"GET /t/5/standings/ HTTP/1.1" 200 5120' in line
    assert line.endswith(" 143ms"), line

