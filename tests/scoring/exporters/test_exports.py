"""The standings exports: xlsx readable by openpyxl with the right cells; PDF a real PDF."""

from io import BytesIO

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.services import save_hand
from tournaments import services


@pytest.fixture
def played(make_tournament):
    t = make_tournament(players=5, name="Herbstturnier Imst")
    table = services.draw_next_round(t, seed=11).tables.get()  # one 5-table, first dealer seat 4
    # Dealer 4 sits out; Vorhand 0 plays a Rufer with seat 2, won: [1, -1, 1, -1, 0].
    save_hand(table, {"dealer": 4, "contract": "rufer", "declarer": 0, "partner": 2, "won": True})
    # Dealer 0 sits out; seat 3 plays a Dreier and loses: [0, 5, 5, -15, 5].
    save_hand(table, {"dealer": 0, "contract": "dreier", "declarer": 3, "won": False})
    names = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]
    return t, names


@pytest.mark.django_db
def test_xlsx_has_standings_round_and_round_hands_sheets(client, played, english):
    t, names = played
    response = client.get(f"/t/{t.pk}/standings.xlsx")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.xlsx"')
    wb = load_workbook(BytesIO(response.content))
    assert wb.sheetnames == ["Standings", "Round 1", "Round 1 hands"]  # the long format is its own download
    # the table's hands as on its score sheet, with a sum row
    block = list(wb["Round 1 hands"].iter_rows(values_only=True))
    assert block[0][0] == "Table 1" and block[1][3] == "Notation" and list(block[1][4:9]) == names
    assert list(block[2][4:9]) == [1, -1, 1, -1, 0] and list(block[3][4:9]) == [0, 5, 5, -15, 5]
    assert block[4][2] == "Total" and list(block[4][4:9]) == [1, 4, 6, -16, 5]
    # each hand in notation, as the quick entry reads it: Rufer by seat 1 with seat 3, won; Dreier of seat 4, lost
    assert (block[2][3], block[3][3]) == ("r 1 3 +", "d 4 -")
    standings = list(wb.worksheets[0].iter_rows(values_only=True))
    # seat 2: 1 + 5 = 6 leads; seat 1: −1 + 5 = 4; seat 4: 0 + 5 = 5; seat 0: 1 + 0 = 1; seat 3: −1 − 15 = −16
    body = [(r[0], r[2], r[4], r[5]) for r in standings[1:]]
    assert body == [
        (1, names[2], 6, 6),
        (2, names[4], 5, 5),
        (3, names[1], 4, 4),
        (4, names[0], 1, 1),
        (5, names[3], -16, -16),
    ]
    assert isinstance(standings[1][4], int)
    round_rows = list(wb["Round 1"].iter_rows(values_only=True))[1:]
    assert [(r[0], r[1], r[2], r[3]) for r in round_rows] == [(1, i + 1, names[i], s) for i, s in enumerate([1, 4, 6, -16, 5])]


@pytest.mark.django_db
def test_all_hands_in_long_format_as_workbook_and_csv(client, played, english):
    t, names = played
    response = client.get(f"/t/{t.pk}/hands.xlsx")
    assert response["Content-Disposition"].endswith('-hands.xlsx"')
    wb = load_workbook(BytesIO(response.content))
    assert wb.sheetnames == ["Hands"]
    rows = list(wb["Hands"].iter_rows(values_only=True))
    assert rows[0] == ("Round", "Table", "Hand", "Contract", "Declarer", "Partner", "Player", "Score")
    hands = rows[1:]
    assert len(hands) == 10  # two hands × five players, long format
    assert hands[0] == (1, 1, 1, "Rufer", names[0], names[2], names[0], 1)
    assert hands[9] == (1, 1, 2, "Dreier", names[3], None, names[4], 5)

    response = client.get(f"/t/{t.pk}/hands.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].endswith('-hands.csv"')
    text = b"".join(response.streaming_content if response.streaming else [response.content]).decode("utf-8")
    assert text.startswith("\ufeffRound,Table,Hand,Contract,Declarer,Partner,Player,Score\r\n")
    lines = text.lstrip("\ufeff").splitlines()
    assert len(lines) == 11
    assert lines[1] == f"1,1,1,Rufer,{names[0]},{names[2]},{names[0]},1"
    assert lines[10] == f"1,1,2,Dreier,{names[3]},,{names[4]},5"


@pytest.mark.django_db
def test_pdf_is_a_real_pdf_of_the_standings(client, played):
    t, names = played
    response = client.get(f"/t/{t.pk}/standings.pdf")
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    reader = PdfReader(BytesIO(response.content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Herbstturnier Imst" in text and "Gasthof Post, Imst" in text and "Tiroler Tarockcup" in text
    for name in names:
        assert name in text
    assert "-16" in text or "−16" in text


@pytest.mark.django_db
def test_text_starting_with_equals_is_never_a_formula(client, make_tournament):
    from tournaments.models import Player

    t = make_tournament(players=3)
    services.register(t, Player.objects.create(name='=HYPERLINK("http://x","y")', club="=1+1"))
    services.draw_next_round(t, seed=1)
    wb = load_workbook(BytesIO(client.get(f"/t/{t.pk}/standings.xlsx").content))
    cells = [c for row in wb.worksheets[0].iter_rows() for c in row if isinstance(c.value, str) and c.value.startswith("=")]
    assert cells and all(c.data_type == "s" for c in cells)


@pytest.mark.django_db
def test_pdf_prints_names_on_one_line_beside_long_tie_break_texts(client, make_tournament):
    """Before any hand everybody is level and every row carries the long "draw lots" tie-break
    text; the standings' fixed columns still leave a full name its own line."""
    from tournaments.models import Player

    t = make_tournament(players=4)
    long_name = "Maximilian Schwaighofer-Hall"
    services.register(t, Player.objects.create(name=long_name, club="St. Anton am Arlberg"))
    services.draw_next_round(t, seed=1)
    reader = PdfReader(BytesIO(client.get(f"/t/{t.pk}/standings.pdf").content))
    lines = reader.pages[0].extract_text().splitlines()
    assert any(long_name in line for line in lines), lines
