"""The archive's pages under ``manage/``: restoring a tournament from its archive (the
"Organisers" group), downloading one and deleting the tournament with an archive written first
(the tournament's organiser)."""

from django.urls import path

from archive import views

app_name = "archive"
urlpatterns = [
    path("tournaments/restore/", views.RestoreView.as_view(), name="restore"),
    path("t/<int:pk>/backup/", views.BackupView.as_view(), name="backup"),
    path("t/<int:pk>/delete/", views.DeleteTournamentView.as_view(), name="delete"),
]
