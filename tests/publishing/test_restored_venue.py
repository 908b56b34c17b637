"""A venue's laptop replaced mid-day: the tournament restored from its newest backup on another
computer goes on under its identifier, and publishing it updates the same mirror. When the public
site holds a newer version than that backup (hands saved after it on the broken laptop), nothing
is pushed over them until the director has seen them and publishes over it.

The public site is this database's own (``/publish/push/`` through Django's test client), so the
venue's real :func:`publishing.venue.send` talks to the real site code."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from archive.backup import delete_with_backup, export_tournament, import_tournament
from publishing import keys, venue
from publishing.models import Mirror, PublishTarget
from scoring.models import Hand
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.roles import organisers_group

from .test_site_push import play

SITE = "http://public.example.org"


@pytest.fixture
def site(client, monkeypatch):
    """The venue's POSTs go to this database's public site (the test client)."""

    def post(url, headers, body, timeout):
        assert url == f"{SITE}/publish/push/"
        meta = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items() if name != "Content-Type"}
        answer = client.post("/publish/push/", data=body, content_type="application/octet-stream", **meta)
        return answer.status_code, answer.reason_phrase, {k.lower(): v for k, v in answer.headers.items()}, answer.content

    monkeypatch.setattr(venue, "_post", post)
    return client


@pytest.fixture
def key(django_user_model):
    user = django_user_model.objects.create_user("obmann", password="x-123-geheim")
    user.groups.add(organisers_group())
    return keys.make_key(user, label="Gasthof Post")[1]


@pytest.fixture
def day(make_tournament):
    """The venue's tournament: 4 players at one table, round 1 drawn, 2 hands saved."""
    t = make_tournament(players=4, rounds=2, hands_per_round=8, name="Imster Tarockabend")
    play(services.draw_next_round(t, seed=7).tables.get(), 2)
    t.refresh_from_db()
    return t


def hands_of(tournament) -> list:
    return list(Hand.objects.filter(table__round__tournament=tournament).order_by("number").values_list("number", "record"))


def mirror_copy(uid) -> Tournament:
    return Mirror.objects.select_related("tournament").get(uid=uid).tournament


def laptop_replaced(t, backup: bytes) -> Tournament:
    """The broken laptop's tournament gone from here, its backup restored in its place."""
    delete_with_backup(t)
    return import_tournament(backup)


@pytest.mark.django_db
def test_a_restore_keeps_the_identifier_and_version_a_copy_beside_the_original_does_not(day):
    backup = export_tournament(day)
    uid, version = day.uid, day.data_version
    beside = import_tournament(backup)
    assert beside.uid != uid and beside.restored_from is None

    restored = laptop_replaced(day, backup)
    assert restored.uid == uid
    assert restored.data_version == version == restored.restored_from > 0
    assert hands_of(restored) == hands_of(beside)


@pytest.mark.django_db
def test_restored_from_the_newest_backup_it_publishes_to_the_same_mirror(site, key, day, english):
    assert venue.send(day, SITE, key).outcome == "stored"
    restored = laptop_replaced(day, export_tournament(day))  # the site holds what the backup holds

    assert venue.send(restored, SITE, key).outcome == "ignored"  # the same version: nothing new
    play(Table.objects.get(round__tournament=restored), 1, seed=2)
    result = venue.send(restored, SITE, key)

    assert result.outcome == "stored"
    assert Mirror.objects.count() == 1 and hands_of(mirror_copy(day.uid)) == hands_of(restored)
    restored.refresh_from_db()
    assert restored.restored_from is None  # the site holds this tournament's history now


@pytest.mark.django_db
def test_hands_only_the_site_has_are_not_pushed_over_until_the_director_publishes_over_them(site, key, day, director_client, english):
    backup = export_tournament(day)  # the last backup: 2 hands
    table = Table.objects.get(round__tournament=day)
    play(table, 2, seed=3)  # two more, published, then the laptop breaks
    assert venue.send(day, SITE, key).outcome == "stored"
    on_the_site = hands_of(mirror_copy(day.uid))
    held = Mirror.objects.get(uid=day.uid).version
    assert len(on_the_site) == 4

    restored = laptop_replaced(day, backup)
    play(Table.objects.get(round__tournament=restored), 3, seed=4)  # entered before publishing is set up again
    restored.refresh_from_db()
    assert restored.data_version > held  # a higher version, other content: no version rule alone can tell
    target = PublishTarget.objects.create(tournament=restored, url=SITE, key=key)

    result = venue.push_once(target)
    assert result.outcome == "newer" and result.status == 409 and result.site_version == held
    assert hands_of(mirror_copy(day.uid)) == on_the_site  # nothing stored over them
    target.refresh_from_db()
    assert target.paused and target.held_version == held
    assert not venue.due(target, restored.data_version)
    status = venue.status(target, restored.data_version)
    assert status.kind == "newer" and status.warning
    assert f"holds version {held} of this tournament" in status.text and "publish over it" in status.text
    with translation.override("de"):  # in the reader's language, whatever the worker's was
        assert f"hat Fassung {held} dieses Turniers" in venue.status(target, restored.data_version).text
    assert status.mirror_url.endswith(f"/m/{day.uid}/")  # where those hands can be read
    page = director_client.get(reverse("publishing_venue:publish", args=[restored.pk])).content.decode()
    assert "Publish over it" in page and f"/m/{day.uid}/" in page

    first = director_client.post(reverse("publishing_venue:over", args=[restored.pk]), follow=True)
    assert f"replaces its version {held}." in first.content.decode()
    target.refresh_from_db()
    restored.refresh_from_db()
    assert not target.paused and target.held_version is None and restored.restored_from is None
    assert venue.push_once(target).outcome == "stored"
    assert hands_of(mirror_copy(day.uid)) == hands_of(restored) != on_the_site
    assert Mirror.objects.get(uid=day.uid).version == restored.data_version > held

    # A second click (or tab) finds nothing to publish over: nothing moves, no message.
    again = director_client.post(reverse("publishing_venue:over", args=[restored.pk]), follow=True)
    assert "replaces its version" not in again.content.decode()
    assert Tournament.objects.get(pk=restored.pk).data_version == restored.data_version


@pytest.mark.django_db
def test_a_restore_behind_the_site_is_moved_past_its_version_when_published_over(site, key, day, english):
    backup = export_tournament(day)
    play(Table.objects.get(round__tournament=day), 3, seed=5)
    assert venue.send(day, SITE, key).outcome == "stored"
    held = Mirror.objects.get(uid=day.uid).version
    restored = laptop_replaced(day, backup)
    assert restored.data_version < held

    with pytest.raises(CommandError, match="--over"):
        call_command("publish", str(restored.pk), "--to", SITE, "--key", key)
    assert len(hands_of(mirror_copy(day.uid))) == 5
    call_command("publish", str(restored.pk), "--to", SITE, "--key", key, "--over")

    restored.refresh_from_db()
    assert restored.data_version == held + 1 and restored.restored_from is None
    assert hands_of(mirror_copy(day.uid)) == hands_of(restored) and len(hands_of(restored)) == 2


@pytest.mark.django_db
def test_the_site_refuses_a_restored_push_older_than_its_mirror_and_checks_the_header(site, key, day, english):
    from publishing.site import signature

    assert venue.send(day, SITE, key).outcome == "stored"
    body = export_tournament(day)
    headers = {
        "HTTP_AUTHORIZATION": f"Bearer {key}", "HTTP_X_TAROCK_TOURNAMENT": str(day.uid),
        "HTTP_X_TAROCK_VERSION": str(day.data_version + 1), "HTTP_X_TAROCK_SIGNATURE": signature(key, body),
    }
    too_high = site.post("/publish/push/", data=body, content_type="application/octet-stream",
                         HTTP_X_TAROCK_RESTORED_FROM=str(day.data_version + 2), **headers)
    assert too_high.status_code == 400 and "X-Tarock-Restored-From" in too_high.json()["error"]
    older = site.post("/publish/push/", data=body, content_type="application/octet-stream",
                      HTTP_X_TAROCK_RESTORED_FROM=str(day.data_version - 1), **headers)
    assert older.status_code == 409
    answer = older.json()
    assert (answer["code"], answer["held"]) == ("newer", day.data_version)
    assert "newer than the backup it was restored from" in answer["error"]
    assert Mirror.objects.get(uid=day.uid).version == day.data_version
