"""The director's page "Publish to a public site" and the status line on the tournament page:
directors of the tournament only; the key is stored and never shown back (only its beginning);
saving starts publishing; "stop publishing"; the status says published, waiting for the network or
refused, with the last pushes listed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from publishing.models import PublishTarget, PushAttempt
from tests.publishing.test_venue_push import KEY, make_target, version_of
from tournaments.models import TournamentRole

SITE = "https://tarock.example.org"


@pytest.fixture
def tournament(four_table, director):
    return four_table.round.tournament


def page(t):
    return reverse("publishing_venue:publish", args=[t.pk])


def status_line(client, t) -> str:
    return client.get(reverse("publishing_venue:status", args=[t.pk]), HTTP_HX_REQUEST="true").content.decode()


def test_only_the_tournaments_directors_see_the_page(client, tournament):
    assert client.get(page(tournament)).status_code == 302  # to the login
    scorer = get_user_model().objects.create_user("schreiber", password="x-geheim-123")
    TournamentRole.objects.create(tournament=tournament, user=scorer, level="scorer")
    other = Client()
    other.force_login(scorer)
    assert other.get(page(tournament)).status_code == 403
    assert other.post(page(tournament), {"url": SITE, "key": KEY, "enabled": "on"}).status_code == 403
    assert other.post(reverse("publishing_venue:stop", args=[tournament.pk])).status_code == 403
    assert other.get(reverse("publishing_venue:status", args=[tournament.pk]), HTTP_HX_REQUEST="true").status_code == 403
    assert not PublishTarget.objects.exists()


def test_saving_stores_the_key_never_shows_it_again_and_starts_publishing(english, director_client, tournament, django_capture_on_commit_callbacks):
    shown = director_client.get(page(tournament))
    assert shown.status_code == 200 and 'type="password"' in shown.content.decode()
    with django_capture_on_commit_callbacks() as started:
        response = director_client.post(page(tournament), {"url": SITE + "/", "key": KEY, "enabled": "on"})
    assert response.status_code == 302
    target = PublishTarget.objects.get(tournament=tournament)
    assert (target.url, target.key, target.enabled) == (SITE, KEY, True)
    assert target.chain and len(started) == 1  # the chain starts once the save is committed

    again = director_client.get(page(tournament)).content.decode()
    assert KEY not in again and "tpk_venu…" in again
    assert "Saved. Publishing to https://tarock.example.org starts now." in again
    assert "Not published yet" in again

    # saved again without a key: the stored one stays
    director_client.post(page(tournament), {"url": SITE, "key": "", "enabled": "on"})
    target.refresh_from_db()
    assert target.key == KEY


def test_the_key_is_required_the_first_time_and_the_address_must_be_a_sites(english, director_client, tournament):
    response = director_client.post(page(tournament), {"url": SITE, "key": "", "enabled": "on"})
    assert response.status_code == 422 and "Enter the publishing key." in response.content.decode()
    response = director_client.post(page(tournament), {"url": "ftp://tarock.example.org", "key": KEY, "enabled": "on"})
    assert response.status_code == 422 and KEY not in response.content.decode()  # not even typed back
    response = director_client.post(page(tournament), {"url": SITE + "/?x=1", "key": KEY, "enabled": "on"})
    assert response.status_code == 422
    assert not PublishTarget.objects.exists()


def test_a_new_key_starts_afresh_and_lifts_a_pause(director_client, tournament):
    make_target(tournament, SITE, pushed_version=7, paused=True, failures=2, last_outcome="refused", last_error="revoked")
    director_client.post(page(tournament), {"url": SITE, "key": "tpk_new.key", "enabled": "on"})
    target = PublishTarget.objects.get()
    assert (target.key, target.pushed_version, target.paused, target.failures, target.last_error) == ("tpk_new.key", 0, False, 0, "")


def test_stop_publishing(english, director_client, tournament):
    make_target(tournament, SITE, chain="abc", chain_until=timezone.now() + timedelta(minutes=1))
    response = director_client.post(reverse("publishing_venue:stop", args=[tournament.pk]), follow=True)
    target = PublishTarget.objects.get()
    assert not target.enabled and target.chain == "" and target.key == KEY
    assert "Publishing is stopped." in response.content.decode()
    assert director_client.get(reverse("publishing_venue:stop", args=[tournament.pk])).status_code == 405


def test_the_tournament_page_offers_publishing_to_directors_only(english, director_client, tournament):
    mine = director_client.get(tournament.get_absolute_url()).content.decode()
    assert page(tournament) in mine and "Publish to a public site" in mine
    assert reverse("publishing_venue:status", args=[tournament.pk]) in mine
    public = Client().get(tournament.get_absolute_url()).content.decode()
    assert page(tournament) not in public and "publish/status" not in public


def test_the_status_line_published_waiting_refused(english, director_client, tournament):
    assert 'class="publish-status"' in status_line(director_client, tournament)  # no target: empty, no polling
    assert "hx-trigger" not in status_line(director_client, tournament)

    now = timezone.now()
    current = version_of(tournament)
    target = make_target(
        tournament, SITE, pushed_version=current, pushed_at=now, mirror_url=SITE + "/t/5/", chain="held", chain_until=now + timedelta(minutes=1),
    )
    line = status_line(director_client, tournament)
    assert f"Published: version {current} at " in line and 'href="https://tarock.example.org/t/5/"' in line and 'hx-trigger="every 10s"' in line

    PublishTarget.objects.filter(pk=target.pk).update(pushed_version=current - 1, failures=4, waiting_since=now - timedelta(minutes=20), last_outcome="offline")
    assert "Waiting for the network since " in status_line(director_client, tournament)
    assert "(1 version behind)" in status_line(director_client, tournament)

    PublishTarget.objects.filter(pk=target.pk).update(paused=True, last_outcome="refused", last_error="This key was revoked.")
    line = status_line(director_client, tournament)
    assert "Refused by the site: This key was revoked. Nothing is sent until the address or the key is saved again." in line


def test_the_page_lists_the_last_pushes(english, director_client, tournament):
    target = make_target(tournament, SITE, chain="held", chain_until=timezone.now() + timedelta(minutes=1))
    PushAttempt.objects.create(target=target, version=3, outcome="offline", message="No answer from the site: timed out")
    PushAttempt.objects.create(target=target, version=4, outcome="stored", message="stored")
    content = director_client.get(page(tournament)).content.decode()
    assert "The last pushes" in content and "No answer from the site: timed out" in content
    assert content.index("<td>4</td>") < content.index("<td>3</td>")  # newest first


def test_the_status_shows_the_time_in_the_sites_time_zone(director_client, tournament):
    at = timezone.now().replace(hour=12, minute=2, second=0, microsecond=0)  # 13:02 or 14:02 in Vienna
    make_target(tournament, SITE, pushed_version=version_of(tournament), pushed_at=at, chain="held", chain_until=timezone.now() + timedelta(minutes=1))
    line = status_line(director_client, tournament)  # German by default: 24-hour times
    assert f"{timezone.localtime(at):%H:%M}" in line and "12:02" not in line
