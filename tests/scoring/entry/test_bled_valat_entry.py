"""A Bled valat entered at the table: by the form's fields and by the quick line
(``tarok-bled.md`` §3 and §6, "Revised 2026-11-26").

Seat 0 drew Škis and deals hand 1, so seat 1 is forehand and may play Trojka. A valat is the
``valat`` bonus made with its side; the card points may be left out. The declarer's silent valat
scores 250 (§3), declarer-only: the defenders write 0.
"""

import pytest
from django.urls import reverse

from scoring.models import Hand
from tournaments import services


@pytest.fixture
def table(make_tournament):
    t = make_tournament(3, ruleset="tarok-bled", edition="2005", rounds=4, hands_per_round=21)
    return services.draw_next_round(t, seed=5).tables.get()


def post(client, table, **fields):
    data = {"outcome": "played", "dealer": "0", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


@pytest.mark.django_db
def test_the_fields_save_a_trojka_valat_without_card_points(director_client, table):
    response = post(director_client, table, contract="trojka", declarer=1, bonus_valat="d:s:1", source="fields")
    assert response.status_code == 302, response.content.decode()[:2000]
    hand = Hand.objects.get()
    assert hand.scores == [0, 250, 0]
    assert "declarer_points" not in hand.record
    assert hand.record["bonuses"] == [{"bonus": "valat", "team": "declarer", "announced": False, "made": True}]


@pytest.mark.django_db
def test_the_fields_save_the_defenders_valat_with_4_card_points(director_client, table):
    response = post(director_client, table, contract="trojka", declarer=1, declarer_points=4, bonus_valat="o:s:1", source="fields")
    assert response.status_code == 302
    assert Hand.objects.get().scores == [0, -250, 0]


@pytest.mark.django_db
def test_the_quick_line_saves_a_valat_with_66_card_points(director_client, table):
    response = post(director_client, table, quick="t 2 66 val", source="line")
    assert response.status_code == 302
    assert Hand.objects.get().scores == [0, 250, 0]


@pytest.mark.django_db
def test_the_defenders_valat_with_40_is_refused_by_name(director_client, table, english):
    response = post(director_client, table, quick="t 2 40 /val", source="line")
    assert response.status_code == 422
    assert not Hand.objects.exists()
    assert "A valat made by the opponents leaves the declarer 0 to 34 card points, not 40" in response.content.decode()


@pytest.mark.django_db
def test_a_klop_counting_69_is_saved(director_client, table):
    response = post(director_client, table, contract="klop", points_0=20, points_1=30, points_2=19, source="fields")
    assert response.status_code == 302
    assert Hand.objects.get().scores == [-20, -30, -19]
