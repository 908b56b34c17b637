"""Storage for players, tournaments, registrations, rounds, tables and seats.

Thin models: the seating draw lives in :mod:`tournaments.draw` (pure) and
:mod:`tournaments.services` (persisting it); rules live in :mod:`variants`.
"""

import secrets
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

import variants

# Bidirectional control characters reorder what follows them on the screen: a name holding one
# can show as another name on the standings and the prints. The check lives with the other text
# checks in tournaments.text; no_bidi_controls stays here, where the migrations import it.
from .text import BIDI_CONTROLS, bidi_problem  # noqa: F401 (BIDI_CONTROLS: for older callers)


def no_bidi_controls(value: str) -> None:
    """Model field validator: :func:`bidi_problem` as a ``ValidationError``."""
    problem = bidi_problem(value)
    if problem:
        raise ValidationError(problem, code="bidi")


class Player(models.Model):
    """A person who plays tournaments; registered once and reused across tournaments and seasons."""

    name = models.CharField(_("name"), max_length=120, validators=[no_bidi_controls])
    club = models.CharField(_("town or club"), max_length=120, blank=True, validators=[no_bidi_controls])
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "club"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return f"{self.name} ({self.club})" if self.club else self.name


class Tournament(models.Model):
    """One tournament day, played under one ruleset edition (``koenigrufen.md`` "editions")."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    ruleset = models.CharField(_("ruleset"), max_length=40)
    edition = models.CharField(_("edition"), max_length=20)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=3, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    hands_per_round = models.PositiveSmallIntegerField(
        _("hands per round"),
        default=16,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("At a table of the usual size; larger tables play proportionally more (Tirol: 16, 20 at a 5-table)."),
    )
    options = models.JSONField(
        _("ruleset options"),
        default=dict,
        blank=True,
        help_text=_("Options of the ruleset, e.g. Piccolo and Bettel in Cego; absent ones take the ruleset's default."),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)

    class DrawMode(models.TextChoices):
        AVOID_REPEATS = "avoid_repeats", _("random, avoiding players meeting again")
        RANDOM = "random", _("pure random")
        ALL_AT_START = "all_at_start", _("all rounds drawn at the start (Wiener Tarockcup)")
        BY_STANDINGS = "by_standings", _("by current standings: similar standings together (Bled option)")

    draw_mode = models.CharField(_("seating draw"), max_length=20, choices=DrawMode.choices, default=DrawMode.AVOID_REPEATS)
    cup = models.ForeignKey(
        "cups.Cup", on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments", verbose_name=_("cup"),
        help_text=_("The season cup this tournament counts for (a cup of its ruleset)."),
    )
    away = models.BooleanField(
        _("away"), default=False, help_text=_("Held away from the cup's home (for a sub-ranking such as “outside Vienna”)."),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # The tournament's identifier across sites: a public site's mirror of it is found by it (a
    # venue publishes it under this identifier, ``publishing``). A restore keeps it where it is
    # free here (archive.backup.restore); a copy beside the original gets its own.
    uid = models.UUIDField(_("identifier"), default=uuid.uuid4, unique=True, editable=False)
    # Not empty: this tournament is a read-only mirror of one run elsewhere (where, in the words of
    # the venue that publishes it); nobody enters or changes anything of it here.
    mirrored_from = models.CharField(_("mirrored from"), max_length=300, blank=True, default="", editable=False)
    # Bumped in the transaction of every change of what the tournament's pages show
    # (tournaments.versioning); cached pages, ETags and exports are keyed by it.
    data_version = models.PositiveBigIntegerField(_("data version"), default=0, editable=False)
    # Bumped with data_version by every change but a table's hands: the pages that show no hand
    # (seating, rules) are keyed by it, so a saved hand leaves them cached.
    layout_version = models.PositiveBigIntegerField(_("layout version"), default=0, editable=False)
    # The data version of the archive this tournament was restored from, keeping its identifier
    # (archive.backup.restore), until a public site stores a version of it: a site that holds a
    # newer version then has hands this database lacks (publishing.venue). Never exported.
    restored_from = models.PositiveBigIntegerField(_("restored from version"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return f"{self.name} ({date_format(self.date, 'SHORT_DATE_FORMAT')})"

    def get_absolute_url(self):
        return reverse("tournaments:detail", args=[self.pk])

    def save(self, *args, **kwargs):
        """Save, and bump the data version in the same statement: the counter is incremented in
        the database (never written back from this object, which may hold an old value), and the
        object reads it afresh when asked."""
        if not self._state.adding:
            self.data_version = models.F("data_version") + 1
            self.layout_version = models.F("layout_version") + 1
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "data_version", "layout_version"}
        super().save(*args, **kwargs)
        for name in ("data_version", "layout_version"):
            if isinstance(getattr(self, name), models.expressions.Combinable):
                delattr(self, name)  # deferred: loaded from the database on the next access

    def get_ruleset(self):
        """The :mod:`variants` ruleset object of this tournament's ruleset, edition and options."""
        return variants.get_ruleset(self.ruleset, self.edition, self.options)

    def hands_for_table(self, table_size: int) -> int:
        """Hand cap for a table of ``table_size`` (``koenigrufen.md`` §5; Cego 24 at every table).

        The answer is kept on this object per table size: pages ask it for each of hundreds of
        tables, and each answer builds the ruleset. It is keyed by everything it depends on, so
        a changed ruleset, edition, options or hands per round is asked anew."""
        key = (self.ruleset, self.edition, repr(self.options), self.hands_per_round, table_size)
        caps = self.__dict__.setdefault("_hand_caps", {})
        cap = caps.get(key)
        if cap is None:
            cap = caps[key] = self.get_ruleset().hands_per_round(table_size, self.hands_per_round)
        return cap

    def hand_cap(self, table_size: int, ended_after: int | None = None) -> int:
        """The hands a table of ``table_size`` plays in its round: the count the director ended it
        at (``Table.ended_after``), else :meth:`hands_for_table`."""
        return self.hands_for_table(table_size) if ended_after is None else ended_after


class Registration(models.Model):
    """A player's entry in a tournament, with start number, withdrawal and drawn lot."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_number = models.PositiveIntegerField(_("start number"))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    lot = models.PositiveIntegerField(
        _("drawn lot"),
        null=True,
        blank=True,
        help_text=_("Recorded by the director to separate players level after every tie-break; 1 ranks first."),
    )

    class Meta:
        ordering = ["tournament", "start_number"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_player_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "start_number"], name="unique_start_number"),
        ]

    def __str__(self):
        return f"{self.start_number}. {self.player.name}"


class Round(models.Model):
    """A round of a tournament; ``seed`` reproduces its seating draw."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    seed = models.BigIntegerField(_("draw seed"))
    repeats = models.JSONField(_("repeat meetings"), default=list, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    verified_at = models.DateTimeField(_("verified at"), null=True, blank=True)
    report = models.JSONField(
        _("draw report"),
        default=dict,
        blank=True,
        help_text=_("Table sizes, repeat meetings with the rounds they met before, the lowest number of repeats found."),
    )
    # The round's clock (tournaments.clock): minutes given at the start, when it started, since when
    # it is paused, how long it was paused before, minutes added.
    clock_minutes = models.PositiveIntegerField(_("minutes on the clock"), null=True, blank=True)
    clock_started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    clock_paused_at = models.DateTimeField(_("clock paused"), null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(_("seconds paused"), default=0)
    clock_extra_minutes = models.PositiveIntegerField(_("minutes added"), default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")]

    def __str__(self):
        return _("Round %(number)s") % {"number": self.number}


def new_token() -> str:
    """A private link token for a table's sheet (unguessable, URL-safe)."""
    return secrets.token_urlsafe(16)


class Table(models.Model):
    """A table in a round; its seats are numbered 0..n-1 in playing order (``hand-record.md``)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer seat"))
    token = models.CharField(_("private link token"), max_length=32, unique=True, default=new_token, editable=False)
    ended_after = models.PositiveSmallIntegerField(
        _("ended after hand"),
        null=True,
        blank=True,
        help_text=_("Set when the director ends a late table: the round counts this many hands."),
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}

    def get_absolute_url(self):
        return reverse("scoring:sheet", args=[self.pk])

    def dealer_of(self, hand_number: int, size: int) -> int:
        """Dealer seat of hand ``hand_number`` (1-based): ``(first_dealer + k - 1) % n``."""
        return (self.first_dealer + hand_number - 1) % size


class Seat(models.Model):
    """A player's seat at a table, with the card he drew for it (``tournament-formats.md`` §2)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="seats")
    card = models.CharField(_("drawn card"), max_length=20)
    score = models.IntegerField(
        _("round score"),
        default=0,
        help_text=_("Sum of this seat's scores over the table's hands; kept by the scoring services."),
    )
    substitute = models.ForeignKey(
        Registration,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="substitute_seats",
        verbose_name=_("substitute"),
    )
    substitute_from = models.PositiveSmallIntegerField(
        _("substitute from hand"), null=True, blank=True, help_text=_("The first hand the substitute plays.")
    )
    substitute_score = models.IntegerField(_("substitute's round score"), default=0)
    left_after = models.PositiveSmallIntegerField(
        _("left after hand"),
        null=True,
        blank=True,
        help_text=_("The player left the table after this many hands; the table plays on one seat smaller."),
    )

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["table", "registration"], name="unique_seat_player"),
        ]

    def __str__(self):
        return f"{self.table}: {self.position} {self.registration.player.name}"


class LoggedAction(models.Model):
    """What every line of an action log holds besides what it is about: who did it (``user``, and
    ``user_name``, his user name kept for when the user is gone: deleted, or an archive restored
    into a database without him) and when (``created``); oldest first."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("by")
    )
    user_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    created = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        abstract = True
        ordering = ["created", "pk"]


class ActionLog(LoggedAction):
    """The tournament's action log: who did what, when and why, for every change a director makes
    outside the hands (whose own history is kept with each hand): draws with their seeds (each
    attempt logged with its seed), swaps, substitutes, redraws, players leaving, verification and
    reopening, registrations and withdrawals, lots, ended tables, resolved flags, tournament and
    player edits, role changes. Written by :func:`tournaments.actions.log` in the transaction of the
    change itself."""

    class Action(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        DELETED = "deleted", _("deleted to draw again")
        SWAPPED = "swapped", _("players swapped")
        SUBSTITUTE = "substitute", _("substitute seated")
        LEFT = "left", _("player left the table")
        VERIFIED = "verified", _("round verified")
        REOPENED = "reopened", _("verified round reopened")
        REGISTERED = "registered", _("players registered")
        UNREGISTERED = "unregistered", _("registration removed")
        WITHDRAWN = "withdrawn", _("player withdrawn")
        REINSTATED = "reinstated", _("player reinstated")
        LOTS = "lots", _("lots recorded")
        TABLE_ENDED = "table_ended", _("table ended")
        FLAG_RESOLVED = "flag_resolved", _("flag resolved")
        EDITED = "edited", _("tournament settings changed")
        PLAYER_EDITED = "player_edited", _("player changed")
        PLAYERS_MERGED = "players_merged", _("players merged")
        ROLE_GIVEN = "role_given", _("role given")
        ROLE_REMOVED = "role_removed", _("role removed")
        ACCOUNT_CREATED = "account_created", _("account created")
        SIGN_IN_LINK_MADE = "sign_in_link_made", _("sign-in link made")
        SIGN_IN_LINK_USED = "sign_in_link_used", _("sign-in link used")
        CREATED = "created", _("tournament created")
        CLOCK_STARTED = "clock_started", _("clock started")
        CLOCK_PAUSED = "clock_paused", _("clock paused")
        CLOCK_RESUMED = "clock_resumed", _("clock resumed")
        CLOCK_EXTENDED = "clock_extended", _("time added")
        PRIZES_CHANGED = "prizes_changed", _("prizes changed")

    # What the seating page of a round lists under its draw report.
    SEATING = (Action.DRAWN, Action.DELETED, Action.SWAPPED, Action.SUBSTITUTE, Action.LEFT, Action.VERIFIED, Action.REOPENED)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=24, choices=Action.choices)
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    repeats = models.PositiveIntegerField(_("repeat meetings"), null=True, blank=True)
    detail = models.TextField(_("detail"), blank=True)  # a draw of 2,000 players lists 500 table sizes
    reason = models.TextField(_("reason"), blank=True)

    class Meta(LoggedAction.Meta):
        verbose_name = _("action log entry")
        verbose_name_plural = _("action log")

    def __str__(self):
        where = f" R{self.round_number}" if self.round_number else ""
        return f"{self.tournament}{where} {self.action} {self.seed or ''}"


class TournamentRole(models.Model):
    """A user's role in one tournament, in the style of Tabbycat's levels: the *organiser* may do
    everything, the roles of others included; the *director* everything on the day but the roles;
    the *scorer* enters and edits hands at the tables (and raw rows), nothing else. Rights come from
    a role, never from ``is_staff``; a superuser is every tournament's organiser
    (:mod:`tournaments.permissions`)."""

    class Level(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        DIRECTOR = "director", _("director")
        SCORER = "scorer", _("scorer")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    level = models.CharField(_("role"), max_length=12, choices=Level.choices)
    created = models.DateTimeField(_("given"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "level", "user__username"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user_and_tournament")]
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")

    def __str__(self):
        return f"{self.user} – {self.get_level_display()} – {self.tournament}"


class OneTimePassword(models.Model):
    """A one-time password an organiser set for ``user`` on his tournament's Roles page
    (:mod:`tournaments.passwords`): at most one per user, recording who set it (``set_by``), in
    which ``tournament`` and when (``set_at``), and ``password_check``, a keyed digest of the
    password hash it gave the user (:func:`tournaments.passwords.check`). While the user's hash
    still matches it, his next login must choose a new password; a password set since in another
    way (the admin, ``manage.py changepassword``) is an ordinary one and drops this record.

    ``set_by`` and ``tournament`` become null, not deleted, when their rows go: the record then
    stays and the login with the password is refused (the organiser who set it cannot set it
    now), instead of the password turning into an ordinary one that goes on working."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="one_time_password", verbose_name=_("user")
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("set by")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("tournament")
    )
    set_at = models.DateTimeField(_("set at"))
    password_check = models.CharField(_("password check"), max_length=64)

    class Meta:
        verbose_name = _("one-time password")
        verbose_name_plural = _("one-time passwords")

    def __str__(self):
        return f"{self.user} ({self.set_at:%Y-%m-%d %H:%M})"


class SignInLink(models.Model):
    """A one-time sign-in link an organiser made for ``user`` on his tournament's Roles page
    (:mod:`tournaments.sign_in_links`): opening it lets its user choose a password, and then he is
    logged in. At most one per user (a new one voids the one before), recording who made it
    (``made_by``), in which ``tournament``, when (``made_at``), and ``key_check``, a keyed digest
    of the link's key (the key itself is kept nowhere). ``used_at`` is set when the link was used
    (a password chosen through it); the record stays, so that the link opened again is told
    "used already". Taking the user's role in ``tournament`` away deletes the record.

    ``made_by`` and ``tournament`` become null, not deleted, when their rows go: the link is then
    refused (the organiser who made it cannot make it now)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_link", verbose_name=_("user")
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("made by")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("tournament")
    )
    made_at = models.DateTimeField(_("made at"))
    key_check = models.CharField(_("key check"), max_length=64, unique=True)
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("sign-in link")
        verbose_name_plural = _("sign-in links")

    def __str__(self):
        return f"{self.user} ({self.made_at:%Y-%m-%d %H:%M})"
