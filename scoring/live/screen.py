"""The big screen: what a projector in the hall cycles through.

The screen shows one slide at a time and asks the server for the next one every few seconds
(``live/_screen_slide.html``): the current round's clock with every table's hands against its cap,
the standings in pages, and — while a freshly drawn round has not started — its seating by name
("Anna Berger → table 7, Pik-König"). Each slide is a small fragment served from the cache per data
version (:class:`~tournaments.public_cache.CachedPublicPage`), so a screen costs the server one
version query per slide.

**Decisions**: the screen shows the round the hall is in: the first with a table still playing
(where all rounds are drawn at the start, round 2 follows once round 1 is finished), else the last
drawn. Its seating is "fresh" (and its slides come first, one after another) until the round's
clock is started or its first hand is entered; after that the players sit and the screen shows
the clock and the standings only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.clock import clock_of
from tournaments.models import Seat, Tournament
from tournaments.problems import card_labels
from tournaments.services import tables_with_counts

STANDINGS_ROWS = 15  # rows per standings slide: readable from the back of a hall at 1080p
SEATING_ROWS = 36  # names per seating slide, in three columns
MAX_STANDINGS_PAGES = 6  # the top 90 cycle; the rest is on the phones


@dataclass(frozen=True)
class Slide:
    """One slide: ``kind`` ``"clock"``, ``"standings"`` or ``"seating"``, its ``page`` (0-based)
    of ``pages``."""

    kind: str
    page: int = 0
    pages: int = 1


@dataclass(frozen=True)
class Progress:
    """One table of the current round on the clock slide: ``hands`` of ``cap``, ``ended`` by the
    director."""

    number: int
    hands: int
    cap: int
    ended: bool

    @property
    def done(self) -> bool:
        return self.ended or self.hands >= self.cap


@dataclass
class ScreenState:
    """What the slides are made of: the last drawn round (or ``None``), its tables' progress,
    whether its seating is fresh, and how many players the standings and the seating list."""

    tournament: Tournament
    round: object
    progress: list[Progress]
    fresh: bool
    ranked: int
    seated: int

    @property
    def hands(self) -> int:
        """Hands entered in the round so far."""
        return sum(p.hands for p in self.progress)

    @property
    def cap(self) -> int:
        """Hands the round has at most (ended tables count what they played)."""
        return sum(p.cap for p in self.progress)

    def slides(self) -> list[Slide]:
        """The cycle: the fresh seating's pages first (then the clock), else the clock and the
        standings' pages (at most :data:`MAX_STANDINGS_PAGES`)."""
        seating_pages = max(1, -(-self.seated // SEATING_ROWS))
        standings_pages = min(MAX_STANDINGS_PAGES, -(-self.ranked // STANDINGS_ROWS))
        if self.fresh:
            return [Slide("seating", p, seating_pages) for p in range(seating_pages)] + [Slide("clock")]
        return [Slide("clock")] + [Slide("standings", p, standings_pages) for p in range(standings_pages)]


def current_round(tournament: Tournament):
    """The round the hall is in: the first round with a table still playing (all rounds may be
    drawn at the start, Wiener Tarockcup), else the last round drawn; ``None`` before the first
    draw (two queries)."""
    from scoring.standings import table_states
    from tournaments.models import Round

    playing = sorted({s.round_number for s in table_states(tournament).values() if not s.finished})
    rounds = Round.objects.filter(tournament=tournament)
    if playing:
        return rounds.filter(number=playing[0]).first()
    return rounds.order_by("-number").first()


def screen_state(tournament: Tournament) -> ScreenState:
    """The :class:`ScreenState` of ``tournament`` now (five queries)."""
    rnd = current_round(tournament)
    progress: list[Progress] = []
    seated = 0
    if rnd is not None:
        for t in tables_with_counts(tournament, round_id=rnd.pk):
            progress.append(Progress(t.number, t.played, tournament.hand_cap(t.size, t.ended_after), t.ended_after is not None))
            seated += t.size
    started = rnd is not None and (clock_of(rnd).started_at is not None or any(p.hands for p in progress))
    # Ranked: everyone but a player who withdrew before he sat at a table (scoring/standings.py).
    ranked = tournament.registrations.filter(Q(withdrawn=False) | Q(seats__isnull=False) | Q(substitute_seats__isnull=False)).distinct().count()
    return ScreenState(tournament, rnd, progress, fresh=rnd is not None and not started, ranked=ranked, seated=seated)


@dataclass(frozen=True)
class SeatLine:
    """A line of the seating slide: the player, his table and the card that gave him his seat."""

    name: str
    table: int
    card: str


def seating_lines(tournament: Tournament, rnd) -> list[SeatLine]:
    """Every player of round ``rnd`` by name (A–Z), with his table number and drawn card (one
    query)."""
    labels = card_labels(tournament.get_ruleset())
    rows = Seat.objects.filter(table__round=rnd).values_list("registration__player__name", "table__number", "card")
    return sorted((SeatLine(name, table, labels.get(card, card)) for name, table, card in rows), key=lambda s: (s.name.casefold(), s.table))
