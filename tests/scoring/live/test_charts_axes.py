"""The charts' axes count whole rounds, hands and points: after the first round (or hand) the
axis reads "1", not 0.945 … 1.050, and a field all on 0 is not drawn on a scale of hundredths."""

import xml.etree.ElementTree as ET

import pytest

from scoring.live import charts
from scoring.live.statistics import Progression, Series

SVG = "{http://www.w3.org/2000/svg}"


def tick_labels(svg: bytes, axis: str) -> list[str]:
    """The tick labels of the ``"x"`` or ``"y"`` axis, as printed (matplotlib's minus is "−")."""
    root = ET.fromstring(svg)
    labels = []
    for group in root.iter(f"{SVG}g"):
        if (group.get("id") or "").startswith(f"{axis}tick_"):
            labels += ["".join(t.itertext()).strip() for t in group.iter(f"{SVG}text")]
    return labels


def whole(label: str) -> bool:
    return label.replace("−", "-").lstrip("-").isdigit()


@pytest.mark.parametrize(
    "values",
    [[[12], [-3], [5]], [[0], [0], [0]], [[7], [7], [7]]],
    ids=["spread", "all-zero", "all-equal"],
)
def test_one_round_gives_a_whole_number_axis(values):
    progression = Progression(rounds=[1], label="Game points", series=[Series(n, i, v) for i, (n, v) in enumerate(zip("ABC", values))])
    svg = charts.progression_chart(progression)
    assert tick_labels(svg, "x") == ["1"]
    ys = tick_labels(svg, "y")
    assert ys and all(whole(y) for y in ys), ys
    assert len(ys) >= 2  # a scale, not a lone number


def test_one_hand_at_a_table_gives_a_whole_number_axis():
    svg = charts.table_chart("Table 1", ["Anna", "Berta", "Carl"], [1], [[2, -1, -1]])
    assert tick_labels(svg, "x") == ["1"]
    assert all(whole(y) for y in tick_labels(svg, "y"))


def test_two_rounds_are_marked_1_and_2():
    progression = Progression(rounds=[1, 2], label="Game points", series=[Series("A", 1, [0, 1]), Series("B", 2, [0, -1])])
    svg = charts.progression_chart(progression)
    assert tick_labels(svg, "x") == ["1", "2"]
    assert all(whole(y) for y in tick_labels(svg, "y"))
