"""The background publishing (publishing.tasks): one chain of tasks per target, whatever asks for
it how often; it pushes what is new and enqueues itself again (soon while the site answers, after
the back-off while it does not); a chain whose worker was killed is started again; a stopped
target's chain ends. The development server (its task backend runs tasks at once) pushes once in a
thread and never chains."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from publishing import tasks, venue
from publishing.models import PublishTarget
from publishing.tasks import ensure_publishing, publish_tournament
from tests.publishing.test_venue_push import dead_url, make_target, played, site, version_of  # noqa: F401 - fixtures
from tournaments.versioning import touch


@pytest.fixture
def worker_backend(settings):
    """The task backend scripts/serve uses: the database, with a worker."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def queued():
    """This task's runs waiting in the database (oldest first)."""
    return list(DBTaskResult.objects.filter(task_path=publish_tournament.module_path, status="READY").order_by("enqueued_at"))


def test_two_clicks_two_tabs_start_one_chain(worker_backend, played, site, django_capture_on_commit_callbacks):
    target = make_target(played, site.url)
    with django_capture_on_commit_callbacks(execute=True):
        assert ensure_publishing(played) is True
        assert ensure_publishing(played) is False
    with django_capture_on_commit_callbacks(execute=True):
        assert ensure_publishing(played.pk) is False  # another request, the hold lasts
    [run] = queued()
    target.refresh_from_db()
    assert run.args_kwargs == {"args": [target.pk], "kwargs": {"chain": target.chain}} and target.chain
    assert DBTaskResult.objects.ready().filter(pk=run.pk).exists()  # the first push goes at once


def test_the_chain_pushes_what_is_new_and_enqueues_itself_a_second_later(worker_backend, played, site, django_capture_on_commit_callbacks, monkeypatch):
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)  # the test's own connection, in its transaction
    target = make_target(played, site.url)
    with django_capture_on_commit_callbacks(execute=True):
        ensure_publishing(played)
    call_command("run_worker", "--batch", "--no-startup-delay", verbosity=0)  # runs what is due, then ends

    assert [int(r["headers"]["x-tarock-version"]) for r in site.requests] == [version_of(played)]
    [following] = queued()
    target.refresh_from_db()
    assert following.args_kwargs["kwargs"] == {"chain": target.chain}
    assert timedelta(0) < following.run_after - timezone.now() <= timedelta(seconds=tasks.POLL_SECONDS)
    assert target.chain_until > following.run_after  # the hold reaches past the next step

    # a hand saved: the next step sends it; one with nothing new sends nothing
    touch(played.pk)
    publish_tournament.call(target.pk, chain=target.chain)
    publish_tournament.call(target.pk, chain=target.chain)
    assert [int(r["headers"]["x-tarock-version"]) for r in site.requests] == [version_of(played) - 1, version_of(played)]


def test_while_the_site_is_away_the_next_step_waits_for_the_back_off(worker_backend, played):
    target = make_target(played, dead_url())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tasks, "_start", lambda *args: None)
        ensure_publishing(played)
    target.refresh_from_db()
    assert publish_tournament.call(target.pk, chain=target.chain) == "offline"
    target.refresh_from_db()
    [following] = queued()
    assert abs(following.run_after - target.next_try) < timedelta(milliseconds=1)
    assert publish_tournament.call(target.pk, chain=target.chain) == "waiting"  # early: nothing sent, still chained
    assert len(queued()) == 2


def test_a_killed_workers_chain_is_started_again_and_the_old_one_ends(worker_backend, played, site, django_capture_on_commit_callbacks):
    target = make_target(played, site.url)
    PublishTarget.objects.filter(pk=target.pk).update(chain="killed", chain_until=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert ensure_publishing(played) is True
    target.refresh_from_db()
    assert target.chain != "killed"
    # a task of the old chain still queued somewhere steps aside
    assert publish_tournament.call(target.pk, chain="killed") == "superseded"
    assert site.requests == [] and len(queued()) == 1


def test_stopping_ends_the_chain_and_saving_again_starts_one(worker_backend, played, site, django_capture_on_commit_callbacks):
    target = make_target(played, site.url)
    with django_capture_on_commit_callbacks(execute=True):
        ensure_publishing(played)
    token = PublishTarget.objects.get().chain
    venue.stop(target)
    assert publish_tournament.call(target.pk, chain=token) == "superseded"
    assert ensure_publishing(played) is False  # stopped: nothing starts

    venue.configure(played, url=site.url, key=None, enabled=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert ensure_publishing(played) is True


def test_a_paused_target_ends_its_chain(worker_backend, played, site):
    site.refuse = (403, "This key was revoked.")
    target = make_target(played, site.url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tasks, "_start", lambda *args: None)
        ensure_publishing(played)
    target.refresh_from_db()
    assert publish_tournament.call(target.pk, chain=target.chain) == "refused"
    target.refresh_from_db()
    assert target.paused and target.chain == "" and queued() == []
    assert ensure_publishing(played) is False


@pytest.mark.django_db(transaction=True)
def test_the_development_server_pushes_once_in_a_thread_after_the_commit(settings, make_tournament, site):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    t = make_tournament(players=4)
    target = make_target(t, site.url)
    assert ensure_publishing(t) is True  # outside a transaction: the thread starts at once
    for thread in [th for th in threading.enumerate() if th.name == f"publish-{target.pk}"]:
        thread.join(20)  # (the test's in-memory database is not asked meanwhile: it would lock)
    target.refresh_from_db()
    assert [int(r["headers"]["x-tarock-version"]) for r in site.requests] == [version_of(t)]
    assert target.pushed_version == version_of(t) and target.chain == "" and target.chain_until is None
    assert DBTaskResult.objects.count() == 0  # nothing chained


def test_old_successful_runs_are_pruned(worker_backend, played, site, monkeypatch):
    target = make_target(played, site.url)
    old = publish_tournament.enqueue(target.pk)
    DBTaskResult.objects.filter(id=old.id).update(status="SUCCESSFUL", finished_at=timezone.now() - timedelta(hours=2))
    recent = publish_tournament.enqueue(target.pk)
    DBTaskResult.objects.filter(id=recent.id).update(status="SUCCESSFUL", finished_at=timezone.now())
    monkeypatch.setattr(tasks, "_last_prune", None)  # this process has not pruned yet (on a machine started a minute ago too)
    assert tasks.prune() == 1
    assert list(DBTaskResult.objects.values_list("id", flat=True)) == [recent.db_result.id]
    assert tasks.prune() == 0  # not again so soon


def test_a_step_the_database_failed_is_followed_by_another(worker_backend, played, site, monkeypatch):
    from django.db import OperationalError

    target = make_target(played, site.url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tasks, "_start", lambda *args: None)
        ensure_publishing(played)
    target.refresh_from_db()

    def locked(*args):
        raise OperationalError("database is locked")

    monkeypatch.setattr(tasks, "push_if_due", locked)
    assert publish_tournament.call(target.pk, chain=target.chain) == "database error"
    [following] = queued()
    assert timedelta(seconds=4) < following.run_after - timezone.now() <= timedelta(seconds=tasks.DATABASE_PAUSE_SECONDS)
    with pytest.raises(OperationalError):
        publish_tournament.call(target.pk)  # a single step (no chain) says so


def test_a_worker_that_starts_again_takes_up_publishing_at_once(worker_backend, played, site, django_capture_on_commit_callbacks):
    """A worker killed in the middle of a push leaves the target held for minutes; the worker that
    starts next lets go of that hold and starts the chain, before any page is looked at."""
    from tournaments.signals import worker_starting

    target = make_target(played, site.url)
    PublishTarget.objects.filter(pk=target.pk).update(chain="killed", chain_until=timezone.now() + timedelta(minutes=2))
    assert ensure_publishing(played) is False  # a page view waits for the hold to run out
    with django_capture_on_commit_callbacks(execute=True):
        worker_starting.send(sender=None)
    target.refresh_from_db()
    assert target.chain != "killed" and len(queued()) == 1
    assert publish_tournament.call(target.pk, chain="killed") == "superseded"
