"""Prizes: places with shares of the prize money, ties shared, group prizes, every
player in plus, the last place, the best hand, the kontra pot; the director's settings page, the
public list, its PDF and the archive. Every amount below is worked out by hand."""

import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.prizes.award import BestHand, Category, Fund, Placed, award, kontra_calls, parse_shares, prize_list
from scoring.prizes.models import PrizeCategory, PrizeFund
from scoring.services import end_table, save_hand
from tournaments import services
from tournaments.models import ActionLog
from tournaments.registration.register import record_lots

D = Decimal
# A 1, B and C level on 2 (shared after every tie-break), D 4, E 5, F 6.
ROWS = [
    Placed(1, "A", 1, 50), Placed(2, "B", 2, 40), Placed(3, "C", 2, 40),
    Placed(4, "D", 4, 30), Placed(5, "E", 5, -10), Placed(6, "F", 6, -20),
]
FUND = Fund(entry_fee=D(10), payout_percent=D(100))  # 6 entries: 60.00 prize money


def money(prizes):
    return [(a.place, a.names, a.amount, a.shared) for a in prizes.awards]


def test_places_share_the_prize_money_and_level_players_share_their_places():
    prizes = award(ROWS, [Category("places", "Hauptpreise", places=3, shares=(D(50), D(30), D(20)))], FUND)
    # 50 % of 60 = 30 for A; B and C occupy places 2 and 3: (30 % + 20 %) of 60 = 30, 15 each.
    assert money(prizes) == [("1", ["A"], D("30.00"), False), ("2–3", ["B", "C"], D("15.00"), True)]
    assert prizes.entries == 6 and prizes.prize_money == D("60.00") and prizes.rest == 0
    assert prizes.level is True


def test_a_tie_across_the_last_paid_place_shares_what_is_left_of_it():
    prizes = award(ROWS, [Category("places", "Preise", places=2, shares=(D(50), D(30)))], FUND)
    # B and C occupy places 2–3 of which only 2 is paid: 30 % of 60 = 18, 9 each; 12 not given.
    assert money(prizes) == [("1", ["A"], D("30.00"), False), ("2–3", ["B", "C"], D("9.00"), True)]
    assert prizes.rest == D("12.00")


def test_a_split_rounds_down_to_the_cent_and_shows_the_rest():
    rows = [Placed(1, "A", 1, 5), Placed(2, "B", 1, 5), Placed(3, "C", 1, 5)]
    prizes = award(rows, [Category("places", "Sieg", places=1, shares=(D(100),))], Fund(entry_fee=D("10"), payout_percent=D(100)))
    # 30.00 for place 1, three level players: 10.00 each, nothing left; with 10 € it is 3.33 each.
    assert money(prizes) == [("1–3", ["A", "B", "C"], D("10.00"), True)]
    prizes = award(rows, [Category("places", "Sieg", places=1, amount=D(10))], Fund())
    assert prizes.awards[0].amount == D("3.33")


def test_a_player_wins_one_place_or_group_prize_and_the_next_of_the_group_gets_it():
    ladies = frozenset({1, 3, 5})  # A, C, E
    prizes = award(ROWS, [
        Category("places", "Hauptpreise", places=3, shares=(D(50), D(30), D(20))),
        Category("group", "Damen", places=1, amount=D(20), members=ladies),
    ], FUND)
    # A and C won places: the ladies' prize goes to E.
    assert [(a.category, a.names, a.amount) for a in prizes.awards][-1] == ("Damen", ["E"], D("20.00"))


def test_a_group_by_club_ignores_case_and_spaces():
    rows = [Placed(1, "A", 1, 5, club="Imst"), Placed(2, "B", 2, 3, club="Absam"), Placed(3, "C", 3, 1, club="absam")]
    prizes = award(rows, [Category("group", "Bester Absamer", places=1, club=" ABSAM ", description="Speckplatte")], Fund())
    assert [(a.names, a.amount, a.description) for a in prizes.awards] == [(["B"], None, "Speckplatte")]


def test_every_player_in_plus_and_the_last_place_besides_their_place_prizes():
    rows = ROWS + [Placed(7, "G", 6, -20)]  # F and G level last
    prizes = award(rows, [
        Category("places", "Sieg", places=1, amount=D(50)),
        Category("plus", "Gute", amount=D(5)),
        Category("last", "Mauskönig", amount=D(15), description="Maus"),
    ], Fund())
    plus = [a.names[0] for a in prizes.awards if a.kind == "plus"]
    assert plus == ["A", "B", "C", "D"]  # totals above 0; A has his place prize too
    last = [a for a in prizes.awards if a.kind == "last"][0]
    assert (last.names, last.amount, last.shared) == (["F", "G"], D("7.50"), True)


def test_the_last_place_passes_over_a_withdrawn_player():
    rows = ROWS[:5] + [Placed(6, "F", 6, -20, withdrawn=True)]
    prizes = award(rows, [Category("last", "Mauskönig")], Fund())
    assert prizes.awards[0].names == ["E"]


def test_the_best_hand_is_shared_by_level_hands():
    hands = [BestHand(1, "A", 12, "R1 T1 #3"), BestHand(4, "D", 12, "R2 T5 #9"), BestHand(2, "B", 9)]
    prizes = award(ROWS, [Category("best_hand", "Bestes Spiel", amount=D(15))], Fund(), best_hands=hands)
    assert money(prizes) == [("", ["A", "D"], D("7.50"), True)] and prizes.awards[0].points == 12  # no place; the hand's points
    assert prizes.awards[0].note == "R1 T1 #3; R2 T5 #9"


def test_kontra_calls_count_each_level_on_the_game_the_klop_and_the_bonuses():
    records = [
        {"contract": "rufer", "kontra": 2},  # kontra and re: 2
        {"contract": "klop", "kontra_by": 1},  # 1
        {"contract": "trojka", "bonuses": [{"bonus": "pagat", "kontra": 1}, {"bonus": "trula", "kontra": 3}]},  # 4
        {"contract": "rufer", "kontra": 1, "outcome": "struck"},  # struck: 0
        {"contract": "rufer"},
    ]
    assert kontra_calls(records) == 7
    prizes = award(ROWS, [], Fund(kontra_amount=D("0.50")), kontras=7)
    assert prizes.kontra_pot == D("3.50")


def test_shares_read_as_written_or_are_refused_naming_the_token():
    assert parse_shares("30 20,5;10") == (D(30), D("20.5"), D(10))
    with pytest.raises(ValueError, match="zwanzig"):
        parse_shares("30 zwanzig")
    with pytest.raises(ValueError, match="0"):
        parse_shares("30 0")
    with pytest.raises(ValueError, match="110"):
        parse_shares("60 50")


def test_the_ceremony_reveals_the_other_prizes_then_the_places_from_the_last():
    prizes = award(ROWS, [Category("places", "P", places=3, shares=(D(50), D(30), D(20))), Category("last", "Maus")], FUND)
    assert [a.place for a in prizes.ceremony_order()] == ["6", "2–3", "1"]


# ----------------------------------------------------------------------------- in the database

# koenigrufen.md §1: a Rufer won by seat 1 with partner seat 3: +1 for seats 1 and 3, −1 for 0 and 2.
RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def tied_final(make_tournament):
    """One round, one table, one hand: two players level on +1, two on −1; the final standings
    leave them level until the lots are recorded."""
    t = make_tournament(players=4, rounds=1)
    table = services.draw_next_round(t, seed=7).tables.get()
    save_hand(table, RUFER_1_3_WON)
    end_table(table)
    PrizeFund.objects.create(tournament=t, entry_fee=D(20), payout_percent=D(100), kontra_amount=D(1))
    PrizeCategory.objects.create(tournament=t, order=1, kind="places", name="Hauptpreise", places=2, shares="60 40")
    seats = {s.position: s.registration for s in table.seats.select_related("registration__player")}
    return t, seats


@pytest.mark.django_db
def test_a_tied_final_place_shares_the_prize_until_the_lots_are_drawn(tied_final):
    t, seats = tied_final
    prizes = prize_list(t)
    # 4 × 20 = 80; seats 1 and 3 level on place 1 share places 1–2: 100 % of 80, 40 each.
    assert prizes.final and prizes.level
    assert money(prizes) == [("1–2", sorted([seats[1].player.name, seats[3].player.name]), D("40.00"), True)]
    record_lots(t, {seats[1]: 2, seats[3]: 1})  # seat 3 drew the better lot
    prizes = prize_list(t)
    assert money(prizes) == [("1", [seats[3].player.name], D("48.00"), False), ("2", [seats[1].player.name], D("32.00"), False)]


@pytest.mark.django_db
def test_the_prize_list_page_and_pdf_show_the_winners_and_money(tied_final, english):
    t, seats = tied_final
    page = Client().get(reverse("prizes:list", args=[t.pk])).content.decode()
    assert seats[1].player.name in page and "40.00 €" in page and "shared" in page
    assert "4 entries: 80.00 € prize money" in page
    response = Client().get(reverse("exports:export", args=[t.pk, "prizes"]))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert seats[3].player.name in text and "40.00" in text


def settings_post(**changes):
    data = {
        "fund-entry_fee": "15", "fund-payout_percent": "90", "fund-kontra_amount": "0.20", "fund-currency": "€",
        "cat-TOTAL_FORMS": "1", "cat-INITIAL_FORMS": "0", "cat-MIN_NUM_FORMS": "0", "cat-MAX_NUM_FORMS": "1000",
        "cat-0-order": "1", "cat-0-kind": "places", "cat-0-name": "Hauptpreise", "cat-0-places": "3",
        "cat-0-shares": "50 30 20", "cat-0-amount": "", "cat-0-description": "Pokal", "cat-0-club": "",
        "seen": "0",  # no change of the prizes yet when the page was shown
    }
    data.update(changes)
    return data


@pytest.mark.django_db
def test_the_director_sets_the_prizes_and_a_second_click_adds_nothing(make_tournament, director_client, english):
    t = make_tournament(players=8)
    url = reverse("prizes_director:settings", args=[t.pk])
    assert director_client.post(url, settings_post()).status_code == 302
    assert director_client.post(url, settings_post()).status_code == 302  # the same form again
    assert list(t.prize_categories.values_list("name", "shares", "description")) == [("Hauptpreise", "50 30 20", "Pokal")]
    assert PrizeFund.objects.get(tournament=t).entry_fee == D(15)
    assert ActionLog.objects.filter(tournament=t, action="prizes_changed").exists()
    # 8 × 15 × 90 % = 108.00; before a hand is played all 8 are level on place 1 and share the
    # three places: 108.00 / 8 = 13.50 each, provisional.
    prizes = prize_list(t)
    assert [(a.place, a.amount) for a in prizes.awards] == [("1–8", D("13.50"))] and not prizes.final


@pytest.mark.django_db
def test_refused_prize_settings_name_the_field_and_keep_what_was_typed(make_tournament, director_client, english):
    t = make_tournament(players=8)
    url = reverse("prizes_director:settings", args=[t.pk])
    response = director_client.post(url, settings_post(**{"cat-0-shares": "50 dreißig", "cat-0-kind": "group", "cat-0-name": "Damenwertung"}))
    page = response.content.decode()
    assert response.status_code == 422
    assert "“dreißig” is not a share" in page and "needs its club or its ticked members" in page
    assert 'value="Damenwertung"' in page and 'value="50 dreißig"' in page
    assert not t.prize_categories.exists() and not PrizeFund.objects.filter(tournament=t).exists()


@pytest.mark.django_db
def test_a_scorer_cannot_change_the_prizes(make_tournament, director):
    from tournaments.roles import give_role

    t = make_tournament(players=8)
    get_user_model().objects.create_user("schreiber", password="x-123-geheim")
    give_role(t, "schreiber", "scorer", director)
    client = Client()
    client.force_login(get_user_model().objects.get(username="schreiber"))
    assert client.post(reverse("prizes_director:settings", args=[t.pk]), settings_post()).status_code == 403
    assert not t.prize_categories.exists()


@pytest.mark.django_db
def test_the_archive_keeps_the_prizes(tied_final):
    from archive.backup import export_tournament, import_tournament

    t, seats = tied_final
    group = PrizeCategory.objects.create(tournament=t, order=2, kind="group", name="Damen", places=1, amount=D(10))
    group.members.add(seats[0], seats[2])
    restored = import_tournament(export_tournament(t))
    assert restored.prize_fund.entry_fee == D(20)
    copy = restored.prize_categories.get(name="Damen")
    assert sorted(r.player.name for r in copy.members.all()) == sorted([seats[0].player.name, seats[2].player.name])
    assert all(r.tournament_id == restored.pk for r in copy.members.all())
    assert money(prize_list(restored)) == money(prize_list(t))


@pytest.mark.django_db
def test_a_save_from_a_page_shown_before_another_change_is_refused_and_kept(make_tournament, director_client, english):
    from scoring.prizes.views import prizes_seen

    t = make_tournament(players=8)
    url = reverse("prizes_director:settings", args=[t.pk])
    assert director_client.post(url, settings_post()).status_code == 302
    ActionLog.objects.filter(tournament=t, action="prizes_changed").update(user=None)  # as if another director saved
    stale = director_client.post(url, settings_post(**{"fund-entry_fee": "25"}))  # a tab opened before that save
    assert stale.status_code == 409 and "changed meanwhile" in stale.content.decode()
    assert 'value="25"' in stale.content.decode()
    assert PrizeFund.objects.get(tournament=t).entry_fee == D(15)
    fresh = {**settings_post(**{"fund-entry_fee": "25"}), "seen": str(prizes_seen(t.pk)), "cat-INITIAL_FORMS": "1", "cat-TOTAL_FORMS": "1",
             "cat-0-id": str(t.prize_categories.get().pk), "cat-0-tournament": str(t.pk)}
    assert director_client.post(url, fresh).status_code == 302
    assert PrizeFund.objects.get(tournament=t).entry_fee == D(25)


@pytest.mark.django_db
def test_two_categories_of_one_name_are_refused_naming_it(make_tournament, director_client, english):
    t = make_tournament(players=8)
    url = reverse("prizes_director:settings", args=[t.pk])
    data = settings_post(**{"cat-TOTAL_FORMS": "2", "cat-1-order": "2", "cat-1-kind": "last", "cat-1-name": "hauptpreise ", "cat-1-places": "1",
                            "cat-1-shares": "", "cat-1-amount": "5", "cat-1-description": "", "cat-1-club": ""})
    response = director_client.post(url, data)
    assert response.status_code == 422 and "names another category already" in response.content.decode()
    assert not t.prize_categories.exists()


def test_places_are_named_by_the_standings_rank_and_handed_out_before_groups():
    # The group category comes first in order, but the places are handed out first: A (1st)
    # wins the place, the ladies' prize goes to C.
    prizes = award(ROWS, [
        Category("group", "Damen", places=1, amount=D(20), members=frozenset({1, 3})),
        Category("places", "Hauptpreise", places=1, shares=(D(100),)),
    ], FUND)
    assert [(a.category, a.place, a.names) for a in prizes.awards] == [("Hauptpreise", "1", ["A"]), ("Damen", "1", ["C"])]
    # A second places category after the first names the ranks the players hold.
    prizes = award(ROWS, [Category("places", "Sieg", places=1, amount=D(50)), Category("places", "Weitere", places=2, amount=D(10))], Fund())
    assert [(a.category, a.place, a.names) for a in prizes.awards] == [("Sieg", "1", ["A"]), ("Weitere", "2–3", ["B", "C"])]


def test_the_plus_prize_follows_the_game_points_where_table_points_rank():
    rows = [Placed(1, "A", 1, 6, game_total=-3), Placed(2, "B", 2, 4, game_total=12)]
    prizes = award(rows, [Category("plus", "Gute", amount=D(5))], Fund())
    assert [a.names for a in prizes.awards] == [["B"]]


def test_a_player_with_two_best_hands_wins_the_best_hand_prize_once():
    hands = [BestHand(1, "A", 50, "R1"), BestHand(1, "A", 50, "R2"), BestHand(2, "B", 50, "R3")]
    prizes = award(ROWS, [Category("best_hand", "Bestes Spiel", amount=D(10))], Fund(), best_hands=hands)
    assert money(prizes) == [("", ["A", "B"], D("5.00"), True)] and prizes.awards[0].note == "R1; R2; R3"


@pytest.mark.django_db
def test_what_a_kind_does_not_use_is_refused_not_dropped(make_tournament, director_client, english):
    t = make_tournament(players=8)
    url = reverse("prizes_director:settings", args=[t.pk])
    data = settings_post(**{"cat-0-kind": "last", "cat-0-name": "Mauskönig", "cat-0-places": "1", "cat-0-shares": "10", "cat-0-club": "Imst"})
    page = director_client.post(url, data).content.decode()
    assert "Shares of the prize money are for places and group categories." in page
    assert "A club or members are for a group category." in page
    assert not t.prize_categories.exists()
