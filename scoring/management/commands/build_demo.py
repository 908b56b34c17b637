from django.core.management.base import BaseCommand

from scoring.demo import DEMO_PASSWORD, DEMO_USERNAME, DEMOS, build_demo, ensure_director


class Command(BaseCommand):
    help = "Build the demo tournaments (idempotent) and print the director's demo login."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete and rebuild the demo tournaments.")

    def handle(self, *args, reset=False, **options):
        ensure_director()
        for spec in DEMOS:
            tournament = build_demo(spec, reset=reset)
            self.stdout.write(self.style.SUCCESS(f"Demo tournament: {tournament.name} (id {tournament.pk})"))
        self.stdout.write(f"Director login: {DEMO_USERNAME} / {DEMO_PASSWORD}")
