"""Director URLs: every view here requires a director login."""

from django.urls import path

from . import views_director as v

app_name = "scoring_director"
urlpatterns = [
    path("table/<int:table_pk>/hands/", v.HandCreateView.as_view(), name="hand_create"),
    path("hands/<int:pk>/edit/", v.HandEditView.as_view(), name="hand_edit"),
    path("hands/<int:pk>/delete/", v.HandDeleteView.as_view(), name="hand_delete"),
]
