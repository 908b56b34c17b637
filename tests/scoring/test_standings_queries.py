"""The standings read a field of any size in the same few queries, build the ruleset once per
table size rather than once per table, and translate each phrase of the tie-break texts once per
ranking rather than once per row."""

from unittest import mock

import pytest
from django.utils.translation import gettext

import variants
from scoring import ranking
from scoring.ranking import Entry, rank
from scoring.services import save_hand
from scoring.standings import compute_standings, table_states
from tournaments import services
from tournaments.models import Tournament

BLED = {"ruleset": "tarok-bled", "edition": "2005", "rounds": 4, "hands_per_round": 21}


def play_first_hand(rnd):
    """Every table of ``rnd`` plays one hand, all scores 0 but the first seat's 10."""
    for table in rnd.tables.all():
        size = table.seats.count()
        save_hand(table, {"dealer": table.dealer_of(1, size), "outcome": "manual", "scores": [10] + [-10] + [0] * (size - 2)})


def two_rounds(make_tournament, players, **fields):
    """A tournament of ``players`` with round 1 played one hand a table and round 2 drawn."""
    t = make_tournament(players=players, **fields)
    play_first_hand(services.draw_next_round(t, seed=1))
    services.draw_next_round(t, seed=2)
    return Tournament.objects.get(pk=t.pk)  # as a page loads it: nothing kept on the object


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 40])
def test_the_standings_of_any_field_take_three_queries(make_tournament, django_assert_num_queries, players):
    # The rounds with their tables and hand counts, the seats, the registrations.
    t = two_rounds(make_tournament, players)
    with django_assert_num_queries(3):
        standings = compute_standings(t)
    assert len(standings.rows) == players
    assert standings.rounds == [1, 2]
    assert sum(row.entry.rounds[0] for row in standings.rows) == 0  # 10 and -10 at every table
    assert all(row.entry.rounds[1] is None for row in standings.rows)  # round 2: no hand yet


@pytest.mark.django_db
def test_the_standings_after_a_round_take_three_queries_too(make_tournament, django_assert_num_queries):
    t = two_rounds(make_tournament, 12)
    with django_assert_num_queries(3):
        standings = compute_standings(t, after=1)
    assert standings.rounds == [1]
    assert standings.after == 1


@pytest.mark.django_db
def test_bled_table_points_come_from_the_same_three_queries(make_tournament, django_assert_num_queries):
    t = two_rounds(make_tournament, 9, **BLED)  # three tables of 3
    with django_assert_num_queries(3):
        standings = compute_standings(t)
    # At each table: 10 first (2 points), 0 second (1), -10 third (½); provisional, still playing.
    assert sorted(row.entry.victory[0] for row in standings.rows) == [0.5] * 3 + [1] * 3 + [2] * 3
    assert all(row.entry.provisional == [True, False] for row in standings.rows)


@pytest.mark.django_db
def test_table_states_take_one_query(make_tournament, django_assert_num_queries):
    t = two_rounds(make_tournament, 16)
    with django_assert_num_queries(1):
        states = table_states(t)
    assert len(states) == 8
    assert sorted((s.round_number, s.played, s.finished) for s in states.values()) == [(1, True, False)] * 4 + [(2, False, False)] * 4


@pytest.mark.django_db
def test_the_ruleset_is_built_once_for_the_standings_and_once_per_table_size(make_tournament):
    t = two_rounds(make_tournament, 16)  # eight tables of 4
    with mock.patch("variants.get_ruleset", wraps=variants.get_ruleset) as built:
        compute_standings(t)
    assert built.call_count == 2  # the ranking's ruleset; the hand cap of a table of 4


def test_each_phrase_of_the_tie_break_texts_is_translated_once_per_ranking(english):
    # 30 players level on 10 points, each with another best round: 29 texts "best round: x to y".
    entries = [Entry(i, f"Spieler {i}", rounds=[10 + i, -i], start_number=i) for i in range(30)]
    with mock.patch.object(ranking, "_", wraps=gettext) as translated:
        rows = rank(entries)
    assert rows[1].tiebreak == "best round: 39 to 38"
    assert sum(1 for row in rows if row.tiebreak) == 29
    assert translated.call_count == 2  # "best round", "%(criterion)s: %(above)s to %(below)s"
