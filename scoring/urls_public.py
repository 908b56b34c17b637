"""Public scoring pages at the root: a table's score sheet, its private sheet behind the table's
token, the standings and the ruleset's rules page."""

from django.urls import path

from scoring import views_public as v
from tournaments.ratelimits import limit_private_posts

app_name = "scoring"
urlpatterns = [
    path("table/<int:pk>/", v.SheetView.as_view(), name="sheet"),
    path("sheet/<str:token>/", limit_private_posts(v.PrivateSheetView.as_view()), name="private_sheet"),
    path("t/<int:pk>/standings/", v.StandingsView.as_view(), name="standings"),
    path("t/<int:pk>/rules/", v.RulesView.as_view(), name="rules"),
]
