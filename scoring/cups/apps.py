from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CupsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.cups"
    label = "cups"
    verbose_name = _("season cups")

    def ready(self):
        """Answer what the tournaments app asks of the cups (:mod:`tournaments.signals`)."""
        from tournaments import signals

        from . import merge, roles

        signals.cups_kept.connect(roles.cups_kept, dispatch_uid="cups.cups_kept")
        signals.cup_changed.connect(roles.cup_changed, dispatch_uid="cups.cup_changed")
        signals.players_merging.connect(merge.players_merging, dispatch_uid="cups.players_merging")
