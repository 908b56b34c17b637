"""The tournament page and the draw as a first-time director meets them: a "Register players"
button; no "Draw round 1" while nobody (or too few for a table) can be seated, but what is
missing; the seed explained under "Advanced" and never in the message after the draw; the
tables still playing listed as a sentence; the register's column headers capitalised."""

import re

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Player


def draw_url(t):
    return reverse("tournaments_director:draw", args=[t.pk])


def flash(page):
    return " ".join(re.findall(r'<ul class="messages">(.*?)</ul>', page, re.S))


@pytest.mark.django_db
def test_the_tournament_page_has_a_register_players_button_and_no_draw_without_players(director_client, make_tournament, english):
    t = make_tournament(players=0)
    page = director_client.get(t.get_absolute_url()).content.decode()
    register = reverse("tournaments_director:registrations", args=[t.pk])
    assert re.search(rf'<a class="button" href="{register}">Register players</a>', page)
    assert "Draw round 1" not in page and draw_url(t) not in page
    assert "No player is registered yet: register the players before the draw." in page
    # Too few for one table of 4 (Tiroler Tarockcup): said so, still no button.
    for i in range(3):
        services.register(t, Player.objects.create(name=f"Spieler {i}"))
    page = director_client.get(t.get_absolute_url()).content.decode()
    assert "Draw round 1" not in page
    assert "3 players cannot be seated at tables of 4/5 players; the nearest count that works is 4." in page
    services.register(t, Player.objects.create(name="Spieler 4"))
    page = director_client.get(t.get_absolute_url()).content.decode()
    assert "Draw round 1" in page and "cannot be seated" not in page
    assert re.search(rf'<a class="button secondary" href="{register}">Register players</a>', page)  # the draw leads now
    assert "4 active players" in page


@pytest.mark.django_db
def test_the_draw_page_says_what_is_missing_instead_of_offering_a_draw(director_client, make_tournament, english):
    t = make_tournament(players=0)
    page = director_client.get(draw_url(t)).content.decode()
    assert "No player is registered yet: register the players before the draw." in page
    assert ">Draw</button>" not in page
    t = make_tournament(players=6, name="Sechs")  # tables of 4 and 5 cannot seat 6
    page = director_client.get(draw_url(t)).content.decode()
    assert "6 players cannot be seated at tables of 4/5 players; the nearest counts that work are 5 or 8." in page
    assert ">Draw</button>" not in page
    for reg in t.registrations.all():
        reg.withdrawn = True
        reg.save()
    assert "Every registered player has withdrawn" in director_client.get(draw_url(t)).content.decode()
    with pytest.raises(services.DrawRefused, match="Every registered player has withdrawn"):
        services.draw_next_round(t)


@pytest.mark.django_db
def test_the_seed_is_explained_under_advanced_and_not_flashed(director_client, make_tournament, english):
    t = make_tournament(players=8)
    page = director_client.get(draw_url(t)).content.decode()
    assert re.search(r"<details><summary>Advanced: draw from a seed</summary>\s*<p><label for=\"id_seed\">", page)
    assert "Leave it empty for a fresh random draw." in page and 'aria-describedby="id_seed_helptext"' in page
    response = director_client.post(draw_url(t), {"number": "1"}, follow=True)
    rnd = t.round_set.get()
    page = response.content.decode()
    assert flash(page).strip() == '<li class="success">Round 1 is drawn.</li>'
    assert str(rnd.seed) not in flash(page)
    assert f"Seed {rnd.seed}" in page  # where the round's seating is recorded
    # Drawn again: no seed in the message either.
    response = director_client.post(reverse("tournaments_director:redraw", args=[t.pk, 1]), {"seed": str(rnd.seed)}, follow=True)
    again = t.round_set.get()
    assert flash(response.content.decode()).strip() == '<li class="success">Round 1 is drawn again.</li>'
    assert f"Seed {again.seed}" in response.content.decode()


@pytest.mark.django_db
def test_all_rounds_at_the_start_are_announced_as_such(director_client, make_tournament, english):
    t = make_tournament(players=8, rounds=3, draw_mode="all_at_start")
    response = director_client.post(draw_url(t), {"number": "1"}, follow=True)
    assert flash(response.content.decode()).strip() == '<li class="success">Rounds 1 to 3 are drawn.</li>'


def test_tables_still_playing_read_as_a_sentence(english):
    assert services.still_playing(1, [2]) == "Round 1 is still playing at table 2."
    assert services.still_playing(1, [1, 2]) == "Round 1 is still playing at tables 1 and 2."
    assert services.still_playing(3, [1, 4, 7]) == "Round 3 is still playing at tables 1, 4 and 7."
    refused = services.UnfinishedTables(1, [1, 2])
    assert refused.message == "Round 1 is still playing at tables 1 and 2. Draw the next round anyway?"


@pytest.mark.django_db
def test_the_draw_page_lists_the_tables_still_playing(director_client, make_tournament, english):
    from scoring.services import save_hand

    t = make_tournament(players=12)
    tables = list(services.draw_next_round(t, seed=1).tables.order_by("number"))
    for table in tables:
        save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [1, -1, 0, 0]})
    page = director_client.get(draw_url(t)).content.decode()
    assert "Round 1 is still playing at tables 1, 2 and 3." in page


@pytest.mark.django_db
def test_the_register_columns_are_headed_with_capitals(director_client, make_tournament, english):
    t = make_tournament(players=2)
    page = director_client.get(reverse("tournaments_director:registrations", args=[t.pk])).content.decode()
    headers = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", page, re.S)]
    assert headers == ["No.", "Name", "Town or club", "Withdrawn"]
