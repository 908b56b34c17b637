"""A round's clock as a person reads it when time runs out in front of him, under a clock the test
controls (Playwright's ``page.clock``): the running clock says "0:03 left", and once its end passes
"Time is up" — never "Time is up left" — on a table's sheet on a phone."""

import datetime

from django.utils import timezone

from tournaments import clock, services
from tournaments.models import Round


def test_the_clock_says_time_is_up_without_left_when_it_runs_out(browser, live_server, make_tournament):
    t = make_tournament(players=4)
    rnd = services.draw_next_round(t, seed=7)
    table = rnd.tables.get()
    clock.start_clock(rnd, 90)
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=90, seconds=-30))

    phone = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    phone.clock.install(time=datetime.datetime.now(datetime.timezone.utc))
    phone.goto(f"{live_server.url}/table/{table.pk}/")
    running = " ".join(phone.inner_text(".clock").split())
    assert running.startswith("Round 1 0:") and running.endswith("left")
    phone.clock.fast_forward(40_000)  # 40 s later: the end has passed
    phone.wait_for_selector(".clock-over")
    assert " ".join(phone.inner_text(".clock").split()) == "Round 1 Time is up"
    assert not phone.is_visible("[data-clock-left]")
