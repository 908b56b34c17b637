from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournaments.backup import BackupRefused, restore


class Command(BaseCommand):
    help = (
        "Restore a tournament archive (written by export_tournament or downloaded from the tournament page) "
        "as a new tournament, and say what it holds and what could not be restored (roles of users this "
        "database lacks, actors kept by name). An archive that is damaged, of a newer format or whose "
        "content does not check out (tournaments.backup) is refused with the reason and nothing is written."
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
        t = restored.tournament
        self.stdout.write(self.style.SUCCESS(
            _("Restored: %(name)s (id %(id)s, address /t/%(id)s/)") % {"name": t.name, "id": t.pk}
        ))
        rounds = t.round_set.count()
        self.stdout.write(
            _("%(ruleset)s, %(date)s: %(players)s players, %(rounds)s of %(planned)s rounds, %(hands)s hands.")
            % {"ruleset": _(t.get_ruleset().label), "date": t.date.isoformat(),
               "players": t.registrations.count(), "rounds": rounds, "planned": t.rounds,
               "hands": t.round_set.values("tables__hands").exclude(tables__hands=None).count()}
        )
        if restored.cup:
            self.stdout.write(_("It is in the cup %(cup)s.") % {"cup": restored.cup})
        if restored.cup_dropped:
            self.stdout.write(self.style.WARNING(restored.cup_dropped))
        if restored.granted_roles:
            self.stdout.write(self.style.WARNING(
                _("Roles given to the users of this site with these user names (check that they are the same people): %(roles)s")
                % {"roles": ", ".join(f"{name} ({level})" for name, level in restored.granted_roles)}
            ))
        if restored.matched_users:
            self.stdout.write(
                _("Taken for the users of this site with the same user name: %(names)s") % {"names": ", ".join(restored.matched_users)}
            )
        if restored.skipped_roles:
            self.stdout.write(self.style.WARNING(
                _("Roles not restored, their users are not on this site: %(roles)s")
                % {"roles": ", ".join(f"{name} ({level})" for name, level in restored.skipped_roles)}
            ))
        if restored.unknown_users:
            self.stdout.write(self.style.WARNING(
                _("Not users of this site, kept by name: %(names)s") % {"names": ", ".join(restored.unknown_users)}
            ))
