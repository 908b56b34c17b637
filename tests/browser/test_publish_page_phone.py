"""The director's publishing page on a phone (390 px): after a restore, when the public site holds
a newer version, the warning, its link to the public site and "Publish over it" are on the screen,
and the list of the last pushes, whose messages are long, scrolls in its box instead of widening
the page."""

import pytest
from django.urls import reverse

from publishing.models import PublishTarget, PushAttempt
from publishing.venue import newer_text

from .helpers import log_in


@pytest.mark.django_db(transaction=True)
def test_the_newer_warning_and_the_last_pushes_fit_a_phone(browser, live_server, director, four_table, english):
    t = four_table.round.tournament
    t.restored_from = 3
    t.save(update_fields=["restored_from"])
    target = PublishTarget.objects.create(
        tournament=t, url="http://public.example.org", key="tpk_0123456789_secret", paused=True, last_outcome="newer",
        held_version=9, mirror_url=f"http://public.example.org/m/{t.uid}/",
    )
    for _ in range(3):
        PushAttempt.objects.create(target=target, version=4, outcome="newer", message=newer_text(9, 3))
    page = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    path = reverse("publishing_venue:publish", args=[t.pk])
    log_in(page, live_server, path)
    page.wait_for_selector("table.grid")

    scroll = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert scroll[0] <= scroll[1], scroll
    warning = page.locator(".publish-status.warning")
    assert "holds version 9 of this tournament" in warning.inner_text() and "(version 3)" in warning.inner_text()
    assert warning.locator("a").get_attribute("href") == f"http://public.example.org/m/{t.uid}/"
    over = page.get_by_role("button", name="Publish over it")
    box = over.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.close()
