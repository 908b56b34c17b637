"""A venue and a public site, each a real server (``scripts/serve``: gunicorn with DEBUG off, the
venue with its task worker) on a free port and a SQLite file of its own, started by this test:
the director names the site and the key on the publish page, the mirror on the site shows the
venue's standings; a hand saved at the venue reaches the mirror within seconds; the site stopped,
three hands saved, the site started again: within 30 s the mirror equals the venue (the standings'
rows, every table's hands, every player's score in every hand, read through the public API of
both); and an older version replayed with ``manage.py publish`` is acknowledged as ignored and
changes nothing.

The data is made as a director would make it: the site's organiser and his key with
``manage.py shell`` and ``manage.py publishing_key``, the venue's tournament with ``manage.py
shell`` through the services, the hands through the table's sheet as a logged-in director.
Skipped where no server can be started here (no ``os.killpg``, no ``.venv/bin/gunicorn``, no
loopback port) or with ``TAROCK_SKIP_SERVERS=1``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench.plain_http import CSRF, Browser, free_port

from bench.publish_bench import first_difference  # where the mirror and the venue first differ

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "geheim-Pub-123"
VENUE_NAME = "Gasthof Post, Imst"


def _can_serve() -> bool:
    if os.environ.get("TAROCK_SKIP_SERVERS") == "1" or not hasattr(os, "killpg"):
        return False
    if not (ROOT / ".venv" / "bin" / "gunicorn").exists():
        return False
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
    except OSError:
        return False
    return True


pytestmark = pytest.mark.skipif(not _can_serve(), reason="no server can be started here (scripts/serve on a loopback port)")

SITE_SEED = """
from django.contrib.auth import get_user_model
from tournaments.roles import organisers_group
user = get_user_model().objects.create_user("obmann", password=%r)
user.groups.add(organisers_group())
""" % PASSWORD

VENUE_SEED = """
import json, random
from django.contrib.auth import get_user_model
from scoring.services import build_sheet, save_hand
from tournaments import services
from tournaments.models import Player, Tournament, TournamentRole
leiter = get_user_model().objects.create_user("leiter", password=%r)
t = Tournament.objects.create(name="Imster Tarockabend", date="2026-11-24", venue=%r,
                              ruleset="tiroler-tarockcup", edition="2019/20", rounds=2, hands_per_round=8)
TournamentRole.objects.create(tournament=t, user=leiter, level="director")
for i in range(8):
    services.register(t, Player.objects.create(name=f"Spieler {i + 1}", club="Imst"))
tables = list(services.draw_next_round(t, seed=7).tables.order_by("number"))
rng = random.Random(3)
for table in tables:
    for _ in range(2):
        sheet = build_sheet(table)
        save_hand(table, sheet.info.ruleset.random_hand(rng, sheet.info.size, sheet.next_dealer), leiter)
t.refresh_from_db()
print(json.dumps({"t": t.pk, "uid": str(t.uid), "tables": [x.pk for x in tables], "version": t.data_version}))
""" % (PASSWORD, VENUE_NAME)

LAST_PUSH = """
import json
from publishing.models import PushLog
p = PushLog.objects.order_by("-pk").first()
print(json.dumps({"outcome": p.outcome, "version": p.version, "status": p.status}))
"""

NUMBER = re.compile(rb'<input[^>]*\bname="number" value="(\d+)"')
DEALER = re.compile(rb'<select[^>]*\bname="dealer"[^>]*>(.*?)</select>', re.S)
SELECTED = re.compile(rb'<option value="(\d+)" selected>')
# What differs between the venue's tournament and the site's copy of it: database ids and addresses.
LOCAL_KEYS = {"id", "player_id", "tournament", "tournament_id", "table_id", "links", "link", "mirrored_from"}


def api(base: str, path: str):
    """The JSON of the public API at ``base + path`` (redirects followed: a mirror's old copy
    leads to its current one), or ``None`` for a 404 or no answer."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as response:
            return json.loads(response.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def local_free(value):
    """``value`` without the keys that name database rows or addresses (:data:`LOCAL_KEYS`)."""
    if isinstance(value, dict):
        return {k: local_free(v) for k, v in value.items() if k not in LOCAL_KEYS}
    if isinstance(value, list):
        return [local_free(v) for v in value]
    return value


class Served:
    """One ``scripts/serve`` (its gunicorn, and its worker with ``worker``) on a free port with a
    SQLite file, a data folder and static folder of its own under ``folder``."""

    def __init__(self, name: str, folder: Path, *, worker: bool, processes: int):
        self.name, self.folder = name, folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "PUBLIC_URL": self.base,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_ROOT": str(folder / "static"),
            "DATA_DIR": str(folder / "data"),
            "WEB_CONCURRENCY": str(processes),
            "WORKER": "1" if worker else "0",
            "BACKUP_MINUTES": "0",
            "LOG_LEVEL": "INFO",
        }
        for name_ in ("DEBUG", "REDIS_URL", "SECRET_KEY"):  # DEBUG off: the database task backend
            self.env.pop(name_, None)
        self.proc = None
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.folder / f"serve-{self.starts}.log"

    def start(self) -> None:
        self.starts += 1
        self.log = open(self.log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")], cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/v1/", timeout=10):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"scripts/serve ({self.name}) did not start:\n{self.tail()}")
                time.sleep(0.3)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        if self.proc is not None:
            self.log.close()
        self.proc = None

    def manage(self, *args, database: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
        env = dict(self.env)
        if database is not None:
            env["DATABASE_URL"] = f"sqlite:///{database}"
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        if check and done.returncode != 0:
            pytest.fail(f"manage.py {args[0]} ({self.name}) failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done

    def tail(self, lines: int = 60) -> str:
        text = "\n".join(
            path.read_text(encoding="utf-8", errors="replace") for path in sorted(self.folder.glob("serve-*.log"))
        )
        return "\n".join(text.splitlines()[-lines:])


@pytest.fixture
def servers(tmp_path):
    venue = Served("venue", tmp_path / "venue", worker=True, processes=2)
    site = Served("site", tmp_path / "site", worker=False, processes=2)
    try:
        for served in (venue, site):  # both start at once: their migrations run side by side
            served.folder.mkdir()
            served.start()
        for served in (venue, site):
            served.wait_ready()
        yield venue, site
    finally:
        for served in (venue, site):
            served.stop()


def save_hand_as_director(director: Browser, table: int) -> int:
    """The next hand of ``table``, as the director types it on the sheet (the quick line: a Dreier
    of seat 1, won); returns its number."""
    status, _headers, body = director.request(f"/table/{table}/")
    assert status == 200
    number, dealer, token = NUMBER.search(body), DEALER.search(body), CSRF.search(body)
    assert number and dealer and token, "no entry form on the sheet"
    chosen = SELECTED.search(dealer.group(1))
    status, _headers, _body = director.request(f"/manage/table/{table}/hands/", {
        "csrfmiddlewaretoken": token.group(1).decode(), "number": number.group(1).decode(), "outcome": "played",
        "dealer": chosen.group(1).decode(), "quick": "d 1 +", "source": "line",
    })
    assert status == 302, f"the hand was not saved ({status})"
    return int(number.group(1))


def mirror_id(site: Served, uid: str) -> int | None:
    """The id of the mirror's current copy on the site, from its stable address ``/m/<uid>/``
    (``None`` while it has none). Not the API's ``uid``: that is the copy's own."""
    visitor = Browser(site.base, timeout=30)
    try:
        status, headers, _body = visitor.request(f"/m/{uid}/")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None
    found = re.fullmatch(r"/t/(\d+)/", headers.get("Location", "")) if status == 302 else None
    return int(found.group(1)) if found else None


def mirror_summary(site: Served, uid: str) -> dict | None:
    """The mirror as the site's API shows it (``/api/v1/tournaments/<id>/``), or ``None``."""
    pk = mirror_id(site, uid)
    return None if pk is None else api(site.base, f"/api/v1/tournaments/{pk}/")


def compared(venue: Served, site: Served, t: int, uid: str) -> tuple[dict, dict]:
    """``(the venue's, the mirror's)`` tournament as the public API shows it, ids and addresses
    left out: the version, the standings, the rounds' tables and every player's hands. The
    mirror's side is ``{}`` while the site has none (or changed copy on the way)."""
    summary = mirror_summary(site, uid)
    if summary is None:
        return {"version": "venue"}, {}
    sides = []
    for base, pk in ((venue.base, t), (site.base, summary["id"])):
        standings = api(base, f"/api/v1/tournaments/{pk}/standings/")
        rounds = api(base, f"/api/v1/tournaments/{pk}/rounds/")
        detail = api(base, f"/api/v1/tournaments/{pk}/")
        if not (standings and rounds and detail):
            return {"version": "venue"}, {}
        players = {}
        for row in standings["rows"]:
            page = api(base, f"/api/v1/tournaments/{pk}/players/{row['player_id']}/")
            if page is None:
                return {"version": "venue"}, {}
            players[row["start_number"]] = local_free(page)
        sides.append({
            "version": detail["data_version"], "standings": local_free(standings["rows"]),
            "rounds": local_free(rounds["rounds"]), "players": players,
        })
    return sides[0], sides[1]


def wait_until_equal(venue, site, t, uid, seconds: float) -> tuple[float, dict]:
    """Seconds until the mirror equals the venue (fails the test after ``seconds``), and the
    state compared."""
    started = time.monotonic()
    here, there = {}, None
    while time.monotonic() - started < seconds:
        here, there = compared(venue, site, t, uid)
        if here == there:
            return time.monotonic() - started, here
        time.sleep(0.5)
    pytest.fail(
        f"the mirror did not equal the venue within {seconds} s: venue version {here.get('version')}, "
        f"mirror {there.get('version') if there else None}; {first_difference(here, there)}\nvenue log:\n{venue.tail()}\nsite log:\n{site.tail()}"
    )


def test_a_venue_publishes_to_a_public_site_through_an_outage(servers, tmp_path):
    venue, site = servers

    # The site's organiser and his key; the venue's tournament, 2 tables with 2 hands each.
    site.manage("shell", "-c", SITE_SEED)
    key = site.manage("publishing_key", "obmann", "--label", VENUE_NAME).stdout.strip().splitlines()[-1]
    assert key.startswith("tpk_")
    seeded = json.loads(venue.manage("shell", "-c", VENUE_SEED).stdout.strip().splitlines()[-1])
    t, uid, tables = seeded["t"], seeded["uid"], seeded["tables"]

    # The director names the site and the key on the publish page.
    director = Browser(venue.base, timeout=30)
    status, _headers, _body = director.form_post("/accounts/login/", "/accounts/login/", {"username": "leiter", "password": PASSWORD, "next": "/"})
    assert status == 302, "the director's login was refused"
    status, _headers, _body = director.form_post(f"/manage/t/{t}/publish/", f"/manage/t/{t}/publish/", {"url": site.base, "key": key, "enabled": "on"})
    assert status == 302, f"the publish page did not save ({status})"
    took, state = wait_until_equal(venue, site, t, uid, 30)
    print(f"[e2e] equal after {took:.1f} s, version {state['version']}", flush=True)
    assert state["version"] >= seeded["version"]
    assert [row["name"] for row in state["standings"]] and len(state["players"]) == 8
    mirror = mirror_summary(site, uid)
    assert mirror["mirrored_from"] == VENUE_NAME
    copy_id = mirror_id(site, uid)

    # A snapshot of the venue at this version, for the replay at the end.
    old = tmp_path / "venue-old.sqlite3"
    with sqlite3.connect(venue.folder / "db.sqlite3") as source, sqlite3.connect(old) as copy:
        source.backup(copy)
    old_version = state["version"]

    # A hand saved at the venue: the mirror follows within seconds.
    save_hand_as_director(director, tables[0])
    took, state = wait_until_equal(venue, site, t, uid, 15)
    print(f"[e2e] equal after {took:.1f} s, version {state['version']}", flush=True)
    assert state["version"] > old_version
    assert took < 10, f"the mirror took {took:.1f} s to follow a saved hand"
    assert mirror_id(site, uid) == copy_id  # only hands changed: a patch, written into the same copy

    # The site stops; three hands are saved meanwhile; the site starts again on its port.
    site.stop()
    for table in (tables[0], tables[1], tables[1]):
        save_hand_as_director(director, table)
    deadline = time.monotonic() + 15  # the venue's next push fails: it waits for the network
    while True:
        status, _headers, body = director.request(f"/manage/t/{t}/publish/status/", headers={"Accept-Language": "en"})
        if status == 200 and b"Waiting for the network since" in body:
            break
        assert time.monotonic() < deadline, body
        time.sleep(0.5)
    assert b"versions behind" in body, body
    site.start()
    site.wait_ready()
    took, state = wait_until_equal(venue, site, t, uid, 30)
    print(f"[e2e] equal after {took:.1f} s, version {state['version']}", flush=True)
    assert sum(table["hands_played"] for r in state["rounds"] for table in r["tables"]) == 2 * 2 + 4
    assert mirror_id(site, uid) == copy_id  # the backlog too: one patch of the version the site kept
    stored = mirror_summary(site, uid)

    # An older version replayed with manage.py publish: acknowledged, ignored, nothing changed.
    replay = venue.manage("publish", str(t), "--to", site.base, "--key", key, database=old, check=False)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert str(old_version) in replay.stdout, replay.stdout
    last = site.manage("shell", "-c", LAST_PUSH).stdout.strip().splitlines()[-1]
    assert json.loads(last) == {"outcome": "ignored", "version": old_version, "status": 200}
    assert mirror_summary(site, uid) == stored
    assert compared(venue, site, t, uid)[1] == state
