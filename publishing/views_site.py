"""The public site's publishing pages: the push (:func:`push`, thin over
:func:`publishing.site.take_push`), a mirror's stable address (:func:`mirror_redirect`) and the
organisers' keys (:class:`KeysView`, :class:`RevokeKeyView`).

Keys: a user allowed to create tournaments (``tournaments.add_tournament``, the "Organisers"
group) sees his own keys, makes one (shown once, in the answer to the form, never stored as
text; the answer is not cached) and revokes one after a confirmation.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.csrf import csrf_exempt

from tournaments.links import absolute
from tournaments.permissions import SitePermissionRequiredMixin

from . import keys, site
from .forms_site import KeyForm
from .models import Mirror, PublishingKey


@csrf_exempt
def push(request):
    """``POST /publish/push/``: one version of a tournament from a venue (:mod:`publishing`)."""
    if request.method != "POST":
        response = JsonResponse({"error": _("Push with POST.")}, status=405)
        response["Allow"] = "POST"
        return response
    return site.take_push(request)


def mirror_redirect(request, uid, rest: str = ""):
    """``/m/<uid>/<rest>``: the same page (``rest``) of the mirror's current copy (302), with the
    query string; 404 while the mirror has no copy."""
    mirror = Mirror.objects.filter(uid=uid, tournament__isnull=False).values_list("tournament_id", flat=True).first()
    if mirror is None:
        raise Http404
    target = f"/t/{mirror}/{rest}"
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    return HttpResponseRedirect(target)


class _KeysPage(SitePermissionRequiredMixin, View):
    permission_required = "tournaments.add_tournament"


class KeysView(_KeysPage):
    """``/publishing/keys/``: the organiser's keys and the form for a new one; its ``POST``
    makes the key and shows it once."""

    def get(self, request):
        return self.page(KeyForm(user=request.user))

    def post(self, request):
        form = KeyForm(request.POST, user=request.user)
        if not form.is_valid():
            return self.page(form, status=400)
        try:
            key, plain = keys.make_key(request.user, form.cleaned_data["cup"], form.cleaned_data["label"])
        except keys.KeyRefused as refused:
            form.add_error(None, refused.message)
            return self.page(form, status=403)
        response = render(request, "publishing/keys_created.html", {
            "key": key, "plain": plain, "push_url": absolute("/publish/push/"), "site_url": absolute("/"),
        })
        add_never_cache_headers(response)  # the key is in it: no copy in any cache
        return response

    def page(self, form, status=200):
        return render(self.request, "publishing/keys.html", {"form": form, "keys": keys.keys_of(self.request.user)}, status=status)


class RevokeKeyView(_KeysPage):
    """``/publishing/keys/<pk>/revoke/``: the confirmation (GET) and the revocation (POST) of one
    of the user's own keys (404 for anyone else's)."""

    def own_key(self, pk) -> PublishingKey:
        return get_object_or_404(PublishingKey.objects.select_related("cup"), pk=pk, user=self.request.user)

    def get(self, request, pk):
        return render(request, "publishing/keys_revoke.html", {"key": self.own_key(pk)})

    def post(self, request, pk):
        key = self.own_key(pk)
        if keys.revoke(key):
            messages.success(request, _("The key %(prefix)s… is revoked: it publishes nothing from now on.") % {"prefix": key.prefix})
        else:
            messages.info(request, _("The key %(prefix)s… was revoked already.") % {"prefix": key.prefix})
        return redirect("publishing_site:keys")
