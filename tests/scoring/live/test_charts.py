"""The day in pictures: the charts are valid SVG whose text (players' names, contract
names, labels) stays text, the same data draws the same bytes, and lines and bars can be told
apart without colour (a black-and-white print)."""

import xml.etree.ElementTree as ET

import pytest

from scoring.live import charts
from scoring.live.statistics import ContractCount, Progression, Series

SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_texts(svg: bytes) -> list[str]:
    """Every text of the SVG as a reader sees it (parsing fails for invalid XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    return ["".join(node.itertext()).strip() for node in root.iter(f"{SVG_NS}text")]


PROGRESSION = Progression(
    rounds=[1, 2, 3],
    label="Game points",
    series=[
        Series("Anna Berger", 1, [12, 20, 31]),
        Series("Karl $Moser$", 2, [5, 18, 25]),
        Series("_Zita Öller", 3, [None, -4, 9]),
        Series("Ludwig Huber", 4, [-3, -10, -20], chosen=True),
    ],
)


@pytest.mark.usefixtures("english")
def test_the_progression_shows_every_name_as_text():
    texts = svg_texts(charts.progression_chart(PROGRESSION))
    # Names as they are: "$…$" is not read as mathematics, a leading "_" does not hide a name.
    for name in ("Anna Berger", "Karl $Moser$", "_Zita Öller", "Ludwig Huber"):
        assert name in texts
    assert "Standings round by round" in texts and "Game points" in texts and "Round" in texts


def test_lines_differ_by_marker_and_line_style_not_colour_alone():
    styles = [charts.series_style(i) for i in range(11)]  # the top ten and a chosen player
    assert len({(s["marker"], s["linestyle"]) for s in styles}) == 11
    assert len({s["marker"] for s in styles}) >= 10  # neighbours never share a marker


def test_the_same_data_draws_the_same_svg():
    assert charts.progression_chart(PROGRESSION) == charts.progression_chart(PROGRESSION)
    svg = charts.progression_chart(PROGRESSION).decode()
    assert "<dc:date>" not in svg  # no time stamp in the metadata


@pytest.mark.usefixtures("english")
def test_the_contract_mix_shows_names_numbers_and_hatching():
    mix = [
        ContractCount("rufer", "Rufer", played=10, won=6),
        ContractCount("trischaken", "Trischaken", played=4, decided=False),
        ContractCount("bettler_ouvert", "Bettel ouvert", played=1, won=0),
    ]
    svg = charts.contracts_chart(mix)
    texts = svg_texts(svg)
    assert {"Rufer", "Trischaken", "Bettel ouvert"} <= set(texts)
    assert "10 played, 6 won" in texts and "4 played" in texts and "1 played, 0 won" in texts
    assert {"won", "lost", "everyone for himself"} <= set(texts)  # the legend
    # Lost and "everyone for himself" are told apart from won by hatching, not by colour alone.
    assert svg.count(b"<pattern") == 2


@pytest.mark.usefixtures("english")
def test_a_table_chart_names_every_seat():
    svg = charts.table_chart("Round 1, Table 3: running totals", ["Anna", "Berta", "Carl", "Dora → Emil"], [1, 2, 3], [[3, -1, -1, -1], [2, 0, -2, 0], [0, 6, -4, -2]])
    texts = svg_texts(svg)
    assert {"Anna", "Berta", "Carl", "Dora → Emil", "Round 1, Table 3: running totals", "Hand", "Running total"} <= set(texts)


@pytest.mark.usefixtures("english")
def test_charts_without_data_say_so():
    assert "No hand entered yet." in svg_texts(charts.table_chart("Table 1", ["Anna", "Berta", "Carl"], [], []))
    assert "No hand played yet." in svg_texts(charts.contracts_chart([]))
    assert "No round played yet." in svg_texts(charts.progression_chart(Progression([], "Game points", [])))


def test_a_data_uri_holds_the_svg():
    import base64

    svg = charts.contracts_chart([ContractCount("rufer", "Rufer", played=1, won=1)])
    uri = charts.data_uri(svg)
    assert uri.startswith("data:image/svg+xml;base64,") and base64.b64decode(uri.split(",", 1)[1]) == svg
