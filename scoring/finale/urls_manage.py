"""The Ö-Finale's settings under ``manage/``, for the tournament's directors."""

from django.urls import path

from scoring.finale import views

app_name = "finale_manage"
urlpatterns = [
    path("t/<int:pk>/oe-finale/", views.FinaleSettingsView.as_view(), name="settings"),
    path("t/<int:pk>/oe-finale/register/", views.RegisterQualifiersView.as_view(), name="register"),
]
