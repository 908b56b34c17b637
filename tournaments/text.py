"""Which characters a typed text may hold: one set of checks for every form, paste and import.

What is refused, and where:

- **Control characters** (Unicode category Cc: U+0000–U+001F, U+007F–U+009F), in every text. The
  null character (U+0000) cannot be stored at all (PostgreSQL refuses it in text); the others are
  never typed, only pasted from files or programs by mistake. Where a text has several lines
  (``multiline``: a pasted list, raw rows) tab, line feed and carriage return are allowed; a
  one-line field refuses them too, and also the line and paragraph separators U+2028/U+2029.
  An unpaired surrogate (category Cs) is refused with them: it cannot be encoded.
- **Direction characters** (U+202A–U+202E, U+2066–U+2069, the marks U+200E, U+200F and U+061C) in
  *name-like* text: names of players, clubs, tournaments, venues, cups, sub-rankings, prize
  categories, the name a player confirms a sheet with, and hand notes and the quick-entry line
  that carries them (they show on the sheet beside the names). They reorder what follows them on the screen, so a name holding one can show
  as another name (:func:`bidi_problem`, whose message the player register has always given).
- **Invisible characters** in name-like text: every other format character (category Cf: the
  zero-width space U+200B, the zero-width joiners U+200C/U+200D, the word joiner U+2060, the
  byte-order mark U+FEFF, the soft hyphen U+00AD, tag characters …), the combining grapheme joiner
  U+034F and the blank Hangul fillers (U+115F, U+1160, U+3164, U+FFA0). Decision: they are refused,
  not silently removed: "\\ufeffAgathe Merz" looks exactly like "Agathe Merz" but is another text,
  and the director should know that what he pasted carried something else. The soft hyphen is
  refused too: it only shows where a line breaks, and nobody types one in a name. Joiners in
  emoji sequences are refused with them; names here are people, clubs and places.
- Free text that is not a name (the reasons given for a change, a flag's comment, prize shares)
  may hold direction and invisible characters: a comment may quote right-to-left text.

A leading byte-order mark of a *file* (or of a pasted list, its very first character) is the
text's encoding, not text: :func:`strip_encoding_mark` removes it there and nowhere else.

Use :func:`text_problem` (a message or ``None``), :class:`TextValidator` (a validator callable,
model-free, e.g. ``TextValidator(name_like=True)``), :class:`CleanTextFormMixin` (every ``CharField``
of a form) or :func:`line_problems` (every line of a multi-line text, for messages per line).
:func:`visible` removes what the checks refuse in names, for comparing names already stored.
Messages are translated and name the character, its code and where it stands ("Character 1 is
an invisible byte-order mark (U+FEFF) …"; "Line 3, character 7 is a null character …").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Bidirectional control characters: embeddings and overrides (U+202A–U+202E), isolates
# (U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C).
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Invisible characters that are not of category Cf: the combining grapheme joiner and the blank
# Hangul fillers (they show as nothing, or as a space where no space is).
_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u3164\uffa0")
# What ends a line as the user sees it (and as str.splitlines splits text holding no controls).
_LINE_BREAK = re.compile("\r\n|\r|\n|\u2028|\u2029")
_SINGLE_LINE_BREAKS = frozenset("\t\n\r\u2028\u2029")
ENCODING_MARK = "\ufeff"

_NAMES = {
    0x0000: gettext_lazy("a null character"),
    0x0009: gettext_lazy("a tab"),
    0x000A: gettext_lazy("a line break"),
    0x000D: gettext_lazy("a line break"),
    0x2028: gettext_lazy("a line break"),
    0x2029: gettext_lazy("a line break"),
    0x00AD: gettext_lazy("soft hyphen"),
    0x200B: gettext_lazy("zero-width space"),
    0x200C: gettext_lazy("zero-width non-joiner"),
    0x200D: gettext_lazy("zero-width joiner"),
    0x2060: gettext_lazy("word joiner"),
    0xFEFF: gettext_lazy("byte-order mark"),
    0x034F: gettext_lazy("combining grapheme joiner"),
    **dict.fromkeys((0x115F, 0x1160, 0x3164, 0xFFA0), gettext_lazy("blank filler letter")),
}


@dataclass(frozen=True)
class BadCharacter:
    """A refused character of a text: ``char``, its ``line`` and ``column`` (both from 1; the line
    as the user sees it) and ``kind``: ``"control"``, ``"break"`` (a tab or line break in a
    one-line field), ``"bidi"`` or ``"invisible"``."""

    char: str
    line: int
    column: int
    kind: str


def _kind(char: str, name_like: bool, multiline: bool) -> str | None:
    """Why ``char`` is refused (a :class:`BadCharacter` ``kind``), or ``None``."""
    if char.isprintable() and char != "\u00ad" and char not in _BLANK_LETTERS:
        return None  # letters, digits, punctuation, spaces: the common case, answered at once
    if char in _SINGLE_LINE_BREAKS:
        return None if multiline else "break"
    category = unicodedata.category(char)
    if category in ("Cc", "Cs"):
        return "control"
    if not name_like:
        return None
    if BIDI_CONTROLS.match(char):
        return "bidi"
    if category == "Cf" or char in _BLANK_LETTERS:
        return "invisible"
    return None


def bad_characters(value: str, *, name_like: bool = False, multiline: bool = False) -> list[BadCharacter]:
    """Every refused character of ``value`` (see the module's docstring), in order."""
    found = []
    if not value:
        return found
    line, start = 1, 0
    breaks = [(m.start(), m.end()) for m in _LINE_BREAK.finditer(value)] if multiline else []
    next_break = 0
    for index, char in enumerate(value):
        while next_break < len(breaks) and index >= breaks[next_break][1]:
            line, start = line + 1, breaks[next_break][1]
            next_break += 1
        kind = _kind(char, name_like, multiline)
        if kind is not None:
            found.append(BadCharacter(char, line, index - start + 1, kind))
    return found


def _shown(text: str) -> str:
    """``text`` without what the checks refuse, to quote it back safely."""
    return "".join(c for c in text if _kind(c, True, False) is None)


def bidi_problem(text: str) -> str | None:
    """What is wrong with ``text`` if it holds a bidirectional control character, naming it
    (translated); ``None`` when it holds none. Names are refused with it, not silently changed."""
    found = BIDI_CONTROLS.search(text or "")
    if found is None:
        return None
    return _("“%(text)s” holds the invisible direction character U+%(code)04X, which can make a name show as another; type it again without it.") % {
        "text": _shown(text), "code": ord(found.group())}


def describe(bad: BadCharacter, text: str, multiline: bool = False) -> str:
    """The translated message for ``bad``, a character of ``text`` (for a direction character,
    ``text`` is quoted without it: give the line it stands on). ``multiline``: name the line too."""
    if multiline:
        where = _("Line %(line)s, character %(position)s") % {"line": bad.line, "position": bad.column}
    else:
        where = _("Character %(position)s") % {"position": bad.column}
    code = ord(bad.char)
    if bad.kind == "bidi":
        problem = bidi_problem(text)
        return _("Line %(line)s: %(problem)s") % {"line": bad.line, "problem": problem} if multiline else problem
    if bad.kind == "break":
        message = _("%(where)s is %(char)s (U+%(code)04X), which this one-line field cannot hold; remove it.")
        return message % {"where": where, "char": _NAMES.get(code, _("a line break")), "code": code}
    if bad.kind == "control":
        message = _("%(where)s is %(char)s (U+%(code)04X), which cannot be stored as text; remove it.")
        return message % {"where": where, "char": _NAMES.get(code, _("a control character")), "code": code}
    message = _("%(where)s is an invisible %(char)s (U+%(code)04X), which makes a name look like another; remove it.")
    return message % {"where": where, "char": _NAMES.get(code, _("formatting character")), "code": code}


def text_problem(value: str, *, name_like: bool = False, multiline: bool = False) -> str | None:
    """What is wrong with the characters of ``value`` (translated, naming the first refused
    character, its code and where it stands), or ``None`` if nothing is.

    ``name_like``: ``value`` names somebody or something (direction and invisible characters are
    refused too); ``multiline``: ``value`` may have several lines (tabs and line breaks allowed;
    the message names the line). See the module's docstring for what is refused.
    """
    found = bad_characters(value, name_like=name_like, multiline=multiline)
    if not found:
        return None
    first = found[0]
    line = split_lines(value)[first.line - 1] if multiline else value
    return describe(first, line, multiline)


def line_problems(value: str, *, name_like: bool = False) -> dict[int, str]:
    """``{line: message}`` for every line of the multi-line ``value`` that holds a refused
    character (its first one), lines counted from 1 as the user sees them (and as
    ``value.splitlines()`` counts them once no control character is left)."""
    lines = split_lines(value)
    problems: dict[int, str] = {}
    for bad in bad_characters(value, name_like=name_like, multiline=True):
        if bad.line not in problems:
            problems[bad.line] = describe(bad, lines[bad.line - 1], multiline=True)
    return problems


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as the user sees them (split at CR LF, CR, LF, U+2028 and U+2029; a
    trailing line break gives an empty last line). The lines :func:`line_problems` counts; the same
    as ``text.splitlines()`` for text that holds no control character."""
    return _LINE_BREAK.split(text or "")


def strip_encoding_mark(text: str) -> str:
    """``text`` without a byte-order mark as its very first character: at the start of a file or
    a pasted list it says how the text is encoded and is no part of it. Anywhere else it is
    refused (:func:`text_problem`)."""
    return text[1:] if text.startswith(ENCODING_MARK) else text


def quoted(value) -> str:
    """``value`` in the active language's quotation marks: “Hofer” in English, „Hofer“ in German,
    »Hofer« in Slovenian — for a name or a typed word set inside a translated message, so a German
    message does not quote in English. ``value`` is shown as given (``str(value)``)."""
    # Translators: quotation marks around a name or a typed word inside a message.
    return _("“%(text)s”") % {"text": value}


def visible(text: str) -> str:
    """``text`` without the characters refused in names (controls, direction and invisible
    characters): for comparing a typed name with names stored before these checks existed."""
    return "".join(c for c in text if _kind(c, True, False) is None)


@deconstructible
class TextValidator:
    """A validator (model-free: for forms, services, or a model field if it ever gets one): raises
    ``ValidationError`` (code ``"text"``) with :func:`text_problem`'s message. Values that are not
    strings (a JSON field's data) pass."""

    code = "text"

    def __init__(self, *, name_like: bool = False, multiline: bool = False):
        self.name_like = name_like
        self.multiline = multiline

    def __call__(self, value) -> None:
        if isinstance(value, str):
            problem = text_problem(value, name_like=self.name_like, multiline=self.multiline)
            if problem:
                raise ValidationError(problem, code=self.code)

    def __eq__(self, other):
        return isinstance(other, TextValidator) and (self.name_like, self.multiline) == (other.name_like, other.multiline)

    def __hash__(self):
        return hash((self.name_like, self.multiline))


validate_text = TextValidator()
validate_name = TextValidator(name_like=True)


class CleanTextFormMixin:
    """Checks every ``CharField`` of a form with :class:`TextValidator` (put it before
    ``forms.Form``/``forms.ModelForm`` among the bases). A refused field gets the message as its
    error, the form keeps what was typed, and the field's own ``clean_<name>`` and the form's
    ``clean`` do not see the value (it is not in ``cleaned_data``).

    - ``name_like_fields``: the fields that name somebody or something (see the module's
      docstring);
    - ``multiline_fields``: fields of several lines besides those shown as a ``Textarea``;
    - ``text_check_exempt``: fields never stored nor shown as text (e.g. a hidden copy of another
      field, compared with it): not checked at all, not even by Django for null characters.

    Fields added after ``__init__`` are checked too: the validators are attached on cleaning.
    Django's own null-character check is replaced (this one names the position).
    """

    name_like_fields: tuple[str, ...] = ()
    multiline_fields: tuple[str, ...] = ()
    text_check_exempt: tuple[str, ...] = ()

    def attach_text_checks(self) -> None:
        """Give every ``CharField`` of the form its :class:`TextValidator`, once."""
        for name, field in self.fields.items():
            if not isinstance(field, forms.CharField) or any(isinstance(v, TextValidator) for v in field.validators):
                continue
            field.validators = [v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)]
            if name not in self.text_check_exempt:
                multiline = name in self.multiline_fields or isinstance(field.widget, forms.Textarea)
                field.validators.append(TextValidator(name_like=name in self.name_like_fields, multiline=multiline))

    def full_clean(self):
        self.attach_text_checks()
        super().full_clean()
