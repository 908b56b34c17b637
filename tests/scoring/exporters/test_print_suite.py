"""The print suite: blank score sheets, table results and certificates as A4 PDFs."""

from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.services import save_hand
from tournaments import services


def pdf(response):
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    reader = PdfReader(BytesIO(response.content))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture
def played(make_tournament):
    t = make_tournament(players=9, name="Frühjahrsturnier Lienz")  # one 5-table and one 4-table
    rnd = services.draw_next_round(t, seed=4)
    table = rnd.tables.order_by("number").first()
    size = table.seats.count()
    save_hand(table, {"dealer": table.dealer_of(1, size), "outcome": "manual", "scores": [7, -7] + [0] * (size - 2)})
    return t, rnd, table


@pytest.mark.django_db
def test_blank_score_sheets_one_page_per_table_for_directors(director_client, played, english):
    t, rnd, table = played
    url = reverse("exports_director:score_sheets_pdf", args=[t.pk, rnd.number])
    assert Client().get(url).status_code == 302  # private links on the sheets: directors only
    reader, text = pdf(director_client.get(url))
    assert len(reader.pages) == rnd.tables.count()
    for seat in table.seats.select_related("registration__player"):
        assert seat.registration.player.name in text
    assert "Frühjahrsturnier Lienz" in text and "Tarock" in text
    assert "0" in text and ("sum to 0" in text or "muss 0" in text)


@pytest.mark.django_db
def test_table_results_show_the_hands_as_entered(director_client, played, english):
    t, rnd, table = played
    url = reverse("exports:table_results_pdf", args=[t.pk, rnd.number])
    # public again: rendered once per data version, a big field by the worker
    _reader, text = pdf(Client().get(url))
    first = table.seats.get(position=0).registration.player.name
    assert first in text and "7" in text and "-7" in text.replace("−", "-")


@pytest.mark.django_db
def test_certificates_for_the_first_places(director_client, played, english):
    t, _rnd, table = played
    url = reverse("exports_director:certificates_pdf", args=[t.pk])
    assert Client().get(url).status_code == 302
    reader, text = pdf(director_client.get(url, {"places": "1"}))
    assert len(reader.pages) == 1
    winner = table.seats.get(position=0).registration.player.name  # +7, alone at the top
    assert winner in text and "Frühjahrsturnier Lienz" in text
    # three players of the played table share rank 2 (all on 0): everyone within the first two
    # places gets one; the four whose table has not played yet ("–") come after them
    reader, _text = pdf(director_client.get(url, {"places": "2"}))
    assert len(reader.pages) == 4


@pytest.mark.django_db
def test_standings_pdf_after_a_round(make_tournament, english):
    t = make_tournament(players=4, rounds=2)
    first = services.draw_next_round(t, seed=1).tables.get()
    save_hand(first, {"dealer": 3, "outcome": "manual", "scores": [9, -3, -3, -3]})
    second = services.draw_next_round(t, seed=2).tables.get()
    save_hand(second, {"dealer": 3, "outcome": "manual", "scores": [-20, 10, 5, 5]})
    response = Client().get(reverse("exports:standings_pdf", args=[t.pk]), {"after": "1"})
    assert "after-round-1" in response["Content-Disposition"]
    _reader, text = pdf(response)
    assert "after round 1" in text and "9" in text and "-20" not in text.replace("−", "-")
