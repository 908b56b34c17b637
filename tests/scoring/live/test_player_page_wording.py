"""A player's page heads his results across tournaments in neutral words ("Tournaments played"),
in every language: not "Every tournament he played", "Alle seine Turniere", "Vsi njegovi turnirji"."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import save_hand
from tournaments import services


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "gendered"),
    [("en", "Every tournament he played"), ("de", "Alle seine Turniere"), ("sl", "Vsi njegovi turnirji")],
)
def test_the_tournaments_heading_is_neutral(make_tournament, language, gendered):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=1).tables.get()
    save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [2, -2, 0, 0]})
    registration = table.seats.first().registration
    page = Client(headers={"accept-language": language}).get(reverse("live:player", args=[t.pk, registration.pk]))
    html = page.content.decode()
    assert f'<html lang="{language}"' in html
    assert 'id="tournaments"' in html  # the heading is there
    assert gendered not in html
    if language == "en":
        assert '<h2 id="tournaments">Tournaments played</h2>' in html
