"""Storage of the Ö-Finale: which tournament is one, the cups its players qualify through, the
Finalpunkte table and how several cups' Vorrundenpunkte combine
(``../shared/rules/koenigrufen-raiffeisen.md`` §6.9)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class OeFinale(models.Model):
    """A tournament played as the Tarock-Österreich-Finale.

    ``cups``: the season cups whose final ranks qualify players (each cup's own
    ``oe_finale_table`` gives the Vorrundenpunkte of a rank); ``finalpunkte``: the organiser's
    table of Finalpunkte by day rank, rank 1 first, a list of whole numbers (empty: not entered
    yet; checked by :func:`scoring.finale.points.parse_finalpunkte`); ``sum_vorrundenpunkte``:
    option ``oe_finale_sum_vorrundenpunkte``, a player qualified through several cups gets the
    sum of their Vorrundenpunkte instead of the highest."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="oe_finale", verbose_name=_("tournament"),
    )
    cups = models.ManyToManyField(
        "cups.Cup", blank=True, related_name="oe_finales", verbose_name=_("qualifying cups"),
        help_text=_("The season cups whose final ranks carry Vorrundenpunkte (points from the qualifying season) to this final."),
    )
    finalpunkte = models.JSONField(_("Finalpunkte"), default=list, blank=True)
    sum_vorrundenpunkte = models.BooleanField(
        _("sum the Vorrundenpunkte"), default=False,
        help_text=_(
            "A player qualified through several cups takes the highest of his Vorrundenpunkte; "
            "ticked, they are added up."
        ),
    )

    class Meta:
        verbose_name = _("Ö-Finale")
        verbose_name_plural = _("Ö-Finales")

    def __str__(self):
        return f"Ö-Finale {self.tournament}"
