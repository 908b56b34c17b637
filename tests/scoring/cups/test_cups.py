"""Cup points and the season table, against ../shared/rules/tournament-formats.md §4.
Every expected number is worked out by hand from the rule text (the arithmetic is in the
comments)."""

import pytest

from scoring.cups.points import Result, cup_points, cup_table, results_counted, shared_points


def test_the_tirol_formula_with_37_players_gives_the_rule_files_example():
    # §4: "Tirol formula with N = 37: ranks 1–5 get 200, 184, 168, 154, 140".
    assert [cup_points("tirol", r, 37) for r in range(1, 6)] == [200, 184, 168, 154, 140]
    assert cup_points("tirol", 37, 37) == 0  # the last place


def test_the_tirol_formula_with_15_players():
    # 200 × ((15 − r)/14)³: r=2 → 200 × 2197/2744 = 160.13 → 160; r=3 → 345600/2744 = 125.95 →
    # 126; r=4 → 266200/2744 = 97.01 → 97; r=5 → 200000/2744 = 72.89 → 73; r=14 → 0.07 → 0.
    assert [cup_points("tirol", r, 15) for r in (1, 2, 3, 4, 5, 14, 15)] == [200, 160, 126, 97, 73, 0, 0]


def test_the_wtc_fixpunkte_table():
    assert [cup_points("wtc_fixpunkte", r, 60) for r in (1, 2, 3, 10, 20, 40, 49, 50, 51, 60)] == [223, 198, 180, 117, 68, 12, 2, 1, 0, 0]


def test_heine_points_at_the_thresholds():
    # P ≤ 0 → 0; P ≤ 100 → P; 100 < P < 300 → 100 + floor((P − 100)/2); P ≥ 300 → 200.
    cases = {-5: 0, 0: 0, 57: 57, 100: 100, 101: 100, 102: 101, 299: 199, 300: 200, 412: 200}
    assert {p: cup_points("heine", 3, 20, total=p) for p in cases} == cases


def test_players_sharing_a_rank_share_the_places_points_rounded_half_up():
    # §4 Decision: two players 3rd of 37 get (168 + 154) / 2 = 161 each.
    assert shared_points("tirol", 3, 2, 37) == 161
    # Three players 2nd of 15: (160 + 126 + 97) / 3 = 127.67 → 128.
    assert shared_points("tirol", 2, 3, 15) == 128
    # WTC: two players 4th: (168 + 156) / 2 = 162; two 13th: (100 + 95) / 2 = 97.5 → 98.
    assert shared_points("wtc_fixpunkte", 4, 2, 40) == 162
    assert shared_points("wtc_fixpunkte", 13, 2, 40) == 98
    # Heine points come from each player's own total.
    assert shared_points("heine", 2, 2, 10, total=150) == 125


def test_refusals():
    with pytest.raises(ValueError):
        cup_points("tirol", 0, 10)
    with pytest.raises(ValueError):
        cup_points("tirol", 11, 10)
    with pytest.raises(ValueError):
        cup_points("heine", 1, 10)
    with pytest.raises(ValueError):
        cup_points("ranglisten", 1, 10)
    with pytest.raises(ValueError):
        results_counted(7, "most")


@pytest.mark.parametrize(
    "held, half",
    # Heine: the best floor(n/2) if more than 10 were held, else floor((n+1)/2).
    [(7, 4), (10, 5), (11, 5), (12, 6), (1, 1), (0, 0)],
)
def test_the_best_half(held, half):
    assert results_counted(held, "half") == half


def test_all_and_best_k():
    assert results_counted(7, "all") == 7
    assert results_counted(12, 5) == 5
    assert results_counted(3, 5) == 3


def results(*points):
    """One result per tournament held (order 1, 2, ...); None: not played."""
    return [Result(f"t{i}", i, 1, p) for i, p in enumerate(points, start=1) if p is not None]


SEASON = ["t1", "t2", "t3", "t4"]


def test_best_k_counts_the_best_results_and_strikes_the_others():
    rows = cup_table({"Anna": results(100, 40, 80, 10)}, held=4, rule=2, season=SEASON)
    assert rows[0].total == 180 and rows[0].counted == {"t1", "t3"}


def test_under_more_results_first_ties_are_broken_by_counted_results_then_best_result_then_the_latest_tournament():
    players = {
        "Anna": results(100, 60, None, None),  # 160 from 2 results
        "Bert": results(50, 50, 60, None),  # 160 from 3 results: ahead of Anna (more counted)
        "Carl": results(None, 120, 40, None),  # 160 from 2, best 120: ahead of Anna (better best)
        "Dora": results(None, 100, None, 60),  # 160 from 2, best 100, as Anna: Dora played the latest tournament
        "Emil": results(100, 60, None, None),  # the same as Anna in every tournament: level
    }
    rows = cup_table(players, held=4, rule="all", season=SEASON, tiebreak="more_results_first")
    assert [(r.player, r.rank, r.tiebreak) for r in rows] == [
        ("Bert", 1, ""),
        ("Carl", 2, "counted"),
        ("Dora", 3, "best"),
        ("Anna", 4, "recent"),
        ("Emil", 4, "level"),
    ]
    assert rows[4].shared


def test_a_season_of_seven_ten_eleven_and_twelve_tournaments_under_the_best_half():
    points = [90, 10, 80, 20, 70, 30, 60, 40, 50, 5, 1, 100]
    for held, counted, total in ((7, 4, 90 + 80 + 70 + 60), (10, 5, 90 + 80 + 70 + 60 + 50), (11, 5, 90 + 80 + 70 + 60 + 50), (12, 6, 100 + 90 + 80 + 70 + 60 + 50)):
        row = cup_table({"Anna": results(*points[:held])}, held=held, rule="half", season=[f"t{i}" for i in range(1, held + 1)])[0]
        assert (len(row.counted), row.total) == (counted, total)
