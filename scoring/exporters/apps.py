from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExportersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.exporters"
    label = "exporters"
    verbose_name = _("downloads")

    def ready(self):
        from . import builtin, prizes  # noqa: F401  (registers the project's own exporters)
