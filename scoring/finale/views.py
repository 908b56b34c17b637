"""The Ö-Finale's pages: the Gesamtwertung and the qualifiers' list (public, served from the page
cache while neither the tournament nor a qualifying cup changed,
:func:`scoring.finale.services.finale_version`), their downloads, and for the tournament's
directors the settings (make the tournament an Ö-Finale, change or remove it) and the
registration of the qualifiers."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import TemplateView

from scoring.finale import exports
from scoring.finale.forms import OeFinaleForm
from scoring.finale.models import OeFinale
from scoring.finale.services import finale_of, finale_version, format_notes, gesamtwertung, qualifiers, register_qualifiers
from tournaments import actions
from tournaments.models import Tournament
from tournaments.permissions import Can, Level, RoleRequiredMixin
from tournaments.public_cache import CachedPublicPage
from tournaments.versioning import touch


def finale_or_404(pk: int) -> OeFinale:
    """The Ö-Finale of tournament ``pk`` with its tournament; 404 when there is no such
    tournament or it is no Ö-Finale."""
    tournament = get_object_or_404(Tournament, pk=pk)
    finale = finale_of(tournament)
    if finale is None:
        raise Http404(_("This tournament is no Ö-Finale."))
    return finale


class FinalePage(CachedPublicPage, TemplateView):
    """A public page of the finale, keyed by :func:`finale_version`."""

    def version_for(self, **kwargs):
        return finale_version(kwargs["pk"])

    def get_context_data(self, **kwargs):
        finale = finale_or_404(self.kwargs["pk"])
        return {**super().get_context_data(**kwargs), "finale": finale, "tournament": finale.tournament,
                "can": Can(self.request.user, finale.tournament_id)}


class GesamtwertungView(FinalePage):
    """The Gesamtwertung "Österreichischer Tarockmeister": Vorrundenpunkte + Finalpunkte."""

    template_name = "finale/gesamtwertung.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        return {**context, "wertung": gesamtwertung(context["finale"])}


class QualifiersView(FinalePage):
    """The qualifiers' list: each qualifier's cup ranks and Vorrundenpunkte."""

    template_name = "finale/qualifiers.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        return {**context, "found": qualifiers(context["finale"])}


FORMATS = {
    "xlsx": (exports.finale_workbook, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    "pdf": (exports.finale_pdf, "application/pdf"),
}


class FinaleExportView(CachedPublicPage, View):
    """Both lists as ``xlsx`` or ``pdf`` (anything else: 404), as an attachment; the page cache
    keeps the bytes and their type, so the file name is set on every answer."""

    def version_for(self, **kwargs):
        return finale_version(kwargs["pk"]) if kwargs.get("fmt") in FORMATS else None

    def dispatch(self, request, *args, **kwargs):
        if kwargs.get("fmt") not in FORMATS:
            raise Http404(_("No such download."))
        response = super().dispatch(request, *args, **kwargs)
        if response.status_code == 200:
            tournament = Tournament.objects.filter(pk=kwargs["pk"]).only("pk", "name", "date").first()
            if tournament is not None:
                stem = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}-oe-finale"
                response["Content-Disposition"] = f'attachment; filename="{stem}.{kwargs["fmt"]}"'
        return response

    def get(self, request, pk, fmt):
        render_file, content_type = FORMATS[fmt]
        return HttpResponse(render_file(finale_or_404(pk)), content_type=content_type)


class FinaleSettingsView(RoleRequiredMixin, TemplateView):
    """The director's Ö-Finale settings: make the tournament an Ö-Finale (saving the form does),
    change its cups, Finalpunkte and option, or remove it (``remove`` posted: the tournament is an
    ordinary one again). A refused form saves nothing and keeps what was typed (422)."""

    required_role = Level.DIRECTOR
    template_name = "finale/settings.html"

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        finale = OeFinale.objects.filter(tournament=tournament).first()
        form = kwargs.get("form") or OeFinaleForm(instance=finale or OeFinale(tournament=tournament))
        found = qualifiers(finale_of(tournament)) if finale is not None else None
        return {**super().get_context_data(**kwargs), "tournament": tournament, "finale": finale, "form": form, "found": found,
                "notes": format_notes(tournament)}

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        finale = OeFinale.objects.filter(tournament=tournament).first()
        if "remove" in request.POST:
            if finale is not None:
                with transaction.atomic():
                    touch(tournament.pk)
                    finale.delete()
                    actions.log(tournament.pk, actions.Action.EDITED, request.user, detail=_("no longer an Ö-Finale"))
                messages.success(request, _("The tournament is no longer an Ö-Finale."))
            return redirect(tournament.get_absolute_url())
        form = OeFinaleForm(request.POST, instance=finale or OeFinale(tournament=tournament))
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=422)
        with transaction.atomic():
            touch(tournament.pk)  # locks the tournament: one save at a time; its pages show the change
            saved = form.save()
            cups = ", ".join(c.name for c in saved.cups.order_by("name"))
            actions.log(tournament.pk, actions.Action.EDITED, request.user,
                        detail=_("Ö-Finale: %(cups)s; %(ranks)s Finalpunkte ranks") % {"cups": cups or "–", "ranks": len(saved.finalpunkte)})
        messages.success(request, _("The Ö-Finale is saved."))
        return redirect("finale_manage:settings", pk=pk)


class RegisterQualifiersView(RoleRequiredMixin, View):
    """``POST``: register every qualifier not yet registered in the tournament
    (:func:`tournaments.services.register`, logged as the director's), in the order of the
    qualifiers' list."""

    required_role = Level.DIRECTOR

    def post(self, request, pk):
        count = register_qualifiers(finale_or_404(pk), request.user)
        if count:
            messages.success(request, ngettext("%(count)s qualifier registered.", "%(count)s qualifiers registered.", count) % {"count": count})
        else:
            messages.info(request, _("Every qualifier is registered already."))
        return redirect("finale_manage:settings", pk=pk)
