"""The standings widget for a club's own site (/t/<id>/widget/): a standalone page without script
that any site may frame, showing the top of the live standings (?top=N, ?lang=), refreshing
itself, linking to the full standings, answered by version like the public pages."""

import re

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from config.conditional import early_answer
from scoring.services import save_hand


def rows_of(page: str) -> list[str]:
    """The players' names in the widget's rows, in order."""
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    return re.findall(r"<tr><td class=\"num\">[^<]*</td><td>([^<]+?)(?: <span|</td>)", body)


@pytest.mark.django_db
def test_the_widget_shows_the_top_of_the_standings_without_script(finished, english):
    t, _table, seats = finished
    response = Client().get(reverse("api:widget", args=[t.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<script" not in page and " style=" not in page and " on" + "click" not in page
    assert '<meta http-equiv="refresh" content="60">' in page
    # Seat 1 +3, seat 2 +1, seat 3 −1, seat 0 −3 (conftest.py).
    assert rows_of(page) == [seats[p].player.name for p in (1, 2, 3, 0)]
    assert "<strong>" not in page and '<td class="num total">3</td>' in page
    assert 'href="http://' in page and f'/t/{t.pk}/standings/" target="_blank" rel="noopener"' in page
    assert "Final standings" in page


@pytest.mark.django_db
def test_top_and_lang_are_respected(finished):
    t, _table, seats = finished
    url = reverse("api:widget", args=[t.pk])
    two = Client().get(url, {"top": "2", "lang": "en"})
    assert rows_of(two.content.decode()) == [seats[1].player.name, seats[2].player.name]
    assert two["Content-Language"] == "en" and "Rank" in two.content.decode()
    german = Client().get(url, {"top": "2", "lang": "de"})
    assert "Rang" in german.content.decode() and german["ETag"] != two["ETag"]
    for nonsense in ("x", "-1", ""):
        assert len(rows_of(Client().get(url, {"top": nonsense}).content.decode())) == 4  # the default 10
    assert len(rows_of(Client().get(url, {"top": "0"}).content.decode())) == 1  # at least the first


@pytest.mark.django_db
def test_any_site_may_frame_the_widget_and_no_other_page(finished):
    t, _table, _seats = finished
    widget = Client().get(reverse("api:widget", args=[t.pk]))
    assert "X-Frame-Options" not in widget
    policy = widget["Content-Security-Policy"]
    assert "frame-ancestors *" in policy and "'none'" not in policy.split("frame-ancestors")[1].split(";")[0]
    assert "script-src 'self'" in policy  # the rest of the policy stands
    standings = Client().get(reverse("scoring:standings", args=[t.pk]))
    assert standings["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in standings["Content-Security-Policy"]
    # Never answered before the middleware (whose headers would forbid framing): Django answers.
    environ = RequestFactory().get(reverse("api:widget", args=[t.pk])).environ
    assert early_answer(environ) is None
    again = Client().get(reverse("api:widget", args=[t.pk]), HTTP_IF_NONE_MATCH=widget["ETag"])
    assert again.status_code == 304 and "X-Frame-Options" not in again and "frame-ancestors *" in again["Content-Security-Policy"]


@pytest.mark.django_db
def test_the_widget_follows_each_saved_hand(four_table, english):
    t = four_table.round.tournament
    url = reverse("api:widget", args=[t.pk])
    before = Client().get(url)
    assert "No results yet." in before.content.decode()
    assert Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    after = Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert len(rows_of(after.content.decode())) == 4 and "after round 1" in after.content.decode()
    assert Client().get(reverse("api:widget", args=[t.pk + 100])).status_code == 404


@pytest.mark.django_db
def test_the_director_is_shown_how_a_club_embeds_the_standings_and_a_player_is_not(finished, director_client, english):
    t, _table, _seats = finished
    widget = reverse("api:widget", args=[t.pk])
    page = director_client.get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert "Embed these standings on a club's site:" in page
    assert f'&lt;iframe src="http://testserver{widget}?top=10"' in page or f"{widget}?top=10" in page
    anonymous = Client().get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert "Embed these standings" not in anonymous and "iframe" not in anonymous
