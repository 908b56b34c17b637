"""The live day's pages for the people who run it, under ``manage/``: the board and the round
clock's commands."""

from django.urls import path

from scoring.live import views_clock, views_director

app_name = "live_director"
urlpatterns = [
    path("t/<int:pk>/board/", views_director.BoardView.as_view(), name="board"),
    path("rounds/<int:pk>/clock/", views_clock.ClockView.as_view(), name="clock"),
]
