"""The worker (``manage.py run_worker``, kept running by scripts/serve) rides out the database going
away: the library's loop is taken up again after an OperationalError or InterfaceError, with its
broken connection closed, and the export waiting in the queue is still prepared."""

import logging

import pytest
from django.core.management import call_command
from django.db import InterfaceError, OperationalError, connection
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResultQuerySet

from scoring.exporters.models import ExportJob
from scoring.management.commands import run_worker
from tournaments import services


def cut_off_the_database(calls: list) -> None:
    """What the database going away does to the worker's next query: on PostgreSQL its server
    process is really terminated (the driver then raises); on SQLite the error is raised as the
    driver would."""
    if connection.vendor == "postgresql":
        import psycopg

        params = connection.get_connection_params()
        pid = connection.connection.info.backend_pid
        with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    else:
        raise (OperationalError if len(calls) == 1 else InterfaceError)("the database went away")


@pytest.mark.django_db(transaction=True)
def test_a_database_outage_in_the_worker_loop_is_retried_and_the_queued_export_still_done(
    make_tournament, settings, monkeypatch, caplog
):
    settings.EXPORT_HEAVY_FROM = {"results": 1}
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=4)
    url = reverse("exports:table_results_pdf", args=[t.pk, 1])
    location = Client().get(url)["Location"]
    job = ExportJob.objects.get()
    assert job.status == "queued"

    original = DBTaskResultQuerySet.get_locked
    calls = []

    def get_locked(self):
        calls.append(1)
        if len(calls) <= 2:  # the first two looks at the queue meet the outage
            cut_off_the_database(calls)
        return original(self)

    monkeypatch.setattr(DBTaskResultQuerySet, "get_locked", get_locked)
    monkeypatch.setattr(run_worker, "FIRST_DELAY", 0.01)
    with caplog.at_level(logging.WARNING, logger="scoring.management.commands.run_worker"):
        call_command("run_worker", "--batch", "--no-startup-delay", verbosity=0)
    assert caplog.text.count("the worker lost the database") == 2
    job.refresh_from_db()
    assert job.status == "done"
    assert Client().get(location).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_wait_between_retries_doubles_up_to_its_limit(monkeypatch):
    waits = []
    worker = run_worker.RetryingWorker(
        sleep=waits.append, queue_names=["default"], interval=0, batch=True, backend_name="default",
        startup_delay=False, max_tasks=None, worker_id="test", excluded_queue_names=[],
    )
    failures = iter(range(9))

    def run(self):
        if next(failures, None) is not None:
            raise OperationalError("the database went away")

    monkeypatch.setattr(run_worker.db_worker.Worker, "run", run)
    worker.run()
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60, 60] and worker.retries == 9


@pytest.mark.django_db(transaction=True)
def test_other_errors_still_end_the_worker(monkeypatch):
    monkeypatch.setattr(DBTaskResultQuerySet, "get_locked", lambda self: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        call_command("run_worker", "--batch", "--no-startup-delay", verbosity=0)  # scripts/serve restarts it
