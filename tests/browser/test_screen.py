"""The big screen in Chromium at 1920×1080 and on a phone at 390×844 — it cycles from
the clock to the standings, shows a saved hand without a reload, flags the unfinished tables once
time is up, and the prize-giving reveals the places one by one."""

import datetime

from django.utils import timezone

from scoring.prizes.models import PrizeCategory, PrizeFund
from scoring.services import end_table, save_hand
from tournaments import clock, services
from tournaments.models import Round

# koenigrufen.md §1: a Rufer won by seat 1 with seat 3: +1 each, −1 for seats 0 and 2.
RUFER_1_3_WON = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}
# The next hand (dealer seat 1, Vorhand seat 2): seat 2 with seat 0 win: +1 each, −1 for 1 and 3.
RUFER_2_0_WON = {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": True}


def test_the_screen_cycles_and_shows_a_saved_hand_without_a_reload(browser, live_server, make_tournament):
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=5)
    table = rnd.tables.get(number=1)
    save_hand(table, RUFER_1_3_WON)
    leader = table.seats.select_related("registration__player").get(position=1).registration.player.name

    for viewport in ({"width": 1920, "height": 1080}, {"width": 390, "height": 844}):
        screen = browser.new_page(locale="en-GB", viewport=viewport)
        screen.goto(f"{live_server.url}/t/{t.pk}/screen/?seconds=5")
        screen.wait_for_selector(".slide-clock")
        assert "1/32 hands" in screen.inner_text(".slide-clock")  # 2 tables × 16
        screen.wait_for_selector(".slide-standings", timeout=9000)  # the next slide came by itself
        first_row = screen.inner_text(".screen-standings tbody tr")
        assert leader in screen.inner_text(".screen-standings") and first_row.split()[-1] == "1"
        screen.close()

    screen = browser.new_page(locale="en-GB", viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/t/{t.pk}/screen/?seconds=5")
    screen.wait_for_selector(".slide-standings", timeout=9000)
    save_hand(table, RUFER_2_0_WON)  # the leader is back on 0
    screen.wait_for_selector(".slide-clock", timeout=9000)
    assert "2/32 hands" in screen.inner_text(".slide-clock")
    screen.wait_for_selector(".slide-standings", timeout=9000)
    row = [r for r in screen.locator(".screen-standings tbody tr").all_inner_texts() if leader in r][0]
    assert row.split()[-1] == "0"  # his total now, the page never reloaded
    assert screen.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_the_screen_flags_the_unfinished_tables_when_time_is_up(browser, live_server, make_tournament):
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=5)
    done, playing = rnd.tables.get(number=1), rnd.tables.get(number=2)
    save_hand(done, RUFER_1_3_WON)
    end_table(done)
    clock.start_clock(rnd, 60)
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=60, seconds=-3))
    screen = browser.new_page(locale="en-GB", viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/t/{t.pk}/screen/?seconds=60")
    screen.wait_for_selector(".slide-clock [data-clock-time]")
    assert not screen.is_visible(".late-note")
    screen.wait_for_selector(".clock-over", timeout=8000)  # counted down to zero in the browser
    assert screen.is_visible(".late-note")
    late = screen.locator(".progress li.open")
    assert late.count() == 1 and late.inner_text().startswith("2")
    border = late.evaluate("el => getComputedStyle(el).borderTopWidth")
    assert border == "3px"  # the table still playing stands out, in black and white too


def test_the_prize_giving_reveals_the_places_from_the_last(browser, live_server, make_tournament):
    t = make_tournament(players=4, rounds=1)
    table = services.draw_next_round(t, seed=5).tables.get()
    save_hand(table, RUFER_1_3_WON)
    end_table(table)
    PrizeFund.objects.create(tournament=t, entry_fee=10)
    PrizeCategory.objects.create(tournament=t, kind="places", name="Hauptpreise", places=2, shares="60 40")
    PrizeCategory.objects.create(tournament=t, kind="last", name="Mauskönig", description="Maus")
    screen = browser.new_page(locale="en-GB", viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/t/{t.pk}/screen/?mode=prizes")
    assert screen.locator("[data-prize]:visible").count() == 0
    screen.keyboard.press("Space")
    assert "Mauskönig" in screen.inner_text("[data-prize]:visible")
    screen.keyboard.press("Space")
    shown = screen.inner_text("[data-prize]:visible")
    assert "place 1–2" in shown and "20.00 € each" in shown  # level on +1: 40 € shared
    screen.keyboard.press("ArrowLeft")
    assert "Mauskönig" in screen.inner_text("[data-prize]:visible")
