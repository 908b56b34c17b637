"""The prize list, public like the standings."""

from django.urls import path

from scoring.prizes import views

app_name = "prizes"
urlpatterns = [
    path("t/<int:pk>/prizes/", views.PrizeListView.as_view(), name="list"),
]
