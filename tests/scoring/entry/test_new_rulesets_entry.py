"""The new games at the score sheet: what a scorer enters for Hungarian Tarokk and Tapp-Tarock
counts as entered — a forgotten partner is asked for, not taken for a lone game; editing a stored
hand by the form keeps every part of it."""

import pytest
from django.urls import reverse

from scoring.models import Hand
from scoring.services import save_hand
from tournaments import services
from variants import InvalidHand, get_ruleset


def table_of(make_tournament, players, ruleset, edition):
    t = make_tournament(players=players, ruleset=ruleset, edition=edition)
    return services.draw_next_round(t, seed=7).tables.get()


def post(client, table, **fields):
    data = {"outcome": "played", "source": "fields", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


def edit_unchanged(client, hand):
    """Open the hand's edit form and save it as the form shows it, by its fields."""
    form = client.get(reverse("entry:hand_edit", args=[hand.pk])).context["form"]
    data = {"source": "fields"}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or value is False:
            continue
        data[name] = "1" if value is True else str(value)
    data.pop("quick", None)
    return client.post(reverse("entry:hand_edit", args=[hand.pk]), data)


@pytest.mark.django_db
def test_hungarian_partner_not_given_is_asked_for_and_nobody_is_a_discarded_call(director_client, make_tournament, english):
    table = table_of(make_tournament, 4, "hungarian-tarokk", "paskievics")
    dealer = table.dealer_of(1, 4)
    hand = dict(dealer=dealer, contract="harom", declarer=1, called="XX", declarer_points=50, kontra=1)
    refused = post(director_client, table, **hand)  # the partner left at "—"
    assert refused.status_code == 422 and not Hand.objects.exists()
    assert "Who held the called tarokk?" in " ".join(refused.context["form"].non_field_errors())
    # hungarian-tarokk.md §1, §3.4: the XX in a discard, kontra on the game, a three won with
    # 50 points: g·2 = 2 for the lone declarer from each of the three: +6 / −2.
    assert post(director_client, table, partner="none", **hand).status_code == 302
    saved = Hand.objects.get()
    assert saved.record["partner"] is None and saved.scores == [-2, 6, -2, -2]


@pytest.mark.django_db
def test_editing_a_hungarian_hand_by_its_fields_keeps_an_announced_dupla_that_failed(director_client, make_tournament):
    table = table_of(make_tournament, 4, "hungarian-tarokk", "paskievics")
    rs = get_ruleset("hungarian-tarokk")
    dealer = table.dealer_of(1, 4)
    # PAG's example (hungarian-tarokk.md §2) with the dupla's failure written out: row [12, −12, −12, 12].
    record = rs.parse_hand("2 2 3 52 xx k du!k-", 4, dealer)
    assert record["bonuses"][0]["made"] is False
    hand = save_hand(table, record)
    assert hand.scores == [12, -12, -12, 12]
    assert edit_unchanged(director_client, hand).status_code == 302
    hand.refresh_from_db()
    assert hand.scores == [12, -12, -12, 12] and hand.record["bonuses"][0]["bonus"] == "dupla"


@pytest.mark.django_db
def test_editing_a_tapp_hand_written_with_zero_blatt_keeps_its_points(director_client, make_tournament):
    table = table_of(make_tournament, 3, "tapp-tarock", "klassik")
    dealer = table.dealer_of(1, 3)
    # tapp-tarock.md §1: "36", 36 and "36/0" are the same; a Dreier with 36 wins 3 from each.
    hand = save_hand(table, {"dealer": dealer, "contract": "dreier", "declarer": 0, "declarer_points": "36/0", "won": True})
    assert hand.scores == [6, -3, -3]
    assert edit_unchanged(director_client, hand).status_code == 302
    hand.refresh_from_db()
    assert hand.record["declarer_points"] == 36 and hand.scores == [6, -3, -3]


def test_a_zero_in_the_partners_place_is_a_seat_error_where_nobody_is_not_written_out():
    rs = get_ruleset("wiener-tarockcup")
    with pytest.raises(InvalidHand, match="no seat 0"):
        rs.parse_hand("r 2 0 -", 4, 0)
