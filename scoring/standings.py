"""Gather a tournament's round scores from the database and rank them.

One place loads what every standings page, export and the draw by standings need, in a fixed
number of queries however large the tournament (``conventions.md``, "Query counts stay flat").

A round counts for a player only once his table has played a hand of it: until then his cell is
"–", not 0, and (Bled) the table gives no table points (``tarok-bled.md`` §7, Decision of
2026-11-23). While a table is still playing, its table points are provisional. A player who
withdrew before he played is not ranked at all.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from tournaments.models import Seat, Table, Tournament

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


def table_states(tournament: Tournament) -> dict[int, TableState]:
    """``{table_id: TableState}`` of every table of the tournament (one query)."""
    states = {}
    for table_id, round_number, number, hands, seats, ended_after in (
        Table.objects.filter(round__tournament=tournament)
        .annotate(hand_count=Count("hands", distinct=True), seat_count=Count("seats", distinct=True))
        .values_list("id", "round__number", "number", "hand_count", "seat_count", "ended_after")
    ):
        cap = tournament.hand_cap(seats, ended_after)
        states[table_id] = TableState(round_number, number, hands > 0, hands >= cap)
    return states


def seat_rows(tournament: Tournament) -> list[tuple[int, int, int | None, int, int, int, int]]:
    """Every seat of ``tournament`` as ``(registration_id, score, substitute_id,
    substitute_score, round_number, table_number, table_id)`` (one query)."""
    return list(
        Seat.objects.filter(table__round__tournament=tournament).values_list(
            "registration_id", "score", "substitute_id", "substitute_score", "table__round__number", "table__number", "table_id"
        )
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


def table_points_by_round(tournament: Tournament, ruleset, states: dict[int, TableState] | None = None) -> dict[int, dict[int, float]]:
    """``{registration_id: {round_number: table points}}`` (``tarok-bled.md`` §7): each played
    table's seats ranked by their round score (one query). A table without a hand gives none.

    **Decision**: a seat a substitute took over is ranked by its whole round score and its table
    points go to the registered player; the substitute keeps his game points.
    """
    states = table_states(tournament) if states is None else states
    tables: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for reg_id, score, sub_score, round_number, table_id in Seat.objects.filter(
        table__round__tournament=tournament
    ).values_list("registration_id", "score", "substitute_score", "table__round__number", "table_id"):
        state = states.get(table_id)
        if state is not None and state.played:
            tables[(round_number, table_id)].append((reg_id, score + sub_score))
    points: dict[int, dict[int, float]] = defaultdict(dict)
    for (round_number, _table), seats in tables.items():
        for (reg_id, _score), tp in zip(seats, ruleset.table_points([s for _r, s in seats])):
            points[reg_id][round_number] = tp
    return points


def compute_standings(tournament: Tournament, after: int | None = None) -> Standings:
    """Standings of ``tournament``, counting rounds ``1..after`` (all drawn rounds by default).

    Tie-breaks are the ruleset's (``tournament-formats.md`` §1): Tirol ranks by total, best round,
    second-best round, ..., then the director's drawn lots — on the final standings only (lots
    are drawn for the final result; standings before it leave level players level). While the
    tournament goes on the tie-break texts say what is known so far (a round still playing, a
    round not yet played: :meth:`scoring.ranking.BestRounds.explain`); a drawn round in which a
    player has no seat (he registered late, he sat out) or whose table ended without a hand reads
    "not played", as it will stay.
    """
    drawn = list(tournament.round_set.order_by("number").values_list("number", flat=True))
    rounds = [n for n in drawn if after is None or n <= after]
    states = table_states(tournament)
    counted = [s for s in states.values() if s.round_number in rounds]
    finished = all(s.finished for s in counted)
    final = rounds == drawn and len(drawn) >= tournament.rounds and finished
    ruleset = tournament.get_ruleset()
    # Drawn tie-breaks (lots, cards) settle the final result only.
    tiebreaks = tuple(k for k in ruleset.tiebreaks if final or not getattr(TIEBREAKS[k], "whole_group", False))
    seats = seat_rows(tournament)
    results = round_results(tournament, states, seats)
    # A round without a score is still to come for a player seated at a table that has not
    # finished it; for anyone else (drawn without him: registered late, sat out) it is over.
    to_come = {(reg_id, n) for reg_id, _s, _sub, _ss, n, _num, table_id in seats if not getattr(states.get(table_id), "finished", False)}
    by_table_points = ruleset.victory_points == "table_points"
    victory = table_points_by_round(tournament, ruleset, states) if by_table_points else None
    # Table points are provisional while the player's own table plays on.
    playing = {(s.round_number, s.number) for s in counted if s.played and not s.finished}
    entries = []
    for pk, name, club, start_number, lot, withdrawn in tournament.registrations.values_list(
        "pk", "player__name", "player__club", "start_number", "lot", "withdrawn"
    ):
        mine = results.get(pk, {})
        if withdrawn and not mine:
            continue  # withdrew before he played: not ranked
        entries.append(
            Entry(
                key=pk,
                name=name,
                club=club,
                start_number=start_number,
                rounds=[mine[n][0] if n in mine else None for n in rounds],
                tables=[mine[n][1] if n in mine else None for n in rounds],
                lot=lot,
                withdrawn=withdrawn,
                victory=None if victory is None else [victory.get(pk, {}).get(n) for n in rounds],
                provisional=[n in mine and (n, mine[n][1]) in playing for n in rounds] if victory is not None else [],
                playing=[n in mine and (n, mine[n][1]) in playing for n in rounds],
                missed=[n not in mine and (pk, n) not in to_come for n in rounds],
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
