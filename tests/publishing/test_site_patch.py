"""A venue whose tournament changed only in its hands pushes a patch (``archive.patch``): the
changed tables, written into the mirror's copy in place. The copy keeps its address, its other
tables are left as they were, and it equals the venue as a whole push would make it; a patch of
another version or of a copy that is not its base is 409 (the venue sends the whole archive then),
a patch the archive's checks refuse is 400, each with nothing changed."""

import gzip
import hashlib
import json

import pytest
from django.core.cache import cache

from archive import backup, patch
from publishing import venue
from publishing.models import Mirror, MirrorAlias, PushLog
from scoring.models import Hand, HandFlag
from scoring.services import delete_hand
from scoring.services.tables import flag_hand
from tournaments import services
from tournaments import views_public
from tournaments.models import Player, Seat, Table

from .test_site_push import key, organiser, play, push  # noqa: F401  (key, organiser: fixtures)


@pytest.fixture
def venue_day(make_tournament):
    """Eight players at two tables of round 1, two hands saved at each."""
    t = make_tournament(players=8, rounds=2, hands_per_round=8, name="Imster Tarockabend")
    rnd = services.draw_next_round(t, seed=7)
    for i, table in enumerate(rnd.tables.order_by("number")):
        play(table, 2, seed=i)
    t.refresh_from_db()
    return t


def tables_of(t):
    return list(Table.objects.filter(round__tournament=t).order_by("round__number", "number"))


def send(client, plain, t, since=None, **extra):
    """Push ``t`` as the venue would: a patch of ``since`` where it can be. ``(answer, snapshot)``."""
    snap = venue.snapshot(t, since)
    headers = {"HTTP_X_TAROCK_BASE": str(snap.base)} if snap.base is not None else {}
    headers.update(extra)
    return push(client, plain, snap.body, uid=t.uid, version=snap.version, **headers), snap


def hands_of(t):
    """Each table's hands as (round, table, number, record, row), and its seats' scores."""
    hands = [
        (h.table.round.number, h.table.number, h.number, h.record, h.scores)
        for h in Hand.objects.filter(table__round__tournament=t).select_related("table__round").order_by("table__round__number", "table__number", "number")
    ]
    seats = [
        (s.table.round.number, s.table.number, s.position, s.score, s.substitute_score)
        for s in Seat.objects.filter(table__round__tournament=t).select_related("table__round").order_by("table__round__number", "table__number", "position")
    ]
    return hands, seats


def history_of(t):
    """Per table: its history entries as (hand number, type, row), oldest first."""
    return {
        (table.round.number, table.number): [(h.number, h.history_type, h.scores) for h in Hand.history.filter(table=table).order_by("history_date", "history_id")]
        for table in tables_of(t)
    }


def rewrite(body: bytes, change) -> bytes:
    """The patch ``body`` with ``change(data)`` made to its data and its checksum made again (as
    someone holding the key could)."""
    whole = json.loads(gzip.decompress(body))
    change(whole["data"])
    whole["sha256"] = hashlib.sha256(backup._canonical(whole["data"])).hexdigest()
    return gzip.compress(json.dumps(whole).encode())


def test_a_hands_only_change_is_a_patch_written_into_the_same_copy(client, key, venue_day, english):
    answer, first = send(client, key[1], venue_day)
    assert answer.status_code == 200 and first.base is None  # the first push is the whole archive
    mirror = Mirror.objects.get()
    copy = mirror.tournament
    one, two = tables_of(copy)
    untouched = list(Hand.objects.filter(table=two).values_list("pk", flat=True))
    pages = (f"/t/{copy.pk}/standings/", f"/t/{copy.pk}/round/1/", f"/table/{one.pk}/", f"/table/{two.pk}/")
    for page in pages:  # in the page cache now, as the viewers have them
        assert f"version {first.version}" in client.get(page).content.decode()

    table = tables_of(venue_day)[0]
    play(table, 3, seed=5)
    delete_hand(table.hands.get(number=2))  # struck, the later hands renumbered
    venue_day.refresh_from_db()
    answer, second = send(client, key[1], venue_day, since=first.stored)

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "stored" and second.base == first.version
    carried = backup._read(second.body, patch.FORMAT)[1]
    assert [(t["round"], t["number"]) for t in carried["tables"]] == [(1, 1)]  # only the table that changed
    assert {h["table_id"] for h in carried["hands"]} == {table.pk}
    mirror.refresh_from_db()
    assert (mirror.tournament_id, mirror.version) == (copy.pk, venue_day.data_version)
    assert not MirrorAlias.objects.exists()  # nothing moved: no old address to follow
    copy.refresh_from_db()
    assert copy.data_version == venue_day.data_version
    assert hands_of(copy) == hands_of(venue_day)
    assert history_of(copy) == history_of(venue_day)  # a deleted hand's versions too
    assert list(Hand.objects.filter(table=two).values_list("pk", flat=True)) == untouched
    for page in pages:
        shown = client.get(page)  # also those that show no changed hand: each names the mirror's version
        assert shown.status_code == 200 and f"version {venue_day.data_version}" in shown.content.decode(), page
    assert [log.outcome for log in PushLog.objects.order_by("at", "pk")] == ["stored", "stored"]


def test_after_a_patch_the_seating_is_not_read_again_only_its_note_is_new(client, key, venue_day, english, monkeypatch):
    _answer, first = send(client, key[1], venue_day)
    copy = Mirror.objects.get().tournament
    page = f"/t/{copy.pk}/round/1/"
    before = client.get(page)
    assert f"version {first.version}" in before.content.decode()
    read = []
    seating = views_public.round_seating
    monkeypatch.setattr(views_public, "round_seating", lambda rnd: read.append(rnd.number) or seating(rnd))

    play(tables_of(venue_day)[0], 1, seed=3)
    venue_day.refresh_from_db()
    _answer, second = send(client, key[1], venue_day, since=first.stored)
    assert second.base == first.version  # a patch: hands only

    after = client.get(page)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]  # a new version for the browser
    shown = after.content.decode()
    assert f"version {second.version}" in shown and f"version {first.version}" not in shown
    assert read == []  # the seating was kept: only the note of the new version was put in
    cache.clear()
    whole = client.get(page)
    assert read == [1] and whole.content == after.content  # the same page as a full render gives


def test_patch_after_patch_follows_the_venue(client, key, venue_day):
    _answer, snap = send(client, key[1], venue_day)
    for seed in range(3):
        play(tables_of(venue_day)[seed % 2], 1, seed=seed + 10)
        venue_day.refresh_from_db()
        answer, snap = send(client, key[1], venue_day, since=snap.stored)
        assert answer.json()["status"] == "stored" and snap.base is not None
    copy = Mirror.objects.get().tournament
    assert hands_of(copy) == hands_of(venue_day)


def test_a_layout_change_is_sent_whole(client, key, venue_day):
    _answer, snap = send(client, key[1], venue_day)
    flag_hand(Hand.objects.filter(table__round__tournament=venue_day).first(), "Pagat vergessen?")  # a flag: not hands only
    venue_day.refresh_from_db()
    answer, again = send(client, key[1], venue_day, since=snap.stored)
    assert again.base is None and answer.json()["status"] == "stored"
    copy = Mirror.objects.get().tournament
    assert HandFlag.objects.filter(hand__table__round__tournament=copy).count() == 1


def test_after_a_substitute_is_seated_the_patches_are_checked_against_the_new_seats(client, key, venue_day):
    """The site keeps a copy's seats and names between patches; a substitute (a change of the
    layout, sent whole) makes a new copy, and the next patches, the substitute's hands among them,
    are checked against its seats, not the old copy's."""
    _answer, snap = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1, seed=21)
    venue_day.refresh_from_db()
    answer, snap = send(client, key[1], venue_day, since=snap.stored)
    assert answer.json()["status"] == "stored" and snap.base is not None
    old_copy = Mirror.objects.get().tournament_id

    substitute = services.register(venue_day, Player.objects.create(name="Ersatz Maier", club="Imst"))
    seat = tables_of(venue_day)[0].seats.get(position=2)
    services.seat_substitute(seat, substitute)
    venue_day.refresh_from_db()
    answer, snap = send(client, key[1], venue_day, since=snap.stored)
    assert answer.json()["status"] == "stored" and snap.base is None  # sent whole: a new copy
    for seed in (22, 23):
        play(tables_of(venue_day)[0], 1, seed=seed)  # the substitute plays
        venue_day.refresh_from_db()
        answer, snap = send(client, key[1], venue_day, since=snap.stored)
        assert answer.status_code == 200 and answer.json()["status"] == "stored" and snap.base is not None, answer.content
    copy = Mirror.objects.get().tournament
    assert copy.pk != old_copy
    assert hands_of(copy) == hands_of(venue_day)
    assert Seat.objects.get(table__round__tournament=copy, table__number=1, position=2).substitute.player.name == "Ersatz Maier"


def test_a_patch_of_another_version_than_the_mirrors_is_409_and_changes_nothing(client, key, venue_day, english):
    _answer, first = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    _answer, second = send(client, key[1], venue_day, since=first.stored)
    play(tables_of(venue_day)[1], 1)
    venue_day.refresh_from_db()
    copy = Mirror.objects.get().tournament
    before = hands_of(copy)

    answer, _snap = send(client, key[1], venue_day, since=first.stored)  # a base the mirror left behind
    assert answer.status_code == 409
    assert f"holds version {second.version}" in answer.json()["error"] and "whole archive" in answer.json()["error"]
    assert hands_of(copy) == before and Mirror.objects.get().version == second.version
    assert PushLog.objects.order_by("-at", "-pk").first().status == 409


def test_a_copy_that_is_not_the_base_whatever_its_number_is_409(client, key, venue_day, english):
    _answer, first = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    wrong = venue.Stored(first.version, first.stored.layout, {**first.stored.tables, "1.2": 99})  # not what the site holds
    copy = Mirror.objects.get().tournament
    before = hands_of(copy)
    answer, snap = send(client, key[1], venue_day, since=wrong)
    assert snap.base == first.version and answer.status_code == 409
    assert "not version" in answer.json()["error"]
    assert hands_of(copy) == before


def test_a_patch_to_a_mirror_not_there_yet_is_409(client, key, venue_day, english):
    stored = venue.Stored(1, venue_day.layout_version, {})
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    answer, _snap = send(client, key[1], venue_day, since=stored)
    assert answer.status_code == 409 and "no copy" in answer.json()["error"]
    assert not Mirror.objects.filter(tournament__isnull=False).exists()


def test_a_patch_with_a_wrong_row_is_400_naming_the_hand(client, key, venue_day, english):
    _answer, first = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1, seed=3)
    venue_day.refresh_from_db()
    snap = venue.snapshot(venue_day, first.stored)
    copy = Mirror.objects.get().tournament
    before = hands_of(copy)

    def cheat(data):
        hand = data["hands"][-1]
        hand["scores"] = [s + (30 if i == 0 else -10) for i, s in enumerate(hand["scores"])]

    body = rewrite(snap.body, cheat)
    answer = push(client, key[1], body, uid=venue_day.uid, version=snap.version, HTTP_X_TAROCK_BASE=str(snap.base))
    assert answer.status_code == 400
    assert "round 1, table 1, hand 3" in answer.json()["error"] and "ruleset scores it" in answer.json()["error"]
    assert hands_of(copy) == before and Mirror.objects.get().version == first.version


def test_a_patch_row_of_a_table_not_in_the_patch_is_400(client, key, venue_day, english):
    _answer, first = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    snap = venue.snapshot(venue_day, first.stored)
    other = tables_of(venue_day)[1].pk

    def elsewhere(data):
        data["hands"][-1]["table_id"] = other

    answer = push(client, key[1], rewrite(snap.body, elsewhere), uid=venue_day.uid, version=snap.version, HTTP_X_TAROCK_BASE=str(snap.base))
    assert answer.status_code == 400 and "belongs to no table of the patch" in answer.json()["error"]


def test_a_patch_naming_another_tournament_or_version_is_400(client, key, venue_day, english):
    _answer, first = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    snap = venue.snapshot(venue_day, first.stored)
    answer = push(client, key[1], snap.body, uid=venue_day.uid, version=snap.version + 1, HTTP_X_TAROCK_BASE=str(snap.base))
    assert answer.status_code == 400 and "brings version" in answer.json()["error"]
    answer = push(client, key[1], snap.body, uid=venue_day.uid, version=snap.version, HTTP_X_TAROCK_BASE="x1")
    assert answer.status_code == 400 and "X-Tarock-Base" in answer.json()["error"]
    answer = push(client, key[1], snap.body, uid=venue_day.uid, version=snap.version, HTTP_X_TAROCK_BASE=str(snap.version))
    assert answer.status_code == 400  # a base not below the version
    assert Mirror.objects.get().version == first.version


def test_a_whole_archive_sent_as_a_patch_is_refused(client, key, venue_day, english):
    _answer, first = send(client, key[1], venue_day)
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    whole = venue.snapshot(venue_day)
    answer = push(client, key[1], whole.body, uid=venue_day.uid, version=whole.version, HTTP_X_TAROCK_BASE=str(first.version))
    assert answer.status_code == 400 and "not a tournament archive" in answer.json()["error"]


def test_the_sheet_stamps_name_tables_by_round_and_number(venue_day):
    one, two = tables_of(venue_day)
    assert patch.sheet_stamps(venue_day.pk) == {"1.1": 2, "1.2": 2}  # two hands saved at each, one version each
    delete_hand(one.hands.get(number=2))  # struck: one more version of it
    assert patch.sheet_stamps(venue_day.pk) == {"1.1": 3, "1.2": 2}
    assert patch.changed_tables({"1.1": 3, "1.2": 2}, {"1.1": 2, "1.2": 2}) == ["1.1"]
    assert patch.changed_tables({"1.1": 1}, {}) == ["1.1"]


def test_a_patch_of_no_table_moves_the_version_and_the_next_one_finds_the_copy_is_not_its_base(client, key, venue_day):
    _answer, first = send(client, key[1], venue_day)
    copy = Mirror.objects.get().tournament
    before = hands_of(copy)
    play(tables_of(venue_day)[0], 1)
    venue_day.refresh_from_db()
    snap = venue.snapshot(venue_day, first.stored)

    def nothing(data):  # a key holder's patch that leaves the changed table out
        for part in ("tables", "hands", "hand_history", "flags", "confirmations"):
            data[part] = []

    answer = push(client, key[1], rewrite(snap.body, nothing), uid=venue_day.uid, version=snap.version, HTTP_X_TAROCK_BASE=str(snap.base))
    assert answer.status_code == 200 and answer.json()["status"] == "stored"
    assert Mirror.objects.get().version == snap.version and hands_of(copy) == before

    play(tables_of(venue_day)[1], 1)
    venue_day.refresh_from_db()
    answer, _next = send(client, key[1], venue_day, since=snap.stored)
    assert answer.status_code == 409  # its stamps are not the venue's: the whole archive follows
    answer, _whole = send(client, key[1], venue_day)
    assert answer.status_code == 200 and hands_of(Mirror.objects.get().tournament) == hands_of(venue_day)
