"""Errors are seen. A server error is written to stderr with its traceback; the visitor
gets a translated page in the site's layout, for 404 and 500 alike."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent.parent

RAISE = """
import django, logging
django.setup()
try:
    1 / 0
except ZeroDivisionError:
    logging.getLogger("django.request").exception("Internal Server Error: /t/1/standings/")
"""


def test_a_request_error_reaches_stderr_with_its_traceback(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if k != "DEBUG"}, "DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "-c", RAISE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert "ERROR django.request: Internal Server Error: /t/1/standings/" in out.stderr
    assert "Traceback (most recent call last)" in out.stderr and "ZeroDivisionError" in out.stderr


@pytest.mark.django_db
def test_a_server_error_shows_a_translated_page_in_the_layout(monkeypatch):
    from scoring import views_public

    def broken(self, *args, **kwargs):
        raise RuntimeError("the standings could not be computed")

    monkeypatch.setattr(views_public.StandingsView, "get", broken)
    visitor = Client(raise_request_exception=False)
    german = visitor.get("/t/1/standings/")
    assert german.status_code == 500
    page = german.content.decode()
    assert "Etwas ist schiefgelaufen" in page and 'class="top"' in page  # the site's header
    assert "RuntimeError" not in page  # no traceback for the visitor
    english = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en").get("/t/1/standings/")
    assert "Something went wrong" in english.content.decode()


@pytest.mark.django_db
def test_not_found_and_forbidden_are_translated_pages_in_the_layout(director_client, four_table, django_user_model):
    page = Client(HTTP_ACCEPT_LANGUAGE="sl").get("/no-such-page/")
    assert page.status_code == 404 and 'class="top"' in page.content.decode()
    assert "Strani ni" in page.content.decode()
    player = django_user_model.objects.create_user("spieler", password="x-123-geheim")
    visitor = Client()
    visitor.force_login(player)
    refused = visitor.get(f"/manage/t/{four_table.round.tournament_id}/board/")
    assert refused.status_code == 403 and "Nicht erlaubt" in refused.content.decode()
