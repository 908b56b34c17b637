"""Ichenheim Cego tournaments through the web layer (cego-ichenheim.md, tournament-formats.md)."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.demo import CEGO_DEMO, build_demo
from scoring.models import Hand
from scoring.services import end_table
from tournaments import services
from tournaments.models import Player, Tournament


def create(client, players=0, options=()):
    data = {"name": "Dreikönigsturnier", "date": "2027-01-06", "venue": "Gasthaus Hechten",
            "ruleset_edition": "cego-ichenheim|ichenheim", "rounds": "", "hands_per_round": "",
            "status": "planned", "ruleset_options": [f"cego-ichenheim|ichenheim:{o}" for o in options]}
    assert client.post(reverse("tournaments_director:create"), data).status_code == 302
    t = Tournament.objects.get(name="Dreikönigsturnier")
    for i in range(players):
        services.register(t, Player.objects.create(name=f"Cego {i:02d}", club="Ichenheim"))
    return t


def post_hand(client, table, **fields):
    data = {"outcome": "played", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


@pytest.mark.django_db
def test_two_sessions_of_24_hands_and_options_off_by_default(director_client):
    t = create(director_client)
    assert (t.rounds, t.hands_per_round, t.options) == (2, 24, {"piccolo": False, "bettel": False, "raeuber": False})
    assert (t.hands_for_table(3), t.hands_for_table(4)) == (24, 24)
    assert "piccolo" not in {c.key for c in t.get_ruleset().contracts}


@pytest.mark.django_db
def test_options_chosen_at_creation_enable_contracts(director_client):
    t = create(director_client, options=("piccolo", "bettel"))
    assert t.options == {"piccolo": True, "bettel": True, "raeuber": False}
    assert {"piccolo", "bettel"} <= {c.key for c in t.get_ruleset().contracts}


@pytest.mark.django_db
@pytest.mark.parametrize("players,sizes", [(31, [4] + [3] * 9), (10, [4, 3, 3]), (11, [4, 4, 3]), (9, [3, 3, 3])])
def test_tables_of_three_and_at_most_two_of_four(director_client, players, sizes):
    t = create(director_client, players)
    rnd = services.draw_next_round(t, seed=6)
    got = sorted((tb.seats.count() for tb in rnd.tables.all()), reverse=True)
    assert got == sizes
    for table in rnd.tables.all():
        # tournament-formats.md §2: the highest card deals first, the others follow by strength.
        cards = list(table.seats.order_by("position").values_list("card", flat=True))
        assert cards == ["gstiess", "21", "20", "19"][: len(cards)]
        assert table.first_dealer == 0


@pytest.mark.django_db
def test_five_players_cannot_be_seated(director_client, english):
    t = create(director_client, 5)
    with pytest.raises(services.DrawRefused) as refused:
        services.draw_next_round(t, seed=1)
    assert "4 or 6" in str(refused.value.message)


@pytest.mark.django_db
def test_the_sitting_out_dealer_of_a_four_table_pays(director_client):
    t = create(director_client, 4)
    table = services.draw_next_round(t, seed=2).tables.get()
    # cego-ichenheim.md §3 example: Eine Leere, p = 48 → B 3, V 9: declarer +27, the two defenders
    # and the sitting-out dealer (seat 0 deals hand 1) −9 each.
    response = post_hand(director_client, table, dealer=0, contract="eine_leere", declarer=2, declarer_points=48)
    assert response.status_code == 302
    assert Hand.objects.get().scores == [-9, -9, 27, -9]


@pytest.mark.django_db
def test_cego_only_by_vorhand_unless_against_a_solo(director_client, english):
    t = create(director_client, 3)
    table = services.draw_next_round(t, seed=2).tables.get()
    response = post_hand(director_client, table, dealer=0, contract="cego", declarer=2, declarer_points=28)
    assert response.status_code == 422
    assert "Vorhand" in " ".join(response.context["form"].non_field_errors())
    # against a Solo: factor 1 + 1; p = 28 → B 2 → V 4, lost: declarer −8, the others +4
    response = post_hand(director_client, table, dealer=0, contract="cego", declarer=2, declarer_points=28, against_solo="on")
    assert response.status_code == 302
    assert Hand.objects.get().scores == [4, 4, -8]


@pytest.mark.django_db
def test_sheet_marks_buergermeister_and_durchgegangen(director_client, english):
    t = create(director_client, 3)
    table = services.draw_next_round(t, seed=2).tables.get()
    post_hand(director_client, table, dealer=0, contract="cego", declarer=1, declarer_points=35)
    post_hand(director_client, table, dealer=1, contract="solo", declarer=0, declarer_points=0)
    labels = [r.label for r in director_client.get(table.get_absolute_url()).context["sheet"].rows]
    assert "Bürgermeister" in labels[0] and "lost" in labels[0]
    assert "durchgegangen" in labels[1]
    assert Hand.objects.get(number=2).scores == [-16, 8, 8]  # Solo, p = 0 → B 8, factor 1


@pytest.mark.django_db
def test_ties_share_the_rank_until_the_card_draw(director_client, english):
    t = create(director_client, 3)
    t.rounds = 1
    t.save()
    table = services.draw_next_round(t, seed=2).tables.get()
    post_hand(director_client, table, dealer=0, contract="cego", declarer=1, declarer_points=36)  # [-1, 2, -1]
    end_table(table)  # the last round is over: the final standings, where card draws count
    rows = director_client.get(f"/t/{t.pk}/standings/").context["standings"].rows
    assert [r.rank for r in rows] == [1, 2, 2] and rows[2].shared
    level = [r.entry.key for r in rows[1:]]
    director_client.post(f"/manage/t/{t.pk}/lots/", {f"lot_{level[0]}": "2", f"lot_{level[1]}": "1"})
    rows = Client().get(f"/t/{t.pk}/standings/").context["standings"].rows
    assert [r.rank for r in rows] == [1, 2, 3]
    assert rows[1].entry.key == level[1] and "card draw" in rows[2].tiebreak


@pytest.mark.django_db
def test_cego_demo_is_complete_and_valid(db):
    t = build_demo(CEGO_DEMO)
    rs = t.get_ruleset()
    assert (t.registrations.count(), t.round_set.count()) == (31, 2)
    for rnd in t.round_set.all():
        assert sorted(tb.seats.count() for tb in rnd.tables.all()) == [3] * 9 + [4]
        assert all(tb.hands.count() == 24 for tb in rnd.tables.all())
    hands = list(Hand.objects.filter(table__round__tournament=t))
    assert len(hands) == 2 * 10 * 24
    for hand in hands:
        assert rs.score(hand.record, len(hand.scores)) == hand.scores
        assert sum(hand.scores) == 0


@pytest.mark.django_db
def test_cego_exports(client, english):
    from io import BytesIO

    from openpyxl import load_workbook

    t = build_demo(CEGO_DEMO)
    wb = load_workbook(BytesIO(client.get(f"/t/{t.pk}/standings.xlsx").content))
    assert wb.sheetnames == ["Standings", "Round 1", "Round 1 hands", "Round 2", "Round 2 hands"]
    standings = list(wb["Standings"].iter_rows(values_only=True))
    assert len(standings) == 32 and sum(r[6] for r in standings[1:]) == 0  # zero-sum: totals add to 0
    # long format: 2 sessions × (nine 3-tables × 3 + one 4-table × 4 players) × 24 hands
    hands = load_workbook(BytesIO(client.get(f"/t/{t.pk}/hands.xlsx").content))["Hands"]
    assert hands.max_row - 1 == 2 * (9 * 3 + 4) * 24
    pdf = client.get(f"/t/{t.pk}/standings.pdf").content
    assert pdf.startswith(b"%PDF")
