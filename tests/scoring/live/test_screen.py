"""The big screen — the slides it cycles through (a fresh round's seating by name, the
clock with each table's hands against its cap, the standings in pages), served anonymously from
the cache of the tournament's version."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.live.screen import STANDINGS_ROWS, Slide, screen_state
from scoring.services import save_hand
from tournaments import services
from tournaments.clock import start_clock
from tournaments.problems import card_labels

RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


def slide(t, n):
    return Client().get(reverse("live:screen_slide", args=[t.pk, n]), HTTP_HX_REQUEST="true")


@pytest.mark.django_db
def test_a_fresh_round_shows_every_players_table_and_card_then_the_clock(make_tournament, english):
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=3)
    assert screen_state(t).slides() == [Slide("seating", 0, 1), Slide("clock")]
    page = slide(t, 0).content.decode()
    labels = card_labels(t.get_ruleset())
    for seat in rnd.tables.get(number=2).seats.select_related("registration__player"):
        line = f'<span class="name">{seat.registration.player.name}</span> → table 2, <span class="card">{labels[seat.card]}</span>'
        assert line in page
    names = [n for n in __import__("re").findall(r'<span class="name">([^<]+)</span>', page)]
    assert names == sorted(names) and len(names) == 8  # by name, everyone once
    assert "Round 1" in slide(t, 1).content.decode()


@pytest.mark.django_db
def test_once_play_starts_the_screen_shows_the_clock_and_the_standings_pages(make_tournament, english):
    t = make_tournament(players=20)  # 5 tables of 4
    rnd = services.draw_next_round(t, seed=3)
    table = rnd.tables.get(number=1)
    save_hand(table, RUFER_1_3_WON)
    start_clock(rnd, 120)
    # 20 players: two standings pages of 15 and 5.
    assert screen_state(t).slides() == [Slide("clock"), Slide("standings", 0, 2), Slide("standings", 1, 2)]
    clock = slide(t, 0).content.decode()
    assert "1/80 hands" in clock  # 5 tables × 16 hands, one entered
    assert "<b>1</b> 1/16" in clock and "<b>2</b> 0/16" in clock
    assert "data-ends-at" in clock and "left" in clock
    first, second = slide(t, 1).content.decode(), slide(t, 2).content.decode()
    assert first.count("<tr>") == 1 + STANDINGS_ROWS and second.count("<tr>") == 1 + 5
    assert slide(t, 3).content.decode() == clock  # the cycle starts again


@pytest.mark.django_db
def test_a_slide_is_served_from_the_cache_until_a_hand_changes_it(make_tournament, english):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=3).tables.get()
    save_hand(table, RUFER_1_3_WON)
    client = Client()
    url = reverse("live:screen_slide", args=[t.pk, 1])
    first = client.get(url, HTTP_HX_REQUEST="true")
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    save_hand(table, {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False})
    changed = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


@pytest.mark.django_db
def test_the_screen_is_public_and_a_missing_tournament_is_not_found(make_tournament):
    t = make_tournament(players=4)
    assert Client().get(reverse("live:screen", args=[t.pk])).status_code == 200
    assert Client().get(reverse("live:screen", args=[t.pk]) + "?mode=prizes").status_code == 200
    assert slide(t, 0).status_code == 200  # nothing drawn yet: the clock slide says so
    assert Client().get(reverse("live:screen", args=[t.pk + 1])).status_code == 404
    assert Client().get(reverse("live:screen_slide", args=[t.pk + 1, 0])).status_code == 404


@pytest.mark.django_db
def test_with_every_round_drawn_at_the_start_the_screen_follows_the_round_in_play(make_tournament, english):
    from scoring.services import end_table

    t = make_tournament(players=4, rounds=2, draw_mode="all_at_start")
    services.draw_next_round(t, seed=3)  # draws both rounds
    first, second = t.round_set.order_by("number")
    assert screen_state(t).round == first and screen_state(t).fresh
    table = first.tables.get()
    save_hand(table, RUFER_1_3_WON)
    assert screen_state(t).round == first and not screen_state(t).fresh
    end_table(table)
    assert screen_state(t).round == second and screen_state(t).fresh  # the players move: round 2's seating
