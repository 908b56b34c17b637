from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FinaleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.finale"
    label = "finale"
    verbose_name = _("Tarock-Österreich-Finale")
