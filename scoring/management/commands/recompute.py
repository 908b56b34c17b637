from django.core.management.base import BaseCommand
from django.db import transaction

from scoring.services import lock_open_table, refresh_seat_scores, rescore_table
from scoring.services.errors import RoundLocked
from tournaments.models import Table, Tournament


class Command(BaseCommand):
    help = (
        "Re-score every stored hand under its tournament's ruleset edition and refresh the seats' "
        "round scores. Reports hands whose row changed or that the ruleset now refuses; the "
        "hands of verified rounds are reported, not changed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, help="Only this tournament (id).")

    def handle(self, *args, tournament=None, **options):
        # A mirror is a copy of a tournament run elsewhere, read-only here: the venue scores it.
        tournaments = Tournament.objects.filter(mirrored_from="") if tournament is None else Tournament.objects.filter(pk=tournament)
        for t in tournaments:
            rs = t.get_ruleset()
            changed = refused = locked = 0
            for table in Table.objects.filter(round__tournament=t).select_related("round"):
                with transaction.atomic():
                    try:
                        lock_open_table(table.pk)
                    except RoundLocked:
                        locked += 1
                        continue
                    result = rescore_table(table, rs, table.seats.count(), reason="recomputed")
                    refresh_seat_scores(table)
                changed += len(result.changed)
                refused += len(result.refused)
                for hand, problems in result.refused:
                    self.stderr.write(f"{t} {table.round} {table} #{hand.number}: {'; '.join(problems)}")
            self.stdout.write(f"{t}: {changed} rows changed, {refused} hands refused, {locked} verified tables left alone")
