"""The Ö-Finale's pages: the director makes a tournament an Ö-Finale and edits it (a refused
Finalpunkte table keeps what was typed), the public Gesamtwertung and qualifiers' list, both lists
as a workbook and a PDF, the registration of the qualifiers, the link from the tournament page.
The cups and the day: ``conftest.py`` and ``test_gesamtwertung.py``."""

import io

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.finale.models import OeFinale
from tests.scoring.finale.conftest import FINAL_RULES
from tournaments.models import ActionLog

TABLE_TEXT = "60 54 49 45\n44 40 38 37"


@pytest.fixture
def finale(final_day, cups):
    finale = OeFinale.objects.create(tournament=final_day, finalpunkte=[60, 54, 49, 45, 44, 40, 38, 37])
    finale.cups.set(cups)
    return finale


@pytest.mark.django_db
def test_a_director_makes_a_tournament_an_oe_finale(director_client, final_day, cups, english):
    url = reverse("finale_manage:settings", args=[final_day.pk])
    page = director_client.get(url)
    assert page.status_code == 200 and "Make this tournament an Ö-Finale" in page.content.decode()
    assert "The Ö-Finale plays 3 rounds; this tournament has 1." in page.content.decode()  # §6.9, not enforced
    answer = director_client.post(url, {"cups": [c.pk for c in cups], "finalpunkte_text": TABLE_TEXT})
    assert answer.status_code == 302
    finale = OeFinale.objects.get(tournament=final_day)
    assert finale.finalpunkte == [60, 54, 49, 45, 44, 40, 38, 37] and not finale.sum_vorrundenpunkte
    assert {c.name for c in finale.cups.all()} == {"Tiroler Tarockcup", "Wiener Tarockcup"}
    assert ActionLog.objects.filter(tournament=final_day, action="edited", detail__contains="Ö-Finale").exists()
    page = director_client.get(url).content.decode()
    assert "60 54 49 45 44 40 38 37" in page  # the stored table, shown to edit


@pytest.mark.django_db
def test_a_bad_table_is_refused_naming_its_rank_and_keeping_the_text(director_client, finale, english):
    url = reverse("finale_manage:settings", args=[finale.tournament_id])
    typed = "60 54 49\n45 -4 40"
    answer = director_client.post(url, {"cups": [c.pk for c in finale.cups.all()], "finalpunkte_text": typed, "sum_vorrundenpunkte": "on"})
    assert answer.status_code == 422
    page = answer.content.decode()
    assert "Rank 5: -4 is negative; there are no minus points." in page
    assert typed in page  # nothing typed is lost
    finale.refresh_from_db()
    assert finale.finalpunkte == [60, 54, 49, 45, 44, 40, 38, 37] and not finale.sum_vorrundenpunkte  # nothing saved


@pytest.mark.django_db
def test_the_settings_are_for_the_tournaments_directors(finale, client):
    url = reverse("finale_manage:settings", args=[finale.tournament_id])
    assert client.get(url).status_code == 302  # to the login
    stranger = get_user_model().objects.create_user("gast", password="geheim-123")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, {"remove": "1"}).status_code == 403
    assert OeFinale.objects.filter(pk=finale.pk).exists()


@pytest.mark.django_db
def test_the_gesamtwertung_and_the_qualifiers_pages(finale, english):
    client = Client()
    page = client.get(reverse("finale:gesamtwertung", args=[finale.tournament_id]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Österreichischer Tarockmeister" in text and "Provisional" not in text
    assert text.index("Anna") < text.index("Emil") < text.index("Gerda")
    assert "<strong>180</strong>" in text and "no qualifier" in text
    assert "day rank: 5 to 6" in text  # Bert and Franz on 144: Bert's better day rank
    page = client.get(reverse("finale:qualifiers", args=[finale.tournament_id])).content.decode()
    assert "Tiroler Tarockcup" in page and "Vorrundenpunkte table of 40 ranks" in page and "1.* (120)" in page


@pytest.mark.django_db
def test_a_tournament_that_is_no_oe_finale_has_no_such_pages(final_day):
    client = Client()
    assert client.get(reverse("finale:gesamtwertung", args=[final_day.pk])).status_code == 404
    assert client.get(reverse("finale:export", args=[final_day.pk, "xlsx"])).status_code == 404
    assert client.get(reverse("finale:export", args=[final_day.pk + 1000, "pdf"])).status_code == 404


@pytest.mark.django_db
def test_the_gesamtwertung_page_follows_a_change_of_a_cup(finale, english):
    client = Client()
    url = reverse("finale:gesamtwertung", args=[finale.tournament_id])
    before = client.get(url)
    cup_b = finale.cups.get(name="Wiener Tarockcup")
    cup_b.oe_finale_table = ""
    cup_b.version += 1  # as the cup's settings page bumps it
    cup_b.save()
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and "qualify nobody" in after.content.decode()


@pytest.mark.django_db
def test_the_workbook_holds_both_lists_and_the_table(finale, english):
    answer = Client().get(reverse("finale:export", args=[finale.tournament_id, "xlsx"]))
    assert answer.status_code == 200 and answer["Content-Disposition"].endswith('-oe-finale.xlsx"')
    wb = openpyxl.load_workbook(io.BytesIO(answer.content))
    assert wb.sheetnames == ["Gesamtwertung", "Qualifiers", "Finalpunkte"]
    first = [c.value for c in wb["Gesamtwertung"][2]]
    assert first[:8] == [1, "Anna", "Imst", 1, 1, 120, 60, 180]
    assert [c.value for c in wb["Qualifiers"][1]][-2:] == ["Vorrundenpunkte", "Registered"]
    assert [c.value for c in wb["Finalpunkte"]["B"]][1:] == [60, 54, 49, 45, 44, 40, 38, 37]


@pytest.mark.django_db
def test_the_pdf_holds_both_lists(finale, english):
    answer = Client().get(reverse("finale:export", args=[finale.tournament_id, "pdf"]))
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.content)).pages)
    assert "Gesamtwertung" in text and "Qualifiers" in text and "Franz" in text


@pytest.mark.django_db
def test_the_director_registers_the_qualifiers(director_client, cups, players, make_tournament, english):
    t = make_tournament(players=0, name="Ö-Finale 2027", **FINAL_RULES)
    t.registrations.create(player=players["Dora"], start_number=1)
    OeFinale.objects.create(tournament=t, finalpunkte=[60]).cups.set(cups)
    url = reverse("finale_manage:settings", args=[t.pk])
    assert "5 qualifiers are not registered in this tournament." in director_client.get(url).content.decode()
    director_client.post(reverse("finale_manage:register", args=[t.pk]))
    # In the order of the qualifiers' list: Anna and Emil (120), Carl, Franz, Bert.
    assert list(t.registrations.order_by("start_number").values_list("player__name", flat=True)) == ["Dora", "Anna", "Emil", "Carl", "Franz", "Bert"]
    assert "Every qualifier is registered." in director_client.get(url).content.decode()


@pytest.mark.django_db
def test_the_tournament_page_links_the_gesamtwertung_and_the_settings(director_client, finale, make_tournament, english):
    page = Client().get(finale.tournament.get_absolute_url()).content.decode()
    assert reverse("finale:gesamtwertung", args=[finale.tournament_id]) in page
    other = make_tournament(players=0, name="Gewöhnlich")
    assert reverse("finale:gesamtwertung", args=[other.pk]) not in Client().get(other.get_absolute_url()).content.decode()
    assert reverse("finale_manage:settings", args=[other.pk]) in director_client.get(other.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_removing_the_oe_finale(director_client, finale):
    url = reverse("finale_manage:settings", args=[finale.tournament_id])
    assert director_client.post(url, {"remove": "1"}).status_code == 302
    assert not OeFinale.objects.filter(pk=finale.pk).exists()
    assert Client().get(reverse("finale:gesamtwertung", args=[finale.tournament_id])).status_code == 404
