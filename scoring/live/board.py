"""The director's board: rounds × tables, with hands entered, open flags, confirmations (and whether
the sheet changed after them) and ended tables, in a fixed number of queries however many tables
there are."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from scoring.models import HandFlag
from scoring.services.tables import ConfirmationState, confirmation_states
from tournaments.models import Seat, Table, Tournament
from tournaments.services import tables_with_counts


@dataclass
class BoardCell:
    """One table of one round: ``hands`` of ``cap`` entered, open ``flags``, the players' last
    confirmation (``confirmed``, a :class:`ConfirmationState`: "✓ n" while it holds, "changed after
    confirmation" once a hand changed since) and ``totals``: each player's running total at the
    table, ``[(name, total)]`` in seat order."""

    table: Table
    size: int
    hands: int
    cap: int
    flags: int = 0
    confirmed: ConfirmationState | None = None  # the players' last confirmation, None if none
    totals: list = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.hands >= self.cap


@dataclass
class BoardRound:
    round: object
    cells: list[BoardCell] = field(default_factory=list)

    @property
    def hands(self) -> int:
        return sum(c.hands for c in self.cells)

    @property
    def cap(self) -> int:
        return sum(c.cap for c in self.cells)

    @property
    def time_up(self) -> bool:
        """Whether the round's clock has run out."""
        from django.utils import timezone

        from tournaments.clock import OVER, clock_of

        return clock_of(self.round).state(timezone.now()) == OVER

    @property
    def late(self) -> list:
        """The tables still playing: neither every hand played nor ended by the director."""
        return [c for c in self.cells if not c.complete and c.table.ended_after is None]


@dataclass
class Board:
    """The director's board: ``rounds`` and the field: ``active`` players (not withdrawn) and
    ``withdrawn`` ones."""

    rounds: list[BoardRound]
    active: int
    withdrawn: int


def build_board(tournament: Tournament) -> Board:
    """The board of ``tournament``: one :class:`BoardRound` per drawn round with each table's
    running totals, and the number of active players (eight queries)."""
    tables = tables_with_counts(tournament)
    flags = Counter(
        HandFlag.objects.filter(hand__table__round__tournament=tournament, resolved=False).values_list(
            "hand__table_id", flat=True
        )
    )
    confirmed = confirmation_states(table__round__tournament=tournament)
    totals: dict[int, list] = {}
    for table_id, name, sub_name, score, sub_score in (
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "registration__player__name", "substitute__player__name", "score", "substitute_score")
    ):
        totals.setdefault(table_id, []).append((f"{name} → {sub_name}" if sub_name else name, score + sub_score))
    rounds: dict[int, BoardRound] = {}
    for t in tables:
        cap = tournament.hand_cap(t.size, t.ended_after)
        cell = BoardCell(t, t.size, t.played, cap, flags.get(t.pk, 0), confirmed.get(t.pk), totals.get(t.pk, []))
        rounds.setdefault(t.round_id, BoardRound(t.round)).cells.append(cell)
    field_ = Counter(tournament.registrations.values_list("withdrawn", flat=True))
    return Board(list(rounds.values()), active=field_[False], withdrawn=field_[True])
