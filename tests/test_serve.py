"""``scripts/serve`` serves the app for real, as at a venue: gunicorn with DEBUG off on a free port,
the pages cached in Redis (``TEST_REDIS_URL``, default the machine's own), static files through
WhiteNoise, login over plain HTTP, links and QR codes on PUBLIC_URL, standings answering 304 to
their ETag until a hand is saved, an export rendered once per data version and a heavy one rendered
by the worker it starts beside the app server; the worker killed is started again while the site
serves on, and a database whose account still has the demo's password is refused before anything
listens.

The server runs on a SQLite file of its own (the embedded default a laptop uses); the data is
made with ``manage.py shell`` against the same file, as a director would with the pages.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench.plain_http import Browser, free_port

ROOT = Path(__file__).resolve().parent.parent

SEED = """
import json
from django.contrib.auth import get_user_model
from tournaments import services
from tournaments.models import Player, Tournament, TournamentRole
leiter = get_user_model().objects.create_user("leiter", password="geheim-123")
t = Tournament.objects.create(name="Venue Cup", date="2026-11-24", ruleset="tiroler-tarockcup", edition="2019/20")
TournamentRole.objects.create(tournament=t, user=leiter, level="director")
for i in range(4):
    services.register(t, Player.objects.create(name=f"Spieler {i + 1}"))
table = services.draw_next_round(t, seed=7).tables.get()
print(json.dumps({"t": t.pk, "table": table.pk, "dealer": table.dealer_of(1, 4), "token": table.token}))
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'venue.sqlite3'}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "PUBLIC_URL": f"http://tarock.venue.test:{port}",
        "ALLOWED_HOSTS": "127.0.0.1,tarock.venue.test",
        "STATIC_ROOT": str(tmp / "static"),
        "DATA_DIR": str(tmp / "data"),
        "WEB_CONCURRENCY": "2",
        "EXPORT_HEAVY_FROM": "results:1",  # the worker renders the table results, even of one table
        # The shared cache of a server (the machine's Redis; keys carry each tournament's creation
        # time, so another run's pages in it are never taken for this run's).
        "REDIS_URL": os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/9"),
    }
    env.pop("DEBUG", None)
    log = open(tmp / "serve.log", "w")
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=30)
                break
            except OSError:  # not listening yet, or the first answer slow on a busy machine
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("scripts/serve did not start:\n" + (tmp / "serve.log").read_text())
                time.sleep(0.5)
        seeded = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        data = json.loads(seeded.stdout.strip().splitlines()[-1])
        yield {
            "base": base, "port": port, "public": env["PUBLIC_URL"], "log": tmp / "serve.log", "data_dir": tmp / "data",
            "pid": server.pid, **data,
        }
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


def log_in(served) -> Browser:
    director = Browser(served["base"])
    status, _headers, body = director.request("/accounts/login/")
    assert status == 200
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    status, headers, _body = director.request(
        "/accounts/login/", {"csrfmiddlewaretoken": token, "username": "leiter", "password": "geheim-123", "next": "/"}
    )
    assert status == 302, "the login over plain HTTP was refused"
    assert not director.cookie("sessionid").secure  # a Secure cookie would never come back over http://
    return director


def test_pages_and_static_files_answer_with_debug_off(served):
    visitor = Browser(served["base"])
    status, _headers, body = visitor.request("/")
    assert status == 200
    css = re.search(rb'href="(/static/css/app\.[0-9a-f]+\.css)"', body)  # hashed by collectstatic
    assert css, body[:500]
    status, headers, _body = visitor.request(css.group(1).decode())
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    status, _headers, body = visitor.request("/no-such-page/")
    assert status == 404 and b"Seite nicht gefunden" in body and b'class="top"' in body  # translated, in the layout


def test_login_over_plain_http_and_the_table_card_carries_public_url(served):
    director = log_in(served)
    status, _headers, body = director.request(f"/manage/table/{served['table']}/card/")
    assert status == 200
    assert f"{served['public']}/sheet/{served['token']}/".encode() in body
    assert b"127.0.0.1" not in body


def test_standings_answer_304_until_a_hand_is_saved(served):
    viewer = Browser(served["base"])
    path = f"/t/{served['t']}/standings/"
    status, headers, _body = viewer.request(path)
    assert status == 200
    tag = headers["ETag"]
    status, _headers, _body = viewer.request(path, headers={"If-None-Match": tag})
    assert status == 304

    director = log_in(served)
    status, _headers, body = director.request(f"/table/{served['table']}/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    hand = {"csrfmiddlewaretoken": token, "number": "1", "outcome": "played", "dealer": str(served["dealer"]), "quick": "d 2 +", "source": "line"}
    status, _headers, _body = director.request(f"/manage/table/{served['table']}/hands/", hand)
    assert status == 302

    status, headers, body = viewer.request(path, headers={"If-None-Match": tag})
    assert status == 200 and headers["ETag"] != tag


def test_an_export_is_rendered_once_per_version_and_heavy_ones_by_the_worker(served):
    viewer = Browser(served["base"])
    path = f"/t/{served['t']}/standings.xlsx"
    status, headers, first = viewer.request(path)
    assert status == 200 and first.startswith(b"PK")
    stored = sorted((served["data_dir"] / "media" / "exports").rglob("*.xlsx"))
    assert len(stored) == 1
    made = stored[0].stat().st_mtime_ns
    status, _headers, again = viewer.request(path)
    assert again == first and stored[0].stat().st_mtime_ns == made  # read back, not rendered again

    results = f"/t/{served['t']}/round/1/results.pdf"
    status, headers, _body = viewer.request(results)
    assert status == 302
    waiting = urllib.parse.urlsplit(headers["Location"])
    job_path = f"{waiting.path}?{waiting.query}"
    deadline = time.monotonic() + 60
    while True:
        status, headers, body = viewer.request(job_path)
        if status == 200:
            break
        assert status == 202, body[:300]
        assert time.monotonic() < deadline, "the worker did not prepare the table results"
        time.sleep(0.5)
    assert headers["Content-Type"] == "application/pdf" and body.startswith(b"%PDF")


def children(pid: int) -> dict[int, str]:
    """The running child processes of ``pid``: {pid: command line} (from /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found[int(entry.name)] = cmdline
    return found


def worker_pid(served) -> int | None:
    return next((p for p, cmd in children(served["pid"]).items() if "run_worker" in cmd), None)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")
def test_the_worker_killed_is_started_again_and_the_site_serves_on(served):
    first = worker_pid(served)
    assert first, children(served["pid"])
    os.kill(first, signal.SIGKILL)
    visitor = Browser(served["base"])
    deadline = time.monotonic() + 30
    while (again := worker_pid(served)) in (None, first):
        assert visitor.request("/")[0] == 200  # the app server never stops answering
        assert time.monotonic() < deadline, "the worker was not started again:\n" + served["log"].read_text()
        time.sleep(0.2)
    assert again != first
    assert "the worker ended (killed by SIGKILL)" in served["log"].read_text()

    # The new worker prepares a heavy export (in English: a job of its own).
    english = Browser(served["base"])
    results = f"/t/{served['t']}/round/1/results.pdf"
    status, headers, _body = english.request(results, headers={"Accept-Language": "en"})
    assert status == 302
    waiting = urllib.parse.urlsplit(headers["Location"])
    deadline = time.monotonic() + 60
    while (answer := english.request(f"{waiting.path}?{waiting.query}", headers={"Accept-Language": "en"}))[0] == 202:
        assert time.monotonic() < deadline, "the new worker did not prepare the table results"
        time.sleep(0.5)
    assert answer[0] == 200 and answer[2].startswith(b"%PDF")


DEMO_DIRECTOR = """
from scoring.demo import ensure_director
ensure_director()
"""


def test_the_venue_server_refuses_to_start_while_an_account_has_the_demo_password(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'venue.sqlite3'}",
        "DATA_DIR": str(tmp_path / "data"),
        "STATIC_ROOT": str(tmp_path / "static"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    env.pop("DEBUG", None)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, check=True, timeout=300)
    subprocess.run([*manage, "shell", "-c", DEMO_DIRECTOR], cwd=ROOT, env=env, capture_output=True, check=True, timeout=120)
    refused = subprocess.run(
        [str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert refused.returncode != 0
    assert "“director” still has the demo's published password" in refused.stderr
    assert ".venv/bin/python manage.py changepassword director" in refused.stderr
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()  # nothing ever listened
