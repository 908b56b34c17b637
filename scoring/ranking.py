"""Rank players by total and a ruleset's tie-breaks (``tournament-formats.md`` §1 and §3).

Pure over plain data: :func:`rank` takes :class:`Entry` objects and returns :class:`Row` objects
that say which tie-break separated each player from the one ranked just above him. Tie-breaks are
small classes in :data:`TIEBREAKS`, picked by the keys a ruleset lists (``rs.tiebreaks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count
from operator import neg

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext

MISSING = float("-inf")  # a round not played (withdrawn) is worse than any score
NO_SCORE = -MISSING  # what a round without a score is in a sort key (last)


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
    defined), a round's label with its criterion phrase (:meth:`criterion`) and a score still
    playing (:meth:`still_playing`), each worked out the first time it is asked for."""

    def __init__(self):
        self._translated: dict[str, str] = {}
        self._criteria: dict[tuple[int, bool], tuple[str, str]] = {}
        self._playing: dict[object, str] = {}

    def __call__(self, message: str) -> str:
        text = self._translated.get(message)
        if text is None:
            text = self._translated[message] = _(message)
        return text

    def criterion(self, i: int, so_far: bool) -> tuple[str, str]:
        """``(phrase, label)`` of a text naming the ``i``-th best round (0: the best): the phrase
        "%(criterion)s: %(above)s to %(below)s" (its "so far" form with ``so_far``) and the
        label "best round", "second-best round", ..., "4. best round"."""
        found = self._criteria.get((i, so_far))
        if found is None:
            label = self(ORDINAL_ROUNDS[i]) if i < len(ORDINAL_ROUNDS) else self(NTH_BEST_ROUND) % {"ordinal": i + 1}
            found = self._criteria[(i, so_far)] = (self(CRITERION_SO_FAR if so_far else CRITERION), label)
        return found

    def still_playing(self, score) -> str:
        """"12 (still playing)" in the active language, formatted once per score."""
        text = self._playing.get(score)
        if text is None:
            text = self._playing[score] = self(STILL_PLAYING) % {"score": score}
        return text


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
        rounds = entry.rounds
        if None in rounds:
            return tuple(sorted([NO_SCORE if r is None else -r for r in rounds]))
        return tuple(sorted(map(neg, rounds)))

    @staticmethod
    def _shown(entry: Entry, key: tuple, i: int, so_far: bool, texts: Texts) -> str:
        """The entry's ``i``-th best round (0: the best) as a tie-break text shows it ("12",
        "12 (still playing)", "not yet played", "not played"), read from its :meth:`sort_key`
        ``key`` without ranking its rounds again: of the rounds with the score ``key[i]`` the
        finished ones rank first (one still playing after them, so a comparison names a finished
        one if it can), of the rounds without a score the ones still to come (a missed one after
        them). Rounds past the end of a shorter ``playing`` or ``missed`` list are not flagged."""
        rounds = entry.rounds
        value = key[i]
        if value != NO_SCORE:
            score = -value
            playing = entry.playing
            if not any(playing):
                return str(score)
            if rounds.count(score) == 1:
                at = rounds.index(score)
                still = at < len(playing) and playing[at]
            else:
                still = i - key.index(value) >= rounds.count(score) - sum(1 for r, p in zip(rounds, playing) if p and r == score)
            return texts.still_playing(score) if still else str(score)
        missed = entry.missed
        if not any(missed):
            gone = False
        elif rounds.count(None) == 1:
            at = rounds.index(None)
            gone = at < len(missed) and missed[at]
        else:
            gone = i - key.index(value) >= rounds.count(None) - sum(1 for r, m in zip(rounds, missed) if m and r is None)
        # A round without a score for him: during the tournament it is still to come, unless he
        # withdrew or it is over for him (drawn without a seat for him, e.g. registered late; his
        # table ended without a hand); in the final standings it was not played.
        return texts(NOT_YET_PLAYED) if so_far and not entry.withdrawn and not gone else texts(NOT_PLAYED)

    @classmethod
    def explain(cls, above: Entry, below: Entry, so_far: bool = False, texts: Texts | None = None) -> str:
        """The first of the ranked rounds in which ``above`` beats ``below``, as "second-best
        round: 12 to 9"; ``so_far``: the tournament goes on (more rounds to play or a table
        still playing), said as "second-best round so far: 0 (still playing) to not yet played".
        ``texts``: the ranking's :class:`Texts` (a fresh one if not given)."""
        return cls.explain_keys(above, below, cls.sort_key(above), cls.sort_key(below), so_far, texts or Texts())

    @classmethod
    def explain_keys(cls, above: Entry, below: Entry, key_above: tuple, key_below: tuple, so_far: bool, texts: Texts) -> str:
        """:meth:`explain` from the two entries' :meth:`sort_key` (which :func:`rank` has): the
        first round in which the keys differ is the one the text names, and only its two cells
        are looked at."""
        i = 0
        for a, b in zip(key_above, key_below):
            if a != b:
                break
            i += 1
        else:
            return ""
        phrase, label = texts.criterion(i, so_far)
        return phrase % {
            "criterion": label,
            "above": cls._shown(above, key_above, i, so_far, texts),
            "below": cls._shown(below, key_below, i, so_far, texts),
        }


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

    A tie-break's ``explain`` is asked only where its sort keys of the two players differ (equal
    keys explain nothing), through its ``explain_keys`` if it has one (:class:`BestRounds`: the
    keys say which round to name).
    """
    breakers = [TIEBREAKS[k] for k in tiebreaks]
    # Each entry's total and tie-break keys, computed once (the sort and the comparisons of
    # neighbours below use them again). Game points (whole numbers) are summed without their
    # zeros and missing rounds: the same number as ``Entry.total``, without a call per entry.
    totals = [sum(filter(None, e.rounds)) if e.victory is None else e.total for e in entries]
    columns = [list(map(b.sort_key, entries)) for b in breakers]
    # Per entry: (-total, key of each tie-break).
    full = list(zip(map(neg, totals), *columns))

    # Level groups in which a whole-group tie-break (the lots) is not yet complete: it stays silent.
    incomplete: set[tuple] = set()
    for i, b in enumerate(breakers):
        if getattr(b, "whole_group", False):
            groups: dict[tuple, list[Entry]] = {}
            for e, parts in zip(entries, full):
                groups.setdefault(parts[: i + 1], []).append(e)
            incomplete |= {(i, k) for k, members in groups.items() if not all(b.decides(m) for m in members)}

    if incomplete:

        def key(parts: tuple) -> tuple:
            kept: list = [parts[0]]
            for i, k in enumerate(parts[1:]):
                kept.append(() if (i, tuple(kept)) in incomplete else k)
            return tuple(kept)

        full = [key(parts) for parts in full]
    # By key, then start number, then as given: two stable sorts (comparing nested keys once more
    # with the start number and index would take twice as long on a large field).
    starts = [e.start_number for e in entries]
    order = sorted(sorted(range(len(entries)), key=starts.__getitem__), key=full.__getitem__)
    texts = Texts()
    level = None  # the text of a level row, translated when the first one comes
    explainers = [(k, b, getattr(b, "explain_keys", None)) for k, b in enumerate(breakers, start=1)]
    rows: list[Row] = []
    append = rows.append
    row = above_key = None
    for position, entry, keys in zip(count(1), map(entries.__getitem__, order), map(full.__getitem__, order)):
        if row is None or above_key[0] != keys[0]:  # another total
            row = Row(position, entry)
        elif above_key == keys:
            row.needs_lot = True
            if level is None:
                level = texts(LEVEL)
            row = Row(row.rank, entry, level, True, True)
        else:
            above, text = row.entry, ""
            for k, b, explain_keys in explainers:  # the first tie-break that separates them says how
                key_above, key_below = above_key[k], keys[k]
                if key_above == key_below and key_above != ():
                    continue  # equal keys: nothing separates them here
                if explain_keys is not None:
                    text = explain_keys(above, entry, key_above, key_below, so_far, texts)
                else:
                    text = b.explain(above, entry, so_far, texts)
                if text:
                    break
            row = Row(position, entry, text)
        append(row)
        above_key = keys
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
