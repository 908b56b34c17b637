from django.apps import AppConfig


class ExportersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.exporters"
    label = "exporters"

    def ready(self):
        from . import builtin, prizes  # noqa: F401  (registers the project's own exporters)
