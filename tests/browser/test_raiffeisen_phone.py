"""A Raiffeisen Tarockcup evening typed on a phone (390 × 844): the director signs in, opens the
5-table's sheet and enters hands by the quick line; a contract the edition does not have is
refused by name and the typed line kept; the sheet's totals are the rules' numbers.

Rules: ``../shared/rules/koenigrufen-raiffeisen.md`` §6 (edition 2023). Seats are numbered 1–5;
seat 1 deals hand 1 and the deal goes round, so the dealer of hand k is seat k and sits it out
(§6.9, 0 in his column), and Vorhand is the seat after him (§6.1).

Every expected row below is worked out by hand from the rule text:

- Hand 1, ``br 3 5 + uhu! /tru`` (dealer 1 out, Vorhand 2): Besserrufer by seat 3 with seat 5,
  won; the declarer's announced Uhu made; the opponents' silent Trull. §6.1 game 1, §6.2 Uhu
  announced 4, Trull silent 1 for the other side: n = 1 + 4 − 1 = 4, 2 against 2 (§6.3):
  seats 3, 5 +4, seats 2, 4 −4 → [0, −4, +4, −4, +4].
- Hand 2, ``t 36 20/1 13/2 0`` (dealer 2 out, Vorhand 3): Trischaken, card points in seat order
  of the active seats 1, 3, 4, 5: 36 = 108 thirds, 20/1 = 61, 13/2 = 41, 0 (sum 210). §6.5: the
  most points are seat 1's alone, not Vorhand: step 3, u = 1, a Bürgermeister (108 ≥ 107, "35/2")
  so u = 2; he pays 3u = 6; seat 5 took no trick (a Jungfrau) and takes all 6, the others 0
  → [−6, 0, 0, 0, +6].
- Hand 3, ``d 5 + val pag`` (dealer 3 out, Vorhand 4): Dreier (V = 4) by seat 5, a silent Valat
  made, a silent Pagat made. §6.4 item 1: the Valat post 4V = 16 replaces the game; item 5: beside
  a Valat the silent Pagat counts nothing; 1 against 3: seat 5 +3 × 16 = +48, seats 1, 2, 4 −16
  → [−16, −16, 0, −16, +48].
- A refused line, ``z 1 +``: Zwiccolo is not a contract of this edition (§6.1, §6.8).
- Hand 4, ``r 5 2 -`` (dealer 4 out, Vorhand 5): Rufer (Vorhand only, §6.1) by seat 5 with seat
  2, lost: game −1, 2 against 2: seats 5, 2 −1, seats 1, 3 +1 → [+1, −1, +1, 0, −1].
- Hand 5, ``6 1 -`` (dealer 5 out, Vorhand 1): Sechserdreier (V = 4, Vorhand only) by seat 1,
  lost: §6.1 "lost: game −8", 1 against 3: seats 2, 3, 4 +8, seat 1 −24 → [−24, +8, +8, +8, 0].

Totals: seat 1: 0 − 6 − 16 + 1 − 24 = −45; seat 2: −4 + 0 − 16 − 1 + 8 = −13;
seat 3: 4 + 0 + 0 + 1 + 8 = 13; seat 4: −4 + 0 − 16 + 0 + 8 = −12; seat 5: 4 + 6 + 48 − 1 + 0 = 57;
−45 − 13 + 13 − 12 + 57 = 0.
"""

import pytest

from scoring.models import Hand
from tournaments import services

from .helpers import log_in_to_sheet, type_line

PHONE = {"width": 390, "height": 844}

HANDS = [
    # (line, dealer seat index, row by hand), see the module docstring
    ("br 3 5 + uhu! /tru", 0, [0, -4, 4, -4, 4]),
    ("t 36 20/1 13/2 0", 1, [-6, 0, 0, 0, 6]),
    ("d 5 + val pag", 2, [-16, -16, 0, -16, 48]),
    ("r 5 2 -", 3, [1, -1, 1, 0, -1]),
    ("6 1 -", 4, [-24, 8, 8, 8, 0]),
]
REFUSED = "z 1 +"
REFUSAL = "“z” is not a contract of Raiffeisen Tarockcup 2023"
TOTALS = [-45, -13, 13, -12, 57]


@pytest.fixture
def page(browser):
    """A phone, 390 × 844 CSS pixels, in English; ``type_line`` waits with Playwright's
    ``wait_for_function`` (an ``eval`` the site's Content-Security-Policy forbids), so the test's
    own scripts are let past it as on the desktop ``page``."""
    return browser.new_page(locale="en-GB", viewport=PHONE, bypass_csp=True)


def enter(page, table, number: int) -> str:
    """Type hand ``number`` of :data:`HANDS` on the quick line with the dealer the form suggests,
    save it with Enter once the preview shows its row, and check the saved row; returns the
    preview's row as it was shown before saving."""
    line, dealer, row = HANDS[number - 1]
    assert page.input_value("select[name=dealer]") == str(dealer)  # the deal goes round
    type_line(page, line)
    page.wait_for_selector(".preview-row")
    shown = page.inner_text(".preview-row")
    page.focus("#quick")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#hand-{number}")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'quick'")
    assert Hand.objects.get(table=table, number=number).scores == row
    return shown


def test_a_raiffeisen_five_table_typed_by_the_line_on_a_phone(page, live_server, director, make_tournament):
    t = make_tournament(players=13, ruleset="raiffeisen-tarockcup", edition="2023", rounds=3, hands_per_round=16)
    rnd = services.draw_next_round(t, seed=7)
    assert sorted(table.seats.count() for table in rnd.tables.all()) == [4, 4, 5]
    table = next(table for table in rnd.tables.all() if table.seats.count() == 5)

    log_in_to_sheet(page, live_server, table)
    assert page.evaluate("document.documentElement.clientWidth") <= PHONE["width"]
    page.select_option("select[name=dealer]", "0")  # seat 1 dealt the first hand at this table

    enter(page, table, 1)
    enter(page, table, 2)
    # The Valat's row is shown before it is saved: 48 for the declarer, the silent Pagat beside
    # it worth nothing (it stays on the record).
    assert "+48" in enter(page, table, 3).replace(" ", "")
    assert {b["bonus"] for b in Hand.objects.get(table=table, number=3).record["bonuses"]} == {"valat", "pagat"}

    # A Zwiccolo: not in this edition. The preview names the token, Enter saves nothing and the
    # typed line stays for correcting.
    type_line(page, REFUSED)
    assert REFUSAL in page.inner_text("#preview")
    page.evaluate("document.querySelector('#hand-form').dataset.before = '1'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-form:not([data-before]) .preview-errors")
    assert REFUSAL in page.inner_text("#hand-form")
    assert page.input_value("#quick") == REFUSED
    assert table.hands.count() == 3

    enter(page, table, 4)  # typed over the refused line
    enter(page, table, 5)

    # The sheet: each hand's sitting-out dealer shows 0 in his column, and the totals are the
    # hand-worked numbers of the module docstring.
    for number, (_line, dealer, row) in enumerate(HANDS, start=1):
        cells = page.locator(f"#hand-{number} td.num")
        assert cells.count() == 5
        assert [int(cells.nth(i).inner_text().strip().replace("−", "-")) for i in range(5)] == row
        assert "sitting" in cells.nth(dealer).get_attribute("class")
    totals = page.locator("#sheet-totals th.num")
    assert [int(totals.nth(i).inner_text().strip().replace("−", "-")) for i in range(5)] == TOTALS
    assert sum(TOTALS) == 0
