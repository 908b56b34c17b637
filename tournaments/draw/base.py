"""The draw's vocabulary (``tournament-formats.md`` §2): a round's draw with its report
(:class:`RoundDraw`), the modes, earlier rounds (:data:`Past`), who met whom, and seeds."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Union

#: Earlier tables: an iterable of tables (rounds unknown) or ``{round_number: [table, ...]}``.
Past = Union[Iterable[Iterable[Hashable]], Mapping[int, Iterable[Iterable[Hashable]]]]


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


def _repeat_count(tables: Iterable[Sequence[int]], met: Sequence[Mapping[int, Any]]) -> int:
    return sum(1 for table in tables for k, i in enumerate(table) for j in table[k + 1:] if j in met[i])
