from django.apps import AppConfig


class EntryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.entry"
    label = "entry"
