from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.backup import write_archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write one self-contained archive of a tournament (tournaments.backup), to restore with import_tournament."

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id (in its address: /t/<id>/)")
        parser.add_argument("--output", "-o", required=True, help="the archive file to write (.tarock.json.gz)")

    def handle(self, *args, tournament, output, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        size = write_archive(found, Path(output))
        self.stdout.write(self.style.SUCCESS(f"{found.name}: {size // 1024} KB written to {output}"))
