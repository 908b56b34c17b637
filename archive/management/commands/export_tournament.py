from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.backup import BackupRefused, check_archive, how_to_fix, write_archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write one self-contained archive of a tournament (archive.backup), to restore with import_tournament; "
        "the written file is read back and checked as a restore would check it."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id (in its address: /t/<id>/)")
        parser.add_argument("--output", "-o", required=True, help="the archive file to write (.tarock.json.gz)")

    def handle(self, *args, tournament, output, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(_("There is no tournament %(id)s.") % {"id": tournament})
        path = Path(output)
        try:
            size = write_archive(found, path)
            check = check_archive(path.read_bytes())
        except OSError as error:
            raise CommandError(
                _("%(file)s could not be written (%(error)s); nothing was written.") % {"file": output, "error": error.strerror or error}
            ) from error
        except BackupRefused as refused:  # its form: damaged on its way to the disk
            raise CommandError(
                _("%(file)s was written but does not read back: %(reason)s") % {"file": output, "reason": refused.message}
            ) from refused
        if check.refusal is not None:
            raise CommandError(
                _("%(file)s was written but would not restore: %(reason)s To fix it, %(fix)s.")
                % {"file": output, "reason": check.refusal.message, "fix": how_to_fix(check.refusal)}
            )
        summary = check.summary
        self.stdout.write(self.style.SUCCESS(
            _("%(name)s: %(size)s KB written to %(file)s") % {"name": found.name, "size": size // 1024, "file": output}
        ))
        self.stdout.write(
            _("Checked: %(players)s players, %(rounds)s rounds, %(hands)s hands (%(deleted)s deleted, kept in their history).")
            % {"players": summary.players, "rounds": summary.rounds, "hands": summary.hands, "deleted": summary.deleted_hands}
        )
