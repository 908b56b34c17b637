"""The qualifiers of two cups and the Gesamtwertung of an Ö-Finale, checked by hand
(``../shared/rules/koenigrufen-raiffeisen.md`` §6.9; the cups and their seasons: ``conftest.py``).

Vorrundenpunkte tables of §6.9: 40 ranks 120, 109, 100, 93, …; 60 ranks 120, 111, 104, 98, ….
"""

import datetime

import pytest

from scoring.cups.models import CupResult
from scoring.finale.models import OeFinale
from scoring.finale.services import gesamtwertung, qualifiers
from tests.scoring.finale.conftest import FINAL_RULES, play_day
from tournaments import services
from tournaments.models import Player

# Finalpunkte by day rank, entered by the organiser (checked: 60 first, never rising).
TABLE = [60, 54, 49, 45, 44, 40, 38, 37]


def finale_of(t, cups, table=TABLE, summed=False):
    finale = OeFinale.objects.create(tournament=t, finalpunkte=table, sum_vorrundenpunkte=summed)
    finale.cups.set(cups)
    return finale


def qualified(finale):
    return [(q.player.name, [(p.cup_name[0], p.rank, p.shared, p.points) for p in q.places], q.vorrundenpunkte, q.rank)
            for q in qualifiers(finale).rows]


@pytest.mark.django_db
def test_qualifiers_of_two_cups_take_their_highest_vorrundenpunkte(cups, make_tournament):
    finale = finale_of(make_tournament(players=0, **FINAL_RULES), cups)
    # A: Anna 1. (120), Carl 2. (109), Bert 3. (100), Dora 4. (93) — the 40-rank table.
    # B: Anna and Emil share 1. (120 each), Franz 3. (104), Bert 4. (98) — the 60-rank table.
    assert qualified(finale) == [
        ("Anna", [("T", 1, False, 120), ("W", 1, True, 120)], 120, 1),
        ("Emil", [("W", 1, True, 120)], 120, 1),
        ("Carl", [("T", 2, False, 109)], 109, 3),
        ("Franz", [("W", 3, False, 104)], 104, 4),
        ("Bert", [("T", 3, False, 100), ("W", 4, False, 98)], 100, 5),
        ("Dora", [("T", 4, False, 93)], 93, 6),
    ]
    found = qualifiers(finale)
    assert not found.provisional and [c.qualified for c in found.cups] == [4, 4]


@pytest.mark.django_db
def test_with_the_option_the_vorrundenpunkte_of_several_cups_are_summed(cups, make_tournament):
    finale = finale_of(make_tournament(players=0, **FINAL_RULES), cups, summed=True)
    points = {q.player.name: q.vorrundenpunkte for q in qualifiers(finale).rows}
    assert points == {"Anna": 240, "Bert": 198, "Emil": 120, "Carl": 109, "Franz": 104, "Dora": 93}  # 120 + 120, 100 + 98


@pytest.mark.django_db
def test_a_rank_past_the_cups_table_does_not_qualify(cups, make_tournament):
    cup_a, _cup_b = cups
    # An imported event of 41 players: cup A's ranks now run to 41 (its four own players are
    # ahead, with their two tournaments); the 40-rank table stops at rank 40.
    for i in range(41):
        player = Player.objects.create(name=f"Gast {i + 1:02d}")
        CupResult.objects.create(cup=cup_a, event="Auftakt", date=datetime.date(2026, 8, 1), player=player, rank=i + 1, field_size=41)
    finale = finale_of(make_tournament(players=0, **FINAL_RULES), [cup_a])
    found = {q.player.name: q for q in qualifiers(finale).rows}
    assert "Gast 36" in found and "Gast 37" not in found  # ranks 4 + 36 = 40 and 41
    assert found["Gast 36"].places[0].rank == 40 and found["Gast 36"].vorrundenpunkte == 11  # the 40th value


@pytest.mark.django_db
def test_a_cup_without_a_table_qualifies_nobody(cups, make_tournament):
    cup_a, cup_b = cups
    cup_b.oe_finale_table = ""
    cup_b.save()
    found = qualifiers(finale_of(make_tournament(players=0, **FINAL_RULES), cups))
    assert [c.name for c in found.without_table] == ["Wiener Tarockcup"]
    assert [q.player.name for q in found.rows] == ["Anna", "Carl", "Bert", "Dora"]


@pytest.mark.django_db
def test_the_gesamtwertung_by_hand(final_day, cups):
    wertung = gesamtwertung(finale_of(final_day, cups))
    assert wertung.final and not wertung.day_level
    rows = [(r.rank, r.name, r.day_rank, r.vorrundenpunkte, r.finalpunkte, r.total, r.tiebreak, r.qualifier is not None) for r in wertung.rows]
    assert rows == [
        (1, "Anna", 1, 120, 60, 180, "", True),  # cup winner and day winner: the maximum 180 (KTC25)
        (2, "Emil", 3, 120, 49, 169, "", True),
        (3, "Carl", 4, 109, 45, 154, "", True),
        (4, "Bert", 5, 100, 44, 144, "", True),  # 144 = Franz's 144: the better day rank (5 to 6)
        (5, "Franz", 6, 104, 40, 144, "day", True),
        (6, "Dora", 8, 93, 37, 130, "", True),
        (7, "Gerda", 2, 0, 54, 54, "", False),  # no qualifier: 0 Vorrundenpunkte
        (8, "Hans", 7, 0, 38, 38, "", False),
    ]
    assert wertung.outsiders == 2


@pytest.mark.django_db
def test_the_gesamtwertung_with_summed_vorrundenpunkte(final_day, cups):
    wertung = gesamtwertung(finale_of(final_day, cups, summed=True))
    assert [(r.name, r.total) for r in wertung.rows[:3]] == [("Anna", 300), ("Bert", 242), ("Emil", 169)]  # 240 + 60, 198 + 44


@pytest.mark.django_db
def test_ranks_past_the_finalpunkte_table_get_nothing(final_day, cups):
    wertung = gesamtwertung(finale_of(final_day, cups, table=[60, 50]))
    assert {r.name: r.finalpunkte for r in wertung.rows} == {
        "Anna": 60, "Gerda": 50, "Emil": 0, "Carl": 0, "Bert": 0, "Franz": 0, "Hans": 0, "Dora": 0,
    }


@pytest.mark.django_db
def test_before_the_day_begins_the_vorrundenpunkte_alone_rank_provisionally(cups, players, make_tournament):
    t = make_tournament(players=0, rounds=3, **FINAL_RULES)
    for name in ("Dora", "Anna", "Emil", "Gerda"):
        services.register(t, players[name])
    services.draw_next_round(t, seed=3)
    wertung = gesamtwertung(finale_of(t, cups))
    assert not wertung.final and not wertung.day_final and not wertung.day_started
    # Anna and Emil level on 120 share rank 1; no day rank, no Finalpunkte yet.
    assert [(r.rank, r.name, r.day_rank, r.finalpunkte, r.total) for r in wertung.rows] == [
        (1, "Anna", None, 0, 120), (1, "Emil", None, 0, 120), (3, "Dora", None, 0, 93), (4, "Gerda", None, 0, 0),
    ]


@pytest.mark.django_db
def test_a_cup_with_a_tournament_to_come_is_provisional(final_day, cups, make_tournament):
    cup_a, _cup_b = cups
    make_tournament(players=0, name="A3", cup=cup_a)
    wertung = gesamtwertung(finale_of(final_day, cups))
    assert wertung.qualifiers.provisional and not wertung.final
    assert wertung.rows[0].total == 180  # what stands now


@pytest.mark.django_db
def test_players_the_day_leaves_level_share_the_rank_until_the_lots(players, make_tournament):
    p = players
    t = make_tournament(players=0, rounds=1, **FINAL_RULES)
    # No lots: Anna and Bert level on +1 share day rank 1, Carl and Dora share day rank 3.
    play_day(t, [p["Anna"], p["Bert"], p["Carl"], p["Dora"]], lots=set())
    wertung = gesamtwertung(finale_of(t, [], table=[60, 55, 50, 45]))
    assert wertung.day_level
    assert [(r.rank, r.name, r.day_rank, r.finalpunkte, r.tiebreak) for r in wertung.rows] == [
        (1, "Anna", 1, 60, ""), (1, "Bert", 1, 60, "level"), (3, "Carl", 3, 50, ""), (3, "Dora", 3, 50, "level"),
    ]
