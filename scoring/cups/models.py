"""Storage for season cups: the cup, its sub-rankings, the results imported from before it was kept
here and its action log (``../shared/rules/tournament-formats.md`` §4). The tables keep the names
they had when these models lived in :mod:`tournaments` (``db_table``), so moving them copied no row."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.models import LoggedAction, Player, no_bidi_controls


class Cup(models.Model):
    """A season cup: a named series of tournaments of one ruleset ranked by cup points
    (``../shared/rules/tournament-formats.md`` §4). ``counting``: ``"all"``, ``"half"`` (the Heine
    rule) or a number ``k`` (best ``k`` results), as text; ``final_top`` / ``final_min_played``:
    who qualifies for the final (the top N, and/or a minimum of tournaments played). The counting
    rules of §4 "Revised 2026-11-26": ``planned`` (tournaments planned for the season, which "the
    best half" counts from), ``cup_tiebreak`` (the order of level cup totals),
    ``wtc_final_negative`` with ``final_tournament`` (the Wiener Tarockcup final to 2019/20: ranks
    above 50 and absent qualifiers score negative; the final is one of the cup's tournaments, which
    the settings form enforces); ``oe_finale_table``: the Ö-Finale Vorrundenpunkte table the
    season ranks carry (``../shared/rules/koenigrufen-raiffeisen.md`` §6.9,
    :data:`scoring.cups.points.VORRUNDENPUNKTE`; "" none). ``version``
    is bumped by every change of the cup itself (its settings, sub-rankings, imported results);
    its pages are keyed by it and by its tournaments' data versions."""

    class Method(models.TextChoices):
        TIROL = "tirol", _("Tirol formula (Punktespiegel)")
        WTC_FIXPUNKTE = "wtc_fixpunkte", _("OÖ/WTC Fixpunkte (ranks 1–50; the RTC uses them too)")
        HEINE = "heine", _("Heine points (from the tournament total)")

    class Tiebreak(models.TextChoices):
        BEST_RESULTS = "best_results", _("best counted result, then second best, …; then more results; then the more recent tournament")
        MORE_RESULTS_FIRST = "more_results_first", _("more counted results; then the best result; then the more recent tournament")

    class OeFinaleTable(models.TextChoices):
        NONE = "", _("none")
        RANKS_40 = "40", _("40 ranks (Kärnten, Steiermark, Tirol)")
        RANKS_60 = "60", _("60 ranks (the default: WTC, HRC, RTC)")
        RANKS_80 = "80", _("80 ranks (Sauwald)")

    name = models.CharField(_("name"), max_length=200, unique=True, validators=[no_bidi_controls])
    ruleset = models.CharField(_("ruleset"), max_length=40)
    method = models.CharField(_("cup points"), max_length=16, choices=Method.choices)
    counting = models.CharField(
        _("results counted"), max_length=8, default="all",
        help_text=_("“all”, “half” (the best half, the Heine rule) or a number: each player's best results."),
    )
    final_top = models.PositiveSmallIntegerField(_("final: the best"), null=True, blank=True)
    final_min_played = models.PositiveSmallIntegerField(_("final: tournaments played at least"), null=True, blank=True)
    planned = models.PositiveSmallIntegerField(
        _("tournaments planned"), null=True, blank=True,
        help_text=_(
            "How many tournaments the season plans (held and still scheduled). “The best half” counts "
            "from this number; left empty, from the tournaments held so far."
        ),
    )
    cup_tiebreak = models.CharField(
        _("ties on the cup total"), max_length=24, choices=Tiebreak.choices, default=Tiebreak.BEST_RESULTS,
        help_text=_(
            "How players with the same cup total are ordered. The cups' own reading: the best counted "
            "result, then the second best, and so on; then more counted results; then the more recent "
            "tournament."
        ),
    )
    wtc_final_negative = models.BooleanField(
        _("final scores negative ranks"), default=False,
        help_text=_(
            "Wiener Tarockcup seasons to 2019/20: in the final, ranks from 51 on score −(rank − 50), and a "
            "qualifier who does not play the final scores −(entrants − 49)."
        ),
    )
    final_tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("the cup's final"),
        help_text=_("Which of the cup's tournaments is its final (for negative ranks in the final)."),
    )
    oe_finale_table = models.CharField(
        _("Ö-Finale Vorrundenpunkte table"), max_length=2, choices=OeFinaleTable.choices, blank=True, default="",
        help_text=_(
            "Which table of Vorrundenpunkte the cup's season ranks carry to the Tarock-Österreich-Finale; "
            "a rank past the table's end did not qualify."
        ),
    )
    version = models.PositiveBigIntegerField(_("version"), default=0, editable=False)
    # Who keeps the cup: they (and a superuser) edit it, import into it and name its other
    # organisers; whoever creates a cup is its first.
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_cups", verbose_name=_("organisers")
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "tournaments_cup"
        ordering = ["-created", "name"]
        verbose_name = _("cup")
        verbose_name_plural = _("cups")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("cups:table", args=[self.pk])

    @property
    def counting_rule(self) -> str | int:
        """``counting`` as :func:`scoring.cups.points.results_counted` takes it."""
        return int(self.counting) if self.counting.isdigit() else self.counting


class CupRanking(models.Model):
    """A sub-ranking of a cup, by a player attribute the organiser names: a ``club``, players
    ticked as ``members`` (women, youth, guests), or ``away_only`` (only the tournaments flagged
    as away, e.g. "outside Vienna")."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="rankings")
    name = models.CharField(_("name"), max_length=80)
    club = models.CharField(_("club"), max_length=120, blank=True)
    members = models.ManyToManyField(Player, blank=True, related_name="+", verbose_name=_("members"))
    away_only = models.BooleanField(_("away tournaments only"), default=False)

    class Meta:
        db_table = "tournaments_cupranking"
        ordering = ["cup", "name"]
        constraints = [models.UniqueConstraint(fields=["cup", "name"], name="unique_cup_ranking_name")]
        verbose_name = _("sub-ranking")
        verbose_name_plural = _("sub-rankings")

    def __str__(self):
        return self.name


class CupResult(models.Model):
    """A result of a cup tournament held before the cup was kept here (imported from a workbook,
    so a cup can start mid-season): the tournament's ``event`` name and ``date``, the player, his
    ``rank`` (shared ranks repeat), the ``field_size`` and his ``total`` (needed for Heine points)."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="imported_results")
    event = models.CharField(_("tournament"), max_length=200)
    date = models.DateField(_("date"))
    away = models.BooleanField(_("away"), default=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cup_results")
    rank = models.PositiveIntegerField(_("rank"))
    field_size = models.PositiveIntegerField(_("players"))
    total = models.IntegerField(_("total"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_cupresult"
        ordering = ["date", "event", "rank"]
        constraints = [models.UniqueConstraint(fields=["cup", "event", "date", "player"], name="one_result_per_event_player")]
        verbose_name = _("imported cup result")
        verbose_name_plural = _("imported cup results")

    def __str__(self):
        return f"{self.event} {self.date}: {self.rank}. {self.player}"


class CupAction(LoggedAction):
    """The cup's action log: who changed the cup, when and what (its settings, sub-rankings,
    imported results, organisers), written in the transaction of the change, like a tournament's
    :class:`ActionLog`."""

    class Action(models.TextChoices):
        CREATED = "created", _("cup created")
        EDITED = "edited", _("cup settings changed")
        RANKING_ADDED = "ranking_added", _("sub-ranking added")
        RANKING_CHANGED = "ranking_changed", _("sub-ranking changed")
        RANKING_REMOVED = "ranking_removed", _("sub-ranking removed")
        RESULTS_IMPORTED = "results_imported", _("results imported")
        RESULTS_REMOVED = "results_removed", _("imported results removed")
        TOURNAMENT_JOINED = "tournament_joined", _("tournament joined the cup")
        TOURNAMENT_LEFT = "tournament_left", _("tournament left the cup")
        ORGANISER_ADDED = "organiser_added", _("organiser added")
        ORGANISER_REMOVED = "organiser_removed", _("organiser removed")

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="actions")
    action = models.CharField(_("action"), max_length=24, choices=Action.choices)
    detail = models.TextField(_("detail"), blank=True)

    class Meta(LoggedAction.Meta):
        db_table = "tournaments_cupaction"
        verbose_name = _("cup action log entry")
        verbose_name_plural = _("cup action log")

    def __str__(self):
        return f"{self.cup} {self.action}"
