"""Director URLs: every view here requires a director login."""

from django.urls import path

from . import views_director as v
from . import views_prizes
from .views_exports import ExportView

app_name = "scoring_director"
urlpatterns = [
    path("table/<int:table_pk>/hands/", v.HandCreateView.as_view(), name="hand_create"),
    path("table/<int:table_pk>/preview/", v.HandPreviewView.as_view(), name="hand_preview"),
    path("table/<int:table_pk>/end/", v.EndTableView.as_view(), name="end_table"),
    path("table/<int:table_pk>/leave/", v.DropPlayerView.as_view(), name="drop_player"),
    path("table/<int:table_pk>/raw/", v.RawRowsView.as_view(), name="raw_rows"),
    path("table/<int:table_pk>/card/", v.TableCardView.as_view(), name="table_card"),
    path("hands/<int:pk>/edit/", v.HandEditView.as_view(), name="hand_edit"),
    path("hands/<int:pk>/delete/", v.HandDeleteView.as_view(), name="hand_delete"),
    path("hands/<int:pk>/history/", v.HandHistoryView.as_view(), name="hand_history"),
    path("flags/<int:pk>/resolve/", v.ResolveFlagView.as_view(), name="resolve_flag"),
    path("rounds/<int:pk>/verify/", v.VerifyRoundView.as_view(), name="verify_round"),
    path("rounds/<int:pk>/reopen/", v.ReopenRoundView.as_view(), name="reopen_round"),
    path("t/<int:pk>/board/", v.BoardView.as_view(), name="board"),
    path("t/<int:pk>/prizes/", views_prizes.PrizeSettingsView.as_view(), name="prizes"),
    # Downloads for directors: the one export view, which checks each exporter's audience.
    path("t/<int:pk>/round/<int:number>/score-sheets.pdf", ExportView.as_view(), {"identifier": "score-sheets"}, name="score_sheets_pdf"),
    path("t/<int:pk>/certificates.pdf", ExportView.as_view(), {"identifier": "certificates"}, name="certificates_pdf"),
    # The table results are public now; the old director address still answers.
    path("t/<int:pk>/round/<int:number>/results.pdf", ExportView.as_view(), {"identifier": "results"}, name="table_results_pdf"),
]
