"""The day in pictures: under the Content-Security-Policy as served, the statistics page
shows both charts (drawn, not broken images), choosing a player redraws the progression with him,
and a player's page shows his table's chart; the browser reports no violation of the policy."""

from scoring.services import save_hand
from tournaments import services


def test_the_charts_show_under_the_content_security_policy(browser, live_server, make_tournament):
    page = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})  # a phone, policy enforced
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    save_hand(table, {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True})
    save_hand(table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    last = table.seats.select_related("registration__player").get(position=0).registration

    page.goto(f"{live_server.url}/t/{t.pk}/statistics/")
    page.wait_for_load_state("load")
    widths = page.eval_on_selector_all("figure.chart img", "images => images.map(i => i.complete ? i.naturalWidth : 0)")
    assert len(widths) == 2 and all(w > 100 for w in widths)

    page.select_option("#chart-player", str(last.pk))
    with page.expect_navigation():
        page.click("form.chart-player button")
    assert f"player={last.pk}" in page.url
    src = page.get_attribute("figure.chart img", "src")
    assert src.endswith(f"?player={last.pk}")
    page.wait_for_load_state("load")
    assert page.eval_on_selector("figure.chart img", "i => i.naturalWidth") > 100

    page.goto(f"{live_server.url}/t/{t.pk}/players/{last.pk}/")
    page.click(".player-table-chart summary")  # the chart is loaded when opened (loading=lazy)
    width = 0
    for _attempt in range(50):
        width = page.eval_on_selector(".player-table-chart img", "i => i.complete ? i.naturalWidth : 0")
        if width:
            break
        page.wait_for_timeout(100)
    assert width > 100
    assert violations == []
