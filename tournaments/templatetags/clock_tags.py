"""``{% round_clock round %}``: a round's clock on the board, the sheets, the player's page and the big
screen (``tournaments/_clock.html`` words each state: not started, time left, paused, time up)."""

from django import template
from django.utils import timezone

from tournaments.clock import NOT_STARTED, clock_of

register = template.Library()


def hms(seconds: float) -> str:
    """``5400`` → ``"1:30:00"``, ``59`` → ``"0:59"``: hours only when there are any."""
    seconds = int(seconds + 0.999)  # a clock shows 0:00 only when the time is really up
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.inclusion_tag("tournaments/_clock.html", takes_context=True)
def round_clock(context, rnd, controls=False):
    """The clock of round ``rnd``: time left (counted down in the browser by ``js/clock.js`` from
    the end time while it runs), paused or up; ``controls``: the director's buttons (start with
    the ruleset's default minutes, pause, resume, add 5, 10 or 15 minutes, which count from now
    once time is up: :meth:`tournaments.clock.Clock.extended`)."""
    now = timezone.now()
    clock = clock_of(rnd)
    state = clock.state(now)
    ends_at = clock.ends_at(now)
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "round": rnd,
        "state": state,
        "shown": state != NOT_STARTED or controls,
        "time": hms(clock.remaining(now)),
        "ends_at_ms": int(ends_at.timestamp() * 1000) if ends_at else "",
        "extra": clock.extra_minutes,
        "default_minutes": rnd.clock_minutes or rnd.tournament.get_ruleset().default_round_minutes or "",
        "controls": controls,
    }
