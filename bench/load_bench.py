#!/usr/bin/env python
"""Load benchmark: the served app under a tournament's crowd.

Builds a 1,000-player Tiroler Tarockcup in a PostgreSQL database of its own (``entry_bench``'s
``own_database`` and ``build``: three rounds drawn, rounds 1 and 2 complete, every round-3 table
with a few hands still open) and ``--scorers`` accounts with the scorer role (``scorer01``, ...), then starts
``scripts/serve`` on it with Redis as the shared cache — ``--servers 2`` starts two app servers on
two ports sharing PostgreSQL and Redis (the second without the background worker) — and runs
locust (``bench/locustfile.py``) headless against it for ``--duration`` seconds:

- ``--viewers`` anonymous viewers (default 300), each refreshing the standings, its table's sheet,
  the round's seating or the tournament page every 5–15 s, with the browser's ``If-None-Match``;
- ``--scorers`` scorers (default 50), each entering the next hand of its own tables every
  20–40 s through the sheet's form (quick line ``d <seat> +``) and following the redirect to the
  sheet.

Users are spread over the servers in turn. Afterwards:

- **lost writes**: every hand acknowledged with a 302 must be in the database, entered by the
  scorer that posted it;
- **ETag check** (with ``--servers 2`` the *two-server check*): a viewer takes the standings' and a
  sheet's ETag from the last server, a director saves a hand through the first, and the viewer's
  next ``If-None-Match`` on the last server must get 200 with a new ETag and the new hand;
- the servers' logs are searched for tracebacks and 5xx answers.

Then the **floor**: the app's servers stop, the answers it gave to each kind of request are
served by :mod:`bench.bare_app` (as many gunicorn servers and workers, no Django, database or
cache) and the same crowd runs against it for ``--floor-duration`` seconds (default 60; 0 skips
it). Each endpoint's p95 is reported beside the floor's and as a ratio.

Prints p50/p95/p99/max per endpoint, writes ``bench/results/load-<servers>.json`` (and the servers'
and locust's logs beside it) and exits 1 when a goal is missed: p95 under 150 ms for every endpoint
at 1,000 players, under 250 ms at 5,000 (run with ``--servers 2``) (the login is reported but
exempt: its cost is the deliberate password hash), no failed request, no lost write, the ETag check
passed. Servers, locust and the database are stopped and dropped at the
end, also on errors and Ctrl-C (``--keep-db`` keeps the database). Run from the project root::

    .venv/bin/python bench/load_bench.py                       # 3 min, 300 viewers + 50 scorers, one server
    .venv/bin/python bench/load_bench.py --servers 2           # two app servers
    .venv/bin/python bench/load_bench.py --servers 2 --players 5000
    .venv/bin/python bench/load_bench.py --duration 30 --viewers 60 --scorers 10

``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/postgres``) names the PostgreSQL
server only; ``--redis-url`` (default ``redis://127.0.0.1:6379/5``) is flushed at the start.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
GOAL_P95_MS = {1000: 150.0, 5000: 250.0}  # players -> p95 goal (5,000: with --servers 2)
EXEMPT = {"login"}  # reported, but its time is the password hash (PBKDF2), by design
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/postgres"
PASSWORD = "bench-scorer-123"
VIEWER_WAIT = (5, 15)
SCORER_WAIT = (20, 40)
STAGGER_S = 10

sys.path.insert(0, str(Path(__file__).resolve().parent))
import entry_bench  # noqa: E402  (the tournament is built exactly as for the entry benchmark)
from plain_http import CSRF, Browser, free_port  # noqa: E402  (the checks' HTTP, outside locust)

NUMBER = re.compile(rb'<input[^>]*\bname="number" value="(\d+)"')
DEALER = re.compile(rb'<select[^>]*\bname="dealer"[^>]*>(.*?)</select>', re.S)
SELECTED = re.compile(rb'<option value="(\d+)" selected>')


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------
# Servers
# --------------------------------------------------------------------------------------------------


class Server:
    """One ``scripts/serve`` in a session of its own (its gunicorn and worker with it)."""

    def __init__(self, index: int, port: int, env: dict, log_path: Path):
        self.index, self.port, self.log_path = index, port, log_path
        self.base = f"http://127.0.0.1:{port}"
        self.log_file = open(log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/", timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"scripts/serve on port {self.port} did not start:\n{tail(self.log_path)}")
            time.sleep(0.5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=30)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log_file.close()


def tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def scan_log(path: Path) -> dict:
    """Tracebacks, gunicorn's errors and 5xx answers in a server's log."""
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    lines = text.splitlines()
    tracebacks = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("Traceback (most recent call last)"):
            block = lines[max(0, i - 1):i + 1]  # the log line before it says which request
            i += 1
            while i < len(lines) and lines[i].startswith((" ", "\t")):
                block.append(lines[i])
                i += 1
            if i < len(lines):
                block.append(lines[i])  # the exception
            tracebacks.append(block)
        i += 1
    access = [line for line in lines if re.search(r'" \d{3} ', line)]
    server_errors = [line for line in access if re.search(r'" 5\d\d ', line)]
    gunicorn = [line for line in lines if re.search(r"\[(ERROR|CRITICAL)\]|WORKER TIMEOUT|was sent SIGKILL", line)]
    return {
        "requests_logged": len(access),
        "status_5xx": len(server_errors),
        "examples_5xx": server_errors[:5],
        "tracebacks": len(tracebacks),
        "traceback_examples": ["\n".join(t) for t in tracebacks[:3]],
        "gunicorn_errors": gunicorn[:10],
    }


# --------------------------------------------------------------------------------------------------
# The machine's load
# --------------------------------------------------------------------------------------------------


class CpuSampler(threading.Thread):
    """CPU seconds spent by the app servers, PostgreSQL, Redis, locust and the rest while it runs,
    from the processes' own counters every 2 s (psutil, installed with locust)."""

    def __init__(self, server_pids, locust_pid):
        super().__init__(daemon=True)
        import psutil

        self.psutil = psutil
        self.server_pids, self.locust_pid = server_pids, locust_pid
        self.first: dict = {}
        self.last: dict = {}
        self.group: dict = {}
        self.stopping = threading.Event()
        self.cpu_percent: list[float] = []
        self.started = time.monotonic()
        psutil.cpu_percent()
        self.sample(initial=True)

    def classify(self, proc, trees) -> str:
        name = proc.info["name"] or ""
        if proc.pid in trees["servers"]:
            return "app servers"
        if proc.pid in trees["locust"]:
            return "locust"
        if name.startswith("postgres") or name.startswith("postmaster"):
            return "postgresql"
        if name.startswith("redis"):
            return "redis"
        return "other"

    def trees(self) -> dict:
        out = {"servers": set(), "locust": set()}
        for key, pids in (("servers", self.server_pids), ("locust", [self.locust_pid])):
            for pid in pids:
                try:
                    root = self.psutil.Process(pid)
                    out[key].add(pid)
                    out[key].update(child.pid for child in root.children(recursive=True))
                except self.psutil.Error:
                    pass
        return out

    def sample(self, initial=False) -> None:
        trees = self.trees()
        for proc in self.psutil.process_iter(["name", "cpu_times", "create_time"]):
            times = proc.info["cpu_times"]
            if times is None:
                continue
            key = (proc.pid, proc.info["create_time"])
            used = times.user + times.system
            if initial:
                self.first[key] = used
            self.last[key] = used
            self.group.setdefault(key, self.classify(proc, trees))

    def run(self):
        while not self.stopping.wait(2):
            self.sample()
            self.cpu_percent.append(self.psutil.cpu_percent())

    def stop(self) -> dict:
        self.stopping.set()
        self.join(timeout=10)
        self.sample()
        wall = time.monotonic() - self.started
        seconds: dict[str, float] = {}
        for key, used in self.last.items():
            group = self.group[key]
            seconds[group] = seconds.get(group, 0.0) + used - self.first.get(key, 0.0)
        return {
            "wall_seconds": round(wall, 1),
            "cpu_seconds": {k: round(v, 1) for k, v in sorted(seconds.items(), key=lambda kv: -kv[1])},
            "cores_busy": {k: round(v / wall, 2) for k, v in sorted(seconds.items(), key=lambda kv: -kv[1])},
            "machine_cpu_percent_mean": round(sum(self.cpu_percent) / len(self.cpu_percent), 1) if self.cpu_percent else None,
            "machine_cpu_percent_max": max(self.cpu_percent) if self.cpu_percent else None,
        }


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------


def summarize(samples: dict, extra: dict, seconds: float, goal_ms: float) -> dict:
    def stats(rows):
        ms = [r[0] for r in rows]
        return {
            "requests": len(rows),
            "failures": sum(r[2] for r in rows),
            "per_second": round(len(rows) / seconds, 2) if seconds else None,
            "p50_ms": round(entry_bench.percentile(ms, 50), 1),
            "p95_ms": round(entry_bench.percentile(ms, 95), 1),
            "p99_ms": round(entry_bench.percentile(ms, 99), 1),
            "max_ms": round(max(ms), 1),
            "mean_ms": round(sum(ms) / len(ms), 1),
        }

    out = {}
    for name in sorted(samples, key=lambda n: -len(samples[n])):
        rows = samples[name]
        out[name] = stats(rows)
        out[name]["status"] = {str(code): sum(1 for r in rows if r[1] == code) for code in sorted({r[1] for r in rows})}
        if name in EXEMPT:
            out[name]["goal"] = "exempt (password hash)"
        else:
            out[name]["goal_p95_ms"] = goal_ms
            out[name]["met"] = out[name]["p95_ms"] < goal_ms
    everything = [r for rows in samples.values() for r in rows]
    if everything:
        out["overall"] = stats(everything)
    return out


def check_writes(acks_path: Path, owned_tables: list[int]) -> dict:
    """Every acknowledged (table, number) stored, entered by the scorer that posted it."""
    from scoring.models import Hand

    acked: dict[tuple[int, int], str] = {}
    doubled = 0
    for line in acks_path.read_text(encoding="utf-8").splitlines() if acks_path.exists() else []:
        table, number, user = line.split()
        key = (int(table), int(number))
        doubled += key in acked
        acked[key] = user
    stored = {
        (t, n): u
        for t, n, u in Hand.objects.filter(table_id__in=owned_tables, entered_by__username__startswith="scorer").values_list(
            "table_id", "number", "entered_by__username"
        )
    }
    lost = sorted(k for k in acked if k not in stored)
    other_user = sorted(k for k in acked if k in stored and stored[k] != acked[k])
    unacknowledged = sorted(k for k in stored if k not in acked)
    return {
        "acknowledged": len(acked),
        "present": len(acked) - len(lost) - len(other_user),
        "lost": len(lost),
        "lost_examples": [list(k) for k in lost[:10]],
        "stored_by_another_scorer": len(other_user),
        "acknowledged_twice": doubled,
        # A hand whose 302 never reached locust (in flight when the run stopped): saved, not lost.
        "stored_unacknowledged": len(unacknowledged),
        "met": not lost and not other_user and not doubled,
    }


def etag_check(writer_base: str, reader_base: str, tournament: int, table: int, username: str) -> dict:
    """A viewer on ``reader_base`` holds the standings' and the sheet's ETag; a director saves a hand
    through ``writer_base``; the viewer's next conditional GETs must get 200, new ETags and the hand."""
    viewer = Browser(reader_base)
    standings, sheet = f"/t/{tournament}/standings/", f"/table/{table}/"
    result: dict = {"writer": writer_base, "reader": reader_base, "table": table}
    s1, h1, _b = viewer.request(standings)
    s2, h2, _b = viewer.request(sheet)
    tags = {"standings": h1.get("ETag"), "sheet": h2.get("ETag")}
    if None in tags.values():
        result.update(passed=False, why=f"no ETag to hold: standings {s1} {dict(h1)}, sheet {s2} {dict(h2)}")
        return result
    before = {name: viewer.request(path, headers={"If-None-Match": tags[name]})[0] for name, path in (("standings", standings), ("sheet", sheet))}
    result["before_save"] = before  # 304 expected: nothing changed since the tags were taken

    director = Browser(writer_base)
    if not director.log_in(username, PASSWORD):
        return {**result, "passed": False, "why": "the director's login was refused"}
    _status, _headers, body = director.request(sheet)
    number, dealer, token = NUMBER.search(body), DEALER.search(body), CSRF.search(body)
    chosen = SELECTED.search(dealer.group(1)) if dealer else None
    if not (number and chosen and token):
        return {**result, "passed": False, "why": "no entry form on the sheet (table full?)"}
    n = int(number.group(1))
    data = {"csrfmiddlewaretoken": token.group(1).decode(), "number": str(n), "outcome": "played",
            "dealer": chosen.group(1).decode(), "quick": "d 1 +", "source": "line"}
    status, headers, _body = director.request(f"/manage/table/{table}/hands/", data)
    result["save_status"] = status
    result["hand_number"] = n
    if status != 302:
        return {**result, "passed": False, "why": f"the hand was not saved ({status})"}
    saved_at = time.perf_counter()
    after = {}
    for name, path in (("standings", standings), ("sheet", sheet)):
        s, h, b = viewer.request(path, headers={"If-None-Match": tags[name]})
        after[name] = {"status": s, "etag_changed": bool(h.get("ETag")) and h.get("ETag") != tags[name]}
        if name == "sheet":
            after[name]["shows_hand"] = f'id="hand-{n}"'.encode() in b
    result["seconds_after_save"] = round(time.perf_counter() - saved_at, 3)
    result["after_save"] = after
    result["passed"] = (
        all(v == 304 for v in before.values())
        and all(a["status"] == 200 and a["etag_changed"] for a in after.values())
        and after["sheet"]["shows_hand"]
    )
    result["acknowledged"] = [table, n, username]
    return result


# --------------------------------------------------------------------------------------------------
# The crowd, and the floor it meets
# --------------------------------------------------------------------------------------------------


def goal_for(players: int) -> float:
    """The p95 goal in ms of every endpoint for a field of ``players`` (the nearest size with a goal)."""
    return GOAL_P95_MS[min(GOAL_P95_MS, key=lambda size: abs(size - players))]


def run_crowd(config: dict, tmp: Path, name: str, duration: int, users: int, spawn_rate: float, env: dict, server_pids) -> dict:
    """Run locust headless with ``config`` (written to ``tmp/<name>-config.json``) for ``duration``
    seconds; ``{"recorded": samples and extra, "machine": CpuSampler's figures, "run_s",
    "load_before", "load_after"}``. Raises ``RuntimeError`` when locust hangs or records nothing."""
    config_path = tmp / f"{name}-config.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    command = [
        str(ROOT / ".venv" / "bin" / "locust"), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
        "-u", str(users), "-r", str(spawn_rate), "-t", f"{duration}s", "--stop-timeout", "60",
        "--host", config["hosts"][0], "--only-summary", "--exit-code-on-error", "0",
    ]
    load_before = os.getloadavg()
    locust_log = open(tmp / f"{name}-locust.log", "w", encoding="utf-8")
    proc = subprocess.Popen(
        command, cwd=ROOT, env={**env, "LOAD_BENCH_CONFIG": str(config_path)},
        stdout=locust_log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    sampler = CpuSampler(server_pids, proc.pid)
    sampler.start()
    run_at = time.perf_counter()
    try:
        proc.wait(timeout=duration + 180)
    except subprocess.TimeoutExpired:
        raise RuntimeError("locust did not stop in time:\n" + tail(tmp / f"{name}-locust.log"))
    finally:
        locust_log.close()
        machine = sampler.stop()
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    run_s = time.perf_counter() - run_at
    if not Path(config["samples"]).exists():
        raise RuntimeError(f"locust wrote no samples (exit {proc.returncode}):\n{tail(tmp / f'{name}-locust.log')}")
    return {
        "recorded": json.loads(Path(config["samples"]).read_text(encoding="utf-8")),
        "machine": machine, "run_s": run_s, "load_before": load_before, "load_after": os.getloadavg(),
    }


KEPT_HEADERS = {"content-type", "content-encoding", "content-language", "etag", "cache-control", "vary", "last-modified", "expires",
                "x-frame-options", "x-content-type-options", "referrer-policy", "cross-origin-opener-policy",
                "content-security-policy", "strict-transport-security"}


def record_pages(base: str, tournament: int, table: int, scorer: str) -> dict:
    """One answer of each kind of page the crowd asks for, as the running app gives it (status,
    the headers a browser keeps, the body), for :mod:`bench.bare_app`. Asked with the
    ``Accept-Encoding`` the crowd's client (python-requests) sends, so that a page the app sends
    gzipped is served gzipped by the floor too: the same bytes."""
    import base64

    def page(browser, path):
        status, headers, body = browser.request(path, headers={"Accept-Encoding": "gzip, deflate"})
        kept = [(k, v) for k, v in headers.items() if k.lower() in KEPT_HEADERS]
        return {"status": status, "headers": kept, "body": base64.b64encode(body).decode()}

    viewer, director = Browser(base), Browser(base)
    recorded = {
        "standings": page(viewer, f"/t/{tournament}/standings/"),
        "seating": page(viewer, f"/t/{tournament}/round/3/"),
        "tournament": page(viewer, f"/t/{tournament}/"),
        "sheet": page(viewer, f"/table/{table}/"),
        "login": page(viewer, "/accounts/login/"),
    }
    if not director.log_in(scorer, PASSWORD):
        raise RuntimeError(f"{scorer} could not log in to record the scorer's sheet")
    recorded["sheet (director)"] = page(director, f"/table/{table}/")
    return recorded


class BareServer(Server):
    """gunicorn serving :mod:`bench.bare_app` with ``workers`` sync workers, access log on, as the app's."""

    def __init__(self, index: int, port: int, workers: int, pages: Path, env: dict, log_path: Path):
        self.index, self.port, self.log_path = index, port, log_path
        self.base = f"http://127.0.0.1:{port}"
        self.log_file = open(log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "gunicorn"), "-w", str(workers), "-b", f"127.0.0.1:{port}",
             "--access-logfile", "-", "--chdir", str(ROOT / "bench"), "bare_app:application"],
            cwd=ROOT, env={**env, "BARE_APP_PAGES": str(pages)}, stdout=self.log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/accounts/login/", timeout=5):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the bare app on port {self.port} did not start:\n{tail(self.log_path)}")
            time.sleep(0.3)


# --------------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------------


def _interrupted(signum, frame):
    raise KeyboardInterrupt()  # SIGTERM as Ctrl-C: stop everything in main()'s finally


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=180, help="seconds of load (default 180)")
    parser.add_argument("--viewers", type=int, default=300, help="anonymous viewers (default 300)")
    parser.add_argument("--scorers", type=int, default=50, help="directors entering hands (default 50)")
    parser.add_argument("--servers", type=int, choices=(1, 2), default=1, help="app servers sharing PostgreSQL and Redis (default 1)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers per server (WEB_CONCURRENCY, default 4)")
    parser.add_argument("--players", type=int, default=1000, help="registered players (default 1000)")
    parser.add_argument("--room", type=int, default=0, help="hands left open per round-3 table (default: enough for the run)")
    parser.add_argument("--spawn-rate", type=float, default=50, help="users started per second (default 50)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/5", help="the shared cache; FLUSHED at the start")
    parser.add_argument("--floor-duration", type=int, default=60,
                        help="seconds of the same crowd on the bare app answering the recorded pages (the floor; 0: none)")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the benchmark database")
    args = parser.parse_args(argv)

    base_url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    if not base_url.startswith(("postgres://", "postgresql://", "pgsql://")):
        sys.exit("load_bench: DATABASE_URL must name a PostgreSQL server")
    base_env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    tmp = Path(tempfile.mkdtemp(prefix="tarock-load-"))
    servers: list[Server] = []
    bare_servers: list[BareServer] = []
    previous_term = signal.signal(signal.SIGTERM, _interrupted)
    db_url, cleanup = entry_bench.own_database(base_url)
    RESULTS.mkdir(parents=True, exist_ok=True)
    label = f"load-{args.servers}"
    try:
        entry_bench.setup_django(db_url)
        import django
        from django.contrib.auth import get_user_model
        from django.contrib.auth.hashers import make_password
        from django.core.management import call_command
        from django.db import connection, connections

        started = time.perf_counter()
        log(f"load_bench: database {connection.settings_dict['NAME']}")
        call_command("migrate", verbosity=0)
        n_tables = max(1, args.players // 4)
        if args.scorers > n_tables:
            sys.exit(f"load_bench: {args.scorers} scorers need at least as many tables ({n_tables})")
        per_scorer = n_tables // args.scorers
        # Enough open hands for a scorer at its fastest pace, plus one for the ETag check.
        needed = math.ceil(args.duration / SCORER_WAIT[0]) + 2
        room = args.room or min(16, max(2, math.ceil(needed / per_scorer)))
        log(f"  building {args.players} players, {room} open hands per round-3 table ...")
        built = entry_bench.build(args.players, room, log)
        t = built["tournament"]
        tables = sorted(table.pk for table in built["tables"])
        password = make_password(PASSWORD)  # hashed once: 50 hashes would take half a minute
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"scorer{i:02d}", password=password) for i in range(1, args.scorers + 1)
        )
        from tournaments.models import TournamentRole

        TournamentRole.objects.bulk_create(  # scorers: they enter hands, nothing else
            TournamentRole(tournament=t, user=u, level=TournamentRole.Level.SCORER) for u in users
        )
        scorers = [
            {"username": u.username, "password": PASSWORD, "tables": tables[i * per_scorer:(i + 1) * per_scorer]}
            for i, u in enumerate(users)
        ]
        owned = [pk for s in scorers for pk in s["tables"]]
        spare = [pk for pk in tables if pk not in set(owned)]
        build_s = time.perf_counter() - started
        log(f"  built in {build_s:.0f} s: {len(tables)} tables in round 3, {per_scorer} per scorer")
        with connection.cursor() as cur:
            cur.execute("show server_version")
            pg_version = cur.fetchone()[0]
        connections.close_all()

        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
        secret = secrets.token_urlsafe(40)
        for i in range(args.servers):
            port = free_port()
            server_dir = tmp / f"server{i + 1}"
            env = {
                **base_env,
                "DATABASE_URL": db_url,
                "REDIS_URL": args.redis_url,
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "PUBLIC_URL": f"http://127.0.0.1:{port}",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "DATA_DIR": str(server_dir / "data"),
                "STATIC_ROOT": str(server_dir / "static"),
                "WEB_CONCURRENCY": str(args.workers),
                "CONN_MAX_AGE": "60",
                "SECRET_KEY": secret,  # one site: a login on one server holds on the other
                "RELEASE": f"load-bench-{os.getpid()}",  # the same cache keys, whatever git says meanwhile
                # The whole crowd comes from 127.0.0.1, as a hall's phones come from its one Wi-Fi
                # address; what is measured is the speed, so the page renders are counted as ever
                # but never refused (tests/scoring/test_bounded_public.py tests the refusing).
                "RATE_LIMIT_PAGES": os.environ.get("RATE_LIMIT_PAGES", "100000/m"),
            }
            if i > 0:
                env["WORKER"] = "0"  # the first server runs the background worker
            log(f"  starting scripts/serve #{i + 1} on port {port} ({args.workers} workers) ...")
            server = Server(i, port, env, tmp / f"server{i + 1}.log")
            servers.append(server)
            server.wait_ready()  # one after the other: their scripts/setup and migrate do not overlap
        hosts = [s.base for s in servers]
        # Warm-up, not measured: every worker has rendered each kind of page once.
        for base in hosts:
            viewer = Browser(base)
            for _ in range(args.workers * 2):
                for path in (f"/t/{t.pk}/standings/", f"/t/{t.pk}/round/3/", f"/t/{t.pk}/", f"/table/{tables[-1]}/"):
                    viewer.request(path)

        config = {
            "tournament": t.pk,
            "round": 3,
            "tables": tables,
            "hosts": hosts,
            "viewers": args.viewers,
            "scorers": scorers,
            "viewer_wait": list(VIEWER_WAIT),
            "scorer_wait": list(SCORER_WAIT),
            "stagger": STAGGER_S,
            "acks": str(tmp / "acks.txt"),
            "samples": str(tmp / "samples.json"),
        }
        users_total = args.viewers + args.scorers
        log(f"  locust: {args.viewers} viewers + {args.scorers} scorers for {args.duration} s on {', '.join(hosts)}")
        crowd = run_crowd(config, tmp, "app", args.duration, users_total, args.spawn_rate, base_env, [s.proc.pid for s in servers])
        recorded, machine, run_s = crowd["recorded"], crowd["machine"], crowd["run_s"]
        load_before, load_after = crowd["load_before"], crowd["load_after"]
        goal_ms = goal_for(args.players)
        endpoints = summarize(recorded["samples"], recorded["extra"], args.duration, goal_ms)
        extra = recorded["extra"]

        # The ETag check: write through the first server, read through the last.
        table = spare[0] if spare else scorers[0]["tables"][0]
        check = etag_check(hosts[0], hosts[-1], t.pk, table, scorers[0]["username"])
        check["name"] = "two-server check" if args.servers == 2 else "ETag check (one server)"
        if check.get("acknowledged"):
            with open(tmp / "acks.txt", "a", encoding="utf-8") as acks:
                acks.write(" ".join(map(str, check["acknowledged"])) + "\n")
        writes = check_writes(tmp / "acks.txt", owned + spare)
        connections.close_all()

        floor = None
        if args.floor_duration:
            pages_path = tmp / "pages.json"
            from django.db.models import Count

            from tournaments.models import Table

            # The scorer's sheet with an entry form: that of the table with the fewest hands.
            roomiest = Table.objects.filter(pk__in=tables).annotate(n=Count("hands")).order_by("n", "pk").values_list("pk", flat=True)[0]
            pages_path.write_text(json.dumps(record_pages(hosts[-1], t.pk, roomiest, scorers[0]["username"])), encoding="utf-8")
        for server in servers:
            server.stop()
        logs = {f"server{s.index + 1}": scan_log(s.log_path) for s in servers}
        for s in servers:
            shutil.copy(s.log_path, RESULTS / f"{label}-server{s.index + 1}.log")
        shutil.copy(tmp / "app-locust.log", RESULTS / f"{label}-locust.log")
        if args.floor_duration:
            # The floor: the same crowd, as many servers and workers, the bare app answering the
            # recorded bytes; the app's servers are stopped so the two never share the CPUs.
            for i in range(args.servers):
                bare = BareServer(i, free_port(), args.workers, pages_path, base_env, tmp / f"bare{i + 1}.log")
                bare_servers.append(bare)
                bare.wait_ready()
            floor_config = {**config, "hosts": [b.base for b in bare_servers], "acks": str(tmp / "floor-acks.txt"),
                            "samples": str(tmp / "floor-samples.json")}
            log(f"  floor: the same crowd for {args.floor_duration} s on the bare app ({', '.join(floor_config['hosts'])})")
            floor_crowd = run_crowd(floor_config, tmp, "floor", args.floor_duration, users_total, args.spawn_rate, base_env,
                                    [b.proc.pid for b in bare_servers])
            for bare in bare_servers:
                bare.stop()
            floor = {
                "duration_s": args.floor_duration,
                "endpoints": summarize(floor_crowd["recorded"]["samples"], floor_crowd["recorded"]["extra"], args.floor_duration, goal_ms),
                "machine": {**floor_crowd["machine"], "load_average_before": [round(x, 2) for x in floor_crowd["load_before"]]},
            }
            for name, e in endpoints.items():
                f = floor["endpoints"].get(name)
                if f and f["p95_ms"]:
                    e["floor_p95_ms"] = f["p95_ms"]
                    e["ratio_p95"] = round(e["p95_ms"] / f["p95_ms"], 1)

        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
            dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
        except OSError:
            commit, dirty = "", False
        from importlib.metadata import version

        failures = sum(e["failures"] for n, e in endpoints.items() if n != "overall")
        goals = {
            f"p95_under_{goal_ms:.0f}ms": all(e.get("met", True) for n, e in endpoints.items() if n != "overall"),
            "no_failures": failures == 0,
            "no_lost_writes": writes["met"],
            "etag_check": bool(check["passed"]),
        }
        report = {
            "benchmark": "load",
            "servers": args.servers,
            "workers_per_server": args.workers,
            "players": args.players,
            "tables_round_3": len(tables),
            "open_hands_per_table": room,
            "viewers": args.viewers,
            "scorers": args.scorers,
            "tables_per_scorer": per_scorer,
            "duration_s": args.duration,
            "run_seconds": round(run_s, 1),
            "viewer_wait_s": list(VIEWER_WAIT),
            "scorer_wait_s": list(SCORER_WAIT),
            "build_seconds": round(build_s, 1),
            "endpoints": endpoints,
            "viewer_200": extra["viewer_200"],
            "viewer_304": extra["viewer_304"],
            "refused_hands": extra["refused"],
            "refusal_examples": extra["refusals"],
            "scorer_out_of_room": extra["scorer_full"],
            "request_errors": extra["errors"],
            "writes": writes,
            "etag_check": check,
            "server_logs": logs,
            "machine": {**machine, "load_average_before": [round(x, 2) for x in load_before],
                        "load_average_after": [round(x, 2) for x in load_after], "cpus": os.cpu_count()},
            "goals": goals,
            "floor": floor,
            "postgresql": pg_version,
            "python": platform.python_version(),
            "django": django.get_version(),
            "locust": version("locust"),  # not imported here: it would monkey-patch this process
            "git_commit": commit + ("+dirty" if dirty else ""),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        out = RESULTS / f"{label}.json"
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        print(
            f"\nTiroler Tarockcup, {args.players} players; {args.viewers} viewers + {args.scorers} scorers for "
            f"{args.duration} s on {args.servers} server(s) × {args.workers} workers (PostgreSQL {pg_version}, Redis)"
        )
        print(f"{'endpoint':<18}{'requests':>9}{'fail':>6}{'304':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
              f"{'floor p95':>10}{'ratio':>7}  goal")
        for name, e in endpoints.items():
            if "met" in e:
                goal = f"p95 < {goal_ms:.0f} ms: {'met' if e['met'] else 'MISSED'}"
            else:
                goal = e.get("goal", "")
            not_modified = extra["viewer_304"].get(name, "")
            print(f"{name:<18}{e['requests']:>9}{e['failures']:>6}{not_modified!s:>7}{e['p50_ms']:>9.1f}{e['p95_ms']:>9.1f}"
                  f"{e['p99_ms']:>9.1f}{e['max_ms']:>9.1f}{e.get('floor_p95_ms', '–')!s:>10}{e.get('ratio_p95', '–')!s:>7}  {goal}")
        print(f"hands: {writes['acknowledged']} acknowledged, {writes['present']} in the database, {writes['lost']} lost"
              f" ({writes['stored_unacknowledged']} stored but unacknowledged, {extra['refused']} refused)"
              f" — {'met' if writes['met'] else 'MISSED'}")
        if extra["refusals"]:
            print("  refusals: " + "; ".join(extra["refusals"][:5]))
        if check.get("after_save"):
            a = check["after_save"]
            detail = (f"before the save 304/304: {check['before_save']}; after: standings {a['standings']['status']}"
                      f" (ETag changed: {a['standings']['etag_changed']}), sheet {a['sheet']['status']}"
                      f" (ETag changed: {a['sheet']['etag_changed']}, hand {check['hand_number']} shown: {a['sheet']['shows_hand']})")
        else:
            detail = check.get("why", "")
        print(f"{check['name']}: {'PASSED' if check['passed'] else 'FAILED'} — saved through {check['writer']}, read through {check['reader']}: {detail}")
        for name, found in logs.items():
            print(f"{name} log: {found['requests_logged']} requests, {found['status_5xx']} answered 5xx, {found['tracebacks']} tracebacks"
                  + (f", gunicorn: {found['gunicorn_errors'][:2]}" if found["gunicorn_errors"] else ""))
            for example in found["traceback_examples"][:1]:
                print("  " + example.replace("\n", "\n  "))
        busy = ", ".join(f"{k} {v}" for k, v in machine["cores_busy"].items())
        print(f"machine: {os.cpu_count()} CPUs, {machine['machine_cpu_percent_mean']} % busy on average; cores busy: {busy};"
              f" load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
        print(f"results: {out.relative_to(ROOT)} (logs beside it)")
        missed = [k for k, ok in goals.items() if not ok]
        print("goals: " + ("all met" if not missed else "MISSED: " + ", ".join(missed)))
        return 0 if not missed else 1
    except KeyboardInterrupt:
        log("load_bench: interrupted")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        for server in [*servers, *bare_servers]:
            try:
                server.stop()
            except Exception as error:  # keep stopping the others
                log(f"load_bench: stopping server {server.index + 1}: {error}")
        entry_bench.release_database("load_bench", db_url, cleanup, args.keep_db)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
