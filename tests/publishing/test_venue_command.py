"""``manage.py publish TOURNAMENT_ID --to URL --key KEY``: pushes the current version once, prints
the site's answer; exit 0 when the site acknowledged it, 1 with the site's reason when it refused
it, 3 when no answer came."""

from __future__ import annotations

import hashlib
import hmac
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from publishing.models import PublishTarget, PushAttempt
from tests.publishing.test_venue_push import KEY, dead_url, played, site, version_of  # noqa: F401 - fixtures


def publish(*args, **kwargs) -> str:
    out = io.StringIO()
    call_command("publish", *map(str, args), stdout=out, **kwargs)
    return out.getvalue()


def test_the_command_pushes_once_and_says_stored_then_acknowledged(english, site, played):
    printed = publish(played.pk, "--to", site.url, "--key", KEY)
    assert f"version {version_of(played)} stored by {site.url}" in printed and f"{site.url}/t/99/" in printed
    [request] = site.requests
    assert request["headers"]["x-tarock-signature"] == "sha256=" + hmac.new(KEY.encode(), request["body"], hashlib.sha256).hexdigest()
    assert int(request["headers"]["x-tarock-version"]) == version_of(played)

    again = publish(played.pk, "--to", site.url, "--key", KEY)  # exit 0 as well
    assert "acknowledged" in again
    assert not PublishTarget.objects.exists() and not PushAttempt.objects.exists()  # nothing stored


def test_a_refusal_exits_1_with_the_sites_reason(english, site, played):
    site.refuse = (403, "This publishing key was revoked.")
    with pytest.raises(CommandError, match="Refused by the site \\(403\\): This publishing key was revoked.") as refused:
        publish(played.pk, "--to", site.url, "--key", KEY)
    assert refused.value.returncode == 1


def test_no_answer_exits_3(english, played):
    with pytest.raises(CommandError, match="Not published: No answer from the site") as offline:
        publish(played.pk, "--to", dead_url(), "--key", KEY)
    assert offline.value.returncode == 3


def test_the_key_may_come_from_the_environment_and_is_required(english, site, played, monkeypatch):
    with pytest.raises(CommandError, match="No publishing key"):
        publish(played.pk, "--to", site.url)
    monkeypatch.setenv("TAROCK_PUBLISHING_KEY", KEY)
    assert "stored" in publish(played.pk, "--to", site.url)
    assert site.requests[0]["headers"]["authorization"] == f"Bearer {KEY}"


def test_an_unknown_tournament_exits_1(english, site, db):
    with pytest.raises(CommandError, match="There is no tournament 999") as unknown:
        publish(999, "--to", site.url, "--key", KEY)
    assert unknown.value.returncode == 1 and site.requests == []
