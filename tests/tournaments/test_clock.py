"""A round's clock — started, paused, resumed and extended by the director, shown on the
board and the sheets, and the late tables listed with "end table now" once time is up."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import clock
from tournaments.clock import NOT_STARTED, OVER, PAUSED, RUNNING, Clock
from tournaments.models import ActionLog, Round, Tournament
from tournaments.templatetags.clock_tags import hms
from variants import get_ruleset

T0 = datetime.datetime(2026, 11, 28, 14, 0, tzinfo=datetime.timezone.utc)


def at(minutes, seconds=0):
    return T0 + datetime.timedelta(minutes=minutes, seconds=seconds)


def test_a_running_clock_counts_down_and_runs_out():
    c = Clock(minutes=120, started_at=T0)
    assert c.state(at(0)) == RUNNING and c.remaining(at(30)) == 90 * 60
    assert c.ends_at(at(30)) == at(120)
    assert c.state(at(120)) == OVER and c.remaining(at(125)) == 0
    assert Clock().state(at(0)) == NOT_STARTED and Clock().remaining(at(5)) == 0


def test_a_pause_does_not_count_and_added_minutes_do():
    # Paused at 30 min for 10 min (600 s before), then 5 minutes added: ends at 120 + 10 + 5.
    paused = Clock(minutes=120, started_at=T0, paused_at=at(30))
    assert paused.state(at(45)) == PAUSED and paused.remaining(at(45)) == 90 * 60 and paused.ends_at(at(45)) is None
    resumed = Clock(minutes=120, started_at=T0, paused_seconds=600, extra_minutes=5)
    assert resumed.remaining(at(40)) == 95 * 60
    assert resumed.ends_at(at(40)) == at(135)


def test_the_time_shows_as_players_read_it():
    assert hms(5400) == "1:30:00" and hms(59) == "0:59" and hms(0.2) == "0:01" and hms(0) == "0:00"


def test_each_ruleset_brings_its_round_time():
    # tournament-formats.md §1 (WTC "2 hours per round"), tarok-bled.md §1 ("21 deals in 90
    # minutes"); Cego 2 hours, as the Austrian cups play (a decision: its rule file gives no time);
    # Tirol: as the director sets.
    assert get_ruleset("wiener-tarockcup", "2020").default_round_minutes == 120
    assert get_ruleset("tarok-bled", "2005").default_round_minutes == 90
    assert get_ruleset("cego-ichenheim", "ichenheim").default_round_minutes == 120
    assert get_ruleset("tiroler-tarockcup", "2019/20").default_round_minutes is None


def version(t):
    return Tournament.objects.values_list("data_version", flat=True).get(pk=t.pk)


@pytest.mark.django_db
def test_the_director_starts_pauses_resumes_and_extends_a_round_clock(director_client, four_table):
    rnd = four_table.round
    t = rnd.tournament
    url = reverse("live_director:clock", args=[rnd.pk])
    before = version(t)
    director_client.post(url, {"action": "start", "minutes": "90"})
    rnd.refresh_from_db()
    assert rnd.clock_minutes == 90 and rnd.clock_started_at is not None
    assert version(t) > before  # the pages that show the clock are rendered again
    director_client.post(url, {"action": "start", "minutes": "30"})  # a second click changes nothing
    rnd.refresh_from_db()
    assert rnd.clock_minutes == 90
    director_client.post(url, {"action": "pause"})
    rnd.refresh_from_db()
    assert rnd.clock_paused_at is not None
    director_client.post(url, {"action": "resume"})
    rnd.refresh_from_db()
    assert rnd.clock_paused_at is None
    director_client.post(url, {"action": "extend", "minutes": "10", "extra_was": "0"})
    director_client.post(url, {"action": "extend", "minutes": "10", "extra_was": "0"})  # the double click
    rnd.refresh_from_db()
    assert rnd.clock_extra_minutes == 10
    logged = list(ActionLog.objects.filter(tournament=t, action__startswith="clock").values_list("action", "user__username"))
    assert logged == [("clock_started", "leiter"), ("clock_paused", "leiter"), ("clock_resumed", "leiter"), ("clock_extended", "leiter")]


@pytest.mark.django_db
def test_minutes_out_of_range_are_refused_with_a_message(director_client, four_table, english):
    url = reverse("live_director:clock", args=[four_table.round.pk])
    page = director_client.post(url, {"action": "start", "minutes": "0"}, follow=True).content.decode()
    assert "1 to 600 minutes" in page and "not 0" in page
    page = director_client.post(url, {"action": "start", "minutes": "zwei Stunden"}, follow=True).content.decode()
    assert "“zwei Stunden” is not a whole number of minutes." in page  # what was typed, named
    assert Round.objects.get(pk=four_table.round.pk).clock_started_at is None


@pytest.mark.django_db
def test_the_board_and_the_sheet_show_the_clock_and_the_late_tables_when_time_is_up(director_client, four_table, english):
    rnd = four_table.round
    clock.start_clock(rnd, 90)
    sheet = Client().get(reverse("scoring:sheet", args=[four_table.pk])).content.decode()
    assert "data-clock" in sheet and "left" in sheet and ("1:30:00" in sheet or "1:29:59" in sheet)
    board = director_client.get(reverse("live_director:board", args=[rnd.tournament_id])).content.decode()
    assert "Time is up. Tables still playing" not in board
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=91))
    board = director_client.get(reverse("live_director:board", args=[rnd.tournament_id])).content.decode()
    assert "Time is up. Tables still playing" in board
    assert reverse("entry:end_table", args=[four_table.pk]) in board
    director_client.post(reverse("entry:end_table", args=[four_table.pk]), {"next": "/"})
    board = director_client.get(reverse("live_director:board", args=[rnd.tournament_id])).content.decode()
    assert "Time is up. Tables still playing" not in board  # the ended table is no longer late


def test_minutes_added_a_part_second_after_the_end_are_given_in_full():
    # 35.7 s past the end "+5" leaves exactly 5 minutes; 0.9 s later the clock still reads 5:00
    # (the part second past the end was booked too: 4:59 showed when only 35 s were).
    c = Clock(minutes=90, started_at=T0)
    now = at(90, 35) + datetime.timedelta(milliseconds=700)
    assert c.overrun(now) == 35.7
    longer = c.extended(5, now)
    assert longer.remaining(now) == 300 and longer.ends_at(now) == now + datetime.timedelta(minutes=5)
    assert hms(longer.remaining(now + datetime.timedelta(milliseconds=900))) == "5:00"
    assert longer.paused_seconds == 35  # whole seconds stored; the part second moves the count on


def test_a_pause_of_a_part_second_more_costs_no_time():
    # Paused at 10:00, resumed at 15:00.6 (300.6 s): 80:00 left at the resume, 80:00 half a
    # second later as well (1:19:59 when the pause was counted as 300 s).
    c = Clock(minutes=90, started_at=T0, paused_at=at(10))
    now = at(15) + datetime.timedelta(milliseconds=600)
    running = c.resumed(now)
    assert running.paused_at is None and running.remaining(now) == 80 * 60
    assert hms(running.remaining(now + datetime.timedelta(milliseconds=500))) == "1:20:00"


@pytest.mark.django_db
def test_five_minutes_added_a_part_second_after_the_end_show_5_00_on_the_board(director_client, four_table, monkeypatch, english):
    rnd = four_table.round
    when = {"now": T0 + datetime.timedelta(milliseconds=250)}
    monkeypatch.setattr(timezone, "now", lambda: when["now"])
    clock.start_clock(rnd, 90)
    when["now"] = at(90, 35) + datetime.timedelta(milliseconds=950)
    director_client.post(reverse("live_director:clock", args=[rnd.pk]), {"action": "extend", "minutes": "5", "extra_was": "0"})
    when["now"] += datetime.timedelta(milliseconds=600)  # the board, shown a moment later
    board = director_client.get(reverse("live_director:board", args=[rnd.tournament_id])).content.decode()
    assert '<strong class="clock-time" data-clock-time>5:00</strong>' in board
    rnd.refresh_from_db()
    assert clock.clock_of(rnd).ends_at(when["now"]) == at(95, 35) + datetime.timedelta(milliseconds=950)
