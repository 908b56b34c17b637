"""A tournament's ruleset options are chosen on its form, shown on its rules page and
printed under its standings."""

from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.services import save_hand
from tournaments import services
from tournaments.models import Tournament


@pytest.mark.django_db
@pytest.mark.parametrize(
    "edition, option, label",
    [
        ("tiroler-tarockcup|2019/20", "silent_sacks", "A silent 1. or 2. Sack counts 1"),
        ("wiener-tarockcup|2009", "valat_doubled_in_lost_sechserdreier", "A Valat of the opponents against a lost Sechserdreier is doubled like the game"),
        ("tarok-bled|2005", "solo_valat", "A Solo taking every trick scores the valat"),
        ("tarok-bled|2005", "klop_full_above_35", "In Klop only more than 35 card points is full"),
    ],
)
def test_an_option_chosen_on_the_form_is_shown_and_printed(director_client, english, edition, option, label):
    form = director_client.get(reverse("tournaments_director:create")).context["form"]
    offered = [value for value, _label in form.fields["ruleset_options"].choices]
    assert f"{edition}:{option}" in offered
    ticked = [v for v in form["ruleset_options"].initial if v.startswith(edition + ":")] + [f"{edition}:{option}"]
    data = {"name": "Optionen", "date": "2026-11-23", "ruleset_edition": edition, "rounds": "", "hands_per_round": "",
            "draw_mode": "avoid_repeats", "status": "planned", "ruleset_options": ticked}
    assert director_client.post(reverse("tournaments_director:create"), data).status_code == 302
    t = Tournament.objects.get(name="Optionen")
    assert t.get_ruleset().options[option] is True

    rules = Client().get(reverse("scoring:rules", args=[t.pk])).content.decode()
    options = rules[rules.index('id="options"') :]
    row = options[: options.index(label)].rsplit("<tr>", 1)[1]
    assert "✓ on" in row
    for i in range(9):
        from tournaments.models import Player

        services.register(t, Player.objects.create(name=f"Spieler {i}"))
    table = services.draw_next_round(t, seed=1).tables.first()
    size = table.seats.count()
    save_hand(table, {"dealer": table.dealer_of(1, size), "outcome": "manual", "scores": [0] * size})
    page = Client().get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert f"Options of this tournament: {label} (on)" in page
    pdf = PdfReader(BytesIO(Client().get(reverse("exports:standings_pdf", args=[t.pk])).content))
    text = " ".join(" ".join(p.extract_text().split()) for p in pdf.pages)
    assert "Options of this tournament:" in text and " ".join(label.split()[:4]) in text


@pytest.mark.django_db
def test_another_editions_option_is_not_offered_for_this_one(director_client):
    """WTC 2020 has no silent Sack option: a forged one does not reach the tournament."""
    data = {"name": "WTC", "date": "2026-11-23", "ruleset_edition": "wiener-tarockcup|2020", "rounds": "",
            "hands_per_round": "", "draw_mode": "avoid_repeats", "status": "planned",
            "ruleset_options": ["tiroler-tarockcup|2019/20:silent_sacks"]}
    director_client.post(reverse("tournaments_director:create"), data)
    assert "silent_sacks" not in Tournament.objects.get(name="WTC").options
