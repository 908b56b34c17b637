from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.backup import BackupRefused, restore


class Command(BaseCommand):
    help = (
        "Restore a tournament archive (written by export_tournament or downloaded from the tournament page) "
        "as a new tournament, and say what it holds and what could not be restored (roles of users this "
        "database lacks, actors kept by name). An archive that is damaged, of a newer format or whose "
        "content does not check out (archive.backup) is refused with the reason and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (.tarock.json.gz)")

    def handle(self, *args, file, **options):
        try:
            content = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(_("Cannot read %(file)s: %(error)s") % {"file": file, "error": error.strerror or error}) from error
        try:
            restored = restore(content)
        except BackupRefused as refused:
            raise CommandError(refused.message) from refused
        t, summary = restored.tournament, restored.summary
        self.stdout.write(self.style.SUCCESS(
            _("Restored: %(name)s (id %(id)s, address /t/%(id)s/)") % {"name": t.name, "id": t.pk}
        ))
        self.stdout.write(
            _("%(ruleset)s, %(date)s: %(players)s players, %(rounds)s of %(planned)s rounds, %(hands)s hands (%(deleted)s deleted, kept in their history).")
            % {"ruleset": summary.ruleset_label, "date": summary.date.isoformat(), "players": summary.players,
               "rounds": summary.rounds, "planned": summary.planned_rounds, "hands": summary.hands, "deleted": summary.deleted_hands}
        )
        if summary.cup:
            self.stdout.write(_("It is in the cup %(cup)s.") % {"cup": summary.cup})
        if summary.cup_dropped:
            self.stdout.write(self.style.WARNING(summary.cup_dropped))
        for notice in summary.oe_finale_dropped:
            self.stdout.write(self.style.WARNING(notice))
        if summary.granted_roles:
            self.stdout.write(self.style.WARNING(
                _("Roles given to the users of this site with these user names (check that they are the same people): %(roles)s")
                % {"roles": ", ".join(f"{name} ({level})" for name, level in summary.granted_roles)}
            ))
        if summary.matched_users:
            self.stdout.write(
                _("Taken for the users of this site with the same user name: %(names)s") % {"names": ", ".join(summary.matched_users)}
            )
        if summary.skipped_roles:
            self.stdout.write(self.style.WARNING(
                _("Roles not restored, their users are not on this site: %(roles)s")
                % {"roles": ", ".join(f"{name} ({level})" for name, level in summary.skipped_roles)}
            ))
        if summary.unknown_users:
            self.stdout.write(self.style.WARNING(
                _("Not users of this site, kept by name: %(names)s") % {"names": ", ".join(summary.unknown_users)}
            ))
