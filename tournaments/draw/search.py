"""One round's tables (``tournament-formats.md`` §2, part 1): a local search that avoids players
meeting again, pure random tables, and tables of consecutive ranks (the draw by standings)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from .base import (
    DrawMode,
    Past,
    RoundDraw,
    _by_table,
    _check_players,
    _make_draw,
    _meetings,
    _past_entries,
    _repeat_count,
)

# Search effort of draw_tables: restarts, steps without improvement before a restart (plus a multiple
# of n), and a cap on the swap evaluations of one draw (keeps 1000 players well under a second).
_RESTARTS = 10
_STALL_BASE = 50
_STALL_PER_PLAYER = 5
_EVALUATION_BUDGET = 600_000


def _search(
    n: int, sizes: Sequence[int], partners: list[set[int]], rng: random.Random
) -> tuple[list[int], list[int], int]:
    """Table index of each player 0..n-1, minimising pairs of ``partners`` at one table.

    Random start, then tabu search over swaps of two players at different tables: a random player
    who meets a past partner swaps with the player elsewhere giving the best change of the repeat
    count (ties broken at random; recently swapped players are tabu unless the swap gives a new
    best). Restarts from a fresh shuffle when a run stalls; stops at zero repeats or when the budget
    is spent. Only ``rng`` introduces randomness, and the result does not depend on the iteration
    order of the ``partners`` sets.

    Returns the best assignment, the lowest repeat count of each run (attempt), and the number of
    swap evaluations spent.
    """
    T = len(sizes)
    best_cost: int | None = None
    best_tab: list[int] = []
    attempt_costs: list[int] = []
    evaluations = 0
    stall_limit = _STALL_BASE + _STALL_PER_PLAYER * n
    tenure_cap = max(1, min(10, n // 4))

    for _run in range(_RESTARTS):
        order = list(range(n))
        rng.shuffle(order)
        tab = [0] * n
        pos = [0] * n
        members: list[list[int]] = []
        start = 0
        for t, size in enumerate(sizes):
            table = order[start:start + size]
            for i, p in enumerate(table):
                tab[p] = t
                pos[p] = i
            members.append(table)
            start += size
        # cnt[p][t]: past partners of p now sitting at table t.
        cnt = [[0] * T for _ in range(n)]
        for p in range(n):
            row = cnt[p]
            for q in partners[p]:
                row[tab[q]] += 1
        cost = sum(cnt[p][tab[p]] for p in range(n)) // 2
        if best_cost is None or cost < best_cost:
            best_cost, best_tab = cost, tab[:]
        if cost == 0 or T == 1:
            attempt_costs.append(cost)
            break

        run_best = cost
        tabu_until = [0] * n
        step = stall = 0
        while stall < stall_limit and evaluations < _EVALUATION_BUDGET:
            step += 1
            conflicted = [p for p in range(n) if cnt[p][tab[p]]]
            p = rng.choice(conflicted)
            a = tab[p]
            cp = cnt[p]
            pa = cp[a]
            near = partners[p]
            best_delta: int | None = None
            candidates: list[int] = []
            for q in range(n):
                b = tab[q]
                if b == a:
                    continue
                cq = cnt[q]
                delta = cp[b] + cq[a] - pa - cq[b]
                if q in near:
                    delta -= 2
                if tabu_until[q] > step and cost + delta >= run_best:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, candidates = delta, [q]
                elif delta == best_delta:
                    candidates.append(q)
            evaluations += n
            if best_delta is None:
                stall += 1
                continue

            q = rng.choice(candidates)
            b = tab[q]
            for r in near:
                cnt[r][a] -= 1
                cnt[r][b] += 1
            for r in partners[q]:
                cnt[r][b] -= 1
                cnt[r][a] += 1
            tab[p], tab[q] = b, a
            members[a][pos[p]], members[b][pos[q]] = q, p
            pos[p], pos[q] = pos[q], pos[p]
            cost += best_delta
            tenure = 1 + rng.randrange(tenure_cap)
            tabu_until[p] = tabu_until[q] = step + tenure

            if cost < run_best:
                run_best, stall = cost, 0
                if cost < best_cost:
                    best_cost, best_tab = cost, tab[:]
                    if cost == 0:
                        break
            else:
                stall += 1
        attempt_costs.append(run_best)
        if best_cost == 0 or evaluations >= _EVALUATION_BUDGET:
            break
    return best_tab, attempt_costs, evaluations


def draw_tables(
    players: Sequence[Hashable],
    table_sizes: Sequence[int],
    seed: int,
    past: Past = (),
) -> RoundDraw:
    """Draw the tables of a round at random, avoiding repeats (``tournament-formats.md`` §2, part 1
    "Tables"; :attr:`DrawMode.AVOID_REPEATS`).

    ``players`` are distinct hashables; ``table_sizes`` (usually from :func:`plan_table_sizes`) must
    add up to ``len(players)``. ``past`` holds the earlier tables in either form described in the
    module docstring (an iterable of tables, or ``{round_number: [table, ...]}``).

    The draw minimises the number of pairs who meet again: random start from
    ``random.Random(seed)``, then local search (swaps between tables that reduce the repeats, tabu
    moves across plateaus) with a few restarts (the ``attempts``), within a fixed budget (1000
    players at 250 tables with 2 earlier rounds take a fraction of a second). It reaches zero
    repeats whenever that is easily possible (e.g. 22 players over 3 rounds) and otherwise few; the
    remaining repeats are reported in :attr:`RoundDraw.repeats` (the draw is the best attempt, so
    ``len(repeats) == best_repeats``). With ``past`` empty the draw is a plain random one.

    Fully reproducible: the same ``players`` (in the same order), ``table_sizes``, ``seed`` and
    ``past`` give the same draw, whatever the iteration order of ``past`` and its tables; the form
    of ``past`` changes only ``repeat_rounds``.

    Raises ``ValueError`` if the sizes do not add up to the number of players, a size is not
    positive, a player is listed twice, or a round number in ``past`` is not an int.
    """
    players = list(players)
    sizes = list(table_sizes)
    index = _check_players(players, sizes)
    n = len(players)
    met = _meetings(n, index, _past_entries(past))
    partners = [set(m) for m in met]
    if n:
        tab, attempt_costs, _ = _search(n, sizes, partners, random.Random(seed))
    else:
        tab, attempt_costs = [], [0]
    return _make_draw(players, _by_table(tab, len(sizes)), met, seed, attempt_costs, DrawMode.AVOID_REPEATS)


def draw_random_tables(
    players: Sequence[Hashable],
    table_sizes: Sequence[int],
    seed: int,
    past: Past = (),
) -> RoundDraw:
    """Plain random tables (:attr:`DrawMode.RANDOM`): ``players`` shuffled by ``random.Random(seed)``
    and cut into tables of ``table_sizes``; ``past`` does not influence the tables at all, it is
    only used to report the repeats (and their rounds). ``attempts`` is 1 and ``best_repeats`` is
    ``len(repeats)``. Arguments and errors as :func:`draw_tables`.
    """
    players = list(players)
    sizes = list(table_sizes)
    index = _check_players(players, sizes)
    n = len(players)
    order = list(range(n))
    random.Random(seed).shuffle(order)
    tab = [0] * n
    start = 0
    for t, size in enumerate(sizes):
        for i in order[start:start + size]:
            tab[i] = t
        start += size
    met = _meetings(n, index, _past_entries(past))
    tables = _by_table(tab, len(sizes))
    return _make_draw(players, tables, met, seed, [_repeat_count(tables, met)], DrawMode.RANDOM)


def draw_tables_by_standings(
    players: Sequence[Hashable],
    table_sizes: Sequence[int],
    seed: int,
    past: Past = (),
) -> RoundDraw:
    """Tables of consecutive ranks (:attr:`DrawMode.BY_STANDINGS`, the Tarok Bled option).

    ``players`` must be in standings order, best first (the caller breaks ties); table ``i`` gets
    the next ``table_sizes[i]`` players, so with the planned sizes ``[4, 3, 3]`` ranks 1–4, 5–7 and
    8–10 sit together (the planned sizes put larger tables first, i.e. at the top). Within a table
    the players stay in standings order. ``seed`` is only recorded (the seats are still drawn by
    card from it, :func:`draw_round`); ``past`` is only used to report the repeats. Arguments and
    errors otherwise as :func:`draw_tables`.
    """
    players = list(players)
    sizes = list(table_sizes)
    index = _check_players(players, sizes)
    n = len(players)
    tables = []
    start = 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    met = _meetings(n, index, _past_entries(past))
    return _make_draw(players, tables, met, seed, [_repeat_count(tables, met)], DrawMode.BY_STANDINGS)
