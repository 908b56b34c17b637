"""The standings workbook shows a round not played as the page does: "–", never 0 (a table that
has not played a hand of its round has no score yet)."""

from io import BytesIO

import pytest
from openpyxl import load_workbook

from scoring.exporters.standings import UNPLAYED
from scoring.services import end_table, save_hand
from tournaments import services


@pytest.fixture
def second_round_half_played(make_tournament):
    """8 players, round 1 played at both tables; round 2 drawn, table 1 has a hand, table 2 none."""
    t = make_tournament(players=8, rounds=3)
    for table in services.draw_next_round(t, seed=1).tables.all():
        save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [3, -1, -1, -1]})
        end_table(table)
    first, second = services.draw_next_round(t, seed=2).tables.order_by("number")
    save_hand(first, {"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]})
    names = lambda table: set(table.seats.values_list("registration__player__name", flat=True))  # noqa: E731
    return t, names(first), names(second)


@pytest.mark.django_db
def test_an_unplayed_round_is_a_dash_in_every_sheet(client, second_round_half_played, english):
    t, playing, waiting = second_round_half_played
    wb = load_workbook(BytesIO(client.get(f"/t/{t.pk}/standings.xlsx").content))

    rows = list(wb["Standings"].iter_rows(values_only=True))
    header = rows[0]
    r1, r2 = header.index("Round 1"), header.index("Round 2")
    by_name = {row[2]: row for row in rows[1:]}
    assert set(by_name) == playing | waiting
    for name in waiting:
        assert by_name[name][r2] == UNPLAYED and isinstance(by_name[name][r1], int)
    for name in playing:
        assert by_name[name][r2] == 0

    # "Round 2": each table's players and seat scores; table 2 has not played.
    round_rows = list(wb["Round 2"].iter_rows(values_only=True))[1:]
    scores = {name: score for _table, _seat, name, score in round_rows}
    assert {scores[n] for n in waiting} == {UNPLAYED}
    assert {scores[n] for n in playing} == {0}
    assert sum(1 for s in scores.values() if s == 0) == 4  # no 0 for a table that has not played
