"""Season cups (issue 19): public pages under ``cups/``."""

from django.urls import path

from . import views_cup_io, views_cups

app_name = "cups"
urlpatterns = [
    path("cups/", views_cups.CupListView.as_view(), name="list"),
    path("cups/<int:pk>/", views_cups.CupTableView.as_view(), name="table"),
    path("cups/<int:pk>/players/<int:player>/", views_cups.CupPlayerView.as_view(), name="player"),
    path("cups/<int:pk>/export/<slug:fmt>/", views_cup_io.CupExportView.as_view(), name="export"),
]
