#!/usr/bin/env python
"""Publishing benchmark: venues pushing to a public site, against the goals of "Publish from the
venue to a public site".

The **public site** is two app servers (``scripts/serve``, ``--workers`` gunicorn workers each, the
first with the task worker) on one PostgreSQL database of the benchmark's own (``entry_bench``'s
``own_database``) and a Redis cache (``--redis-url``, flushed at the start and the end). Its
organiser gets one publishing key per venue (:func:`publishing.keys.make_key`). Three measurements:

1. **One venue entering hands** (``--hands`` hands, one every ``--hand-every`` s): a real venue
   (``scripts/serve`` on a SQLite file, its worker beside it, as a laptop runs it) with a
   ``--players`` tournament (three rounds drawn, two complete: ``entry_bench.build``), published
   through its director's publish page to the first app server; the hands are typed on the sheet
   by its logged-in director (the quick line ``d 1 +``). A poller reads the mirror's public
   standings page (``/m/<uid>/standings/`` → the current copy, whose page says its version) every
   ``POLL`` s. Per hand: the seconds from its save (the sheet's 302) until the public standings
   show a version that holds it. Goal: p95 < 5 s.
2. **The site away** for ``--outage-seconds``: both app servers stopped (PostgreSQL and Redis stay
   up) while the venue saves a hand every ``--hand-every`` s; then both started again; the venue
   stops entering. Measured: from the first app server answering again until the mirror
   (``Mirror.version``) holds the venue's last version, and then whether the mirror equals the
   venue: the standings' rows (rank, name, total, each round's score) and every hand (round,
   table, number, record, score row), computed by the project's own code on each side. Goal:
   within 30 s, equal.
3. **``--venues`` venues at once**, each a ``--players`` tournament saving a hand every
   ``--hand-every`` s for ``--duration`` s, while ``--viewers`` viewers read the mirrors. The
   venues are *pushers* (``--venues-per-process`` in one process, each process a SQLite file of
   its own: 50 venue servers with their workers do not fit this 2-core machine beside the site):
   per venue one thread saves hands through :func:`scoring.services.save_hand` (these scorers in
   a child process at ``--venue-nice``, default 19: the laptops' own work takes what the site
   leaves; ``--chain-nice`` the pushes, default 0) and one runs the worker's step (:func:`publishing.tasks.push_if_due`: the due check, the archive of exactly one
   version, the signature, the POST, the record and the back-off of :mod:`publishing.venue`) every
   second plus the worker's poll (up to a second more), as the chain does. The POST itself is timed
   (``venue._post`` wrapped): **push handling**. Each venue pushes once before the clock starts
   (the mirror made). Viewers: threads, each on one mirror, every 5–15 s its standings (weight 3),
   the round's seating (1) or the tournament page (1), as a browser does it (``If-None-Match``;
   an old copy's address answers 302 to the current one, followed and timed as its own request);
   each remembers the mirror's version its pages showed. After the run the venues push until the
   site has their last version (``--drain`` s at most). Goals: push p95 < 500 ms, page p95
   < 200 ms, 0 lost versions (every venue's last version is the mirror's and the mirror equals the
   venue) and 0 out of order (the versions the site stored for a mirror only rise, in the order
   stored, and no viewer saw a mirror's version go back).

   **Floor**, same run: the site's servers stopped, ``bench/bare_app.py`` (no Django, database or
   cache) on as many gunicorn servers and workers, given the bytes the site answered for the three
   pages; every venue POSTs its last push (the same bytes, signed: a patch or the whole archive)
   at its own measured push rate and the same viewers read the same pages, for
   ``--floor-seconds``. Ratios are of the p95s.

Prints a table, writes ``bench/results/publish[-quick].json`` (the servers' logs beside it) and
exits 1 when a goal is missed. ``--quick``: 5 venues, 30 viewers, a 20 s outage, 10 hands, 30 s of
load and 15 s of floor (each option given still wins). The database and Redis keys are dropped at
the end, also on errors and Ctrl-C (``--keep-db`` keeps the database). Run from the project root::

    .venv/bin/python bench/publish_bench.py --quick
    .venv/bin/python bench/publish_bench.py                     # the issue's sizes: ~10 min
    .venv/bin/python bench/publish_bench.py --venues 10 --viewers 100 --skip 1,2

``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/postgres``) names the PostgreSQL
server only; the database is ``<--db-prefix>_<pid>``.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import platform
import random
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
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/postgres"
GOALS = {"latency_p95_s": 5.0, "catch_up_s": 30.0, "push_p95_ms": 500.0, "page_p95_ms": 200.0}
POLL = 0.25  # seconds between the poller's looks at the public standings (measurement 1)
VIEWER_WAIT = (5, 15)
VIEWER_STAGGER = 10
PAGES = (("standings", "standings/", 3), ("seating", "round/3/", 1), ("tournament", "", 1))
PASSWORD = "bench-pass-123"  # entry_bench.build's director
VERSION_SHOWN = re.compile(rb'mirror-note[^>]*>[^<]*?version (\d+)')
NUMBER = re.compile(rb'<input[^>]*\bname="number" value="(\d+)"')
DEALER = re.compile(rb'<select[^>]*\bname="dealer"[^>]*>(.*?)</select>', re.S)
SELECTED = re.compile(rb'<option value="(\d+)" selected>')
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')

sys.path.insert(0, str(Path(__file__).resolve().parent))
import entry_bench  # noqa: E402  (the database of our own, the tournament, percentiles)
from load_bench import KEPT_HEADERS, BareServer, Server, scan_log, tail  # noqa: E402
from plain_http import Browser, NoRedirect, free_port  # noqa: E402

# The digest of a tournament both sides compute with the project's own code (exec'd in the venue's
# ``manage.py shell`` and in this process on the site's database): what the mirror must equal.
DIGEST = '''
def digest(t):
    import json
    from scoring.models import Hand
    from scoring.standings import compute_standings
    rows = [[r.rank, r.entry.name, str(r.total), [str(cell[0]) for cell in r.entry.round_cells]]
            for r in compute_standings(t).rows]
    hands = sorted([h.table.round.number, h.table.number, h.number, json.dumps(h.record, sort_keys=True), h.scores]
                   for h in Hand.objects.filter(table__round__tournament=t).select_related("table__round"))
    return {"version": t.data_version, "rows": rows, "hands": hands}
'''


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(values, p):
    return round(entry_bench.percentile(values, p), 1) if values else None


def stats_ms(values: list[float]) -> dict:
    return {"n": len(values), "p50": pct(values, 50), "p95": pct(values, 95), "p99": pct(values, 99),
            "max": round(max(values), 1) if values else None}


class LoadWatch(threading.Thread):
    """The 1-minute load average and the machine's CPU use every 2 s while a phase runs."""

    def __init__(self):
        super().__init__(daemon=True)
        import psutil

        self.psutil = psutil
        psutil.cpu_percent()
        self.loads: list[float] = []
        self.cpu: list[float] = []
        self.stopping = threading.Event()
        self.start()

    def run(self):
        while not self.stopping.wait(2):
            self.loads.append(os.getloadavg()[0])
            self.cpu.append(self.psutil.cpu_percent())

    def stop(self) -> dict:
        self.stopping.set()
        self.join(timeout=5)
        return {
            "load_1min": [round(min(self.loads), 2), round(max(self.loads), 2)] if self.loads else None,
            "cpu_percent_mean": round(sum(self.cpu) / len(self.cpu), 1) if self.cpu else None,
        }


def cpu_times(groups: dict[str, list[int]]) -> dict:
    """``{(pid, start): (group, CPU seconds)}`` of every process now: this process, in the tree
    of one of ``groups``' pids, PostgreSQL, Redis, or "other" (the rest of the machine)."""
    import psutil

    trees: dict[int, str] = {os.getpid(): "this process (viewers)"}  # not its children: the servers
    for name, pids in groups.items():
        for pid in pids:
            try:
                root = psutil.Process(pid)
                trees[pid] = name
                trees.update((child.pid, name) for child in root.children(recursive=True))
            except psutil.Error:
                pass
    out = {}
    for proc in psutil.process_iter(["name", "cpu_times", "create_time"]):
        times = proc.info["cpu_times"]
        if times is None:
            continue
        name = proc.info["name"] or ""
        group = trees.get(proc.pid) or ("postgresql" if name.startswith(("postgres", "postmaster")) else "redis" if name.startswith("redis") else "other")
        out[(proc.pid, proc.info["create_time"])] = (group, times.user + times.system)
    machine = psutil.cpu_times()
    out[("machine", 0)] = ("the whole machine", sum(getattr(machine, f, 0.0) for f in ("user", "nice", "system", "irq", "softirq", "steal")))
    return out


def cores_busy(before: dict, after: dict, seconds: float) -> dict:
    """CPU cores busy per group between two :func:`cpu_times` snapshots ``seconds`` apart."""
    used: dict[str, float] = {}
    for key, (group, total) in after.items():
        used[group] = used.get(group, 0.0) + total - (before[key][1] if key in before else 0.0)
    whole = used.pop("the whole machine", 0.0)
    used["processes that ended meanwhile, the kernel"] = max(0.0, whole - sum(used.values()))
    return {"the whole machine": round(whole / seconds, 2),
            **{group: round(value / seconds, 2) for group, value in sorted(used.items(), key=lambda kv: -kv[1])}}


# --------------------------------------------------------------------------------------------------
# HTTP without redirects, as a browser's single request
# --------------------------------------------------------------------------------------------------


_OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url: str, headers: dict | None = None, timeout: float = 30) -> tuple[int, dict, bytes]:
    """``(status, headers, body)``; status 0 when no answer came."""
    try:
        with _OPENER.open(urllib.request.Request(url, headers=headers or {}), timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, {}, b""


def shown_version(site: str, uid: str) -> int | None:
    """The version the mirror's public standings page shows now (its stable address followed)."""
    status, headers, _body = fetch(f"{site}/m/{uid}/standings/")
    if status != 302:
        return None
    status, _headers, body = fetch(site + headers.get("Location", ""), {"Accept-Language": "en"})
    found = VERSION_SHOWN.search(body) if status == 200 else None
    return int(found.group(1)) if found else None


# --------------------------------------------------------------------------------------------------
# The public site
# --------------------------------------------------------------------------------------------------


class Site:
    """Two (``count``) app servers of one public site on PostgreSQL and Redis."""

    def __init__(self, count: int, workers: int, db_url: str, redis_url: str, base_env: dict, tmp: Path):
        self.count, self.workers, self.tmp = count, workers, tmp
        self.ports = [free_port() for _ in range(count)]
        self.hosts = [f"http://127.0.0.1:{port}" for port in self.ports]
        secret = secrets.token_urlsafe(40)
        self.envs = []
        for i, port in enumerate(self.ports):
            self.envs.append({
                **base_env,
                "DATABASE_URL": db_url, "REDIS_URL": redis_url, "HOST": "127.0.0.1", "PORT": str(port),
                "PUBLIC_URL": f"http://127.0.0.1:{port}", "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "DATA_DIR": str(tmp / f"site{i + 1}" / "data"), "STATIC_ROOT": str(tmp / f"site{i + 1}" / "static"),
                "WEB_CONCURRENCY": str(workers), "CONN_MAX_AGE": "60", "SECRET_KEY": secret,
                "RELEASE": f"publish-bench-{os.getpid()}", "BACKUP_MINUTES": "0",
                # Every viewer comes from 127.0.0.1: the renders are counted as ever, never refused.
                "RATE_LIMIT_PAGES": os.environ.get("RATE_LIMIT_PAGES", "100000/m"),
                "WORKER": "1" if i == 0 else "0",
                "LOG_LEVEL": "WARNING",
            })
        self.servers: list[Server] = []
        self.starts = 0

    def start(self, together: bool = False) -> float:
        """Start the app servers (one after the other, or ``together``); the ``time.time()`` at
        which the first answered."""
        self.starts += 1
        self.servers = []
        first = None
        for i, env in enumerate(self.envs):
            server = Server(i, self.ports[i], env, self.tmp / f"site{i + 1}-{self.starts}.log")
            self.servers.append(server)
            if not together:
                server.wait_ready()
                first = first or time.time()
        if together:
            self.servers[0].wait_ready()
            first = time.time()
            for server in self.servers[1:]:
                server.wait_ready()
        return first

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def logs(self) -> list[Path]:
        return sorted(self.tmp.glob("site*-*.log"))


# --------------------------------------------------------------------------------------------------
# 1 and 2: one real venue
# --------------------------------------------------------------------------------------------------

VENUE_BUILD = """
import json, sys
sys.path.insert(0, "bench")
import entry_bench
built = entry_bench.build({players}, {room}, lambda m: None)
t = built["tournament"]
t.venue = "Gasthof Post, Imst"
t.save(update_fields=["venue"])
t.refresh_from_db()
print(json.dumps({{"t": t.pk, "uid": str(t.uid), "tables": [x.pk for x in built["tables"]], "version": t.data_version}}))
"""

VENUE_DIGEST = DIGEST + """
import json
from tournaments.models import Tournament
print(json.dumps(digest(Tournament.objects.get(pk=TOURNAMENT))))
"""


class Venue:
    """A venue laptop: ``scripts/serve`` on a SQLite file with its worker, its director logged in."""

    def __init__(self, base_env: dict, tmp: Path, players: int, room: int):
        folder = tmp / "venue"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **base_env,
            "DATABASE_URL": f"sqlite:///{folder / 'venue.sqlite3'}", "HOST": "127.0.0.1", "PORT": str(self.port),
            "PUBLIC_URL": self.base, "ALLOWED_HOSTS": "127.0.0.1,localhost", "DATA_DIR": str(folder / "data"),
            "STATIC_ROOT": str(folder / "static"), "WEB_CONCURRENCY": "2", "BACKUP_MINUTES": "0", "WORKER": "1",
            "LOG_LEVEL": "INFO",
        }
        self.env.pop("REDIS_URL", None)
        self.server = Server(9, self.port, self.env, tmp / "venue.log")
        self.server.wait_ready()
        self.built = json.loads(self.manage("shell", "-c", VENUE_BUILD.format(players=players, room=room)).splitlines()[-1])
        self.director = Browser(self.base)
        if not self.director.log_in("bench-director", PASSWORD):
            raise RuntimeError("the venue's director could not log in")
        self.next_table = 0

    def manage(self, *args) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300)
        if done.returncode:
            raise RuntimeError(f"manage.py {args[0]} at the venue failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout.strip()

    def publish_to(self, site_url: str, key: str) -> None:
        t = self.built["t"]
        status, _headers, body = self.director.request(f"/manage/t/{t}/publish/")
        token = CSRF.search(body)
        status, _headers, _body = self.director.request(
            f"/manage/t/{t}/publish/", {"csrfmiddlewaretoken": token.group(1).decode(), "url": site_url, "key": key, "enabled": "on"}
        )
        if status != 302:
            raise RuntimeError(f"the publish page did not save ({status})")

    def save_hand(self) -> float:
        """The next hand of the next round-3 table with room, typed on its sheet; the
        ``time.time()`` of the 302."""
        tables = self.built["tables"]
        for _ in range(len(tables)):
            table = tables[self.next_table % len(tables)]
            self.next_table += 1
            status, _headers, body = self.director.request(f"/table/{table}/")
            number, dealer, token = NUMBER.search(body), DEALER.search(body), CSRF.search(body)
            chosen = SELECTED.search(dealer.group(1)) if dealer else None
            if not (status == 200 and number and chosen and token):
                continue  # this table has played all its hands
            status, _headers, _body = self.director.request(f"/manage/table/{table}/hands/", {
                "csrfmiddlewaretoken": token.group(1).decode(), "number": number.group(1).decode(), "outcome": "played",
                "dealer": chosen.group(1).decode(), "quick": "d 1 +", "source": "line",
            })
            if status != 302:
                raise RuntimeError(f"a hand at the venue was not saved ({status})")
            return time.time()
        raise RuntimeError("no round-3 table at the venue has room: raise --room")

    def version(self) -> int:
        status, _headers, body = fetch(f"{self.base}/api/v1/tournaments/{self.built['t']}/")
        if status != 200:
            raise RuntimeError(f"the venue's API answered {status}")
        return json.loads(body)["data_version"]

    def digest(self) -> dict:
        return json.loads(self.manage("shell", "-c", VENUE_DIGEST.replace("TOURNAMENT", str(int(self.built["t"])))).splitlines()[-1])


def site_digest(uid: str) -> dict | None:
    from publishing.models import Mirror

    namespace: dict = {}
    exec(DIGEST, namespace)  # noqa: S102 - our own code, the same on both sides
    mirror = Mirror.objects.select_related("tournament").filter(uid=uid).first()
    return None if mirror is None or mirror.tournament is None else json.loads(json.dumps(namespace["digest"](mirror.tournament)))


def mirror_version(uid: str) -> int:
    from publishing.models import Mirror

    return Mirror.objects.filter(uid=uid).values_list("version", flat=True).first() or 0


class Poller(threading.Thread):
    """Reads the version the mirror's public standings show every :data:`POLL` s; ``seen``:
    ``[(time.time(), version)]`` at each change."""

    def __init__(self, site: str, uid: str):
        super().__init__(daemon=True)
        self.site, self.uid = site, uid
        self.seen: list[tuple[float, int]] = []
        self.stopping = threading.Event()
        self.start()

    def run(self):
        last = None
        while not self.stopping.is_set():
            version = shown_version(self.site, self.uid)
            if version is not None and version != last:
                self.seen.append((time.time(), version))
                last = version
            self.stopping.wait(POLL)

    def shown_at(self, version: int, after: float) -> float | None:
        """When the standings first showed ``version`` or a newer one, not before ``after``."""
        return next((at for at, v in self.seen if v >= version and at >= after - POLL), None)


def measure_latency(venue: Venue, site: Site, hands: int, every: float) -> dict:
    uid = venue.built["uid"]
    poller = Poller(site.hosts[0], uid)
    watch = LoadWatch()
    saves = []
    next_at = time.monotonic()
    for _ in range(hands):
        time.sleep(max(0.0, next_at - time.monotonic()))
        next_at += every
        saved = venue.save_hand()
        saves.append((saved, venue.version()))
    deadline = time.time() + 30
    while time.time() < deadline and not (poller.seen and poller.seen[-1][1] >= saves[-1][1]):
        time.sleep(0.2)
    poller.stopping.set()
    poller.join(timeout=10)
    machine = watch.stop()
    latencies, missing = [], 0
    for saved, version in saves:
        at = poller.shown_at(version, saved)
        if at is None:
            missing += 1
        else:
            latencies.append(max(0.0, at - saved))
    from publishing.models import PushLog

    handled = list(PushLog.objects.filter(uid=uid, outcome="stored").values_list("milliseconds", flat=True))
    p95 = pct(latencies, 95)
    return {
        "hands": hands, "every_s": every, "shown": len(latencies), "never_shown": missing,
        "latency_s": {"p50": pct(latencies, 50), "p95": p95, "max": round(max(latencies), 2) if latencies else None},
        "site_handling_ms": stats_ms(handled), "poll_s": POLL, **machine,
        "met": missing == 0 and p95 is not None and p95 < GOALS["latency_p95_s"],
    }


def measure_outage(venue: Venue, site: Site, outage: float, every: float) -> dict:
    uid = venue.built["uid"]
    watch = LoadWatch()
    site.stop()
    stopped = time.time()
    saved = 0
    next_at = time.monotonic()
    while time.time() - stopped < outage:
        time.sleep(max(0.0, min(next_at - time.monotonic(), outage - (time.time() - stopped))))
        if time.time() - stopped >= outage:
            break
        next_at += every
        venue.save_hand()
        saved += 1
    log(f"  {saved} hands saved while the site was away; starting it again ...")
    returned = site.start(together=True)
    final = venue.version()
    caught = None
    while time.time() - returned < 120:
        if mirror_version(uid) >= final:
            caught = time.time()
            break
        time.sleep(0.2)
    machine = watch.stop()
    here, there = venue.digest(), site_digest(uid)
    equal = here == there
    catch_up = round(caught - returned, 1) if caught else None
    return {
        "outage_s": outage, "site_down_s": round(returned - stopped, 1), "hands_saved_meanwhile": saved,
        "final_version": final, "catch_up_s": catch_up, "mirror_equals_venue": equal,
        "rows": len(here["rows"]), "hands": len(here["hands"]),
        "difference": None if equal else first_difference(here, there), **machine,
        "met": equal and catch_up is not None and catch_up < GOALS["catch_up_s"],
    }


def first_difference(a, b, path="") -> str:
    """Where ``a`` and ``b`` first differ, as ``path: a != b`` ("" when equal); the end-to-end test
    reports with it too."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}/{k}: only on one side"
            if found := first_difference(a[k], b[k], f"{path}/{k}"):
                return found
        return ""
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            if found := first_difference(x, y, f"{path}/{i}"):
                return found
        return ""
    return "" if a == b else f"{path}: {a!r} != {b!r}"


# --------------------------------------------------------------------------------------------------
# 3: many venues (pushers) and the viewers
# --------------------------------------------------------------------------------------------------


def build_venue(index: int, players: int, room: int, rng: random.Random):
    """A venue's tournament as :func:`entry_bench.build` makes it (three rounds drawn, two
    complete, round 3 with ``room`` hands open per table), without a user; returns
    ``(tournament, round-3 tables)``."""
    import datetime

    from django.db import transaction

    from scoring.models import Hand
    from scoring.services import refresh_seat_scores
    from tournaments import services
    from tournaments.models import Player, Tournament
    from variants import get_ruleset

    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    with transaction.atomic():
        t = Tournament.objects.create(
            name=f"Venue {index:02d} – Publish benchmark", date=datetime.date(2026, 10, 17), venue=f"Venue {index:02d}",
            ruleset="tiroler-tarockcup", edition="2019/20", rounds=3, hands_per_round=rs.default_hands_per_round,
        )
        people = Player.objects.bulk_create(Player(name=f"V{index:02d} Spieler {i:03d}", club=f"Club {i % 9}") for i in range(1, players + 1))
        for p in people:
            services.register(t, p)
    tables = []
    for number in range(1, t.rounds + 1):
        with transaction.atomic():
            rnd = services.draw_next_round(t, seed=index * 100 + number)
            batch = []
            for table in rnd.tables.all():
                size = table.seats.count()
                cap = t.hands_for_table(size)
                keep = cap - room if number == t.rounds else cap
                for k in range(1, keep + 1):
                    record = rs.random_hand(rng, size, table.dealer_of(k, size))
                    batch.append(Hand(table=table, number=k, record=record, scores=rs.score(record, size)))
                if number == t.rounds:
                    tables.append(table)
            Hand.objects.bulk_create(batch, batch_size=1000)
        for table in rnd.tables.all():
            refresh_seat_scores(table)
    t.refresh_from_db()
    return t, tables


def pusher(config_path: str) -> int:
    """One process of venues (see the module, measurement 3): reads its JSON config, builds its
    venues, pushes each once, says ``ready`` and waits for ``go``, then runs; writes its results."""
    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    os.environ["LOG_LEVEL"] = "ERROR"
    entry_bench.setup_django(f"sqlite:///{config['database']}")
    from django.db import connections

    from publishing import tasks, venue
    from scoring.services import build_sheet, save_hand
    from scoring.services.errors import HandRejected
    from tournaments.models import Tournament

    records: dict[str, list] = {}
    last_bodies: dict[str, bytes] = {}  # each venue's last body the site took: the floor posts it
    original_post = venue._post

    def timed_post(url, headers, body, timeout):
        started = time.perf_counter()
        at = time.time()
        uid, version = headers["X-Tarock-Tournament"], int(headers["X-Tarock-Version"])
        patch = int("X-Tarock-Base" in headers)
        try:
            status, reason, answer_headers, content = original_post(url, headers, body, timeout)
        except Exception as error:
            records[uid].append([at, round((time.perf_counter() - started) * 1000, 1), version, 0, type(error).__name__, len(body), patch])
            raise
        try:
            outcome = json.loads(content).get("status") or f"{status}"
        except ValueError:
            outcome = "not json"
        records[uid].append([at, round((time.perf_counter() - started) * 1000, 1), version, status, outcome, len(body), patch])
        if status == 200:
            last_bodies[uid] = (headers, body)
        return status, reason, answer_headers, content

    venue._post = timed_post
    rng = random.Random(config["seed"])
    venues = []
    for item in config["venues"]:
        t, tables = build_venue(item["index"], config["players"], config["room"], rng)
        target = venue.configure(t, url=item["site"], key=item["key"], enabled=True)
        records[str(t.uid)] = []
        venues.append({"index": item["index"], "t": t, "tables": tables, "target": target.pk, "saves": []})
    for v in venues:  # the mirror made before the clock starts
        for _ in range(30):
            if tasks.push_if_due(v["target"]) in ("stored", "ignored", "current"):
                break
            time.sleep(1)
    connections.close_all()
    for uid in records:
        records[uid].clear()
    Path(config["ready"]).write_text("ready", encoding="utf-8")
    go = Path(config["go"])
    while not go.exists():
        time.sleep(0.1)
    start = float(go.read_text(encoding="utf-8"))
    end = start + config["duration"]
    stop_pushing = threading.Event()

    def scorer(v):
        local = random.Random(v["index"])
        tables = list(v["tables"])
        next_at = start + local.uniform(0, config["every"])
        turn = 0
        try:
            while True:
                time.sleep(max(0.0, next_at - time.time()))
                if time.time() >= end:
                    return
                next_at += config["every"]
                for _ in range(len(tables)):
                    table = tables[turn % len(tables)]
                    turn += 1
                    try:
                        sheet = build_sheet(table)
                        if sheet.complete:
                            continue
                        save_hand(table, sheet.info.ruleset.random_hand(local, sheet.info.size, sheet.next_dealer), None)
                    except HandRejected:  # this table has played all its hands: the next one
                        continue
                    version = Tournament.objects.filter(pk=v["t"].pk).values_list("data_version", flat=True).get()
                    v["saves"].append([time.time(), version])
                    break
        finally:
            connections.close_all()

    def chain(v):
        local = random.Random(v["index"] + 1000)
        try:
            while not stop_pushing.is_set():
                tasks.push_if_due(v["target"])
                # the next step: POLL_SECONDS after this one, taken by the worker's next look (≤ 1 s)
                stop_pushing.wait(tasks.POLL_SECONDS + local.uniform(0, 1))
        finally:
            connections.close_all()

    # The scorers are the venues' laptops at work: they run in a child process at the priority
    # config["nice"] gives (19: they take what the site leaves, as machines of their own would not
    # compete with it at all). The chains (the push: its snapshot, POST and record) run at
    # config["chain_nice"], by default the normal priority, so what they time is not stretched by
    # their own wait; niced, their snapshots yield to the site too, and a POST's time includes the
    # wait of a niced thread for its answer (an upper bound). The viewers keep the normal priority.
    saves_path = Path(config["results"] + ".saves")
    os.nice(config.get("chain_nice", 0))  # the chains, and the scorers' child from here
    child = os.fork()
    if child == 0:  # no thread runs yet, and every connection is closed: a clean fork
        code = 1
        try:
            os.nice(max(0, config.get("nice", 0) - config.get("chain_nice", 0)))
            threads = [threading.Thread(target=scorer, args=(v,), daemon=True) for v in venues]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            import resource

            used = resource.getrusage(resource.RUSAGE_SELF)
            saves_path.write_text(json.dumps({"saves": {v["index"]: v["saves"] for v in venues}, "cpu_s": used.ru_utime + used.ru_stime}),
                                  encoding="utf-8")
            code = 0
        finally:
            os._exit(code)
    chains = [threading.Thread(target=chain, args=(v,), daemon=True) for v in venues]
    for thread in chains:
        thread.start()
    _pid, status = os.waitpid(child, 0)
    if status != 0:
        raise RuntimeError(f"the scorers' process ended with status {status}")
    saved = json.loads(saves_path.read_text(encoding="utf-8"))
    for v in venues:
        v["saves"] = saved["saves"][str(v["index"])]
    # Drain: the chains go on until the site has every venue's last version.
    from publishing.models import PublishTarget

    deadline = time.time() + config["drain"]
    while time.time() < deadline:
        behind = [v for v in venues if PublishTarget.objects.get(pk=v["target"]).pushed_version
                  < Tournament.objects.get(pk=v["t"].pk).data_version]
        if not behind:
            break
        time.sleep(0.5)
    stop_pushing.set()
    for thread in chains:
        thread.join(timeout=60)
    namespace: dict = {}
    exec(DIGEST, namespace)  # noqa: S102
    out = []
    for v in venues:
        t = Tournament.objects.get(pk=v["t"].pk)
        target = PublishTarget.objects.get(pk=v["target"])
        headers, body = last_bodies.get(str(t.uid)) or ({}, venue.snapshot(t).body)
        out.append({
            "index": v["index"], "uid": str(t.uid), "site": target.url, "key": target.key, "final_version": t.data_version,
            "pushed_version": target.pushed_version, "saves": v["saves"], "pushes": records[str(t.uid)],
            "digest": namespace["digest"](t), "archive": base64.b64encode(body).decode(), "base": headers.get("X-Tarock-Base"),
            "scorers_cpu_s": saved["cpu_s"] if v is venues[0] else 0.0,  # the process's scorers, counted once
        })
    connections.close_all()
    Path(config["results"]).write_text(json.dumps(out), encoding="utf-8")
    return 0


class Viewers:
    """``count`` viewer threads over ``mirrors`` (``[(host, start paths by page)]``), as the
    module says; ``samples``: ``[(page, ms, status)]``; ``regressions``: a mirror's version seen
    going back."""

    def __init__(self, count: int, mirrors: list, duration: float, seed: int = 7):
        self.samples: list = []
        self.views: list[float] = []
        self.regressions: list = []
        self.errors = 0
        self.lock = threading.Lock()
        self.end = time.time() + duration
        rng = random.Random(seed)
        self.threads = [
            threading.Thread(target=self.viewer, args=(mirrors[i % len(mirrors)], random.Random(rng.random())), daemon=True)
            for i in range(count)
        ]
        for thread in self.threads:
            thread.start()

    def viewer(self, mirror, rng):
        host, paths, uid = mirror
        current = {}  # page -> (path, etag)
        seen = 0
        time.sleep(rng.uniform(0, VIEWER_STAGGER))
        kinds = [kind for kind, _path, weight in PAGES for _ in range(weight)]
        while time.time() < self.end:
            kind = rng.choice(kinds)
            path, etag = current.get(kind, (paths[kind], None))
            view = 0.0
            for _hop in range(3):
                headers = {"Accept-Language": "en", **({"If-None-Match": etag} if etag else {})}
                started = time.perf_counter()
                status, answer, body = fetch(host + path, headers)
                ms = (time.perf_counter() - started) * 1000
                view += ms
                with self.lock:
                    self.samples.append((kind if status != 302 else "redirect", ms, status))
                if status in (301, 302) and answer.get("Location"):
                    path, etag = answer["Location"], None
                    continue
                if status == 200:
                    current[kind] = (path, answer.get("ETag"))
                    found = VERSION_SHOWN.search(body)
                    if found:
                        version = int(found.group(1))
                        if version < seen:
                            with self.lock:
                                self.regressions.append((uid, seen, version))
                        seen = max(seen, version)
                elif status != 304:
                    with self.lock:
                        self.errors += 1
                break
            with self.lock:
                self.views.append(view)
            time.sleep(rng.uniform(*VIEWER_WAIT))

    def join(self):
        for thread in self.threads:
            thread.join(timeout=VIEWER_WAIT[1] + 60)


def summarize_pages(viewers: Viewers) -> dict:
    by_kind: dict[str, list] = {}
    for kind, ms, status in viewers.samples:
        by_kind.setdefault(kind, []).append((ms, status))
    out = {kind: {**stats_ms([ms for ms, _s in rows]), "status": {str(s): sum(1 for _m, x in rows if x == s) for s in sorted({x for _m, x in rows})}}
           for kind, rows in sorted(by_kind.items())}
    out["all requests"] = stats_ms([ms for _kind, ms, _status in viewers.samples])
    out["page views (with a redirect)"] = stats_ms(viewers.views)
    return out


class FloorPushers:
    """One thread per venue POSTing its last push's body (the whole archive or a patch, signed, as the
    venue does) to ``host`` every
    ``interval`` s (its measured push rate), timing each POST."""

    def __init__(self, venues: list, hosts: list, duration: float):
        self.ms: list[float] = []
        self.failed = 0
        self.lock = threading.Lock()
        self.end = time.time() + duration
        self.threads = [threading.Thread(target=self.run, args=(v, hosts[i % len(hosts)]), daemon=True) for i, v in enumerate(venues)]
        for thread in self.threads:
            thread.start()

    def run(self, v, host):
        from publishing.venue import _post, push_url, signature

        body = base64.b64decode(v["archive"])
        headers = {
            "Authorization": f"Bearer {v['key']}", "X-Tarock-Tournament": v["uid"], "X-Tarock-Version": str(v["final_version"]),
            "X-Tarock-Signature": signature(v["key"], body), "X-Tarock-Source": "Bench", "Content-Type": "application/octet-stream",
        }
        if v.get("base"):
            headers["X-Tarock-Base"] = v["base"]
        rng = random.Random(v["index"])
        time.sleep(rng.uniform(0, v["interval"]))
        while time.time() < self.end:
            started = time.perf_counter()
            try:
                status, *_rest = _post(push_url(host), headers, body, 20)
            except OSError:
                status = 0
            with self.lock:
                self.ms.append((time.perf_counter() - started) * 1000)
                self.failed += status == 0
            time.sleep(v["interval"])

    def join(self):
        for thread in self.threads:
            thread.join(timeout=120)


def record_pages(host: str, tournament: int) -> dict:
    """The bytes the site answered for a mirror's three pages, for :mod:`bench.bare_app`."""
    recorded = {}
    for kind, path, _weight in PAGES:
        status, headers, body = fetch(f"{host}/t/{tournament}/{path}", {"Accept-Language": "en"})
        kept = [(k, v) for k, v in headers.items() if k.lower() in KEPT_HEADERS]
        recorded[kind] = {"status": status, "headers": kept, "body": base64.b64encode(body).decode()}
    # BareServer waits for its login page to answer.
    recorded["login"] = {"status": 200, "headers": [("Content-Type", "text/html; charset=utf-8")], "body": ""}
    return recorded


def measure_many(args, site: Site, keys: list[str], base_env: dict, tmp: Path) -> dict:
    from publishing.models import Mirror, PushLog

    # One migrated SQLite file, copied for each process of venues.
    template = tmp / "venue-template.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, check=True, capture_output=True,
                   env={**base_env, "DATABASE_URL": f"sqlite:///{template}", "DATA_DIR": str(tmp / "template-data")})
    room = math.ceil(args.duration / args.hand_every / math.ceil(args.players / 4)) + 2
    procs, configs = [], []
    per = args.venues_per_process
    for p in range(math.ceil(args.venues / per)):
        database = tmp / f"pusher{p}.sqlite3"
        shutil.copy(template, database)
        indexes = range(p * per + 1, min(args.venues, (p + 1) * per) + 1)
        config = {
            "database": str(database), "players": args.players, "room": room, "every": args.hand_every,
            "duration": args.duration, "drain": args.drain, "seed": p, "ready": str(tmp / f"pusher{p}.ready"),
            "go": str(tmp / "go"), "results": str(tmp / f"pusher{p}.json"), "nice": args.venue_nice, "chain_nice": args.chain_nice,
            "venues": [{"index": i, "key": keys[i], "site": site.hosts[i % len(site.hosts)]} for i in indexes],
        }
        path = tmp / f"pusher{p}-config.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        configs.append(config)
        procs.append(subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--pusher", str(path)], cwd=ROOT,
            env={**base_env, "DATA_DIR": str(tmp / f"pusher{p}-data")},
            stdout=open(tmp / f"pusher{p}.log", "w"), stderr=subprocess.STDOUT, start_new_session=True,
        ))
    log(f"  {len(procs)} processes build {args.venues} venues of {args.players} players and push each once ...")
    deadline = time.time() + 600
    while not all(Path(c["ready"]).exists() for c in configs):
        for p, proc in enumerate(procs):
            if proc.poll() is not None:
                raise RuntimeError(f"pusher {p} ended ({proc.returncode}):\n{tail(tmp / f'pusher{p}.log')}")
        if time.time() > deadline:
            raise RuntimeError("the venues were not ready in 10 minutes")
        time.sleep(0.5)
    mirrors = {str(m.uid): m.tournament_id for m in Mirror.objects.exclude(key__label="Venue 00")}
    log(f"  {len(mirrors)} mirrors on the site; {args.venues} venues × a hand every {args.hand_every} s for {args.duration} s, "
        f"{args.viewers} viewers")
    uids = list(mirrors)
    viewer_mirrors = [(site.hosts[i % len(site.hosts)], {kind: f"/m/{uid}/{path}" for kind, path, _w in PAGES}, uid)
                      for i, uid in enumerate(uids)]
    first_log = PushLog.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    start = time.time() + 2
    (tmp / "go").write_text(str(start), encoding="utf-8")
    watch = LoadWatch()
    time.sleep(max(0.0, start - time.time()))
    groups = {"site app servers": [srv.proc.pid for srv in site.servers], "venues (pushers)": [proc.pid for proc in procs]}
    cpu_before, cpu_at = cpu_times(groups), time.monotonic()
    viewers = Viewers(args.viewers, viewer_mirrors, args.duration)
    viewers.join()
    busy = cores_busy(cpu_before, cpu_times(groups), time.monotonic() - cpu_at)
    for p, proc in enumerate(procs):
        try:
            proc.wait(timeout=args.drain + 180)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise RuntimeError(f"pusher {p} did not finish:\n{tail(tmp / f'pusher{p}.log')}")
        if proc.returncode:
            raise RuntimeError(f"pusher {p} failed ({proc.returncode}):\n{tail(tmp / f'pusher{p}.log')}")
    machine = watch.stop()
    venues = [v for c in configs for v in json.loads(Path(c["results"]).read_text(encoding="utf-8"))]
    # The scorers' processes ended before the count above: their CPU, which they counted themselves, is
    # taken out of what ended meanwhile.
    scorers = round(sum(v["scorers_cpu_s"] for v in venues) / args.duration, 2)
    ended = "processes that ended meanwhile, the kernel"
    busy[ended] = round(max(0.0, busy.get(ended, 0.0) - scorers), 2)
    busy[f"venues' scorers (nice {args.venue_nice}, in the window)"] = scorers

    # Push handling, as the venues timed their POSTs; the site's own times beside.
    pushes = [p for v in venues for p in v["pushes"]]
    answered = [p for p in pushes if p[3] == 200]
    post_ms = [p[1] for p in pushes]
    logged = list(PushLog.objects.filter(pk__gt=first_log).values_list("uid", "version", "outcome", "milliseconds", "status").order_by("pk"))
    # Lost: the mirror holds less than a version the site acknowledged, or differs from the venue
    # at the same version. Behind: the venue's last version not there after the drain.
    lost, unequal, behind = [], [], []
    for v in venues:
        held = mirror_version(v["uid"])
        acknowledged = max((p[2] for p in v["pushes"] if p[3] == 200), default=0)
        if held < acknowledged:
            lost.append((v["index"], acknowledged, held))
        if held < v["final_version"]:
            behind.append((v["index"], v["final_version"], held))
        elif site_digest(v["uid"]) != v["digest"]:
            unequal.append(v["index"])
    # Out of order: versions stored for a mirror only rise, as stored; no viewer saw one go back.
    stored_order: dict[str, list[int]] = {}
    for uid, version, outcome, _ms, _status in logged:
        if outcome == "stored":
            stored_order.setdefault(str(uid), []).append(version)
    out_of_order = [(uid, vs) for uid, vs in stored_order.items() if any(b <= a for a, b in zip(vs, vs[1:]))]
    # From a save to the site's acknowledgement of a version holding it.
    seen_at = []
    for v in venues:
        acks = sorted((p[0] + p[1] / 1000, p[2]) for p in v["pushes"] if p[3] == 200)
        for saved, version in v["saves"]:
            at = next((a for a, ver in acks if ver >= version and a >= saved), None)
            if at is not None:
                seen_at.append((at - saved) * 1000)
    intervals = {v["index"]: args.duration / max(1, sum(1 for p in v["pushes"] if p[3] == 200)) for v in venues}
    pages = summarize_pages(viewers)
    result = {
        "venues": args.venues, "venues_per_process": per, "venue_nice": args.venue_nice, "chain_nice": args.chain_nice, "players": args.players, "hand_every_s": args.hand_every,
        "duration_s": args.duration, "viewers": args.viewers, "workers_per_server": args.workers, "servers": len(site.hosts),
        "hands_saved": sum(len(v["saves"]) for v in venues),
        "pushes": len(pushes), "pushes_answered_200": len(answered),
        "push_outcomes": {k: sum(1 for p in pushes if p[4] == k) for k in sorted({p[4] for p in pushes})},
        "archive_bytes_median": sorted(p[5] for p in pushes)[len(pushes) // 2] if pushes else None,
        "patches": sum(1 for p in pushes if p[6]), "whole_archives": sum(1 for p in pushes if not p[6]),
        "push_post_ms": stats_ms(post_ms),
        "push_site_ms": stats_ms([row[3] for row in logged]),
        "save_to_stored_ms": stats_ms(seen_at),
        "pages": pages, "viewer_errors": viewers.errors,
        "lost_versions": len(lost), "lost_examples": lost[:5], "mirrors_unequal": unequal[:5],
        "behind_after_drain": len(behind), "behind_examples": behind[:5],
        "out_of_order": len(out_of_order) + len(viewers.regressions),
        "out_of_order_examples": out_of_order[:3] + viewers.regressions[:3],
        "cores_busy": busy, **machine,
    }
    result["goals"] = {
        "push_p95": bool(post_ms) and result["push_post_ms"]["p95"] < GOALS["push_p95_ms"],
        "page_p95": pages["all requests"]["p95"] is not None and pages["all requests"]["p95"] < GOALS["page_p95_ms"],
        "nothing_lost": not lost and not unequal and not behind,
        "in_order": not out_of_order and not viewers.regressions,
    }

    if args.floor_seconds:
        some = Mirror.objects.filter(uid=uids[0]).values_list("tournament_id", flat=True).get()
        pages_path = tmp / "pages.json"
        pages_path.write_text(json.dumps(record_pages(site.hosts[0], some)), encoding="utf-8")
        site.stop()
        bare = []
        try:
            for i in range(len(site.hosts)):
                server = BareServer(i, free_port(), args.workers, pages_path, base_env, tmp / f"bare{i + 1}.log")
                bare.append(server)
                server.wait_ready()
            hosts = [b.base for b in bare]
            floor_mirrors = [(hosts[i % len(hosts)], {kind: f"/t/{some}/{path}" for kind, path, _w in PAGES}, uid)
                             for i, uid in enumerate(uids)]
            log(f"  floor: the bare app for {args.floor_seconds} s, the same pushes and viewers")
            floor_watch = LoadWatch()
            floor_pushes = FloorPushers([{**v, "interval": intervals[v["index"]]} for v in venues], hosts, args.floor_seconds)
            floor_viewers = Viewers(args.viewers, floor_mirrors, args.floor_seconds)
            floor_pushes.join()
            floor_viewers.join()
            floor_pages = summarize_pages(floor_viewers)
            result["floor"] = {
                "seconds": args.floor_seconds, "push_post_ms": stats_ms(floor_pushes.ms), "pages": floor_pages,
                **floor_watch.stop(),
            }
            fp, fg = result["floor"]["push_post_ms"]["p95"], floor_pages["all requests"]["p95"]
            result["ratio_push_p95"] = round(result["push_post_ms"]["p95"] / fp, 1) if fp and result["push_post_ms"]["p95"] else None
            result["ratio_page_p95"] = round(pages["all requests"]["p95"] / fg, 1) if fg and pages["all requests"]["p95"] else None
        finally:
            for server in bare:
                server.stop()
    return result


# --------------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pusher", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="a short run: 5 venues, 30 viewers, 20 s outage, 10 hands, 30 s load")
    parser.add_argument("--venues", type=int, help="venues publishing at once in measurement 3 (default 50)")
    parser.add_argument("--venues-per-process", type=int, default=5, help="venues per pusher process (default 5)")
    parser.add_argument("--players", type=int, default=100, help="players per venue's tournament (default 100)")
    parser.add_argument("--hand-every", type=float, default=2.0, help="seconds between a venue's hands (default 2)")
    parser.add_argument("--venue-nice", type=int, default=19,
                        help="niceness of the venues' scorers in measurement 3 (default 19: their laptops' work yields to the site; 0: as the site)")
    parser.add_argument("--chain-nice", type=int, default=0,
                        help="niceness of the venues' pushes in measurement 3 (default 0, as the site; the POST is timed at it)")
    parser.add_argument("--viewers", type=int, help="viewers of the mirrors in measurement 3 (default 300)")
    parser.add_argument("--duration", type=int, help="seconds of measurement 3 (default 120)")
    parser.add_argument("--hands", type=int, help="hands entered in measurement 1 (default 30)")
    parser.add_argument("--outage-seconds", type=float, help="how long the site is away in measurement 2 (default 120)")
    parser.add_argument("--floor-seconds", type=int, help="seconds of the floor after measurement 3 (default 60; 0: none)")
    parser.add_argument("--drain", type=float, default=60, help="seconds the venues have after the run to catch up (default 60)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers per app server of the site (default 4)")
    parser.add_argument("--servers", type=int, default=2, help="app servers of the site (default 2)")
    parser.add_argument("--skip", default="", help="measurements to leave out, e.g. 1,2 (1 and 2 share the venue: 2 needs 1)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13", help="the site's cache; FLUSHED at the start and end")
    parser.add_argument("--db-prefix", default="tarock_publish", help="the site's database is <prefix>_<pid> (default tarock_publish)")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the site's database")
    args = parser.parse_args(argv)
    if args.pusher:
        return pusher(args.pusher)
    quick = {"venues": 5, "viewers": 30, "duration": 30, "hands": 10, "outage_seconds": 20, "floor_seconds": 15}
    full = {"venues": 50, "viewers": 300, "duration": 120, "hands": 30, "outage_seconds": 120, "floor_seconds": 60}
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}

    base_env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    db_url, cleanup = entry_bench.own_database(os.environ.get("DATABASE_URL") or DEFAULT_DB, prefix=args.db_prefix)
    tmp = Path(tempfile.mkdtemp(prefix="tarock-publish-bench-"))
    RESULTS.mkdir(exist_ok=True)
    label = "publish-quick" if args.quick else "publish"
    site = venue_server = None
    report: dict = {"benchmark": "publish", "options": {k: v for k, v in vars(args).items() if k != "pusher"}}
    load_before = os.getloadavg()
    try:
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
        entry_bench.setup_django(db_url)
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connections

        from publishing import keys
        from tournaments.roles import organisers_group

        log(f"publish_bench: the site's database {db_url.rsplit('/', 1)[-1]}, migrating ...")
        call_command("migrate", verbosity=0)
        organiser = get_user_model().objects.create_user("bench-organiser", password=secrets.token_urlsafe(16))
        organiser.groups.add(organisers_group())
        key_texts = [keys.make_key(organiser, label=f"Venue {i:02d}")[1] for i in range(args.venues + 1)]
        connections.close_all()
        site = Site(args.servers, args.workers, db_url, args.redis_url, base_env, tmp)
        log(f"  starting {args.servers} app servers ({args.workers} workers each) ...")
        site.start()

        if "1" not in skip or "2" not in skip:
            room = math.ceil((args.hands + args.outage_seconds / args.hand_every + 5) / math.ceil(args.players / 4)) + 1
            log(f"  a venue: scripts/serve on SQLite with its worker, {args.players} players ...")
            venue_server = Venue(base_env, tmp, args.players, room)
            venue_server.publish_to(site.hosts[0], key_texts[0])
            deadline = time.time() + 60
            while mirror_version(venue_server.built["uid"]) < venue_server.built["version"]:
                if time.time() > deadline:
                    raise RuntimeError("the venue's first push did not arrive:\n" + tail(venue_server.server.log_path))
                time.sleep(0.5)
            if "1" not in skip:
                log(f"  (1) {args.hands} hands, one every {args.hand_every} s ...")
                report["latency"] = measure_latency(venue_server, site, args.hands, args.hand_every)
                log(f"      p95 {report['latency']['latency_s']['p95']} s")
            if "2" not in skip:
                log(f"  (2) the site away for {args.outage_seconds:.0f} s ...")
                report["outage"] = measure_outage(venue_server, site, args.outage_seconds, args.hand_every)
                log(f"      caught up {report['outage']['catch_up_s']} s after its return, equal: {report['outage']['mirror_equals_venue']}")
            venue_server.server.stop()
            report["venue_log"] = scan_log(venue_server.server.log_path)
            shutil.copy(venue_server.server.log_path, RESULTS / f"{label}-venue.log")
            venue_server = None
        if "3" not in skip:
            log(f"  (3) {args.venues} venues at once ...")
            report["many"] = measure_many(args, site, key_texts, base_env, tmp)
            many = report["many"]
            log(f"      push p95 {many['push_post_ms']['p95']} ms, page p95 {many['pages']['all requests']['p95']} ms, "
                f"lost {many['lost_versions']}, out of order {many['out_of_order']}")
        site.stop()
        report["site_logs"] = {p.name: scan_log(p) for p in site.logs()}
        for p in site.logs():
            shutil.copy(p, RESULTS / f"{label}-{p.name}")
    finally:
        if venue_server is not None:
            venue_server.server.stop()
        if site is not None:
            site.stop()
        try:
            import redis

            redis.Redis.from_url(args.redis_url).flushdb()
        except Exception:  # noqa: BLE001
            pass
        entry_bench.release_database("publish_bench", db_url, cleanup, args.keep_db)
        shutil.rmtree(tmp, ignore_errors=True)

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
    except OSError:
        commit, dirty = "", False
    report.update(commit=commit + ("+" if dirty else ""), python=platform.python_version(), cpus=os.cpu_count(),
                  load_average_before=[round(x, 2) for x in load_before], load_average_after=[round(x, 2) for x in os.getloadavg()])
    met = {
        "(1) latency": report.get("latency", {}).get("met"),
        "(2) catch-up": report.get("outage", {}).get("met"),
        **{f"(3) {k}": v for k, v in report.get("many", {}).get("goals", {}).items()},
    }
    report["goals_met"] = met
    out = RESULTS / f"{label}.json"
    out.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    print_table(report)
    print(f"written {out.relative_to(ROOT)}")
    return 0 if all(v is not False for v in met.values()) else 1


def print_table(report: dict) -> None:
    rows = []
    if lat := report.get("latency"):
        rows.append(("(1) saved hand → public standings, p95", f"{lat['latency_s']['p95']} s (p50 {lat['latency_s']['p50']}; site's handling p95 {lat['site_handling_ms']['p95']} ms)",
                     "", "< 5 s", lat["met"], lat.get("load_1min")))
    if out := report.get("outage"):
        rows.append((f"(2) site away {out['site_down_s']} s, {out['hands_saved_meanwhile']} hands: caught up after its return",
                     f"{out['catch_up_s']} s, equal: {out['mirror_equals_venue']}", "", "< 30 s, equal", out["met"], out.get("load_1min")))
    if many := report.get("many"):
        floor = many.get("floor", {})
        rows.append((f"(3) {many['venues']} venues: push POST p95", f"{many['push_post_ms']['p95']} ms (site's own p95 {many['push_site_ms']['p95']} ms)",
                     f"{floor.get('push_post_ms', {}).get('p95')} ms, ratio {many.get('ratio_push_p95')}", "< 500 ms", many["goals"]["push_p95"], many.get("load_1min")))
        rows.append((f"    {many['viewers']} viewers: public page p95", f"{many['pages']['all requests']['p95']} ms (views with redirect {many['pages']['page views (with a redirect)']['p95']})",
                     f"{floor.get('pages', {}).get('all requests', {}).get('p95')} ms, ratio {many.get('ratio_page_p95')}", "< 200 ms", many["goals"]["page_p95"], many.get("load_1min")))
        rows.append(("    lost / out-of-order versions", f"{many['lost_versions']} / {many['out_of_order']} ({many['pushes']} pushes, {many['hands_saved']} hands; "
                     f"{many['behind_after_drain']} mirrors behind after the drain, {len(many['mirrors_unequal'])} unequal)",
                     "", "0 / 0", many["goals"]["nothing_lost"] and many["goals"]["in_order"], ""))
    width = max(len(r[0]) for r in rows) if rows else 10
    for name, value, floor, goal, met, load in rows:
        print(f"{name:<{width}}  {value}  | floor {floor or '–'} | goal {goal}: {'met' if met else 'MISSED'} | load {load}")
    if many:
        print(f"(3) CPU cores busy: {many['cores_busy']}; pushes {many['push_outcomes']}, site handling p50 {many['push_site_ms']['p50']} ms")


if __name__ == "__main__":
    sys.exit(main())
