from django.apps import AppConfig


class PrizesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.prizes"
    label = "prizes"
