from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from archive import schedule as backup_schedule


class Command(BaseCommand):
    help = (
        "Write an archive of every tournament that changed since its last one (archive.schedule) into "
        "--dir (default DATA_DIR/backups), read each back once, then prune: per tournament the newest archive is "
        "always kept, the others go beyond the newest --keep or when older than --keep-days. Exits non-zero when "
        "a tournament could not be backed up, or when an archive written would not restore (it is kept, and "
        "the message names what to correct). scripts/serve runs it every BACKUP_MINUTES."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=None, help="where to write (default: DATA_DIR/backups)")
        parser.add_argument("--keep", type=int, default=20, help="archives kept per tournament, at least 1 (default 20)")
        parser.add_argument(
            "--keep-days", type=float, default=None, help="also remove archives older than this many days (default: no age limit)"
        )

    def handle(self, *args, dir=None, keep=20, keep_days=None, **options):
        if keep < 1:
            raise CommandError(_("--keep must be at least 1: the newest archive of a tournament is always kept."))
        if keep_days is not None and keep_days < 0:
            raise CommandError(_("--keep-days cannot be negative."))
        folder = Path(dir) if dir else Path(settings.DATA_DIR) / "backups"
        try:
            report = backup_schedule.run(folder, keep=keep, keep_days=keep_days)
        except OSError as error:
            raise CommandError(
                _("No backup was written: the folder %(folder)s cannot be used (%(error)s).") % {"folder": folder, "error": error}
            ) from error
        if report.busy:
            self.stdout.write(_("Another backup run is writing to %(folder)s; nothing done.") % {"folder": folder})
            return
        written, removed = len(report.written), len(report.removed)
        self.stdout.write(" ".join([
            ngettext("%(count)s archive written to %(folder)s.", "%(count)s archives written to %(folder)s.", written)
            % {"count": written, "folder": folder},
            ngettext("%(count)s old archive removed.", "%(count)s old archives removed.", removed) % {"count": removed},
        ]))
        if options.get("verbosity", 1) > 1:
            for path in report.written:
                self.stdout.write(f"  {path.name}")
        for message in report.failures + report.warnings:
            self.stderr.write(message)
        problems = []
        if report.failures:
            problems.append(
                ngettext("%(count)s tournament not backed up (see above).", "%(count)s tournaments not backed up (see above).", len(report.failures))
                % {"count": len(report.failures)}
            )
        if report.warnings:
            problems.append(
                ngettext(
                    "%(count)s archive would not restore; it is kept (see above).",
                    "%(count)s archives would not restore; they are kept (see above).",
                    len(report.warnings),
                ) % {"count": len(report.warnings)}
            )
        if problems:
            raise CommandError(" ".join(problems))
