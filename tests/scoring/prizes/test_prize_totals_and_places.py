"""The prize list shows what is really paid out: the pool's shares of the prize money plus the
fixed amounts paid besides it (the best hand, the last place), their sum the total; the best-hand
prize has no place (its hand's points stand in a column of their own); the PDF keeps each amount
on one line; the prize-giving names each revealed prize by its place, not by the order of
revealing. Every amount below is worked out by hand."""

import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.prizes.award import BestHand, Category, Fund, Placed, award, prize_list
from scoring.prizes.models import PrizeCategory, PrizeFund
from scoring.services import end_table, save_hand
from tournaments import services

D = Decimal
# A 1, B and C level on 2, D 4, E 5, F 6 (as in test_prizes.py).
ROWS = [
    Placed(1, "A", 1, 50), Placed(2, "B", 2, 40), Placed(3, "C", 2, 40),
    Placed(4, "D", 4, 30), Placed(5, "E", 5, -10), Placed(6, "F", 6, -20),
]
FUND = Fund(entry_fee=D(10), payout_percent=D(100))  # 6 entries × 10 € × 100 % = 60.00 prize money
HANDS = [BestHand(1, "A", 12, "R1 T1 #3"), BestHand(4, "D", 12, "R2 T5 #9"), BestHand(2, "B", 9)]
CATEGORIES = [
    Category("places", "Hauptpreise", places=3, shares=(D(50), D(30), D(20))),
    Category("best_hand", "Bestes Spiel", amount=D(15)),
    Category("last", "Mauskönig", amount=D(10)),
]


def test_fixed_prizes_are_paid_besides_the_pool_and_the_total_says_so():
    prizes = award(ROWS, CATEGORIES, FUND, best_hands=HANDS)
    # The pool: 50 % of 60 = 30.00 for A; B and C share places 2–3: (30 % + 20 %) of 60 = 30.00.
    # Besides: the best hand 15.00 (A and D, 7.50 each) and the last place 10.00 (F).
    assert prizes.prize_money == D("60.00")
    assert prizes.from_pool == D("60.00") and prizes.rest == D("0.00")
    assert prizes.fixed == D("25.00")
    assert prizes.paid == D("85.00") == prizes.from_pool + prizes.fixed


def test_a_place_with_a_fixed_amount_counts_it_as_fixed_not_as_the_pool():
    # One place, 50 % of 60 = 30.00 from the pool plus a fixed 20.00 trophy money: 50.00 for A.
    prizes = award(ROWS, [Category("places", "Sieg", places=1, shares=(D(50),), amount=D(20))], FUND)
    assert [a.amount for a in prizes.awards] == [D("50.00")]
    assert (prizes.from_pool, prizes.fixed, prizes.paid, prizes.rest) == (D("30.00"), D("20.00"), D("50.00"), D("30.00"))


def test_the_best_hand_prize_has_no_place_and_carries_the_hands_points():
    prizes = award(ROWS, CATEGORIES, FUND, best_hands=HANDS)
    best = [a for a in prizes.awards if a.kind == "best_hand"][0]
    assert (best.place, best.points, best.names, best.amount) == ("", 12, ["A", "D"], D("7.50"))
    assert all(a.points is None for a in prizes.awards if a.kind != "best_hand")
    assert prizes.has_points


# koenigrufen.md §1: a Rufer won by seat 1 with partner seat 3: +1 for seats 1 and 3, −1 for 0 and 2.
RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def day(make_tournament):
    """One round, one table, one hand (seats 1 and 3 +1, seats 0 and 2 −1), the lots drawn; 4
    entries × 20 € = 80.00 prize money; places 60/40, the best hand 10 €, the last place 5 €."""
    from tournaments.registration.register import record_lots

    t = make_tournament(players=4, rounds=1)
    table = services.draw_next_round(t, seed=7).tables.get()
    save_hand(table, RUFER_1_3_WON)
    end_table(table)
    seats = {s.position: s.registration for s in table.seats.select_related("registration__player")}
    record_lots(t, {seats[1]: 1, seats[3]: 2, seats[0]: 1, seats[2]: 2})
    PrizeFund.objects.create(tournament=t, entry_fee=D(20), payout_percent=D(100))
    PrizeCategory.objects.create(tournament=t, order=1, kind="places", name="Hauptpreise", places=2, shares="60 40")
    PrizeCategory.objects.create(tournament=t, order=2, kind="best_hand", name="Bestes Spiel", amount=D(10))
    PrizeCategory.objects.create(tournament=t, order=3, kind="last", name="Mauskönig", amount=D(5))
    return t, seats


@pytest.mark.django_db
def test_the_prize_list_page_shows_the_real_total_and_the_best_hands_points(day, english):
    t, seats = day
    prizes = prize_list(t)
    # The pool: 60 % and 40 % of 80 = 48.00 + 32.00; besides: the best hand (+1, seats 1 and 3:
    # 5.00 each) 10.00 and the last place 5.00: 15.00; in all 95.00.
    assert (prizes.from_pool, prizes.fixed, prizes.paid) == (D("80.00"), D("15.00"), D("95.00"))
    page = Client().get(reverse("prizes:list", args=[t.pk])).content.decode()
    assert "Paid out: 80.00 € from the prize money + 15.00 € fixed prizes besides = 95.00 €" in page
    assert '<th class="num">Points</th>' in page
    row = re.search(r"<tr[^>]*><td>Bestes Spiel</td>(.*?)</tr>", page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert cells[0] == ""  # the place: none
    assert cells[2] == "1"  # the points: the hand's +1
    assert cells[3].startswith("5.00 €")


@pytest.mark.django_db
def test_the_prize_pdf_keeps_each_amount_on_one_line(make_tournament, english):
    """Long names and goods make the PDF's columns narrow: "12.50 € each" still reads on one line."""
    t = make_tournament(players=8, rounds=1)
    for i, reg in enumerate(t.registrations.select_related("player")):
        reg.player.name = f"Maximiliane Kaltenbrunner-Vogelsang {i}"
        reg.player.save()
    PrizeFund.objects.create(tournament=t, entry_fee=D("12.50"), payout_percent=D(100))
    PrizeCategory.objects.create(tournament=t, order=1, kind="places", name="Hauptpreise der Tiroler Landesmeisterschaft", places=8,
                                 shares="12.5 12.5 12.5 12.5 12.5 12.5 12.5 12.5",
                                 description="Ein Geschenkkorb mit Speck, Käse und Schnaps aus dem Oberland und eine Urkunde")
    # Nobody has played: all 8 level on place 1 share 100 % of 100.00: 12.50 each.
    response = Client().get(reverse("exports:export", args=[t.pk, "prizes"]))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "12.50 € each" in text.replace("\u00a0", " ")


@pytest.mark.django_db
def test_the_prize_giving_names_the_revealed_prizes_by_place_not_by_reveal_order(day, english):
    t, _seats = day
    page = Client().get(reverse("live:screen", args=[t.pk]) + "?mode=prizes").content.decode()
    assert '<ol class="prize-shown"' not in page and '<ul class="prize-shown" data-prize-shown>' in page
    headings = re.findall(r'<p class="prize-category">(.*?)</p>', page)
    # Revealed: the best hand, the last place, then the places from the last to the first.
    assert headings == ["Bestes Spiel", "Mauskönig · place 4", "Hauptpreise · place 2", "Hauptpreise · place 1"]
    assert "a hand of 1 point" in page


def test_a_best_hand_two_players_made_together_is_named_once():
    # One Rufer won by A with D: +12 each; the note names the hand once, not once per player.
    hands = [BestHand(1, "A", 12, "R1 T1 #3: Rufer"), BestHand(4, "D", 12, "R1 T1 #3: Rufer")]
    prizes = award(ROWS, [Category("best_hand", "Bestes Spiel", amount=D(10))], Fund(), best_hands=hands)
    assert prizes.awards[0].note == "R1 T1 #3: Rufer" and prizes.awards[0].names == ["A", "D"]
