from django.urls import path

from scoring.exporters.base import export_needs_render
from scoring.views_exports import ExportView

from . import views_public as v
from .ratelimits import limit_renders

# The seating PDFs rendered for anonymous visitors count against RATE_LIMIT_EXPORTS (see
# scoring.urls_public).
export_view = limit_renders(ExportView.as_view(), export_needs_render)

app_name = "tournaments"
urlpatterns = [
    path("", v.TournamentListView.as_view(), name="list"),
    path("t/<int:pk>/", v.TournamentDetailView.as_view(), name="detail"),
    path("t/<int:pk>/round/<int:number>/", v.RoundSeatingView.as_view(), name="round"),
    path("t/<int:pk>/round/<int:number>/seating.pdf", export_view, {"identifier": "seating"}, name="seating_pdf"),
    path("t/<int:pk>/round/<int:number>/seating-wall.pdf", export_view, {"identifier": "seating-wall"}, name="seating_wall_pdf"),
    path("t/<int:pk>/rules/", v.RulesView.as_view(), name="rules"),
]
