"""Tests of the seating draw (the package ``tournaments/draw/``; ``tournament-formats.md`` §1 and §2)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    DrawMode,
    RoundDraw,
    SeatingImpossible,
    draw_all_rounds,
    draw_random_tables,
    draw_round,
    draw_tables,
    draw_tables_by_standings,
    draw_with_mode,
    plan_table_sizes,
    round_seed,
    seat_by_cards,
)
from tournaments.draw import joint as draw_module
from tournaments.draw import search as search_module

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


# --------------------------------------------------------------------------------------------------
# Draw modes, report data, several rounds at once
# --------------------------------------------------------------------------------------------------


def cards_for_size(size):
    return KOENIGRUFEN_CARDS[:size]


def random_round(players, sizes, rng):
    """One round of random tables (lists), for building a ``past``."""
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    return tables


def met_rounds(pair, past):
    """The rounds of ``past`` (a mapping) in which the pair shared a table, ascending."""
    p, q = pair
    return tuple(sorted(rnd for rnd, tables in past.items() for t in tables if p in t and q in t))


def schedule_total(draws, past_tables=()):
    """Repeats of a list of RoundDraws computed from scratch: pairs meeting again, in round order."""
    seen = met_pairs(past_tables)
    total = 0
    for draw in draws:
        pairs = met_pairs(draw.tables)
        total += len(pairs & seen)
        seen |= pairs
    return total


@pytest.fixture
def quick_joint_search(monkeypatch):
    """Fewer attempts for tests about seating, not optimality."""
    monkeypatch.setattr(draw_module, "_JOINT_PATIENCE", 2)


MODES = [DrawMode.AVOID_REPEATS, DrawMode.RANDOM, DrawMode.ALL_AT_START, DrawMode.BY_STANDINGS]


@pytest.mark.parametrize("rules", [KOENIGRUFEN, CEGO], ids=["koenigrufen", "cego"])
@pytest.mark.parametrize("n", range(4, 61))
def test_every_mode_seats_every_player_once(n, rules, quick_joint_search):
    try:
        sizes = plan_table_sizes(n, **rules)
    except SeatingImpossible:
        return
    players = [f"P{i}" for i in range(n)]
    past = {1: random_round(players, sizes, random.Random(n))}
    for mode in MODES:
        rounds = 1 if mode == DrawMode.BY_STANDINGS else 2
        result = draw_with_mode(mode, players, **rules, seed=n, past=past, cards_for_size=cards_for_size,
                                rounds=rounds)
        assert len(result) == rounds
        for draw, seatings in result:
            assert_seated_once(draw, players, sizes)
            assert draw.sizes == tuple(sizes)
            assert draw.mode == mode
            assert [sorted(p for p, _ in s) for s in seatings] == [sorted(t) for t in draw.tables]
            assert [[c for _, c in s] for s in seatings] == [KOENIGRUFEN_CARDS[: len(t)] for t in draw.tables]


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_is_reproducible_from_the_seed(mode):
    players = [f"P{i}" for i in range(22)]
    sizes = plan_table_sizes(22)
    rng = random.Random(1)
    past = {1: random_round(players, sizes, rng), 2: random_round(players, sizes, rng)}
    rounds = 1 if mode == DrawMode.BY_STANDINGS else 2

    def draw(seed, past=past):
        return draw_with_mode(mode, players, (4, 5), 4, None, seed, past, cards_for_size, rounds=rounds)

    first = draw(77)
    assert draw(77) == first
    assert [d.seed for d, _ in first] == [round_seed(77, k) for k in range(rounds)]
    # The iteration order of past and its tables does not matter.
    shuffled = {rnd: [list(reversed(t)) for t in reversed(tables)] for rnd, tables in reversed(past.items())}
    assert draw(77, shuffled) == first
    # Another seed gives other tables (other seats at least, by standings).
    others = {tuple((d.tables, tuple(map(tuple, s))) for d, s in draw(seed)) for seed in range(6)}
    assert len(others) == 6
    if mode != DrawMode.BY_STANDINGS:
        assert len({tuple(d.tables for d, _ in draw(seed)) for seed in range(6)}) == 6


def test_draw_round_and_one_round_of_draw_with_mode_agree():
    players = list(range(30))
    past = [t for d in play_rounds(players, plan_table_sizes(30), 2, seed=3) for t in d.tables]
    for mode in (DrawMode.AVOID_REPEATS, DrawMode.RANDOM, DrawMode.BY_STANDINGS, DrawMode.ALL_AT_START):
        assert [draw_round(players, (4, 5), 4, None, 9, past, cards_for_size, mode=mode)] == draw_with_mode(
            mode, players, (4, 5), 4, None, 9, past, cards_for_size
        )
    # The default mode is the draw of draw_tables; the mode may be given as a plain string.
    draw, _ = draw_round(players, (4, 5), 4, None, 9, past, cards_for_size)
    assert draw == draw_tables(players, plan_table_sizes(30), 9, past)
    assert draw_round(players, (4, 5), 4, None, 9, past, cards_for_size, mode="avoid_repeats")[0] == draw
    with pytest.raises(ValueError):
        draw_with_mode("bogus", players, (4, 5), 4, None, 9, past, cards_for_size)
    with pytest.raises(ValueError):
        draw_with_mode(DrawMode.AVOID_REPEATS, players, (4, 5), 4, None, 9, past, cards_for_size, rounds=0)
    with pytest.raises(ValueError):
        draw_with_mode(DrawMode.BY_STANDINGS, players, (4, 5), 4, None, 9, past, cards_for_size, rounds=2)
    with pytest.raises(SeatingImpossible):
        draw_with_mode(DrawMode.ALL_AT_START, players[:11], (4, 5), 4, None, 9, past, cards_for_size, rounds=3)


def test_draw_mode_values():
    assert [m.value for m in DrawMode] == ["avoid_repeats", "random", "all_at_start", "by_standings"]
    assert DrawMode("all_at_start") is DrawMode.ALL_AT_START
    assert DrawMode.RANDOM == "random"


def test_repeat_rounds_name_the_rounds_of_earlier_meetings():
    players = list(range(8))
    past = {1: [[0, 1, 2, 3], [4, 5, 6, 7]], 2: [[0, 1, 4, 5], [2, 3, 6, 7]], 3: [[0, 1, 6, 7], [2, 3, 4, 5]]}
    draw = draw_tables(players, [4, 4], 5, past)
    assert draw.repeats
    assert len(draw.repeat_rounds) == len(draw.repeats)
    for pair, rounds in zip(draw.repeats, draw.repeat_rounds):
        assert rounds == met_rounds(pair, past)
    # Players 0 and 1 met in every round: wherever they sit together, all three rounds are named.
    together = draw_tables([0, 1], [2], 1, past)
    assert together.repeats == ((0, 1),)
    assert together.repeat_rounds == ((1, 2, 3),)
    # Past as a plain list of tables: the same draw, rounds unknown.
    plain = draw_tables(players, [4, 4], 5, [t for tables in past.values() for t in tables])
    assert (plain.tables, plain.repeats) == (draw.tables, draw.repeats)
    assert plain.repeat_rounds == tuple((None,) * len(r) for r in draw.repeat_rounds)
    with pytest.raises(ValueError):
        draw_tables(players, [4, 4], 5, {"one": past[1]})


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 30),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32),
    past_seed=st.integers(0, 2**16),
    past_rounds=st.integers(0, 4),
)
def test_repeat_rounds_property(n, mode, seed, past_seed, past_rounds):
    try:
        sizes = plan_table_sizes(n, **KOENIGRUFEN)
    except SeatingImpossible:
        assume(False)
    players = list(range(n))
    rng = random.Random(past_seed)
    past = {r: random_round(players, sizes, rng) for r in range(1, past_rounds + 1)}
    rounds = 1 if mode == DrawMode.BY_STANDINGS else 2
    old_patience = draw_module._JOINT_PATIENCE
    draw_module._JOINT_PATIENCE = 2
    try:
        result = draw_with_mode(mode, players, (4, 5), 4, None, seed, past, cards_for_size, rounds=rounds)
    finally:
        draw_module._JOINT_PATIENCE = old_patience
    known = dict(past)
    for k, (draw, _) in enumerate(result):
        assert {frozenset(p) for p in draw.repeats} == met_pairs(draw.tables) & met_pairs(
            [t for tables in known.values() for t in tables]
        )
        assert [met_rounds(pair, known) for pair in draw.repeats] == list(draw.repeat_rounds)
        assert draw.best_repeats == min(draw.attempt_repeats)
        assert draw.attempts == len(draw.attempt_repeats) >= 1
        known[past_rounds + 1 + k] = [list(t) for t in draw.tables]


def test_best_repeats_is_the_lowest_count_of_any_attempt():
    # 8 players after a round of two 4-tables: at least 4 repeats, so every restart is tried.
    past = {1: [[0, 1, 2, 3], [4, 5, 6, 7]]}
    draw = draw_tables(list(range(8)), [4, 4], 3, past)
    assert draw.attempts == len(draw.attempt_repeats) == search_module._RESTARTS
    assert all(count >= 4 for count in draw.attempt_repeats)
    assert draw.best_repeats == min(draw.attempt_repeats) == len(draw.repeats) == 4
    # Zero at the first start: one attempt.
    easy = draw_tables(list(range(100)), plan_table_sizes(100), 3, {})
    assert (easy.attempts, easy.attempt_repeats, easy.best_repeats) == (1, (0,), 0)
    # Random and by standings make one attempt: the draw itself.
    for make in (draw_random_tables, draw_tables_by_standings):
        other = make(list(range(8)), [4, 4], 3, past)
        assert other.attempt_repeats == (len(other.repeats),) == (other.best_repeats,)
    # A RoundDraw built by hand gets consistent report fields.
    manual = RoundDraw(seed=1, tables=((1, 2), (3, 4)), repeats=((1, 2),))
    assert (manual.sizes, manual.best_repeats, manual.attempts, manual.attempt_repeats) == ((2, 2), 1, 1, (1,))


def test_all_at_start_attempts_compare_with_the_round_by_round_draw():
    players = list(range(22))
    sizes = plan_table_sizes(22)
    for seed in range(3):
        greedy = [d for d, _ in draw_with_mode(DrawMode.AVOID_REPEATS, players, (4, 5), 4, None, seed, {},
                                               cards_for_size, rounds=4)]
        joint = draw_all_rounds(players, sizes, 4, seed)
        # Attempt 0 is exactly the round-by-round draw.
        assert [d.attempt_repeats[0] for d in joint] == [len(d.repeats) for d in greedy]
        attempts = joint[0].attempts
        assert all(d.attempts == attempts == len(d.attempt_repeats) for d in joint)
        totals = [sum(d.attempt_repeats[i] for d in joint) for i in range(attempts)]
        assert sum(len(d.repeats) for d in joint) == min(totals) == schedule_total(joint)
        for d in joint:
            assert d.best_repeats == min(d.attempt_repeats) <= len(d.repeats)


def test_sixteen_players_five_rounds_meet_nobody_twice_when_drawn_at_the_start():
    # Five rounds of four 4-tables in which every pair meets exactly once: the affine plane of
    # order 4. Drawing round by round usually gets stuck; drawing all rounds at once finds it.
    players = [f"P{i}" for i in range(16)]
    greedy_totals, joint_totals = [], []
    for seed in range(5):
        greedy = [d for d, _ in draw_with_mode(DrawMode.AVOID_REPEATS, players, (4, 5), 4, None, seed, {},
                                               cards_for_size, rounds=5)]
        joint = draw_all_rounds(players, [4, 4, 4, 4], 5, seed)
        for d in joint:
            assert_seated_once(d, players, [4, 4, 4, 4])
            assert d.repeats == () and d.repeat_rounds == ()
        tables = [t for d in joint for t in d.tables]
        assert len(met_pairs(tables)) == 120 == 16 * 15 // 2
        greedy_totals.append(schedule_total(greedy))
        joint_totals.append(schedule_total(joint))
    assert joint_totals == [0] * 5
    assert sum(greedy_totals) > 0


def test_twenty_two_players_four_rounds_do_better_at_the_start():
    players = list(range(22))
    sizes = plan_table_sizes(22)
    greedy_totals, joint_totals = [], []
    for seed in range(5):
        greedy = [d for d, _ in draw_with_mode(DrawMode.AVOID_REPEATS, players, (4, 5), 4, None, seed, {},
                                               cards_for_size, rounds=4)]
        joint = draw_all_rounds(players, sizes, 4, seed)
        greedy_totals.append(schedule_total(greedy))
        joint_totals.append(schedule_total(joint))
        assert joint_totals[-1] <= greedy_totals[-1]
    assert sum(joint_totals) < sum(greedy_totals)
    assert joint_totals == [0] * 5


def test_all_at_start_numbers_the_planned_rounds_and_avoids_the_past():
    players = list(range(12))
    past = {1: [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]}
    # Each later table of 4 takes two players of one round-1 table (pigeonhole): every planned round
    # repeats at least 3 pairs. Two planned rounds reach that minimum.
    two = draw_all_rounds(players, [4, 4, 4], 2, 4, past)
    assert [len(d.repeats) for d in two] == [3, 3]
    draws = draw_all_rounds(players, [4, 4, 4], 3, 4, past)
    greedy = draw_with_mode(DrawMode.AVOID_REPEATS, players, (4, 5), 4, None, 4, past, cards_for_size, rounds=3)
    assert 9 <= schedule_total(draws, past[1]) == sum(len(d.repeats) for d in draws)
    assert schedule_total(draws, past[1]) <= schedule_total([d for d, _ in greedy], past[1])
    assert all(len(d.repeats) >= 3 for d in draws)
    known = dict(past)
    for number, d in enumerate(draws, start=2):
        assert list(d.repeat_rounds) == [met_rounds(pair, known) for pair in d.repeats]
        known[number] = d.tables
    # first_round given explicitly; past as a plain list (rounds unknown): the same tables.
    renumbered = draw_all_rounds(players, [4, 4, 4], 3, 4, past[1], first_round=7)
    assert [d.tables for d in renumbered] == [d.tables for d in draws]
    assert all(r is None or r >= 7 for d in renumbered for rounds in d.repeat_rounds for r in rounds)


def test_draw_all_rounds_sizes_per_round_and_errors():
    players = list(range(9))
    draws = draw_all_rounds(players, [[5, 4], [4, 5], [3, 3, 3]], 3, 1)
    assert [d.sizes for d in draws] == [(5, 4), (4, 5), (3, 3, 3)]
    for d in draws:
        assert_seated_once(d, players, d.sizes)
    assert draw_all_rounds(players, [5, 4], 0, 1) == []
    assert draw_all_rounds([], [], 2, 1) == [RoundDraw(seed=round_seed(1, k), tables=(), repeats=(), mode="all_at_start")
                                             for k in range(2)]
    with pytest.raises(ValueError):
        draw_all_rounds(players, [5, 4], -1, 1)
    with pytest.raises(ValueError):
        draw_all_rounds(players, [[5, 4], [4, 5]], 3, 1)
    with pytest.raises(ValueError):
        draw_all_rounds(players, [4, 4], 2, 1)


def test_by_standings_seats_consecutive_ranks_together():
    standings = [f"rank{r}" for r in range(1, 11)]
    past = {1: [standings[0:3], standings[3:6], standings[6:10]]}
    (draw, seatings), = draw_with_mode(DrawMode.BY_STANDINGS, standings, (3, 4), 3, 2, 5, past, cards_for_size)
    assert draw.tables == (tuple(standings[0:4]), tuple(standings[4:7]), tuple(standings[7:10]))
    assert draw.sizes == (4, 3, 3)
    assert {frozenset(p) for p in draw.repeats} == met_pairs(draw.tables) & met_pairs(past[1])
    # The seed changes the seats (cards), never the tables.
    for seed in range(10):
        other, _ = draw_round(standings, (3, 4), 3, 2, seed, past, cards_for_size, mode=DrawMode.BY_STANDINGS)
        assert other.tables == draw.tables
    assert len({tuple(map(tuple, draw_round(standings, (3, 4), 3, 2, seed, past, cards_for_size,
                                             mode="by_standings")[1])) for seed in range(10)}) > 1
    for table, seating in zip(draw.tables, seatings):
        assert sorted(p for p, _ in seating) == sorted(table)
    # Königrufen: ranks 1-5 at the 5-table, then blocks of four.
    big = list(range(1, 23))
    by_rank = draw_tables_by_standings(big, plan_table_sizes(22), 0)
    assert by_rank.tables == (tuple(range(1, 6)), tuple(range(6, 11)), tuple(range(11, 15)),
                              tuple(range(15, 19)), tuple(range(19, 23)))


def test_random_mode_ignores_the_past():
    players = list(range(20))
    sizes = plan_table_sizes(20)
    rng = random.Random(2)
    past = {r: random_round(players, sizes, rng) for r in (1, 2, 3)}
    for seed in range(10):
        plain = draw_random_tables(players, sizes, seed)
        with_past = draw_random_tables(players, sizes, seed, past)
        assert with_past.tables == plain.tables
        assert plain.repeats == ()
        assert {frozenset(p) for p in with_past.repeats} == met_pairs(plain.tables) & met_pairs(
            [t for tables in past.values() for t in tables]
        )
    # Over several seeds pure random meets again where avoiding does not.
    random_total = sum(len(draw_random_tables(players, sizes, s, past).repeats) for s in range(10))
    avoiding_total = sum(len(draw_tables(players, sizes, s, past).repeats) for s in range(10))
    assert random_total > avoiding_total
    # Several random rounds: each ignores the ones before it too.
    result = draw_with_mode(DrawMode.RANDOM, players, (4, 5), 4, None, 3, past, cards_for_size, rounds=2)
    for k, (draw, _) in enumerate(result):
        assert draw.tables == draw_random_tables(players, sizes, round_seed(3, k)).tables
