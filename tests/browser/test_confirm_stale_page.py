"""A player has the private sheet open on a phone (390 × 844) while the director edits a hand; the
player taps Confirm on the page he still has: nothing is confirmed, the page comes again with the
edited sheet, says it changed since he opened it and keeps his name; he confirms it again and the
board shows ✓ (Playwright driving Debian's Chromium)."""

import re

from django.urls import reverse

from scoring.models import SheetConfirmation
from scoring.services import save_hand
from tournaments import services

from .helpers import log_in

PHONE = {"width": 390, "height": 844}


def test_confirm_on_a_page_opened_before_the_directors_edit_asks_to_check_again(browser, page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    rs = t.get_ruleset()
    for number, line in enumerate(["d 2 +", "d 3 -"], 1):
        save_hand(table, rs.parse_hand(line, 4, table.dealer_of(number, 4)))

    phone = browser.new_page(locale="en-GB", viewport=PHONE)
    phone.goto(live_server.url + reverse("scoring:private_sheet", args=[table.token]))
    phone.fill("input[name=name]", "Anna Berger")

    # Meanwhile the director changes hand 1 (a lost Dreier): the phone's page is now of an older sheet.
    hand = table.hands.get(number=1)
    save_hand(table, rs.parse_hand("d 2 -", 4, table.dealer_of(1, 4)), hand=hand, reason="Pagat fehlt")

    phone.click("button[name=confirm]")
    alert = phone.locator(".sheet-actions [role=alert]")
    alert.wait_for()
    assert "The sheet changed since you opened it" in alert.inner_text()
    box = alert.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"] and box["y"] < PHONE["height"]  # seen without scrolling
    assert not SheetConfirmation.objects.exists()
    assert phone.input_value("input[name=name]") == "Anna Berger"
    assert "Dreier" in phone.locator("#hand-1 .hand-label").inner_text()

    # Checked, confirmed from the page that shows the sheet as it is now: it holds.
    phone.click("button[name=confirm]")
    phone.wait_for_selector(".confirmation.confirmed")
    assert "Anna Berger" in phone.inner_text(".confirmation")
    assert SheetConfirmation.objects.get().sheet_version == 3

    log_in(page, live_server, reverse("live_director:board", args=[t.pk]))
    cell = page.locator(".board a.cell").first
    cell.wait_for()
    text = cell.inner_text()
    assert re.search(r"✓\s*2", text) and "changed after confirmation" not in text, text
    phone.close()
