"""The Ö-Finale's public pages, like the standings: the Gesamtwertung, the qualifiers' list and
their downloads."""

from django.urls import path

from scoring.finale import views

app_name = "finale"
urlpatterns = [
    path("t/<int:pk>/oe-finale/", views.GesamtwertungView.as_view(), name="gesamtwertung"),
    path("t/<int:pk>/oe-finale/qualifiers/", views.QualifiersView.as_view(), name="qualifiers"),
    path("t/<int:pk>/oe-finale/export/<slug:fmt>/", views.FinaleExportView.as_view(), name="export"),
]
