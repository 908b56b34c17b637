"""The scheduled backups (``manage.py backup_tournaments``): names that never collide, pruning per
tournament that never removes a tournament's newest archive (a database reset beside the same
folder included), an archive read back before it counts, and a full disk that leaves nothing."""

import datetime as dt
import errno
import gzip
import os

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from archive import backup
from archive import schedule as backup_schedule
from archive.schedule import NAME, created_micros
from scoring.services import save_hand
from tournaments import atomic
from tournaments.models import Tournament

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


def backup_run(folder, *options):
    call_command("backup_tournaments", "--dir", str(folder), *options, verbosity=0)


def archives(folder):
    return sorted(p.name for p in folder.iterdir())


def plant(folder, tournament_id, created_us, version, written, content=b"old"):
    """An archive of the scheduled backups, as an earlier run would have left it."""
    name = f"tournament-{tournament_id}-c{created_us}-{written:%Y%m%d-%H%M%S}Z-v{version:06d}.tarock.json.gz"
    (folder / name).write_bytes(content)
    return name


def plant_old_style(folder, tournament_id, version, mtime):
    name = f"tournament-{tournament_id}-v{version:06d}.tarock.json.gz"
    (folder / name).write_bytes(b"written before names carried the time")
    os.utime(folder / name, (mtime.timestamp(), mtime.timestamp()))
    return name


@pytest.mark.django_db
def test_each_version_gets_its_own_name_with_the_tournament_and_the_time(four_table, tmp_path):
    t = four_table.round.tournament
    folder = tmp_path / "backups"
    backup_run(folder)
    backup_run(folder)  # nothing changed: nothing written
    [first] = archives(folder)
    save_hand(four_table, HAND)
    backup_run(folder)
    names = archives(folder)
    assert len(names) == 2
    parsed = [NAME.match(n) for n in names]
    assert all(parsed)
    assert {int(m["id"]) for m in parsed} == {t.pk}
    assert {int(m["created"]) for m in parsed} == {created_micros(t.created)}  # tells two databases' tournament apart
    t.refresh_from_db()
    assert sorted(int(m["version"]) for m in parsed)[-1] == t.data_version  # the version the archive holds
    newest = max(names, key=lambda n: (NAME.match(n)["written"], n))
    assert backup.import_tournament((folder / newest).read_bytes()).round_set.get().tables.get().hands.count() == 1


@pytest.mark.django_db
def test_a_reset_database_keeps_the_new_low_version_archive_beside_the_old_high_versions(make_tournament, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    t = make_tournament(players=4)  # the "new" tournament of a database reset beside the same folder
    old_created = created_micros(t.created - dt.timedelta(days=400))
    start = dt.datetime(2025, 3, 1, 9, 0, tzinfo=dt.timezone.utc)
    old = [plant(folder, t.pk, old_created, 900 + i, start + dt.timedelta(hours=i)) for i in range(25)]

    backup_run(folder, "--keep", "3")

    names = archives(folder)
    [new] = [n for n in names if int(NAME.match(n)["created"]) == created_micros(t.created)]
    assert int(NAME.match(new)["version"]) < 900  # the new tournament's low version survived
    assert [n for n in names if n != new] == old[-3:]  # the old tournament keeps its newest three

    backup_run(folder, "--keep", "3", "--keep-days", "30")  # all of the old ones are months old
    assert archives(folder) == sorted([new, old[-1]])  # each tournament's newest stays, however old


@pytest.mark.django_db
def test_pruning_orders_by_the_time_written_never_by_the_version(make_tournament, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    t = make_tournament(players=4)
    created = created_micros(t.created)
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    versions = [50, 7, 30, 2]  # written in this order
    names = [plant(folder, 4711, created, v, start + dt.timedelta(minutes=15 * i)) for i, v in enumerate(versions)]
    removed = backup_schedule.prune(folder, keep=2, keep_days=None, now=start + dt.timedelta(days=1))
    assert sorted(p.name for p in removed) == sorted(names[:2])
    assert archives(folder) == sorted(names[2:])  # v30 and v2: the two written last


@pytest.mark.django_db
def test_files_of_the_former_naming_go_only_when_older_than_the_kept_ones(make_tournament, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    t = make_tournament(players=4)
    Tournament.objects.filter(pk=t.pk).update(created=t.created - dt.timedelta(hours=1))
    t.refresh_from_db()
    earlier_database = plant_old_style(folder, t.pk, 900, t.created - dt.timedelta(days=30))
    this_tournament = plant_old_style(folder, t.pk, 1, t.created + dt.timedelta(seconds=1))
    other = plant_old_style(folder, t.pk + 1000, 5, t.created)  # no tournament of that id here
    (folder / "notes.txt").write_text("kept")
    (folder / f"tournament-{t.pk}-deleted-20250101-120000.tarock.json.gz").write_bytes(b"kept")

    backup_run(folder, "--keep", "1")

    names = archives(folder)
    assert earlier_database in names and other in names  # not known to be this tournament's
    assert this_tournament not in names  # older than the one archive kept of it
    assert "notes.txt" in names and f"tournament-{t.pk}-deleted-20250101-120000.tarock.json.gz" in names
    assert len([n for n in names if NAME.match(n)]) == 1

    backup_run(folder, "--keep", "5")  # with room for it, a file of the former naming stays
    plant_old_style(folder, t.pk, 2, t.created + dt.timedelta(seconds=2))
    backup_run(folder, "--keep", "5")
    assert f"tournament-{t.pk}-v000002.tarock.json.gz" in archives(folder)


@pytest.mark.django_db
def test_an_archive_that_does_not_read_back_is_removed_and_reported(four_table, tmp_path, monkeypatch, capsys, english):
    folder = tmp_path / "backups"
    real_write = backup.write_archive

    def truncating_write(tournament, path):
        real_write(tournament, path)
        content = path.read_bytes()
        path.write_bytes(content[: len(content) // 2])  # cut short on its way to the disk
        return len(content) // 2

    monkeypatch.setattr(backup, "write_archive", truncating_write)
    with pytest.raises(CommandError, match="1 tournament"):
        backup_run(folder)
    error = capsys.readouterr().err
    assert f"tournament {four_table.round.tournament.pk}" in error and "does not read back" in error
    assert archives(folder) == []  # neither under its name nor half-written

    monkeypatch.setattr(backup, "write_archive", real_write)
    backup_run(folder)  # nothing was taken for written: the next run writes it
    [name] = archives(folder)
    backup.read_archive((folder / name).read_bytes())


def fill_the_disk(monkeypatch):
    """From now on a file's data does not fit on the disk: syncing it fails with ENOSPC, as a full
    file system reports it. Returns the list of the files that were being written."""
    writing = []

    def disk_full(fd):
        writing.append(os.readlink(f"/proc/self/fd/{fd}"))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", disk_full)
    return writing


@pytest.mark.django_db
def test_a_full_disk_leaves_no_file_and_fails_with_a_clear_message(four_table, tmp_path, monkeypatch, capsys, english):
    folder = tmp_path / "backups"
    backup_run(folder)
    [kept] = archives(folder)
    save_hand(four_table, HAND)

    writing = fill_the_disk(monkeypatch)
    with pytest.raises(CommandError):
        backup_run(folder)
    error = capsys.readouterr().err
    assert "full" in error and str(folder) in error
    assert writing and all(w.startswith(str(folder)) for w in writing)  # it failed in the middle of the write
    assert archives(folder) == [kept]  # no temporary file of any kind, the earlier archive untouched

    monkeypatch.undo()
    backup_run(folder)  # with room again, the next run writes it
    assert len(archives(folder)) == 2


@pytest.mark.django_db
def test_a_killed_run_leaves_nothing_for_the_next_one(four_table, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / f".tournament-{four_table.round.tournament.pk}.0123456789ab.writing.partial").write_bytes(b"half")
    pk = four_table.round.tournament.pk
    (folder / f".tournament-{pk}.0123456789ab.writing").write_bytes(b"whole, not read back")
    (folder / f"..tournament-{pk}.0123456789ab.writing.k3j2h1.partial").write_bytes(b"half, write_atomically's own")
    backup_run(folder)
    [name] = archives(folder)
    assert NAME.match(name)


@pytest.mark.django_db
def test_keep_must_leave_at_least_one_archive(tmp_path, english):
    with pytest.raises(CommandError, match="at least 1"):
        backup_run(tmp_path, "--keep", "0")


@pytest.fixture
def stored_before_the_checks(four_table):
    """The tournament of ``four_table`` whose third player's name was stored before the text
    checks existed, with a zero-width space (written straight to the database)."""
    t = four_table.round.tournament
    player = t.registrations.get(start_number=3).player
    type(player).objects.filter(pk=player.pk).update(name="\u200bAgathe Merz")
    player.refresh_from_db()
    return t, player


@pytest.mark.django_db
def test_an_archive_a_restore_would_refuse_is_kept_and_the_run_says_what_to_fix(stored_before_the_checks, tmp_path, capsys, english):
    from django.test import Client
    from django.urls import reverse

    t, player = stored_before_the_checks
    folder = tmp_path / "backups"
    with pytest.raises(CommandError, match="1 archive would not restore"):
        backup_run(folder)
    [name] = archives(folder)  # kept under its name: it is the best backup there is
    assert NAME.match(name) and int(NAME.match(name)["id"]) == t.pk
    error = capsys.readouterr().err
    edit = reverse("tournaments_director:player_edit", args=[player.pk])
    assert f"tournament {t.pk}" in error and name in error and "would not restore" in error
    assert f"player {player.pk}" in error and "U+200B" in error and f"rename the player on the register ({edit})" in error
    assert backup.read_archive((folder / name).read_bytes())["tournament"]["id"] == t.pk  # a whole file

    backup_run(folder)  # nothing changed: not written (nor refused) again every quarter of an hour
    assert archives(folder) == [name]

    # The fix the warning names: renaming the player on the register changes the tournament.
    director = get_user_model().objects.create_superuser("admin", password="geheim-123")
    client = Client()
    client.force_login(director)
    assert client.post(edit, {"name": "Agathe Merz", "club": player.club}).status_code == 302
    backup_run(folder)
    newest = max(archives(folder), key=lambda n: (NAME.match(n)["version"]))
    assert len(archives(folder)) == 2
    assert backup.restore((folder / newest).read_bytes()).tournament.registrations.filter(player__name="Agathe Merz").exists()


@pytest.mark.django_db
def test_each_archive_is_unpacked_and_parsed_once_to_read_it_back(four_table, tmp_path, monkeypatch):
    unpacked = []
    real = backup._unpack

    def counting(content):
        unpacked.append(len(content))
        return real(content)

    monkeypatch.setattr(backup, "_unpack", counting)
    backup_run(tmp_path / "backups")
    assert len(unpacked) == 1


@pytest.mark.django_db
def test_the_runs_report_is_translated_sentence_by_sentence(stored_before_the_checks, make_tournament, tmp_path, monkeypatch, capsys):
    """Every line the command prints, and its error, is a whole sentence from the catalogue (here
    a stand-in marking each with «»), never English with a translated refusal pasted inside."""
    from django.utils import translation

    monkeypatch.setattr(translation._trans, "gettext", lambda message: f"«{message}»")
    monkeypatch.setattr(translation._trans, "ngettext", lambda one, many, n: f"«{one if n == 1 else many}»")
    broken = make_tournament(name="Abgeschnitten", players=4)
    real_write = backup.write_archive

    def truncating_write(tournament, path):
        size = real_write(tournament, path)
        if tournament.pk == broken.pk:
            path.write_bytes(path.read_bytes()[: size // 2])
        return size

    monkeypatch.setattr(backup, "write_archive", truncating_write)
    with pytest.raises(CommandError) as failed:
        call_command("backup_tournaments", "--dir", str(tmp_path / "backups"), verbosity=1)
    out, err = capsys.readouterr()
    lines = [line for line in (out + err).splitlines() if line.strip()] + [str(failed.value)]
    assert len(lines) == 4  # the count, the failure, the warning, the error
    for line in lines:
        assert line.startswith("«"), line
