"""Entering, editing and deleting hands through the score sheet (Django test client)."""

import pytest
from django.urls import reverse

from scoring.models import Hand


def post_hand(client, table, **fields):
    data = {"outcome": "played", "dealer": "3", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


def names(table):
    return [s.registration.player.name for s in table.seats.order_by("position")]


@pytest.mark.django_db
def test_valid_dreier_is_saved_with_its_row(director_client, four_table):
    # koenigrufen.md §1: Dreier won (5) + announced Pagat made (2) = 7; 1 against 3 → 21 / −7.
    response = post_hand(director_client, four_table, contract="dreier", declarer=1, won=1, bonus_pagat="d:a:1")
    assert response.status_code == 302
    hand = Hand.objects.get(table=four_table)
    assert hand.number == 1
    assert hand.scores == [-7, 21, -7, -7]
    assert hand.record["bonuses"] == [{"bonus": "pagat", "team": "declarer", "announced": True, "made": True}]
    sheet = director_client.get(four_table.get_absolute_url()).content.decode()
    assert "21" in sheet and "Dreier" in sheet


@pytest.mark.django_db
def test_rufer_by_vorhand_with_partner(director_client, four_table):
    # Dealer 3 → Vorhand 0. Rufer lost (−1), 2 against 2.
    post_hand(director_client, four_table, contract="rufer", declarer=0, partner=2, won=0)
    assert Hand.objects.get().scores == [-1, 1, -1, 1]


@pytest.mark.django_db
def test_invalid_hand_is_refused_keeps_input_and_names_the_player(director_client, four_table):
    response = post_hand(director_client, four_table, contract="dreier", declarer=1, partner=2, won=1, note="Tisch 1")
    assert response.status_code == 422
    assert not Hand.objects.exists()
    page = response.content.decode()
    assert "partner" in page.lower() or "Partner" in page
    form = response.context["form"]
    assert form.data["contract"] == "dreier" and form.data["note"] == "Tisch 1"
    assert 'value="Tisch 1"' in page


@pytest.mark.django_db
def test_vorhand_only_contract_names_vorhand(director_client, four_table, english):
    response = post_hand(director_client, four_table, contract="rufer", declarer=2, partner=1, won=1)
    assert response.status_code == 422
    vorhand = names(four_table)[0]
    errors = " ".join(response.context["form"].non_field_errors())
    assert "Vorhand" in errors and vorhand in errors


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"outcome": "manual", "score_0": "abc"},
        {"outcome": "manual", "score_0": "99999999999999999999"},
        {"outcome": "played", "contract": "trischaken", "points_0": "x/y"},
        {"outcome": "played", "contract": "nonsense"},
        {"outcome": "played", "contract": "dreier", "declarer": "9", "won": "1"},
        {"outcome": "played", "contract": "dreier", "declarer": "1", "won": "1", "bonus_pagat": "z:z:z"},
        {"dealer": "-1", "contract": "dreier", "declarer": "1"},
    ],
)
def test_garbage_input_is_a_form_error_not_a_server_error(director_client, four_table, fields):
    response = post_hand(director_client, four_table, **fields)
    assert response.status_code == 422
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_manual_row_must_sum_to_zero(director_client, four_table):
    response = post_hand(director_client, four_table, outcome="manual", score_0=5, score_1=-2, score_2=-2, score_3=0)
    assert response.status_code == 422
    assert "+1" in " ".join(response.context["form"].non_field_errors())
    response = post_hand(director_client, four_table, outcome="manual", score_0=5, score_1=-2, score_2=-2, score_3=-1)
    assert response.status_code == 302
    assert Hand.objects.get().scores == [5, -2, -2, -1]


@pytest.mark.django_db
def test_trischaken_card_points_in_p_b_notation(director_client, four_table):
    # §4.2: Vorhand (seat 0) has the most, 35/2 = mayor → pays 12, 4 to each other player.
    # 35/2 + 20/1 + 10 + 4 = 107 + 61 + 30 + 12 thirds = 210 = 70 points.
    response = post_hand(
        director_client, four_table, contract="trischaken", points_0="35/2", points_1="20/1", points_2="10", points_3="4/0"
    )
    assert response.status_code == 302
    assert Hand.objects.get().scores == [-12, 4, 4, 4]


@pytest.mark.django_db
def test_struck_hand_scores_zero_and_needs_a_reason(director_client, four_table):
    response = post_hand(director_client, four_table, outcome="struck")
    assert response.status_code == 422 and "reason" in response.context["form"].errors
    post_hand(director_client, four_table, outcome="struck", note="Zettel unleserlich")
    hand = Hand.objects.get()
    assert hand.scores == [0, 0, 0, 0]
    assert hand.history.first().history_change_reason == "Zettel unleserlich"


@pytest.mark.django_db
def test_anonymous_cannot_enter_hands(client, four_table):
    response = post_hand(client, four_table, contract="dreier", declarer=1, won=1)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_sheet_is_public_but_shows_no_form(client, four_table):
    response = client.get(four_table.get_absolute_url())
    assert response.status_code == 200
    assert response.context["form"] is None


@pytest.mark.django_db
def test_hand_cap_of_the_round(director_client, four_table):
    # Tirol: 16 hands at a 4-table (koenigrufen.md §5).
    for k in range(16):
        dealer = (four_table.first_dealer + k) % 4
        assert post_hand(director_client, four_table, dealer=dealer, outcome="struck", reason="Test").status_code == 302
    response = post_hand(director_client, four_table, outcome="struck", reason="Test")
    assert response.status_code == 422
    assert Hand.objects.count() == 16
    assert response.context["sheet"].complete


@pytest.mark.django_db
def test_edit_rescoring_and_delete_renumbers(director_client, four_table):
    post_hand(director_client, four_table, contract="dreier", declarer=1, won=1)
    post_hand(director_client, four_table, dealer=0, contract="dreier", declarer=2, won=1)
    post_hand(director_client, four_table, dealer=1, contract="dreier", declarer=3, won=0)
    first = Hand.objects.get(number=1)
    edit_url = reverse("entry:hand_edit", args=[first.pk])
    page = director_client.get(edit_url)
    assert page.context["form"].initial["contract"] == "dreier"
    response = director_client.post(edit_url, {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "won": "0"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.scores == [5, -15, 5, 5]
    director_client.post(reverse("entry:hand_delete", args=[first.pk]))
    assert list(Hand.objects.order_by("number").values_list("number", "scores")) == [
        (1, [-5, -5, 15, -5]),
        (2, [5, 5, 5, -15]),
    ]


@pytest.mark.django_db
def test_sheet_shows_next_dealer_and_vorhand(director_client, four_table):
    sheet = director_client.get(four_table.get_absolute_url()).context["sheet"]
    assert (sheet.next_dealer, sheet.next_vorhand) == (3, 0)
    post_hand(director_client, four_table, contract="dreier", declarer=1, won=1)
    sheet = director_client.get(four_table.get_absolute_url()).context["sheet"]
    assert (sheet.next_number, sheet.next_dealer, sheet.next_vorhand) == (2, 0, 1)
    assert sheet.totals == [-5, 15, -5, -5]


@pytest.mark.django_db
def test_trischaken_renonce_needs_no_card_points(director_client, four_table):
    # koenigrufen.md §4.2 step 1: the offender pays 4 to each of the three others.
    response = post_hand(director_client, four_table, contract="trischaken", revoke=2)
    assert response.status_code == 302
    assert Hand.objects.get().scores == [4, 4, -12, 4]


@pytest.mark.django_db
def test_next_dealer_moves_on_from_the_last_hand_after_a_deletion(director_client, four_table):
    for dealer in (3, 0, 1):  # hands 1-3
        post_hand(director_client, four_table, dealer=dealer, outcome="struck", reason="Test")
    director_client.post(reverse("entry:hand_delete", args=[Hand.objects.get(number=1).pk]))
    sheet = director_client.get(four_table.get_absolute_url()).context["sheet"]
    assert [r.dealer for r in sheet.rows] == [0, 1]
    assert (sheet.next_number, sheet.next_dealer) == (3, 2)  # not seat 1 dealing twice in a row


@pytest.mark.django_db
def test_an_empty_manual_row_is_refused(director_client, four_table):
    response = post_hand(director_client, four_table, outcome="manual", score_0=3, score_1=-3)
    assert response.status_code == 422
    assert set(response.context["form"].errors) == {"score_2", "score_3"}
    assert not Hand.objects.exists()
