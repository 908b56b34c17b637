from django.urls import path

from tournaments.ratelimits import limit_private_posts

from . import views_public as v
from . import views_statistics as stats
from .views_exports import ExportView

# A download rendered for an anonymous visitor (not yet stored for this data version) counts
# against RATE_LIMIT_EXPORTS for his address, in the view (ExportView.render_refused); one served
# from the storage never does. The pages count their renders themselves (tournaments.public_cache,
# RATE_LIMIT_PAGES).
export_view = ExportView.as_view()

app_name = "scoring"
urlpatterns = [
    path("table/<int:pk>/", v.SheetView.as_view(), name="sheet"),
    # Confirm and flag through a table's private link: RATE_LIMIT_PRIVATE_POSTS per link and address.
    path("sheet/<str:token>/", limit_private_posts(v.PrivateSheetView.as_view()), name="private_sheet"),
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
    path("t/<int:pk>/export/<slug:identifier>/", export_view, name="export"),
    path("t/<int:pk>/round/<int:number>/export/<slug:identifier>/", export_view, name="round_export"),
    path("t/<int:pk>/standings.xlsx", export_view, {"identifier": "standings-xlsx"}, name="standings_xlsx"),
    path("t/<int:pk>/standings.pdf", export_view, {"identifier": "standings-pdf"}, name="standings_pdf"),
    path("t/<int:pk>/hands.xlsx", export_view, {"identifier": "hands-xlsx"}, name="hands_xlsx"),
    path("t/<int:pk>/hands.csv", export_view, {"identifier": "hands-csv"}, name="hands_csv"),
    path("t/<int:pk>/notation-card.pdf", export_view, {"identifier": "notation-card"}, name="notation_card_pdf"),
    path("t/<int:pk>/day-report.pdf", export_view, {"identifier": "day-report"}, name="day_report_pdf"),
    path("t/<int:pk>/round/<int:number>/results.pdf", export_view, {"identifier": "results"}, name="table_results_pdf"),
]
