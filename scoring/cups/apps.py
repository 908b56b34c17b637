from django.apps import AppConfig


class CupsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.cups"
    label = "cups"
