"""Shared vocabulary of every ruleset: problems, the error raised for invalid hands, catalogue entries.

Pure Python, no Django. User-facing text is written in English and marked with ``_`` (a no-op marker
that ``makemessages`` collects); the Django layer translates it when it shows a :class:`Problem`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property


def _(message: str) -> str:
    """Mark ``message`` for translation without translating it (translated by the Django layer)."""
    return message


class Problem(str):
    """One validation message: a ``str`` in English, plus what a translator needs.

    ``Problem(msgid, **params)`` formats ``msgid % params`` for its string value and keeps ``msgid``
    and ``params`` so the web layer can translate the template and substitute seat numbers with
    player names. Parameters whose key ends in ``seat`` are seat numbers (0-based, ``hand-record.md``
    "Seats"); the English text shows them 1-based, "seat 1" for seat 0, as players count.
    """

    msgid: str
    params: dict

    def __new__(cls, msgid: str, **params) -> "Problem":
        shown = {k: (f"seat {v + 1}" if k.endswith("seat") else v) for k, v in params.items()}
        obj = super().__new__(cls, msgid % shown if params else msgid)
        obj.msgid = msgid
        obj.params = params
        return obj


class InvalidHand(ValueError):
    """Raised by ``Ruleset.score`` for a hand that ``validate`` rejects, and by ``parse_hand``.

    ``errors`` is the list of :class:`Problem` messages, in the order they were found. ``record``:
    the hand record a notation line gave when only the ruleset refused it (``None`` otherwise),
    so a form can still show what was read.
    """

    def __init__(self, errors: list[str], record: dict | None = None):
        self.errors = list(errors)
        self.record = record
        super().__init__("; ".join(self.errors))


@dataclass(frozen=True)
class Contract:
    """One entry of a ruleset's contract table.

    - ``key``: the record's ``contract`` value (``koenigrufen.md`` tables, column "key");
    - ``name``: the German name players use (shown untranslated in every language);
    - ``value``: game value ``V`` in points, ``None`` where the contract has its own settlement
      (Trischaken);
    - ``family``: ``"king_call"``, ``"dreier"``, ``"colour"``, ``"negative"`` or ``"trischaken"``
      (``koenigrufen.md`` §1, "Bonuses allowed per contract family");
    - ``vorhand_only``: only Vorhand may play it (marked * in the tables);
    - ``solo``: played without the talon, all bonuses score double;
    - ``bird``: for bird callers the bonus key of the bird they name, ``"any"`` for the Besserrufer;
    - ``lost_factor``: multiplies the game post when lost (Sechserdreier: 2);
    - ``code``: its code in the hand notation (:mod:`variants.notation`), ``aliases``: other codes
      the notation reads for it (never written).
    """

    key: str
    name: str
    value: int | None
    family: str
    vorhand_only: bool = False
    solo: bool = False
    bird: str | None = None
    lost_factor: int = 1
    note: str = ""
    code: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def king_call(self) -> bool:
        return self.family == "king_call"

    @property
    def negative(self) -> bool:
        return self.family == "negative"

    @property
    def trischaken(self) -> bool:
        return self.family == "trischaken"

    @property
    def has_talon(self) -> bool:
        """Played with the talon: everything but the solos, the negative contracts and Trischaken."""
        return not (self.solo or self.negative or self.trischaken)


@dataclass(frozen=True)
class Bonus:
    """One entry of a ruleset's bonus table (Prämie).

    - ``silent`` / ``announced``: values in points; ``silent`` is ``None`` for announced-only bonuses
      (the Tirol Säcke, ``koenigrufen.md`` §4);
    - ``kind``: ``"trick"`` (birds, König ultimo, Mondfang), ``"material"`` (Trull, Vier Könige,
      Säcke) or ``"valat"`` (``koenigrufen.md`` §1, "Bonus classes");
    - ``can_fail_silently``: a silent bonus recorded ``made: false`` means the card was played to its
      trick and beaten (the birds and König ultimo, ``koenigrufen.md`` §1 Decision);
    - ``code``: its code in the hand notation (:mod:`variants.notation`).
    """

    key: str
    name: str
    silent: int | None
    announced: int
    kind: str
    can_fail_silently: bool = False
    multiplier: bool = False  # values are multiples of the game value (Valat in the WTC 2009)
    description: str = ""
    code: str = ""

    @property
    def announced_only(self) -> bool:
        return self.silent is None


@dataclass(frozen=True)
class SeatCard:
    """A card of the seating draw (``tournament-formats.md`` §2): ``key`` and German ``name``,
    marked for translation (the Django layer shows it in the reader's language)."""

    key: str
    name: str


def card_names(ruleset) -> dict[str, str]:
    """``{card key: name}`` of every seating card the ruleset deals, at any of its table sizes."""
    return {c.key: c.name for size in ruleset.table_sizes for c in ruleset.seat_cards(size)}


@dataclass(frozen=True)
class Breakdown:
    """How a score row came about: ``posts`` of ``(label, value)`` and a one-line ``summary``."""

    posts: tuple[tuple[str, int], ...] = ()
    summary: str = ""
    notes: tuple[str, ...] = field(default=())


class ThreeHandedTables:
    """The table format of the three-handed rulesets, Cego and Bled (``tournament-formats.md`` §1,
    §2): tables of 3, or of 4 where the dealer sits the hand out; the player with the highest
    seating card deals first and the others follow by the strength of theirs.

    A ruleset sets ``seat_card_set`` (its cards, highest first) and ``default_hands_per_round``.
    """

    seat_card_set: tuple[SeatCard, ...] = ()
    default_hands_per_round: int

    def hands_per_round(self, table_size: int, base: int | None = None) -> int:
        """The same number of hands at a table of 3 and of 4: ``base``, default the ruleset's."""
        return self.default_hands_per_round if base is None else base

    def seat_cards(self, table_size: int) -> tuple[SeatCard, ...]:
        """Seating cards in seat order: seat 0 draws the highest card and deals first."""
        return self.seat_card_set[:table_size]

    def first_dealer(self, table_size: int) -> int:
        return 0

    @staticmethod
    def sitting_out(dealer: int, table_size: int) -> int | None:
        """The dealer of a 4-table takes no part in the play (what he scores is the ruleset's)."""
        return dealer if table_size == 4 else None

    @classmethod
    def active_seats(cls, dealer: int, table_size: int) -> list[int]:
        """The seats that play the hand, Vorhand first."""
        seats = [(dealer + 1 + i) % table_size for i in range(table_size)]
        return [s for s in seats if s != cls.sitting_out(dealer, table_size)]


def catalogue(ruleset, dealer_sits_out_at: int, **contract_extra) -> dict:
    """A ruleset's contract and bonus tables as plain data, for forms, help pages and JSON.

    ``ruleset`` offers ``key``, ``edition``, ``name``, ``contracts``, ``bonuses``, ``fields(c)``
    and ``allowed_bonuses(key)``; ``dealer_sits_out_at``: the table size at which the dealer sits
    out; ``contract_extra``: further per-contract entries, ``name=function(contract)``.
    """
    return {
        "key": ruleset.key,
        "edition": ruleset.edition,
        "name": ruleset.name,
        "dealer_sits_out_at": dealer_sits_out_at,
        "contracts": [
            {
                "key": c.key,
                "name": c.name,
                "value": c.value,
                "family": c.family,
                "vorhand_only": c.vorhand_only,
                **{name: get(c) for name, get in contract_extra.items()},
                "fields": list(ruleset.fields(c)),
                "code": c.code,
                "bonuses": [b.key for b in ruleset.allowed_bonuses(c.key)],
            }
            for c in ruleset.contracts
        ],
        "bonuses": [
            {
                "key": b.key,
                "name": b.name,
                "silent": b.silent,
                "announced": b.announced,
                "kind": b.kind,
                "can_fail_silently": b.can_fail_silently,
                "code": b.code,
            }
            for b in ruleset.bonuses
        ],
    }


class Ruleset:
    """What every ruleset offers besides its own rules: the hand notation (:mod:`variants.notation`).

    A ruleset sets ``uses_blatt`` (card points in thirds, ``hand-record.md`` "Card points"),
    ``uses_history`` (a hand is scored after the earlier hands of its table, Bled radelci) and
    ``notation_example_hands``: ``(table_size, record)`` pairs shown on the reference card, of
    which each edition shows those it accepts.
    """

    uses_blatt = False
    uses_history = False
    notation_example_hands: tuple = ()

    @cached_property
    def notation(self):
        """The :class:`~variants.notation.Notation` of this ruleset (its codes and fields)."""
        from .notation import Notation

        return Notation(self)

    def parse_hand(self, line: str, table_size: int, dealer: int, names: Sequence[str] | None = None) -> dict:
        """The hand record a notation ``line`` stands for, dealt by seat ``dealer`` (0-based) at a
        table of ``table_size``; ``names``: the players in seat order, so that a seat may be named
        by a name prefix or initials. Raises :class:`InvalidHand` naming every token that is
        unknown, not allowed, repeated, contradictory or out of range, and the ruleset's own
        problems with the record (``validate``)."""
        return self.notation.parse(line, table_size, dealer, names)

    def format_hand(self, record, table_size: int, names: Sequence[str] | None = None) -> str:
        """The canonical notation line of ``record``: ``parse_hand`` of it scores exactly as
        ``record``. Seats are 1-based numbers, or with ``names`` initials that read back."""
        return self.notation.format(record, table_size, names)

    def notation_examples(self) -> list[tuple[int, dict]]:
        """``(table_size, record)`` of the example hands this ruleset accepts, for reference cards
        and placeholders (the lines come from :meth:`format_hand`, never written twice)."""
        return [(size, record) for size, record in self.notation_example_hands if not self.validate(record, size)]
