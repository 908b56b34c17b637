#!/usr/bin/env python
"""Fault-injection benchmark: the served app while its parts fail, one fault after the other.

Starts ``scripts/serve`` (gunicorn with ``WEB_CONCURRENCY`` app workers and the background worker,
DEBUG off) on a PostgreSQL database of its own (``tarock_faults_<pid>``), a private
``redis-server`` on a spare loopback port as its cache and a data folder (``DATA_DIR``) on a small
tmpfs it mounts, with ``BACKUP_MINUTES=1`` and ``EXPORT_HEAVY_FROM=results:1,score-sheets:1`` (every
table results and score sheets PDF goes to the worker). A Tiroler Tarockcup with ``--players``
players and round 1 drawn is built through the project's services (``manage.py shell -c``).

A bounded load runs the whole time: ``--viewers`` anonymous threads fetching the tournament page,
the standings, a table's sheet, the seating, the standings PDF and workbook, and ``--scorers``
threads saving hands through the sheet's entry form as a logged-in director (``POST
/manage/table/<pk>/hands/`` with the quick line ``d <seat> +|-``). Every hand answered with the
redirect to its sheet is *acknowledged*; every export answered 200 is opened (pypdf, openpyxl).

After a baseline without a fault, these faults are injected in turn:

1. ``kill -9`` of the worker (``manage.py db_worker``, or the project's ``run_worker`` around it)
   while it renders a heavy export, whose page is then polled for ``--job-wait`` seconds;
2. the Redis cache killed, ``--outage`` seconds of load, Redis started again on its port;
3. the database taken away for ``--db-outage`` seconds (``ALTER DATABASE ... ALLOW_CONNECTIONS
   false`` and every connection terminated; the shared server itself keeps running);
4. the data folder's disk filled with a file while exports are requested (and a backup written,
   as the schedule would), the same exports requested again after the space is freed;
5. ``kill -9`` of a gunicorn app worker while it handles a save (the worker holding the save's
   connection is found by its socket), ``--kills`` times.

After each fault the benchmark measures how many seconds the site took to answer a page with 200
and keep answering 200 for 3 s (goal: within 10 s of the fault's end; a request started after that
which still fails is reported and fails the fault; when the site does not come back at all,
``scripts/serve`` is started again so the next fault has a server). Then, with the scorers paused,
it writes a backup with the ``backup_tournaments`` command (what the schedule runs; its archives
are only written once a minute) and checks:

- every acknowledged hand of the fault's phase is in the database;
- every export served with 200 is whole (size > 0; PDFs open with pypdf, workbooks with openpyxl);
- the newest archive in ``DATA_DIR/backups`` restores with the ``import_tournament`` command into a
  fresh migrated database (``tarock_faults_<pid>_r<n>``, a copy of a migrated empty template) with
  each player's total and rank, and the number of hands, as ``scoring.standings.compute_standings``
  gives them in the served database at the same data version; every archive in the folder is also
  read back (gzip and JSON), and any other file left in the folder is reported. Each command runs
  in a ``manage.py shell`` that computes the standings right after it (one start of Django).

Prints a table (fault | site back after (s) | hands acknowledged / missing | exports served /
incomplete | backup restores | notes), writes ``bench/results/faults.json`` and the server's log
beside it, and exits 1 when a check failed. Everything is bounded (``--time-limit``, default 570 s,
after which the remaining faults are skipped; a hard stop 45 s later), listens on and talks to
loopback only, and is cleaned up in ``finally`` blocks, also on Ctrl-C and SIGTERM: the servers, the
private Redis, the databases and the mount. Needs root for the tmpfs (otherwise fault 4 is
skipped). Run from the project root with the project's virtualenv::

    .venv/bin/python bench/faults.py
    .venv/bin/python bench/faults.py --only 2,3          # some faults only

``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/postgres``) names the PostgreSQL
server only; the benchmark's databases are created and dropped on it.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import http.cookiejar
import io
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from plain_http import NoRedirect, free_port  # this script's folder is first on the path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/postgres"
PASSWORD = "faults-director-123"
BACK_GOAL_S = 10.0  # the site answers within this many seconds of a fault's end
BACK_WATCH_S = 30.0  # how long the benchmark waits for it before starting scripts/serve again
HOLD_S = 3.0  # ... answering 200 all that time: the site is back, not answering one last time
MARK = "FAULTS-JSON "

NUMBER = re.compile(r'<input[^>]*\bname="number" value="(\d+)"')
DEALER = re.compile(r'<select[^>]*\bname="dealer"[^>]*>(.*?)</select>', re.S)
SELECTED = re.compile(r'<option value="(\d+)" selected>')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
JOB = re.compile(r"[?&]job=(\d+)")
ERRORS = re.compile(r'class="(?:errors|preview-errors|errorlist)"[^>]*>(.*?)</(?:div|ul)>', re.S)

BUILD = """
import json, os
from django.contrib.auth import get_user_model
from scoring.exporters.models import ExportJob
from scoring.models import Hand
from tournaments import services
from tournaments.models import Player, Tournament, TournamentRole
director = get_user_model().objects.create_user("faults-director", password=os.environ["FAULTS_PASSWORD"])
t = Tournament.objects.create(name="Fault Cup", date="2026-11-26", ruleset="tiroler-tarockcup", edition="2019/20")
TournamentRole.objects.create(tournament=t, user=director, level="director")
for i in range(int(os.environ["FAULTS_PLAYERS"])):
    services.register(t, Player.objects.create(name=f"Faults Spieler {i + 1:02d}"))
rnd = services.draw_next_round(t, seed=11)
tables = list(rnd.tables.order_by("pk").values_list("pk", flat=True))
print(%r + json.dumps({"t": t.pk, "round": rnd.number, "tables": tables, "hand_table": Hand._meta.db_table,
                       "job_table": ExportJob._meta.db_table, "table_table": rnd.tables.model._meta.db_table}))
""" % MARK

STANDINGS = """
import io, json, os
from django.core.management import call_command
from scoring.models import Hand
from scoring.standings import compute_standings
from tournaments.models import Tournament
out = {"command": "", "command_error": ""}
command = os.environ.get("FAULTS_COMMAND", "")
if command:
    # The management command first, in this process (backup_tournaments / import_tournament FILE).
    words = command.split(" ", 1)
    errors = io.StringIO()
    try:
        call_command(*words, stdout=io.StringIO(), stderr=errors)
        out["command"] = "ok"
    except BaseException as error:
        out["command"] = "failed"
        out["command_error"] = (f"{type(error).__name__}: {error} " + errors.getvalue().strip())[:400]
pk = os.environ.get("FAULTS_T")
t = Tournament.objects.filter(pk=int(pk)).first() if pk else Tournament.objects.order_by("pk").first()
if t is not None:
    s = compute_standings(t)
    out.update({"t": t.pk, "version": t.data_version, "hands": Hand.objects.filter(table__round__tournament=t).count(),
                "rows": [[r.entry.name, r.total, r.rank] for r in s.rows]})
print(%r + json.dumps(out))
""" % MARK


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def last_line(text: str) -> str:
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


class Stop(Exception):
    """SIGTERM or the hard time limit: unwind and clean up."""


def _stop(signum, _frame):
    raise Stop(signal.Signals(signum).name)


# --------------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------------


class Browser:
    """Cookies kept, redirects not followed; ``request`` returns ``(status, headers, body, error)``
    and never raises: status 0 with the error's text when no answer came."""

    def __init__(self, base: str, timeout: float = 30):
        self.base, self.timeout = base, timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def request(self, path: str, data: dict | None = None, timeout: float | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body)
        try:
            with self.opener.open(req, timeout=timeout or self.timeout) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read(), ""
        except urllib.error.HTTPError as error:
            try:
                content = error.read()
            except Exception:
                content = b""
            return error.code, {k.lower(): v for k, v in error.headers.items()}, content, ""
        except Exception as error:  # refused, reset, timed out, cut off mid-answer
            return 0, {}, b"", f"{type(error).__name__}: {error}"[:200]

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def log_in(self, username: str, password: str) -> bool:
        _status, _headers, body, _error = self.request("/accounts/login/")
        token = CSRF.search(body.decode("utf-8", "replace"))
        status, _headers, _body, _error = self.request(
            "/accounts/login/",
            {"csrfmiddlewaretoken": token.group(1) if token else "", "username": username, "password": password, "next": "/"},
        )
        return status == 302


def check_export(path: str, body: bytes) -> str:
    """``""`` when the downloaded export is whole, else why not."""
    if not body:
        return "empty file"
    try:
        if path.endswith(".pdf"):
            from pypdf import PdfReader

            if not body.startswith(b"%PDF"):
                return "no %PDF header"
            if b"%%EOF" not in body[-2048:]:
                return f"no %%EOF at the end ({len(body)} bytes)"
            reader = PdfReader(io.BytesIO(body), strict=True)
            if not reader.pages:
                return "no pages"
            reader.pages[-1].extract_text()
            return ""
        if path.endswith(".xlsx"):
            from openpyxl import load_workbook

            book = load_workbook(io.BytesIO(body), read_only=True)
            try:
                for sheet in book.worksheets:
                    for _row in sheet.iter_rows(values_only=True):
                        pass
            finally:
                book.close()
            return ""
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:200]
    return ""


# --------------------------------------------------------------------------------------------------
# What happened, per phase
# --------------------------------------------------------------------------------------------------


class Record:
    """Every request of the load and the probes, tagged with the phase it started in."""

    def __init__(self):
        self.lock = threading.Lock()
        self.phase = "setup"
        self.requests: list[tuple] = []  # (phase, kind, status, error, started (monotonic), seconds)
        self.exports: list[dict] = []  # phase, path, status, size, why
        self.acks: list[tuple] = []  # (phase, table, number)
        self.refused: list[tuple] = []  # (phase, table, number, message)

    def set_phase(self, phase: str) -> None:
        with self.lock:
            self.phase = phase

    def current(self) -> str:
        with self.lock:
            return self.phase

    def request(self, phase, kind, status, error="", started: float | None = None) -> None:
        now = time.monotonic()
        started = now if started is None else started
        with self.lock:
            self.requests.append((phase, kind, status, error, started, now - started))

    def export(self, phase, path, status, body, headers) -> None:
        """An export's answer: a 200 with the file's type is opened and checked."""
        kind = (headers.get("content-type") or "").split(";")[0]
        if status != 200 or kind.startswith("text/html"):
            return
        why = check_export(path, body)
        with self.lock:
            self.exports.append({"phase": phase, "path": path, "status": status, "size": len(body), "why": why})

    def ack(self, phase, table, number) -> None:
        with self.lock:
            self.acks.append((phase, table, number))

    def of(self, phase):
        with self.lock:
            return (
                [r for r in self.requests if r[0] == phase],
                [e for e in self.exports if e["phase"] == phase],
                [a for a in self.acks if a[0] == phase],
                [r for r in self.refused if r[0] == phase],
            )


# --------------------------------------------------------------------------------------------------
# The load
# --------------------------------------------------------------------------------------------------


class Load:
    """Viewer and scorer threads against one base URL until :meth:`stop` (or ``deadline``)."""

    def __init__(self, base, record: Record, t, round_no, tables, viewers, scorers, deadline):
        self.base, self.record, self.t, self.round_no = base, record, t, round_no
        self.tables = tables
        self.deadline = deadline
        self.stopping = threading.Event()
        self.running = threading.Event()  # cleared: scorers pause before their next save
        self.running.set()
        self.busy = [False] * scorers
        self.threads = [threading.Thread(target=self.viewer, args=(i,), daemon=True, name=f"viewer{i}") for i in range(viewers)]
        share = [tables[i::scorers] for i in range(scorers)]
        self.threads += [
            threading.Thread(target=self.scorer, args=(i, share[i]), daemon=True, name=f"scorer{i}") for i in range(scorers)
        ]
        self.idle_scorers: set[int] = set()  # scorers whose every table is full

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        self.running.set()
        for thread in self.threads:
            thread.join(timeout=35)

    def over(self) -> bool:
        return self.stopping.is_set() or time.monotonic() > self.deadline

    def pause_scorers(self, timeout: float = 30) -> bool:
        """Scorers finish the save in hand and wait; True when all are idle."""
        self.running.clear()
        until = time.monotonic() + timeout
        while any(self.busy) and time.monotonic() < until:
            time.sleep(0.05)
        return not any(self.busy)

    def resume_scorers(self):
        self.running.set()

    def viewer(self, index: int):
        rng = random.Random(index)
        browser = Browser(self.base)
        t = self.t
        pages = [
            (f"/t/{t}/", "tournament", 2),
            (f"/t/{t}/standings/", "standings", 2),
            (None, "sheet", 2),
            (f"/t/{t}/round/{self.round_no}/", "seating", 1),
            (f"/t/{t}/standings.pdf", "standings.pdf", 1),
            (f"/t/{t}/standings.xlsx", "standings.xlsx", 1),
        ]
        weights = [w for _p, _k, w in pages]
        while not self.over():
            path, kind, _w = rng.choices(pages, weights)[0]
            if path is None:
                path = f"/table/{rng.choice(self.tables)}/"
            phase, started = self.record.current(), time.monotonic()
            status, headers, body, error = browser.request(path)
            self.record.request(phase, kind, status, error, started)
            if kind.endswith((".pdf", ".xlsx")):
                self.record.export(phase, path, status, body, headers)
            self.stopping.wait(rng.uniform(0.5, 1.5) + (1.0 if status == 0 else 0))

    def scorer(self, index: int, tables: list[int]):
        rng = random.Random(1000 + index)
        browser = Browser(self.base)
        logged_in = False
        state: dict[int, dict | None] = {}
        turn = 0
        while not self.over():
            if not self.running.is_set():
                self.running.wait(timeout=1)
                continue
            self.busy[index] = True
            try:
                if not logged_in:
                    logged_in = browser.log_in("faults-director", PASSWORD)
                    if not logged_in:
                        self.record.request(self.record.current(), "login", 0, "login failed")
                        self.stopping.wait(1)
                        continue
                open_tables = [pk for pk in tables if state.get(pk, {}) is not None]
                if not open_tables:
                    self.idle_scorers.add(index)
                    self.stopping.wait(2)
                    continue
                table = open_tables[turn % len(open_tables)]
                turn += 1
                if table not in state or state[table] == {}:
                    if not self.read_sheet(browser, table, state):
                        self.stopping.wait(1)
                        continue
                    if state[table] is None:
                        continue
                form = state[table]
                line = f"d {rng.randint(1, 4)} {rng.choice('+-')}"
                data = {"csrfmiddlewaretoken": form["csrf"], "number": str(form["number"]), "outcome": "played",
                        "dealer": str(form["dealer"]), "quick": line, "source": "line"}
                phase, started = self.record.current(), time.monotonic()
                status, headers, body, error = browser.request(f"/manage/table/{table}/hands/", data)
                self.record.request(phase, "save", status, error, started)
                location = headers.get("location", "")
                if status == 302 and location.rstrip("/").endswith(f"/table/{table}"):
                    self.record.ack(phase, table, form["number"])
                elif status == 302:
                    logged_in = False  # sent to the login page
                elif status in (200, 422):
                    found = ERRORS.search(body.decode("utf-8", "replace"))
                    message = " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else ""
                    with self.record.lock:
                        self.record.refused.append((phase, table, form["number"], message[:200]))
                state[table] = {}  # read the sheet again: the next number, dealer and token
                self.read_sheet(browser, table, state)
            finally:
                self.busy[index] = False
            self.stopping.wait(rng.uniform(1.0, 2.0) + (1.0 if status == 0 or status >= 500 else 0))

    def read_sheet(self, browser: Browser, table: int, state: dict) -> bool:
        phase, started = self.record.current(), time.monotonic()
        status, _headers, body, error = browser.request(f"/table/{table}/")
        self.record.request(phase, "sheet (director)", status, error, started)
        if status != 200:
            state[table] = {}
            return False
        text = body.decode("utf-8", "replace")
        number, dealer, token = NUMBER.search(text), DEALER.search(text), CSRF.search(text)
        chosen = SELECTED.search(dealer.group(1)) if dealer else None
        if not (number and chosen and token):
            state[table] = None  # no entry form: every hand of the table is played
        else:
            state[table] = {"number": int(number.group(1)), "dealer": int(chosen.group(1)), "csrf": token.group(1)}
        return True


# --------------------------------------------------------------------------------------------------
# Processes: the server, Redis, PostgreSQL
# --------------------------------------------------------------------------------------------------


def descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def program(proc) -> list[str]:
    """The first words of a process's command line, as base names (``["python", "manage.py",
    "db_worker"]``): what it runs, not what its arguments mention."""
    try:
        return [os.path.basename(word) for word in proc.cmdline()[:3]]
    except Exception:
        return []


class Server:
    """``scripts/serve`` in a session of its own; its log appended to ``log_path``."""

    def __init__(self, env: dict, log_path: Path):
        self.env, self.log_path = env, log_path
        self.base = f"http://127.0.0.1:{env['PORT']}"
        self.log_file = open(log_path, "a", encoding="utf-8")
        self.log_file.write(f"\n===== faults.py: scripts/serve started {time.strftime('%H:%M:%S')} =====\n")
        self.log_file.flush()
        self.proc = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float) -> float:
        started = time.monotonic()
        browser = Browser(self.base, timeout=5)
        while True:
            status, _h, _b, _e = browser.request("/")
            if status == 200:
                return time.monotonic() - started
            if self.proc.poll() is not None or time.monotonic() - started > timeout:
                raise RuntimeError(f"scripts/serve did not start (exit {self.proc.poll()}):\n{tail(self.log_path)}")
            time.sleep(0.5)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def workers(self):
        """The background worker processes: ``manage.py db_worker`` (or the project's wrapper of it,
        ``manage.py run_worker``) under this server."""
        found = [p for p in descendants(self.proc.pid) if {"db_worker", "run_worker"} & set(program(p)[2:] or program(p)[1:])]
        pids = {p.pid for p in found}
        return [p for p in found if not any(c.pid in pids for c in descendants(p.pid))]  # the innermost

    def app_workers(self):
        """The gunicorn master's children."""
        procs = [p for p in descendants(self.proc.pid) if "gunicorn" in program(p)[:2]]
        pids = {p.pid for p in procs}
        masters = [p for p in procs if p.ppid() not in pids]
        return [c for m in masters for c in m.children()]

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            except ProcessLookupError:
                pass
        try:  # whatever is left of its session (a worker orphaned by a killed parent)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.log_file.close()


def kill(proc) -> None:
    """``kill -9`` a psutil process; one that is gone already is fine."""
    try:
        proc.kill()
    except Exception:
        pass


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def scan_log(text: str) -> dict:
    """Errors logged with a traceback (counted once per chain, by the chain's last exception), 5xx
    answers and gunicorn's complaints in a piece of the server's log."""
    lines = text.splitlines()
    exceptions: dict[str, int] = {}
    i = tracebacks = 0
    while i < len(lines):
        if lines[i].startswith("Traceback (most recent call last)"):
            tracebacks += 1
            i += 1
            while i < len(lines) and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
                i += 1
            if i < len(lines):
                key = lines[i].strip()[:160]
                following = next((line for line in lines[i + 1:i + 4] if line.strip()), "")
                if following.startswith(("During handling of the above exception", "The above exception was the direct cause")):
                    tracebacks -= 1  # a cause: the chain's last exception is the error
                else:
                    exceptions[key] = exceptions.get(key, 0) + 1
        i += 1
    status_5xx = sum(1 for line in lines if re.search(r'" 5\d\d ', line))
    gunicorn = [line.strip()[:200] for line in lines if re.search(r"\[(ERROR|CRITICAL)\]|WORKER TIMEOUT|was sent SIG", line)]
    return {"tracebacks": tracebacks, "exceptions": exceptions, "status_5xx": status_5xx, "gunicorn": gunicorn[:10]}


class Redis:
    """A private ``redis-server`` on a loopback port: no persistence, killed and started at will."""

    def __init__(self, port: int, log_path: Path):
        self.port, self.log_path = port, log_path
        self.proc = None

    def start(self, timeout: float = 10) -> None:
        self.log_file = open(self.log_path, "a", encoding="utf-8")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=self.log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )
        until = time.monotonic() + timeout
        while not self.ping():
            if self.proc.poll() is not None or time.monotonic() > until:
                raise RuntimeError(f"redis-server on port {self.port} did not start:\n{tail(self.log_path)}")
            time.sleep(0.05)

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        if self.proc is not None:
            self.log_file.close()
        self.proc = None


class Postgres:
    """The benchmark's databases on the server ``url`` names: created and dropped here."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.parts = parts
        self.maintenance = urlunsplit(("postgresql", parts.netloc, "/postgres", parts.query, ""))
        self.created: list[str] = []

    def url(self, name: str, scheme: str | None = None) -> str:
        return urlunsplit((scheme or self.parts.scheme, self.parts.netloc, "/" + name, self.parts.query, ""))

    def execute(self, *statements) -> list:
        import psycopg

        out = []
        with psycopg.connect(self.maintenance, autocommit=True, connect_timeout=10) as conn:
            for statement, *params in statements:
                cur = conn.execute(statement, *params)
                out.append(cur.fetchall() if cur.description else None)
        return out

    def create(self, name: str, template: str | None = None) -> str:
        from psycopg import sql

        self.created.append(name)
        create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            create = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
        self.execute((sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)),), (create,))
        return self.url(name)

    def drop(self, name: str) -> None:
        from psycopg import sql

        self.execute(
            (sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(sql.Identifier(name)),),
            (sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)),),
        )
        if name in self.created:
            self.created.remove(name)

    def query(self, name: str, statement, params=()) -> list:
        import psycopg

        with psycopg.connect(self.url(name, "postgresql"), autocommit=True, connect_timeout=5) as conn:
            return conn.execute(statement, params).fetchall()


def manage(env: dict, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        return subprocess.CompletedProcess(error.cmd, -9, error.stdout or "", f"timed out after {timeout:.0f} s")


def marked(output: str) -> dict | None:
    for line in reversed(output.splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    return None


# --------------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------------


class Run:
    def __init__(self, args):
        self.args = args
        self.started = time.monotonic()
        self.deadline = self.started + args.time_limit
        self.record = Record()
        self.tmp = Path(tempfile.mkdtemp(prefix="tarock-faults-"))
        self.data_dir = self.tmp / "data"
        self.data_dir.mkdir()
        self.mounted = False
        self.mount_error = ""
        self.pg = Postgres(os.environ.get("DATABASE_URL") or DEFAULT_DB)
        self.db = f"tarock_faults_{os.getpid()}"
        self.template = f"{self.db}_empty"
        self.redis = Redis(free_port(), self.tmp / "redis.log")
        self.server: Server | None = None
        self.load: Load | None = None
        self.restarts = 0
        self.restore_count = 0
        self.log_path = self.tmp / "serve.log"
        self.rows: list[dict] = []
        self.blocked_db = False
        self.filler: Path | None = None

    # -- setting up -----------------------------------------------------------------------------

    def setup(self):
        args = self.args
        if os.geteuid() == 0:
            result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.disk_mb}m,mode=0700", "tmpfs", str(self.data_dir)],
                                    capture_output=True, text=True)
            self.mounted = result.returncode == 0
            self.mount_error = result.stderr.strip()
        else:
            self.mount_error = "not root: no tmpfs"
        log(f"faults: DATA_DIR {self.data_dir} ({'tmpfs of ' + str(args.disk_mb) + ' MB' if self.mounted else 'plain folder: ' + self.mount_error})")
        self.redis.start()
        log(f"faults: redis-server on 127.0.0.1:{self.redis.port}")
        db_url = self.pg.create(self.db)
        log(f"faults: database {self.db}; migrating ...")
        env = self.manage_env(db_url)
        done = manage(env, "migrate", "--noinput", timeout=300)
        if done.returncode != 0:
            raise RuntimeError("migrate failed: " + last_line(done.stderr))
        # A migrated empty database to copy for each restore (the same as migrating a fresh one).
        self.pg.create(self.template, template=self.db)
        port = free_port()
        self.serve_env = {
            **{k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")},
            "DATABASE_URL": db_url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis.port}/0",
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "PUBLIC_URL": f"http://127.0.0.1:{port}",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATA_DIR": str(self.data_dir),
            "STATIC_ROOT": str(self.tmp / "static"),
            "WEB_CONCURRENCY": str(args.web_concurrency),
            "BACKUP_MINUTES": "1",
            "EXPORT_HEAVY_FROM": "results:1,score-sheets:1",
            "CONN_MAX_AGE": str(args.conn_max_age),
            "RELEASE": f"faults-{os.getpid()}",
        }
        self.start_server()
        built = manage({**self.manage_env(db_url), "FAULTS_PLAYERS": str(args.players), "FAULTS_PASSWORD": PASSWORD},
                       "shell", "-c", BUILD, timeout=120)
        data = marked(built.stdout)
        if data is None:
            raise RuntimeError("building the tournament failed: " + last_line(built.stderr))
        self.t, self.round_no, self.tables = data["t"], data["round"], data["tables"]
        self.hand_table, self.job_table = data["hand_table"], data["job_table"]
        self.probe_table = self.tables[-1]  # fault 5's saves; the scorers keep to the others
        self.director = Browser(self.server.base)
        if not self.director.log_in("faults-director", PASSWORD):
            raise RuntimeError("the director could not log in")
        log(f"faults: tournament {self.t}, round {self.round_no} with {len(self.tables)} tables")
        self.load = Load(self.server.base, self.record, self.t, self.round_no, self.tables[:-1],
                         args.viewers, args.scorers, self.deadline + 60)
        self.load.start()

    def manage_env(self, db_url: str) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
        env.update({"DATABASE_URL": db_url, "DEBUG": "0", "DATA_DIR": str(self.data_dir), "CONN_MAX_AGE": "0"})
        if getattr(self, "serve_env", None):
            env["REDIS_URL"] = self.serve_env["REDIS_URL"]
            env["RELEASE"] = self.serve_env["RELEASE"]
        return env

    def start_server(self) -> float:
        self.server = Server(self.serve_env, self.log_path)
        took = self.server.wait_ready(timeout=240)
        log(f"faults: scripts/serve answers on {self.server.base} after {took:.0f} s")
        return took

    def restart_server(self) -> str:
        if self.server is not None:
            self.server.stop()
        self.restarts += 1
        try:
            took = self.start_server()
            return f"scripts/serve started again by the benchmark ({took:.0f} s)"
        except RuntimeError as error:
            return f"scripts/serve could not be started again: {last_line(str(error))}"

    def log_offset(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def log_since(self, offset: int) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                f.seek(offset)
                return f.read()
        except OSError:
            return ""

    # -- measuring ------------------------------------------------------------------------------

    def site_back(self, since: float) -> tuple[float | None, str]:
        """Seconds from ``since`` (the fault's end) to the first page answered 200 of a run of
        answers that stays 200 for ``HOLD_S`` (a server about to go down may answer once more);
        ``(None, why)`` when that does not happen within ``BACK_WATCH_S`` or scripts/serve exited."""
        browser = Browser(self.server.base, timeout=5)
        until = since + BACK_WATCH_S
        first_ok = None
        answered_once = False
        while time.monotonic() < until:
            status, _h, _b, _e = browser.request(f"/t/{self.t}/")
            now = time.monotonic()
            if not self.server.alive():
                time.sleep(1)  # its last answers may still be on the way; it will not come back
                went = " after answering once" if answered_once else ""
                return None, f"scripts/serve exited{went} (status {self.server.proc.returncode})"
            if status == 200:
                answered_once = True
                first_ok = first_ok or now
                if now - first_ok >= HOLD_S:
                    return first_ok - since, ""
            else:
                first_ok = None
            time.sleep(0.2)
        if first_ok is not None:
            return first_ok - since, ""
        return None, f"no page answered 200 within {BACK_WATCH_S:.0f} s" + (" (it answered, then failed again)" if answered_once else "")

    def stored_hands(self) -> set[tuple[int, int]]:
        from psycopg import sql

        rows = self.pg.query(
            self.db, sql.SQL("SELECT table_id, number FROM {} WHERE table_id = ANY(%s)").format(sql.Identifier(self.hand_table)),
            (self.tables,),
        )
        return {(t, n) for t, n in rows}

    def job(self, job_id: int) -> tuple[str, int, int] | None:
        from psycopg import sql

        try:
            rows = self.pg.query(self.db, sql.SQL("SELECT status, done, total FROM {} WHERE id = %s").format(
                sql.Identifier(self.job_table)), (job_id,))
        except Exception:
            return None
        return tuple(rows[0]) if rows else None

    def standings(self, db_url: str, t: int | None, command: str = "") -> tuple[dict | None, str]:
        """The standings of tournament ``t`` (the first one when None) by the project's service,
        in the database ``db_url``, after running the management ``command`` (``"backup_tournaments"``,
        ``"import_tournament FILE"``) in the same ``manage.py shell``: one start of Django instead of two.
        Returns ``(data, why)``: ``data`` has ``command``/``command_error`` and, when there is a
        tournament, ``t``, ``version``, ``hands`` and ``rows`` ``[name, total, rank]``."""
        env = self.manage_env(db_url)
        if t is not None:
            env["FAULTS_T"] = str(t)
        env["FAULTS_COMMAND"] = command
        done = manage(env, "shell", "-c", STANDINGS, timeout=120)
        data = marked(done.stdout)
        return data, ("" if data else last_line(done.stderr) or "no output")

    def backups(self) -> list[Path]:
        """The tournament's archives in ``DATA_DIR/backups``, oldest first (by modification time):
        ``tournament-<id>-…-v<version>.tarock.json.gz`` in whichever naming the schedule uses."""
        folder = self.data_dir / "backups"
        found = list(folder.glob(f"tournament-{self.t}-*.tarock.json.gz")) if folder.is_dir() else []

        def key(path):
            try:
                return (path.stat().st_mtime_ns, path.name)
            except OSError:
                return (0, path.name)

        return sorted(found, key=key)

    def newest_version(self) -> int | None:
        archives = self.backups()
        found = re.search(r"-v(\d+)\.tarock", archives[-1].name) if archives else None
        return int(found.group(1)) if found else None

    def leftovers(self) -> list[str]:
        """Anything else in ``DATA_DIR/backups`` (temporary or partial files)."""
        folder = self.data_dir / "backups"
        if not folder.is_dir():
            return []
        archives = {p.name for p in folder.glob("tournament-*.tarock.json.gz")}
        return sorted(p.name for p in folder.iterdir() if p.name not in archives)

    def damaged_backups(self) -> list[str]:
        damaged = []
        for path in self.backups():
            try:
                json.loads(gzip.decompress(path.read_bytes()))
            except Exception as error:
                damaged.append(f"{path.name} ({type(error).__name__})")
        return damaged

    def restore(self, archive: Path, expected: dict) -> tuple[bool, str]:
        """Restore ``archive`` into a fresh migrated database; compare its standings."""
        self.restore_count += 1
        name = f"{self.db}_r{self.restore_count}"
        try:
            url = self.pg.create(name, template=self.template)
            got, why = self.standings(url, None, f"import_tournament {archive}")
            if got is None:
                return False, f"the restore did not run: {why}"
            if got["command"] != "ok":
                return False, f"import_tournament refused it: {got['command_error']}"
            if "rows" not in got:
                return False, "import_tournament succeeded but the database has no tournament"
            want = {name: (total, rank) for name, total, rank in expected["rows"]}
            have = {name: (total, rank) for name, total, rank in got["rows"]}
            wrong = sorted(n for n in want.keys() | have.keys() if want.get(n) != have.get(n))
            if wrong:
                examples = "; ".join(f"{n}: {want.get(n)} != {have.get(n)}" for n in wrong[:3])
                return False, f"standings differ for {len(wrong)} players ({examples})"
            if got["hands"] != expected["hands"]:
                return False, f"standings equal but {got['hands']} hands restored of {expected['hands']}"
            return True, f"{len(have)} players, {got['hands']} hands identical"
        except Exception as error:
            return False, f"{type(error).__name__}: {error}"[:200]
        finally:
            try:
                self.pg.drop(name)
            except Exception as error:
                log(f"faults: could not drop {name}: {error}")

    def ensure_server(self, notes: list[str]) -> None:
        if not self.server.alive():
            notes.append(self.restart_server())

    def check(self, phase: str, row: dict) -> None:
        """After a phase: the backup, the hands, the exports, the log."""
        notes = row["notes"]
        load = self.load
        paused = load.pause_scorers()
        if not paused:
            notes.append("scorers did not pause within 30 s")
        try:
            before = {p.name for p in self.backups()}
            main, why = self.standings(self.pg.url(self.db), self.t, "backup_tournaments")
            if main is not None and main["command"] != "ok":
                notes.append(f"backup_tournaments failed: {main['command_error']}")
            if main is not None and "rows" not in main:
                main, why = None, "the tournament is not in the database"
            if main is not None and main["command"] == "ok" and self.newest_version() not in (None, main["version"]):
                # A scheduled run was writing at the same moment and this one stood back: once more.
                time.sleep(3)
                again, _why = self.standings(self.pg.url(self.db), self.t, "backup_tournaments")
                if again is not None and "rows" in again:
                    main = again
                    notes.append("backup_tournaments run twice (a scheduled run was writing)")
            try:
                stored = self.stored_hands()
            except Exception as error:
                stored = None
                notes.append(f"hands could not be read: {error}")
        finally:
            load.resume_scorers()
        requests, exports, acks, refused = self.record.of(phase)
        row["requests"] = len(requests)
        row["failed_requests"] = sum(1 for r in requests if r[2] == 0 or r[2] >= 500)
        # Requests started once the fault was over (and the site back): these should all succeed.
        ended = row.pop("_ended", None)
        if ended is not None and row.get("back_s") is not None:
            after = [r for r in requests if r[4] >= ended + (row["back_s"] or 0)]
            failed_after = [r for r in after if r[2] == 0 or r[2] >= 500]
            row["requests_after_back"] = len(after)
            row["failed_after_back"] = len(failed_after)
            if failed_after:
                kinds = sorted({f"{r[1]} {r[2] or r[3][:40]}" for r in failed_after})
                notes.append(f"after the site was back {len(failed_after)} of {len(after)} requests still failed ({', '.join(kinds[:3])})")
        row["acknowledged"] = len(acks)
        row["missing"] = None if stored is None else sum(1 for _p, t, n in acks if (t, n) not in stored)
        row["missing_examples"] = [] if stored is None else [[t, n] for _p, t, n in acks if (t, n) not in stored][:5]
        row["refused"] = len(refused)
        if refused:
            row["refusal_examples"] = [f"table {t} hand {n}: {m}" for _p, t, n, m in refused[:3]]
        row["exports_served"] = len(exports)
        bad = [e for e in exports if e["why"]]
        row["exports_incomplete"] = len(bad)
        if bad:
            notes.append("incomplete: " + "; ".join(f"{e['path'].rsplit('/', 1)[-1]} {e['size']} B ({e['why']})" for e in bad[:3]))
        # The newest archive, which now is the database's current version (the scorers were paused).
        archives = self.backups()
        written = [p.name for p in archives if p.name not in before]
        row["backups_written_now"] = written
        damaged = self.damaged_backups()
        row["damaged_backups"] = damaged
        if damaged:
            notes.append(f"{len(damaged)} damaged archive(s) in backups/: {', '.join(damaged[:2])}")
        leftovers = self.leftovers()
        row["backup_leftovers"] = leftovers
        if leftovers:
            notes.append(f"{len(leftovers)} other file(s) left in backups/: {', '.join(leftovers[:2])}")
        if main is None:
            row["backup"] = f"no: the served database's standings failed ({why})"
        elif not archives:
            row["backup"] = "no: no archive in backups/"
        else:
            newest = archives[-1]
            found = re.search(r"-v(\d+)\.tarock", newest.name)
            version = int(found.group(1)) if found else main["version"]  # a name without it: compare anyway
            row["backup_file"] = newest.name
            if version != main["version"]:
                row["backup"] = f"no: newest archive is v{version}, the database is at v{main['version']}"
            else:
                ok, detail = self.restore(newest, main)
                row["backup"] = ("yes" if ok else "NO") + f": {detail}"
        row["log"] = scan_log(self.log_since(row.pop("_log_offset")))

    # -- the faults -----------------------------------------------------------------------------

    def heavy(self, browser: Browser, path: str) -> tuple[int | None, str]:
        """Ask for a heavy export: the job's id from the redirect."""
        status, headers, body, error = browser.request(path)
        self.record.request(self.record.current(), "export", status, error)
        if status == 302 and JOB.search(headers.get("location", "")):
            return int(JOB.search(headers["location"]).group(1)), ""
        self.record.export(self.record.current(), path, status, body, headers)
        if status == 200 and not headers.get("content-type", "").startswith("text/html"):
            why = check_export(path, body)
            return None, f"{path.rsplit('/', 1)[-1]}: served at once ({len(body)} B{', INCOMPLETE: ' + why if why else ''})"
        return None, f"{path.rsplit('/', 1)[-1]}: {status} {error}".strip()

    def follow_job(self, browser: Browser, path: str, job_id: int, seconds: float, retry: bool = False,
                   phase: str | None = None) -> str:
        """Poll the job's page until its file is served (checked), it fails or time runs out;
        ``retry``: press "try again" once on a failed job. Served files count for ``phase``."""
        url = f"{path}?job={job_id}"
        until = time.monotonic() + seconds
        last = ""
        retried = False
        fixed = phase
        while time.monotonic() < until:
            phase = fixed or self.record.current()
            status, headers, body, error = browser.request(url)
            kind = headers.get("content-type", "")
            if status == 200 and not kind.startswith("text/html"):
                self.record.export(phase, path, status, body, headers)
                why = check_export(path, body)
                return f"served after polling ({len(body)} B{', INCOMPLETE: ' + why if why else ''})"
            if status == 200:  # the job's page says it failed
                if retry and not retried:
                    token = CSRF.search(body.decode("utf-8", "replace"))
                    browser.request(path, {"csrfmiddlewaretoken": token.group(1) if token else "", "job": str(job_id)})
                    retried = True
                    new_id, why = self.heavy(browser, path)
                    if new_id is None:
                        return f"failed; after 'try again': {why}"
                    job_id, url = new_id, f"{path}?job={new_id}"
                    continue
                return "the job failed (its page offers to try again)" + (" and failed again" if retried else "")
            last = f"{status} {error}".strip()
            time.sleep(0.5)
        state = self.job(job_id)
        return f"not served within {seconds:.0f} s (last answer {last}; job {state[0] if state else '?'}" + (
            f", {state[1]}/{state[2]} tables)" if state else ")")

    def fault_worker(self, notes: list[str]) -> float:
        workers = self.server.workers()
        if not workers:
            notes.append("no db_worker process found")
            return time.monotonic()
        victim = workers[0]
        path = f"/t/{self.t}/round/{self.round_no}/results.pdf"
        killed_at = None
        for attempt_path in (path, f"/manage/t/{self.t}/round/{self.round_no}/score-sheets.pdf"):
            job_id, why = self.heavy(self.director, attempt_path)
            if job_id is None:
                notes.append(f"no job: {why}")
                continue
            until = time.monotonic() + 20
            running_since = None
            while time.monotonic() < until:
                state = self.job(job_id)
                if state and state[0] == "running":
                    running_since = running_since or time.monotonic()
                # In the middle: some tables reported done, not all; or 1 s into the render (the
                # exporters report their progress in parts of several tables).
                if state and state[0] == "running" and state[1] < max(state[2], 1) and (
                        state[1] > 0 or time.monotonic() - running_since > 1):
                    kill(victim)
                    killed_at = time.monotonic()
                    notes.append(f"worker {victim.pid} killed {killed_at - running_since:.1f} s into rendering "
                                 f"{attempt_path.rsplit('/', 1)[-1]} ({state[1]}/{state[2]} tables reported done)")
                    break
                if state and state[0] in ("done", "failed"):
                    notes.append(f"{attempt_path.rsplit('/', 1)[-1]} was {state[0]} before the kill")
                    break
                time.sleep(0.02)
            if killed_at:
                self.job_after = (attempt_path, job_id)
                break
        if killed_at is None:
            kill(victim)
            killed_at = time.monotonic()
            notes.append("worker killed while no job was running")
        return killed_at

    def after_worker(self, notes: list[str]) -> None:
        job = getattr(self, "job_after", None)
        time.sleep(3)
        notes.append(f"worker running again: {'yes' if self.server.alive() and self.server.workers() else 'no'}")
        if job:
            # Its page polled as a browser would, until it is served, failed or --job-wait is over
            # (a job whose worker vanished may wait for its lease to run out). Not in the background:
            # the next fault (the database away, the disk full) would decide its outcome.
            path, job_id = job
            started = time.monotonic()
            outcome = self.follow_job(self.director, path, job_id, self.args.job_wait)
            notes.append(f"the export whose worker was killed: {outcome} (polled {time.monotonic() - started:.0f} s)")

    def fault_redis(self, notes: list[str]) -> float:
        phase = self.record.current()
        before = len(self.record.of(phase)[0])
        self.redis.kill()
        outage_start = time.monotonic()
        time.sleep(self.args.outage)
        during = self.record.of(phase)[0][before:]
        failed = sum(1 for r in during if r[2] == 0 or r[2] >= 500)
        self.redis.start()
        notes.append(f"while Redis was down ({time.monotonic() - outage_start:.0f} s): {failed} of {len(during)} requests failed")
        return time.monotonic()

    def fault_database(self, notes: list[str]) -> float:
        from psycopg import sql

        name = sql.Identifier(self.db)
        before = len(self.record.of(self.record.current())[0])
        self.pg.execute((sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS false").format(name),))
        self.blocked_db = True
        killed = self.pg.execute(("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (self.db,)))
        notes.append(f"{killed[0][0][0]} connections terminated")
        start = time.monotonic()
        try:
            self.pg.query(self.db, "SELECT 1")
            notes.append("a new connection still succeeded while blocked")
        except Exception:
            pass
        time.sleep(max(0.0, self.args.db_outage - (time.monotonic() - start)))
        self.pg.execute((sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(name),))
        self.blocked_db = False
        during = self.record.of(self.record.current())[0][before:]
        failed = sum(1 for r in during if r[2] == 0 or r[2] >= 500)
        notes.append(f"while it was away ({self.args.db_outage:.0f} s): {failed} of {len(during)} requests failed")
        return time.monotonic()

    def fault_disk(self, notes: list[str]) -> float:
        if not self.mounted:
            notes.append(f"skipped: DATA_DIR is not a small filesystem ({self.mount_error})")
            return time.monotonic()
        self.filler = self.data_dir / "filler.bin"
        chunk = b"\0" * (256 * 1024)
        written = 0
        try:
            with open(self.filler, "wb") as f:
                for _ in range(4 * self.args.disk_mb * 2):  # bounded: twice the disk in chunks
                    f.write(chunk)
                    f.flush()
                    written += len(chunk)
        except OSError:
            pass
        free = os.statvfs(self.data_dir)
        notes.append(f"disk filled ({written // 1024} KiB filler, {free.f_bavail * free.f_frsize // 1024} KiB free)")
        self.load.pause_scorers()  # the same data version before and after the space is freed
        director = self.director
        t, r = self.t, self.round_no
        plain = [f"/t/{t}/standings.pdf", f"/t/{t}/standings.xlsx", f"/t/{t}/hands.xlsx"]
        heavy = [f"/t/{t}/round/{r}/results.pdf", f"/manage/t/{t}/round/{r}/score-sheets.pdf"]

        def ask(label: str) -> list[str]:
            out = []
            for path in plain:
                phase = self.record.current()
                status, headers, body, error = director.request(path)
                self.record.request(phase, "export", status, error)
                self.record.export(phase, path, status, body, headers)
                why = check_export(path, body) if status == 200 else ""
                out.append(f"{path.rsplit('/', 1)[-1]} {status}" + (f" INCOMPLETE ({why})" if why else ""))
            for path in heavy:
                job_id, why = self.heavy(director, path)
                if job_id is None:
                    out.append(why)
                else:
                    out.append(f"{path.rsplit('/', 1)[-1]}: " + self.follow_job(director, path, job_id, 20, retry=label == "after"))
            return out

        self.ask_exports = ask
        notes.append("disk full: " + ", ".join(ask("full")))
        done = manage(self.manage_env(self.pg.url(self.db)), "backup_tournaments", timeout=90)
        notes.append("backup on the full disk: " + ("written" if done.returncode == 0 else "failed (" + last_line(done.stderr)[:120] + ")"))
        time.sleep(self.args.outage)
        self.filler.unlink()
        self.filler = None
        return time.monotonic()  # the scorers stay paused until after_disk

    def after_disk(self, notes: list[str]) -> None:
        if getattr(self, "ask_exports", None) is None:
            return
        try:
            notes.append("space freed, same version: " + ", ".join(self.ask_exports("after")))
        finally:
            self.ask_exports = None
            self.load.resume_scorers()

    def probe_form(self) -> dict | None:
        """The probe table's entry form as the director's sheet shows it."""
        status, _h, body, _e = self.director.request(f"/table/{self.probe_table}/")
        text = body.decode("utf-8", "replace")
        number, dealer, token = NUMBER.search(text), DEALER.search(text), CSRF.search(text)
        chosen = SELECTED.search(dealer.group(1)) if dealer else None
        if not (status == 200 and number and chosen and token):
            return None
        return {"csrfmiddlewaretoken": token.group(1), "number": number.group(1), "outcome": "played",
                "dealer": chosen.group(1), "quick": f"d {random.randint(1, 4)} +", "source": "line"}

    def probe_save(self, data: dict, kill_after: float | None) -> dict:
        """POST one hand of the probe table on a connection of our own; with ``kill_after``, the app
        worker that accepted this connection (found by its socket) is killed that many seconds after
        the request was sent. Returns the answer, the victim and the timings."""
        import psutil

        port = int(self.serve_env["PORT"])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent, answered = threading.Event(), threading.Event()
        out: dict = {"victim": None}

        def kill_holder(client_port: int):
            until = time.monotonic() + 5
            while time.monotonic() < until and out["victim"] is None and not answered.is_set():
                for worker in self.server.app_workers():
                    try:
                        conns = (worker.net_connections if hasattr(worker, "net_connections") else worker.connections)("tcp")
                    except psutil.Error:
                        continue
                    if any(c.raddr and c.raddr.port == client_port for c in conns):
                        out["victim"] = worker
                        break
                else:
                    time.sleep(0.002)
            if out["victim"] is None or not sent.wait(5):
                return
            if answered.wait(max(0.0, out["sent_at"] + kill_after - time.monotonic())):
                return  # answered first: the worker may be serving someone else by now
            out["killed_at"] = time.monotonic()
            kill(out["victim"])

        phase = self.record.current()
        started = time.monotonic()
        killer = None
        try:
            conn.connect()
            if kill_after is not None:
                killer = threading.Thread(target=kill_holder, args=(conn.sock.getsockname()[1],), daemon=True)
                killer.start()
            conn.request("POST", f"/manage/table/{self.probe_table}/hands/", urllib.parse.urlencode(data),
                         {"Content-Type": "application/x-www-form-urlencoded", "Cookie": self.director.cookie_header()})
            out["sent_at"] = time.monotonic()
            sent.set()
            response = conn.getresponse()
            out["status"], out["location"] = response.status, response.getheader("Location") or ""
            response.read()
        except Exception as error:
            out["status"], out["location"] = 0, type(error).__name__
        finally:
            out.setdefault("sent_at", time.monotonic())
            sent.set()
            out["answered_at"] = time.monotonic()
            answered.set()
            conn.close()
        if killer is not None:
            killer.join(timeout=6)
        self.record.request(phase, "save (probe)", out["status"], out["location"] if out["status"] == 0 else "", started)
        out["acknowledged"] = out["status"] == 302 and out["location"].rstrip("/").endswith(f"/table/{self.probe_table}")
        if out["acknowledged"]:
            self.record.ack(phase, self.probe_table, int(data["number"]))
        return out

    def fault_app_worker(self, notes: list[str]):
        """Kill the app worker handling a save, ``--kills`` times; the site's return is measured
        after each kill and the slowest counts: returns ``(last kill, seconds, why not back)``."""
        # How long a save takes now (the median of the scorers' last saves, or one probe without a
        # kill); the kills then fall at random points between 5 % and 100 % of that after the
        # request was sent: before, during and after the commit.
        with self.record.lock:
            recent = sorted([r[5] for r in self.record.requests if r[1] == "save" and r[2] == 302][-20:])
        if len(recent) >= 5:
            took = recent[len(recent) // 2]
        else:
            data = self.probe_form()
            if data is None:
                notes.append("the probe table offered no entry form")
                return time.monotonic()
            plain = self.probe_save(data, None)
            took = plain["answered_at"] - plain["sent_at"]
        took = max(0.02, took)
        outcomes = []
        backs: list[tuple[float | None, str]] = []
        last_kill = time.monotonic()
        kills = 0
        for attempt in range(2 * self.args.kills):  # bounded: a save answered first is no kill
            if kills >= self.args.kills:
                break
            data = self.probe_form()
            if data is None:
                outcomes.append(f"probe {attempt + 1}: the sheet offered no form")
                break
            delay = random.uniform(0.05, 1.0) * took
            out = self.probe_save(data, delay)
            if "killed_at" in out:
                back, why = self.site_back(out["killed_at"])  # measured from each kill
                backs.append((back, why))
            after = self.probe_form()
            stored = after is not None and int(after["number"]) > int(data["number"])
            if "killed_at" in out:
                kills += 1
                last_kill = out["killed_at"]
                answer = "answer " + (str(out["status"]) if out["status"] else f"none ({out['location']})")
                what = (f"killed {1000 * (out['killed_at'] - out['sent_at']):.0f} ms after sending: {answer}, "
                        f"hand {'stored' if stored else 'not stored'}, site back after {backs[-1][0] or 0:.1f} s")
            elif out["victim"] is None and out["status"] == 0:
                what = f"no answer and no worker found holding the connection ({out['location']})"
            else:
                what = f"answered before the kill ({out['status']})"
            outcomes.append(f"hand {data['number']}: {what}")
            if backs and backs[-1][0] is None:
                break  # not back: the run goes on with a new server
            time.sleep(1.0)
        notes.append(f"a save takes {1000 * took:.0f} ms; " + "; ".join(outcomes))
        if not backs:
            return last_kill
        worst = None if any(b is None for b, _w in backs) else max(b for b, _w in backs)
        return last_kill, worst, next((w for b, w in backs if b is None), "")

    def after_app_worker(self, notes: list[str]) -> None:
        time.sleep(2)
        notes.append(f"app workers now: {len(self.server.app_workers())} of {self.args.web_concurrency}")

    # -- the sequence ---------------------------------------------------------------------------

    FAULTS = [
        ("0", "baseline (no fault)", None, None),
        ("1", "worker killed mid-export", "fault_worker", "after_worker"),
        ("2", "Redis stopped", "fault_redis", None),
        ("3", "database away", "fault_database", None),
        ("4", "disk full", "fault_disk", "after_disk"),
        ("5", "app worker killed mid-save", "fault_app_worker", "after_app_worker"),
    ]

    def run_faults(self):
        only = set(self.args.only.split(",")) if self.args.only else None
        for key, title, inject, after in self.FAULTS:
            if only is not None and key != "0" and key not in only:
                continue
            phase = f"{key} {title}"
            row = {"fault": phase, "notes": [], "_log_offset": self.log_offset()}
            if time.monotonic() + 100 > self.deadline:
                row.update({"skipped": True, "back_s": None, "backup": "skipped"})
                row["notes"].append("skipped: the time limit is near")
                row.pop("_log_offset")
                self.rows.append(row)
                continue
            log(f"faults: {phase}")
            self.record.set_phase(phase)
            if not self.server.alive():
                row["notes"].append(self.restart_server())
            time.sleep(self.args.settle)  # load before the fault
            if inject is None:
                ended = time.monotonic()
            else:
                ended = getattr(self, inject)(row["notes"])
            if isinstance(ended, tuple):  # the fault measured the site's return itself
                ended, back, why = ended
            else:
                back, why = self.site_back(ended)
            row["_ended"] = ended
            row["back_s"] = back
            if back is None:
                row["notes"].append(f"site not back: {why}")
                row["notes"].append(self.restart_server())
            if after:
                getattr(self, after)(row["notes"])
            time.sleep(self.args.settle)  # load after the fault
            self.check(phase, row)
            self.rows.append(row)
            self.print_row(row)
        self.record.set_phase("end")

    def final_check(self) -> dict:
        """Every acknowledged hand of the whole run, once more at the end."""
        self.load.stop()
        try:
            stored = self.stored_hands()
        except Exception as error:
            return {"fault": "whole run", "error": str(error)}
        with self.record.lock:
            acks = list(self.record.acks)
            exports = list(self.record.exports)
        missing = [[t, n] for _p, t, n in acks if (t, n) not in stored]
        return {"fault": "whole run (at the end)", "acknowledged": len(acks), "missing": len(missing), "missing_examples": missing[:10],
                "stored": len(stored), "exports_served": len(exports), "exports_incomplete": sum(1 for e in exports if e["why"]),
                "full_tables": len(self.load.idle_scorers)}

    # -- output ---------------------------------------------------------------------------------

    @staticmethod
    def passed(row: dict) -> bool:
        if row.get("skipped"):
            return True
        back_ok = row.get("back_s") is not None and row["back_s"] <= BACK_GOAL_S and not row.get("failed_after_back")
        return (back_ok and row.get("missing") == 0 and row.get("exports_incomplete") == 0
                and str(row.get("backup", "")).startswith("yes") and not row.get("damaged_backups"))

    @staticmethod
    def cells(row: dict) -> list[str]:
        back = row.get("back_s")
        back_cell = "skipped" if row.get("skipped") else ("NOT BACK" if back is None else f"{back:.1f}" + ("" if back <= BACK_GOAL_S else " (>10)"))
        if back is not None and row.get("failed_after_back"):
            back_cell += f", then {row['failed_after_back']} failed"
        hands = "" if row.get("skipped") else f"{row.get('acknowledged', 0)} / {row.get('missing', '?')}"
        exports = "" if row.get("skipped") else f"{row.get('exports_served', 0)} / {row.get('exports_incomplete', '?')}"
        backup = str(row.get("backup", ""))
        log_info = row.get("log") or {}
        notes = list(row.get("notes", []))
        if log_info.get("tracebacks"):
            top = sorted(log_info["exceptions"].items(), key=lambda kv: -kv[1])[:2]
            notes.append(f"log: {log_info['tracebacks']} errors with tracebacks, {log_info['status_5xx']} 5xx (" + "; ".join(f"{n}× {e}" for e, n in top) + ")")
        if row.get("failed_requests"):
            notes.append(f"{row['failed_requests']} of {row['requests']} requests of the phase failed in all")
        return [row["fault"], back_cell, hands, exports, backup, " | ".join(notes)]

    def print_row(self, row: dict) -> None:
        c = self.cells(row)
        log(f"  -> back {c[1]}; hands {c[2]}; exports {c[3]}; backup {c[4]}; {'ok' if self.passed(row) else 'FAILED'}")

    def report(self, final: dict) -> int:
        header = ["fault", "site back after (s)", "hands acknowledged / missing", "exports served / incomplete", "backup restores", "notes"]
        print()
        print(f"Fault injection: scripts/serve with {self.args.web_concurrency} app workers, PostgreSQL, a private Redis, "
              f"DATA_DIR on {'a ' + str(self.args.disk_mb) + ' MB tmpfs' if self.mounted else 'a plain folder'}; "
              f"{self.args.players} players, {self.args.viewers} viewers + {self.args.scorers} scorers")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in self.rows:
            c = self.cells(row)
            c[0] += "" if self.passed(row) else " ✗"
            print("| " + " | ".join(x.replace("|", "/") for x in c[:5]) + " | " + c[5].replace(" | ", "; ") + " |")
        if "acknowledged" in final:
            full = f"; the scorers' tables were full ({final['full_tables']} of {self.args.scorers} scorers idle)" if final["full_tables"] else ""
            print(f"| {final['fault']} | | {final['acknowledged']} / {final['missing']} | {final['exports_served']} / {final['exports_incomplete']} | | "
                  f"{final['stored']} hands stored; the server was started again {self.restarts} time(s){full} |")
        failed = [r["fault"] for r in self.rows if not self.passed(r)]
        if final.get("missing"):
            failed.append("whole run: acknowledged hands missing")
        out = RESULTS / "faults.json"
        RESULTS.mkdir(parents=True, exist_ok=True)
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        except OSError:
            commit = ""
        out.write_text(json.dumps({
            "benchmark": "faults", "rows": self.rows, "final": final, "restarts": self.restarts,
            "settings": {k: v for k, v in vars(self.args).items()}, "tmpfs": self.mounted, "git_commit": commit,
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "seconds": round(time.monotonic() - self.started),
        }, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
        if self.log_path.exists():
            shutil.copy(self.log_path, RESULTS / "faults-server.log")
        print(f"\n{'all checks passed' if not failed else 'FAILED: ' + ', '.join(failed)}"
              f" ({time.monotonic() - self.started:.0f} s); results: {out.relative_to(ROOT)}, server log beside it")
        return 0 if not failed else 1

    # -- cleaning up ----------------------------------------------------------------------------

    def cleanup(self):
        steps = [
            ("load", lambda: self.load and self.load.stop()),
            ("server", lambda: self.server and self.server.stop()),
            ("redis", self.redis.kill),
            ("filler", lambda: self.filler and self.filler.unlink(missing_ok=True)),
            ("mount", self.unmount),
            ("databases", self.drop_databases),
            ("temporary folder", lambda: shutil.rmtree(self.tmp, ignore_errors=True)),
        ]
        for name, step in steps:
            try:
                step()
            except Exception as error:  # keep cleaning up the rest
                log(f"faults: cleaning up the {name}: {error}")

    def unmount(self):
        if not self.mounted:
            return
        for extra in ([], ["-l"]):
            if subprocess.run(["umount", *extra, str(self.data_dir)], capture_output=True).returncode == 0:
                self.mounted = False
                return
            time.sleep(1)
        raise RuntimeError(f"could not unmount {self.data_dir}")

    def drop_databases(self):
        for name in list(reversed(self.pg.created)):
            if self.args.keep_db and name == self.db:
                log(f"faults: kept database {self.pg.url(name)}")
                continue
            self.pg.drop(name)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64, help="players (tables of 4, 16 hands each; default 64)")
    parser.add_argument("--viewers", type=int, default=3, help="anonymous viewer threads (default 3)")
    parser.add_argument("--scorers", type=int, default=2, help="threads saving hands as the director (default 2)")
    parser.add_argument("--web-concurrency", type=int, default=3, help="gunicorn app workers (default 3)")
    parser.add_argument("--conn-max-age", type=int, default=60, help="CONN_MAX_AGE of the server (default 60, as README's server)")
    parser.add_argument("--disk-mb", type=int, default=8, help="size of DATA_DIR's tmpfs in MB (default 8)")
    parser.add_argument("--outage", type=float, default=8, help="seconds of load while Redis is down / the disk full (default 8)")
    parser.add_argument("--db-outage", type=float, default=6, help="seconds the database is away (default 6)")
    parser.add_argument("--kills", type=int, default=3, help="app workers killed mid-save in fault 5 (default 3)")
    parser.add_argument("--settle", type=float, default=4, help="seconds of load before and after each fault (default 4)")
    parser.add_argument("--job-wait", type=float, default=75, help="seconds to wait for the killed worker's export (default 75: a lease of 60 s may have to run out)")
    parser.add_argument("--only", default="", help="comma-separated fault numbers, e.g. 2,3 (the baseline always runs)")
    parser.add_argument("--time-limit", type=float, default=570, help="seconds after which remaining faults are skipped (default 570)")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the served database")
    args = parser.parse_args(argv)

    url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        sys.exit("faults: DATABASE_URL must name a PostgreSQL server")
    if not shutil.which("redis-server"):
        sys.exit("faults: redis-server is needed (apt-get install redis-server)")
    previous = {s: signal.signal(s, _stop) for s in (signal.SIGTERM, signal.SIGALRM)}
    previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C, even if inherited ignored
    signal.alarm(int(args.time_limit) + 45)  # the hard stop: cleanup runs whatever hangs
    run = Run(args)
    status = 2
    try:
        run.setup()
        run.run_faults()
        final = run.final_check()
        status = run.report(final)
    except KeyboardInterrupt:
        log("faults: interrupted")
        status = 130
    except Stop as why:
        log(f"faults: stopped ({why})")
        status = 1
    except Exception:
        import traceback

        traceback.print_exc()
        if run.rows:
            try:
                run.report({})
            except Exception:
                pass
        status = 1
    finally:
        signal.alarm(0)
        run.cleanup()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return status


if __name__ == "__main__":
    sys.exit(main())
