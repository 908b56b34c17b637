"""Tie-break texts while the tournament goes on (tournament-formats.md §1, §3): they say what is
known so far — a round still playing is "still playing", a round not yet played is "not yet
played", a drawn round a player has no seat in (registered late) is "not played" — instead of
"second-best round: 0 to –"."""

import pytest
from django.test import Client

from scoring.ranking import Entry, rank
from scoring.services import end_table, save_hand
from scoring.standings import compute_standings
from tournaments import services
from tournaments.models import Player, Registration


@pytest.mark.usefixtures("english")
def test_a_round_still_playing_and_one_not_yet_played_say_so():
    rows = rank(
        [
            Entry("a", "Anna", rounds=[12, 0], playing=[False, True], start_number=1),
            Entry("b", "Berta", rounds=[12, None], playing=[False, False], start_number=2),
        ],
        so_far=True,
    )
    assert [r.entry.name for r in rows] == ["Anna", "Berta"]
    assert rows[1].tiebreak == "second-best round so far: 0 (still playing) to not yet played"


@pytest.mark.usefixtures("english")
def test_finished_rounds_so_far_read_as_numbers():
    rows = rank(
        [Entry("a", "Anna", rounds=[12, 9, 0], start_number=1), Entry("b", "Berta", rounds=[12, 6, 3], start_number=2)],
        so_far=True,
    )
    assert rows[1].tiebreak == "second-best round so far: 9 to 6"


@pytest.mark.usefixtures("english")
def test_the_final_standings_say_not_played_not_a_dash():
    rows = rank([Entry("a", "Anna", rounds=[10, 0]), Entry("b", "Berta", rounds=[10, None], withdrawn=True)])
    assert rows[1].tiebreak == "second-best round: 0 to not played"
    assert "–" not in rows[1].tiebreak


@pytest.mark.usefixtures("english")
def test_a_withdrawn_player_has_not_played_even_while_the_tournament_goes_on():
    rows = rank(
        [Entry("a", "Anna", rounds=[10, 0]), Entry("b", "Berta", rounds=[10, None], withdrawn=True)], so_far=True
    )
    assert rows[1].tiebreak == "second-best round so far: 0 to not played"


@pytest.mark.django_db
def test_provisional_standings_say_what_is_known_so_far(make_tournament, english):
    """Round 1 all level on 0; in round 2 table 1 has played a hand of 0s and table 2 none yet:
    the first player of table 2 is below the last of table 1 by the second-best round, which is
    0 at a table still playing against a round not yet played."""
    t = make_tournament(players=8, rounds=3)
    for table in services.draw_next_round(t, seed=1).tables.all():
        save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]})
        end_table(table)
    first, second = services.draw_next_round(t, seed=2).tables.order_by("number")
    save_hand(first, {"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]})
    playing = set(first.seats.values_list("registration_id", flat=True))

    standings = compute_standings(t)
    assert not standings.final and standings.provisional
    keys = [r.entry.key for r in standings.rows]
    assert set(keys[:4]) == playing  # 0 (still playing) is better than a round not yet played
    assert standings.rows[4].tiebreak == "second-best round so far: 0 (still playing) to not yet played"
    assert all(r.tiebreak == "level" for r in standings.rows[1:4] + standings.rows[5:])
    page = Client().get(f"/t/{t.pk}/standings/").content.decode()
    assert "second-best round so far: 0 (still playing) to not yet played" in page
    assert "0 to –" not in page



@pytest.mark.usefixtures("english")
def test_a_round_drawn_without_a_player_reads_not_played_while_the_tournament_goes_on():
    # Berta registered late: round 1 was drawn and played without her, more rounds are to come.
    # Her round 1 is over ("not played", not "not yet played").
    rows = rank(
        [Entry("a", "Anna", rounds=[0], start_number=1), Entry("b", "Berta", rounds=[None], missed=[True], start_number=2)],
        so_far=True,
    )
    assert rows[1].tiebreak == "best round so far: 0 to not played"
    # With round 2 drawn and her table not started, her best round is the one still to come.
    rows = rank(
        [
            Entry("a", "Anna", rounds=[0, None], start_number=1),
            Entry("b", "Berta", rounds=[None, None], missed=[True, False], start_number=2),
        ],
        so_far=True,
    )
    assert rows[1].tiebreak == "best round so far: 0 to not yet played"
    # Once she has a score in round 2, the round she missed is what the second-best round names.
    rows = rank(
        [
            Entry("a", "Anna", rounds=[0, 0], start_number=1),
            Entry("b", "Berta", rounds=[None, 0], missed=[True, False], start_number=2),
        ],
        so_far=True,
    )
    assert rows[1].tiebreak == "second-best round so far: 0 to not played"


@pytest.mark.django_db
def test_a_late_registrant_has_not_played_the_rounds_drawn_before_he_came(make_tournament, english):
    """Round 1 of 3 played by eight players, all on 0; a ninth registers after it: his round 1
    reads "not played" (he never will), not "not yet played"."""
    t = make_tournament(players=8, rounds=3)
    for table in services.draw_next_round(t, seed=1).tables.all():
        save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]})
        end_table(table)
    late = Registration.objects.create(tournament=t, player=Player.objects.create(name="Zita Spät", club="Imst"), start_number=9)

    standings = compute_standings(t)
    assert not standings.final
    assert standings.rows[-1].entry.key == late.pk
    assert standings.rows[-1].tiebreak == "best round so far: 0 to not played"
