"""The read-only public API under /api/v1/: its OpenAPI schema lists every endpoint; each endpoint
answers what the public pages show of a small finished tournament (values by hand from the hands
entered, see conftest.py), by version (ETag, 304, a new ETag after a hand), for everybody and
nothing else (no write, no private key), in the documented shape."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.api import serializers as s
from scoring.cups.models import Cup
from scoring.services import save_hand

from .conftest import TOTALS

ENDPOINTS = {
    "/api/v1/", "/api/v1/tournaments/", "/api/v1/tournaments/{id}/", "/api/v1/tournaments/{id}/standings/",
    "/api/v1/tournaments/{id}/rounds/", "/api/v1/tournaments/{id}/rounds/{number}/",
    "/api/v1/tournaments/{id}/players/{reg}/", "/api/v1/cups/", "/api/v1/cups/{id}/",
}
PRIVATE = {"token", "password", "email"}


def get_json(url, client=None, **headers):
    response = (client or Client()).get(url, **headers)
    assert response.status_code == 200, (url, response.content[:300])
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


def keys_of(value) -> set:
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value).union(*(keys_of(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_of(v) for v in value)) if value else set()
    return set()


@pytest.fixture
def cup_of(finished):
    """The finished tournament counting for a Tirol-formula cup."""
    t, _table, _seats = finished
    cup = Cup.objects.create(name="Oberland-Cup", ruleset=t.ruleset, method="tirol", counting="all")
    t.cup = cup
    t.save()
    return cup


def urls(t, seats, cup) -> dict[str, str]:
    """One address per endpoint, for the tournament ``t`` and ``cup``."""
    return {
        "index": reverse("api:index"),
        "tournaments": reverse("api:tournaments"),
        "tournament": reverse("api:tournament", args=[t.pk]),
        "standings": reverse("api:standings", args=[t.pk]),
        "rounds": reverse("api:rounds", args=[t.pk]),
        "round": reverse("api:round", args=[t.pk, 1]),
        "player": reverse("api:player", args=[t.pk, seats[1].pk]),
        "cups": reverse("api:cups"),
        "cup": reverse("api:cup", args=[cup.pk]),
    }


@pytest.mark.django_db
def test_the_schema_answers_and_lists_every_endpoint_read_only():
    response = Client().get(reverse("api:schema"), {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.") and schema["info"]["version"] == "1"
    assert set(schema["paths"]) == ENDPOINTS
    assert {method for path in schema["paths"].values() for method in path} == {"get"}
    assert "/t/{id}/widget/" not in schema["paths"]  # a page, not an endpoint
    yaml = Client().get(reverse("api:schema"))
    assert yaml.status_code == 200 and b"/api/v1/tournaments/{id}/standings/:" in yaml.content


@pytest.mark.django_db
def test_the_list_of_tournaments(finished, english):
    t, _table, _seats = finished
    found = get_json(reverse("api:tournaments"))
    assert found["count"] == 1 and found["next"] is None and found["previous"] is None
    (item,) = found["results"]
    assert (item["id"], item["uid"], item["name"], item["date"], item["venue"]) == (t.pk, str(t.uid), "Testturnier", "2026-11-21", "Gasthof Post, Imst")
    assert item["ruleset"] == {"key": "tiroler-tarockcup", "edition": "2019/20", "label": "Tiroler Tarockcup 2019/20"}
    assert item["rounds"] == 1 and item["mirrored_from"] == ""
    assert item["links"]["standings_page"].endswith(f"/t/{t.pk}/standings/")
    assert Client().get(reverse("api:tournaments"), {"page": "2"}).status_code == 404  # past the end


@pytest.mark.django_db
def test_a_tournament(finished):
    t, _table, _seats = finished
    found = get_json(reverse("api:tournament", args=[t.pk]))
    assert (found["id"], found["drawn_rounds"], found["players"], found["hands_per_round"], found["cup"]) == (t.pk, [1], 4, 16, None)
    assert found["data_version"] == type(t).objects.get(pk=t.pk).data_version
    assert Client().get(reverse("api:tournament", args=[t.pk + 100])).status_code == 404


@pytest.mark.django_db
def test_the_standings_rank_by_the_hands_entered(finished, english):
    t, _table, seats = finished
    found = get_json(reverse("api:standings", args=[t.pk]))
    assert found["final"] is True and found["provisional"] is False and found["rounds"] == [1]
    # Seat 1 won all three hands: +3, first; seat 2 +1, seat 3 −1, seat 0 −3 last.
    table = [(r["rank"], r["player_id"], r["total"], r["rounds"][0]["score"]) for r in found["rows"]]
    assert table == [(1, seats[1].pk, 3, 3), (2, seats[2].pk, 1, 1), (3, seats[3].pk, -1, -1), (4, seats[0].pk, -3, -3)]
    assert [r["total"] for r in found["rows"]] == [TOTALS[1], TOTALS[2], TOTALS[3], TOTALS[0]]
    first = found["rows"][0]
    assert (first["name"], first["club"], first["shared"], first["tiebreak"]) == (seats[1].player.name, "Imst", False, "")
    assert found["ranked_by"] == "game_points" and found["tiebreaks"] == ["best_rounds", "lots"]
    assert get_json(reverse("api:standings", args=[t.pk]) + "?after=1")["rows"][0]["total"] == 3
    assert Client().get(reverse("api:standings", args=[t.pk]), {"after": "9"}).status_code == 404  # no round 9


@pytest.mark.django_db
def test_rounds_and_a_round_with_its_tables_and_seats(finished, english):
    t, table, seats = finished
    rounds = get_json(reverse("api:rounds", args=[t.pk]))["rounds"]
    assert [r["number"] for r in rounds] == [1]
    (only,) = rounds[0]["tables"]
    assert (only["number"], only["hands_played"], only["hands_planned"], only["finished"]) == (1, 3, 3, True)  # ended after 3
    assert [(x["seat"], x["player_id"], x["name"]) for x in only["seats"]] == [
        (p + 1, seats[p].pk, seats[p].player.name) for p in range(4)
    ]
    assert all(x["card"] and x["substitute"] is None for x in only["seats"])
    one = get_json(reverse("api:round", args=[t.pk, 1]))
    assert one["number"] == 1 and one["tables"] == rounds[0]["tables"]
    assert Client().get(reverse("api:round", args=[t.pk, 2])).status_code == 404


@pytest.mark.django_db
def test_a_players_results_hand_by_hand(finished, make_tournament, english):
    t, table, seats = finished
    found = get_json(reverse("api:player", args=[t.pk, seats[1].pk]))
    assert (found["name"], found["rank"], found["total"], found["shared"]) == (seats[1].player.name, 1, 3, False)
    (played,) = found["rounds"]
    assert (played["round"], played["table"], played["seat"], played["score"]) == (1, 1, 2, 3)
    assert [(h["number"], h["score"], h["total"]) for h in played["hands"]] == [(1, 1, 1), (2, 1, 2), (3, 1, 3)]
    assert sorted(played["mates"]) == sorted(seats[p].player.name for p in (0, 2, 3))
    other = make_tournament(players=4, name="Anderes")
    stranger = other.registrations.first()
    assert Client().get(reverse("api:player", args=[t.pk, stranger.pk])).status_code == 404


@pytest.mark.django_db
def test_cups_and_a_cup_table(finished, cup_of, english):
    t, _table, seats = finished
    cups = get_json(reverse("api:cups"))["results"]
    assert [(c["id"], c["name"], c["method"]) for c in cups] == [(cup_of.pk, "Oberland-Cup", "tirol")]
    found = get_json(reverse("api:cup", args=[cup_of.pk]))
    assert [e["tournament_id"] for e in found["events"]] == [t.pk]
    # Tirol formula, 4 players: 200 × ((4 − rank)/3)³: 200, 59.26 → 59, 7.41 → 7, 0.
    rows = [(r["rank"], r["player_id"], r["total"], r["counted"]) for r in found["rows"]]
    players = {seats[p].pk: seats[p].player_id for p in range(4)}
    assert rows == [(1, players[seats[1].pk], 200, 1), (2, players[seats[2].pk], 59, 1), (3, players[seats[3].pk], 7, 1), (4, players[seats[0].pk], 0, 1)]
    assert found["rows"][0]["results"] == [{"event": f"t{t.pk}", "rank": 1, "shared": False, "points": 200, "counted": True, "absent": False}]
    assert Client().get(reverse("api:cup", args=[cup_of.pk]), {"ranking": "77"}).status_code == 404


@pytest.mark.django_db
def test_every_answer_has_the_documented_shape_and_nothing_private(finished, cup_of):
    t, table, seats = finished
    shapes = {
        "index": s.IndexSerializer, "tournaments": s.TournamentPageSerializer, "tournament": s.TournamentDetailSerializer,
        "standings": s.StandingsSerializer, "rounds": s.RoundsSerializer, "round": s.RoundDetailSerializer,
        "player": s.PlayerSerializer, "cups": s.CupListSerializer, "cup": s.CupTableSerializer,
    }
    for name, url in urls(t, seats, cup_of).items():
        found = get_json(url)
        assert shapes[name](found).data == found, name  # every key documented, no other
        assert keys_of(found) & PRIVATE == set(), name
        assert table.token not in json.dumps(found), name  # the table's private link


@pytest.mark.django_db
def test_304_while_nothing_changed_and_a_new_etag_after_a_hand(four_table):
    t = four_table.round.tournament
    client = Client()
    for url in (reverse("api:standings", args=[t.pk]), reverse("api:rounds", args=[t.pk]), reverse("api:tournaments")):
        first = client.get(url)
        tag = first["ETag"]
        assert first["Cache-Control"] == "no-cache" and first["Access-Control-Allow-Origin"] == "*"
        again = client.get(url, HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304 and again.content == b""
    tags = {url: client.get(url)["ETag"] for url in (reverse("api:standings", args=[t.pk]), reverse("api:tournaments"))}
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    for url, tag in tags.items():
        after = client.get(url, HTTP_IF_NONE_MATCH=tag)
        assert after.status_code == 200 and after["ETag"] != tag, url
    standings = json.loads(client.get(reverse("api:standings", args=[t.pk])).content)
    assert standings["provisional"] is True and standings["rows"][0]["total"] == 1


@pytest.mark.django_db
def test_writes_are_refused_whoever_asks(finished, cup_of, director_client):
    t, _table, seats = finished
    for url in urls(t, seats, cup_of).values():
        for client in (Client(), director_client):
            for method in ("post", "put", "patch", "delete"):
                assert getattr(client, method)(url, data={}, content_type="application/json").status_code == 405, (url, method)


@pytest.mark.django_db
def test_a_session_changes_nothing_and_the_language_can_be_asked_for(finished, director_client):
    t, _table, _seats = finished
    url = reverse("api:tournament", args=[t.pk])
    assert director_client.get(url).content == Client().get(url).content
    english = Client().get(url, {"lang": "en"})
    slovene = Client().get(url, {"lang": "sl"})
    assert english["Content-Language"] == "en" and slovene["Content-Language"] == "sl"
    assert english["ETag"] != slovene["ETag"]


@pytest.mark.django_db
def test_renders_are_rate_limited_but_304s_and_kept_answers_are_not(finished, settings):
    t, _table, _seats = finished
    settings.RATE_LIMIT_PAGES = "2/m"
    client = Client()
    first = client.get(reverse("api:tournament", args=[t.pk]))
    client.get(reverse("api:standings", args=[t.pk]))
    refused = client.get(reverse("api:rounds", args=[t.pk]))  # the third render this minute
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert client.get(reverse("api:tournament", args=[t.pk])).status_code == 200  # kept
    assert client.get(reverse("api:tournament", args=[t.pk]), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


@pytest.fixture
def count_queries():
    """``count_queries(url) -> int``: the queries of one anonymous GET of ``url`` (Django's
    request_started signal would empty the query log the test is reading)."""
    from django.core import signals
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    signals.request_started.disconnect(reset_queries)

    def count(url):
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(url).status_code == 200
        return len(queries)

    yield count
    signals.request_started.connect(reset_queries)


@pytest.mark.django_db
def test_query_counts_stay_flat_and_a_kept_answer_costs_the_version_query(finished, make_tournament, count_queries):
    from tournaments import services

    small, _table, _seats = finished
    large = make_tournament(players=40, rounds=2, name="Groß")
    services.draw_next_round(large, seed=3)
    counts = {}
    for t in (small, large):
        reg = t.registrations.first().pk
        for name, args in (("tournament", [t.pk]), ("standings", [t.pk]), ("rounds", [t.pk]), ("round", [t.pk, 1]), ("player", [t.pk, reg])):
            url = reverse(f"api:{name}", args=args)
            counts[(name, t.pk == large.pk)] = count_queries(url)
            assert count_queries(url) == 1, name  # from the cache: the version only
    assert all(counts[(name, False)] == counts[(name, True)] for name, _large in counts), counts
    assert counts[("standings", False)] == 5  # version, tournament, the standings' three


@pytest.mark.django_db
def test_head_and_a_cors_preflight_are_answered(finished):
    t, _table, _seats = finished
    url = reverse("api:standings", args=[t.pk])
    head = Client().head(url)
    assert head.status_code == 200 and head["ETag"] == Client().get(url)["ETag"]
    preflight = Client().options(url, HTTP_ORIGIN="https://club.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET")
    assert preflight.status_code == 200 and preflight["Access-Control-Allow-Origin"] == "*"
    assert preflight["Access-Control-Allow-Methods"] == "GET, HEAD" and "If-None-Match" in preflight["Access-Control-Allow-Headers"]
