"""The cup table's workbook and poster (``scoring/cups/exports.py``) and their downloads.

The season, built from imported results, with cup points by hand from
``../shared/rules/tournament-formats.md`` §4 (Tirol formula ``round_half_up(200 × ((N − r)/(N − 1))³)``):

- "Cup Imst" (N = 37): ranks 1–5 give 200, 184, 168, 154, 140 (§4's example); Anna 1st → 200,
  Bert 2nd → 184, Carla and Dora share 3rd → (168 + 154)/2 = 161 each (Decision 2026-11-23).
- "Cup Hall" (N = 15): Bert 1st → 200; Carla 2nd → 200 × 2197/2744 = 160.13 → 160;
  Anna 5th → 200 × 1000/2744 = 72.89 → 73; Dora 8th → 200 × 343/2744 = 25.00 → 25.
- "Cup Telfs" (N = 15, away): Anna 2nd → 160; Bert 4th → 200 × 1331/2744 = 97.01 → 97;
  Carla 9th → 200 × 216/2744 = 15.74 → 16.

Counting the best 2: Bert 184 + 200 = 384 (97 dropped); Anna 200 + 160 = 360 (73 dropped);
Carla 161 + 160 = 321 (16 dropped); Dora 161 + 25 = 186.
Sub-ranking "Imst" (club): Anna 360, Dora 186. Sub-ranking "Away" (away only, best 2 of the one
away tournament held = 1): Anna 160, Bert 97, Carla 16.
"""

import datetime
import io

import openpyxl
import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.cups.exports import cup_poster_pdf, cup_workbook, poster_layout, sheet_title
from scoring.cups.models import Cup, CupRanking, CupResult
from tournaments.models import Player

pytestmark = pytest.mark.django_db

IMST, HALL, TELFS = datetime.date(2025, 10, 4), datetime.date(2025, 11, 8), datetime.date(2025, 12, 6)


@pytest.fixture
def cup(db):
    cup = Cup.objects.create(name="Tiroler Tarockcup 2025/26", ruleset="tiroler-tarockcup", method="tirol", counting="2")
    anna = Player.objects.create(name="Anna Huber", club="Imst")
    bert = Player.objects.create(name="Bert Maier", club="Telfs")
    carla = Player.objects.create(name="Carla Öttl", club="Wörgl")
    dora = Player.objects.create(name="=Dora Pfeifer", club="Imst")  # "=": text, never a formula
    season = [
        ("Cup Imst", IMST, False, 37, [(anna, 1), (bert, 2), (carla, 3), (dora, 3)]),
        ("Cup Hall", HALL, False, 15, [(bert, 1), (carla, 2), (anna, 5), (dora, 8)]),
        ("Cup Telfs", TELFS, True, 15, [(anna, 2), (bert, 4), (carla, 9)]),
    ]
    for event, date, away, size, ranks in season:
        for player, rank in ranks:
            CupResult.objects.create(cup=cup, event=event, date=date, away=away, player=player, rank=rank, field_size=size)
    CupRanking.objects.create(cup=cup, name="Imst", club="Imst")
    CupRanking.objects.create(cup=cup, name="Away", away_only=True)
    return cup


def values(ws):
    return [[c.value for c in row] for row in ws.iter_rows()]


def test_workbook_sheets_and_cells(cup, english):
    wb = openpyxl.load_workbook(io.BytesIO(cup_workbook(cup)))
    assert wb.sheetnames == ["Cup", "Away", "Imst", "Results"]

    ws = wb["Cup"]
    rows = values(ws)
    assert rows[0] == [
        "Rank", "Player", "Town or club", "Played", "1. Cup Imst, 10/04/2025", "2. Cup Hall, 11/08/2025", "3. Cup Telfs, 12/06/2025",
        "Total", "Tie-break",
    ]
    assert rows[1:] == [
        [1, "Bert Maier", "Telfs", 3, 184, 200, 97, 384, None],
        [2, "Anna Huber", "Imst", 3, 200, 73, 160, 360, None],
        [3, "Carla Öttl", "Wörgl", 3, 161, 160, 16, 321, None],
        [4, "=Dora Pfeifer", "Imst", 2, 161, 25, None, 186, None],
    ]
    assert ws["B5"].data_type == "s"  # "=Dora …" stays a name
    counted, dropped, shared = ws["F2"], ws["G2"], ws["E4"]  # Bert's 200 and 97, Carla's shared 161
    assert counted.number_format == "0" and not counted.font.strike
    assert dropped.value == 97 and dropped.number_format == "(0)" and dropped.font.strike
    assert shared.value == 161 and shared.number_format == '0"*"' and not shared.font.strike
    assert ws["F3"].value == 73 and ws["F3"].font.strike  # Anna's 73 dropped
    assert ws["H2"].font.bold

    imst = values(wb["Imst"])
    assert [r[:4] + r[-2:] for r in imst[1:]] == [[1, "Anna Huber", "Imst", 3, 360, None], [2, "=Dora Pfeifer", "Imst", 2, 186, None]]
    away = values(wb["Away"])
    assert away[0][4:] == ["3. Cup Telfs, 12/06/2025", "Total", "Tie-break"]
    assert [(r[1], r[4], r[5]) for r in away[1:]] == [("Anna Huber", 160, 160), ("Bert Maier", 97, 97), ("Carla Öttl", 16, 16)]

    results = values(wb["Results"])
    assert results[0] == ["Tournament", "Date", "Rank", "Players", "Player", "Town or club", "Cup points", "Counted"]
    assert len(results) == 1 + 11
    assert results[1] == ["Cup Imst", datetime.datetime(2025, 10, 4), 1, 37, "Anna Huber", "Imst", 200, "yes"]
    assert [r[2:] for r in results[3:5]] == [[3, 37, "=Dora Pfeifer", "Imst", 161, "yes"], [3, 37, "Carla Öttl", "Wörgl", 161, "yes"]]
    hall_anna = next(r for r in results if r[0] == "Cup Hall" and r[4] == "Anna Huber")
    assert hall_anna[2:] == [5, 15, "Anna Huber", "Imst", 73, "no"]
    assert results[-1] == ["Cup Telfs", datetime.datetime(2025, 12, 6), 9, 15, "Carla Öttl", "Wörgl", 16, "no"]


def test_workbook_of_an_empty_cup(db):
    from django.utils import translation

    cup = Cup.objects.create(name="Leer", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", counting="all")
    CupRanking.objects.create(cup=cup, name="Results")  # a sub-ranking named like a sheet: numbered
    with translation.override("en"):
        wb = openpyxl.load_workbook(io.BytesIO(cup_workbook(cup)))
    assert wb.sheetnames == ["Cup", "Results (2)", "Results"]
    assert values(wb["Cup"])[1][0] == "No tournament of this cup is finished yet."


def test_sheet_titles():
    taken = set()
    assert sheet_title("Damen/Herren: [Tirol]?", taken) == "Damen-Herren- -Tirol--"
    assert sheet_title("x" * 40, taken) == "x" * 31
    assert sheet_title("X" * 40, taken) == "X" * 27 + " (2)"


def test_poster_pdf(cup, english):
    reader = PdfReader(io.BytesIO(cup_poster_pdf(cup)))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert float(page.mediabox.width) > float(page.mediabox.height)  # landscape
    assert round(float(page.mediabox.width) / 72 * 25.4) == 297  # A4
    text = page.extract_text()
    for expected in ("Tiroler Tarockcup 2025/26", "Tirol formula (Punktespiegel)", "the best 2 results count", "3 tournaments held",
                     "Bert Maier", "Anna Huber", "Carla Öttl", "=Dora Pfeifer", "384", "(97)", "161*", "Cup Telfs"):
        assert expected in text, expected


def test_poster_layout():
    assert poster_layout(3, 4) == {"page": "A4 landscape", "font_pt": 10.0}
    assert poster_layout(12, 40)["page"] == "A4 landscape"
    assert poster_layout(13, 10)["page"] == "A3 landscape"
    assert poster_layout(10, 41)["page"] == "A3 landscape"
    assert poster_layout(10, 400)["font_pt"] == 5.0  # the height gives way at 5 pt: more pages
    assert poster_layout(60, 400)["font_pt"] == 4.0  # the width does not: 60 columns of points on A3
    assert poster_layout(90, 10)["font_pt"] == 3.5


def test_poster_of_a_long_season_fits_one_a3_page(db, english):
    cup = Cup.objects.create(name="Wiener Tarockcup 2025/26", ruleset="wiener-tarockcup", method="wtc_fixpunkte", counting="half")
    players = [Player.objects.create(name=f"Spieler {i:03d}", club="Wien") for i in range(60)]
    for n in range(20):
        for rank, player in enumerate(players[n % 3 :: 2], start=1):
            CupResult.objects.create(cup=cup, event=f"Turnier {n + 1}", date=datetime.date(2025, 9, 1) + datetime.timedelta(days=7 * n),
                                     player=player, rank=rank, field_size=30)
    reader = PdfReader(io.BytesIO(cup_poster_pdf(cup)))
    assert len(reader.pages) == 1
    assert round(float(reader.pages[0].mediabox.width) / 72 * 25.4) == 420  # A3 landscape
    text = reader.pages[0].extract_text()
    assert "Spieler 000" in text and "Spieler 059" in text and "the best half counts: 10 results" in text


def test_downloads(client, cup, english):
    xlsx = client.get(reverse("cups:export", args=[cup.pk, "xlsx"]))
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert xlsx["Content-Disposition"] == 'attachment; filename="tiroler-tarockcup-202526.xlsx"'
    assert openpyxl.load_workbook(io.BytesIO(xlsx.content)).sheetnames[0] == "Cup"
    again = client.get(reverse("cups:export", args=[cup.pk, "xlsx"]))  # from the cache: still named
    assert again.content == xlsx.content and again["Content-Disposition"] == xlsx["Content-Disposition"]
    assert client.get(reverse("cups:export", args=[cup.pk, "xlsx"]), HTTP_IF_NONE_MATCH=xlsx["ETag"]).status_code == 304

    pdf = client.get(reverse("cups:export", args=[cup.pk, "pdf"]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf["Content-Disposition"] == 'attachment; filename="tiroler-tarockcup-202526-poster.pdf"'
    assert pdf.content.startswith(b"%PDF")

    assert client.get(reverse("cups:export", args=[cup.pk, "csv"])).status_code == 404
    assert client.get(reverse("cups:export", args=[cup.pk + 99, "xlsx"])).status_code == 404


def test_download_follows_a_new_result(client, cup, english):
    from scoring.cups.table import touch_cup

    first = client.get(reverse("cups:export", args=[cup.pk, "xlsx"]))
    CupResult.objects.create(cup=cup, event="Cup Zams", date=datetime.date(2026, 1, 10), player=Player.objects.get(name="Anna Huber"),
                             rank=1, field_size=10)
    touch_cup(cup.pk)
    second = client.get(reverse("cups:export", args=[cup.pk, "xlsx"]))
    assert second["ETag"] != first["ETag"]
    assert "4. Cup Zams, 01/10/2026" in values(openpyxl.load_workbook(io.BytesIO(second.content))["Cup"])[0]
