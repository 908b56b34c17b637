"""Every round at once (the Wiener Tarockcup draws all rounds at the start): a joint search that
spreads the unavoidable repeat meetings over the whole schedule."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from .base import (
    DrawMode,
    Past,
    RoundDraw,
    _add_meetings,
    _by_table,
    _check_players,
    _make_draw,
    _meetings,
    _next_round,
    _past_entries,
    _repeat_count,
    round_seed,
)
from .search import _search

# Search effort of draw_all_rounds, in swap evaluations (as _search): per attempt, for the whole draw
# (the round-by-round draws of fresh starts count too), attempts in a row without a better total
# before giving up, and the random swaps ("kicks") made after steps without improvement.
_JOINT_ATTEMPT_BASE = 200_000
_JOINT_ATTEMPT_PER_PLAYER = 500
_JOINT_BUDGET_BASE = 4_000_000
_JOINT_BUDGET_PER_PLAYER = 2_000
_JOINT_PATIENCE = 12
_KICK_AFTER = 300
_KICK_SWAPS = 3


def _greedy_schedule(
    n: int, round_sizes: Sequence[Sequence[int]], seeds: Sequence[int], past_partners: list[set[int]]
) -> tuple[list[list[int]], int]:
    """Round by round, each drawn by :func:`_search` against the past and the rounds before it
    (exactly what :func:`draw_tables` gives round by round); returns the assignments and the
    evaluations spent."""
    partners = [set(s) for s in past_partners]
    tabs = []
    evaluations = 0
    for sizes, s in zip(round_sizes, seeds):
        if n:
            tab, _, spent = _search(n, sizes, partners, random.Random(s))
            evaluations += spent
        else:
            tab = []
        tabs.append(tab)
        for table in _by_table(tab, len(sizes)):
            for k, i in enumerate(table):
                for j in table[k + 1:]:
                    partners[i].add(j)
                    partners[j].add(i)
    return tabs, evaluations


def _schedule_repeats(n: int, tabs: Sequence[Sequence[int]], round_sizes, past_partners) -> list[int]:
    """The repeat count of each round of a schedule: pairs at one table who met in ``past`` or in
    an earlier round of the schedule."""
    seen = [set(s) for s in past_partners]
    counts = []
    for tab, sizes in zip(tabs, round_sizes):
        tables = _by_table(tab, len(sizes))
        counts.append(_repeat_count(tables, seen))
        for table in tables:
            for k, i in enumerate(table):
                for j in table[k + 1:]:
                    seen[i].add(j)
                    seen[j].add(i)
    return counts


def _joint_search(
    n: int,
    round_sizes: Sequence[Sequence[int]],
    past_partners: list[set[int]],
    start: Sequence[Sequence[int]],
    rng: random.Random,
    budget: int,
) -> tuple[list[list[int]], int, int]:
    """Improve a schedule of several rounds (``start[r][p]``: table of player p in round r) by tabu
    search over swaps of two players of one round, minimising the total repeats.

    The total is ``sum over pairs of max(0, m - 1)``, ``m`` the number of the schedule's rounds the
    pair shares a table in, plus one if they met in the past; it equals the sum of the rounds' repeat
    counts in any order of the rounds. Each step evaluates every swap of a player who meets someone
    again (in any round) with every player at another table of that round and makes the best one
    (ties at random; recently swapped players are tabu unless the swap gives a new best); after
    ``_KICK_AFTER`` steps without a new best a few random swaps shake the schedule up. Stops at
    zero or when ``budget`` evaluations are spent. Returns the best schedule, its total and the
    evaluations spent. Only ``rng`` introduces randomness (sets and dicts are only used in ways that
    do not depend on their iteration order).
    """
    R = len(round_sizes)
    tabs = [list(t) for t in start]
    movable = [r for r in range(R) if len(round_sizes[r]) > 1]
    # met[p][x] = m for the pairs with m >= 1 (see above).
    met: list[dict[int, int]] = [dict.fromkeys(past_partners[p], 1) for p in range(n)]
    members: list[list[list[int]]] = []
    pos: list[list[int]] = []
    for r in range(R):
        tables = _by_table(tabs[r], len(round_sizes[r]))
        where = [0] * n
        for table in tables:
            for k, x in enumerate(table):
                where[x] = k
                mx = met[x]
                for y in table[k + 1:]:
                    m = mx.get(y, 0) + 1
                    mx[y] = m
                    met[y][x] = m
        members.append(tables)
        pos.append(where)
    cost = sum(m - 1 for p in range(n) for q, m in met[p].items() if q > p)
    best_cost, best_tabs = cost, [t[:] for t in tabs]
    if cost == 0 or not movable:
        return best_tabs, best_cost, 0

    # cnt[r][p][t]: players x at table t in round r (x != p) whom p meets in another round or met in
    # the past, i.e. m - [p and x share a table in round r] >= 1. A swap of p (table a) and q (table
    # b) in round r changes the total by cnt[p][b] + cnt[q][a] - cnt[p][a] - cnt[q][b]
    # - 2 * [p and q meet elsewhere].
    cnt: list[list[list[int]]] = []
    for r in range(R):
        tab = tabs[r]
        T = len(round_sizes[r])
        rows = []
        for p in range(n):
            row = [0] * T
            tp = tab[p]
            for x, m in met[p].items():
                tx = tab[x]
                if m > 1 or tx != tp:
                    row[tx] += 1
            rows.append(row)
        cnt.append(rows)

    def change(r: int, u: int, x: int, d: int) -> None:
        """``met[u][x] += d`` for a swap in round r, and the counts of the other rounds."""
        m = met[u].get(x, 0)
        if m + d:
            met[u][x] = met[x][u] = m + d
        else:
            del met[u][x], met[x][u]
        for r2 in range(R):
            if r2 == r:
                continue
            t2 = tabs[r2]
            tu, tx = t2[u], t2[x]
            before = m - (tu == tx)
            if (d < 0 and before == 1) or (d > 0 and before == 0):
                cnt[r2][u][tx] += d
                cnt[r2][x][tu] += d

    def swap(r: int, p: int, q: int) -> None:
        tab = tabs[r]
        rows = cnt[r]
        a, b = tab[p], tab[q]
        for x, m in met[p].items():
            if m > 1 or tab[x] != a:
                row = rows[x]
                row[a] -= 1
                row[b] += 1
        for x, m in met[q].items():
            if m > 1 or tab[x] != b:
                row = rows[x]
                row[b] -= 1
                row[a] += 1
        table_a, table_b = members[r][a], members[r][b]
        for x in table_a:
            if x != p:
                change(r, p, x, -1)
                change(r, q, x, +1)
        for y in table_b:
            if y != q:
                change(r, p, y, +1)
                change(r, q, y, -1)
        tab[p], tab[q] = b, a
        where = pos[r]
        table_a[where[p]], table_b[where[q]] = q, p
        where[p], where[q] = where[q], where[p]

    tabu = [[0] * n for _ in range(R)]
    tenure_cap = max(1, min(10, n // 4))
    step = stall = kicks = evaluations = 0
    while cost > 0 and evaluations < budget:
        step += 1
        evaluations += 1
        if stall >= _KICK_AFTER:
            stall, kicks = 0, _KICK_SWAPS
        if kicks:
            kicks -= 1
            r = movable[rng.randrange(len(movable))]
            tab = tabs[r]
            p = rng.randrange(n)
            q = rng.randrange(n)
            while tab[q] == tab[p]:
                q = rng.randrange(n)
            rows = cnt[r]
            a, b = tab[p], tab[q]
            delta = rows[p][b] + rows[q][a] - rows[p][a] - rows[q][b] - (2 if q in met[p] else 0)
        else:
            best_delta: int | None = None
            candidates: list[tuple[int, int, int]] = []
            for r in movable:
                tab = tabs[r]
                rows = cnt[r]
                tabu_r = tabu[r]
                for p in range(n):
                    a = tab[p]
                    cp = rows[p]
                    pa = cp[a]
                    if not pa:
                        continue
                    near = met[p]
                    p_tabu = tabu_r[p] > step
                    evaluations += n
                    for q in range(n):
                        b = tab[q]
                        if b == a:
                            continue
                        cq = rows[q]
                        delta = cp[b] + cq[a] - pa - cq[b]
                        if q in near:
                            delta -= 2
                        if (p_tabu or tabu_r[q] > step) and cost + delta >= best_cost:
                            continue
                        if best_delta is None or delta < best_delta:
                            best_delta, candidates = delta, [(r, p, q)]
                        elif delta == best_delta:
                            candidates.append((r, p, q))
            if best_delta is None:
                stall += 1
                continue
            r, p, q = rng.choice(candidates)
            delta = best_delta
        swap(r, p, q)
        cost += delta
        tabu[r][p] = tabu[r][q] = step + 1 + rng.randrange(tenure_cap)
        if cost < best_cost:
            best_cost, best_tabs, stall = cost, [t[:] for t in tabs], 0
        else:
            stall += 1
    return best_tabs, best_cost, evaluations


def draw_all_rounds(
    players: Sequence[Hashable],
    table_sizes: Sequence[int] | Sequence[Sequence[int]],
    rounds: int,
    seed: int,
    past: Past = (),
    first_round: int | None = None,
) -> list[RoundDraw]:
    """Draw ``rounds`` rounds at once, minimising the total repeats over all of them
    (:attr:`DrawMode.ALL_AT_START`; the Wiener Tarockcup draws the tables of all rounds at the start).

    ``table_sizes`` is either one list of sizes used in every round (usually from
    :func:`plan_table_sizes`) or one list per round (``len(table_sizes) == rounds``). ``past`` as in
    :func:`draw_tables` (rounds already played). The planned rounds are numbered ``first_round``,
    ``first_round + 1``, ... in :attr:`RoundDraw.repeat_rounds`; by default one after the highest
    known round number in ``past``, else 1. The same players sit in every round (if the field
    changes, draw the remaining rounds again with the played ones as ``past``).

    How: attempt 0 is the round-by-round draw (round ``k`` drawn by :func:`draw_tables` from
    :func:`round_seed` ``(seed, k)`` against ``past`` and the rounds before it, exactly what
    :func:`draw_with_mode` gives in ``avoid_repeats`` mode). If it has repeats, a tabu search over
    swaps within any round improves the whole schedule, first from attempt 0, then from fresh
    round-by-round starts, until the total is zero (or another evident minimum: the pairs seated
    beyond those who never met), the evaluation budget is spent, or ``_JOINT_PATIENCE`` attempts in
    a row found no better total. The schedule with the lowest total
    wins (the earliest on ties), so the total is never above the round-by-round one. This reaches
    zero where the round-by-round draw gets stuck, e.g. 16 players in 5 rounds of four 4-tables (a
    schedule in which nobody meets twice: the affine plane of order 4) or 22 players over 4 rounds.

    Returns one :class:`RoundDraw` per round, in order. Round ``k``'s ``repeats`` are its pairs who
    met in ``past`` or in an earlier round of the schedule (the sum over the rounds is the minimised
    total); its ``attempt_repeats`` are its repeat counts in each attempt's schedule (attempt 0:
    round by round), the same ``attempts`` for every round; its ``seed`` is :func:`round_seed`
    ``(seed, k)`` (used for its seats by :func:`draw_with_mode`). The whole schedule is reproduced
    from the first round's seed, ``seed``, with the same arguments (whatever the iteration order of
    ``past``).

    Raises ``ValueError`` for a negative ``rounds``, a wrong number of size lists, or as
    :func:`draw_tables`.
    """
    players = list(players)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
        raise ValueError(f"rounds must be an int >= 0, got {rounds!r}")
    table_sizes = list(table_sizes)
    if table_sizes and not isinstance(table_sizes[0], int):
        round_sizes = [list(s) for s in table_sizes]
        if len(round_sizes) != rounds:
            raise ValueError(f"{len(round_sizes)} lists of table sizes for {rounds} rounds")
    else:
        round_sizes = [table_sizes] * rounds
    if not round_sizes:
        return []
    for sizes in round_sizes:
        index = _check_players(players, sizes)
    n = len(players)
    entries = _past_entries(past)
    if first_round is None:
        first_round = _next_round(entries)
    met = _meetings(n, index, entries)
    past_partners = [set(m) for m in met]

    seeds = [round_seed(seed, k) for k in range(rounds)]
    greedy, used = _greedy_schedule(n, round_sizes, seeds, past_partners)
    best_tabs = greedy
    attempt_counts = [_schedule_repeats(n, greedy, round_sizes, past_partners)]
    best_total = sum(attempt_counts[0])

    # No schedule has fewer repeats than the pairs seated beyond the pairs that never met.
    seated_pairs = sum(size * (size - 1) // 2 for sizes in round_sizes for size in sizes)
    fresh_pairs = n * (n - 1) // 2 - sum(len(s) for s in past_partners) // 2
    lower_bound = max(0, seated_pairs - fresh_pairs)

    if best_total > lower_bound and any(len(s) > 1 for s in round_sizes):
        rng = random.Random(f"{seed}:all_rounds")
        attempt_budget = _JOINT_ATTEMPT_BASE + _JOINT_ATTEMPT_PER_PLAYER * n
        budget = _JOINT_BUDGET_BASE + _JOINT_BUDGET_PER_PLAYER * n
        start = greedy
        without_better = 0
        while best_total > lower_bound and used < budget and without_better < _JOINT_PATIENCE:
            if start is None:
                fresh = [rng.getrandbits(62) for _ in range(rounds)]
                start, spent = _greedy_schedule(n, round_sizes, fresh, past_partners)
                used += spent
            tabs, total, spent = _joint_search(
                n, round_sizes, past_partners, start, rng, max(1, min(attempt_budget, budget - used))
            )
            used += spent
            counts = _schedule_repeats(n, tabs, round_sizes, past_partners)
            attempt_counts.append(counts)
            if total < best_total:
                best_tabs, best_total, without_better = tabs, total, 0
            else:
                without_better += 1
            start = None

    draws = []
    for k, (tab, sizes) in enumerate(zip(best_tabs, round_sizes)):
        tables = _by_table(tab, len(sizes))
        draws.append(
            _make_draw(players, tables, met, seeds[k], [c[k] for c in attempt_counts], DrawMode.ALL_AT_START)
        )
        for table in tables:
            _add_meetings(met, table, first_round + k)
    return draws
