"""URLs by audience: public pages at the root, director pages under ``manage/``."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("manage/", include("tournaments.urls_director")),
    path("manage/", include("scoring.urls_director")),
    path("", include("tournaments.urls_public")),
    path("", include("scoring.urls_public")),
]
