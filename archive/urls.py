"""The archive's pages under ``manage/``: restoring a tournament from its archive (the
"Organisers" group) and downloading one (the tournament's organiser)."""

from django.urls import path

from archive import views

app_name = "archive"
urlpatterns = [
    path("tournaments/restore/", views.RestoreView.as_view(), name="restore"),
    path("t/<int:pk>/backup/", views.BackupView.as_view(), name="backup"),
]
