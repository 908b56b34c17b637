"""Django's PostgreSQL backend (psycopg 3) with a cheaper health check of kept connections.

With persistent connections (``CONN_MAX_AGE``) and ``CONN_HEALTH_CHECKS`` on, Django checks a kept
connection before the first query of every request with ``SELECT 1``: a round trip, which on a
busy server costs a scheduling slot of the worker and of its database process each, for every page
and every push. What a restart, an administrator's ``pg_terminate_backend`` or an idle timeout of
the server does to a kept connection is to close it: the server sends its error message and ends
the connection, so the socket turns readable while no query is in flight. This backend looks at
the socket first (``poll`` with no wait, a system call): a connection that is idle, in a good
state and whose socket has nothing to read is used without the ``SELECT 1``; anything else
(something to read, a transaction open, psycopg's own state not "ok") gets Django's check as
before, which closes the connection when it fails, so the request opens a new one instead of
answering 500. What neither check can tell in advance (a server that vanishes without closing
its connections) fails the request's first query either way.

Selected in ``config/settings.py`` for every ``postgres://`` ``DATABASE_URL``.
"""

import select

from django.db.backends.postgresql import base

__all__ = ["DatabaseWrapper"]


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's :class:`~django.db.backends.postgresql.base.DatabaseWrapper`; only
    :meth:`close_if_health_check_failed` differs (see the module)."""

    def close_if_health_check_failed(self) -> None:
        """Close the kept connection if it is no longer usable, once per request (Django's
        contract): without a query when :meth:`socket_is_quiet`, else by Django's ``SELECT 1``."""
        if self.connection is not None and self.health_check_enabled and not self.health_check_done and self.socket_is_quiet():
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def socket_is_quiet(self) -> bool:
        """``True`` when the psycopg connection is open, idle (no transaction, no query in
        flight) and its socket has nothing to read: the server has said nothing since the last
        answer, in particular not that it ended the connection. Never raises."""
        conn = self.connection
        if base.is_psycopg3 is False or conn is None:
            return False
        try:
            if conn.closed or conn.broken:
                return False
            pgconn = conn.pgconn
            if pgconn.status != base.Database.pq.ConnStatus.OK or pgconn.transaction_status != base.Database.pq.TransactionStatus.IDLE:
                return False
            poller = select.poll()
            poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
            return not poller.poll(0)
        except Exception:  # noqa: BLE001 - any doubt: Django's own check decides
            return False
