from django.urls import path

from . import views_public as v

app_name = "scoring"
urlpatterns = [
    path("table/<int:pk>/", v.SheetView.as_view(), name="sheet"),
    path("sheet/<str:token>/", v.PrivateSheetView.as_view(), name="private_sheet"),
    path("t/<int:pk>/standings/", v.StandingsView.as_view(), name="standings"),
    path("t/<int:pk>/standings.xlsx", v.StandingsXlsxView.as_view(), name="standings_xlsx"),
    path("t/<int:pk>/standings.pdf", v.StandingsPdfView.as_view(), name="standings_pdf"),
    path("t/<int:pk>/notation-card.pdf", v.NotationCardPdfView.as_view(), name="notation_card_pdf"),
]
