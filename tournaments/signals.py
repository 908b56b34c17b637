"""What tournaments asks of the apps above it, which it may not import (scoring, its cups, the
archive): Django signals, sent synchronously in the caller's thread and transaction, answered by
receivers those apps connect in their ``AppConfig.ready()``.

Every receiver takes ``sender`` and ``**kwargs`` (Django passes ``signal`` too). A signal that
asks a question takes the first answer that is not ``None`` (:func:`answer`); one that tells
ignores what its receivers return. An exception a receiver raises reaches the sender's caller.

- :data:`standings_order` (sender :class:`~tournaments.models.Tournament`; ``tournament``,
  ``players``: registration ids): the draw by standings asks for ``players`` in the order the
  standings page shows them, best first, players not ranked yet after them in the given order.
  A receiver returns that list. Answered by :mod:`scoring` (``scoring.receivers``).
- :data:`unfinished_tables` (sender :class:`~tournaments.models.Tournament`; ``tournament``,
  ``number``: a round's number): the numbers of that round's tables that have neither played all
  their hands nor been ended by the director, in order. A receiver returns that list. Answered by
  :mod:`scoring`, which keeps the hands (``scoring.receivers``).
- :data:`cups_kept` (sender :class:`~tournaments.models.Tournament`; ``user``): the cups
  ``user`` keeps (every cup for a superuser, none for an anonymous or inactive user), as a
  queryset of the model of ``Tournament.cup``. Answered by :mod:`scoring.cups`
  (``scoring.cups.roles``). The tournament's form offers those; a one-time password is refused
  for a user keeping a cup its setter does not keep.
- :data:`cup_changed` (sender :class:`~tournaments.models.Tournament`; ``tournament``, saved
  with its new cup, ``old_cup_id``: the cup it was in before, ``None`` for none or a new
  tournament; ``user``: who saved it): sent by the tournament's create and edit views inside the
  transaction that saved it, only when the cup changed. Receivers return nothing
  (:mod:`scoring.cups` logs the tournament leaving and joining in the cups' logs).
- :data:`players_merging` (sender :class:`~tournaments.models.Player`; ``keep``, ``merged``:
  players; ``user``: who merges them): sent by
  :func:`tournaments.registration.register.merge_players` inside its transaction, before it
  changes anything. A receiver moves to ``keep`` what its app holds of ``merged``, or raises
  :class:`~tournaments.registration.register.RegistrationRefused` (its message translated,
  saying why) to refuse the merge: nothing is changed then. Receivers return nothing
  (:mod:`scoring.cups` moves the imported cup results and sub-ranking memberships,
  ``scoring.cups.merge``).
- :data:`worker_starting` (sender: the worker's command class): sent by ``manage.py run_worker``
  once before its loop starts, so an app resumes the background work it keeps going by itself
  (:mod:`publishing` restarts the pushes of every tournament it publishes). Receivers return
  nothing; one that raises is logged and the worker starts anyway.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

standings_order = Signal()
unfinished_tables = Signal()
cups_kept = Signal()
cup_changed = Signal()
players_merging = Signal()
worker_starting = Signal()


def answer(signal: Signal, sender, default=None, **kwargs):
    """The first answer that is not ``None`` of ``signal``'s receivers, sent by ``sender`` with
    ``kwargs``, in the order they were connected; ``default`` when none answers (no app above
    that answers it is installed)."""
    for _receiver, response in signal.send(sender=sender, **kwargs):
        if response is not None:
            return response
    return default


def required_answer(signal: Signal, sender, **kwargs):
    """:func:`answer` for a question tournaments cannot do without (the draw's standings order, a
    round's unfinished tables). Raises ``ImproperlyConfigured``, naming the signal, if no installed
    app answers it."""
    response = answer(signal, sender, **kwargs)
    if response is None:
        name = next((f"tournaments.signals.{key}" for key, value in globals().items() if value is signal), repr(signal))
        raise ImproperlyConfigured(f"No installed app answers {name}.")
    return response
