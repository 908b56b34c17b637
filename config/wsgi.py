"""The WSGI application gunicorn serves (``config/gunicorn.py`` loads it once in its master).

Besides Django itself, the URL patterns are loaded here, which imports every view module: a worker
forked from the master (at start, or in place of one that was killed) then answers its first
request in milliseconds instead of importing the views first (about 2.5 s on this project). Loading
the patterns touches no database.

Django's application is wrapped in :class:`config.conditional.EarlyPublicPages`, which answers the
conditional GETs and cache hits of public pages before the middleware runs.
"""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from config.conditional import EarlyPublicPages  # noqa: E402 - needs the apps loaded above

# A public page's 304, or its copy in the cache, is answered before Django's middleware for a
# visitor it would not act on; everything else goes to Django (config/conditional.py).
application = EarlyPublicPages(django_application)
get_resolver().url_patterns  # noqa: B018 - imports the views now, in the master, not in each worker's first request
