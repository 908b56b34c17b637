#!/usr/bin/env python
"""Benchmark of a stored 3-round draw on a large field, against its floor in the same run.

For each ``--players`` count (default 1,000 and 5,000; a Tiroler Tarockcup 2019/20 of 3 rounds,
tables of 4 and 5, draw mode ``--mode``, default ``avoid_repeats``) it times, ``--repeat`` times
(default 3; min and median reported):

- **stored draw**: the whole draw as the director's page runs it, through
  :func:`tournaments.services.draw_next_round` for rounds 1, 2 and 3 (one call for all three in the
  mode ``all_at_start``): the lock, the past rounds read, the algorithm, the rounds, tables, seats
  and log entries stored, the commits;
- **floor**, the parts nothing can leave out, on the same field and seeds:

  - *algorithm*: :func:`tournaments.draw.draw_with_mode` alone, round by round with the rounds
    before as ``past`` (as the service calls it);
  - *bare inserts*: the same table and seat rows stored by the database driver alone, values
    computed beforehand, one transaction per round into rounds made beforehand (PostgreSQL:
    psycopg's ``COPY``; SQLite: ``sqlite3``'s ``executemany``);

  the floor is their sum, and the ratio stored draw ÷ floor;
- **one by one** (unless ``--no-old``): the stored draw with each table created by its own INSERT,
  as the draw was stored before it used bulk inserts (the reference copy of that loop that
  ``tests/tournaments/test_draw_bulk_store.py`` compares against), to show the gain.

Between repetitions the drawn rounds are deleted (not timed). The players are registered with a
bulk insert (not timed; the start list is the same as ``tournaments.services.register`` makes).
One unmeasured draw first warms the caches and counts the stored draw's SQL queries.

Goal: the stored draw at 5,000 players **under 0.8 s on PostgreSQL** (the exit status is 1 when it
is missed there; SQLite and other sizes are reported for information).

Like ``entry_bench.py`` it never touches the project's database: ``DATABASE_URL`` only says which
kind to use (SQLite: a temporary file; PostgreSQL: a fresh database ``tarock_bench_<pid>`` on that
server, dropped at the end). Run from the project root::

    .venv/bin/python bench/draw_store_bench.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/draw_store_bench.py
    .venv/bin/python bench/draw_store_bench.py --players 200 --repeat 3   # a quick try

Options: ``--players N [N ...]``, ``--repeat 3``, ``--mode avoid_repeats|random|all_at_start``,
``--no-old``, ``--keep-db``. The results are printed as a table and written to
``bench/results/draw-store-<sqlite|postgresql>.json`` with the database version, the git commit and
the load average.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from entry_bench import own_database, release_database, setup_django  # noqa: E402

GOAL_SECONDS = 0.8
GOAL_PLAYERS = 5000
SEED = 7007
ROUNDS = 3


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------
# The field and the three measurements
# --------------------------------------------------------------------------------------------------


def build(players: int, mode: str):
    """A 3-round Tiroler Tarockcup with ``players`` registrations (start numbers 1..n)."""
    from django.db import transaction

    from tournaments.models import Player, Registration, Tournament
    from variants import get_ruleset

    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    with transaction.atomic():
        t = Tournament.objects.create(
            name=f"Draw benchmark {players}", date=datetime.date(2026, 10, 17), venue="Bench",
            ruleset="tiroler-tarockcup", edition="2019/20", rounds=ROUNDS,
            hands_per_round=rs.default_hands_per_round, draw_mode=mode,
        )
        people = Player.objects.bulk_create(
            Player(name=f"Spieler {i:05d}", club=f"Club {i % 40:02d}") for i in range(1, players + 1)
        )
        Registration.objects.bulk_create(
            (Registration(tournament=t, player=p, start_number=i) for i, p in enumerate(people, start=1)),
            batch_size=1000,
        )
    return t


def seeds(mode: str) -> list[int]:
    """The seed of each ``draw_next_round`` call: one per round, one for all in ``all_at_start``."""
    return [SEED] if mode == "all_at_start" else [SEED + number for number in range(1, ROUNDS + 1)]


def clear(t) -> None:
    """Delete the drawn rounds (tables and seats with them) and the draw's log entries."""
    from tournaments.models import ActionLog, Round, Seat, Table, Tournament

    Seat.objects.filter(table__round__tournament=t).delete()
    Table.objects.filter(round__tournament=t).delete()
    Round.objects.filter(tournament=t).delete()
    ActionLog.objects.filter(tournament=t).delete()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.PLANNED)


def stored_draw(t, mode: str, old: bool = False) -> float:
    """Seconds for the whole stored draw of the tournament's rounds (``old``: tables one by one)."""
    from tests.tournaments.test_draw_bulk_store import reference_store_round  # the tests' yardstick
    from tournaments import services
    from tournaments.models import Tournament

    real = services._store_round
    if old:
        services._store_round = reference_store_round
    try:
        start = time.perf_counter()
        for seed in seeds(mode):
            services.draw_next_round(Tournament.objects.get(pk=t.pk), seed=seed)
        return time.perf_counter() - start
    finally:
        services._store_round = real


def algorithm(t, mode: str):
    """``(seconds, drawn)``: the draw algorithm alone on the same field and seeds; ``drawn`` is
    ``[(number, seatings), ...]`` per round."""
    from tournaments.draw import draw_with_mode

    rs = t.get_ruleset()
    players = list(t.registrations.filter(withdrawn=False).order_by("start_number").values_list("pk", flat=True))
    past: dict[int, list[list[int]]] = {}
    drawn = []
    start = time.perf_counter()
    number = 1
    for seed in seeds(mode):
        rounds = ROUNDS - number + 1 if mode == "all_at_start" else 1
        result = draw_with_mode(
            mode, players, rs.table_sizes, rs.preferred_table_size, rs.max_other_tables, seed, past,
            rs.seat_cards, rounds=rounds, first_round=number,
        )
        for draw, seatings in result:
            past[number] = [list(table) for table in draw.tables]
            drawn.append((number, seatings))
            number += 1
    return time.perf_counter() - start, drawn


def bare_inserts(t, drawn) -> float:
    """Seconds for the database driver alone storing the same table and seat rows, values computed
    beforehand (tokens, numbers, registrations, cards), into rounds made beforehand (not timed), one
    transaction per round as the draw commits once. PostgreSQL: the table ids taken from their
    sequence in one query, then psycopg's ``COPY`` of the tables and of the seats; SQLite:
    ``sqlite3``'s ``executemany`` of each, the ids read back per round. No Django model, field or
    query in the timed part: the fastest the rows go in by that driver."""
    from django.db import connection, transaction

    from tournaments.models import Round, new_token

    rs = t.get_ruleset()
    rounds = {number: Round.objects.create(tournament=t, number=number, seed=0) for number, _ in drawn}
    values = [
        (
            rounds[number].pk,
            [(index + 1, rs.first_dealer(len(seating)), new_token()) for index, seating in enumerate(seatings)],
            [[(position, reg_id, card.key) for position, (reg_id, card) in enumerate(seating)] for seating in seatings],
        )
        for number, seatings in drawn
    ]
    connection.ensure_connection()
    raw = connection.connection
    start = time.perf_counter()
    for round_id, table_values, seat_values in values:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with raw.cursor() as cur:
                    cur.execute(
                        "SELECT nextval(pg_get_serial_sequence('tournaments_table', 'id')) FROM generate_series(1, %s)",
                        [len(table_values)],
                    )
                    ids = [row[0] for row in cur.fetchall()]
                    with cur.copy("COPY tournaments_table (id, round_id, number, first_dealer, token) FROM STDIN") as copy:
                        for pk, (number, dealer, token) in zip(ids, table_values):
                            copy.write_row((pk, round_id, number, dealer, token))
                    with cur.copy(
                        "COPY tournaments_seat (table_id, position, registration_id, card, score, substitute_score) FROM STDIN"
                    ) as copy:
                        for pk, seats in zip(ids, seat_values):
                            for position, reg_id, card in seats:
                                copy.write_row((pk, position, reg_id, card, 0, 0))
            else:
                cur = raw.cursor()
                cur.executemany(
                    "INSERT INTO tournaments_table (round_id, number, first_dealer, token) VALUES (?, ?, ?, ?)",
                    [(round_id, *row) for row in table_values],
                )
                ids = [row[0] for row in cur.execute("SELECT id FROM tournaments_table WHERE round_id = ? ORDER BY number", (round_id,))]
                cur.executemany(
                    "INSERT INTO tournaments_seat (table_id, position, registration_id, card, score, substitute_score)"
                    " VALUES (?, ?, ?, ?, 0, 0)",
                    [(pk, *seat) for pk, seats in zip(ids, seat_values) for seat in seats],
                )
                cur.close()
    return time.perf_counter() - start


def count_queries(t, mode: str) -> int:
    """SQL queries of one stored draw of all rounds (an unmeasured run)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        stored_draw(t, mode)
    return len(ctx.captured_queries)


def summary(values: list[float]) -> dict:
    return {"min": round(min(values), 4), "median": round(statistics.median(values), 4), "all": [round(v, 4) for v in values]}


def measure(players: int, mode: str, repeat: int, old: bool) -> dict:
    from tournaments.models import Table

    t = build(players, mode)
    queries = count_queries(t, mode)  # also warms the caches
    tables = Table.objects.filter(round__tournament=t).count()
    clear(t)
    times: dict[str, list[float]] = {"stored": [], "algorithm": [], "inserts": [], "floor": [], "old": []}
    for k in range(repeat):
        times["stored"].append(stored_draw(t, mode))
        clear(t)
        seconds, drawn = algorithm(t, mode)
        times["algorithm"].append(seconds)
        times["inserts"].append(bare_inserts(t, drawn))
        times["floor"].append(times["algorithm"][-1] + times["inserts"][-1])
        clear(t)
        if old:
            times["old"].append(stored_draw(t, mode, old=True))
            clear(t)
        log(f"  {players} players, run {k + 1}/{repeat}: stored {times['stored'][-1]:.3f} s, "
            f"floor {times['floor'][-1]:.3f} s" + (f", one by one {times['old'][-1]:.3f} s" if old else ""))
    result = {"players": players, "tables": tables, "seats": players * ROUNDS, "queries": queries}
    result.update({name: summary(v) for name, v in times.items() if v})
    result["ratio"] = {
        "min": round(result["stored"]["min"] / result["floor"]["min"], 2),
        "median": round(result["stored"]["median"] / result["floor"]["median"], 2),
    }
    if old:
        result["gain"] = round(result["old"]["median"] / result["stored"]["median"], 1)
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, GOAL_PLAYERS], help="field sizes (default 1000 5000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per size (default 3; min and median)")
    parser.add_argument("--mode", default="avoid_repeats", choices=["avoid_repeats", "random", "all_at_start"])
    parser.add_argument("--no-old", action="store_true", help="do not time the one-by-one storing")
    parser.add_argument("--keep-db", action="store_true", help="do not delete the benchmark database")
    args = parser.parse_args(argv)

    db_url, cleanup = own_database(os.environ.get("DATABASE_URL", ""))
    try:
        setup_django(db_url)
        import django
        from django.core.management import call_command
        from django.db import connection

        log(f"draw_store_bench: {connection.vendor} database {connection.settings_dict['NAME']}")
        call_command("migrate", verbosity=0)
        load_before = os.getloadavg()
        rows = [measure(n, args.mode, args.repeat, not args.no_old) for n in args.players]
        load_after = os.getloadavg()
        vendor = connection.vendor
        with connection.cursor() as cur:
            cur.execute("select sqlite_version()" if vendor == "sqlite" else "show server_version")
            db_version = cur.fetchone()[0]
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
            dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
        except OSError:
            commit, dirty = "", False
        goal_row = next((r for r in rows if r["players"] == GOAL_PLAYERS), None)
        met = None
        if goal_row is not None and vendor == "postgresql":
            met = goal_row["stored"]["median"] < GOAL_SECONDS
        report = {
            "benchmark": "draw-store",
            "database": vendor,
            "database_version": db_version,
            "ruleset": "tiroler-tarockcup 2019/20",
            "mode": args.mode,
            "rounds": ROUNDS,
            "repeat": args.repeat,
            "goal": f"stored draw at {GOAL_PLAYERS} players < {GOAL_SECONDS} s on PostgreSQL",
            "goal_met": met,
            "load_average_before_after": [round(load_before[0], 2), round(load_after[0], 2)],
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "django": django.get_version(),
            "git_commit": commit + ("+dirty" if dirty else ""),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "results": rows,
        }
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"draw-store-{vendor}.json"
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        print(f"\nStored {ROUNDS}-round draw ({args.mode}), Tiroler Tarockcup — {vendor} {db_version}; "
              f"seconds, min / median of {args.repeat}; tables and queries of all {ROUNDS} rounds")
        header = (f"{'players':>7} {'tables':>6} {'queries':>7}  {'stored draw':>13}  {'algorithm':>13}  "
                  f"{'bare inserts':>13}  {'floor':>13}  {'ratio':>11}  {'one by one':>13}  {'gain':>5}")
        print(header)
        print("-" * len(header))

        def pair(s):
            return f"{s['min']:.3f} / {s['median']:.3f}"

        for r in rows:
            old = pair(r["old"]) if "old" in r else "–"
            gain = f"{r['gain']}×" if "gain" in r else "–"
            print(f"{r['players']:>7} {r['tables']:>6} {r['queries']:>7}  {pair(r['stored']):>13}  {pair(r['algorithm']):>13}  "
                  f"{pair(r['inserts']):>13}  {pair(r['floor']):>13}  {r['ratio']['min']:>4.2f} / {r['ratio']['median']:<4.2f}  "
                  f"{old:>13}  {gain:>5}")
        print(f"load average (1 min) before/after: {report['load_average_before_after'][0]} / "
              f"{report['load_average_before_after'][1]} on {os.cpu_count()} CPUs — other work skews the times")
        if met is not None:
            print(f"Goal {report['goal']}: {'met' if met else 'MISSED'} ({goal_row['stored']['median']:.3f} s median)")
        print(f"results: {out.relative_to(ROOT)}")
        return 1 if met is False else 0
    finally:
        release_database("draw_store_bench", db_url, cleanup, args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
