"""Show :class:`variants.Problem` messages in the user's language, with player names for seats."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

VERBATIM = ("token", "names")


def translate_problem(problem, seat_names: Mapping[int, str] | None = None) -> str:
    """Translate a :class:`variants.Problem` (or plain ``str``) for the active language.

    Parameters whose key ends in ``seat`` are seat numbers; with ``seat_names`` they become player
    names, otherwise "seat N" (1-based, as players count). Parameters ending in ``token`` or
    ``names`` are what the scorer typed or player names (:mod:`variants.notation`): shown as they are.
    """
    msgid = getattr(problem, "msgid", None)
    if msgid is None:
        return gettext(str(problem))
    params = {}
    for key, value in problem.params.items():
        if key.endswith("seat") and isinstance(value, int):
            value = (seat_names or {}).get(value) or gettext("seat %(number)s") % {"number": value + 1}
        elif key.endswith(VERBATIM):
            pass
        elif getattr(value, "msgid", None):
            value = translate_problem(value, seat_names)
        elif isinstance(value, str):
            value = gettext(value)
        params[key] = value
    return gettext(msgid) % params if params else gettext(msgid)


def card_labels(ruleset) -> dict[str, str]:
    """``{card key: name}`` of the ruleset's seating cards in the active language
    (:func:`variants.card_names`, translated)."""
    from variants import card_names

    return {key: gettext(name) for key, name in card_names(ruleset).items()}
