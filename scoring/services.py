"""Scoring services: save, edit and delete hands; build a table's score sheet.

Every hand is validated and scored by the tournament's ruleset edition before it is stored; an
invalid hand raises :class:`HandRejected` and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.models import Table
from tournaments.problems import translate_problem

from .models import Hand


class HandRejected(Exception):
    """The hand was not saved. ``messages``: translated, with player names, for the scorer."""

    def __init__(self, messages: list[str]):
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


@dataclass
class TableInfo:
    """What scoring needs to know about a table: ``size``, ``names`` per seat, its tournament."""

    table: Table
    seats: list  # Seat objects in position order, registration and player selected
    size: int
    names: dict[int, str]
    ruleset: object
    cap: int


def table_info(table: Table) -> TableInfo:
    """Seats, size, ruleset and hand cap of ``table`` (two queries)."""
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    tournament = table.round.tournament
    rs = tournament.get_ruleset()
    size = len(seats)
    return TableInfo(
        table=table,
        seats=seats,
        size=size,
        names={s.position: s.registration.player.name for s in seats},
        ruleset=rs,
        cap=tournament.hands_for_table(size),
    )


def score_record(info: TableInfo, record: dict) -> list[int]:
    """The row of ``record`` at this table; raises :class:`HandRejected` with translated messages."""
    problems = info.ruleset.validate(record, info.size)
    if problems:
        raise HandRejected([translate_problem(p, info.names) for p in problems])
    return info.ruleset.score(record, info.size)


def save_hand(table: Table, record: dict, user=None, hand: Hand | None = None) -> Hand:
    """Validate, score and store ``record`` as the next hand of ``table`` or in place of ``hand``.

    The table row is locked while the next hand number is chosen, so two scorers entering at
    once get consecutive numbers. Raises :class:`HandRejected` when the ruleset refuses the hand or
    the round's hand cap is reached.
    """
    info = table_info(table)
    scores = score_record(info, record)
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        if hand is None:
            count = table.hands.count()
            if count >= info.cap:
                raise HandRejected(
                    [_("This table has played all %(cap)s hands of the round.") % {"cap": info.cap}]
                )
            last = table.hands.aggregate(m=Max("number"))["m"] or 0
            hand = Hand(table=table, number=last + 1)
        hand.record = record
        hand.scores = scores
        if hand.pk is None:  # who entered it first; edits are versioned separately (issue 5)
            hand.entered_by = user if user is not None and user.is_authenticated else None
        hand.save()
    return hand


def delete_hand(hand: Hand) -> None:
    """Delete ``hand`` and renumber the later hands of its table so numbers stay gapless."""
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=hand.table_id)
        later = list(hand.table.hands.filter(number__gt=hand.number).order_by("number"))
        hand.delete()
        for h in later:
            h.number -= 1
            h.save(update_fields=["number"])


@dataclass
class SheetRow:
    """One row of a score sheet: the hand, its dealer, label, scores and running totals."""

    hand: Hand
    dealer: int
    label: str
    scores: list[int]
    totals: list[int]
    sitting_out: int | None = None
    dealer_name: str = ""


@dataclass
class Sheet:
    """A table's score sheet: rows so far, totals and who deals and leads the next hand."""

    info: TableInfo
    rows: list[SheetRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    next_number: int = 1
    next_dealer: int | None = None
    next_vorhand: int | None = None
    complete: bool = False


def describe(record: dict, names: dict[int, str], rs, scores: list[int] | None = None) -> str:
    """A short label of a hand: "Dreier · Anna · lost · Pagat announced", "struck", "manual row".

    ``names`` maps seats to player names; ``rs`` is the tournament's ruleset; ``scores``, the stored
    row, tells won or lost where the points decide it (Cego).
    """
    outcome = record.get("outcome", "played")
    if outcome == "struck":
        return _("struck")
    if outcome == "manual":
        return _("manual row")
    try:
        name = rs.contract(record.get("contract")).name
    except KeyError:
        name = str(record.get("contract"))
    parts = [name]
    declarer = record.get("declarer")
    if declarer is not None and record.get("contract") != "trischaken":
        who = names.get(declarer, "?")
        partner = record.get("partner")
        if partner is not None and partner != declarer:
            who += " + " + names.get(partner, "?")
        parts.append(who)
    if record.get("declarer_points") is not None:
        parts.append(_("%(points)s points") % {"points": record["declarer_points"]})
    if record.get("against_solo"):
        parts.append(_("against a Solo"))
    flags = {"buergermeister": _("Bürgermeister"), "durchgegangen": _("durchgegangen")}
    parts.extend(flags[f] for f in getattr(rs, "flags", lambda r: [])(record) if f in flags)
    if record.get("revoke") is not None:
        parts.append(_("Renonce by %(name)s") % {"name": names.get(record["revoke"], "?")})
    elif record.get("conceded"):
        parts.append(_("conceded"))
    elif "won" in record and record.get("contract") != "trischaken":
        parts.append(_("won") if record["won"] else _("lost"))
    elif record.get("declarer_points") is not None and scores:
        parts.append(_("won") if scores[record["declarer"]] > 0 else _("lost"))  # derived from the points
    bonuses = [bonus_label(rs, b) for b in record.get("bonuses", []) if b.get("bonus") in {x.key for x in rs.bonuses}]
    if bonuses:
        parts.append(", ".join(bonuses))
    return " · ".join(parts)


def bonus_label(rs, bonus: dict) -> str:
    """"Pagat", "Pagat announced", "opponents: Trull", "Uhu announced failed" for the sheet."""
    label = rs.bonus(bonus["bonus"]).name
    if bonus.get("announced"):
        label += " " + _("announced")
    if not bonus.get("made", True):
        label += " " + _("failed")
    if bonus.get("team") == "opponents":
        label = _("opponents: %(bonus)s") % {"bonus": label}
    return label


def build_sheet(table: Table) -> Sheet:
    """The score sheet of ``table`` (three queries)."""
    info = table_info(table)
    sheet = Sheet(info=info, totals=[0] * info.size)
    for hand in table.hands.order_by("number"):
        dealer = hand.record.get("dealer", 0)
        sheet.totals = [a + b for a, b in zip(sheet.totals, hand.scores)]
        sheet.rows.append(
            SheetRow(
                hand=hand,
                dealer=dealer,
                label=describe(hand.record, info.names, info.ruleset, hand.scores),
                scores=hand.scores,
                totals=list(sheet.totals),
                sitting_out=info.ruleset.sitting_out(dealer, info.size),
                dealer_name=info.names.get(dealer, "?"),
            )
        )
    sheet.next_number = len(sheet.rows) + 1
    sheet.complete = len(sheet.rows) >= info.cap
    if not sheet.complete and info.size:
        # The dealer moves on from the last hand entered (its record is what was played, even
        # after a hand before it was deleted); the first hand follows the drawn cards.
        last = sheet.rows[-1].dealer if sheet.rows else None
        sheet.next_dealer = (last + 1) % info.size if last is not None else table.dealer_of(1, info.size)
        sheet.next_vorhand = (sheet.next_dealer + 1) % info.size
    return sheet
