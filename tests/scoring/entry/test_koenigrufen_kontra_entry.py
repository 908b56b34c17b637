"""Kontras in Königrufen through the sheet: the line and the form save them, the hand's words say
them, the Schrift ignores them, the kontra pot counts them and the statistics name who said most.

Rule text: ``../shared/rules/koenigrufen.md`` §1 "Tournament score = Schrift" (Kontra ×2, Re ×4,
Sub ×8 never count for the tournament); ``hand-record.md`` "kontra" (``0..4``, Mord ×16 too: the
field may be recorded in Königrufen), "kontra_by". Rows by hand
(§1, §4): a Dreier is worth 5, an announced Pagat 2; one against three, the declarer ``3n``. The
tournament is a Tiroler Tarockcup of four at one table, dealer seat 4, so Vorhand is seat 1.
"""

from decimal import Decimal as D

import pytest
from django.urls import reverse

from scoring.live.statistics import day_statistics
from scoring.models import Hand
from scoring.prizes.award import kontra_calls, prize_list
from scoring.prizes.models import PrizeFund
from scoring.services import build_sheet, end_table, save_hand
from tournaments.models import Tournament

PAGAT = {"bonus": "pagat", "team": "declarer", "announced": True, "made": True}


def post(client, table, **fields):
    data = {"outcome": "played", "dealer": "3", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


def names(table):
    return [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]


@pytest.mark.django_db
def test_the_line_saves_rekontra_who_said_kontra_and_a_kontrad_pagat_and_the_row_stays(director_client, four_table, english):
    # §1, §4: Dreier 5 + announced Pagat 2 = 7 per opponent, whatever was kontra'd.
    response = post(director_client, four_table, quick="d 2 + re pag!k k3", source="line")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.scores == [-7, 21, -7, -7]
    assert hand.record == {
        "dealer": 3, "contract": "dreier", "declarer": 1, "won": True, "kontra": 2, "kontra_by": 2,
        "bonuses": [{**PAGAT, "kontra": 1}],
    }
    # The sheet says it in words, with the name of who said the Kontra.
    label = build_sheet(four_table).rows[0].label
    assert "rekontra" in label and f"kontra by {names(four_table)[2]}" in label and "Pagat announced kontra" in label
    # The line prints back as typed.
    page = director_client.get(reverse("entry:hand_edit", args=[hand.pk]))
    assert page.status_code == 200 and 'value="d 2 + re pag!k k3"' in page.content.decode()


@pytest.mark.django_db
def test_the_form_has_the_kontra_fields_and_saves_them(director_client, four_table, english):
    page = director_client.get(four_table.get_absolute_url()).content.decode()
    for name in ("kontra", "kontra_by", "bonus_kontra_pagat"):
        assert f'name="{name}"' in page, name
    assert "subkontra ×8" in page and "mordkontra ×16" in page  # Mord is the highest (hand-record.md 0..4)
    response = post(director_client, four_table, source="fields", contract="dreier", declarer=1, won=1,
                    kontra=1, kontra_by=0, bonus_pagat="d:a:1")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.record["kontra"], hand.record["kontra_by"]) == (1, 0)
    assert hand.scores == [-7, 21, -7, -7]  # the Schrift without the kontra


@pytest.mark.django_db
def test_kontras_that_cannot_be_are_refused_by_name_and_nothing_is_saved(director_client, four_table, english):
    cases = [
        ("d 2 + k2", "plays on the declarer&#x27;s side: kontra is said by an opponent."),
        ("d 2 + k k3", "“k”: “k3” records the Kontra already: leave it out."),
        ("t 30 20 12 8 k", "“k” is not allowed in a Trischaken."),
    ]
    for line, message in cases:
        response = post(director_client, four_table, quick=line, source="line")
        assert response.status_code == 422, line
        assert message in response.content.decode(), line
    # The fields: who said kontra is a defender; the declarer is refused.
    response = post(director_client, four_table, source="fields", contract="dreier", declarer=1, won=1, kontra=1, kontra_by=1)
    assert response.status_code == 422
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_the_line_reads_who_said_the_kontra_alone_as_a_kontra(director_client, four_table, english):
    # hand-record.md "kontra_by": "k3" alone is a Kontra (level 1) said by seat 3, as a Klop's "k2"
    # is a kontra; the Schrift is the Dreier's 5 per opponent without it (§1).
    response = post(director_client, four_table, quick="d 2 + k3", source="line")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.record["kontra"], hand.record["kontra_by"]) == (1, 2)
    assert hand.scores == [-5, 15, -5, -5]
    page = director_client.get(reverse("entry:hand_edit", args=[hand.pk]))
    assert 'value="d 2 + k3"' in page.content.decode()  # prints back to a line that reads the same


@pytest.mark.django_db
def test_a_mord_is_saved_by_line_and_by_form_and_never_scored(director_client, four_table, english):
    # hand-record.md "kontra" 4 (mort ×16), Königrufen's Mord: recorded, the Schrift without it.
    response = post(director_client, four_table, quick="d 2 + mort", source="line")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.record["kontra"] == 4 and hand.scores == [-5, 15, -5, -5]
    assert "mordkontra" in build_sheet(four_table).rows[0].label
    hand.delete()
    response = post(director_client, four_table, source="fields", contract="dreier", declarer=1, won=1, kontra=4, kontra_by=3)
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.record["kontra"], hand.record["kontra_by"], hand.scores) == (4, 3, [-5, 15, -5, -5])


@pytest.mark.django_db
def test_the_form_never_saves_who_said_kontra_without_a_level(director_client, four_table, english):
    # "Kontra by" with "—" on the game: refused by name until the form fills in a Kontra as the
    # line does ("k3"); either way no record names who said kontra at level 0.
    response = post(director_client, four_table, source="fields", contract="dreier", declarer=1, won=1, kontra=0, kontra_by=2)
    if response.status_code == 302:
        assert (Hand.objects.get().record["kontra"], Hand.objects.get().record["kontra_by"]) == (1, 2)
    else:
        assert response.status_code == 422
        assert "Who said kontra is recorded with the kontra on the game: enter its level too." in response.content.decode()
        assert not Hand.objects.exists()


@pytest.fixture
def kontra_day(make_tournament, english):
    """One round at one table of four with kontras of every kind, ended."""
    from tournaments import services

    t = make_tournament(players=4, rounds=1)
    table = services.draw_next_round(t, seed=7).tables.get()
    hands = [
        # kontra (1 call) said by seat 2: [-5, 15, -5, -5]
        {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True, "kontra": 1, "kontra_by": 2},
        # rekontra (2 calls) on the game, kontra said by seat 2 again; the Pagat kontra'd (1 call)
        {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "kontra": 2, "kontra_by": 2, "bonuses": [{**PAGAT, "kontra": 1}]},
        # sub (3 calls) said by seat 0 (Vorhand seat 3 declares a Dreier): [-5, -5, -5, 15]
        {"dealer": 2, "contract": "dreier", "declarer": 3, "won": True, "kontra": 3, "kontra_by": 0},
        # a kontra on the opponents' Uhu only (1 call), nobody named
        {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2, "won": True,
         "bonuses": [{"bonus": "uhu", "team": "opponents", "announced": True, "made": False, "kontra": 1}]},
        # struck: counts nothing
        {"dealer": 0, "outcome": "struck", "note": "misdealt"},
    ]
    for record in hands:
        save_hand(table, record)
    end_table(table)
    return Tournament.objects.get(pk=t.pk), table


@pytest.mark.django_db
def test_the_schrift_of_a_kontra_day_is_the_rows_without_kontras(kontra_day):
    _t, table = kontra_day
    # §1: Dreier ±5/15 three times (the second + Pagat 2 = 7); the Rufer 1 + Uhu 4 (the opponents
    # announced it and failed: + for the declarer's side) = 5, two against two.
    assert [h.scores for h in table.hands.order_by("number")] == [
        [-5, 15, -5, -5], [-7, 21, -7, -7], [-5, -5, -5, 15], [5, -5, 5, -5], [0, 0, 0, 0],
    ]


@pytest.mark.django_db
def test_the_kontra_pot_counts_each_level_once(kontra_day):
    t, table = kontra_day
    records = list(table.hands.values_list("record", flat=True))
    # 1 + (2 + 1) + 3 + 1 = 8 calls: each level once; who said the Kontra adds no call of its own
    # (only a Klop's kontra_by, which has no level, is a call).
    assert kontra_calls(records) == 8
    PrizeFund.objects.create(tournament=t, entry_fee=D(20), payout_percent=D(100), kontra_amount=D("0.50"))
    prizes = prize_list(Tournament.objects.get(pk=t.pk))
    assert (prizes.kontras, prizes.kontra_pot) == (8, D("4.00"))


@pytest.mark.django_db
def test_most_kontras_names_who_said_the_kontra(kontra_day):
    t, table = kontra_day
    stats = day_statistics(t)
    assert stats.kontra_hands == 4  # the Uhu's kontra makes a hand with a kontra too
    seat2 = table.seats.select_related("registration__player").get(position=2).registration
    assert [(k.label, k.count, k.registration_id) for k in stats.kontras] == [(seat2.player.name, 2, seat2.pk)]
