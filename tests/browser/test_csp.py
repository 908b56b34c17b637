"""Under the Content-Security-Policy as served (no inline script, no eval), the pages,
htmx and the entry form work: a hand is previewed and saved in place, a confirmation is asked,
the standings find a name; and the browser reports no violation of the policy."""

from scoring.models import Hand
from tournaments import services

from .helpers import log_in


def test_the_day_works_under_the_content_security_policy(browser, live_server, director, make_tournament):
    page = browser.new_page(locale="en-GB")  # the policy enforced, as a player's browser does
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()

    log_in(page, live_server, f"/table/{table.pk}/")
    page.wait_for_selector("#hand-form")
    page.evaluate("window.__same_page = true")

    page.focus("#quick")
    page.keyboard.type("d 2 + pag!")
    page.wait_for_selector(".preview-row")  # htmx asked the server for the preview
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")  # saved and swapped in place by htmx
    assert page.evaluate("window.__same_page") is True
    assert Hand.objects.get().scores == [-7, 21, -7, -7]

    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    with page.expect_navigation():
        page.click("button[data-confirm]:has-text('End table now')")
    assert asked and "End this table now?" in asked[0]
    table.refresh_from_db()
    assert table.ended_after == 1

    page.goto(f"{live_server.url}/t/{t.pk}/standings/")
    name = table.seats.get(position=1).registration.player.name
    page.fill("#find-name", name)
    page.wait_for_selector("tr.find-match", timeout=5000)  # the script of the page ran
    assert violations == []
