#!/usr/bin/env python
"""Benchmark of the standings after a hand on a large field, against its floor in the same run.

For each ``--players`` count (default 1,000 and 5,000) it builds the tournament as
``entry_bench.py`` does (a Tiroler Tarockcup 2019/20 of three rounds drawn through
:func:`tournaments.services.draw_next_round`; rounds 1 and 2 complete, round 3 all but a few hands
per table, so tables still play and the tie-breaks say "so far"). Then, ``--samples`` times: a
director saves the next hand of a round-3 table through the hand-entry view (not timed), and right
after it, in alternating order, are timed:

- **standings**: :func:`scoring.standings.compute_standings` of the whole tournament (every player,
  every round, ranked with the ruleset's tie-breaks and their explanations);
- **floor**: one SQL ``GROUP BY`` summing the seat scores per player over the same tables
  (``SELECT registration_id, SUM(score) ... GROUP BY registration_id`` through
  ``connection.cursor()``, every row fetched): what any ranking has to read at least.

Reported per size: min, median and p95 of each (wall clock, ``time.perf_counter``), the ratio
standings ÷ floor (of the mins and of the medians), the same of this process's CPU time
(``time.process_time``: on SQLite the database's work too, and less disturbed than the wall clock
when other work shares the machine; on PostgreSQL the server's work is not in it, so no ratio),
the SQL queries of one standings computation, the load average before and after, the database
and its version, the git commit. Then ``--breakdown`` more computations (default 10, each after
a saved hand) split the standings' median into its three queries (executed and fetched through
``scoring.standings._fetch``) and the Python work around them. Results are printed and written to
``bench/results/standings-<sqlite|postgresql>.json``. Goal: the median ratio (wall clock) at most
10; the exit status is 1 when it is missed at some size.

The loaded objects are frozen out of the garbage collector before measuring, as the app's
workers do at start (``--no-gc-freeze`` leaves them); on PostgreSQL the tables are analysed after
the build (``VACUUM ANALYZE``), as autovacuum would have done after so many inserts.

Like ``entry_bench.py`` it never touches the project's database: ``DATABASE_URL`` only says which
kind to use (SQLite: a temporary file; PostgreSQL: a fresh database ``--db-name``\\_<pid> on that
server, dropped at the end). Run from the project root::

    .venv/bin/python bench/standings_bench.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/standings_bench.py
    .venv/bin/python bench/standings_bench.py --players 200 --samples 5   # a quick try

Options: ``--players N [N ...]``, ``--samples 30``, ``--warmup 3``, ``--breakdown 10`` (0: none),
``--profile N`` (cProfile N more standings computations per size and print the top functions),
``--db-name``, ``--keep-db``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import math
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from entry_bench import Bench, build, own_database, percentile, release_database, setup_django  # noqa: E402

GOAL_RATIO = 10.0

FLOOR_SQL = """
    SELECT s.registration_id, SUM(s.score)
    FROM tournaments_seat s
    JOIN tournaments_table t ON t.id = s.table_id
    JOIN tournaments_round r ON r.id = t.round_id
    WHERE r.tournament_id = %s
    GROUP BY s.registration_id
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def summary(ms: list[float]) -> dict:
    return {
        "min_ms": round(min(ms), 2),
        "median_ms": round(statistics.median(ms), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "max_ms": round(max(ms), 2),
    }


def breakdown(bench, standings, n: int) -> dict:
    """The standings computation split in two, over ``n`` more saved hands: its three queries,
    executed and fetched (the time spent in ``scoring.standings._fetch``), and the Python work
    around them (the rest), as medians in ms with the median of the whole."""
    from scoring import standings as module

    fetch = module._fetch
    spent: list[float] = []

    def timed_fetch(sql, params):
        start = time.perf_counter()
        try:
            return fetch(sql, params)
        finally:
            spent[-1] += time.perf_counter() - start

    whole, sql = [], []
    module._fetch = timed_fetch
    try:
        for _ in range(n):
            bench.entry(None)
            spent.append(0.0)
            start = time.perf_counter()
            standings()
            whole.append((time.perf_counter() - start) * 1000)
            sql.append(spent[-1] * 1000)
    finally:
        module._fetch = fetch
    return {
        "computations": n,
        "whole_median_ms": round(statistics.median(whole), 2),
        "sql_median_ms": round(statistics.median(sql), 2),
        "python_median_ms": round(statistics.median([w - q for w, q in zip(whole, sql)]), 2),
    }


def measure(players: int, samples: int, warmup: int, profile_n: int, freeze: bool, breakdown_n: int = 0) -> dict:
    """Build a tournament of ``players`` and time the standings after each of ``samples`` saved
    hands against the floor; ``breakdown_n`` more split into SQL and Python (:func:`breakdown`)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from django.contrib.auth import get_user_model

    from scoring.standings import compute_standings

    # build() creates its director under a fixed name: the one of an earlier size steps aside.
    get_user_model().objects.filter(username="bench-director").update(username=f"bench-director-before-{players}")
    saves = warmup + samples + profile_n + breakdown_n
    n_tables = max(1, players // 4)
    room = max(2, math.ceil(saves / n_tables))
    built_at = time.perf_counter()
    built = build(players, room, log)
    build_s = time.perf_counter() - built_at
    log(f"  built in {build_s:.1f} s; measuring {samples} samples")
    if connection.vendor == "postgresql":
        # The planner's statistics of the freshly filled tables, as autovacuum would have them
        # after so many inserts (without them it guesses 13 tables a round and sorts in memory).
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")
    bench = Bench(built)
    t = built["tournament"]
    registered = t.registrations.count()

    def standings():
        result = compute_standings(t)
        assert len(result.rows) == registered, (len(result.rows), registered)
        return result

    def floor():
        with connection.cursor() as cur:
            cur.execute(FLOOR_SQL, [t.pk])
            rows = cur.fetchall()
        assert len(rows) == registered, (len(rows), registered)
        return rows

    def timed(fn) -> tuple[float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000

    for _ in range(warmup):
        bench.entry(None)
        standings()
        floor()
    gc.collect()
    if freeze:
        # As the app's workers start under scripts/serve (config/gunicorn.py): what is loaded by
        # then is frozen out of the collector's generations (see entry_bench.py).
        gc.freeze()
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {"standings": [], "floor": []}
    cpu: dict[str, list[float]] = {"standings": [], "floor": []}
    for i in range(samples):
        bench.entry(None)  # a hand saved through the hand-entry view: the standings change
        order = (("standings", standings), ("floor", floor)) if i % 2 == 0 else (("floor", floor), ("standings", standings))
        for op, fn in order:
            wall, own = timed(fn)
            times[op].append(wall)
            cpu[op].append(own)
    load_after = os.getloadavg()
    bench.entry(None)
    with CaptureQueriesContext(connection) as ctx:
        standings()
    queries = [q["sql"][:400] for q in ctx.captured_queries]
    split = breakdown(bench, standings, breakdown_n) if breakdown_n else None
    profile_text = ""
    if profile_n:
        prof = cProfile.Profile()
        for _ in range(profile_n):
            bench.entry(None)
            prof.enable()
            standings()
            prof.disable()
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf)
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("tottime").print_stats(25)
        profile_text = buf.getvalue()
    result = {
        "players": players,
        "tables_per_round": len(built["tables"]),
        "hands_before_measuring": built["hands"],
        "samples": samples,
        "build_seconds": round(build_s, 1),
        "standings": summary(times["standings"]),
        "floor": summary(times["floor"]),
        "ratio_min": round(min(times["standings"]) / min(times["floor"]), 2),
        "ratio_median": round(statistics.median(times["standings"]) / statistics.median(times["floor"]), 2),
        # CPU time of this process: on SQLite the database's work too (less disturbed by other
        # load than the wall clock); on PostgreSQL without the server's, so no ratio there.
        "cpu_standings": summary(cpu["standings"]),
        "cpu_floor": summary(cpu["floor"]),
        "queries": len(queries),
        "query_sql": queries,
        "load_average_before_after": [round(load_before[0], 2), round(load_after[0], 2)],
    }
    if split:
        result["breakdown"] = split
    if connection.vendor == "sqlite":
        result["cpu_ratio_median"] = round(statistics.median(cpu["standings"]) / statistics.median(cpu["floor"]), 2)
    result["met"] = result["ratio_median"] <= GOAL_RATIO
    if profile_text:
        result["profile"] = profile_text
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 5000], help="field sizes (default 1000 5000)")
    parser.add_argument("--samples", type=int, default=30, help="measured hands per size (default 30)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured hands first (default 3)")
    parser.add_argument("--breakdown", type=int, default=10, metavar="N", help="N more standings per size split into SQL and Python (default 10, 0: none)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="also cProfile N more standings per size")
    parser.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="leave the loaded objects in the garbage collector's generations (scripts/serve freezes them)",
    )
    parser.add_argument("--db-name", default="tarock_bench", help="PostgreSQL: the database is <db-name>_<pid> (default tarock_bench)")
    parser.add_argument("--keep-db", action="store_true", help="do not delete the benchmark database")
    args = parser.parse_args(argv)

    db_url, cleanup = own_database(os.environ.get("DATABASE_URL", ""), prefix=args.db_name)
    try:
        setup_django(db_url)
        import django
        from django.core.management import call_command
        from django.db import connection

        log(f"standings_bench: {connection.vendor} database {connection.settings_dict['NAME']}")
        call_command("migrate", verbosity=0)
        vendor = connection.vendor
        with connection.cursor() as cur:
            cur.execute("select sqlite_version()" if vendor == "sqlite" else "show server_version")
            db_version = cur.fetchone()[0]
        sizes = []
        for players in args.players:
            log(f" {players} players")
            sizes.append(measure(players, args.samples, args.warmup, args.profile, not args.no_gc_freeze, args.breakdown))
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
            dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
        except OSError:
            commit, dirty = "", False
        report = {
            "benchmark": "standings",
            "what": "compute_standings after a saved hand vs one SQL GROUP BY of the seat scores per player",
            "database": vendor,
            "database_version": db_version,
            "goal_ratio_median": GOAL_RATIO,
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "django": django.get_version(),
            "git_commit": commit + ("+dirty" if dirty else ""),
            "gc_frozen": not args.no_gc_freeze,
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "sizes": sizes,
        }
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"standings-{vendor}.json"
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        print(f"\nstandings after a hand — {vendor} {db_version}, commit {report['git_commit']}, {os.cpu_count()} CPUs")
        print(f"{'players':>8}{'standings min/med/p95 ms':>28}{'floor min/med/p95 ms':>26}{'ratio min/med':>15}{'cpu ratio':>10}{'queries':>9}{'load':>13}  goal ≤ {GOAL_RATIO:g}×")
        for r in sizes:
            s, f = r["standings"], r["floor"]
            print(
                f"{r['players']:>8}{s['min_ms']:>10.1f}{s['median_ms']:>9.1f}{s['p95_ms']:>9.1f}"
                f"{f['min_ms']:>9.2f}{f['median_ms']:>8.2f}{f['p95_ms']:>9.2f}"
                f"{r['ratio_min']:>8.1f}{r['ratio_median']:>7.1f}{r.get('cpu_ratio_median', float('nan')):>10.1f}{r['queries']:>9}"
                f"{r['load_average_before_after'][0]:>7.2f}/{r['load_average_before_after'][1]:<5.2f}  {'met' if r['met'] else 'MISSED'}"
            )
        for r in sizes:
            if r.get("breakdown"):
                b = r["breakdown"]
                print(
                    f"{r['players']:>8}  {b['computations']} more, split (medians): standings {b['whole_median_ms']:.1f} ms,"
                    f" of which SQL {b['sql_median_ms']:.1f} ms ({r['queries']} queries, fetched) and Python"
                    f" {b['python_median_ms']:.1f} ms; the floor {r['floor']['median_ms']:.1f} ms"
                )
        print(f"results: {out.relative_to(ROOT)}")
        for r in sizes:
            if r.get("profile"):
                print(f"\n--- cProfile, {r['players']} players ---\n{r['profile']}")
        return 0 if all(r["met"] for r in sizes) else 1
    finally:
        release_database("standings_bench", db_url, cleanup, args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
