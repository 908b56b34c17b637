"""scoring's answers to what the tournaments app asks through its signals
(:mod:`tournaments.signals`), connected in :class:`scoring.apps.ScoringConfig`."""

from __future__ import annotations

from scoring.standings import standings_order as ordered_by_standings
from scoring.standings import table_states


def standings_order(sender, tournament, players: list[int], **kwargs) -> list[int]:
    """Receiver of :data:`tournaments.signals.standings_order` for the draw by standings:
    :func:`scoring.standings.standings_order`."""
    return ordered_by_standings(tournament, players)


def unfinished_tables(sender, tournament, number: int, **kwargs) -> list[int]:
    """Receiver of :data:`tournaments.signals.unfinished_tables`: the numbers of round ``number``'s
    tables whose state (:func:`scoring.standings.table_states`) is not finished, in order."""
    return sorted(s.number for s in table_states(tournament).values() if s.round_number == number and not s.finished)
