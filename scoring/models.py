"""Storage for hands: the hand record (``hand-record.md``) and the score row computed from it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from simple_history.models import HistoricalRecords

from tournaments.models import Table


class Hand(models.Model):
    """One hand (Spiel) at a table: number within the round, the record and its computed row.

    ``record`` is the JSON hand record; ``scores`` is the row the tournament's ruleset edition
    computed from it, one integer per seat. Hands are written only through
    :mod:`scoring.services`, which validates and scores them.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    record = models.JSONField(_("hand record"))
    scores = models.JSONField(_("score row"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("Counts saves; an edit based on an older version is refused.")
    )
    history = HistoricalRecords(excluded_fields=["entered_at"])

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number")]

    def __str__(self):
        return f"{self.table} #{self.number}"


class HandFlag(models.Model):
    """A player's doubt about a hand, raised through the table's private link (issue 5)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="flags")
    comment = models.CharField(_("comment"), max_length=500)
    created = models.DateTimeField(_("flagged at"), auto_now_add=True)
    resolved = models.BooleanField(_("resolved"), default=False)

    class Meta:
        ordering = ["created"]
        verbose_name = _("flagged hand")
        verbose_name_plural = _("flagged hands")

    def __str__(self):
        return f"{self.hand}: {self.comment}"


class SheetConfirmation(models.Model):
    """A player confirmed the table's sheet through its private link, as it was then: ``hands``
    hands, and ``sheet_version`` versions of the table's hands in their history.

    The history (django-simple-history) gets an entry for every write of one of the table's
    hands: entered (one by one or as raw rows), edited, struck, restored, re-scored after an
    earlier hand changed, renumbered or deleted. Its count is the table's sheet version; a
    confirmation holds while the count is what it stored (:func:`scoring.services.tables.confirmation_states`).
    ``None``: not known (a row written before the field; the migration and the archive restore
    fill it from the history), judged by the time of the history's newest entry instead."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="confirmations")
    name = models.CharField(_("name"), max_length=120, blank=True)
    hands = models.PositiveSmallIntegerField(_("hands confirmed"))
    sheet_version = models.PositiveIntegerField(
        _("sheet version confirmed"), null=True, blank=True,
        help_text=_("Entries in the history of the table's hands when the sheet was confirmed; a later change voids the confirmation."),
    )
    created = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    class Meta:
        ordering = ["created"]
        verbose_name = _("sheet confirmation")
        verbose_name_plural = _("sheet confirmations")


class ExportJob(models.Model):
    """An export rendered in the background (:mod:`scoring.exporters`): one per tournament,
    exporter, parameters, language and data version stamp, so a second request for the same export
    waits for the same job instead of starting another. ``done``/``total`` count the work (tables)
    for the "being prepared" page; ``file`` is the storage name once it is ready.

    A running job holds a lease: ``lease_until`` is pushed forward by the worker while it renders
    (:mod:`scoring.tasks`). A job still running when its lease has passed lost its worker (killed,
    or cut off from the database) and is *stuck*: it is taken up again. ``attempts`` counts the
    times a worker took it; it fences a worker that lost its lease from writing over the next one.
    ``failure`` says why a failed job failed, in words its page shows (:attr:`failure_message`);
    ``error`` keeps the technical reason for the log reader."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("being prepared")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    class Failure(models.TextChoices):
        ERROR = "", _("an error")
        DISK_FULL = "disk_full", _("the server's disk is full")
        WORKER_LOST = "worker_lost", _("the worker stopped every time")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="export_jobs")
    exporter = models.CharField(max_length=60)
    params_key = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict, blank=True)
    language = models.CharField(max_length=10)
    stamp = models.CharField(max_length=60)  # the data version it renders (tournaments.versioning.stamp)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    failure = models.CharField(max_length=20, choices=Failure.choices, blank=True, default=Failure.ERROR)
    lease_until = models.DateTimeField(null=True, blank=True)  # a running job's worker is alive until then
    attempts = models.PositiveSmallIntegerField(default=0)  # how often a worker took it up
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "exporter", "params_key", "language", "stamp"], name="one_job_per_export_version"
            )
        ]

    def __str__(self):
        return f"{self.exporter} {self.params_key} v{self.stamp} ({self.status})"

    @staticmethod
    def stuck_q(now=None) -> models.Q:
        """The filter of stuck jobs at ``now`` (default: now): running, with a lease that has passed."""
        from django.utils import timezone

        return models.Q(status=ExportJob.Status.RUNNING, lease_until__lt=now or timezone.now())

    @property
    def is_stuck(self) -> bool:
        """Whether the job is running on a lease that has passed (its worker vanished)."""
        from django.utils import timezone

        return self.status == self.Status.RUNNING and self.lease_until is not None and self.lease_until < timezone.now()

    @property
    def failure_message(self) -> str:
        """What the failed job's page tells the visitor (translated), or "" for an error that is
        only in the log."""
        messages = {
            self.Failure.DISK_FULL: _(
                "The server's disk is full; the file could not be saved. Ask the server's administrator to "
                "free some space, then try again."
            ),
            self.Failure.WORKER_LOST: _(
                "The server's background worker stopped each time it prepared this file. Try again; if it "
                "happens again, the server's log says why."
            ),
        }
        return messages.get(self.failure, "")


class PrizeFund(models.Model):
    """The money of a tournament's prize-giving (issue 18): the entry fee, the share of the entry
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
        verbose_name = _("prize fund")
        verbose_name_plural = _("prize funds")

    def __str__(self):
        return f"{self.tournament}: {self.entry_fee} {self.currency}"


class PrizeCategory(models.Model):
    """One prize category of a tournament (issue 18), given in ``order``. ``places``: how many
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
        ordering = ["tournament", "order", "pk"]
        # A double click on "save" must not add a new category twice.
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="unique_prize_category_name")]
        verbose_name = _("prize category")
        verbose_name_plural = _("prize categories")

    def __str__(self):
        return self.name
