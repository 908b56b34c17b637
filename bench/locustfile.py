"""The crowd of ``bench/load_bench.py``: viewers and scorers of one large tournament.

Run by ``load_bench.py`` (``locust -f bench/locustfile.py --headless ...``), which builds the
tournament first and passes it in the JSON file named by ``LOAD_BENCH_CONFIG``::

    {"tournament": 1, "round": 3, "tables": [table pks of the round], "hosts": ["http://127.0.0.1:8001", ...],
     "viewers": 300, "scorers": [{"username": "scorer01", "password": "...", "tables": [pks]}, ...],
     "viewer_wait": [5, 15], "scorer_wait": [20, 40], "stagger": 10,
     "acks": "path (a line per saved hand)", "samples": "path (JSON of every request, at the end)"}

**Viewers** (anonymous, as phones at the venue): each has a home table of the round and refreshes,
every 5–15 s, one of the standings (weight 3), its table's sheet (3), the round's seating (2) or
the tournament page (1), as a browser does it: the ``ETag`` of each address is kept and sent back
as ``If-None-Match``, so an unchanged page answers 304. 200 and 304 are reported together per page
(``standings``, ``sheet``, ``seating``, ``tournament``); their counts are kept apart in the samples.
A viewer's first page comes after a random pause of up to ``stagger`` seconds, so the crowd
arrives over a few seconds instead of all in the same instant.

**Scorers** (the scorer role of the tournament, one account each, logged in over plain HTTP): each owns some tables of the
round that no other scorer touches, so two scorers never race for the same hand number. Every
20–40 s it enters the next hand of its next table that has room (opening the table's sheet first
the first time: ``sheet (director)``), as the sheet's form posts it: the
quick line ``d <seat> +|-`` (a Dreier of a random seat, won or lost) with the hand number and the
dealer the sheet's form carries (``hand``, a 302 when saved), then follows the redirect to the
sheet (``sheet (director)``), rendered for a logged-in director (never from the cache) — and reads
the next hand number, dealer and CSRF token from it, as the scorer's browser has them. Every 302
is written at once to the ``acks`` file (``table number username``): the acknowledged writes the
benchmark looks for in the database afterwards. A refused hand (422, or 200 with the form's
errors) is not a failure of the server but is counted apart (``refused``) with its message; the
scorer then reads its sheet again.

Users are assigned to hosts in turn (user ``i`` talks to ``hosts[i % len(hosts)]``), so with two
app servers half the crowd is on each. Every request's time, status and outcome go to the
``samples`` file when the test stops.
"""

from __future__ import annotations

import html
import itertools
import json
import os
import random
import re
import time

import gevent
from locust import HttpUser, between, events, task

CONFIG = json.loads(open(os.environ["LOAD_BENCH_CONFIG"], encoding="utf-8").read())
HOSTS = CONFIG["hosts"]
T = CONFIG["tournament"]
ROUND = CONFIG["round"]
TABLES = CONFIG["tables"]

_viewer_no = itertools.count()
_scorer_no = itertools.count()

# name -> list of [milliseconds, status code, failed (0/1)]; extra counters beside.
SAMPLES: dict[str, list] = {}
EXTRA = {"refused": 0, "refusals": [], "scorer_full": 0, "viewer_304": {}, "viewer_200": {}, "errors": []}
_ack_file = open(CONFIG["acks"], "a", encoding="utf-8")

NUMBER = re.compile(r'<input[^>]*\bname="number" value="(\d+)"')
DEALER = re.compile(r'<select[^>]*\bname="dealer"[^>]*>(.*?)</select>', re.S)
SELECTED = re.compile(r'<option value="(\d+)" selected>')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ERRORS = re.compile(r'class="(?:errors|preview-errors)"[^>]*>(.*?)</div>', re.S)


@events.request.add_listener
def _record(request_type, name, response_time, response_length, response=None, exception=None, **_kwargs):
    status = getattr(response, "status_code", 0) if response is not None else 0
    SAMPLES.setdefault(name, []).append([round(response_time, 2), status, 1 if exception else 0])
    if exception and len(EXTRA["errors"]) < 50:
        EXTRA["errors"].append(f"{name}: {status} {str(exception)[:300]}")


def _dump(**_kwargs):
    with open(CONFIG["samples"], "w", encoding="utf-8") as out:
        json.dump({"samples": SAMPLES, "extra": EXTRA, "written_at": time.time()}, out)


events.test_stop.add_listener(_dump)
events.quitting.add_listener(_dump)


class Viewer(HttpUser):
    """A player's phone: standings, its table's sheet, the round's seating, the tournament page."""

    fixed_count = int(CONFIG["viewers"])
    wait_time = between(*CONFIG["viewer_wait"])
    host = HOSTS[0]

    def on_start(self):
        self.index = next(_viewer_no)
        self.base = HOSTS[self.index % len(HOSTS)]
        self.home = random.choice(TABLES)
        self.etags: dict[str, str] = {}
        gevent.sleep(random.uniform(0, CONFIG.get("stagger", 0)))

    def view(self, path: str, name: str):
        url = self.base + path
        headers = {"If-None-Match": self.etags[url]} if url in self.etags else {}
        with self.client.get(url, name=name, headers=headers, catch_response=True) as response:
            if response.status_code == 304:
                EXTRA["viewer_304"][name] = EXTRA["viewer_304"].get(name, 0) + 1
                response.success()
            elif response.status_code == 200:
                EXTRA["viewer_200"][name] = EXTRA["viewer_200"].get(name, 0) + 1
                if response.headers.get("ETag"):
                    self.etags[url] = response.headers["ETag"]
                response.success()
            else:
                response.failure(f"HTTP {response.status_code}")

    @task(3)
    def standings(self):
        self.view(f"/t/{T}/standings/", "standings")

    @task(3)
    def sheet(self):
        self.view(f"/table/{self.home}/", "sheet")

    @task(2)
    def seating(self):
        self.view(f"/t/{T}/round/{ROUND}/", "seating")

    @task(1)
    def tournament(self):
        self.view(f"/t/{T}/", "tournament")


class Scorer(HttpUser):
    """A scorer entering the hands of its own tables, one every 20–40 s."""

    fixed_count = len(CONFIG["scorers"])
    wait_time = between(*CONFIG["scorer_wait"])
    host = HOSTS[0]

    def on_start(self):
        index = next(_scorer_no)
        self.account = CONFIG["scorers"][index]
        self.base = HOSTS[index % len(HOSTS)]
        # table pk -> {"number", "dealer", "csrf"} as its sheet last showed them; None when full.
        self.state: dict[int, dict | None] = {}
        self.turn = 0
        gevent.sleep(random.uniform(0, CONFIG.get("stagger", 0)))
        self.log_in()
        # Scorers start at different moments too: the first hand comes within one pause.
        gevent.sleep(random.uniform(0, CONFIG["scorer_wait"][1]))

    def log_in(self):
        page = self.client.get(self.base + "/accounts/login/", name="login")
        token = CSRF.search(page.text)
        data = {
            "csrfmiddlewaretoken": token.group(1) if token else "",
            "username": self.account["username"],
            "password": self.account["password"],
            "next": "/",
        }
        with self.client.post(self.base + "/accounts/login/", data, name="login", allow_redirects=False, catch_response=True) as r:
            if r.status_code != 302:
                r.failure(f"login refused ({r.status_code})")

    def parse(self, table: int, text: str) -> None:
        number, dealer, token = NUMBER.search(text), DEALER.search(text), CSRF.search(text)
        chosen = SELECTED.search(dealer.group(1)) if dealer else None
        if not (number and chosen and token):
            self.state[table] = None  # no entry form: the table has played every hand
            return
        self.state[table] = {"number": int(number.group(1)), "dealer": int(chosen.group(1)), "csrf": token.group(1)}

    def read_sheet(self, table: int) -> None:
        with self.client.get(f"{self.base}/table/{table}/", name="sheet (director)", catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}")
                return
            self.parse(table, r.text)

    @task
    def enter_hand(self):
        tables = self.account["tables"]
        for _ in range(len(tables)):
            table = tables[self.turn % len(tables)]
            self.turn += 1
            if table not in self.state:
                self.read_sheet(table)  # the first hand of a table: its sheet is opened first
            if self.state.get(table) is not None:
                break
        else:
            EXTRA["scorer_full"] += 1  # every table of this scorer is full
            return
        state = self.state[table]
        line = f"d {random.randint(1, 4)} {random.choice('+-')}"
        data = {
            "csrfmiddlewaretoken": state["csrf"],
            "number": str(state["number"]),
            "outcome": "played",
            "dealer": str(state["dealer"]),
            "quick": line,
            "source": "line",
        }
        url = f"{self.base}/manage/table/{table}/hands/"
        with self.client.post(url, data, name="hand", allow_redirects=False, catch_response=True) as r:
            location = r.headers.get("Location", "")
            if r.status_code == 302 and location.rstrip("/").endswith(f"/table/{table}"):
                _ack_file.write(f"{table} {state['number']} {self.account['username']}\n")
                _ack_file.flush()
                r.success()
            elif r.status_code == 302:
                r.failure(f"redirected to {location} (logged out?)")
            elif r.status_code in (200, 422):
                # Refused by the application (a conflict or a rule): not a server error.
                EXTRA["refused"] += 1
                found = ERRORS.search(r.text)
                message = re.sub(r"<[^>]+>", " ", found.group(1)) if found else r.text[:200]
                if len(EXTRA["refusals"]) < 20:
                    EXTRA["refusals"].append(f"table {table} hand {state['number']} {line!r}: {html.unescape(' '.join(message.split()))}")
                r.success()
            else:
                r.failure(f"HTTP {r.status_code}")
        # Saved: the browser follows the redirect to the sheet, which shows the hand and the form for
        # the next one. Refused or failed: the scorer reloads the sheet to see where it stands.
        self.read_sheet(table)
