"""A hand in words, in the reader's language: what the ruleset says of it (``Ruleset.describe``),
translated with the players' names, its note as the reader reads it, and the messages that tell a
scorer what somebody else did or may not do."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.problems import SeatedMessage, names_seats, phrases, seated_message, translate_problem
from variants import Problem

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
    stored row, tells won or lost where the points decide it. Each phrase is translated once per
    language and process (:func:`~tournaments.problems.phrases`), not once per hand.
    """
    own, words = record_names(record, names), phrases()
    return " · ".join([translate_problem(part, own, words) for part in rs.describe(record, scores)])


def describe_parts(parts, own: dict[int, str], words=None) -> str:
    """The label of a hand, as :func:`describe` gives it, from :func:`prepared_parts` of its
    ``Ruleset.describe`` and the names in its own seat numbering (``record_names``): for a caller
    that labels many hands alike. ``words``: the active language's
    :func:`~tournaments.problems.phrases` (looked up when not given)."""
    if words is None:
        words = phrases()
    return " · ".join(
        [
            part if part.__class__ is str else part(own) if part.__class__ is SeatedMessage else translate_problem(part, own, words)
            for part in parts
        ]
    )


def prepared_parts(parts, words=None, kept: dict | None = None) -> list:
    """``parts`` (``Ruleset.describe`` of a hand) translated in the active language as far as they
    are the same at every table: a run of parts that name no seat as one plain ``str`` (joined
    with " · "), a part that names seats as a :class:`~tournaments.problems.SeatedMessage` (or,
    rarely, as it is). :func:`describe_parts` of them with a table's names is :func:`describe`'s
    text. ``kept``: a dict of the caller's, in one language, in which parts made of text and
    numbers alone are kept from one hand to the next ("won", "Rufer", "seat 1 + seat 3")."""
    if words is None:
        words = phrases()
    joined: list = []
    for part in parts:
        key = _part_key(part) if kept is not None else None
        if key is not None:
            prepared = kept.get(key)
            if prepared is not None:
                _join(joined, prepared)
                continue
        if names_seats(part):
            prepared = seated_message(part, words) or part
        else:
            prepared = str(translate_problem(part, None, words))
        if key is not None:
            kept[key] = prepared
        _join(joined, prepared)
    return joined


_PLAIN = (str, int)  # parameters that are their own key (a message as a parameter is not: "Pagat" as text and as a message)


def _part_key(part) -> tuple | None:
    """What a description part is, as a key of :func:`prepared_parts`'s ``kept``: its msgid and
    parameters, a parameter that is a message by its own key (a tuple, never equal to a text:
    "Pagat" as text and as a message differ); ``None`` for a part with any other parameter."""
    if part.__class__ is not Problem:
        return None
    items = []
    for name, value in part.params.items():
        if value.__class__ in _PLAIN:
            items.append((name, value))
        else:
            nested = _part_key(value)
            if nested is None:
                return None
            items.append((name, nested))
    return (part.msgid, *items)


def _join(joined: list, prepared) -> None:
    """Append ``prepared`` to ``joined``, a text to the text before it (" · ")."""
    if prepared.__class__ is str and joined and joined[-1].__class__ is str:
        joined[-1] = f"{joined[-1]} · {prepared}"
    else:
        joined.append(prepared)


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
