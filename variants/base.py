"""What every ruleset shares: the entries of its catalogue and :class:`Ruleset`, the base it subclasses.

Pure Python, no Django. Messages are :class:`~variants.problems.Problem` in English, marked for
translation with ``_`` (:mod:`variants.problems`); a ruleset reads and writes its hands in the
notation of :mod:`variants.notation`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
import functools
from functools import cached_property

from .notation import KONTRA_CODES, Notation
from .problems import InvalidHand, Problem, _


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
    - ``code``: its code in the hand notation (:mod:`variants.notation`);
    - ``derived``: whether it was made follows from the rest of the record, so it is listed only
      when announced and ``made`` may be left out (Hungarian dupla and volát,
      ``hungarian-tarokk.md`` §2);
    - kind ``"hand"``: a feat held in one player's hand, scored for that player alone, recorded
      as ``{"bonus": key, "holder": seat}`` (Tapp-Tarock's Trull, Vier Könige, Köpfe,
      ``tapp-tarock.md`` §3); never announced, never kontra'd.
    """

    key: str
    name: str
    silent: int | None
    announced: int | None
    kind: str
    can_fail_silently: bool = False
    multiplier: bool = False  # values are multiples of the game value (Valat in the WTC 2009)
    description: str = ""
    code: str = ""
    derived: bool = False

    @property
    def held(self) -> bool:
        """A feat of one player's hand, recorded with its ``holder`` (kind ``"hand"``)."""
        return self.kind == "hand"

    @property
    def announced_only(self) -> bool:
        return self.silent is None


@dataclass(frozen=True)
class Choice:
    """One value of a :class:`RecordField`: the record's ``value``, its ``label`` (a game term
    shown as it is, or English marked for translation) and its ``code`` in the hand notation."""

    value: object
    label: str
    code: str


@dataclass(frozen=True)
class RecordField:
    """A field of the hand record that only some rulesets have (``hand-record.md`` "Added for the
    seeds' other games": ``called``, ``all_tricks``, ``tarokks``, ``forfeit``), declared by the
    ruleset so that the entry form, the notation and the words of a hand offer it without knowing
    the ruleset. A contract uses it when :meth:`Ruleset.fields` names it.

    - ``name``: the record key; ``label``: English, marked for translation;
    - ``kind``: ``"choice"`` (one of ``choices``, the record holds its ``value``; a token is a
      choice's ``code``), ``"flag"`` (``true`` or absent; the token is ``code``) or ``"per_seat"``
      (``{seat: value}`` with seats as object keys; a token is a choice's code followed by the
      seat, ``8t2`` or ``8t:anna``);
    - ``help``: one line for the form, English, marked for translation.
    """

    name: str
    label: str
    kind: str
    choices: tuple[Choice, ...] = ()
    code: str = ""
    help: str = ""

    def choice(self, value) -> Choice | None:
        """The choice whose record value is ``value`` (``None`` if there is none)."""
        return next((c for c in self.choices if c.value == value), None)


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


@dataclass(frozen=True)
class Settlement(Breakdown):
    """A :class:`Breakdown` with the ``row`` it explains, one ``int`` per seat; for rulesets whose
    later hands depend on this one (Bled radelci, ``tarok-bled.md`` §5): ``doubled`` (the
    declarer's radelc doubled it), ``won`` (the declarer won) and ``awards`` (every seat gets one)."""

    row: tuple[int, ...] = ()
    doubled: bool = False
    won: bool | None = None
    awards: bool = False


def seat_row(size: int, amounts: Mapping[int, int], zero_sum: str | None = None) -> tuple[int, ...]:
    """The score row of a table of ``size``: ``amounts`` (``{seat: points}``, whole numbers) added
    into one ``int`` per seat, the others 0. ``zero_sum``: the game's name where its rows always
    sum to 0 (``hand-record.md`` "The score row"); a row that does not is a bug, asserted."""
    row = [0] * size
    for seat, value in amounts.items():
        row[seat] += int(value)
    assert zero_sum is None or sum(row) == 0, f"{zero_sum} row {row} does not sum to 0"
    return tuple(row)


@dataclass(frozen=True)
class Scored:
    """One evaluation of a hand (:meth:`Ruleset.evaluate`): its ``problems``, or its ``settlement``.
    A form shows it and the save stores it: the hand is checked once per request."""

    problems: tuple = ()
    settlement: Settlement | None = None

    @property
    def ok(self) -> bool:
        """The hand passed every check (``problems`` is empty) and ``settlement`` holds its row."""
        return not self.problems

    def result(self) -> Settlement:
        """The settlement; raises :class:`InvalidHand` with the problems."""
        if self.problems:
            raise InvalidHand(list(self.problems))
        return self.settlement

    @property
    def row(self) -> list[int]:
        """The score row; raises :class:`InvalidHand` with the problems."""
        return list(self.result().row)


@dataclass(frozen=True)
class Option:
    """A rule a tournament may switch (the "Options" tables of ``koenigrufen.md`` and
    ``tarok-bled.md``): ``key`` as stored with the tournament, ``label`` and ``help`` in English,
    marked for translation, its ``default`` and the ``source`` section of the rule file."""

    key: str
    label: str
    help: str = ""
    default: bool = False
    source: str = ""


class ThreeHandedTables:
    """The table format of the three-handed rulesets, Cego and Bled (``tournament-formats.md`` §1,
    §2): tables of 3, or of 4 where the dealer sits the hand out; the player with the highest
    seating card deals first (seat 0) and the others follow by the strength of theirs. Mixed into a
    :class:`Ruleset`, which sets ``seat_card_set`` (its cards, highest first)."""

    seat_card_set: tuple[SeatCard, ...] = ()

    def seat_cards(self, table_size: int) -> tuple[SeatCard, ...]:
        """Seating cards in seat order: seat 0 draws the highest card and deals first."""
        return self.seat_card_set[:table_size]

    def sitting_out(self, dealer: int, table_size: int) -> int | None:
        """The dealer of a 4-table takes no part in the play (what he scores is the ruleset's)."""
        return dealer if table_size == 4 else None


def catalogue(ruleset, dealer_sits_out_at: int | None, **contract_extra) -> dict:
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


# The kontra levels in the game's own words (index = level, hand-record.md "kontra"), written by
# the notation's codes (:data:`variants.notation.KONTRA_CODES`); a ruleset offers the first
# ``len(kontra_names) - 1`` levels.
KONTRA_NAMES = ("", "kontra", "rekontra", "subkontra", "mortkontra")


@functools.lru_cache(maxsize=4096)
def verbatim(text: str) -> Problem:
    """``text`` as a description part shown as it is (a contract's or player's name). The same
    object for the same text (a download describes thousands of hands with a few names); nothing
    changes a :class:`Problem` after it is made."""
    return Problem("%(text)s", text=text)


class Ruleset:
    """What the rest of the project may ask of a ruleset, and the parts every ruleset shares.

    A ruleset module subclasses this and declares data, never Django: identity (``key``,
    ``edition``, ``editions``, ``name``, ``label``, ``source``), its tables (``table_sizes``,
    ``preferred_table_size``, ``max_other_tables``, ``sitting_out`` and ``active_seats``, what the
    sitting-out seat scores: ``sitting_out_pays``), its defaults (``default_rounds``,
    ``default_hands_per_round``, :meth:`hands_per_round` at an oversized table), its catalogue
    (``contracts``, ``bonuses``, :meth:`fields` per contract, :meth:`allowed_bonuses`, notation
    codes on each), its options (``option_specs``: :class:`Option`), how a hand is scored
    (``uses_history``: after the earlier hands of its table; ``zero_sum``), how values are written
    (``uses_blatt``: card points ``P/B``), how the standings rank (``victory_points``: ``None`` for
    game points summed, ``"table_points"`` for :meth:`table_points` per round; ``tiebreaks``, keys of
    the standings' tie-breaks), its seating cards (:meth:`seat_cards`, :meth:`first_dealer`) and
    how a hand reads in words (:meth:`describe`).

    It implements two things of its own: ``checker``, a :class:`variants.checks.HandCheck` subclass
    that validates a played hand, and :meth:`settle`, the settlement of a valid played hand. The
    rest is here, once: :meth:`validate`, :meth:`evaluate` (check, then settle: one
    :class:`Scored` a form and a save share), :meth:`breakdown`, :meth:`score`; struck and manual
    rows; the notation (:mod:`variants.notation`); :meth:`random_hand` for demos and benchmarks.
    """

    key: str
    edition: str
    editions: tuple[str, ...] = ()
    name: str
    label: str
    source: str = ""
    table_sizes: tuple[int, ...]
    preferred_table_size: int
    max_other_tables: int | None = None
    zero_sum = True
    sitting_out_pays = False
    default_rounds: int
    default_hands_per_round: int
    # Minutes on a round's clock when the director starts it without saying (``None``: he sets it).
    default_round_minutes: int | None = None
    uses_history = False
    uses_blatt = False
    tiebreaks: tuple[str, ...] = ("best_rounds", "lots")
    contracts: tuple[Contract, ...] = ()
    bonuses: tuple[Bonus, ...] = ()
    option_specs: tuple[Option, ...] = ()
    checker: type
    notation_example_hands: tuple = ()
    # Words of the pages (marked for translation): the contract table's value column, the footnote
    # of contracts only Vorhand may play, and what the seats carry into later hands (``None``:
    # nothing; Bled: "radelci", drawn as :meth:`history_marks` on the sheets).
    value_heading = _("Value")
    vorhand_only_note = _("Vorhand only.")
    marks_label: str | None = None
    # Fields of the record beyond the common ones (:class:`RecordField`), the kontra levels the
    # ruleset records (words and notation codes, index = level), the most card points a side can
    # hold (the pack), and how the partner is asked for: a partner equal to the declarer is a
    # distinct case worth writing (Hungarian self-call) where ``self_call_written``.
    record_fields: tuple[RecordField, ...] = ()
    kontra_names: tuple[str, ...] = KONTRA_NAMES
    kontra_codes: tuple[str, ...] = KONTRA_CODES
    max_card_points = 70
    partner_label = _("Partner (holder of the called king)")
    partner_none_label = _("none – king in the talon")
    self_call_written = False
    # The partner is required in a played hand and "nobody" is written out (Hungarian Tarokk:
    # a forgotten partner must not become a lone game, ``hungarian-tarokk.md`` §2): the form
    # asks for it with "not given" apart from "nobody", the line takes ``0`` for nobody.
    partner_written_out = False
    # Both sides may record the same bonus, each once (Hungarian Tarokk, ``hungarian-tarokk.md``
    # §2); elsewhere a bonus is entered once per hand.
    bonus_per_team = False

    def __init__(self, editions: Sequence[str] = (), options: Mapping | None = None):
        self.editions = tuple(editions) or (self.edition,)
        self.options = {**self.option_defaults, **(options or {})}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key} {self.edition} {self.options}>"

    # ------------------------------------------------------------------ declared data, derived

    @property
    def option_defaults(self) -> dict[str, bool]:
        """``{option key: default}`` of the ruleset's options."""
        return {o.key: o.default for o in self.option_specs}

    @property
    def victory_points(self) -> str | None:
        """What the standings rank by first: ``None`` (game points summed) or ``"table_points"``."""
        return None

    def table_points(self, scores: Sequence[int]) -> list:
        """Victory points of one table's round scores, per seat (where ``victory_points`` says so)."""
        raise NotImplementedError

    @property
    def max_kontra(self) -> int:
        """The highest kontra level the ruleset records (0: it records none)."""
        return len(self.kontra_names) - 1

    def record_field(self, name: str) -> RecordField | None:
        """The ruleset's own record field ``name`` (:attr:`record_fields`), or ``None``."""
        return next((f for f in self.record_fields if f.name == name), None)

    def contract(self, key: str) -> Contract:
        """The contract with ``key``; raises ``KeyError`` if the ruleset (with its options) has none."""
        for c in self.contracts:
            if c.key == key:
                return c
        raise KeyError(key)

    def bonus(self, key: str) -> Bonus:
        """The bonus with ``key``; raises ``KeyError``."""
        for b in self.bonuses:
            if b.key == key:
                return b
        raise KeyError(key)

    def allowed_bonuses(self, contract_key: str) -> tuple[Bonus, ...]:
        """Bonuses the contract allows, in catalogue order (none by default)."""
        self.contract(contract_key)
        return ()

    def fields(self, contract: Contract) -> tuple[str, ...]:
        """The record fields (``hand-record.md`` "Fields") a hand of ``contract`` uses."""
        raise NotImplementedError

    def sitting_out(self, dealer: int, table_size: int) -> int | None:
        """The seat that sits this hand out, or ``None`` (everybody plays)."""
        return None

    def active_seats(self, dealer: int, table_size: int) -> list[int]:
        """The seats that play the hand, Vorhand first (``hand-record.md`` "Seats")."""
        seats = [(dealer + 1 + i) % table_size for i in range(table_size)]
        return [s for s in seats if s != self.sitting_out(dealer, table_size)]

    def hands_per_round(self, table_size: int, base: int | None = None) -> int:
        """Hands a table of ``table_size`` plays in a round: ``base`` (default the ruleset's)."""
        return self.default_hands_per_round if base is None else base

    def seat_cards(self, table_size: int) -> tuple[SeatCard, ...]:
        """The seating cards dealt at a table of ``table_size``, in seat order."""
        raise NotImplementedError

    def first_dealer(self, table_size: int) -> int:
        """The seat that deals the first hand of a round."""
        return 0

    def catalogue(self) -> dict:
        """The contract and bonus tables as plain data (for forms, help pages and JSON)."""
        sits_out = next((n for n in self.table_sizes if self.sitting_out(0, n) is not None), None)
        return catalogue(self, dealer_sits_out_at=sits_out)

    # ------------------------------------------------------------------------- scoring, once

    def validate(self, hand, table_size: int, history: Sequence = ()) -> list[Problem]:
        """Problems with ``hand`` at a table of ``table_size`` (:class:`Problem`, in the order found);
        empty when it can be scored. ``history`` never changes whether a hand is valid."""
        return self.checker(self, hand, table_size).run()

    def evaluate(self, hand, table_size: int, history: Sequence = ()) -> Scored:
        """Check ``hand``, then settle it: one :class:`Scored` with the problems or the settlement.
        ``history``: the earlier records of its table and round, oldest first (``hand-record.md``
        "Context"), for rulesets that use them."""
        problems = self.validate(hand, table_size, history)
        if problems:
            return Scored(problems=tuple(problems))
        return Scored(settlement=self.settle_valid(hand, table_size, history))

    def settle_valid(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The settlement of a hand already validated: struck (every seat 0), manual (its row as
        written) or played (:meth:`settle`)."""
        outcome = hand.get("outcome", "played")
        if outcome == "struck":
            return Settlement(summary=_("Struck by the tournament director: every player scores 0."), row=(0,) * table_size)
        if outcome == "manual":
            return Settlement(summary=_("Manual row."), row=tuple(hand["scores"]), awards=self.manual_awards(hand))
        return self.settle(hand, table_size, history)

    def settle(self, hand, table_size: int, history: Sequence) -> Settlement:
        """The settlement of a valid played hand (each ruleset's own rules)."""
        raise NotImplementedError

    def won_of(self, record) -> bool | None:
        """Whether the declarer won, as the record says it (``won``; ``None`` if it does not)."""
        won = record.get("won")
        return won if isinstance(won, bool) else None

    def manual_awards(self, hand) -> bool:
        """Whether a manual row changes what later hands are scored with (Bled: radelci)."""
        return False

    def breakdown(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The row with the posts that make it. Raises :class:`InvalidHand` with the problems."""
        return self.evaluate(hand, table_size, history).result()

    def score(self, hand, table_size: int, history: Sequence = ()) -> list[int]:
        """The score row of ``hand``, one ``int`` per seat. Raises :class:`InvalidHand`."""
        return list(self.breakdown(hand, table_size, history).row)

    # ----------------------------------------------------------------- what later hands carry

    def history_marks(self, history: Sequence, table_size: int) -> list[str]:
        """What each seat carries after ``history`` into the next hand, as a mark for the score
        sheet (Bled: "○" per radelc held), empty strings where the ruleset carries nothing."""
        return [""] * table_size

    def history_note(self, record, history: Sequence, table_size: int) -> list[Problem]:
        """What ``record`` did to what the seats carry (Bled: "radelc ×2", "+ radelc")."""
        return []

    # ------------------------------------------------------------------------------- in words

    def describe(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """A hand in words, as parts to translate and join ("Dreier", "seat 2", "won", "Pagat
        announced"); seat parameters end in ``seat`` (the Django layer puts names in). ``row``,
        the stored row, tells won or lost where the card points decide it."""
        outcome = record.get("outcome", "played")
        if outcome == "struck":
            return [Problem(_("struck"))]
        if outcome == "manual":
            parts = [Problem(_("manual row"))]
            try:
                parts.append(verbatim(self.contract(record.get("contract")).name))
            except (KeyError, TypeError):
                pass
            return parts
        try:
            contract = self.contract(record.get("contract"))
        except (KeyError, TypeError):
            return [verbatim(str(record.get("contract")))]
        fields = self.fields(contract)
        parts = [verbatim(contract.name)]
        declarer, partner = record.get("declarer"), record.get("partner")
        if "declarer" in fields and declarer is not None:
            if partner is not None and partner != declarer:
                parts.append(Problem(_("%(declarer_seat)s + %(partner_seat)s"), declarer_seat=declarer, partner_seat=partner))
            else:
                parts.append(Problem("%(declarer_seat)s", declarer_seat=declarer))
        if record.get("declarer_points") is not None:
            parts.append(Problem(_("%(points)s points"), points=record["declarer_points"]))
        if isinstance(record.get("card_points"), Mapping):
            for seat, value in sorted(record["card_points"].items(), key=lambda item: int(item[0])):
                parts.append(Problem("%(player_seat)s %(text)s", player_seat=int(seat), text=str(value).removesuffix("/0")))
        if record.get("against_solo"):
            parts.append(Problem(_("against a Solo")))
        # The kontra level in the game's word, then who said the Kontra: "kontra by Berta" says
        # both for a plain Kontra, "rekontra", "kontra by Berta" where it went further.
        kontra, kontra_by = record.get("kontra"), record.get("kontra_by")
        if kontra and not (kontra == 1 and kontra_by is not None):
            parts.append(verbatim(self.kontra_word(kontra)))
        if kontra_by is not None:
            parts.append(Problem(_("kontra by %(player_seat)s"), player_seat=kontra_by))
        if record.get("mond_lost_by") is not None:
            parts.append(Problem(_("Mond lost by %(player_seat)s"), player_seat=record["mond_lost_by"]))
        parts.extend(self.record_field_words(record, fields))
        parts.extend(self.hand_flags(record))
        if record.get("revoke") is not None:
            parts.append(Problem(_("Renonce by %(player_seat)s"), player_seat=record["revoke"]))
        elif record.get("conceded"):
            parts.append(Problem(_("conceded")))
        elif "won" in fields and isinstance(record.get("won"), bool):
            parts.append(Problem(_("won") if record["won"] else _("lost")))
        elif record.get("declarer_points") is not None and row and declarer is not None:
            parts.append(Problem(_("won") if row[declarer] > 0 else _("lost")))  # the points decide it
        known = {b.key for b in self.bonuses}
        parts.extend(self.bonus_words(b) for b in record.get("bonuses") or [] if b.get("bonus") in known)
        return parts

    def kontra_word(self, level) -> str:
        """The game's word for kontra ``level`` ("rekontra", Hungarian "hirskontra")."""
        return self.kontra_names[level] if isinstance(level, int) and 0 <= level < len(self.kontra_names) else str(level)

    def record_field_words(self, record, fields) -> list[Problem]:
        """The ruleset's own record fields (:attr:`record_fields`) of ``record`` in words: a
        choice's label ("XIX called"), a flag's label, each seat of a per-seat field."""
        parts: list[Problem] = []
        for spec in self.record_fields:
            value = record.get(spec.name)
            if spec.name not in fields or value in (None, False, {}):
                continue
            if spec.kind == "flag":
                parts.append(Problem(spec.label))
            elif spec.kind == "choice" and (choice := spec.choice(value)) is not None:
                parts.append(Problem(choice.label))
            elif spec.kind == "per_seat" and isinstance(value, Mapping):
                for seat, held in sorted(value.items(), key=lambda item: str(item[0])):
                    choice = spec.choice(held)
                    if choice is not None and str(seat).isdigit():
                        parts.append(Problem("%(player_seat)s: %(text)s", player_seat=int(seat), text=choice.label))
        return parts

    def hand_flags(self, record) -> list[Problem]:
        """Remarks a ruleset makes about a hand (Cego: "Bürgermeister", "durchgegangen")."""
        return []

    def notable(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """Why a hand is worth mentioning in the day's statistics, as :class:`Problem` parts to
        translate ("Valat", "Trischaken", "Solodreier won", "Pagat announced"); an empty list for
        an ordinary hand.

        ``record``: the stored hand record (``hand-record.md``), in its own seat numbering;
        ``row``: its score row in the same numbering (one ``int`` per seat of the record), which
        tells won or lost where the record does not say it (the card points decide, as in
        :meth:`describe`). Never raises: an unknown contract, a struck hand or a manual row has
        no reason. Reasons use a fixed vocabulary the statistics count by (``msgid``):
        ``"Valat"`` for every valat made (``koenigrufen.md`` §1 "Bonus classes": a bonus of kind
        ``"valat"``), the contract's own name for a contract in which everyone plays for
        himself (no declarer among its :meth:`fields`: Trischaken, ``koenigrufen.md`` §1),
        ``"%(contract)s won"`` for a solo won, and :meth:`bonus_words` for an announced trick
        bonus made (a bird or König ultimo, announced and made by either side).

        **Decision**: these are what a tournament director reads out at the prize-giving; a
        failed announcement, a Kontra or a lost solo is not mentioned. Rulesets with terms of
        their own (Bled's Klop and silent valat, Cego's Ulti and Solodu) override this and may
        call it for the shared part.
        """
        if record.get("outcome", "played") != "played":
            return []
        try:
            contract = self.contract(record.get("contract"))
        except (KeyError, TypeError):
            return []
        fields = self.fields(contract)
        if "declarer" not in fields:
            return [verbatim(contract.name)]  # everyone for himself: Trischaken
        reasons: list[Problem] = []
        known = {b.key: b for b in self.bonuses}
        bonuses = [b for b in record.get("bonuses") or [] if isinstance(b, Mapping) and b.get("bonus") in known]
        if any(known[b["bonus"]].kind == "valat" and b.get("made") for b in bonuses):
            reasons.append(Problem(_("Valat")))
        if contract.solo:
            won = self.won_of(record)
            declarer = record.get("declarer")
            if won is None and row is not None and isinstance(declarer, int) and 0 <= declarer < len(row):
                won = row[declarer] > 0
            if won:
                reasons.append(Problem(_("%(contract)s won"), contract=contract.name))
        reasons.extend(
            self.bonus_words(b) for b in bonuses if known[b["bonus"]].kind == "trick" and b.get("announced") and b.get("made")
        )
        return reasons

    def bonus_words(self, bonus: Mapping) -> Problem:
        """One bonus entry in words: "Pagat", "Pagat announced failed", "opponents: Trull",
        a held one with its holder: "Trull: seat 2"."""
        words = verbatim(self.bonus(bonus["bonus"]).name)
        if isinstance(bonus.get("holder"), int) and not isinstance(bonus.get("holder"), bool):
            return Problem("%(bonus_text)s: %(player_seat)s", bonus_text=words, player_seat=bonus["holder"])
        if bonus.get("announced"):
            words = Problem(_("%(bonus_text)s announced"), bonus_text=words)
        if bonus.get("kontra"):
            words = Problem("%(bonus_text)s %(text)s", bonus_text=words, text=self.kontra_word(bonus["kontra"]))
        if bonus.get("made") is False:
            words = Problem(_("%(bonus_text)s failed"), bonus_text=words)
        if bonus.get("team") == "opponents":
            words = Problem(_("opponents: %(bonus_text)s"), bonus_text=words)
        return words

    def total_words(self, total: int) -> Problem | None:
        """What players call a total, where the ruleset has a word for it (Cego: Gute, Miese)."""
        return None

    def rules_summary(self) -> list[Problem]:
        """How the ruleset scores, in sentences for the rules page, with the options in force."""
        return []

    def options_in_force(self) -> list[tuple[Option, bool]]:
        """Every option with its setting for this tournament, for the rules page and the prints."""
        return [(o, bool(self.options.get(o.key, o.default))) for o in self.option_specs]

    # -------------------------------------------------------------------------------- notation

    @cached_property
    def notation(self) -> Notation:
        """The :class:`~variants.notation.Notation` of this ruleset (its codes and fields)."""
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

    # ------------------------------------------------------------------------------ random hands

    def random_hand(self, rng, table_size: int, dealer: int, attempts: int = 50) -> dict:
        """A valid random hand record for ``dealer`` at a table of ``table_size``, from ``rng``
        (``random.Random``: a seed reproduces it), for demos and benchmarks: :meth:`draw_random`
        until the ruleset accepts one. Raises ``ValueError`` for a table or dealer the ruleset
        does not have and ``RuntimeError`` after ``attempts`` refused draws (a bug on one side)."""
        if table_size not in self.table_sizes or not 0 <= dealer < table_size:
            raise ValueError(f"{self.label} has no dealer {dealer} at a table of {table_size}")
        for _attempt in range(attempts):
            hand = self.draw_random(rng, table_size, dealer)
            if not self.validate(hand, table_size):
                return hand
        raise RuntimeError(f"{self.label}: no valid random hand in {attempts} draws; last {hand!r}")

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """One random hand record, not necessarily valid: from the catalogue alone
        (:func:`variants.randomhands.catalogue_hand`). Rulesets draw the mix of a real evening."""
        from .randomhands import catalogue_hand

        return catalogue_hand(self, rng, table_size, dealer)
