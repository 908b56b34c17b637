from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.demo import (
    DEMO_PASSWORD,
    DEMO_USERNAME,
    TOURNAMENT_DEMOS,
    build_demo,
    build_demo_cup,
    build_demo_oe_finale,
    build_rtc_demo_cup,
    ensure_director,
)


class Command(BaseCommand):
    help = (
        "Build the demo tournaments, the two demo cups and the demo Ö-Finale of them (idempotent) and print "
        "the demo director's login. An existing user named like the demo director is left as he is. Refused "
        "with DEBUG off unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete and rebuild the demo tournaments.")
        parser.add_argument(
            "--force", action="store_true", help="Build them on a production site too (DEBUG off)."
        )

    def handle(self, *args, reset=False, force=False, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                "DEBUG is off: this looks like a production site, and the demo adds a login with a published "
                "password. Run it with --force if you mean it."
            )
        existed = get_user_model().objects.filter(username=DEMO_USERNAME).exists()
        ensure_director()
        for spec in TOURNAMENT_DEMOS:
            tournament = build_demo(spec, reset=reset)
            self.stdout.write(self.style.SUCCESS(f"Demo tournament: {tournament.name} (id {tournament.pk})"))
        for build_cup in (build_demo_cup, build_rtc_demo_cup):
            cup = build_cup(reset=reset)
            self.stdout.write(self.style.SUCCESS(f"Demo cup: {cup.name} (id {cup.pk})"))
        # After the cups: the finale qualifies its players through them (built again with them on --reset).
        finale = build_demo_oe_finale(reset=reset)
        self.stdout.write(self.style.SUCCESS(f"Demo Ö-Finale: {finale.name} (id {finale.pk})"))
        if existed:
            self.stdout.write(f"The user “{DEMO_USERNAME}” existed already and was left as he is (his password too).")
        else:
            self.stdout.write(f"Log in as the director: {DEMO_USERNAME} / {DEMO_PASSWORD}")
