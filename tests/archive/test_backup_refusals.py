"""An archive whose checksum was recomputed after an edit is still checked as content: each kind of
edit is refused by :func:`summarize` and :func:`restore` alike, with a message naming what is wrong,
and nothing is written. Old archives (before the action log kept names) still restore."""

import gzip
import hashlib
import json
import random
import tracemalloc
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model

from archive import backup
from archive.backup import BackupRefused, export_tournament, restore, summarize
from scoring.models import Hand, HandFlag, SheetConfirmation
from scoring.prizes.models import PrizeCategory, PrizeFund
from scoring.services import build_sheet, confirm_sheet, delete_hand, flag_hand, save_hand
from tournaments import services
from tournaments.models import ActionLog, Player, Registration, Tournament, TournamentRole
from tournaments.roles import give_role


@pytest.fixture
def content(make_tournament, director, django_user_model):
    """The archive of a Tiroler Tarockcup of 9 players (a 4-table and a 5-table) with every hand
    of round 1 entered by a scorer, one deleted, one flagged, a confirmation, a prize category."""
    rng = random.Random(7)
    django_user_model.objects.create_user("schreiber", password="x-123-geheim")
    t = make_tournament(players=9, rounds=2, hands_per_round=4)
    give_role(t, "schreiber", "scorer", director)
    scorer = django_user_model.objects.get(username="schreiber")
    rnd = services.draw_next_round(t, seed=3, user=director)
    for table in rnd.tables.all():
        while not (sheet := build_sheet(table)).complete:
            save_hand(table, sheet.info.ruleset.random_hand(rng, sheet.info.size, sheet.next_dealer), scorer)
        confirm_sheet(table, "Spieler 01")
    four = next(table for table in rnd.tables.all() if table.seats.count() == 4)
    delete_hand(four.hands.get(number=2), director, "doppelt")
    flag_hand(four.hands.get(number=1), "Partner?")
    PrizeFund.objects.create(tournament=t, entry_fee=D(20))
    PrizeCategory.objects.create(tournament=t, order=1, kind="places", name="Hauptpreise", places=2, shares="60 40")
    return export_tournament(t)


def unpack(archive: bytes) -> dict:
    return json.loads(gzip.decompress(archive))


def repack(envelope: dict) -> bytes:
    """The archive of ``envelope`` with its checksum recomputed as the module computes it."""
    envelope["sha256"] = hashlib.sha256(backup._canonical(envelope["data"])).hexdigest()
    return gzip.compress(backup._canonical(envelope))


def edited(archive: bytes, change) -> bytes:
    envelope = unpack(archive)
    change(envelope["data"])
    return repack(envelope)


def counts():
    models = (Tournament, Player, Registration, Hand, Hand.history.model, HandFlag, SheetConfirmation, ActionLog,
              TournamentRole, PrizeFund, PrizeCategory)
    return [m.objects.count() for m in models]


def refused(archive: bytes, *words) -> str:
    """The refusal of ``archive`` (the same from summarize and restore, nothing written), which
    names each of ``words``."""
    before = counts()
    with pytest.raises(BackupRefused) as summarized:
        summarize(archive)
    with pytest.raises(BackupRefused) as restoring:
        restore(archive)
    assert counts() == before
    message = restoring.value.message
    assert summarized.value.message == message
    for word in words:
        assert word in message, message
    return message


def table_of(data, size):
    """The archive's row of a table of ``size`` seats."""
    sizes = {}
    for seat in data["seats"]:
        sizes[seat["table_id"]] = sizes.get(seat["table_id"], 0) + 1
    return next(t for t in data["tables"] if sizes[t["id"]] == size)


def hand_of(data, size, number):
    table = table_of(data, size)
    return next(h for h in data["hands"] if h["table_id"] == table["id"] and h["number"] == number)


def where(data, size, number):
    """How the message names that hand: "round 1, table T, hand N"."""
    return f"round 1, table {table_of(data, size)['number']}, hand {number}"


def test_the_unchanged_archive_is_accepted(content, english):
    assert summarize(content).hands == 8  # 4 + 5, one deleted


@pytest.mark.django_db
def test_an_unknown_ruleset_is_refused(content, english):
    refused(edited(content, lambda d: d["tournament"].update(ruleset="no-such-game")), "no-such-game", "does not know")


@pytest.mark.django_db
def test_an_unknown_edition_is_refused(content, english):
    refused(edited(content, lambda d: d["tournament"].update(edition="1887/88")), "1887/88", "does not know")


@pytest.mark.django_db
def test_an_option_the_ruleset_does_not_have_is_refused(content, english):
    refused(edited(content, lambda d: d["tournament"]["options"].update(no_such_option=True)), "no_such_option")


@pytest.mark.django_db
def test_a_row_that_does_not_sum_to_zero_is_refused(content, english):
    data = unpack(content)["data"]

    def change(d):
        hand_of(d, 4, 3)["scores"][0] += 1

    refused(edited(content, change), where(data, 4, 3), "does not sum to 0")


@pytest.mark.django_db
def test_a_manual_row_that_does_not_sum_to_zero_is_refused(content, english):
    data = unpack(content)["data"]

    def change(d):
        hand = hand_of(d, 4, 1)
        hand["record"] = {"dealer": hand["record"]["dealer"], "outcome": "manual", "scores": [5, 5, -5, -4]}
        hand["scores"] = [5, 5, -5, -4]

    refused(edited(content, change), where(data, 4, 1), "does not sum to 0")


@pytest.mark.django_db
def test_a_row_the_ruleset_does_not_give_is_refused(content, english):
    data = unpack(content)["data"]
    number = next(n for n in (1, 2, 3, 4, 5) if len(set(hand_of(data, 5, n)["scores"])) > 1)

    def change(d):
        hand = hand_of(d, 5, number)
        hand["scores"] = [-s for s in hand["scores"]]  # still zero-sum, but not what was played

    refused(edited(content, change), where(data, 5, number), "the ruleset scores it")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "record, words",
    [
        ("garbage", "not a hand record"),
        ([1, 2, 3], "not a hand record"),
        ({"dealer": 0, "contract": "no-such-contract", "declarer": 1, "won": True}, "not a hand the ruleset accepts"),
        ({"dealer": "Anna", "outcome": "played"}, "not a hand the ruleset accepts"),
        ({"dealer": 0, "outcome": "struck", "seats": [0, 9, 17]}, "not seats of its table"),
        ({"dealer": 0, "outcome": "struck", "note": "Anna \u202eregeB"}, "U+202E"),
    ],
)
def test_garbage_hand_records_are_refused(content, english, record, words):
    data = unpack(content)["data"]

    def change(d):
        hand_of(d, 4, 1)["record"] = record

    refused(edited(content, change), where(data, 4, 1), words)


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["hands", "players", "registrations", "seats", "tables", "actions", "flags", "roles", "prize_categories"])
def test_a_row_twice_is_refused(content, english, key):
    def change(d):
        d[key].append(dict(d[key][-1]))

    refused(edited(content, change), "twice")


@pytest.mark.django_db
def test_a_history_entry_twice_is_refused(content, english):
    refused(edited(content, lambda d: d["hand_history"].append(dict(d["hand_history"][0]))), "twice")


@pytest.mark.django_db
def test_a_hand_twice_under_another_id_is_refused(content, english):
    data = unpack(content)["data"]

    def change(d):
        copy = dict(hand_of(d, 4, 3), id=max(h["id"] for h in d["hands"]) + 1000)
        d["hands"].append(copy)

    refused(edited(content, change), where(data, 4, 3), "twice")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field, value, words",
    [("rounds", 500, "20"), ("hands_per_round", 500, "60"), ("rounds", 0, "1")],
)
def test_tournament_counts_beyond_the_form_are_refused(content, english, field, value, words):
    refused(edited(content, lambda d: d["tournament"].update({field: value})), "tournament", words)


@pytest.mark.django_db
def test_more_rounds_than_the_tournament_has_are_refused(content, english):
    def change(d):
        d["tournament"]["rounds"] = 1
        d["rounds"].append(dict(d["rounds"][0], id=d["rounds"][0]["id"] + 100, number=2))

    refused(edited(content, change), "round 2", "1 rounds")


@pytest.mark.django_db
def test_more_hands_than_a_table_plays_are_refused(content, english):
    data = unpack(content)["data"]
    table = table_of(data, 5)

    def change(d):
        last = hand_of(d, 5, 5)
        for k in (6, 7):
            d["hands"].append(dict(last, id=last["id"] + 1000 * k, number=k))

    refused(edited(content, change), f"round 1, table {table['number']}", "7 hands", "plays 5")


@pytest.mark.django_db
def test_a_table_of_a_size_the_ruleset_does_not_play_is_refused(content, english):
    def change(d):
        four = table_of(d, 4)
        d["seats"] = [s for s in d["seats"] if not (s["table_id"] == four["id"] and s["position"] == 3)]

    refused(edited(content, change), "3 players sit at it")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d["players"][0].update(name="Anna \u202eregeB"), ["U+202E"]),
        (lambda d: d["players"][0].update(name="\u200bAnna Berger"), ["U+200B"]),
        (lambda d: d["players"][0].update(name="A" * 121), ["120"]),
        (lambda d: d["players"][0].update(name=""), ["name"]),
        (lambda d: d["players"][0].update(club="Imst\x00"), ["U+0000"]),
        (lambda d: d["tournament"].update(name="T" * 201), ["tournament", "200"]),
        (lambda d: d["tournament"].update(venue="Gasthof \u2066Post"), ["tournament", "U+2066"]),
        (lambda d: d["prize_categories"][0].update(name="Haupt\u202epreise"), ["U+202E"]),
        (lambda d: d["confirmations"][0].update(name="Spieler\u200d01"), ["U+200D"]),
        (lambda d: d["actions"][0].update(detail="gezogen\x07"), ["U+0007"]),
        (lambda d: d["users"].update({next(iter(d["users"])): "leiter\u202e"}), ["U+202E"]),
        (lambda d: d.update(cup="Cup\u200b"), ["U+200B"]),
    ],
)
def test_names_and_texts_the_forms_would_refuse_are_refused(content, english, change, words):
    refused(edited(content, change), *words)


@pytest.mark.django_db
def test_a_prize_fund_the_form_would_refuse_is_refused(content, english):
    refused(edited(content, lambda d: d["prize_fund"][0].update(payout_percent="250.00")), "prize fund", "250")


@pytest.mark.django_db
def test_a_link_to_a_row_that_is_not_in_the_archive_is_refused(content, english):
    refused(edited(content, lambda d: d["flags"][0].update(hand_id=987654321)), "hand_id", "987654321")


@pytest.mark.django_db
def test_a_round_score_that_is_not_its_hands_sum_is_refused(content, english):
    refused(edited(content, lambda d: d["seats"][0].update(score=d["seats"][0]["score"] + 10)), "round score", "add up to")


@pytest.mark.django_db
def test_a_field_this_program_does_not_know_is_refused(content, english):
    refused(edited(content, lambda d: d["hands"][0].update(colour="red")), "colour")


@pytest.mark.django_db
@pytest.mark.parametrize("value", [10**30, -(10**25)])
def test_a_number_longer_than_any_column_is_refused(content, english, value):
    refused(edited(content, lambda d: d["hands"][0]["scores"].__setitem__(0, value)), "longer than any column")


@pytest.mark.django_db
def test_a_number_out_of_its_columns_range_is_refused(content, english):
    refused(edited(content, lambda d: d["hands"][0].update(number=10**18)), "out of the range")


@pytest.mark.django_db
def test_a_number_too_long_for_python_to_read_is_refused(content, english):
    envelope = unpack(content)
    raw = backup._canonical(envelope).replace(b'"version":1', b'"version":' + b"7" * 5000)
    refused(gzip.compress(raw), "longer than any column")


@pytest.mark.django_db
def test_a_record_nested_too_deep_is_refused(content, english):
    data = unpack(content)["data"]
    deep = []
    for _ in range(40):
        deep = [deep]

    def change(d):
        hand_of(d, 4, 1)["record"]["bonuses"] = deep

    refused(edited(content, change), where(data, 4, 1), "nests deeper")


@pytest.mark.django_db
def test_json_nested_deeper_than_python_reads_is_refused(content, english):
    raw = b'{"format":"tarock-tournament","version":1,"data":' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    refused(gzip.compress(raw), "nests deeper")


@pytest.mark.django_db
def test_an_archive_larger_than_the_limit_is_refused_before_it_is_unpacked(content, english, monkeypatch):
    monkeypatch.setattr(backup, "MAX_PACKED_BYTES", len(content) - 1)
    refused(content, "at most")


@pytest.mark.django_db
def test_an_archive_unpacking_past_the_limit_is_refused_in_bounded_memory(english, monkeypatch, db):
    monkeypatch.setattr(backup, "MAX_UNPACKED_BYTES", 2 * 2**20)
    bomb = gzip.compress(b" " * (64 * 2**20), compresslevel=9)  # 64 MB of blanks in 64 KB
    assert len(bomb) < 2**20
    tracemalloc.start()
    try:
        refused(bomb, "more than 2 MB")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20  # the limit and a piece or two, not the 64 MB it unpacks to


@pytest.mark.django_db
def test_an_archive_of_version_1_before_the_log_kept_names_restores(content, english):
    """As the first release wrote them: no names in the log, no prizes, no clock, no cup, times to
    the millisecond; the actors' names come from the archive's users."""

    def old(d):
        for row in d["actions"]:
            row.pop("user_name")
        for row in d["rounds"]:
            for name in ("clock_minutes", "clock_started_at", "clock_paused_at", "clock_paused_seconds", "clock_extra_minutes"):
                row.pop(name)
        for name in ("away", "cup_id"):
            d["tournament"].pop(name)
        for key in ("prize_fund", "prize_categories", "prize_members", "cup"):
            d.pop(key)
        for row in d["hand_history"]:
            row["history_date"] = row["history_date"][:23] + row["history_date"][26:]

    archive = edited(content, old)
    assert unpack(archive)["version"] == 1
    get_user_model().objects.filter(username="schreiber").delete()
    restored = restore(archive)
    t = restored.tournament
    assert restored.summary.unknown_users == ("schreiber",) and restored.summary.skipped_roles == (("schreiber", "scorer"),)
    gave = t.actions.get(action="role_given")
    assert gave.user_name == "leiter" and gave.user.username == "leiter"
    assert Hand.objects.filter(table__round__tournament=t).count() == 8
    assert not t.prize_categories.exists()
