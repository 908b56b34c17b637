"""Hand commands: enter, edit, restore and delete a hand of a table.

Every hand is checked and settled by the tournament's ruleset before it is stored; a refused hand
raises :class:`~scoring.services.errors.HandRejected` and nothing is written. The table row is
locked while a hand is numbered, so numbers stay unique and gapless; a verified round refuses
every change (:func:`~scoring.services.context.lock_open_table`).

Striking a hand, and lifting a strike, is the tournament director's call: a user who may not
strike (a scorer, ``may_strike`` off) can neither store a struck hand nor change a hand that is
struck as it is now, by an edit or by restoring an earlier version (:func:`refuse_strike_change`).
The entry form, the history's restore and raw rows all go through here, so the rule is kept once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import Table
from tournaments.permissions import acting_user
from tournaments.problems import translate_problem

from ..models import Hand
from .context import TableInfo, lock_for_new_hand, lock_open_table, table_info
from .display import conflict_message, deleted_message, strike_refused
from .errors import HandConflict, HandRejected
from .rescoring import add_to_seat_scores, refresh_seat_scores, rescore_table, stamp


def evaluate_record(info: TableInfo, record: dict):
    """Check ``record`` at this table and settle it after the table's earlier hands where the
    ruleset uses them: its :class:`variants.base.Settlement` (row in the hand's numbering).
    Raises :class:`HandRejected` with the ruleset's messages, translated, with player names."""
    scored = info.ruleset.evaluate(record, info.size, info.history())
    if not scored.ok:
        raise HandRejected([translate_problem(p, info.names) for p in scored.problems])
    return scored.settlement


def strike_lift_refused(number: int) -> str:
    """Why a scorer may not change hand ``number``: it is struck, and only a director lifts that."""
    return _(
        "Hand %(number)s is struck by the director: only a tournament director may change it or restore another version of it."
    ) % {"number": number}


def refuse_strike_change(record: dict, current: Hand | None, may_strike: bool) -> None:
    """Raise :class:`HandRejected` where a user who may not strike (``may_strike`` off: a scorer)
    would store ``record`` in place of ``current`` (``None``: a new hand) and that touches a
    strike: ``current`` is struck as it is now (:func:`strike_lift_refused`; a struck hand stays as
    the director left it, whatever the new record), or ``record`` is a struck hand
    (:func:`~scoring.services.display.strike_refused`)."""
    if may_strike:
        return
    if current is not None and (current.record or {}).get("outcome") == "struck":
        raise HandRejected([strike_lift_refused(current.number)])
    if record.get("outcome") == "struck":
        raise HandRejected([strike_refused()])


def save_hand(
    table: Table,
    record: dict,
    user=None,
    hand: Hand | None = None,
    *,
    expected_number: int | None = None,
    expected_version: int | None = None,
    reason: str = "",
    info: TableInfo | None = None,
    settlement=None,
    may_strike: bool = True,
) -> Hand:
    """Check, score and store ``record`` as the next hand of ``table`` or in place of ``hand``.

    Optimistic concurrency: ``expected_number`` is the hand number the scorer's form was for, and
    ``expected_version`` the version of the hand he edited; if somebody saved first or deleted it,
    :class:`HandConflict` says what the other change was and nothing is written. Every save is a
    version in the hand's history with ``user`` and ``reason``. ``info``: the table's
    :class:`TableInfo` if the caller has it; ``settlement``: the record's settlement if the caller
    checked it already in this request (the entry form), so it is checked once. ``may_strike``:
    whether the user may strike a hand or lift a strike (a director; off for a scorer). An edit
    that changes neither the record nor the row (saved as it stands, the current version restored)
    writes nothing: no version in the history, so the players' confirmation of the sheet holds.
    The hand returned carries ``table_totals``, the table's totals per seat (position order) after
    the save, where it wrote one; a new hand also ``table_confirmed``, whether the players had
    confirmed the table's sheet before it (read under the lock; such a confirmation no longer
    holds now).

    Raises :class:`HandRejected` when the ruleset refuses the hand, the round is verified, the
    table's hands are all played (the round's cap, or fewer if the director ended the table), or
    the user may not strike and the record is struck or the hand as it is now is struck
    (:func:`refuse_strike_change`, checked under the lock against the stored hand).
    """
    refuse_strike_change(record, None, may_strike)
    info = info or table_info(table, record if hand is not None else None, hand.number if hand is not None else None)
    settlement = settlement or evaluate_record(info, record)
    scores = list(settlement.row)
    if info.reduced:
        record = {**record, "seats": info.positions}
        scores = info.widen(scores)
    new = hand is None
    with transaction.atomic():
        if new:
            last_number, confirmed = lock_for_new_hand(table)
            number = last_number + 1
            if expected_number is not None and expected_number != number:
                # the hand entered as that number meanwhile, or, for a number ahead, the last one
                other = table.hands.filter(number=min(expected_number, number - 1)).first()
                raise HandConflict([conflict_message(other, info, _("entered"))])
            if number > info.cap:
                raise HandRejected([_("This table has played all %(cap)s hands of the round.") % {"cap": info.cap}])
            hand = Hand(table=table, number=number)
            hand.entered_by = acting_user(user)
        else:
            lock_open_table(table.pk, hands_only=True)
            current = Hand.objects.select_for_update().filter(pk=hand.pk).first()
            if current is None:
                raise HandConflict([deleted_message(hand)])
            if expected_version is not None and current.version != expected_version:
                raise HandConflict([conflict_message(current, info, _("changed"))])
            refuse_strike_change(record, current, may_strike)
            hand = current
        if info.uses_history:
            # Settled again under the lock, after the earlier hands as they are now (its validity
            # does not depend on them: no second check).
            info.number, info._history = hand.number, None
            own = {k: v for k, v in record.items() if k != "seats"}
            scores = list(info.ruleset.settle_valid(own, info.size, info.history()).row)
            scores = info.widen(scores) if info.reduced else scores
        if hand.pk is not None:
            if hand.record == record and hand.scores == scores:
                return hand  # saved as it stands (or its current version restored): nothing changed
            hand.version += 1
        hand.record = record
        hand.scores = scores
        stamp(hand, user, reason)
        hand.save()
        if new:
            # The last hand of the table: no later hand to score again, and its row is added to
            # the seats' scores rather than every hand's row read and summed again.
            hand.table_totals = add_to_seat_scores(table, info.seats, hand.number, scores)
            hand.table_confirmed = confirmed
        else:
            if info.uses_history:
                rescore_table(table, info.ruleset, len(info.seats), user, after=hand.number)
            hand.table_totals = refresh_seat_scores(table, info.seats)
    return hand


def restore_hand(hand: Hand, history_id: int, user=None, may_strike: bool = True) -> Hand:
    """Save an earlier version of ``hand`` as its newest, checked and scored again under the
    tournament's edition. ``may_strike`` off (a scorer): a struck version, or any version of a hand
    struck as it is now, is refused (:func:`refuse_strike_change`). Raises
    ``Hand.history.model.DoesNotExist`` or :class:`HandRejected`."""
    old = hand.history.get(history_id=history_id)
    when = date_format(timezone.localtime(old.history_date), "SHORT_DATETIME_FORMAT")
    return save_hand(
        hand.table, old.record, user, hand=hand, may_strike=may_strike,
        reason=_("restored the version of %(when)s") % {"when": when},
    )


def delete_hand(hand: Hand, user=None, reason: str = "") -> None:
    """Delete ``hand`` (kept in its history with who and why) and renumber the later hands of its
    table so numbers stay gapless; where rows depend on the earlier hands, the later hands are
    scored again. Raises :class:`HandConflict` if it is gone already, :class:`HandRejected` in a
    verified round."""
    with transaction.atomic():
        lock_open_table(hand.table_id, hands_only=True)
        if not Hand.objects.filter(pk=hand.pk).exists():
            raise HandConflict([deleted_message(hand)])
        later = list(hand.table.hands.filter(number__gt=hand.number).order_by("number"))
        stamp(hand, user, reason)
        hand.delete()
        for h in later:
            h.number -= 1
            stamp(h, user, _("renumbered after hand %(number)s was deleted") % {"number": hand.number})
            h.save(update_fields=["number"])
        rs = hand.table.round.tournament.get_ruleset()
        if rs.uses_history:
            rescore_table(hand.table, rs, hand.table.seats.count(), user, after=hand.number - 1)
        refresh_seat_scores(hand.table)
