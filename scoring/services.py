"""Scoring services: save, edit and delete hands; build a table's score sheet.

Every hand is validated and scored by the tournament's ruleset edition before it is stored; an
invalid hand raises :class:`HandRejected` and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import DrawLog, Round, Seat, Table
from tournaments.problems import translate_problem

from .models import Hand


class HandRejected(Exception):
    """The hand was not saved. ``messages``: translated, with player names, for the scorer."""

    def __init__(self, messages: list[str]):
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


class HandConflict(HandRejected):
    """Somebody saved first (optimistic concurrency): the messages show the other change."""


class RoundLocked(HandRejected):
    """The table's round is verified: its hands do not change until a director reopens it."""


def lock_open_table(table_id: int) -> Table:
    """Lock the table row (hands are numbered and re-scored under this lock) and return it;
    raises :class:`RoundLocked` if its round is verified. Call inside a transaction."""
    table = Table.objects.select_for_update().select_related("round").get(pk=table_id)
    if table.round.verified_at is not None:
        raise RoundLocked(
            [
                _("Round %(number)s is verified: its hands are locked until a director reopens it with a reason.")
                % {"number": table.round.number}
            ]
        )
    return table


def verify_round(rnd, user=None) -> bool:
    """Mark round ``rnd`` verified: its hands, seats and private links are locked from now on.
    Sets, never toggles: verifying a verified round changes nothing. Returns whether it changed.
    The round's tables are locked first, so a hand being saved meanwhile is either in or refused."""
    with transaction.atomic():
        list(Table.objects.select_for_update().filter(round=rnd))
        current = Round.objects.select_for_update().get(pk=rnd.pk)
        if current.verified_at is not None:
            rnd.verified_at = current.verified_at
            return False
        rnd.verified_at = timezone.now()
        rnd.save(update_fields=["verified_at"])
        DrawLog.objects.create(
            tournament_id=rnd.tournament_id, round_number=rnd.number, action=DrawLog.Action.VERIFIED, user=_user(user)
        )
    return True


def reopen_round(rnd, reason: str, user=None) -> bool:
    """Reopen a verified round so its hands can change again; ``reason`` is required and kept in
    the log. Returns whether it changed (an open round stays open). Raises ``ValueError`` without
    a reason."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a reason is required")
    with transaction.atomic():
        current = Round.objects.select_for_update().get(pk=rnd.pk)
        if current.verified_at is None:
            rnd.verified_at = None
            return False
        rnd.verified_at = None
        rnd.save(update_fields=["verified_at"])
        DrawLog.objects.create(
            tournament_id=rnd.tournament_id,
            round_number=rnd.number,
            action=DrawLog.Action.REOPENED,
            detail=reason,
            user=_user(user),
        )
    return True


def _user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


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
    number: int | None = None  # the stored hand this info is for (an edit), else the next hand
    _history: list | None = field(default=None, repr=False)

    @property
    def uses_history(self) -> bool:
        """The ruleset scores a hand after the earlier hands of its table (Bled radelci)."""
        return uses_history(self.ruleset)

    def history(self) -> list[dict]:
        """The earlier records of this table in the hand's own seat numbering, oldest first
        (``hand-record.md`` "Context"); empty where the ruleset does not use them. One query."""
        if not self.uses_history:
            return []
        if self._history is None:
            hands = self.table.hands.order_by("number")
            if self.number is not None:
                hands = hands.filter(number__lt=self.number)
            full = len(self.seats)
            self._history = [in_numbering(r, full, self.positions) for r in hands.values_list("record", flat=True)]
        return self._history

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


def table_info(table: Table, record: dict | None = None, number: int | None = None) -> TableInfo:
    """Seats, size, ruleset and hand cap of ``table`` (two queries), for its next hand or, with
    ``record`` and ``number``, for that stored hand (the seats in play then)."""
    seats = list(table.seats.select_related("registration__player", "substitute__player").order_by("position"))
    tournament = table.round.tournament
    return info_from_seats(table, seats, tournament, tournament.get_ruleset(), record, number)


def info_from_seats(table: Table, seats: list, tournament, rs, record: dict | None = None, number: int | None = None) -> TableInfo:
    """:func:`table_info` from ``seats`` already loaded (position order, players selected) and the
    tournament's ruleset ``rs``; no query."""
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
        number=number,
    )


def uses_history(rs) -> bool:
    """Whether ``rs`` scores a hand after the earlier hands of its table and round (Bled)."""
    return bool(getattr(rs, "uses_history", False))


def in_numbering(record: dict, seats: int, positions: list[int]) -> dict:
    """``record`` (stored, in its own seat numbering) in the numbering of ``positions``.

    The numbering changes only after a player left mid-round; his seat becomes ``None`` and drops
    out of ``card_points``. ``seats``: every seat of the table. Used for the history of a hand.
    """
    own = list(record.get("seats") or range(seats))
    if own == list(positions):
        return record
    index = {p: i for i, p in enumerate(positions)}
    moved = dict(record)
    for key in ("dealer", "declarer", "partner", "kontra_by", "mond_lost_by", "revoke"):
        if record.get(key) is not None:
            moved[key] = index.get(own[record[key]])
    if record.get("card_points"):
        moved["card_points"] = {
            str(index[own[int(k)]]): v for k, v in record["card_points"].items() if own[int(k)] in index
        }
    if record.get("scores"):
        moved["scores"] = [record["scores"][own.index(p)] if p in own else 0 for p in positions]
    moved.pop("seats", None)
    return moved


def record_names(record: dict, sheet_names: dict[int, str]) -> dict[int, str]:
    """Names in a stored hand's own seat numbering (its ``seats`` after a player left)."""
    seats = record.get("seats")
    return {i: sheet_names.get(p, "?") for i, p in enumerate(seats)} if seats else sheet_names


def seat_name(seat) -> str:
    """The seat's player, "Anna Huber → Karl Moser" once a substitute took over."""
    name = seat.registration.player.name
    return f"{name} → {seat.substitute.player.name}" if seat.substitute_id else name


def score_record(info: TableInfo, record: dict) -> list[int]:
    """The row of ``record`` at this table, after the table's earlier hands where the ruleset uses
    them; raises :class:`HandRejected` with translated messages."""
    problems = info.ruleset.validate(record, info.size)
    if problems:
        raise HandRejected([translate_problem(p, info.names) for p in problems])
    return info.ruleset.score(record, info.size, info.history())


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
    info = info or table_info(table, record if hand is not None else None, hand.number if hand is not None else None)
    scores = score_record(info, record)
    if info.reduced:
        record = {**record, "seats": info.positions}
        scores = info.widen(scores)
    with transaction.atomic():
        lock_open_table(table.pk)
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
            current = Hand.objects.select_for_update().filter(pk=hand.pk).first()
            if current is None:
                raise HandConflict([deleted_message(hand)])
            if expected_version is not None and current.version != expected_version:
                raise HandConflict([conflict_message(current, info, _("changed"))])
            hand = current
            hand.version += 1
        if info.uses_history:
            # Scored again under the lock, after the earlier hands as they are now.
            info.number, info._history = hand.number, None
            scores = info.ruleset.score({k: v for k, v in record.items() if k != "seats"}, info.size, info.history())
            scores = info.widen(scores) if info.reduced else scores
        hand.record = record
        hand.scores = scores
        _stamp(hand, user, reason)
        hand.save()
        if info.uses_history:
            rescore_table(table, info.ruleset, len(info.seats), user, after=hand.number)
        refresh_seat_scores(table, info.seats)
    return hand


def table_rows(rs, records: list[dict], seats: int) -> list[list[int]]:
    """The rows of a table's stored ``records`` (hand order), each scored after the earlier ones
    and widened over all ``seats``. Raises :class:`variants.InvalidHand`."""
    rows = []
    for i, record in enumerate(records):
        positions = list(record.get("seats") or range(seats))
        history = [in_numbering(r, seats, positions) for r in records[:i]] if uses_history(rs) else ()
        row = rs.score(record, len(positions), history)
        full = [0] * seats
        for k, p in enumerate(positions):
            full[p] = row[k]
        rows.append(full)
    return rows


def rescore_table(table: Table, rs, seats: int, user=None, after: int = 0) -> int:
    """Re-score the hands of ``table`` numbered above ``after`` once an earlier one changed
    (rulesets whose rows depend on the earlier hands: Bled radelci); saves the rows that changed
    and returns how many. Call under the table's lock."""
    hands = list(table.hands.order_by("number"))
    if not any(h.number > after for h in hands):
        return 0
    changed = 0
    for hand, row in zip(hands, table_rows(rs, [h.record for h in hands], seats)):
        if hand.number > after and row != hand.scores:
            hand.scores = row
            _stamp(hand, user, _("re-scored after an earlier hand changed"))
            hand.save(update_fields=["scores"])
            changed += 1
    return changed


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


def deleted_message(hand: Hand) -> str:
    """"Hand 5 was deleted meanwhile by anna. …" for a scorer whose hand is gone."""
    gone = Hand.history.filter(id=hand.pk, history_type="-").select_related("history_user").first()
    who = getattr(gone, "history_user", None)
    return _("Hand %(number)s was deleted meanwhile%(by)s. Nothing was changed.") % {
        "number": hand.number,
        "by": (" " + _("by %(user)s") % {"user": who.get_username()}) if who else "",
    }


def restore_hand(hand: Hand, history_id: int, user=None) -> Hand:
    """Save an earlier version of ``hand`` as its newest, re-validated and re-scored under the
    tournament's edition. Raises ``Hand.history.model.DoesNotExist`` or :class:`HandRejected`."""
    old = hand.history.get(history_id=history_id)
    when = date_format(timezone.localtime(old.history_date), "SHORT_DATETIME_FORMAT")
    return save_hand(hand.table, old.record, user, hand=hand, reason=_("restored the version of %(when)s") % {"when": when})


def delete_hand(hand: Hand, user=None, reason: str = "") -> None:
    """Delete ``hand`` (kept in its history with who and why) and renumber the later hands of its
    table so numbers stay gapless."""
    with transaction.atomic():
        lock_open_table(hand.table_id)
        if not Hand.objects.filter(pk=hand.pk).exists():
            raise HandConflict([deleted_message(hand)])
        later = list(hand.table.hands.filter(number__gt=hand.number).order_by("number"))
        _stamp(hand, user, reason)
        hand.delete()
        for h in later:
            h.number -= 1
            _stamp(h, user, _("renumbered after hand %(number)s was deleted") % {"number": hand.number})
            h.save(update_fields=["number"])
        rs = hand.table.round.tournament.get_ruleset()
        if uses_history(rs):
            rescore_table(hand.table, rs, hand.table.seats.count(), user, after=hand.number - 1)
        refresh_seat_scores(hand.table)


def stored_row(rs, record: dict, seats: int, earlier: list[dict] = ()) -> list[int]:
    """Re-score a stored hand as the sheet stores it: over all ``seats`` of its table, widened
    from the seats that played it after a player left; ``earlier``: the stored records before it
    at its table (Bled). Raises :class:`variants.InvalidHand`."""
    positions = record.get("seats") or list(range(seats))
    history = [in_numbering(r, seats, positions) for r in earlier] if uses_history(rs) else ()
    row = rs.score(record, len(positions), history)
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
        lock_open_table(table.pk)
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
    """The director ends a late table now: its round counts the hands played so far. Returns them.
    Raises :class:`RoundLocked` in a verified round."""
    with transaction.atomic():
        lock_open_table(table.pk)
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
    radelc: str = ""  # Bled: "radelc ×2" when the declarer's radelc doubled the hand, "+ radelc"
    notation: str = ""  # the hand's canonical line (variants.notation), in its own seat numbering

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
    radelci: list[int] | None = None  # Bled: radelci each seat holds now (tarok-bled.md §5)

    @property
    def radelci_marks(self) -> dict[int, str]:
        """Position -> "○○" (one circle per radelc held, as on a paper sheet); Bled only."""
        return {p: "○" * n for p, n in enumerate(self.radelci or [])}

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
    def players_now(self) -> list[str]:
        """Who plays each seat of the next hand: the substitute where one took over (quick entry)."""
        seats = {s.position: s for s in self.info.seats}
        return [
            (seats[p].substitute.player.name if seats[p].substitute_id else seats[p].registration.player.name)
            for p in self.info.positions
        ]


# Kontra levels on the game (hand-record.md "kontra"), the game's own terms in every language.
KONTRA_NAMES = {1: "kontra", 2: "rekontra", 3: "subkontra", 4: "mortkontra"}


def describe(record: dict, names: dict[int, str], rs, scores: list[int] | None = None) -> str:
    """A short label of a hand: "Dreier · Anna · lost · Pagat announced", "struck", "manual row".

    ``names`` maps seats to player names; ``rs`` is the tournament's ruleset; ``scores``, the stored
    row, tells won or lost where the points decide it (Cego).
    """
    outcome = record.get("outcome", "played")
    if outcome == "struck":
        return _("struck")
    if outcome == "manual":
        label = _("manual row")
        try:
            return f"{label} · {rs.contract(record['contract']).name}" if record.get("contract") else label
        except KeyError:
            return label
    names = record_names(record, names)
    try:
        name = rs.contract(record.get("contract")).name
    except KeyError:
        name = str(record.get("contract"))
    parts = [name]
    declarer = record.get("declarer")
    if declarer is not None and record.get("contract") not in ("trischaken", "klop"):
        who = names.get(declarer, "?")
        partner = record.get("partner")
        if partner is not None and partner != declarer:
            who += " + " + names.get(partner, "?")
        parts.append(who)
    if record.get("declarer_points") is not None:
        parts.append(_("%(points)s points") % {"points": record["declarer_points"]})
    if isinstance(record.get("card_points"), dict) and record["card_points"]:
        points = sorted(record["card_points"].items(), key=lambda item: str(item[0]).zfill(3))
        parts.append(", ".join(f"{names.get(int(k), '?') if str(k).isdigit() else k} {str(v).removesuffix('/0')}" for k, v in points))
    if record.get("against_solo"):
        parts.append(_("against a Solo"))
    if record.get("kontra"):
        parts.append(KONTRA_NAMES.get(record["kontra"], str(record["kontra"])))
    if record.get("kontra_by") is not None:
        parts.append(_("kontra by %(name)s") % {"name": names.get(record["kontra_by"], "?")})
    if record.get("mond_lost_by") is not None:
        parts.append(_("Mond lost by %(name)s") % {"name": names.get(record["mond_lost_by"], "?")})
    flags = {"buergermeister": _("Bürgermeister"), "durchgegangen": _("durchgegangen")}
    parts.extend(flags[f] for f in getattr(rs, "flags", lambda r: [])(record) if f in flags)
    if record.get("revoke") is not None:
        parts.append(_("Renonce by %(name)s") % {"name": names.get(record["revoke"], "?")})
    elif record.get("conceded"):
        parts.append(_("conceded"))
    elif "won" in record and record.get("contract") not in ("trischaken", "klop"):
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
    if bonus.get("kontra"):
        label += " " + KONTRA_NAMES.get(bonus["kontra"], str(bonus["kontra"]))  # Bled
    if not bonus.get("made", True):
        label += " " + _("failed")
    if bonus.get("team") == "opponents":
        label = _("opponents: %(bonus)s") % {"bonus": label}
    return label


def build_sheet(table: Table, info: TableInfo | None = None) -> Sheet:
    """The score sheet of ``table`` (two or three queries; ``info`` if the caller has it)."""
    info = info or table_info(table)
    full = len(info.seats)
    sheet = Sheet(info=info, totals=[0] * full)
    if info.uses_history:
        sheet.radelci = [0] * full
    last_dealer = None  # physical position
    for hand in table.hands.order_by("number"):
        record = hand.record
        positions = record.get("seats") or list(range(full))
        dealer = positions[record.get("dealer", 0)]
        out = info.ruleset.sitting_out(record.get("dealer", 0), len(positions))
        sheet.totals = [a + b for a, b in zip(sheet.totals, hand.scores)]
        radelc = ""
        if sheet.radelci is not None:
            radelc = _radelc_note(info.ruleset, in_numbering(record, full, list(range(full))), sheet.radelci)
        sheet.rows.append(
            SheetRow(
                hand=hand,
                dealer=dealer,
                label=describe(record, info.sheet_names, info.ruleset, hand.scores),
                scores=hand.scores,
                totals=list(sheet.totals),
                sitting_out=None if out is None else positions[out],
                dealer_name=info.sheet_names.get(dealer, "?"),
                radelc=radelc,
                notation=info.ruleset.format_hand(record, len(positions)),
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


def _radelc_note(rs, record: dict, held: list[int]) -> str:
    """What a Bled hand did with the radelci (``tarok-bled.md`` §5), updating ``held`` (per seat,
    the record in the table's full numbering): "radelc ×2" when the declarer's radelc doubled it,
    "+ radelc" when everyone gets one after it."""
    before = list(held)
    rs.apply_radelci(record, len(held), held)
    notes = []
    declarer = record.get("declarer")
    played = record.get("outcome", "played") == "played" and record.get("contract") != "klop"
    if played and declarer is not None and before[declarer]:
        notes.append(_("radelc ×2"))
    if any(after > was for after, was in zip(held, before)):  # only an award raises a count
        notes.append(_("+ radelc"))
    return " ".join(notes)
