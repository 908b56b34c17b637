"""The live day's public pages at the root: the big screen, "find my name" and each player's
page, the day's statistics and its charts."""

from django.urls import path

from scoring.live import views_players, views_screen
from scoring.live import views_statistics as stats

app_name = "live"
urlpatterns = [
    path("t/<int:pk>/screen/", views_screen.ScreenView.as_view(), name="screen"),
    path("t/<int:pk>/screen/slide/<int:n>/", views_screen.SlideView.as_view(), name="screen_slide"),
    path("t/<int:pk>/players/", views_players.PlayerNamesView.as_view(), name="player_names"),
    path("t/<int:pk>/players/<int:reg>/", views_players.PlayerPageView.as_view(), name="player"),
    path("t/<int:pk>/statistics/", stats.StatisticsView.as_view(), name="statistics"),
    path("t/<int:pk>/charts/progression.svg", stats.ProgressionChartView.as_view(), name="chart_progression"),
    path("t/<int:pk>/charts/contracts.svg", stats.ContractsChartView.as_view(), name="chart_contracts"),
    path("table/<int:pk>/chart.svg", stats.TableChartView.as_view(), name="table_chart"),
]
