"""Many rows in one statement: the values given are stored, every other column takes its default,
the ids come back matched to the rows, and what cannot be stored is refused before anything is."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tournaments.bulk_insert import insert_rows
from tournaments.models import Round, Seat, Table


@pytest.fixture
def empty_round(make_tournament):
    t = make_tournament(players=8)
    return t, Round.objects.create(tournament=t, number=1, seed=1)


@pytest.mark.django_db
def test_rows_are_stored_with_the_defaults_of_the_columns_left_out(empty_round):
    t, rnd = empty_round
    returned = insert_rows(
        Table, ("round_id", "number", "first_dealer", "token"),
        [(rnd.pk, 1, 3, "token-one"), (rnd.pk, 2, 0, "token-two")], returning=("id", "number"),
    )
    ids = {number: pk for pk, number in returned}
    assert sorted(ids) == [1, 2]
    one, two = Table.objects.get(pk=ids[1]), Table.objects.get(pk=ids[2])
    assert (one.number, one.first_dealer, one.token, one.ended_after) == (1, 3, "token-one", None)
    assert (two.number, two.first_dealer, two.token) == (2, 0, "token-two")

    regs = list(t.registrations.order_by("start_number").values_list("pk", flat=True))
    assert insert_rows(Seat, ("table_id", "position", "registration_id", "card"),
                       [(ids[1], p, reg, f"T{p + 1}") for p, reg in enumerate(regs[:4])]) == []
    seats = list(Seat.objects.filter(table_id=ids[1]).order_by("position"))
    assert [(s.position, s.registration_id, s.card) for s in seats] == [(p, regs[p], f"T{p + 1}") for p in range(4)]
    # Left out: the round score and the substitute's score start at 0, no substitute, nobody left.
    assert {(s.score, s.substitute_score, s.substitute_id, s.substitute_from, s.left_after) for s in seats} == {(0, 0, None, None, None)}


@pytest.mark.django_db
def test_no_rows_no_statement(empty_round, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert insert_rows(Table, ("round_id", "number", "first_dealer", "token"), [], returning=("id",)) == []


@pytest.mark.django_db
def test_a_column_left_out_without_a_default_is_refused_before_anything_is_stored(empty_round):
    _t, rnd = empty_round
    with pytest.raises(ValueError, match="first_dealer"):
        insert_rows(Table, ("round_id", "number", "token"), [(rnd.pk, 1, "x")])
    # A token is made per row: one value for all rows would break its uniqueness.
    with pytest.raises(ValueError, match="token"):
        insert_rows(Table, ("round_id", "number", "first_dealer"), [(rnd.pk, 1, 0)])
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_violated_constraint_stores_none_of_the_rows(empty_round):
    _t, rnd = empty_round
    Table.objects.create(round=rnd, number=2, first_dealer=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows(Table, ("round_id", "number", "first_dealer", "token"), [(rnd.pk, 1, 0, "a"), (rnd.pk, 2, 0, "b")])
    assert list(Table.objects.values_list("number", flat=True)) == [2]
