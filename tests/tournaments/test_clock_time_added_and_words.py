"""A round's clock: minutes added once time is up count from now, not from the old end (35 s
past the end, "+5" shows 5:00, not 4:25), and each state of the clock reads as a phrase: "4:25
left", "4:25 left (paused)", "Time is up" — never "Time is up left"."""

import datetime

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone

from tournaments import clock
from tournaments.clock import OVER, PAUSED, RUNNING, Clock
from tournaments.models import Round
from tournaments.templatetags.clock_tags import hms

T0 = datetime.datetime(2026, 11, 28, 14, 0, tzinfo=datetime.timezone.utc)


def at(minutes, seconds=0):
    return T0 + datetime.timedelta(minutes=minutes, seconds=seconds)


def test_minutes_added_after_the_end_count_from_now():
    c = Clock(minutes=90, started_at=T0)
    now = at(90, 35)  # 35 s past the end
    assert c.state(now) == OVER and c.overrun(now) == 35
    longer = c.extended(5, now)
    assert longer.state(now) == RUNNING
    assert longer.remaining(now) == 5 * 60 and hms(longer.remaining(now)) == "5:00"  # not 4:25
    assert longer.ends_at(now) == at(95, 35)
    assert longer.remaining(at(93, 35)) == 2 * 60  # and it runs on from there


def test_minutes_added_while_time_is_left_are_added_to_it():
    c = Clock(minutes=90, started_at=T0)
    longer = c.extended(5, at(30))
    assert c.overrun(at(30)) == 0 and longer.paused_seconds == 0
    assert longer.remaining(at(30)) == 65 * 60 and longer.ends_at(at(30)) == at(95)


def test_a_clock_paused_after_its_end_is_given_the_minutes_from_the_pause_and_stays_paused():
    # Ran out at 90:00, paused at 90:35, 5 minutes added at 100:00: 5:00 left, still paused.
    c = Clock(minutes=90, started_at=T0, paused_at=at(90, 35))
    longer = c.extended(5, at(100))
    assert longer.state(at(100)) == PAUSED and longer.remaining(at(100)) == 5 * 60


def test_a_second_part_second_does_not_show_a_second_more():
    # 35.7 s past the end: "+5" shows 5:00 (the part second is the player's), never 5:01.
    c = Clock(minutes=90, started_at=T0)
    now = at(90, 35) + datetime.timedelta(milliseconds=700)
    assert hms(c.extended(5, now).remaining(now)) == "5:00"


@pytest.fixture
def frozen(monkeypatch):
    """``timezone.now()`` as the test sets it: ``frozen.now = ...``."""

    class Frozen:
        now = T0

    monkeypatch.setattr(timezone, "now", lambda: Frozen.now)
    return Frozen


@pytest.mark.django_db
def test_the_director_adds_five_minutes_35_seconds_after_the_end_and_the_board_shows_5_00(director_client, four_table, frozen, english):
    rnd = four_table.round
    clock.start_clock(rnd, 90)
    frozen.now = at(90, 35)
    board_url = reverse("live_director:board", args=[rnd.tournament_id])
    assert "Time is up" in director_client.get(board_url).content.decode()
    director_client.post(reverse("live_director:clock", args=[rnd.pk]), {"action": "extend", "minutes": "5", "extra_was": "0"})
    rnd.refresh_from_db()
    assert (rnd.clock_extra_minutes, rnd.clock_paused_seconds) == (5, 35)
    board = director_client.get(board_url).content.decode()
    assert '<strong class="clock-time" data-clock-time>5:00</strong>' in board
    frozen.now = at(92, 35)
    board = director_client.get(board_url).content.decode()
    assert '<strong class="clock-time" data-clock-time>3:00</strong>' in board


def clock_text(rnd, controls=False):
    """The clock of ``rnd`` as rendered, in words (tags and runs of spaces gone)."""
    import re

    html = Template("{% load clock_tags %}{% round_clock rnd controls %}").render(Context({"rnd": Round.objects.get(pk=rnd.pk), "controls": controls}))
    return html, " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.django_db
def test_each_state_of_the_clock_reads_as_a_phrase(four_table, frozen, english):
    rnd = four_table.round
    html, text = clock_text(rnd, controls=True)
    assert text.startswith("Round 1 the clock is not started")
    clock.start_clock(rnd, 90)
    frozen.now = at(85, 35)
    html, text = clock_text(rnd)
    assert text == "Round 1 4:25 left" and "data-clock-left" in html
    clock.pause_clock(rnd)
    frozen.now = at(87)
    html, text = clock_text(rnd)
    assert text == "Round 1 4:25 left (paused)"
    clock.resume_clock(rnd)
    frozen.now = at(95)
    html, text = clock_text(rnd)
    assert text == "Round 1 Time is up"  # not "Time is up left"
    assert "data-clock-left" not in html
