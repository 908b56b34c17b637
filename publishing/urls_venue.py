"""The venue's publishing addresses (under ``manage/``, directors of the tournament): where a
tournament is published to, stopping it, publishing over a newer version the site holds, and its status line for the tournament page."""

from django.urls import path

from publishing import views_venue

app_name = "publishing_venue"
urlpatterns = [
    path("t/<int:pk>/publish/", views_venue.PublishView.as_view(), name="publish"),
    path("t/<int:pk>/publish/stop/", views_venue.StopView.as_view(), name="stop"),
    path("t/<int:pk>/publish/over/", views_venue.PublishOverView.as_view(), name="over"),
    path("t/<int:pk>/publish/status/", views_venue.StatusView.as_view(), name="status"),
]
