"""The standings on a 390 × 844 phone (Playwright driving Debian's Chromium): five rounds, long
names and a long tie-break text fit without sideways scrolling, every player's total and the
tie-break text are on the screen, each round score says its round; a laptop keeps the table."""

import pytest
from django.urls import reverse

from scoring.services import end_table, save_hand
from scoring.standings import compute_standings
from tournaments import services

from .helpers import give_long_names

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}

@pytest.fixture
def evening(make_tournament, english):
    """8 players with long names, 5 rounds: rounds 1–4 played (three-digit scores), round 5
    played at table 1 only. Returns the tournament and the tie-break text of a row that has one
    (the standings say what is known so far: a long text)."""
    t = make_tournament(players=8, rounds=5)
    give_long_names(t, club="Tarockrunde Innsbruck-Hötting")
    for number in range(1, 5):
        for table in services.draw_next_round(t, seed=number).tables.all():
            save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [-120, 40, 40, 40]})
            end_table(table)
    first = services.draw_next_round(t, seed=5).tables.order_by("number").first()
    save_hand(first, {"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]})
    texts = [r.tiebreak for r in compute_standings(t).rows if "so far" in r.tiebreak]
    assert texts, [r.tiebreak for r in compute_standings(t).rows]
    return t, max(texts, key=len)


def test_the_standings_fit_a_phone_without_sideways_scrolling(browser, live_server, evening):
    t, tiebreak = evening
    page = browser.new_page(locale="en-GB", viewport=PHONE)
    page.goto(live_server.url + reverse("scoring:standings", args=[t.pk]))

    width = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width[0] <= width[1], width
    # Nothing inside the table scrolls sideways either (the .scroll wrapper).
    inner = page.locator(".scroll").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert inner[0] <= inner[1], inner

    cell = page.locator("table.standings td.tiebreak", has_text=tiebreak)
    assert cell.count() == 1 and cell.is_visible()
    box = cell.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    # It wraps under the player's name, not beside it.
    name = cell.locator("xpath=..").locator("td.player").bounding_box()
    assert box["y"] >= name["y"] + name["height"] - 1, (box, name)

    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 8
    for i in range(8):
        row = rows.nth(i)
        for part in ("td.player", "td.total", "td.round >> nth=4"):
            b = row.locator(part).bounding_box()
            assert b and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (i, part, b)
    # A round score says which round it is (the header row is for screen readers only).
    assert rows.nth(0).locator("td.round").nth(0).evaluate("td => getComputedStyle(td, '::before').content") == '"R1\u00a0"'
    page.close()


def test_a_laptop_keeps_the_standings_table(browser, live_server, evening):
    t, tiebreak = evening
    page = browser.new_page(locale="en-GB", viewport=LAPTOP)
    page.goto(live_server.url + reverse("scoring:standings", args=[t.pk]))

    assert page.locator("table.standings thead th").first.is_visible()
    assert page.locator("table.standings tr").first.evaluate("tr => getComputedStyle(tr).display") == "table-row"
    cell = page.locator("table.standings td.tiebreak", has_text=tiebreak)
    name = cell.locator("xpath=..").locator("td.player").bounding_box()
    box = cell.bounding_box()
    assert box["x"] > name["x"] + name["width"] - 1  # beside the name, in its column
    width = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width[0] <= width[1], width
    page.close()


def test_bled_standings_with_table_points_fit_a_phone(browser, live_server, make_tournament, english):
    """Bled ranks by table points, game points beside them (tarok-bled.md §7): two tables of
    three, table 1 [50, 20, −10], table 2 [30, 30, 0]; ½ table point each for −10 and 0, which
    the game points separate."""
    t = make_tournament(players=6, ruleset="tarok-bled", edition="2005", rounds=4, hands_per_round=21)
    give_long_names(t)
    for table, scores in zip(services.draw_next_round(t, seed=3).tables.order_by("number"), ([50, 20, -10], [30, 30, 0])):
        save_hand(table, {"dealer": 0, "outcome": "manual", "scores": scores})
    page = browser.new_page(locale="en-GB", viewport=PHONE)
    page.goto(live_server.url + reverse("scoring:standings", args=[t.pk]))

    width = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width[0] <= width[1], width
    inner = page.locator(".scroll").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert inner[0] <= inner[1], inner
    cell = page.locator("table.standings td.tiebreak", has_text="game points: 0 to -10")
    assert cell.is_visible()
    for part in ("td.tiebreak >> nth=5", "td.game >> nth=0", "td.total >> nth=0", "td.round >> nth=0"):
        b = page.locator(f"table.standings {part}").bounding_box()
        assert b and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (part, b)
    page.close()
