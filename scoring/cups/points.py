"""Season cups: cup points per tournament result and the season table, pure Python.

Nothing here touches Django: :mod:`scoring.cups.table` gathers the results from the database and
asks these functions. The point methods and the counting rules are
``../shared/rules/tournament-formats.md`` §4; its Decisions of 2026-11-23 settle shared ranks and
the table's tie-breaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor

TIROL, WTC_FIXPUNKTE, HEINE = "tirol", "wtc_fixpunkte", "heine"
METHODS = (TIROL, WTC_FIXPUNKTE, HEINE)

# tournament-formats.md §4, "WTC Fixpunkte": ranks 1–50, then 0.
WTC_FIXED = (
    223, 198, 180, 168, 156, 147, 138, 131, 124, 117, 110, 105, 100, 95, 90, 85, 80, 76, 72, 68,
    64, 60, 56, 52, 49, 46, 43, 40, 37, 34, 31, 28, 26, 24, 22, 20, 18, 16, 14, 12,
    10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
)


def round_half_up(value: Fraction) -> int:
    """``value`` rounded to the nearest whole number, halves up (``168.5`` → 169, ``-0.5`` → 0)."""
    return floor(value + Fraction(1, 2))


def cup_points(method: str, rank: int, field_size: int, total: float | None = None) -> int:
    """The cup points of rank ``rank`` (1 = winner) among ``field_size`` ranked players
    (``tournament-formats.md`` §4):

    - ``"tirol"``: ``round_half_up(200 × ((N − r)/(N − 1))³)``, the last place 0 (**Decision**: a
      field of one player gets 200);
    - ``"wtc_fixpunkte"``: the fixed table of ranks 1–50, then 0;
    - ``"heine"``: from the tournament total ``total`` (``P ≤ 0`` → 0, ``P ≤ 100`` → ``P``,
      ``100 < P < 300`` → ``100 + floor((P − 100)/2)``, ``P ≥ 300`` → 200; a fractional ``P``
      up to 100 is rounded down).

    Raises ``ValueError`` for an unknown method, a rank outside ``1..field_size``, or Heine
    without a total.
    """
    if method not in METHODS:
        raise ValueError(f"unknown cup point method {method!r}")
    if not 1 <= rank <= field_size:
        raise ValueError(f"rank {rank} is not in 1..{field_size}")
    if method == TIROL:
        if field_size == 1:
            return 200
        return round_half_up(200 * Fraction(field_size - rank, field_size - 1) ** 3)
    if method == WTC_FIXPUNKTE:
        return WTC_FIXED[rank - 1] if rank <= len(WTC_FIXED) else 0
    if total is None:
        raise ValueError("Heine points need the tournament total")
    points = Fraction(total)
    if points <= 0:
        return 0
    if points <= 100:
        return floor(points)
    if points < 300:
        return 100 + floor((points - 100) / 2)
    return 200


def shared_points(method: str, rank: int, sharing: int, field_size: int, total: float | None = None) -> int:
    """The cup points of each of ``sharing`` players who share final rank ``rank``: the points of
    the places ``rank .. rank + sharing − 1`` they occupy, averaged and rounded half up
    (``tournament-formats.md`` §4, Decision 2026-11-23: two players 3rd of 37 under the Tirol
    formula get (168 + 154) / 2 = 161 each). Heine points come from each player's own total, so
    a shared rank changes nothing there. Raises ``ValueError`` as :func:`cup_points`."""
    if method == HEINE or sharing <= 1:
        return cup_points(method, rank, field_size, total)
    places = [cup_points(method, r, field_size, total) for r in range(rank, rank + sharing)]
    return round_half_up(Fraction(sum(places), sharing))


def results_counted(held: int, rule: str | int) -> int:
    """How many of a player's results count when ``held`` tournaments of the cup were held:
    ``"all"``, a number ``k`` (his best ``k``), or ``"half"`` — the Heine rule: the best
    ``floor(n/2)`` if more than 10 were held, else ``floor((n+1)/2)``
    (``tournament-formats.md`` §4). Raises ``ValueError`` for another rule or ``k < 1``."""
    if rule == "all":
        return held
    if rule == "half":
        return held // 2 if held > 10 else (held + 1) // 2
    if isinstance(rule, int) and not isinstance(rule, bool) and rule >= 1:
        return min(rule, held)
    raise ValueError(f"unknown counting rule {rule!r}")


@dataclass(frozen=True)
class Result:
    """One tournament result of a player: the tournament's ``key`` and its position ``order`` in
    the season (1 = first held), his ``rank`` there (``shared`` with others) and his cup
    ``points``."""

    key: object
    order: int
    rank: int
    points: int
    shared: bool = False


@dataclass
class CupRow:
    """A player's line of the cup table: his results (season order), which of them count (by
    ``key``), the counted ``total`` and his ``rank`` (``shared`` with the row above when every
    tie-break is level); ``tiebreak`` names what separated him from the row above."""

    player: object
    results: list[Result]
    counted: set = field(default_factory=set)
    total: int = 0
    rank: int = 0
    shared: bool = False
    tiebreak: str = ""

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def best(self) -> int:
        """His best single counted result (0 without one)."""
        return max((r.points for r in self.results if r.key in self.counted), default=0)


def counted_results(results: Sequence[Result], counted: int) -> set:
    """The keys of the ``counted`` best results (**Decision**: among equal points the more recent
    result counts, so the table changes as little as possible when an older one is corrected)."""
    ranked = sorted(results, key=lambda r: (-r.points, -r.order))
    return {r.key for r in ranked[:counted]}


def cup_table(players: dict[object, list[Result]], held: int, rule: str | int, season: Sequence[object]) -> list[CupRow]:
    """The cup table: every player with a result, best first. ``players``: his results by player;
    ``held``: tournaments held so far; ``rule``: :func:`results_counted`'s rule; ``season``: the
    tournament keys in the order held (for the last tie-break).

    Ranking (``tournament-formats.md`` §4, Decisions 2026-11-23): the counted total, then more
    counted results, then the best single counted result, then the more recent tournament: the
    one who did better in the latest tournament either of them played (his cup points there),
    going back tournament by tournament. Players level on all of these share the rank.
    ``tiebreak`` is one of ``""``, ``"counted"``, ``"best"``, ``"recent"``, ``"level"``.
    """
    counted = results_counted(held, rule) if held else 0
    rows = []
    for player, results in players.items():
        keys = counted_results(results, counted)
        rows.append(CupRow(player, sorted(results, key=lambda r: r.order), keys, sum(r.points for r in results if r.key in keys)))
    latest_first = list(reversed(list(season)))

    def recent(row: CupRow) -> tuple:
        mine = {r.key: r.points for r in row.results}
        return tuple(mine.get(key, -1) for key in latest_first)

    def key(row: CupRow) -> tuple:
        return (-row.total, -len(row.counted), -row.best, tuple(-p for p in recent(row)))

    rows.sort(key=key)
    for i, row in enumerate(rows):
        if i == 0:
            row.rank = 1
            continue
        above = rows[i - 1]
        if key(above) == key(row):
            row.rank, row.shared, row.tiebreak = above.rank, True, "level"
            continue
        row.rank = i + 1
        if above.total == row.total:
            if len(above.counted) != len(row.counted):
                row.tiebreak = "counted"
            elif above.best != row.best:
                row.tiebreak = "best"
            else:
                row.tiebreak = "recent"
    return rows


SHORT_NAME_LIMIT = 14  # characters of a column head in the cup table


def place_of(venue: str) -> str:
    """The town of a venue as venues are written, "Gasthof Post, Imst" → ``"Imst"`` (the part after
    the last comma; the whole venue without one), spaces trimmed."""
    return venue.rsplit(",", 1)[-1].strip()


def shorten(text: str, limit: int = SHORT_NAME_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with "…"."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def short_names(events: Sequence[tuple[str, str]], limit: int = SHORT_NAME_LIMIT) -> list[str]:
    """The cup table's column heads for the season's ``events`` (in order): each a ``(place, day)``
    pair, ``place`` the tournament's town (or ``""``), ``day`` its date as a short label.

    **Decision** (the tournaments have no short name of their own): a column is headed by its
    place, cut to ``limit`` characters; where two tournaments share a place, or one has none, by
    the place and the day, or the day alone; heads that are still equal (two on one day) get the
    tournament's number in the season, ``"(2)"``, as the list of the tournaments below the table
    numbers them."""
    places = [shorten(place, limit) for place, _day in events]
    once = Counter(p.casefold() for p in places if p)
    heads = []
    for (_place, day), place in zip(events, places):
        if place and once[place.casefold()] == 1:
            heads.append(place)
        else:
            heads.append(f"{place} {day}".strip())
    equal = Counter(h.casefold() for h in heads)
    return [f"{h} ({order})" if equal[h.casefold()] > 1 else h for order, h in enumerate(heads, start=1)]
