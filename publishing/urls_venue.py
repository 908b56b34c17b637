"""The venue's publishing addresses: where a tournament is published to, its status."""

urlpatterns: list = []
