"""What the printed PDFs of issue 7 show, computed once as plain data; the templates only render.

- :func:`score_sheets`: a blank score sheet (Wertungszettel) per table of a round, for the players
  to fill in: names in playing order with their drawn cards, a numbered row per hand with its
  dealer, the sitting-out cell marked, a sum row and the table's private link as a QR code;
- :func:`table_results`: every table of a round with its hands as entered and the totals;
- :func:`certificates`: one certificate (Urkunde) per player placed in the first N ranks.

Each loads what it needs in a fixed number of queries however many tables a round has
(``conventions.md``, "Query counts stay flat"): the tables, their seats (with players and
substitutes) and, for the results, their hands, each in one query.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Prefetch

from tournaments.models import Round, Seat, Table, Tournament

from variants import card_names

from .models import Hand
from .services import TableInfo, build_sheet, info_from_seats, seat_name
from .ranking import format_points
from .standings import compute_standings

MAX_PLACES = 20
DEFAULT_PLACES = 3


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
    """A column of the score sheet: the player of a seat, the card he drew for it, and where the
    column is (``x``, ``width`` in mm from the grid's left edge)."""

    name: str
    card: str
    x: float = 0.0
    width: float = 0.0

    @property
    def long(self) -> bool:
        """A name that would take more than three lines of the column head: printed smaller."""
        return len(self.name) > self.width * 1.3


@dataclass
class SheetLine:
    """A numbered row of a blank score sheet: the hand's dealer (seat and name) and, per seat,
    ``"out"`` for the seat that sits out and scores nothing (hatched), ``"out-pays"`` for one that
    sits out but pays and receives (Cego's dealer; shaded, to be written in) or ``""``."""

    number: int
    dealer: int
    dealer_name: str
    cells: list[str]

    @property
    def number_label(self) -> str:
        """The hand number right-aligned in two digits (a figure space pads 1 to 9)."""
        return f"{self.number:>2}".replace(" ", "\u2007")


@dataclass(frozen=True)
class SheetGrid:
    """The ruled grid of a score sheet, in mm: the lines and marked cells are one SVG drawn behind
    the text (far cheaper for WeasyPrint than a table of empty cells); the same grid serves every
    table of the same size and cap."""

    svg: str  # data URI
    width: float
    height: float
    head: float  # height of the column heads
    row: float  # height of a hand's row
    foot: float  # height of the sum row
    columns: tuple[tuple[float, float], ...]  # (x, width) of #, dealer, contract, then each seat

    @property
    def body(self) -> float:
        """Height of the hands' rows together."""
        return round(self.height - self.head - self.foot, 2)

    @property
    def dense(self) -> bool:
        return self.row < 5.5


GRID_WIDTH = 182.0  # A4 less the page margins of print.css
GRID_ROWS = 182.0  # at most this much for the hands' rows (one page with the heading and QR code)
GRID_FIXED = (8.0, 32.0, 28.0)  # #, dealer, contract


def sheet_grid(size: int, lines: list[SheetLine]) -> SheetGrid:
    """The grid of a sheet with ``size`` seats and these rows (marked cells from ``lines``)."""
    from urllib.parse import quote

    head, foot = 15.0, 9.0  # the heads: up to three lines of a name and the card
    row = round(min(7.0, GRID_ROWS / max(1, len(lines))), 2)
    player = (GRID_WIDTH - sum(GRID_FIXED)) / size
    xs = [0.0]
    for w in (*GRID_FIXED, *[player] * size):
        xs.append(round(xs[-1] + w, 2))
    height = round(head + row * len(lines) + foot, 2)
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
    rules = [f"M{x} 0V{height}" for x in xs]
    rules += [f"M0 {round(head + row * k, 2)}H{GRID_WIDTH}" for k in range(len(lines) + 1)]
    rules += [f"M0 0H{GRID_WIDTH}", f"M0 {height}H{GRID_WIDTH}"]
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{GRID_WIDTH}mm" height="{height}mm" '
        f'viewBox="0 0 {GRID_WIDTH} {height}">'
        '<defs><pattern id="h" width="1.4" height="1.4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="0.3" height="1.4" fill="#444"/></pattern></defs>'
        + "".join(marks)
        + f'<path fill="none" stroke="#000" stroke-width="0.2" d="{" ".join(rules)}"/>'
        + f'<path fill="none" stroke="#000" stroke-width="0.6" d="M0 {height - foot}H{GRID_WIDTH}"/>'
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
    )


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


@dataclass
class ScoreSheets:
    round: Round
    tournament: Tournament
    ruleset: object
    sheets: list[ScoreSheet] = field(default_factory=list)

    @property
    def zero_sum(self) -> bool:
        return bool(getattr(self.ruleset, "zero_sum", False))


def score_sheets(rnd: Round, link: Callable[[str], str]) -> ScoreSheets:
    """Blank score sheets of every table of ``rnd`` (two queries besides ``rnd.tournament``).

    ``link(token)`` is the absolute URL of a table's private link (the view builds it from the
    request); its QR code is printed on the sheet (a PNG printed with crisp modules: as an SVG,
    250 codes cost WeasyPrint about a second more). Each table plays
    ``tournament.hands_for_table(size)`` hands; the dealer of hand k is
    ``table.dealer_of(k, size)`` and the ruleset says which seat sits out.
    """
    import segno

    tournament = rnd.tournament
    rs = tournament.get_ruleset()
    result = ScoreSheets(round=rnd, tournament=tournament, ruleset=rs)
    out_class = "out-pays" if getattr(rs, "sitting_out_pays", False) else "out"
    grids: dict[tuple, SheetGrid] = {}
    cards = card_names(rs)
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
        grid = grids.get(shape) or grids.setdefault(shape, sheet_grid(size, lines))
        first = len(GRID_FIXED)
        url = link(table.token)
        result.sheets.append(
            ScoreSheet(
                table=table,
                players=[
                    SheetPlayer(n, cards.get(s.card, s.card), *grid.columns[first + i])
                    for i, (n, s) in enumerate(zip(names, seats))
                ],
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
                        label=f"{row.label} · {row.radelc}" if row.radelc else row.label,
                        cells=[(s, "out" if i == row.sitting_out else "") for i, s in enumerate(row.scores)],
                    )
                    for row in sheet.rows
                ],
                totals=sheet.totals,
                cap=info.cap,
                table_points=[format_points(p) for p in rs.table_points(sheet.totals)]
                if getattr(rs, "victory_points", None)
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
