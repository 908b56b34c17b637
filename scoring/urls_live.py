"""The live day's public pages (issue 18): the big screen and the prize list."""

from django.urls import path

from . import views_prizes, views_screen

app_name = "live"
urlpatterns = [
    path("t/<int:pk>/screen/", views_screen.ScreenView.as_view(), name="screen"),
    path("t/<int:pk>/screen/slide/<int:n>/", views_screen.SlideView.as_view(), name="screen_slide"),
    path("t/<int:pk>/prizes/", views_prizes.PrizeListView.as_view(), name="prizes"),
]
