"""Background work, run by the worker (``manage.py run_worker``, started and restarted by
``scripts/serve``): heavy exports are rendered here while their page says how far it got.

A job the worker takes is leased (:class:`~scoring.exporters.models.ExportJob` ``lease_until``): while the
worker renders, a heartbeat pushes the lease forward every :func:`lease_seconds` / 4. A worker that
is killed or cut off from the database stops renewing it, and once it has passed the job is
*stuck*: its page takes it up again (:func:`take_up_again`), and "Try again" may remove it. The
task claims a job only from the queue, and every write it makes is fenced by the attempt it
claimed, so a worker that comes back after losing its lease never writes over the next one. The
library's own record of the killed run (a ``DBTaskResult`` left ``RUNNING``: django-tasks-db never
takes it up again nor prunes it) plays no part: taking a job up again enqueues a new task.
"""

from __future__ import annotations

import errno
import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connections, transaction
from django.db.models import F
from django.utils import timezone, translation
from django_tasks import task

from scoring.exporters.models import ExportJob

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3  # a job whose worker vanished this often is failed instead of taken up again
OUTAGE = (OperationalError, InterfaceError)  # the database away, as opposed to a mistake in a query
DISK_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}


def lease_seconds() -> float:
    """How long a worker's lease on a job lasts without being renewed (seconds):
    ``settings.EXPORT_LEASE_SECONDS`` (the environment's, default 30)."""
    return float(settings.EXPORT_LEASE_SECONDS)


def lease_end():
    return timezone.now() + timedelta(seconds=lease_seconds())


class LeaseLost(Exception):
    """The job was taken up again (or removed) by others: this worker's run of it is void."""


class Heartbeat:
    """``with Heartbeat(job_id, attempt):`` renews the job's lease in a thread of its own (with its
    own database connection) every quarter lease while the block runs, so a render that reports no
    progress for minutes keeps its job. A renewal that fails (database away) is logged and tried at
    the next beat; the lease then runs out unless the database comes back in time."""

    def __init__(self, job_id: int, attempt: int):
        self.job_id, self.attempt = job_id, attempt
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.beat, name=f"export-job-{job_id}-lease", daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join()

    def beat(self) -> None:
        try:
            while not self.stopped.wait(lease_seconds() / 4):
                try:
                    held = ExportJob.objects.filter(
                        pk=self.job_id, attempts=self.attempt, status=ExportJob.Status.RUNNING
                    ).update(lease_until=lease_end())
                except DatabaseError as error:
                    log.warning("could not renew the lease of export job %s: %s", self.job_id, error)
                    continue
                if not held:
                    return
        finally:
            connections.close_all()  # this thread's own connection


def is_disk_full(error: OSError) -> bool:
    """Whether ``error`` means the storage is full (or a quota is): ENOSPC/EDQUOT, or an OSError
    without an errno as the storage raises for a write it could not finish."""
    return error.errno is None or error.errno in DISK_FULL_ERRNOS


@task()
def render_export(job_id: int) -> str:
    """Render the export of :class:`~scoring.exporters.models.ExportJob` ``job_id`` and keep it in the
    storage; returns the storage name ("" when there is nothing to do). Only a queued job is taken
    (claimed: running, its lease started, one more attempt); a job that is done already or taken by
    another worker is left alone (the same job enqueued twice), a removed one is skipped.

    A failure is logged with its traceback and kept on the job, whose page then offers to try again:
    an ``OSError`` of a full disk with the message of :attr:`ExportJob.Failure.DISK_FULL`. The
    database going away (``OperationalError``, ``InterfaceError``) leaves the job running with its
    lease given back, so its page takes it up again once the database answers, and is raised on to
    the worker (which retries its loop)."""
    from scoring.exporters.base import get_exporter, store

    claimed = ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.QUEUED).update(
        status=ExportJob.Status.RUNNING, lease_until=lease_end(), attempts=F("attempts") + 1, done=0,
        error="", failure=ExportJob.Failure.ERROR,
    )
    job = ExportJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None or not claimed:
        return job.file if job is not None else ""
    mine = ExportJob.objects.filter(pk=job_id, attempts=job.attempts, status=ExportJob.Status.RUNNING)
    exporter = get_exporter(job.exporter)

    def progress(done: int, total: int) -> None:
        if not mine.update(done=done, total=total, lease_until=lease_end()):
            raise LeaseLost

    try:
        with Heartbeat(job_id, job.attempts):
            with translation.override(job.language):
                content = exporter.render(job.tournament, job.params, progress)
            name = store(job_storage_name(job), content)
    except LeaseLost:
        log.warning("export job %s was taken up by another worker meanwhile; this run of it is dropped", job_id)
        return ""
    except OUTAGE:
        log.exception("export %s of tournament %s was cut off from the database", job.exporter, job.tournament_id)
        try:
            mine.update(lease_until=timezone.now())  # its page takes it up again at once
        except DatabaseError:
            pass  # the lease runs out by itself
        raise
    except Exception as error:
        log.exception("export %s of tournament %s failed", job.exporter, job.tournament_id)
        full = isinstance(error, OSError) and is_disk_full(error)
        mine.update(
            status=ExportJob.Status.FAILED, lease_until=None, error=f"{type(error).__name__}: {error}",
            failure=ExportJob.Failure.DISK_FULL if full else ExportJob.Failure.ERROR,
        )
        raise
    if not mine.update(status=ExportJob.Status.DONE, file=name, lease_until=None):
        log.warning("export job %s was taken up by another worker meanwhile; its file is kept", job_id)
    return name


def job_storage_name(job: ExportJob) -> str:
    """Where the job's file is kept (as :func:`scoring.exporters.base.storage_name` for its export)."""
    from scoring.exporters.base import get_exporter, storage_name

    exporter = get_exporter(job.exporter)
    return storage_name(job.tournament_id, job.exporter, job.params_key, job.language, job.stamp, exporter.format.extension)


def start_job(job: ExportJob) -> None:
    """Hand the job to the worker once the transaction that created it is committed."""
    transaction.on_commit(lambda: render_export.enqueue(job.pk))


def take_up_again(job: ExportJob) -> bool:
    """If ``job`` is stuck (running on a lease that has passed), queue it again and hand it to the
    worker; after :data:`MAX_ATTEMPTS` vanished workers fail it instead
    (:attr:`ExportJob.Failure.WORKER_LOST`). The change is one conditional update, so of several
    requests seeing the same stuck job only one enqueues it. Returns whether this call changed the
    job (``job`` is then refreshed)."""
    now = timezone.now()
    stuck = ExportJob.objects.filter(ExportJob.stuck_q(now), pk=job.pk)
    with transaction.atomic():
        if job.attempts >= MAX_ATTEMPTS:
            changed = stuck.filter(attempts__gte=MAX_ATTEMPTS).update(
                status=ExportJob.Status.FAILED, lease_until=None, failure=ExportJob.Failure.WORKER_LOST,
                error=f"the worker vanished {job.attempts} times",
            )
        else:
            changed = stuck.filter(attempts=job.attempts).update(status=ExportJob.Status.QUEUED, lease_until=None, done=0)
            if changed:
                log.warning("export job %s lost its worker; it is queued again", job.pk)
                start_job(job)
    if changed:
        job.refresh_from_db()
    return bool(changed)
