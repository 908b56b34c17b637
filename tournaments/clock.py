"""A round's clock: the director starts it, pauses it, resumes it and adds minutes.

:class:`Clock` is pure (times in, times out); the commands below change a round's clock in one
transaction with its tournament's data version (so every cached page that shows it is rendered
again) and log who did it. Pages show the time left as the server computed it and when the round
ends; ``static/js/clock.js`` counts down from there in the browser, so a cached page stays right.

The minutes a ruleset plays by default are :attr:`variants.base.Ruleset.default_round_minutes`
(WTC and Cego 120, Bled 90; Tirol: as the director sets).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from .errors import Refused

NOT_STARTED, RUNNING, PAUSED, OVER = "not_started", "running", "paused", "over"


@dataclass(frozen=True)
class Clock:
    """A round's clock: ``minutes`` given at the start plus ``extra_minutes`` added, running since
    ``started_at`` except ``paused_seconds`` in earlier pauses and since ``paused_at`` if paused now.

    Time booked as paused (a pause, the time past the end before minutes are added) is booked to
    the microsecond: its whole seconds in ``paused_seconds`` (stored as whole seconds), its part
    second by counting from that much later (``started_at`` moves on by under a second). So "+5"
    gives exactly five minutes and a pause costs the players no part second."""

    minutes: int | None = None
    started_at: datetime.datetime | None = None
    paused_at: datetime.datetime | None = None
    paused_seconds: int = 0
    extra_minutes: int = 0

    @property
    def total_seconds(self) -> int:
        """The round's time: given plus added, in seconds (0 before the start)."""
        return ((self.minutes or 0) + self.extra_minutes) * 60

    def elapsed(self, now: datetime.datetime) -> float:
        """Seconds run so far, pauses not counted (0 before the start)."""
        if self.started_at is None:
            return 0.0
        until = self.paused_at or now
        return max(0.0, (until - self.started_at).total_seconds() - self.paused_seconds)

    def remaining(self, now: datetime.datetime) -> float:
        """Seconds left, never below 0."""
        return max(0.0, self.total_seconds - self.elapsed(now))

    def state(self, now: datetime.datetime) -> str:
        """``not_started``, ``running``, ``paused`` or ``over`` (time is up, paused or not)."""
        if self.started_at is None:
            return NOT_STARTED
        if self.remaining(now) <= 0:
            return OVER
        return PAUSED if self.paused_at is not None else RUNNING

    def ends_at(self, now: datetime.datetime) -> datetime.datetime | None:
        """When the round ends if nobody pauses or adds time; ``None`` unless running."""
        if self.state(now) != RUNNING:
            return None
        return now + datetime.timedelta(seconds=self.remaining(now))

    def _past_end(self, now: datetime.datetime) -> datetime.timedelta:
        """How long the clock has run past its end, to the microsecond (zero while time is left
        or before the start); a clock paused after its end counts until the pause."""
        if self.started_at is None:
            return datetime.timedelta(0)
        until = self.paused_at or now
        over = until - self.started_at - datetime.timedelta(seconds=self.paused_seconds + self.total_seconds)
        return max(over, datetime.timedelta(0))

    def overrun(self, now: datetime.datetime) -> float:
        """Seconds the clock has run past its end, part seconds included (0 while time is left);
        a clock paused after its end counts until the pause."""
        return self._past_end(now).total_seconds()

    def _with_pause(self, pause: datetime.timedelta) -> Clock:
        """The clock with ``pause`` more booked as paused, exactly (see the class docstring)."""
        whole = pause.days * 86400 + pause.seconds
        return replace(
            self,
            paused_seconds=self.paused_seconds + whole,
            started_at=self.started_at + datetime.timedelta(microseconds=pause.microseconds),
        )

    def extended(self, minutes: int, now: datetime.datetime) -> Clock:
        """The clock with ``minutes`` added at ``now``. While time is left they are added to it;
        once time is up they count **from now**, not from the old end: the time since the end is
        booked as paused, part second included (35.7 s past the end, "+5" leaves exactly 5:00 at
        ``now``, not 4:25 nor 4:59.3). A paused clock stays paused."""
        return replace(self._with_pause(self._past_end(now)), extra_minutes=self.extra_minutes + minutes)

    def resumed(self, now: datetime.datetime) -> Clock:
        """The paused clock running again from ``now``; the pause, part second included, does
        not count. A clock not paused is returned as it is."""
        if self.paused_at is None or self.started_at is None:
            return self
        return replace(self._with_pause(max(now - self.paused_at, datetime.timedelta(0))), paused_at=None)


def clock_of(rnd) -> Clock:
    """The :class:`Clock` of a :class:`~tournaments.models.Round`."""
    return Clock(rnd.clock_minutes, rnd.clock_started_at, rnd.clock_paused_at, rnd.clock_paused_seconds, rnd.clock_extra_minutes)


class ClockRefused(Refused):
    """A clock command that does not apply now; ``message`` says why, translated."""


def _command(rnd, change, action, user, detail=""):
    """Apply ``change(locked round, now)`` under the tournament's lock, bump its version, log it."""
    from django.db import transaction
    from django.utils import timezone

    from . import actions
    from .models import Round
    from .versioning import touch

    with transaction.atomic():
        touch(rnd.tournament_id)
        locked = Round.objects.select_for_update().get(pk=rnd.pk)
        now = timezone.now()
        if change(locked, now) is False:
            return locked  # nothing to do (a second click): not logged
        locked.save(update_fields=[f for f in vars(locked) if f.startswith("clock_")])
        actions.log(rnd.tournament_id, action, user, round_number=locked.number, detail=detail)
    return locked


def start_clock(rnd, minutes: int, user=None):
    """Start round ``rnd``'s clock with ``minutes`` (1–600). A running or paused clock is left as it
    is (a second click). Raises :class:`ClockRefused` for minutes out of range."""
    from django.utils.translation import gettext as _

    from .actions import Action

    if not 1 <= minutes <= 600:
        raise ClockRefused(_("A round's clock takes 1 to 600 minutes, not %(minutes)s.") % {"minutes": minutes})

    def change(r, now):
        if r.clock_started_at is not None:
            return False
        r.clock_minutes, r.clock_started_at, r.clock_paused_at, r.clock_paused_seconds = minutes, now, None, 0

    return _command(rnd, change, Action.CLOCK_STARTED, user, detail=f"{minutes} min")


def pause_clock(rnd, user=None):
    """Pause a running clock (a paused or stopped one stays as it is)."""
    from .actions import Action

    def change(r, now):
        if r.clock_started_at is None or r.clock_paused_at is not None:
            return False
        r.clock_paused_at = now

    return _command(rnd, change, Action.CLOCK_PAUSED, user)


def resume_clock(rnd, user=None):
    """Resume a paused clock; the pause does not count."""
    from .actions import Action

    def change(r, now):
        if r.clock_paused_at is None:
            return False
        running = clock_of(r).resumed(now)
        r.clock_started_at, r.clock_paused_at, r.clock_paused_seconds = running.started_at, None, running.paused_seconds

    return _command(rnd, change, Action.CLOCK_RESUMED, user)


def extend_clock(rnd, minutes: int, user=None, expected_extra: int | None = None):
    """Add ``minutes`` (1–120) to a started clock, also once time is up: then they count from now
    (:meth:`Clock.extended`). ``expected_extra``: the minutes added so far as the director's page
    showed them; if more were added meanwhile (a double click, a second tab), nothing is added
    again. Raises :class:`ClockRefused` before the start or for minutes out of range."""
    from django.utils.translation import gettext as _

    from .actions import Action

    if not 1 <= minutes <= 120:
        raise ClockRefused(_("Add 1 to 120 minutes, not %(minutes)s.") % {"minutes": minutes})
    if rnd.clock_started_at is None:
        raise ClockRefused(_("Start the clock first."))

    def change(r, now):
        if expected_extra is not None and r.clock_extra_minutes != expected_extra:
            return False
        longer = clock_of(r).extended(minutes, now)
        r.clock_extra_minutes, r.clock_paused_seconds, r.clock_started_at = longer.extra_minutes, longer.paused_seconds, longer.started_at

    return _command(rnd, change, Action.CLOCK_EXTENDED, user, detail=f"+{minutes} min")
