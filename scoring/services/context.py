"""The table a hand is scored at: its seats in play, names, ruleset, cap and earlier hands.

:class:`TableInfo` is what every scoring command and the entry form need to know about a table;
:func:`lock_open_table` is the lock under which hands are numbered and re-scored
(:func:`lock_for_new_hand` the same for a new hand, in one query less).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from django.db import connection
from django.utils.translation import gettext as _

from tournaments.models import Round, Table
from tournaments.versioning import touch, touch_table

from ..models import Hand, SheetConfirmation
from .errors import RoundLocked


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
        return self.ruleset.uses_history

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
        return widen(row, self.positions, len(self.seats))


def widen(row: list[int], positions: list[int], seats: int) -> list[int]:
    """A row in a hand's own numbering (``positions``: the table seat of each) over all ``seats``
    of its table, 0 for a seat not in play: ``widen([1, -1], [0, 2], 3) == [1, 0, -1]``."""
    full = [0] * seats
    for i, p in enumerate(positions):
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
    cap = tournament.hand_cap(len(seats), table.ended_after)
    if record is not None:
        positions = record_positions(record, len(seats))
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


def record_positions(record: dict, seats: int) -> list[int]:
    """The table seats that played a stored hand, in its own numbering: its ``seats`` after a
    player left the table, else all ``seats`` of the table."""
    return list(record.get("seats") or range(seats))


def in_numbering(record: dict, seats: int, positions: list[int]) -> dict:
    """``record`` (stored, in its own seat numbering) in the numbering of ``positions``.

    The numbering changes only after a player left mid-round; his seat becomes ``None`` and drops
    out of ``card_points``. ``seats``: every seat of the table. Used for the history of a hand.
    """
    own = record_positions(record, seats)
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


def lock_open_table(table_id: int, *, hands_only: bool = False) -> Table:
    """Lock the table row (hands are numbered and re-scored under this lock) and return it;
    raises :class:`RoundLocked` if its round is verified. Call inside a transaction.
    ``hands_only``: the change is one of the table's hands and nothing else, so the tournament's
    layout version stays (:func:`tournaments.versioning.touch`)."""
    # The tournament's row comes first, as in every command (tournaments.versioning: its data
    # version is bumped, and one lock order means no deadlock): saves in one tournament take turns
    # for the milliseconds of their transaction. verify_round locks every table before it marks
    # the round, so reading the round afresh once the lock is held sees a verification that
    # happened while this waited.
    touch_table(table_id, hands_only=hands_only)
    table = Table.objects.select_for_update(of=("self",)).select_related("round").get(pk=table_id)
    table.round.verified_at = Round.objects.values_list("verified_at", flat=True).get(pk=table.round_id)
    if table.round.verified_at is not None:
        raise round_locked(table.round.number)
    return table


def round_locked(number: int) -> RoundLocked:
    """The refusal of a change in verified round ``number`` (raised by the caller)."""
    return RoundLocked(
        [_("Round %(number)s is verified: its hands are locked until a director reopens it with a reason.") % {"number": number}]
    )


def lock_for_new_hand(table: Table) -> tuple[int, bool]:
    """:func:`lock_open_table` for a new hand of ``table`` (inside a transaction, hands only):
    bump the tournament's data version, lock the table row, and return ``(number of its last
    hand, 0 before the first; whether the players ever confirmed its sheet)``, read under the lock
    in the same query as its round. Raises :class:`RoundLocked` if the round is verified. Two
    queries (one ``UPDATE``, one ``SELECT``).

    Every command bumps the tournament's version first (:mod:`tournaments.versioning`), verifying
    a round too; once that ``UPDATE`` holds the tournament's row, a verification is committed or
    not begun, so the round read in the next statement is as it stands."""
    if "round" in table._state.fields_cache:
        touch(table.round.tournament_id, hands_only=True)
    else:
        touch_table(table.pk, hands_only=True)
    with connection.cursor() as cursor:
        cursor.execute(_new_hand_lock_sql(connection.vendor), [table.pk])
        verified, round_number, last_number, confirmed = cursor.fetchone()
    if verified is not None:
        raise round_locked(round_number)
    return last_number or 0, bool(confirmed)


@functools.lru_cache(maxsize=4)
def _new_hand_lock_sql(vendor: str) -> str:
    """The ``SELECT`` of :func:`lock_for_new_hand`, written once (the ORM would build the same
    statement on every save): the table's round's verification and number, its last hand's
    number and whether its sheet was confirmed, the table's row locked where the database locks
    rows (``FOR UPDATE OF`` the table; SQLite's transaction holds the whole database). ``vendor``:
    the database's, which the statement is written for."""
    q = connection.ops.quote_name
    table, rnd = Table._meta, Round._meta
    hand, confirmation = Hand._meta, SheetConfirmation._meta
    lock = f" FOR UPDATE OF {q(table.db_table)}" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {q(rnd.db_table)}.{q(rnd.get_field('verified_at').column)}, {q(rnd.db_table)}.{q(rnd.get_field('number').column)}, "
        f"(SELECT MAX(h.{q(hand.get_field('number').column)}) FROM {q(hand.db_table)} h"
        f" WHERE h.{q(hand.get_field('table').column)} = {q(table.db_table)}.{q(table.pk.column)}), "
        f"EXISTS (SELECT 1 FROM {q(confirmation.db_table)} c"
        f" WHERE c.{q(confirmation.get_field('table').column)} = {q(table.db_table)}.{q(table.pk.column)}) "
        f"FROM {q(table.db_table)} INNER JOIN {q(rnd.db_table)}"
        f" ON {q(rnd.db_table)}.{q(rnd.pk.column)} = {q(table.db_table)}.{q(table.get_field('round').column)} "
        f"WHERE {q(table.db_table)}.{q(table.pk.column)} = %s{lock}"
    )
