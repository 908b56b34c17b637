"""Each player's own page — this round's table, seat, drawn card and tablemates, his
hands with running totals, his round scores, rank and its change — and the way to it."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import end_table, save_hand
from tournaments import services

# koenigrufen.md §1: a Rufer won by seat 1 with partner seat 3 scores +1 for each of them, −1 for
# seats 0 and 2; lost, the other way round.
RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}
RUFER_1_3_LOST = {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False}


@pytest.mark.django_db
def test_a_players_page_shows_his_table_hands_and_rank(make_tournament, english):
    t = make_tournament(players=4)
    r1 = services.draw_next_round(t, seed=7)
    first = r1.tables.get()
    save_hand(first, RUFER_1_3_WON)
    end_table(first)
    r2 = services.draw_next_round(t, seed=8)
    second = r2.tables.get()
    seat = second.seats.select_related("registration__player").get(position=2)
    me = seat.registration
    save_hand(second, RUFER_1_3_LOST)  # hand 1 of round 2: declarer seat 2 with seat 0, lost: −1 for seat 2
    was = first.seats.get(registration=me).position
    round1 = {0: -1, 1: 1, 2: -1, 3: 1}[was]

    page = Client().get(reverse("live:player", args=[t.pk, me.pk])).content.decode()
    assert me.player.name in page
    assert "Round 2" in page and f"Seat 3, drawn card" in page
    mates = [s.registration.player.name for s in second.seats.select_related("registration__player").exclude(pk=seat.pk)]
    assert all(name in page for name in mates)
    # His hands: round 2 hand 1 −1 (running total −1); round 1 hand 1 with his score there.
    assert '<td class="num neg">-1</td><td class="num">-1</td>' in page
    sign = "pos" if round1 > 0 else "neg"
    assert f'<td class="num {sign}">{round1}</td><td class="num">{round1}</td>' in page
    assert "Rank" in page and "Total" in page


@pytest.mark.django_db
def test_find_my_name_leads_to_every_players_page(make_tournament, english):
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=7)
    names = Client().get(reverse("live:player_names", args=[t.pk])).content.decode()
    for reg in t.registrations.select_related("player"):
        assert reverse("live:player", args=[t.pk, reg.pk]) in names and reg.player.name in names
    assert reverse("live:player_names", args=[t.pk]) in Client().get(t.get_absolute_url()).content.decode()
    seating = Client().get(reverse("tournaments:round", args=[t.pk, 1])).content.decode()
    assert 'class="names-qr"' in seating and "data:image/png;base64," in seating  # the QR to the names


@pytest.mark.django_db
def test_a_player_of_another_tournament_is_not_found(make_tournament):
    t, other = make_tournament(players=4), make_tournament(players=4, name="Anderes")
    reg = other.registrations.first()
    assert Client().get(reverse("live:player", args=[t.pk, reg.pk])).status_code == 404


@pytest.mark.django_db
def test_the_seating_list_pdf_carries_the_qr_and_address_of_the_names(make_tournament, settings):
    import io

    from pypdf import PdfReader

    settings.PUBLIC_URL = "http://192.168.1.23:8000"
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=7)
    response = Client().get(reverse("exports:seating_pdf", args=[t.pk, 1]))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert f"http://192.168.1.23:8000/t/{t.pk}/players/" in text.replace("\n", "")
