"""A Königrufen kontra typed in the quick line and a free-scoring row typed without "=", in a real
browser: the fields show what the line said, the sheet the hand in words, and the Schrift the row
the rules give.

Rules: ``../shared/rules/koenigrufen.md`` §1 "Tournament score = Schrift" (Kontra, Re and Sub never
count) and §4 (a Dreier is worth 5, one against three); free scoring (``variants/free.py``): every
hand is the row as written.
"""

from scoring.models import Hand
from tournaments import services

from .helpers import log_in_to_sheet, type_line


def test_a_rekontra_and_who_said_kontra_by_the_line(page, live_server, director, make_tournament):
    """A Dreier by seat 2 won, rekontra'd, the Kontra said by seat 3: 5 per opponent as without it,
    [-5, 15, -5, -5] (dealer seat 4)."""
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    names = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]
    log_in_to_sheet(page, live_server, table)
    page.select_option("select[name=dealer]", "3")

    type_line(page, "d 2 + re k3")
    assert page.input_value("select[name=kontra]") == "2"  # the fields show the line
    assert page.input_value("select[name=kontra_by]") == "2"
    assert page.is_visible("select[name=kontra]")
    page.focus("#quick")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert hand.scores == [-5, 15, -5, -5]
    assert (hand.record["kontra"], hand.record["kontra_by"]) == (2, 2)
    row = page.inner_text("#hand-1")
    assert "rekontra" in row and f"kontra by {names[2]}" in row

    # Trischaken has no kontra: the field is hidden and the line refused by its token.
    page.select_option("select[name=contract]", "trischaken")
    assert not page.is_visible("select[name=kontra]")
    type_line(page, "t 30 20 12 8 k")
    assert "“k” is not allowed in a Trischaken." in page.inner_text("#preview")
    assert Hand.objects.count() == 1


def test_a_free_scoring_row_needs_no_equals_sign(page, live_server, director, make_tournament):
    t = make_tournament(players=4, ruleset="free-scoring", edition="rows")
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)
    assert page.get_attribute("#quick", "placeholder").endswith("0 30 -10 -20")

    type_line(page, "10 -5 -5 1")
    assert "+1" in page.inner_text("#preview") and not Hand.objects.exists()  # the difference
    type_line(page, "10 -5 -5 0")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert Hand.objects.get().scores == [10, -5, -5, 0]
