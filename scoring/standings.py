"""Gather a tournament's round scores from the database and rank them.

One place loads what every standings page, export and the draw by standings need, in a fixed
number of queries however large the tournament (``conventions.md``, "Query counts stay flat").

A round counts for a player only once his table has played a hand of it: until then his cell is
"–", not 0, and (Bled) the table gives no table points (``tarok-bled.md`` §7, Decision of
2026-11-23). While a table is still playing, its table points are provisional. A player who
withdrew before he played is not ranked at all.
"""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from dataclasses import dataclass
from operator import itemgetter

from django.db import connection

from tournaments.models import Player, Registration, Round, Seat, Table, Tournament

from .models import Hand
from .ranking import TIEBREAKS, Entry, Row, rank


@dataclass
class Standings:
    """Ranked rows plus the round numbers shown as columns; ``after``: last round counted.

    ``final``: every round of the tournament is drawn, counted here and finished at every table:
    the only standings that drawn lots decide and ask for. ``provisional``: some counted table is
    still playing (its rounds' table points may change).
    """

    tournament: Tournament
    rounds: list[int]
    rows: list[Row]
    after: int | None = None
    final: bool = True
    provisional: bool = False

    @property
    def level(self) -> bool:
        """Some players share a rank after every tie-break."""
        return any(row.shared for row in self.rows)


@dataclass(frozen=True)
class TableState:
    """How far a table is: ``round_number`` and ``number`` (the table's number in its round);
    ``played``: a hand is entered; ``finished``: every hand of its round is entered, or the director
    ended it."""

    round_number: int
    number: int
    played: bool
    finished: bool


def _fetch(sql: str, params: list) -> list[tuple]:
    """The rows of one SQL query. The standings read thousands of rows with a few columns each:
    plain tuples from the cursor, without building the ORM's queries and rows around them."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _name(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _table_rows(tournament: Tournament, seat_counts: bool = True) -> list[tuple]:
    """Every drawn round of ``tournament`` with each of its tables as ``(table_id, round_number,
    number, ended_after, hand_count[, seat_count])``; a round without a table as one row of
    ``(None, round_number, None, None, 0[, 0])`` (one query; the seat count only with
    ``seat_counts``). Each count is a subquery per table over its ``table_id`` index: a join of
    hands and seats would multiply the rows to count (a table of 4 with 16 hands: 64) before
    counting them distinct."""
    seats = f", (SELECT COUNT(*) FROM {_name(Seat)} s WHERE s.table_id = t.id)" if seat_counts else ""
    return _fetch(
        f"SELECT t.id, r.number, t.number, t.ended_after, (SELECT COUNT(*) FROM {_name(Hand)} h WHERE h.table_id = t.id){seats}"
        f" FROM {_name(Round)} r LEFT JOIN {_name(Table)} t ON t.round_id = r.id WHERE r.tournament_id = %s",
        [tournament.pk],
    )


def _progress(tournament: Tournament, tables: list[tuple], sizes: dict[int, int] | None = None):
    """``(table_id, round_number, number, played, finished)`` per table, what :class:`TableState`
    says, from the rows of :func:`_table_rows` (a generator of plain tuples: thousands of tables
    make no object each). ``sizes``: the seats per table id where the rows have no seat count.
    The hand cap is asked of the tournament once per table size and end, not once per table."""
    caps: dict[tuple[int, int | None], int] = {}
    for table_id, round_number, number, ended_after, hands, *seats in tables:
        if table_id is None:
            continue  # a round without tables
        size = seats[0] if sizes is None else sizes.get(table_id, 0)
        cap = caps.get((size, ended_after))
        if cap is None:
            cap = caps[(size, ended_after)] = tournament.hand_cap(size, ended_after)
        yield table_id, round_number, number, hands > 0, hands >= cap


def table_states(tournament: Tournament) -> dict[int, TableState]:
    """``{table_id: TableState}`` of every table of the tournament (one query)."""
    return {table_id: TableState(*state) for table_id, *state in _progress(tournament, _table_rows(tournament))}


def _seats(tournament: Tournament, by_seat: bool = True) -> list[tuple[int, int, int | None, int, int]]:
    """Every seat of ``tournament`` as ``(registration_id, score, substitute_id,
    substitute_score, table_id)`` (one query); ``by_seat``: by table and seat, else in no
    particular order (sorting them is a good part of the query on a large field)."""
    order = " ORDER BY s.table_id, s.position" if by_seat else ""
    return _fetch(
        f"SELECT s.registration_id, s.score, s.substitute_id, s.substitute_score, s.table_id FROM {_name(Seat)} s"
        f" JOIN {_name(Table)} t ON t.id = s.table_id JOIN {_name(Round)} r ON r.id = t.round_id"
        f" WHERE r.tournament_id = %s{order}",
        [tournament.pk],
    )


def seat_rows(tournament: Tournament) -> list[tuple[int, int, int | None, int, int, int, int]]:
    """Every seat of ``tournament`` as ``(registration_id, score, substitute_id,
    substitute_score, round_number, table_number, table_id)``, by table and seat (one query)."""
    return _fetch(
        f"SELECT s.registration_id, s.score, s.substitute_id, s.substitute_score, r.number, t.number, s.table_id"
        f" FROM {_name(Seat)} s JOIN {_name(Table)} t ON t.id = s.table_id JOIN {_name(Round)} r ON r.id = t.round_id"
        f" WHERE r.tournament_id = %s ORDER BY s.table_id, s.position",
        [tournament.pk],
    )


def round_results(
    tournament: Tournament, states: dict[int, TableState] | None = None, seats: list[tuple] | None = None
) -> dict[int, dict[int, tuple[int, int]]]:
    """``{registration_id: {round_number: (score, table_number)}}`` over every drawn round whose
    table has played a hand (one query over the seats, whose round scores the scoring services
    keep, unless ``seats`` from :func:`seat_rows` are given; ``states`` from :func:`table_states`,
    loaded if not given; a table drawn after ``states`` was read counts as unplayed)."""
    states = table_states(tournament) if states is None else states
    seats = seat_rows(tournament) if seats is None else seats
    results: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for reg_id, score, sub_id, sub_score, round_number, table_number, table_id in seats:
        state = states.get(table_id)
        if state is None or not state.played:
            continue
        results[reg_id][round_number] = (score, table_number)
        if sub_id is not None:  # a substitute took over the seat: the rest of the round is his
            results[sub_id][round_number] = (sub_score, table_number)
    return results


def _registrations(tournament: Tournament) -> list[tuple[int, str, str, int, int | None, bool | int]]:
    """``(registration_id, name, club, start_number, lot, withdrawn)`` of every registration of
    ``tournament``, by start number (one query; ``withdrawn`` is 0 or 1 on SQLite)."""
    return _fetch(
        f"SELECT g.id, p.name, p.club, g.start_number, g.lot, g.withdrawn"
        f" FROM {_name(Registration)} g JOIN {_name(Player)} p ON p.id = g.player_id"
        f" WHERE g.tournament_id = %s ORDER BY g.start_number",
        [tournament.pk],
    )


def compute_standings(tournament: Tournament, after: int | None = None) -> Standings:
    """Standings of ``tournament``, counting rounds ``1..after`` (all drawn rounds by default).

    Tie-breaks are the ruleset's (``tournament-formats.md`` §1): Tirol ranks by total, best round,
    second-best round, ..., then the director's drawn lots — on the final standings only (lots
    are drawn for the final result; standings before it leave level players level). While the
    tournament goes on the tie-break texts say what is known so far (a round still playing, a
    round not yet played: :meth:`scoring.ranking.BestRounds.explain`); a drawn round in which a
    player has no seat (he registered late, he sat out) or whose table ended without a hand reads
    "not played", as it will stay.

    Three queries however large the field: the drawn rounds with their tables and the tables'
    hand counts, the seats with their round scores (which the scoring services keep), the
    registrations with their players. A table drawn after the tables were read counts as not
    played.

    Python's cyclic garbage collector is paused meanwhile (as for the exports,
    :func:`tournaments.pdf.html_to_pdf`): the tens of thousands of rows, lists and entries kept
    until the ranking is done made it scan them again and again (at 5,000 players some 100
    collections a computation, in most computations a full one too: about 4 ms of 54).
    Reference counting frees what it can; the cycles go at the next collection.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compute_standings(tournament, after)
    finally:
        if enabled:
            gc.enable()


def _compute_standings(tournament: Tournament, after: int | None) -> Standings:
    """:func:`compute_standings` with the collector as it is."""
    tables = _table_rows(tournament, seat_counts=False)
    drawn = sorted({row[1] for row in tables})
    rounds = [n for n in drawn if after is None or n <= after]
    ruleset = tournament.get_ruleset()
    by_table_points = ruleset.victory_points == "table_points"
    # The seats' order matters only to the table points, which rank a table's seats in seat
    # order: a player has one seat or substitute's place a round (the draw seats him once,
    # tournaments.services.seat_substitute refuses one who plays already).
    seats = _seats(tournament, by_seat=by_table_points)
    # Per table: its column among the counted rounds (None: not counted), number, played, still
    # playing (not finished), what _progress says, in one pass that also tells whether every
    # counted table has finished; the hand cap asked once per table size and end.
    column = {n: i for i, n in enumerate(rounds)}
    sizes = Counter(map(itemgetter(4), seats))
    caps: dict[tuple[int, int | None], int] = {}
    where: dict[int, tuple[int | None, int, bool, bool]] = {}
    finished = True
    for table_id, round_number, number, ended_after, hands in tables:
        if table_id is None:
            continue  # a round without tables
        size = sizes[table_id]
        cap = caps.get((size, ended_after))
        if cap is None:
            cap = caps[(size, ended_after)] = tournament.hand_cap(size, ended_after)
        i = column.get(round_number)
        still = hands < cap
        if still and i is not None:
            finished = False
        where[table_id] = (i, number, hands > 0, still)
    final = rounds == drawn and len(drawn) >= tournament.rounds and finished
    # Drawn tie-breaks (lots, cards) settle the final result only.
    tiebreaks = tuple(k for k in ruleset.tiebreaks if final or not getattr(TIEBREAKS[k], "whole_group", False))

    unknown = (None, 0, False, False)  # a table drawn after the tables were read
    width = len(rounds)
    # Per player: his score, table number and "his table still plays it" per counted round (no
    # score: None, None, False). A round without a score is still to come for a player seated at
    # a table that has not finished it (``to_come``); for anyone else (drawn without him:
    # registered late, sat out) it is over.
    cells: dict[int, tuple[list, list, list]] = {}
    to_come: set[int] = set()  # registration id × 32 + column (at most 20 rounds), no hand yet
    played: set[int] = set()  # has a score in a drawn round not counted (the counted ones: cells)
    points_tables: dict[int, list[tuple[int, int]]] = defaultdict(list)  # Bled: counted, played tables' seats
    last_table = i = number = has_hand = still = None
    for reg_id, score, sub_id, sub_score, table_id in seats:
        if table_id != last_table:  # a table's seats mostly come one after the other
            i, number, has_hand, still = where.get(table_id, unknown)
            last_table = table_id
        if not has_hand:
            if still and i is not None:
                to_come.add(reg_id * 32 + i)
            continue
        if i is None:
            played.add(reg_id)
            if sub_id is not None:
                played.add(sub_id)
            continue
        if by_table_points:
            points_tables[table_id].append((reg_id, score + sub_score))
        mine = cells.get(reg_id)
        if mine is None:
            mine = cells[reg_id] = ([None] * width, [None] * width, [False] * width)
        mine[0][i] = score
        mine[1][i] = number
        mine[2][i] = still
        if sub_id is not None:  # a substitute took over the seat: the rest of the round is his
            theirs = cells.get(sub_id)
            if theirs is None:
                theirs = cells[sub_id] = ([None] * width, [None] * width, [False] * width)
            theirs[0][i] = sub_score
            theirs[1][i] = number
            theirs[2][i] = still

    # Bled: each played table's seats ranked by their round score (``tarok-bled.md`` §7). A seat
    # a substitute took over is ranked by its whole round score (**Decision**), its table points
    # go to the registered player; the substitute keeps his game points.
    victory: dict[int, list] = {}
    for table_id, members in points_tables.items():
        i = where[table_id][0]
        for (reg_id, _score), tp in zip(members, ruleset.table_points([s for _r, s in members])):
            mine = victory.get(reg_id)
            if mine is None:
                mine = victory[reg_id] = [None] * width
            mine[i] = tp

    entries = []
    for pk, name, club, start_number, lot, withdrawn in _registrations(tournament):
        mine = cells.get(pk)
        if mine is None:
            if withdrawn and pk not in played:
                continue  # withdrew before he played: not ranked
            mine = ([None] * width, [None] * width, [False] * width)
        scores, numbers, playing = mine
        if None in scores:
            missed = [score is None and pk * 32 + i not in to_come for i, score in enumerate(scores)]
        else:
            missed = [False] * width
        entries.append(
            # By position, in the order of Entry's fields: keywords take twice as long, and
            # this runs once a player.
            Entry(
                pk,  # key
                name,
                club,
                start_number,
                scores,  # rounds
                numbers,  # tables
                lot,
                bool(withdrawn),
                (victory.get(pk) or [None] * width) if by_table_points else None,  # victory
                list(playing) if by_table_points else [],  # provisional: table points that may change
                playing,
                missed,
            )
        )
    # The tie-breaks say "so far" while the tournament goes on: a table of a counted round still
    # plays, or these are the current standings with rounds still to play. Standings after an
    # earlier, finished round state what was so then.
    so_far = not final and (not finished or rounds == drawn)
    return Standings(
        tournament=tournament,
        rounds=rounds,
        rows=rank(entries, tiebreaks, so_far),
        after=after if rounds != drawn else None,
        final=final,
        provisional=not finished,
    )


def standings_order(tournament: Tournament, players: list[int]) -> list[int]:
    """``players`` (registration ids) in the order of the tournament's current standings, best
    first, as the standings page shows them; players not ranked yet follow in the given order.
    For the draw by standings (Bled option, ``tournament-formats.md`` §2)."""
    ranked = [row.entry.key for row in compute_standings(tournament).rows]
    position = {key: i for i, key in enumerate(ranked)}
    return sorted(players, key=lambda pk: position.get(pk, len(ranked)))  # stable for the unranked


def cached_standings(tournament: Tournament, after: int | None = None) -> Standings:
    """:func:`compute_standings`, kept in Django's cache per tournament, data version and ``after``:
    pages that many viewers render separately (each player's own page, polled every few seconds,
    the big screen's slides, a cup's table over its tournaments) rank the field once per change,
    not once per viewer. The version is the one ``tournament`` was loaded with."""
    from django.core.cache import cache

    key = f"standings:{tournament.pk}:{tournament.data_version}:{after}"
    found = cache.get(key)
    if found is None:
        found = compute_standings(tournament, after)
        cache.set(key, found, timeout=3600)
    return found
