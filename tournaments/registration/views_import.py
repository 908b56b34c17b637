"""Director page: import a tournament's players from a CSV file or an Excel workbook.

Upload → preview (every rejected row with its line number and reason) → import. The uploaded
file waits in the session between preview and import and is checked again on import; the import
button carries the file's digest, so only the file previewed is imported.
"""

import base64
import hashlib

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views import View

from tournaments.models import Tournament
from tournaments.permissions import RoleRequiredMixin
from tournaments.registration import importer

MAX_UPLOAD = 1024 * 1024  # 1 MB: thousands of players


class PlayerFileForm(forms.Form):
    file = forms.FileField(
        label=_("Player list"),
        help_text=_("A CSV file or an Excel workbook (.xlsx), at most 1 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return upload


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class ImportPlayersView(RoleRequiredMixin, View):
    """GET: the upload form. POST with a file: the preview. POST ``import``: register the players."""

    template_name = "tournaments/registration/import.html"

    def dispatch(self, request, *args, **kwargs):
        self.tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        return super().dispatch(request, *args, **kwargs)

    @property
    def session_key(self):
        return f"player_import_{self.tournament.pk}"

    def render(self, form, preview=None, digest=None, status=200):
        plan = importer.plan_import(self.tournament, preview.rows) if preview is not None and preview.ok else None
        return render(
            self.request,
            self.template_name,
            {"tournament": self.tournament, "form": form, "preview": preview, "plan": plan, "digest": digest},
            status=status,
        )

    def get(self, request, pk):
        return self.render(PlayerFileForm())

    def post(self, request, pk):
        if "import" in request.POST:
            return self.do_import(request)
        form = PlayerFileForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render(form, status=422)
        upload = form.cleaned_data["file"]
        content = upload.read()
        preview = importer.parse_players(upload.name, content, self.tournament)
        digest = None
        if preview.ok:
            digest = _digest(content)
            request.session[self.session_key] = {
                "name": upload.name,
                "content": base64.b64encode(content).decode("ascii"),
                "digest": digest,
            }
        else:
            request.session.pop(self.session_key, None)
        return self.render(PlayerFileForm(), preview, digest)

    def do_import(self, request):
        stored = request.session.get(self.session_key)
        if not stored or stored.get("digest") != request.POST.get("digest"):
            messages.error(request, _("The preview is out of date: upload the file again."))
            return redirect("tournaments_director:import_players", pk=self.tournament.pk)
        content = base64.b64decode(stored["content"])
        if _digest(content) != stored["digest"]:
            messages.error(request, _("The preview is out of date: upload the file again."))
            return redirect("tournaments_director:import_players", pk=self.tournament.pk)
        preview = importer.parse_players(stored["name"], content, self.tournament)  # checked again
        try:
            registrations = importer.import_players(self.tournament, preview, request.user)
        except importer.ImportRefused as refused:
            preview.problems = refused.problems
            return self.render(PlayerFileForm(), preview, status=422)
        del request.session[self.session_key]
        messages.success(
            request,
            ngettext("%(count)s player imported.", "%(count)s players imported.", len(registrations))
            % {"count": len(registrations)},
        )
        return redirect("tournaments_director:registrations", pk=self.tournament.pk)
