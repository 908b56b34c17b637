"""The round page's table cards and the director's board keep everything inside their cards, at
1366 px (a laptop) and at 390 px (a phone), with long double names: the card column of a table
card is not cut off, and a player's score on the board stays in its cell beside his name."""

import pytest
from django.urls import reverse

from scoring.services import save_hand
from tournaments import services

from .helpers import give_long_names, log_in

WIDTHS = [1366, 390]

# Per card: [left, right] of the card's content box and the right edge of each of its cells.
CARD_EDGES = """cards => cards.map(c => {
  const box = c.getBoundingClientRect(), style = getComputedStyle(c);
  const inner = [box.left + parseFloat(style.borderLeftWidth), box.right - parseFloat(style.borderRightWidth)];
  return {inner, scroll: [c.scrollWidth, c.clientWidth],
          cells: [...c.querySelectorAll('td, th, b')].map(e => [e.textContent.trim(), e.getBoundingClientRect().left, e.getBoundingClientRect().right])};
})"""


@pytest.fixture
def nine(make_tournament, english):
    """9 players with long names, round 1 drawn (tables of 5 and 4), a hand at each table."""
    t = make_tournament(players=9)
    give_long_names(t)
    for table in services.draw_next_round(t, seed=3).tables.order_by("number"):
        size = table.seats.count()
        dealer = 0
        scores = [0, 130, -65, -65] if size == 4 else [0, 130, -130, 130, -130]  # at 5 the dealer sits out
        save_hand(table, {"dealer": dealer, "outcome": "manual", "scores": scores})
    return t


def assert_inside(cards, what):
    assert cards, what
    for card in cards:
        assert card["scroll"][0] <= card["scroll"][1], (what, card["scroll"])
        left, right = card["inner"]
        for text, l, r in card["cells"]:
            assert l >= left - 0.5 and r <= right + 0.5, (what, text, l, r, card["inner"])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_round_pages_table_cards_keep_their_card_column(browser, live_server, nine, width):
    page = browser.new_page(locale="en-GB", viewport={"width": width, "height": 900})
    page.goto(live_server.url + reverse("tournaments:round", args=[nine.pk, 1]))

    scroll = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert scroll[0] <= scroll[1], scroll
    cards = page.locator("[data-find-group]").evaluate_all(CARD_EDGES)
    assert len(cards) == 2
    assert_inside(cards, f"round page at {width} px")
    assert any(text == "Card" for card in cards for text, _l, _r in card["cells"])
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_boards_long_names_leave_the_score_in_the_cell(browser, live_server, nine, director, width):
    page = browser.new_page(locale="en-GB", viewport={"width": width, "height": 900})
    log_in(page, live_server, reverse("live_director:board", args=[nine.pk]))
    page.wait_for_selector("#board .cell .totals")

    cells = page.locator("#board .board .cell").evaluate_all(CARD_EDGES)
    assert len(cells) == 2
    assert_inside(cells, f"board at {width} px")
    # Each score sits on its player's line, at the cell's right.
    lines = page.locator("#board .cell .totals > span")
    assert lines.count() == 9
    for i in range(lines.count()):
        name, score = lines.nth(i).bounding_box(), lines.nth(i).locator("b").bounding_box()
        assert score["y"] < name["y"] + name["height"] and score["x"] + score["width"] >= name["x"] + name["width"] - 1
    page.close()


@pytest.mark.parametrize("language", ["de-AT", "sl-SI", "en-GB"])
def test_the_round_pages_column_headers_fit_on_a_phone_in_every_language(browser, live_server, nine, language):
    """"Sitzplatz", the longest header, stays inside its column at 390 px instead of running
    into "Name"."""
    page = browser.new_page(locale=language, viewport={"width": 390, "height": 900})
    page.goto(live_server.url + reverse("tournaments:round", args=[nine.pk, 1]))
    headers = page.locator("[data-find-group] table.grid th").evaluate_all("ths => ths.map(th => [th.innerText, th.scrollWidth, th.clientWidth])")
    assert headers and {text for text, _s, _c in headers} >= {{"de-AT": "Sitzplatz", "sl-SI": "Sedež", "en-GB": "Seat"}[language]}
    assert all(scroll <= client for _text, scroll, client in headers), headers
    page.close()
