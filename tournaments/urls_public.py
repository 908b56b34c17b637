"""Public tournament pages at the root: the list, each tournament and each round's seating (its
printed seating lists are downloads, :mod:`scoring.exporters.urls_public`)."""

from django.urls import path

from tournaments import views_public as v

app_name = "tournaments"
urlpatterns = [
    path("", v.TournamentListView.as_view(), name="list"),
    path("t/<int:pk>/", v.TournamentDetailView.as_view(), name="detail"),
    path("t/<int:pk>/round/<int:number>/", v.RoundSeatingView.as_view(), name="round"),
]
