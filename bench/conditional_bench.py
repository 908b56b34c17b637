#!/usr/bin/env python
"""Conditional GETs on one app worker, against a bare WSGI app answering the same bytes.

Builds a Tiroler Tarockcup of ``--players`` (default 1,000; ``entry_bench.build``: three rounds,
every hand but the last two per round-3 table) in a PostgreSQL database of its own
(``tarock_cond_bench_<pid>``, dropped at the end unless ``--keep-db``), then serves it with
gunicorn as ``scripts/serve`` does (``config/gunicorn.py``, ``config.wsgi``, DEBUG off, Redis as
the cache; ``CONN_MAX_AGE=3600`` rather than a venue's 60 s, so that no connection, and with it
the database backend whose CPU is counted, is replaced during a run) with ONE worker, and in the
same run, with the same gunicorn settings and one worker, two more servers:

- the *floor*: a bare WSGI app (:func:`floor`, this module) that answers each measured request with
  the very status, headers and body the app gave it (captured first, ``Date`` aside), from a dict;
- the *full stack*: ``config.wsgi:django_application``, Django without the early answer
  (:mod:`config.conditional`), as public pages were served before it.

For a standings slide of the big screen (``/t/<id>/screen/slide/1/``) and a player's page
(``/t/<id>/players/<registration>/``), each as ``304`` (the browser's ``If-None-Match``) and as a
cached ``200`` (no validator; the page is in the cache), ``wrk`` drives each server for
``--seconds`` with ``--connections``; the three servers take turns, ``--rounds`` times, and the
best rate of each is kept (the machine is shared: the best is the least disturbed). Reported:
requests per second, the ratio app / floor (goal >= 0.5) and full stack / floor; the CPU time a
request costs each server (its worker and the PostgreSQL backends of its connections; least of
the rounds), less disturbed by other work on the machine than the rates, and its ratio; the load
average before and after, the git commit; JSON into ``bench/results/conditional-[sqlite-]<players>.json``. Exit
status 1 when a goal is missed. Needs ``wrk`` (``apt-get install wrk``). Run from the project
root::

    .venv/bin/python bench/conditional_bench.py
    .venv/bin/python bench/conditional_bench.py --players 5000 --seconds 5 --rounds 3

``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/postgres``) names the PostgreSQL
server only (``sqlite://``: a SQLite file of the run's own instead, as a venue serves); ``--redis-url`` (default ``redis://127.0.0.1:6379/6``) is used with a key prefix of
this run's own and never flushed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import entry_bench  # noqa: E402  (its own_database)
import load_bench  # noqa: E402  (its Server, which this one extends)
from plain_http import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/postgres"
GOAL_RATIO = 0.5
SKIPPED_HEADERS = {"date", "server", "connection"}  # gunicorn's own, on every answer of every server


# --------------------------------------------------------------------------------------------------
# The floor: a bare WSGI app (gunicorn imports this module as "conditional_bench:floor")
# --------------------------------------------------------------------------------------------------

_ANSWERS: dict | None = None


def floor(environ, start_response):
    """Answer ``(path, If-None-Match)`` with the status, headers and body captured from the app
    (the file ``COND_FLOOR_ANSWERS`` names); 404 for anything else."""
    global _ANSWERS
    if _ANSWERS is None:
        with open(os.environ["COND_FLOOR_ANSWERS"], encoding="utf-8") as f:
            _ANSWERS = {
                (a["path"], a["if_none_match"]): (a["status"], [tuple(h) for h in a["headers"]], a["body"].encode("latin-1"))
                for a in json.load(f)
            }
    found = _ANSWERS.get((environ["PATH_INFO"], environ.get("HTTP_IF_NONE_MATCH", "")))
    if found is None:
        start_response("404 Not Found", [("Content-Length", "0")])
        return [b""]
    status, headers, body = found
    start_response(status, headers)
    return [body]


# --------------------------------------------------------------------------------------------------
# Servers and requests
# --------------------------------------------------------------------------------------------------


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class Server(load_bench.Server):
    """One gunicorn with config/gunicorn.py and one worker, serving ``app``, in a session of its own
    (stopped as the load benchmark stops its servers)."""

    def __init__(self, name: str, app: str, env: dict, log_path: Path, pythonpath: str | None = None):
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_file = open(log_path, "w", encoding="utf-8")
        env = {**env, "HOST": "127.0.0.1", "PORT": str(self.port), "WEB_CONCURRENCY": "1",
               "PUBLIC_URL": f"http://127.0.0.1:{self.port}"}
        command = [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "config/gunicorn.py"]
        if pythonpath:
            command += ["--pythonpath", pythonpath]
        self.proc = subprocess.Popen(command + [app], cwd=ROOT, env=env, stdout=self.log_file,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, path: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                status, _h, _b = get(self.base + path)
                if status in (200, 304):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} server did not start (see its log)")
            time.sleep(0.3)

    def processes(self, db_name: str) -> list:
        """The worker and the PostgreSQL backends serving its connections (psutil processes): the
        CPU a request costs this server."""
        import psutil
        import psycopg

        workers = psutil.Process(self.proc.pid).children()
        ports = [c.laddr.port for w in workers for c in w.net_connections(kind="tcp") if c.raddr and c.raddr.port == 5432]
        backends = []
        if ports:
            with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
                rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND client_port = ANY(%s)",
                                    (db_name, ports)).fetchall()
            backends = [psutil.Process(pid) for (pid,) in rows]
        return workers + backends


def get(url: str, headers: dict | None = None) -> tuple[int, list[tuple[str, str]], bytes]:
    """``(status, headers less gunicorn's own, body)``; any status is returned, never raised."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw, body = response.status, response.headers.items(), response.read()
    except urllib.error.HTTPError as error:
        status, raw, body = error.code, error.headers.items(), error.read()
    return status, [(k, v) for k, v in raw if k.lower() not in SKIPPED_HEADERS], body


def same(a: tuple, b: tuple) -> bool:
    """Two answers of :func:`get` alike: django-csp writes the policy's directives in an order that
    differs from process to process (a set's), which means the same policy."""
    def norm(answer):
        status, headers, body = answer
        return status, [(k, "; ".join(sorted(v.split("; "))) if k.lower().startswith("content-security-policy") else v)
                        for k, v in headers], body
    return norm(a) == norm(b)


def wrk(url: str, seconds: int, connections: int, headers: dict) -> dict:
    """``wrk`` on ``url``: requests per second, requests, errors (socket errors and answers other
    than 2xx/3xx)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    return {"rps": rate, "requests": total, "errors": errors + (int(non2xx.group(1)) if non2xx else 0),
            "p50_ms": _ms(p50) if p50 else None}


def cpu_seconds(processes: list) -> float:
    """User and system CPU seconds of ``processes`` so far."""
    import psutil

    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:  # a backend whose connection was closed: its CPU is lost
            continue
        total += times.user + times.system
    return total


def _ms(match) -> float:
    value, unit = float(match.group(1)), match.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# --------------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------------


def build_tournament(db_url: str, players: int) -> tuple[int, int]:
    """Migrate and build the tournament (``entry_bench``), then ``VACUUM ANALYZE`` it;
    ``(tournament id, a registration id)``."""

    entry_bench.setup_django(db_url)
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    built = entry_bench.build(players, 2, log)
    tournament = built["tournament"]
    registration = tournament.registrations.order_by("start_number").values_list("pk", flat=True)[players // 2]
    # The planner's statistics of the freshly filled tables, as autovacuum would have them after
    # so many inserts (as standings_bench.py does): without them the player page's version query
    # is planned as a hash join over a sequential scan of the tournaments.
    with connections["default"].cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connections["default"].vendor == "postgresql" else "ANALYZE")
    connections.close_all()
    return tournament.pk, registration


def capture(base: str, targets: dict[str, str]) -> list[dict]:
    """Each target's cached 200 and 304 as the app answers them: render it once (a miss), then
    capture the answer from the cache and the 304 for its ETag."""
    answers = []
    for name, path in targets.items():
        status, _h, _b = get(base + path)
        if status != 200:
            raise RuntimeError(f"{name} {path}: {status}")
        status, headers, body = get(base + path)
        tag = dict(headers)["ETag"]
        status_304, headers_304, body_304 = get(base + path, {"If-None-Match": tag})
        if status != 200 or status_304 != 304:
            raise RuntimeError(f"{name} {path}: {status} / {status_304}")
        for kind, st, hd, bd, inm in (("200", status, headers, body, ""), ("304", status_304, headers_304, body_304, tag)):
            answers.append({"target": name, "kind": kind, "path": path, "if_none_match": inm,
                            "status": f"{st} {'OK' if st == 200 else 'Not Modified'}", "headers": hd,
                            "body": bd.decode("latin-1")})
    return answers


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=5, help="each wrk run (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="turns of the three servers per measurement (default 3)")
    parser.add_argument("--connections", type=int, default=4, help="wrk connections (default 4)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--db-prefix", default="tarock_cond_bench", help="the database is <db-prefix>_<pid>")
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        sys.exit("conditional_bench: needs wrk (apt-get install wrk)")
    server_url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    if urlsplit(server_url).scheme not in ("postgres", "postgresql", "sqlite"):
        sys.exit("conditional_bench: DATABASE_URL must name a PostgreSQL server, or be sqlite:// for a SQLite file")
    db_url, drop = entry_bench.own_database(server_url, prefix=args.db_prefix)
    db_name = urlsplit(db_url).path.lstrip("/")
    tmp = Path(tempfile.mkdtemp(prefix="cond-bench-"))
    servers: list[Server] = []
    try:
        log(f"conditional_bench: {args.players} players in {db_name} ...")
        started = time.perf_counter()
        tournament, registration = build_tournament(db_url, args.players)
        log(f"  built in {time.perf_counter() - started:.0f} s")
        targets = {"standings slide": f"/t/{tournament}/screen/slide/1/", "player's page": f"/t/{tournament}/players/{registration}/"}
        base_env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL", "REDIS_URL", "PORT", "HOST")}
        env = {**base_env, "DATABASE_URL": db_url, "REDIS_URL": args.redis_url, "DEBUG": "0", "CONN_MAX_AGE": "3600",
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "DATA_DIR": str(tmp / "data"), "STATIC_ROOT": str(tmp / "static"),
               "SECRET_KEY": "conditional-bench-not-secret", "RELEASE": f"cond-bench-{os.getpid()}"}
        app = Server("app", "config.wsgi:application", env, tmp / "app.log")
        servers.append(app)
        app.wait_ready(targets["standings slide"])
        status, _h, page = get(app.base + targets["standings slide"])
        if b"slide-standings" not in page:
            raise RuntimeError("slide 1 is not a standings slide")
        answers = capture(app.base, targets)
        (tmp / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
        full = Server("full stack", "config.wsgi:django_application", env, tmp / "full.log")
        bare = Server("floor", "conditional_bench:floor", {**env, "COND_FLOOR_ANSWERS": str(tmp / "answers.json")},
                      tmp / "floor.log", pythonpath=str(ROOT / "bench"))
        servers += [full, bare]
        full.wait_ready(targets["standings slide"])
        bare.wait_ready(targets["standings slide"])
        # Every server gives the same answers, byte for byte (gunicorn's own headers aside).
        for a in answers:
            want = (int(a["status"][:3]), [tuple(h) for h in a["headers"]], a["body"].encode("latin-1"))
            request_headers = {"If-None-Match": a["if_none_match"]} if a["if_none_match"] else {}
            for server in (app, full, bare):
                got = get(server.base + a["path"], request_headers)
                if not same(got, want):
                    raise RuntimeError(f"{server.name} answers {a['target']} {a['kind']} otherwise:\n{got[:2]}\n{want[:2]}")
        log("  the three servers answer alike; measuring ...")
        load_before = os.getloadavg()
        results = []
        for a in answers:
            request_headers = {"If-None-Match": a["if_none_match"]} if a["if_none_match"] else {}
            best: dict[str, dict] = {}
            for _ in range(args.rounds):
                for server in (bare, app, full):
                    processes = server.processes(db_name)
                    cpu_before = cpu_seconds(processes)
                    run = wrk(server.base + a["path"], args.seconds, args.connections, request_headers)
                    run["cpu_us_per_request"] = (cpu_seconds(processes) - cpu_before) / max(run["requests"], 1) * 1e6
                    run["processes"] = len(processes)
                    if server.name not in best or run["rps"] > best[server.name]["rps"]:
                        best[server.name] = run
                    cpu_best = best.setdefault("cpu " + server.name, run["cpu_us_per_request"])
                    best["cpu " + server.name] = min(cpu_best, run["cpu_us_per_request"])
            row = {"target": a["target"], "kind": a["kind"], "path": a["path"], "bytes": len(a["body"]),
                   "app": best["app"], "full_stack": best["full stack"], "floor": best["floor"],
                   "ratio": best["app"]["rps"] / best["floor"]["rps"],
                   "ratio_full_stack": best["full stack"]["rps"] / best["floor"]["rps"],
                   # CPU per request (worker and its database backends; least of the rounds): less
                   # disturbed by the machine's other work than the rates
                   "cpu_us": {name: best["cpu " + name] for name in ("app", "full stack", "floor")},
                   "cpu_ratio": best["cpu floor"] / best["cpu app"]}
            results.append(row)
            log(f"  {a['target']:15s} {a['kind']}: app {row['app']['rps']:7.0f} req/s, full stack {row['full_stack']['rps']:7.0f}, "
                f"floor {row['floor']['rps']:7.0f}: ratio {row['ratio']:.2f} (full stack {row['ratio_full_stack']:.2f}); "
                f"CPU us a request {row['cpu_us']['app']:.0f} / {row['cpu_us']['full stack']:.0f} / {row['cpu_us']['floor']:.0f}")
        load_after = os.getloadavg()
        errors = sum(r[s]["errors"] for r in results for s in ("app", "full_stack", "floor"))
        met = all(r["ratio"] >= GOAL_RATIO for r in results) and errors == 0
        print(f"\n{'page':15s} {'answer':6s} {'app':>8s} {'full':>8s} {'floor':>8s} {'ratio':>6s} {'full/floor':>10s}"
              f" {'CPU us app':>10s} {'full':>6s} {'floor':>6s} {'floor/app':>9s}")
        for r in results:
            print(f"{r['target']:15s} {r['kind']:6s} {r['app']['rps']:8.0f} {r['full_stack']['rps']:8.0f} {r['floor']['rps']:8.0f} "
                  f"{r['ratio']:6.2f} {r['ratio_full_stack']:10.2f} {r['cpu_us']['app']:10.0f} {r['cpu_us']['full stack']:6.0f} "
                  f"{r['cpu_us']['floor']:6.0f} {r['cpu_ratio']:9.2f}")
        print(f"goal: app >= {GOAL_RATIO} x floor on each: {'met' if met else 'MISSED'}; errors {errors}; "
              f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}; commit {git_commit()}")
        RESULTS.mkdir(parents=True, exist_ok=True)
        kind = "" if urlsplit(server_url).scheme != "sqlite" else "sqlite-"
        out = RESULTS / f"conditional-{kind}{args.players}.json"
        out.write_text(json.dumps({
            "players": args.players, "database": "postgresql", "cache": "redis", "workers": 1,
            "seconds": args.seconds, "rounds": args.rounds, "connections": args.connections, "client": "wrk",
            "results": results, "goal_ratio": GOAL_RATIO, "goal_met": met, "errors": errors,
            "load_average_before": load_before, "load_average_after": load_after, "commit": git_commit(),
            "python": platform.python_version(), "cpus": os.cpu_count(),
        }, indent=2), encoding="utf-8")
        log(f"  written to {out.relative_to(ROOT)}")
        return 0 if met else 1
    finally:
        for server in servers:
            server.stop()
        if args.keep_db:
            log(f"conditional_bench: kept database {db_url}")
        else:
            drop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
