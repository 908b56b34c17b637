"""What players see on a phone, 390 × 844 px (Playwright driving Debian's Chromium).

The private sheet of a table of 5 with long names shows every score without sideways scrolling,
the buttons players tap are 44 px at least, and "Find my name" picks a player's row out of the
standings and the seating list (case and accents ignored). Wide screens keep the full sheet.
"""


import pytest
from django.urls import reverse

from scoring.services import save_hand
from tournaments import services

PHONE = {"width": 390, "height": 844}
TAP = 44  # px: the smallest comfortable tap target

LONG_NAMES = [
    "Maximiliane Hofer-Mair-Unterberger",
    "Bartholomäus Schwaighofer-Pfurtscheller",
    "Šimon Novak-Kovačič",
    "Walburga Haslwanter-Lechleitner",
    "Christophorus Kirchmair-Holzknecht",
]


@pytest.fixture
def page(browser):
    """A phone: 390 × 844 CSS pixels."""
    return browser.new_page(locale="en-GB", viewport=PHONE)


@pytest.fixture
def five_table(make_tournament):
    """A Tiroler Tarockcup table of 5 players with long names and six hands, one of them a manual
    row with three-digit scores: ``(tournament, table, totals)``."""
    t = make_tournament(players=5)
    for registration, name in zip(t.registrations.select_related("player").order_by("pk"), LONG_NAMES):
        registration.player.name = name
        registration.player.save()
    table = services.draw_next_round(t, seed=7).tables.get()
    rs = t.get_ruleset()
    lines = ["r {a} {b} + pag!", "d {a} - /pag-", "sr {a} {b} - ku", "6 {a} +", "r {a} {b} - uhu! tru"]
    for number, line in enumerate(lines, 1):
        dealer = table.dealer_of(number, 5)  # sits out: declarer and partner are the next two seats
        a, b = (dealer + 1) % 5 + 1, (dealer + 2) % 5 + 1
        save_hand(table, rs.parse_hand(line.format(a=a, b=b), 5, dealer))
    dealer = table.dealer_of(len(lines) + 1, 5)
    manual = [-120, 40, 40, 40]  # the dealer sits out: 0 in his seat
    save_hand(table, {"dealer": dealer, "outcome": "manual", "scores": manual[:dealer] + [0] + manual[dealer:]})
    totals = [sum(col) for col in zip(*table.hands.values_list("scores", flat=True))]
    return t, table, totals


def test_a_table_of_five_with_long_names_fits_a_phone_without_sideways_scrolling(page, live_server, five_table):
    t, table, totals = five_table
    page.goto(live_server.url + reverse("scoring:private_sheet", args=[table.token]))

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    sheet = page.locator("table.sheet")
    fits = sheet.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth, t.parentElement.scrollWidth]")
    assert fits[0] <= fits[1] and fits[2] <= fits[1], fits
    # Every player's running total is on the screen, right of the hand column and left of its edge.
    cells = page.locator("table.sheet tfoot th.num")
    assert cells.count() == 5
    for i, total in enumerate(totals):
        cell = cells.nth(i)
        assert cell.is_visible()
        assert cell.inner_text().strip() == str(total)
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (i, box)
    assert any(abs(total) >= 100 for total in totals)  # three-digit totals fit too
    # Each hand shows its notation; the long description and full names stay for screen readers
    # (in the page, visually hidden) and in the cells' titles.
    first = page.locator("#hand-1")
    assert first.locator("code.notation").is_visible()
    assert first.locator(".hand-label").count() == 1 and first.locator(".hand-label").inner_text()
    headers = page.locator("table.sheet thead th.num")
    assert [headers.nth(i).get_attribute("title") for i in range(5)] == [
        s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")
    ]
    assert not page.locator("table.sheet thead th.dealer").is_visible()


def test_the_confirm_button_is_a_big_tap_target_above_the_sheet(page, live_server, five_table):
    t, table, totals = five_table
    page.goto(live_server.url + reverse("scoring:private_sheet", args=[table.token]))

    confirm = page.locator("button[name=confirm]").bounding_box()
    sheet = page.locator("table.sheet").bounding_box()
    assert confirm["height"] >= TAP
    assert confirm["y"] + confirm["height"] <= sheet["y"]
    # Everything else a player taps on this page: "A hand is wrong", its button, the language
    # switch and the login link.
    page.click("summary")
    targets = ["summary", "details button.secondary", ".top nav a", *[f".top .lang button[value={c}]" for c in ("de", "en", "sl")]]
    for selector in targets:
        box = page.locator(selector).first.bounding_box()
        assert box["height"] >= TAP, (selector, box)
    for code in ("de", "en", "sl"):
        assert page.locator(f".top .lang button[value={code}]").bounding_box()["width"] >= TAP, code


def test_find_my_name_in_the_standings_ignores_case_and_accents(browser, page, live_server, five_table):
    t, table, totals = five_table
    page.goto(live_server.url + reverse("scoring:standings", args=[t.pk]))

    page.locator("#find-name").press_sequentially("simon")  # as typed on a phone: no caron, lower case
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 5
    mine = page.locator("table.standings tbody tr", has_text="Šimon Novak-Kovačič")
    assert mine.is_visible()
    assert "find-match" in mine.get_attribute("class")
    for i in range(rows.count()):
        row = rows.nth(i)
        if "Šimon" in row.inner_text():
            continue
        dimmed = float(row.locator("td").first.evaluate("td => getComputedStyle(td).opacity")) < 0.6
        assert dimmed or not row.is_visible(), row.inner_text()
    # Every word typed counts, in any order; clearing the box shows everyone again.
    page.fill("#find-name", "KOVACIC sim")
    assert "find-match" in mine.get_attribute("class")
    page.fill("#find-name", "nobody")
    assert page.locator("#find-name-status").inner_text() == "No player of that name."
    page.fill("#find-name", "")
    assert page.locator("table.standings tbody tr.find-match, table.standings tbody tr.find-dim").count() == 0
    assert_works_without_javascript(browser, live_server.url + reverse("scoring:standings", args=[t.pk]))


def assert_works_without_javascript(browser, url):
    """Without JavaScript the page shows every player and no find box that would do nothing."""
    page = browser.new_page(locale="en-GB", viewport=PHONE, java_script_enabled=False)
    page.goto(url)
    assert page.locator("#find-name").count() == 1 and not page.locator("#find-name").is_visible()
    for name in LONG_NAMES:
        assert page.get_by_text(name).first.is_visible()


def test_find_my_name_on_the_seating_list_leaves_his_table_and_his_line(browser, page, live_server, make_tournament):
    t = make_tournament(players=9)  # two tables, of 5 and of 4
    for registration, name in zip(t.registrations.select_related("player").order_by("pk"), LONG_NAMES):
        registration.player.name = name
        registration.player.save()
    services.draw_next_round(t, seed=7)
    page.goto(live_server.url + reverse("tournaments:round", args=[t.pk, 1]))
    cards = page.locator("[data-find-group]")
    assert cards.count() == 2

    page.locator("#find-name").press_sequentially("bartholomaus")  # "Bartholomäus", typed without the umlaut
    shown = [cards.nth(i) for i in range(2) if cards.nth(i).is_visible()]
    assert len(shown) == 1  # his table only
    assert shown[0].locator("tr.find-match").count() == 1
    assert "Bartholomäus" in shown[0].locator("tr.find-match").inner_text()
    seats = shown[0].locator("tbody tr")
    assert all(seats.nth(i).is_visible() for i in range(seats.count()))  # his table mates stay in view
    by_name = page.locator("h2 + .scroll tbody tr")
    visible = [by_name.nth(i).inner_text() for i in range(by_name.count()) if by_name.nth(i).is_visible()]
    assert len(visible) == 1 and visible[0].startswith("Bartholomäus")
    page.fill("#find-name", "")
    assert cards.nth(0).is_visible() and cards.nth(1).is_visible()
    assert all(by_name.nth(i).is_visible() for i in range(by_name.count()))
    assert_works_without_javascript(browser, live_server.url + reverse("tournaments:round", args=[t.pk, 1]))

def test_a_wide_screen_keeps_the_full_sheet(browser, live_server, five_table):
    t, table, totals = five_table
    page = browser.new_page(locale="en-GB", viewport={"width": 1200, "height": 900})
    page.goto(live_server.url + reverse("scoring:private_sheet", args=[table.token]))

    assert page.locator("table.sheet thead th.dealer").is_visible()
    first = page.locator("#hand-1")
    assert first.locator(".hand-label").is_visible()
    assert not first.locator("code.notation").is_visible()  # players see the words, as before
    assert page.locator("table.sheet thead th.num .name-full").first.is_visible()
    assert not page.locator("table.sheet thead th.num .name-short").first.is_visible()
    assert not page.locator(".sheet-key").is_visible()
