"""A sheet confirmation belongs to the sheet as it was: any later change to the table's hands (an
edit, a new hand, a deletion, a strike, a restored version, raw rows, a re-scoring) voids it
visibly — on the board, the director's sheet and the private sheet — until the players confirm
again; an archive keeps what was confirmed. The private sheet keeps "Your name" after Confirm, and
a page opened before a change confirms nothing: the players see the sheet as it is now first."""

import gzip
import hashlib
import importlib
import json

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from archive import backup
from archive.backup import BackupRefused, export_tournament, restore
from scoring.entry.raw_rows import save_raw_rows
from scoring.models import Hand, SheetConfirmation
from scoring.services import (
    confirm_sheet,
    delete_hand,
    end_table,
    flag_hand,
    resolve_flag,
    restore_hand,
    save_hand,
)
from scoring.services import tables as table_services
from scoring.services.tables import SheetChanged, confirmation_state, confirmation_states, sheet_versions
from tournaments import services

DREIER_WON = {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True}  # [-5, 15, -5, -5]
DREIER_LOST = {"dealer": 3, "contract": "dreier", "declarer": 1, "won": False}  # [5, -15, 5, 5]
DREIER_BY_2 = {"dealer": 0, "contract": "dreier", "declarer": 2, "won": True}


@pytest.fixture
def confirmed(four_table):
    """A 4-table with two hands (a Dreier won, then a Dreier lost), confirmed by Anna."""
    save_hand(four_table, DREIER_WON)
    save_hand(four_table, DREIER_LOST)
    confirm_sheet(four_table, "Anna")
    assert confirmation_state(four_table).current
    return four_table


def first(table):
    return table.hands.get(number=1)


CHANGES = {
    "edit": lambda t: save_hand(t, DREIER_LOST, hand=first(t), reason="Tippfehler"),
    "new hand": lambda t: save_hand(t, DREIER_BY_2),
    "deletion of the last hand": lambda t: delete_hand(t.hands.get(number=2), reason="doppelt"),
    "deletion and renumbering": lambda t: delete_hand(first(t), reason="doppelt"),
    "strike": lambda t: save_hand(t, {"dealer": 3, "outcome": "struck", "note": "vergeben"}, hand=first(t)),
    "restored version": lambda t: restore_hand(first(t), first(t).history.earliest().history_id),
    "raw rows": lambda t: save_raw_rows(t, "= 10 -10 0 0"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_any_later_change_to_the_tables_hands_voids_the_confirmation(confirmed, change):
    if change == "restored version":  # a version to go back to: hand 1 edited after the confirmation too
        save_hand(confirmed, DREIER_LOST, hand=first(confirmed))
        confirm_sheet(confirmed, "Anna")
        assert confirmation_state(confirmed).current
    CHANGES[change](confirmed)
    state = confirmation_state(confirmed)
    assert state.changed and not state.current
    assert (state.name, state.hands) == ("Anna", 2)
    confirm_sheet(confirmed, "Berta")  # the players confirm again: it holds
    state = confirmation_state(confirmed)
    assert state.current and state.name == "Berta"


@pytest.mark.django_db
def test_deleting_the_last_hand_and_entering_it_again_alike_still_voids_it(confirmed):
    """The sheet looks as it did, but it is not the sheet the players confirmed: its last hand is
    another entry (its history says so)."""
    delete_hand(confirmed.hands.get(number=2), reason="falsch")
    save_hand(confirmed, DREIER_LOST)
    assert list(confirmed.hands.values_list("scores", flat=True)) == [[-5, 15, -5, -5], [5, -15, 5, 5]]
    assert confirmation_state(confirmed).changed


@pytest.mark.django_db
def test_what_is_not_a_change_of_the_hands_leaves_the_confirmation_standing(confirmed):
    """A flag raised and resolved, the table ended by the director: the sheet's hands are as
    confirmed."""
    flag = flag_hand(first(confirmed), "Partner?")
    resolve_flag(flag)
    end_table(confirmed)
    assert confirmation_state(confirmed).current


@pytest.mark.django_db
def test_another_tables_change_leaves_this_confirmation_standing(make_tournament):
    t = make_tournament(players=8)
    one, two = services.draw_next_round(t, seed=3).tables.order_by("number")
    save_hand(one, {"dealer": one.first_dealer, "contract": "dreier", "declarer": 1, "won": True})
    confirm_sheet(one, "Anna")
    confirm_sheet(two, "")
    save_hand(two, {"dealer": two.first_dealer, "contract": "dreier", "declarer": 1, "won": True})
    states = confirmation_states(table__round__tournament=t)
    assert states[one.pk].current and states[two.pk].changed
    assert sheet_versions(table__round__tournament=t).keys() == {one.pk, two.pk}


def confirm(client, url, name, **more):
    """Open the private sheet at ``url`` and tap Confirm with ``name``, as a player does: the post
    carries the version of the sheet the page showed."""
    version = client.get(url).context["sheet_version"]
    return client.post(url, {"confirm": "1", "name": name, "sheet_version": str(version), **more})


def cells(page) -> str:
    """The board's cells (without its legend, which names both marks)."""
    return page.content.decode().split('class="board"')[1].split("</div>")[0]


@pytest.mark.django_db
def test_the_board_shows_changed_after_confirmation_instead_of_the_tick(director_client, confirmed, english):
    url = reverse("live_director:board", args=[confirmed.round.tournament_id])
    board = cells(director_client.get(url))
    assert "✓ 2" in board and "changed after confirmation" not in board
    hand = first(confirmed)
    flag = flag_hand(hand, "Partner?")
    save_hand(confirmed, DREIER_LOST, hand=hand, reason="Partner vergessen")
    resolve_flag(flag)
    response = director_client.get(url)
    cell = response.context["board"].rounds[0].cells[0]
    assert cell.confirmed.changed and cell.confirmed.hands == 2
    board = cells(response)
    assert "changed after confirmation" in board and "✓" not in board
    confirm_sheet(confirmed, "Anna")
    board = cells(director_client.get(url))
    assert "✓ 2" in board and "changed after confirmation" not in board


@pytest.mark.django_db
def test_the_board_reads_every_confirmation_in_a_fixed_number_of_queries(make_tournament, django_assert_num_queries):
    from scoring.live.board import build_board

    t = make_tournament(players=12)
    tables = list(services.draw_next_round(t, seed=3).tables.order_by("number"))
    for table in tables:
        save_hand(table, {"dealer": table.first_dealer, "contract": "dreier", "declarer": 1, "won": True})
        confirm_sheet(table)
    save_hand(tables[1], {"dealer": (tables[1].first_dealer + 1) % 4, "contract": "dreier", "declarer": 1, "won": True})
    with django_assert_num_queries(8):
        board = build_board(t)
    assert [c.confirmed.current for c in board.rounds[0].cells] == [True, False, True]


@pytest.mark.django_db
def test_the_private_sheet_says_the_sheet_changed_and_offers_confirm_again(confirmed, english):
    players = Client()
    url = reverse("scoring:private_sheet", args=[confirmed.token])
    page = players.get(url).content.decode()
    assert "The players confirmed this sheet at" in page and "Anna" in page
    assert "Confirm the sheet" in page and "Confirm again" not in page
    save_hand(confirmed, DREIER_BY_2)
    page = players.get(url).content.decode()
    assert "Changed after confirmation." in page and "Confirm again" in page
    assert confirm(players, url, "Anna").status_code == 302
    page = players.get(url).content.decode()
    assert "Changed after confirmation" not in page and "with 3 hands" in page


@pytest.mark.django_db
def test_the_directors_sheet_knows_the_confirmation_no_longer_holds(director_client, confirmed):
    """The sheet's context carries the state (``scoring/_confirmation.html`` shows it)."""
    assert director_client.get(confirmed.get_absolute_url()).context["confirmation"].current
    delete_hand(confirmed.hands.get(number=2), reason="doppelt")
    assert director_client.get(confirmed.get_absolute_url()).context["confirmation"].changed


@pytest.mark.django_db
def test_the_private_sheet_keeps_your_name_after_confirm(four_table, english):
    url = reverse("scoring:private_sheet", args=[four_table.token])
    phone = Client()
    assert 'value="Anna Huber"' not in phone.get(url).content.decode()
    assert confirm(phone, url, "Anna Huber").status_code == 302
    assert 'value="Anna Huber"' in phone.get(url).content.decode()
    # … on the next round's table too (the browser's, not the table's): not on a tablemate's phone
    other = services.draw_next_round(four_table.round.tournament, seed=8).tables.get()
    assert 'value="Anna Huber"' in phone.get(reverse("scoring:private_sheet", args=[other.token])).content.decode()
    assert 'value="Anna Huber"' not in Client().get(url).content.decode()
    # confirmed without a name: forgotten
    assert confirm(phone, url, "").status_code == 302
    assert 'value="Anna Huber"' not in phone.get(url).content.decode()


@pytest.mark.django_db
def test_a_refused_flag_keeps_the_name_in_the_confirm_form(four_table, english):
    hand = save_hand(four_table, DREIER_WON)
    url = reverse("scoring:private_sheet", args=[four_table.token])
    phone = Client()
    assert confirm(phone, url, "Anna").status_code == 302
    refused = phone.post(url, {"hand": hand.pk, "comment": ""})
    assert refused.status_code == 422 and 'value="Anna"' in refused.content.decode()


# a page opened before a change ----------------------------------------------------------------

STALE = "The sheet changed since you opened it: check it and confirm it again."


@pytest.mark.django_db
def test_a_page_opened_before_the_directors_edit_confirms_nothing(confirmed, english):
    """The players open the private sheet, the director edits the hand they flagged, they tap
    Confirm on the page they still have: nothing is confirmed, the page comes again with the
    sheet as it is now, says why and keeps the name; confirmed from that page, it holds."""
    players = Client()
    url = reverse("scoring:private_sheet", args=[confirmed.token])
    opened = players.get(url)
    seen = opened.context["sheet_version"]
    assert f'name="sheet_version" value="{seen}"' in opened.content.decode()
    save_hand(confirmed, DREIER_LOST, hand=first(confirmed), reason="Partner vergessen")

    answer = players.post(url, {"confirm": "1", "name": "Berta Gruber", "sheet_version": str(seen)})
    assert answer.status_code == 409
    assert SheetConfirmation.objects.filter(table=confirmed).count() == 1  # Anna's, before the edit
    assert confirmation_state(confirmed).changed
    page = answer.content.decode()
    assert STALE in page and 'value="Berta Gruber"' in page
    assert "Changed after confirmation." in page and "Confirm again" in page
    now = answer.context["sheet_version"]
    assert now == seen + 1 and f'name="sheet_version" value="{now}"' in page
    assert answer.context["sheet"].rows[0].hand.record["won"] is False  # the edited hand is shown

    assert players.post(url, {"confirm": "1", "name": "Berta Gruber", "sheet_version": str(now)}).status_code == 302
    state = confirmation_state(confirmed)
    assert state.current and state.name == "Berta Gruber"
    assert STALE not in players.get(url).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("version", [None, "", "abc", "²", "-1", "99"], ids=["absent", "empty", "word", "superscript", "negative", "unknown"])
def test_a_confirmation_without_the_version_its_page_showed_confirms_nothing(four_table, english, version):
    """A page from before pages carried the sheet's version (or a post that says none it could
    have shown) is taken as a page of an older sheet."""
    save_hand(four_table, DREIER_WON)
    url = reverse("scoring:private_sheet", args=[four_table.token])
    data = {"confirm": "1", "name": "Anna"}
    if version is not None:
        data["sheet_version"] = version
    answer = Client().post(url, data)
    assert answer.status_code == 409 and STALE in answer.content.decode()
    assert not SheetConfirmation.objects.exists()


@pytest.mark.django_db
def test_confirm_sheet_compares_the_version_seen_under_the_tables_lock(confirmed):
    seen = sheet_versions(table_id=confirmed.pk)[confirmed.pk][0]
    save_hand(confirmed, DREIER_BY_2)
    for stale in (seen, None):
        with pytest.raises(SheetChanged) as refused:
            confirm_sheet(confirmed, "Berta", stale)
        assert (refused.value.seen, refused.value.version) == (stale, seen + 1)
    assert SheetConfirmation.objects.filter(table=confirmed).count() == 1
    confirm_sheet(confirmed, "Berta", seen + 1)
    state = confirmation_state(confirmed)
    assert state.current and (state.name, state.hands) == ("Berta", 3)


@pytest.mark.django_db
def test_the_board_reads_the_hand_history_of_the_confirmed_tables_only(make_tournament, monkeypatch):
    """The board polls every few seconds: the history of tables nobody confirmed is not read."""
    from scoring.live.board import build_board

    t = make_tournament(players=12)
    tables = list(services.draw_next_round(t, seed=3).tables.order_by("number"))
    for table in tables:
        save_hand(table, {"dealer": table.first_dealer, "contract": "dreier", "declarer": 1, "won": True})
    confirm_sheet(tables[1], "Anna")
    read = []
    original = table_services.sheet_versions

    def spy(**selection):
        versions = original(**selection)
        read.append(set(versions))
        return versions

    monkeypatch.setattr(table_services, "sheet_versions", spy)
    board = build_board(t)
    assert read == [{tables[1].pk}]
    assert [c.confirmed is not None and c.confirmed.current for c in board.rounds[0].cells] == [False, True, False]


# archives ------------------------------------------------------------------------------------


def repack(content: bytes, change) -> bytes:
    envelope = json.loads(gzip.decompress(content))
    change(envelope["data"])
    envelope["sha256"] = hashlib.sha256(backup._canonical(envelope["data"])).hexdigest()
    return gzip.compress(backup._canonical(envelope))


def states_of(tournament) -> list[tuple]:
    states = confirmation_states(table__round__tournament=tournament)
    tables = tournament.round_set.get().tables.order_by("number")
    return [(states[t.pk].name, states[t.pk].hands, states[t.pk].current) if t.pk in states else None for t in tables]


@pytest.fixture
def two_tables(make_tournament):
    """Two 4-tables: the first confirmed and unchanged since, the second changed after its
    confirmation (a hand edited)."""
    t = make_tournament(players=8)
    one, two = services.draw_next_round(t, seed=3).tables.order_by("number")
    for table in (one, two):
        for number in range(3):
            save_hand(table, {"dealer": (table.first_dealer + number) % 4, "contract": "dreier", "declarer": 1, "won": True})
        confirm_sheet(table, f"Spieler {table.number}")
    save_hand(two, {"dealer": two.first_dealer, "contract": "dreier", "declarer": 1, "won": False}, hand=first(two))
    assert states_of(t) == [("Spieler 1", 3, True), ("Spieler 2", 3, False)]
    return t


@pytest.mark.django_db
def test_an_archive_keeps_which_confirmations_hold(two_tables):
    content = export_tournament(two_tables)
    rows = json.loads(gzip.decompress(content))["data"]["confirmations"]
    assert sorted(r["sheet_version"] for r in rows) == [3, 3]
    copy = restore(content).tournament
    assert states_of(copy) == [("Spieler 1", 3, True), ("Spieler 2", 3, False)]
    save_hand(copy.round_set.get().tables.get(number=1), DREIER_BY_2)  # and a change after the restore voids it
    assert states_of(copy) == [("Spieler 1", 3, False), ("Spieler 2", 3, False)]


@pytest.mark.django_db
def test_an_archive_written_before_confirmations_kept_their_version_restores(two_tables):
    """Its confirmations get the version from the hand history up to their time."""

    def drop(data):
        for row in data["confirmations"]:
            del row["sheet_version"]

    copy = restore(repack(export_tournament(two_tables), drop)).tournament
    assert list(SheetConfirmation.objects.filter(table__round__tournament=copy).values_list("sheet_version", flat=True)) == [3, 3]
    assert states_of(copy) == [("Spieler 1", 3, True), ("Spieler 2", 3, False)]


@pytest.mark.django_db
def test_an_archive_confirming_a_version_the_table_never_had_is_refused(two_tables, english):
    def inflate(data):
        data["confirmations"][0]["sheet_version"] = 99

    with pytest.raises(BackupRefused, match="version 99 of the sheet"):
        restore(repack(export_tournament(two_tables), inflate))


@pytest.mark.django_db
def test_the_migration_gives_older_confirmations_the_version_of_their_time(two_tables):
    migration = importlib.import_module("scoring.migrations.0007_sheet_confirmation_version")
    SheetConfirmation.objects.update(sheet_version=None)
    assert states_of(two_tables) == [("Spieler 1", 3, True), ("Spieler 2", 3, False)]  # judged by time meanwhile
    migration.fill_sheet_versions(apps, None)
    assert list(SheetConfirmation.objects.order_by("table__number").values_list("sheet_version", flat=True)) == [3, 3]
    assert states_of(two_tables) == [("Spieler 1", 3, True), ("Spieler 2", 3, False)]
    assert Hand.history.filter(table__round__tournament=two_tables).count() == 7


@pytest.mark.django_db
def test_the_directors_sheet_says_so_in_the_answer_to_his_save(director_client, confirmed, english):
    """The director's sheet is replaced by htmx after each save: the notice is part of what is
    replaced, so the hand he just entered turns "✓ confirmed" into "changed after confirmation"
    without a reload."""
    page = director_client.get(confirmed.get_absolute_url()).content.decode()
    assert "The players confirmed this sheet" in page and "Changed after confirmation" not in page
    data = {"outcome": "played", "dealer": "1", "contract": "dreier", "declarer": "2", "won": "1", "number": "3"}
    url = reverse("entry:hand_create", args=[confirmed.pk])
    answer = director_client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    assert answer.startswith('<div id="sheet">') and "Changed after confirmation" in answer


@pytest.mark.django_db
def test_an_edit_that_changes_nothing_leaves_the_confirmation_standing(confirmed):
    """Opening a hand and saving it as it stands, or restoring the version it has, changes no hand
    of the sheet the players confirmed: no new version, the confirmation holds."""
    hand = first(confirmed)
    versions = hand.history.count()
    save_hand(confirmed, dict(hand.record), hand=hand, reason="nur angesehen")
    restore_hand(first(confirmed), first(confirmed).history.latest().history_id)
    assert first(confirmed).history.count() == versions and first(confirmed).version == hand.version
    assert confirmation_state(confirmed).current
