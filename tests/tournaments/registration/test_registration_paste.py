"""Registering a pasted list and a single new player: a name only one player of the register has
is his without a click (and the director is told whom it was taken for); the "New player"
fields are no line of the list; a name waiting for the director's choice does not hold up the
others."""

import pytest
from django.urls import reverse

from tournaments.models import Player


@pytest.fixture
def register(db):
    return {
        "anna": Player.objects.create(name="Anna Berger", club="Imst"),
        "hans": Player.objects.create(name="Hans Falk", club="Vomp"),
        "hans2": Player.objects.create(name="Hans Falk", club="Lienz"),
        "jože": Player.objects.create(name="Jože Šuštar", club="Kranj"),
    }


def page_url(t):
    return reverse("tournaments_director:registrations", args=[t.pk])


def registered(t):
    return list(t.registrations.order_by("start_number").values_list("start_number", "player_id"))


@pytest.mark.django_db
def test_a_name_only_one_player_has_is_his_without_asking(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    response = director_client.post(page_url(t), {"names": "Anna Berger\nsustar joze\nKarl Neu; Telfs"}, follow=True)
    page = response.content.decode()
    assert response.redirect_chain  # done: no question asked
    karl = Player.objects.get(name="Karl Neu")
    assert registered(t) == [(1, register["anna"].pk), (2, register["jože"].pk), (3, karl.pk)]
    assert Player.objects.count() == 5  # Anna and Jože not a second time
    assert "3 players registered, 1 of them new in the register." in page
    # The director reads whom the names were taken for.
    assert "Taken from the register by the name: Anna Berger (Imst) and Jože Šuštar (Kranj) for “sustar joze”." in page
    assert "If one of them is somebody else, remove that registration" in page


@pytest.mark.django_db
def test_a_namesake_with_another_club_is_still_asked_about(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    response = director_client.post(page_url(t), {"names": "Anna Berger; Telfs"})
    page = response.content.decode()
    assert "This name is in the register already. Who is it?" in page and "Anna Berger (Imst)" in page
    assert not t.registrations.exists()


@pytest.mark.django_db
def test_a_waiting_choice_does_not_hold_up_the_other_names(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    response = director_client.post(page_url(t), {"names": "Maria Egger\nHans Falk\n\nKarl Dorn\nAnna Berger; Telfs"})
    assert response.status_code == 200
    page = response.content.decode()
    maria, karl = Player.objects.get(name="Maria Egger"), Player.objects.get(name="Karl Dorn")
    assert registered(t) == [(1, maria.pk), (2, karl.pk)]
    assert "2 players registered, 2 of them new in the register." in page
    assert "Hans Falk and Anna Berger (Telfs) are in the register more than once, or with another town or club" in page
    # Only the waiting names are asked about, numbered anew; the list holds them alone.
    assert 'name="choice_1"' in page and 'name="choice_2"' in page and 'name="choice_3"' not in page
    assert ">\nHans Falk\nAnna Berger; Telfs</textarea>" in page
    response = director_client.post(
        page_url(t), {"names": "Hans Falk\nAnna Berger; Telfs", "choice_1": str(register["hans2"].pk), "choice_2": str(register["anna"].pk)}
    )
    assert response.status_code == 302
    assert registered(t) == [(1, maria.pk), (2, karl.pk), (3, register["hans2"].pk), (4, register["anna"].pk)]


@pytest.mark.django_db
def test_the_new_player_fields_are_not_a_line_of_the_list(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    # A name typed in "New player" that needs a choice: asked about as the new player, not "line 2".
    response = director_client.post(page_url(t), {"new_name": "Hans Falk", "new_club": ""})
    page = response.content.decode()
    assert 'name="choice_new"' in page and 'name="choice_2"' not in page and 'name="choice_1"' not in page
    assert "line 2" not in page.lower()
    assert 'value="Hans Falk"' in page  # the fields keep the name for the choice
    director_client.post(page_url(t), {"new_name": "Hans Falk", "choice_new": "new"})
    assert Player.objects.filter(name="Hans Falk").count() == 3 and t.registrations.count() == 1
    # The new player and a pasted line that are one person: named as such.
    response = director_client.post(page_url(t), {"names": "Karl Dorn", "new_name": "Karl Dorn"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "The new player Karl Dorn is in the pasted list already (line 1)." in page
    assert "Nothing was registered: correct the new player as marked below." in page
    assert "line 2" not in page.lower()


@pytest.mark.django_db
def test_lines_are_counted_from_1_as_typed(director_client, make_tournament, english):
    t = make_tournament(players=0)
    # A blank first line and a blank line between are lines of what the director sees.
    response = director_client.post(page_url(t), {"names": "\nKarl Dorn\n\n; Imst\nKarl Dorn"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Line 4 has no name." in page and "Line 5: Karl Dorn is in the list twice (also line 2)." in page
    assert "Nothing was registered: correct line 4 and line 5 as marked below." in page
    assert not t.registrations.exists()
