"""Public pages carry an ETag from the tournament's data version, answer 304 while it
holds, are rendered once per version for anonymous viewers and never serve a stale page."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import save_hand
from tournaments import services

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


def pages(table):
    t = table.round.tournament
    return [
        reverse("tournaments:detail", args=[t.pk]),
        reverse("scoring:standings", args=[t.pk]),
        reverse("tournaments:round", args=[t.pk, 1]),
        reverse("scoring:sheet", args=[table.pk]),
        reverse("scoring:rules", args=[t.pk]),
    ]


@pytest.mark.django_db
def test_each_public_page_answers_304_until_a_hand_is_saved(four_table):
    viewer = Client()
    tags = {}
    for url in pages(four_table):
        first = viewer.get(url)
        assert first.status_code == 200, url
        tags[url] = first["ETag"]
        assert "no-cache" in first["Cache-Control"]
        again = viewer.get(url, HTTP_IF_NONE_MATCH=tags[url])
        assert again.status_code == 304 and again["ETag"] == tags[url], url
    save_hand(four_table, HAND)
    tournament, standings, seating, sheet, rules = pages(four_table)
    for url in (tournament, standings, sheet):  # they show the hand, or the table's count of hands
        changed = viewer.get(url, HTTP_IF_NONE_MATCH=tags[url])
        assert changed.status_code == 200, url
        assert changed["ETag"] != tags[url]
    for url in (seating, rules):  # no hand on them: still the page the viewer has
        assert viewer.get(url, HTTP_IF_NONE_MATCH=tags[url]).status_code == 304, url


@pytest.mark.django_db
def test_the_seating_changes_at_once_when_two_players_are_swapped(four_table):
    t = four_table.round.tournament
    url = reverse("tournaments:round", args=[t.pk, 1])
    viewer = Client()
    first = viewer.get(url)
    a, b = four_table.seats.order_by("position")[:2]
    services.swap_players(four_table.round, a.registration, b.registration)
    changed = viewer.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    page = changed.content.decode()
    names = [s.registration.player.name for s in four_table.seats.order_by("position")]
    assert page.index(names[0]) < page.index(names[1])  # the seats as they are now
    save_hand(four_table, HAND)  # and a hand leaves the new seating cached
    assert viewer.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


@pytest.mark.django_db
def test_a_hand_saved_shows_on_the_standings_at_once(four_table, django_assert_max_num_queries):
    t = four_table.round.tournament
    url = reverse("scoring:standings", args=[t.pk])
    names = [s.registration.player.name for s in four_table.seats.order_by("position")]
    Client().get(url)  # rendered and cached for the version before the hand
    save_hand(four_table, HAND)  # Rufer by seat 1 with seat 3, won: +1 each for them (koenigrufen.md)
    page = Client().get(url).content.decode()
    row = page[page.index(names[1]) :]
    assert "<td" in row and ">1<" in row[: row.index("</tr>")]
    with django_assert_max_num_queries(3):  # the version (and the session): served from the cache
        assert Client().get(url).content.decode() == page


@pytest.mark.django_db
def test_a_director_gets_his_own_page_never_a_cached_one(director_client, four_table):
    url = reverse("scoring:sheet", args=[four_table.pk])
    anonymous = Client().get(url)
    assert 'id="hand-form"' not in anonymous.content.decode()
    mine = director_client.get(url, HTTP_IF_NONE_MATCH=anonymous["ETag"])
    assert mine.status_code == 200 and "ETag" not in mine
    assert 'id="hand-form"' in mine.content.decode()  # his entry form, with his CSRF token


@pytest.mark.django_db
def test_each_language_is_its_own_page(four_table):
    url = reverse("scoring:standings", args=[four_table.round.tournament_id])
    german = Client().get(url)
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
    assert "Rangliste" in german.content.decode() or "Wertung" in german.content.decode()
    assert "Standings" in english.content.decode()
    assert german["ETag"] != english["ETag"]
    assert "Accept-Language" in english["Vary"] and "Cookie" in english["Vary"]


@pytest.mark.django_db
def test_a_recreated_tournament_under_the_same_id_is_not_served_from_the_old_cache(make_tournament):
    t = make_tournament(players=4, name="Erstes Turnier")
    url, pk = reverse("tournaments:detail", args=[t.pk]), t.pk
    assert "Erstes Turnier" in Client().get(url).content.decode()
    fields = {"date": t.date, "ruleset": t.ruleset, "edition": t.edition}
    t.delete()
    type(t).objects.create(pk=pk, name="Zweites Turnier", **fields)
    assert "Zweites Turnier" in Client().get(url).content.decode()


@pytest.mark.django_db
def test_the_language_switch_works_from_a_cached_page(four_table):
    visitor = Client(enforce_csrf_checks=True)
    visitor.get(reverse("scoring:standings", args=[four_table.round.tournament_id]))
    response = visitor.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "en"


@pytest.mark.django_db
def test_a_message_waiting_is_shown_not_a_cached_page(four_table):
    token_url = reverse("scoring:private_sheet", args=[four_table.token])
    player = Client()
    player.post(token_url, {"confirm": "1", "name": "Anna", "sheet_version": "0"})
    detail = reverse("tournaments:detail", args=[four_table.round.tournament_id])
    Client().get(detail)  # cached without a message
    page = player.get(detail).content.decode()
    assert 'class="messages"' in page


@pytest.mark.django_db
def test_drawing_a_round_changes_the_tournament_page(make_tournament):
    t = make_tournament(players=4)
    url = reverse("tournaments:detail", args=[t.pk])
    before = Client().get(url)
    services.draw_next_round(t, seed=5)
    after = Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert reverse("tournaments:round", args=[t.pk, 1]) in after.content.decode()


@pytest.mark.django_db
def test_a_page_being_rendered_by_another_worker_is_waited_for_not_rendered_again(four_table, monkeypatch):
    import threading

    from django.core.cache import cache

    from tournaments.public_cache import page_key, tournament_version

    t = four_table.round.tournament
    url = reverse("scoring:standings", args=[t.pk])
    key = page_key(tournament_version(t.pk), "de", "p", url)
    assert cache.add(key + ":rendering", 1)  # another worker is rendering this version right now
    rendered_here = []
    monkeypatch.setattr("scoring.views_public.compute_standings", lambda *a, **k: rendered_here.append(1))
    finished = threading.Timer(0.2, lambda: cache.set(key, (b"<p>the other worker's page</p>", "text/html")))
    finished.start()
    response = Client().get(url)
    finished.join()
    assert response.status_code == 200 and response.content == b"<p>the other worker's page</p>"
    assert rendered_here == []  # waited for it instead of computing the standings again


@pytest.mark.django_db
def test_a_browser_that_accepts_gzip_gets_the_same_page_gzipped(four_table):
    import gzip

    save_hand(four_table, HAND)
    url = reverse("scoring:standings", args=[four_table.round.tournament_id])
    plain_viewer, phone = Client(), Client(HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    squeezed = phone.get(url)  # the render, sent gzipped at once
    plain = plain_viewer.get(url)  # the same version from the cache, as it was rendered
    again = phone.get(url)  # and gzipped from the cache
    assert "Content-Encoding" not in plain and plain.status_code == 200
    for answer in (squeezed, again):
        assert answer.status_code == 200 and answer["Content-Encoding"] == "gzip"
        assert gzip.decompress(answer.content) == plain.content
        assert len(answer.content) < len(plain.content) / 2
        assert answer["ETag"] == plain["ETag"]  # one page, two encodings
        assert "Accept-Encoding" in answer["Vary"] and "Accept-Encoding" in plain["Vary"]
    assert phone.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
    save_hand(four_table, {**HAND, "dealer": 1, "declarer": 2, "partner": 0})  # a new version, compressed afresh
    changed = phone.get(url, HTTP_IF_NONE_MATCH=again["ETag"])
    assert changed.status_code == 200 and gzip.decompress(changed.content) == plain_viewer.get(url).content


@pytest.mark.django_db
def test_a_small_page_is_not_gzipped_and_a_page_kept_without_gzip_is_sent_plain(four_table):
    from tournaments.public_cache import GZIP_MIN_BYTES, page_body, stored_page

    small = stored_page(b"x" * (GZIP_MIN_BYTES - 1), "text/html")
    assert small[2] is None and page_body(small, gzip_ok=True) == (small[0], "text/html", None)
    content, kind, squeezed = stored_page(b"<tr><td>1.</td></tr>" * 200, "text/html")
    assert kind == "text/html" and squeezed is not None and len(squeezed) < len(content)
    # a page an earlier release kept as (content, content type), e.g. with a fixed cache prefix
    assert page_body((b"<p>kept</p>", "text/html"), gzip_ok=True) == (b"<p>kept</p>", "text/html", None)
