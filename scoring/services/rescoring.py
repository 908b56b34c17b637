"""Re-scoring stored hands: one function for every reason a table's rows are computed again.

:func:`rescore_table` serves the save, the deletion and the restoring of a hand (rulesets whose
rows depend on the earlier hands, Bled radelci, re-score the hands after it) and ``manage.py
recompute`` (every hand, reporting the rows that changed and the hands the ruleset now refuses).
:func:`refresh_seat_scores` keeps the seats' round scores that the standings read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.models import Seat, Table
from tournaments.permissions import acting_user

from ..models import Hand
from .context import in_numbering, record_positions, widen


@dataclass
class Rescored:
    """What :func:`rescore_table` did: ``changed`` hands (their new rows saved) and ``refused``
    hands with the ruleset's problems (their rows kept)."""

    changed: list = field(default_factory=list)
    refused: list = field(default_factory=list)


def table_rows(rs, records: list[dict], seats: int) -> list[list[int] | None]:
    """The rows of a table's stored ``records`` (hand order), each scored after the earlier ones
    where the ruleset uses them and widened over all ``seats``; ``None`` for a record the ruleset
    refuses."""
    return [row for row, _problems in _scored_rows(rs, records, seats)]


def _scored_rows(rs, records: list[dict], seats: int) -> list[tuple[list[int] | None, tuple]]:
    """``(row, problems)`` per record, as :func:`table_rows`: the row, or ``None`` and the
    ruleset's problems with the record."""
    result = []
    for i, record in enumerate(records):
        positions = record_positions(record, seats)
        history = [in_numbering(r, seats, positions) for r in records[:i]] if rs.uses_history else ()
        scored = rs.evaluate(record, len(positions), history)
        result.append((widen(scored.row, positions, seats), ()) if scored.ok else (None, scored.problems))
    return result


def rescore_table(table: Table, rs, seats: int, user=None, after: int = 0, reason: str | None = None) -> Rescored:
    """Score the hands of ``table`` numbered above ``after`` again (each after all the earlier
    ones) and save the rows that changed, stamped with ``user`` and ``reason``. ``seats``: the
    table's seat count. Call under the table's lock (:func:`~scoring.services.context.lock_open_table`)."""
    reason = reason or _("re-scored after an earlier hand changed")
    result = Rescored()
    hands = list(table.hands.order_by("number"))
    if not any(h.number > after for h in hands):
        return result
    for hand, (row, problems) in zip(hands, _scored_rows(rs, [h.record for h in hands], seats)):
        if hand.number <= after:
            continue
        if row is None:
            result.refused.append((hand, list(problems)))
        elif row != hand.scores:
            hand.scores = row
            stamp(hand, user, reason)
            hand.save(update_fields=["scores"])
            result.changed.append(hand)
    return result


def stamp(hand: Hand, user, reason: str) -> None:
    """Who and why for the next history entry (django-simple-history's per-save attributes)."""
    if acting_user(user) is not None:
        hand._history_user = user
    hand._change_reason = reason[:100] if reason else ""


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
