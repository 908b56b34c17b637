"""Every tournament has a data version: a counter bumped in the same transaction as each change
of what its pages show (hands, seating, registrations, settings, flags, lots, player names).

A second counter, the *layout version*, is bumped with it by every change except one of a
table's hands (entered, edited, deleted, restored, raw rows): the pages that show no hand — the
seating and the rules — are keyed by it and stay cached while the hands come in. A command that
is not a hand change cannot forget it: :func:`touch` bumps both unless told ``hands_only``.

Cached pages and exports are keyed by it (:mod:`tournaments.public_cache`,
:mod:`scoring.exporters`), and the public pages send it as their ``ETag``. Because the counter
lives in the database row and changes with the data in one commit, every app server sees a new
version the moment the change is visible, whatever cache backend it uses.

Lock order. :func:`touch` is an ``UPDATE`` of the tournament row, so it also locks that row until
the transaction ends. Every command calls it *first*, before it locks tables, rounds or hands:
with one order everywhere, two commands never wait for each other in a circle (a hand being saved
at table 3 and the round being verified, say). Hand saves of one tournament therefore take turns
for the few milliseconds of their transaction.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from .models import Tournament


def _bumps(hands_only: bool) -> dict:
    bumps = {"data_version": F("data_version") + 1}
    if not hands_only:
        bumps["layout_version"] = F("layout_version") + 1
    return bumps


def touch(tournament_id: int, *, hands_only: bool = False) -> None:
    """Bump the data version of tournament ``tournament_id`` (and its layout version unless
    ``hands_only``: the change is one of a table's hands and nothing else) and lock its row until
    the current transaction ends. Call it first in the transaction of every change (outside a
    transaction it is a change of its own)."""
    Tournament.objects.filter(pk=tournament_id).update(**_bumps(hands_only))


def touch_table(table_id: int, *, hands_only: bool = False) -> None:
    """:func:`touch` for the tournament that table ``table_id`` belongs to."""
    Tournament.objects.filter(round_set__tables=table_id).update(**_bumps(hands_only))


def tournaments_of_players(player_ids: Iterable[int]) -> list[int]:
    """Ids of the tournaments in which one of ``player_ids`` is registered, in order."""
    return sorted(set(Tournament.objects.filter(registrations__player__in=list(player_ids)).values_list("pk", flat=True)))


def touch_players(player_ids: Iterable[int]) -> None:
    """:func:`touch` for every tournament in which one of ``player_ids`` is registered (a player's
    name is on all their pages), in the order of their ids."""
    for tournament_id in tournaments_of_players(player_ids):
        touch(tournament_id)


def stamp(data_version: int, created) -> str:
    """The version as cache keys and ETags carry it: ``"<data version>.<created, µs>"``. The
    creation time tells a tournament from one created later under the same id (after a database
    was reset), whose counter starts at 0 again."""
    return f"{data_version}.{int(created.timestamp() * 1_000_000)}"


def current_stamp(tournament_id: int, *, layout: bool = False) -> str | None:
    """:func:`stamp` of the tournament as committed now (of its layout version with ``layout``),
    ``None`` if there is no such tournament."""
    field = "layout_version" if layout else "data_version"
    row = Tournament.objects.filter(pk=tournament_id).values_list(field, "created").first()
    return None if row is None else ("L" if layout else "") + stamp(*row)
