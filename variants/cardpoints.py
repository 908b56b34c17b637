"""Card points in "P/B" notation (``hand-record.md``, "Card points").

Königrufen counts cards in threes, leaving thirds of a point ("Blatt"): ``"35/2"`` is 35⅔ points.
Inside the code card points are integer thirds, ``3 * P + B``; the whole pack is 70 points = 210
thirds.
"""

from __future__ import annotations

import re

WHOLE_PACK_THIRDS = 210

_NOTATION = re.compile(r"^\s*(\d{1,3})\s*(?:/\s*(\d+)\s*)?$", re.ASCII)


class CardPointsError(ValueError):
    """The text is not card points in ``P`` or ``P/B`` notation. ``blatt``: it has a Blatt part
    other than 0 where only whole points count (a message may say so)."""

    def __init__(self, value, blatt: bool = False):
        super().__init__(value)
        self.blatt = blatt


def parse_thirds(value, *, allow_blatt: bool = True, max_points: int = 70) -> int:
    """Return card points as integer thirds.

    ``value`` is an ``int`` (whole points), or a string ``"P"`` or ``"P/B"`` with ``B`` one digit
    0..2. ``allow_blatt=False`` (Cego, Bled, Hungarian Tarokk) accepts only whole points
    (``"30/0"`` still means 30); ``max_points``: the pack (70; Hungarian Tarokk 94). Raises
    :class:`CardPointsError` for anything else, including a bool, a negative number or more than
    ``max_points``.
    """
    if isinstance(value, bool):
        raise CardPointsError(value)
    if isinstance(value, int):
        points, blatt = value, 0
    elif isinstance(value, str):
        match = _NOTATION.match(value)
        if not match:
            raise CardPointsError(value)
        points, written = int(match.group(1)), match.group(2) or "0"
        if len(written) > 1:  # one digit: "30/00" is no spelling of 30
            raise CardPointsError(value, blatt=int(written) != 0 and not allow_blatt)
        blatt = int(written)
    else:
        raise CardPointsError(value)
    if blatt and not allow_blatt:
        raise CardPointsError(value, blatt=True)
    if points < 0 or blatt > 2:
        raise CardPointsError(value)
    thirds = 3 * points + blatt
    if thirds > 3 * max_points:
        raise CardPointsError(value)
    return thirds


def format_thirds(thirds: int) -> str:
    """Return ``thirds`` in ``"P/B"`` notation, e.g. ``107`` -> ``"35/2"``."""
    return f"{thirds // 3}/{thirds % 3}"
