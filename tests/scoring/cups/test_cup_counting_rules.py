"""The cup table as the cups count it (pure functions of ``scoring/cups/points.py``), against
../shared/rules/tournament-formats.md §4 "Revised 2026-11-26" and
../shared/rules/koenigrufen-raiffeisen.md §6.9. Every expected number is worked out by hand from
the rule text (the arithmetic is in the comments)."""

import pytest

from scoring.cups.points import (
    VORRUNDENPUNKTE,
    Result,
    absent_from_final_points,
    cup_points,
    cup_table,
    results_counted,
    shared_points,
    vorrundenpunkte,
)


def results(*points):
    """One result per tournament of the season (order 1, 2, ...); None: not played."""
    return [Result(f"t{i}", i, 1, p) for i, p in enumerate(points, start=1) if p is not None]


def season(n):
    return [f"t{i}" for i in range(1, n + 1)]


def ranked(players, n, tiebreak, rule="all", planned=None):
    rows = cup_table(players, held=n, rule=rule, season=season(n), tiebreak=tiebreak, planned=planned)
    return [(r.player, r.rank, r.total, r.tiebreak) for r in rows]


# -- ties on the cup total ---------------------------------------------------------------------


def test_the_rules_example_best_result_first():
    # §4 revised: "A (223 + 168) is ahead of B (198 + 117 + 76), both 391" — 223 beats 198.
    players = {"A": results(223, 168, None), "B": results(198, 117, 76)}
    assert ranked(players, 3, "best_results") == [("A", 1, 391, ""), ("B", 2, 391, "best")]


def test_the_rules_example_under_more_results_first():
    # The 2026-11-23 reading: B's 3 counted results beat A's 2.
    players = {"A": results(223, 168, None), "B": results(198, 117, 76)}
    assert ranked(players, 3, "more_results_first") == [("B", 1, 391, ""), ("A", 2, 391, "counted")]


def test_the_second_best_result_decides_when_the_best_are_level():
    # A 200 + 100 + 50 = 350, B 200 + 120 + 30 = 350: best 200 each, second best 120 > 100.
    players = {"A": results(200, 100, 50), "B": results(30, 200, 120)}
    rows = cup_table(players, held=3, rule="all", season=season(3), tiebreak="best_results")
    assert [(r.player, r.rank, r.tiebreak, r.tiebreak_place) for r in rows] == [("B", 1, "", 0), ("A", 2, "next_best", 2)]


def test_the_third_best_result_decides():
    # A 90 + 80 + 70 + 10 = 250, B 90 + 80 + 60 + 20 = 250: third best 70 > 60.
    players = {"B": results(90, 80, 60, 20), "A": results(10, 70, 80, 90)}
    rows = cup_table(players, held=4, rule="all", season=season(4), tiebreak="best_results")
    assert [(r.player, r.tiebreak, r.tiebreak_place) for r in rows] == [("A", "", 0), ("B", "next_best", 3)]


def test_level_results_then_more_counted_results():
    # A 100 + 50 = 150, B 100 + 50 + 0 = 150 (a last place, 0 points): level over A's two
    # results, then B has more counted results.
    players = {"A": results(100, 50, None), "B": results(100, 50, 0)}
    assert ranked(players, 3, "best_results") == [("B", 1, 150, ""), ("A", 2, 150, "counted")]


def test_the_same_results_then_the_more_recent_tournament():
    # A: 100 in t1, 50 in t2; B: 50 in t1, 100 in t2. Both 100 + 50 from 2 results; in the latest
    # tournament (t2) B has 100, A 50.
    players = {"A": results(100, 50), "B": results(50, 100)}
    for tiebreak in ("best_results", "more_results_first"):
        assert ranked(players, 2, tiebreak) == [("B", 1, 150, ""), ("A", 2, 150, "recent")]


def test_the_same_results_in_the_same_tournaments_share_the_rank():
    players = {"A": results(100, 50), "B": results(100, 50)}
    rows = cup_table(players, held=2, rule="all", season=season(2), tiebreak="best_results")
    assert [(r.rank, r.shared, r.tiebreak) for r in rows] == [(1, False, ""), (1, True, "level")]


FIVE = {
    "Anna": results(100, 60, None, None),  # 160 from 100, 60
    "Bert": results(50, 50, 60, None),  # 160 from 60, 50, 50
    "Carl": results(None, 120, 40, None),  # 160 from 120, 40
    "Dora": results(None, 100, None, 60),  # 160 from 100, 60; played t4, the latest
    "Emil": results(100, 60, None, None),  # the same as Anna in every tournament
}


def test_five_level_totals_best_results_first():
    # Carl's 120 is the best; Dora, Anna and Emil (100, 60) beat Bert's best 60; among them Dora
    # played the latest tournament; Anna and Emil are level.
    assert ranked(FIVE, 4, "best_results") == [
        ("Carl", 1, 160, ""),
        ("Dora", 2, 160, "best"),
        ("Anna", 3, 160, "recent"),
        ("Emil", 3, 160, "level"),
        ("Bert", 5, 160, "best"),
    ]


def test_five_level_totals_more_results_first():
    # Bert's 3 results first; then Carl's best 120; Dora by the latest tournament; Anna = Emil.
    assert ranked(FIVE, 4, "more_results_first") == [
        ("Bert", 1, 160, ""),
        ("Carl", 2, 160, "counted"),
        ("Dora", 3, 160, "best"),
        ("Anna", 4, 160, "recent"),
        ("Emil", 4, 160, "level"),
    ]


def test_only_counted_results_break_ties():
    # Best 2 count: A 100 + 80 = 180 (5 dropped), B 90 + 90 = 180 (1 dropped). Best counted result:
    # A's 100 > B's 90; the dropped 5 and 1 play no part.
    players = {"A": results(100, 80, 5), "B": results(90, 1, 90)}
    assert ranked(players, 3, "best_results", rule=2) == [("A", 1, 180, ""), ("B", 2, 180, "best")]


def test_an_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError):
        cup_table({"A": results(1)}, held=1, rule="all", season=season(1), tiebreak="lots")


# -- the best half from the planned tournaments ------------------------------------------------


@pytest.mark.parametrize(
    "held, planned, counted",
    [
        (5, 12, 6),  # §4 revised: 12 planned, 5 held → floor(12/2) = 6 (more than 10 planned)
        (12, 12, 6),  # the season's end: both readings agree
        (12, None, 6),  # without a planned number, the held: floor(12/2) = 6
        (5, None, 3),  # without a planned number, 5 held: floor((5+1)/2) = 3
        (5, 10, 5),  # 10 planned (not more than 10): floor((10+1)/2) = 5
        (3, 7, 4),  # 7 planned: floor(8/2) = 4
        (12, 8, 6),  # fewer planned than held: the held count, floor(12/2) = 6
    ],
)
def test_the_best_half_counts_from_the_planned_number(held, planned, counted):
    assert results_counted(held, "half", planned) == counted


def test_planned_leaves_all_and_best_k_alone():
    assert results_counted(5, "all", 12) == 5
    assert results_counted(5, 3, 12) == 3


def test_five_held_of_twelve_planned_count_six_so_all_five_count():
    # 12 planned → the best 6: a player with 5 results counts all: 90+80+70+60+50 = 350. Without a
    # planned number the best 3 of 5: 90 + 80 + 70 = 240.
    anna = {"Anna": results(50, 90, 60, 80, 70)}
    planned = cup_table(anna, held=5, rule="half", season=season(5), tiebreak="best_results", planned=12)[0]
    held = cup_table(anna, held=5, rule="half", season=season(5), tiebreak="best_results")[0]
    assert (len(planned.counted), planned.total) == (5, 350)
    assert (len(held.counted), held.total) == (3, 240)


# -- the Wiener Tarockcup final to 2019/20 -----------------------------------------------------


def test_the_final_scores_ranks_above_50_negative():
    # §4 revised: in the final, ranks above 50 score −(rank − 50).
    assert cup_points("wtc_fixpunkte", 51, 60, final=True) == -1
    assert cup_points("wtc_fixpunkte", 60, 60, final=True) == -10
    assert cup_points("wtc_fixpunkte", 70, 70, final=True) == -20


def test_the_final_scores_ranks_up_to_50_by_the_fixpunkte():
    # Fixpunkte ranks 1, 2, 3, 49, 50: 223, 198, 180, 2, 1.
    assert [cup_points("wtc_fixpunkte", r, 70, final=True) for r in (1, 2, 3, 49, 50)] == [223, 198, 180, 2, 1]


def test_outside_the_final_a_rank_above_50_scores_0():
    assert cup_points("wtc_fixpunkte", 51, 60) == 0
    assert cup_points("wtc_fixpunkte", 60, 60) == 0


def test_a_qualifier_absent_from_the_final_scores_minus_entrants_less_49():
    # −(entrants − 49): a final of 70 → −21; of 60 → −11; of 50 → −1.
    assert absent_from_final_points(70) == -21
    assert absent_from_final_points(60) == -11
    assert absent_from_final_points(50) == -1


def test_an_absent_qualifier_of_a_small_final_never_gains():
    # Decision: −(40 − 49) would be +9; staying away never earns points.
    assert absent_from_final_points(49) == 0
    assert absent_from_final_points(40) == 0


def test_shared_ranks_in_the_final_average_the_negative_places():
    # Places 51 and 52 shared: (−1 + −2)/2 = −1.5, rounded half up → −1. Places 50 and 51:
    # (1 + −1)/2 = 0.
    assert shared_points("wtc_fixpunkte", 51, 2, 60, final=True) == -1
    assert shared_points("wtc_fixpunkte", 50, 2, 60, final=True) == 0


# -- Ö-Finale Vorrundenpunkte (koenigrufen-raiffeisen.md §6.9) --------------------------------

# The three tables as §6.9 writes them, rank 1 first.
RULE_40 = """120, 109, 100, 93, 87, 82, 78, 73, 69, 64,
    60, 57, 53, 50, 46, 43, 41, 38, 35, 33, 31, 29, 27, 25, 23, 22, 20, 19, 18, 17, 16, 15, 14, 13, 13, 12,
    12, 11, 11, 11"""
RULE_60 = """120, 111, 104, 98, 95, 91, 88, 84,
    81, 78, 75, 72, 69, 66, 63, 61, 58, 56, 53, 51, 49, 47, 45, 43, 41, 39, 37, 36, 34, 32, 31, 30, 28, 27,
    26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 17, 16, 15, 15, 14, 14, 13, 13, 13, 12, 12, 12, 11, 11, 11, 11"""
RULE_80 = """120, 112, 106, 101, 98, 96, 93, 90, 88, 85, 83, 80, 78, 76, 73, 71,
    69, 67, 65, 63, 61, 59, 57, 55, 53, 52, 50, 48, 47, 45, 44, 42, 41, 40, 38, 37, 36, 35, 33, 32, 31, 30,
    29, 28, 27, 26, 25, 24, 24, 23, 22, 21, 21, 20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 14, 13,
    13, 13, 13, 12, 12, 12, 12, 11, 11, 11, 11, 11"""


def as_numbers(text):
    return tuple(int(n) for n in text.replace("\n", " ").split(","))


def test_the_three_tables_are_the_rules_and_have_40_60_80_entries():
    assert {k: len(v) for k, v in VORRUNDENPUNKTE.items()} == {"40": 40, "60": 60, "80": 80}
    assert VORRUNDENPUNKTE["40"] == as_numbers(RULE_40)
    assert VORRUNDENPUNKTE["60"] == as_numbers(RULE_60)
    assert VORRUNDENPUNKTE["80"] == as_numbers(RULE_80)


@pytest.mark.parametrize("table", ["40", "60", "80"])
def test_a_cup_winner_takes_120(table):
    # ÖF23F: "die 7 Cupsieger mit 120 Vorrundenpunkten".
    assert vorrundenpunkte(table, 1) == 120


@pytest.mark.parametrize("table, last", [("40", 40), ("60", 60), ("80", 80)])
def test_the_last_entry_and_past_the_end(table, last):
    # Each table ends on 11; a rank past its end did not qualify ("–" in ABAKUS).
    assert vorrundenpunkte(table, last) == 11
    assert vorrundenpunkte(table, last + 1) is None
    assert vorrundenpunkte(table, 200) is None


def test_ranks_inside_the_tables():
    # 40: rank 10 → 64; 60: rank 20 → 51; 80: rank 50 → 23 (counted off §6.9's lists).
    assert (vorrundenpunkte("40", 10), vorrundenpunkte("60", 20), vorrundenpunkte("80", 50)) == (64, 51, 23)


def test_vorrundenpunkte_refusals():
    with pytest.raises(KeyError):
        vorrundenpunkte("100", 1)
    with pytest.raises(ValueError):
        vorrundenpunkte("60", 0)
