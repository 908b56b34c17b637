"""A hand in words, in the reader's language: what the ruleset says of it (``Ruleset.describe``),
translated with the players' names, its note as the reader reads it, and the messages that tell a
scorer what somebody else did or may not do."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.problems import translate_problem

from ..models import Hand
from .context import TableInfo, record_names

RAW_ROWS_NOTE = "raw rows"
"""The ``note`` every hand transcribed from a paper sheet is stored with (:mod:`scoring.entry.raw_rows`):
stored data, never translated; :func:`shown_note` shows it in the reader's language."""


def shown_note(record: dict) -> str:
    """The hand's note as the sheet shows it: as typed, except the note the project writes itself
    (:data:`RAW_ROWS_NOTE`), which is shown in the reader's language ("von der Papierschrift
    übertragen") so that a German page carries no English beside the German label. The stored
    record is not changed."""
    note = (record.get("note") or "").strip()
    return _("transcribed from the paper sheet") if note == RAW_ROWS_NOTE else note


def strike_refused() -> str:
    """Why a scorer's struck hand is refused: striking a hand is the tournament director's call
    (the outcome "struck by the director", ``--`` on the quick line)."""
    return _(
        "Only a tournament director may strike a hand (“struck by the director”, “--” on the quick line): "
        "ask the director, or enter the hand as it was played."
    )


def describe(record: dict, names: dict[int, str], rs, scores: list[int] | None = None) -> str:
    """A short label of a hand: "Dreier · Anna · won · Pagat announced", "struck", "manual row".

    ``names`` maps seats to player names (the table's numbering; a stored hand after a player left
    carries its own, :func:`~scoring.services.context.record_names`); ``rs`` is the tournament's
    ruleset, which chooses the words (:meth:`variants.base.Ruleset.describe`); ``scores``, the
    stored row, tells won or lost where the points decide it.
    """
    own = record_names(record, names)
    return " · ".join(translate_problem(part, own) for part in rs.describe(record, scores))


def conflict_message(other: Hand, info: TableInfo, what: str) -> str:
    """"Hand 5 was entered meanwhile by anna: Dreier · … (−5, 15, −5, −5)." for the refused scorer."""
    return _(
        "Hand %(number)s was %(what)s meanwhile%(by)s: %(label)s (%(scores)s). Your entry was not saved; it is still in the form."
    ) % {
        "number": other.number,
        "what": what,
        "by": _by(other.history.first()),
        "label": describe(other.record, info.names, info.ruleset, other.scores),
        "scores": ", ".join(str(s) for s in other.scores),
    }


def deleted_message(hand: Hand) -> str:
    """"Hand 5 was deleted meanwhile by anna. …" for a scorer whose hand is gone."""
    gone = Hand.history.filter(id=hand.pk, history_type="-").select_related("history_user").first()
    return _("Hand %(number)s was deleted meanwhile%(by)s. Nothing was changed.") % {
        "number": hand.number,
        "by": _by(gone),
    }


def _by(version) -> str:
    """" by anna": who saved the history ``version`` (``None``, or nobody logged in: "")."""
    who = getattr(version, "history_user", None)
    return " " + _("by %(user)s") % {"user": who.get_username()} if who else ""
