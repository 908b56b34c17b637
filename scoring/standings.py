"""Gather a tournament's round scores from the database and rank them.

One place loads what every standings page and export needs, in a fixed number of queries however
large the tournament (``conventions.md``, "Query counts stay flat").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tournaments.models import Seat, Tournament

from .ranking import TIEBREAKS, Entry, Row, rank


@dataclass
class Standings:
    """Ranked rows plus the round numbers shown as columns; ``after``: last round counted."""

    tournament: Tournament
    rounds: list[int]
    rows: list[Row]
    after: int | None = None
    final: bool = True  # counts every drawn round: the only standings lots are drawn for


def round_results(tournament: Tournament) -> dict[int, dict[int, tuple[int, int]]]:
    """``{registration_id: {round_number: (score, table_number)}}`` over every drawn round (one
    query over the seats, whose round scores the scoring services keep)."""
    results: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for reg_id, score, sub_id, sub_score, round_number, table_number in Seat.objects.filter(
        table__round__tournament=tournament
    ).values_list("registration_id", "score", "substitute_id", "substitute_score", "table__round__number", "table__number"):
        results[reg_id][round_number] = (score, table_number)
        if sub_id is not None:  # a substitute took over the seat: the rest of the round is his
            results[sub_id][round_number] = (sub_score, table_number)
    return results


def table_points_by_round(tournament: Tournament, ruleset) -> dict[int, dict[int, float]]:
    """``{registration_id: {round_number: table points}}`` (``tarok-bled.md`` §7): each table's
    seats ranked by their round score (one query).

    **Decision**: a seat a substitute took over is ranked by its whole round score and its table
    points go to the registered player; the substitute keeps his game points.
    """
    tables: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for reg_id, score, sub_score, round_number, table_id in Seat.objects.filter(
        table__round__tournament=tournament
    ).values_list("registration_id", "score", "substitute_score", "table__round__number", "table_id"):
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
    are drawn for the final result; standings after an earlier round leave level players level).
    """
    drawn = list(tournament.round_set.order_by("number").values_list("number", flat=True))
    rounds = [n for n in drawn if after is None or n <= after]
    final = rounds == drawn
    # Drawn tie-breaks (lots, cards) settle the final result only.
    tiebreaks = tuple(
        k for k in tournament.get_ruleset().tiebreaks if final or not getattr(TIEBREAKS[k], "whole_group", False)
    )
    results = round_results(tournament)
    ruleset = tournament.get_ruleset()
    victory = table_points_by_round(tournament, ruleset) if getattr(ruleset, "victory_points", None) == "table_points" else None
    entries = []
    for pk, name, club, start_number, lot, withdrawn in tournament.registrations.values_list(
        "pk", "player__name", "player__club", "start_number", "lot", "withdrawn"
    ):
        mine = results.get(pk, {})
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
            )
        )
    return Standings(
        tournament=tournament,
        rounds=rounds,
        rows=rank(entries, tiebreaks),
        after=after if not final else None,
        final=final,
    )
