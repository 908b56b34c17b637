"""Import of last season's cup results (``scoring/cups/importer.py``): a good file (xlsx
and csv), a bad file with every rejected row named, preview writes nothing, confirm writes once,
Heine cups need the total, only organisers may import.

Cup points by hand from ``../shared/rules/tournament-formats.md`` §4, Tirol formula
``round_half_up(200 × ((N − r)/(N − 1))³)``:

- N = 4: r1 200; r2 200 × 8/27 = 59.26 → 59; r3 200 × 1/27 = 7.41 → 7; r4 0; two sharing
  rank 2: (59 + 7)/2 = 33 each (Decision 2026-11-23).
- N = 3: r1 200; r2 200 × 1/8 = 25; r3 0.
- N = 15: r1 200; r2 200 × 2197/2744 = 160.13 → 160; r3 200 × 1728/2744 = 125.95 → 126;
  r4 200 × 1331/2744 = 97.01 → 97; r5 200 × 1000/2744 = 72.89 → 73; r6 200 × 729/2744 = 53.13 → 53;
  r7 200 × 512/2744 = 37.32 → 37; r8 200 × 343/2744 = 25.00 → 25; r9 200 × 216/2744 = 15.74 → 16;
  r10 200 × 125/2744 = 9.11 → 9; r11 200 × 64/2744 = 4.66 → 5; r12 200 × 27/2744 = 1.97 → 2;
  r13 200 × 8/2744 = 0.58 → 1; r14 200 × 1/2744 = 0.07 → 0; r15 0.
"""

import datetime
import io

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.cups import importer as cup_import
from scoring.cups.models import Cup, CupResult
from scoring.cups.table import cup_standings
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

TIROL_15 = [200, 160, 126, 97, 73, 53, 37, 25, 16, 9, 5, 2, 1, 0, 0]


@pytest.fixture
def cup(db):
    return Cup.objects.create(name="Tiroler Tarockcup 2025/26", ruleset="tiroler-tarockcup", method="tirol", counting="all")


def xlsx(rows):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for index, row in enumerate(rows, start=1):
        for column, value in enumerate(row, start=1):
            if value is not None:
                sheet.cell(row=index, column=column, value=value)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def csv_bytes(lines):
    return ("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8")


def url(cup):
    return reverse("cups_manage:import", args=[cup.pk])


def counts():
    return Player.objects.count(), CupResult.objects.count()


def problems(preview):
    return [(p.line, p.message) for p in preview.problems]


def plan(preview):
    """``{(tournament, date): [(line, rank, name, points, new?)]}`` of the preview."""
    return {
        (e.name, e.date.isoformat(), e.ok): [(p.row.line, p.row.rank, p.row.name, p.points, p.is_new) for p in e.rows]
        for e in preview.events
    }


GOOD_ROWS = [
    ["Turnier", "Datum", "Rang", "Name", "Verein", "Summe"],
    ["Cup Imst", datetime.datetime(2025, 10, 4), 1, "Anna Huber", "Imst", 312],
    [None, None, 2, "Bert Maier", "Telfs", 120],  # blank tournament and date: as the row above
    ["Cup Imst", datetime.datetime(2025, 10, 4), 2, "carla  öttl", "Wörgl", 120],
    ["Cup Imst", datetime.datetime(2025, 10, 4), 4, "Dora Pfeifer", "Imst", -80],
    [],
    ["Cup Hall", "08.11.2025", "1.", "Bert Maier", "Telfs", 240],
    ["Cup Hall", "08.11.2025", "2", "Anna Huber", "", 90],
    ["Cup Hall", "08.11.2025", "3", "Emil Ess", "Hall", None],
]


def test_good_xlsx_preview_writes_nothing_then_confirm_writes_once(director_client, cup, english):
    anna = Player.objects.create(name="Anna Huber", club="Imst")
    carla = Player.objects.create(name="Carla Öttl", club="Wörgl")
    before = counts()

    page = director_client.get(url(cup))
    assert page.status_code == 200 and 'accept=".csv,.xlsx' in page.content.decode()

    preview = director_client.post(url(cup), {"file": SimpleUploadedFile("saison.xlsx", xlsx(GOOD_ROWS))})
    assert preview.status_code == 200
    assert counts() == before  # a preview writes nothing
    checked = preview.context["preview"]
    assert problems(checked) == []
    assert plan(checked) == {
        ("Cup Imst", "2025-10-04", True): [
            (2, 1, "Anna Huber", 200, False),
            (3, 2, "Bert Maier", 33, True),
            (4, 2, "carla öttl", 33, False),
            (5, 4, "Dora Pfeifer", 0, True),
        ],
        ("Cup Hall", "2025-11-08", True): [
            (7, 1, "Bert Maier", 200, True),
            (8, 2, "Anna Huber", 25, False),
            (9, 3, "Emil Ess", 0, True),
        ],
    }
    assert checked.new_players == 3  # Bert once, Dora, Emil
    text = preview.content.decode()
    assert "Import 7 results" in text and "new player" in text and "known player" in text

    done = director_client.post(url(cup), {"import": "1", "digest": preview.context["digest"]}, follow=True)
    assert done.redirect_chain[-1][0] == cup.get_absolute_url()
    assert "7 results imported, 3 new players." in done.content.decode()
    assert counts() == (before[0] + 3, before[1] + 7)
    stored = {(r.event, r.date.isoformat(), r.player.name, r.player.club, r.rank, r.field_size, r.total) for r in CupResult.objects.select_related("player")}
    assert ("Cup Imst", "2025-10-04", "Anna Huber", "Imst", 1, 4, 312) in stored
    assert ("Cup Imst", "2025-10-04", "Carla Öttl", "Wörgl", 2, 4, 120) in stored  # the register's spelling
    assert ("Cup Hall", "2025-11-08", "Anna Huber", "Imst", 2, 3, 90) in stored  # no club: the one namesake
    assert ("Cup Hall", "2025-11-08", "Emil Ess", "Hall", 3, 3, None) in stored
    assert CupResult.objects.filter(player=anna).count() == 2 and CupResult.objects.filter(player=carla).count() == 1
    cup.refresh_from_db()
    assert cup.version == 1  # touch_cup
    table = {row.player.name: row.total for row in cup_standings(cup).rows}
    assert table == {"Anna Huber": 225, "Bert Maier": 233, "Carla Öttl": 33, "Dora Pfeifer": 0, "Emil Ess": 0}

    # A second confirm (reload, double click) writes nothing more.
    again = director_client.post(url(cup), {"import": "1", "digest": preview.context["digest"]}, follow=True)
    assert "Nothing was imported" in again.content.decode()
    assert counts() == (before[0] + 3, before[1] + 7)
    # The same file again: both tournaments are already imported, nothing to confirm.
    second = director_client.post(url(cup), {"file": SimpleUploadedFile("saison.xlsx", xlsx(GOOD_ROWS))})
    assert not second.context["preview"].ok and second.context["digest"] is None
    assert [line for line, _m in problems(second.context["preview"])] == [2, 7]
    assert "already imported into this cup" in problems(second.context["preview"])[0][1]


def test_good_csv_with_english_header_in_another_order(cup, english):
    content = csv_bytes(
        [
            "Name;Rank;Tournament;Date;Club",
            *[f"Player {r:02d};{r};Cup Schwaz;2026-01-17;Schwaz" for r in range(1, 16)],
        ]
    )
    preview = cup_import.parse_results(cup, "results.csv", content)
    assert problems(preview) == []
    [event] = preview.events
    assert event.field_size == 15
    assert [p.points for p in event.rows] == TIROL_15
    written, created = cup_import.import_results(cup, preview)
    assert (written, created) == (15, 15)
    # The same preview confirmed again: refused, nothing more written.
    with pytest.raises(cup_import.ImportRefused, match="imported meanwhile"):
        cup_import.import_results(cup, preview)
    assert CupResult.objects.count() == 15


def test_slovenian_header_and_positional_columns(cup):
    slovenian = csv_bytes(["Turnir,Datum,Mesto,Ime,Klub", "Bled,2026-02-01,1,Ana Novak,Bled", "Bled,2026-02-01,2,Jure Kos,Lesce"])
    preview = cup_import.parse_results(cup, "rezultati.csv", slovenian)
    assert problems(preview) == [] and preview.result_count == 2
    positional = xlsx([["Bled", "2026-02-01", 1, "Ana Novak", "Bled", 55], ["Bled", "2026-02-01", 2, "Jure Kos", "Lesce", -55]])
    preview = cup_import.parse_results(cup, "bled.xlsx", positional)
    assert problems(preview) == [] and [p.row.total for p in preview.events[0].rows] == [55, -55]


def test_bad_file_names_every_refused_row(director_client, cup, english):
    CupResult.objects.create(
        cup=cup, event="Cup Kufstein", date=datetime.date(2025, 9, 13), player=Player.objects.create(name="Gerd Gruber"), rank=1, field_size=1
    )
    Tournament.objects.create(name="Cup Schwaz", date=datetime.date(2026, 1, 17), ruleset="tiroler-tarockcup", edition="2019/20", cup=cup)
    Player.objects.create(name="Hans Huber", club="Imst")
    Player.objects.create(name="Hans Huber", club="Landeck")
    content = csv_bytes(
        [
            "Tournament;Date;Rank;Name;Club;Total",  # 1
            "Cup Imst;2025-10-04;1;Anna Huber;Imst;",  # 2 held back
            "Cup Imst;2025-10-04;x;Bert Maier;Telfs;",  # 3 rank not a number
            "Cup Imst;2025-10-04;2;;Wörgl;",  # 4 no name
            "Cup Hall;31.02.2025;1;Anna Huber;Imst;",  # 5 no such date: holds back every "Cup Hall"
            "Cup Hall;08.11.2025;1;Bert Maier;Telfs;",  # 6 held back
            "Cup Hall;08.11.2025;2;Emil Ess;Hall;",  # 7 held back
            "Cup Telfs;06.12.2025;1;Anna Huber;Imst;12.5",  # 8 total not whole
            "Cup Telfs;06.12.2025;5;Carla Öttl;Wörgl;",  # 9 rank above the 3 players
            "Cup Telfs;06.12.2025;2;Dora Pfeifer;Imst;",  # 10 held back
            "Cup Lienz;2025-12-13;1;Anna Huber;Imst;",  # 11
            "Cup Lienz;2025-12-13;2;anna huber;IMST;",  # 12 the same player twice
            "Cup Wörgl;2026-01-10;1;Anna Huber;Imst;",  # 13
            "Cup Wörgl;2026-01-10;1;Bert Maier;Telfs;",  # 14
            "Cup Wörgl;2026-01-10;2;Carla Öttl;Wörgl;",  # 15 after two sharing 1st comes 3rd
            "cup kufstein;13.09.2025;1;Anna Huber;Imst;",  # 16 imported before
            "Cup Schwaz;2026-01-17;1;Anna Huber;Imst;",  # 17 a tournament of the cup kept here
            "Cup Reutte;2026-02-07;1;Hans Huber;;",  # 18 two namesakes, no club
            "Cup Reutte;2026-02-07;2;Ida Illmer;Reutte;",  # 19 held back
            "Cup Zams;2026-02-14;1;Anna Huber;Imst;",  # 20 good
            "Cup Zams;2026-02-14;2;Hans Huber;Landeck;",  # 21 good: the namesake of his club
            "Cup Zams;2026-02-14;3;Hans Huber;Zams;",  # 22 good: a third Hans Huber, new
        ]
    )
    before = counts()
    response = director_client.post(url(cup), {"file": SimpleUploadedFile("season.csv", content)})
    assert counts() == before
    preview = response.context["preview"]
    found = problems(preview)
    messages = dict(found)
    assert [line for line, _m in found] == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19]
    assert messages[3] == "The rank “x” is not a whole number from 1."
    assert messages[4] == "The name is missing."
    assert messages[2] == "Line 2 of “Cup Imst” (2025-10-04) is correct but held back: a tournament is imported whole (refused: lines 3–4)."
    assert messages[5] == "The date “31.02.2025” cannot be read: write it as 2026-11-21 or 21.11.2026."
    assert messages[6] == "Lines 6–7 of “Cup Hall” (2025-11-08) are correct but held back: a tournament is imported whole (refused: line 5)."
    assert messages[8] == "The total “12.5” is not a whole number."
    assert messages[9] == "Rank 5 is above the 3 players of “Cup Telfs” (2025-12-06): the field is the tournament's rows in the file."
    assert messages[12] == "anna huber is in “Cup Lienz” twice: also in line 11."
    assert messages[15] == "Rank 2 does not follow: 2 players are ranked above it, so the next rank is 3."
    assert messages[16].startswith("“cup kufstein” of 2025-09-13 is already imported into this cup.")
    assert messages[16].endswith("Line 16 is not imported.")
    assert messages[17].startswith("“Cup Schwaz” of 2026-01-17 is a tournament of this cup kept here")
    assert messages[18] == "There are several players named Hans Huber (Imst, Landeck): give the club."
    # Only Cup Zams goes in.
    assert [(e.name, e.ok) for e in preview.events] == [
        ("cup kufstein", False), ("Cup Imst", False), ("Cup Hall", False), ("Cup Telfs", False), ("Cup Lienz", False),
        ("Cup Wörgl", False), ("Cup Schwaz", False), ("Cup Reutte", False), ("Cup Zams", True),
    ]
    zams = preview.events[-1]
    landeck = Player.objects.get(name="Hans Huber", club="Landeck")
    assert [(p.row.line, p.player, p.points) for p in zams.rows] == [(20, None, 200), (21, landeck, 25), (22, None, 0)]
    text = response.content.decode()
    assert "Line 18: There are several players named Hans Huber" in text and "Import 3 results" in text

    response = director_client.post(url(cup), {"import": "1", "digest": response.context["digest"]}, follow=True)
    assert "3 results imported, 2 new players." in response.content.decode()
    assert counts() == (before[0] + 2, before[1] + 3)
    assert set(CupResult.objects.filter(event="Cup Zams").values_list("player__name", "player__club")) == {
        ("Anna Huber", "Imst"), ("Hans Huber", "Landeck"), ("Hans Huber", "Zams"),
    }


def test_every_row_refused_imports_nothing(director_client, cup, english):
    content = csv_bytes(["Tournament;Date;Rank;Name", ";2025-10-04;1;Bert", "Cup Imst;someday;1;Anna", "Cup Imst;2025-10-04;0;Carla"])
    response = director_client.post(url(cup), {"file": SimpleUploadedFile("bad.csv", content)})
    preview = response.context["preview"]
    assert not preview.ok and response.context["digest"] is None
    assert problems(preview) == [
        (2, "The tournament is missing."),
        (3, "The date “someday” cannot be read: write it as 2026-11-21 or 21.11.2026."),
        (4, "The rank “0” is not a whole number from 1."),
    ]
    assert "Import" not in response.content.decode().split("<form")[1]  # no confirm button
    assert "nothing can be imported." in response.content.decode()
    with pytest.raises(cup_import.ImportRefused, match="Nothing to import"):
        cup_import.import_results(cup, preview)
    # A confirm without a preview in the session is refused too.
    refused = director_client.post(url(cup), {"import": "1", "digest": "forged"}, follow=True)
    assert "Nothing was imported" in refused.content.decode()
    assert CupResult.objects.count() == 0


def test_unreadable_file_and_missing_columns(cup, english):
    assert problems(cup_import.parse_results(cup, "x.pdf", b"%PDF-1.4")) == [
        (None, "The file could not be read. Upload a CSV file or an Excel workbook (.xlsx).")
    ]
    assert problems(cup_import.parse_results(cup, "x.csv", csv_bytes(["Name;Club", "Anna;Imst"]))) == [
        (1, "The header has no column for: Tournament, Date, Rank.")
    ]
    assert problems(cup_import.parse_results(cup, "x.csv", csv_bytes(["Tournament;Date;Rank;Name"]))) == [
        (None, "The file contains no results.")
    ]


def test_a_workbook_that_unpacks_to_too_much_is_not_opened(cup, english):
    import zipfile

    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (25 * 1024 * 1024))  # 25 MB of blanks, 25 KB packed
    [(line, message)] = problems(cup_import.parse_results(cup, "saison.xlsx", packed.getvalue()))
    assert line is None and "unpacks to 25 MB" in message and "was not opened" in message


def test_heine_cup_needs_the_total(cup, english):
    cup.method = "heine"
    cup.save()
    no_column = cup_import.parse_results(cup, "x.csv", csv_bytes(["Turnier;Datum;Rang;Name", "Cup Imst;2025-10-04;1;Anna"]))
    assert problems(no_column) == [
        (1, "This cup counts Heine points, which come from each player's tournament total: the file needs a Total column.")
    ]
    blank = cup_import.parse_results(
        cup, "x.csv", csv_bytes(["Turnier;Datum;Rang;Name;Summe", "Cup Imst;2025-10-04;1;Anna;340", "Cup Imst;2025-10-04;2;Bert;"])
    )
    assert (3, "The total is missing: this cup's Heine points are computed from it.") in problems(blank)
    assert not blank.ok
    # Heine points from each total (§4): 340 → 200; 160 → 100 + floor(60/2) = 130; 100 → 100; -20 → 0.
    good = cup_import.parse_results(
        cup,
        "x.csv",
        csv_bytes(["Turnier;Datum;Rang;Name;Summe", "H;2025-10-04;1;A;340", "H;2025-10-04;2;B;160", "H;2025-10-04;3;C;100", "H;2025-10-04;4;D;−20"]),
    )
    assert problems(good) == [] and [p.points for p in good.events[0].rows] == [200, 130, 100, 0]


def test_players_by_name_then_club_among_namesakes(director_client, cup, english):
    vera = Player.objects.create(name="Vera Vogl", club="Imst")
    content = csv_bytes(
        [
            "Turnier;Datum;Rang;Name;Verein",
            "Cup Imst;2025-10-04;1;Vera Vogl;TC Imst",  # the register's only Vera Vogl, club written otherwise
            "Cup Imst;2025-10-04;2;Walter Wolf;Zams",  # new
            "Cup Imst;2025-10-04;3;Walter Wolf;Landeck",  # another new Walter Wolf: the file's clubs differ
            "Cup Hall;2025-11-08;1;walter wolf;ZAMS",  # the first new one again
            "Cup Hall;2025-11-08;2;Walter Wolf;",  # two Walter Wolfs: which one?
        ]
    )
    response = director_client.post(url(cup), {"file": SimpleUploadedFile("x.csv", content)})
    preview = response.context["preview"]
    assert problems(preview)[-1] == (6, "There are several players named Walter Wolf (Landeck, Zams): give the club.")
    imst = preview.events[0]
    assert [(p.player, p.new_key, p.other_club) for p in imst.rows] == [
        (vera, None, "Imst"), (None, ("new", "walter wolf", "zams"), None), (None, ("new", "walter wolf", "landeck"), None),
    ]
    assert preview.events[1].rows[0].new_key == ("new", "walter wolf", "zams")
    assert "(club in the register: Imst)" in response.content.decode()
    cup_import.import_results(cup, preview)  # Cup Imst only: Cup Hall is held back
    assert sorted(CupResult.objects.values_list("player__name", "player__club")) == [
        ("Vera Vogl", "Imst"), ("Walter Wolf", "Landeck"), ("Walter Wolf", "Zams"),
    ]


def test_away_column(cup, english):
    content = csv_bytes(
        [
            "Turnier;Datum;Rang;Name;Auswärts",
            "Cup Lienz;2025-12-13;1;Anna;ja", "Cup Lienz;2025-12-13;2;Bert;",
            "Cup Hall;2025-11-08;1;Anna;ja", "Cup Hall;2025-11-08;2;Bert;nein",
            "Cup Imst;2025-10-04;1;Anna;vielleicht",
        ]
    )
    preview = cup_import.parse_results(cup, "x.csv", content)
    assert problems(preview)[-1] == (6, "“vielleicht” in the Away column is neither yes nor no.")
    assert (5, "“Cup Hall” is marked away in line 4 and not away in line 5.") in problems(preview)
    [lienz] = preview.accepted
    assert lienz.name == "Cup Lienz" and lienz.away
    cup_import.import_results(cup, preview)
    assert set(CupResult.objects.values_list("away", flat=True)) == {True}


def test_a_second_confirm_racing_the_first_hits_the_unique_constraint(cup, english, monkeypatch):
    Player.objects.create(name="Anna")
    content = csv_bytes(["Turnier;Datum;Rang;Name", "Cup Imst;2025-10-04;1;Anna", "Cup Imst;2025-10-04;2;Bert"])
    preview = cup_import.parse_results(cup, "x.csv", content)
    assert cup_import.import_results(cup, preview) == (2, 1)
    before = counts()
    monkeypatch.setattr(cup_import, "already_imported", lambda cup: set())  # as if checked before the first committed
    with pytest.raises(cup_import.ImportRefused, match="imported meanwhile"):
        cup_import.import_results(cup, preview)
    assert counts() == before  # Bert, created again, is rolled back with it


def test_only_organisers_import(client, cup):
    page = client.get(url(cup))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))
    assert client.post(url(cup), {"file": SimpleUploadedFile("x.csv", b"a")}).status_code == 302
    user = get_user_model().objects.create_user("gast", password="geheim-123")
    client.force_login(user)
    assert client.get(url(cup)).status_code == 403
    assert client.post(url(cup), {"import": "1", "digest": "x"}).status_code == 403
    assert CupResult.objects.count() == 0
