"""The tournament page: per round, a card per table linking to its sheet with the hands entered
against the round's cap, marked once the table is done."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.services import save_hand
from tournaments import services
from tournaments.models import Table


def enter(table: Table, hands: int) -> None:
    for number in range(1, hands + 1):
        save_hand(table, {"dealer": table.dealer_of(number, 4), "outcome": "manual", "scores": [3, -1, -1, -1]})


def cards(html: str) -> list[tuple[str, str, str, str]]:
    return re.findall(r'<div class="card"><h3><a href="([^"]+)">([^<]+)</a></h3>\s*<span class="(\w+)">([^<]+)</span></div>', html)


@pytest.mark.django_db
def test_each_table_shows_its_hands_against_the_cap_and_links_its_sheet(client, make_tournament, english):
    t = make_tournament(players=8, hands_per_round=16)  # Tirol: 16 hands a round at a 4-table
    services.draw_next_round(t, seed=3)
    first, second = Table.objects.filter(round__tournament=t).order_by("number")
    enter(first, 16)
    enter(second, 5)

    html = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    assert cards(html) == [
        (f"/table/{first.pk}/", "Table 1", "pos", "16/16 hands"),
        (f"/table/{second.pk}/", "Table 2", "muted", "5/16 hands"),
    ]


@pytest.mark.django_db
def test_the_cards_follow_the_rounds_in_order(client, make_tournament, english):
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=3)
    services.draw_next_round(t, seed=4)
    html = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    tables = Table.objects.filter(round__tournament=t).order_by("round__number")
    assert [href for href, *_rest in cards(html)] == [f"/table/{table.pk}/" for table in tables]
    assert html.index("Round 1") < html.index(f"/table/{tables[0].pk}/") < html.index("Round 2") < html.index(f"/table/{tables[1].pk}/")
