"""What the printed sheets show, computed once as plain data; the templates only render.

- :func:`score_sheets`: a blank score sheet (Wertungszettel) per table of a round, for the players
  to fill in: names in playing order with their drawn cards, a numbered row per hand with its
  dealer, the sitting-out cell marked, a sum row and the table's private link as a QR code;
- :func:`table_results`: every table of a round with its hands as entered and the totals;
- :func:`certificates`: one certificate (Urkunde) per player placed in the first N ranks;
- :func:`card_pages`: the director's table cards grouped 1, 2 or 4 to an A4 page;
- :func:`wall_seating`: the seating by table in large type, for the wall.

Names are set to fit their boxes (:func:`fit_text`, measured with DejaVu Sans' own advance
widths): they wrap at spaces only, never inside a word, and print smaller where a column is narrow.

Each loads what it needs in a fixed number of queries however many tables a round has
(``conventions.md``, "Query counts stay flat"): the tables, their seats (with players and
substitutes) and, for the results, their hands, each in one query.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Prefetch

from scoring.models import Hand
from scoring.ranking import format_points
from scoring.services import TableInfo, build_sheet, info_from_seats, seat_name
from scoring.standings import compute_standings
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.problems import card_labels

MAX_PLACES = 20
DEFAULT_PLACES = 3


# --------------------------------------------------------------------------------------------------
# Setting text to fit a box (the print stylesheet's DejaVu Sans)
# --------------------------------------------------------------------------------------------------

# Advance widths of DejaVu Sans and DejaVu Sans Bold (the font of print.css) for the characters
# U+0020 to U+007E, in 1/2048 em, read from the fonts' hmtx tables. Letters with accents (ä, č, é)
# are as wide as their base letter; any other character counts as a full em, wider than nearly all
# of them, so an unknown name prints smaller rather than overflowing.
_ASCII_WIDTHS = {
    False: (
        651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303,
        1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577,
        1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401,
        2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298,
        569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075,
        1303, 690, 1303, 1716,
    ),
    True: (
        713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425,
        1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700,
        1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585,
        2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458,
        702, 702, 1362, 702, 2134, 1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192,
        1458, 748, 1458, 1716,
    ),
}
_OTHER_WIDTHS = {  # characters a name or a card may hold that do not decompose to ASCII: (regular, bold)
    "ß": (1290, 1473), "→": (1716, 1716), "–": (1024, 1024), "’": (651, 778), "·": (651, 778),
    "\u00a0": (651, 713), "\u2007": (1303, 1425), "Ø": (1612, 1741), "ø": (1253, 1407), "Đ": (1577, 1700),
    "đ": (1300, 1466), "Ł": (1141, 1305), "ł": (569, 702),
}
PT_MM = 25.4 / 72  # one point in mm


def _char_width(char: str, bold: bool) -> int:
    """Advance width of ``char`` in 1/2048 em (a full em when the table does not know it)."""
    code = ord(char)
    if 32 <= code < 127:
        return _ASCII_WIDTHS[bold][code - 32]
    if char in _OTHER_WIDTHS:
        return _OTHER_WIDTHS[char][bold]
    base = unicodedata.normalize("NFD", char)[:1]
    if base and 32 <= ord(base) < 127:
        return _ASCII_WIDTHS[bold][ord(base) - 32]
    return 2048


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in mm of ``text`` set on one line in DejaVu Sans (``bold``: DejaVu Sans Bold) at
    ``size`` pt, without kerning (which only narrows it)."""
    return sum(_char_width(c, bold) for c in text) / 2048 * size * PT_MM


@dataclass(frozen=True)
class Fit:
    """Text set to fit a box: the font ``size`` in pt and the ``lines`` it breaks into (at spaces
    only). ``height`` is the lines' height in mm at the given line height; ``plain``: one line at
    the size asked for, which the template may print without a size of its own."""

    size: float
    lines: tuple[str, ...]
    bold: bool
    height: float
    plain: bool = False

    @property
    def pt(self) -> str:
        """The size for a style attribute, e.g. ``"6.75pt"`` (never localized)."""
        return f"{self.size:g}pt"


def _wrap(words: Sequence[str | tuple[str, str]], width: float, size: float, bold: bool) -> list[str] | None:
    """``words`` broken greedily into lines no wider than ``width`` mm at ``size`` pt, or ``None``
    when a single word is wider than that. A word is a text joined to the one before it by a space,
    or a ``(text, glue)`` pair: the part of a double name after its hyphen has the glue ``""``."""
    lines: list[str] = []
    current, used = "", 0.0
    for word in words:
        word, glue = (word, " ") if isinstance(word, str) else word
        w = text_width(word, size, bold)
        if w > width:
            return None
        gap = text_width(glue, size, bold)
        if current and used + gap + w <= width:
            current, used = f"{current}{glue}{word}", used + gap + w
        else:
            if current:
                lines.append(current)
            current, used = word, w
    lines.append(current)
    return lines


def _hyphen_parts(text: str) -> tuple[tuple[str, str], ...]:
    """``text``'s words, each double name also split after its hyphens: "Anna Hofer-Mair" ->
    ``(("Anna", " "), ("Hofer-", " "), ("Mair", ""))`` (a line may end after a hyphen, as it
    would in a book; the hyphen stays)."""
    parts: list[tuple[str, str]] = []
    for word in text.split():
        pieces = [piece for piece in word.replace("-", "-\n").split("\n") if piece]
        parts += [(piece, " " if k == 0 else "") for k, piece in enumerate(pieces)]
    return tuple(parts)


@lru_cache(maxsize=4096)
def fit_text(
    text: str,
    width: float,
    height: float,
    size: float = 8.0,
    bold: bool = False,
    leading: float = 1.15,
    max_lines: int = 0,
    hyphens: bool = False,
) -> Fit:
    """``text`` at the largest size up to ``size`` pt (in quarter points) whose lines, broken at
    spaces only, are each at most ``width`` mm wide and together at most ``height`` mm high at
    ``leading`` times the size (and, with ``max_lines``, no more than that many lines).
    ``hyphens``: a line may also end after the hyphen of a double name ("Hofer-" / "Mair").

    A word is never broken: a long one makes the whole text smaller, down to 1 pt; a text that
    fits not even then is put on one line at the size that fits the width. Widths from
    :func:`text_width`, with 3 % to spare for the renderer's rounding.
    """
    words = (_hyphen_parts(text) if hyphens else tuple(text.split())) or ("",)
    width *= 0.97
    for k in range(int(round((size - 1) * 4)) + 1):
        s = size - k / 4
        lines = _wrap(words, width, s, bold)
        if lines is None or (max_lines and len(lines) > max_lines):
            continue
        tall = round(len(lines) * s * leading * PT_MM, 2)
        if tall <= height:
            return Fit(s, tuple(lines), bold, tall, plain=k == 0 and len(lines) == 1)
    line = " ".join(text.split())
    s = max(0.25, int(width / max(text_width(line, 1, bold), 0.01) * 4) / 4)
    return Fit(s, (line,), bold, round(s * leading * PT_MM, 2))


# --------------------------------------------------------------------------------------------------
# Loading a round's tables in a fixed number of queries
# --------------------------------------------------------------------------------------------------


def _tables(rnd: Round, hands: bool = False) -> list[Table]:
    """The round's tables with their seats (players, substitutes) and, with ``hands``, their hands
    in number order: two or three queries."""
    prefetch = [
        Prefetch(
            "seats",
            queryset=Seat.objects.select_related("registration__player", "substitute__player").order_by("position"),
        )
    ]
    if hands:
        prefetch.append(Prefetch("hands", queryset=Hand.objects.order_by("number")))
    tables = list(Table.objects.filter(round=rnd).prefetch_related(*prefetch).order_by("number"))
    for table in tables:
        table.round = rnd  # no query per table for table.round.tournament
    return tables


def _info(table: Table, tournament: Tournament, rs) -> TableInfo:
    """:func:`scoring.services.table_info` for the next hand, from the prefetched seats (no query)."""
    return info_from_seats(table, list(table.seats.all()), tournament, rs)


class _LoadedHands:
    """``table.hands`` as :func:`~scoring.services.build_sheet` reads it, from the prefetched hands."""

    def __init__(self, hands: list[Hand]):
        self._hands = hands

    def order_by(self, *fields):
        if fields != ("number",):
            raise ValueError(f"only the hands in number order are loaded, not {fields}")
        return self._hands


class _LoadedTable:
    """A table whose hands are loaded: everything else is the table's own."""

    def __init__(self, table: Table):
        self._table = table
        self.hands = _LoadedHands(list(table.hands.all()))

    def __getattr__(self, name):
        return getattr(self._table, name)


# --------------------------------------------------------------------------------------------------
# Score sheets (Wertungszettel)
# --------------------------------------------------------------------------------------------------


@dataclass
class SheetPlayer:
    """A column of the score sheet: the player of a seat, the card he drew for it, where the
    column is (``x``, ``width`` in mm from the grid's left edge) and how the name and the card are
    set in the column's head (:func:`fit_text`: whole words, smaller type in a narrow column)."""

    name: str
    card: str
    x: float = 0.0
    width: float = 0.0
    fit: Fit | None = None
    card_fit: Fit | None = None


@dataclass
class SheetLine:
    """A numbered row of a blank score sheet: the hand's dealer (seat, name and how the name is set
    in the dealer column) and, per seat, ``"out"`` for the seat that sits out and scores nothing
    (hatched), ``"out-pays"`` for one that sits out but pays and receives (Cego's dealer; shaded, to
    be written in) or ``""``."""

    number: int
    dealer: int
    dealer_name: str
    cells: list[str]
    dealer_fit: Fit | None = None

    @property
    def number_label(self) -> str:
        """The hand number right-aligned in two digits (a figure space pads 1 to 9)."""
        return f"{self.number:>2}".replace(" ", "\u2007")


@dataclass(frozen=True)
class SheetGrid:
    """The ruled grid of a score sheet, in mm: the lines and marked cells are one SVG drawn behind
    the text (far cheaper for WeasyPrint than a table of empty cells); the same grid serves every
    table of the same size and cap. ``extra`` is the height of the radelci row under the sum row
    (Bled, ``tarok-bled.md`` §5), 0 without one."""

    svg: str  # data URI
    width: float
    height: float
    head: float  # height of the column heads
    row: float  # height of a hand's row
    foot: float  # height of the sum row
    columns: tuple[tuple[float, float], ...]  # (x, width) of #, dealer, contract, then each seat
    extra: float = 0.0

    @property
    def body(self) -> float:
        """Height of the hands' rows together."""
        return round(self.height - self.head - self.foot - self.extra, 2)

    @property
    def dense(self) -> bool:
        return self.row < 5.5

    @property
    def label_x(self) -> float:
        """Where the sum and radelci rows' labels start: in the dealer column, mm."""
        return round(self.columns[1][0] + CELL_PAD, 2)


GRID_WIDTH = 182.0  # A4 less the page margins of print.css
GRID_ROWS = 182.0  # at most this much for the hands' rows (one page with the heading and QR code)
GRID_FIXED = (8.0, 32.0, 28.0)  # #, dealer, contract
GRID_HEAD = 15.0  # the column heads: a player's name in up to three lines of 8 pt, then his card
GRID_FOOT = 9.0  # the sum row
GRID_RADELCI = 10.0  # Bled: the row to draw each player's radelci in
CELL_PAD = 1.2  # text inset from the rules, mm (print.css .sheetgrid)
HEAD_PAD = 0.8  # a player's head: inset from the rules and from the head's bottom, mm
CARD_GAP = 0.4  # between a player's name and his card (print.css .sheetgrid .gc .card), mm
NAME_PT, CARD_PT, DEALER_PT, DENSE_PT = 8.0, 7.5, 8.0, 6.5
NAME_LEADING, DEALER_LEADING = 1.15, 1.1  # line heights of print.css .sheetgrid .gc and .dn


def sheet_grid(size: int, lines: list[SheetLine], radelci: bool = False) -> SheetGrid:
    """The grid of a sheet with ``size`` seats and these rows (marked cells from ``lines``); with
    ``radelci`` a row under the sum row for each player's radelci."""
    from urllib.parse import quote

    head, foot, extra = GRID_HEAD, GRID_FOOT, GRID_RADELCI if radelci else 0.0
    row = round(min(7.0, GRID_ROWS / max(1, len(lines))), 2)
    player = (GRID_WIDTH - sum(GRID_FIXED)) / size
    xs = [0.0]
    for w in (*GRID_FIXED, *[player] * size):
        xs.append(round(xs[-1] + w, 2))
    height = round(head + row * len(lines) + foot + extra, 2)
    columns = tuple((xs[i], round(xs[i + 1] - xs[i], 2)) for i in range(len(xs) - 1))
    first = len(GRID_FIXED)
    marks = []
    for k, line in enumerate(lines):
        y = round(head + row * k, 2)
        for i, css in enumerate(line.cells):
            if css:
                x, w = columns[first + i]
                fill = "url(#h)" if css == "out" else "#d8d8d8"
                marks.append(f'<rect x="{x}" y="{y}" width="{w}" height="{row}" fill="{fill}"/>')
    sum_top = round(head + row * len(lines), 2)
    rules = [f"M{x} 0V{height}" for x in xs]
    rules += [f"M0 {round(head + row * k, 2)}H{GRID_WIDTH}" for k in range(len(lines) + 1)]
    rules += [f"M0 0H{GRID_WIDTH}", f"M0 {height}H{GRID_WIDTH}"]
    if extra:
        rules.append(f"M0 {round(sum_top + foot, 2)}H{GRID_WIDTH}")
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{GRID_WIDTH}mm" height="{height}mm" '
        f'viewBox="0 0 {GRID_WIDTH} {height}">'
        '<defs><pattern id="h" width="1.4" height="1.4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="0.3" height="1.4" fill="#444"/></pattern></defs>'
        + "".join(marks)
        + f'<path fill="none" stroke="#000" stroke-width="0.2" d="{" ".join(rules)}"/>'
        + f'<path fill="none" stroke="#000" stroke-width="0.6" d="M0 {sum_top}H{GRID_WIDTH}"/>'
        "</svg>"
    )
    return SheetGrid(
        svg="data:image/svg+xml," + quote(svg),
        width=GRID_WIDTH,
        height=height,
        head=head,
        row=row,
        foot=foot,
        columns=columns,
        extra=extra,
    )


def head_fits(name: str, card: str, width: float) -> tuple[Fit, Fit]:
    """How a player's ``name`` and ``card`` are set in a column head ``width`` mm wide: the card on
    one line at up to 7.5 pt, the name above it in bold at up to 8 pt in as many lines as the head
    leaves (three at 8 pt), broken at spaces only; a name that would need less than 7 pt in bold
    is set in the regular weight, which is narrower."""
    inner = width - 2 * HEAD_PAD
    card_fit = fit_text(card, inner, CARD_PT * NAME_LEADING * PT_MM, size=CARD_PT, max_lines=1)
    room = GRID_HEAD - HEAD_PAD - card_fit.height - CARD_GAP - 0.8  # 0.8 mm clear of the rule above
    fit = fit_text(name, inner, room, size=NAME_PT, bold=True, leading=NAME_LEADING)
    if fit.size < 7:
        regular = fit_text(name, inner, room, size=NAME_PT, leading=NAME_LEADING)
        fit = regular if regular.size > fit.size else fit
    return fit, card_fit


def dealer_fit(name: str, width: float, row: float) -> Fit:
    """How a dealer's ``name`` is set in a hand's row of the dealer column (``width`` and ``row``
    height in mm): up to 8 pt (6.5 pt in dense rows), on two lines where that prints it larger,
    broken at spaces only, never wider than the column."""
    size = DENSE_PT if row < 5.5 else DEALER_PT
    return fit_text(name, width - 2 * CELL_PAD, row - 0.8, size=size, leading=DEALER_LEADING, max_lines=2)


@dataclass
class ScoreSheet:
    """One table's blank score sheet."""

    table: Table
    players: list[SheetPlayer]
    lines: list[SheetLine]
    grid: SheetGrid
    url: str
    qr: str

    @property
    def cap(self) -> int:
        return len(self.lines)

    @property
    def two_line_dealers(self) -> bool:
        """A dealer's name takes two lines in his rows (the sheet then prints their second lines)."""
        return any(len(line.dealer_fit.lines) > 1 for line in self.lines if line.dealer_fit)


@dataclass
class ScoreSheets:
    round: Round
    tournament: Tournament
    ruleset: object
    sheets: list[ScoreSheet] = field(default_factory=list)

    @property
    def zero_sum(self) -> bool:
        return self.ruleset.zero_sum

    @property
    def radelci(self) -> bool:
        """The seats carry marks into later hands (Bled radelci, ``tarok-bled.md`` §5): the sheets
        have a row to draw them in, labelled with :attr:`marks_label`."""
        return bool(self.ruleset.marks_label)

    @property
    def marks_label(self) -> str:
        """The name of the marks row ("radelci"), or ``""`` where the ruleset has none."""
        return self.ruleset.marks_label or ""


def score_sheets(rnd: Round, link: Callable[[str], str]) -> ScoreSheets:
    """Blank score sheets of every table of ``rnd`` (two queries besides ``rnd.tournament``).

    ``link(token)`` is the absolute URL of a table's private link (the view builds it from the
    request); its QR code is printed on the sheet (a PNG printed with crisp modules: as an SVG,
    250 codes cost WeasyPrint about a second more). Each table plays
    ``tournament.hands_for_table(size)`` hands; the dealer of hand k is
    ``table.dealer_of(k, size)`` and the ruleset says which seat sits out. Names are set whole
    (:func:`head_fits`, :func:`dealer_fit`); Bled sheets get a radelci row under the sum row.
    """
    import segno

    tournament = rnd.tournament
    rs = tournament.get_ruleset()
    result = ScoreSheets(round=rnd, tournament=tournament, ruleset=rs)
    out_class = "out-pays" if rs.sitting_out_pays else "out"
    grids: dict[tuple, SheetGrid] = {}
    cards = card_labels(rs)
    first = len(GRID_FIXED)
    for table in _tables(rnd):
        seats = list(table.seats.all())
        size = len(seats)
        names = [seat_name(s) for s in seats]
        lines = []
        for k in range(1, tournament.hands_for_table(size) + 1):
            dealer = table.dealer_of(k, size)
            out = rs.sitting_out(dealer, size)
            lines.append(SheetLine(k, dealer, names[dealer], [out_class if i == out else "" for i in range(size)]))
        shape = (size, tuple(tuple(line.cells) for line in lines))
        grid = grids.get(shape) or grids.setdefault(shape, sheet_grid(size, lines, result.radelci))
        dealers = [dealer_fit(n, grid.columns[1][1], grid.row) for n in names]
        for line in lines:
            line.dealer_fit = dealers[line.dealer]
        players = []
        for i, (n, s) in enumerate(zip(names, seats)):
            card = cards.get(s.card, s.card)
            x, width = grid.columns[first + i]
            players.append(SheetPlayer(n, card, x, width, *head_fits(n, card, width)))
        url = link(table.token)
        result.sheets.append(
            ScoreSheet(
                table=table,
                players=players,
                lines=lines,
                grid=grid,
                url=url,
                qr=segno.make(url).png_data_uri(scale=3),  # a PNG: WeasyPrint parses an SVG path at every draw
            )
        )
    return result


# --------------------------------------------------------------------------------------------------
# Table results (Tischtabellen)
# --------------------------------------------------------------------------------------------------


@dataclass
class ResultLine:
    """A hand as entered: number, dealer, label, the row and the seat that sat out (or ``None``)."""

    number: int
    dealer_name: str
    label: str
    cells: list[tuple[int, str]]  # (score, "out" for the seat that sat out)


# The table results' grid (print.css .resultgrid): the text width of an A4 page (print.css @page
# margins and the body's 8 px each side); a cell's padding, added to the width the stylesheet
# gives it; the hand number's and the dealer's columns; the least the hand's own column keeps.
# The players' columns share the rest, 16 to 24 mm of text each.
RESULT_WIDTH = 210 - 2 * 14 - 2 * 8 * 25.4 / 96
RESULT_PAD = 1.2  # mm each side of a cell (print.css .resultgrid th)
RESULT_FIXED = 7 + 26 + 4 * RESULT_PAD
RESULT_HAND_MIN = 40.0
RESULT_PLAYER_MIN, RESULT_PLAYER_MAX = 16.0, 24.0
RESULT_HEAD_PT, RESULT_HEAD_LINES = 8.0, 4


@dataclass(frozen=True)
class ResultHead:
    """A player's column head in the table results: his ``name`` set to fit the column
    (``fit``: whole words, or double names broken after their hyphen, at most four lines, smaller
    type where a word is too wide) and the width of the column's text for the stylesheet
    ("17.6mm"; the cell's padding comes on top)."""

    name: str
    fit: Fit
    width: str


def result_heads(names: Sequence[str]) -> list[ResultHead]:
    """The players' column heads of one table's results: each column as wide as the page allows
    (text :data:`RESULT_PLAYER_MIN` to :data:`RESULT_PLAYER_MAX` mm), each name fitted inside it, so no
    head runs over into its neighbour's column: bold at up to 8 pt, the regular weight (narrower)
    where bold would need less than 7 pt."""
    room = (RESULT_WIDTH - RESULT_FIXED - RESULT_HAND_MIN) / max(1, len(names)) - 2 * RESULT_PAD
    width = int(max(RESULT_PLAYER_MIN, min(RESULT_PLAYER_MAX, room)) * 10) / 10  # the text's width
    inner, height = width, RESULT_HEAD_LINES * RESULT_HEAD_PT * 1.15 * PT_MM + 0.1
    heads = []
    for name in names:
        fit = fit_text(name, inner, height, size=RESULT_HEAD_PT, bold=True, hyphens=True)
        if fit.size < 7:
            regular = fit_text(name, inner, height, size=RESULT_HEAD_PT, hyphens=True)
            fit = regular if regular.size > fit.size else fit
        heads.append(ResultHead(name, fit, f"{width:g}mm"))
    return heads


@dataclass
class TableResult:
    table: Table
    players: list[str]
    lines: list[ResultLine]
    totals: list[int]
    cap: int
    table_points: list[str] = field(default_factory=list)  # Bled: "2", "1½" … by the totals (§7)

    @property
    def played(self) -> int:
        return len(self.lines)

    @property
    def heads(self) -> list[ResultHead]:
        """The players' column heads, fitted to their columns (:func:`result_heads`)."""
        return result_heads(self.players)


@dataclass
class TableResults:
    round: Round
    tournament: Tournament
    ruleset: object
    tables: list[TableResult] = field(default_factory=list)


def table_results(rnd: Round) -> TableResults:
    """Every table of ``rnd`` with its hands as entered and the totals (three queries besides
    ``rnd.tournament``), row by row as :func:`scoring.services.build_sheet` shows them."""
    tournament = rnd.tournament
    rs = tournament.get_ruleset()
    result = TableResults(round=rnd, tournament=tournament, ruleset=rs)
    for table in _tables(rnd, hands=True):
        info = _info(table, tournament, rs)
        sheet = build_sheet(_LoadedTable(table), info)
        result.tables.append(
            TableResult(
                table=table,
                players=[info.sheet_names[s.position] for s in info.seats],
                lines=[
                    ResultLine(
                        number=row.hand.number,
                        dealer_name=row.dealer_name,
                        label=f"{row.label} · {row.note}" if row.note else row.label,
                        cells=[(s, "out" if i == row.sitting_out else "") for i, s in enumerate(row.scores)],
                    )
                    for row in sheet.rows
                ],
                totals=sheet.totals,
                cap=info.cap,
                table_points=[format_points(p) for p in rs.table_points(sheet.totals)]
                if rs.victory_points
                else [],
            )
        )
    return result


# --------------------------------------------------------------------------------------------------
# Certificates (Urkunden)
# --------------------------------------------------------------------------------------------------


@dataclass
class Certificate:
    """One certificate (Urkunde): rank, player, club and what he ranked by, as printed
    ("1½" table points in Bled, ``tarok-bled.md`` §7; the total elsewhere)."""

    rank: int
    name: str
    club: str
    total: str


def parse_places(value, default: int = DEFAULT_PLACES) -> int:
    """``?places=`` as a number of places, 1 to :data:`MAX_PLACES`; ``default`` when absent or not
    a number."""
    try:
        places = int(value)
    except (TypeError, ValueError):
        return default
    return max(1, min(MAX_PLACES, places))


def certificates(tournament: Tournament, places: int = DEFAULT_PLACES) -> list[Certificate]:
    """A certificate for every player ranked in the first ``places`` places of the standings
    (players who share a rank share it on their certificates too, so a tie for third gives two
    third places). Players without a round played get none."""
    return [
        Certificate(rank=row.rank, name=row.entry.name, club=row.entry.club, total=format_points(row.total))
        for row in compute_standings(tournament).rows
        if row.rank <= places and any(r is not None for r in row.entry.rounds)
    ]


# --------------------------------------------------------------------------------------------------
# Table cards, several to a page
# --------------------------------------------------------------------------------------------------

CARDS_PER_PAGE = (1, 2, 4)


def parse_per_page(value, default: int = 1) -> int:
    """``?per_page=`` of the table cards: 1, 2 or 4 cards to an A4 page; ``default`` when absent
    or anything else."""
    try:
        per_page = int(value)
    except (TypeError, ValueError):
        return default
    return per_page if per_page in CARDS_PER_PAGE else default


def card_pages(cards: Sequence, per_page: int) -> list[list]:
    """``cards`` in order, ``per_page`` to a page (the last page may hold fewer); no pages for no
    cards. Raises ``ValueError`` for a number of cards per page other than 1, 2 or 4."""
    if per_page not in CARDS_PER_PAGE:
        raise ValueError(f"{per_page} cards to a page: only {CARDS_PER_PAGE}")
    cards = list(cards)
    return [cards[i : i + per_page] for i in range(0, len(cards), per_page)]


# --------------------------------------------------------------------------------------------------
# The seating list for the wall, in large type
# --------------------------------------------------------------------------------------------------

WALL_COLUMN = 91.0  # width of a column of tables on the wall list, mm (print.css .walltables)
WALL_SEAT = 11.0  # the seat number's share of it, mm
WALL_NAME_PT, WALL_NAME_LEADING = 20.0, 1.1  # a name: up to 20 pt bold on at most two lines


@dataclass
class WallPlayer:
    """A seat on the wall list: its number (1-based), who sits there (``"A → B"`` once a substitute
    took over), the card drawn for it and how the name is set (:func:`fit_text`)."""

    seat: int
    name: str
    card: str
    fit: Fit


@dataclass
class WallTable:
    """A table on the wall list with its players in seat order."""

    table: Table
    players: list[WallPlayer]


def wall_seating(rnd: Round) -> list[WallTable]:
    """Every table of ``rnd`` in number order with its players in seat order and their drawn
    cards, for the large-type seating list on the wall (two queries besides
    ``rnd.tournament``). A name is set in bold at up to 20 pt on at most two lines of a column
    :data:`WALL_COLUMN` mm wide, broken at spaces only and smaller when a word needs it."""
    cards = card_labels(rnd.tournament.get_ruleset())
    width = WALL_COLUMN - WALL_SEAT - 2.0
    height = 2 * WALL_NAME_PT * WALL_NAME_LEADING * PT_MM
    return [
        WallTable(
            table=table,
            players=[
                WallPlayer(
                    seat=s.position + 1,
                    name=seat_name(s),
                    card=cards.get(s.card, s.card),
                    fit=fit_text(
                        seat_name(s), width, height, size=WALL_NAME_PT, bold=True, leading=WALL_NAME_LEADING
                    ),
                )
                for s in table.seats.all()
            ],
        )
        for table in _tables(rnd)
    ]
