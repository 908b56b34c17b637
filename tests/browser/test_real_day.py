"""A 13-player Tiroler Tarockcup day in a real browser: create the tournament with the
form, register the field by pasting names, draw, enter hands by keyboard and by raw rows, end the
late tables, a withdrawal and a late arrival between the rounds, verify round 1 (its hands lock),
draw round 2 and read the standings as a player would."""

from scoring.models import Hand
from tournaments.models import Tournament

NAMES = [
    "Anna Berger; Imst", "Karl Dorn; Imst", "Maria Egger; Schwaz", "Hans Falk; Vomp", "Lisa Gruber; Telfs",
    "Peter Huber; Hall", "Eva Jäger; Zams", "Franz Koch; Landeck", "Rosa Lang; Imst", "Otto Maier; Wörgl",
    "Theresia Neuner; Kufstein", "Alois Oberhofer; Lienz", "Sepp Pfurtscheller; Fulpmes",
]


def submit(page, selector="form button.primary"):
    with page.expect_navigation():
        page.click(selector)


def test_a_thirteen_player_tirol_day(page, live_server, director):
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "leiter")
    page.fill("input[name=password]", "geheim-123")
    submit(page)

    # The form follows the ruleset: left empty, the Tirol defaults (16 hands); two rounds today.
    page.goto(f"{base}/manage/tournaments/new/")
    page.fill("input[name=name]", "Tiroler Cup Imst")
    page.fill("input[name=date]", "2026-11-23")
    page.select_option("select[name=ruleset_edition]", "tiroler-tarockcup|2019/20")
    assert page.get_attribute("input[name=hands_per_round]", "placeholder") == "16"
    page.fill("input[name=rounds]", "2")
    submit(page)
    t = Tournament.objects.get(name="Tiroler Cup Imst")
    assert (t.rounds, t.hands_per_round) == (2, 16)

    # Register the field by pasting the list.
    page.goto(f"{base}/manage/t/{t.pk}/players/")
    page.fill("textarea[name=names]", "\n".join(NAMES))
    submit(page, "form.card button.primary")
    assert t.registrations.count() == 13

    # Round 1: 13 players sit at tables of 4, 4 and 5.
    page.goto(f"{base}/manage/t/{t.pk}/draw/")
    submit(page)
    rnd = t.round_set.get(number=1)
    tables = list(rnd.tables.order_by("number"))
    assert sorted(table.seats.count() for table in tables) == [4, 4, 5]

    # A table of four: two hands typed on the quick line, the rest transcribed from the paper sheet.
    first = next(table for table in tables if table.seats.count() == 4)
    page.goto(f"{base}/table/{first.pk}/")
    for line in ("= 5 -15 5 5", "= -1 1 1 -1"):
        # The form is ready (on the page, or swapped in by htmx after the last save and processed)
        # when its line has the focus: typed before that, the preview would never be asked for.
        page.wait_for_function("document.activeElement && document.activeElement.id === 'quick'")
        page.fill("#quick", line)
        page.wait_for_function(
            "t => { const s = document.querySelector('#preview-state'); return s && JSON.parse(s.textContent).typed === t; }",
            arg=line,
        )
        page.focus("#quick")
        number = first.hands.count() + 1
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#hand-{number}")
    page.click("details.raw-rows summary")
    page.fill("textarea[name=rows]", "\n".join(["1 -1 1 -1"] * 14))
    submit(page, "details.raw-rows button")
    assert first.hands.count() == 16
    # The other two tables stop late: the director ends them.
    for table in [table for table in tables if table != first]:
        page.goto(f"{base}/table/{table.pk}/")
        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            page.click("text=End table now")

    # Verify round 1 on the board: its hands lock.
    page.goto(f"{base}/manage/t/{t.pk}/board/")
    submit(page, "text=Mark round verified")
    assert "verified" in page.inner_text("#board")
    page.goto(f"{base}/table/{first.pk}/")
    assert not page.query_selector("#hand-form") and not page.query_selector("text=edit")

    # Between the rounds: one withdraws, one arrives late.
    leaver = first.seats.order_by("position").first().registration  # he played round 1
    page.goto(f"{base}/manage/t/{t.pk}/players/")
    row = page.locator("tr", has_text=leaver.player.name)
    with page.expect_navigation():
        row.locator("button", has_text="withdraw").click()
    page.fill("input[name=new_name]", "Zita Spät")
    page.fill("input[name=new_club]", "Imst")
    submit(page, "form.card button.primary")
    assert t.registrations.filter(withdrawn=False).count() == 13

    page.goto(f"{base}/manage/t/{t.pk}/draw/")
    submit(page)
    second = t.round_set.get(number=2)
    seated = set(second.tables.values_list("seats__registration__player__name", flat=True))
    assert "Zita Spät" in seated and leaver.player.name not in seated

    # The standings as a player reads them: the late arrival has no round 1, the leaver no round 2.
    page.goto(f"{base}/t/{t.pk}/standings/")
    late_row = page.locator("tr", has_text="Zita Spät").inner_text()
    leaver_row = page.locator("tr", has_text=leaver.player.name).inner_text()
    assert "–" in late_row and "withdrawn" in leaver_row and "–" in leaver_row
    assert Hand.objects.filter(table__round=rnd).count() == 16
