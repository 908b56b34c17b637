"""Players confirm their table's sheet on a phone (390 × 844, the private link) and flag a hand; the
director edits that hand and resolves the flag: the board shows "changed after confirmation" and no
✓ for that table, the private sheet says the sheet changed and offers "Confirm again" — with the
player's name still filled in — and once they confirm again the board shows ✓ (Playwright driving
Debian's Chromium). On the phone the private sheet shows each hand in words, not only its code."""

import re

from django.urls import reverse

from scoring.models import Hand, HandFlag
from scoring.services import save_hand
from tournaments import services

from .helpers import log_in, type_line

PHONE = {"width": 390, "height": 844}


def board_cell(page, live_server, tournament):
    """The board's cell of the tournament's only table, as the director sees it."""
    page.goto(live_server.url + reverse("live_director:board", args=[tournament.pk]))
    return page.locator(".board a.cell").first


def test_a_confirmation_is_voided_by_the_directors_edit_until_the_players_confirm_again(browser, page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    rs = t.get_ruleset()
    for number, line in enumerate(["d 2 +", "d 3 -"], 1):
        save_hand(table, rs.parse_hand(line, 4, table.dealer_of(number, 4)))
    declarer = table.seats.select_related("registration__player").get(position=1).registration.player.name

    phone = browser.new_page(locale="en-GB", viewport=PHONE)
    private = live_server.url + reverse("scoring:private_sheet", args=[table.token])
    phone.goto(private)
    # On a phone the players read the hand in words (the Dreier and its declarer), not only the code.
    words = phone.locator("#hand-1 .hand-label")
    assert words.is_visible()
    assert "Dreier" in words.inner_text() and declarer.split()[0] in words.inner_text()
    box = words.bounding_box()
    assert box["width"] > 20 and box["height"] > 10 and box["x"] + box["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Anna confirms the sheet: it says so, and keeps her name for the next time.
    phone.fill("input[name=name]", "Anna Berger")
    phone.click("button[name=confirm]")
    phone.wait_for_selector(".confirmation.confirmed")
    assert "Anna Berger" in phone.inner_text(".confirmation")
    assert phone.input_value("input[name=name]") == "Anna Berger"
    # … and flags hand 1.
    phone.click("summary")
    phone.select_option("select[name=hand]", label="Hand 1")
    phone.fill("textarea[name=comment], input[name=comment]", "Pagat fehlt")
    phone.click("details button.secondary")
    phone.wait_for_selector("text=The tournament director will look at hand 1")

    log_in(page, live_server, reverse("live_director:board", args=[t.pk]))
    page.wait_for_selector(".board a.cell")
    assert "✓ 2" in page.locator(".board a.cell").first.inner_text()

    # The director edits hand 1 (a lost Dreier, as the flag says) and resolves the flag.
    hand = table.hands.get(number=1)
    page.goto(live_server.url + reverse("entry:hand_edit", args=[hand.pk]))
    page.wait_for_selector("#hand-form")
    type_line(page, "d 2 -")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet .messages >> text=Hand 1 changed.")
    hand.refresh_from_db()
    assert hand.version == 2 and hand.record["won"] is False
    page.goto(live_server.url + table.get_absolute_url())
    page.locator("#hand-1 .flag button").click()
    page.wait_for_load_state()
    assert not HandFlag.objects.filter(resolved=False).exists()

    # The board: "changed after confirmation", no tick.
    cell = board_cell(page, live_server, t)
    text = cell.inner_text()
    assert "changed after confirmation" in text and "✓" not in text, text
    assert cell.locator(".changed-after-confirmation").is_visible()

    # The private sheet says the sheet changed and offers to confirm again, Anna's name still there.
    phone.goto(private)
    assert "Changed after confirmation" in phone.inner_text(".changed-after-confirmation")
    again = phone.locator("button[name=confirm]")
    assert again.inner_text().strip() == "Confirm again"
    assert phone.input_value("input[name=name]") == "Anna Berger"
    assert "Dreier" in phone.locator("#hand-1 .hand-label").inner_text() and phone.locator("#hand-1 .hand-label").is_visible()
    again.click()
    phone.wait_for_selector(".confirmation.confirmed")

    cell = board_cell(page, live_server, t)
    text = cell.inner_text()
    assert re.search(r"✓\s*2", text) and "changed after confirmation" not in text, text
    assert Hand.objects.count() == 2
    phone.close()
