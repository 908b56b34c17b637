"""Season cups: cup points per tournament result and the season table, pure Python.

Nothing here touches Django: :mod:`scoring.cups.table` gathers the results from the database and
asks these functions. The point methods and the counting rules are
``../shared/rules/tournament-formats.md`` §4; its Decisions of 2026-11-23 settle shared ranks, its
revision of 2026-11-26 the table's tie-breaks, the best half from the planned tournaments and the
Wiener Tarockcup final's negative ranks. The Ö-Finale's Vorrundenpunkte tables are
``../shared/rules/koenigrufen-raiffeisen.md`` §6.9.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor, inf

TIROL, WTC_FIXPUNKTE, HEINE = "tirol", "wtc_fixpunkte", "heine"
METHODS = (TIROL, WTC_FIXPUNKTE, HEINE)

# Orders of players level on the cup total (tournament-formats.md §4, revised 2026-11-26).
BEST_RESULTS, MORE_RESULTS_FIRST = "best_results", "more_results_first"
TIEBREAKS = (BEST_RESULTS, MORE_RESULTS_FIRST)

# tournament-formats.md §4, the Wiener Tarockcup final to 2019/20: ranks above this score
# −(rank − FINAL_POSITIVE_RANKS); a qualifier absent from the final −(entrants − 49).
FINAL_POSITIVE_RANKS = 50

# tournament-formats.md §4, "WTC Fixpunkte": ranks 1–50, then 0.
WTC_FIXED = (
    223, 198, 180, 168, 156, 147, 138, 131, 124, 117, 110, 105, 100, 95, 90, 85, 80, 76, 72, 68,
    64, 60, 56, 52, 49, 46, 43, 40, 37, 34, 31, 28, 26, 24, 22, 20, 18, 16, 14, 12,
    10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
)


# koenigrufen-raiffeisen.md §6.9, "Vorrundenpunkte tables found" (ABAKUS ``showHeinewertung.js``
# ``tOF``): the Ö-Finale Vorrundenpunkte of cup season ranks 1, 2, 3, … (ten a line). A rank past
# the end of its table did not qualify. Which table a cup uses is the cup's ``oe_finale_table``.
VORRUNDENPUNKTE: dict[str, tuple[int, ...]] = {
    # 40 ranks: ABAKUS cups 51, 54, 55 (Kärnten, Steiermark, Tirol).
    "40": (
        120, 109, 100, 93, 87, 82, 78, 73, 69, 64,
        60, 57, 53, 50, 46, 43, 41, 38, 35, 33,
        31, 29, 27, 25, 23, 22, 20, 19, 18, 17,
        16, 15, 14, 13, 13, 12, 12, 11, 11, 11,
    ),
    # 60 ranks: the ABAKUS default, cup 56 (WTC), 50 and 52 (HRC, RTC).
    "60": (
        120, 111, 104, 98, 95, 91, 88, 84, 81, 78,
        75, 72, 69, 66, 63, 61, 58, 56, 53, 51,
        49, 47, 45, 43, 41, 39, 37, 36, 34, 32,
        31, 30, 28, 27, 26, 25, 24, 23, 22, 21,
        20, 19, 18, 17, 17, 16, 15, 15, 14, 14,
        13, 13, 13, 12, 12, 12, 11, 11, 11, 11,
    ),
    # 80 ranks: ABAKUS cup 53 (Sauwald).
    "80": (
        120, 112, 106, 101, 98, 96, 93, 90, 88, 85,
        83, 80, 78, 76, 73, 71, 69, 67, 65, 63,
        61, 59, 57, 55, 53, 52, 50, 48, 47, 45,
        44, 42, 41, 40, 38, 37, 36, 35, 33, 32,
        31, 30, 29, 28, 27, 26, 25, 24, 24, 23,
        22, 21, 21, 20, 19, 19, 18, 18, 17, 17,
        16, 16, 15, 15, 14, 14, 14, 13, 13, 13,
        13, 12, 12, 12, 12, 11, 11, 11, 11, 11,
    ),
}


def vorrundenpunkte(table_key: str, rank: int) -> int | None:
    """The Ö-Finale Vorrundenpunkte of cup season rank ``rank`` (1 = cup winner) under the table
    ``table_key`` (``"40"``, ``"60"`` or ``"80"``, :data:`VORRUNDENPUNKTE`), or ``None`` past the
    table's end: the player did not qualify through this cup (``koenigrufen-raiffeisen.md`` §6.9;
    players sharing a cup rank each get that rank's value). Raises ``KeyError`` for an unknown
    table and ``ValueError`` for a rank below 1."""
    table = VORRUNDENPUNKTE[table_key]
    if rank < 1:
        raise ValueError(f"rank {rank} is below 1")
    return table[rank - 1] if rank <= len(table) else None


def round_half_up(value: Fraction) -> int:
    """``value`` rounded to the nearest whole number, halves up (``168.5`` → 169, ``-0.5`` → 0)."""
    return floor(value + Fraction(1, 2))


def cup_points(method: str, rank: int, field_size: int, total: float | None = None, final: bool = False) -> int:
    """The cup points of rank ``rank`` (1 = winner) among ``field_size`` ranked players
    (``tournament-formats.md`` §4):

    - ``"tirol"``: ``round_half_up(200 × ((N − r)/(N − 1))³)``, the last place 0 (**Decision**: a
      field of one player gets 200);
    - ``"wtc_fixpunkte"``: the fixed table of ranks 1–50, then 0;
    - ``"heine"``: from the tournament total ``total`` (``P ≤ 0`` → 0, ``P ≤ 100`` → ``P``,
      ``100 < P < 300`` → ``100 + floor((P − 100)/2)``, ``P ≥ 300`` → 200; a fractional ``P``
      up to 100 is rounded down).

    ``final``: the rank is one of the cup's final under the Wiener Tarockcup's rule to 2019/20
    (cup option ``wtc_final_negative``): ranks from 51 on score ``−(rank − 50)`` (51 → −1, 60 →
    −10); ranks 1–50 score as the method gives.

    Raises ``ValueError`` for an unknown method, a rank outside ``1..field_size``, or Heine
    without a total.
    """
    if method not in METHODS:
        raise ValueError(f"unknown cup point method {method!r}")
    if not 1 <= rank <= field_size:
        raise ValueError(f"rank {rank} is not in 1..{field_size}")
    if final and rank > FINAL_POSITIVE_RANKS:
        return -(rank - FINAL_POSITIVE_RANKS)
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


def absent_from_final_points(entrants: int) -> int:
    """The cup points of a final qualifier who does not play the final of ``entrants`` players,
    under the Wiener Tarockcup's rule to 2019/20: ``−(entrants − 49)`` (a field of 70 → −21: one
    place below the last, whose rank 70 scores −20) (``tournament-formats.md`` §4, revised
    2026-11-26). **Decision** (the rule is silent on a final of fewer than 50): never more than
    0, so staying away never earns points. Raises ``ValueError`` for a negative field."""
    if entrants < 0:
        raise ValueError(f"a final of {entrants} players")
    return min(0, -(entrants - (FINAL_POSITIVE_RANKS - 1)))


def shared_points(
    method: str, rank: int, sharing: int, field_size: int, total: float | None = None, final: bool = False
) -> int:
    """The cup points of each of ``sharing`` players who share final rank ``rank``: the points of
    the places ``rank .. rank + sharing − 1`` they occupy, averaged and rounded half up
    (``tournament-formats.md`` §4, Decision 2026-11-23: two players 3rd of 37 under the Tirol
    formula get (168 + 154) / 2 = 161 each). Heine points come from each player's own total, so
    a shared rank changes nothing there (below rank 50 of a negative final it does). ``final``:
    as :func:`cup_points`. Raises ``ValueError`` as :func:`cup_points`."""
    if sharing <= 1 or (method == HEINE and not (final and rank + sharing - 1 > FINAL_POSITIVE_RANKS)):
        return cup_points(method, rank, field_size, total, final)
    places = [cup_points(method, r, field_size, total, final) for r in range(rank, rank + sharing)]
    return round_half_up(Fraction(sum(places), sharing))


def results_counted(held: int, rule: str | int, planned: int | None = None) -> int:
    """How many of a player's results count when ``held`` tournaments of the cup were held:
    ``"all"``, a number ``k`` (his best ``k``), or ``"half"`` — the Heine rule on ``n``
    tournaments: the best ``floor(n/2)`` if more than 10, else ``floor((n+1)/2)``
    (``tournament-formats.md`` §4). For ``"half"``, ``n`` is the number ``planned`` for the
    season (held and still scheduled, never fewer than ``held``) when the cup records one, else
    ``held`` (§4, revised 2026-11-26: 12 planned and 5 held → the best 6). Raises ``ValueError``
    for another rule or ``k < 1``."""
    if rule == "all":
        return held
    if rule == "half":
        n = max(planned, held) if planned else held
        return n // 2 if n > 10 else (n + 1) // 2
    if isinstance(rule, int) and not isinstance(rule, bool) and rule >= 1:
        return min(rule, held)
    raise ValueError(f"unknown counting rule {rule!r}")


@dataclass(frozen=True)
class Result:
    """One tournament result of a player: the tournament's ``key`` and its position ``order`` in
    the season (1 = first held), his ``rank`` there (``shared`` with others) and his cup
    ``points``. ``absent``: he qualified for the cup's final and did not play it (rank 0; the
    points of :func:`absent_from_final_points`)."""

    key: object
    order: int
    rank: int
    points: int
    shared: bool = False
    absent: bool = False


@dataclass
class CupRow:
    """A player's line of the cup table: his results (season order), which of them count (by
    ``key``), the counted ``total`` and his ``rank`` (``shared`` with the row above when every
    tie-break is level); ``tiebreak`` names what separated him from the row above (see
    :func:`cup_table`), ``tiebreak_place`` which counted result did (1 = his best) when that
    was it."""

    player: object
    results: list[Result]
    counted: set = field(default_factory=set)
    total: int = 0
    rank: int = 0
    shared: bool = False
    tiebreak: str = ""
    tiebreak_place: int = 0

    @property
    def played(self) -> int:
        """The tournaments he played (a final he stayed away from is not one)."""
        return sum(1 for r in self.results if not r.absent)

    @property
    def best(self) -> int:
        """His best single counted result (0 without one)."""
        return max((r.points for r in self.results if r.key in self.counted), default=0)

    @property
    def counted_points(self) -> list[int]:
        """His counted results' points, best first."""
        return sorted((r.points for r in self.results if r.key in self.counted), reverse=True)


def counted_results(results: Sequence[Result], counted: int) -> set:
    """The keys of the ``counted`` best results (**Decision**: among equal points the more recent
    result counts, so the table changes as little as possible when an older one is corrected)."""
    ranked = sorted(results, key=lambda r: (-r.points, -r.order))
    return {r.key for r in ranked[:counted]}


def _best_first_key(points: list[int]) -> tuple:
    """A sort key on a row's counted points (best first) that puts the better list first: the
    higher best result, then second best, and so on; a list that runs out while level comes after
    the longer one (more counted results)."""
    return (*(-p for p in points), inf)


def cup_table(
    players: dict[object, list[Result]],
    held: int,
    rule: str | int,
    season: Sequence[object],
    tiebreak: str = BEST_RESULTS,
    planned: int | None = None,
) -> list[CupRow]:
    """The cup table: every player with a result, best first. ``players``: his results by player;
    ``held``: tournaments held so far; ``rule`` and ``planned``: :func:`results_counted`'s rule and
    the tournaments planned for the season (``None``: not recorded); ``season``: the tournament
    keys in the order held (for the last tie-break); ``tiebreak``: the order of players level on
    the counted total (``tournament-formats.md`` §4):

    - ``"best_results"`` (revised 2026-11-26, the cups' own app; the default): the best
      counted result, then the second best, and so on; then more counted results; then the more
      recent tournament. A (223 + 168) is ahead of B (198 + 117 + 76), both 391.
    - ``"more_results_first"`` (the reading of 2026-11-23, option ``cup_tiebreak``): more counted
      results, then the best single counted result, then the more recent tournament.

    The more recent tournament: the one who did better in the latest tournament either of them
    played (his cup points there), going back tournament by tournament. Players level on all of
    these share the rank. ``tiebreak`` of a row is one of ``""``, ``"counted"`` (fewer counted
    results), ``"best"`` (a lower best result), ``"next_best"`` (a lower counted result further
    down, ``tiebreak_place`` says which: 2 = second best), ``"recent"``, ``"level"``.
    Raises ``ValueError`` for an unknown ``tiebreak`` or as :func:`results_counted`.
    """
    if tiebreak not in TIEBREAKS:
        raise ValueError(f"unknown cup tie-break {tiebreak!r}")
    counted = results_counted(held, rule, planned) if held else 0
    rows = []
    for player, results in players.items():
        keys = counted_results(results, counted)
        rows.append(CupRow(player, sorted(results, key=lambda r: r.order), keys, sum(r.points for r in results if r.key in keys)))
    latest_first = list(reversed(list(season)))

    def recent(row: CupRow) -> tuple:
        mine = {r.key: r.points for r in row.results}
        return tuple(-mine.get(key, -inf) for key in latest_first)

    def key(row: CupRow) -> tuple:
        if tiebreak == BEST_RESULTS:
            return (-row.total, _best_first_key(row.counted_points), -len(row.counted), recent(row))
        return (-row.total, -len(row.counted), -row.best, recent(row))

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
            row.tiebreak, row.tiebreak_place = _separated_by(above, row, tiebreak)
    return rows


def _separated_by(above: CupRow, row: CupRow, tiebreak: str) -> tuple[str, int]:
    """What put ``above`` ahead of ``row`` (equal totals, not level): ``(code, place)`` as
    :func:`cup_table` names them."""
    if tiebreak == BEST_RESULTS:
        for place, (a, b) in enumerate(zip(above.counted_points, row.counted_points), start=1):
            if a != b:
                return ("best", 1) if place == 1 else ("next_best", place)
        if len(above.counted) != len(row.counted):
            return "counted", 0
        return "recent", 0
    if len(above.counted) != len(row.counted):
        return "counted", 0
    if above.best != row.best:
        return "best", 0
    return "recent", 0


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
