"""Raw rows: a paper score sheet transcribed line by line as manual hands.

Rules: ``hand-record.md`` "The score row" (zero-sum, the sitting-out seat) and "Fields"
(``outcome: manual``); the hand cap is ``koenigrufen.md`` §5 (Tirol: 16 at a 4-table, 20 at a 5-table).
"""

import pytest
from django.utils import translation

from scoring.entry.raw_rows import (
    LineProblem,
    RawRowsRejected,
    check_rows,
    line_numbers,
    parse_raw_rows,
    save_raw_rows,
    to_differences,
)
from scoring.models import Hand
from scoring.services import save_hand, table_info
from tournaments import services
from tournaments.models import Tournament


def rejected(table, text, **kwargs):
    with translation.override("en"), pytest.raises(RawRowsRejected) as exc:
        save_raw_rows(table, text, **kwargs)
    return exc.value.problems


def scores(table):
    return [h.scores for h in table.hands.order_by("number")]


# Parsing (pure) ------------------------------------------------------------------------------------


def test_separators_signs_and_leading_hand_numbers():
    text = "5 -15 5 5\n\n  2: -7;21;-7;-7 \n3. \u22123,+1,1,1\n4:\t0\t0\t0\t0\n5 . 1 \u2212 1 0 0"
    with translation.override("en"):
        rows, problems = parse_raw_rows(text, 4)
    assert rows == [[5, -15, 5, 5], [-7, 21, -7, -7], [-3, 1, 1, 1], [0, 0, 0, 0]]
    # "5 . 1 − 1 0 0": the hand number goes, then a lone "−" is not a number.
    assert [p.line for p in problems] == [6]
    assert "“-”" in problems[0].message
    assert line_numbers(text) == [1, 3, 4, 5, 6]


def test_parse_problems_name_the_line_and_the_difference():
    text = "1 2 3\n1 2 3 -3 -3\n3.5 1 1 -5\nx 1 y 0"
    with translation.override("en"):
        rows, problems = parse_raw_rows(text, 4)
    assert rows == []
    assert problems == [
        LineProblem(1, "Line 1: 3 numbers for 4 seats (1 missing)."),
        LineProblem(2, "Line 2: 5 numbers for 4 seats (1 too many)."),
        LineProblem(3, "Line 3: “3.5” is not a whole number."),
        LineProblem(4, "Line 4: “x”, “y” are not whole numbers."),
    ]


def test_a_huge_number_is_a_problem_not_an_overflow():
    rows, problems = parse_raw_rows("99999999999999999999 0 0 0", 4)
    assert rows == [] and [p.line for p in problems] == [1]


def test_running_totals_become_differences():
    assert to_differences([[3, -9, 3, 3], [0, 0, 0, 0]], [5, -15, 5, 5]) == [[-2, 6, -2, -2], [-3, 9, -3, -3]]
    # A line that could not be read leaves its own and the next difference unknown.
    assert to_differences([[1, -1], None, [2, -2], [3, -3]], [0, 0]) == [[1, -1], None, None, [1, -1]]


# check_rows ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_check_rows_reports_every_rule_by_line(four_table):
    info = table_info(four_table)  # Tirol 4-table: zero-sum, nobody sits out, 16 hands
    rows = [[1, -1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [10000, -10000, 0, 0]]
    with translation.override("en"):
        problems = check_rows(rows, info, first_number=14, first_dealer=0, lines=[2, 4, 5, 9])
    assert [(p.line, p.message) for p in problems] == [
        (4, "Line 4: the row sums to +2, not 0: a writing error."),
        (9, "Line 9: this table has only 3 of its 16 hands left; 1 line too many."),
        (9, "Line 9: +10000 is too large for one hand (at most 9999 either way)."),
    ]


# save_raw_rows ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_good_sheet_is_saved_as_manual_hands(four_table, director):
    first = four_table.dealer_of(1, 4)
    hands = save_raw_rows(four_table, "5 -15 5 5\n\n-7\t21\t-7\t-7\n3; -1; -1; -1\n", user=director)
    assert [h.number for h in hands] == [1, 2, 3]
    assert scores(four_table) == [[5, -15, 5, 5], [-7, 21, -7, -7], [3, -1, -1, -1]]
    assert [h.record for h in four_table.hands.order_by("number")] == [
        {"dealer": (first + k) % 4, "outcome": "manual", "scores": row, "note": "raw rows"}
        for k, row in enumerate(scores(four_table))
    ]
    assert all(h.entered_by == director for h in hands)


@pytest.mark.django_db
def test_rows_are_appended_and_the_dealer_rotation_continues(four_table):
    # The last hand entered was dealt by seat 1, whatever the first dealer: the sheet starts at seat 2.
    save_hand(four_table, {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": True})
    hands = save_raw_rows(four_table, "1 -1 1 -1\n2 2 -2 -2\n0 0 0 0")
    assert [h.number for h in hands] == [2, 3, 4]
    assert [h.record["dealer"] for h in hands] == [2, 3, 0]
    assert Hand.objects.filter(table=four_table).count() == 4


@pytest.mark.django_db
def test_bad_sheet_reports_each_line_and_saves_nothing(four_table):
    save_raw_rows(four_table, "1 -1 0 0")
    text = "5 -15 5 5\n1 2 -1 0\n\n4 -4 0\n3 1 -1 -3\n7 zwei -7 -2"
    problems = rejected(four_table, text)
    assert [(p.line, p.message) for p in problems] == [
        (2, "Line 2: the row sums to +2, not 0: a writing error."),
        (4, "Line 4: 3 numbers for 4 seats (1 missing)."),
        (6, "Line 6: “zwei” is not a whole number."),
    ]
    assert scores(four_table) == [[1, -1, 0, 0]]  # all or nothing


@pytest.mark.django_db
def test_five_table_sitting_out_dealer_must_score_zero(make_tournament):
    t = make_tournament(players=5)
    table = services.draw_next_round(t, seed=3).tables.get()
    info = table_info(table)
    assert info.size == 5 and info.cap == 20
    d = table.dealer_of(1, 5)  # deals and sits out hand 1; seat d + 1 sits out hand 2

    def line(**by_offset):  # a row by seat offset from d: line(o1=3, o2=-3)
        row = [0] * 5
        for key, value in by_offset.items():
            row[(d + int(key[1:])) % 5] = value
        return " ".join(map(str, row))

    text = line(o1=3, o2=-3) + "\n" + line(o0=2, o1=5, o2=-5, o3=-2)
    problems = rejected(table, text)
    name = info.names[(d + 1) % 5]
    assert [(p.line, p.message) for p in problems] == [
        (2, f"Line 2: {name} deals hand 2 and sits out; the score must be 0, not +5.")
    ]
    assert not table.hands.exists()
    save_raw_rows(table, line(o1=3, o2=-3) + "\n" + line(o0=2, o2=-5, o3=3))  # the sitting-out column at 0
    assert [h.record["dealer"] for h in table.hands.order_by("number")] == [d, (d + 1) % 5]


@pytest.mark.django_db
def test_cego_sitting_out_dealer_pays(make_tournament):
    # cego-ichenheim.md §1: at a 4-table the dealer sits out but wins and loses with the defenders.
    t = make_tournament(players=4)
    Tournament.objects.filter(pk=t.pk).update(ruleset="cego-ichenheim", edition="ichenheim", hands_per_round=24)
    t.refresh_from_db()
    table = services.draw_next_round(t, seed=5).tables.get()
    dealer = table.dealer_of(1, 4)
    row = [-10, -10, -10, -10]
    row[(dealer + 1) % 4] = 30
    (hand,) = save_raw_rows(table, " ".join(map(str, row)))
    assert hand.scores == row and row[dealer] == -10


@pytest.mark.django_db
def test_more_lines_than_hands_left_are_refused(four_table):
    save_raw_rows(four_table, "0 0 0 0\n" * 14)
    problems = rejected(four_table, "1 -1 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0")
    assert [(p.line, p.message) for p in problems] == [
        (3, "Line 3: this table has only 2 of its 16 hands left; 2 lines too many.")
    ]
    assert four_table.hands.count() == 14
    save_raw_rows(four_table, "0 0 0 0\n0 0 0 0")  # exactly the rest fits
    problems = rejected(four_table, "0 0 0 0")
    assert [(p.line, p.message) for p in problems] == [
        (1, "Line 1: this table has only 0 of its 16 hands left; 1 line too many.")
    ]


@pytest.mark.django_db
def test_cumulative_mode_converts_running_totals(four_table):
    save_raw_rows(four_table, "5 -15 5 5")
    hands = save_raw_rows(four_table, "3 -9 3 3\n\n0 0 0 0\n8 -24 8 8", cumulative=True)
    assert [h.scores for h in hands] == [[-2, 6, -2, -2], [-3, 9, -3, -3], [8, -24, 8, 8]]
    assert scores(four_table)[-1] == [8, -24, 8, 8]


@pytest.mark.django_db
def test_cumulative_mode_reports_the_changed_totals(four_table):
    save_raw_rows(four_table, "5 -15 5 5")
    problems = rejected(four_table, "3 -9 3 3\n4 -9 3 3", cumulative=True)
    assert [(p.line, p.message) for p in problems] == [
        (2, "Line 2: the totals change by +1 in all, not 0: a writing error.")
    ]
    assert four_table.hands.count() == 1


@pytest.mark.django_db
def test_unicode_minus_and_leading_hand_number(four_table):
    hands = save_raw_rows(four_table, "1: 5 \u221215 +5 5\n2. \u22127, 21, \u22127, \u22127\n3:1 \u22121 0 0")
    assert [h.scores for h in hands] == [[5, -15, 5, 5], [-7, 21, -7, -7], [1, -1, 0, 0]]


@pytest.mark.django_db
def test_empty_sheet_is_refused(four_table):
    problems = rejected(four_table, "\n  \n")
    assert [p.line for p in problems] == [0]
    assert not four_table.hands.exists()


@pytest.mark.django_db
def test_a_failure_while_saving_rolls_back_every_hand(four_table, monkeypatch):
    import scoring.entry.raw_rows as raw_rows
    from scoring.services import HandRejected

    calls = []

    def flaky_save_hand(table, record, user=None, **kwargs):
        calls.append(record)
        if len(calls) == 2:
            raise HandRejected(["refused"])
        return save_hand(table, record, user, **kwargs)

    monkeypatch.setattr(raw_rows, "save_hand", flaky_save_hand)
    problems = rejected(four_table, "1 -1 0 0\n\n2 -2 0 0")
    assert [(p.line, p.message) for p in problems] == [(3, "Line 3: refused")]
    assert not four_table.hands.exists()


@pytest.mark.django_db
def test_raw_rows_through_the_sheet_page(director_client, four_table, english):
    from django.urls import reverse

    from scoring.models import Hand

    url = reverse("entry:raw_rows", args=[four_table.pk])
    bad = "-5 15 -5 -5\n1 -1 1 0\n"
    response = director_client.post(url, {"rows": bad})
    assert response.status_code == 422
    assert not Hand.objects.exists()
    page = response.content.decode()
    assert "Line 2" in page and "+1" in page
    assert "-5 15 -5 -5" in page  # what was typed comes back
    response = director_client.post(url, {"rows": "-5 15 -5 -5\n1 -1 1 -1\n"})
    assert response.status_code == 302
    assert list(Hand.objects.order_by("number").values_list("scores", flat=True)) == [[-5, 15, -5, -5], [1, -1, 1, -1]]
    assert Hand.objects.get(number=1).history.first().history_change_reason == "transcribed from the paper sheet"
