from django.urls import path

from scoring.views_exports import ExportView

from . import views_public as v

# The seating PDFs rendered for anonymous visitors count against RATE_LIMIT_EXPORTS in the view
# (see scoring.urls_public).
export_view = ExportView.as_view()

app_name = "tournaments"
urlpatterns = [
    path("", v.TournamentListView.as_view(), name="list"),
    path("t/<int:pk>/", v.TournamentDetailView.as_view(), name="detail"),
    path("t/<int:pk>/round/<int:number>/", v.RoundSeatingView.as_view(), name="round"),
    path("t/<int:pk>/round/<int:number>/seating.pdf", export_view, {"identifier": "seating"}, name="seating_pdf"),
    path("t/<int:pk>/round/<int:number>/seating-wall.pdf", export_view, {"identifier": "seating-wall"}, name="seating_wall_pdf"),
    path("t/<int:pk>/rules/", v.RulesView.as_view(), name="rules"),
]
