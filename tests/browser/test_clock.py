"""The round clock counts down in the browser, on the director's board at 1920×1080 and
on a table's sheet on a phone at 390×844, under the site's Content-Security-Policy."""

import datetime

from django.utils import timezone

from tournaments import clock, services
from tournaments.models import Round

from .helpers import log_in


def seconds_shown(text):
    parts = [int(p) for p in text.strip().split(":")]
    return sum(v * 60**i for i, v in enumerate(reversed(parts)))


def test_the_clock_counts_down_on_the_board_and_on_a_phone(browser, live_server, director, make_tournament):
    t = make_tournament(players=4)
    rnd = services.draw_next_round(t, seed=7)
    table = rnd.tables.get()
    clock.start_clock(rnd, 90)

    phone = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    phone.goto(f"{live_server.url}/table/{table.pk}/")
    first = seconds_shown(phone.inner_text("[data-clock-time]"))
    assert 89 * 60 < first <= 90 * 60
    phone.wait_for_timeout(2200)
    assert seconds_shown(phone.inner_text("[data-clock-time]")) <= first - 2  # counted down, no reload

    # Almost over: the board says time is up by itself once the end time passes.
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=90, seconds=-2))
    board = browser.new_page(locale="en-GB", viewport={"width": 1920, "height": 1080})
    log_in(board, live_server, f"/manage/t/{t.pk}/board/")
    board.wait_for_selector("[data-clock-time]")
    board.wait_for_selector(".clock-over", timeout=8000)
    assert board.inner_text("[data-clock-time]") == "Time is up"
    board.reload()
    assert "Tables still playing" in board.inner_text(".late-tables")
