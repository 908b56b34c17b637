"""The public site's publishing addresses: the push (for venues, no session: its key and signature
say who sends it), a mirror's stable address, and the organisers' keys."""

from django.urls import path

from . import views_site

app_name = "publishing_site"
urlpatterns = [
    path("publish/push/", views_site.push, name="push"),
    path("m/<uuid:uid>/", views_site.mirror_redirect, name="mirror"),
    path("m/<uuid:uid>/<path:rest>", views_site.mirror_redirect, name="mirror_page"),
    path("publishing/keys/", views_site.KeysView.as_view(), name="keys"),
    path("publishing/keys/<int:pk>/revoke/", views_site.RevokeKeyView.as_view(), name="revoke_key"),
]
