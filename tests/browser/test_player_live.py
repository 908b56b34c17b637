"""A player's own page on a phone (390×844) shows his table, seat and hands and takes a
newly saved hand by itself, without a reload, keeping the chart he opened open."""

from scoring.services import save_hand
from tournaments import services

# koenigrufen.md §1: a Rufer won by seat 1 with seat 3: +1 each, −1 for seats 0 and 2.
RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}
# Dealer seat 1, Vorhand seat 2: seat 2 with seat 0 lose: −1 each, +1 for seats 1 and 3.
RUFER_2_0_LOST = {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False}


def test_a_players_page_takes_a_saved_hand_without_a_reload(browser, live_server, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    save_hand(table, RUFER_1_3_WON)
    seat = table.seats.select_related("registration__player").get(position=1)
    phone = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    phone.goto(f"{live_server.url}/t/{t.pk}/players/{seat.registration.pk}/")
    assert "Seat 2, drawn card" in phone.inner_text("#player-live")
    assert phone.locator("table.grid:not(.career) tbody tr").count() == 1
    phone.click(f"#chart-{table.pk} summary")  # he opens his table's chart
    # Its image loads when opened: wait for it, or the hand below is written while the live server
    # reads the seats for the chart, and the tests' shared in-memory SQLite refuses one of the two
    # at once ("database table is locked") instead of letting it wait, as a file database does.
    phone.wait_for_function("id => document.querySelector(`#${id} img`).complete", arg=f"chart-{table.pk}")
    save_hand(table, RUFER_2_0_LOST)  # +1 for him again: running total 2
    phone.locator("table.grid:not(.career) tbody tr").nth(1).wait_for(timeout=20000)
    rows = phone.locator("table.grid:not(.career) tbody tr").all_inner_texts()
    assert rows[1].split()[-2:] == ["1", "2"]  # his score and running total of hand 2
    assert phone.evaluate(f"document.getElementById('chart-{table.pk}').open") is True
    assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1
