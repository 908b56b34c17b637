#!/usr/bin/env python
"""Benchmark of the seating draw on large fields.

Draws three rounds (tables and seats) with :mod:`tournaments.draw` for

- 1,000 players at Königrufen tables (sizes 4/5, preferred 4: 250 tables of 4), and
- 999 players at Cego/Bled tables (sizes 3/4, preferred 3, at most two 4-tables: 333 tables of 3),

each in two modes:

- ``avoid_repeats``: one :func:`~tournaments.draw.draw_round` per round, each avoiding the rounds
  before it (as ``tournaments.services.draw_next_round`` draws a round when it is due);
- ``all_at_start``: one :func:`~tournaments.draw.draw_with_mode` call for all three rounds, minimising
  the repeats over all of them (the Wiener Tarockcup draws all rounds at the start).

Prints the wall-clock time of the whole draw (``time.perf_counter``; per round too for
``avoid_repeats``) and the repeat meetings per round and in total, for ``--seeds`` seeds (the time
shown is the slowest seed's). Goals: under 2 s per mode and field for all three rounds, and zero
repeats (these fields are far too large for anyone to have to meet again). The exit status is 1
when a goal is missed.

``--small`` adds small fields where drawing round by round gets stuck (16 players in 5 rounds of
four 4-tables, 22 players in 4 rounds, 13 players in 3 rounds), for information: the repeats of
``avoid_repeats`` against ``all_at_start``. Pure Python, no database. Run from the project root::

    .venv/bin/python bench/draw_bench.py [--seeds 3] [--small]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.draw import DrawMode, draw_round, draw_with_mode  # noqa: E402

GOAL_SECONDS = 2.0
SEED = 6006
ROUNDS = 3
FIELDS = [
    # name, players, sizes, preferred, max_other
    ("Königrufen", 1000, (4, 5), 4, None),
    ("Cego/Bled", 999, (3, 4), 3, 2),
]
SMALL_FIELDS = [
    ("Königrufen", 16, (4, 5), 4, None, 5),
    ("Königrufen", 22, (4, 5), 4, None, 4),
    ("Königrufen", 13, (4, 5), 4, None, 3),
    ("Cego/Bled", 12, (3, 4), 3, 2, 4),
]


def cards_for_size(size: int) -> list[str]:
    return ["Tarock", "Herz", "Karo", "Pik", "Kreuz"][:size]


def run(mode: DrawMode, players: list[int], sizes, preferred, max_other, rounds: int, seed: int):
    """Draw ``rounds`` rounds; returns (total seconds, seconds per round or None, RoundDraws)."""
    if mode is DrawMode.AVOID_REPEATS:
        past: dict[int, list] = {}
        draws, per_round = [], []
        start = time.perf_counter()
        for number in range(1, rounds + 1):
            t0 = time.perf_counter()
            draw, _seatings = draw_round(
                players, sizes, preferred, max_other, seed + number, past, cards_for_size
            )
            per_round.append(time.perf_counter() - t0)
            past[number] = list(draw.tables)
            draws.append(draw)
        return time.perf_counter() - start, per_round, draws
    start = time.perf_counter()
    result = draw_with_mode(
        mode, players, sizes, preferred, max_other, seed, {}, cards_for_size, rounds=rounds
    )
    return time.perf_counter() - start, None, [draw for draw, _seatings in result]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="runs per mode and field (default 3)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"first seed (default {SEED})")
    parser.add_argument("--small", action="store_true", help="also the small fields (information)")
    args = parser.parse_args(argv)

    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seeds} seed(s) from {args.seed}")
    print(f"Goals: all {ROUNDS} rounds under {GOAL_SECONDS:.0f} s, zero repeats\n")
    header = f"{'field':<24} {'mode':<14} {'time (s)':>9}  {'per round (s)':<20} {'repeats per round':<18} {'total':>5}"
    print(header)
    print("-" * len(header))
    missed = []
    for name, n, sizes, preferred, max_other in FIELDS:
        players = list(range(1, n + 1))
        for mode in (DrawMode.AVOID_REPEATS, DrawMode.ALL_AT_START):
            worst_time, worst_rounds, repeats = 0.0, None, []
            for s in range(args.seed, args.seed + args.seeds):
                seconds, per_round, draws = run(mode, players, sizes, preferred, max_other, ROUNDS, s)
                counts = [len(d.repeats) for d in draws]
                repeats.append(counts)
                if seconds >= worst_time:
                    worst_time, worst_rounds = seconds, per_round
            per_round_text = " / ".join(f"{t:.2f}" for t in worst_rounds) if worst_rounds else "(one call)"
            worst_counts = max(repeats, key=sum)
            total = sum(worst_counts)
            field = f"{name} {n} ({'/'.join(map(str, sizes))})"
            print(f"{field:<24} {mode.value:<14} {worst_time:>9.2f}  {per_round_text:<20} "
                  f"{' / '.join(map(str, worst_counts)):<18} {total:>5}")
            if worst_time >= GOAL_SECONDS:
                missed.append(f"{field} {mode.value}: {worst_time:.2f} s")
            if total:
                missed.append(f"{field} {mode.value}: {total} repeats")

    if args.small:
        print("\nSmall fields (information): total repeats per seed, time (s) of the slowest seed")
        for name, n, sizes, preferred, max_other, rounds in SMALL_FIELDS:
            players = list(range(1, n + 1))
            line = f"{name} {n} x {rounds} rounds"
            for mode in (DrawMode.AVOID_REPEATS, DrawMode.ALL_AT_START):
                totals, worst_time = [], 0.0
                for s in range(args.seed, args.seed + args.seeds):
                    seconds, _per_round, draws = run(mode, players, sizes, preferred, max_other, rounds, s)
                    totals.append(sum(len(d.repeats) for d in draws))
                    worst_time = max(worst_time, seconds)
                line += f"   {mode.value}: totals {totals} ({worst_time:.2f} s)"
            print(line)

    print()
    if missed:
        print("Goals missed: " + "; ".join(missed))
        return 1
    print("All goals met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
