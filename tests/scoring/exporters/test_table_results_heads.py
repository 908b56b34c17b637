"""The table results (PDF): the players' column heads never run into each other. Long double
names and a substitute's "A → B" are fitted to their column (whole words, or broken after a double
name's hyphen, smaller where needed), and nothing on the page, the page's own header included, is
printed over something else on the same line."""

import pytest
from django.urls import reverse

from scoring.exporters import prints
from scoring.services import save_hand
from tournaments import services
from tournaments.models import Player

from .test_print_layout import LONG_NAMES, PT_MM, read_pdf, text_runs, with_players

LONG_EVENT = {"name": "Herbstturnier des Tarockclubs Innsbruck-Hötting 2026", "venue": "Gasthof Goldener Adler, Innsbruck-Hötting"}


def overlapping(runs):
    """Pairs of runs printed over each other: their extents cross and their lines are closer
    than the smaller type's height."""
    found = []
    for i, a in enumerate(runs):
        for b in runs[i + 1 :]:
            if a.x0 < b.x1 - 0.2 and b.x0 < a.x1 - 0.2 and abs(a.y - b.y) < 0.9 * min(a.size, b.size) * PT_MM:
                found.append((a.text, b.text))
    return found


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields,players",
    [({}, 9), ({"ruleset": "tarok-bled", "edition": "2005", "rounds": 4, "hands_per_round": 21}, 7)],
    ids=["tirol-5-and-4", "bled-4-and-3"],
)
def test_table_results_heads_stay_in_their_columns(director_client, make_tournament, english, fields, players):
    t, rnd = with_players(make_tournament, LONG_NAMES[:players], **LONG_EVENT, **fields)
    tables = list(rnd.tables.order_by("number"))
    sub = services.register(t, Player.objects.create(name="Hieronymus Kaltenbrunner-Vögele", club="Imst"))
    services.seat_substitute(tables[0].seats.order_by("position").last(), sub)
    for table in tables:
        n = table.seats.count()
        scores = [0, 130, -130, 130, -130] if n == 5 else [0, 130, -65, -65] if n == 4 else [130, -65, -65]
        save_hand(table, {"dealer": 0, "outcome": "manual", "scores": scores})
    results = prints.table_results(rnd)
    reader = read_pdf(director_client.get(reverse("exports_director:table_results_pdf", args=[t.pk, rnd.number])))
    runs = [r for page in reader.pages[:1] for r in text_runs(page)]
    assert len(reader.pages) == 1

    assert overlapping(runs) == []
    hashes = sorted((r for r in runs if r.text == "#"), key=lambda r: r.y)
    totals = sorted((r for r in runs if r.text == "Total"), key=lambda r: r.y)
    assert len(hashes) == len(totals) == len(results.tables)
    for k, table in enumerate(results.tables):
        # The players' columns: the right ends of the score cells in the Total row.
        total_row = sorted((r for r in runs if abs(r.y - totals[k].y) < 0.5 and r.x0 > totals[k].x1), key=lambda r: r.x1)
        rights = [r.x1 for r in total_row]
        assert len(rights) == len(table.players)
        step = rights[1] - rights[0]
        top = hashes[k - 1].y + 8 if k else 0  # the head rows lie between the table's name and its "#"
        top = max([r.y for r in runs if r.text == str(table.table)] + [top])
        # Head lines are set flush right: each belongs to the column whose right edge is nearest.
        heads = [r for r in runs if top < r.y <= hashes[k].y + 0.5 and r.x1 > rights[0] - step + 1]
        columns = {i: [] for i in range(len(rights))}
        for r in heads:
            columns[min(range(len(rights)), key=lambda i: abs(rights[i] - r.x1))].append(r)
        for i, (name, right) in enumerate(zip(table.players, rights)):
            left = right - (step - 2 * prints.RESULT_PAD)
            head = sorted(columns[i], key=lambda r: r.y)
            # The whole name, line by line, inside its column (a line may end after a hyphen).
            text = "".join(r.text if r.text.endswith("-") else r.text + " " for r in head).strip()
            assert text == name, (text, name)
            for r in head:
                assert left - 0.3 <= r.x0 and r.x1 <= right + 0.3, (name, r.text, r.x0, r.x1, left, right)
                assert r.size >= 4.5


@pytest.mark.parametrize("count", [3, 4, 5])
def test_fitted_heads_never_break_inside_a_word(count):
    names = LONG_NAMES[:count]
    for head in prints.result_heads(names):
        joined = "".join(line if line.endswith("-") else line + " " for line in head.fit.lines).strip()
        assert joined == head.name
        assert all(prints.text_width(line, head.fit.size, head.fit.bold) <= float(head.width[:-2]) for line in head.fit.lines)
