"""``manage.py check_venue``: refuse to serve a venue (``scripts/serve`` runs it before the app
server starts) while an active account still logs in with the demo's published password
(:data:`scoring.demo.DEMO_PASSWORD`, printed by ``scripts/demo`` and written in the README).

Every active user with a usable password is checked with ``check_password`` (one hash each: a
fraction of a second per user, fine for the few accounts of a venue or a club's server). Exits 1
naming each such user and how to change his password; prints nothing and exits 0 otherwise.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.core.management.base import BaseCommand, CommandError

from scoring.demo import DEMO_PASSWORD


def users_with_demo_password() -> list[str]:
    """User names of the active users whose password is the demo's, sorted."""
    users = get_user_model().objects.filter(is_active=True).order_by(get_user_model().USERNAME_FIELD)
    # The hasher's check, not the user's: that would also rehash and save an outdated hash.
    return [u.get_username() for u in users if u.has_usable_password() and check_password(DEMO_PASSWORD, u.password)]


class Command(BaseCommand):
    help = "Exit non-zero, naming them, while active users still have the demo's published password."

    def handle(self, *args, **options):
        names = users_with_demo_password()
        if not names:
            return
        lines = [
            f"The user “{name}” still has the demo's published password; anyone could log in as him. "
            f"Change it: .venv/bin/python manage.py changepassword {name}"
            for name in names
        ]
        lines.append("(Or make the account inactive in the admin.)")
        raise CommandError("\n".join(lines))
