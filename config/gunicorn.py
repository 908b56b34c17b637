"""gunicorn's settings for ``scripts/serve`` (``gunicorn -c config/gunicorn.py config.wsgi``).

``HOST``/``PORT`` (default ``0.0.0.0:8000``: every network of the machine, so phones on the venue's
Wi-Fi reach it), ``WEB_CONCURRENCY`` worker processes (default twice the CPUs plus one, at most 8).
Access and error logs go to stdout/stderr; an access line ends with the answer's time in ms.
"""

import gc
import multiprocessing
import os

bind = f"{os.environ.get('HOST') or '0.0.0.0'}:{os.environ.get('PORT') or '8000'}"
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * multiprocessing.cpu_count() + 1, 8))
accesslog = "-"
# gunicorn's own line, and how long the answer took ("… 12ms"): a slow request shows in the log.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
logger_class = "config.access_log.RedactingLogger"  # no password-reset key in the access log
# No control socket: it would sit at one path in the home directory, so a second app server on the
# same machine (another port) would take over the first one's.
control_socket_disable = True
errorlog = "-"
timeout = 60  # an export rendered in the request (the heavy ones go to the worker) may take seconds

# Load Django once in the master and fork the workers from it: they share its memory, and the
# objects of the start-up (settings, URL patterns, templates, the rulesets) are frozen out of the
# garbage collector's generations, so its collections in a request scan only what the request made.
preload_app = True


def pre_fork(server, worker):
    gc.collect()
    gc.freeze()
