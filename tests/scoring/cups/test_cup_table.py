"""The cup table from the database — imported results and the cup's own finished
tournaments, shared ranks, counted and dropped results, sub-rankings, the final's qualifiers —
updated as soon as a tournament's final standings are in; the cup's settings and a tournament
joining it. Cup points by hand from ../shared/rules/tournament-formats.md §4."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.cups.models import Cup, CupRanking, CupResult
from scoring.cups.table import cup_standings
from scoring.services import end_table, save_hand
from tournaments import services
from tournaments.models import Player
from tournaments.registration.register import merge_players

# koenigrufen.md §1: a Rufer won by seat 1 with seat 3: +1 each, −1 for seats 0 and 2.
RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def cup(db):
    """A Tirol-formula cup, best 2 results, with one imported tournament of 5 players:
    Anna 1st, Bert and Carl level 2nd, Dora 4th, Emil 5th."""
    cup = Cup.objects.create(name="Testcup", ruleset="tiroler-tarockcup", method="tirol", counting="2", final_top=2)
    names = ["Anna", "Bert", "Carl", "Dora", "Emil"]
    players = {n: Player.objects.create(name=n, club="Imst" if n in ("Anna", "Dora") else "Absam") for n in names}
    for name, rank in zip(names, (1, 2, 2, 4, 5)):
        CupResult.objects.create(cup=cup, event="Auftakt", date=datetime.date(2026, 9, 1), player=players[name], rank=rank, field_size=5)
    return cup, players


def table(cup, ranking=None):
    return [(r.player.name, r.rank, r.total, sorted(r.counted)) for r in cup_standings(cup, ranking).rows]


@pytest.mark.django_db
def test_imported_results_with_a_shared_rank(cup):
    cup, _players = cup
    # 200 × ((5 − r)/4)³: r=1 200; r=2 200 × 27/64 = 84.38 → 84; r=3 200 × 8/64 = 25; r=4 200/64 =
    # 3.13 → 3; r=5 0. Bert and Carl share places 2–3: (84 + 25)/2 = 54.5 → 55.
    rows = cup_standings(cup).rows
    assert [(r.player.name, r.rank, r.total, r.shared) for r in rows] == [
        ("Anna", 1, 200, False), ("Bert", 2, 55, False), ("Carl", 2, 55, True), ("Dora", 4, 3, False), ("Emil", 5, 0, False),
    ]


@pytest.mark.django_db
def test_the_table_takes_a_tournament_once_its_final_standings_are_in(cup, make_tournament, english):
    cup, players = cup
    t = make_tournament(players=0, rounds=1)
    for name in ("Anna", "Bert", "Dora", "Emil"):
        services.register(t, players[name])
    t.cup = cup
    t.save()
    client = Client()
    url = reverse("cups:table", args=[cup.pk])
    before = client.get(url)
    assert "Testturnier" in before.content.decode() and "Not finished yet" in before.content.decode()
    table_ = services.draw_next_round(t, seed=7).tables.get()
    save_hand(table_, RUFER_1_3_WON)
    assert [r.player.name for r in cup_standings(cup).rows][0] == "Anna"  # still the imported event only
    end_table(table_)  # the final standings are in
    winners = {s.registration.player.name for s in table_.seats.select_related("registration__player") if s.position in (1, 3)}
    # 4 players: seats 1 and 3 level on +1 share places 1–2: (200 + 200 × (2/3)³ = 59.26 → 59)/2
    # = 129.5 → 130; the other two share places 3–4: (200 × (1/3)³ = 7.41 → 7, + 0)/2 = 3.5 → 4.
    rows = {r.player.name: r for r in cup_standings(cup).rows}
    for name in ("Anna", "Bert", "Dora", "Emil"):
        assert [res.points for res in rows[name].results][-1] == (130 if name in winners else 4)
    assert rows["Anna"].total == 200 + (130 if "Anna" in winners else 4)  # best 2 of 2
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and "Not finished yet" not in after.content.decode()


@pytest.mark.django_db
def test_best_k_strikes_the_dropped_result_on_the_page(cup, english):
    cup, players = cup
    for event, day, rank in (("Zweites", 2, 2), ("Drittes", 3, 5)):
        CupResult.objects.create(cup=cup, event=event, date=datetime.date(2026, 9, day), player=players["Anna"], rank=rank, field_size=5)
    anna = cup_standings(cup).rows[0]
    # Anna: 200, 84, 0 — the best 2 count: 284; the 0 of the third is struck.
    assert (anna.player.name, anna.total, len(anna.counted)) == ("Anna", 284, 2)
    page = Client().get(reverse("cups:table", args=[cup.pk])).content.decode()
    assert '<s title="not counted">0</s>' in page


@pytest.mark.django_db
def test_sub_rankings_by_club_by_members_and_away_only(cup):
    cup, players = cup
    club = CupRanking.objects.create(cup=cup, name="Imst", club="imst ")
    ladies = CupRanking.objects.create(cup=cup, name="Damen")
    ladies.members.set([players["Carl"], players["Emil"]])
    away = CupRanking.objects.create(cup=cup, name="Auswärts", away_only=True)
    CupResult.objects.create(cup=cup, event="Lienz", date=datetime.date(2026, 9, 5), away=True, player=players["Emil"], rank=1, field_size=2)
    CupResult.objects.create(cup=cup, event="Lienz", date=datetime.date(2026, 9, 5), away=True, player=players["Dora"], rank=2, field_size=2)
    assert [r[0] for r in table(cup, club)] == ["Anna", "Dora"]
    assert [(r[0], r[1]) for r in table(cup, ladies)] == [("Emil", 1), ("Carl", 2)]  # Emil 0 + 200 = 200
    # Away only: Lienz alone; Emil 200, Dora 0.
    assert [(r[0], r[2]) for r in table(cup, away)] == [("Emil", 200), ("Dora", 0)]


@pytest.mark.django_db
def test_the_final_takes_the_best_and_everyone_level_with_the_last(cup):
    cup, _players = cup
    cup.final_top = 2
    assert [r.player.name for r in cup_standings(cup).qualified] == ["Anna", "Bert", "Carl"]  # Carl level with Bert
    cup.final_min_played, cup.final_top = 2, None
    assert cup_standings(cup).qualified == []


@pytest.mark.django_db
def test_merging_two_players_moves_the_cup_results(cup):
    cup, players = cup
    twin = Player.objects.create(name="Anna Huber", club="Imst")
    CupResult.objects.create(cup=cup, event="Zweites", date=datetime.date(2026, 9, 2), player=twin, rank=1, field_size=5)
    merge_players(players["Anna"], twin)
    anna = cup_standings(cup).rows[0]
    assert (anna.player.name, anna.total, anna.played) == ("Anna", 400, 2)


@pytest.mark.django_db
def test_a_tournament_joins_only_a_cup_of_its_ruleset(make_tournament, director_client, english):
    wtc = Cup.objects.create(name="Wiener Cup", ruleset="wiener-tarockcup", method="heine")
    t = make_tournament(players=4)
    data = {"name": t.name, "date": "2026-11-21", "venue": "", "ruleset_edition": "tiroler-tarockcup|2019/20", "rounds": "3",
            "hands_per_round": "16", "draw_mode": "avoid_repeats", "status": "planned", "cup": str(wtc.pk)}
    response = director_client.post(reverse("tournaments_director:edit", args=[t.pk]), data)
    assert "Wiener Cup is a cup of another ruleset" in response.content.decode()
    t.refresh_from_db()
    assert t.cup is None


@pytest.mark.django_db
def test_an_organiser_sets_up_a_cup_and_a_refused_rule_keeps_what_was_typed(director_client, english):
    url = reverse("cups_manage:create")
    data = {"name": "Cup 2027", "ruleset": "wiener-tarockcup", "method": "heine", "counting": "most", "final_top": "", "final_min_played": "",
            "ranking-TOTAL_FORMS": "1", "ranking-INITIAL_FORMS": "0", "ranking-MIN_NUM_FORMS": "0", "ranking-MAX_NUM_FORMS": "1000",
            "ranking-0-name": "Damen", "ranking-0-club": ""}
    response = director_client.post(url, data)
    assert response.status_code == 422 and "“most” is not a counting rule" in response.content.decode()
    assert 'value="Cup 2027"' in response.content.decode() and not Cup.objects.exists()
    data["counting"] = "half"
    assert director_client.post(url, data).status_code == 302
    cup = Cup.objects.get()
    assert (cup.counting_rule, list(cup.rankings.values_list("name", flat=True))) == ("half", ["Damen"])


@pytest.mark.django_db
def test_only_organisers_change_cups(cup, client):
    cup, _players = cup
    url = reverse("cups_manage:edit", args=[cup.pk])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(get_user_model().objects.create_user("gast", password="x-123-geheim"))
    assert client.post(url, {"name": "Übernommen"}).status_code == 403
    cup.refresh_from_db()
    assert cup.name == "Testcup"


@pytest.mark.django_db
def test_a_restored_archive_joins_the_cup_of_its_name_or_none(cup, make_tournament):
    from archive.backup import export_tournament, import_tournament

    cup, _players = cup
    t = make_tournament(players=4)
    t.cup = cup
    t.save()
    archive = export_tournament(t)
    assert import_tournament(archive).cup == cup  # the same site: the same cup
    Cup.objects.filter(pk=cup.pk).update(name="Umbenannt")
    assert import_tournament(archive).cup is None  # no cup of that name here: restored without one


@pytest.mark.django_db
def test_the_cup_table_marks_the_qualifiers(cup, english):
    cup, _players = cup  # the best 2: Anna, and Bert and Carl level on 2nd
    page = Client().get(reverse("cups:table", args=[cup.pk])).content.decode()
    assert page.count('class="qualified"') == 3
    assert "Qualified for the final" in page


@pytest.mark.django_db
def test_an_unknown_sub_ranking_is_not_found(cup):
    cup, _players = cup
    url = reverse("cups:table", args=[cup.pk])
    for wanted in ("999", "x", "²"):  # "²" is a digit to str.isdigit, not a number
        assert Client().get(url, {"ranking": wanted}).status_code == 404
