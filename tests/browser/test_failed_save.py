"""A save that fails (a server error, no network, a lapsed login) says so in the entry
form and keeps the typed hand; pressing Enter again once it works saves it."""

from scoring.models import Hand
from tournaments import services

from .helpers import log_in_to_sheet


def test_a_failed_save_says_why_and_keeps_the_typed_hand(page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)
    save_url = f"**/manage/table/{table.pk}/hands/"

    page.focus("#quick")
    page.keyboard.type("d 2 + pag!")
    page.wait_for_selector(".preview-row")

    # The server answers with an error: the form stays as typed and says so.
    page.route(save_url, lambda route: route.fulfill(status=500, body="boom"))
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-save-failed]:not([hidden])")
    message = page.inner_text("[data-save-failed]")
    assert "not saved" in message and "(500)" in message and "still here" in message
    assert page.input_value("#quick") == "d 2 + pag!"
    assert not Hand.objects.exists()

    # No network: another message, the hand still there.
    page.unroute(save_url)
    page.route(save_url, lambda route: route.abort("internetdisconnected"))
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('[data-save-failed]').textContent.includes('could not be reached')")
    assert page.input_value("#quick") == "d 2 + pag!"

    # The connection is back: Enter saves exactly what was typed.
    page.unroute(save_url)
    page.focus("#quick")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert Hand.objects.get().scores == [-7, 21, -7, -7]
    assert page.is_hidden("[data-save-failed]")


def test_a_lapsed_login_is_told_not_answered_with_the_login_page(page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)
    page.focus("#quick")
    page.keyboard.type("d 2 -")
    page.wait_for_selector(".preview-row")
    page.context.clear_cookies()  # the session is gone (logged out in another tab, expired)
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-save-failed]:not([hidden])")
    assert "no longer logged in" in page.inner_text("[data-save-failed]")
    assert page.input_value("#quick") == "d 2 -"  # the form is still there, not the login page
    assert not Hand.objects.exists()
