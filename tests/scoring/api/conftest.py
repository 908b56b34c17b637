"""A small finished tournament for the API's tests: 4 players, one round, one table, three hands,
the table ended. Scores by hand from ../shared/rules/koenigrufen.md §1 (a Rufer is worth 1 to
each player: the declarer's side +1 each, the other side −1 each when it is won; the other way
round when it is lost)."""

import pytest

from scoring.services import end_table, save_hand
from tournaments import services

HANDS = [
    # Rufer is Vorhand's game (the seat after the dealer).            seats: 0   1   2   3
    {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True},  # -1 +1 -1 +1
    {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 1, "won": True},  # -1 +1 +1 -1
    {"dealer": 2, "contract": "rufer", "declarer": 3, "partner": 0, "won": False},  # -1 +1 +1 -1
]
# Totals by seat after the three hands: seat 0 −3, seat 1 +3, seat 2 +1, seat 3 −1.
TOTALS = {0: -3, 1: 3, 2: 1, 3: -1}


@pytest.fixture
def finished(make_tournament):
    """``(tournament, table, {seat position: registration})`` of the finished tournament."""
    t = make_tournament(players=4, rounds=1)
    table = services.draw_next_round(t, seed=7).tables.get()
    for hand in HANDS:
        save_hand(table, hand)
    end_table(table)
    seats = {s.position: s.registration for s in table.seats.select_related("registration__player")}
    return t, table, seats
