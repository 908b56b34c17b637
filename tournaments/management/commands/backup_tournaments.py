from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from tournaments.backup import write_archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write an archive of every tournament that changed since its last one (tournaments.backup) into "
        "--dir (default DATA_DIR/backups), keeping the newest --keep per tournament. scripts/serve runs it "
        "every BACKUP_MINUTES."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=None, help="where to write (default: DATA_DIR/backups)")
        parser.add_argument("--keep", type=int, default=20, help="archives kept per tournament (default 20)")

    def handle(self, *args, dir=None, keep=20, **options):
        folder = Path(dir) if dir else Path(settings.DATA_DIR) / "backups"
        folder.mkdir(parents=True, exist_ok=True)
        written = 0
        for tournament in Tournament.objects.order_by("pk"):
            # One file per data version: a tournament nobody touched is not written again.
            path = folder / f"tournament-{tournament.pk}-v{tournament.data_version:06d}.tarock.json.gz"
            if path.exists():
                continue
            write_archive(tournament, path)
            written += 1
            for old in sorted(folder.glob(f"tournament-{tournament.pk}-v*.tarock.json.gz"))[:-keep]:
                old.unlink()
        self.stdout.write(f"{written} archive(s) written to {folder}")
