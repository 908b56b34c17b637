"""``manage.py publish TOURNAMENT_ID --to URL --key KEY``: push the tournament's current version to
a public site once (:func:`publishing.venue.send`, as the background push sends it) and print the
site's answer.

Exit status: 0 when the site acknowledged it (stored, or ignored as it holds that version or a
newer one); 1 when the site refused it, with its reason (a wrong key, the archive's content …),
the tournament does not exist, or the site holds a newer version than the backup the tournament
was restored from (``--over`` publishes over it: :func:`publishing.venue.overrule` moves the
tournament's data version past the site's); 3 when no answer came (no network, the site down or
busy: worth trying again). The key may come from the environment (``TAROCK_PUBLISHING_KEY``)
instead of the command line, where other users of the machine could read it. The tournament's
publishing target, if it has one, is left as it is.
"""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from publishing import venue
from tournaments.models import Tournament

KEY_VARIABLE = "TAROCK_PUBLISHING_KEY"
NO_ANSWER = 3


class Command(BaseCommand):
    help = (
        "Push a tournament's current version once to a public site (the archive, signed with the "
        "publishing key) and print the site's answer. Exit 0 when the site acknowledged it, 1 when "
        f"it refused it, {NO_ANSWER} when it did not answer."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id (in its address: /t/<id>/)")
        parser.add_argument("--to", required=True, dest="url", help="the public site's address, e.g. https://tarock.example.org")
        parser.add_argument("--key", help=f"the publishing key (default: the environment's {KEY_VARIABLE})")
        parser.add_argument(
            "--over", action="store_true",
            help="when the site holds a newer version than the backup this tournament was restored from, publish over it "
                 "(the hands only the site has are gone from it then)",
        )
        parser.add_argument("--timeout", type=float, default=venue.TIMEOUT_SECONDS, help="seconds to wait for the site (default %(default)s)")

    def handle(self, *args, tournament, url, key, timeout, over, **options):
        key = (key or os.environ.get(KEY_VARIABLE, "")).strip()
        if not key:
            raise CommandError(_("No publishing key: give --key or set %(variable)s.") % {"variable": KEY_VARIABLE})
        found = Tournament.objects.select_related("cup").filter(pk=tournament).first()
        if found is None:
            raise CommandError(_("There is no tournament %(id)s.") % {"id": tournament})
        result = venue.send(found, url, key, timeout=timeout)
        if result.outcome == venue.Outcome.NEWER and over:
            venue.overrule(found.pk, result.site_version)
            result = venue.send(found, url, key, timeout=timeout)
        if result.acknowledged:
            said = (
                _("%(name)s: version %(version)s stored by %(site)s.") if result.outcome == venue.Outcome.STORED
                else _("%(name)s: version %(version)s acknowledged by %(site)s (it holds it or a newer one).")
            )
            self.stdout.write(self.style.SUCCESS(said % {"name": found.name, "version": result.version, "site": url}))
            if result.mirror_url:
                self.stdout.write(result.mirror_url)
            return
        if result.outcome == venue.Outcome.NEWER:
            raise CommandError(_("%(reason)s (Or publish over it: --over.)") % {"reason": result.message})
        if result.outcome == venue.Outcome.REFUSED:
            raise CommandError(
                _("Refused by the site (%(status)s): %(reason)s") % {"status": result.status, "reason": result.message}
            )
        raise CommandError(_("Not published: %(reason)s") % {"reason": result.message}, returncode=NO_ANSWER)
