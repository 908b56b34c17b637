"""On PostgreSQL the early answers of public pages keep the versions they read and forget them
when the database notifies a change (tournaments.version_watch): a viewer's 304 costs no query
while nothing changed, and a change committed through any connection (another app server) is
seen as soon as its notification arrives — a saved hand, a new registration of the player, a
version written by the publishing's raw SQL — and at once in the process that answered the write
request. When the listening connection is lost, or inside a transaction, the database is asked as
before.

These tests commit (transaction=True), as app servers do: a notification is sent on commit and
arrives a moment later (they wait up to a second for it, with kept stamps living a minute, so that
only a notification can make a change seen)."""

import time

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from config.conditional import early_answer
from scoring.services import save_hand
from tournaments import version_watch, versioning
from tournaments.models import Registration, Tournament
from tournaments.public_cache import recent_pages

from ..config.test_conditional import HAND, environ_of

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="notifications are PostgreSQL's"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def own_watch(monkeypatch):
    """A watch of this test's own, closed after it (the process keeps one otherwise)."""
    watch = version_watch.Watch(version_watch._listening_connection)
    monkeypatch.setattr(version_watch, "_watch", watch)
    monkeypatch.setattr(version_watch, "KEEP_SECONDS", 60.0)  # only a notification renews a stamp
    recent_pages.clear()
    yield watch
    watch.close()
    recent_pages.clear()


def stamp_now(tournament_id):
    with version_watch.watching():
        return versioning.current_stamp(tournament_id)


def soon(check, seconds=1.0) -> bool:
    """Whether ``check()`` becomes true within ``seconds`` (the notification's way)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def other_connection_updates(sql, *params):
    """Run ``sql`` on a connection of its own, committed: as another app server would."""
    with version_watch._listening_connection() as other:  # (a new autocommit connection; it listens to nothing)
        other.execute(sql, params)


def test_a_kept_version_costs_no_query_and_a_saved_hand_is_seen_once_notified(four_table, django_assert_num_queries, own_watch):
    t = four_table.round.tournament
    path = reverse("scoring:standings", args=[t.pk])
    first = stamp_now(t.pk)
    with django_assert_num_queries(0):
        assert stamp_now(t.pk) == first  # kept: no round trip
    save_hand(four_table, HAND)  # committed: the database notifies every listening process
    t.refresh_from_db()
    assert soon(lambda: stamp_now(t.pk) == versioning.stamp(t.data_version, t.created))
    assert stamp_now(t.pk) != first

    # the same through the early answer: the browser's old ETag no longer gets a 304
    tag = Client().get(path).headers["ETag"]
    assert early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag))[0] == "304 Not Modified"
    save_hand(four_table, HAND)
    # the new version is not rendered yet: Django renders it
    assert soon(lambda: early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag)) is None)


def test_a_version_written_by_another_connection_in_raw_sql_is_seen(four_table):
    t = four_table.round.tournament
    before = stamp_now(t.pk)
    other_connection_updates("UPDATE tournaments_tournament SET data_version = data_version + 5 WHERE id = %s", t.pk)
    t.refresh_from_db()
    assert soon(lambda: stamp_now(t.pk) == versioning.stamp(t.data_version, t.created))
    assert stamp_now(t.pk) != before


def test_a_players_page_changes_when_he_is_registered_in_another_tournament(four_table, make_tournament, django_assert_num_queries):
    t = four_table.round.tournament
    registration = four_table.seats.first().registration
    with version_watch.watching():
        before = versioning.player_stamp(t.pk, registration.pk)
    with version_watch.watching(), django_assert_num_queries(0):
        assert versioning.player_stamp(t.pk, registration.pk) == before  # kept
    other = make_tournament(players=0, name="Zweites Turnier")
    Registration.objects.create(tournament=other, player=registration.player, start_number=1)
    in_database = versioning.player_stamp(t.pk, registration.pk)  # (no watch active: the database)

    def seen():
        with version_watch.watching():
            return versioning.player_stamp(t.pk, registration.pk) == in_database

    assert in_database != before and soon(seen)


def test_a_lost_listening_connection_forgets_everything_and_asks_the_database(four_table, own_watch, monkeypatch):
    t = four_table.round.tournament
    stamp_now(t.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%%' AND pid <> pg_backend_pid()")
    save_hand(four_table, HAND)  # its notification has nobody to go to
    t.refresh_from_db()
    time.sleep(0.2)  # the terminated backend's goodbye arrives
    with version_watch.watching() as watch:
        assert watch is None  # not listening: the database answers
        assert versioning.current_stamp(t.pk) == versioning.stamp(t.data_version, t.created)
    monkeypatch.setattr(version_watch, "RETRY_SECONDS", 0.0)
    own_watch._down_until = 0.0
    with version_watch.watching() as watch:
        assert watch is not None  # listening again, nothing kept from before
        assert versioning.current_stamp(t.pk) == versioning.stamp(t.data_version, t.created)


def test_a_version_is_kept_for_a_few_seconds_at_most(four_table, monkeypatch):
    """Should a notification never arrive, a page is at most KEEP_SECONDS behind."""
    monkeypatch.setattr(version_watch, "KEEP_SECONDS", 2.0)
    t = four_table.round.tournament
    first = stamp_now(t.pk)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE tournaments_tournament DISABLE TRIGGER tarock_tournament_versions")
    try:
        Tournament.objects.filter(pk=t.pk).update(data_version=t.data_version + 1)
        assert stamp_now(t.pk) == first  # not notified: still the kept one
        clock = time.monotonic() + version_watch.KEEP_SECONDS + 0.1
        monkeypatch.setattr(version_watch.time, "monotonic", lambda: clock)
        assert stamp_now(t.pk) == versioning.stamp(t.data_version + 1, t.created)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE tournaments_tournament ENABLE TRIGGER tarock_tournament_versions")


def test_inside_a_transaction_nothing_kept_is_used(four_table, django_assert_num_queries):
    t = four_table.round.tournament
    stamp_now(t.pk)
    with transaction.atomic():
        Tournament.objects.filter(pk=t.pk).update(data_version=t.data_version + 1)
        with version_watch.watching() as watch, django_assert_num_queries(1):
            assert watch is None
            assert versioning.current_stamp(t.pk) == versioning.stamp(t.data_version + 1, t.created)


def test_a_version_read_while_a_change_arrived_is_not_kept(own_watch, make_tournament):
    t = make_tournament(players=4)
    assert own_watch.fresh()
    seen = own_watch.generation
    Tournament.objects.filter(pk=t.pk).update(data_version=7)  # committed meanwhile
    assert soon(lambda: own_watch.fresh() and own_watch.generation != seen)  # the notification read
    own_watch.put(("t", t.pk, False), "old", [t.pk], registrations=False, seen=seen)
    assert own_watch.get(("t", t.pk, False)) is version_watch._MISSING


def test_at_most_max_kept_stamps_are_kept(own_watch, monkeypatch):
    monkeypatch.setattr(version_watch, "MAX_KEPT", 2)
    assert own_watch.fresh()
    for n in (1, 2, 3):
        own_watch.put(("t", n, False), f"stamp {n}", [n], registrations=False, seen=own_watch.generation)
    assert [own_watch.get(("t", n, False)) for n in (1, 2, 3)] == [version_watch._MISSING, version_watch._MISSING, "stamp 3"]


def test_after_a_write_request_this_process_reads_the_database_again(four_table, django_assert_num_queries):
    """The page a POST redirects to, if this process answers it, shows what the POST committed
    without waiting for the notification."""
    t = four_table.round.tournament
    stamp_now(t.pk)
    Client().get(reverse("scoring:standings", args=[t.pk]))  # reading changes nothing kept
    with django_assert_num_queries(0):
        stamp_now(t.pk)
    Client().post(reverse("scoring:standings", args=[t.pk]))  # any write request, even one refused
    now = Tournament.objects.get(pk=t.pk)
    with django_assert_num_queries(1):
        assert stamp_now(t.pk) == versioning.stamp(now.data_version, now.created)
