"""One hand of each new game entered in a real browser (Playwright driving Debian's
Chromium) — Hungarian Tarokk by the form's fields at a desk, Tapp-Tarock by the quick line on a
phone, free scoring as a written row — and each lands on the sheet with the row the rule files
give."""

import pytest

from scoring.models import Hand
from tournaments import services

from .helpers import log_in_to_sheet, type_line

PHONE = {"width": 390, "height": 844}


def test_hungarian_tarokk_hand_by_the_fields(page, live_server, director, make_tournament):
    """hungarian-tarokk.md §2, PAG's example: a two (kettő) by seat 2 with seat 3 as partner (the
    XX called), 52 card points, the game kontra'd and the declarer's announced double game
    (dupla) kontra'd: game +2·2, failed dupla −8·2, n = −12: row [12, −12, −12, 12]."""
    t = make_tournament(players=4, ruleset="hungarian-tarokk", edition="paskievics")
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)

    page.select_option("select[name=contract]", "ketto")
    # The fields of the game: the called tarokk, declared tarokks per seat, both sides' bonuses.
    assert page.is_visible("select[name=called]")
    assert page.is_visible("select[name=tarokks_0]")
    assert page.is_visible("select[name=bonus_pagatultimo__o]")
    assert not page.is_visible("input[name=points_0]")
    page.select_option("select[name=declarer]", "1")
    page.select_option("select[name=partner]", "2")
    page.select_option("select[name=called]", "XX")
    page.fill("input[name=declarer_points]", "52")
    page.select_option("select[name=kontra]", "1")
    page.select_option("select[name=bonus_dupla]", "d:a:")
    page.select_option("select[name=bonus_kontra_dupla]", "1")
    page.wait_for_function(  # the line shows the fields' hand in the notation
        "() => document.querySelector('#quick').value === '2 2 3 52 k xx du!k'"
    )
    assert "−12" in page.inner_text("#preview") or "-12" in page.inner_text("#preview")
    page.focus("input[name=declarer_points]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert hand.scores == [12, -12, -12, 12]
    assert hand.record["called"] == "XX" and hand.record["partner"] == 2
    assert "2 2 3 52 k xx du!k" in page.inner_text("#hand-1")


def test_tapp_tarock_hand_by_the_line_on_a_phone(browser, live_server, director, make_tournament):
    """tapp-tarock.md §4, its third example: an Unterer won by seat 1 while seat 2 held the four
    Kings: declarer 2·4 − 3 = +5, the holder −4 + 6 = +2, the other −4 − 3 = −7."""
    page = browser.new_page(locale="en-GB", viewport=PHONE, bypass_csp=True)
    t = make_tournament(players=3, ruleset="tapp-tarock", edition="klassik")
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    type_line(page, "u 1 + 4k3 tr")  # a Trull without its holder is refused by name
    assert "“tr”" in page.inner_text("#preview")
    type_line(page, "u 1 + 4k2")
    assert page.input_value("select[name=contract]") == "unterer"
    assert page.input_value("select[name=bonus_vier_koenige]") == "h:1"  # the fields show the line
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert Hand.objects.get().scores == [5, 2, -7]


def test_free_scoring_row_by_the_line(page, live_server, director, make_tournament):
    """Free scoring: a Zwanzigerrufen hand is the row the table wrote; one that does not add up is
    refused with the difference and nothing is saved."""
    t = make_tournament(players=4, ruleset="free-scoring", edition="rows")
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)
    assert page.input_value("select[name=outcome]") == "manual"  # no contracts: a written row

    type_line(page, "= 30 -10 -10 -11")
    assert "-1" in page.inner_text("#preview") and not Hand.objects.exists()
    type_line(page, "= 30 -10 -10 -10 # Zwanzigerrufen")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert hand.scores == [30, -10, -10, -10] and hand.record["note"] == "Zwanzigerrufen"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
