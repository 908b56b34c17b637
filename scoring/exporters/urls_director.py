"""The downloads of the people who run the day, under ``manage/``: the export view refuses them
to anyone without the exporter's role (:class:`scoring.exporters.base.Audience`)."""

from django.urls import path

from scoring.exporters.views import ExportView

export_view = ExportView.as_view()

app_name = "exports_director"
urlpatterns = [
    path("t/<int:pk>/round/<int:number>/score-sheets.pdf", export_view, {"identifier": "score-sheets"}, name="score_sheets_pdf"),
    path("t/<int:pk>/certificates.pdf", export_view, {"identifier": "certificates"}, name="certificates_pdf"),
    path("t/<int:pk>/round/<int:number>/results.pdf", export_view, {"identifier": "results"}, name="table_results_pdf"),
    path("t/<int:pk>/round/<int:number>/table-cards.pdf", export_view, {"identifier": "table-cards"}, name="table_cards_pdf"),
]
