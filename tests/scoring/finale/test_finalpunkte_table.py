"""The Finalpunkte table the organiser enters (``../shared/rules/koenigrufen-raiffeisen.md`` §6.9:
"60 Punkte für den Sieg bis hin zu 0 Punkte ab Rang 101", no minus points): each refusal names its
rank; the values of a rank; how several cups' Vorrundenpunkte combine."""

import pytest

from scoring.finale import points
from scoring.finale.forms import OeFinaleForm, problem_text


def refused(text):
    with pytest.raises(points.FinalpunkteError) as caught:
        points.parse_finalpunkte(text)
    return [(p.kind, p.rank) for p in caught.value.problems]


def test_a_table_is_read_from_spaces_lines_commas_or_semicolons():
    assert points.parse_finalpunkte("60 57 55\n53;50, 48\n\n0") == (60, 57, 55, 53, 50, 48, 0)
    assert points.parse_finalpunkte("  ") == ()  # not entered yet


def test_a_long_table_ends_in_zeros_from_rank_101():
    table = "60 " + " ".join(["1"] * 99) + " 0 0 0"  # ranks 2–100 get 1, 101–103 get 0
    assert len(points.parse_finalpunkte(table)) == 103


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param("59 50 40", [(points.FIRST, 1)], id="§6.9-rank-1-is-60"),
        pytest.param("61 50", [(points.FIRST, 1)], id="§6.9-rank-1-not-above-60"),
        pytest.param("60 50 51 40", [(points.INCREASE, 3)], id="§6.9-an-increase"),
        pytest.param("60 50 -1", [(points.NEGATIVE, 3)], id="§6.9-no-minus-points"),
        pytest.param("60 " + "1 " * 99 + "1", [(points.PAST_100, 101)], id="§6.9-0-from-rank-101"),
        pytest.param("60 5x 40", [(points.NOT_A_NUMBER, 2)], id="not-a-number"),
        pytest.param("60 57.5 40", [(points.NOT_A_NUMBER, 2)], id="not-a-whole-number"),
        pytest.param("60 50 55 -2 x", [(points.INCREASE, 3), (points.NEGATIVE, 4), (points.NOT_A_NUMBER, 5)], id="every-problem-named"),
    ],
)
def test_each_refusal_names_its_rank(text, expected):
    assert refused(text) == expected


def test_the_messages_name_the_rank_and_the_value(english):
    words = {
        "59 50": "Rank 1: the day's winner gets 60 Finalpunkte, not 59.",
        "60 50 51": "Rank 3: 51 is more than the 50 of the rank above; the Finalpunkte never increase down the ranks.",
        "60 -3": "Rank 2: -3 is negative; there are no minus points.",
        "60 abc": "Rank 2: “abc” is not a whole number.",
        "60 " + "1 " * 100: "Rank 101: 1, but every rank from 101 on gets 0 Finalpunkte.",
    }
    for text, message in words.items():
        with pytest.raises(points.FinalpunkteError) as caught:
            points.parse_finalpunkte(text)
        assert problem_text(caught.value.problems[0]) == message


def test_the_finalpunkte_of_a_rank():
    table = (60, 54, 49)
    assert [points.finalpunkte(table, r) for r in (1, 2, 3, 4, 100)] == [60, 54, 49, 0, 0]
    assert points.finalpunkte(table, None) == 0  # the day has not begun
    long = (60,) + (1,) * 99 + (0,) * 5
    assert points.finalpunkte(long, 100) == 1 and points.finalpunkte(long, 101) == 0


def test_several_cups_take_the_highest_or_their_sum():
    assert points.combined([120, 98]) == 120
    assert points.combined([120, 98], summed=True) == 218
    assert points.combined([]) == 0


@pytest.mark.django_db
def test_the_form_refuses_a_bad_table_and_keeps_what_was_typed(english):
    typed = "60 57\n58 50"
    form = OeFinaleForm({"finalpunkte_text": typed})
    assert not form.is_valid()
    assert form.errors["finalpunkte_text"] == ["Rank 3: 58 is more than the 57 of the rank above; the Finalpunkte never increase down the ranks."]
    assert f"{typed}</textarea>" in str(form["finalpunkte_text"])
