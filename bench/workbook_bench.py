#!/usr/bin/env python
"""Benchmark of the standings workbook against openpyxl writing the same cells, in one run.

Builds the tournament as ``bench/entry_bench.py`` does (its ``setup_django`` and ``build``: a
Tiroler Tarockcup of ``--players`` players, three rounds, every hand entered; ``--players
1000,5000`` builds both, one after the other in the same database), then, per field, after one
unmeasured call:

- the project: :func:`scoring.exporters.standings.standings_xlsx` in the active language
  (``--language``, default German), ``--repeat`` times (default 3);
- the floor: the cells of the workbook it produced (read back with openpyxl), written again by
  openpyxl's write-only workbook (``Workbook(write_only=True)``, one ``append`` per row, no styles,
  no column widths) and zipped as the project zips (deflate level 1), as often, alternating with
  the project's calls so both see the same load. The floor is timed with the garbage collector on
  and paused (the export pauses it), and the faster of the two medians is the floor;
- for information: :func:`~scoring.exporters.standings.export_data` alone as the workbook calls it
  (the database reads, the standings and every hand's words and notation; collector paused);
- for information, the styled floor: the same cells with the same bold ones (every table header,
  6,771 cells at 1,000 players), as openpyxl's documentation writes a styled cell in write-only
  mode (a ``WriteOnlyCell`` with the font, one per bold value), collector paused: what openpyxl
  itself charges for the styles the workbook must have. The goal is measured against the floor
  without styles.

Reports min and median wall clock (``time.perf_counter``), the ratio project / floor (medians; the
goal is at most 1.3), the ratio project / styled floor, the ratio in CPU seconds of the process
(``time.process_time``: on a busy machine steadier than the wall clock; on PostgreSQL without the
server's work), the load average (``os.getloadavg``) before and after, the git commit, and writes
``bench/results/workbook-<sqlite|postgresql>.json``. The exit status is 1 when the goal is
missed at a size.

The project's database is never touched: SQLite (the default) runs on a temporary file; with
``DATABASE_URL=postgres://…/postgres`` a database ``tarock_workbook_<pid>`` is created on that
server and dropped at the end (``--keep-db`` keeps it). Run from the project root::

    .venv/bin/python bench/workbook_bench.py --players 1000,5000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/workbook_bench.py --players 1000,5000
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
GOAL_RATIO = 1.3

sys.path.insert(0, str(Path(__file__).resolve().parent))
import entry_bench  # noqa: E402  (the tournament is built exactly as for the entry benchmark)


def git_commit() -> str:
    """The checked-out commit, with ``-dirty`` when the work tree has changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def sheets_of(content: bytes) -> list[tuple[str, list[list]]]:
    """``[(title, rows)]`` of an xlsx file: every sheet's values as openpyxl reads them back."""
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(content), read_only=True)
    try:
        return [(ws.title, [list(row) for row in ws.iter_rows(values_only=True)]) for ws in book.worksheets]
    finally:
        book.close()


def bold_of(content: bytes) -> list[dict[int, set[int]]]:
    """Per sheet of an xlsx file, its bold cells: ``{row: {column, …}}`` (0-based)."""
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(content), read_only=True)
    try:
        found = []
        for ws in book.worksheets:
            rows: dict[int, set[int]] = {}
            for r, row in enumerate(ws.iter_rows()):
                for c, cell in enumerate(row):
                    if cell.font is not None and cell.font.b:
                        rows.setdefault(r, set()).add(c)
            found.append(rows)
        return found
    finally:
        book.close()


def floor_styled_workbook(sheets, bold) -> bytes:
    """The styled floor: as :func:`floor_workbook`, but each value of a bold cell (:func:`bold_of`)
    goes in as a ``WriteOnlyCell`` with a bold font, as openpyxl's documentation writes styled
    cells in write-only mode; the other rows are appended as they are."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.writer.excel import ExcelWriter

    wb = Workbook(write_only=True)
    font = Font(bold=True)
    for (title, rows), bold_rows in zip(sheets, bold):
        ws = wb.create_sheet(title)
        for r, row in enumerate(rows):
            columns = bold_rows.get(r)
            if columns is not None:
                styled = []
                for c, value in enumerate(row):
                    if c in columns:
                        value = WriteOnlyCell(ws, value=value)
                        value.font = font
                    styled.append(value)
                row = styled
            ws.append(row)
    out = io.BytesIO()
    with ZipFile(out, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=1) as archive:
        ExcelWriter(wb, archive).save()
    return out.getvalue()


def floor_workbook(sheets) -> bytes:
    """The floor: ``sheets`` written by openpyxl's write-only workbook, a row an ``append``, zipped
    at deflate level 1 as :class:`scoring.exporters.standings._Book` zips."""
    from openpyxl import Workbook
    from openpyxl.writer.excel import ExcelWriter

    wb = Workbook(write_only=True)
    for title, rows in sheets:
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(row)
    out = io.BytesIO()
    with ZipFile(out, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=1) as archive:
        ExcelWriter(wb, archive).save()
    return out.getvalue()


def timed(fn, cpu: list, collector: bool = True) -> float:
    """Wall-clock seconds of ``fn()``, its CPU seconds in this process appended to ``cpu`` (on
    SQLite the database's work included, not a PostgreSQL server's); ``collector=False`` pauses
    the garbage collector meanwhile."""
    enabled = gc.isenabled()
    if not collector:
        gc.disable()
    try:
        started, cpu_started = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - cpu_started)
        return time.perf_counter() - started
    finally:
        if enabled:
            gc.enable()


def summary(values: list[float]) -> dict:
    return {"min_s": round(min(values), 3), "median_s": round(statistics.median(values), 3),
            "max_s": round(max(values), 3), "runs": [round(v, 3) for v in values]}


def measure(tournament, repeat: int, log, profile: bool) -> dict:
    """The workbook, its floor and ``export_data`` of ``tournament``, timed alternately."""
    from scoring.exporters.standings import export_data, standings_xlsx

    content = standings_xlsx(tournament)  # unmeasured: loads templates, translations, the ruleset
    sheets = sheets_of(content)
    cells = sum(value is not None for _title, rows in sheets for row in rows for value in row)
    bold = bold_of(content)
    floor_workbook(sheets)  # unmeasured, as the project's first call
    workbook, floor_on, floor_off, styled, data = [], [], [], [], []
    cpu = {"workbook": [], "floor_on": [], "floor_off": [], "styled": [], "data": []}
    for _ in range(repeat):
        workbook.append(timed(lambda: standings_xlsx(tournament), cpu["workbook"]))
        floor_on.append(timed(lambda: floor_workbook(sheets), cpu["floor_on"]))
        floor_off.append(timed(lambda: floor_workbook(sheets), cpu["floor_off"], collector=False))
        styled.append(timed(lambda: floor_styled_workbook(sheets, bold), cpu["styled"], collector=False))
        data.append(timed(lambda: export_data(tournament, long_format=False), cpu["data"], collector=False))
    floors = {"collector_on": summary(floor_on), "collector_paused": summary(floor_off)}
    floor = min(floors.values(), key=lambda f: f["median_s"])
    cpu_floor = min(statistics.median(cpu["floor_on"]), statistics.median(cpu["floor_off"]))
    result = {
        "cells": cells,
        "bold_cells": sum(len(columns) for rows in bold for columns in rows.values()),
        "rows": sum(len(rows) for _title, rows in sheets),
        "sheets": len(sheets),
        "bytes": len(content),
        "standings_xlsx": summary(workbook),
        "floor_openpyxl_write_only": floors,
        "floor_median_s": floor["median_s"],
        "floor_styled": summary(styled),
        "export_data": summary(data),
        "ratio_median": round(statistics.median(workbook) / floor["median_s"], 2),
        "ratio_min": round(min(workbook) / min(min(floor_on), min(floor_off)), 2),
        "ratio_styled_median": round(statistics.median(workbook) / statistics.median(styled), 2),
        # CPU seconds of this process: less disturbed by other work on the machine than the wall clock
        "cpu_median_s": {"standings_xlsx": round(statistics.median(cpu["workbook"]), 3), "floor": round(cpu_floor, 3),
                         "floor_styled": round(statistics.median(cpu["styled"]), 3),
                         "export_data": round(statistics.median(cpu["data"]), 3)},
        "ratio_cpu_median": round(statistics.median(cpu["workbook"]) / cpu_floor, 2),
        "goal_ratio": GOAL_RATIO,
    }
    result["met"] = result["ratio_median"] <= GOAL_RATIO
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(standings_xlsx, tournament)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        log(out.getvalue())
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="1000", help="comma-separated field sizes (default 1000), e.g. 1000,5000")
    parser.add_argument("--repeat", type=int, default=3, help="measured calls of each (default 3)")
    parser.add_argument("--language", default="de", help="the language the workbook is written in (default de)")
    parser.add_argument("--profile", action="store_true", help="print a profile of one more workbook per size")
    parser.add_argument("--keep-db", action="store_true", help="do not delete the benchmark database")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.players.split(",") if n.strip()]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    db_url, cleanup = entry_bench.own_database(os.environ.get("DATABASE_URL", ""), prefix="tarock_workbook")
    try:
        entry_bench.setup_django(db_url)
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connection
        from django.utils import translation

        started = time.perf_counter()
        log(f"workbook_bench: {connection.vendor} database {connection.settings_dict['NAME']}")
        call_command("migrate", verbosity=0)
        load_before = os.getloadavg()
        results = {}
        for players in sizes:
            built_at = time.perf_counter()
            built = entry_bench.build(players, 0, log)
            build_s = time.perf_counter() - built_at
            # entry_bench.build names its director "bench-director": free the name for the next size
            get_user_model().objects.filter(pk=built["director"].pk).update(username=f"bench-director-{players}")
            log(f"  {players} players built in {build_s:.1f} s ({built['hands']} hands)")
            with translation.override(args.language):
                result = measure(built["tournament"], args.repeat, log, args.profile)
            result.update(players=players, hands=built["hands"], build_seconds=round(build_s, 1),
                          load_average_after=[round(v, 2) for v in os.getloadavg()])
            results[str(players)] = result
            log(f"  {players} players: workbook {result['standings_xlsx']['median_s']:.2f} s, floor "
                f"{result['floor_median_s']:.2f} s, ratio {result['ratio_median']:.2f} "
                f"(CPU {result['ratio_cpu_median']:.2f}; styled floor {result['floor_styled']['median_s']:.2f} s, ratio {result['ratio_styled_median']:.2f})")

        import django
        import openpyxl
        from openpyxl.xml import LXML

        report = {
            "benchmark": "workbook",
            "database": connection.vendor,
            "language": args.language,
            "repeat": args.repeat,
            "commit": git_commit(),
            "load_average_before": [round(v, 2) for v in load_before],
            "load_average_after": [round(v, 2) for v in os.getloadavg()],
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "django": django.get_version(),
            "openpyxl": openpyxl.__version__,
            "lxml": LXML,
            "total_seconds": round(time.perf_counter() - started, 1),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "results": results,
        }
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"workbook-{connection.vendor}.json"
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        print(f"\nstandings workbook vs openpyxl write-only on the same cells — {connection.vendor}, "
              f"openpyxl {openpyxl.__version__}{' (lxml)' if LXML else ''}, commit {report['commit']}, "
              f"median of {args.repeat}")
        print(f"{'players':>8}{'cells':>9}{'workbook s':>12}{'min':>7}{'floor s':>9}{'min':>7}{'ratio':>7}"
              f"{'cpu ratio':>10}{'styled s':>10}{'ratio':>7}{'export_data s':>15}  goal ≤ {GOAL_RATIO}")
        for r in results.values():
            floor_min = min(f["min_s"] for f in r["floor_openpyxl_write_only"].values())
            print(f"{r['players']:>8}{r['cells']:>9}{r['standings_xlsx']['median_s']:>12.2f}"
                  f"{r['standings_xlsx']['min_s']:>7.2f}{r['floor_median_s']:>9.2f}{floor_min:>7.2f}"
                  f"{r['ratio_median']:>7.2f}{r['ratio_cpu_median']:>10.2f}{r['floor_styled']['median_s']:>10.2f}"
                  f"{r['ratio_styled_median']:>7.2f}{r['export_data']['median_s']:>15.2f}"
                  f"  {'met' if r['met'] else 'MISSED'}")
        print(f"load average before {report['load_average_before']}, after {report['load_average_after']} "
              f"on {os.cpu_count()} CPUs")
        print(f"results: {out.relative_to(ROOT)}")
        return 0 if all(r["met"] for r in results.values()) else 1
    finally:
        entry_bench.release_database("workbook_bench", db_url, cleanup, args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
