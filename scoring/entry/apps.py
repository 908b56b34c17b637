from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EntryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.entry"
    label = "entry"
    verbose_name = _("score entry")
