"""The seating draw of a tournament round: table sizes, tables, seats.

Pure Python, no Django (the tournament views and models call it and store the results). The rules are
``tournament-formats.md``:

- §1 "Table sizes": :func:`plan_table_sizes` splits ``n`` players into tables, using as many tables of
  the preferred size as possible, and refuses counts that cannot be seated with
  :class:`SeatingImpossible`, naming the nearest counts that work.
- §2 "Seating drawn by card", part 1 "Tables", in one of the :class:`DrawMode` modes:

  - ``avoid_repeats`` (default): :func:`draw_tables` assigns players to tables at random from a
    recorded seed, avoiding players meeting again as far as the numbers allow, and reports the
    repeats that remain;
  - ``all_at_start`` (Wiener Tarockcup practice): :func:`draw_all_rounds` draws several rounds at
    once, minimising the repeats over all of them together;
  - ``random``: :func:`draw_random_tables`, plain random tables, earlier meetings ignored;
  - ``by_standings`` (Tarok Bled option): :func:`draw_tables_by_standings`, tables of consecutive
    ranks.

  Every draw is a :class:`RoundDraw`, which also carries the report data: table sizes, the repeats
  with the rounds the pairs met in before, and the lowest repeat count the search found.
- §2 part 2 "Seats": :func:`seat_by_cards` deals each player of a table one card of a small ordered set
  and seats them by it.

:func:`draw_round` (one round) and :func:`draw_with_mode` (one or more rounds) tie these together so
that a whole draw is reproducible from one seed.

Players are any hashable values (usually player ids); the functions never compare or sort them, so
the order in which the caller passes ``players`` is part of the input (pass them in a stable order,
e.g. by id, to reproduce a draw; for ``by_standings`` in standings order).

**Earlier rounds** (``past`` everywhere) are given in one of two forms:

- an iterable of tables, each an iterable of players: ``[[1, 2, 3, 4], [5, 6, 7, 8], ...]``; the
  round each table belonged to is unknown, so :attr:`RoundDraw.repeat_rounds` shows ``None`` for it;
- a mapping ``{round_number: [table, ...]}``, e.g. ``{1: [[1, 2, 3, 4], ...], 2: [...]}``; the round
  numbers (ints) then appear in :attr:`RoundDraw.repeat_rounds`.

Players in ``past`` who are not in ``players`` (withdrawn) are ignored; two players "met" if they sat
at one earlier table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Union

from variants.base import Problem, _

__all__ = [
    "SeatingImpossible",
    "plan_table_sizes",
    "DrawMode",
    "Past",
    "RoundDraw",
    "round_seed",
    "draw_tables",
    "draw_random_tables",
    "draw_tables_by_standings",
    "draw_all_rounds",
    "seat_by_cards",
    "draw_round",
    "draw_with_mode",
]

#: Earlier tables: an iterable of tables (rounds unknown) or ``{round_number: [table, ...]}``.
Past = Union[Iterable[Iterable[Hashable]], Mapping[int, Iterable[Iterable[Hashable]]]]


# --------------------------------------------------------------------------------------------------
# §1 Table sizes
# --------------------------------------------------------------------------------------------------


class SeatingImpossible(ValueError):
    """``n`` players cannot be split into tables of the allowed sizes (``tournament-formats.md`` §1).

    Attributes:

    - ``n``: the refused player count;
    - ``nearest``: ``(below, above)``, the nearest seatable counts below and above ``n``; ``below`` is
      ``None`` when no smaller positive count works (e.g. 1–3 players at Königrufen);
    - ``problem``: a :class:`~variants.base.Problem` naming both counts, e.g. "11 players cannot be
      seated at tables of 4/5 players; the nearest counts that work are 10 or 12." It is also the
      exception's ``str``.
    """

    def __init__(self, n: int, nearest: tuple[int | None, int], problem: Problem):
        self.n = n
        self.nearest = nearest
        self.problem = problem
        super().__init__(str(problem))


def _check_sizes(sizes: Iterable[int], preferred: int, max_other: int | None) -> tuple[int, ...]:
    sizes = tuple(sorted(set(sizes)))
    if not sizes or any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in sizes):
        raise ValueError(f"table sizes must be positive integers, got {sizes!r}")
    if preferred not in sizes:
        raise ValueError(f"preferred size {preferred!r} is not one of the sizes {sizes!r}")
    if max_other is not None and max_other < 0:
        raise ValueError(f"max_other must be None or >= 0, got {max_other!r}")
    return sizes


def _fewest_tables(limit: int, others: tuple[int, ...]) -> list[int | None]:
    """``fewest[r]``: the fewest tables of sizes ``others`` holding exactly ``r`` players, else None."""
    fewest: list[int | None] = [0] + [None] * limit
    for r in range(1, limit + 1):
        options = [fewest[r - s] for s in others if s <= r and fewest[r - s] is not None]
        fewest[r] = min(options) + 1 if options else None
    return fewest


def _plan(
    n: int, others: tuple[int, ...], preferred: int, max_other: int | None, fewest: list[int | None]
) -> list[int] | None:
    """The plan for ``n`` (see :func:`plan_table_sizes`) or None; ``fewest`` must reach ``n``."""
    if n <= 0:
        return None
    for a in range(n // preferred, -1, -1):
        rest = n - a * preferred
        k = fewest[rest]
        if k is None or (max_other is not None and k > max_other):
            continue
        # Rebuild one fewest-table combination for ``rest``, taking the largest size first.
        tables = [preferred] * a
        while rest:
            s = next(s for s in sorted(others, reverse=True)
                     if s <= rest and fewest[rest - s] is not None and fewest[rest - s] == fewest[rest] - 1)
            tables.append(s)
            rest -= s
        return sorted(tables, reverse=True)
    return None


def plan_table_sizes(
    n: int, sizes: tuple[int, ...] = (4, 5), preferred: int = 4, max_other: int | None = None
) -> list[int]:
    """Table sizes for ``n`` players (``tournament-formats.md`` §1 "Table sizes").

    Uses as many tables of the ``preferred`` size as possible; the remaining players sit at the
    fewest tables of the other ``sizes``, at most ``max_other`` of them (``None``: no limit).

    - Königrufen (Wiener / Tiroler Tarockcup): ``sizes=(4, 5), preferred=4`` — ``N = 4a + 5b``;
    - Cego Ichenheim and Tarok Bled: ``sizes=(3, 4), preferred=3, max_other=2`` — ``N = 3a + 4b`` with
      at most two 4-tables (which always suffices).

    Returns the list of table sizes, larger tables first, e.g. ``[5, 5, 4, 4, 4]`` for 22 players at
    Königrufen, ``[4, 3, 3]`` for 10 players at Cego. Every player is seated exactly once:
    ``sum(result) == n``.

    Raises :class:`SeatingImpossible` for counts that cannot be seated (Königrufen 0–3, 6, 7, 11;
    Cego/Bled 0–2, 5), with the nearest counts that work; ``ValueError`` for a negative ``n`` or
    invalid ``sizes`` / ``preferred`` / ``max_other``; ``TypeError`` if ``n`` is not an ``int``.
    """
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"player count must be an int, got {n!r}")
    if n < 0:
        raise ValueError(f"player count must not be negative, got {n}")
    sizes = _check_sizes(sizes, preferred, max_other)
    others = tuple(s for s in sizes if s != preferred)
    # Some multiple of ``preferred`` lies in (n, n + preferred], so the nearest count above is there.
    limit = n + preferred
    fewest = _fewest_tables(limit, others)
    plan = _plan(n, others, preferred, max_other, fewest)
    if plan is not None:
        return plan

    below = next((m for m in range(n - 1, 0, -1) if _plan(m, others, preferred, max_other, fewest)), None)
    above = next(m for m in range(n + 1, limit + 1) if _plan(m, others, preferred, max_other, fewest))
    size_text = "/".join(str(s) for s in sizes)
    if below is None:
        problem = Problem(
            _("%(n)d players cannot be seated at tables of %(sizes)s players; "
              "the nearest count that works is %(above)d."),
            n=n, sizes=size_text, above=above,
        )
    else:
        problem = Problem(
            _("%(n)d players cannot be seated at tables of %(sizes)s players; "
              "the nearest counts that work are %(below)d or %(above)d."),
            n=n, sizes=size_text, below=below, above=above,
        )
    raise SeatingImpossible(n, (below, above), problem)


# --------------------------------------------------------------------------------------------------
# §2.1 Tables
# --------------------------------------------------------------------------------------------------


class DrawMode(StrEnum):
    """How the tables of a round are drawn (``tournament-formats.md`` §2, part 1 "Tables").

    A ``str`` enum: ``DrawMode.RANDOM == "random"``, and ``DrawMode("random")`` checks a stored value.

    - ``AVOID_REPEATS`` (default): random tables from the seed, avoiding players meeting again as far
      as the numbers allow (:func:`draw_tables`), one round at a time;
    - ``RANDOM``: plain random tables from the seed, earlier meetings ignored
      (:func:`draw_random_tables`; the repeats are still reported);
    - ``ALL_AT_START``: all remaining rounds drawn at once, minimising the repeats over all of them
      together (:func:`draw_all_rounds`; the Wiener Tarockcup draws the tables for all rounds at the
      start);
    - ``BY_STANDINGS`` (Tarok Bled option): players passed in standings order sit in tables of
      consecutive ranks (:func:`draw_tables_by_standings`).
    """

    AVOID_REPEATS = "avoid_repeats"
    RANDOM = "random"
    ALL_AT_START = "all_at_start"
    BY_STANDINGS = "by_standings"


@dataclass(frozen=True)
class RoundDraw:
    """The table draw of one round, with its report data (``tournament-formats.md`` §2, part 1).

    - ``seed``: the seed the round was drawn from (store it; the same inputs and seed reproduce it;
      for :func:`draw_all_rounds` see there);
    - ``tables``: the players of each table, in table order, ``len(tables[i]) == sizes[i]``; within a
      table the players keep the order of the ``players`` argument (the seats are drawn separately,
      :func:`seat_by_cards`);
    - ``repeats``: the pairs ``(p, q)`` who sit together again although they already met at a table
      in ``past`` (or, for :func:`draw_all_rounds`, in an earlier round of the same schedule), by
      table, each pair in the order of ``players``; empty when nobody meets again;
    - ``sizes``: the table sizes, ``tuple(len(t) for t in tables)``;
    - ``repeat_rounds``: for each pair of ``repeats`` (same index), the earlier rounds they met in,
      ascending, once per earlier table they shared; ``None`` for a meeting whose round is unknown
      (``past`` given as a plain iterable of tables), listed first;
    - ``attempt_repeats``: the repeat count of this round in each attempt of the search (restarts of
      :func:`draw_tables`' local search; the schedules of :func:`draw_all_rounds`, where attempt 0 is
      the plain round-by-round draw); one entry for the modes without a search;
    - ``attempts``: ``len(attempt_repeats)``, how many starts were tried;
    - ``best_repeats``: ``min(attempt_repeats)``, the lowest repeat count found for this round, for
      comparison with ``len(repeats)`` (equal for ``avoid_repeats``; for ``all_at_start`` a round
      may keep more repeats than its best attempt when that lowers the total over all rounds);
    - ``mode``: the :class:`DrawMode` value that made the draw.
    """

    seed: int
    tables: tuple[tuple[Hashable, ...], ...]
    repeats: tuple[tuple[Hashable, Hashable], ...]
    sizes: tuple[int, ...] = ()
    repeat_rounds: tuple[tuple[int | None, ...], ...] = ()
    best_repeats: int | None = None
    attempts: int | None = None
    attempt_repeats: tuple[int, ...] = ()
    mode: str = DrawMode.AVOID_REPEATS.value

    def __post_init__(self):
        # Fill the report fields a caller constructing a RoundDraw by hand may leave out.
        if not self.sizes and self.tables:
            object.__setattr__(self, "sizes", tuple(len(t) for t in self.tables))
        if not self.attempt_repeats:
            best = len(self.repeats) if self.best_repeats is None else self.best_repeats
            object.__setattr__(self, "attempt_repeats", (best,))
        if self.best_repeats is None:
            object.__setattr__(self, "best_repeats", min(self.attempt_repeats))
        if self.attempts is None:
            object.__setattr__(self, "attempts", len(self.attempt_repeats))


def round_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th round (0-based) of a draw of several rounds from ``seed``.

    Round 0 uses ``seed`` itself (so one round drawn by :func:`draw_with_mode` is the round drawn by
    :func:`draw_round` from the same seed); later rounds use a number derived from ``seed`` and ``k``
    (below ``2**62``).
    """
    if k == 0:
        return seed
    return random.Random(f"{seed}:round:{k}").getrandbits(62)


# One earlier table: (round number or None, players).
_Entry = tuple[Union[int, None], tuple[Hashable, ...]]


class _Entries(list):
    """Earlier tables already as ``(round, table)`` pairs (rounds partly known), used internally
    when several rounds are drawn in turn."""


def _past_entries(past: Past) -> list[_Entry]:
    """``past`` in either form (see the module docstring) as a list of ``(round, table)``."""
    if isinstance(past, _Entries):
        return list(past)
    if isinstance(past, Mapping):
        entries = []
        for rnd, tables in past.items():
            if not isinstance(rnd, int) or isinstance(rnd, bool):
                raise ValueError(f"round numbers in past must be ints, got {rnd!r}")
            entries.extend((rnd, tuple(table)) for table in tables)
        return entries
    return [(None, tuple(table)) for table in past]


def _next_round(entries: Iterable[_Entry]) -> int:
    """One after the highest known round number of ``entries``, else 1."""
    return max((rnd for rnd, _ in entries if rnd is not None), default=0) + 1


def _check_players(players: Sequence[Hashable], table_sizes: Sequence[int]) -> dict[Hashable, int]:
    """``{player: index}``; ValueError for bad sizes, sizes not seating everyone, duplicates."""
    sizes = list(table_sizes)
    if any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in sizes):
        raise ValueError(f"table sizes must be positive integers, got {sizes!r}")
    if sum(sizes) != len(players):
        raise ValueError(f"table sizes {sizes!r} seat {sum(sizes)} players, not {len(players)}")
    index: dict[Hashable, int] = {}
    for i, p in enumerate(players):
        if p in index:
            raise ValueError(f"player {p!r} is listed twice")
        index[p] = i
    return index


def _meetings(n: int, index: dict[Hashable, int], entries: Iterable[_Entry]) -> list[dict[int, list]]:
    """``met[i][j]``: the rounds (``None`` if unknown) of each earlier table players i and j shared."""
    met: list[dict[int, list]] = [{} for _ in range(n)]
    for rnd, table in entries:
        _add_meetings(met, sorted({index[p] for p in table if p in index}), rnd)
    return met


def _add_meetings(met: list[dict[int, list]], seated: Sequence[int], rnd: int | None) -> None:
    for k, i in enumerate(seated):
        for j in seated[k + 1:]:
            met[i].setdefault(j, []).append(rnd)
            met[j].setdefault(i, []).append(rnd)


def _round_order(rnd: int | None) -> tuple[bool, int]:
    return (rnd is not None, 0 if rnd is None else rnd)


def _by_table(tab: Sequence[int], table_count: int) -> list[list[int]]:
    """Player indices per table, each table in index order."""
    tables: list[list[int]] = [[] for _ in range(table_count)]
    for i, t in enumerate(tab):
        tables[t].append(i)
    return tables


def _make_draw(
    players: Sequence[Hashable],
    tables: list[list[int]],
    met: list[dict[int, list]],
    seed: int,
    attempt_repeats: Sequence[int],
    mode: DrawMode,
) -> RoundDraw:
    """The :class:`RoundDraw` of ``tables`` (player indices, each in index order) against ``met``."""
    repeats = []
    repeat_rounds = []
    for table in tables:
        for k, i in enumerate(table):
            for j in table[k + 1:]:
                rounds = met[i].get(j)
                if rounds:
                    repeats.append((players[i], players[j]))
                    repeat_rounds.append(tuple(sorted(rounds, key=_round_order)))
    return RoundDraw(
        seed=seed,
        tables=tuple(tuple(players[i] for i in table) for table in tables),
        repeats=tuple(repeats),
        sizes=tuple(len(table) for table in tables),
        repeat_rounds=tuple(repeat_rounds),
        best_repeats=min(attempt_repeats),
        attempts=len(attempt_repeats),
        attempt_repeats=tuple(attempt_repeats),
        mode=mode.value,
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


def _repeat_count(tables: Iterable[Sequence[int]], met: Sequence[Mapping[int, Any]]) -> int:
    return sum(1 for table in tables for k, i in enumerate(table) for j in table[k + 1:] if j in met[i])


# --------------------------------------------------------------------------------------------------
# §2.1 Tables for several rounds at once
# --------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------
# §2.2 Seats
# --------------------------------------------------------------------------------------------------


def seat_by_cards(
    players: Sequence[Hashable], cards: Sequence[Any], rng: random.Random
) -> list[tuple[Hashable, Any]]:
    """Deal each player of one table a card at random and seat them by it (``tournament-formats.md``
    §2, part 2 "Seats").

    ``cards`` are given in seat (playing) order: seat ``i`` gets ``cards[i]``. The caller orders them
    by its ruleset — Königrufen ``[Tarock, Herz, Karo, Pik, (Kreuz)]``, so the Tarock is seat 0,
    Vorhand of the first hand; Cego/Bled with the highest card first (the first dealer). Only the
    first ``len(players)`` cards are dealt.

    Returns ``[(player, card), ...]`` in seat order, every player exactly once; the same ``rng``
    state gives the same seating.

    Raises ``ValueError`` if there are fewer cards than players or a player is listed twice.
    """
    players = list(players)
    if len(cards) < len(players):
        raise ValueError(f"{len(cards)} cards cannot be dealt to {len(players)} players")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    order = players[:]
    rng.shuffle(order)
    return [(player, cards[i]) for i, player in enumerate(order)]


# --------------------------------------------------------------------------------------------------
# The whole round (or several)
# --------------------------------------------------------------------------------------------------

Seating = list[tuple[Hashable, Any]]


def _seat_tables(draw: RoundDraw, cards_for_size: Callable[[int], Sequence[Any]]) -> list[Seating]:
    return [
        seat_by_cards(table, cards_for_size(len(table)), random.Random(f"{draw.seed}:seats:{i}"))
        for i, table in enumerate(draw.tables)
    ]


def draw_round(
    players: Sequence[Hashable],
    sizes: tuple[int, ...],
    preferred: int,
    max_other: int | None,
    seed: int,
    past: Past,
    cards_for_size: Callable[[int], Sequence[Any]],
    mode: str = DrawMode.AVOID_REPEATS,
) -> tuple[RoundDraw, list[Seating]]:
    """Plan, draw and seat a whole round from one ``seed`` (``tournament-formats.md`` §1 and §2).

    Plans the table sizes with :func:`plan_table_sizes` (may raise :class:`SeatingImpossible`), draws
    the tables in ``mode`` (a :class:`DrawMode` value; default: :func:`draw_tables`) and seats each
    table ``i`` with :func:`seat_by_cards`, dealing ``cards_for_size(len(table))`` from
    ``random.Random(f"{seed}:seats:{i}")``. Returns the :class:`RoundDraw` and, per table, its
    ``[(player, card), ...]`` in seat order; the whole result is reproducible from the seed. Same as
    ``draw_with_mode(mode, ..., rounds=1)[0]``.
    """
    return draw_with_mode(mode, players, sizes, preferred, max_other, seed, past, cards_for_size)[0]


def draw_with_mode(
    mode: str,
    players: Sequence[Hashable],
    sizes: tuple[int, ...],
    preferred: int,
    max_other: int | None,
    seed: int,
    past: Past,
    cards_for_size: Callable[[int], Sequence[Any]],
    rounds: int = 1,
    first_round: int | None = None,
) -> list[tuple[RoundDraw, list[Seating]]]:
    """Plan, draw and seat the next ``rounds`` rounds in ``mode`` (a :class:`DrawMode` value) from one
    ``seed``; returns ``[(RoundDraw, seatings), ...]``, one per round, as :func:`draw_round`.

    The table sizes are planned once by :func:`plan_table_sizes` (may raise
    :class:`SeatingImpossible`); ``past`` holds the rounds played so far (either form of the module
    docstring). Round ``k`` (0-based) gets the seed :func:`round_seed` ``(seed, k)``, stored as its
    :attr:`RoundDraw.seed`, and its table ``i`` is seated from ``f"{round seed}:seats:{i}"``; so one
    round (``rounds=1``) is seated and, except ``all_at_start``, drawn exactly as
    :func:`draw_round` with the same seed.

    - ``avoid_repeats``: :func:`draw_tables` round by round, each round avoiding ``past`` and the
      rounds drawn before it; (usually ``rounds=1``: draw each round when it is due).
    - ``random``: :func:`draw_random_tables` for each round; earlier meetings are ignored.
    - ``all_at_start``: :func:`draw_all_rounds` for all ``rounds`` together (pass all the rounds the
      tournament has left at its start).
    - ``by_standings``: :func:`draw_tables_by_standings`, ``players`` in standings order; only one
      round at a time (``rounds=1``), as the standings change.

    With several rounds, the planned rounds are numbered ``first_round``, ... in ``repeat_rounds``
    (default: one after the highest known round number in ``past``, else 1).

    Raises ``ValueError`` for an unknown mode, ``rounds < 1``, or ``by_standings`` with more than
    one round, and as the functions above.
    """
    mode = DrawMode(mode)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise ValueError(f"rounds must be an int >= 1, got {rounds!r}")
    if mode is DrawMode.BY_STANDINGS and rounds != 1:
        raise ValueError("by_standings draws one round at a time (the standings change)")
    players = list(players)
    table_sizes = plan_table_sizes(len(players), sizes, preferred, max_other)

    if mode is DrawMode.ALL_AT_START:
        draws = draw_all_rounds(players, table_sizes, rounds, seed, past, first_round)
    elif mode is DrawMode.BY_STANDINGS:
        draws = [draw_tables_by_standings(players, table_sizes, seed, past)]
    else:
        draw_one = draw_tables if mode is DrawMode.AVOID_REPEATS else draw_random_tables
        if rounds == 1:
            draws = [draw_one(players, table_sizes, seed, past)]
        else:
            entries = _Entries(_past_entries(past))
            if first_round is None:
                first_round = _next_round(entries)
            draws = []
            for k in range(rounds):
                draw = draw_one(players, table_sizes, round_seed(seed, k), entries)
                draws.append(draw)
                entries.extend((first_round + k, table) for table in draw.tables)
    return [(draw, _seat_tables(draw, cards_for_size)) for draw in draws]
