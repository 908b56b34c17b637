from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrizesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.prizes"
    label = "prizes"
    verbose_name = _("prizes")
