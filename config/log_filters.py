"""What the server's log may hold, and in how many lines.

**No keys to accounts.** The path of a password-reset link (``/accounts/reset/<uid>/<token>/``)
and of a sign-in link (``/accounts/sign-in/<token>/``, :mod:`tournaments.sign_in_links`) lets
whoever reads it into an account until it is used or expires: :func:`redact` puts ``…`` in place
of their keys, for gunicorn's access log (:mod:`config.access_log`) and for Django's own log lines
(:class:`OneLineClientErrors`).

**A refused request is one line.** Django logs a 403 (``PermissionDenied``) and a 400
(``SuspiciousOperation``, an unreadable request) with the exception's full traceback, which says
nothing about the program (the refusal is the program working) and buries the real errors. A
record of ``django.request`` or ``django.security`` about an answer below 500 loses its traceback
and becomes one line naming the status, the method, the path and the user, e.g.
``Forbidden (Permission denied): /manage/t/1/board/ [403 GET, user spieler]``. A 5xx keeps its
traceback.
"""

from __future__ import annotations

import logging
import re

# The paths of the links that are keys, as config.urls names them (tests check they agree).
RESET_PATH = re.compile(r"/accounts/reset/[^/\s?#]+/[^/\s?#]+/")
HIDDEN = "/accounts/reset/…/…/"
SIGN_IN_PATH = re.compile(r"/accounts/sign-in/[^/\s?#]+/")
SIGN_IN_HIDDEN = "/accounts/sign-in/…/"

# The loggers whose records carry the answer's status (django.utils.log.log_response).
REQUEST_LOGGERS = ("django.request", "django.security", "django.server")


def redact(text):
    """``text`` (a request line, a path, a referrer, a log message) with the key of every
    password-reset and sign-in link hidden; anything that is not a string is returned as it is."""
    if not isinstance(text, str):
        return text
    return SIGN_IN_PATH.sub(SIGN_IN_HIDDEN, RESET_PATH.sub(HIDDEN, text))


def _who(request) -> str:
    """The user name of ``request``'s user, ``anonymous``, or ``?`` when it cannot be told (no
    authentication on this request, or the database does not answer)."""
    try:
        user = request.user
        return user.get_username() if user.is_authenticated else "anonymous"
    except Exception:  # noqa: BLE001 - a log line must never fail the request it reports
        return "?"


class OneLineClientErrors(logging.Filter):
    """A handler's filter (``LOGGING["handlers"][...]["filters"]``, so it sees the records of the
    child loggers ``django.security.*`` too): keys to accounts hidden in every record of the
    request loggers; a record of an answer below 500 without traceback and with
    ``[status method, user name]`` appended. Every record passes (nothing is dropped)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith(REQUEST_LOGGERS) or getattr(record, "_one_line", False):
            return True
        record._one_line = True  # rewritten once, whichever handler sees it first
        message = redact(record.getMessage())
        status = getattr(record, "status_code", None)
        request = getattr(record, "request", None)
        if isinstance(status, int) and status < 500 and record.name != "django.server":
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
            if request is not None and hasattr(request, "method"):
                message = f"{message} [{status} {request.method}, user {_who(request)}]"
            else:
                message = f"{message} [{status}]"
        record.msg, record.args = message, ()
        return True
