"""``manage.py publishing_key USERNAME [--cup NAME] [--label TEXT]``: make a publishing key for an
organiser of this (public) site and print it as the last line, once (:func:`publishing.keys.make_key`).

The user must be allowed to create tournaments (the "Organisers" group, or a superuser); ``--cup``
names a cup he keeps. An unknown user or cup, or a user not allowed, ends with an error and no key.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from publishing import keys
from scoring.cups.models import Cup


class Command(BaseCommand):
    help = (
        "Make a publishing key with which a venue publishes tournaments to this site as USERNAME's "
        "(into the cup --cup, one he keeps). The key is printed once, as the last line; only its "
        "fingerprint is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("username", help="the organiser the key publishes for")
        parser.add_argument("--cup", default="", help="the name of a cup he keeps: published tournaments count for it")
        parser.add_argument("--label", default="", help="your words for where the key is used")

    def handle(self, *args, username, cup, label, **options):
        user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(_("There is no user “%(name)s” on this site.") % {"name": username})
        found = None
        if cup:
            found = Cup.objects.filter(name=cup).first()
            if found is None:
                raise CommandError(_("There is no cup “%(name)s” on this site.") % {"name": cup})
        try:
            key, plain = keys.make_key(user, found, label)
        except keys.KeyRefused as refused:
            raise CommandError(refused.message) from refused
        if found:
            made = _("Publishing key %(prefix)s… made for %(user)s, publishing into the cup %(cup)s.") % {
                "prefix": key.prefix, "user": user.get_username(), "cup": found.name}
        else:
            made = _("Publishing key %(prefix)s… made for %(user)s.") % {"prefix": key.prefix, "user": user.get_username()}
        self.stdout.write(made)
        self.stdout.write(_("It is shown this once; only its fingerprint is kept. Give it to the venue with this site's address:"))
        self.stdout.write(plain)
