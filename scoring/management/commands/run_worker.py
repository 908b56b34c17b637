"""``manage.py run_worker``: django-tasks-db's worker (``manage.py db_worker``, same options) that
outlives the database going away.

The library's worker loop ends on any database error other than a locked SQLite file, and with it
the worker process: a PostgreSQL restart of a few seconds left the site without a worker. Here the
same loop (:class:`django_tasks_db.management.commands.db_worker.Worker`, not a copy) is run again
after an ``OperationalError`` or ``InterfaceError``: the broken connections are closed and the loop
waits 1 second, doubling to :data:`MAX_DELAY` while the database stays away (back to 1 second once
the loop ran a minute). A task cut off by the outage leaves its export job running on a lease that
runs out, and the job's page takes it up again (:mod:`scoring.exporters.tasks`). ``scripts/serve`` runs this
command and restarts it if the process itself dies.
"""

from __future__ import annotations

import logging
import time

from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, connections
from django_tasks_db.management.commands import db_worker

from tournaments.signals import worker_starting

log = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
FIRST_DELAY = 1.0  # seconds before the first retry
MAX_DELAY = 60.0  # seconds, the longest wait between retries
STEADY = 60.0  # seconds of a loop without errors after which the next error waits FIRST_DELAY again


def close_connections() -> None:
    """Close this thread's database connections, broken ones too (closing one may fail itself)."""
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except Exception as error:  # noqa: BLE001 - a dead connection's close may raise anything the driver has
            log.debug("closing the connection %s failed: %s", connection.alias, error)


class RetryingWorker(db_worker.Worker):
    """The library's worker whose :meth:`run` is taken up again after a database error (see the
    module). ``sleep`` is the wait between tries (``time.sleep``; a test passes its own)."""

    def __init__(self, *, sleep=time.sleep, **options):
        super().__init__(**options)
        self.sleep = sleep
        self.retries = 0

    def run(self) -> None:
        delay = FIRST_DELAY
        while True:
            started = time.monotonic()
            try:
                return super().run()
            except DATABASE_ERRORS as error:
                if not self.running:
                    raise
                if time.monotonic() - started >= STEADY:
                    delay = FIRST_DELAY
                self.retries += 1
                log.warning("the worker lost the database (%s: %s); trying again in %g s", type(error).__name__, error, delay)
                close_connections()
                self.sleep(delay)
                delay = min(delay * 2, MAX_DELAY)


class Command(db_worker.Command):
    help = (
        "Run the database background worker (as db_worker, without --reload) and keep it running "
        "through database outages: a database error is retried with back-off instead of ending it."
    )

    def handle(
        self,
        *,
        verbosity: int,
        queue_name: str,
        interval: float,
        batch: bool,
        backend_name: str,
        startup_delay: bool,
        max_tasks: int | None,
        worker_id: str,
        exclude_queues: str,
        **options,
    ) -> None:
        self.configure_logging(verbosity)
        if options.get("reload"):
            log.warning("run_worker does not reload on code changes; --reload is ignored")
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = RetryingWorker(
            queue_names=queue_names,
            interval=interval,
            batch=batch,
            backend_name=backend_name,
            startup_delay=startup_delay,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=excluded,
        )
        worker.configure_signals()
        for receiver, error in worker_starting.send_robust(sender=self.__class__):
            if isinstance(error, Exception):
                log.error("resuming background work at the worker's start failed in %s: %s", receiver, error)
        worker.run()
