from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublishingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "publishing"
    label = "publishing"
    verbose_name = _("publishing")

    def ready(self):
        from tournaments.signals import worker_starting

        from .tasks import resume_all

        # A worker that starts (again, after it was killed) takes up publishing at once.
        worker_starting.connect(resume_all, dispatch_uid="publishing-resume")
