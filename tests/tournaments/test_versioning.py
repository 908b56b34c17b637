"""Every change of what a tournament's pages show bumps its data version in the same
transaction; a refused change leaves it as it was."""

import pytest
from django.urls import reverse

from scoring.models import HandFlag
from scoring.services import (
    HandRejected,
    confirm_sheet,
    delete_hand,
    drop_player,
    end_table,
    flag_hand,
    reopen_round,
    save_hand,
    verify_round,
)
from tournaments import services
from tournaments.models import Player, Tournament
from tournaments.registration import register as registration


def version(t) -> int:
    return Tournament.objects.values_list("data_version", flat=True).get(pk=t.pk)


def layout(t) -> int:
    return Tournament.objects.values_list("layout_version", flat=True).get(pk=t.pk)


HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.mark.django_db
def test_every_command_of_the_day_bumps_the_version(make_tournament):
    t = make_tournament(players=5)
    steps = []

    def step(name, command, hand=False):
        before, before_layout = version(t), layout(t)
        result = command()
        assert version(t) > before, name
        # Only a change of hands leaves the layout (seating, rules pages) as it was.
        assert (layout(t) == before_layout) if hand else (layout(t) > before_layout), name
        steps.append(name)
        return result

    anna = Player.objects.create(name="Anna Neu")
    step("register", lambda: services.register(t, anna))
    reg = t.registrations.get(player=anna)
    step("remove registration", lambda: registration.remove_registration(reg))
    rnd = step("draw", lambda: services.draw_next_round(t, seed=3))
    table = rnd.tables.get()
    first, second = list(t.registrations.order_by("start_number")[:2])
    step("swap", lambda: services.swap_players(rnd, first, second))
    rnd = step("redraw", lambda: services.redraw_last_round(t, rnd.number, seed=rnd.seed))
    table = rnd.tables.get()
    hand = step("save hand", lambda: save_hand(table, HAND), hand=True)
    step("edit hand", lambda: save_hand(table, {**HAND, "won": False}, hand=hand), hand=True)
    step("flag", lambda: flag_hand(hand, "Partner?"))
    step("confirm", lambda: confirm_sheet(table, "Anna"))
    step("delete hand", lambda: delete_hand(hand, reason="falsch"), hand=True)
    save_hand(table, HAND)
    step("player leaves", lambda: drop_player(table.seats.get(position=4)))
    step("end table", lambda: end_table(table))
    step("verify", lambda: verify_round(rnd))
    step("reopen", lambda: reopen_round(rnd, "Tippfehler"))
    t.refresh_from_db()
    t.venue = "Gasthof Krone"
    step("settings", lambda: t.save())
    assert len(steps) == 15


@pytest.mark.django_db
def test_a_refused_change_leaves_the_version(four_table):
    t = four_table.round.tournament
    verify_round(four_table.round)
    before = version(t)
    with pytest.raises(HandRejected):
        save_hand(four_table, HAND)
    assert version(t) == before


@pytest.mark.django_db
def test_saving_a_tournament_object_never_writes_back_an_old_version(make_tournament):
    t = make_tournament(players=4)
    stale = Tournament.objects.get(pk=t.pk)  # a form loaded this before the hands below
    rnd = services.draw_next_round(t, seed=1)
    save_hand(rnd.tables.get(), HAND)
    seen = version(t)
    stale.name = "Umbenannt"
    stale.save()
    assert version(t) == seen + 1  # counted on, not set back to what the form had loaded
    assert stale.data_version == seen + 1  # read afresh when asked


@pytest.mark.django_db
def test_director_pages_that_change_data_bump_the_version(director_client, four_table):
    t = four_table.round.tournament
    reg = t.registrations.first()
    before = version(t)
    director_client.post(reverse("tournaments_director:withdraw", args=[t.pk, reg.pk]), {"withdrawn": "1"})
    assert version(t) == before + 1
    hand = save_hand(four_table, HAND)
    flag = HandFlag.objects.create(hand=hand, comment="?")
    before = version(t)
    director_client.post(reverse("entry:resolve_flag", args=[flag.pk]))
    assert version(t) == before + 1
    player = reg.player
    before = version(t)
    director_client.post(reverse("tournaments_director:player_edit", args=[player.pk]), {"name": "Neuer Name", "club": ""})
    assert version(t) == before + 1  # his name is on the standings
