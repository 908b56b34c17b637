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
    """A player's doubt about a hand, raised through the table's private link."""

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
