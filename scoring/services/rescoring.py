"""Re-scoring stored hands: one function for every reason a table's rows are computed again.

:func:`rescore_table` serves the save, the deletion and the restoring of a hand (rulesets whose
rows depend on the earlier hands, Bled radelci, re-score the hands after it) and ``manage.py
recompute`` (every hand, reporting the rows that changed and the hands the ruleset now refuses).
:func:`refresh_seat_scores` keeps the seats' round scores that the standings read
(:func:`add_to_seat_scores` adds a new last hand's row to them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection
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


def add_to_seat_scores(table: Table, seats: list, number: int, row: list[int]) -> list[int]:
    """Add the row of a new hand ``number`` of ``table`` (over all its ``seats``, in position
    order) to the seats' round scores, and return the table's totals per seat after it (the sum
    of its hands' rows, what :func:`refresh_seat_scores` returns). One ``UPDATE … RETURNING``
    instead of reading every hand of the table.

    Call under the table's lock, for a hand numbered after every other hand of the table (so the
    seats' scores are their hands' sums before and after: :func:`refresh_seat_scores` keeps them so
    for every other change). A seat whose substitute plays from hand ``number`` on adds it to the
    substitute's score, decided by the row as it stands, not by ``seats`` as the caller read them.
    Without ``RETURNING`` (SQLite before 3.35) the seats are refreshed from the hands instead."""
    if connection.vendor not in ("postgresql", "sqlite") or (
        connection.vendor == "sqlite" and connection.Database.sqlite_version_info < (3, 35)
    ):
        return refresh_seat_scores(table, seats)
    q = connection.ops.quote_name
    field = Seat._meta.get_field
    position, score, sub, sub_from, table_col = (
        q(field(name).column) for name in ("position", "score", "substitute_score", "substitute_from", "table")
    )
    by_position = " ".join("WHEN %s THEN %s" for _seat in seats)
    delta = f"(CASE {position} {by_position} ELSE 0 END)"
    substitute_plays = f"({sub_from} IS NOT NULL AND {sub_from} <= %s)"
    sql = (
        f"UPDATE {q(Seat._meta.db_table)} SET "
        f"{score} = {score} + CASE WHEN {substitute_plays} THEN 0 ELSE {delta} END, "
        f"{sub} = {sub} + CASE WHEN {substitute_plays} THEN {delta} ELSE 0 END "
        f"WHERE {table_col} = %s RETURNING {position}, {score}, {sub}"
    )
    pairs = [v for seat, s in zip(seats, row) for v in (seat.position, s)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [number, *pairs, number, *pairs, table.pk])
        stored = {p: (own, later) for p, own, later in cursor.fetchall()}
    for seat in seats:
        seat.score, seat.substitute_score = stored.get(seat.position, (seat.score, seat.substitute_score))
    return [seat.score + seat.substitute_score for seat in seats]
