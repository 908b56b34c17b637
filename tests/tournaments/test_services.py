"""The seating draw as stored: every player seated once per round, seed reproduces it, refusals."""

from collections import Counter

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Seat


def seating(rnd):
    return sorted(
        (t.number, [(s.position, s.registration_id, s.card) for s in t.seats.order_by("position")])
        for t in rnd.tables.all()
    )


@pytest.mark.django_db
def test_draw_seats_everyone_once_with_cards(make_tournament):
    t = make_tournament(players=22)
    rnd = services.draw_next_round(t, seed=42)
    sizes = sorted(tb.seats.count() for tb in rnd.tables.all())
    assert sizes == [4, 4, 4, 5, 5]  # tournament-formats.md §1: as many 4-tables as possible
    seated = Counter(Seat.objects.filter(table__round=rnd).values_list("registration_id", flat=True))
    assert set(seated) == set(t.registrations.values_list("pk", flat=True))
    assert set(seated.values()) == {1}
    for table in rnd.tables.all():
        cards = list(table.seats.order_by("position").values_list("card", flat=True))
        # §2: Tarock is seat 0 = Vorhand of the first hand; the first dealer is the seat before him.
        assert cards == ["tarock", "herz", "karo", "pik", "kreuz"][: len(cards)]
        assert table.first_dealer == len(cards) - 1
    t.refresh_from_db()
    assert t.status == "running"


@pytest.mark.django_db
def test_same_seed_same_draw(make_tournament):
    a = make_tournament(players=13, name="A")
    b = make_tournament(players=13, name="B")
    # Registration ids differ between the tournaments; compare by start number.
    def by_start(rnd):
        starts = dict(rnd.tournament.registrations.values_list("pk", "start_number"))
        return [(n, [(p, starts[r], c) for p, r, c in seats]) for n, seats in seating(rnd)]

    assert by_start(services.draw_next_round(a, seed=99)) == by_start(services.draw_next_round(b, seed=99))


@pytest.mark.django_db
def test_three_rounds_of_22_avoid_repeat_meetings(make_tournament):
    t = make_tournament(players=22)
    for _ in range(3):
        rnd = services.draw_next_round(t, seed=5)
        assert rnd.repeats == []
    pairs = Counter()
    for table in (table for tables in services.past_tables(t).values() for table in tables):
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                pairs[frozenset((a, b))] += 1
    assert max(pairs.values()) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("players,nearest", [(3, "4"), (6, "5 or 8"), (7, "5 or 8"), (11, "10 or 12")])
def test_unseatable_counts_are_refused_with_nearest_counts(make_tournament, players, nearest, english):
    t = make_tournament(players=players)
    with pytest.raises(services.DrawRefused) as refused:
        services.draw_next_round(t, seed=1)
    assert nearest in str(refused.value.message)
    assert not t.round_set.exists()


@pytest.mark.django_db
def test_withdrawn_players_are_not_seated(make_tournament):
    t = make_tournament(players=9)
    t.registrations.filter(start_number=9).update(withdrawn=True)
    rnd = services.draw_next_round(t, seed=3)
    assert Seat.objects.filter(table__round=rnd).count() == 8


@pytest.mark.django_db
def test_no_more_rounds_than_planned(make_tournament):
    t = make_tournament(players=4, rounds=1)
    services.draw_next_round(t, seed=1)
    with pytest.raises(services.DrawRefused):
        services.draw_next_round(t, seed=2)


@pytest.mark.django_db
def test_director_draws_through_the_page(director_client, make_tournament):
    t = make_tournament(players=8)
    response = director_client.post(reverse("tournaments_director:draw", args=[t.pk]), {"seed": "123"})
    assert response.status_code == 302
    assert t.round_set.get().seed == 123
    page = director_client.get(response["Location"]).content.decode()
    assert "Tarock" in page and "Spieler 01" in page


@pytest.mark.django_db
def test_refused_draw_shows_message_on_the_page(director_client, make_tournament, english):
    t = make_tournament(players=6)
    response = director_client.post(reverse("tournaments_director:draw", args=[t.pk]), {"seed": ""})
    assert response.status_code == 200
    assert "5 or 8" in response.content.decode()


@pytest.mark.django_db
def test_round_with_hands_cannot_be_deleted(director_client, four_table):
    from scoring.services import save_hand

    save_hand(four_table, {"dealer": 3, "outcome": "struck"})
    with pytest.raises(services.DrawRefused):
        services.delete_last_round(four_table.round.tournament)


@pytest.mark.django_db
def test_registering_and_creating_tournament_need_a_director(client, make_tournament):
    t = make_tournament(players=0)
    for url in (reverse("tournaments_director:create"), reverse("tournaments_director:registrations", args=[t.pk])):
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.django_db
def test_director_creates_tournament_and_registers_players(director_client):
    response = director_client.post(
        reverse("tournaments_director:create"),
        {
            "name": "Cup Schwaz",
            "date": "2026-12-05",
            "venue": "Stadtsaal",
            "ruleset_edition": "tiroler-tarockcup|2019/20",
            "rounds": "3",
            "hands_per_round": "16",
            "status": "planned",
        },
    )
    assert response.status_code == 302
    from tournaments.models import Tournament

    t = Tournament.objects.get(name="Cup Schwaz")
    assert (t.ruleset, t.edition) == ("tiroler-tarockcup", "2019/20")
    url = reverse("tournaments_director:registrations", args=[t.pk])
    director_client.post(url, {"new_name": "Maria Gasser", "new_club": "Schwaz"})
    director_client.post(url, {"new_name": "Hans Eller", "new_club": "Vomp"})
    assert list(t.registrations.values_list("start_number", "player__name")) == [(1, "Maria Gasser"), (2, "Hans Eller")]
    response = director_client.post(url, {})
    assert response.status_code == 200 and not response.context["form"].is_valid()


@pytest.mark.django_db
def test_tournament_cannot_shrink_below_what_is_played(director_client, four_table):
    from scoring.services import save_hand

    t = four_table.round.tournament
    for k in range(5):
        save_hand(four_table, {"dealer": four_table.dealer_of(k + 1, 4), "outcome": "struck"})
    data = {"name": t.name, "date": "2026-11-21", "venue": t.venue, "ruleset_edition": "tiroler-tarockcup|2019/20",
            "rounds": "0", "hands_per_round": "4", "status": "running"}
    response = director_client.post(f"/manage/t/{t.pk}/edit/", data)
    assert set(response.context["form"].errors) == {"rounds", "hands_per_round"}
    data.update(rounds="2", hands_per_round="5")
    assert director_client.post(f"/manage/t/{t.pk}/edit/", data).status_code == 302
    t.refresh_from_db()
    assert (t.rounds, t.hands_per_round) == (2, 5)
