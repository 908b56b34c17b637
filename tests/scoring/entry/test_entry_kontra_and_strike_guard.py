"""Two guards of the entry form and the hand commands:

- a kontra on a bonus nobody chose is refused by name, never dropped without a word (the form's
  fields; the quick line cannot say it: its kontra mark hangs on a bonus);
- lifting a strike is the director's call as much as striking: a scorer can neither edit a struck
  hand into a played one nor restore a version of it that is not struck, and is not offered to.

Rules: ``../shared/rules/koenigrufen.md`` §1 (kontra ×2 on an announced bonus), §4 (a Dreier is
worth 5, one against three: the declarer ``3n``); ``../shared/rules/tarok-bled.md`` (Trojka by
forehand with 40 card points: 10 + 5 = 15).
"""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import Hand
from scoring.services import HandRejected, restore_hand, save_hand
from tournaments import services
from tournaments.models import TournamentRole
from tournaments.permissions import Level

LIFT_REFUSED = "is struck by the director: only a tournament director may change it or restore another version of it."


def scorer_client(table):
    user = get_user_model().objects.create_user("schreiberin", password="pw-123-geheim")
    TournamentRole.objects.create(tournament=table.round.tournament, user=user, level=Level.SCORER)
    c = Client()
    c.force_login(user)
    return c, user


def create(client, table, url_name="hand_create", **fields):
    data = {"outcome": "played", "source": "fields", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse(f"entry:{url_name}", args=[table.pk]), data)


@pytest.fixture
def bled_table(make_tournament):
    """Round 1 of a Bled tournament of three: one table of three, seat 0 deals hand 1."""
    t = make_tournament(3, rounds=4, hands_per_round=21, ruleset="tarok-bled", edition="2005")
    return services.draw_next_round(t, seed=5).tables.get()


# ------------------------------------------------------------------- a kontra without its bonus


@pytest.mark.django_db
def test_a_koenigrufen_kontra_on_a_pagat_nobody_chose_is_refused_by_name(director_client, four_table, english):
    dealer = four_table.dealer_of(1, 4)
    fields = {"dealer": dealer, "contract": "dreier", "declarer": 1, "won": 1, "bonus_kontra_pagat": 1}
    response = create(director_client, four_table, **fields)
    assert response.status_code == 422
    shown = response.content.decode()
    assert "A kontra on Pagat needs the bonus: choose it, or set its kontra to —." in shown
    assert not Hand.objects.exists()
    # the preview says so too, and does not show a row that would be saved
    preview = create(director_client, four_table, "hand_preview", **fields).content.decode()
    assert "A kontra on Pagat needs the bonus" in preview and "This hand scores" not in preview
    # with the bonus chosen it is saved, kontra and all; the Schrift ignores the kontra (§1):
    # Dreier 5 + announced Pagat 2 = 7 per opponent, 21 for the declarer.
    saved = create(director_client, four_table, **fields, bonus_pagat="d:a:1")
    assert saved.status_code == 302
    hand = Hand.objects.get()
    assert hand.record["bonuses"] == [{"bonus": "pagat", "team": "declarer", "announced": True, "made": True, "kontra": 1}]
    assert hand.scores == [-7, 21, -7, -7]


@pytest.mark.django_db
def test_a_bled_kontra_on_a_trula_nobody_chose_is_refused_by_name(director_client, bled_table, english):
    # Trojka by forehand (seat 1, dealer seat 0) with 40 card points, a kontra on the Trula but no Trula.
    fields = {"dealer": 0, "contract": "trojka", "declarer": 1, "declarer_points": 40, "bonus_kontra_trula": 1}
    response = create(director_client, bled_table, **fields)
    assert response.status_code == 422
    assert "A kontra on Trula needs the bonus: choose it, or set its kontra to —." in response.content.decode()
    assert not Hand.objects.exists()
    # its kontra set back to —: saved, 10 + 5 = 15 for the declarer
    saved = create(director_client, bled_table, **{**fields, "bonus_kontra_trula": 0})
    assert saved.status_code == 302
    assert Hand.objects.get().scores == [0, 15, 0]


# -------------------------------------------------------------------- lifting a strike


def struck_then_manual(table, director):
    """Hand 1 entered as a row, then struck by the director: its history holds both."""
    dealer = table.dealer_of(1, 4)
    hand = save_hand(table, {"dealer": dealer, "outcome": "manual", "scores": [1, -1, 0, 0]}, director)
    return save_hand(table, {"dealer": dealer, "outcome": "struck", "note": "falsch gegeben"}, director, hand=hand, reason="falsch gegeben")


@pytest.mark.django_db
def test_a_scorer_may_not_edit_a_struck_hand_into_a_played_one(director, director_client, four_table, english):
    hand = struck_then_manual(four_table, director)
    scorer, _user = scorer_client(four_table)
    edit = reverse("entry:hand_edit", args=[hand.pk])
    # not offered: the sheet says it is struck by the director instead of "edit"; the edit page sends him back
    sheet = scorer.get(reverse("scoring:sheet", args=[four_table.pk])).content.decode()
    assert edit not in sheet and "struck by the director" in sheet
    refused_page = scorer.get(edit, follow=True)
    assert LIFT_REFUSED in refused_page.content.decode() and "Edit hand 1" not in refused_page.content.decode()
    # posted all the same, from the line or the fields: refused by name, nothing changed
    for data in ({"dealer": "0", "quick": "d 2 +", "source": "line", "version": "2"},
                 {"dealer": "0", "outcome": "manual", "score_0": "2", "score_1": "-2", "score_2": "0", "score_3": "0",
                  "source": "fields", "version": "2"}):
        response = scorer.post(edit, data)
        assert response.status_code == 422, data
        assert f"Hand 1 {LIFT_REFUSED}" in response.content.decode(), data
        preview = scorer.post(reverse("entry:hand_preview", args=[four_table.pk]) + f"?edit={hand.pk}", data)
        assert LIFT_REFUSED in preview.content.decode() and "This hand scores" not in preview.content.decode(), data
    hand.refresh_from_db()
    assert (hand.record["outcome"], hand.version) == ("struck", 2)
    # the service refuses it too, whoever calls it
    with pytest.raises(HandRejected, match="only a tournament director may change it"):
        save_hand(four_table, {"dealer": hand.record["dealer"], "outcome": "manual", "scores": [2, -2, 0, 0]}, hand=hand, may_strike=False)
    # the director may
    lifted = director_client.post(edit, {"dealer": "0", "outcome": "manual", "score_0": "2", "score_1": "-2", "score_2": "0",
                                         "score_3": "0", "source": "fields", "version": "2"})
    assert lifted.status_code == 302
    hand.refresh_from_db()
    assert (hand.record["outcome"], hand.scores) == ("manual", [2, -2, 0, 0])


@pytest.mark.django_db
def test_a_scorer_may_not_restore_the_unstruck_version_of_a_struck_hand(director, director_client, four_table, english):
    hand = struck_then_manual(four_table, director)
    scorer, user = scorer_client(four_table)
    history = reverse("entry:hand_history", args=[hand.pk])
    shown = scorer.get(history).content.decode()
    assert "restore this version" not in shown and LIFT_REFUSED in shown
    unstruck = hand.history.get(record__outcome="manual")
    response = scorer.post(history, {"history_id": unstruck.history_id}, follow=True)
    assert LIFT_REFUSED in response.content.decode()
    hand.refresh_from_db()
    assert (hand.record["outcome"], hand.version) == ("struck", 2)
    with pytest.raises(HandRejected, match="only a tournament director may change it"):
        restore_hand(hand, unstruck.history_id, user, may_strike=False)
    # the director is offered it and may
    assert "restore this version" in director_client.get(history).content.decode()
    restored = director_client.post(history, {"history_id": unstruck.history_id})
    assert restored.status_code == 302
    hand.refresh_from_db()
    assert (hand.record["outcome"], hand.scores) == ("manual", [1, -1, 0, 0])
