"""The version queries of the public pages, compiled once (tournaments.versioning.PreparedQuery):
the same versions as the ORM's own query, ``None`` for what does not exist, one query each, and
still right after the database connection was closed and opened again."""

import hashlib

import pytest
from django.db import connection

from tournaments.models import Tournament
from tournaments.public_cache import table_version
from tournaments.versioning import current_stamp, player_stamp, stamp, touch


def orm_stamp(t, field="data_version"):
    row = Tournament.objects.filter(pk=t.pk).values_list(field, "created").get()
    return stamp(*row)


@pytest.mark.django_db
def test_the_versions_are_those_of_the_orm_and_follow_every_change(four_table, make_tournament, django_assert_num_queries):
    t = four_table.round.tournament
    expected = orm_stamp(t)
    with django_assert_num_queries(1):
        assert current_stamp(t.pk) == expected
    assert current_stamp(t.pk, layout=True) == "L" + orm_stamp(t, "layout_version")
    assert table_version(four_table.pk) == (t.pk, orm_stamp(t))
    before = current_stamp(t.pk)
    touch(t.pk)
    assert current_stamp(t.pk) == orm_stamp(t) != before
    assert current_stamp(t.pk + 1000) is None and table_version(four_table.pk + 1000) is None


@pytest.mark.django_db
def test_a_players_version_joins_all_his_tournaments(four_table, make_tournament, django_assert_num_queries):
    from tournaments import services

    t = four_table.round.tournament
    registration = four_table.seats.first().registration
    other = make_tournament(players=0, name="Anderes Turnier")
    services.register(other, registration.player)
    joined = "-".join(f"{x.pk}:{orm_stamp(x)}" for x in sorted([t, other], key=lambda x: x.pk))
    expected = hashlib.sha256(joined.encode()).hexdigest()[:20]
    with django_assert_num_queries(1):
        assert player_stamp(t.pk, registration.pk) == expected
    before = player_stamp(t.pk, registration.pk)
    touch(other.pk)  # his page shows his other tournament too
    assert player_stamp(t.pk, registration.pk) != before
    assert player_stamp(other.pk, registration.pk) is None  # that registration is not one of the other tournament


@pytest.mark.django_db(transaction=True)
def test_the_versions_survive_a_new_connection(make_tournament):
    t = make_tournament(players=4)
    first = current_stamp(t.pk)
    connection.close()  # a new connection: statements prepared on the old one are gone
    assert current_stamp(t.pk) == first == orm_stamp(t)
