"""A tournament exported to one archive and imported into an empty database gives the same
standings, PDF text and workbook cells; a damaged archive is refused with nothing written."""

import gzip
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook
from pypdf import PdfReader

from archive.backup import BackupRefused, export_tournament, import_tournament, read_archive, write_archive
from scoring.demo import build_tirol_demo
from scoring.exporters.standings import standings_pdf, standings_xlsx
from scoring.models import Hand, HandFlag
from scoring.services import save_hand
from scoring.standings import compute_standings
from tournaments.models import ActionLog, Player, Tournament


def standings_of(t):
    return [(r.rank, r.entry.name, r.entry.club, r.entry.rounds, r.total, r.tiebreak) for r in compute_standings(t).rows]


def pdf_text(content):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def cells(content):
    book = load_workbook(io.BytesIO(content), read_only=True)
    return {ws.title: [list(row) for row in ws.iter_rows(values_only=True)] for ws in book.worksheets}


def wipe():
    """An empty database: no tournament, no player."""
    for t in Tournament.objects.all():
        Hand.objects.filter(table__round__tournament=t).delete()
        t.round_set.all().delete()
        t.delete()
    Player.objects.all().delete()


@pytest.mark.django_db
def test_export_and_import_into_an_empty_database_give_the_same_results(director, tmp_path):
    t = build_tirol_demo()
    table = t.round_set.get(number=1).tables.first()
    hand = table.hands.get(number=3)
    save_hand(table, {**hand.record}, director, hand=hand, reason="Tippfehler")  # a second version in its history
    HandFlag.objects.create(hand=hand, comment="Partner?")
    before = {"standings": standings_of(t), "pdf": pdf_text(standings_pdf(t)), "xlsx": cells(standings_xlsx(t))}
    history = Hand.history.filter(table__round__tournament=t).count()
    archive = tmp_path / "turnier.tarock.json.gz"
    call_command("export_tournament", str(t.pk), "--output", str(archive), verbosity=0)

    wipe()
    assert not Tournament.objects.exists() and not Player.objects.exists()
    call_command("import_tournament", str(archive), verbosity=0)

    restored = Tournament.objects.get()
    assert restored.name == t.name and restored.ruleset == t.ruleset and restored.edition == t.edition
    assert standings_of(restored) == before["standings"]
    assert pdf_text(standings_pdf(restored)) == before["pdf"]
    assert cells(standings_xlsx(restored)) == before["xlsx"]
    assert Hand.history.filter(table__round__tournament=restored).count() == history
    assert HandFlag.objects.get(hand__table__round__tournament=restored).comment == "Partner?"
    assert ActionLog.objects.filter(tournament=restored, action="drawn").count() == restored.rounds


@pytest.mark.django_db
def test_importing_beside_the_original_reuses_the_players_and_keeps_both(director):
    t = build_tirol_demo()
    players = Player.objects.count()
    copy = import_tournament(export_tournament(t))
    assert copy.pk != t.pk and Player.objects.count() == players  # matched by name and club
    assert standings_of(copy) == standings_of(t)
    original_tokens = set(t.round_set.values_list("tables__token", flat=True))
    assert not original_tokens & set(copy.round_set.values_list("tables__token", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda b: b[: len(b) // 2], "not a complete tournament archive"),
        (lambda b: b"not gzip at all", "not a complete tournament archive"),
        (lambda b: gzip.compress(json.dumps({**json.loads(gzip.decompress(b)), "version": 99}).encode()), "version 99"),
        (lambda b: gzip.compress(json.dumps({**json.loads(gzip.decompress(b)), "format": "other"}).encode()), "not a tournament archive"),
        (lambda b: gzip.compress(gzip.decompress(b).replace(b'"Spieler', b'"Xpieler', 1)), "checksum"),
    ],
)
def test_a_damaged_archive_is_refused_and_nothing_is_written(four_table, director, english, damage, message):
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    content = damage(export_tournament(four_table.round.tournament))
    counts = (Tournament.objects.count(), Player.objects.count(), Hand.objects.count(), ActionLog.objects.count())
    with pytest.raises(BackupRefused, match=message):
        import_tournament(content)
    assert (Tournament.objects.count(), Player.objects.count(), Hand.objects.count(), ActionLog.objects.count()) == counts


@pytest.mark.django_db
def test_the_command_names_the_refusal(tmp_path, db):
    broken = tmp_path / "kaputt.tarock.json.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(CommandError):
        call_command("import_tournament", str(broken), verbosity=0)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_organiser_downloads_the_archive_a_director_does_not(director_client, four_table, django_user_model):
    from django.test import Client
    from django.urls import reverse

    from tournaments.models import TournamentRole

    t = four_table.round.tournament
    url = reverse("archive:backup", args=[t.pk])
    response = director_client.get(url)
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.tarock.json.gz"')
    assert import_tournament(response.content).name == t.name
    helper = django_user_model.objects.create_user("helfer", password="x-123-geheim")
    TournamentRole.objects.create(tournament=t, user=helper, level="director")
    c = Client()
    c.force_login(helper)
    assert c.get(url).status_code == 403


@pytest.mark.django_db
def test_scheduled_backups_write_a_tournament_again_only_when_it_changed(four_table, tmp_path):
    folder = tmp_path / "backups"
    call_command("backup_tournaments", "--dir", str(folder), verbosity=0)
    first = sorted(p.name for p in folder.iterdir())
    call_command("backup_tournaments", "--dir", str(folder), verbosity=0)
    assert sorted(p.name for p in folder.iterdir()) == first  # nothing changed, nothing written
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    call_command("backup_tournaments", "--dir", str(folder), verbosity=0)
    files = sorted(folder.iterdir())
    assert len(files) == len(first) + 1
    restored = import_tournament(files[-1].read_bytes())
    assert restored.round_set.get().tables.get().hands.count() == 1  # the newest archive has the hand


@pytest.mark.django_db
def test_deleting_a_tournament_needs_its_name_typed_and_writes_an_archive_first(director_client, four_table, settings, tmp_path):
    from django.urls import reverse

    settings.DATA_DIR = tmp_path
    t = four_table.round.tournament
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    url = reverse("archive:delete", args=[t.pk])
    assert director_client.post(url, {"confirm": "Falscher Name"}).status_code == 422
    assert Tournament.objects.filter(pk=t.pk).exists()
    assert director_client.post(url, {"confirm": t.name}).status_code == 302
    assert not Tournament.objects.filter(pk=t.pk).exists() and not Hand.objects.exists()
    archive = next((tmp_path / "backups").glob(f"tournament-{t.pk}-deleted-*.tarock.json.gz"))
    restored = import_tournament(archive.read_bytes())
    assert restored.name == t.name and Hand.objects.filter(table__round__tournament=restored).count() == 1


@pytest.mark.django_db
def test_an_archive_is_written_whole_or_not_at_all(four_table, tmp_path, monkeypatch):
    import errno
    import os

    from tournaments import atomic

    t = four_table.round.tournament
    path = tmp_path / "herbst.tarock.json.gz"
    path.write_bytes(b"the archive written before")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", disk_full)
    with pytest.raises(OSError) as failed:
        write_archive(t, path)
    assert failed.value.errno == errno.ENOSPC
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind
    assert path.read_bytes() == b"the archive written before"

    monkeypatch.undo()
    size = write_archive(t, path)
    assert size == path.stat().st_size and read_archive(path.read_bytes())["tournament"]["id"] == t.pk
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.django_db
def test_the_times_of_many_rows_are_restored_in_chunks_the_database_takes(four_table, monkeypatch):
    from django.db import connection

    for number in range(1, 6):
        save_hand(four_table, {"dealer": (number - 1) % 4, "contract": "rufer", "declarer": number % 4, "partner": (number + 1) % 4, "won": True})
    t = four_table.round.tournament
    before = list(Hand.objects.filter(table=four_table).order_by("number").values_list("entered_at", flat=True))
    assert len(set(before)) == 5
    content = export_tournament(t)
    monkeypatch.setattr(connection.features, "max_query_params", 7)  # two rows a statement
    copy = import_tournament(content)
    assert list(Hand.objects.filter(table__round__tournament=copy).order_by("number").values_list("entered_at", flat=True)) == before


@pytest.mark.django_db
def test_a_tournament_is_deleted_only_once_its_archive_reads_back(director_client, four_table, settings, tmp_path, monkeypatch, english):
    import errno
    import os

    from django.urls import reverse

    from archive import backup
    from tournaments import atomic

    settings.DATA_DIR = tmp_path
    t = four_table.round.tournament
    save_hand(four_table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    url = reverse("archive:delete", args=[t.pk])
    real_write = backup.write_archive

    def truncating_write(tournament, path):  # cut short on its way to the disk
        size = real_write(tournament, path)
        path.write_bytes(path.read_bytes()[: size // 2])
        return size

    monkeypatch.setattr(backup, "write_archive", truncating_write)
    response = director_client.post(url, {"confirm": t.name})
    assert response.status_code == 503
    said = " ".join(str(m) for m in response.context["messages"])
    assert "did not read back" in said and "nothing was deleted" in said
    assert Tournament.objects.filter(pk=t.pk).exists() and Hand.objects.filter(table=four_table).count() == 1
    assert list((tmp_path / "backups").iterdir()) == []  # the file that does not read back is not kept

    monkeypatch.setattr(backup, "write_archive", real_write)

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", disk_full)
    response = director_client.post(url, {"confirm": t.name})
    assert response.status_code == 503
    assert "could not be written" in " ".join(str(m) for m in response.context["messages"])
    assert Tournament.objects.filter(pk=t.pk).exists() and list((tmp_path / "backups").iterdir()) == []


@pytest.mark.django_db
def test_a_tournament_holding_a_name_stored_before_the_checks_is_deleted_with_its_archive(four_table, settings, tmp_path, monkeypatch, english):
    from archive import backup

    settings.DATA_DIR = tmp_path
    t = four_table.round.tournament
    player = t.registrations.get(start_number=3).player
    Player.objects.filter(pk=player.pk).update(name="\u200bAgathe Merz")
    unpacked = []
    real = backup._unpack
    monkeypatch.setattr(backup, "_unpack", lambda content: unpacked.append(1) or real(content))

    path = backup.delete_with_backup(t)

    assert len(unpacked) == 1  # read back once, its form only
    assert not Tournament.objects.filter(pk=t.pk).exists()
    assert backup.read_archive(path.read_bytes())["tournament"]["name"] == t.name  # the best archive there is of it
    check = backup.check_archive(path.read_bytes())
    assert check.refusal.part == "players" and check.refusal.row_id == player.pk and "U+200B" in check.refusal.problem


@pytest.mark.django_db
def test_the_export_command_says_what_to_fix_when_the_archive_would_not_restore(four_table, tmp_path, english):
    t = four_table.round.tournament
    player = t.registrations.get(start_number=3).player
    Player.objects.filter(pk=player.pk).update(name="Agathe\u202eMerz")  # stored before the checks existed
    path = tmp_path / "t.tarock.json.gz"
    with pytest.raises(CommandError) as failed:
        call_command("export_tournament", str(t.pk), "--output", str(path), verbosity=0)
    assert "would not restore" in str(failed.value) and f"player {player.pk}" in str(failed.value)
    from django.urls import reverse

    assert f"rename the player on the register ({reverse('tournaments_director:player_edit', args=[player.pk])})" in str(failed.value)
    assert read_archive(path.read_bytes())["tournament"]["id"] == t.pk  # written whole all the same
    with pytest.raises(CommandError, match="There is no tournament 999999"):
        call_command("export_tournament", "999999", "--output", str(tmp_path / "none.tarock.json.gz"), verbosity=0)
