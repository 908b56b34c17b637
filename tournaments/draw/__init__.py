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

The package keeps one job a module: :mod:`.sizes` (§1 table sizes), :mod:`.base` (what a draw is:
:class:`RoundDraw`, the modes, who met whom), :mod:`.search` (one round's tables), :mod:`.joint`
(all rounds at once), :mod:`.cards` (§2 seats by card) and :mod:`.modes` (a whole draw from one
seed).
"""

from .base import DrawMode, Past, RoundDraw, round_seed
from .cards import seat_by_cards
from .joint import draw_all_rounds
from .modes import draw_round, draw_with_mode
from .search import draw_random_tables, draw_tables, draw_tables_by_standings
from .sizes import SeatingImpossible, plan_table_sizes

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
