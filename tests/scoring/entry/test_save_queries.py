"""Saving a hand from the sheet: what htmx gets back (only what changed on the sheet: the new row,
the totals, the next hand, a fresh form, the notices), how many queries the save and its answer
take, and the seats' round scores the save keeps (added to, not summed again)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.entry.forms import HandForm
from scoring.models import Hand
from scoring.services import build_sheet, refresh_seat_scores, save_hand, table_info
from tournaments import services
from tournaments.models import Player, Seat, TournamentRole

HTMX = {"HX-Request": "true"}
TRANSACTION = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def dreier(dealer, declarer, number, won=True):
    """The posted form of a Dreier (Tirol: the declarer +15 and the others −5 each when won)."""
    return {"outcome": "played", "dealer": str(dealer), "contract": "dreier", "declarer": str(declarer),
            "won": "1" if won else "0", "number": str(number)}


def save(client, table, data, **headers):
    return client.post(reverse("entry:hand_create", args=[table.pk]), data, headers=headers)


def totals_cells(html: str) -> list[str]:
    foot = re.search(r'<tfoot id="sheet-totals"[^>]*>(.*?)</tfoot>', html, re.S).group(1)
    return re.findall(r'<th class="num">(-?\d+)</th>', foot)


def statements(captured) -> list[str]:
    """The SQL statements captured, without the transaction's own (begin, commit, savepoints)."""
    return [q["sql"] for q in captured if not q["sql"].upper().startswith(TRANSACTION)]


@pytest.mark.django_db
def test_the_htmx_answer_carries_the_new_row_the_totals_and_the_next_form_only(director_client, four_table, english):
    first = save(director_client, four_table, dreier(3, 1, 1), **HTMX)  # [-5, 15, -5, -5]
    assert first.status_code == 200 and first["HX-Reswap"] == "none"
    html = first.content.decode()
    # The first hand replaces "No hand entered yet." with its row.
    assert html.startswith('<div id="sheet">') and '<tbody id="sheet-rows" hx-swap-oob="true">' in html
    assert 'id="hand-1"' in html and "No hand entered yet." not in html

    second = save(director_client, four_table, dreier(0, 2, 2), **HTMX)  # [-5, -5, 15, -5]
    html = second.content.decode()
    assert second.status_code == 200 and second["HX-Reswap"] == "none"
    assert html.startswith('<div id="sheet">') and "<html" not in html
    # Only what changed: the new row, appended to the rows on the page ...
    assert '<tbody hx-swap-oob="beforeend:#sheet-rows">' in html
    assert 'id="hand-2"' in html and 'id="hand-1"' not in html
    # ... the totals after both hands, the count and the next hand, the message, a fresh form.
    assert totals_cells(html) == ["-10", "10", "10", "-10"]
    assert "2 of 16 hands played." in html and "Hand 3" in html
    assert "Hand 2 saved." in html
    assert "Enter hand 3" in html and 'name="number" value="3"' in html
    assert '<div id="sheet-entry" hx-swap-oob="true">' in html and 'id="catalogue"' in html
    # The page shows the same rows and totals.
    page = director_client.get(four_table.get_absolute_url()).content.decode()
    assert 'id="hand-1"' in page and 'id="hand-2"' in page and totals_cells(page) == ["-10", "10", "10", "-10"]
    assert list(Hand.objects.order_by("number").values_list("scores", flat=True)) == [[-5, 15, -5, -5], [-5, -5, 15, -5]]


@pytest.mark.django_db
def test_a_save_and_its_htmx_answer_take_ten_queries(director_client, four_table):
    save(director_client, four_table, dreier(3, 1, 1), **HTMX)
    with CaptureQueriesContext(connection) as queries:
        answer = save(director_client, four_table, dreier(0, 2, 2), **HTMX)
    assert answer.status_code == 200 and 'id="hand-2"' in answer.content.decode()
    # The session, its user; the table's seats with the table and the user's role; the
    # tournament's version (its row locked), the table's lock with its round and last hand; the
    # hand, its history; the seats' scores.
    assert len(statements(queries.captured_queries)) == 8, [q["sql"] for q in queries.captured_queries]
    assert len(queries.captured_queries) == 10  # with the transaction's begin and commit


@pytest.mark.django_db
def test_a_save_without_htmx_takes_ten_queries_and_redirects_to_the_sheet(director_client, four_table):
    with CaptureQueriesContext(connection) as queries:
        answer = save(director_client, four_table, dreier(3, 1, 1))
    assert answer.status_code == 302 and answer["Location"] == four_table.get_absolute_url()
    assert len(statements(queries.captured_queries)) == 8
    assert len(queries.captured_queries) == 10


@pytest.mark.django_db
def test_the_table_completed_gets_the_whole_sheet(director_client, make_tournament, english):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    cap = table_info(table).cap
    for _number in range(1, cap):
        save_hand(table, {"dealer": 0, "outcome": "manual", "scores": [1, -1, 1, -1]})
    dealer = build_sheet(table).next_dealer
    answer = save(director_client, table, dreier(dealer, (dealer + 1) % 4, cap), **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200 and not answer.has_header("HX-Reswap")
    assert html.startswith('<div id="sheet">') and "This table has played every hand of the round." in html
    assert 'id="hand-1"' in html and f'id="hand-{cap}"' in html


@pytest.mark.django_db
def test_a_scorer_gets_the_answer_too(four_table, english):
    user = get_user_model().objects.create_user("schreiber", password="pw-123-geheim")
    TournamentRole.objects.create(tournament=four_table.round.tournament, user=user, level="scorer")
    scorer = Client()
    scorer.force_login(user)
    html = save(scorer, four_table, dreier(3, 1, 1), **HTMX).content.decode()
    assert 'id="hand-1"' in html and "Hand 1 saved." in html
    assert 'value="struck"' not in html  # the scorer's outcome select has no "struck"
    outsider = get_user_model().objects.create_user("fremd", password="pw-123-geheim")
    other = Client()
    other.force_login(outsider)
    assert save(other, four_table, dreier(0, 2, 2), **HTMX).status_code == 403
    assert Hand.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("may_strike", [True, False])
def test_the_next_hands_form_renders_as_a_form_built_afresh(four_table, may_strike):
    info = table_info(four_table)
    saved = HandForm(dreier(3, 1, 1), info=info, may_strike=may_strike)
    assert saved.is_valid()
    built_on = HandForm.next_hand(saved, 0, 2)
    afresh = HandForm(info=info, dealer=0, initial={"number": 2}, may_strike=may_strike)
    assert list(built_on.fields) == list(afresh.fields)
    assert [str(built_on[name]) for name in built_on.fields] == [str(afresh[name]) for name in afresh.fields]
    assert built_on.outcome_without_strike() == afresh.outcome_without_strike()
    assert not built_on.is_bound and 'value="2"' in str(built_on["number"])


@pytest.mark.django_db
def test_the_seats_scores_are_the_hands_sums_also_for_a_substitute(director_client, four_table):
    save(director_client, four_table, dreier(3, 1, 1), **HTMX)  # [-5, 15, -5, -5]
    seat = four_table.seats.get(position=1)
    newcomer = services.register(four_table.round.tournament, Player.objects.create(name="Ersatz Spieler", club="Imst"))
    services.seat_substitute(seat, newcomer)  # plays from hand 2 on
    save(director_client, four_table, dreier(0, 1, 2, won=False), **HTMX)  # [5, -15, 5, 5]
    scores = list(Seat.objects.filter(table=four_table).order_by("position").values_list("score", "substitute_score"))
    assert scores == [(0, 0), (15, -15), (0, 0), (0, 0)]
    assert refresh_seat_scores(four_table) == [0, 0, 0, 0]  # summing every hand again agrees
    assert list(Seat.objects.filter(table=four_table).order_by("position").values_list("score", "substitute_score")) == scores
