"""One push from the venue to a public site (publishing.venue), against a tiny fake site on a free
port that answers as the protocol says (publishing/__init__.py): what is sent (the signature is
the HMAC-SHA256 of the body with the key, the headers, the version, a valid archive of it), what
each answer does to the target, the back-off, and that a version superseded while the network was
away is never sent."""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import socket
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

import pytest
from django.utils import timezone

from archive.backup import summarize
from publishing import venue
from publishing.models import PublishTarget, PushAttempt
from publishing.tasks import push_if_due
from scoring.services import save_hand
from tournaments.versioning import touch

KEY = "tpk_venue01.s3cret-Key-for-tests"


class FakeSite:
    """A public site's push endpoint on 127.0.0.1: records every request (``requests``: dicts of
    ``path``, ``headers`` (lower-case names), ``body``) and answers as the protocol says, holding
    the newest version it got (``held``): ``stored`` for a newer one, ``ignored`` otherwise (a
    patch too, unless ``takes_patches`` is false: then 409). Set
    ``refuse = (status, "reason")`` to refuse every push, ``answer = (status, bytes, headers)`` to
    answer anything else."""

    def __init__(self):
        self.requests: list[dict] = []
        self.held = 0
        self.refuse: tuple[int, str] | None = None
        self.answer: tuple[int, bytes, dict] | None = None
        self.takes_patches = True
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                site.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                if site.answer:
                    status, content, headers = site.answer
                elif site.refuse:
                    status, content, headers = site.refuse[0], json.dumps({"error": site.refuse[1]}).encode(), {}
                elif "X-Tarock-Base" in self.headers and not site.takes_patches:
                    status, content, headers = 409, json.dumps({"error": "not that version: send the whole archive"}).encode(), {}
                else:
                    version = int(self.headers["X-Tarock-Version"])
                    outcome = "stored" if version > site.held else "ignored"
                    site.held = max(site.held, version)
                    status, headers = 200, {}
                    content = json.dumps({"status": outcome, "version": site.held, "url": f"/t/99/?v={site.held}"}).encode()
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site():
    with FakeSite() as running:
        yield running


def dead_url() -> str:
    """An address where nothing listens (a port just freed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def played(four_table):
    """The 4-table's tournament with one hand saved."""
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    return four_table.round.tournament


def make_target(tournament, url, **fields) -> PublishTarget:
    return PublishTarget.objects.create(tournament=tournament, url=url, key=KEY, **fields)


def version_of(tournament) -> int:
    tournament.refresh_from_db()
    return tournament.data_version


def test_a_push_is_signed_carries_the_version_and_a_valid_archive_and_is_stored(site, played):
    target = make_target(played, site.url)
    result = venue.push_once(target)

    assert result.outcome == "stored" and result.acknowledged
    [request] = site.requests
    headers, body = request["headers"], request["body"]
    assert request["path"] == "/publish/push/"
    assert headers["authorization"] == f"Bearer {KEY}"
    assert headers["x-tarock-signature"] == "sha256=" + hmac.new(KEY.encode(), body, hashlib.sha256).hexdigest()
    assert headers["x-tarock-tournament"] == str(played.uid)
    assert int(headers["x-tarock-version"]) == version_of(played) == result.version
    assert unquote(headers["x-tarock-source"]) == "Gasthof Post, Imst"
    assert headers["content-type"] == "application/octet-stream"
    summary = summarize(body)  # every check a restore makes
    assert summary.uid == str(played.uid) and summary.data_version == version_of(played) and summary.hands == 1

    target.refresh_from_db()
    assert target.pushed_version == version_of(played) and target.pushed_at is not None
    assert target.mirror_url == f"{site.url}/t/99/?v={target.pushed_version}"
    assert (target.failures, target.waiting_since, target.next_try, target.last_error) == (0, None, None, "")
    attempt = PushAttempt.objects.get(target=target)
    assert (attempt.version, attempt.outcome) == (target.pushed_version, "stored")


def test_a_push_asks_for_the_answer_in_the_venues_language(site, played):
    from django.utils import translation

    with translation.override("sl"):
        venue.send(played, site.url, KEY)
    venue.send(played, site.url, KEY)  # the worker's: the venue's own language
    assert [r["headers"]["accept-language"] for r in site.requests] == ["sl", "de"]


def test_a_version_the_site_holds_already_is_acknowledged_as_ignored(site, played):
    site.held = 10_000
    target = make_target(played, site.url)
    result = venue.push_once(target)
    assert result.outcome == "ignored" and result.acknowledged
    target.refresh_from_db()
    assert target.pushed_version == version_of(played)  # the site has it (or newer): nothing to send


def test_the_source_header_is_ascii_and_gives_the_venue_back(site, make_tournament):
    t = make_tournament(players=4, venue="Gösser Bräu – Saal 2, 100%\nOG")
    venue.push_once(make_target(t, site.url))
    sent = site.requests[0]["headers"]["x-tarock-source"]
    assert sent.isascii() and unquote(sent) == "Gösser Bräu – Saal 2, 100% OG"


def test_no_answer_is_offline_and_the_wait_since_the_first_failure_is_kept(played, english):
    target = make_target(played, dead_url())
    first = venue.push_once(target)
    assert first.outcome == "offline" and first.status is None and "No answer" in first.message
    target.refresh_from_db()
    since = target.waiting_since
    assert target.failures == 1 and since is not None and target.pushed_version == 0
    assert target.next_try - timezone.now() <= timedelta(seconds=2)

    target.next_try = None  # as if the back-off were over
    venue.push_once(target)
    target.refresh_from_db()
    assert target.failures == 2 and target.waiting_since == since
    assert timedelta(seconds=1) < target.next_try - timezone.now() <= timedelta(seconds=4)
    assert list(PushAttempt.objects.filter(target=target).values_list("outcome", flat=True)) == ["offline", "offline"]


@pytest.mark.parametrize("status", [500, 502, 503, 429])
def test_a_server_error_or_too_many_pushes_is_offline(site, played, status):
    site.refuse = (status, "busy")
    target = make_target(played, site.url)
    assert venue.push_once(target).outcome == "offline"
    target.refresh_from_db()
    assert target.failures == 1 and not target.paused and target.next_try is not None


def test_a_wifi_login_page_is_not_taken_for_the_site(site, played):
    target = make_target(played, site.url)
    site.answer = (200, b"<html>Welcome to the Gasthof Wi-Fi</html>", {"Content-Type": "text/html"})
    assert venue.push_once(target).outcome == "offline"
    site.answer = (302, b"", {"Location": "http://login.wifi/"})
    result = venue.push_once(target)
    assert result.outcome == "offline" and "http://login.wifi/" in result.message
    target.refresh_from_db()
    assert target.failures == 2 and target.pushed_version == 0


def test_a_refused_key_pauses_publishing_until_the_target_is_saved_again(site, played):
    site.refuse = (401, "There is no such publishing key.")
    target = make_target(played, site.url)
    result = venue.push_once(target)
    assert (result.outcome, result.status, result.message) == ("refused", 401, "There is no such publishing key.")
    target.refresh_from_db()
    assert target.paused and target.next_try is None and target.last_error == "There is no such publishing key."
    assert not venue.due(target, version_of(played))
    assert push_if_due(target.pk) == "stopped" and len(site.requests) == 1

    venue.configure(played, url=site.url, key="tpk_venue01.the-right-one", enabled=True)
    target.refresh_from_db()
    assert not target.paused and venue.due(target, version_of(played))


@pytest.mark.parametrize("status", [400, 413])
def test_a_refused_archive_is_tried_again_after_a_longer_wait(site, played, status):
    site.refuse = (status, "Hand 3 of table 1 does not add up.")
    target = make_target(played, site.url)
    venue.push_once(target)
    target.refresh_from_db()
    assert not target.paused and target.last_outcome == "refused" and target.last_error == "Hand 3 of table 1 does not add up."
    assert timedelta(seconds=50) < target.next_try - timezone.now() <= timedelta(seconds=60)


def test_the_back_off_grows_and_is_capped():
    offline = [venue.backoff("offline", n).total_seconds() for n in range(1, 12)]
    for n, wait in enumerate(offline, start=1):
        expected = min(2.0**n, venue.OFFLINE_CAP_SECONDS)
        assert expected * (1 - venue.JITTER) <= wait <= expected
    assert offline[:4] == sorted(offline[:4]) and max(offline) <= venue.OFFLINE_CAP_SECONDS
    assert venue.backoff("offline", 1, retry_after=30).total_seconds() == 30  # the site's Retry-After
    refused = [venue.backoff("refused", n, 400).total_seconds() for n in range(1, 12)]
    assert 54 <= refused[0] <= 60 and max(refused) <= venue.REFUSED_CAP_SECONDS and refused[-1] >= venue.REFUSED_CAP_SECONDS * 0.9
    assert venue.backoff("refused", 1, 401) is None and venue.backoff("refused", 5, 403) is None


def test_after_a_slow_answer_the_next_push_waits_ten_times_as_long(site, played, four_table, monkeypatch, english):
    """A site slowed down by many venues gets fewer pushes: after an answer that took 0.4 s the
    next push waits 4 s (the status still says published; the venue's own time to make the body is
    not counted); a quick answer holds nothing back; a very slow one at most 20 s."""
    target = make_target(played, site.url)
    answered = venue.send

    def slow_send(*args, **kwargs):
        result = answered(*args, **kwargs)
        return venue.PushResult(result.outcome, result.version, result.status, result.message, result.mirror_url, 450.0,
                                stored=result.stored, patch=result.patch, answer_milliseconds=400.0)

    monkeypatch.setattr(venue, "send", slow_send)
    assert push_if_due(target.pk) == "stored"
    target.refresh_from_db()
    assert timedelta(seconds=3.5) < target.next_try - timezone.now() <= timedelta(seconds=4)
    assert venue.status(target, version_of(played)).kind == "published"

    save_hand(four_table, {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False})
    assert push_if_due(target.pk) == "waiting" and len(site.requests) == 1  # the new hand waits its turn
    PublishTarget.objects.filter(pk=target.pk).update(next_try=timezone.now() - timedelta(seconds=1))  # 4 s later
    monkeypatch.setattr(venue, "send", answered)
    assert push_if_due(target.pk) == "stored" and len(site.requests) == 2
    target.refresh_from_db()
    assert site.held == version_of(played) and target.next_try is None  # a quick answer: the next at once

    assert 0 < venue.send(played, site.url, KEY).answer_milliseconds < 1000  # the POST's own time
    assert venue.pace(99) is None and venue.pace(100) == timedelta(seconds=1)
    assert venue.pace(30_000) == timedelta(seconds=venue.PACE_CAP_SECONDS)


def test_versions_saved_while_offline_are_skipped_only_the_newest_is_sent(site, played):
    target = make_target(played, dead_url())
    assert push_if_due(target.pk) == "offline"
    offline_version = version_of(played)
    touch(played.pk)
    touch(played.pk)
    newest = version_of(played)
    assert newest == offline_version + 2

    assert push_if_due(target.pk) == "waiting"  # the back-off is not over
    PublishTarget.objects.filter(pk=target.pk).update(url=site.url, next_try=timezone.now())  # the network is back
    assert push_if_due(target.pk) == "stored"
    assert [int(r["headers"]["x-tarock-version"]) for r in site.requests] == [newest]
    assert push_if_due(target.pk) == "current" and len(site.requests) == 1
    target.refresh_from_db()
    assert target.pushed_version == newest and target.failures == 0 and target.waiting_since is None


def test_a_push_on_its_way_while_the_key_was_changed_changes_nothing_but_the_log(site, played):
    target = make_target(played, site.url)
    PublishTarget.objects.filter(pk=target.pk).update(key="tpk_other.key")  # saved meanwhile
    venue.push_once(target)  # sent with the old key
    target.refresh_from_db()
    assert target.pushed_version == 0 and target.key == "tpk_other.key"
    assert PushAttempt.objects.filter(target=target).count() == 1


def test_an_archive_that_cannot_be_made_is_a_failure_not_an_exception(site, played, monkeypatch):
    def broken(tournament):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("archive.backup.export_tournament", broken)
    target = make_target(played, site.url)
    result = venue.push_once(target)
    assert result.outcome == "offline" and "disk on fire" in result.message and site.requests == []
    target.refresh_from_db()
    assert target.failures == 1


def test_the_status_says_published_waiting_or_refused(english, played):
    now = timezone.now()
    target = make_target(played, "https://tarock.example.org", pushed_version=version_of(played) - 1, pushed_at=now, mirror_url="https://tarock.example.org/t/9/")
    current = version_of(played)
    published = venue.status(target, current, now)
    assert published.kind == "published" and published.behind == 1
    assert published.text.startswith(f"Published: version {current - 1} at ") and "(1 version behind)" in published.text

    target.failures, target.waiting_since, target.last_outcome = 3, now - timedelta(minutes=5), "offline"
    waiting = venue.status(target, current + 5, now)
    assert waiting.kind == "waiting" and waiting.text.startswith("Waiting for the network since ") and "(6 versions behind)" in waiting.text

    target.last_outcome, target.last_error, target.next_try = "refused", "The archive is too large.", now + timedelta(minutes=2)
    assert venue.status(target, current, now).text.startswith("Refused by the site: The archive is too large. Trying again at ")
    target.paused = True
    assert venue.status(target, current, now).kind == "paused"
    target.enabled = False
    assert venue.status(target, current, now).text == "Publishing is stopped."


def test_the_key_hint_never_shows_the_whole_key():
    assert venue.key_hint(KEY) == "tpk_venu…" and KEY not in venue.key_hint(KEY)
    assert venue.key_hint("abc") == "a…" and venue.key_hint("") == ""
    made = "tpk_0123456789_" + "Ab_cD" * 8  # as a public site makes them: its prefix is public
    assert venue.key_hint(made) == "tpk_0123456789_…"


def test_after_a_stored_push_a_change_of_hands_only_is_sent_as_a_patch(site, played, four_table):
    target = make_target(played, site.url)
    assert venue.push_once(target).outcome == "stored"
    first = version_of(played)
    target.refresh_from_db()
    assert (target.pushed_version, target.pushed_layout, target.pushed_tables) == (first, played.layout_version, {"1.1": 1})

    save_hand(four_table, {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False})
    result = venue.push_once(target)
    assert result.outcome == "stored" and result.patch
    request = site.requests[-1]
    assert request["headers"]["x-tarock-base"] == str(first)
    assert int(request["headers"]["x-tarock-version"]) == version_of(played)
    assert request["headers"]["x-tarock-signature"] == "sha256=" + hmac.new(KEY.encode(), request["body"], hashlib.sha256).hexdigest()
    whole = json.loads(gzip.decompress(request["body"]))
    assert whole["format"] == "tarock-patch" and whole["base"] == {"version": first, "tables": {"1.1": 1}}
    assert [h["number"] for h in whole["data"]["hands"]] == [1, 2]
    target.refresh_from_db()
    assert target.pushed_tables == {"1.1": 2}


def test_a_patch_the_site_refuses_is_followed_by_the_whole_archive_at_once(site, played, four_table):
    target = make_target(played, site.url)
    venue.push_once(target)
    site.takes_patches = False
    save_hand(four_table, {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False})
    result = venue.push_once(target)

    assert result.outcome == "stored" and not result.patch
    patch_request, whole_request = site.requests[-2:]
    assert "x-tarock-base" in patch_request["headers"] and "x-tarock-base" not in whole_request["headers"]
    assert summarize(whole_request["body"]).hands == 2  # the whole archive, every check a restore makes
    assert PushAttempt.objects.filter(target=target).count() == 2  # one step, one attempt each push


def test_a_layout_change_or_an_ignored_push_sends_the_whole_archive_next(site, played, four_table):
    target = make_target(played, site.url)
    venue.push_once(target)
    touch(played.pk)  # a change of the layout (names, seats, settings): not hands only
    assert not venue.push_once(target).patch
    site.held = 10_000  # the site says it holds a newer version: which content, it does not say
    touch(played.pk, hands_only=True)
    assert venue.push_once(target).outcome == "ignored"
    target.refresh_from_db()
    assert target.pushed_tables is None and target.pushed_layout is None
    site.held = 0
    touch(played.pk, hands_only=True)
    assert not venue.push_once(target).patch
