"""A whole draw from one seed in the tournament's mode: :func:`draw_round` and :func:`draw_with_mode`."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .base import DrawMode, Past, RoundDraw, _Entries, _next_round, _past_entries, round_seed
from .cards import Seating, _seat_tables
from .joint import draw_all_rounds
from .search import draw_random_tables, draw_tables, draw_tables_by_standings
from .sizes import plan_table_sizes


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
