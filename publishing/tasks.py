"""Publishing in the background: one chain of tasks per published tournament, run by the worker
(``manage.py run_worker``, which ``scripts/serve`` keeps running).

The chain. :func:`publish_tournament` pushes the tournament when it is ahead of what the site has
(:func:`publishing.venue.due`; only the newest version is ever sent, so versions saved while the
network was away are skipped), then enqueues itself again: after :data:`POLL_SECONDS` while the
site answers (or after the venue's pace, :func:`publishing.venue.pace`, when its answer was slow),
after the back-off while it does not, for as long as the target is enabled. A saved
hand therefore reaches the site within about two seconds plus the push (the worker looks for due
tasks every second); hand entry itself never waits for it, nor asks the database one more thing.

One chain per target. A chain holds the target by a random token (``PublishTarget.chain``) and
until a time (``chain_until``) that each step moves past its next run (and past a push's
time-out while it pushes). :func:`ensure_publishing` starts a chain only where none holds the
target, in one conditional ``UPDATE``, so of two clicks, two tabs or two app servers one starts it;
a step whose token is no longer the target's ends its chain. A worker killed in a step leaves the
hold to run out (:data:`HOLD_SECONDS` after the step's planned end); the next
:func:`ensure_publishing` then starts a new chain: it is called when the target is saved and
whenever a director's tournament page or publishing page is shown (the status on the tournament
page asks every few seconds). Tasks still queued, restarting the worker, keep their chain.

The development server (DEBUG) runs no worker: its task backend runs a task at once, in the
request, and cannot defer one. There :func:`ensure_publishing` pushes once, if due, in a thread of
its own after the request's transaction commits, and does not chain: the site is brought up to date
when the target is saved and when a director's page shows the status, not after each hand.

The library keeps a row per task run (``django_tasks_db``'s ``DBTaskResult``); a chain makes one
per second, so this task's successful rows older than :data:`PRUNE_AFTER` are removed now and then
(:func:`prune`).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from datetime import timedelta

from django.db import DatabaseError, connections, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from publishing import venue
from publishing.models import PublishTarget

log = logging.getLogger("publishing.tasks")

POLL_SECONDS = 1.0  # between two looks at the tournament's version while the site answers
DATABASE_PAUSE_SECONDS = 5.0  # after a step the database failed
HOLD_SECONDS = 60.0  # how long past its planned next step a chain holds its target unless renewed
PRUNE_AFTER = timedelta(hours=1)
PRUNE_EVERY_SECONDS = 600.0

_last_prune: float | None = None  # time.monotonic() of this process's last prune (it may be below 600 on a fresh machine)


def _hold_while_pushing():
    return timezone.now() + timedelta(seconds=venue.TIMEOUT_SECONDS * 3 + HOLD_SECONDS)


def deferring() -> bool:
    """Whether the task backend runs tasks in a worker and can defer them (the database backend),
    not at once in the caller (the development server's)."""
    return publish_tournament.get_backend().supports_defer


def ensure_publishing(tournament) -> bool:
    """Make sure the tournament (a ``Tournament`` or its id) is being published if it has an
    enabled target that is not paused: start a chain unless one holds the target (see the
    module). Returns whether this call started one. The start happens after the current
    transaction commits; one conditional ``UPDATE`` decides, and none is made while the target's
    hold is seen to last."""
    tournament_id = getattr(tournament, "pk", tournament)
    target = PublishTarget.objects.filter(tournament_id=tournament_id).only("pk", "enabled", "paused", "chain_until").first()
    now = timezone.now()
    if target is None or not target.enabled or target.paused or (target.chain_until and target.chain_until > now):
        return False
    token = secrets.token_hex(16)
    claimed = (
        PublishTarget.objects.filter(pk=target.pk, enabled=True, paused=False)
        .filter(Q(chain_until__isnull=True) | Q(chain_until__lte=now))
        .update(chain=token, chain_until=_hold_while_pushing())
    )
    if not claimed:
        return False
    log.info("publishing: tournament %s: a chain of pushes starts", tournament_id)
    transaction.on_commit(lambda: _start(target.pk, token))
    return True


def _start(target_id: int, token: str) -> None:
    if deferring():
        publish_tournament.enqueue(target_id, chain=token)
    else:
        start_thread(target_id, token)


def start_thread(target_id: int, token: str) -> None:
    """The development server's push (see the module): :func:`push_if_due` in a daemon thread,
    then the hold released."""
    threading.Thread(target=_push_in_thread, args=(target_id, token), name=f"publish-{target_id}", daemon=True).start()


def _push_in_thread(target_id: int, token: str) -> None:
    try:
        push_if_due(target_id, token)
    except Exception:  # noqa: BLE001 - a thread's error has nowhere else to go
        log.exception("publishing: the push of target %s failed", target_id)
    finally:
        try:
            release(target_id, token)
        finally:
            connections.close_all()


def release(target_id: int, token: str) -> bool:
    """End chain ``token``'s hold on the target (if it still has it)."""
    return bool(PublishTarget.objects.filter(pk=target_id, chain=token).update(chain="", chain_until=None))


def push_if_due(target_id: int, token: str = "") -> str:
    """One step: push target ``target_id`` if it is due (:func:`publishing.venue.push_once`).
    With ``token``, only while that chain holds the target (its hold is moved past the push's
    time-out first). Returns what happened: ``"superseded"`` (another chain holds it), ``"gone"``,
    ``"stopped"`` (disabled or paused), ``"waiting"`` (back-off, or the pace after a slow answer),
    ``"current"`` (nothing new), or
    the push's outcome."""
    if token and not PublishTarget.objects.filter(pk=target_id, chain=token).update(chain_until=_hold_while_pushing()):
        return "superseded"
    target = PublishTarget.objects.select_related("tournament", "tournament__cup").filter(pk=target_id).first()
    if target is None:
        return "gone"
    if not target.enabled or target.paused:
        return "stopped"
    if not venue.due(target, target.tournament.data_version):
        return "waiting" if target.next_try and target.next_try > timezone.now() else "current"
    return venue.push_once(target).outcome


@task()
def publish_tournament(target_id: int, chain: str = "") -> str:
    """Keep publishing target ``target_id``: one step (:func:`push_if_due`), then, while chain
    ``chain`` holds the enabled target, the next step enqueued after :data:`POLL_SECONDS` or the
    back-off (see the module). Without ``chain``: one step, nothing enqueued. Returns the step's
    outcome. A database error in the step is logged and the next step follows after
    :data:`DATABASE_PAUSE_SECONDS`; one that keeps the next step from being enqueued is raised (the
    hold then runs out and the chain is started again, :func:`ensure_publishing`)."""
    try:
        outcome = push_if_due(target_id, chain)
    except DatabaseError:
        if not chain:
            raise
        # a database locked for longer than its time-out, say: the chain goes on after a pause
        log.exception("publishing: target %s: the step failed; the next one follows in %s s", target_id, DATABASE_PAUSE_SECONDS)
        outcome = "database error"
    if not chain or outcome in ("superseded", "gone"):
        return outcome
    if outcome == "stopped":
        release(target_id, chain)
        return outcome
    now = timezone.now()
    next_try = PublishTarget.objects.filter(pk=target_id).values_list("next_try", flat=True).first()
    pause = DATABASE_PAUSE_SECONDS if outcome == "database error" else POLL_SECONDS
    run_after = max(now + timedelta(seconds=pause), next_try or now)
    renewed = PublishTarget.objects.filter(pk=target_id, chain=chain, enabled=True, paused=False).update(
        chain_until=run_after + timedelta(seconds=HOLD_SECONDS)
    )
    if renewed:
        publish_tournament.using(run_after=run_after).enqueue(target_id, chain=chain)
    else:
        release(target_id, chain)
    prune()
    return outcome


def prune(now=None) -> int:
    """Remove this task's successful runs older than :data:`PRUNE_AFTER` from the task backend's
    table, at most once per :data:`PRUNE_EVERY_SECONDS` per process; returns how many."""
    global _last_prune
    if not deferring() or (_last_prune is not None and time.monotonic() - _last_prune < PRUNE_EVERY_SECONDS):
        return 0
    _last_prune = time.monotonic()
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    removed, _by_model = DBTaskResult.objects.filter(
        task_path=publish_tournament.module_path, status=TaskResultStatus.SUCCESSFUL,
        finished_at__lt=(now or timezone.now()) - PRUNE_AFTER,
    ).delete()
    return removed



def resume_all(sender=None, **kwargs) -> int:
    """At the worker's start (:data:`tournaments.signals.worker_starting`): every enabled, unpaused
    target whose chain has no step waiting in the queue gets a new chain at once. Such a target's
    hold can only be left by a worker that was killed in a step (this worker runs them all and has
    run none yet), so it is let go rather than waited out; a target with a step waiting goes on
    with it. Returns how many chains were started."""
    if not deferring():
        return 0
    from django_tasks_db.models import DBTaskResult

    waiting = {
        (row.args_kwargs.get("args") or [None])[0]
        for row in DBTaskResult.objects.filter(task_path=publish_tournament.module_path, status="READY").only("args_kwargs")
    }
    started = 0
    for pk, tournament_id in PublishTarget.objects.filter(enabled=True, paused=False).values_list("pk", "tournament_id"):
        if pk in waiting:
            continue
        with transaction.atomic():
            PublishTarget.objects.filter(pk=pk).update(chain_until=None)
            started += ensure_publishing(tournament_id)
    return started
