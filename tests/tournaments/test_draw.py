"""Tests of the seating draw (``tournaments/draw.py``; ``tournament-formats.md`` §1 and §2)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    RoundDraw,
    SeatingImpossible,
    draw_round,
    draw_tables,
    plan_table_sizes,
    seat_by_cards,
)

KOENIGRUFEN = dict(sizes=(4, 5), preferred=4, max_other=None)
CEGO = dict(sizes=(3, 4), preferred=3, max_other=2)
KOENIGRUFEN_CARDS = ["Tarock", "Herz", "Karo", "Pik", "Kreuz"]


def met_pairs(tables):
    """Every pair (as a frozenset) that sat at one of ``tables``."""
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


def repeat_count(tables, past):
    return len(met_pairs(tables) & met_pairs(past))


def play_rounds(players, sizes, rounds, seed):
    """Draw ``rounds`` rounds in turn, each avoiding the earlier ones; returns the draws."""
    past, draws = [], []
    for r in range(rounds):
        draw = draw_tables(players, sizes, seed * 1000 + r, past)
        draws.append(draw)
        past.extend(draw.tables)
    return draws


def assert_seated_once(draw: RoundDraw, players, sizes):
    assert [len(t) for t in draw.tables] == list(sizes)
    seated = [p for t in draw.tables for p in t]
    assert Counter(seated) == Counter(players)


# --------------------------------------------------------------------------------------------------
# §1 Table sizes
# --------------------------------------------------------------------------------------------------


def max_preferred(n, sizes, preferred, max_other):
    """Brute force: the most preferred tables of any valid split of n, or None."""
    (other,) = [s for s in sizes if s != preferred]
    best = None
    for b in range(n // other + 1):
        if max_other is not None and b > max_other:
            break
        rest = n - b * other
        if rest % preferred == 0:
            a = rest // preferred
            best = a if best is None else max(best, a)
    return best


@pytest.mark.parametrize("rules", [KOENIGRUFEN, CEGO], ids=["koenigrufen", "cego"])
@pytest.mark.parametrize("n", range(4, 61))
def test_plan_seats_everyone_with_most_preferred_tables(n, rules):
    best = max_preferred(n, **rules)
    if best is None:
        with pytest.raises(SeatingImpossible):
            plan_table_sizes(n, **rules)
        return
    plan = plan_table_sizes(n, **rules)
    assert sum(plan) == n
    assert set(plan) <= set(rules["sizes"])
    assert plan == sorted(plan, reverse=True)
    assert plan.count(rules["preferred"]) == best
    if rules["max_other"] is not None:
        assert len(plan) - plan.count(rules["preferred"]) <= rules["max_other"]


def test_plan_examples():
    assert plan_table_sizes(22) == [5, 5, 4, 4, 4]
    assert plan_table_sizes(20) == [4, 4, 4, 4, 4]
    assert plan_table_sizes(5) == [5]
    assert plan_table_sizes(13) == [5, 4, 4]
    assert plan_table_sizes(4, **CEGO) == [4]
    assert plan_table_sizes(8, **CEGO) == [4, 4]
    assert plan_table_sizes(10, **CEGO) == [4, 3, 3]
    assert plan_table_sizes(12, **CEGO) == [3, 3, 3, 3]


def test_plan_large_count():
    plan = plan_table_sizes(1001)
    assert plan == [5] + [4] * 249


@pytest.mark.parametrize(
    "n, rules, nearest",
    [
        (0, KOENIGRUFEN, (None, 4)),
        (1, KOENIGRUFEN, (None, 4)),
        (2, KOENIGRUFEN, (None, 4)),
        (3, KOENIGRUFEN, (None, 4)),
        (6, KOENIGRUFEN, (5, 8)),
        (7, KOENIGRUFEN, (5, 8)),
        (11, KOENIGRUFEN, (10, 12)),
        (0, CEGO, (None, 3)),
        (1, CEGO, (None, 3)),
        (2, CEGO, (None, 3)),
        (5, CEGO, (4, 6)),
    ],
)
def test_plan_refuses_unseatable_counts(n, rules, nearest):
    with pytest.raises(SeatingImpossible) as info:
        plan_table_sizes(n, **rules)
    exc = info.value
    assert isinstance(exc, ValueError)
    assert exc.n == n
    assert exc.nearest == nearest
    below, above = nearest
    assert exc.problem.params["above"] == above
    assert f"{above}." in str(exc.problem)
    if below is None:
        assert "below" not in exc.problem.params
    else:
        assert exc.problem.params["below"] == below
        assert f"{below} or {above}" in str(exc.problem)
    assert str(exc) == str(exc.problem)
    assert exc.problem.msgid.startswith("%(n)d players cannot be seated")


def test_plan_rejects_bad_arguments():
    with pytest.raises(ValueError):
        plan_table_sizes(-1)
    with pytest.raises(ValueError):
        plan_table_sizes(8, sizes=(4, 5), preferred=3)
    with pytest.raises(TypeError):
        plan_table_sizes(8.0)


@given(n=st.integers(0, 300), rules=st.sampled_from([KOENIGRUFEN, CEGO]))
def test_plan_property(n, rules):
    try:
        plan = plan_table_sizes(n, **rules)
    except SeatingImpossible as exc:
        below, above = exc.nearest
        assert n == 0 or max_preferred(n, **rules) is None
        assert sum(plan_table_sizes(above, **rules)) == above
        if below is not None:
            assert sum(plan_table_sizes(below, **rules)) == below
        return
    assert sum(plan) == n
    assert plan.count(rules["preferred"]) == max_preferred(n, **rules)


# --------------------------------------------------------------------------------------------------
# §2.1 Tables
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 5, 8, 9, 13, 22, 37, 100])
def test_draw_seats_every_player_once(n):
    players = [f"P{i}" for i in range(n)]
    sizes = plan_table_sizes(n)
    for draw in play_rounds(players, sizes, 3, seed=n):
        assert_seated_once(draw, players, sizes)


def test_draw_is_reproducible_and_seed_dependent():
    players = list(range(20))
    sizes = plan_table_sizes(20)
    past = [set(range(i, i + 4)) for i in range(0, 20, 4)]
    first = draw_tables(players, sizes, 42, past)
    assert draw_tables(players, sizes, 42, past) == first
    assert first.seed == 42
    draws = {draw_tables(players, sizes, seed, past).tables for seed in range(10)}
    assert len(draws) >= 8


def test_draw_does_not_depend_on_iteration_order_of_past():
    players = [f"P{i}" for i in range(22)]
    sizes = plan_table_sizes(22)
    rounds = play_rounds(players, sizes, 2, seed=7)
    past = [t for d in rounds for t in d.tables]
    shuffled = [list(t) for t in reversed(past)]
    for t in shuffled:
        random.Random(len(t)).shuffle(t)
    as_sets = [frozenset(t) for t in past]
    # Pairs repeated across earlier tables, players no longer present: neither changes the draw.
    with_noise = as_sets + [past[0][:2], ("gone", past[1][0])]
    expected = draw_tables(players, sizes, 99, past)
    assert draw_tables(players, sizes, 99, shuffled) == expected
    assert draw_tables(players, sizes, 99, iter(as_sets)) == expected
    assert draw_tables(players, sizes, 99, with_noise) == expected


def test_twenty_two_players_meet_nobody_twice_over_three_rounds():
    players = list(range(22))
    sizes = plan_table_sizes(22)
    for seed in range(20):
        draws = play_rounds(players, sizes, 3, seed)
        assert [d.repeats for d in draws] == [(), (), ()]
        tables = [t for d in draws for t in d.tables]
        assert sum(len(list(itertools.combinations(t, 2))) for t in tables) == len(met_pairs(tables))


def test_eight_players_two_rounds_reach_the_unavoidable_four_repeats():
    # Each round-2 table of 4 takes x players from round-1 table A and 4 - x from B, so it repeats
    # C(x,2) + C(4-x,2) >= 2 pairs (x = 2); the other table likewise: at least 4 repeats, and 4 works.
    past = [{0, 1, 2, 3}, {4, 5, 6, 7}]
    brute_force = min(
        repeat_count([set(a), set(range(8)) - set(a)], past) for a in itertools.combinations(range(8), 4)
    )
    assert brute_force == 4
    for seed in range(20):
        draw = draw_tables(list(range(8)), [4, 4], seed, past)
        assert len(draw.repeats) == 4
        assert all(len({p // 4 for p in table}) == 2 for table in draw.tables)


def test_repeats_lists_exactly_the_pairs_meeting_again():
    players = list(range(12))
    past = [{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}]
    draw = draw_tables(players, [4, 4, 4], 3, past)
    # Three 4-tables from three groups: every table has two players of one group -> 3 repeats.
    assert len(draw.repeats) == 3
    assert {frozenset(p) for p in draw.repeats} == met_pairs(draw.tables) & met_pairs(past)
    for p, q in draw.repeats:
        assert players.index(p) < players.index(q)


def test_draw_without_past_has_no_repeats_and_one_table_works():
    draw = draw_tables(["a", "b", "c", "d", "e"], [5], 1)
    assert sorted(draw.tables[0]) == ["a", "b", "c", "d", "e"]
    assert draw.repeats == ()
    again = draw_tables(["a", "b", "c", "d", "e"], [5], 1, [{"a", "b"}])
    assert again.repeats == (("a", "b"),)


def test_draw_rejects_bad_input():
    with pytest.raises(ValueError):
        draw_tables([1, 2, 3, 4], [5], 0)
    with pytest.raises(ValueError):
        draw_tables([1, 1, 2, 3], [4], 0)
    with pytest.raises(ValueError):
        draw_tables([1, 2, 3, 4], [4, 0], 0)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(3, 70),
    rules=st.sampled_from([KOENIGRUFEN, CEGO]),
    seed=st.integers(0, 2**32),
    past_seed=st.integers(0, 2**16),
    past_rounds=st.integers(0, 3),
)
def test_draw_property_every_player_seated_once(n, rules, seed, past_seed, past_rounds):
    try:
        sizes = plan_table_sizes(n, **rules)
    except SeatingImpossible:
        assume(False)
    players = [("player", i) for i in range(n)]
    rng = random.Random(past_seed)
    past = []
    for _ in range(past_rounds):
        order = players[:]
        rng.shuffle(order)
        start = 0
        for size in sizes:
            past.append(order[start:start + size])
            start += size
    draw = draw_tables(players, sizes, seed, past)
    assert_seated_once(draw, players, sizes)
    assert {frozenset(p) for p in draw.repeats} == met_pairs(draw.tables) & met_pairs(past)
    assert len(draw.repeats) == repeat_count(draw.tables, past)


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.sampled_from([[4, 4], [5, 4], [3, 3, 3], [4, 3, 3]]),
    seed=st.integers(0, 2**32),
    past_seed=st.integers(0, 2**16),
    past_tables=st.integers(1, 8),
)
def test_draw_reaches_brute_force_optimum_on_small_cases(sizes, seed, past_seed, past_tables):
    n = sum(sizes)
    players = list(range(n))
    rng = random.Random(past_seed)
    past = [rng.sample(players, rng.randint(2, 4)) for _ in range(past_tables)]

    def best(rest, sizes):
        if not sizes:
            return 0
        return min(
            repeat_count([table], past) + best(rest - set(table), sizes[1:])
            for table in itertools.combinations(sorted(rest), sizes[0])
        )

    assert len(draw_tables(players, sizes, seed, past).repeats) == best(set(players), sizes)


# --------------------------------------------------------------------------------------------------
# §2.2 Seats
# --------------------------------------------------------------------------------------------------


def test_seat_by_cards_seats_everyone_once_in_card_order():
    players = ["Anna", "Bert", "Cora", "Dino"]
    seating = seat_by_cards(players, KOENIGRUFEN_CARDS, random.Random(1))
    assert [card for _, card in seating] == KOENIGRUFEN_CARDS[:4]
    assert sorted(p for p, _ in seating) == players
    assert seat_by_cards(players, KOENIGRUFEN_CARDS, random.Random(1)) == seating
    outcomes = {tuple(seat_by_cards(players, KOENIGRUFEN_CARDS, random.Random(s))) for s in range(50)}
    assert len(outcomes) > 10
    assert {seating[0][0] for seating in outcomes} == set(players)  # anyone may draw the Tarock


def test_seat_by_cards_five_table_and_errors():
    players = list("abcde")
    seating = seat_by_cards(players, KOENIGRUFEN_CARDS, random.Random(3))
    assert [card for _, card in seating] == KOENIGRUFEN_CARDS
    assert sorted(p for p, _ in seating) == players
    with pytest.raises(ValueError):
        seat_by_cards(list("abcdef"), KOENIGRUFEN_CARDS, random.Random(3))
    with pytest.raises(ValueError):
        seat_by_cards(list("aabc"), KOENIGRUFEN_CARDS, random.Random(3))


@settings(max_examples=50)
@given(players=st.lists(st.integers(), min_size=0, max_size=5, unique=True), seed=st.integers())
def test_seat_by_cards_property(players, seed):
    seating = seat_by_cards(players, KOENIGRUFEN_CARDS, random.Random(seed))
    assert Counter(p for p, _ in seating) == Counter(players)
    assert [card for _, card in seating] == KOENIGRUFEN_CARDS[: len(players)]


# --------------------------------------------------------------------------------------------------
# The whole round
# --------------------------------------------------------------------------------------------------


def test_draw_round_is_reproducible_from_the_seed():
    players = [f"P{i}" for i in range(13)]

    def cards_for_size(size):
        return KOENIGRUFEN_CARDS[:size]

    draw, seatings = draw_round(players, (4, 5), 4, None, 2024, [], cards_for_size)
    assert [len(t) for t in draw.tables] == [5, 4, 4]
    assert draw_round(players, (4, 5), 4, None, 2024, [], cards_for_size) == (draw, seatings)
    for table, seating in zip(draw.tables, seatings):
        assert sorted(p for p, _ in seating) == sorted(table)
        assert [c for _, c in seating] == KOENIGRUFEN_CARDS[: len(table)]
    with pytest.raises(SeatingImpossible):
        draw_round(players[:11], (4, 5), 4, None, 1, [], cards_for_size)
