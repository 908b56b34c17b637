"""What players and the wall see on paper: names on the score sheets whole and inside their
columns, the Bled radelci row, table results that start on page 1, table cards 1, 2 or 4 to a
page and the seating list in large type for the wall.

The PDFs are read with pypdf: :func:`text_runs` walks a page's content stream and gives every
line of text with where it starts and ends (from the embedded fonts' glyph widths), so a test can
see that a name stays inside its column, not only that its letters are somewhere on the page.
"""

from dataclasses import dataclass
from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader
from pypdf.generic import ContentStream

from scoring.exporters import prints
from scoring.services import save_hand
from tournaments import services
from tournaments.models import Player

LONG_NAMES = [
    "Maximilian Hofer-Oberwalder",
    "Anna-Katharina Pfurtscheller-Gstrein",
    "Christophorus Wolfsgruber-Niederkofler",
    "Ulrike Gschwentner",
    "Johann Georg Unterrainer-Schwaighofer",
    "Bartholomäus Zangerl-Kathrein",
    "Eva Lechleitner-Haselwanter",
    "Maria Theresia Hochkofler",
    "Sepp Mair",
]
MARGIN_LEFT = 14.0 + 8 * 25.4 / 96  # the grid's left edge: print.css @page margin and the body's 8px, mm
PT_MM = 25.4 / 72


# --------------------------------------------------------------------------------------------------
# Reading where text is on a PDF page
# --------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """A line of text as drawn: its text, left and right end and baseline in mm from the page's
    top-left corner, and its size in pt."""

    text: str
    x0: float
    x1: float
    y: float
    size: float


def _multiply(m, n):
    """The matrix that applies ``m`` and then ``n`` (PDF's (a b c d e f) form)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _cmap(font) -> dict[int, str]:
    """``{code: text}`` of a font's ToUnicode map (bfchar and bfrange entries)."""
    data = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    result: dict[int, str] = {}

    def text(hexes):
        return bytes.fromhex(hexes).decode("utf-16-be")

    for block in data.split("beginbfchar")[1:]:
        for line in block.split("endbfchar")[0].strip().splitlines():
            code, value = line.strip()[1:-1].split("> <")
            result[int(code, 16)] = text(value)
    for block in data.split("beginbfrange")[1:]:
        for line in block.split("endbfrange")[0].strip().splitlines():
            parts = line.replace("<", " ").replace(">", " ").replace("[", " ").replace("]", " ").split()
            first, last = int(parts[0], 16), int(parts[1], 16)
            values = parts[2:]
            for i, code in enumerate(range(first, last + 1)):
                if len(values) == 1:
                    start = text(values[0])
                    result[code] = start[:-1] + chr(ord(start[-1]) + i)
                else:
                    result[code] = text(values[i])
    return result


def _widths(font) -> tuple[dict[int, float], float]:
    """``({cid: width}, default width)`` in 1/1000 of the size, from a Type0 font's /W."""
    descendant = font["/DescendantFonts"][0].get_object()
    widths: dict[int, float] = {}
    w = list(descendant.get("/W", []))
    i = 0
    while i < len(w):
        first = int(w[i])
        if isinstance(w[i + 1], list) or hasattr(w[i + 1], "__iter__"):
            for k, value in enumerate(w[i + 1]):
                widths[first + k] = float(value)
            i += 2
        else:
            for cid in range(first, int(w[i + 1]) + 1):
                widths[cid] = float(w[i + 2])
            i += 3
    return widths, float(descendant.get("/DW", 1000))


def text_runs(page) -> list[Run]:
    """The text of ``page`` as :class:`Run` s: one per text-showing operation, split where it
    skips more than half an em (a tab). For WeasyPrint's PDFs: Type0 fonts with two-byte codes,
    text positioned by Tm."""
    height = float(page.mediabox.height)
    fonts = {}
    for name, ref in page["/Resources"].get("/Font", {}).items():
        font = ref.get_object()
        fonts[name] = (_cmap(font), *_widths(font))
    ctm, stack = (1, 0, 0, 1, 0, 0), []
    tm, font, size = (1, 0, 0, 1, 0, 0), None, 0.0
    runs = []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif op == b"BT":
            tm = (1, 0, 0, 1, 0, 0)
        elif op == b"Tm":
            tm = tuple(float(v) for v in operands)
        elif op == b"Td":
            tm = _multiply((1, 0, 0, 1, float(operands[0]), float(operands[1])), tm)
        elif op == b"Tf":
            font, size = fonts[operands[0]], float(operands[1])
        elif op in (b"TJ", b"Tj"):
            cmap, widths, default = font
            items = operands[0] if op == b"TJ" else [operands[0]]
            m = _multiply(tm, ctm)
            scale = (m[2] ** 2 + m[3] ** 2) ** 0.5
            text, start, advance = "", 0.0, 0.0

            def flush():
                if text.strip():
                    (x0, y0), (x1, _y1) = _apply(m, start, 0), _apply(m, advance, 0)
                    runs.append(Run(text, x0 * PT_MM, x1 * PT_MM, (height - y0) * PT_MM, size * scale))

            for item in items:
                if isinstance(item, (int, float)) or not hasattr(item, "original_bytes"):
                    if float(item) < -500:  # a gap of more than half an em (a tab): the next text is a run of its own
                        flush()
                        text = ""
                    advance -= float(item) / 1000 * size
                    continue
                raw = item.original_bytes
                for k in range(0, len(raw) - 1, 2):
                    code = raw[k] << 8 | raw[k + 1]
                    if not text:
                        start = advance
                    text += cmap.get(code, "\ufffd")
                    advance += widths.get(code, default) / 1000 * size
            flush()
            tm = _multiply((1, 0, 0, 1, advance, 0), tm)
    return runs


def read_pdf(response):
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    return PdfReader(BytesIO(response.content))


def words(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------------------


def with_players(make_tournament, names, **fields):
    """A tournament of ``make_tournament`` whose players have these names, round 1 drawn."""
    t = make_tournament(players=0, **fields)
    for name in names:
        services.register(t, Player.objects.create(name=name, club="Imst"))
    return t, services.draw_next_round(t, seed=4)


def private_link(token):
    return f"http://testserver{reverse('scoring:private_sheet', args=[token])}"


# --------------------------------------------------------------------------------------------------
# 1. Score sheets: names whole, dealer column never cut, Bled's radelci row
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", LONG_NAMES + ["Jože Žagar", "Иван Петров", "Hans"])
@pytest.mark.parametrize("width", [20.0, 26.0, 36.0])
def test_fit_text_breaks_at_spaces_only_and_stays_inside_the_box(name, width):
    fit = prints.fit_text(name, width, 10.0, size=8.0, bold=True)
    assert " ".join(fit.lines) == name  # every word whole, in order
    assert all(prints.text_width(line, fit.size, bold=True) <= width for line in fit.lines)
    assert fit.height <= 10.0 and 1 <= fit.size <= 8


def test_fit_text_prefers_two_lines_at_full_size_to_one_line_in_small_type():
    fit = prints.fit_text("Maximilian Hofer-Oberwalder", 29.6, 6.5, size=8.0, leading=1.1, max_lines=2)
    assert fit.lines == ("Maximilian", "Hofer-Oberwalder") and fit.size == 8.0 and not fit.plain
    assert prints.fit_text("Sepp Mair", 29.6, 6.2, size=8.0, leading=1.1).plain

SHEETS = [
    pytest.param({"ruleset": "tiroler-tarockcup", "edition": "2019/20"}, 9, {4, 5}, id="tirol-5-and-4"),
    pytest.param({"ruleset": "tarok-bled", "edition": "2005"}, 7, {3, 4}, id="bled-4-and-3"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("fields,players,sizes", SHEETS)
def test_score_sheet_names_stay_whole_and_inside_their_columns(director_client, make_tournament, english, fields, players, sizes):
    t, rnd = with_players(make_tournament, LONG_NAMES[:players], **fields)
    data = prints.score_sheets(rnd, private_link)
    assert {len(s.players) for s in data.sheets} == sizes
    reader = read_pdf(director_client.get(reverse("exports_director:score_sheets_pdf", args=[t.pk, rnd.number])))
    assert len(reader.pages) == len(data.sheets)  # one page per table
    for page, sheet in zip(reader.pages, data.sheets):
        runs = text_runs(page)
        g = sheet.grid
        (hash_run,) = [r for r in runs if r.text == "#"]
        (total,) = [r for r in runs if r.text == "Total"]
        head_top, grid_bottom = hash_run.y - g.head + 1, total.y + g.foot / 2 + getattr(g, "extra", 0)
        grid = [r for r in runs if head_top <= r.y <= grid_bottom]
        edges = [MARGIN_LEFT + x for x, _w in g.columns] + [MARGIN_LEFT + g.width]

        # no line of text in the grid runs over a column's rule
        crossing = [r.text for r in grid for e in edges if r.x0 < e - 0.2 and r.x1 > e + 0.2]
        assert crossing == []

        # each column head reads the player's whole name, then his card: lines break at spaces only
        for p in sheet.players:
            left, right = MARGIN_LEFT + p.x, MARGIN_LEFT + p.x + p.width
            head = sorted((r for r in grid if r.y <= hash_run.y + 1 and left <= r.x0 and r.x1 <= right), key=lambda r: r.y)
            assert words(" ".join(r.text for r in head)) == words(f"{p.name} {p.card}")
            assert all(r.size >= 3.5 for r in head)

        # the dealer column shows every dealer's whole name, row by row, inside the column
        x, w = g.columns[1]
        dealer = sorted(
            (r for r in grid if hash_run.y + 1 < r.y < total.y - 2 and MARGIN_LEFT + x <= r.x0 and r.x1 <= MARGIN_LEFT + x + w),
            key=lambda r: r.y,
        )
        assert words(" ".join(r.text for r in dealer)) == words(" ".join(line.dealer_name for line in sheet.lines))


@pytest.mark.django_db
def test_bled_score_sheet_has_a_radelci_row_under_the_players(director_client, make_tournament, english):
    t, rnd = with_players(make_tournament, LONG_NAMES[:7], ruleset="tarok-bled", edition="2005")
    data = prints.score_sheets(rnd, private_link)
    reader = read_pdf(director_client.get(reverse("exports_director:score_sheets_pdf", args=[t.pk, rnd.number])))
    assert len(reader.pages) == len(data.sheets) == 2
    for page, sheet in zip(reader.pages, data.sheets):
        runs = text_runs(page)
        (total,) = [r for r in runs if r.text == "Total"]
        (label,) = [r for r in runs if r.text.casefold() == "radelci"]
        # one line under the sum row, its label left of the players' columns, their cells left blank
        assert 0 < label.y - total.y <= sheet.grid.extra + 1
        assert label.x1 <= MARGIN_LEFT + sheet.players[0].x
        assert [r.text for r in runs if abs(r.y - label.y) < 3] == [label.text]
        assert all(r.y < label.y + 5 or r.y > 297 - 18 for r in runs)  # nothing below it but the page footer


# --------------------------------------------------------------------------------------------------
# 2. Table results never start with an empty page
# --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_table_results_start_on_the_first_page_even_for_a_long_table(director_client, make_tournament, english):
    t = make_tournament(players=5, hands_per_round=40)  # one 5-table, 50 hands: too long for page 1 under the title
    table = services.draw_next_round(t, seed=4).tables.get()
    for k in range(1, t.hands_for_table(5) + 1):
        dealer = table.dealer_of(k, 5)
        active = [i for i in range(5) if i != dealer]
        scores = [0] * 5
        scores[active[0]], scores[active[1]] = 3, -3
        save_hand(table, {"dealer": dealer, "outcome": "manual", "scores": scores})
    reader = read_pdf(director_client.get(reverse("exports_director:table_results_pdf", args=[t.pk, 1])))
    first = words(reader.pages[0].extract_text())
    seat0 = table.seats.get(position=0).registration.player.name
    assert "Table 1" in first and seat0 in first and "Dealer" in first  # the table begins under the title
    last = words(reader.pages[-1].extract_text())
    assert "50 of 50 hands played." in last


# --------------------------------------------------------------------------------------------------
# 3. Table cards 1, 2 or 4 to a page
# --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("per_page,pages", [(None, 8), ("1", 8), ("2", 4), ("4", 2), ("3", 8), ("x", 8)])
def test_table_cards_print_one_two_or_four_to_a_page(director_client, make_tournament, english, per_page, pages):
    t = make_tournament(players=32)  # eight 4-tables
    rnd = services.draw_next_round(t, seed=3)
    url = reverse("exports_director:table_cards_pdf", args=[t.pk, rnd.number])
    response = director_client.get(url, {"per_page": per_page} if per_page else {})
    reader = read_pdf(response)
    assert len(reader.pages) == pages
    text = "".join("".join(page.extract_text() for page in reader.pages).split())
    for table in rnd.tables.prefetch_related("seats__registration__player"):
        assert table.token in text  # every card keeps its private link (and its QR code)
        for seat in table.seats.all():
            assert "".join(seat.registration.player.name.split()) in text
    if per_page in ("2", "4"):
        assert f"{per_page}-per-page" in response["Content-Disposition"]


def test_card_pages_group_the_cards():
    assert prints.card_pages(range(8), 4) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert prints.card_pages(range(5), 2) == [[0, 1], [2, 3], [4]]
    assert prints.card_pages([], 4) == []
    assert [prints.parse_per_page(v) for v in ("1", "2", "4", "3", "0", "", None, "zwei")] == [1, 2, 4, 1, 1, 1, 1, 1]
    with pytest.raises(ValueError):
        prints.card_pages(range(3), 3)


@pytest.mark.django_db
def test_round_page_offers_two_and_four_cards_to_a_page(director_client, four_table):
    rnd = four_table.round
    page = director_client.get(reverse("tournaments:round", args=[rnd.tournament_id, rnd.number])).content.decode()
    cards = reverse("exports_director:table_cards_pdf", args=[rnd.tournament_id, rnd.number])
    assert f'href="{cards}"' in page and f'href="{cards}?per_page=2"' in page and f'href="{cards}?per_page=4"' in page


# --------------------------------------------------------------------------------------------------
# 4. The seating list for the wall
# --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_wall_seating_lists_every_player_by_table_in_large_type(make_tournament, english):
    names = LONG_NAMES + [f"Spieler {i:02d}" for i in range(1, 10)]  # 18 players: two 5-tables, two 4-tables
    t, rnd = with_players(make_tournament, names)
    url = reverse("exports:seating_wall_pdf", args=[t.pk, rnd.number])
    client = Client()  # public, like the seating list
    round_page = client.get(reverse("tournaments:round", args=[t.pk, rnd.number])).content.decode()
    assert f'href="{url}"' in round_page
    reader = read_pdf(client.get(url))
    text = words("\n".join(page.extract_text() for page in reader.pages))
    tables = list(rnd.tables.order_by("number").prefetch_related("seats__registration__player"))
    assert len(tables) == 4
    positions = [text.index(f"Table {table.number}") for table in tables]
    assert positions == sorted(positions)
    for table, start, end in zip(tables, positions, positions[1:] + [len(text)]):
        block = text[start:end]  # the table's players come under its number, in seat order
        seated = [s.registration.player.name for s in table.seats.order_by("position")]
        at = [block.index(name) for name in seated]
        assert at == sorted(at), table
    runs = [r for page in reader.pages for r in text_runs(page)]
    headings = [r for r in runs if r.text.startswith("Table ")]
    assert len(headings) == 4 and min(r.size for r in headings) >= 24
    name_runs = [r for r in runs if len(r.text.strip()) > 2 and any(r.text.strip() in n for n in names)]
    assert name_runs and min(r.size for r in name_runs) >= 11  # a long name prints smaller, never tiny
    assert sum(r.size >= 18 for r in name_runs) >= len(names) // 2
