"""Player import from CSV or xlsx: preview, then import; every rejected row is reported
with its line number and reason, and nothing is half-imported."""

import io
import re

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments import services
from tournaments.models import Player, Registration
from tournaments.registration import importer


def url(t):
    return reverse("tournaments_director:import_players", args=[t.pk])


def upload(name, content):
    return SimpleUploadedFile(name, content)


def counts():
    return Player.objects.count(), Registration.objects.count()


def numbers(t):
    return [(r.start_number, r.player.name, r.player.club) for r in t.registrations.select_related("player")]


def xlsx(rows):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for index, row in enumerate(rows, start=1):
        for column, value in enumerate(row, start=1):
            if value is not None:
                sheet.cell(row=index, column=column, value=value)
    workbook.create_sheet("Ignored")["A1"] = "Not a player"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def problems(preview):
    return [(p.line, p.message) for p in preview.problems]


@pytest.mark.django_db
def test_csv_preview_then_import_reuses_known_player(director_client, make_tournament, english):
    t = make_tournament(players=2)  # start numbers 1 and 2
    anna = Player.objects.create(name="Anna Huber", club="Imst")
    content = "\ufeffName;Ort;Startnummer\r\nanna huber;IMST;\r\nBert Maier;Telfs;10\r\n\r\nCarla Öttl;Wörgl;\r\n".encode()

    page = director_client.get(url(t))
    assert page.status_code == 200 and 'accept=".csv,.xlsx' in page.content.decode()

    before = counts()
    preview = director_client.post(url(t), {"file": upload("spieler.csv", content)})
    assert preview.status_code == 200
    assert counts() == before  # a preview writes nothing
    plan = preview.context["plan"]
    assert [(e.row.line, e.row.name, e.start_number, e.player) for e in plan] == [
        (2, "anna huber", 3, anna),
        (3, "Bert Maier", 10, None),
        (5, "Carla Öttl", 4, None),
    ]
    assert "Import 3 players" in preview.content.decode()

    done = director_client.post(url(t), {"import": "1", "digest": preview.context["digest"]}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("tournaments_director:registrations", args=[t.pk])
    assert "3 players imported." in done.content.decode()
    assert counts() == (before[0] + 2, before[1] + 3)  # Anna reused, not created again
    assert numbers(t) == [
        (1, "Spieler 01", "Imst"),
        (2, "Spieler 02", "Imst"),
        (3, "Anna Huber", "Imst"),
        (4, "Carla Öttl", "Wörgl"),
        (10, "Bert Maier", "Telfs"),
    ]
    # The next registration by hand continues after the highest number.
    assert services.register(t, Player.objects.create(name="Dora", club="")).start_number == 11
    # The file is gone from the session: importing again is refused.
    again = director_client.post(url(t), {"import": "1", "digest": preview.context["digest"]})
    assert again.status_code == 302 and t.registrations.count() == 6


@pytest.mark.django_db
def test_xlsx_with_english_header_in_any_order(director_client, make_tournament, english):
    t = make_tournament(players=0)
    known = Player.objects.create(name="Franz Gruber", club="Lienz")
    content = xlsx(
        [
            ("Start number", "Player", "Town", "Remarks"),
            (2, "franz GRUBER", "lienz", "paid"),
            (None, "Gerda Moser", "Kufstein", None),
            (None, None, None, None),
            (1.0, "Hans Wolf", None, None),
            (None, 4711, "Hall", None),  # a name that Excel keeps as a number
        ]
    )
    before = counts()
    preview = director_client.post(url(t), {"file": upload("players.xlsx", content)})
    assert preview.context["preview"].problems == []
    assert [(e.row.line, e.start_number, e.player) for e in preview.context["plan"]] == [
        (2, 2, known),
        (3, 3, None),
        (5, 1, None),
        (6, 4, None),
    ]
    response = director_client.post(url(t), {"import": "1", "digest": preview.context["digest"]})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments_director:registrations", args=[t.pk])
    assert counts() == (before[0] + 3, before[1] + 4)
    assert numbers(t) == [(1, "Hans Wolf", ""), (2, "Franz Gruber", "Lienz"), (3, "Gerda Moser", "Kufstein"), (4, "4711", "Hall")]


BAD = (
    "Spieler;Verein;Nr\n"  # 1
    "Anna Huber;Imst;1\n"  # 2: number 1 is taken in the tournament
    ";Telfs;\n"  # 3: no name
    f"{'X' * 121};Telfs;\n"  # 4: name too long
    f"Bert Maier;{'Y' * 121};\n"  # 5: club too long
    "Carla Öttl;Wörgl;x\n"  # 6: not a number
    "Dora Berger;Hall;0\n"  # 7: not positive
    "Emil Frank;Hall;2.5\n"  # 8: not whole
    "Gerda Moser;Kufstein;20\n"  # 9: good
    "\n"  # 10: empty, skipped
    "Hans Wolf;Lienz;20\n"  # 11: number 20 twice
    "GERDA MOSER;kufstein;\n"  # 12: same player twice
    "spieler 02; imst ;\n"  # 13: already registered
    "\"Iris\nIrrwein\";;x\n"  # 14-15: a quoted name over two lines, and a bad number
    "Jakob Kern;Reutte;\n"  # 16: good
)


@pytest.mark.django_db
def test_bad_file_is_rejected_row_by_row_and_nothing_is_written(director_client, make_tournament, english):
    t = make_tournament(players=2)
    preview = importer.parse_players("bad.csv", BAD.encode(), t)
    assert problems(preview) == [
        (2, "Start number 1 is already taken in this tournament by Spieler 01 (Imst)."),
        (3, "The name is missing."),
        (4, "The name is longer than 120 characters."),
        (5, "The town or club is longer than 120 characters."),
        (6, "The start number “x” is not a whole number from 1 to 99999."),
        (7, "The start number “0” is not a whole number from 1 to 99999."),
        (8, "The start number “2.5” is not a whole number from 1 to 99999."),
        (11, "Start number 20 is used twice in the file: also in line 9."),
        (12, "GERDA MOSER (kufstein) is in the file twice: also in line 9."),
        (13, "spieler 02 (imst) is already registered in this tournament."),
        (14, "The start number “x” is not a whole number from 1 to 99999."),
    ]
    assert [r.line for r in preview.rows] == [9, 16]

    before = counts()
    with pytest.raises(importer.ImportRefused):
        importer.import_players(t, preview)
    page = director_client.post(url(t), {"file": upload("bad.csv", BAD.encode())})
    html = page.content.decode()
    assert "11 problems: nothing is imported." in html
    assert "Line 12: GERDA MOSER (kufstein) is in the file twice: also in line 9." in html
    assert 'name="import"' not in html and page.context["digest"] is None
    # No import without a good preview, even with a forged digest.
    forged = director_client.post(url(t), {"import": "1", "digest": "0" * 64})
    assert forged.status_code == 302
    assert counts() == before


@pytest.mark.django_db
def test_import_checks_again_and_writes_nothing_on_a_clash(director_client, make_tournament, english):
    t = make_tournament(players=1)
    content = b"Anna Huber,Imst\nBert Maier,Telfs,5\n"  # no header, comma-separated
    preview = director_client.post(url(t), {"file": upload("a.csv", content)})
    assert [e.start_number for e in preview.context["plan"]] == [2, 5]
    # Meanwhile number 5 is given to someone else by hand.
    Registration.objects.create(tournament=t, player=Player.objects.create(name="Zoe", club=""), start_number=5)
    before = counts()
    refused = director_client.post(url(t), {"import": "1", "digest": preview.context["digest"]})
    assert refused.status_code == 422
    assert "Line 2: Start number 5 is already taken in this tournament by Zoe." in refused.content.decode()
    assert counts() == before
    # A digest of another file than the one previewed is refused too.
    director_client.post(url(t), {"file": upload("a.csv", b"Carl Cerny,Imst\n")})
    assert director_client.post(url(t), {"import": "1", "digest": preview.context["digest"]}).status_code == 302
    assert counts() == before


@pytest.mark.django_db
def test_german_header_in_any_order_and_encodings(make_tournament, english):
    t = make_tournament(players=0)
    content = "Nr.;Verein;Spieler\n7;Schwaz;Jürgen Kößler\n;;Lisa Mair\n".encode("cp1252")
    preview = importer.parse_players("Liste.CSV", content, t)
    assert preview.problems == []
    assert preview.rows == [
        importer.ImportRow(2, "Jürgen Kößler", "Schwaz", 7),
        importer.ImportRow(3, "Lisa Mair", "", None),
    ]
    # "Startnummer", "Name", "Ort" with a BOM and commas; a name with a comma in quotes.
    content = '\ufeffSTARTNUMMER,Name,Ort\n,"Huber, Anna",Imst\n'.encode()
    assert importer.parse_players("x.csv", content).rows == [importer.ImportRow(2, "Huber, Anna", "Imst", None)]
    # Semicolons win over commas in names: "Huber, Anna;Imst".
    assert importer.parse_players("x.csv", "Huber, Anna;Imst\n".encode()).rows == [
        importer.ImportRow(1, "Huber, Anna", "Imst", None)
    ]
    # A header without a name column is reported.
    assert problems(importer.parse_players("x.csv", b"Vorname;Ort\nAnna;Imst\n")) == [
        (1, "The header has no name column (Name or Spieler).")
    ]


@pytest.mark.django_db
def test_unreadable_and_empty_files(director_client, make_tournament, english):
    t = make_tournament(players=0)
    unreadable = "The file could not be read. Upload a CSV file or an Excel workbook (.xlsx)."
    for name, content in [
        ("players.pdf", b"%PDF-1.4 something"),
        ("players.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64),
        ("players.xlsx", b"not a workbook at all"),
        ("players.csv", b"PK\x03\x04broken zip"),
        ("players.csv", b"\x00\x01\x02\x03binary"),
    ]:
        assert problems(importer.parse_players(name, content, t)) == [(None, unreadable)], name
    page = director_client.post(url(t), {"file": upload("players.pdf", b"%PDF-1.4")})
    html = page.content.decode()
    assert unreadable in html and "1 problem: nothing is imported." in html
    assert not re.search(r"Line \d+: The file", html)

    empty = "The file contains no players."
    for name, content in [("e.csv", b""), ("e.csv", b"\xef\xbb\xbf\r\n\r\n"), ("e.csv", b"Name;Ort\n"), ("e.xlsx", xlsx([]))]:
        assert problems(importer.parse_players(name, content, t)) == [(None, empty)], name
    with pytest.raises(importer.ImportRefused):
        importer.import_players(t, importer.ImportPreview())
    assert Registration.objects.count() == 0


@pytest.mark.django_db
def test_large_file_is_refused_by_the_form(director_client, make_tournament, english):
    t = make_tournament(players=0)
    page = director_client.post(url(t), {"file": upload("big.csv", b"A;B\n" * 300_000)})
    assert page.status_code == 422 and "The file is larger than 1 MB." in page.content.decode()
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_directors_only(client, make_tournament):
    t = make_tournament(players=0)
    response = client.get(url(t))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(url(t), {"file": upload("a.csv", b"Anna;Imst\n")})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(get_user_model().objects.create_user("gast", password="x-123-geheim"))
    assert client.get(url(t)).status_code == 403
    assert Player.objects.count() == 0
