"""Score entry's URLs under ``manage/``: every view here requires a role in the hand's
tournament (a scorer's at least, :mod:`tournaments.permissions`)."""

from django.urls import path

from scoring.entry import views as v

app_name = "entry"
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
]
