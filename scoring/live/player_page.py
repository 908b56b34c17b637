"""Each player's own page: where he sits this round and with whom, his hands and running total at
each table, his round scores, his rank and how it moved since the last round, and his results across
all the tournaments played (:func:`scoring.live.statistics.career`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from scoring.live.statistics import Career, career
from scoring.services import build_sheet, seat_name
from scoring.standings import cached_standings
from tournaments.models import Registration, Seat
from tournaments.problems import card_labels
from tournaments.versioning import player_stamp


@dataclass
class PlayerHand:
    """One hand at his table: number, what it was, his score and his running total."""

    number: int
    label: str
    score: int
    total: int


@dataclass
class PlayerRound:
    """His table in one round: number, seat (1-based), the card he drew, the others in seat
    order, his round score so far and his hands (from ``substitute_from`` on for a substitute)."""

    number: int
    table: object
    seat: int
    card: str
    mates: list[str]
    score: int
    hands: list[PlayerHand] = field(default_factory=list)
    substitute_from: int | None = None


@dataclass
class PlayerPage:
    registration: Registration
    rounds: list[PlayerRound]
    rank: int | None
    total: object
    rank_before: int | None  # after the round before the last drawn one; None in round 1
    shared: bool = False
    career: Career | None = None  # every tournament he played (scoring.live.statistics.career)

    @property
    def moved(self) -> int | None:
        """Places gained since the round before (negative: lost); ``None`` without one."""
        if self.rank is None or self.rank_before is None:
            return None
        return self.rank_before - self.rank

    @property
    def places_down(self) -> int:
        """Places lost since the round before (0 if none or gained)."""
        return max(0, -(self.moved or 0))

    @property
    def current(self) -> PlayerRound | None:
        """His table in the last drawn round he sits in."""
        return self.rounds[-1] if self.rounds else None


def player_page(registration: Registration) -> PlayerPage:
    """Everything of :class:`PlayerPage` for ``registration`` (a sheet per table he sat at, the
    standings now and after the round before)."""
    t = registration.tournament
    cards = card_labels(t.get_ruleset())
    seats = (
        Seat.objects.filter(Q(registration=registration) | Q(substitute=registration), table__round__tournament=t)
        .select_related("table__round__tournament")
        .order_by("table__round__number")
    )
    rounds = []
    for seat in seats:
        sheet = build_sheet(seat.table)
        position = seat.position
        since = seat.substitute_from if seat.substitute_id == registration.pk else None  # he came in
        until = seat.substitute_from if seat.substitute_id and seat.registration_id == registration.pk else None  # he left
        names = [seat_name(s) for s in sheet.info.seats]
        mine = []
        total = 0
        for row in sheet.rows:
            number = row.hand.number
            if position >= len(row.scores) or (since and number < since) or (until and number >= until):
                continue
            total += row.scores[position]
            mine.append(PlayerHand(row.hand.number, row.label, row.scores[position], total))
        rounds.append(
            PlayerRound(
                number=seat.table.round.number,
                table=seat.table,
                seat=position + 1,
                card=cards.get(seat.card, seat.card),
                mates=[n for i, n in enumerate(names) if i != position],
                score=total,
                hands=mine,
                substitute_from=since,
            )
        )
    rank = total_now = rank_before = None
    shared = False
    for row in cached_standings(t).rows:
        if row.entry.key == registration.pk:
            rank, total_now, shared = row.rank, row.total, row.shared
    drawn = list(t.round_set.order_by("number").values_list("number", flat=True))
    if len(drawn) > 1:
        for row in cached_standings(t, after=drawn[-2]).rows:
            if row.entry.key == registration.pk:
                rank_before = row.rank
    return PlayerPage(registration, rounds, rank, total_now, rank_before, shared, career(registration.player))


def page_version(tournament_id: int, registration_id: int) -> tuple[int, str] | None:
    """``(tournament id, version stamp)`` of a player's page for the page cache
    (:class:`~tournaments.public_cache.CachedPublicPage`): :func:`tournaments.versioning.player_stamp`,
    the data versions of every tournament of his player, since the page shows his results in all
    of them (one query). ``None`` when the registration is not one of tournament ``tournament_id``
    (the view answers 404)."""
    found = player_stamp(tournament_id, registration_id)
    return None if found is None else (tournament_id, found)
