"""Wiener Tarockcup tournaments: created with their edition, scored under it, catalogue-driven pages."""

import pytest
from django.urls import reverse

from scoring.demo import WTC_DEMO, build_demo
from scoring.models import Hand
from tournaments import services
from tournaments.models import Player, Tournament


def create(client, edition, **extra):
    data = {"name": f"WTC {edition}", "date": "2026-12-12", "venue": "Café Weidinger",
            "ruleset_edition": f"wiener-tarockcup|{edition}", "rounds": "", "hands_per_round": "",
            "status": "planned", **extra}
    assert client.post(reverse("tournaments_director:create"), data).status_code == 302
    return Tournament.objects.get(name=f"WTC {edition}")


@pytest.mark.django_db
def test_creating_offers_every_edition_by_its_name(director_client):
    page = director_client.get(reverse("tournaments_director:create")).content.decode()
    assert "wiener-tarockcup|2020" in page and "wiener-tarockcup|2009" in page and "tiroler-tarockcup|2019/20" in page
    assert ">Wiener Tarockcup 2009<" in page and ">Cego Ichenheim<" in page
    assert ".md" not in page and "ichenheim<" not in page  # rule-file citations and keys are for the rules page


@pytest.mark.django_db
@pytest.mark.parametrize("edition", ["2020", "2009"])
def test_wtc_tournament_takes_its_editions_defaults(director_client, edition):
    t = create(director_client, edition)
    # tournament-formats.md §1: 3 rounds of 20 hands, 25 at a 5-table
    assert (t.ruleset, t.edition, t.rounds, t.hands_per_round) == ("wiener-tarockcup", edition, 3, 20)
    assert (t.hands_for_table(4), t.hands_for_table(5)) == (20, 25)


def four_table(tournament):
    for i in range(4):
        services.register(tournament, Player.objects.create(name=f"Wiener {i}"))
    return services.draw_next_round(tournament, seed=3).tables.get()


@pytest.mark.django_db
def test_hands_are_scored_under_the_tournaments_edition(director_client):
    lost_sechser = {"outcome": "played", "dealer": "3", "contract": "sechserdreier", "declarer": "0", "won": "0"}
    for edition, row in (("2020", [-24, 8, 8, 8]), ("2009", [-30, 10, 10, 10])):
        # koenigrufen.md §2: Sechserdreier 4, lost −8; §3: 5, lost −10 — one against three.
        table = four_table(create(director_client, edition))
        response = director_client.post(reverse("entry:hand_create", args=[table.pk]), lost_sechser)
        assert response.status_code == 302
        assert Hand.objects.get(table=table).scores == row


@pytest.mark.django_db
def test_zwiccolo_only_in_2020(director_client, english):
    zwiccolo = {"outcome": "played", "dealer": "3", "contract": "zwiccolo", "declarer": "1", "won": "1"}
    t20 = four_table(create(director_client, "2020"))
    assert director_client.post(reverse("entry:hand_create", args=[t20.pk]), zwiccolo).status_code == 302
    t09 = four_table(create(director_client, "2009"))
    response = director_client.post(reverse("entry:hand_create", args=[t09.pk]), zwiccolo)
    assert response.status_code == 422  # not even a choice of the 2009 form
    assert not Hand.objects.filter(table=t09).exists()


@pytest.mark.django_db
def test_forms_and_rules_pages_come_from_the_editions_catalogue(director_client, english):
    wtc = four_table(create(director_client, "2020"))
    form = director_client.get(wtc.get_absolute_url()).context["form"]
    contracts = {key for key, _label in form.fields["contract"].choices}
    assert "pagatrufer" in contracts and "besserrufer" not in contracts
    assert "bonus_mondfang" not in form.fields and "bonus_sack1" not in form.fields
    rules = director_client.get(reverse("scoring:rules", args=[wtc.round.tournament_id])).content.decode()
    assert "Pagatrufer" in rules and "Besserrufer" not in rules and "Mondfang" not in rules
    assert "plus the announced Pagat (2)" in rules
    t09 = create(director_client, "2009")
    rules = director_client.get(reverse("scoring:rules", args=[t09.pk])).content.decode()
    assert "×8" in rules and "×4" in rules and "Zwiccolo" not in rules


@pytest.mark.django_db
def test_wtc_demo_is_complete_and_valid(db):
    t = build_demo(WTC_DEMO)
    rs = t.get_ruleset()
    assert (t.edition, t.registrations.count(), t.round_set.count()) == ("2020", 18, 3)
    for rnd in t.round_set.all():
        assert sorted(tb.seats.count() for tb in rnd.tables.all()) == [4, 4, 5, 5]
        for table in rnd.tables.all():
            assert table.hands.count() == {4: 20, 5: 25}[table.seats.count()]
    for hand in Hand.objects.filter(table__round__tournament=t):
        assert rs.score(hand.record, len(hand.scores)) == hand.scores
