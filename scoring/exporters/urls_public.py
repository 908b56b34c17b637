"""Public downloads at the root, every one served by the one export view
(:class:`scoring.exporters.views.ExportView`), which checks the exporter's audience."""

from django.urls import path

from scoring.exporters.views import ExportView

export_view = ExportView.as_view()

app_name = "exports"
urlpatterns = [
    path("t/<int:pk>/export/<slug:identifier>/", export_view, name="export"),
    path("t/<int:pk>/round/<int:number>/export/<slug:identifier>/", export_view, name="round_export"),
    path("t/<int:pk>/standings.xlsx", export_view, {"identifier": "standings-xlsx"}, name="standings_xlsx"),
    path("t/<int:pk>/standings.pdf", export_view, {"identifier": "standings-pdf"}, name="standings_pdf"),
    path("t/<int:pk>/hands.xlsx", export_view, {"identifier": "hands-xlsx"}, name="hands_xlsx"),
    path("t/<int:pk>/hands.csv", export_view, {"identifier": "hands-csv"}, name="hands_csv"),
    path("t/<int:pk>/notation-card.pdf", export_view, {"identifier": "notation-card"}, name="notation_card_pdf"),
    path("t/<int:pk>/day-report.pdf", export_view, {"identifier": "day-report"}, name="day_report_pdf"),
    path("t/<int:pk>/round/<int:number>/results.pdf", export_view, {"identifier": "results"}, name="table_results_pdf"),
    path("t/<int:pk>/round/<int:number>/seating.pdf", export_view, {"identifier": "seating"}, name="seating_pdf"),
    path("t/<int:pk>/round/<int:number>/seating-wall.pdf", export_view, {"identifier": "seating-wall"}, name="seating_wall_pdf"),
]
