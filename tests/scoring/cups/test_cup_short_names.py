"""The cup table's tournament columns are headed by the tournaments' short names — the town of
the venue, or the day where the place repeats or is missing — not by "1", "2"."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.cups.models import Cup, CupResult
from scoring.cups.points import place_of, short_names
from scoring.services import end_table, save_hand
from tournaments import services
from tournaments.models import Player

RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


def test_a_column_is_headed_by_its_place_or_its_day():
    assert place_of("Gasthof Post, Imst") == "Imst" and place_of(" Absam ") == "Absam"
    heads = short_names([("Absam", "1. Sep."), ("Imst", "3. Okt."), ("Imst", "7. Nov."), ("", "9. Nov."), ("Innsbruck-Hötting-West", "5. Dez.")])
    assert heads == ["Absam", "Imst 3. Okt.", "Imst 7. Nov.", "9. Nov.", "Innsbruck-Höt…"]
    # Two of one place on one day: the season's numbers tell them apart.
    assert short_names([("Imst", "3. Okt."), ("Imst", "3. Okt.")]) == ["Imst 3. Okt. (1)", "Imst 3. Okt. (2)"]


@pytest.mark.django_db
def test_the_cup_tables_columns_carry_the_tournaments_short_names(make_tournament, english):
    cup = Cup.objects.create(name="Testcup", ruleset="tiroler-tarockcup", method="tirol", counting="all")
    anna = Player.objects.create(name="Anna", club="Imst")
    CupResult.objects.create(cup=cup, event="Absam", date=datetime.date(2026, 9, 1), player=anna, rank=1, field_size=5)
    CupResult.objects.create(cup=cup, event="Herbstturnier der Tarockrunde Zams", date=datetime.date(2026, 10, 3), player=anna, rank=2, field_size=5)
    t = make_tournament(players=4, rounds=1, cup=cup, venue="Gasthof Post, Imst")  # 21 November 2026
    table = services.draw_next_round(t, seed=7).tables.get()
    save_hand(table, RUFER_1_3_WON)
    end_table(table)
    page = Client().get(reverse("cups:table", args=[cup.pk])).content.decode()
    heads = re.findall(r'<th class="num" scope="col"><abbr title="([^"]*)">([^<]*)</abbr></th>', page)
    assert [short for _title, short in heads] == ["Absam", "10/03/2026", "Imst"]  # the day as the list of tournaments below writes it
    assert heads[1][0].startswith("2. Herbstturnier der Tarockrunde Zams")  # the full name on hover
    assert not re.search(r'<th class="num"[^>]*>\s*1\s*</th>', page)


@pytest.mark.django_db
def test_the_cup_table_writes_every_day_in_one_format(make_tournament):
    """The column heads and the list of tournaments under the table name a day alike (German:
    03.10.2026 in both), not "3. Oktober" above and "03.10.2026" below."""
    cup = Cup.objects.create(name="Testcup", ruleset="tiroler-tarockcup", method="tirol", counting="all")
    anna = Player.objects.create(name="Anna", club="Imst")
    CupResult.objects.create(cup=cup, event="Herbstturnier", date=datetime.date(2026, 10, 3), player=anna, rank=1, field_size=5)
    page = Client().get(reverse("cups:table", args=[cup.pk])).content.decode()
    assert "03.10.2026" in page.split("<ol>")[0] and "03.10.2026" in page.split("<ol>")[1]
    assert "Oktober" not in page
