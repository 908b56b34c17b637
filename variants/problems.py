"""What is wrong with a hand: the :class:`Problem` message, the :class:`InvalidHand` error, the ``_`` marker.

The lowest module of ``variants``: every ruleset, the checks and the notation (:mod:`variants.notation`)
report through it. Pure Python, no Django. User-facing text is written in English and marked with
``_`` (a no-op marker that ``makemessages`` collects); the Django layer translates it when it shows
a :class:`Problem`.
"""

from __future__ import annotations


def _(message: str) -> str:
    """Mark ``message`` for translation without translating it (translated by the Django layer)."""
    return message


class Problem(str):
    """One validation message: a ``str`` in English, plus what a translator needs.

    ``Problem(msgid, **params)`` formats ``msgid % params`` for its string value and keeps ``msgid``
    and ``params`` so the web layer can translate the template and substitute seat numbers with
    player names. Parameters whose key ends in ``seat`` are seat numbers (0-based, ``hand-record.md``
    "Seats"); the English text shows them 1-based, "seat 1" for seat 0, as players count.
    """

    msgid: str
    params: dict

    def __new__(cls, msgid: str, **params) -> "Problem":
        if params:
            shown = params
            for k, v in params.items():
                if k.endswith("seat"):  # only then a copy, with the seats counted from 1
                    if shown is params:
                        shown = params.copy()
                    shown[k] = f"seat {v + 1}"
            text = msgid % shown
        else:
            text = msgid
        obj = str.__new__(cls, text)
        obj.msgid = msgid
        obj.params = params
        return obj


class InvalidHand(ValueError):
    """Raised by ``Ruleset.score`` for a hand that ``validate`` rejects, and by ``parse_hand``.

    ``errors`` is the list of :class:`Problem` messages, in the order they were found. ``record``:
    the hand record a notation line gave when only the ruleset refused it (``None`` otherwise),
    so a form can still show what was read.
    """

    def __init__(self, errors: list[str], record: dict | None = None):
        self.errors = list(errors)
        self.record = record
        super().__init__("; ".join(self.errors))
