"""Seat, table and round commands of the day: a player leaves a table, a late table is ended, a
round is verified (its hands locked) or reopened with a reason. Each is logged. The players'
side of the private link: they confirm the sheet as it stands or flag a hand; a confirmation
holds only for the sheet as it was (:func:`confirmation_states`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import actions
from tournaments.models import Round, Table
from tournaments.versioning import PreparedQuery, stamp, touch, touch_table, with_mirror_version

from ..models import Hand, HandFlag, SheetConfirmation
from .context import lock_open_table, seat_name, table_info
from .errors import HandRejected


def drop_player(seat, user=None) -> None:
    """The player of ``seat`` leaves the table mid-round: the table plays on one seat smaller
    (a 5-table as a 4-table) for its remaining hands. Raises :class:`HandRejected` when the
    ruleset has no table of that size, a player already left, or the table has finished."""
    with transaction.atomic():
        table = lock_open_table(seat.table_id)
        # Read under the lock: of two posts at once (a double click, two seats) only one leaves.
        info = table_info(table)
        if info.reduced:
            raise HandRejected([_("A player already left this table; only one can leave.")])
        if info.size - 1 not in info.ruleset.table_sizes:
            raise HandRejected(
                [_("A table of %(size)s cannot play on with %(fewer)s.") % {"size": info.size, "fewer": info.size - 1}]
            )
        played = table.hands.count()
        if played >= info.cap:
            raise HandRejected([_("This table has played all %(cap)s hands of the round.") % {"cap": info.cap}])
        seat.left_after = played
        seat.save(update_fields=["left_after"])
        actions.log(
            table.round.tournament_id, actions.Action.LEFT, user, round_number=table.round.number,
            detail=f"{seat_name(seat)} ({table}, {played})",
        )


def end_table(table: Table, user=None) -> int:
    """The director ends a late table now: its round counts the hands played so far. Returns them.
    Raises :class:`RoundLocked` in a verified round."""
    with transaction.atomic():
        locked = lock_open_table(table.pk)
        table.ended_after = table.hands.count()
        table.save(update_fields=["ended_after"])
        actions.log(
            locked.round.tournament_id, actions.Action.TABLE_ENDED, user,
            round_number=locked.round.number, detail=f"{table} ({table.ended_after})",
        )
    return table.ended_after


def verify_round(rnd, user=None) -> bool:
    """Mark round ``rnd`` verified: its hands, seats and private links are locked from now on.
    Sets, never toggles: verifying a verified round changes nothing. Returns whether it changed.
    The round's tables are locked first, so a hand being saved meanwhile is either in or refused."""
    with transaction.atomic():
        touch(rnd.tournament_id)
        list(Table.objects.select_for_update().filter(round=rnd))
        current = Round.objects.select_for_update().get(pk=rnd.pk)
        if current.verified_at is not None:
            rnd.verified_at = current.verified_at
            return False
        rnd.verified_at = timezone.now()
        rnd.save(update_fields=["verified_at"])
        actions.log(rnd.tournament_id, actions.Action.VERIFIED, user, round_number=rnd.number)
    return True


def reopen_round(rnd, reason: str, user=None) -> bool:
    """Reopen a verified round so its hands can change again; ``reason`` is required and kept in
    the log. Returns whether it changed (an open round stays open). Raises ``ValueError`` without
    a reason."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a reason is required")
    with transaction.atomic():
        touch(rnd.tournament_id)
        current = Round.objects.select_for_update().get(pk=rnd.pk)
        if current.verified_at is None:
            rnd.verified_at = None
            return False
        rnd.verified_at = None
        rnd.save(update_fields=["verified_at"])
        actions.log(rnd.tournament_id, actions.Action.REOPENED, user, round_number=rnd.number, detail=reason)
    return True


class SheetChanged(Exception):
    """A confirmation of a sheet that is no longer the table's: the page the players confirmed
    showed version ``seen`` (``None``: a page that did not say which), the table's sheet is at
    ``version`` now (:func:`sheet_versions`). Nothing was saved."""

    def __init__(self, seen: int | None, version: int):
        super().__init__(f"the page showed version {seen} of the sheet, it is at version {version}")
        self.seen = seen
        self.version = version


AS_IT_STANDS = object()
"""``seen_version`` of :func:`confirm_sheet` for a caller that confirms the sheet as it stands
when the call runs (a script, the demo); the players' page always passes the version it showed."""


def confirm_sheet(table: Table, name: str = "", seen_version: int | None | object = AS_IT_STANDS) -> SheetConfirmation:
    """A player confirms the table's sheet (``name``: who, up to 120 characters, as the form
    allows): its hands and its version (:func:`sheet_versions`), read under the table's lock, so
    a hand being saved meanwhile is either in the confirmed sheet or voids it.

    ``seen_version``: the version of the sheet the player's page showed. He confirms what he
    read, not what stands when his tap arrives: if a hand changed since his page was made (the
    director edited the hand he flagged), or the page did not say which version it showed
    (``None``: a page from before pages said so), nothing is saved and :class:`SheetChanged` is
    raised, so he checks the sheet as it is now and confirms again. Raises :class:`RoundLocked`
    once the round is verified."""
    with transaction.atomic():
        lock_open_table(table.pk)
        version = sheet_version(table)
        if seen_version is not AS_IT_STANDS and seen_version != version:
            raise SheetChanged(seen_version, version)
        return SheetConfirmation.objects.create(
            table=table, name=name.strip()[:120], hands=table.hands.count(), sheet_version=version
        )


def sheet_version(table: Table) -> int:
    """The version of ``table``'s sheet (:func:`sheet_versions`; 0 before its first hand); one
    query."""
    return sheet_versions(table_id=table.pk).get(table.pk, (0, None))[0]


def sheet_versions(**tables) -> dict[int, tuple[int, datetime]]:
    """``{table id: (version, time of the newest change)}`` of each table that has had a hand,
    among the tables ``tables`` selects (a lookup on a hand's ``table``: ``table_id=5``,
    ``table__round__tournament=t``); one query.

    A table's version is the number of entries in the history of its hands, deleted hands'
    included: every write of a hand adds one (entered one by one or as raw rows, edited, struck,
    restored, re-scored after an earlier hand changed, renumbered, deleted; the history is the
    audit trail of every change, so no write passes it by), none is ever taken away, and an
    archive carries them all (:mod:`archive.backup`). So the version only grows, whatever
    changed, and needs no counter of its own that a new kind of write could forget to bump."""
    rows = history_counts(**tables).annotate(latest=Max("history_date")).values_list("table_id", "versions", "latest")
    return {table_id: (versions, latest) for table_id, versions, latest in rows}


def history_counts(**tables):
    """The sheet version of each table ``tables`` selects, as a query grouped by table:
    ``versions``, the entries in the history of its hands (:func:`sheet_versions` says why). Also
    what a patch names each table's state by (:func:`archive.patch.sheet_stamps`)."""
    return Hand.history.filter(**tables).order_by().values("table_id").annotate(versions=Count("history_id"))


_SHEET_PAGE_STAMP = PreparedQuery(
    lambda pk: Table.objects.filter(pk=pk)
    .order_by()
    .annotate(
        versions=Subquery(history_counts(table_id=OuterRef("pk")).values("versions"), output_field=IntegerField())
    )
    .values_list(
        "round__tournament_id", "round__tournament__layout_version", "round__tournament__created", "versions",
        "round__tournament__data_version", "round__tournament__mirrored_from",
    ),
    arity=1,
)


def sheet_page_version(table_id: int) -> tuple[int, str] | None:
    """``(tournament id, version stamp)`` of the public score sheet of table ``table_id``, for the
    page cache (:class:`~tournaments.public_cache.CachedPublicPage`); ``None`` when there is no
    such table. One query, compiled once (:class:`~tournaments.versioning.PreparedQuery`).

    The sheet shows this table's hands and what the tournament's layout version covers (names,
    seats, the round's lock, settings, flags: :mod:`tournaments.versioning`), nothing of another
    table. So its version is the tournament's layout stamp and the table's own
    :func:`sheet_version` (the entries in its hands' history: every write of one of its hands
    adds one), not the tournament's data version: a hand saved at another table leaves this
    sheet cached, and a phone following it gets ``304`` until its own table changes. The stamp
    is ``"S<layout stamp>.<sheet version>"`` (for a mirror followed by its data version, which
    its note names: :func:`~tournaments.versioning.with_mirror_version`)."""
    rows = _SHEET_PAGE_STAMP.rows(table_id)
    if not rows:
        return None
    tournament_id, layout, created, versions, data_version, mirrored_from = rows[0]
    return tournament_id, with_mirror_version(f"S{stamp(layout, created)}.{versions or 0}", data_version, mirrored_from)


@dataclass(frozen=True)
class ConfirmationState:
    """The players' last confirmation of a table's sheet: who (``name``, may be empty), when
    (``created``), at how many ``hands``, and whether it still holds (``current``: no hand of the
    table changed since). A confirmation that no longer holds is shown as "changed after
    confirmation" until the players confirm again."""

    name: str
    hands: int
    created: datetime
    current: bool

    @property
    def changed(self) -> bool:
        """The sheet changed after this confirmation: it confirms a version nobody sees now."""
        return not self.current


def confirmation_states(**tables) -> dict[int, ConfirmationState]:
    """``{table id: ConfirmationState}`` of each table whose sheet was confirmed, among the tables
    ``tables`` selects (as :func:`sheet_versions`); two queries whatever their number.

    A confirmation holds while the table's sheet version (:func:`sheet_versions`) is the one it
    stored. One stored without its version (``None``: the field did not exist yet, which the
    migration and the archive restore fill) holds while no hand of the table changed after its
    time."""
    last: dict[int, SheetConfirmation] = {}
    for confirmation in SheetConfirmation.objects.filter(**tables).order_by("created", "pk"):
        last[confirmation.table_id] = confirmation
    if not last:
        return {}
    # Only the confirmed tables' history: the board asks for a whole tournament every poll, and
    # grouping the history of its thousands of tables to judge the few confirmed ones is the cost.
    versions = sheet_versions(table_id__in=list(last))
    states = {}
    for table_id, confirmation in last.items():
        version, latest = versions.get(table_id, (0, None))
        if confirmation.sheet_version is None:
            current = latest is None or latest <= confirmation.created
        else:
            current = version == confirmation.sheet_version
        states[table_id] = ConfirmationState(confirmation.name, confirmation.hands, confirmation.created, current)
    return states


def confirmation_state(table: Table) -> ConfirmationState | None:
    """:func:`confirmation_states` of one table: ``None`` when its sheet was never confirmed."""
    return confirmation_states(table_id=table.pk).get(table.pk)


def flag_hand(hand, comment: str) -> HandFlag:
    """A player flags ``hand`` of his table for the director with ``comment``. Raises
    :class:`RoundLocked` once the round is verified."""
    with transaction.atomic():
        lock_open_table(hand.table_id)
        return HandFlag.objects.create(hand=hand, comment=comment)


def resolve_flag(flag: HandFlag, user=None) -> bool:
    """The director marks a player's flag on a hand as dealt with. Sets, never toggles: returns
    whether it changed. Logged with the flag's comment."""
    with transaction.atomic():
        touch_table(flag.hand.table_id)
        current = HandFlag.objects.select_for_update().select_related("hand__table__round").get(pk=flag.pk)
        if current.resolved:
            return False
        current.resolved = flag.resolved = True
        current.save(update_fields=["resolved"])
        table = current.hand.table
        actions.log(
            table.round.tournament_id, actions.Action.FLAG_RESOLVED, user, round_number=table.round.number,
            detail=f"{table}, {current.hand.number}: {current.comment}",
        )
    return True
