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
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext

MISSING = float("-inf")  # a round not played (withdrawn) is worse than any score


@dataclass
class Entry:
    """A player's results: ``rounds`` holds one score per round (``None`` = not played).
    (:func:`scoring.standings.compute_standings` passes the fields by position, in this order.)"""

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
        return sum([r for r in self.rounds if r is not None])

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


class Texts:
    """What the tie-break texts of one ranking work out once, however many rows use it: each
    phrase translated into the active language (``texts(BEST_ROUND)`` is ``gettext(BEST_ROUND)``,
    looked up the first time only; the phrases are marked with ``gettext_noop`` where they are
    defined), and what a tie-break explains an entry from (:meth:`once`)."""

    def __init__(self):
        self._translated: dict[str, str] = {}
        self._last: dict[object, tuple[Entry, object]] = {}

    def __call__(self, message: str) -> str:
        text = self._translated.get(message)
        if text is None:
            text = self._translated[message] = _(message)
        return text

    def once(self, compute, entry: Entry):
        """``compute(entry)``, not computed again when asked next for the same entry: the ranking
        compares each entry with the one above it, then with the one below. Only the last entry's
        is kept (thousands kept to the end would only feed the garbage collector)."""
        last = self._last.get(compute)
        if last is not None and last[0] is entry:
            return last[1]
        value = compute(entry)
        self._last[compute] = (entry, value)
        return value


# The phrases of the tie-break texts (translated through Texts, once per ranking).
BEST_ROUND = gettext_noop("best round")
SECOND_BEST_ROUND = gettext_noop("second-best round")
THIRD_BEST_ROUND = gettext_noop("third-best round")
NTH_BEST_ROUND = gettext_noop("%(ordinal)s. best round")  # the fourth and after
ORDINAL_ROUNDS = (BEST_ROUND, SECOND_BEST_ROUND, THIRD_BEST_ROUND)
NOT_YET_PLAYED = gettext_noop("not yet played")
NOT_PLAYED = gettext_noop("not played")
STILL_PLAYING = gettext_noop("%(score)s (still playing)")
CRITERION_SO_FAR = gettext_noop("%(criterion)s so far: %(above)s to %(below)s")
CRITERION = gettext_noop("%(criterion)s: %(above)s to %(below)s")
DRAWN_LOT = gettext_noop("drawn lot: %(above)s before %(below)s")
CARD_DRAW = gettext_noop("card draw: %(above)s before %(below)s")
GAME_POINTS = gettext_noop("game points: %(above)s to %(below)s")
LEVEL = gettext_noop("level")


class BestRounds:
    """Best round, then second-best round, and so on (Tirol cup rules §7; TI20; WTC)."""

    key = "best_rounds"

    @staticmethod
    def sort_key(entry: Entry) -> tuple:
        """The negated round scores, best round first (a round not played last)."""
        return tuple(sorted([-MISSING if r is None else -r for r in entry.rounds]))

    @staticmethod
    def _ranked(entry: Entry) -> list[tuple[float, bool, bool]]:
        """``(-score, still playing, missed)`` per round, best first (a round without a score
        last: one still to come before one missed); of equal scores a finished round comes
        first, so a comparison names a finished one if it can."""
        rounds = entry.rounds
        playing = entry.playing or [False] * len(rounds)
        missed = entry.missed or [False] * len(rounds)
        cells = [(-MISSING, False, bool(m)) if r is None else (-r, bool(p), False) for r, p, m in zip(rounds, playing, missed)]
        cells.sort()
        return cells

    @staticmethod
    def _show(entry: Entry, cell: tuple[float, bool, bool], so_far: bool, texts: Texts) -> str:
        score, playing, missed = cell
        if score == -MISSING:
            # A round without a score for him: during the tournament it is still to come, unless
            # he withdrew or it is over for him (drawn without a seat for him, e.g. registered
            # late; his table ended without a hand); in the final standings it was not played.
            return texts(NOT_YET_PLAYED) if so_far and not entry.withdrawn and not missed else texts(NOT_PLAYED)
        if playing:
            return texts(STILL_PLAYING) % {"score": -score}
        return str(-score)

    @classmethod
    def explain(cls, above: Entry, below: Entry, so_far: bool = False, texts: Texts | None = None) -> str:
        """The first of the ranked rounds in which ``above`` beats ``below``, as "second-best
        round: 12 to 9"; ``so_far``: the tournament goes on (more rounds to play or a table
        still playing), said as "second-best round so far: 0 (still playing) to not yet played".
        ``texts``: the ranking's :class:`Texts` (a fresh one if not given)."""
        texts = texts or Texts()
        for i, (a, b) in enumerate(zip(texts.once(cls._ranked, above), texts.once(cls._ranked, below))):
            if a[0] != b[0]:
                label = texts(ORDINAL_ROUNDS[i]) if i < len(ORDINAL_ROUNDS) else texts(NTH_BEST_ROUND) % {"ordinal": i + 1}
                return texts(CRITERION_SO_FAR if so_far else CRITERION) % {
                    "criterion": label,
                    "above": cls._show(above, a, so_far, texts),
                    "below": cls._show(below, b, so_far, texts),
                }
        return ""


class Lots:
    """A draw of lots recorded by the director (lower lot ranks first).

    A draw is between all players of a level group: lots decide only when every one of them has
    one (``whole_group``); until then the group shares its rank.
    """

    key = "lots"
    whole_group = True
    phrase = DRAWN_LOT

    @staticmethod
    def decides(entry: Entry) -> bool:
        return entry.lot is not None

    @staticmethod
    def sort_key(entry: Entry) -> tuple:
        return (entry.lot if entry.lot is not None else float("inf"),)

    @classmethod
    def explain(cls, above: Entry, below: Entry, so_far: bool = False, texts: Texts | None = None) -> str:
        if above.lot is None and below.lot is None or above.lot == below.lot:
            return ""
        return (texts or _)(cls.phrase) % {
            "above": above.lot if above.lot is not None else "–",
            "below": below.lot if below.lot is not None else "–",
        }


class CardDraw(Lots):
    """A card draw recorded by the director (Cego, Baden custom: ``cego-ichenheim.md`` §4);
    recorded like lots, 1 for the highest card."""

    key = "card_draw"
    phrase = CARD_DRAW


class GamePoints:
    """Total game points (Bled, ranked by table points first: ``tarok-bled.md`` §7)."""

    key = "game_points"

    @staticmethod
    def sort_key(entry: Entry) -> tuple:
        return (-entry.game_total,)

    @staticmethod
    def explain(above: Entry, below: Entry, so_far: bool = False, texts: Texts | None = None) -> str:
        """A sum of game points is what it is at any moment: the text is the same while the
        tournament goes on (the standings say they are provisional)."""
        if above.game_total == below.game_total:
            return ""
        return (texts or _)(GAME_POINTS) % {"above": above.game_total, "below": below.game_total}


TIEBREAKS = {t.key: t for t in (BestRounds, GamePoints, Lots, CardDraw)}


def rank(entries: list[Entry], tiebreaks: tuple[str, ...] = ("best_rounds", "lots"), so_far: bool = False) -> list[Row]:
    """Order ``entries`` by total, then each tie-break in turn; level players share the rank.

    Lots decide only between players who all have one (a draw among the whole level group).
    ``so_far``: the tournament goes on, and the tie-break texts say what is known so far
    ("second-best round so far: 12 to not yet played"). Raises ``KeyError`` for an unknown
    tie-break key.
    """
    breakers = [TIEBREAKS[k] for k in tiebreaks]
    # Each entry's total and tie-break keys, computed once (the sort and the comparisons of
    # neighbours below use them again).
    totals = [e.total for e in entries]
    keys = [[b.sort_key(e) for b in breakers] for e in entries]

    # Level groups in which a whole-group tie-break (the lots) is not yet complete: it stays silent.
    incomplete: set[tuple] = set()
    for i, b in enumerate(breakers):
        if getattr(b, "whole_group", False):
            groups: dict[tuple, list[Entry]] = {}
            for e, total, ks in zip(entries, totals, keys):
                groups.setdefault((-total, *ks[:i]), []).append(e)
            incomplete |= {(i, k) for k, members in groups.items() if not all(b.decides(m) for m in members)}

    def key(total: float, ks: list[tuple]) -> tuple:
        parts: list = [-total]
        for i, k in enumerate(ks):
            parts.append(() if (i, tuple(parts)) in incomplete else k)
        return tuple(parts)

    if incomplete:
        full = [key(total, ks) for total, ks in zip(totals, keys)]
    else:
        full = [(-total, *ks) for total, ks in zip(totals, keys)]
    # By key, then start number, then as given: two stable sorts (comparing nested keys once more
    # with the start number and index would take twice as long on a large field).
    starts = [e.start_number for e in entries]
    order = sorted(sorted(range(len(entries)), key=starts.__getitem__), key=full.__getitem__)
    texts = Texts()
    rows: list[Row] = []
    previous = None
    for position, j in enumerate(order, start=1):
        entry = entries[j]
        if previous is None or totals[previous] != totals[j]:
            rows.append(Row(position, entry))
        elif full[previous] == full[j]:
            above = rows[-1]
            above.needs_lot = True
            rows.append(Row(above.rank, entry, texts(LEVEL), True, True))
        else:
            above = rows[-1].entry
            for b in breakers:  # the first tie-break that separates them says how
                text = b.explain(above, entry, so_far, texts)
                if text:
                    break
            else:
                text = ""
            rows.append(Row(position, entry, text))
        previous = j
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
