"""gunicorn's access log without keys to accounts: the path of a password-reset link
(``/accounts/reset/<uid>/<token>/``) or of a sign-in link (``/accounts/sign-in/<token>/``,
:mod:`config.urls`) is a key to an account until it is used or expires, so the log shows
``/accounts/reset/…/…/`` and ``/accounts/sign-in/…/`` in its place, wherever the format would print
it (the request line, the path, the referrer, any header or environment variable). The patterns
are :mod:`config.log_filters`', which hides them in Django's own log lines too."""

from gunicorn.glogging import Logger

from config.log_filters import HIDDEN, RESET_PATH, SIGN_IN_HIDDEN, SIGN_IN_PATH, redact

__all__ = ["HIDDEN", "RESET_PATH", "SIGN_IN_HIDDEN", "SIGN_IN_PATH", "RedactingLogger", "redact"]


class RedactingLogger(Logger):
    """gunicorn's logger (``logger_class``) whose access log hides the links' keys (:func:`redact`)."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) for key, value in atoms.items()}
