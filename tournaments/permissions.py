"""Who may change data: tournament directors (staff users). Everything else is read-only."""

from django.contrib.auth.mixins import LoginRequiredMixin, UserPassesTestMixin


def is_director(user) -> bool:
    """A director is an active staff user (``is_staff``); the demo's ``director`` is one."""
    return bool(user and user.is_authenticated and user.is_active and user.is_staff)


def acting_user(user):
    """The user to record as who did something (logs, hand history): ``user`` when logged in,
    else ``None`` (an anonymous request, a management command, a test without one)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


class DirectorRequiredMixin(LoginRequiredMixin, UserPassesTestMixin):
    """Class-based views that change data: log in as a director first.

    A page asked for by the browser is redirected to the login; a fragment asked for by htmx (the
    entry form's save, the preview) is answered ``403`` instead, so the form says the save failed
    and keeps what was typed rather than showing the login page in its place."""

    def test_func(self):
        return is_director(self.request.user)

    def handle_no_permission(self):
        if getattr(self.request, "htmx", False):
            self.raise_exception = True
        return super().handle_no_permission()
