"""The score sheet of a table as people read it (a read model): every hand with its dealer, words,
notation and row, the running totals, what the seats carry into the next hand (Bled radelci) and
who deals and leads the next hand."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.models import Table
from tournaments.problems import translate_problem

from ..models import Hand
from .context import TableInfo, in_numbering, record_positions, table_info
from .display import describe, shown_note


@dataclass
class SheetRow:
    """One row of a score sheet: the hand, its dealer, label, scores and running totals.

    ``note``: what the hand did to what the seats carry ("radelc ×2", "+ radelc"); ``notation``:
    its canonical line (:mod:`variants.notation`) in its own seat numbering; ``code``: that line
    without its note (``# …``), as the sheet shows it beside ``hand_note``, the hand's note in the
    reader's words (:func:`~scoring.services.display.shown_note`), so a note (a struck hand's
    reason) is shown once."""

    hand: Hand
    dealer: int
    label: str
    scores: list[int]
    totals: list[int]
    sitting_out: int | None = None
    dealer_name: str = ""
    note: str = ""
    notation: str = ""
    code: str = ""
    hand_note: str = ""

    @property
    def cells(self) -> list[tuple[int, str]]:
        """``(score, css classes)`` per seat: sign colour, and the seat that sat out."""
        return [
            (s, ("pos" if s > 0 else "neg" if s < 0 else "") + (" sitting" if i == self.sitting_out else ""))
            for i, s in enumerate(self.scores)
        ]


@dataclass
class Sheet:
    """A table's score sheet: rows so far, totals and who deals and leads the next hand.

    ``marks``: position -> what the seat carries into the next hand, as players draw it ("○○"
    for two radelci), where the ruleset has such marks (``marks_label``)."""

    info: TableInfo
    rows: list[SheetRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    next_number: int = 1
    played: int = 0  # hands on the sheet (``rows`` may hold only the newest: sheet_after_new_hand)
    next_dealer: int | None = None
    next_vorhand: int | None = None
    complete: bool = False
    marks: dict[int, str] = field(default_factory=dict)

    @property
    def next_dealer_name(self) -> str:
        return self.info.names.get(self.next_dealer, "")

    @property
    def next_sits_out(self) -> bool:
        """The next dealer sits the hand out (Königrufen 5-tables, Cego and Bled 4-tables)."""
        return self.next_dealer is not None and self.info.ruleset.sitting_out(self.next_dealer, self.info.size) is not None

    @property
    def next_vorhand_name(self) -> str:
        return self.info.names.get(self.next_vorhand, "")

    @property
    def numbers_rule(self) -> str:
        """What the raw-rows box says of a line of numbers at this table: when it is refused, or
        that it is always the scores (:func:`scoring.entry.raw_rows.numbers_rule`)."""
        from scoring.entry.raw_rows import numbers_rule

        return numbers_rule(self.info.ruleset)


def build_sheet(table: Table, info: TableInfo | None = None) -> Sheet:
    """The score sheet of ``table`` (two or three queries; ``info`` if the caller has it)."""
    info = info or table_info(table)
    rs = info.ruleset
    full = len(info.seats)
    sheet = Sheet(info=info, totals=[0] * full)
    history: list[dict] = []  # the records so far in the table's full numbering
    last_dealer = None  # physical position
    for hand in table.hands.order_by("number"):
        record = hand.record
        sheet.totals = [a + b for a, b in zip(sheet.totals, hand.scores)]
        note = ""
        if rs.uses_history:
            wide = in_numbering(record, full, list(range(full)))
            note = " ".join(translate_problem(p) for p in rs.history_note(wide, history, full))
            history.append(wide)
        row = sheet_row(info, hand, list(sheet.totals), note)
        sheet.rows.append(row)
        last_dealer = row.dealer
    if rs.marks_label:
        sheet.marks = dict(enumerate(rs.history_marks(history, full)))
    _next_hand(sheet, table, len(sheet.rows), last_dealer)
    return sheet


def sheet_after_new_hand(info: TableInfo, hand: Hand, totals: list[int]) -> Sheet:
    """The score sheet of ``info``'s table right after ``hand`` was entered as its last hand, with
    that hand's row only (``rows``), the table's ``totals`` after it (as
    :func:`~scoring.services.save_hand` returns them: ``hand.table_totals``) and the next hand;
    what the sheet on the scorer's page needs to change, without reading the table's hands again
    (no query). Not for a ruleset whose rows carry the earlier hands (``uses_history``: the
    row's note and the seats' marks need them): :func:`build_sheet` there."""
    if info.uses_history:
        raise ValueError("a sheet that carries the earlier hands is built by build_sheet")
    sheet = Sheet(info=info, totals=list(totals))
    row = sheet_row(info, hand, list(totals))
    sheet.rows.append(row)
    _next_hand(sheet, info.table, hand.number, row.dealer)
    return sheet


def sheet_row(info: TableInfo, hand: Hand, totals: list[int], note: str = "") -> SheetRow:
    """The sheet's row of stored ``hand`` with the table's running ``totals`` after it (all seats,
    position order) and its radelci ``note``."""
    rs = info.ruleset
    record = hand.record
    positions = record_positions(record, len(info.seats))
    dealer = positions[record.get("dealer", 0)]
    out = rs.sitting_out(record.get("dealer", 0), len(positions))
    return SheetRow(
        hand=hand,
        dealer=dealer,
        label=describe(record, info.sheet_names, rs, hand.scores),
        scores=hand.scores,
        totals=totals,
        sitting_out=None if out is None else positions[out],
        dealer_name=info.sheet_names.get(dealer, "?"),
        note=note,
        notation=rs.format_hand(record, len(positions)),
        code=rs.format_hand({k: v for k, v in record.items() if k != "note"}, len(positions)),
        hand_note=shown_note(record),
    )


def _next_hand(sheet: Sheet, table: Table, played: int, last_dealer: int | None) -> None:
    """Set ``sheet``'s next hand, after ``played`` hands of which the last was dealt by
    ``last_dealer`` (a physical position; ``None`` before the first)."""
    info = sheet.info
    sheet.played = played
    sheet.next_number = played + 1
    sheet.complete = played >= info.cap
    if not sheet.complete and info.size:
        # The dealer moves on from the last hand entered (its record is what was played, even
        # after a hand before it was deleted) to the next seat in play; the first hand follows
        # the drawn cards. Dealer and Vorhand are in the next hand's seat numbering.
        if last_dealer is None:
            sheet.next_dealer = table.dealer_of(1, info.size)
        else:
            n = len(info.seats)
            following = [(last_dealer + k) % n for k in range(1, n + 1)]
            sheet.next_dealer = info.positions.index(next(p for p in following if p in info.positions))
        sheet.next_vorhand = (sheet.next_dealer + 1) % info.size
