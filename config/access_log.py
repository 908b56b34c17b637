"""gunicorn's access log without password-reset keys: the path of a reset link
(``/accounts/reset/<uid>/<token>/``, :mod:`config.urls`) is a key to an account until it is used or
expires, so the log shows ``/accounts/reset/…/…/`` in its place, wherever the format would print
it (the request line, the path, the referrer, any header or environment variable)."""

import re

from gunicorn.glogging import Logger

# The reset link's path as config.urls names it (tests/test_password_reset.py checks they agree).
RESET_PATH = re.compile(r"/accounts/reset/[^/\s?#]+/[^/\s?#]+/")
HIDDEN = "/accounts/reset/…/…/"


def redact(text):
    """``text`` (a request line, a path, a referrer) with every reset link's key hidden; anything
    that is not a string is returned as it is."""
    return RESET_PATH.sub(HIDDEN, text) if isinstance(text, str) else text


class RedactingLogger(Logger):
    """gunicorn's logger (``logger_class``) whose access log hides reset links' keys (:func:`redact`)."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) for key, value in atoms.items()}
