"""Season cups: the pages of the people who keep them, under ``manage/cups/``. Creating a cup
needs the "Organisers" group; every other page needs to be one of the cup's organisers or a
superuser (:mod:`scoring.cups.roles`)."""

from django.urls import path

from scoring.cups import views as views_cups
from scoring.cups import views_io as views_cup_io
from scoring.cups import views_organisers as views_cup_organisers

app_name = "cups_manage"
urlpatterns = [
    path("cups/new/", views_cups.CupEditView.as_view(), name="create"),
    path("cups/<int:pk>/edit/", views_cups.CupEditView.as_view(), name="edit"),
    path("cups/<int:pk>/import/", views_cup_io.CupImportView.as_view(), name="import"),
    path("cups/<int:pk>/import/remove/", views_cup_io.CupResultsRemoveView.as_view(), name="remove_results"),
    path("cups/<int:pk>/organisers/", views_cup_organisers.CupOrganiserAddView.as_view(), name="add_organiser"),
    path("cups/<int:pk>/organisers/remove/", views_cup_organisers.CupOrganiserRemoveView.as_view(), name="remove_organiser"),
    path("cups/<int:pk>/log/", views_cup_organisers.CupLogView.as_view(), name="log"),
]
