"""Show :class:`variants.Problem` messages in the user's language, with player names for seats.

A message is put together from phrases (its template and the words it names), each translated with
``gettext``. :func:`phrases` keeps those translations per language, so that a page or a download
that describes thousands of hands looks each phrase up once, not once per hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.autoreload import file_changed
from django.utils.translation import get_language, gettext

VERBATIM = ("token", "names")


class Phrases(dict):
    """``{msgid: translation}`` in one language: a phrase missing from it is translated with
    ``gettext`` on first use, so it must be read while that language is active (:func:`phrases`
    hands out the one of the active language). Keeps at most :attr:`LIMIT` phrases (a message's
    text parameters are looked up too; should some carry ever new values, the rest is translated
    each time instead of filling the memory)."""

    __slots__ = ()
    LIMIT = 20_000

    def __missing__(self, msgid: str) -> str:
        translated = gettext(msgid)
        if len(self) < self.LIMIT:
            self[msgid] = translated
        return translated


_PHRASES: dict[str | None, Phrases] = {}


def phrases() -> Phrases:
    """The translated phrases of the active language (:class:`Phrases`), kept for the process.
    Forgotten whenever Django reloads its catalogues: a test changes the language settings, or the
    development server sees a compiled catalogue (``.mo``) change."""
    language = get_language()
    found = _PHRASES.get(language)
    if found is None:
        found = _PHRASES[language] = Phrases()
    return found


@receiver(setting_changed)
def _forget_phrases(*, setting, **kwargs) -> None:
    """Translations change with these settings (Django reloads its catalogues for them too)."""
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        _PHRASES.clear()


@receiver(file_changed)
def _forget_phrases_of_changed_catalogue(*, file_path, **kwargs) -> None:
    """The development server reloads a changed ``.mo`` without restarting; returns ``None`` so that
    Django's own receiver alone decides whether to restart."""
    if file_path.suffix == ".mo":
        _PHRASES.clear()


def translate_problem(problem, seat_names: Mapping[int, str] | None = None, words: Phrases | None = None) -> str:
    """Translate a :class:`variants.Problem` (or plain ``str``) for the active language.

    Parameters whose key ends in ``seat`` are seat numbers; with ``seat_names`` they become player
    names, otherwise "seat N" (1-based, as players count). Parameters ending in ``token`` or
    ``names`` are what the scorer typed or player names (:mod:`variants.notation`): shown as they are.
    ``words``: the active language's :func:`phrases` when the caller already holds them (one
    lookup per many messages); the text is the same as with ``gettext`` phrase by phrase.
    """
    msgid = getattr(problem, "msgid", None)
    if msgid is None:
        return gettext(str(problem))
    if words is None:
        words = phrases()
    params = problem.params
    if not params:
        return words[msgid] if msgid.__class__ is str else gettext(msgid)
    shown = {}
    for key, value in params.items():
        if key.endswith("seat") and isinstance(value, int):
            value = (seat_names or {}).get(value) or words["seat %(number)s"] % {"number": value + 1}
        elif key.endswith(VERBATIM):
            pass
        elif getattr(value, "msgid", None):
            value = translate_problem(value, seat_names, words)
        elif isinstance(value, str):
            # Only a plain str is looked up in the phrases: gettext keeps a safe string safe.
            value = words[value] if value.__class__ is str else gettext(value)
        shown[key] = value
    return (words[msgid] if msgid.__class__ is str else gettext(msgid)) % shown


def names_seats(problem) -> bool:
    """Whether :func:`translate_problem` of ``problem`` puts a seat's player in (a parameter ending
    in ``seat``, in it or in a message it names): if not, its text is the same at every table."""
    for key, value in getattr(problem, "params", {}).items():
        if key.endswith("seat") and isinstance(value, int):
            return True
        if not key.endswith(VERBATIM) and getattr(value, "msgid", None) and names_seats(value):
            return True
    return False


class SeatedMessage:
    """A message whose parameters are translated once, but for the seats it names: called with a
    table's ``seat_names`` it gives :func:`translate_problem`'s text of it for that table. Made by
    :func:`seated_message`."""

    __slots__ = ("template", "fixed", "seats")

    def __init__(self, template: str, fixed: dict, seats: list[tuple[str, int, str]]):
        self.template = template  # the translated message
        self.fixed = fixed  # its other parameters, translated
        self.seats = seats  # (parameter, seat, "seat N" translated) for each seat it names

    def __call__(self, seat_names: Mapping[int, str] | None) -> str:
        shown = dict(self.fixed)
        names = seat_names or {}
        for key, seat, unnamed in self.seats:
            shown[key] = names.get(seat) or unnamed
        return self.template % shown


def seated_message(problem, words: Phrases | None = None) -> SeatedMessage | None:
    """``problem`` (a :class:`variants.Problem` that :func:`names_seats`) prepared for the tables
    it is shown at, in the active language (``words``: its :func:`phrases`); ``None`` when a
    message it names names a seat itself (then :func:`translate_problem` it at each table)."""
    msgid = getattr(problem, "msgid", None)
    if msgid is None or not problem.params:
        return None
    if words is None:
        words = phrases()
    fixed, seats = {}, []
    for key, value in problem.params.items():  # as translate_problem, but for the seats
        if key.endswith("seat") and isinstance(value, int):
            seats.append((key, value, words["seat %(number)s"] % {"number": value + 1}))
            continue
        if key.endswith(VERBATIM):
            pass
        elif getattr(value, "msgid", None):
            if names_seats(value):
                return None
            value = translate_problem(value, None, words)
        elif isinstance(value, str):
            value = words[value] if value.__class__ is str else gettext(value)
        fixed[key] = value
    return SeatedMessage(words[msgid] if msgid.__class__ is str else gettext(msgid), fixed, seats)


def card_labels(ruleset) -> dict[str, str]:
    """``{card key: name}`` of the ruleset's seating cards in the active language
    (:func:`variants.card_names`, translated)."""
    from variants import card_names

    return {key: gettext(name) for key, name in card_names(ruleset).items()}
