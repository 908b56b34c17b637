"""The public API's and the widget's addresses (everybody may read them)."""

app_name = "api"
urlpatterns: list = []
