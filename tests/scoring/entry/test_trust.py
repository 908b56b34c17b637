"""Entry a director can trust: history and restore, no lost writes, the private link,
ending a table, the board."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import Hand, HandFlag, SheetConfirmation
from scoring.services import HandConflict, RoundLocked, save_hand, verify_round
from tournaments import services


def post_hand(client, table, **fields):
    data = {"outcome": "played", "dealer": "3", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


DREIER_WON = {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True}  # [-5, 15, -5, -5]
DREIER_LOST = {"dealer": 3, "contract": "dreier", "declarer": 1, "won": False}  # [5, -15, 5, 5]


@pytest.mark.django_db
def test_every_change_is_versioned_and_can_be_restored(director_client, director, four_table, english):
    post_hand(director_client, four_table, contract="dreier", declarer=1, won=1, reason="vom Zettel")
    hand = Hand.objects.get()
    edit = reverse("entry:hand_edit", args=[hand.pk])
    response = director_client.post(edit, {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1",
                                           "won": "0", "version": "1", "reason": "Spieler hat verloren"})
    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.version, hand.scores) == (2, [5, -15, 5, 5])
    history = list(hand.history.all())  # newest first
    assert [h.history_type for h in history] == ["~", "+"]
    assert [h.history_change_reason for h in history] == ["Spieler hat verloren", "vom Zettel"]
    assert all(h.history_user == director for h in history)
    page = director_client.get(reverse("entry:hand_history", args=[hand.pk]))
    assert "Spieler hat verloren" in page.content.decode()
    response = director_client.post(reverse("entry:hand_history", args=[hand.pk]), {"history_id": history[1].history_id})
    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.version, hand.scores, hand.record["won"]) == (3, [-5, 15, -5, -5], True)
    assert "restored" in hand.history.first().history_change_reason


@pytest.mark.django_db
def test_deleting_keeps_the_hand_in_the_history_with_the_reason(director_client, four_table):
    post_hand(director_client, four_table, contract="dreier", declarer=1, won=1)
    hand = Hand.objects.get()
    director_client.post(reverse("entry:hand_delete", args=[hand.pk]), {"reason": "doppelt eingetragen"})
    assert not Hand.objects.exists()
    gone = Hand.history.filter(id=hand.pk).first()
    assert gone.history_type == "-" and gone.history_change_reason == "doppelt eingetragen"


@pytest.mark.django_db
def test_second_of_two_concurrent_edits_is_refused_and_shows_the_first(director_client, four_table, english):
    hand = save_hand(four_table, DREIER_WON)
    edit = reverse("entry:hand_edit", args=[hand.pk])
    first = {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "won": "0", "version": "1"}
    second = {**first, "won": "1", "contract": "dreier", "declarer": "2"}  # both opened version 1
    assert director_client.post(edit, first).status_code == 302
    response = director_client.post(edit, second)
    assert response.status_code == 422
    error = " ".join(response.context["form"].non_field_errors())
    assert "changed meanwhile" in error and "5, -15, 5, 5" in error
    hand.refresh_from_db()
    assert hand.scores == [5, -15, 5, 5] and hand.version == 2  # the first change stands
    assert response.context["form"].data["declarer"] == "2"  # what the second scorer typed is kept


@pytest.mark.django_db
def test_two_scorers_entering_the_same_next_hand(director_client, four_table, english):
    # Both opened the form for hand 1; the first saves, the second is told and nothing doubles.
    assert post_hand(director_client, four_table, number=1, contract="dreier", declarer=1, won=1).status_code == 302
    response = post_hand(director_client, four_table, number=1, contract="dreier", declarer=2, won=1)
    assert response.status_code == 422
    assert "Hand 1 was entered meanwhile" in " ".join(response.context["form"].non_field_errors())
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    with pytest.raises(HandConflict):
        save_hand(four_table, DREIER_LOST, expected_number=1)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_saves_get_unique_gapless_numbers(make_tournament):
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(("file:memorydb", ":memory:")):
        pytest.skip("an in-memory SQLite test database is one connection; PostgreSQL runs this for real")
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    barrier = threading.Barrier(4)
    errors = []

    def enter():
        try:
            barrier.wait()
            save_hand(table, {"dealer": 3, "outcome": "struck", "note": "parallel"})
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert sorted(Hand.objects.filter(table=table).values_list("number", flat=True)) == [1, 2, 3, 4]


@pytest.mark.django_db(transaction=True)
def test_saves_at_two_tables_while_the_round_is_verified_are_each_in_or_refused(make_tournament):
    """Hands at different tables of a round are saved side by side; a verification meanwhile
    leaves every hand either saved before it or refused, never lost, never a deadlock."""
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(("file:memorydb", ":memory:")):
        pytest.skip("an in-memory SQLite test database is one connection; PostgreSQL runs this for real")
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=3)
    tables = list(rnd.tables.order_by("number"))
    barrier = threading.Barrier(9)
    saved, refused, errors = [], [], []

    def enter(table):
        try:
            barrier.wait()
            saved.append(save_hand(table, {"dealer": 0, "outcome": "struck", "note": "parallel"}).pk)
        except RoundLocked:
            refused.append(table.pk)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    def verify():
        try:
            barrier.wait()
            verify_round(rnd)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(tables[i % 2],)) for i in range(8)]
    threads.append(threading.Thread(target=verify))
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert len(saved) + len(refused) == 8
    assert sorted(Hand.objects.filter(table__round=rnd).values_list("pk", flat=True)) == sorted(saved)
    for table in tables:  # numbers stay gapless at each table
        numbers = sorted(table.hands.values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))
    rnd.refresh_from_db()
    assert rnd.verified_at is not None
    # nothing slipped in after the verification
    assert all(at <= rnd.verified_at for at in Hand.objects.filter(table__round=rnd).values_list("entered_at", flat=True))


@pytest.mark.django_db
def test_private_link_shows_only_its_table_and_takes_confirmations_and_flags(make_tournament, english):
    t = make_tournament(players=8)
    first, second = services.draw_next_round(t, seed=3).tables.order_by("number")
    hand = save_hand(first, {"dealer": first.first_dealer, "contract": "dreier", "declarer": 1, "won": True})
    other = save_hand(second, {"dealer": second.first_dealer, "contract": "dreier", "declarer": 1, "won": True})
    players = Client()
    url = reverse("scoring:private_sheet", args=[first.token])
    page = players.get(url)
    assert page.status_code == 200 and page.context["table"] == first
    names = [s.registration.player.name for s in second.seats.select_related("registration__player")]
    assert not any(n in page.content.decode() for n in names)  # nothing of the other table
    assert page.context["form"] is None  # no entry form without a director login
    assert players.get(reverse("scoring:private_sheet", args=["not-a-token"])).status_code == 404
    # flag a hand of another table through this link: refused, nothing stored
    assert players.post(url, {"hand": other.pk, "comment": "falsch"}).status_code == 422
    assert players.post(url, {"hand": hand.pk, "comment": "Pagat fehlt"}).status_code == 302
    assert players.post(url, {"confirm": "1", "name": "Anna", "sheet_version": "1"}).status_code == 302
    assert HandFlag.objects.get().hand == hand and SheetConfirmation.objects.get().hands == 1
    # the link cannot change anything else
    assert players.post(reverse("entry:hand_create", args=[first.pk]), {}).status_code == 302
    assert Hand.objects.count() == 2


@pytest.mark.django_db
def test_flagged_hands_stand_out_for_the_director_and_the_board(director_client, four_table):
    hand = save_hand(four_table, DREIER_WON)
    HandFlag.objects.create(hand=hand, comment="Trull vergessen")
    sheet = director_client.get(four_table.get_absolute_url())
    assert 'class=" flagged"' in sheet.content.decode()
    assert "Trull vergessen" in sheet.content.decode()
    board = director_client.get(reverse("live_director:board", args=[four_table.round.tournament_id]))
    cell = board.context["board"].rounds[0].cells[0]
    assert (cell.hands, cell.cap, cell.flags) == (1, 16, 1)
    director_client.post(reverse("entry:resolve_flag", args=[hand.flags.get().pk]))
    assert not HandFlag.objects.filter(resolved=False).exists()


@pytest.mark.django_db
def test_end_table_now_caps_the_round_at_the_hands_played(director_client, four_table):
    for _ in range(3):
        save_hand(four_table, DREIER_WON)
    director_client.post(reverse("entry:end_table", args=[four_table.pk]))
    four_table.refresh_from_db()
    assert four_table.ended_after == 3
    sheet = director_client.get(four_table.get_absolute_url()).context["sheet"]
    assert sheet.complete and sheet.info.cap == 3
    assert post_hand(director_client, four_table, dealer=2, contract="dreier", declarer=1, won=1).status_code == 422


@pytest.mark.django_db
def test_round_can_be_marked_verified(director_client, four_table):
    rnd = four_table.round
    director_client.post(reverse("entry:verify_round", args=[rnd.pk]))
    rnd.refresh_from_db()
    assert rnd.verified_at is not None


@pytest.mark.django_db
def test_htmx_entry_returns_the_sheet_partial(director_client, four_table):
    data = {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "won": "1"}
    response = director_client.post(reverse("entry:hand_create", args=[four_table.pk]), data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="sheet">') or '<div id="sheet">' in html[:200]
    assert "<html" not in html and Hand.objects.count() == 1


@pytest.mark.django_db
def test_preview_shows_the_row_before_saving(director_client, four_table, english):
    url = reverse("entry:hand_preview", args=[four_table.pk])
    response = director_client.post(url, {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "won": "1"})
    assert response.context["valid"] and response.context["scores"] == [-5, 15, -5, -5]
    response = director_client.post(url, {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "partner": "2", "won": "1"})
    assert not response.context["valid"] and "partner" in response.content.decode().lower()
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_seat_round_scores_follow_every_save_edit_restore_and_delete(director_client, four_table):
    from django.core.management import call_command

    def seats():
        return list(four_table.seats.order_by("position").values_list("score", flat=True))

    first = save_hand(four_table, DREIER_WON)  # [-5, 15, -5, -5]
    save_hand(four_table, {**DREIER_LOST, "dealer": 0, "declarer": 2})  # [5, 5, -15, 5]
    assert seats() == [0, 20, -20, 0]
    save_hand(four_table, DREIER_LOST, hand=first)  # now [5, -15, 5, 5]
    assert seats() == [10, -10, -10, 10]
    director_client.post(reverse("entry:hand_history", args=[first.pk]), {"history_id": first.history.last().history_id})
    assert seats() == [0, 20, -20, 0]
    director_client.post(reverse("entry:hand_delete", args=[first.pk]), {"reason": "test"})
    assert seats() == [5, 5, -15, 5]
    four_table.seats.update(score=99)  # a stale cache is repaired by the command
    call_command("recompute")
    assert seats() == [5, 5, -15, 5]
