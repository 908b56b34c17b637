"""A rendered export is stored whole or not at all: a full disk or a process killed mid-write
never leaves a file under the export's name, so the next request renders it again instead of
serving 0 bytes or half a PDF; the older versions are still cleared and a second render of the
same version keeps the first."""

import errno
import os
import time

import pytest
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse

from scoring.exporters.base import storage_name, store, stored
from tournaments.atomic import is_temporary, write_atomically


def files_under(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) if root.exists() else []


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def counted(monkeypatch):
    """How often the standings PDF was rendered."""
    from scoring.exporters.builtin import StandingsPdf

    calls = {"n": 0}
    render = StandingsPdf.render

    def counting(self, *args, **kwargs):
        calls["n"] += 1
        return render(self, *args, **kwargs)

    monkeypatch.setattr(StandingsPdf, "render", counting)
    return calls


@pytest.mark.django_db
@pytest.mark.parametrize("failing", ["os.replace", "os.fsync"])
def test_an_export_whose_write_fails_is_not_stored_and_is_rendered_again(four_table, settings, counted, monkeypatch, failing):
    url = reverse("exports:standings_pdf", args=[four_table.round.tournament_id])
    with monkeypatch.context() as patch:
        patch.setattr(f"tournaments.atomic.{failing}", disk_full)
        first = Client().get(url)
    # the visitor still gets the whole file he asked for (rendered in memory) ...
    assert first.status_code == 200 and first.content.startswith(b"%PDF") and first.content.rstrip().endswith(b"%%EOF")
    # ... but nothing is left on the disk: no file under the export's name, no temporary file
    assert files_under(settings.MEDIA_ROOT) == []
    second = Client().get(url)
    assert counted["n"] == 2  # rendered again, not served from a broken file
    assert body(second) == first.content
    third = Client().get(url)
    assert counted["n"] == 2 and third.streaming and body(third) == first.content  # now kept, whole


def test_store_raises_and_leaves_nothing_when_the_disk_is_full(settings, tmp_path, monkeypatch):
    settings.MEDIA_ROOT = tmp_path
    name = storage_name(1, "results", "round=1", "de", "5.1700000000000000", "pdf")
    real_fdopen = os.fdopen

    class FillsUp:
        """A file on a disk that fills up after 4 bytes of it are written."""

        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            self.handle.write(data[:4])
            self.handle.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: FillsUp(real_fdopen(fd, mode)))
    with pytest.raises(OSError) as refused:
        store(name, b"%PDF-1.7 a whole file")
    monkeypatch.undo()
    assert refused.value.errno == errno.ENOSPC
    assert not stored(name) and files_under(tmp_path) == []


def test_a_write_killed_midway_is_never_taken_for_the_export(settings, tmp_path):
    """A process killed while writing leaves its temporary file (nothing can remove it then):
    its name never matches the export's, and the next store clears it once it is stale."""
    settings.MEDIA_ROOT = tmp_path
    name = storage_name(1, "standings-pdf", "", "de", "7.1700000000000000", "pdf")
    folder = tmp_path / os.path.dirname(name)
    folder.mkdir(parents=True)
    base = os.path.basename(name)
    left = folder / f".{base}.k1ll3d.partial"
    left.write_bytes(b"%PDF-1.7 half a fi")
    assert is_temporary(left.name)
    assert not stored(name)  # the half-written file is no export
    an_hour_ago = time.time() - 3700
    os.utime(left, (an_hour_ago, an_hour_ago))
    young = folder / f".{base}.wr1t1ng.partial"  # another process writing right now
    young.write_bytes(b"%PDF")
    assert store(name, b"%PDF-1.7 whole") == name
    assert default_storage.open(name).read() == b"%PDF-1.7 whole"
    assert not left.exists() and young.exists()


def test_a_second_render_of_the_same_version_keeps_the_first(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    name = storage_name(1, "hands-csv", "", "de", "3.1700000000000000", "csv")
    assert store(name, b"first") == name
    assert store(name, b"second") == name
    assert default_storage.open(name).read() == b"first"
    assert files_under(tmp_path) == [name]


def test_a_stored_file_is_readable_like_an_uploaded_one(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.FILE_UPLOAD_PERMISSIONS = 0o644
    name = storage_name(1, "hands-csv", "", "en", "3.1700000000000000", "csv")
    store(name, b"a;b")
    assert oct(os.stat(tmp_path / name).st_mode & 0o777) == "0o644"


def test_write_atomically_replaces_a_file_whole(tmp_path):
    target = tmp_path / "sub" / "file.pdf"
    write_atomically(target, b"old")
    write_atomically(target, b"new and longer")
    assert target.read_bytes() == b"new and longer"
    assert [p.name for p in target.parent.iterdir()] == ["file.pdf"]
