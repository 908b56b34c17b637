"""What strangers can make the server do is bounded: only canonical query parameters reach a cache
key, and only those naming something that exists a kept page or a file name (junk shares the one
page, ``after=999`` is refused, and a cache hit checks nothing but the data version),
anonymous renders of pages and downloads are rate-limited per address, and so are the posts
through a table's private link — with a translated 429, while pages served from the cache, files
served from the storage and 304 answers are never limited."""

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from scoring.models import HandFlag
from scoring.services import save_hand
from tournaments import services

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


def page_entries() -> list[str]:
    """The keys of the pages kept in the (per-process memory) cache, without render marks."""
    return [k for k in caches["default"]._cache if ":page:" in k and not k.endswith(":rendering")]


def exported_files(settings) -> list[str]:
    root = settings.MEDIA_ROOT / "exports"
    return sorted(p.name for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.fixture
def standings_renders(monkeypatch):
    """How often the standings page ranked the field."""
    from scoring import views_public

    calls = []
    compute = views_public.compute_standings
    monkeypatch.setattr(views_public, "compute_standings", lambda *a, **k: calls.append(a[1:]) or compute(*a, **k))
    return calls


@pytest.mark.django_db
def test_300_junk_query_strings_make_one_cached_page(four_table, standings_renders):
    url = reverse("scoring:standings", args=[four_table.round.tournament_id])
    pages = {Client().get(f"{url}?x={i}&utm_source=junk{i}").content for i in range(300)}
    assert len(pages) == 1 and len(page_entries()) == 1 and len(standings_renders) == 1
    # nothing of a visitor's query is in the page served to the others (the language switch's "next")
    assert b"junk" not in pages.pop()
    assert Client().get(url).status_code == 200 and len(page_entries()) == 1


@pytest.mark.django_db
def test_after_must_be_a_drawn_round(four_table, standings_renders, settings):
    t = four_table.round.tournament
    page, pdf = reverse("scoring:standings", args=[t.pk]), reverse("exports:standings_pdf", args=[t.pk])
    for value in ("999", "0", "2"):  # round 2 is not drawn yet
        assert Client().get(f"{page}?after={value}").status_code == 404, value
        assert Client().get(f"{pdf}?after={value}").status_code == 404, value
    assert standings_renders == [] and page_entries() == [] and exported_files(settings) == []
    assert Client().get(f"{page}?after=1").status_code == 200
    assert Client().get(f"{page}?after=01&x=1").status_code == 200  # the same page
    assert Client().get(f"{page}?after=abc").status_code == 200  # not a number: the standings after every round
    assert standings_renders == [(1,), (None,)] and len(page_entries()) == 2
    services.draw_next_round(t, seed=3)
    assert Client().get(f"{page}?after=2").status_code == 200  # drawn now


@pytest.mark.django_db
def test_200_after_values_store_one_pdf(four_table, settings):
    pdf = reverse("exports:standings_pdf", args=[four_table.round.tournament_id])
    answers = [Client().get(f"{pdf}?after={n}").status_code for n in range(1, 201)]
    assert answers == [200] + [404] * 199
    assert len(exported_files(settings)) == 1 and exported_files(settings)[0].startswith("after-1.")


@pytest.mark.django_db
def test_the_big_screen_keeps_only_its_own_choices(four_table):
    screen = reverse("live:screen", args=[four_table.round.tournament_id])
    for query in ("seconds=20", "x=1&seconds=20", "seconds=020&y=2", "seconds=20&mode=slides"):
        assert Client().get(f"{screen}?{query}").status_code == 200
    assert len(page_entries()) == 1
    for query in ("", "seconds=4", "seconds=999", "seconds=abc", "z=1"):  # all the default of 12 s
        assert Client().get(f"{screen}?{query}").status_code == 200
    assert len(page_entries()) == 2
    assert Client().get(f"{screen}?mode=prizes&q=1").status_code == 200  # the prize-giving is its own page
    assert Client().get(f"{screen}?q=2&mode=prizes").status_code == 200
    assert len(page_entries()) == 3


@pytest.mark.django_db
def test_private_link_posts_are_limited_per_link_and_address(make_tournament, settings):
    settings.RATE_LIMIT_PRIVATE_POSTS = "5/m"
    t = make_tournament(players=8)
    services.draw_next_round(t, seed=7)
    table, other_table = t.round_set.get().tables.order_by("number")
    hand = save_hand(table, HAND)
    url = reverse("scoring:private_sheet", args=[table.token])
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    answers = [phone.post(url, {"hand": hand.pk, "comment": f"Flag {i}"}).status_code for i in range(8)]
    assert answers == [302] * 5 + [429] * 3
    assert HandFlag.objects.filter(hand=hand).count() == 5  # the sixth and later were not stored
    refused = phone.post(url, {"confirm": "1", "name": "Anna"})
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 65
    assert "Too many requests" in refused.content.decode() and "try again in" in refused.content.decode()
    assert phone.get(url).status_code == 200  # reading the sheet is not limited
    other = reverse("scoring:private_sheet", args=[other_table.token])
    assert phone.post(other, {"confirm": "1", "name": "Bert", "sheet_version": "0"}).status_code == 302  # another table's link
    neighbour = Client(REMOTE_ADDR="10.1.2.3")
    assert neighbour.post(url, {"confirm": "1", "name": "Carl", "sheet_version": "1"}).status_code == 302  # another address


@pytest.mark.django_db
def test_anonymous_page_renders_are_limited_but_cached_pages_and_304_are_not(four_table, director_client, settings):
    settings.RATE_LIMIT_PAGES = "3/m"
    t = four_table.round.tournament
    detail, standings, rules, seating = (
        reverse("tournaments:detail", args=[t.pk]),
        reverse("scoring:standings", args=[t.pk]),
        reverse("scoring:rules", args=[t.pk]),
        reverse("tournaments:round", args=[t.pk, 1]),
    )
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    first = visitor.get(detail)
    assert [first.status_code, visitor.get(standings).status_code, visitor.get(rules).status_code] == [200, 200, 200]
    limited = visitor.get(seating)  # a fourth render in the minute
    assert limited.status_code == 429 and "Too many requests" in limited.content.decode()
    assert len(page_entries()) == 3  # the refused page was not rendered, nor kept
    for _ in range(20):  # served from the cache: never limited
        assert visitor.get(detail).status_code == 200
        assert visitor.get(standings).status_code == 200
        assert visitor.get(detail, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert director_client.get(seating).status_code == 200  # a logged-in user is never limited
    assert Client(REMOTE_ADDR="10.9.8.7", HTTP_ACCEPT_LANGUAGE="en").get(seating).status_code == 200  # another address
    assert visitor.get(seating).status_code == 200  # now cached by the other address's render


@pytest.mark.django_db
def test_anonymous_export_renders_are_limited_but_stored_files_are_not(four_table, director_client, settings):
    settings.RATE_LIMIT_EXPORTS = "2/m"
    t = four_table.round.tournament
    csv, pdf, xlsx = (
        reverse("exports:hands_csv", args=[t.pk]),
        reverse("exports:standings_pdf", args=[t.pk]),
        reverse("exports:standings_xlsx", args=[t.pk]),
    )
    visitor = Client()
    assert visitor.get(csv).status_code == 200 and visitor.get(pdf).status_code == 200
    limited = visitor.get(xlsx)
    assert limited.status_code == 429 and "Retry-After" in limited
    assert len(exported_files(settings)) == 2  # nothing rendered for the refused one
    for _ in range(5):  # served from the storage: never limited
        assert visitor.get(csv).status_code == 200
    assert director_client.get(xlsx).status_code == 200  # a logged-in user is never limited
    assert visitor.get(xlsx).status_code == 200  # now stored
    assert visitor.get(pdf + "?after=999").status_code == 404  # refused before it counts


@pytest.mark.django_db
def test_a_stored_download_reads_the_tournament_once(four_table, django_assert_num_queries):
    """An anonymous download served from the storage costs the tournament's row (and the round
    its ``?after=`` names) and nothing more: the rate limit's decision is taken by the view
    itself, once it knows a render is due, not by a second look-up before it."""
    pdf = reverse("exports:standings_pdf", args=[four_table.round.tournament_id])
    for query, queries in (("", 1), ("?after=1", 2)):
        assert Client().get(pdf + query).status_code == 200  # rendered and stored
        with django_assert_num_queries(queries):
            response = Client().get(pdf + query)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_a_cached_page_costs_the_version_query_only(four_table, django_assert_num_queries):
    """A phone refreshing the standings (also ``?after=``) or the statistics with a chosen player
    is served from the cache for one query, the tournament's data version: the parameters are
    checked against the database by the render alone."""
    t = four_table.round.tournament
    player = t.registrations.order_by("pk").first().pk
    for url in (
        reverse("scoring:standings", args=[t.pk]),
        reverse("scoring:standings", args=[t.pk]) + "?after=1",
        reverse("live:statistics", args=[t.pk]) + f"?player={player}",
        reverse("live:chart_progression", args=[t.pk]) + f"?player={player}",
    ):
        first = Client().get(url)
        assert first.status_code == 200, url
        with django_assert_num_queries(1):
            again = Client().get(url)
        assert again.status_code == 200 and again.content == first.content, url


@pytest.mark.django_db
def test_a_player_of_nobody_is_refused_and_not_kept(four_table, make_tournament):
    t = four_table.round.tournament
    other = make_tournament(players=4, name="Anderes Turnier").registrations.first().pk
    page, chart = reverse("live:statistics", args=[t.pk]), reverse("live:chart_progression", args=[t.pk])
    for value in ("999999", "0", str(other)):  # nobody, or a player of another tournament
        assert Client().get(f"{page}?player={value}").status_code == 404, value
        assert Client().get(f"{chart}?player={value}").status_code == 404, value
    assert page_entries() == []
    for value in ("", "abc", "-1"):  # not a number: the page without a chosen player
        assert Client().get(f"{page}?player={value}").status_code == 200, value
    assert len(page_entries()) == 1
    player = t.registrations.first().pk
    assert Client().get(f"{page}?player={player}&x=1").status_code == 200
    assert Client().get(f"{page}?player=0{player}").status_code == 200  # the same page
    assert len(page_entries()) == 2


@pytest.mark.django_db
def test_refused_parameters_count_against_the_render_limit(four_table, settings):
    """A value that names nothing is answered 404 by the render, which counts: a stranger trying
    rounds cannot make the server look them up without bound."""
    settings.RATE_LIMIT_PAGES = "3/m"
    page = reverse("scoring:standings", args=[four_table.round.tournament_id])
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert [visitor.get(f"{page}?after={n}").status_code for n in range(900, 905)] == [404] * 3 + [429] * 2
    assert page_entries() == []
