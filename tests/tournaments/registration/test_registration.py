"""Registration a director can do in minutes: search the register as you type, paste a
list of names, never a silent duplicate, edit and merge players, remove a mistaken registration."""

import pytest
from django.urls import reverse

from scoring.services import save_hand
from tournaments import services
from tournaments.models import Player, Registration
from tournaments.registration import register as registration


@pytest.fixture
def register(db):
    """A register with an Anna Berger from Imst, a Šimon Žagar and a Hans Falk from Vomp."""
    return {
        "anna": Player.objects.create(name="Anna Berger", club="Imst"),
        "simon": Player.objects.create(name="Šimon Žagar", club="Bled"),
        "hans": Player.objects.create(name="Hans Falk", club="Vomp"),
    }


def page_url(t):
    return reverse("tournaments_director:registrations", args=[t.pk])


@pytest.mark.django_db
def test_search_as_you_type_finds_names_and_clubs_without_accents(director_client, make_tournament, register):
    t = make_tournament(players=0)
    assert registration.search_players("simon", t) == [register["simon"]]
    assert registration.search_players("zag", t) == [register["simon"]]
    assert registration.search_players("vomp", t) == [register["hans"]]
    assert registration.search_players("an ber", t) == [register["anna"]]
    assert registration.search_players("", t) == []
    response = director_client.get(page_url(t), {"q": "šim"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<div id="player-search-results">') and "Šimon Žagar" in html and "Anna" not in html
    director_client.post(reverse("tournaments_director:register_player", args=[t.pk]), {"player": register["simon"].pk})
    assert list(t.registrations.values_list("player", flat=True)) == [register["simon"].pk]
    assert registration.search_players("simon", t) == []  # registered: no longer offered


@pytest.mark.django_db
def test_a_pasted_list_registers_everyone_in_one_go(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    text = "Anna Berger; Imst\nMaria Egger (Schwaz)\n\nKarl Dorn\nHans Falk\tVomp"
    response = director_client.post(page_url(t), {"names": text})
    assert response.status_code == 302
    regs = list(t.registrations.order_by("start_number").values_list("start_number", "player__name", "player__club"))
    assert regs == [(1, "Anna Berger", "Imst"), (2, "Maria Egger", "Schwaz"), (3, "Karl Dorn", ""), (4, "Hans Falk", "Vomp")]
    assert Player.objects.filter(name="Anna Berger").count() == 1  # the register's Anna, not a second one
    # Pasting the same list again registers nobody twice, and says so by name.
    again = director_client.post(page_url(t), {"names": text}, follow=True).content.decode()
    assert t.registrations.count() == 4 and Player.objects.count() == 5
    assert "0 players registered" in again
    assert "Registered already, so not again: Anna Berger (Imst), Maria Egger (Schwaz), Karl Dorn, Hans Falk (Vomp)." in again


@pytest.mark.django_db
def test_a_name_in_the_register_is_offered_never_silently_duplicated(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    # Same name with another club: perhaps a namesake, the director chooses (the rest of the list
    # is registered meanwhile). A name only one player has, without a club, is his: see
    # test_registration_paste.py.
    response = director_client.post(page_url(t), {"names": "Berger Anna; Telfs\nNeu Mann"})
    page = response.content.decode()
    assert "This name is in the register already" in page and "Anna Berger (Imst)" in page
    assert list(t.registrations.values_list("player__name", flat=True)) == ["Neu Mann"]
    assert Player.objects.count() == 4  # Anna not a second time
    # The single "new player" fields go the same way.
    response = director_client.post(page_url(t), {"new_name": "anna berger", "new_club": "Telfs"})
    assert "This name is in the register already" in response.content.decode() and t.registrations.count() == 1
    # Chosen: it is the register's Anna.
    director_client.post(page_url(t), {"names": "Berger Anna; Telfs", "choice_1": str(register["anna"].pk)})
    assert list(t.registrations.order_by("start_number").values_list("player__name", flat=True)) == ["Neu Mann", "Anna Berger"]
    assert Player.objects.filter(name__icontains="Berger").count() == 1
    # Or somebody else of the same name, said so explicitly.
    director_client.post(page_url(t), {"names": "Hans Falk", "choice_1": "new"})
    assert Player.objects.filter(name="Hans Falk").count() == 2


@pytest.mark.django_db
def test_bad_lines_are_named_and_nothing_is_registered(director_client, make_tournament, english):
    t = make_tournament(players=0)
    response = director_client.post(page_url(t), {"names": "Karl Dorn\n; Imst\nKarl Dorn\n" + "x" * 130})
    page = response.content.decode()
    assert "Line 2 has no name." in page and "Line 3: Karl Dorn is in the list twice (also line 1)." in page
    assert "Line 4: a name or club is longer than 120 characters." in page
    assert not t.registrations.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_a_mistaken_registration_is_removed_before_the_player_is_seated(director_client, make_tournament, english):
    t = make_tournament(players=5)
    mistake = t.registrations.get(start_number=2)
    director_client.post(reverse("tournaments_director:remove_registration", args=[t.pk, mistake.pk]))
    assert list(t.registrations.values_list("start_number", flat=True)) == [1, 2, 3, 4]  # numbers close up
    assert Player.objects.filter(pk=mistake.player_id).exists()  # he stays in the register
    response = director_client.post(reverse("tournaments_director:remove_registration", args=[t.pk, mistake.pk]), follow=True)
    assert "removed already" in response.content.decode()
    rnd = services.draw_next_round(t, seed=1)
    seated = rnd.tables.get().seats.first().registration
    response = director_client.post(reverse("tournaments_director:remove_registration", args=[t.pk, seated.pk]), follow=True)
    assert "withdraw the player instead" in response.content.decode() and Registration.objects.filter(pk=seated.pk).exists()


@pytest.mark.django_db
def test_players_are_edited_and_duplicates_merged_with_their_history(director_client, make_tournament, english):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=1).tables.get()
    save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [3, -1, -1, -1]})
    played = table.seats.get(position=0).registration.player
    twin = Player.objects.create(name=played.name.upper(), club="")  # the same person entered again
    other = make_tournament(players=0, name="Zweites Turnier")
    services.register(other, twin)
    page = director_client.get(reverse("tournaments_director:players")).content.decode()
    assert "Possible duplicates" in page and played.name.upper() in page
    director_client.post(reverse("tournaments_director:merge_players"), {"keep": played.pk, "merge": [twin.pk]})
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert set(played.registrations.values_list("tournament__name", flat=True)) == {"Testturnier", "Zweites Turnier"}
    # Both in one tournament: refused, nothing merged.
    third = Player.objects.create(name=played.name, club="x")
    services.register(t, third)
    response = director_client.post(reverse("tournaments_director:merge_players"), {"keep": played.pk, "merge": [third.pk]}, follow=True)
    assert "Both are registered in Testturnier" in response.content.decode() and Player.objects.filter(pk=third.pk).exists()
    # Editing a player's name keeps his results.
    director_client.post(reverse("tournaments_director:player_edit", args=[played.pk]), {"name": "Anna Neu", "club": "Imst"})
    played.refresh_from_db()
    assert played.name == "Anna Neu" and played.registrations.count() == 2


@pytest.mark.django_db
def test_adding_a_player_whose_name_exists_asks_first(director_client, register, english):
    url = reverse("tournaments_director:player_create")
    response = director_client.post(url, {"name": "ANNA BERGER", "club": ""})
    assert response.status_code == 200 and "Anna Berger (Imst) is in the register already" in response.content.decode()
    assert Player.objects.count() == 3
    director_client.post(url, {"name": "ANNA BERGER", "club": "", "another": "on"})
    assert Player.objects.count() == 4


@pytest.mark.django_db
def test_withdraw_sets_so_a_double_click_withdraws_once(director_client, make_tournament):
    t = make_tournament(players=4)
    entry = t.registrations.get(start_number=2)
    url = reverse("tournaments_director:withdraw", args=[t.pk, entry.pk])
    director_client.post(url, {"withdrawn": "1"})
    director_client.post(url, {"withdrawn": "1"})
    entry.refresh_from_db()
    assert entry.withdrawn
    director_client.post(url, {"withdrawn": "0"})
    director_client.post(url, {})  # no value: nothing changes
    entry.refresh_from_db()
    assert not entry.withdrawn


@pytest.mark.django_db
def test_tampered_ids_are_refused_not_a_server_error(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    assert director_client.post(reverse("tournaments_director:register_player", args=[t.pk]), {"player": "x"}).status_code == 404
    response = director_client.post(reverse("tournaments_director:merge_players"), {"keep": "abc", "merge": ["1", "z"]}, follow=True)
    assert "Choose the player to keep" in response.content.decode() and Player.objects.count() == 3


def test_posted_numbers_are_read_without_trusting_the_form():
    from tournaments.posted import whole_number, whole_numbers

    assert [whole_number(v) for v in ["12", "0", "", "x", "-3", "²", " 3", None]] == [12, 0, None, None, None, None, None, None]
    assert whole_numbers(["3", "x", None, "5"]) == [3, 5]
