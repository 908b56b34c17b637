"""Public pages (no login needed) never show a login name: who drew or swapped shows by his full
name where he has one, and by nothing where he has none. The private pages (the action log, the
roles) keep the user names."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.cups.models import Cup
from scoring.services import save_hand
from tournaments import services
from tournaments.models import Registration, TournamentRole

pytestmark = pytest.mark.django_db
HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}
LOGINS = ("zzlogin-anna", "zzlogin-karl")


@pytest.fixture
def played(make_tournament):
    """A tournament of a cup, round 1 drawn by Anna Berger (login ``zzlogin-anna``), two players
    swapped by a director with no full name (``zzlogin-karl``), then a hand entered by Anna."""
    User = get_user_model()
    anna = User.objects.create_user(LOGINS[0], password="pw-123-geheim", first_name="Anna", last_name="Berger")
    karl = User.objects.create_user(LOGINS[1], password="pw-123-geheim")
    t = make_tournament(players=8)
    cup = Cup.objects.create(name="Testcup", ruleset=t.ruleset, method="tirol")
    cup.organisers.add(anna)
    t.cup = cup
    t.save()
    for user, level in ((anna, "organiser"), (karl, "director")):
        TournamentRole.objects.create(tournament=t, user=user, level=level)
    rnd = services.draw_next_round(t, seed=7, user=anna)
    first, second = Registration.objects.filter(tournament=t).order_by("start_number")[:2]
    services.swap_players(rnd, first, second, user=karl)
    table = rnd.tables.order_by("number").first()
    save_hand(table, HAND, anna)
    return t, rnd, table, first


def public_pages(t, rnd, table, registration):
    return [
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[t.pk]),
        reverse("tournaments:round", args=[t.pk, rnd.number]),
        reverse("scoring:rules", args=[t.pk]),
        reverse("scoring:sheet", args=[table.pk]),
        reverse("scoring:private_sheet", args=[table.token]),
        reverse("scoring:standings", args=[t.pk]),
        reverse("live:player_names", args=[t.pk]),
        reverse("live:player", args=[t.pk, registration.pk]),
        reverse("live:statistics", args=[t.pk]),
        reverse("exports:hands_csv", args=[t.pk]),
        reverse("live:screen", args=[t.pk]),
        *[reverse("live:screen_slide", args=[t.pk, n]) for n in range(3)],
        reverse("cups:list"),
        reverse("cups:table", args=[t.cup_id]),
        reverse("cups:player", args=[t.cup_id, registration.player_id]),
    ]


def test_the_seating_pages_draw_log_names_the_drawer_by_his_full_name_only(played, english):
    t, rnd, _table, _reg = played
    page = Client().get(reverse("tournaments:round", args=[t.pk, rnd.number])).content.decode()
    assert "drawn" in page and "players swapped" in page  # the draw log is there
    assert "Anna Berger" in page
    assert not any(login in page for login in LOGINS)


def test_no_public_page_shows_a_login_name(played):
    t, rnd, table, registration = played
    anonymous = Client()
    for url in public_pages(t, rnd, table, registration):
        response = anonymous.get(url)
        assert response.status_code == 200, url
        content = response.content.decode()
        assert not any(login in content for login in LOGINS), url


def test_the_private_action_log_keeps_the_user_names(played):
    t, _rnd, _table, _reg = played
    client = Client()
    client.force_login(get_user_model().objects.get(username=LOGINS[0]))
    page = client.get(reverse("tournaments_director:action_log", args=[t.pk])).content.decode()
    assert LOGINS[0] in page and LOGINS[1] in page
