"""Rank players by total and a ruleset's tie-breaks (``tournament-formats.md`` §1 and §3).

Pure over plain data: :func:`rank` takes :class:`Entry` objects and returns :class:`Row` objects
that say which tie-break separated each player from the one ranked just above him. Tie-breaks are
small classes in :data:`TIEBREAKS`, picked by the keys a ruleset lists (``rs.tiebreaks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

MISSING = float("-inf")  # a round not played (withdrawn) is worse than any score


@dataclass
class Entry:
    """A player's results: ``rounds`` holds one score per round (``None`` = not played)."""

    key: object
    name: str
    club: str = ""
    start_number: int = 0
    rounds: list[int | None] = field(default_factory=list)
    tables: list[int | None] = field(default_factory=list)
    lot: int | None = None
    withdrawn: bool = False
    victory: list[float | None] | None = None  # table points per round where the ruleset ranks by them
    provisional: list[bool] = field(default_factory=list)  # per round: its table points may still change
    playing: list[bool] = field(default_factory=list)  # per round: his table still plays it (the score may change)
    missed: list[bool] = field(default_factory=list)  # per round: over for him without a score (drawn without a seat for him, his table ended without a hand)

    @property
    def round_cells(self) -> list[tuple[int | None, object, bool]]:
        """``(round score, victory points or None, provisional)`` per round, for the standings
        columns; ``None`` scores are rounds not played ("–")."""
        victory = self.victory or [None] * len(self.rounds)
        provisional = self.provisional or [False] * len(self.rounds)
        return list(zip(self.rounds, victory, provisional))

    @property
    def game_total(self) -> int:
        """The sum of the round scores (game points, Schrift)."""
        return sum(r for r in self.rounds if r is not None)

    @property
    def total(self) -> float:
        """What the standings rank by: the victory points if the ruleset has them (Bled table
        points, ``tarok-bled.md`` §7), else the game points."""
        if self.victory is not None:
            return sum(v for v in self.victory if v is not None)
        return self.game_total


@dataclass
class Row:
    """A standings row. ``tiebreak`` explains the gap to the row above when the totals are equal
    ("level" when nothing separates them: the standings explain that once, below the table);
    ``shared`` marks a rank shared with the row above (level after every tie-break);
    ``needs_lot`` marks every player of such a level group."""

    rank: int
    entry: Entry
    tiebreak: str = ""
    shared: bool = False
    needs_lot: bool = False

    @property
    def total(self) -> int:
        return self.entry.total


class BestRounds:
    """Best round, then second-best round, and so on (Tirol cup rules §7; TI20; WTC)."""

    key = "best_rounds"

    @staticmethod
    def sort_key(entry: Entry) -> tuple:
        return tuple(-r for r in sorted((MISSING if r is None else r for r in entry.rounds), reverse=True))

    @staticmethod
    def _ranked(entry: Entry) -> list[tuple[float, bool, bool]]:
        """``(score, still playing, missed)`` per round, best first (a round without a score
        last: one still to come before one missed); of equal scores a finished round comes
        first, so a comparison names a finished one if it can."""
        playing = entry.playing or [False] * len(entry.rounds)
        missed = entry.missed or [False] * len(entry.rounds)
        cells = [(MISSING, False, bool(m)) if r is None else (r, bool(p), False) for r, p, m in zip(entry.rounds, playing, missed)]
        return sorted(cells, key=lambda c: (-c[0], c[1], c[2]))

    @staticmethod
    def _show(entry: Entry, cell: tuple[float, bool, bool], so_far: bool) -> str:
        score, playing, missed = cell
        if score == MISSING:
            # A round without a score for him: during the tournament it is still to come, unless
            # he withdrew or it is over for him (drawn without a seat for him, e.g. registered
            # late; his table ended without a hand); in the final standings it was not played.
            return _("not yet played") if so_far and not entry.withdrawn and not missed else _("not played")
        if playing:
            return _("%(score)s (still playing)") % {"score": score}
        return str(score)

    @classmethod
    def explain(cls, above: Entry, below: Entry, so_far: bool = False) -> str:
        """The first of the ranked rounds in which ``above`` beats ``below``, as "second-best
        round: 12 to 9"; ``so_far``: the tournament goes on (more rounds to play or a table
        still playing), said as "second-best round so far: 0 (still playing) to not yet played"."""
        for i, (a, b) in enumerate(zip(cls._ranked(above), cls._ranked(below))):
            if a[0] != b[0]:
                if i == 0:
                    label = _("best round")
                elif i == 1:
                    label = _("second-best round")
                elif i == 2:
                    label = _("third-best round")
                else:
                    label = _("%(ordinal)s. best round") % {"ordinal": i + 1}
                values = {"criterion": label, "above": cls._show(above, a, so_far), "below": cls._show(below, b, so_far)}
                if so_far:
                    return _("%(criterion)s so far: %(above)s to %(below)s") % values
                return _("%(criterion)s: %(above)s to %(below)s") % values
        return ""


class Lots:
    """A draw of lots recorded by the director (lower lot ranks first).

    A draw is between all players of a level group: lots decide only when every one of them has
    one (``whole_group``); until then the group shares its rank.
    """

    key = "lots"
    whole_group = True

    @staticmethod
    def decides(entry: Entry) -> bool:
        return entry.lot is not None

    @staticmethod
    def sort_key(entry: Entry) -> tuple:
        return (entry.lot if entry.lot is not None else float("inf"),)

    @staticmethod
    def explain(above: Entry, below: Entry, so_far: bool = False) -> str:
        if above.lot is None and below.lot is None or above.lot == below.lot:
            return ""
        return _("drawn lot: %(above)s before %(below)s") % {
            "above": above.lot if above.lot is not None else "–",
            "below": below.lot if below.lot is not None else "–",
        }


class CardDraw(Lots):
    """A card draw recorded by the director (Cego, Baden custom: ``cego-ichenheim.md`` §4);
    recorded like lots, 1 for the highest card."""

    key = "card_draw"

    @staticmethod
    def explain(above: Entry, below: Entry, so_far: bool = False) -> str:
        if above.lot is None and below.lot is None or above.lot == below.lot:
            return ""
        return _("card draw: %(above)s before %(below)s") % {
            "above": above.lot if above.lot is not None else "–",
            "below": below.lot if below.lot is not None else "–",
        }


class GamePoints:
    """Total game points (Bled, ranked by table points first: ``tarok-bled.md`` §7)."""

    key = "game_points"

    @staticmethod
    def sort_key(entry: Entry) -> tuple:
        return (-entry.game_total,)

    @staticmethod
    def explain(above: Entry, below: Entry, so_far: bool = False) -> str:
        """A sum of game points is what it is at any moment: the text is the same while the
        tournament goes on (the standings say they are provisional)."""
        if above.game_total == below.game_total:
            return ""
        return _("game points: %(above)s to %(below)s") % {"above": above.game_total, "below": below.game_total}


TIEBREAKS = {t.key: t for t in (BestRounds, GamePoints, Lots, CardDraw)}


def rank(entries: list[Entry], tiebreaks: tuple[str, ...] = ("best_rounds", "lots"), so_far: bool = False) -> list[Row]:
    """Order ``entries`` by total, then each tie-break in turn; level players share the rank.

    Lots decide only between players who all have one (a draw among the whole level group).
    ``so_far``: the tournament goes on, and the tie-break texts say what is known so far
    ("second-best round so far: 12 to not yet played"). Raises ``KeyError`` for an unknown
    tie-break key.
    """
    breakers = [TIEBREAKS[k] for k in tiebreaks]

    def prefix(entry: Entry, upto: int) -> tuple:
        return (-entry.total, *(b.sort_key(entry) for b in breakers[:upto]))

    # Level groups in which a whole-group tie-break (the lots) is not yet complete: it stays silent.
    incomplete: set[tuple] = set()
    for i, b in enumerate(breakers):
        if getattr(b, "whole_group", False):
            groups: dict[tuple, list[Entry]] = {}
            for e in entries:
                groups.setdefault(prefix(e, i), []).append(e)
            incomplete |= {(i, k) for k, members in groups.items() if not all(b.decides(m) for m in members)}

    def key(entry: Entry) -> tuple:
        parts: list = [-entry.total]
        for i, b in enumerate(breakers):
            parts.append(() if (i, tuple(parts)) in incomplete else b.sort_key(entry))
        return tuple(parts)

    ordered = sorted(entries, key=lambda e: (key(e), e.start_number))
    rows: list[Row] = []
    for position, entry in enumerate(ordered, start=1):
        row = Row(rank=position, entry=entry)
        if rows and rows[-1].entry.total == entry.total:
            above = rows[-1]
            if key(above.entry) == key(entry):
                row.rank, row.shared = above.rank, True
                row.needs_lot = above.needs_lot = True
                row.tiebreak = _("level")
            else:
                row.tiebreak = next(
                    (text for b in breakers if (text := b.explain(above.entry, entry, so_far))), ""
                )
        rows.append(row)
    return rows


_FRACTIONS = {
    Fraction(0): "", Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
    Fraction(1, 6): "⅙", Fraction(5, 6): "⅚",
}


def format_points(value) -> str:
    """``Fraction(3, 2)`` -> "1½", ``Fraction(1, 2)`` -> "½", 2 -> "2"; ``None`` -> "–". Other
    values (quarters from a shared place at a table of four, sums of them) with two decimals in
    the active language's way: "0.75" in English, "0,75" in German and Slovenian."""
    if value is None:
        return "–"
    value = Fraction(value).limit_denominator(1000)
    if value < 0:
        return "-" + format_points(-value)
    whole, part = divmod(value, 1)
    if part in _FRACTIONS:
        return (str(whole) if whole or not part else "") + _FRACTIONS[part]
    return number_format(float(value), decimal_pos=2, use_l10n=True)


def rounds_label(count: int) -> str:
    """"1 round" / "3 rounds", for headings."""
    return ngettext("%(count)s round", "%(count)s rounds", count) % {"count": count}
