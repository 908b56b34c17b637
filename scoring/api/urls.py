"""The public API's and the widget's addresses (everybody may read them): the endpoints under
``api/v1/`` (:mod:`scoring.api.views`), its OpenAPI schema, and each tournament's standings
widget beside its other public pages (:mod:`scoring.api.widget`)."""

from django.urls import path

from scoring.api import views as v
from scoring.api.schema import SchemaView
from scoring.api.widget import widget

app_name = "api"
urlpatterns = [
    path("api/v1/", v.IndexView.as_view(), name="index"),
    path("api/v1/schema/", SchemaView.as_view(), name="schema"),
    path("api/v1/tournaments/", v.TournamentListView.as_view(), name="tournaments"),
    path("api/v1/tournaments/<int:pk>/", v.TournamentView.as_view(), name="tournament"),
    path("api/v1/tournaments/<int:pk>/standings/", v.StandingsView.as_view(), name="standings"),
    path("api/v1/tournaments/<int:pk>/rounds/", v.RoundsView.as_view(), name="rounds"),
    path("api/v1/tournaments/<int:pk>/rounds/<int:number>/", v.RoundView.as_view(), name="round"),
    path("api/v1/tournaments/<int:pk>/players/<int:reg>/", v.PlayerView.as_view(), name="player"),
    path("api/v1/cups/", v.CupListView.as_view(), name="cups"),
    path("api/v1/cups/<int:pk>/", v.CupTableView.as_view(), name="cup"),
    path("t/<int:pk>/widget/", widget, name="widget"),
]
