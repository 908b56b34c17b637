from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("scoring")

    def ready(self):
        """Answer what the tournaments app asks of the standings and the hands (:mod:`tournaments.signals`)."""
        from tournaments import signals

        from . import receivers

        signals.standings_order.connect(receivers.standings_order, dispatch_uid="scoring.standings_order")
        signals.unfinished_tables.connect(receivers.unfinished_tables, dispatch_uid="scoring.unfinished_tables")
