"""§2 part 2, Seats: each player of a table draws a card and sits by it (``tournament-formats.md`` §2)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .base import RoundDraw


def seat_by_cards(
    players: Sequence[Hashable], cards: Sequence[Any], rng: random.Random
) -> list[tuple[Hashable, Any]]:
    """Deal each player of one table a card at random and seat them by it (``tournament-formats.md``
    §2, part 2 "Seats").

    ``cards`` are given in seat (playing) order: seat ``i`` gets ``cards[i]``. The caller orders them
    by its ruleset — Königrufen ``[Tarock, Herz, Karo, Pik, (Kreuz)]``, so the Tarock is seat 0,
    Vorhand of the first hand; Cego/Bled with the highest card first (the first dealer). Only the
    first ``len(players)`` cards are dealt.

    Returns ``[(player, card), ...]`` in seat order, every player exactly once; the same ``rng``
    state gives the same seating.

    Raises ``ValueError`` if there are fewer cards than players or a player is listed twice.
    """
    players = list(players)
    if len(cards) < len(players):
        raise ValueError(f"{len(cards)} cards cannot be dealt to {len(players)} players")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    order = players[:]
    rng.shuffle(order)
    return [(player, cards[i]) for i, player in enumerate(order)]


Seating = list[tuple[Hashable, Any]]


def _seat_tables(draw: RoundDraw, cards_for_size: Callable[[int], Sequence[Any]]) -> list[Seating]:
    return [
        seat_by_cards(table, cards_for_size(len(table)), random.Random(f"{draw.seed}:seats:{i}"))
        for i, table in enumerate(draw.tables)
    ]
