from django.core.management.base import BaseCommand
from django.db import transaction

from scoring.services import refresh_seat_scores, stored_row
from tournaments.models import Table, Tournament


class Command(BaseCommand):
    help = (
        "Re-score every stored hand under its tournament's ruleset edition and refresh the seats' "
        "round scores. Reports hands whose row changed or that the ruleset now refuses."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, help="Only this tournament (id).")

    def handle(self, *args, tournament=None, **options):
        tournaments = Tournament.objects.all() if tournament is None else Tournament.objects.filter(pk=tournament)
        for t in tournaments:
            rs = t.get_ruleset()
            changed = refused = 0
            with transaction.atomic():
                for table in Table.objects.filter(round__tournament=t).prefetch_related("hands", "seats"):
                    size = len(table.seats.all())
                    earlier = []
                    for hand in sorted(table.hands.all(), key=lambda h: h.number):
                        played = len(hand.record.get("seats") or range(size))
                        problems = rs.validate(hand.record, played)
                        if problems:
                            earlier.append(hand.record)
                            refused += 1
                            self.stderr.write(f"{t} {table.round} {table} #{hand.number}: {'; '.join(problems)}")
                            continue
                        row = stored_row(rs, hand.record, size, earlier)
                        earlier.append(hand.record)
                        if row != hand.scores:
                            changed += 1
                            hand.scores = row
                            hand._change_reason = "recomputed"
                            hand.save(update_fields=["scores"])
                    refresh_seat_scores(table)
            self.stdout.write(f"{t}: {changed} rows changed, {refused} hands refused")
