"""Hungarian Tarokk, Tapp-Tarock and free scoring go through the whole day — their demo
tournaments (built through the services) answer every page a director, a player or a printer asks
for, with the game's own columns and words, and nothing outside ``variants/`` names them."""

from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.demo import FREE_DEMO, HUNGARIAN_DEMO, TAPP_DEMO, build_demo
from scoring.models import Hand

SPECS = {"hungarian": HUNGARIAN_DEMO, "tapp": TAPP_DEMO, "free": FREE_DEMO}


@pytest.fixture(params=sorted(SPECS))
def demo(request, db):
    return build_demo(SPECS[request.param])


def pdf_text(response) -> str:
    assert response.status_code == 200, response
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(response.content)).pages)


def test_demo_hands_are_valid_and_rescore_to_the_stored_rows(demo):
    rs = demo.get_ruleset()
    hands = list(Hand.objects.filter(table__round__tournament=demo))
    assert len(hands) == sum(
        demo.hands_for_table(t.seats.count()) for r in demo.round_set.all() for t in r.tables.all()
    )
    for hand in hands:
        size = len(hand.scores)
        assert rs.validate(hand.record, size) == []
        assert rs.score(hand.record, size) == hand.scores
        if rs.zero_sum:
            assert sum(hand.scores) == 0


def test_every_page_of_the_day_answers(demo, director_client, english):
    rs = demo.get_ruleset()
    public = Client()
    table = demo.round_set.get(number=1).tables.order_by("number").first()
    registration = demo.registrations.order_by("start_number").first()
    standings = public.get(reverse("scoring:standings", args=[demo.pk])).context["standings"]
    for url in (
        reverse("tournaments:detail", args=[demo.pk]),
        reverse("tournaments:round", args=[demo.pk, 1]),
        reverse("scoring:rules", args=[demo.pk]),
        reverse("scoring:sheet", args=[table.pk]),
        reverse("scoring:standings", args=[demo.pk]),
        reverse("live:player", args=[demo.pk, registration.pk]),
        reverse("live:statistics", args=[demo.pk]),
        reverse("live:chart_progression", args=[demo.pk]),
        reverse("live:chart_contracts", args=[demo.pk]),
        reverse("live:table_chart", args=[table.pk]),
        reverse("prizes:list", args=[demo.pk]),
        reverse("live:screen", args=[demo.pk]),
    ):
        assert public.get(url).status_code == 200, url
    assert director_client.get(reverse("live_director:board", args=[demo.pk])).status_code == 200
    statistics = public.get(reverse("live:statistics", args=[demo.pk])).content.decode()
    # Written rows have no contracts: no empty "contracts of the day" where hundreds were played.
    assert ("Contracts of the day" in statistics) == bool(rs.contracts)
    rules = public.get(reverse("scoring:rules", args=[demo.pk])).content.decode()
    for contract in rs.contracts:
        assert f"<code>{contract.code}</code>" in rules  # every contract with its notation code
    # The standings in the workbook are the page's.
    book = load_workbook(BytesIO(public.get(reverse("exports:standings_xlsx", args=[demo.pk])).content))
    names = [r[2] for r in list(book["Standings"].iter_rows(values_only=True))[1:]]
    assert names[:3] == [row.entry.name for row in standings.rows[:3]]
    assert rs.label in pdf_text(public.get(reverse("exports:standings_pdf", args=[demo.pk])))
    card = public.get(reverse("exports:notation_card_pdf", args=[demo.pk]))
    assert len(PdfReader(BytesIO(card.content)).pages) == 1  # one page for the scorers' desk
    for contract in rs.contracts:
        assert contract.name in pdf_text(card)
    assert pdf_text(public.get(reverse("exports:day_report_pdf", args=[demo.pk])))
    sheets = pdf_text(director_client.get(reverse("exports_director:score_sheets_pdf", args=[demo.pk, 1])))
    seated = table.seats.select_related("registration__player").order_by("position")
    assert seated[0].registration.player.name in sheets

