"""Picking the members of a group out of many — a prize category's players among a tournament's
registrations, a cup sub-ranking's players among the whole register — without listing them all.

:class:`MemberPicker` renders only the members chosen (ticked boxes; untick one to take it off)
and a search box; ``static/js/member-picker.js`` asks the page it is on for ``?q=<typed>`` and
gets :func:`search_response`'s JSON, ``{"results": [{"id": 17, "label": "Anna Berger (Imst)"}],
"more": false}`` (at most :data:`PICK_LIMIT`, by name; ``more``: more match, type more of the
name); picking a result adds its ticked box. The form posts the ticked ids as a plain multiple
select would.

**Without JavaScript** (the fallback, decided so: a director's laptop may block scripts):

- a field of at most :data:`LIST_ALL_UP_TO` candidates lists them all as boxes to tick (inside
  ``<noscript>``: with JavaScript the search replaces them);
- in every field the search box is a text field: names typed there, separated by ";", are added
  when the form is saved (:meth:`MemberPicker.value_from_datadict`); a name that is nobody's, or
  several candidates', is refused naming it (:class:`MemberChoiceField`), and stays typed.

Only the ticked boxes carry ids. Whatever is typed in the search box is a name, digits too: "2"
is the player called "2", never the candidate whose id is 2 (:class:`Typed` keeps the two apart
from the post to the page shown again).

The search compares as the register's does: every typed word is the start of a word of the name or
club, case and accents folded, a hyphen or apostrophe separating words ("hofer-m" finds "Andreas
Hofer-Mair").
"""

from __future__ import annotations

import re

from django import forms
from django.db.models import QuerySet
from django.http import JsonResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from variants.notation import fold

PICK_LIMIT = 20  # search results per request
LIST_ALL_UP_TO = 40  # candidates a field lists in full for a page without JavaScript
QUERY_MAX = 200  # characters of a typed search read
_WORD_BREAK = re.compile(r"[\W_]+")


def words(text: str) -> list[str]:
    """``text`` folded (case, accents) and cut at every character that is not a letter or digit:
    "Hofer-Mair (St. Johann)" → ``["hofer", "mair", "st", "johann"]``."""
    return [w for w in _WORD_BREAK.split(fold(text)) if w]


def matches(query_words: list[str], text: str) -> bool:
    """Whether every word of ``query_words`` starts some word of ``text``."""
    text_words = words(text)
    return all(any(w.startswith(q) for w in text_words) for q in query_words)


def label(name: str, club: str = "") -> str:
    """"Anna Berger (Imst)", or the name alone without a club."""
    return f"{name} ({club})" if club else name


def search(candidates: QuerySet, fields: tuple[str, str], query: str, limit: int = PICK_LIMIT) -> tuple[list[tuple[int, str]], bool]:
    """``([(pk, label)], more)``: the candidates whose name or club (``fields``, e.g.
    ``("player__name", "player__club")``) match every word of ``query``, by name, at most
    ``limit``; ``more``: more match. One query over the candidates' three columns (a tournament's
    registrations: a thousand rows at most)."""
    query_words = words(query[:QUERY_MAX])
    if not query_words:
        return [], False
    found = []
    for pk, name, club in candidates.order_by(fields[0], fields[1], "pk").values_list("pk", *fields).iterator(chunk_size=500):
        if matches(query_words, f"{name} {club}"):
            if len(found) == limit:
                return found, True
            found.append((pk, label(name, club)))
    return found, False


def search_response(found: list[tuple[int, str]], more: bool) -> JsonResponse:
    """The JSON the picker's script reads (see the module's docstring). Names and clubs found
    for a signed-in organiser: ``Cache-Control: private, no-store`` keeps them out of shared
    caches and off the disk of the browser."""
    response = JsonResponse({"results": [{"id": pk, "label": text} for pk, text in found], "more": more})
    response["Cache-Control"] = "private, no-store"
    return response


def is_id(value) -> bool:
    """Whether ``value`` (a ticked box's value) reads as a database id: ASCII digits only ("17";
    not "²" or "٣", which ``str.isdigit`` accepts and ``int`` does not all read)."""
    text = str(value)
    return text.isascii() and text.isdigit()


class Typed(str):
    """A name typed in the search box that was not resolved to one candidate: kept apart from the
    ticked ids however it reads ("2", "²"), refused by :class:`MemberChoiceField` and shown again
    in the box by :meth:`MemberPicker.render`."""


class MemberChoiceField(forms.ModelMultipleChoiceField):
    """The members as :class:`MemberPicker` posts them: ticked ids, and names typed without
    JavaScript that were not resolved to one candidate (:class:`Typed`), each refused in the order
    typed, saying whether nobody or several candidates have that name. A ticked value that is not
    an id is refused as the field's own check words it ("“x” is not a valid value.")."""

    def clean(self, value):
        typed = [v for v in (value or []) if isinstance(v, Typed)]
        if typed:
            found = self.widget.resolve(typed)
            errors = [
                forms.ValidationError(_("Nobody here is called “%(name)s”: find and pick the player."), code="nobody", params={"name": text})
                if not found[text] else
                forms.ValidationError(_("Several players are called “%(name)s”: find and pick the one meant."), code="several", params={"name": text})
                for text in typed
            ]
            raise forms.ValidationError(errors)
        for ticked in value or []:
            if not is_id(ticked):  # "٣" would read as 3 to the database: only what the page ticks counts
                raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": ticked})
        return super().clean(value)


class MemberPicker(forms.SelectMultiple):
    """A multiple choice of members rendered as the chosen ones and a search (see the module's
    docstring). ``fields``: the candidates' name and club fields; ``search_url``: the page that
    answers ``?q=`` (:func:`search_response`). Its field's queryset gives the candidates."""

    def __init__(self, fields: tuple[str, str] = ("name", "club"), search_url: str = "", attrs=None):
        super().__init__(attrs)
        self.fields = fields
        self.search_url = search_url

    def candidates(self) -> QuerySet:
        return self.choices.queryset

    def resolve(self, typed: list[str]) -> dict[str, set[int]]:
        """The candidates each of the ``typed`` names means: those whose name, or name and club as
        "Name (Club)", reads as typed (case, accents and punctuation folded). One query."""
        by_name: dict[str, set[int]] = {}
        for pk, person, club in self.candidates().values_list("pk", *self.fields):
            by_name.setdefault(" ".join(words(person)), set()).add(pk)
            by_name.setdefault(" ".join(words(label(person, club))), set()).add(pk)
        return {text: by_name.get(" ".join(words(text)), set()) for text in typed}

    def value_from_datadict(self, data, files, name):
        """The ticked ids, and for each name typed in the search box without JavaScript (";"
        between names) the id of the one candidate of that name (or "name (club)"); a name that
        is nobody's or several candidates' stays as typed (:class:`Typed`, digits or not), for
        :class:`MemberChoiceField` to refuse naming it."""
        chosen = list(data.getlist(name)) if hasattr(data, "getlist") else list(data.get(name) or [])
        typed = [t.strip() for t in (data.get(f"{name}_add") or "").split(";") if t.strip()]
        for text, pks in self.resolve(typed).items() if typed else ():
            chosen.append(str(next(iter(pks))) if len(pks) == 1 else Typed(text))
        return chosen

    def value_omitted_from_data(self, data, files, name):
        return False  # no box ticked is a value: nobody

    def render(self, name, value, attrs=None, renderer=None):
        final = self.build_attrs(self.attrs, attrs)
        id_ = final.get("id") or f"id_{name}"
        values = [v for v in (value or []) if v not in (None, "")]
        typed = [v for v in values if isinstance(v, Typed)]  # names typed and refused: shown again
        ids = [int(v) for v in values if not isinstance(v, Typed) and is_id(v)]  # a ticked value not an id: refused, not shown
        name_field, club_field = self.fields
        candidates = self.candidates()
        chosen = list(candidates.filter(pk__in=ids).order_by(name_field, club_field, "pk").values_list("pk", name_field, club_field))
        others = []
        if candidates.count() <= LIST_ALL_UP_TO:
            others = list(candidates.exclude(pk__in=ids).order_by(name_field, club_field, "pk").values_list("pk", name_field, club_field))

        def boxes(rows, checked):
            return format_html_join(
                "", '<li><label><input type="checkbox" name="{}" value="{}"{}> {}</label></li>',
                ((name, pk, " checked" if checked else "", label(n, c)) for pk, n, c in rows),
            )

        fallback = ""
        if others:
            fallback = format_html('<noscript><ul class="member-list">{}</ul></noscript>', boxes(others, False))
        return format_html(
            '<div class="member-picker" data-member-picker data-search-url="{url}" data-name="{name}" data-none="{none}" '
            'data-more="{more}" data-failed="{failed}" data-added="{added}" data-chosen-label="{chosen_label}">'
            '<ul class="member-list" data-picked aria-label="{picked_label}">{picked}</ul>{fallback}'
            '<input type="search" id="{id}" name="{name}_add" value="{typed}" autocomplete="off" data-picker-query '
            'aria-describedby="{id}_hint" aria-controls="{id}_found" size="30">'
            ' <small class="muted" id="{id}_hint" data-picker-hint data-js-hint="{js_hint}">{hint}</small>'
            '<ul class="member-found" id="{id}_found" data-picker-found></ul>'
            '<p class="muted" role="status" aria-live="polite" data-picker-status></p></div>',
            url=self.search_url, name=name, id=id_, typed="; ".join(typed), picked=boxes(chosen, True), fallback=fallback,
            none=_("Nobody found: type the start of a name or club."),
            more=_("More players match: type more of the name."),
            failed=_("The search did not answer: try again."),
            added=_("Added: %(name)s") % {"name": "{name}"},
            chosen_label=_("chosen"),
            picked_label=_("Chosen members (untick to take one off)"),
            js_hint=_("Type the start of a name or club, then pick the player."),
            hint=_("Type names to add, separated by “;”: they are added when you save."),
        )
