"""Why a change of hands was refused: the exceptions every scoring command raises."""

from __future__ import annotations


class HandRejected(Exception):
    """The hand was not saved. ``messages``: translated, with player names, for the scorer."""

    def __init__(self, messages: list[str]):
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


class HandConflict(HandRejected):
    """Somebody saved first (optimistic concurrency): the messages show the other change."""


class RoundLocked(HandRejected):
    """The table's round is verified: its hands do not change until a director reopens it."""
