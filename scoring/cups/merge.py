"""Two players of the register merged into one (:func:`tournaments.registration.register.merge_players`):
what the cups hold of the merged player becomes the kept one's, or the merge is refused.

:func:`players_merging` answers :data:`tournaments.signals.players_merging`, inside the merge's
transaction and before it changes anything (connected in :class:`scoring.cups.apps.CupsConfig`).
"""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext as _

from scoring.cups.models import Cup, CupRanking, CupResult
from tournaments.models import Player
from tournaments.registration.register import RegistrationRefused


def same_cup_event(keep: Player, merged: Player) -> str:
    """The imported cup results both players have in one event (one cup, event and date), named
    "event (date)" and joined by ", "; empty if none."""
    mine = set(CupResult.objects.filter(player=keep).values_list("cup_id", "event", "date"))
    both = [
        f"{event} ({date})"
        for cup, event, date in CupResult.objects.filter(player=merged).values_list("cup_id", "event", "date")
        if (cup, event, date) in mine
    ]
    return ", ".join(both)


def move_cup_entries(keep: Player, merged: Player) -> None:
    """``merged``'s imported cup results and sub-ranking memberships become ``keep``'s; the cups
    concerned show it at once (their versions are bumped)."""
    cups = set(CupResult.objects.filter(player=merged).values_list("cup_id", flat=True))
    CupResult.objects.filter(player=merged).update(player=keep)
    for ranking in CupRanking.objects.filter(members=merged):
        ranking.members.add(keep)
        cups.add(ranking.cup_id)
    Cup.objects.filter(pk__in=cups).update(version=F("version") + 1)


def players_merging(sender, keep: Player, merged: Player, **kwargs) -> None:
    """Receiver of :data:`tournaments.signals.players_merging`: refuse the merge with
    :class:`~tournaments.registration.register.RegistrationRefused` if both players have an
    imported result in one cup event, else move ``merged``'s cup results and sub-ranking
    memberships to ``keep``."""
    clash = same_cup_event(keep, merged)
    if clash:
        raise RegistrationRefused(
            _("Both have a result in %(events)s: correct the imported results of that cup first.") % {"events": clash}
        )
    move_cup_entries(keep, merged)
