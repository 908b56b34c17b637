"""``manage.py public_url``: print the address phones and printed QR codes use (``PUBLIC_URL``, or
the LAN address found at start), for ``scripts/serve`` to show."""

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Print the public address of the site (PUBLIC_URL or http://<LAN address>:<PORT>)."

    def handle(self, *args, **options):
        self.stdout.write(settings.PUBLIC_URL)
