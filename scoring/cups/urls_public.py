"""Season cups: their public pages under ``cups/`` (the list, each cup table, a player's season, the
downloads)."""

from django.urls import path

from scoring.cups import views as views_cups
from scoring.cups import views_io as views_cup_io

app_name = "cups"
urlpatterns = [
    path("cups/", views_cups.CupListView.as_view(), name="list"),
    path("cups/<int:pk>/", views_cups.CupTableView.as_view(), name="table"),
    path("cups/<int:pk>/players/<int:player>/", views_cups.CupPlayerView.as_view(), name="player"),
    path("cups/<int:pk>/export/<slug:fmt>/", views_cup_io.CupExportView.as_view(), name="export"),
]
