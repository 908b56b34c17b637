"""The cache may fail: with Redis down every public page still answers 200 (rendered without the
cache), hands are saved, the rate limiter lets everything through, the log says so once instead
of once per request, and a Redis that stops mid-way (or hangs) costs milliseconds, not seconds.

A cache at a closed port stands for a Redis that is down; a private ``redis-server`` on a spare
port is started and stopped for the outage in the middle of a day (skipped where Redis is not
installed)."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.test import Client, override_settings
from django.urls import reverse

from bench.plain_http import free_port
from config.cache import redis_cache
from scoring.cups.models import Cup
from scoring.models import Hand

ROOT = Path(__file__).resolve().parent.parent.parent


def caches_at(port: int, timeout: float = 0.5) -> dict:
    """``CACHES`` as ``config.settings`` makes it for ``REDIS_URL=redis://127.0.0.1:<port>/0``."""
    return {"default": redis_cache(f"redis://127.0.0.1:{port}/0", timeout) | {"KEY_PREFIX": "failover", "TIMEOUT": 600}}


def public_pages(table) -> list[str]:
    t = table.round.tournament
    cup = Cup.objects.create(name="Testcup", ruleset=t.ruleset, method="tirol")
    return [
        reverse("tournaments:detail", args=[t.pk]),
        reverse("scoring:standings", args=[t.pk]),
        reverse("scoring:sheet", args=[table.pk]),
        reverse("tournaments:round", args=[t.pk, 1]),
        reverse("scoring:rules", args=[t.pk]),
        reverse("live:player", args=[t.pk, table.seats.first().registration_id]),
        reverse("live:statistics", args=[t.pk]),
        reverse("live:screen", args=[t.pk]),
        reverse("cups:table", args=[cup.pk]),
        reverse("scoring:private_sheet", args=[table.token]),
    ]


def save_hand_through_the_sheet(client, table):
    """A director's Rufer by seat 1 with seat 3, won (koenigrufen.md §1: +1 each, -1 the others)."""
    data = {"outcome": "played", "dealer": "0", "contract": "rufer", "declarer": "1", "partner": "3", "won": "1"}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


@pytest.mark.django_db
def test_with_redis_down_every_public_page_answers_and_a_hand_is_saved(four_table, director_client):
    with override_settings(CACHES=caches_at(free_port()), RATE_LIMIT_PAGES="1/m", RATE_LIMIT_PRIVATE_POSTS="1/m"):
        pages = public_pages(four_table)
        visitor = Client()
        for url in pages:
            started = time.monotonic()
            response = visitor.get(url)
            assert response.status_code == 200, url
            # nobody waits for a render mark the dead cache never kept (RENDER_WAIT_S is 2 s)
            assert time.monotonic() - started < 1.5, url
        standings = reverse("scoring:standings", args=[four_table.round.tournament_id])
        assert visitor.get(standings).status_code == 200  # no limit counted without the cache: fails open
        assert save_hand_through_the_sheet(director_client, four_table).status_code == 302
        assert Hand.objects.filter(table=four_table).count() == 1
        # the page rendered anew shows the hand: Rufer +1 for seat 1 (nothing stale was kept)
        sheet = visitor.get(reverse("scoring:sheet", args=[four_table.pk])).content.decode()
        assert "Rufer" in sheet
        # a player confirms through the private link (session and messages: the database and cookies)
        private = reverse("scoring:private_sheet", args=[four_table.token])
        assert visitor.post(private, {"confirm": "1", "name": "Anna", "sheet_version": "1"}).status_code == 302
        assert visitor.post(private, {"confirm": "1", "name": "Anna", "sheet_version": "1"}).status_code == 302  # not limited: fails open


@pytest.mark.django_db
def test_a_download_is_served_with_redis_down(four_table):
    with override_settings(CACHES=caches_at(free_port()), RATE_LIMIT_EXPORTS="1/m"):
        url = reverse("exports:standings_pdf", args=[four_table.round.tournament_id])
        # two renders over a limit of one: the limiter cannot count without the cache and lets them through
        first, second = Client().get(url), Client().get(url + "?after=1")
        assert first.status_code == second.status_code == 200
        assert first.content.startswith(b"%PDF") and second.content.startswith(b"%PDF")


SHOW_OUTAGE = """
import django, time
django.setup()
from django.core.cache import cache
started = time.monotonic()
added = [cache.add("lock", 1) for _ in range(40)]
values = [cache.get("page") for _ in range(40)]
for _ in range(40):
    cache.set("page", b"x")
print("elapsed", time.monotonic() - started, "added", set(added), "values", set(values))
"""


def test_redis_down_is_one_warning_in_the_log_not_one_per_call(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "REDIS_URL")}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DATA_DIR": str(tmp_path), "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    out = subprocess.run([sys.executable, "-c", SHOW_OUTAGE], cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=60)
    last = out.stdout.strip().splitlines()[-1].split()
    assert last[0] == "elapsed" and float(last[1]) < 2.0  # 120 calls of a dead cache: milliseconds each
    assert out.stdout.strip().endswith("added {None} values {None}")  # a failed add, misses: no exception
    warnings = [line for line in out.stderr.splitlines() if "django_redis.cache" in line]
    assert len(warnings) == 1, out.stderr
    assert "WARNING" in warnings[0] and "unreachable" in warnings[0] and "ConnectionError" in warnings[0]
    assert "Traceback" not in out.stderr


@pytest.fixture
def private_redis(tmp_path):
    """``start()`` runs a private redis-server on a spare port (no persistence) and returns its
    process; the port is ``start.port``. Every server started is killed at the end."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server is not installed")
    port, started = free_port(), []

    def start():
        process = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(process)
        probe = redis.Redis(port=port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                probe.ping()
                return process
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)

    start.port = port
    yield start
    for process in started:
        if process.poll() is None:
            process.kill()  # also ends a stopped (SIGSTOP) server
            process.wait(timeout=10)


def cached_pages(port: int) -> list[bytes]:
    return redis.Redis(port=port).keys("*page:*")


@pytest.mark.django_db
def test_redis_stopped_in_the_middle_of_the_day(four_table, director_client, private_redis, monkeypatch):
    monkeypatch.setattr("config.cache.RETRY_AFTER_S", 0.3)
    server = private_redis()
    with override_settings(CACHES=caches_at(private_redis.port)):
        pages = public_pages(four_table)
        standings = reverse("scoring:standings", args=[four_table.round.tournament_id])
        visitor = Client()
        for url in pages:
            assert visitor.get(url).status_code == 200, url
        assert cached_pages(private_redis.port)  # the pages were kept in Redis while it ran

        server.terminate()
        server.wait(timeout=10)
        for url in pages:
            assert visitor.get(url).status_code == 200, url
        assert save_hand_through_the_sheet(director_client, four_table).status_code == 302
        page = visitor.get(standings)
        assert page.status_code == 200 and Hand.objects.filter(table=four_table).count() == 1

        private_redis()  # back on the same port: after the pause the pages are kept there again
        time.sleep(0.4)
        assert visitor.get(standings).status_code == 200
        assert cached_pages(private_redis.port)


@pytest.mark.django_db
def test_a_hanging_redis_costs_one_timeout_not_one_per_call(four_table, private_redis):
    """A Redis that accepts connections but never answers (stopped with SIGSTOP) costs one wait of
    the timeout; then the process leaves it alone and pages come at their own speed."""
    server = private_redis()
    with override_settings(CACHES=caches_at(private_redis.port, timeout=1.0)):
        pages = public_pages(four_table)
        visitor = Client()
        assert visitor.get(pages[0]).status_code == 200  # connected, pages kept
        server.send_signal(signal.SIGSTOP)
        try:
            timings = []
            for url in pages:
                started = time.monotonic()
                assert visitor.get(url).status_code == 200, url
                timings.append(time.monotonic() - started)
        finally:
            server.send_signal(signal.SIGCONT)
    # Without failing fast each page would wait a second per cache call (a get and a set at least).
    assert max(timings[1:]) < 1.0, timings
