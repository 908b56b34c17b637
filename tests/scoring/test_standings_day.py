"""Standings that are right at every moment of a day.

A round counts for a player once his table has played a hand of it: before that his cell is "–",
never 0, and a Bled table gives no table points (``tarok-bled.md`` §7, Decision of 2026-11-23).
Table points of a table still playing are marked provisional; a player who withdrew before he
played is not ranked; lots are asked for on the final standings only; the draw by standings seats
by the order the standings page shows.
"""

from fractions import Fraction
from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.services import end_table, save_hand
from scoring.standings import compute_standings
from tournaments import services
from tournaments.models import Seat

BLED = {"ruleset": "tarok-bled", "edition": "2005", "rounds": 4, "hands_per_round": 21}


def seat_regs(table):
    return list(table.seats.order_by("position").values_list("registration_id", flat=True))


def manual(table, scores, number=1):
    return save_hand(table, {"dealer": table.dealer_of(number, len(scores)), "outcome": "manual", "scores": scores})


@pytest.fixture
def bled_half_played(make_tournament):
    """Six Bled players, round 1: table 1 has played a hand (190 / 10 / 0), table 2 none yet."""
    t = make_tournament(players=6, **BLED)
    first, second = services.draw_next_round(t, seed=3).tables.order_by("number")
    manual(first, [190, 10, 0])
    return t, first, second


@pytest.mark.django_db
def test_an_unplayed_bled_table_gives_no_table_points(bled_half_played, english):
    t, first, second = bled_half_played
    standings = compute_standings(t)
    by_reg = {row.entry.key: row for row in standings.rows}
    # §7: 2 / 1 / ½ at the played table; nothing (not 1⅙ each) at the table without a hand.
    assert [by_reg[r].entry.victory for r in seat_regs(first)] == [[Fraction(2)], [Fraction(1)], [Fraction(1, 2)]]
    assert all(by_reg[r].entry.victory == [None] and by_reg[r].entry.rounds == [None] for r in seat_regs(second))
    # The 190 ranks alone at the top; the unplayed table comes after the played one.
    assert standings.rows[0].entry.key == seat_regs(first)[0] and not standings.rows[1].shared
    assert [row.entry.key for row in standings.rows[:3]] == seat_regs(first)
    # While the table plays on, its table points are provisional, on the page too.
    assert standings.provisional and by_reg[seat_regs(first)[0]].entry.provisional == [True]
    page = Client().get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert "2*" in page and "still playing" in page


@pytest.mark.django_db
def test_finished_tables_are_no_longer_provisional(bled_half_played):
    t, first, second = bled_half_played
    end_table(first)
    manual(second, [5, 0, -5])
    end_table(second)
    standings = compute_standings(t)
    assert not standings.provisional
    assert all(row.entry.provisional == [False] for row in standings.rows)


@pytest.mark.django_db
def test_provisional_is_per_table_a_finished_table_is_final_while_another_plays(bled_half_played):
    t, first, second = bled_half_played
    end_table(first)
    manual(second, [5, 0, -5])  # the second table plays on
    by_reg = {row.entry.key: row for row in compute_standings(t).rows}
    assert all(by_reg[reg].entry.provisional == [False] for reg in seat_regs(first))
    assert all(by_reg[reg].entry.provisional == [True] for reg in seat_regs(second))


@pytest.mark.django_db
def test_unplayed_rounds_show_a_dash_on_the_page_in_the_pdf_and_in_the_workbook(make_tournament, english):
    t = make_tournament(players=8, rounds=2)
    first, second = services.draw_next_round(t, seed=1).tables.order_by("number")
    manual(first, [3, -1, -1, -1])
    waiting = second.seats.get(position=0).registration.player.name
    page = Client().get(reverse("scoring:standings", args=[t.pk])).content.decode()
    row = page[page.index(waiting) :].split("</tr>")[0]
    assert 'data-label="R1">–</td>' in row  # round 1: not played yet, not 0
    text = PdfReader(BytesIO(Client().get(reverse("exports:standings_pdf", args=[t.pk])).content)).pages[0].extract_text()
    line = next(line for line in text.splitlines() if waiting in line)
    assert "–" in line
    book = load_workbook(BytesIO(Client().get(reverse("exports:standings_xlsx", args=[t.pk])).content))
    cells = next(r for r in book["Standings"].iter_rows(values_only=True) if r[2] == waiting)
    assert cells[4] == "–"  # round 1, not 0


@pytest.mark.django_db
def test_a_player_withdrawn_before_playing_is_not_ranked(make_tournament, english):
    t = make_tournament(players=9)
    gone = t.registrations.get(start_number=9)
    gone.withdrawn = True
    gone.save()
    table = services.draw_next_round(t, seed=1).tables.first()
    manual(table, [-3, 1, 1, 1])
    name = gone.player.name
    assert gone.pk not in [row.entry.key for row in compute_standings(t).rows]
    assert name not in Client().get(reverse("scoring:standings", args=[t.pk])).content.decode()
    pdf = PdfReader(BytesIO(Client().get(reverse("exports:standings_pdf", args=[t.pk])).content))
    assert name not in "".join(page.extract_text() for page in pdf.pages)
    book = load_workbook(BytesIO(Client().get(reverse("exports:standings_xlsx", args=[t.pk])).content))
    assert name not in [r[2] for r in book["Standings"].iter_rows(values_only=True)]
    # One who played and withdrew keeps his round and is marked.
    left = table.seats.get(position=0).registration
    left.withdrawn = True
    left.save()
    rows = {row.entry.key: row.entry for row in compute_standings(t).rows}
    assert rows[left.pk].withdrawn and rows[left.pk].rounds == [-3]


@pytest.mark.django_db
def test_lots_are_asked_for_only_on_the_final_standings(director_client, make_tournament, english):
    t = make_tournament(players=4, rounds=2)
    table = services.draw_next_round(t, seed=1).tables.get()
    manual(table, [0, 0, 0, 0])
    page = director_client.get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert 'name="lot_' not in page  # round 1 of 2: no lots yet
    assert page.count("level: equal after every tie-break") == 1  # said once, as a legend
    assert "final standings only" in page
    end_table(table)
    second = services.draw_next_round(t, seed=2).tables.get()
    manual(second, [0, 0, 0, 0])
    assert 'name="lot_' not in director_client.get(reverse("scoring:standings", args=[t.pk])).content.decode()
    end_table(second)
    page = director_client.get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert page.count('name="lot_') == 4 and "Record the draw" in page


@pytest.mark.django_db
def test_draw_by_standings_seats_by_the_table_points_the_page_shows(make_tournament):
    """tarok-bled.md §7: table points first. Table 1 scores 300 / 200 / 100, table 2 20 / 10 / 0:
    by table points the top three are the two winners and the best second (A, D, B); by game
    points alone they would be A, B, C."""
    t = make_tournament(players=6, draw_mode="by_standings", **BLED)
    first, second = services.draw_next_round(t, seed=3).tables.order_by("number")
    manual(first, [300, 200, 100])
    manual(second, [20, 10, 0])
    a, b, _c = seat_regs(first)
    d, _e, _f = seat_regs(second)
    shown = [row.entry.key for row in compute_standings(t).rows]
    assert shown[:3] == [a, d, b]
    rnd2 = services.draw_next_round(t, seed=4)
    table_of_a = Seat.objects.get(table__round=rnd2, registration_id=a).table
    assert set(seat_regs(table_of_a)) == {a, d, b}
