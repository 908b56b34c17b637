"""The public site takes a push (``POST /publish/push/``, the protocol in ``publishing``): a
tournament played at a "venue" (here: built in the same database through the services, its
archive exported as the venue exports it) is stored as a read-only mirror, replaced whole by each
newer version; every refusal names its reason, changes nothing and is logged."""

import logging
import random

import pytest
from django.urls import reverse

from archive import backup
from archive.backup import export_tournament, read_archive
from publishing import keys, site
from publishing.models import Mirror, MirrorAlias, PublishingKey, PushLog
from scoring.cups.models import Cup, CupAction
from scoring.models import Hand
from scoring.services import build_sheet, save_hand
from tournaments import services
from tournaments.models import Registration, Table, Tournament
from tournaments.roles import organisers_group

SOURCE = "Gasthof Post, Imst"


# ------------------------------------------------------------------------------------- helpers


def play(table, count, seed=1):
    """Save ``count`` more random hands at ``table``, as a scorer at the venue would."""
    rng = random.Random(seed)
    for _ in range(count):
        sheet = build_sheet(table)
        save_hand(table, sheet.info.ruleset.random_hand(rng, sheet.info.size, sheet.next_dealer), None)


def version_of(archive: bytes) -> int:
    return read_archive(archive)["tournament"]["data_version"]


def push(client, plain, archive, *, uid, version=None, source=SOURCE, signature=None, **extra):
    """POST ``archive`` as a venue does, signed with ``plain`` (or with ``signature``)."""
    headers = {
        "HTTP_AUTHORIZATION": f"Bearer {plain}",
        "HTTP_X_TAROCK_TOURNAMENT": str(uid),
        "HTTP_X_TAROCK_VERSION": str(version_of(archive) if version is None else version),
        "HTTP_X_TAROCK_SIGNATURE": signature or site.signature(plain, archive),
        "HTTP_X_TAROCK_SOURCE": source,
    }
    headers.update(extra)
    return client.post("/publish/push/", data=archive, content_type="application/octet-stream", **headers)


def mirrors():
    return Tournament.objects.exclude(mirrored_from="")


@pytest.fixture
def organiser(django_user_model):
    user = django_user_model.objects.create_user("obmann", password="x-123-geheim")
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def key(organiser):
    """``(stored key, key text)`` of the organiser."""
    return keys.make_key(organiser, label="Gasthof Post")


@pytest.fixture
def venue(make_tournament):
    """The tournament at the venue: 4 players at one table, round 1 drawn, 2 hands saved."""
    t = make_tournament(players=4, rounds=2, hands_per_round=4, name="Imster Tarockabend")
    rnd = services.draw_next_round(t, seed=7)
    play(rnd.tables.get(), 2)
    t.refresh_from_db()
    return t


def venue_table(t):
    return Table.objects.filter(round__tournament=t).get()


# ---------------------------------------------------------------------------------- stored


def test_a_push_is_stored_as_a_read_only_mirror(client, key, venue, english):
    archive = export_tournament(venue)
    answer = push(client, key[1], archive, uid=venue.uid)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["status"] == "stored"
    assert body["version"] == venue.data_version == version_of(archive)
    assert body["url"].endswith(f"/m/{venue.uid}/")

    mirror = Mirror.objects.get(uid=venue.uid)
    copy = mirror.tournament
    assert (mirror.version, mirror.source, mirror.key) == (venue.data_version, SOURCE, key[0])
    assert mirror.updated is not None
    assert copy.pk != venue.pk and copy.uid != venue.uid
    assert copy.mirrored_from == SOURCE
    assert copy.name == "Imster Tarockabend"
    assert Hand.objects.filter(table__round__tournament=copy).count() == 2
    assert not copy.roles.exists()  # nobody's to edit
    assert copy.cup is None

    # Its public pages, as players know them.
    table = venue_table(copy)
    registration = copy.registrations.first()
    for url in (
        f"/t/{copy.pk}/", f"/t/{copy.pk}/standings/", f"/t/{copy.pk}/round/1/", f"/table/{table.pk}/",
        f"/t/{copy.pk}/players/", f"/t/{copy.pk}/players/{registration.pk}/", f"/t/{copy.pk}/statistics/",
    ):
        assert client.get(url).status_code == 200, url
    # The stable address leads to it.
    stable = client.get(f"/m/{venue.uid}/standings/")
    assert (stable.status_code, stable["Location"]) == (302, f"/t/{copy.pk}/standings/")

    logged = PushLog.objects.get()
    assert (logged.key, logged.uid, logged.version, logged.outcome, logged.status) == (key[0], venue.uid, venue.data_version, "stored", 200)
    assert logged.size == len(archive) and logged.address == "127.0.0.1" and logged.milliseconds > 0
    key[0].refresh_from_db()
    assert key[0].last_used is not None


def test_a_keys_last_use_is_written_at_most_once_a_minute(client, key, venue):
    """The organiser's page shows when a key was last used, to the minute; a venue pushing every
    second does not write the key's row every second."""
    from datetime import timedelta

    table = Table.objects.get(round__tournament=venue)
    assert push(client, key[1], export_tournament(venue), uid=venue.uid).status_code == 200
    key[0].refresh_from_db()
    first = key[0].last_used
    assert first is not None

    play(table, 1, seed=2)
    venue.refresh_from_db()
    assert push(client, key[1], export_tournament(venue), uid=venue.uid).json()["status"] == "stored"
    key[0].refresh_from_db()
    assert key[0].last_used == first  # a second later: not written again

    PublishingKey.objects.filter(pk=key[0].pk).update(last_used=first - timedelta(minutes=2))
    play(table, 1, seed=3)
    venue.refresh_from_db()
    assert push(client, key[1], export_tournament(venue), uid=venue.uid).json()["status"] == "stored"
    key[0].refresh_from_db()
    assert key[0].last_used >= first  # a minute on: written


def test_a_newer_version_replaces_the_copy_whole_and_old_addresses_lead_on(client, key, venue):
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    first = Mirror.objects.get().tournament
    old_table = venue_table(first)
    old_registration = first.registrations.order_by("start_number").first()

    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    answer = push(client, key[1], export_tournament(venue), uid=venue.uid)
    assert answer.json()["status"] == "stored"

    mirror = Mirror.objects.get()
    second = mirror.tournament
    assert mirror.version == venue.data_version
    assert second.pk != first.pk
    assert list(mirrors()) == [second]  # the old copy is gone, with everything in it
    assert not Tournament.objects.filter(pk=first.pk).exists()
    assert not Table.objects.filter(pk=old_table.pk).exists()
    assert not Hand.history.filter(table_id=old_table.pk).exists()  # no history left behind
    assert Hand.objects.filter(table__round__tournament=second).count() == 3
    assert MirrorAlias.objects.get(tournament_id=first.pk).mirror == mirror

    moved = client.get(f"/t/{first.pk}/standings/?after=1")
    assert (moved.status_code, moved["Location"]) == (302, f"/t/{second.pk}/standings/?after=1")
    same_player = second.registrations.get(player_id=old_registration.player_id)
    moved = client.get(f"/t/{first.pk}/players/{old_registration.pk}/")
    assert moved["Location"] == f"/t/{second.pk}/players/{same_player.pk}/"
    moved = client.get(f"/table/{old_table.pk}/")
    assert moved["Location"] == f"/table/{venue_table(second).pk}/"
    assert client.get(moved["Location"]).status_code == 200

    # A third version: the first copy's address leads straight to the newest.
    play(venue_table(venue), 1, seed=3)
    venue.refresh_from_db()
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    third = Mirror.objects.get().tournament
    assert client.get(f"/t/{first.pk}/").headers["Location"] == f"/t/{third.pk}/"
    assert client.get(f"/t/{second.pk}/").headers["Location"] == f"/t/{third.pk}/"


def test_a_replayed_or_same_version_is_acknowledged_and_ignored(client, key, venue):
    older = export_tournament(venue)
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    newer = export_tournament(venue)
    push(client, key[1], newer, uid=venue.uid)
    copy = Mirror.objects.get().tournament

    for archive in (older, newer):
        answer = push(client, key[1], archive, uid=venue.uid)
        assert answer.status_code == 200
        assert answer.json() == {"status": "ignored", "version": version_of(newer), "url": answer.json()["url"]}
    assert Mirror.objects.get().tournament == copy
    assert list(mirrors()) == [copy]
    assert list(PushLog.objects.order_by("at").values_list("outcome", flat=True)) == ["stored", "ignored", "ignored"]


def test_an_old_version_is_ignored_before_its_archive_is_unpacked(client, key, venue, monkeypatch):
    push(client, key[1], export_tournament(venue), uid=venue.uid)

    def unpacked(*args, **kwargs):
        raise AssertionError("the archive was unpacked")

    monkeypatch.setattr(backup, "checked_archive", unpacked)
    answer = push(client, key[1], b"not even an archive", uid=venue.uid, version=venue.data_version - 1)
    assert answer.json()["status"] == "ignored"


def test_the_version_is_checked_again_under_the_lock(client, key, venue):
    """A push that passed the first look while another stored a newer version changes nothing."""
    older = export_tournament(venue)
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    copy = Mirror.objects.get().tournament
    pushed = site._Push(address="127.0.0.1", key=key[0], uid=venue.uid, version=version_of(older))
    outcome, mirror = site._swap(backup.checked_archive(older), key[0], pushed, SOURCE, None)
    assert outcome == "ignored"
    assert mirror.tournament == copy and list(mirrors()) == [copy]


# ------------------------------------------------------------------------------- refusals


def assert_nothing_stored():
    assert not Mirror.objects.exists()
    assert not mirrors().exists()


def test_a_wrong_or_missing_key_is_401(client, key, venue, english):
    archive = export_tournament(venue)
    wrong = f"tpk_{'0' * 10}_{'x' * 43}"
    answer = push(client, wrong, archive, uid=venue.uid)
    assert answer.status_code == 401
    assert "not known" in answer.json()["error"]
    answer = push(client, key[1], archive, uid=venue.uid, HTTP_AUTHORIZATION="")
    assert answer.status_code == 401
    assert "no publishing key" in answer.json()["error"]
    assert_nothing_stored()
    assert list(PushLog.objects.values_list("outcome", "status", "key")) == [("refused", 401, None)] * 2


def test_a_refusal_is_in_the_language_the_venue_asks_for(client, key, venue):
    archive = export_tournament(venue)
    wrong = f"tpk_{'0' * 10}_{'x' * 43}"
    slovenian = push(client, wrong, archive, uid=venue.uid, HTTP_ACCEPT_LANGUAGE="sl")
    german = push(client, wrong, archive, uid=venue.uid)  # none asked for: the site's own (German)
    assert slovenian.status_code == german.status_code == 401
    assert "ni znan" in slovenian.json()["error"] and "nicht bekannt" in german.json()["error"]


def test_a_revoked_key_is_403(client, key, venue, english):
    keys.revoke(key[0])
    answer = push(client, key[1], export_tournament(venue), uid=venue.uid)
    assert answer.status_code == 403
    assert "revoked" in answer.json()["error"]
    assert_nothing_stored()
    assert PushLog.objects.get().key == key[0]


def test_a_tampered_body_is_400_and_changes_nothing(client, key, venue, english):
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    copy = Mirror.objects.get().tournament
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    archive = export_tournament(venue)
    tampered = archive[:-20] + bytes(b ^ 1 for b in archive[-20:])
    answer = push(client, key[1], tampered, uid=venue.uid, version=version_of(archive), signature=site.signature(key[1], archive))
    assert answer.status_code == 400
    assert "signature" in answer.json()["error"]
    # Signed with another key.
    answer = push(client, key[1], archive, uid=venue.uid, signature=site.signature(keys.make_key(key[0].user)[1], archive))
    assert answer.status_code == 400
    mirror = Mirror.objects.get()
    assert (mirror.tournament, mirror.version) == (copy, version_of(archive) - 1)
    assert list(mirrors()) == [copy]


def test_a_damaged_archive_is_refused_with_the_restores_reason(client, key, venue, english):
    answer = push(client, key[1], b"this is no archive", uid=venue.uid, version=venue.data_version)
    assert answer.status_code == 400
    assert "not a complete tournament archive" in answer.json()["error"]
    assert_nothing_stored()


@pytest.mark.parametrize("header, value, words", [
    ("HTTP_X_TAROCK_TOURNAMENT", "tournament-7", "X-Tarock-Tournament"),
    ("HTTP_X_TAROCK_VERSION", "-1", "X-Tarock-Version"),
    ("HTTP_X_TAROCK_VERSION", "v12", "X-Tarock-Version"),
    ("HTTP_X_TAROCK_VERSION", "9" * 20, "X-Tarock-Version"),
])
def test_bad_headers_are_400(client, key, venue, english, header, value, words):
    answer = push(client, key[1], export_tournament(venue), uid=venue.uid, **{header: value})
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert_nothing_stored()


def test_an_archive_of_another_tournament_under_this_uid_is_400(client, key, venue, make_tournament, english):
    other = make_tournament(players=4, name="Ein anderes Turnier")
    archive = export_tournament(other)
    answer = push(client, key[1], archive, uid=venue.uid, version=version_of(archive))
    assert answer.status_code == 400
    assert "another tournament" in answer.json()["error"]
    assert_nothing_stored()
    # The right tournament under a version the archive does not hold.
    answer = push(client, key[1], export_tournament(venue), uid=venue.uid, version=venue.data_version + 5)
    assert answer.status_code == 400
    assert "version" in answer.json()["error"]
    assert_nothing_stored()


def test_another_organisers_key_cannot_update_a_mirror_his_own_other_key_can(client, key, venue, django_user_model, english):
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    copy = Mirror.objects.get().tournament
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    archive = export_tournament(venue)

    rival = django_user_model.objects.create_user("konkurrent", password="x-123-geheim")
    rival.groups.add(organisers_group())
    _rival_key, rival_plain = keys.make_key(rival)
    answer = push(client, rival_plain, archive, uid=venue.uid)
    assert answer.status_code == 403
    assert "another organiser" in answer.json()["error"]
    assert Mirror.objects.get().tournament == copy

    # The same organiser's new key (the old one revoked) goes on publishing it.
    keys.revoke(key[0])
    new_key, new_plain = keys.make_key(key[0].user)
    answer = push(client, new_plain, archive, uid=venue.uid)
    assert answer.json()["status"] == "stored"
    assert Mirror.objects.get().key == new_key


def test_an_oversized_push_is_413_before_anything_is_read(client, key, venue, settings, monkeypatch, english):
    archive = export_tournament(venue)
    settings.PUBLISH_MAX_BYTES = len(archive) - 1

    def unpacked(*args, **kwargs):
        raise AssertionError("the archive was unpacked")

    monkeypatch.setattr(backup, "checked_archive", unpacked)
    monkeypatch.setattr(backup, "_unpack", unpacked)
    answer = push(client, key[1], archive, uid=venue.uid, version=venue.data_version)
    assert answer.status_code == 413
    assert str(len(archive) - 1) in answer.json()["error"]
    # Even without a key: the size is the first thing looked at.
    assert push(client, "", archive, uid=venue.uid, version=venue.data_version).status_code == 413
    assert_nothing_stored()
    assert list(PushLog.objects.values_list("status", "size")) == [(413, len(archive))] * 2


def test_a_body_longer_than_the_limit_is_refused_by_the_bounded_read(rf, key, venue, settings, english):
    archive = export_tournament(venue)
    settings.PUBLISH_MAX_BYTES = 100
    request = rf.post("/publish/push/", data=archive, content_type="application/octet-stream",
                      HTTP_AUTHORIZATION=f"Bearer {key[1]}", HTTP_X_TAROCK_SIGNATURE=site.signature(key[1], archive))
    del request.META["CONTENT_LENGTH"]
    request._stream = __import__("io").BytesIO(archive)  # a body whose length no header announced
    answer = site.take_push(request)
    assert answer.status_code == 413
    assert_nothing_stored()


def test_pushes_are_rate_limited_per_key(client, key, venue, settings, english):
    settings.PUBLISH_RATE = "2/m"
    archive = export_tournament(venue)
    statuses = [push(client, key[1], archive, uid=venue.uid).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    limited = push(client, key[1], archive, uid=venue.uid)
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) >= 1
    assert "Too many pushes" in limited.json()["error"]
    # Another key has its own count.
    other, other_plain = keys.make_key(key[0].user)
    assert push(client, other_plain, archive, uid=venue.uid).status_code == 200


def test_only_post(client):
    assert client.get("/publish/push/").status_code == 405


def test_every_push_is_logged_to_the_table_and_the_logger(client, key, venue, caplog):
    archive = export_tournament(venue)
    with caplog.at_level(logging.INFO, logger="publishing"):
        push(client, key[1], archive, uid=venue.uid)
        push(client, key[1], archive, uid=venue.uid)
        push(client, "tpk_wrong", archive, uid=venue.uid)
        push(client, key[1], archive[:-1], uid=venue.uid, version=venue.data_version, signature=site.signature(key[1], archive))
    assert list(PushLog.objects.order_by("at", "pk").values_list("outcome", "status")) == [
        ("stored", 200), ("ignored", 200), ("refused", 401), ("refused", 400)]
    records = [r for r in caplog.records if r.name == "publishing"]
    assert [r.levelname for r in records] == ["INFO", "INFO", "WARNING", "WARNING"]
    assert str(venue.uid) in records[0].getMessage() and key[0].prefix in records[0].getMessage()
    assert PushLog.objects.filter(outcome="refused").exclude(reason="").count() == 2


# ------------------------------------------------------------------------------------ cup, source


def test_a_key_with_a_cup_puts_the_mirror_in_it_and_the_cup_logs_it_once(client, organiser, venue):
    cup = Cup.objects.create(name="Tiroler Tarockcup 2026", ruleset=venue.ruleset, method="tirol")
    cup.organisers.add(organiser)
    _key, plain = keys.make_key(organiser, cup)
    push(client, plain, export_tournament(venue), uid=venue.uid)
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    push(client, plain, export_tournament(venue), uid=venue.uid)
    assert Mirror.objects.get().tournament.cup == cup
    assert CupAction.objects.filter(cup=cup).count() == 1


def test_a_cup_of_another_ruleset_is_left_out_and_logged(client, organiser, venue):
    cup = Cup.objects.create(name="Wiener Tarockcup", ruleset="wiener-tarockcup", method="wtc_fixpunkte")
    cup.organisers.add(organiser)
    _key, plain = keys.make_key(organiser, cup)
    assert push(client, plain, export_tournament(venue), uid=venue.uid).json()["status"] == "stored"
    assert Mirror.objects.get().tournament.cup is None
    assert "Wiener Tarockcup" in PushLog.objects.get().reason


def test_the_source_is_cleaned_and_has_a_fallback(client, key, venue):
    archive = export_tournament(venue)
    raw = "Gasthof Stöckl,\u202e Imst\u200b".encode().decode("latin-1")  # as WSGI hands over UTF-8 bytes
    push(client, key[1], archive, uid=venue.uid, source=raw)
    assert Mirror.objects.get().tournament.mirrored_from == "Gasthof Stöckl, Imst"
    assert site.clean_source("Caf%C3%A9%20Zentral") == "Café Zentral"
    assert site.clean_source("a\tb\n\x00c") == "a b c"
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    push(client, key[1], export_tournament(venue), uid=venue.uid, source="")
    mirror = Mirror.objects.get()
    assert mirror.source == "" and mirror.tournament.mirrored_from  # "a venue", in the site's language


def test_a_mirror_restores_no_roles_and_links_no_users(client, key, venue, django_user_model):
    from tournaments.roles import give_role

    django_user_model.objects.create_user("schreiber", password="x-123-geheim")
    give_role(venue, "schreiber", "scorer", None)
    venue.refresh_from_db()
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    copy = Mirror.objects.get().tournament
    assert not copy.roles.exists()
    assert not Hand.history.filter(table__round__tournament=copy, history_user__isnull=False).exists()
    assert Registration.objects.filter(tournament=copy).count() == 4


def test_the_mirror_is_listed_on_the_home_page(client, key, venue):
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    copy = Mirror.objects.get().tournament
    assert f"/t/{copy.pk}/" in client.get(reverse("tournaments:list")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_pushes_at_once_take_turns(key, venue):
    """Two versions pushed at the same moment (two app servers): the mirror ends at the newer,
    one copy, whichever came first. On PostgreSQL the mirror's row lock orders them; SQLite's
    in-memory test database has one connection, so there they simply run one after the other."""
    import threading

    from django.db import connection
    from django.test import Client

    older = export_tournament(venue)
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    newer = export_tournament(venue)
    answers = {}

    def send(name, archive):
        try:
            answers[name] = push(Client(), key[1], archive, uid=venue.uid).json()["status"]
        finally:
            connection.close()

    if connection.vendor == "sqlite":
        send("newer", newer)
        send("older", older)
    else:
        threads = [threading.Thread(target=send, args=item) for item in (("newer", newer), ("older", older))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers["newer"] == "stored" and answers["older"] in ("stored", "ignored")
    mirror = Mirror.objects.get()
    assert mirror.version == version_of(newer)
    assert mirrors().count() == 1 and mirror.tournament.mirrored_from
    assert Hand.objects.filter(table__round__tournament=mirror.tournament).count() == 3


def test_a_database_failure_is_503_so_the_venue_sends_it_again(client, key, venue, monkeypatch):
    from django.db import OperationalError

    def fails(*args, **kwargs):
        try:
            raise OperationalError("could not serialize access")
        except OperationalError as error:
            raise backup.BackupRefused("The archive could not be written") from error

    monkeypatch.setattr(backup, "restore", fails)
    answer = push(client, key[1], export_tournament(venue), uid=venue.uid)
    assert answer.status_code == 503 and answer["Retry-After"]
    assert "serialize" not in answer.json()["error"]  # the database's words stay in the log
    assert_nothing_stored()
    assert PushLog.objects.get().status == 503


def test_the_old_copys_rendered_files_go_with_it(client, key, venue, settings, django_capture_on_commit_callbacks):
    push(client, key[1], export_tournament(venue), uid=venue.uid)
    first = Mirror.objects.get().tournament
    assert client.get(f"/t/{first.pk}/standings.xlsx").status_code == 200
    folder = settings.MEDIA_ROOT / "exports" / str(first.pk)
    assert folder.is_dir()
    play(venue_table(venue), 1, seed=2)
    venue.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        push(client, key[1], export_tournament(venue), uid=venue.uid)
    assert not folder.exists()
