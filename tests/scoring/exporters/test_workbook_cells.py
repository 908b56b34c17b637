"""The standings workbook's cells as a reader sees them: every header bold and only the headers,
header rows as long as their table (a 4-table's block after a 5-table's), text that starts with "="
kept as text in the hands' blocks too, and each block's sum row and the round's scores alike."""

from io import BytesIO

import pytest
from django.utils import translation
from openpyxl import load_workbook

from scoring.exporters.standings import standings_xlsx
from scoring.services import save_hand
from tournaments import services
from tournaments.models import Player

FORMULA_LIKE = "=SUM(A1)"


@pytest.fixture
def two_tables(make_tournament):
    """9 players, a 4-table and a 5-table; one player's name looks like a formula. Each table has
    a manual row dealt by each seat in turn (+3 to the seat after the dealer, −3 to the next one;
    a 5-table's dealer sits out), then one more dealt by seat 0 again: +6 to seat 1, −6 to seat 2."""
    t = make_tournament(players=8)
    services.register(t, Player.objects.create(name=FORMULA_LIKE, club="Imst"))
    tables = list(services.draw_next_round(t, seed=3).tables.order_by("number"))
    seated = {}
    for table in tables:
        names = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]
        size = len(names)
        for dealer in range(size):
            scores = [0] * size
            scores[(dealer + 1) % size], scores[(dealer + 2) % size] = 3, -3
            save_hand(table, {"dealer": dealer, "outcome": "manual", "scores": scores})
        save_hand(table, {"dealer": 0, "outcome": "manual", "scores": [0, 6, -6] + [0] * (size - 3)})
        seated[table.number] = names
    assert sorted(len(names) for names in seated.values()) == [4, 5]
    return t, seated


def workbook(t):
    with translation.override("en"):
        return load_workbook(BytesIO(standings_xlsx(t)))


def bold(row) -> list[bool]:
    return [bool(cell.font.b) for cell in row]


@pytest.mark.django_db
def test_only_the_headers_are_bold_and_a_header_row_is_as_long_as_its_table(two_tables):
    t, seated = two_tables
    wb = workbook(t)

    for title in ("Standings", "Round 1"):
        rows = list(wb[title].iter_rows())
        assert wb[title].freeze_panes == "A2"
        assert all(bold(rows[0])) and not any(any(bold(row)) for row in rows[1:])

    rows = list(wb["Round 1 hands"].iter_rows())
    width = len(rows[0])  # the widest block: 4 columns and 5 players
    assert width == 9
    at = 0
    for number in sorted(seated):
        names, size = seated[number], len(seated[number])
        table_row, header = rows[at], rows[at + 1]
        assert [c.value for c in table_row] == [f"Table {number}"] + [None] * (width - 1)
        assert bold(table_row) == [True] + [False] * (width - 1)
        assert [c.value for c in header] == ["Hand", "Dealer", "Description", "Notation", *names] + [None] * (width - 4 - size)
        assert bold(header) == [True] * (4 + size) + [False] * (width - 4 - size)
        body = rows[at + 2 : at + 2 + size + 2]  # the hands and the sum row
        assert [c.value for c in body[-1]][2] == "Total"
        assert not any(any(bold(row)) for row in body)
        at += 2 + size + 3  # the blank row after the sum row


@pytest.mark.django_db
def test_a_formula_like_name_stays_text_in_the_hands_blocks(two_tables):
    t, seated = two_tables
    wb = workbook(t)
    names = next(n for n in seated.values() if FORMULA_LIKE in n)
    seat = names.index(FORMULA_LIKE)
    dealt = 2 if seat == 0 else 1  # seat 0 deals the first and the last hand
    cells = [c for row in wb["Round 1 hands"].iter_rows() for c in row if c.value == FORMULA_LIKE]
    # in its table's header and as the dealer of the hands it dealt
    assert len(cells) == 1 + dealt and all(c.data_type == "s" for c in cells)
    assert sorted(c.column for c in cells) == sorted([2] * dealt + [4 + seat + 1])
    assert [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.data_type == "f"] == []


@pytest.mark.django_db
def test_each_block_sums_its_hands_and_the_round_sheet_shows_those_sums(two_tables):
    t, seated = two_tables
    wb = workbook(t)
    rows = list(wb["Round 1 hands"].iter_rows(values_only=True))
    round_scores = {(r[0], r[2]): r[3] for r in list(wb["Round 1"].iter_rows(values_only=True))[1:]}
    at = 0
    for number in sorted(seated):
        names, size = seated[number], len(seated[number])
        hands = rows[at + 2 : at + 2 + size + 1]
        assert [h[0] for h in hands] == list(range(1, size + 2))
        assert list(hands[-1][4 : 4 + size]) == [0, 6, -6] + [0] * (size - 3)
        # each seat gets +3 once and −3 once in the first round of deals: 0 each; then +6 / −6 for seats 1 and 2
        expected = [0, 6, -6] + [0] * (size - 3)
        total = rows[at + 2 + size + 1]
        assert total[2] == "Total" and list(total[4 : 4 + size]) == expected
        assert [round_scores[(number, name)] for name in names] == expected
        at += 2 + size + 3
