"""A drawn round stored with bulk inserts (``tournaments.services._store_round``) holds exactly what
storing it table by table held: the same rounds, tables, seats, log entries and data versions for
the same seed, in every draw mode, at tables of 3, 4 and 5 — and the queries of a draw do not grow
with the field."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournaments import actions, services
from tournaments.models import ActionLog, Round, Seat, Table, Tournament

TIROL = dict(ruleset="tiroler-tarockcup", edition="2019/20")  # tables of 4 and 5
CEGO = dict(ruleset="cego-ichenheim", edition="ichenheim")  # tables of 3 and 4


# --------------------------------------------------------------------------------------------------
# REFERENCE: the storing as it was before the bulk inserts, one INSERT per table. A verbatim copy of
# the old loop of services._store_round, kept only as the yardstick of these tests; never call it
# from the application.
# --------------------------------------------------------------------------------------------------


def reference_store_round(tournament, rs, number, result, seatings, user, drawn_with):
    """REFERENCE ONLY: the former ``services._store_round``, each table created by its own INSERT."""
    report = services.draw_report(result)
    report["mode"] = tournament.draw_mode
    if result.seed != drawn_with:
        report["drawn_with_seed"] = drawn_with
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        seed=result.seed,
        repeats=[list(p) for p in result.repeats],
        report=report,
    )
    actions.log(
        tournament.pk, actions.Action.DRAWN, user, round_number=number, seed=result.seed,
        repeats=len(result.repeats), detail=" ".join(str(len(s)) for s in seatings),
    )
    seats = []
    for index, seating in enumerate(seatings):
        table = Table.objects.create(round=rnd, number=index + 1, first_dealer=rs.first_dealer(len(seating)))
        for position, (reg_id, card) in enumerate(seating):
            seats.append(Seat(table=table, position=position, registration_id=reg_id, card=card.key))
    Seat.objects.bulk_create(seats)
    return rnd


# --------------------------------------------------------------------------------------------------
# What a draw stored
# --------------------------------------------------------------------------------------------------


def _fields(model, leave_out):
    return [f.attname for f in model._meta.concrete_fields if f.attname not in leave_out]


def stored(tournament: Tournament) -> dict:
    """Everything the draws of ``tournament`` stored, ids, random tokens and timestamps left out
    (tables named by round and table number, seats by round, table and position)."""
    t = Tournament.objects.get(pk=tournament.pk)
    round_fields = _fields(Round, {"id", "drawn_at"})
    table_fields = _fields(Table, {"id", "round_id", "token"})
    seat_fields = _fields(Seat, {"id", "table_id"})
    log_fields = _fields(ActionLog, {"id", "created"})
    rounds = [
        {name: getattr(r, name) for name in round_fields}
        for r in Round.objects.filter(tournament=t).order_by("number")
    ]
    tables = [
        {"round": tb.round.number, **{name: getattr(tb, name) for name in table_fields}}
        for tb in Table.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "number")
    ]
    seats = [
        {"round": s.table.round.number, "table": s.table.number, **{name: getattr(s, name) for name in seat_fields}}
        for s in Seat.objects.filter(table__round__tournament=t)
        .select_related("table__round")
        .order_by("table__round__number", "table__number", "position")
    ]
    log = [
        {name: getattr(a, name) for name in log_fields} for a in ActionLog.objects.filter(tournament=t).order_by("pk")
    ]
    versions = (t.data_version, t.layout_version, t.status)
    return {"rounds": rounds, "tables": tables, "seats": seats, "log": log, "versions": versions}


def tokens(tournament: Tournament) -> list[str]:
    return list(Table.objects.filter(round__tournament=tournament).values_list("token", flat=True))


def draw_both_ways(tournament: Tournament, monkeypatch, seed: int, **draw) -> tuple[dict, dict, list]:
    """Draw the next round(s) of ``tournament`` from ``seed`` with the bulk storing, note what was
    stored and roll it back; then the same draw stored by :func:`reference_store_round`. Returns
    ``(bulk, reference, drawn)``: what each stored, and what ``draw_with_mode`` returned to the
    bulk draw (``[(RoundDraw, seatings), ...]``)."""
    drawn = []
    real_draw = services.draw_with_mode

    def spy(*args, **kwargs):
        drawn[:] = real_draw(*args, **kwargs)
        return drawn

    monkeypatch.setattr(services, "draw_with_mode", spy)
    before = stored(tournament)
    with transaction.atomic():
        services.draw_next_round(Tournament.objects.get(pk=tournament.pk), seed=seed, **draw)
        bulk = stored(tournament)
        bulk_tokens = tokens(tournament)
        transaction.set_rollback(True)
    assert stored(tournament) == before  # rolled back: the reference draws from the same state
    assert len(set(bulk_tokens)) == len(bulk_tokens)
    assert all(len(token) == 22 for token in bulk_tokens)  # secrets.token_urlsafe(16)
    with monkeypatch.context() as m:
        m.setattr(services, "_store_round", reference_store_round)
        services.draw_next_round(Tournament.objects.get(pk=tournament.pk), seed=seed, **draw)
    return bulk, stored(tournament), drawn


def assert_stored_as_drawn(bulk: dict, drawn: list) -> None:
    """The newly drawn rounds' tables and seats in ``bulk`` are the seatings the draw returned."""
    first = bulk["rounds"][-len(drawn)]["number"]
    for k, (result, seatings) in enumerate(drawn):
        number = first + k
        seats = [
            [(s["position"], s["registration_id"], s["card"]) for s in bulk["seats"] if (s["round"], s["table"]) == (number, i)]
            for i in range(1, len(seatings) + 1)
        ]
        assert seats == [[(p, reg, card.key) for p, (reg, card) in enumerate(seating)] for seating in seatings]
        assert [tb["number"] for tb in bulk["tables"] if tb["round"] == number] == list(range(1, len(seatings) + 1))
        assert sum(s["round"] == number for s in bulk["seats"]) == sum(len(seating) for seating in seatings)


# --------------------------------------------------------------------------------------------------
# Bulk and one by one store the same
# --------------------------------------------------------------------------------------------------

CASES = [
    # id, ruleset, players, draw mode, rounds of the tournament, rounds drawn before
    ("tirol-23-avoid", TIROL, 23, "avoid_repeats", 3, 0),  # 3 five-tables, 2 four-tables
    ("tirol-22-avoid-round-3", TIROL, 22, "avoid_repeats", 3, 2),  # avoiding two rounds drawn before
    ("tirol-21-random", TIROL, 21, "random", 3, 0),
    ("tirol-22-all-at-start", TIROL, 22, "all_at_start", 3, 0),  # 3 rounds in one draw
    ("tirol-16-by-standings", TIROL, 16, "by_standings", 3, 1),
    ("cego-13-avoid", CEGO, 13, "avoid_repeats", 3, 0),  # 3 three-tables, 1 four-table
    ("cego-14-all-at-start", CEGO, 14, "all_at_start", 3, 0),
    ("cego-12-random-round-2", CEGO, 12, "random", 2, 1),
]


def reverse_order(tournament, players):
    """A standings order for the tests: the start list reversed."""
    return list(reversed(players))


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 6006, 2**61 + 17])
@pytest.mark.parametrize(("rules", "players", "mode", "rounds", "before"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bulk_store_equals_one_by_one(make_tournament, director, monkeypatch, rules, players, mode, rounds, before, seed):
    t = make_tournament(players=players, draw_mode=mode, rounds=rounds, **rules)
    draw = {"order": reverse_order} if mode == "by_standings" else {}
    for k in range(before):
        services.draw_next_round(t, seed=seed + 100 + k, user=director, **draw)
    bulk, reference, drawn = draw_both_ways(t, monkeypatch, seed, user=director, **draw)
    assert bulk == reference
    expected_rounds = rounds - before if mode == "all_at_start" else 1
    assert len(drawn) == expected_rounds
    assert len(bulk["rounds"]) == before + expected_rounds
    assert_stored_as_drawn(bulk, drawn)
    # Every field the tests compare was stored as drawn, not left at a default by chance.
    assert {tb["first_dealer"] for tb in bulk["tables"]} <= {0, 2, 3, 4}
    assert all(s["score"] == 0 and s["substitute_id"] is None for s in bulk["seats"])
    assert [a["action"] for a in bulk["log"][-expected_rounds:]] == [ActionLog.Action.DRAWN] * expected_rounds
    assert bulk["log"][-1]["user_id"] == director.pk


@pytest.mark.django_db
def test_table_sizes_of_the_cases(make_tournament):
    """The cases above do seat 3-, 4- and 5-tables."""
    sizes = set()
    for rules, players in ((TIROL, 23), (CEGO, 13)):
        rnd = services.draw_next_round(make_tournament(players=players, **rules), seed=1)
        sizes |= {tb.seats.count() for tb in rnd.tables.all()}
    assert sizes == {3, 4, 5}


@pytest.mark.django_db
def test_bulk_store_without_ids_returned(make_tournament, monkeypatch):
    """On a database whose bulk insert returns no ids, the tables are read back by number and the
    seats stored the same."""
    t = make_tournament(players=23)
    features = type(connection.features)
    monkeypatch.setattr(features, "can_return_rows_from_bulk_insert", False)
    bulk, reference, drawn = draw_both_ways(t, monkeypatch, 42)
    assert bulk == reference
    assert_stored_as_drawn(bulk, drawn)


@pytest.mark.django_db
def test_refused_draw_stores_nothing_either_way(make_tournament, monkeypatch):
    """A refused draw raises the same and leaves nothing behind, whichever storing."""
    t = make_tournament(players=7)  # 7 players cannot sit at tables of 4 and 5
    with pytest.raises(services.DrawRefused) as bulk:
        services.draw_next_round(t, seed=3)
    monkeypatch.setattr(services, "_store_round", reference_store_round)
    with pytest.raises(services.DrawRefused) as reference:
        services.draw_next_round(t, seed=3)
    assert str(bulk.value) == str(reference.value)
    assert not Round.objects.filter(tournament=t).exists()


# --------------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------------


def draw_queries(tournament: Tournament, seed: int) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        services.draw_next_round(tournament, seed=seed)
    return [q["sql"] for q in ctx.captured_queries]


def inserts_into(queries: list[str], model) -> int:
    table = connection.ops.quote_name(model._meta.db_table)
    return sum(q.startswith(f"INSERT INTO {table}") for q in queries)


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["avoid_repeats", "all_at_start"])
def test_draw_queries_do_not_grow_with_the_field(make_tournament, mode):
    """A round of 2 tables and one of 25 take the same queries: one INSERT for the tables and one
    for the seats of each round. (Both fields fit into one batch of SQLite's 999 parameters; a
    larger field takes an INSERT more per batch there, still one on PostgreSQL.)"""
    small = make_tournament(players=8, name="Klein", draw_mode=mode)
    large = make_tournament(players=100, name="Groß", draw_mode=mode)
    rounds = 3 if mode == "all_at_start" else 1
    for number in range(1, 3 if mode == "avoid_repeats" else 2):  # round 2 avoids round 1
        small_queries, large_queries = draw_queries(small, 5 + number), draw_queries(large, 5 + number)
        assert len(small_queries) == len(large_queries)
        assert inserts_into(large_queries, Table) == rounds
        assert inserts_into(large_queries, Seat) == rounds
    assert Table.objects.filter(round__tournament=large).count() == 25 * (3 if mode == "all_at_start" else 2)
