"""The director's prize settings under ``manage/``: the money and the categories."""

from django.urls import path

from scoring.prizes import views

app_name = "prizes_director"
urlpatterns = [
    path("t/<int:pk>/prizes/", views.PrizeSettingsView.as_view(), name="settings"),
]
