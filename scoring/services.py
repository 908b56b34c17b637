"""Scoring services: save, edit and delete hands; build a table's score sheet.

Every hand is validated and scored by the tournament's ruleset edition before it is stored; an
invalid hand raises :class:`HandRejected` and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import DrawLog, Seat, Table
from tournaments.problems import translate_problem

from .models import Hand


class HandRejected(Exception):
    """The hand was not saved. ``messages``: translated, with player names, for the scorer."""

    def __init__(self, messages: list[str]):
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


class HandConflict(HandRejected):
    """Somebody saved first (optimistic concurrency): the messages show the other change."""


@dataclass
class TableInfo:
    """What scoring needs to know about a table for one hand.

    ``seats``: every Seat in position order; ``positions``: the physical positions in play (all,
    or fewer after a player left a table mid-round); ``size``: how many play; ``names``: seat in
    play (0..size-1, the hand record's numbering) -> name; ``sheet_names``: position -> name.
    """

    table: Table
    seats: list
    size: int
    names: dict[int, str]
    ruleset: object
    cap: int
    positions: list[int] = field(default_factory=list)
    sheet_names: dict[int, str] = field(default_factory=dict)

    @property
    def reduced(self) -> bool:
        """Fewer play than sit at the table: hand records carry their ``seats``."""
        return len(self.positions) < len(self.seats)

    def widen(self, row: list[int]) -> list[int]:
        """A row in play numbering as a row over every seat (0 for who left)."""
        full = [0] * len(self.seats)
        for i, p in enumerate(self.positions):
            full[p] = row[i]
        return full


def table_info(table: Table, record: dict | None = None) -> TableInfo:
    """Seats, size, ruleset and hand cap of ``table`` (two queries), for its next hand or, with
    ``record``, for that stored hand (the seats in play then)."""
    seats = list(table.seats.select_related("registration__player", "substitute__player").order_by("position"))
    tournament = table.round.tournament
    rs = tournament.get_ruleset()
    cap = tournament.hands_for_table(len(seats)) if table.ended_after is None else table.ended_after
    if record is not None:
        positions = list(record.get("seats") or range(len(seats)))
    else:
        positions = [s.position for s in seats if s.left_after is None]
    sheet_names = {s.position: seat_name(s) for s in seats}
    return TableInfo(
        table=table,
        seats=seats,
        size=len(positions),
        names={i: sheet_names[p] for i, p in enumerate(positions)},
        ruleset=rs,
        cap=cap,
        positions=positions,
        sheet_names=sheet_names,
    )


def record_names(record: dict, sheet_names: dict[int, str]) -> dict[int, str]:
    """Names in a stored hand's own seat numbering (its ``seats`` after a player left)."""
    seats = record.get("seats")
    return {i: sheet_names.get(p, "?") for i, p in enumerate(seats)} if seats else sheet_names


def seat_name(seat) -> str:
    """The seat's player, "Anna Huber → Karl Moser" once a substitute took over."""
    name = seat.registration.player.name
    return f"{name} → {seat.substitute.player.name}" if seat.substitute_id else name


def score_record(info: TableInfo, record: dict) -> list[int]:
    """The row of ``record`` at this table; raises :class:`HandRejected` with translated messages."""
    problems = info.ruleset.validate(record, info.size)
    if problems:
        raise HandRejected([translate_problem(p, info.names) for p in problems])
    return info.ruleset.score(record, info.size)


def save_hand(
    table: Table,
    record: dict,
    user=None,
    hand: Hand | None = None,
    *,
    expected_number: int | None = None,
    expected_version: int | None = None,
    reason: str = "",
    info: "TableInfo | None" = None,
) -> Hand:
    """Validate, score and store ``record`` as the next hand of ``table`` or in place of ``hand``.

    Optimistic concurrency: ``expected_number`` is the hand number the scorer's form was for, and
    ``expected_version`` the version of the hand he edited; if somebody saved first,
    :class:`HandConflict` says what the other change was and nothing is written. The table row is
    locked while the number is chosen, so numbers stay unique and gapless. Every save is a
    version in the hand's history with ``user`` and ``reason``.

    Raises :class:`HandRejected` when the ruleset refuses the hand or the table's hands are all
    played (the round's cap, or fewer if the director ended the table). ``info``: the table's
    :class:`TableInfo` if the caller has it already.
    """
    info = info or table_info(table, record if hand is not None else None)
    scores = score_record(info, record)
    if info.reduced:
        record = {**record, "seats": info.positions}
        scores = info.widen(scores)
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        if hand is None:
            last = table.hands.order_by("-number").first()
            number = (last.number if last else 0) + 1
            if expected_number is not None and expected_number != number:
                other = table.hands.get(number=expected_number) if expected_number < number else last
                raise HandConflict([conflict_message(other, info, _("entered"))])
            if number > info.cap:
                raise HandRejected(
                    [_("This table has played all %(cap)s hands of the round.") % {"cap": info.cap}]
                )
            hand = Hand(table=table, number=number)
            hand.entered_by = user if user is not None and user.is_authenticated else None
        else:
            current = Hand.objects.select_for_update().get(pk=hand.pk)
            if expected_version is not None and current.version != expected_version:
                raise HandConflict([conflict_message(current, info, _("changed"))])
            hand = current
            hand.version += 1
        hand.record = record
        hand.scores = scores
        _stamp(hand, user, reason)
        hand.save()
        refresh_seat_scores(table, info.seats)
    return hand


def refresh_seat_scores(table: Table, seats: list | None = None) -> list[int]:
    """Recompute the round score of every seat of ``table`` from its hands (one or two queries;
    ``seats``: the table's seats in position order if the caller has them).

    Called inside the transaction that saves or deletes a hand, with the table locked, so the
    standings can read a few thousand seat rows instead of decoding every hand's row.
    """
    seats = list(table.seats.order_by("position")) if seats is None else seats
    totals = [0] * len(seats)
    later = [0] * len(seats)  # from a substitute's first hand on: his
    for number, scores in table.hands.values_list("number", "scores"):
        for i, s in enumerate(scores[: len(seats)]):
            start = seats[i].substitute_from
            if start is not None and number >= start:
                later[i] += s
            else:
                totals[i] += s
    changed = [
        seat for seat, total, sub in zip(seats, totals, later) if (seat.score, seat.substitute_score) != (total, sub)
    ]
    for seat, total, sub in zip(seats, totals, later):
        seat.score, seat.substitute_score = total, sub
    Seat.objects.bulk_update(changed, ["score", "substitute_score"])
    return [t + s for t, s in zip(totals, later)]


def _stamp(hand: Hand, user, reason: str) -> None:
    """Who and why for the next history entry (django-simple-history's per-save attributes)."""
    if user is not None and user.is_authenticated:
        hand._history_user = user
    hand._change_reason = reason[:100] if reason else ""


def conflict_message(other: Hand, info: "TableInfo", what: str) -> str:
    """"Hand 5 was entered meanwhile by anna: Dreier · … (−5, 15, −5, −5)." for the refused scorer."""
    latest = other.history.first()
    who = getattr(latest, "history_user", None)
    return _(
        "Hand %(number)s was %(what)s meanwhile%(by)s: %(label)s (%(scores)s). Your entry was not saved; it is still in the form."
    ) % {
        "number": other.number,
        "what": what,
        "by": (" " + _("by %(user)s") % {"user": who.get_username()}) if who else "",
        "label": describe(other.record, info.names, info.ruleset, other.scores),
        "scores": ", ".join(str(s) for s in other.scores),
    }


def restore_hand(hand: Hand, history_id: int, user=None) -> Hand:
    """Save an earlier version of ``hand`` as its newest, re-validated and re-scored under the
    tournament's edition. Raises ``Hand.history.model.DoesNotExist`` or :class:`HandRejected`."""
    old = hand.history.get(history_id=history_id)
    when = timezone.localtime(old.history_date).strftime("%d.%m. %H:%M")
    return save_hand(hand.table, old.record, user, hand=hand, reason=_("restored the version of %(when)s") % {"when": when})


def delete_hand(hand: Hand, user=None, reason: str = "") -> None:
    """Delete ``hand`` (kept in its history with who and why) and renumber the later hands of its
    table so numbers stay gapless."""
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=hand.table_id)
        later = list(hand.table.hands.filter(number__gt=hand.number).order_by("number"))
        _stamp(hand, user, reason)
        hand.delete()
        for h in later:
            h.number -= 1
            _stamp(h, user, _("renumbered after hand %(number)s was deleted") % {"number": hand.number})
            h.save(update_fields=["number"])
        refresh_seat_scores(hand.table)


def stored_row(rs, record: dict, seats: int) -> list[int]:
    """Re-score a stored hand as the sheet stores it: over all ``seats`` of its table, widened
    from the seats that played it after a player left. Raises :class:`variants.InvalidHand`."""
    positions = record.get("seats") or list(range(seats))
    row = rs.score(record, len(positions))
    full = [0] * seats
    for i, p in enumerate(positions):
        full[p] = row[i]
    return full


def drop_player(seat, user=None) -> None:
    """The player of ``seat`` leaves the table mid-round: the table plays on one seat smaller
    (a 5-table as a 4-table) for its remaining hands. Raises :class:`HandRejected` when the
    ruleset has no table of that size, a player already left, or the table has finished."""
    table = seat.table
    info = table_info(table)
    if info.reduced:
        raise HandRejected([_("A player already left this table; only one can leave.")])
    if info.size - 1 not in info.ruleset.table_sizes:
        raise HandRejected(
            [_("A table of %(size)s cannot play on with %(fewer)s.") % {"size": info.size, "fewer": info.size - 1}]
        )
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        played = table.hands.count()
        if played >= info.cap:
            raise HandRejected([_("This table has played all %(cap)s hands of the round.") % {"cap": info.cap}])
        seat.left_after = played
        seat.save(update_fields=["left_after"])
        DrawLog.objects.create(
            tournament=table.round.tournament,
            round_number=table.round.number,
            action=DrawLog.Action.LEFT,
            detail=f"{seat_name(seat)} ({table}, {played})",
            user=user if user is not None and user.is_authenticated else None,
        )


def end_table(table: Table, user=None) -> int:
    """The director ends a late table now: its round counts the hands played so far. Returns them."""
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        table.ended_after = table.hands.count()
        table.save(update_fields=["ended_after"])
    return table.ended_after


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

    @property
    def cells(self) -> list[tuple[int, str]]:
        """``(score, css classes)`` per seat: sign colour, and the seat that sat out."""
        return [
            (s, ("pos" if s > 0 else "neg" if s < 0 else "") + (" sitting" if i == self.sitting_out else ""))
            for i, s in enumerate(self.scores)
        ]


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

    @property
    def next_dealer_name(self) -> str:
        return self.info.names.get(self.next_dealer, "")

    @property
    def next_vorhand_name(self) -> str:
        return self.info.names.get(self.next_vorhand, "")

    @property
    def players_now(self) -> list[str]:
        """Who plays each seat of the next hand: the substitute where one took over (quick entry)."""
        seats = {s.position: s for s in self.info.seats}
        return [
            (seats[p].substitute.player.name if seats[p].substitute_id else seats[p].registration.player.name)
            for p in self.info.positions
        ]


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
    names = record_names(record, names)
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


def build_sheet(table: Table, info: TableInfo | None = None) -> Sheet:
    """The score sheet of ``table`` (two or three queries; ``info`` if the caller has it)."""
    info = info or table_info(table)
    sheet = Sheet(info=info, totals=[0] * len(info.seats))
    last_dealer = None  # physical position
    for hand in table.hands.order_by("number"):
        record = hand.record
        positions = record.get("seats") or list(range(len(info.seats)))
        dealer = positions[record.get("dealer", 0)]
        out = info.ruleset.sitting_out(record.get("dealer", 0), len(positions))
        sheet.totals = [a + b for a, b in zip(sheet.totals, hand.scores)]
        sheet.rows.append(
            SheetRow(
                hand=hand,
                dealer=dealer,
                label=describe(record, info.sheet_names, info.ruleset, hand.scores),
                scores=hand.scores,
                totals=list(sheet.totals),
                sitting_out=None if out is None else positions[out],
                dealer_name=info.sheet_names.get(dealer, "?"),
            )
        )
        last_dealer = dealer
    sheet.next_number = len(sheet.rows) + 1
    sheet.complete = len(sheet.rows) >= info.cap
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
    return sheet
