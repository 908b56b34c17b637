"""The seating draw of a tournament round: table sizes, tables, seats.

Pure Python, no Django (the tournament views and models call it and store the results). The rules are
``tournament-formats.md``:

- §1 "Table sizes": :func:`plan_table_sizes` splits ``n`` players into tables, using as many tables of
  the preferred size as possible, and refuses counts that cannot be seated with
  :class:`SeatingImpossible`, naming the nearest counts that work.
- §2 "Seating drawn by card", part 1 "Tables": :func:`draw_tables` assigns players to tables at random
  from a recorded seed, avoiding players meeting again as far as the numbers allow, and reports the
  repeats that remain.
- §2 part 2 "Seats": :func:`seat_by_cards` deals each player of a table one card of a small ordered set
  and seats them by it.

:func:`draw_round` ties the three together so that a whole round is reproducible from one seed.

Players are any hashable values (usually player ids); the functions never compare or sort them, so
the order in which the caller passes ``players`` is part of the input (pass them in a stable order,
e.g. by id, to reproduce a draw).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from variants.base import Problem, _

__all__ = [
    "SeatingImpossible",
    "plan_table_sizes",
    "RoundDraw",
    "draw_tables",
    "seat_by_cards",
    "draw_round",
]


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


@dataclass(frozen=True)
class RoundDraw:
    """The table draw of one round (``tournament-formats.md`` §2, part 1 "Tables").

    - ``seed``: the seed the draw was made from (store it; the same inputs and seed reproduce it);
    - ``tables``: the players of each table, in table order, ``len(tables[i]) == table_sizes[i]``;
      within a table the players keep the order of the ``players`` argument (the seats are drawn
      separately, :func:`seat_by_cards`);
    - ``repeats``: the pairs ``(p, q)`` who sit together again although they already met at a table
      in ``past``, by table, each pair in the order of ``players``; empty when nobody meets again.
    """

    seed: int
    tables: tuple[tuple[Hashable, ...], ...]
    repeats: tuple[tuple[Hashable, Hashable], ...]


# Search effort of draw_tables: restarts, steps without improvement before a restart (plus a multiple
# of n), and a cap on the swap evaluations of one draw (keeps 1000 players well under a second).
_RESTARTS = 10
_STALL_BASE = 50
_STALL_PER_PLAYER = 5
_EVALUATION_BUDGET = 600_000


def _search(
    n: int, sizes: Sequence[int], partners: list[set[int]], rng: random.Random
) -> list[int]:
    """Table index of each player 0..n-1, minimising pairs of ``partners`` at one table.

    Random start, then tabu search over swaps of two players at different tables: a random player
    who meets a past partner swaps with the player elsewhere giving the best change of the repeat
    count (ties broken at random; recently swapped players are tabu unless the swap gives a new
    best). Restarts from a fresh shuffle when a run stalls; stops at zero repeats or when the budget
    is spent. Only ``rng`` introduces randomness, and the result does not depend on the iteration
    order of the ``partners`` sets.
    """
    T = len(sizes)
    best_cost: int | None = None
    best_tab: list[int] = []
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
        if best_cost == 0 or evaluations >= _EVALUATION_BUDGET:
            break
    return best_tab


def draw_tables(
    players: Sequence[Hashable],
    table_sizes: Sequence[int],
    seed: int,
    past: Iterable[Iterable[Hashable]] = (),
) -> RoundDraw:
    """Draw the tables of a round at random (``tournament-formats.md`` §2, part 1 "Tables").

    ``players`` are distinct hashables; ``table_sizes`` (usually from :func:`plan_table_sizes`) must
    add up to ``len(players)``. ``past`` holds the earlier tables, each element the players of one
    table (any iterable; players no longer in ``players`` are ignored). Two players "met" if they sat
    at one earlier table.

    The draw minimises the number of pairs who meet again: random start from
    ``random.Random(seed)``, then local search (swaps between tables that reduce the repeats, tabu
    moves across plateaus) with a few restarts, within a fixed budget (1000 players at 250 tables
    with 2 earlier rounds take a fraction of a second). It reaches zero repeats whenever that is
    easily possible (e.g. 22 players over 3 rounds) and otherwise few; the remaining repeats are
    reported in :attr:`RoundDraw.repeats`. With ``past`` empty the draw is a plain random one.

    Fully reproducible: the same ``players`` (in the same order), ``table_sizes``, ``seed`` and
    ``past`` give the same draw, whatever the iteration order of ``past`` and its tables.

    Raises ``ValueError`` if the sizes do not add up to the number of players, a size is not
    positive, or a player is listed twice.
    """
    players = list(players)
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
    n = len(players)

    partners: list[set[int]] = [set() for _ in range(n)]
    for table in past:
        seated = sorted({index[p] for p in table if p in index})
        for k, i in enumerate(seated):
            for j in seated[k + 1:]:
                partners[i].add(j)
                partners[j].add(i)

    rng = random.Random(seed)
    tab = _search(n, sizes, partners, rng) if n else []

    by_table: list[list[int]] = [[] for _ in sizes]
    for i in range(n):
        by_table[tab[i]].append(i)
    repeats = []
    for table in by_table:
        for k, i in enumerate(table):
            for j in table[k + 1:]:
                if j in partners[i]:
                    repeats.append((players[i], players[j]))
    return RoundDraw(
        seed=seed,
        tables=tuple(tuple(players[i] for i in table) for table in by_table),
        repeats=tuple(repeats),
    )


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


def draw_round(
    players: Sequence[Hashable],
    sizes: tuple[int, ...],
    preferred: int,
    max_other: int | None,
    seed: int,
    past: Iterable[Iterable[Hashable]],
    cards_for_size: Callable[[int], Sequence[Any]],
) -> tuple[RoundDraw, list[list[tuple[Hashable, Any]]]]:
    """Plan, draw and seat a whole round from one ``seed`` (``tournament-formats.md`` §1 and §2).

    Plans the table sizes with :func:`plan_table_sizes` (may raise :class:`SeatingImpossible`), draws
    the tables with :func:`draw_tables` and seats each table ``i`` with :func:`seat_by_cards`, dealing
    ``cards_for_size(len(table))`` from ``random.Random(f"{seed}:seats:{i}")``. Returns the
    :class:`RoundDraw` and, per table, its ``[(player, card), ...]`` in seat order; the whole result
    is reproducible from the seed.
    """
    players = list(players)
    table_sizes = plan_table_sizes(len(players), sizes, preferred, max_other)
    draw = draw_tables(players, table_sizes, seed, past)
    seatings = [
        seat_by_cards(table, cards_for_size(len(table)), random.Random(f"{seed}:seats:{i}"))
        for i, table in enumerate(draw.tables)
    ]
    return draw, seatings
