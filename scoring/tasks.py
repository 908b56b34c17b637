"""Background work, run by the worker (``manage.py db_worker``, started by ``scripts/serve``):
heavy exports are rendered here while their page says how far it got."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import translation
from django_tasks import task

from .models import ExportJob

log = logging.getLogger(__name__)


@task()
def render_export(job_id: int) -> str:
    """Render the export of :class:`~scoring.models.ExportJob` ``job_id`` and keep it in the
    storage; returns the storage name. A job that is done already is not rendered again (the same
    job enqueued twice); a failure is logged with its traceback and kept on the job, whose page
    then offers to try again."""
    from .exporters import get_exporter, store

    job = ExportJob.objects.select_related("tournament").get(pk=job_id)
    if job.status == ExportJob.Status.DONE:
        return job.file
    ExportJob.objects.filter(pk=job_id).update(status=ExportJob.Status.RUNNING)
    exporter = get_exporter(job.exporter)

    def progress(done: int, total: int) -> None:
        ExportJob.objects.filter(pk=job_id).update(done=done, total=total)

    try:
        with translation.override(job.language):
            content = exporter.render(job.tournament, job.params, progress)
        name = store(job_storage_name(job), content)
    except Exception as error:
        log.exception("export %s of tournament %s failed", job.exporter, job.tournament_id)
        ExportJob.objects.filter(pk=job_id).update(status=ExportJob.Status.FAILED, error=f"{type(error).__name__}: {error}")
        raise
    ExportJob.objects.filter(pk=job_id).update(status=ExportJob.Status.DONE, file=name)
    return name


def job_storage_name(job: ExportJob) -> str:
    """Where the job's file is kept (as :func:`scoring.exporters.storage_name` for its export)."""
    from .exporters import get_exporter, storage_name

    exporter = get_exporter(job.exporter)
    return storage_name(job.tournament_id, job.exporter, job.params_key, job.language, job.stamp, exporter.format.extension)


def start_job(job: ExportJob) -> None:
    """Hand the job to the worker once the transaction that created it is committed."""
    transaction.on_commit(lambda: render_export.enqueue(job.pk))
