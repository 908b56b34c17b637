#!/usr/bin/env python
"""Benchmark of the printed exports on a large Tiroler Tarockcup.

Builds the tournament as ``bench/entry_bench.py`` does (its ``own_database``, ``setup_django`` and
``build``: ``--players`` players, default 1,000 = 250 tables per round, three rounds with every
hand entered), then times, ``--repeat`` times each after one unmeasured warm-up call:

- the standings PDF (goal < 5 s);
- the standings workbook (goal < 2 s; without the long-format hands, a download of its own);
- the blank score sheets of round 1, one page per table (250 pages, goal < 10 s);
- for information: all hands in long format (workbook and CSV), the table results of round 1 and
  the certificates of the first 3 places.

Each is rendered by its registered exporter (:mod:`scoring.exporters`, ``render()``; the score
sheets and table results in parts of ten tables, as the background worker does). The standings PDF
and the score sheets are laid out in chunks on as many processes as there are CPUs
(:mod:`tournaments.pdf`); each is timed against its **floor in the same run**, alternating with
it: the same HTML (rendered once beforehand) as one WeasyPrint document in this process (the
standings: ``html_to_pdf``; the score sheets: their parts laid out one after another and joined,
the single-process path), with the ratio of the medians and whether the pages' text is the
floor's (pypdf, page by page). **Peak memory** of each: this process's peak resident set during
the call (``VmHWM``, reset before it through ``/proc/self/clear_refs``)
and the busiest child's (its own ``ru_maxrss``); goal under 400 MiB at 5,000 players. Then a
**repeated download** of each through the export view (:class:`scoring.exporters.views.ExportView`,
a ``RequestFactory`` request of a director), which reads the file kept for the data version from
the storage: goal < 50 ms. Wall clock (``time.perf_counter``) and CPU time (``time.process_time``) per call, SQL
queries counted with ``CaptureQueriesContext``, PDF pages with pypdf. Prints a table and writes
``bench/results/print-<sqlite|postgresql>-<players>.json``; the exit status is 1 when a goal is missed (on
the median). An export whose first call runs over ``--limit`` seconds (default 120) is aborted and
reported as missed. ``--only`` runs some of the exports (e.g. ``--only standings_xlsx``). A fixed
pure-Python loop is timed before and after (``speed_reference_s``): the same code takes twice as
long on a machine, or at a moment, where that loop does. The project's database is never touched
(see ``bench/README.md``)::

    .venv/bin/python bench/print_bench.py
    .venv/bin/python bench/print_bench.py --only standings_xlsx
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/print_bench.py
    .venv/bin/python bench/print_bench.py --players 5000 --repeat 2 --only standings_pdf,score_sheets_pdf
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
GOALS_S = {"standings_pdf": 5.0, "standings_xlsx": 2.0, "score_sheets_pdf": 10.0}
REPEAT_GOAL_S = 0.05  # a repeated download of an unchanged export, served from the storage
MEMORY_GOAL_MIB = 400  # peak resident memory of the parent and of each child (the floor: one process)
FLOORED = ("standings_pdf", "score_sheets_pdf")  # timed against one WeasyPrint document of the same HTML
EXPORTERS = {  # benchmark name -> (exporter identifier, its parameters)
    "standings_pdf": ("standings-pdf", {}),
    "standings_xlsx": ("standings-xlsx", {}),
    "score_sheets_pdf": ("score-sheets", {"round": 1}),
    "hands_xlsx": ("hands-xlsx", {}),
    "hands_csv": ("hands-csv", {}),
    "table_results_pdf": ("results", {"round": 1}),
    "certificates_pdf": ("certificates", {"places": 3}),
}

sys.path.insert(0, str(Path(__file__).resolve().parent))
import entry_bench  # noqa: E402  (the tournament is built exactly as for the entry benchmark)


class TimeLimit(Exception):
    """An export ran longer than ``--limit``."""


def within(seconds: int, fn):
    """``fn()``, interrupted with :class:`TimeLimit` after ``seconds`` (SIGALRM; Unix, main thread)."""

    def expire(signum, frame):
        raise TimeLimit()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        return fn()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def speed_reference() -> float:
    """CPU seconds of a fixed pure-Python loop (10 million additions): how fast this machine runs
    Python right now. Shared or throttled CPUs vary by a factor of two from one hour to the next."""
    started = time.process_time()
    total = 0
    for i in range(10_000_000):
        total += i
    return round(time.process_time() - started, 3)


def reset_peak() -> None:
    """Start this process's peak resident memory (``VmHWM``) afresh (Linux; nothing elsewhere)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_mib(field: str = "VmHWM") -> float | None:
    """This process's peak resident memory since :func:`reset_peak` (``field="VmRSS"``: its
    resident memory now), in MiB (Linux)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def git_commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                               text=True, timeout=10)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def page_texts(content: bytes) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(BytesIO(content)).pages]


def pages(content: bytes) -> int | None:
    if not content.startswith(b"%PDF"):
        return None
    from pypdf import PdfReader

    return len(PdfReader(BytesIO(content)).pages)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000, help="registered players (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="measured calls per export (default 3)")
    parser.add_argument(
        "--limit", type=int, default=120, help="abort an export whose first call takes longer (seconds, default 120)"
    )
    parser.add_argument("--keep-db", action="store_true", help="do not delete the benchmark database")
    parser.add_argument("--db-prefix", default="tarock_bench",
                        help="PostgreSQL: the benchmark's own database is <prefix>_<pid> (default tarock_bench)")
    parser.add_argument(
        "--only", default="", help="comma-separated exports to run (default: all), e.g. standings_xlsx,standings_pdf"
    )
    args = parser.parse_args(argv)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    import tempfile

    os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="print-bench-")  # rendered exports, removed by the OS's tmp cleaning
    db_url, cleanup = entry_bench.own_database(os.environ.get("DATABASE_URL", ""), prefix=args.db_prefix)
    try:
        entry_bench.setup_django(db_url)
        from django.core.management import call_command
        from django.db import connection
        from django.test import RequestFactory
        from django.test.utils import CaptureQueriesContext
        from django.utils.translation import get_language

        from scoring.exporters.base import get_exporter, params_key, storage_name, store
        from scoring.exporters.views import ExportView
        from scoring.models import Hand
        from tournaments.versioning import stamp

        started = time.perf_counter()
        log(f"print_bench: {connection.vendor} database {connection.settings_dict['NAME']}")
        call_command("migrate", verbosity=0)
        built_at = time.perf_counter()
        built = entry_bench.build(args.players, 0, log)
        build_s = time.perf_counter() - built_at
        t, director = built["tournament"], built["director"]
        rnd = t.round_set.get(number=1)
        n_tables = rnd.tables.count()
        hands = Hand.objects.filter(table__round=rnd).count()
        log(f"  built in {build_s:.1f} s; round 1: {n_tables} tables")

        factory = RequestFactory()

        def render(identifier, params):
            exporter = get_exporter(identifier)
            return lambda: exporter.render(t, params)

        def download(identifier, params, content):
            """Keep ``content`` as the view would, then time the view's answer from the storage."""
            t.refresh_from_db()
            exporter = get_exporter(identifier)
            name = storage_name(t.pk, identifier, params_key(params), get_language(), stamp(t.data_version, t.created),
                                exporter.format.extension)
            store(name, content)
            query = "&".join(f"{k}={v}" for k, v in params.items() if k != "round")
            request = factory.get(f"/export/{identifier}/?{query}", secure=True)
            request.user = director
            kwargs = {"number": params["round"]} if "round" in params else {}
            w0 = time.perf_counter()
            response = ExportView.as_view()(request, pk=t.pk, identifier=identifier, **kwargs)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            took = time.perf_counter() - w0
            assert response.status_code == 200 and body == content, (identifier, response.status_code)
            return took

        ops = {op: render(identifier, params) for op, (identifier, params) in EXPORTERS.items()}
        if args.only:
            unknown = set(args.only.split(",")) - set(ops)
            if unknown:
                parser.error(f"--only: unknown export {', '.join(sorted(unknown))} (one of {', '.join(ops)})")
            ops = {op: fn for op, fn in ops.items() if op in args.only.split(",")}
        def floor(op):
            """The same HTML as one WeasyPrint document here (rendered once, not timed)."""
            from django.template.loader import render_to_string

            from scoring.exporters import builtin
            from scoring.standings import compute_standings
            from tournaments import pdf

            if op == "standings_pdf":
                html = render_to_string("exporters/standings_pdf.html", {
                    "standings": compute_standings(t), "tournament": t, "ruleset": t.get_ruleset()})
                return lambda: pdf.html_to_pdf(html)
            captured = []
            real = builtin.html_parts_to_pdf
            builtin.html_parts_to_pdf = lambda parts, progress=None, total=None: captured.append(list(parts)) or b""
            try:
                get_exporter("score-sheets").render(t, {"round": 1})
            finally:
                builtin.html_parts_to_pdf = real
            return lambda: pdf._parts_here(captured[0], None)

        load_before = [round(x, 2) for x in os.getloadavg()]
        reference_before = speed_reference()
        results = {}
        for op, fn in ops.items():
            try:
                first = time.perf_counter()
                within(args.limit, fn)  # warm-up: WeasyPrint's fonts, template loading
            except TimeLimit:
                results[op] = {"n": 0, "aborted_after_s": args.limit, "goal_s": GOALS_S.get(op), "met": False}
                log(f"  {op}: aborted after {args.limit} s")
                continue
            first = time.perf_counter() - first
            from tournaments import pdf as chunked

            floor_fn = floor(op) if op in FLOORED else None
            if floor_fn is not None:
                floor_fn()  # warm-up
            wall, cpu, queries, peaks, child_peaks, child_cpu, chunks = [], [], [], [], [], [], []
            floor_wall, floor_peaks, growths = [], [], []
            for _ in range(args.repeat):
                if floor_fn is not None:
                    reset_peak()
                    w0 = time.perf_counter()
                    floor_content = floor_fn()
                    floor_wall.append(time.perf_counter() - w0)
                    floor_peaks.append(peak_mib())
                chunked.last_print = chunked.PrintStats()
                reset_peak()
                rss_before = peak_mib("VmRSS")
                with CaptureQueriesContext(connection) as ctx:
                    w0, c0 = time.perf_counter(), time.process_time()
                    content = fn()
                    wall.append(time.perf_counter() - w0)
                    cpu.append(time.process_time() - c0)
                peaks.append(peak_mib())
                if peaks[-1] is not None and rss_before is not None:
                    growths.append(peaks[-1] - rss_before)
                child_peaks.append(round(chunked.last_print.child_peak_mib, 1))
                child_cpu.append(round(chunked.last_print.child_cpu_s, 2))
                chunks.append(chunked.last_print.chunks)
                queries.append(len(ctx.captured_queries))
            repeated = [download(*EXPORTERS[op], content) for _ in range(3)]
            results[op] = {
                "n": args.repeat,
                "repeat_download_s": round(statistics.median(repeated[1:]), 4),
                "first_s": round(first, 3),
                "median_s": round(statistics.median(wall), 3),
                "min_s": round(min(wall), 3),
                "max_s": round(max(wall), 3),
                "cpu_median_s": round(statistics.median(cpu), 3),
                "queries": max(queries),
                "bytes": len(content),
                "pages": pages(content),
            }
            results[op].update({
                "peak_mib": max(p for p in peaks if p is not None) if any(peaks) else None,
                "rss_before_mib": rss_before,  # the benchmark's own (the built tournament): the peak's floor
                "chunks": max(chunks),
                "processes": chunked.processes() if max(chunks) else 1,
                "child_peak_mib": max(child_peaks),
                "child_cpu_median_s": statistics.median(child_cpu),
                "replans": chunked.last_print.replans,
            })
            if floor_fn is not None:
                floor_median = statistics.median(floor_wall)
                results[op].update({
                    "floor_median_s": round(floor_median, 3),
                    "floor_min_s": round(min(floor_wall), 3),
                    "ratio": round(statistics.median(wall) / floor_median, 3),
                    "floor_peak_mib": max(p for p in floor_peaks if p is not None) if any(floor_peaks) else None,
                    "memory_goal_mib": MEMORY_GOAL_MIB,
                })
                results[op]["faster_than_floor"] = results[op]["ratio"] < 1
                results[op]["same_text_as_floor"] = page_texts(content) == page_texts(floor_content)
                # the export's own: what this process grew by during the call (its memory before is
                # the benchmark's built tournament, not the export's), and the busiest child
                grown = max(growths, default=0.0)
                results[op]["peak_growth_mib"] = round(grown, 1)
                results[op]["memory_met"] = max(grown, results[op]["child_peak_mib"]) < MEMORY_GOAL_MIB
            if op in GOALS_S:
                results[op]["goal_s"] = GOALS_S[op]
                results[op]["met"] = (
                    results[op]["median_s"] < GOALS_S[op] and results[op]["repeat_download_s"] < REPEAT_GOAL_S
                )
            log(f"  {op}: {results[op]['median_s']:.2f} s")

        import django
        import openpyxl
        import weasyprint
        from openpyxl.xml import LXML

        reference_after = speed_reference()
        if LXML:
            from lxml import etree

            lxml_version = ".".join(map(str, etree.LXML_VERSION[:3]))
        else:
            lxml_version = None  # openpyxl writes its XML with the standard library

        report = {
            "benchmark": "print",
            "database": connection.vendor,
            "players": args.players,
            "tables_round_1": n_tables,
            "hands_round_1": hands,
            "repeat": args.repeat,
            "build_seconds": round(build_s, 1),
            "total_seconds": round(time.perf_counter() - started, 1),
            "load_average_before": load_before,
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "commit": git_commit(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "django": django.get_version(),
            "weasyprint": weasyprint.__version__,
            "openpyxl": openpyxl.__version__,
            "lxml": lxml_version,
            "speed_reference_s": {"before": reference_before, "after": reference_after},
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "results": results,
        }
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"print-{connection.vendor}-{args.players}.json"
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        print(f"\nTiroler Tarockcup, {args.players} players, round 1: {n_tables} tables — {connection.vendor}, "
              f"WeasyPrint {weasyprint.__version__}, openpyxl {openpyxl.__version__} "
              f"({'lxml ' + lxml_version if lxml_version else 'without lxml'}), build {build_s:.0f} s")
        print(f"{'export':<20}{'n':>3}{'median s':>10}{'min s':>8}{'max s':>8}{'cpu s':>8}{'queries':>9}{'pages':>7}"
              f"{'again ms':>10}  goal")
        for op, r in results.items():
            goal = (
                f"< {r['goal_s']:.0f} s, again < {REPEAT_GOAL_S * 1000:.0f} ms: {'met' if r['met'] else 'MISSED'}"
                if r.get("goal_s")
                else ""
            )
            if "aborted_after_s" in r:
                print(f"{op:<20}{0:>3}{'> ' + str(r['aborted_after_s']):>10}  (aborted: first call over the limit)  {goal}")
                continue
            print(f"{op:<20}{r['n']:>3}{r['median_s']:>10.2f}{r['min_s']:>8.2f}{r['max_s']:>8.2f}{r['cpu_median_s']:>8.2f}"
                  f"{r['queries']:>9}{r['pages'] if r['pages'] is not None else '':>7}"
                  f"{r['repeat_download_s'] * 1000:>10.1f}  {goal}")
        print(f"\n{'vs one WeasyPrint document':<28}{'floor s':>9}{'ratio':>7}{'chunks':>8}{'peak MiB':>10}"
              f"{'child MiB':>11}{'floor MiB':>11}{'RSS before':>12}{'grown':>7}")
        for op, r in results.items():
            if "floor_median_s" in r:
                print(f"{op:<28}{r['floor_median_s']:>9.2f}{r['ratio']:>7.2f}{r['chunks']:>8}"
                      f"{r['peak_mib'] or 0:>10.0f}"
                      f"{r['child_peak_mib']:>11.0f}{r['floor_peak_mib'] or 0:>11.0f}{r['rss_before_mib'] or 0:>12.0f}"
                      f"{r['peak_growth_mib']:>7.0f}"
                      f"  {'faster' if r['faster_than_floor'] else 'SLOWER'}, "
                      f"{'same text' if r['same_text_as_floor'] else 'TEXT DIFFERS'}, "
                      f"memory {'met' if r['memory_met'] else 'MISSED'}")
        print(f"commit {report['commit']}; load average {load_before} before")
        print(f"load average (1 min) after: {report['load_average_after']} on {os.cpu_count()} CPUs; "
              f"speed reference (10M additions) {reference_before:.2f} s before, {reference_after:.2f} s after")
        print(f"results: {out.relative_to(ROOT)}")
        return 0 if all(r["met"] for r in results.values() if "met" in r) else 1
    finally:
        entry_bench.release_database("print_bench", db_url, cleanup, args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
