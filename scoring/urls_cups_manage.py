"""Season cups (issue 19): the organisers' pages under ``manage/cups/``."""

from django.urls import path

from . import views_cup_io, views_cups

app_name = "cups_manage"
urlpatterns = [
    path("cups/new/", views_cups.CupEditView.as_view(), name="create"),
    path("cups/<int:pk>/edit/", views_cups.CupEditView.as_view(), name="edit"),
    path("cups/<int:pk>/import/", views_cup_io.CupImportView.as_view(), name="import"),
]
