"""The tournament's action log: one call per change a director makes, in the change's own
transaction, so the log holds exactly what happened (a refused change logs nothing).

Hands are not logged here: each hand keeps its own history (who, when, why) with every version.
"""

from __future__ import annotations

from .models import ActionLog
from .permissions import acting_user
from .versioning import tournaments_of_players

Action = ActionLog.Action


def log(tournament_id: int, action: str, user=None, *, round_number: int | None = None, detail: str = "",
        reason: str = "", seed: int | None = None, repeats: int | None = None) -> ActionLog:
    """Write an :class:`~tournaments.models.ActionLog` entry: ``action`` (an :class:`Action`) in
    tournament ``tournament_id`` by ``user`` (``None`` or anonymous: a command or the system),
    with what it concerned (``detail``, e.g. "Anna Huber ↔ Karl Moser") and why (``reason``)."""
    actor = acting_user(user)
    return ActionLog.objects.create(
        tournament_id=tournament_id,
        action=action,
        user=actor,
        user_name=actor.get_username() if actor is not None else "",
        round_number=round_number,
        detail=detail,
        reason=reason,
        seed=seed,
        repeats=repeats,
    )


def log_players(player_ids, action: str, user=None, *, detail: str = "") -> None:
    """:func:`log` ``action`` in every tournament in which one of ``player_ids`` is registered (a
    player's change shows on all of them)."""
    for tournament_id in tournaments_of_players(player_ids):
        log(tournament_id, action, user, detail=detail)
