"""The member picker's search box holds names, whatever they read like: a typed "2" is the player
called "2", never the candidate with database id 2; a typed "²" or "٣" is refused as nobody's
name, and the page shown again keeps it in the box instead of failing. Only the ticked boxes carry
ids. The picker's JSON answers are for the signed-in organiser alone and are never stored."""

import pytest
from django.urls import reverse

from scoring.prizes.models import PrizeCategory
from tournaments.models import Player, Registration

from .test_member_picker import prize_post


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["²", "٣"], ids=["superscript two", "arabic-indic three"])
def test_a_typed_digit_that_int_does_not_read_as_an_id_is_refused_as_a_name(make_tournament, director_client, english, typed):
    t = make_tournament(players=4)
    url = reverse("prizes_director:settings", args=[t.pk])
    response = director_client.post(url, {**prize_post(), "cat-0-members_add": typed})
    page = response.content.decode()
    assert response.status_code == 422 and not PrizeCategory.objects.exists()
    assert f"Nobody here is called “{typed}”: find and pick the player." in page
    assert f'name="cat-0-members_add" value="{typed}"' in page  # what was typed stays in the box


@pytest.mark.django_db
def test_a_number_typed_is_a_name_not_a_database_id(make_tournament, director_client, english):
    t = make_tournament(players=4)
    url = reverse("prizes_director:settings", args=[t.pk])
    someone = t.registrations.order_by("pk").first()
    response = director_client.post(url, {**prize_post(), "cat-0-members_add": str(someone.pk)})
    page = response.content.decode()
    assert response.status_code == 422 and not PrizeCategory.objects.exists()  # not silently that registration
    assert f"Nobody here is called “{someone.pk}”: find and pick the player." in page
    assert f'value="{someone.pk}" checked' not in page  # not shown ticked either
    # A player who really is called so is found by that name.
    two = Registration.objects.create(tournament=t, player=Player.objects.create(name=str(someone.pk), club="Zams"), start_number=9)
    response = director_client.post(url, {**prize_post(), "cat-0-members_add": str(someone.pk)})
    assert response.status_code == 302
    assert list(PrizeCategory.objects.get().members.all()) == [two]


@pytest.mark.django_db
def test_a_ticked_value_that_is_not_an_id_is_refused_without_failing(make_tournament, director_client, english):
    t = make_tournament(players=4)
    url = reverse("prizes_director:settings", args=[t.pk])
    for bad in ("²", "٣"):  # "٣" would otherwise read as 3 to the database
        response = director_client.post(url, {**prize_post(), "cat-0-members": [bad]})
        assert response.status_code == 422 and f"“{bad}” is not a valid value." in response.content.decode()
    assert not PrizeCategory.objects.exists()


@pytest.mark.django_db
def test_the_pickers_answers_are_private_and_not_stored(make_tournament, director_client):
    t = make_tournament(players=4)
    prizes = director_client.get(reverse("prizes_director:settings", args=[t.pk]), {"q": "spieler"})
    cups = director_client.get(reverse("cups_manage:create"), {"q": "spieler"})
    for response in (prizes, cups):
        assert response.status_code == 200 and response.json()["results"]
        assert response["Cache-Control"] == "private, no-store"
