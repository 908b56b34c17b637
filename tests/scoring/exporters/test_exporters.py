"""Downloads are registered exporters served by one view, rendered once per data version
and kept in the storage; heavy ones are rendered by the worker behind a page that says how far it
got."""

from io import BytesIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.exporters import base as exporter_base
from scoring.exporters.base import exporters, get_exporter
from scoring.exporters.models import ExportJob
from scoring.services import save_hand
from tournaments import services

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def counted(monkeypatch):
    """Count the renders of each exporter: ``counted["standings-xlsx"]``."""
    counts: dict[str, int] = {}
    for exporter in exporters():
        original = exporter.render

        def render(tournament, params, progress=exporter_base.no_progress, original=original, name=exporter.identifier):
            counts[name] = counts.get(name, 0) + 1
            return original(tournament, params, progress)

        monkeypatch.setattr(exporter, "render", render)
    return counts


@pytest.fixture
def run_worker(monkeypatch):
    """``run_worker()``: the worker scripts/serve starts (``manage.py db_worker``), run until the
    queue is empty. Between tasks it closes database connections it thinks stale, which would be
    the test's own (inside the test's transaction): not here."""
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    return lambda: call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)


def stored_files(settings) -> list[str]:
    root = settings.MEDIA_ROOT / "exports"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.mark.django_db
def test_an_export_is_rendered_once_per_data_version(four_table, counted, settings):
    t = four_table.round.tournament
    url = reverse("exports:standings_xlsx", args=[t.pk])
    first = Client().get(url)
    again = Client().get(url)
    assert counted["standings-xlsx"] == 1
    assert b"".join(again.streaming_content) == first.content  # served from the storage
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert len(stored_files(settings)) == 1

    save_hand(four_table, HAND)
    changed = Client().get(url)
    assert counted["standings-xlsx"] == 2 and changed.status_code == 200
    assert len(stored_files(settings)) == 1  # the old version's file is gone

    Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
    assert counted["standings-xlsx"] == 3  # another language is another file
    assert len(stored_files(settings)) == 2


@pytest.mark.django_db
def test_query_spellings_of_one_export_share_its_file(four_table, counted):
    t = four_table.round.tournament
    url = reverse("exports:standings_pdf", args=[t.pk])
    Client().get(url + "?after=1")
    Client().get(url + "?after=01&x=2")
    assert counted["standings-pdf"] == 1
    Client().get(url)
    Client().get(url + "?after=nonsense")  # read as "all rounds", as before
    assert counted["standings-pdf"] == 2


@pytest.mark.django_db
def test_director_exports_ask_for_a_login_and_public_ones_do_not(four_table, director_client):
    t = four_table.round.tournament
    sheets = reverse("exports_director:score_sheets_pdf", args=[t.pk, 1])
    cards = reverse("exports_director:table_cards_pdf", args=[t.pk, 1])
    certificates = reverse("exports_director:certificates_pdf", args=[t.pk])
    for url in (sheets, cards, certificates, reverse("exports:export", args=[t.pk, "certificates"])):
        response = Client().get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
        assert director_client.get(url).status_code == 200, url
    for url in (
        reverse("exports:table_results_pdf", args=[t.pk, 1]),  # public again
        reverse("exports:seating_pdf", args=[t.pk, 1]),
        reverse("exports:hands_csv", args=[t.pk]),
        reverse("exports:round_export", args=[t.pk, 1, "seating-wall"]),
    ):
        assert Client().get(url).status_code == 200, url


@pytest.mark.django_db
def test_unknown_exports_and_rounds_are_404(four_table):
    t = four_table.round.tournament
    assert Client().get(reverse("exports:export", args=[t.pk, "nothing"])).status_code == 404
    assert Client().get(reverse("exports:table_results_pdf", args=[t.pk, 9])).status_code == 404
    assert Client().get(reverse("exports:standings_xlsx", args=[t.pk + 100])).status_code == 404


@pytest.mark.django_db
def test_a_heavy_export_is_prepared_by_the_worker_with_its_progress(
    make_tournament, settings, english, django_capture_on_commit_callbacks, run_worker
):
    settings.EXPORT_HEAVY_FROM = {"results": 2}  # heavy from two tables on, for this small field
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=4)
    for table in rnd.tables.all():
        save_hand(table, HAND)
    url = reverse("exports:table_results_pdf", args=[t.pk, 1])
    viewer = Client()
    with django_capture_on_commit_callbacks(execute=True):  # the job is handed over on commit
        response = viewer.get(url)
    assert response.status_code == 302
    job = ExportJob.objects.get()
    assert response["Location"] == f"{url}?job={job.pk}"
    waiting = viewer.get(response["Location"])
    assert waiting.status_code == 202
    page = waiting.content.decode()
    assert 'http-equiv="refresh"' in page and "waiting for the server" in page
    assert Client().get(url)["Location"] == f"{url}?job={job.pk}"  # a second viewer waits for the same job

    run_worker()
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 2, 2)
    download = viewer.get(response["Location"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    pdf = PdfReader(BytesIO(b"".join(download.streaming_content)))
    text = "".join(p.extract_text() for p in pdf.pages)
    assert "Table 1" in text and "Table 2" in text
    assert Client().get(url).status_code == 200  # the same version: straight from the storage


@pytest.mark.django_db
def test_the_waiting_page_counts_the_tables_done(make_tournament, settings, english):
    settings.EXPORT_HEAVY_FROM = {"results": 1}
    t = make_tournament(players=8)
    services.draw_next_round(t, seed=4)
    url = reverse("exports:table_results_pdf", args=[t.pk, 1])
    location = Client().get(url)["Location"]
    ExportJob.objects.update(status="running", done=1)
    page = Client().get(location).content.decode()
    assert "Being prepared: 1 of 2 tables." in page


@pytest.mark.django_db
def test_a_failed_job_says_so_and_can_be_tried_again(
    make_tournament, settings, monkeypatch, english, django_capture_on_commit_callbacks, run_worker
):
    settings.EXPORT_HEAVY_FROM = {"results": 1}
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=4)
    url = reverse("exports:table_results_pdf", args=[t.pk, 1])
    with django_capture_on_commit_callbacks(execute=True):
        location = Client().get(url)["Location"]
    exporter = get_exporter("results")
    monkeypatch.setattr(exporter, "render", lambda *args, **kwargs: 1 / 0)
    run_worker()
    job = ExportJob.objects.get()
    assert job.status == "failed" and "ZeroDivisionError" in job.error
    page = Client().get(location)
    assert "could not be prepared" in page.content.decode() and 'http-equiv="refresh"' not in page.content.decode()
    monkeypatch.setattr(exporter, "render", type(exporter).render.__get__(exporter))
    retry = Client().post(location, {"job": job.pk})
    assert retry.status_code == 302 and not ExportJob.objects.exists()
    assert Client().get(retry["Location"]).status_code == 302  # a new job
    assert ExportJob.objects.get().status == "queued"


def test_every_exporter_has_a_unique_identifier_a_name_and_a_format():
    seen = set()
    for exporter in exporters():
        assert exporter.identifier and exporter.identifier not in seen
        seen.add(exporter.identifier)
        assert str(exporter.verbose_name) and exporter.format.extension in ("pdf", "xlsx", "csv")
    assert {"standings-xlsx", "standings-pdf", "hands-xlsx", "hands-csv", "results", "score-sheets"} <= seen


def test_a_late_render_of_an_old_version_never_removes_a_newer_file(settings, tmp_path):
    from django.core.files.storage import default_storage

    from scoring.exporters.base import storage_name, store

    settings.MEDIA_ROOT = tmp_path
    v5 = storage_name(1, "results", "round=1", "de", "5.1700000000000000", "pdf")
    v6 = storage_name(1, "results", "round=1", "de", "6.1700000000000000", "pdf")
    v7 = storage_name(1, "results", "round=1", "de", "7.1700000000000000", "pdf")
    other_round = storage_name(1, "results", "round=2", "de", "5.1700000000000000", "pdf")
    store(other_round, b"round 2")
    store(v6, b"six")
    store(v5, b"five, finished late")
    assert default_storage.exists(v6) and default_storage.exists(v5)
    store(v7, b"seven")
    assert not default_storage.exists(v5) and not default_storage.exists(v6)
    assert default_storage.exists(v7) and default_storage.exists(other_round)


@pytest.mark.django_db
def test_without_a_worker_the_development_server_renders_a_heavy_export_at_once(
    make_tournament, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}  # DEBUG's choice
    settings.EXPORT_HEAVY_FROM = {"results": 1}
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=4)
    url = reverse("exports:table_results_pdf", args=[t.pk, 1])
    viewer = Client()
    with django_capture_on_commit_callbacks(execute=True):
        location = viewer.get(url)["Location"]
    response = viewer.get(location)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
