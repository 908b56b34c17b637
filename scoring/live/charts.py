"""The day in pictures: SVG charts drawn on the server with matplotlib, so the same picture shows on
the pages (an ``<img>`` of its own cached address) and goes into the PDF day report.

Pure drawing over plain data (:mod:`scoring.live.statistics` computes it): each function returns the
SVG as ``bytes``. No GUI backend is touched (a :class:`~matplotlib.figure.Figure` saved as SVG),
text stays text (``svg.fonttype: none``: names are searchable, and selectable in the PDF), and
the output is the same for the same data (``svg.hashsalt`` fixed, no date in the metadata), so a
chart can be compared and cached. Readable in black and white: lines differ by marker and line
style, bars by hatching and their own labels, never by colour alone. Labels are translated in the
active language; player and contract names are shown as they are (never read as mathtext).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

import matplotlib
from django.utils.translation import gettext as _
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

STYLE = {
    "svg.fonttype": "none",  # text as <text>, not paths
    "svg.hashsalt": "tarock-charts",  # the ids of clip paths are the same from run to run
    "text.parse_math": False,  # a name with two "$" stays a name
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#d0d0d0",
    "grid.linewidth": 0.6,
    "legend.frameon": False,
}

# Series styles: a marker and a line style each, so that eleven lines can be told apart on a
# black-and-white print; the colours help on a screen only.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p")
LINESTYLES = ("-", "--", ":", "-.")
COLOURS = ("#1f4e79", "#a33b20", "#2e7d32", "#6a1b9a", "#8d6e00", "#00838f", "#4e342e", "#ad1457", "#37474f", "#558b2f")
CHOSEN = "#000000"  # the player chosen on the page: a thick black line

WIDTH_IN = 7.5  # figure width in inches (an A4 page's text width is about 7.2 in)


def series_style(index: int) -> dict:
    """Line style of the ``index``-th series (0-based): marker, line style and colour, cycling
    through combinations that differ in marker and line style together."""
    return {
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": LINESTYLES[index % len(LINESTYLES)],
        "color": COLOURS[index % len(COLOURS)],
        "markersize": 5,
        "linewidth": 1.4,
    }


def _svg(fig: Figure) -> bytes:
    """The figure as SVG bytes, deterministic (no date, fixed hash salt)."""
    buffer = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buffer.getvalue()


def data_uri(svg: bytes) -> str:
    """``svg`` as a ``data:image/svg+xml;base64,…`` address, for an ``<img>`` in a print (the
    PDF's renderer draws it as vectors with its text as text)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def _empty(ax, message: str) -> None:
    """A chart without data says so instead of showing empty axes."""
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes)


def _figure(height: float) -> tuple[Figure, object]:
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(WIDTH_IN, height))
        ax = fig.add_subplot()
    return fig, ax


def _integer_axes(ax, x: list[int], values: list[float]) -> None:
    """Whole numbers on both axes, whatever the data: rounds and hands are counted, scores are
    whole points. A single round (or hand) or a single value gives matplotlib a range of a tenth
    around it, which it would mark 0.945 … 1.050: the axis then spans one step either side of it
    and carries that number alone, or it and its neighbours."""
    integer = {"integer": True, "min_n_ticks": 1}
    if min(x) == max(x):
        ax.set_xlim(x[0] - 1, x[0] + 1)
        ax.set_xticks([x[0]])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(**integer))
    low, high = min(values + [0]), max(values + [0])  # the zero line is always in the picture
    if low == high:
        ax.set_ylim(low - 1, high + 1)
    ax.yaxis.set_major_locator(MaxNLocator(**integer))


def lines_chart(
    title: str,
    x: Sequence[int],
    series: Sequence[tuple[str, Sequence[float | None], bool]],
    xlabel: str,
    ylabel: str,
    empty: str,
) -> bytes:
    """A line chart as SVG: ``series`` of ``(name, values, emphasised)``, one value per ``x``
    (``None`` leaves a gap), each line with its own marker and line style; an emphasised line is
    thick and black. The legend (outside, on the right) names every line; ``empty`` is shown when
    there is no value at all."""
    with matplotlib.rc_context(STYLE):
        fig, ax = _figure(4.2)
        ax.set_title(title, loc="left")
        values = [v for _name, vals, _e in series for v in vals if v is not None]
        if not x or not values:
            _empty(ax, empty)
            return _svg(fig)
        handles, labels = [], []
        for index, (name, vals, emphasised) in enumerate(series):
            style = series_style(index)
            if emphasised:
                style.update(color=CHOSEN, linewidth=2.6, markersize=7, zorder=3)
            (line,) = ax.plot(list(x), [float("nan") if v is None else v for v in vals], **style)
            handles.append(line)
            labels.append(name)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        _integer_axes(ax, list(x), values)
        ax.axhline(0, color="#000000", linewidth=0.8)
        # Explicit handles and labels: a name starting with "_" is still shown.
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, handlelength=3)
        return _svg(fig)


def progression_chart(progression) -> bytes:
    """The standings round by round (:class:`scoring.live.statistics.Progression`): each player's
    total after every round, the chosen player in thick black."""
    series = [(s.name, s.totals, s.chosen) for s in progression.series]
    return lines_chart(
        _("Standings round by round"),
        progression.rounds,
        series,
        _("Round"),
        progression.label,
        _("No round played yet."),
    )


def table_chart(title: str, names: Sequence[str], numbers: Sequence[int], totals: Sequence[Sequence[int]]) -> bytes:
    """A table's running totals hand by hand: ``names`` per seat, ``numbers`` of the hands and
    ``totals`` the running totals after each hand (one list per hand, one value per seat)."""
    series = [(name, [row[i] if i < len(row) else None for row in totals], False) for i, name in enumerate(names)]
    return lines_chart(title, list(numbers), series, _("Hand"), _("Running total"), _("No hand entered yet."))


def contracts_chart(contracts) -> bytes:
    """The contract mix of the day as horizontal bars (:class:`scoring.live.statistics.ContractCount`,
    catalogue order top down): the part won solid, the part lost hatched, a game without a
    declarer (Trischaken, Klop) cross-hatched; each bar carries its numbers as text."""
    with matplotlib.rc_context(STYLE):
        height = 1.4 + 0.34 * max(1, len(contracts))
        fig, ax = _figure(height)
        ax.set_title(_("Contracts of the day"), loc="left")
        if not contracts:
            _empty(ax, _("No hand played yet."))
            return _svg(fig)
        names = [c.name for c in contracts]
        y = list(range(len(contracts)))
        won = [c.won if c.decided else 0 for c in contracts]
        lost = [c.lost if c.decided else 0 for c in contracts]
        other = [0 if c.decided else c.played for c in contracts]
        bar = {"height": 0.62, "edgecolor": "#000000", "linewidth": 0.6}
        ax.barh(y, won, color="#4d4d4d", **bar)
        ax.barh(y, lost, left=won, color="#ffffff", hatch="////", **bar)
        ax.barh(y, other, color="#ffffff", hatch="xx", **bar)
        most = max(c.played for c in contracts)
        for i, c in enumerate(contracts):
            if c.decided:
                text = _("%(played)s played, %(won)s won") % {"played": c.played, "won": c.won}
            else:
                text = _("%(played)s played") % {"played": c.played}
            ax.text(c.played + most * 0.01, i, text, va="center", fontsize=8)
        ax.set_yticks(y, names)
        ax.invert_yaxis()
        ax.set_xlim(0, most * 1.35)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(_("Hands"))
        ax.grid(axis="y", visible=False)
        ax.set_axisbelow(True)
        legend = [
            Patch(facecolor="#4d4d4d", edgecolor="#000000", label=_("won")),
            Patch(facecolor="#ffffff", edgecolor="#000000", hatch="////", label=_("lost")),
        ]
        if any(other):
            legend.append(Patch(facecolor="#ffffff", edgecolor="#000000", hatch="xx", label=_("everyone for himself")))
        ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(0.0, -0.5 / height - 0.08), ncol=3, fontsize=8)
        return _svg(fig)

