from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.backup import BackupRefused, import_tournament


class Command(BaseCommand):
    help = (
        "Restore a tournament archive (written by export_tournament or downloaded from the tournament page) "
        "as a new tournament. A damaged or newer-format file is refused and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (.tarock.json.gz)")

    def handle(self, *args, file, **options):
        try:
            content = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error}") from error
        try:
            tournament = import_tournament(content)
        except BackupRefused as refused:
            raise CommandError(refused.message) from refused
        self.stdout.write(self.style.SUCCESS(f"Restored: {tournament.name} (id {tournament.pk}, address /t/{tournament.pk}/)"))
