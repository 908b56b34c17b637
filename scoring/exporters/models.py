"""Storage of the background exports: one job per export, version and language, leased by the
worker that renders it. The table keeps the name it had before the exporters were an app of their own
(``db_table``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ExportJob(models.Model):
    """An export rendered in the background (:mod:`scoring.exporters`): one per tournament,
    exporter, parameters, language and data version stamp, so a second request for the same export
    waits for the same job instead of starting another. ``done``/``total`` count the work (tables)
    for the "being prepared" page; ``file`` is the storage name once it is ready.

    A running job holds a lease: ``lease_until`` is pushed forward by the worker while it renders
    (:mod:`scoring.exporters.tasks`). A job still running when its lease has passed lost its worker (killed,
    or cut off from the database) and is *stuck*: it is taken up again. ``attempts`` counts the
    times a worker took it; it fences a worker that lost its lease from writing over the next one.
    ``failure`` says why a failed job failed, in words its page shows (:attr:`failure_message`);
    ``error`` keeps the technical reason for the log reader."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("being prepared")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    class Failure(models.TextChoices):
        ERROR = "", _("an error")
        DISK_FULL = "disk_full", _("the server's disk is full")
        WORKER_LOST = "worker_lost", _("the worker stopped every time")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="export_jobs")
    exporter = models.CharField(max_length=60)
    params_key = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict, blank=True)
    language = models.CharField(max_length=10)
    stamp = models.CharField(max_length=60)  # the data version it renders (tournaments.versioning.stamp)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    failure = models.CharField(max_length=20, choices=Failure.choices, blank=True, default=Failure.ERROR)
    lease_until = models.DateTimeField(null=True, blank=True)  # a running job's worker is alive until then
    attempts = models.PositiveSmallIntegerField(default=0)  # how often a worker took it up
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "scoring_exportjob"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "exporter", "params_key", "language", "stamp"], name="one_job_per_export_version"
            )
        ]

    def __str__(self):
        return f"{self.exporter} {self.params_key} v{self.stamp} ({self.status})"

    @staticmethod
    def stuck_q(now=None) -> models.Q:
        """The filter of stuck jobs at ``now`` (default: now): running, with a lease that has passed."""
        from django.utils import timezone

        return models.Q(status=ExportJob.Status.RUNNING, lease_until__lt=now or timezone.now())

    @property
    def is_stuck(self) -> bool:
        """Whether the job is running on a lease that has passed (its worker vanished)."""
        from django.utils import timezone

        return self.status == self.Status.RUNNING and self.lease_until is not None and self.lease_until < timezone.now()

    @property
    def failure_message(self) -> str:
        """What the failed job's page tells the visitor (translated), or "" for an error that is
        only in the log."""
        messages = {
            self.Failure.DISK_FULL: _(
                "The server's disk is full; the file could not be saved. Ask the server's administrator to "
                "free some space, then try again."
            ),
            self.Failure.WORKER_LOST: _(
                "The server's background worker stopped each time it prepared this file. Try again; if it "
                "happens again, the server's log says why."
            ),
        }
        return messages.get(self.failure, "")
