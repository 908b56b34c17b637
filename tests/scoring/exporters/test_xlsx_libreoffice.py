"""The standings workbook opens in LibreOffice: a headless LibreOffice Calc converts every
sheet to CSV and reads the same cells as openpyxl — names, numbers as numbers, text that starts with
"=" as text. Skipped where LibreOffice is not installed (``scripts/setup --dev`` installs Debian's
``libreoffice-calc-nogui``)."""

import csv
import shutil
import subprocess
from io import BytesIO

import pytest
from openpyxl import load_workbook

from scoring.services import save_hand
from tournaments import services
from tournaments.models import Player

OFFICE = shutil.which("libreoffice") or shutil.which("soffice")

# CSV export filter: comma, double quote, UTF-8 (76), from line 1, cell contents as shown, no
# formulas, and sheet -1: every sheet to a file of its own, "<name>-<sheet>.csv" (LibreOffice ≥ 7.2).
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"


def trimmed(rows):
    """Rows as lists of strings without trailing empty cells, without trailing empty rows."""
    rows = [[("" if v is None else str(v)) for v in row] for row in rows]
    rows = [row[: max((i + 1 for i, v in enumerate(row) if v != ""), default=0)] for row in rows]
    while rows and not rows[-1]:
        rows.pop()
    return rows


@pytest.mark.skipif(OFFICE is None, reason="LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
@pytest.mark.django_db
def test_libreoffice_reads_every_sheet_as_openpyxl_does(client, make_tournament, english, tmp_path):
    t = make_tournament(players=4, name="Herbstturnier Imst")
    services.register(t, Player.objects.create(name="=1+1", club="=2+3"))  # text, never a formula
    table = services.draw_next_round(t, seed=11).tables.get()  # one 5-table
    save_hand(table, {"dealer": 4, "contract": "rufer", "declarer": 0, "partner": 2, "won": True})
    save_hand(table, {"dealer": 0, "contract": "dreier", "declarer": 3, "won": False})
    seats = table.seats.select_related("registration__player").order_by("position")
    names = [s.registration.player.name for s in seats]
    content = client.get(f"/t/{t.pk}/standings.xlsx").content
    (tmp_path / "standings.xlsx").write_bytes(content)

    result = subprocess.run(
        [
            OFFICE,
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",  # its own profile: no lock, no dialogs
            "--headless",
            "--convert-to",
            CSV_FILTER,
            "--outdir",
            str(tmp_path / "csv"),
            str(tmp_path / "standings.xlsx"),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    assert "Error" not in result.stdout + result.stderr, result.stdout + result.stderr

    wb = load_workbook(BytesIO(content))
    assert wb.sheetnames == ["Standings", "Round 1", "Round 1 hands"]
    office = {}
    for sheet in wb.sheetnames:
        path = tmp_path / "csv" / f"standings-{sheet}.csv"
        assert path.exists(), result.stdout
        with path.open(encoding="utf-8", newline="") as f:
            office[sheet] = trimmed(csv.reader(f))
        assert office[sheet] == trimmed(wb[sheet].iter_rows(values_only=True)), sheet

    standings = office["Standings"]
    assert standings[0][:3] == ["Rank", "No.", "Name"]
    assert sorted(row[2] for row in standings[1:]) == sorted(names)
    assert "=1+1" in names and ["=1+1", "=2+3"] in [row[2:4] for row in standings]  # not 2 and 5
    hands = office["Round 1 hands"]
    assert hands[0] == ["Table 1"] and hands[1][4:] == names
    # the Rufer won by seats 0 and 2 with dealer seat 4 out, the lost Dreier of seat 3 (dealer 0 out)
    assert hands[2][3:] == ["r 1 3 +", "1", "-1", "1", "-1", "0"] and hands[3][3:] == ["d 4 -", "0", "5", "5", "-15", "5"]
    assert hands[4][2:] == ["Total", "", "1", "4", "6", "-16", "5"]
