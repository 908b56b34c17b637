"""A kept PostgreSQL connection is checked before a request uses it: a healthy one without asking
the server (its socket is quiet), one the server ended (a restart, ``pg_terminate_backend``) is
closed by the check, so the request opens a new one instead of failing. PostgreSQL only."""

import select
import time

import psycopg
import pytest
from django.db import connection

from tournaments.models import Tournament

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend's own check")


@pytest.fixture
def kept(transactional_db, monkeypatch):
    """The test's connection as a kept one at the start of a request (no transaction open), and
    the list of Django's ``SELECT 1`` checks made on it."""
    connection.ensure_connection()
    connection.health_check_enabled = True
    connection.health_check_done = False
    asked = []
    usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: asked.append(1) or usable())
    return asked


def test_a_quiet_kept_connection_is_used_without_a_round_trip(kept):
    raw = connection.connection
    connection.close_if_health_check_failed()
    assert kept == []  # no SELECT 1
    assert connection.connection is raw and connection.health_check_done
    assert Tournament.objects.count() == 0


def test_a_connection_the_server_ended_is_replaced_before_the_request_uses_it(kept):
    raw = connection.connection
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [raw.info.backend_pid])
    poller = select.poll()
    poller.register(raw.pgconn.socket, select.POLLIN)
    deadline = time.monotonic() + 5
    while not poller.poll(50) and time.monotonic() < deadline:
        pass

    assert not connection.socket_is_quiet()
    connection.close_if_health_check_failed()
    assert kept == [1]  # the socket spoke: Django's own check, which failed
    assert connection.connection is None  # closed: the next query opens a new connection
    assert Tournament.objects.count() == 0
    assert connection.connection is not raw


def test_an_open_transaction_gets_djangos_check(kept):
    connection.set_autocommit(False)
    try:
        Tournament.objects.exists()
        connection.health_check_done = False
        connection.close_if_health_check_failed()
        assert kept == [1]
    finally:
        connection.rollback()
        connection.set_autocommit(True)
