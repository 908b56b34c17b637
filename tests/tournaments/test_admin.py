"""The admin obeys the rules the tournament pages keep."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import Hand
from scoring.services import save_hand
from tournaments import services
from tournaments.models import Tournament

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def admin_client(db):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.at", "root-pass-123"))
    return client


@pytest.mark.django_db
def test_the_admin_deletes_no_hand(admin_client, four_table):
    hand = save_hand(four_table, HAND)
    response = admin_client.post(reverse("admin:scoring_hand_delete", args=[hand.pk]), {"post": "yes"})
    assert response.status_code == 403
    changelist = reverse("admin:scoring_hand_changelist")
    admin_client.post(changelist, {"action": "delete_selected", "_selected_action": [hand.pk], "post": "yes"})
    assert Hand.objects.filter(pk=hand.pk).exists()


@pytest.mark.django_db
def test_the_admin_offers_only_registered_rulesets(admin_client, make_tournament):
    t = make_tournament(players=0)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="ruleset_edition"' in page and "tiroler-tarockcup|2019/20" in page
    data = {
        "name": t.name, "date": "2026-11-21", "venue": t.venue, "ruleset_edition": "erfunden|1999",
        "rounds": "3", "hands_per_round": "16", "draw_mode": "avoid_repeats", "status": "planned",
        "registrations-TOTAL_FORMS": "0", "registrations-INITIAL_FORMS": "0",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200  # the form again, with its error
    t.refresh_from_db()
    assert t.ruleset == "tiroler-tarockcup"
    assert admin_client.get(reverse("tournaments:detail", args=[t.pk])).status_code == 200


@pytest.mark.django_db
def test_the_ruleset_is_fixed_once_a_round_is_drawn(admin_client, four_table):
    t = four_table.round.tournament
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert 'name="ruleset_edition"' not in page and 'name="ruleset"' not in page


@pytest.mark.django_db
def test_a_tournament_with_hands_is_not_deleted_in_the_admin(admin_client, four_table, make_tournament):
    t = four_table.round.tournament
    save_hand(four_table, HAND)
    empty = make_tournament(players=0, name="Leer")
    assert admin_client.post(reverse("admin:tournaments_tournament_delete", args=[t.pk]), {"post": "yes"}).status_code == 403
    admin_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "delete_selected", "_selected_action": [empty.pk], "post": "yes"},
    )
    assert Tournament.objects.filter(pk=t.pk).exists() and not Tournament.objects.filter(pk=empty.pk).exists()
    assert Hand.objects.filter(table=four_table).count() == 1
