from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournaments.backup import BackupRefused, summarize, write_archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write one self-contained archive of a tournament (tournaments.backup), to restore with import_tournament; "
        "the written file is read back and checked as a restore would check it."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id (in its address: /t/<id>/)")
        parser.add_argument("--output", "-o", required=True, help="the archive file to write (.tarock.json.gz)")

    def handle(self, *args, tournament, output, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        path = Path(output)
        size = write_archive(found, path)
        try:
            summary = summarize(path.read_bytes())
        except BackupRefused as refused:
            raise CommandError(
                _("%(file)s was written but would not restore: %(reason)s") % {"file": output, "reason": refused.message}
            ) from refused
        self.stdout.write(self.style.SUCCESS(f"{found.name}: {size // 1024} KB written to {output}"))
        self.stdout.write(
            _("Checked: %(players)s players, %(rounds)s rounds, %(hands)s hands (%(deleted)s deleted, kept in their history).")
            % {"players": summary.players, "rounds": summary.rounds, "hands": summary.hands, "deleted": summary.deleted_hands}
        )
