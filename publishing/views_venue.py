"""The director's publishing pages under ``manage/``: where the tournament is published (the public
site's address, the key, on or off), its status and the last pushes; "stop publishing"; and the
status line the tournament page shows directors (an htmx fragment, asked for by the page itself,
so the tournament page costs no query more).

Each of them makes sure a chain of pushes runs for an enabled target
(:func:`publishing.tasks.ensure_publishing`): a chain whose worker was killed is started again the
next time a director looks. Directors of the tournament only; a mirror (a tournament published
here from elsewhere) is not published on.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from publishing import venue
from publishing.forms_venue import PublishTargetForm
from publishing.models import PublishTarget
from publishing.tasks import deferring, ensure_publishing
from tournaments.models import Tournament
from tournaments.permissions import Level, RoleRequiredMixin

ATTEMPTS_SHOWN = 20


class _TargetMixin(RoleRequiredMixin):
    required_role = Level.DIRECTOR

    def tournament(self) -> Tournament:
        tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        if tournament.mirrored_from:
            raise PermissionDenied(_("This tournament is a mirror: it is published where it is run."))
        return tournament

    @staticmethod
    def target_of(tournament) -> PublishTarget | None:
        return PublishTarget.objects.filter(tournament=tournament).first()


class PublishView(_TargetMixin, TemplateView):
    """"Publish to a public site": the form, the status and the last pushes; saving it starts
    publishing (a new address or key starts afresh)."""

    template_name = "publishing/venue_publish.html"

    def get_context_data(self, **kwargs):
        tournament = kwargs.pop("tournament", None) or self.tournament()
        target = kwargs.pop("target", None) or self.target_of(tournament)
        if target is not None and "form" not in kwargs:
            if ensure_publishing(tournament):
                target.refresh_from_db()
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "target": target,
            "form": kwargs.get("form") or PublishTargetForm.for_target(target),
            "status": venue.status(target, tournament.data_version) if target else None,
            "key_hint": venue.key_hint(target.key) if target else "",
            "attempts": list(target.attempts.order_by("-at", "-pk")[:ATTEMPTS_SHOWN]) if target else [],
            "in_background": deferring(),
        }

    def post(self, request, pk):
        tournament = self.tournament()
        target = self.target_of(tournament)
        form = PublishTargetForm.for_target(target, request.POST)
        if not form.is_valid():
            context = self.get_context_data(tournament=tournament, target=target, form=form)
            return self.render_to_response(context, status=422)
        data = form.cleaned_data
        target = venue.configure(tournament, url=data["url"], key=data["key"], enabled=data["enabled"])
        if target.enabled:
            ensure_publishing(tournament)
            messages.success(request, _("Saved. Publishing to %(site)s starts now.") % {"site": target.url})
        else:
            venue.stop(target)
            messages.success(request, _("Saved. Publishing is stopped."))
        return redirect("publishing_venue:publish", pk=pk)


class StopView(_TargetMixin, TemplateView):
    """"Stop publishing" (POST): nothing more is sent; the address and the key stay stored."""

    http_method_names = ["post"]

    def post(self, request, pk):
        target = self.target_of(self.tournament())
        if target is not None and target.enabled:
            venue.stop(target)
            messages.success(request, _("Publishing is stopped. The public site keeps the last version it got."))
        return redirect("publishing_venue:publish", pk=pk)


class PublishOverView(_TargetMixin, TemplateView):
    """"Publish over it" (POST), after the site said it holds a newer version than the backup this
    tournament was restored from (:func:`publishing.venue.publish_over`): the next push replaces
    the site's copy. Any other state of the target: nothing changes."""

    http_method_names = ["post"]

    def post(self, request, pk):
        tournament = self.tournament()
        target = self.target_of(tournament)
        held = venue.publish_over(target) if target is not None else None
        if held is not None:
            ensure_publishing(tournament)
            messages.success(request, _("This tournament is sent to the public site now and replaces its version %(held)s.") % {"held": held})
        return redirect("publishing_venue:publish", pk=pk)


class StatusView(_TargetMixin, TemplateView):
    """The status line for the tournament page (an htmx fragment that asks again every few seconds
    while a target exists; empty without one)."""

    template_name = "publishing/venue_status.html"

    def get_context_data(self, **kwargs):
        tournament = self.tournament()
        target = self.target_of(tournament)
        if target is not None and ensure_publishing(tournament):
            target.refresh_from_db()
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "target": target,
            "status": venue.status(target, tournament.data_version) if target else None,
        }
