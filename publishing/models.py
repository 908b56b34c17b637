"""Storage for publishing: on a public site the organisers' keys, the mirrors and the log of every
push taken; at a venue the tournaments it publishes (where to, with which key, how far it got) and
the log of every push sent. Both sets live in every installation: one project is both ends."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# ------------------------------------------------------------------------------ the public site


class PublishingKey(models.Model):
    """A secret that lets a venue publish tournaments as ``user``'s (into ``cup``, if set). The
    key is shown once when made; only ``prefix`` (its public part, to find it) and ``secret_hash``
    (SHA-256 of the whole key, hex) are kept. ``revoked``: when it was revoked (it publishes
    nothing since)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="publishing_keys", verbose_name=_("organiser"))
    cup = models.ForeignKey("cups.Cup", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("cup"))
    label = models.CharField(_("label"), max_length=100, blank=True)
    prefix = models.CharField(_("key prefix"), max_length=16, unique=True, editable=False)
    secret_hash = models.CharField(max_length=64, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    revoked = models.DateTimeField(_("revoked"), null=True, blank=True, editable=False)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("publishing key")
        verbose_name_plural = _("publishing keys")

    def __str__(self):
        return f"{self.prefix}… ({self.user})"


class Mirror(models.Model):
    """The read-only mirror of a tournament run at a venue: found by the venue's tournament
    ``uid``, published with ``key``; ``tournament`` is this site's copy of ``version`` (brought
    to a newer version by a patch in place, or replaced as a whole by a whole archive:
    :mod:`publishing.site`), ``source`` where the venue says it is run from, ``updated`` when the
    current version arrived."""

    uid = models.UUIDField(_("identifier"), unique=True)
    key = models.ForeignKey(PublishingKey, on_delete=models.PROTECT, related_name="mirrors", verbose_name=_("publishing key"))
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="mirror", verbose_name=_("tournament")
    )
    version = models.PositiveBigIntegerField(_("version"), default=0)
    source = models.CharField(_("run from"), max_length=300, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), null=True, blank=True)

    class Meta:
        ordering = ["-updated"]
        verbose_name = _("mirror")
        verbose_name_plural = _("mirrors")

    def __str__(self):
        return f"{self.uid} v{self.version}"


class MirrorAlias(models.Model):
    """A tournament id a mirror had for an earlier version: its pages' old addresses lead to the
    mirror's current copy."""

    tournament_id = models.PositiveBigIntegerField(unique=True)
    mirror = models.ForeignKey(Mirror, on_delete=models.CASCADE, related_name="aliases")


class PushLog(models.Model):
    """Every push this site took: the key (if it was one), the tournament's ``uid`` and
    ``version`` as the push said, what became of it (``outcome``, ``reason``), its size, the
    address it came from, how long it took."""

    class Outcome(models.TextChoices):
        STORED = "stored", _("stored")
        IGNORED = "ignored", _("ignored (not newer)")
        REFUSED = "refused", _("refused")

    key = models.ForeignKey(PublishingKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="pushes")
    uid = models.UUIDField(null=True, blank=True)
    version = models.PositiveBigIntegerField(null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    status = models.PositiveSmallIntegerField(_("HTTP status"), default=200)
    reason = models.TextField(_("reason"), blank=True)
    size = models.PositiveBigIntegerField(_("bytes"), default=0)
    address = models.CharField(_("address"), max_length=64, blank=True)
    milliseconds = models.FloatField(default=0)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("push taken")
        verbose_name_plural = _("pushes taken")


# ------------------------------------------------------------------------------------ the venue


class PublishTarget(models.Model):
    """Where a venue publishes ``tournament``: the public site's ``url`` and the publishing
    ``key`` (kept here: the venue signs every push with it; never shown again), whether it is
    ``enabled``; ``pushed_version`` the newest version the site acknowledged (``pushed_at``),
    ``mirror_url`` its address there; while pushes fail, ``waiting_since`` the first failure,
    ``failures`` how many in a row, ``last_error`` the last reason and ``next_try`` when the next
    one is due (back-off).

    ``last_outcome``: what the last push came to (a :class:`PushAttempt.Outcome`, "" before the
    first); ``paused``: the site refused the key (401, 403), so nothing is pushed until the target
    is saved again (also after the outcome "newer": the site holds a newer version,
    ``held_version``, than the backup this tournament was restored from, until the director
    publishes over it, :func:`publishing.venue.publish_over`). ``chain`` and ``chain_until``: the background chain of pushes that holds the
    target (a random token; "" when none) and until when its hold lasts unless renewed: one chain
    per target (:mod:`publishing.tasks`).

    ``pushed_layout`` and ``pushed_tables``: the layout version and the sheet stamps
    (:func:`archive.patch.sheet_stamps`) of ``pushed_version`` when the site *stored* it, so that
    the next push can be a patch of that version (:mod:`archive.patch`); ``None`` when the next
    push must be the whole archive (nothing stored yet, a new address or key, the site said it
    had that version already)."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="publish_target")
    url = models.URLField(_("public site"), max_length=300)
    key = models.CharField(_("publishing key"), max_length=200)
    enabled = models.BooleanField(_("publishing"), default=True)
    pushed_version = models.PositiveBigIntegerField(default=0, editable=False)
    pushed_at = models.DateTimeField(null=True, blank=True, editable=False)
    pushed_layout = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    pushed_tables = models.JSONField(null=True, blank=True, editable=False)
    mirror_url = models.URLField(max_length=500, blank=True, editable=False)
    waiting_since = models.DateTimeField(null=True, blank=True, editable=False)
    failures = models.PositiveIntegerField(default=0, editable=False)
    last_error = models.TextField(blank=True, editable=False)
    next_try = models.DateTimeField(null=True, blank=True, editable=False)
    last_outcome = models.CharField(max_length=10, blank=True, editable=False)
    paused = models.BooleanField(default=False, editable=False)
    chain = models.CharField(max_length=32, blank=True, editable=False)
    held_version = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    chain_until = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("publishing target")
        verbose_name_plural = _("publishing targets")


class PushAttempt(models.Model):
    """Every push this venue sent: the ``version``, what came of it and the site's words."""

    class Outcome(models.TextChoices):
        STORED = "stored", _("stored")
        IGNORED = "ignored", _("acknowledged, not newer")
        REFUSED = "refused", _("refused")
        OFFLINE = "offline", _("no answer")
        NEWER = "newer", _("the site holds a newer version")

    target = models.ForeignKey(PublishTarget, on_delete=models.CASCADE, related_name="attempts")
    version = models.PositiveBigIntegerField()
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    message = models.TextField(_("message"), blank=True)
    milliseconds = models.FloatField(default=0)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("push sent")
        verbose_name_plural = _("pushes sent")
