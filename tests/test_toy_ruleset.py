"""The ruleset contract: a ruleset that exists only in this test module plays a whole
tournament — created on the form, drawn, hands typed in its notation and entered by its fields,
standings, workbook and PDFs, the rules page — and nothing outside ``variants/`` and this test knows
it exists.

The toy game: three players, one contract ("Stich", code ``s``): the declarer wins or loses 1 from
each other player, zero-sum.
"""

from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from variants import Contract, Ruleset, SeatCard, Settlement, register, unregister
from variants.checks import HandCheck

KEY = "toy-stich"


class ToyCheck(HandCheck):
    """The declarer and the result, both required."""

    def check_played(self) -> None:
        if self.contract() is None:
            return
        self.seat("declarer", "declarer", required=True)
        if not isinstance(self.hand.get("won"), bool):
            self.add("Say whether the Stich was won or lost.")


class Toy(Ruleset):
    key = KEY
    edition = "1"
    name = "Stich"
    label = "Stich (toy)"
    table_sizes = (3,)
    preferred_table_size = 3
    default_rounds = 2
    default_hands_per_round = 4
    contracts = (Contract("stich", "Stich", 1, "stich", code="s"),)
    notation_example_hands = ((3, {"dealer": 0, "contract": "stich", "declarer": 1, "won": True}),)

    @property
    def checker(self):
        return ToyCheck

    def fields(self, contract):
        return ("declarer", "won")

    def seat_cards(self, table_size):
        return (SeatCard("a", "Ass"), SeatCard("b", "Bube"), SeatCard("c", "Dame"))[:table_size]

    def settle(self, hand, table_size, history=()):
        sign = 1 if hand["won"] else -1
        row = [-sign] * table_size
        row[hand["declarer"]] = sign * (table_size - 1)
        return Settlement(row=tuple(row), summary="won" if hand["won"] else "lost")


@pytest.fixture
def toy():
    register(KEY, "1", lambda editions, options: Toy(editions, options), current=True)
    yield
    unregister(KEY)


@pytest.mark.django_db
def test_a_tournament_of_a_ruleset_the_project_has_never_heard_of(toy, director_client, english):
    from tournaments import services
    from tournaments.models import Player, Tournament

    response = director_client.post(
        reverse("tournaments_director:create"),
        {"name": "Stichabend", "date": "2026-11-23", "ruleset_edition": f"{KEY}|1", "rounds": "", "hands_per_round": "",
         "draw_mode": "avoid_repeats", "status": "planned"},
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Stichabend")
    assert (t.rounds, t.hands_per_round) == (2, 4)  # the toy's defaults
    for name in ("Anna Berger", "Karl Dorn", "Maria Egger"):
        services.register(t, Player.objects.create(name=name))
    director_client.post(reverse("tournaments_director:draw", args=[t.pk]), {"number": "1"})
    table = t.round_set.get().tables.get()
    assert sorted(table.seats.values_list("card", flat=True)) == ["a", "b", "c"]

    # Hand 1 typed in the toy's notation, hand 2 by its fields.
    url = reverse("entry:hand_create", args=[table.pk])
    dealer = table.dealer_of(1, 3)
    assert director_client.post(url, {"dealer": dealer, "outcome": "played", "quick": "s 2 +", "source": "line"}).status_code == 302
    refused = director_client.post(url, {"dealer": (dealer + 1) % 3, "outcome": "played", "quick": "s 2 + pag", "source": "line"})
    assert "“pag” is neither a code of Stich (toy) nor a player at this table." in refused.content.decode()
    director_client.post(url, {"dealer": (dealer + 1) % 3, "outcome": "played", "contract": "stich", "declarer": "0", "won": "0", "source": "fields"})
    assert list(table.hands.order_by("number").values_list("scores", flat=True)) == [[-1, 2, -1], [-2, 1, 1]]

    sheet = director_client.get(table.get_absolute_url()).content.decode()
    seated = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]
    assert f"Stich · {seated[1]} · won" in sheet and f"Stich · {seated[0]} · lost" in sheet
    assert '<code class="notation">s 2 +</code>' in sheet
    standings = Client().get(reverse("scoring:standings", args=[t.pk])).context["standings"]
    assert [row.total for row in standings.rows] == [3, 0, -3]  # seat 2: 2 + 1, seat 3: −1 + 1, seat 1: −1 − 2
    book = load_workbook(BytesIO(Client().get(reverse("exports:standings_xlsx", args=[t.pk])).content))
    assert [r[4] for r in list(book["Standings"].iter_rows(values_only=True))[1:]] == [3, 0, -3]
    pdf = PdfReader(BytesIO(Client().get(reverse("exports:standings_pdf", args=[t.pk])).content))
    assert "Stich (toy)" in pdf.pages[0].extract_text()
    sheets = PdfReader(BytesIO(director_client.get(reverse("exports_director:score_sheets_pdf", args=[t.pk, 1])).content))
    assert "Anna Berger" in sheets.pages[0].extract_text()
    rules = Client().get(reverse("scoring:rules", args=[t.pk])).content.decode()
    assert "<code>s</code>" in rules and "<code>s 2 +</code>" in rules
    card = PdfReader(BytesIO(Client().get(reverse("exports:notation_card_pdf", args=[t.pk])).content))
    assert len(card.pages) == 1
