"""One view for every download (:mod:`scoring.exporters`).

A request is answered from the storage when the export was rendered for the tournament's current
data version already; else it is rendered now, or, if heavy, by the worker while the "being
prepared" page refreshes itself with the progress (``?job=<id>`` keeps it on the job it started, so a
busy tournament whose version moves on meanwhile still gets its file). A job whose worker
vanished (its lease passed, :mod:`scoring.exporters.tasks`) is queued again by the next look at its page.

An anonymous visitor's render (inline or by starting the worker) counts against
``RATE_LIMIT_EXPORTS`` for his address and is answered 429 over it
(:mod:`tournaments.ratelimits`); a file served from the storage and a job's page never count.
"""

from __future__ import annotations

import logging

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.views.generic import View

from scoring.exporters.base import Audience, get_exporter, params_key, storage_name, store, stored
from scoring.exporters.models import ExportJob
from scoring.exporters.tasks import job_storage_name, start_job, take_up_again
from tournaments import ratelimits
from tournaments.models import Tournament
from tournaments.permissions import Level, has_role
from tournaments.posted import whole_number
from tournaments.versioning import stamp

log = logging.getLogger(__name__)

REFRESH_SECONDS = 2


class ExportView(View):
    """``GET``: the export ``identifier`` of tournament ``pk`` (round ``number`` for per-round
    exports) as a download, or the page that waits for the worker (and queues a stuck job again).
    ``POST`` on a failed or stuck job's page tries again: the job is removed and the next ``GET``
    starts a new one. A render for an anonymous visitor is rate-limited (:meth:`render_refused`)."""

    def setup_export(self, request, pk, identifier, number=None):
        self.exporter = get_exporter(identifier)
        self.tournament = get_object_or_404(Tournament, pk=pk)
        if self.exporter.audience == Audience.DIRECTOR and not has_role(request.user, pk, Level.DIRECTOR):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        self.params = self.exporter.params(self.tournament, request.GET, number)
        self.key = params_key(self.params)
        self.language = get_language()
        self.stamp = stamp(self.tournament.data_version, self.tournament.created)
        return None

    def get(self, request, pk, identifier, number=None):
        refused = self.setup_export(request, pk, identifier, number)
        if refused is not None:
            return refused
        job_id = whole_number(request.GET.get("job"))
        if job_id is not None:
            job = ExportJob.objects.filter(pk=job_id, tournament=self.tournament, exporter=self.exporter.identifier).first()
            if job is not None:
                return self.job_answer(request, job)
        name = storage_name(self.tournament.pk, self.exporter.identifier, self.key, self.language, self.stamp, self.exporter.format.extension)
        if stored(name):
            return self.download(default_storage.open(name))
        refused = self.render_refused(request)
        if refused is not None:
            return refused
        if self.exporter.is_heavy(self.tournament, self.params):
            return redirect(self.job_url(request, self.heavy_job()))
        content = self.exporter.render(self.tournament, self.params)
        try:
            store(name, content)
        except OSError as error:  # a full disk: the file is whole in memory, the next request renders again
            log.warning("could not keep the export %s (%s); sent from memory", name, error)
        return self.download(content)

    def post(self, request, pk, identifier, number=None):
        refused = self.setup_export(request, pk, identifier, number)
        if refused is not None:
            return refused
        # Try a failed or stuck job again: it is removed, and the next GET starts a new one (a
        # worker still holding it finds it gone and drops its run).
        ExportJob.objects.filter(
            Q(status=ExportJob.Status.FAILED) | ExportJob.stuck_q(),
            pk=whole_number(request.POST.get("job")),
            tournament=self.tournament,
        ).delete()
        return redirect(self.job_url(request, None))

    def render_refused(self, request) -> HttpResponse | None:
        """The ``429`` page (translated, with ``Retry-After``) when an anonymous visitor is over
        ``RATE_LIMIT_EXPORTS`` for his address, counting this render; ``None`` to go on (a
        logged-in user is never limited, and the limiter lets everything through when the cache
        cannot count)."""
        if request.user.is_authenticated:
            return None
        wait = ratelimits.over_limit(request, "export-render", ratelimits.EXPORTS)
        return None if wait is None else ratelimits.too_many_requests(request, wait)

    def heavy_job(self) -> ExportJob:
        """The job that renders this export at this version: the existing one, or a new one
        handed to the worker (two requests at once make one job: the unique constraint)."""
        fields = dict(
            tournament=self.tournament,
            exporter=self.exporter.identifier,
            params_key=self.key,
            language=self.language,
            stamp=self.stamp,
        )
        try:
            with transaction.atomic():
                job, created = ExportJob.objects.get_or_create(
                    **fields,
                    defaults={"params": self.params, "total": self.exporter.units(self.tournament, self.params)},
                )
                if created:
                    start_job(job)
        except IntegrityError:
            job = ExportJob.objects.get(**fields)
        return job

    def job_url(self, request, job: ExportJob | None) -> str:
        query = {k: v for k, v in request.GET.items() if k != "job"}
        if job is not None:
            query["job"] = job.pk
        return f"{request.path}?{urlencode(query)}" if query else request.path

    def job_answer(self, request, job: ExportJob):
        if job.status == ExportJob.Status.DONE:
            name = job.file or job_storage_name(job)
            if stored(name):
                return self.download(default_storage.open(name))
            return redirect(self.job_url(request, None))  # replaced by a newer version meanwhile
        if job.is_stuck:
            take_up_again(job)
        context = {
            "tournament": self.tournament,
            "exporter": self.exporter,
            "job": job,
            "refresh": REFRESH_SECONDS,
            "failed": job.status == ExportJob.Status.FAILED,
        }
        return render(request, "exporters/export_preparing.html", context, status=200 if context["failed"] else 202)

    def download(self, content) -> HttpResponse:
        filename = self.exporter.filename(self.tournament, self.params)
        content_type = self.exporter.format.content_type
        if isinstance(content, bytes):
            response = HttpResponse(content, content_type=content_type)
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
            return response
        return FileResponse(content, as_attachment=True, filename=filename, content_type=content_type)
