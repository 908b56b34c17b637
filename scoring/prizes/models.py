"""Storage of a tournament's prizes: its prize fund and its prize categories. The tables keep the
names they had before the prizes were an app of their own (``db_table``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PrizeFund(models.Model):
    """The money of a tournament's prize-giving: the entry fee, the share of the entry
    fees paid out as prize money, and the amount per kontra that goes to charity (Königrufen
    kontras are recorded but never scored, ``../shared/rules/koenigrufen.md`` §1). Amounts in the
    tournament's currency, two decimals."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="prize_fund")
    entry_fee = models.DecimalField(_("entry fee"), max_digits=8, decimal_places=2, default=0)
    payout_percent = models.DecimalField(
        _("paid out as prizes (%)"), max_digits=5, decimal_places=2, default=100,
        help_text=_("The share of all entry fees that the places' shares divide."),
    )
    kontra_amount = models.DecimalField(
        _("per kontra, for charity"), max_digits=6, decimal_places=2, default=0,
        help_text=_("Every kontra, rekontra ... recorded on a hand adds this to the kontra pot."),
    )
    currency = models.CharField(_("currency"), max_length=8, default="€")

    class Meta:
        db_table = "scoring_prizefund"
        verbose_name = _("prize fund")
        verbose_name_plural = _("prize funds")

    def __str__(self):
        return f"{self.tournament}: {self.entry_fee} {self.currency}"


class PrizeCategory(models.Model):
    """One prize category of a tournament, given in ``order``. ``places``: how many
    places or winners it has (places and group categories); ``shares``: per place, the percent of
    the prize money, as written ("30 20 15 10"); ``amount``: a fixed amount for each winner;
    ``description``: what else the winners get ("Pokal"). A group category names its group by
    ``club`` (every player of that club) or by ``members`` (ticked by the organiser)."""

    class Kind(models.TextChoices):
        PLACES = "places", _("places of the final standings")
        GROUP = "group", _("best of a group")
        PLUS = "plus", _("every player finishing in plus")
        LAST = "last", _("last place (Mauskönig)")
        BEST_HAND = "best_hand", _("best hand of the day")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="prize_categories")
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.PLACES)
    name = models.CharField(_("name"), max_length=80)
    places = models.PositiveSmallIntegerField(_("places"), default=1)
    shares = models.CharField(_("shares of the prize money (%)"), max_length=200, blank=True)
    amount = models.DecimalField(_("amount for each winner"), max_digits=8, decimal_places=2, null=True, blank=True)
    description = models.CharField(_("prize"), max_length=200, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    members = models.ManyToManyField("tournaments.Registration", blank=True, related_name="+", verbose_name=_("members"))

    class Meta:
        db_table = "scoring_prizecategory"
        ordering = ["tournament", "order", "pk"]
        # A double click on "save" must not add a new category twice.
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="unique_prize_category_name")]
        verbose_name = _("prize category")
        verbose_name_plural = _("prize categories")

    def __str__(self):
        return self.name
