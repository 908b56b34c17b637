"""The public site's publishing addresses: the push and the organisers' keys."""

urlpatterns: list = []
