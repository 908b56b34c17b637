"""Browser tests: Playwright driving Debian's Chromium (``/usr/bin/chromium``, installed by
``scripts/setup --dev`` as root; without it these tests are skipped) against the live test server.

Every test here uses the database in transaction mode (the live server runs in another thread)
and gets a ``browser``; ``page`` is a desktop page in English.
"""

import os
import shutil

import pytest
from django.db import connections

CHROMIUM = "/usr/bin/chromium"
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.django_db(transaction=True))
            if not shutil.which(CHROMIUM):
                item.add_marker(pytest.mark.skip(reason="Debian's chromium is not installed (scripts/setup --dev installs it as root)"))


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
        # The test's ORM queries ran inside Playwright's event-loop context, where Django keeps a
        # connection of its own: close it here, or PostgreSQL cannot drop the test database.
        connections.close_all()


@pytest.fixture
def page(browser):
    """A desktop page in English. Playwright's ``wait_for_function`` polls with ``eval``, which the
    site's Content-Security-Policy forbids, so this page lets the test's own scripts past it;
    ``test_csp.py`` and the phone pages run under the policy as served."""
    return browser.new_page(locale="en-GB", bypass_csp=True)
