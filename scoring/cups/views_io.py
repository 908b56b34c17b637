"""Season cups: the cup table's downloads (public), and the import of last season's results and
their removal (the cup's organisers, :mod:`scoring.cups.roles`).

Downloads: ``xlsx`` (:func:`scoring.cups.exports.cup_workbook`) and ``pdf`` (the poster,
:func:`scoring.cups.exports.cup_poster_pdf`), served from the page cache while neither the cup nor
any of its tournaments changed (:func:`scoring.cups.table.cup_version`).

Import: upload → preview (every tournament, every rejected row with its line and reason; nothing
written) → confirm. The uploaded file waits in the session between preview and confirm, as in
:mod:`tournaments.registration.views_import`, and is checked again on confirm; the confirm button carries the
file's digest and what the preview promised, so only what was shown is imported. The imported
tournaments are listed on the same page, each with a button that removes its results.
"""

import base64
import datetime
import hashlib

from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import View

from scoring.cups import importer as cup_import
from scoring.cups.exports import cup_poster_pdf, cup_workbook
from scoring.cups.models import Cup
from scoring.cups.roles import CupOrganiserRequiredMixin
from scoring.cups.table import cup_version
from tournaments.public_cache import CachedPublicPage
from tournaments.registration.views_import import PlayerFileForm
from tournaments.text import text_problem

FORMATS = {
    "xlsx": (cup_workbook, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    "pdf": (cup_poster_pdf, "application/pdf"),
}


def export_name(cup: Cup, fmt: str) -> str:
    """``tiroler-tarockcup-2026-27.xlsx``, ``…-poster.pdf``."""
    stem = slugify(cup.name) or f"cup-{cup.pk}"
    return f"{stem}.xlsx" if fmt == "xlsx" else f"{stem}-poster.pdf"


class CupExportView(CachedPublicPage, View):
    """``fmt`` ``xlsx`` or ``pdf`` (anything else: 404) of cup ``pk``, as an attachment. The page
    cache keeps the bytes and their type only, so the file name is set on every answer."""

    def version_for(self, **kwargs):
        return cup_version(kwargs["pk"]) if kwargs.get("fmt") in FORMATS else None

    def dispatch(self, request, *args, **kwargs):
        if kwargs.get("fmt") not in FORMATS:
            raise Http404(_("No such download."))
        response = super().dispatch(request, *args, **kwargs)
        if response.status_code == 200:
            cup = Cup.objects.filter(pk=kwargs["pk"]).only("pk", "name").first()
            if cup is not None:
                response["Content-Disposition"] = f'attachment; filename="{export_name(cup, kwargs["fmt"])}"'
        return response

    def get(self, request, pk, fmt):
        cup = get_object_or_404(Cup, pk=pk)
        render_file, content_type = FORMATS[fmt]
        return HttpResponse(render_file(cup), content_type=content_type)


class CupResultsFileForm(PlayerFileForm):
    """The upload of last season's results: a CSV or xlsx file of at most 1 MB, as the player
    import takes it (:class:`tournaments.registration.views_import.PlayerFileForm`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].label = gettext_lazy("Results")


def _digest(content: bytes, preview: cup_import.CupImportPreview) -> str:
    """The file and what its preview promised (:meth:`~scoring.cups.importer.CupImportPreview.fingerprint`)."""
    return hashlib.sha256(content + b"\0" + preview.fingerprint().encode()).hexdigest()


class CupImportView(CupOrganiserRequiredMixin, View):
    """GET: the upload form. POST with a file: the preview. POST ``import``: write the results
    (logged in the cup's action log as their importer's).

    Anonymous users are sent to the login, users who do not keep the cup get 403."""

    template_name = "cups/import.html"

    def session_key(self, cup):
        return f"cup_import_{cup.pk}"

    def render(self, cup, form, preview=None, digest=None, status=200):
        return render(
            self.request,
            self.template_name,
            {"cup": cup, "form": form, "preview": preview, "digest": digest, "heine": cup.method == "heine",
             "imported": imported_events(cup)},
            status=status,
        )

    def get(self, request, pk):
        return self.render(self.cup, CupResultsFileForm())

    def post(self, request, pk):
        cup = self.cup
        if "import" in request.POST:
            return self.confirm(request, cup)
        form = CupResultsFileForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render(cup, form, status=422)
        upload = form.cleaned_data["file"]
        content = upload.read()
        preview = cup_import.parse_results(cup, upload.name, content)
        digest = None
        if preview.ok:
            digest = _digest(content, preview)
            request.session[self.session_key(cup)] = {
                "name": upload.name,
                "content": base64.b64encode(content).decode("ascii"),
                "digest": digest,
            }
        else:
            request.session.pop(self.session_key(cup), None)
        return self.render(cup, CupResultsFileForm(), preview, digest)

    def confirm(self, request, cup):
        stored = request.session.get(self.session_key(cup))
        if not stored or stored.get("digest") != request.POST.get("digest"):
            # a second confirm (reload, double click) finds the file gone: the first one took it
            messages.error(request, _("Nothing was imported: this preview was already imported or is out of date. Upload the file again if results are missing."))
            return redirect("cups_manage:import", pk=cup.pk)
        content = base64.b64decode(stored["content"])
        preview = cup_import.parse_results(cup, stored["name"], content)  # checked again
        digest = _digest(content, preview)
        if digest != stored["digest"]:  # shown again, with what a confirm would write now
            request.session.pop(self.session_key(cup), None)
            if preview.ok:
                request.session[self.session_key(cup)] = {**stored, "digest": digest}
            messages.error(request, _("The cup or the player register changed since the preview: nothing was imported. Check the new preview."))
            return self.render(cup, CupResultsFileForm(), preview, digest if preview.ok else None, status=409)
        try:
            results, players = cup_import.import_results(cup, preview, user=request.user)
        except cup_import.ImportRefused as refused:
            request.session.pop(self.session_key(cup), None)
            messages.error(request, refused.message)
            return redirect("cups_manage:import", pk=cup.pk)
        request.session.pop(self.session_key(cup), None)
        messages.success(
            request,
            ngettext("%(count)s result imported", "%(count)s results imported", results) % {"count": results}
            + ", "
            + ngettext("%(count)s new player.", "%(count)s new players.", players) % {"count": players},
        )
        return redirect(cup.get_absolute_url())


def imported_events(cup: Cup) -> list[dict]:
    """The tournaments imported into ``cup``: ``{"event", "date", "results"}`` each, by date."""
    return list(cup.imported_results.values("event", "date").annotate(results=Count("pk")).order_by("date", "event"))


class CupResultsRemoveView(CupOrganiserRequiredMixin, View):
    """POST ``event`` and ``date`` (``2026-11-21``): remove the results imported for that
    tournament (logged in the cup's action log); back to the import page, which says what was
    removed or that there was nothing (a second click)."""

    def post(self, request, pk):
        event = request.POST.get("event", "")
        # A control character (a null one above all: PostgreSQL cannot hold it in a query) is in
        # no imported tournament's name: refused by name before it reaches the database.
        if problem := text_problem(event):
            messages.error(request, _("Nothing was removed. The tournament: %(problem)s") % {"problem": problem})
            return redirect("cups_manage:import", pk=pk)
        try:
            date = datetime.date.fromisoformat(request.POST.get("date", ""))
        except ValueError:
            date = None
        removed = cup_import.remove_results(self.cup, event, date, user=request.user) if date and event else 0
        if removed:
            messages.success(
                request,
                ngettext("%(count)s result of “%(event)s” removed.", "%(count)s results of “%(event)s” removed.", removed)
                % {"count": removed, "event": event},
            )
        else:
            messages.info(request, _("Nothing was removed: the cup holds no imported results of “%(event)s” on that date.") % {"event": event})
        return redirect("cups_manage:import", pk=pk)
