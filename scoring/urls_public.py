from django.urls import path

from . import views_public as v
from . import views_statistics as stats
from .views_exports import ExportView

app_name = "scoring"
urlpatterns = [
    path("table/<int:pk>/", v.SheetView.as_view(), name="sheet"),
    path("sheet/<str:token>/", v.PrivateSheetView.as_view(), name="private_sheet"),
    path("t/<int:pk>/standings/", v.StandingsView.as_view(), name="standings"),
    path("t/<int:pk>/players/", v.PlayerNamesView.as_view(), name="player_names"),
    path("t/<int:pk>/players/<int:reg>/", v.PlayerPageView.as_view(), name="player"),
    # The statistics of the day and its pictures (issue 18), each chart an SVG of its own address.
    path("t/<int:pk>/statistics/", stats.StatisticsView.as_view(), name="statistics"),
    path("t/<int:pk>/charts/progression.svg", stats.ProgressionChartView.as_view(), name="chart_progression"),
    path("t/<int:pk>/charts/contracts.svg", stats.ContractsChartView.as_view(), name="chart_contracts"),
    path("table/<int:pk>/chart.svg", stats.TableChartView.as_view(), name="table_chart"),
    # Every download goes through one view (scoring.exporters); the named addresses are the ones
    # printed and bookmarked so far.
    path("t/<int:pk>/export/<slug:identifier>/", ExportView.as_view(), name="export"),
    path("t/<int:pk>/round/<int:number>/export/<slug:identifier>/", ExportView.as_view(), name="round_export"),
    path("t/<int:pk>/standings.xlsx", ExportView.as_view(), {"identifier": "standings-xlsx"}, name="standings_xlsx"),
    path("t/<int:pk>/standings.pdf", ExportView.as_view(), {"identifier": "standings-pdf"}, name="standings_pdf"),
    path("t/<int:pk>/hands.xlsx", ExportView.as_view(), {"identifier": "hands-xlsx"}, name="hands_xlsx"),
    path("t/<int:pk>/hands.csv", ExportView.as_view(), {"identifier": "hands-csv"}, name="hands_csv"),
    path("t/<int:pk>/notation-card.pdf", ExportView.as_view(), {"identifier": "notation-card"}, name="notation_card_pdf"),
    path("t/<int:pk>/day-report.pdf", ExportView.as_view(), {"identifier": "day-report"}, name="day_report_pdf"),
    path("t/<int:pk>/round/<int:number>/results.pdf", ExportView.as_view(), {"identifier": "results"}, name="table_results_pdf"),
]
