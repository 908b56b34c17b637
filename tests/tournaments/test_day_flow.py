"""Running the day: the tournament form follows its ruleset, rounds are drawn in order,
a verified round is locked, double clicks are harmless, big fields draw on every database, and the
board shows the tables' running totals."""

import datetime
import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.entry.raw_rows import RawRowsRejected, save_raw_rows
from scoring.models import Hand, HandFlag, SheetConfirmation
from scoring.services import HandConflict, RoundLocked, delete_hand, end_table, save_hand
from tournaments import services
from tournaments.models import ActionLog, Player, Round, Tournament


def manual(table, scores, number=1):
    return save_hand(table, {"dealer": table.dealer_of(number, len(scores)), "outcome": "manual", "scores": scores})


# ------------------------------------------------------------------------- the tournament form


@pytest.mark.django_db
def test_the_new_tournament_form_shows_no_numbers_of_its_own_and_the_rulesets_defaults(director_client, english):
    page = director_client.get(reverse("tournaments_director:create")).content.decode()
    rounds = re.search(r"<input[^>]*name=\"rounds\"[^>]*>", page).group(0)
    hands = re.search(r"<input[^>]*name=\"hands_per_round\"[^>]*>", page).group(0)
    assert "value=" not in rounds and "value=" not in hands  # not the model's 3 × 16
    assert 'placeholder="3"' in rounds and 'placeholder="16"' in hands  # the first ruleset's, Tirol
    assert '"cego-ichenheim|ichenheim": {"rounds": 2, "hands": 24}' in html.unescape(page)
    assert '"tarok-bled|2005": {"rounds": 4, "hands": 21}' in html.unescape(page)
    # The form as a browser sends it untouched, with Cego chosen: 2 sessions of 24 hands.
    data = {"name": "Cego-Abend", "date": "2026-11-23", "venue": "", "ruleset_edition": "cego-ichenheim|ichenheim",
            "rounds": "", "hands_per_round": "", "draw_mode": "avoid_repeats", "status": "planned"}
    assert director_client.post(reverse("tournaments_director:create"), data).status_code == 302
    t = Tournament.objects.get(name="Cego-Abend")
    assert (t.rounds, t.hands_per_round) == (2, 24)


# ------------------------------------------------------------------------------ rounds in order


@pytest.mark.django_db
def test_drawing_while_tables_still_play_asks_naming_them(director_client, make_tournament, english):
    t = make_tournament(players=8)
    first, second = services.draw_next_round(t, seed=1).tables.order_by("number")
    manual(first, [1, -1, 0, 0])
    url = reverse("tournaments_director:draw", args=[t.pk])
    page = director_client.get(url).content.decode()
    assert "Round 1 is still playing at tables 1 and 2." in page and 'name="confirm"' in page
    response = director_client.post(url, {"seed": "5", "number": "2"})
    assert response.status_code == 200 and t.round_set.count() == 1
    assert "Round 1 is still playing at tables 1 and 2. Draw the next round anyway?" in response.content.decode()
    end_table(first)
    end_table(second)
    assert 'name="confirm"' not in director_client.get(url).content.decode()
    assert director_client.post(url, {"seed": "5", "number": "2"}).status_code == 302
    assert t.round_set.count() == 2


@pytest.mark.django_db
def test_a_confirmed_draw_goes_ahead(director_client, make_tournament):
    t = make_tournament(players=8)
    services.draw_next_round(t, seed=1)
    response = director_client.post(reverse("tournaments_director:draw", args=[t.pk]), {"number": "2", "confirm": "on"})
    assert response.status_code == 302 and t.round_set.count() == 2


@pytest.mark.django_db
def test_no_round_beyond_the_setting_is_offered(director_client, make_tournament, english):
    t = make_tournament(players=4, rounds=1)
    services.draw_next_round(t, seed=1)
    page = director_client.get(t.get_absolute_url()).content.decode()
    assert "Draw round 2" not in page and "raise the number of rounds" in page
    response = director_client.post(reverse("tournaments_director:draw", args=[t.pk]), {"number": "2", "confirm": "on"})
    assert "All 1 rounds are drawn already." in response.content.decode() and t.round_set.count() == 1


# ---------------------------------------------------------------------------------- double clicks


@pytest.mark.django_db
def test_two_draw_clicks_draw_one_round(director_client, make_tournament, english):
    t = make_tournament(players=8)
    url = reverse("tournaments_director:draw", args=[t.pk])
    assert director_client.post(url, {"number": "1"}).status_code == 302
    response = director_client.post(url, {"number": "1"}, follow=True)
    assert t.round_set.count() == 1
    assert "Round 1 is drawn already." in response.content.decode()


@pytest.mark.django_db
def test_two_delete_clicks_delete_one_round(director_client, make_tournament, english):
    t = make_tournament(players=8)
    services.draw_next_round(t, seed=1)
    services.draw_next_round(t, seed=2)
    url = reverse("tournaments_director:delete_last_round", args=[t.pk])
    director_client.post(url, {"number": "2"})
    response = director_client.post(url, {"number": "2"}, follow=True)
    assert list(t.round_set.values_list("number", flat=True)) == [1]
    assert "Round 2 is deleted already." in response.content.decode()


@pytest.mark.django_db
def test_a_refused_redraw_leaves_the_old_round_and_a_second_redraw_click_does_nothing(director_client, make_tournament, english):
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=1)
    url = reverse("tournaments_director:redraw", args=[t.pk, 1])
    t.registrations.filter(start_number=8).update(withdrawn=True)  # 7 players cannot be seated
    response = director_client.post(url, {"seed": str(rnd.seed)}, follow=True)
    assert "7 players cannot be seated" in response.content.decode()
    assert list(Round.objects.filter(tournament=t).values_list("seed", flat=True)) == [1]  # still there
    t.registrations.update(withdrawn=False)
    director_client.post(url, {"seed": "1"})
    redrawn = Round.objects.get(tournament=t)
    assert redrawn.seed != 1
    response = director_client.post(url, {"seed": "1"}, follow=True)  # the same page, clicked again
    assert Round.objects.get(tournament=t).seed == redrawn.seed
    assert "drawn again already" in response.content.decode()


@pytest.mark.django_db
def test_deleting_a_hand_twice_or_editing_a_deleted_hand_answers_with_a_message(director_client, four_table, director, english):
    hand = manual(four_table, [1, -1, 0, 0])
    url = reverse("entry:hand_delete", args=[hand.pk])
    director_client.post(url, {"reason": "double"})
    response = director_client.post(url, {"reason": "double"}, follow=True)
    assert response.status_code == 200 and "Hand 1 is deleted already." in response.content.decode()
    response = director_client.post(
        reverse("entry:hand_edit", args=[hand.pk]), {"dealer": "3", "quick": "d 2 +", "source": "line"}, follow=True
    )
    assert response.status_code == 200 and "Hand 1 is deleted already." in response.content.decode()
    assert director_client.get(reverse("entry:hand_edit", args=[hand.pk])).status_code == 302
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_saving_over_a_hand_deleted_meanwhile_is_refused_with_who_deleted_it(four_table, director, english):
    hand = manual(four_table, [1, -1, 0, 0])
    stale = Hand.objects.get(pk=hand.pk)
    delete_hand(hand, director, "wrong table")
    with pytest.raises(HandConflict) as conflict:
        save_hand(four_table, {"dealer": 3, "outcome": "manual", "scores": [2, -2, 0, 0]}, hand=stale, expected_version=1)
    assert conflict.value.messages == ["Hand 1 was deleted meanwhile by leiter. Nothing was changed."]
    assert not Hand.objects.exists()


# ------------------------------------------------------------------------------- verified rounds


@pytest.mark.django_db
def test_a_verified_round_is_locked_until_reopened_with_a_reason(director_client, four_table, director, english):
    hand = manual(four_table, [1, -1, 0, 0])
    rnd = four_table.round
    verify = reverse("entry:verify_round", args=[rnd.pk])
    director_client.post(verify)
    director_client.post(verify)  # sets, never toggles
    rnd.refresh_from_db()
    assert rnd.verified_at is not None
    assert ActionLog.objects.filter(action="verified").count() == 1

    with pytest.raises(RoundLocked):
        manual(four_table, [2, -2, 0, 0], number=2)
    with pytest.raises(RoundLocked):
        save_hand(four_table, {"dealer": 3, "outcome": "struck", "note": "x"}, hand=hand)
    with pytest.raises(RoundLocked):
        delete_hand(hand)
    with pytest.raises(RoundLocked):
        end_table(four_table)
    with pytest.raises(RawRowsRejected):
        save_raw_rows(four_table, "1 -1 0 0")
    response = director_client.get(reverse("entry:hand_edit", args=[hand.pk]), follow=True)
    assert "Round 1 is verified" in response.content.decode()
    sheet = director_client.get(four_table.get_absolute_url()).content.decode()
    assert 'id="hand-form"' not in sheet and "Reopen the round" in sheet
    restore = director_client.post(reverse("entry:hand_history", args=[hand.pk]), {"history_id": hand.history.last().history_id}, follow=True)
    assert "verified" in restore.content.decode()
    # The players' private link is read-only.
    private = reverse("scoring:private_sheet", args=[four_table.token])
    Client().post(private, {"confirm": "1", "name": "Anna"})
    Client().post(private, {"hand": hand.pk, "comment": "wrong"})
    assert not SheetConfirmation.objects.exists() and not HandFlag.objects.exists()
    assert "the sheet is final" in Client().get(private).content.decode()
    assert Hand.objects.get().scores == [1, -1, 0, 0]

    reopen = reverse("entry:reopen_round", args=[rnd.pk])
    director_client.post(reopen, {"reason": ""})
    rnd.refresh_from_db()
    assert rnd.verified_at is not None  # no reason, no reopening
    director_client.post(reopen, {"reason": "Hand 1 mistyped, says table 3"})
    rnd.refresh_from_db()
    assert rnd.verified_at is None
    log = ActionLog.objects.get(action="reopened")
    assert log.detail == "Hand 1 mistyped, says table 3" and log.user == director
    save_hand(four_table, {"dealer": 3, "outcome": "manual", "scores": [3, -3, 0, 0]}, hand=hand)
    assert Hand.objects.get().scores == [3, -3, 0, 0]


# ------------------------------------------------------------------------------------ big fields


@pytest.mark.django_db
def test_two_thousand_players_are_drawn_and_logged(make_tournament):
    """More than 150 tables: the draw log's detail lists every table size, on PostgreSQL too."""
    t = Tournament.objects.create(name="Großturnier", date=datetime.date(2026, 11, 23), ruleset="tiroler-tarockcup", edition="2019/20")
    players = Player.objects.bulk_create(Player(name=f"Spieler {i:04d}") for i in range(2000))
    t.registrations.bulk_create(t.registrations.model(tournament=t, player=p, start_number=i + 1) for i, p in enumerate(players))
    rnd = services.draw_next_round(t, seed=9)
    assert rnd.tables.count() == 500
    assert ActionLog.objects.get(tournament=t, action="drawn").detail == " ".join(["4"] * 500)


# ------------------------------------------------------------------------------------- the board


@pytest.mark.django_db
def test_the_board_shows_running_totals_active_players_and_reloads_itself(director_client, make_tournament, english):
    t = make_tournament(players=9)
    t.registrations.filter(start_number=9).update(withdrawn=True)
    first, _second = services.draw_next_round(t, seed=1).tables.order_by("number")
    manual(first, [5, -15, 5, 5])
    manual(first, [1, 1, -1, -1], number=2)
    url = reverse("live_director:board", args=[t.pk])
    page = director_client.get(url).content.decode()
    assert "8 active players" in page and "1 withdrawn" in page
    assert 'hx-trigger="every 20s"' in page
    names = [s.registration.player.name for s in first.seats.select_related("registration__player").order_by("position")]
    cell = director_client.get(url).context["board"].rounds[0].cells[0]
    assert cell.totals == list(zip(names, [6, -14, 4, 4]))
    partial = director_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="board"') and "<html" not in partial and names[1] in partial
