"""A table's public score sheet is cached by its own hands: a hand saved at another table leaves it
as the viewer has it (304), while a hand of its own, an edit or deletion of one, or a change of
what the sheet shows beside its hands (the seating) gives the new sheet at once."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import delete_hand, save_hand
from tournaments import services

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def two_tables(make_tournament):
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=7)
    return list(rnd.tables.order_by("number"))


def sheet_url(table):
    return reverse("scoring:sheet", args=[table.pk])


@pytest.mark.django_db
def test_a_hand_at_another_table_leaves_the_sheet_as_the_viewer_has_it(two_tables):
    mine, other = two_tables
    viewer = Client()
    first = viewer.get(sheet_url(mine))
    assert 'id="hand-1"' not in first.content.decode()
    standings = viewer.get(reverse("scoring:standings", args=[mine.round.tournament_id]))
    save_hand(other, HAND)
    assert viewer.get(sheet_url(mine), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # the standings show every table's hands: they change
    assert viewer.get(standings.request["PATH_INFO"], HTTP_IF_NONE_MATCH=standings["ETag"]).status_code == 200
    hand = save_hand(mine, HAND)
    changed = viewer.get(sheet_url(mine), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert 'id="hand-1"' in changed.content.decode()
    delete_hand(hand)
    after_delete = viewer.get(sheet_url(mine), HTTP_IF_NONE_MATCH=changed["ETag"])
    assert after_delete.status_code == 200 and after_delete["ETag"] not in (first["ETag"], changed["ETag"])
    assert 'id="hand-1"' not in after_delete.content.decode()


@pytest.mark.django_db
def test_a_new_seating_changes_both_tables_sheets(two_tables):
    mine, other = two_tables
    viewer = Client()
    tags = {t.pk: viewer.get(sheet_url(t))["ETag"] for t in two_tables}
    a = mine.seats.order_by("position").first()
    b = other.seats.order_by("position").first()
    services.swap_players(mine.round, a.registration, b.registration)
    for table in two_tables:
        again = viewer.get(sheet_url(table), HTTP_IF_NONE_MATCH=tags[table.pk])
        assert again.status_code == 200, table.number
    page = viewer.get(sheet_url(mine)).content.decode()
    assert b.registration.player.name in page and a.registration.player.name not in page


@pytest.mark.django_db
def test_a_sheet_of_no_table_is_not_found(two_tables):
    assert Client().get(reverse("scoring:sheet", args=[two_tables[1].pk + 100])).status_code == 404
