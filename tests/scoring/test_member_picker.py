"""The members of a prize category (a tournament's registrations) and of a cup sub-ranking (the
player register) are picked with a search instead of a list of everyone: the page renders the
chosen members only, a small JSON endpoint (the page itself, ``?q=``) finds the others, and
without JavaScript names typed in the search box are added on saving (a small field lists every
candidate in ``<noscript>``)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.cups.models import Cup, CupRanking
from scoring.member_picker import LIST_ALL_UP_TO, PICK_LIMIT
from scoring.prizes.models import PrizeCategory
from tournaments.models import Player, Registration, Tournament


def big_field(players: int) -> Tournament:
    """A tournament of ``players`` registrations, made in bulk: "Spieler 0001" … of club "Imst",
    and "Andreas Hofer-Mair" of club "Absam" as the first."""
    t = Tournament.objects.create(name="Großturnier", date=datetime.date(2026, 11, 21), ruleset="tiroler-tarockcup", edition="2019/20")
    people = [Player(name="Andreas Hofer-Mair", club="Absam")] + [Player(name=f"Spieler {i:04d}", club="Imst") for i in range(1, players)]
    people = Player.objects.bulk_create(people)
    Registration.objects.bulk_create([Registration(tournament=t, player=p, start_number=i) for i, p in enumerate(people, start=1)])
    return t


@pytest.mark.django_db
def test_the_prize_settings_at_1000_registrations_render_the_chosen_members_only(director_client, django_assert_max_num_queries, english):
    t = big_field(1000)
    regs = list(t.registrations.select_related("player").order_by("start_number"))
    ladies = PrizeCategory.objects.create(tournament=t, order=1, kind="group", name="Damen", places=1)
    ladies.members.add(regs[0], regs[500])
    PrizeCategory.objects.create(tournament=t, order=2, kind="places", name="Hauptpreise", places=3, shares="50 30 20")
    url = reverse("prizes_director:settings", args=[t.pk])
    with django_assert_max_num_queries(30):
        response = director_client.get(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Andreas Hofer-Mair (Absam)" in page and "Spieler 0500 (Imst)" in page  # the chosen two, ticked
    assert page.count('type="checkbox" name="cat-0-members"') == 2 and page.count(" checked>") >= 2
    assert "Spieler 0499" not in page and "Spieler 0999" not in page  # nobody else is listed
    assert len(response.content) < 40_000  # three category forms; a list of 1,000 names each was ~150 kB


@pytest.mark.django_db
def test_the_prize_settings_search_finds_registrations_as_json(director_client, django_assert_max_num_queries):
    t = big_field(1000)
    url = reverse("prizes_director:settings", args=[t.pk])
    hofer = Registration.objects.get(tournament=t, player__name="Andreas Hofer-Mair")
    with django_assert_max_num_queries(8):
        found = director_client.get(url, {"q": "hofer-m"}).json()
    assert found == {"results": [{"id": hofer.pk, "label": "Andreas Hofer-Mair (Absam)"}], "more": False}
    many = director_client.get(url, {"q": "spieler"}).json()
    assert len(many["results"]) == PICK_LIMIT and many["more"] is True  # limited: type more
    assert [r["label"] for r in many["results"]][:2] == ["Spieler 0001 (Imst)", "Spieler 0002 (Imst)"]
    assert director_client.get(url, {"q": "  "}).json() == {"results": [], "more": False}


@pytest.mark.django_db
def test_only_a_director_may_search_the_registrations(make_tournament, director):
    t = make_tournament(players=4)
    url = reverse("prizes_director:settings", args=[t.pk])
    assert Client().get(url, {"q": "spieler"}).status_code == 302  # to the login
    get_user_model().objects.create_user("gast", password="x-123-geheim")
    guest = Client()
    guest.force_login(get_user_model().objects.get(username="gast"))
    assert guest.get(url, {"q": "spieler"}).status_code == 403


def prize_post(**changes):
    data = {
        "fund-entry_fee": "10", "fund-payout_percent": "100", "fund-kontra_amount": "0", "fund-currency": "€",
        "cat-TOTAL_FORMS": "1", "cat-INITIAL_FORMS": "0", "cat-MIN_NUM_FORMS": "0", "cat-MAX_NUM_FORMS": "1000",
        "cat-0-order": "1", "cat-0-kind": "group", "cat-0-name": "Damen", "cat-0-places": "1",
        "cat-0-shares": "", "cat-0-amount": "20", "cat-0-description": "", "cat-0-club": "", "seen": "0",
    }
    data.update(changes)
    return data


@pytest.mark.django_db
def test_without_javascript_names_typed_in_the_search_box_are_added_on_saving(make_tournament, director_client, english):
    t = make_tournament(players=8)  # Spieler 01 … 08, club Imst
    url = reverse("prizes_director:settings", args=[t.pk])
    ticked = str(t.registrations.get(player__name="Spieler 01").pk)
    response = director_client.post(url, {**prize_post(), "cat-0-members": [ticked], "cat-0-members_add": "spieler 03; Spieler 05 (Imst)"})
    assert response.status_code == 302
    assert sorted(r.player.name for r in t.prize_categories.get().members.all()) == ["Spieler 01", "Spieler 03", "Spieler 05"]


@pytest.mark.django_db
def test_a_typed_name_that_is_nobodys_or_several_is_refused_naming_it_and_kept(make_tournament, director_client, english):
    t = make_tournament(players=4)
    other = Player.objects.create(name="Spieler 02", club="Zams")  # a second "Spieler 02"
    Registration.objects.create(tournament=t, player=other, start_number=5)
    url = reverse("prizes_director:settings", args=[t.pk])
    response = director_client.post(url, {**prize_post(), "cat-0-members_add": "Spieler 02; Niemand"})
    page = response.content.decode()
    assert response.status_code == 422 and not t.prize_categories.exists()
    assert "Several players are called “Spieler 02”: find and pick the one meant. Nobody here is called “Niemand”: find and pick the player." in page
    assert 'value="Spieler 02; Niemand"' in page  # what was typed stays in the box
    # "Spieler 02 (Zams)" names one of them.
    response = director_client.post(url, {**prize_post(), "cat-0-members_add": "Spieler 02 (Zams)"})
    assert response.status_code == 302 and [r.player.club for r in t.prize_categories.get().members.all()] == ["Zams"]


@pytest.mark.django_db
def test_a_small_field_lists_every_candidate_for_a_page_without_javascript(make_tournament, director_client, english):
    small = make_tournament(players=LIST_ALL_UP_TO)
    page = director_client.get(reverse("prizes_director:settings", args=[small.pk])).content.decode()
    fallback = page.split("<noscript>", 1)[1].split("</noscript>", 1)[0]
    assert fallback.count('type="checkbox" name="cat-0-members"') == LIST_ALL_UP_TO
    large = make_tournament(players=LIST_ALL_UP_TO + 1)
    page = director_client.get(reverse("prizes_director:settings", args=[large.pk])).content.decode()
    assert "<noscript><ul" not in page and "Type names to add, separated by “;”" in page


@pytest.mark.django_db
def test_a_cup_sub_ranking_picks_its_players_by_search_and_renders_the_chosen_only(director_client, english):
    people = Player.objects.bulk_create([Player(name="Andreas Hofer-Mair", club="Absam")] + [Player(name=f"Spieler {i:04d}", club="Imst") for i in range(1, 300)])
    cup = Cup.objects.create(name="Testcup", ruleset="tiroler-tarockcup", method="tirol", counting="all")
    cup.organisers.add(get_user_model().objects.get(username="leiter"))
    youth = CupRanking.objects.create(cup=cup, name="Jugend")
    youth.members.add(people[5])
    url = reverse("cups_manage:edit", args=[cup.pk])
    page = director_client.get(url).content.decode()
    assert "Spieler 0005 (Imst)" in page and "Spieler 0006" not in page
    assert f'data-search-url="{url}"' in page
    found = director_client.get(url, {"q": "hofer-m"}).json()
    assert found == {"results": [{"id": people[0].pk, "label": "Andreas Hofer-Mair (Absam)"}], "more": False}
    assert Client().get(url, {"q": "hofer"}).status_code == 302  # the register is searched by the cup's organisers only
    new = reverse("cups_manage:create")
    assert director_client.get(new, {"q": "spieler 000"}).json()["results"][0]["label"] == "Spieler 0001 (Imst)"


@pytest.mark.django_db
def test_without_javascript_a_cup_sub_rankings_players_are_typed_by_name(director_client, english):
    anna = Player.objects.create(name="Anna Žagar", club="Imst")
    Player.objects.bulk_create([Player(name=f"Spieler {i:03d}", club="Imst") for i in range(60)])
    url = reverse("cups_manage:create")
    data = {"name": "Cup 2027", "ruleset": "wiener-tarockcup", "method": "heine", "counting": "half", "final_top": "", "final_min_played": "",
            "ranking-TOTAL_FORMS": "1", "ranking-INITIAL_FORMS": "0", "ranking-MIN_NUM_FORMS": "0", "ranking-MAX_NUM_FORMS": "1000",
            "ranking-0-name": "Damen", "ranking-0-club": "", "ranking-0-members_add": "anna zagar; Berta"}
    response = director_client.post(url, data)
    assert response.status_code == 422 and "Nobody here is called “Berta”" in response.content.decode()
    assert not Cup.objects.exists()
    data["ranking-0-members_add"] = "anna zagar"  # accents and case folded
    assert director_client.post(url, data).status_code == 302
    assert list(Cup.objects.get().rankings.get().members.all()) == [anna]
