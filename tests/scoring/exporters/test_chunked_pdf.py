"""A long print laid out in chunks on several processes (tournaments.pdf) has the pages of the
single document: the standings (one long table, cut where pages start) and the score sheets (parts
of a few tables), compared page by page as text with a single-document render of a small field
printed with a small chunk size, so that it really splits. A child that dies fails the export; it
never hangs."""

import errno
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from io import BytesIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from scoring.exporters import builtin
from scoring.exporters.base import get_exporter
from scoring.exporters.models import ExportJob
from scoring.exporters.standings import standings_pdf
from tournaments import pdf, services
from tournaments.models import Player

LONG_CLUB = "Tarockrunde Obergurgl-Hochgurgl und Umgebung"  # wraps in the club column: a taller row


def pages(content: bytes) -> list[str]:
    assert content.startswith(b"%PDF")
    return [page.extract_text() for page in PdfReader(BytesIO(content)).pages]


@pytest.fixture
def field(make_tournament):
    """130 players, every ninth of a club whose name takes two lines: rows of two heights, so pages
    hold different numbers of rows. Round 1 drawn, no hands yet."""
    t = make_tournament(players=0, name="Großes Turnier")
    for i in range(130):
        club = LONG_CLUB if i % 9 == 4 else "Imst"
        services.register(t, Player.objects.create(name=f"Spielerin {i + 1:03d}", club=club))
    services.draw_next_round(t, seed=11)
    return t


@pytest.mark.django_db
def test_the_standings_in_chunks_have_the_single_documents_pages(field, monkeypatch, english):
    monkeypatch.setattr(pdf, "CHUNK_ROWS", 10_000)
    single = pages(standings_pdf(field))
    assert [page.count("Spielerin") for page in single] == [31, 32, 32, 34, 1]  # rows of two heights
    assert "1 / 5" in single[0] and "5 / 5" in single[4] and "Großes Turnier – Standings" in single[2]

    monkeypatch.setattr(pdf, "CHUNK_ROWS", 20)
    chunked = pages(standings_pdf(field))
    assert pdf.last_print.chunks >= 3 and pdf.last_print.replans == 0
    assert chunked == single


@pytest.mark.django_db
def test_a_mispredicted_page_break_is_found_and_the_pages_are_still_the_same(field, monkeypatch, english):
    """Predicting with a text width of nothing, every row one line: the chunks' own layouts show
    where pages really start, and the rest is laid out again from there."""
    from django.template.loader import render_to_string

    from scoring.standings import compute_standings

    html = render_to_string(
        "exporters/standings_pdf.html",
        {"standings": compute_standings(field), "tournament": field, "ruleset": field.get_ruleset()},
    )
    single = pages(pdf.html_to_pdf(html))
    chunked = pages(pdf.long_table_pdf(html, lambda text, size, bold: 0.0, chunk_rows=20))
    assert pdf.last_print.replans >= 1
    assert chunked == single


@pytest.mark.django_db
def test_the_score_sheets_in_chunks_have_the_single_documents_pages(make_tournament, monkeypatch, english):
    t = make_tournament(players=36, name="Großes Turnier")  # 9 tables: 9 pages
    services.draw_next_round(t, seed=5)
    exporter = get_exporter("score-sheets")
    monkeypatch.setattr(builtin, "PART_TABLES", 2)  # 5 parts
    monkeypatch.setattr(pdf, "PART_CHUNK_PAGES", 10_000)
    single = pages(exporter.render(t, {"round": 1}))
    assert len(single) == 9 and "Table 9" in single[8]

    monkeypatch.setattr(pdf, "PART_CHUNK_PAGES", 3)
    done = []
    chunked = pages(exporter.render(t, {"round": 1}, lambda n, total: done.append((n, total))))
    assert pdf.last_print.chunks >= 2
    assert chunked == single
    assert done[0] == (0, 9) and done[-1] == (9, 9) and len(done) == pdf.last_print.chunks + 1


def test_a_child_that_dies_fails_the_print_instead_of_hanging():
    with pytest.raises(BrokenProcessPool):
        with pdf._Pool(2) as pool:
            pool.submit(os._exit, 9).result(timeout=120)


def test_a_child_that_cannot_be_started_is_a_broken_pool_too(monkeypatch):
    """After a child died on a loaded machine the next start through the fork server failed with
    EBADF: the print fails with the same BrokenProcessPool as for the dead child."""

    def no_child(self, fn, *args):
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(ProcessPoolExecutor, "submit", no_child)
    with pytest.raises(BrokenProcessPool, match="Bad file descriptor"):
        with pdf._Pool(2) as pool:
            pool.submit(os._exit, 9)


@pytest.mark.django_db
def test_the_worker_fails_a_standings_export_whose_child_died(
    field, monkeypatch, settings, english, django_capture_on_commit_callbacks
):
    from django.test import Client
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    monkeypatch.setattr(pdf, "CHUNK_ROWS", 20)
    submit = ProcessPoolExecutor.submit
    monkeypatch.setattr(ProcessPoolExecutor, "submit", lambda self, fn, *args: submit(self, os._exit, 9))
    monkeypatch.setattr("scoring.exporters.base.FIELD_INLINE_MAX", 10)  # the worker renders it
    with django_capture_on_commit_callbacks(execute=True):
        assert Client().get(reverse("exports:standings_pdf", args=[field.pk])).status_code == 302
    call_command("run_worker", "--batch", "--no-startup-delay", verbosity=0)
    job = ExportJob.objects.get()
    assert job.status == "failed" and "BrokenProcessPool" in job.error
