"""URLs by audience: public pages at the root, director pages under ``manage/``."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.utils.cache import patch_cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from tournaments import views_accounts


def favicon(request):
    """``/favicon.ico``, which browsers and bots ask for whatever the page links: a permanent
    redirect to the static icon (served by WhiteNoise, hashed and cached for ever behind
    ``scripts/serve``), itself cacheable for a day, instead of a 404 in every first visit's log."""
    response = HttpResponsePermanentRedirect(static("favicon.ico"))
    patch_cache_control(response, public=True, max_age=24 * 3600)
    return response


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    # The language switch sits on every page, also on public pages served from the cache to many
    # viewers, so it cannot carry a per-visitor CSRF token; choosing a language changes nothing but
    # the visitor's own language cookie.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("accounts/login/", views_accounts.LoginView.as_view(), name="login"),
    path("accounts/new-password/", views_accounts.ChoosePasswordView.as_view(), name="choose_password"),
    # A one-time sign-in link (tournaments.sign_in_links): its key is hidden in every log
    # (config.log_filters.SIGN_IN_PATH matches this path).
    path("accounts/sign-in/<str:key>/", views_accounts.SignInLinkView.as_view(), name="sign_in_link"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Password reset by e-mail (Django's own views and templates under templates/registration/),
    # only through a mail server: without EMAIL_HOST nothing is sent (tournaments.passwords).
    path("accounts/password-reset/", views_accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", views_accounts.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    # Each package's pages, by audience: the people who run a day or keep a cup under manage/,
    # everybody at the root (README, "Layout").
    path("manage/", include("tournaments.urls_director")),
    path("manage/", include("scoring.entry.urls_director")),
    path("manage/", include("scoring.exporters.urls_director")),
    path("manage/", include("scoring.live.urls_director")),
    path("manage/", include("scoring.prizes.urls_director")),
    path("manage/", include("scoring.cups.urls_manage")),
    path("manage/", include("scoring.finale.urls_manage")),
    path("manage/", include("archive.urls")),
    path("", include("publishing.urls_site")),
    path("manage/", include("publishing.urls_venue")),
    path("", include("tournaments.urls_public")),
    path("", include("scoring.urls_public")),
    path("", include("scoring.exporters.urls_public")),
    path("", include("scoring.live.urls_public")),
    path("", include("scoring.prizes.urls_public")),
    path("", include("scoring.cups.urls_public")),
    path("", include("scoring.finale.urls_public")),
    path("", include("scoring.api.urls")),
]
