"""An export job whose worker vanished is taken up again: running on a lease that passed, it is
queued again by its page (once, however many look) or removed by "Try again"; a worker that lost
its lease writes nothing over the next one; a full disk fails the job with a message saying so, and
an export rendered in the request is still sent whole when it cannot be kept."""

import errno
import logging
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scoring.exporters import tasks
from scoring.exporters.base import get_exporter
from scoring.exporters.models import ExportJob
from tournaments import services


@pytest.fixture
def run_worker(monkeypatch):
    """``run_worker()``: the worker scripts/serve keeps running (``manage.py run_worker``), until the
    queue is empty. It must not close the test's own connection (inside the test's transaction)."""
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    return lambda: call_command("run_worker", "--batch", "--no-startup-delay", verbosity=0)


@pytest.fixture
def results_job(make_tournament, settings, english, django_capture_on_commit_callbacks):
    """A heavy export (the table results of a 2-table round) asked for once: ``(url, job page, job)``."""
    settings.EXPORT_HEAVY_FROM = {"results": 1}
    t = make_tournament(players=8)
    services.draw_next_round(t, seed=4)
    url = reverse("exports:table_results_pdf", args=[t.pk, 1])
    with django_capture_on_commit_callbacks(execute=True):
        location = Client().get(url)["Location"]
    return url, location, ExportJob.objects.get()


def abandon(job, attempts=1, expired=True):
    """What a worker killed mid-render leaves: the job running on its lease (passed, or not yet)
    and the library's task record claimed, RUNNING for ever."""
    lease = timezone.now() + (timedelta(seconds=-5) if expired else timedelta(seconds=60))
    ExportJob.objects.filter(pk=job.pk).update(status="running", done=1, attempts=attempts, lease_until=lease)
    DBTaskResult.objects.update(status="RUNNING", started_at=timezone.now())
    job.refresh_from_db()


def ready_tasks() -> int:
    return DBTaskResult.objects.filter(status="READY").count()


@pytest.mark.django_db
def test_the_page_queues_a_job_whose_lease_passed_again_and_the_new_worker_finishes_it(
    results_job, run_worker, django_capture_on_commit_callbacks
):
    url, location, job = results_job
    abandon(job)
    assert ready_tasks() == 0
    with django_capture_on_commit_callbacks(execute=True):
        page = Client().get(location)
    assert page.status_code == 202 and "waiting for the server's background worker" in page.content.decode()
    job.refresh_from_db()
    assert (job.status, job.done) == ("queued", 0)
    assert ready_tasks() == 1  # a new task: the killed run's record (still RUNNING) plays no part

    with django_capture_on_commit_callbacks(execute=True):
        Client().get(location)  # a second look queues nothing more
    assert ready_tasks() == 1

    run_worker()
    job.refresh_from_db()
    assert (job.status, job.attempts, job.lease_until) == ("done", 2, None)
    assert DBTaskResult.objects.filter(status="RUNNING").count() == 1  # the library never takes it up
    download = Client().get(location)
    assert download.status_code == 200 and b"".join(download.streaming_content).startswith(b"%PDF")


@pytest.mark.django_db
def test_of_two_requests_seeing_the_same_stuck_job_only_one_queues_it(results_job, django_capture_on_commit_callbacks):
    _url, _location, job = results_job
    abandon(job)
    first, second = ExportJob.objects.get(pk=job.pk), ExportJob.objects.get(pk=job.pk)  # both read it stuck
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.take_up_again(first) is True
        assert tasks.take_up_again(second) is False
    assert ready_tasks() == 1


@pytest.mark.django_db
def test_a_job_on_a_live_lease_is_left_to_its_worker(results_job, django_capture_on_commit_callbacks):
    _url, location, job = results_job
    abandon(job, expired=False)
    with django_capture_on_commit_callbacks(execute=True):
        page = Client().get(location)
    assert "Being prepared: 1 of 2 tables." in page.content.decode()
    assert ExportJob.objects.get().status == "running" and ready_tasks() == 0
    assert Client().post(location, {"job": job.pk}).status_code == 302
    assert ExportJob.objects.filter(pk=job.pk).exists()  # "Try again" removes no job that is being prepared


@pytest.mark.django_db
def test_try_again_removes_a_stuck_job_and_the_next_look_starts_a_new_one(results_job, django_capture_on_commit_callbacks):
    url, location, job = results_job
    abandon(job)
    retry = Client().post(location, {"job": job.pk})
    assert retry.status_code == 302 and retry["Location"] == url
    assert not ExportJob.objects.filter(pk=job.pk).exists()
    with django_capture_on_commit_callbacks(execute=True):
        again = Client().get(url)
    new = ExportJob.objects.get()
    assert again["Location"] == f"{url}?job={new.pk}" and new.status == "queued" and new.attempts == 0
    assert ready_tasks() == 1


@pytest.mark.django_db
def test_a_job_whose_worker_vanished_each_time_fails_and_says_so(results_job, django_capture_on_commit_callbacks):
    _url, location, job = results_job
    abandon(job, attempts=tasks.MAX_ATTEMPTS)
    with django_capture_on_commit_callbacks(execute=True):
        page = Client().get(location)
    text = page.content.decode()
    assert page.status_code == 200 and "stopped each time it prepared this file" in text and "Try again" in text
    assert ExportJob.objects.get().status == "failed" and ready_tasks() == 0


@pytest.mark.django_db
def test_a_worker_that_lost_its_lease_writes_nothing_over_the_next_one(results_job, monkeypatch, run_worker, settings):
    _url, _location, job = results_job
    exporter = get_exporter("results")
    original = exporter.render
    calls = []

    def render(tournament, params, progress):
        calls.append(1)
        if len(calls) == 1:  # meanwhile its lease passed and a page queued the job again
            ExportJob.objects.filter(pk=job.pk).update(status="queued", lease_until=None, done=0)
        return original(tournament, params, progress)

    monkeypatch.setattr(exporter, "render", render)
    run_worker()
    job.refresh_from_db()
    assert (job.status, job.done, job.attempts, job.file) == ("queued", 0, 1, "")  # left to the next worker
    assert not (settings.MEDIA_ROOT / "exports").exists()
    tasks.render_export.enqueue(job.pk)  # as the page that queued it again did
    run_worker()
    job.refresh_from_db()
    assert (job.status, job.done, job.attempts) == ("done", 2, 2)


@pytest.mark.django_db
def test_a_full_disk_fails_the_job_with_a_message_saying_so(results_job, monkeypatch, run_worker, caplog):
    _url, location, job = results_job

    def full(name, content):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("scoring.exporters.base.store", full)
    with caplog.at_level(logging.ERROR, logger="scoring.exporters.tasks"):
        run_worker()
    job.refresh_from_db()
    assert (job.status, job.failure, job.lease_until) == ("failed", "disk_full", None)
    assert "No space left on device" in job.error and "No space left on device" in caplog.text
    page = Client().get(location)
    text = page.content.decode()
    assert page.status_code == 200 and "The server&#x27;s disk is full" in text and "Try again" in text
    assert 'http-equiv="refresh"' not in text


@pytest.mark.django_db
def test_a_database_error_in_the_task_gives_the_job_back_for_its_page_to_queue_again(
    results_job, monkeypatch, run_worker, django_capture_on_commit_callbacks
):
    _url, location, job = results_job
    exporter = get_exporter("results")
    monkeypatch.setattr(exporter, "render", lambda *args: (_ for _ in ()).throw(OperationalError("connection lost")))
    run_worker()
    job.refresh_from_db()
    assert job.status == "running" and job.is_stuck  # not failed: the database was away, not the export
    monkeypatch.undo()
    monkeypatch.setattr("django_tasks_db.management.commands.db_worker.close_old_connections", lambda: None)
    with django_capture_on_commit_callbacks(execute=True):
        Client().get(location)
    call_command("run_worker", "--batch", "--no-startup-delay", verbosity=0)
    job.refresh_from_db()
    assert job.status == "done"


@pytest.mark.django_db
def test_an_export_rendered_in_the_request_is_sent_whole_when_the_disk_is_full(four_table, monkeypatch, caplog, settings):
    from io import BytesIO

    from openpyxl import load_workbook

    url = reverse("exports:standings_xlsx", args=[four_table.round.tournament.pk])

    def full(name, content):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("scoring.exporters.views.store", full)
    with caplog.at_level(logging.WARNING, logger="scoring.exporters.views"):
        response = Client().get(url)
    assert response.status_code == 200
    assert load_workbook(BytesIO(response.content)).sheetnames  # the whole workbook, from memory
    assert "No space left on device" in caplog.text
    assert not (settings.MEDIA_ROOT / "exports").exists()
