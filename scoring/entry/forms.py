"""The hand entry form, generated from the ruleset's catalogue (contracts, bonuses, seats).

A hand comes either from the quick line, read by the ruleset's notation
(:meth:`variants.base.Ruleset.parse_hand`, strict: every token counts or is refused by name), or from
the form's fields. ``source`` says which the scorer used last ("line" or "fields"); the page keeps
the other in step (the fields show the parsed line, the line shows the fields' canonical notation),
so what is saved is always what the preview showed. The ruleset's messages come back as form
errors with player names, and everything typed stays in the form.

Every typed text is checked for characters it may not hold (:mod:`tournaments.text`): the note
and the quick line (which carries the note after ``#``) as names, the reason and a flag's comment
for control characters only.

Striking a hand is the tournament director's call: a form made for a scorer (``may_strike`` off)
does not offer "struck by the director" and refuses a struck hand, from the fields or from the
line (``--``), in the preview as on saving, with a message naming it
(:func:`~scoring.services.display.strike_refused`). Lifting a strike is his call too: a scorer's
form for a hand that is struck refuses every change of it, by the rule of the hand commands
(:func:`~scoring.services.hands.refuse_strike_change`), which refuse it again on saving.

A kontra on a bonus needs the bonus: a bonus's kontra set while the bonus is "—" is refused on
that kontra field, naming the bonus, rather than dropped (the line cannot say it: its kontra mark
hangs on a bonus).
"""

from __future__ import annotations

import copy
import functools

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.entry.widgets import (
    FastCheckboxInput,
    FastHiddenInput,
    FastNumberInput,
    FastRadioSelect,
    FastSelect,
    FastTextInput,
)
from scoring.models import Hand
from scoring.services import HandRejected, TableInfo, evaluate_record
from scoring.services.display import strike_refused
from scoring.services.hands import refuse_strike_change
from tournaments.problems import translate_problem
from tournaments.text import CleanTextFormMixin
from variants import CardPointsError, InvalidHand
from variants.checks import whole_points

# Bonus choice values: team : silent/announced : made/failed ("" where the record decides it);
# a held bonus: "h:" and the holder's seat
_TEAM = {"d": "declarer", "o": "opponents"}
HELD = "h"
NOBODY = "none"  # the partner select's "nobody", where the ruleset writes it out


def kontra_choices(rs) -> list[tuple[int, str]]:
    """The kontra levels the ruleset records (``hand-record.md`` "kontra"), in the game's words,
    untranslated, with their factor: "—", "kontra ×2", …, Hungarian "hirskontra ×16"."""
    return [(0, "—")] + [(level, f"{rs.kontra_word(level)} ×{2 ** level}") for level in range(1, rs.max_kontra + 1)]


OPPONENTS_SLOT = "__o"  # the opponents' select of a bonus both sides may record (Hungarian Tarokk)


def bonus_slots(rs) -> list[tuple]:
    """``(bonus, field suffix, teams)`` per bonus select of the form: one select per bonus for
    both sides, or, where both sides may record the same bonus (``Ruleset.bonus_per_team``), one
    for the declarer's team and one (suffix ``__o``) for the opponents."""
    slots = []
    for bonus in rs.bonuses:
        if rs.bonus_per_team and not bonus.held:
            slots += [(bonus, "", ("d",)), (bonus, OPPONENTS_SLOT, ("o",))]
        else:
            slots.append((bonus, "", ("d", "o")))
    return slots


def bonus_choices(bonus, seats=(), teams=("d", "o")) -> list[tuple[str, str]]:
    """Choices of one bonus's select: not recorded, then team × silent/announced × made/failed.

    Announced-only bonuses offer no silent option; a silent bonus can fail only where the rules say
    so (birds and König ultimo, ``koenigrufen.md`` §1 Decision); a bonus whose success follows
    from the record (Hungarian dupla and volát, ``hungarian-tarokk.md`` §2) is offered announced
    only, without made or failed. A held bonus (Tapp-Tarock's Trull) offers its holder among
    ``seats``, ``(seat, name)`` pairs.
    """
    choices = [("", "—")]
    if bonus.held:
        return choices + [(f"{HELD}:{seat}", _("held by %(name)s") % {"name": name}) for seat, name in seats]
    words = _bonus_words(get_language())
    for team in ("d", "o"):
        if team not in teams:
            continue
        team_label = words[team]
        if bonus.derived:
            choices.append((f"{team}:a:", f"{team_label} · {words['a']}"))
            continue
        for announced in ("s", "a"):
            ann_label = words[announced]
            if announced == "s" and bonus.announced_only:
                continue
            for made, made_label in (("1", words["1"]), ("0", words["0"])):
                if announced == "s" and made == "0" and not bonus.can_fail_silently:
                    continue
                choices.append((f"{team}:{announced}:{made}", f"{team_label} · {ann_label} · {made_label}"))
    return choices


@functools.lru_cache(maxsize=16)
def _bonus_words(language: str | None) -> dict[str, str]:
    """The words of :func:`bonus_choices` in ``language`` (the active one, which the caller passes
    so that each language has its own entry): translated once, not per bonus and form."""
    return {
        "d": _("declarer's team"),
        "o": _("opponents"),
        "s": _("silent"),
        "a": _("announced"),
        "1": _("made"),
        "0": _("failed"),
    }


def bonus_entry(key: str, value: str, kontra: int | None) -> dict:
    """The record's entry for a bonus select's ``value`` (:func:`bonus_choices`) and its kontra."""
    parts = value.split(":")
    if parts[0] == HELD:
        return {"bonus": key, "holder": int(parts[1])}
    team, announced, made = parts
    entry = {"bonus": key, "team": _TEAM[team], "announced": announced == "a"}
    if made:
        entry["made"] = made == "1"
    if kontra:
        entry["kontra"] = kontra
    return entry


def bonus_value(entry: dict, derived: bool = False) -> str:
    """A stored bonus entry as its select's value (the inverse of :func:`bonus_entry`). A
    ``derived`` bonus's select has no made or failed (the record decides it): a ``made`` the
    entry gives, which must agree with the record, is not part of its value."""
    if entry.get("holder") is not None:
        return f"{HELD}:{entry['holder']}"
    team = "d" if entry.get("team") == "declarer" else "o"
    made = "" if derived else {True: "1", False: "0"}.get(entry.get("made"), "")
    return f"{team}:{'a' if entry.get('announced') else 's'}:{made}"


class HandForm(CleanTextFormMixin, forms.Form):
    """Entry form for one hand at one table. ``record`` holds the built hand after ``is_valid()``.

    ``info`` is the :class:`~scoring.services.TableInfo` of the table; ``dealer`` the suggested
    dealer for a new hand. Only the fields some contract of the ruleset uses are built (the
    catalogue's ``fields`` per contract); the page shows those of the chosen contract.
    ``may_strike``: whether the user may strike a hand (a director, ``Can.direct``); off for a
    scorer, whose outcome select leaves "struck by the director" out and whose struck hand is
    refused, as is any change of ``hand`` (the stored hand the form edits, ``None`` for a new one)
    while it is struck (:func:`~scoring.services.hands.refuse_strike_change`).
    """

    OUTCOMES = (
        ("played", gettext_lazy("played")),
        ("struck", gettext_lazy("struck by the director")),
        ("manual", gettext_lazy("manual row")),
    )
    outcome = forms.ChoiceField(label=gettext_lazy("Outcome"), choices=OUTCOMES, initial="played", widget=FastSelect)
    note = forms.CharField(label=gettext_lazy("Note"), required=False, max_length=500, widget=FastTextInput)
    reason = forms.CharField(
        label=gettext_lazy("Reason (for the history)"),
        required=False,
        max_length=100,
        widget=FastTextInput,
        help_text=gettext_lazy("Required when striking a hand."),
    )
    # Optimistic concurrency: the hand number this form enters, or the version it edits.
    number = forms.IntegerField(required=False, min_value=1, widget=FastHiddenInput)
    version = forms.IntegerField(required=False, min_value=1, widget=FastHiddenInput)
    quick = forms.CharField(
        label=gettext_lazy("Quick line"),
        required=False,
        max_length=300,
        widget=FastTextInput(
            attrs={
                "id": "quick",
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
                "autofocus": True,
                "enterkeyhint": "done",
            }
        ),
    )
    # Which the scorer used last: the quick line or the fields (empty: the line if one was typed).
    source = forms.ChoiceField(
        required=False, choices=[("", ""), ("line", "line"), ("fields", "fields")], widget=FastHiddenInput
    )
    # The line as the page showed it. Without the page's script ``source`` stays empty, and then the
    # line counts only when the scorer changed it: editing a hand's fields (its line is shown too)
    # must not be overruled by the unchanged line.
    quick_was = forms.CharField(required=False, max_length=300, widget=FastHiddenInput)
    # Context of the hand, not part of what the line or the fields describe.
    CONTEXT_FIELDS = frozenset({"dealer", "reason", "number", "version", "quick", "source", "quick_was"})
    # The note shows on the sheet beside the names (the line holds it too); quick_was is only
    # compared with the line, never stored.
    name_like_fields = ("note", "quick")
    text_check_exempt = ("quick_was",)

    def __init__(
        self, *args, info: TableInfo, dealer: int | None = None, may_strike: bool = True, hand: Hand | None = None, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.info = info
        self.may_strike = may_strike
        self.hand = hand
        self.record: dict | None = None
        self.built: dict | None = None  # the record the line or the fields gave, valid or not
        self.scores: list[int] | None = None
        self.settlement = None  # the ruleset's settlement of the record: the save stores it as is
        rs = info.ruleset
        self.fields["quick"].widget.attrs["placeholder"] = _("e.g. %(line)s") % {"line": rs.notation.example()}
        self.catalogue = rs.catalogue()
        self.contract_fields = {c["key"]: set(c["fields"]) for c in self.catalogue["contracts"]}
        self.used = set().union(*self.contract_fields.values())
        seats = [(str(p), f"{info.names[p]}") for p in range(info.size)]
        optional_seat = [("", "—")] + seats
        self.fields["dealer"] = forms.TypedChoiceField(
            label=_("Dealer"), choices=seats, coerce=int, initial=dealer, widget=FastSelect
        )
        if not rs.contracts:  # written rows only (free scoring)
            self.fields["outcome"].choices = [c for c in self.OUTCOMES if c[0] != "played"]
            self.fields["outcome"].initial = "manual"
        if not may_strike:
            # The select leaves "struck" out; the field still knows it, so that a struck hand
            # posted all the same is refused by name (clean) rather than as an unknown choice.
            self.fields["outcome"].widget.choices = [c for c in self.fields["outcome"].choices if c[0] != "struck"]
        self.fields["contract"] = forms.ChoiceField(
            label=_("Contract"),
            required=False,
            choices=[("", "—")] + [(c.key, c.name) for c in rs.contracts],
            widget=FastSelect,
        )
        self.fields["declarer"] = forms.TypedChoiceField(
            label=_("Declarer"), required=False, choices=optional_seat, coerce=int, empty_value=None, widget=FastSelect
        )
        if "partner" in self.used:
            # Where nobody is written out (Hungarian Tarokk), "—" means not given and the ruleset
            # asks for it; elsewhere the empty choice is nobody (the king in the talon).
            nobody = [("", "—"), (NOBODY, _(rs.partner_none_label))] if rs.partner_written_out else [("", _(rs.partner_none_label))]
            self.fields["partner"] = forms.TypedChoiceField(
                label=_(rs.partner_label),
                required=False,
                choices=nobody + seats,
                coerce=lambda value: None if value == NOBODY else int(value),
                empty_value="",
                widget=FastSelect,
            )
        self.fields["won"] = forms.ChoiceField(
            label=_("Result"),
            required=False,
            choices=[("", "—"), ("1", _("won")), ("0", _("lost"))],
            widget=FastRadioSelect,
        )
        if "declarer_points" in self.used:
            self.fields["declarer_points"] = forms.IntegerField(
                label=_("Declarer's card points"),
                required=False,
                min_value=0,
                max_value=rs.max_card_points,
                widget=FastNumberInput(attrs={"inputmode": "numeric", "min": 0, "max": rs.max_card_points}),
            )
        if "kontra" in self.used:
            self.fields["kontra"] = forms.TypedChoiceField(
                label=_("Kontra on the game"), required=False, choices=kontra_choices(rs), coerce=int, empty_value=0,
                widget=FastSelect,
            )
        if "kontra_by" in self.used:
            self.fields["kontra_by"] = forms.TypedChoiceField(
                label=_("Kontra by"), required=False, choices=optional_seat, coerce=int, empty_value=None, widget=FastSelect
            )
        if "mond_lost_by" in self.used:
            self.fields["mond_lost_by"] = forms.TypedChoiceField(
                label=_("Mond captured from"), required=False, choices=optional_seat, coerce=int, empty_value=None, widget=FastSelect
            )
        if info.uses_history:
            self.fields["manual_contract"] = forms.ChoiceField(
                label=_("Contract (for the radelci)"),
                required=False,
                choices=[("", "—")] + [(c.key, c.name) for c in rs.contracts],
                widget=FastSelect,
            )
        if "against_solo" in self.used:
            self.fields["against_solo"] = forms.BooleanField(label=_("Against a Solo (Gegensolo)"), required=False, widget=FastCheckboxInput)
        if "conceded" in self.used:
            self.fields["conceded"] = forms.BooleanField(label=_("Conceded (schleifen)"), required=False, widget=FastCheckboxInput)
        if "revoke" in self.used:
            self.fields["revoke"] = forms.TypedChoiceField(
                label=_("Renonce by"), required=False, choices=optional_seat, coerce=int, empty_value=None, widget=FastSelect
            )
        for spec in rs.record_fields:
            if spec.name not in self.used:
                continue
            help_text = _(spec.help) if spec.help else ""
            if spec.kind == "flag":
                self.fields[spec.name] = forms.BooleanField(label=_(spec.label), required=False, help_text=help_text, widget=FastCheckboxInput)
                continue
            choices = [("", "—")] + [(str(c.value), _(c.label)) for c in spec.choices]
            if spec.kind == "choice":
                self.fields[spec.name] = forms.ChoiceField(
                    label=_(spec.label), required=False, choices=choices, widget=FastSelect, help_text=help_text
                )
            else:
                for p in range(info.size):
                    self.fields[f"{spec.name}_{p}"] = forms.ChoiceField(
                        label=info.names[p], required=False, choices=choices, widget=FastSelect
                    )
        for bonus, suffix, teams in bonus_slots(rs):
            side = _("opponents") if suffix else _("declarer")
            label = bonus.name if len(teams) > 1 else f"{bonus.name} ({side})"
            self.fields[f"bonus_{bonus.key}{suffix}"] = forms.ChoiceField(
                label=label, required=False, choices=bonus_choices(bonus, seats, teams), widget=FastSelect
            )
            # Announced bonuses carry kontras of their own where the game has them; not a Valat
            # (a multiple of the game, kontra'd with it) unless it is a bonus of its own (Hungarian
            # volát), never a held one.
            if "kontra" in self.used and not bonus.held and (bonus.kind != "valat" or bonus.derived):
                self.fields[f"bonus_kontra_{bonus.key}{suffix}"] = forms.TypedChoiceField(
                    label=_("Kontra on %(bonus)s") % {"bonus": bonus.name},
                    required=False,
                    choices=kontra_choices(rs),
                    coerce=int,
                    empty_value=0,
                    widget=FastSelect,
                )
        for p in range(info.size):
            if "card_points" in self.used:
                self.fields[f"points_{p}"] = forms.CharField(
                    label=info.names[p],
                    required=False,
                    max_length=8,
                    widget=FastTextInput(attrs={"placeholder": self.points_hint, "inputmode": "decimal", "size": 6}),
                )
            self.fields[f"score_{p}"] = forms.IntegerField(
                label=info.names[p], required=False, min_value=-9999, max_value=9999, widget=FastNumberInput
            )

    @classmethod
    def next_hand(cls, saved: HandForm, dealer: int | None, number: int) -> HandForm:
        """The empty form of the next hand (``number``, suggested ``dealer``) at the table whose
        hand ``saved`` (a new hand's form, valid and saved) just entered: what ``HandForm(info=…,
        dealer=dealer, initial={"number": number})`` renders, built on ``saved``'s fields rather
        than the ruleset's catalogue again. The fields are shared, not copied: a table's fields do
        not change from one hand to the next, and ``saved`` is done with them. Only for
        rendering: the form is unbound and never validated."""
        form = cls.__new__(cls)
        forms.Form.__init__(form, initial={"number": number, "dealer": dealer})
        form.fields = saved.fields
        form.info, form.may_strike, form.hand = saved.info, saved.may_strike, None
        form.record = form.built = form.scores = form.settlement = None
        form.catalogue, form.contract_fields, form.used = saved.catalogue, saved.contract_fields, saved.used
        return form

    @staticmethod
    def history_reason(data: dict, record: dict | None = None) -> str:
        """Why, for the hand's history: the reason typed, or a struck hand's note (``record``:
        the hand as built, from the line or the fields)."""
        reason = (data.get("reason") or "").strip()
        struck = (record or data).get("outcome") == "struck"
        if not reason and struck:
            reason = ((record or {}).get("note") or data.get("note") or "").strip()
        return reason

    @property
    def change_reason(self) -> str:
        """:meth:`history_reason` of the validated form."""
        return self.history_reason(self.cleaned_data, self.record)

    @property
    def points_hint(self) -> str:
        """How card points are written: "P/B" where the ruleset counts Blatt (thirds), else whole."""
        return "P/B" if self.info.ruleset.uses_blatt else "0–70"

    @property
    def seat_names(self) -> list[str]:
        """The players in seat order (the hand's numbering), for naming seats in the line."""
        return [self.info.names[i] for i in range(self.info.size)]

    def uses_line(self, data: dict) -> bool:
        """The hand is the quick line: the scorer typed in it last, or, without the page's script,
        changed the line the page showed (``quick_was``)."""
        source = data.get("source") or ""
        if source:
            return source == "line"
        quick = (data.get("quick") or "").strip()
        return bool(quick) and quick != (data.get("quick_was") or "").strip()

    def full_clean(self):
        """Validate; a refused form shows the line as typed, and ``quick_was`` follows it, so that
        without the page's script a correction made in the fields next counts (see :meth:`uses_line`)."""
        super().full_clean()
        if self.is_bound and self._errors:
            self.data = self.data.copy()
            self.data["quick_was"] = self.data.get("quick", "")
    # -- layout helpers for the template --

    def outcome_without_strike(self) -> str:
        """The outcome select without "struck by the director", for a scorer's page (whatever
        ``may_strike`` the form was made with: the page knows the user, ``can.direct``)."""
        widget = copy.copy(self.fields["outcome"].widget)
        widget.choices = [c for c in self.fields["outcome"].choices if c[0] != "struck"]
        return self["outcome"].as_widget(widget=widget)

    def bonus_fields(self):
        """``(bonus field, its kontra field or None, bonus key)`` per bonus select of the form
        (:func:`bonus_slots`: one per bonus, or one per side where both sides may record it)."""
        return [
            (self[f"bonus_{b.key}{x}"], self[f"bonus_kontra_{b.key}{x}"] if f"bonus_kontra_{b.key}{x}" in self.fields else None, b.key)
            for b, x, _teams in bonus_slots(self.info.ruleset)
        ]

    def record_field_blocks(self):
        """The ruleset's own record fields (``Ruleset.record_fields``) the form asks for, as
        ``(field spec, [bound fields])``: one field, or one per seat for a per-seat field."""
        blocks = []
        for spec in self.info.ruleset.record_fields:
            if spec.name not in self.used:
                continue
            if spec.kind == "per_seat":
                blocks.append((spec, [self[f"{spec.name}_{p}"] for p in range(self.info.size)]))
            else:
                blocks.append((spec, [self[spec.name]]))
        return blocks

    def points_fields(self):
        return [self[f"points_{p}"] for p in range(self.info.size)] if "card_points" in self.used else []

    def score_fields(self):
        return [self[f"score_{p}"] for p in range(self.info.size)]

    # -- building and validating the record --

    def build_record(self, data: dict) -> dict:
        """The hand record for the cleaned ``data``.

        Whatever was entered goes into the record, so the ruleset refuses a partner or conceding
        where the contract has none, with its own message (the page hides those fields). Card
        points are taken only for contracts that count them.
        """
        record: dict = {"dealer": data["dealer"], "outcome": data["outcome"]}
        if data.get("note"):
            record["note"] = data["note"]
        elif data["outcome"] == "struck":
            record["note"] = self.history_reason(data)  # the sheet shows why
        if data["outcome"] == "manual":
            record["scores"] = [data.get(f"score_{p}") for p in range(self.info.size)]
            record["scores"] = [0 if s is None else s for s in record["scores"]]
            if data.get("manual_contract"):
                record["contract"] = data["manual_contract"]  # gives radelci by its contract (Bled)
            return record
        if data["outcome"] == "struck":
            return record
        key = data.get("contract") or None
        record["contract"] = key
        fields = self.contract_fields.get(key, set())
        for name in ("declarer", "revoke", "declarer_points", "kontra_by", "mond_lost_by"):
            if data.get(name) is not None:
                record[name] = data[name]
        if data.get("kontra"):
            record["kontra"] = data["kontra"]
        partner = data.get("partner", "")
        if self.info.ruleset.partner_written_out:
            if partner != "":  # not given: the ruleset asks who held the called card
                record["partner"] = partner
        elif partner not in ("", None) or "partner" in fields:
            record["partner"] = partner if partner != "" else None
        for flag in ("conceded", "against_solo"):
            if data.get(flag):
                record[flag] = True
        if data.get("won") in ("0", "1"):
            record["won"] = data["won"] == "1"
        if "card_points" in fields:
            points = {
                str(p): data[f"points_{p}"].strip()
                for p in range(self.info.size)
                if (data.get(f"points_{p}") or "").strip()
            }
            if points or data.get("revoke") is None:  # a Renonce settles without counting (§4.2)
                record["card_points"] = points
        for spec in self.info.ruleset.record_fields:
            if spec.name not in self.used:
                continue
            by_text = {str(c.value): c.value for c in spec.choices}
            if spec.kind == "flag" and data.get(spec.name):
                record[spec.name] = True
            elif spec.kind == "choice" and data.get(spec.name):
                record[spec.name] = by_text[data[spec.name]]
            elif spec.kind == "per_seat":
                given = {str(p): by_text[data[f"{spec.name}_{p}"]] for p in range(self.info.size) if data.get(f"{spec.name}_{p}")}
                if given:
                    record[spec.name] = given
        if self.info.ruleset.bonuses and key in self.contract_fields:
            record["bonuses"] = [
                bonus_entry(b.key, value, data.get(f"bonus_kontra_{b.key}{x}"))
                for b, x, _teams in bonus_slots(self.info.ruleset)
                if (value := data.get(f"bonus_{b.key}{x}"))
            ]
        return record

    def clean(self):
        data = super().clean()
        if self.uses_line(data):
            return self.clean_line(data)
        if self.errors:
            return data
        if data.get("outcome") == "played" and not data.get("contract"):
            self.add_error("contract", _("Choose the contract."))
            return data
        if data.get("outcome") == "struck" and not self.may_strike:
            self.add_error("outcome", strike_refused())
            return data
        if data.get("outcome") == "struck" and not self.history_reason(data):
            self.add_error("reason", _("Say why the hand is struck."))
            return data
        if data.get("outcome") == "played" and self.refuse_lonely_kontras(data):
            return data
        if data.get("outcome") == "manual":
            # The seat that sits out may stay empty where it scores 0; where he pays, he counts too.
            out = None if self.info.ruleset.sitting_out_pays else self.info.ruleset.sitting_out(data["dealer"], self.info.size)
            for p in range(self.info.size):
                if p != out and data.get(f"score_{p}") is None:
                    self.add_error(f"score_{p}", _("Enter every player's score, 0 too."))
            if self.errors:
                return data
        self.built = record = self.build_record(data)
        self.score(record, None)
        return data

    def refuse_lonely_kontras(self, data: dict) -> bool:
        """Put an error on every bonus's kontra set while its bonus is "—", naming the bonus (the
        select's label, with its side where both sides have one): a kontra on nothing would
        otherwise be dropped without a word. Asked of a played hand only: a struck hand or a
        written row has no bonuses (the page hides them with the contract). Whether any was
        refused."""
        refused = False
        for bonus, suffix, _teams in bonus_slots(self.info.ruleset):
            kontra = f"bonus_kontra_{bonus.key}{suffix}"
            if kontra in self.fields and data.get(kontra) and not data.get(f"bonus_{bonus.key}{suffix}"):
                label = self.fields[f"bonus_{bonus.key}{suffix}"].label
                self.add_error(kontra, _("A kontra on %(bonus)s needs the bonus: choose it, or set its kontra to —.") % {"bonus": label})
                refused = True
        return refused

    def clean_line(self, data: dict) -> dict:
        """The hand from the quick line. The fields only mirror the line, so what they hold cannot
        refuse it: their errors are dropped; the line's refusals go to the line."""
        for name in [n for n in self.errors if n not in self.CONTEXT_FIELDS and n != "__all__"]:
            del self.errors[name]
        if self.errors:
            return data
        line = (data.get("quick") or "").strip()
        rs = self.info.ruleset
        try:
            record = rs.parse_hand(line, self.info.size, data["dealer"], self.seat_names)
        except InvalidHand as refused:
            self.built = refused.record  # read, but refused by the ruleset: the fields show it
            for problem in refused.errors:
                self.add_error("quick", translate_problem(problem, self.info.names))
            return data
        if record.get("outcome") == "struck" and not record.get("note") and self.history_reason(data):
            record["note"] = self.history_reason(data)  # the sheet shows why, as from the fields
        self.built = record
        if record.get("outcome") == "struck" and not self.may_strike:
            self.add_error("quick", strike_refused())
            return data
        if record.get("outcome") == "struck" and not self.history_reason(data, record):
            self.add_error("reason", _("Say why the hand is struck."))
            return data
        self.score(record, "quick", checked=True)  # parse_hand checked it with the ruleset
        return data

    def score(self, record: dict, field: str | None, checked: bool = False) -> None:
        """Check and settle ``record`` at the table, once per request: the save reuses
        ``settlement``; ``checked``: the notation checked it already. A refusal goes to ``field``
        (``None``: the whole form). A change of a struck hand by a user who may not strike is
        refused so too (:func:`~scoring.services.hands.refuse_strike_change`)."""
        try:
            refuse_strike_change(record, self.hand, self.may_strike)
            if checked:
                self.settlement = self.info.ruleset.settle_valid(record, self.info.size, self.info.history())
            else:
                self.settlement = evaluate_record(self.info, record)
        except HandRejected as rejected:
            for message in rejected.messages:
                self.add_error(field, message)
            return
        self.scores = list(self.settlement.row)
        self.record = record

    def line(self) -> str:
        """The canonical notation of the hand as built (valid or not), "" before one was built."""
        if self.built is None:
            return ""
        return self.info.ruleset.format_hand(self.built, self.info.size)

    def field_values(self) -> dict:
        """The hand as built, as the values of the form's fields (what the page sets when the line
        was typed): field name -> text, or bool for check boxes. Context fields are left out."""
        if self.built is None:
            return {}
        values = {}
        for name, value in initial_from_record(self.built, self.info.size, self.info.ruleset).items():
            if name in self.fields and name not in self.CONTEXT_FIELDS:
                values[name] = value if isinstance(value, bool) else ("" if value is None else str(value))
        return values


def _derived(rs, key) -> bool:
    """Whether bonus ``key`` of ruleset ``rs`` follows from the record (``Bonus.derived``)."""
    try:
        return rs is not None and rs.bonus(key).derived
    except KeyError:
        return False


def initial_from_record(record: dict, size: int, rs=None) -> dict:
    """Form initial data for editing a stored hand record (the inverse of ``build_record``)."""
    points = record.get("declarer_points")
    if isinstance(points, str):  # "53/0" and "53" are the same (hand-record.md "Card points")
        try:
            points = whole_points(points, rs.max_card_points if rs is not None else 70)
        except CardPointsError:
            pass  # shown as stored, for the ruleset to name
    initial = {
        "dealer": record.get("dealer"),
        "outcome": record.get("outcome", "played"),
        "note": record.get("note", ""),
        "contract": record.get("contract") or "",
        "declarer": record.get("declarer"),
        "partner": NOBODY if rs is not None and rs.partner_written_out and "partner" in record and record["partner"] is None else record.get("partner"),
        "revoke": record.get("revoke"),
        "conceded": record.get("conceded", False),
        "against_solo": record.get("against_solo", False),
        "declarer_points": points,
        "won": {True: "1", False: "0"}.get(record.get("won"), ""),
        "kontra": record.get("kontra", 0),
        "kontra_by": record.get("kontra_by"),
        "mond_lost_by": record.get("mond_lost_by"),
    }
    if record.get("outcome") == "manual":
        initial["manual_contract"] = record.get("contract") or ""
    for b in record.get("bonuses", []):
        x = OPPONENTS_SLOT if rs is not None and rs.bonus_per_team and b.get("team") == "opponents" else ""
        initial[f"bonus_{b['bonus']}{x}"] = bonus_value(b, _derived(rs, b.get("bonus")))
        initial[f"bonus_kontra_{b['bonus']}{x}"] = b.get("kontra", 0)
    for spec in rs.record_fields if rs is not None else ():
        value = record.get(spec.name)
        if spec.kind == "per_seat" and isinstance(value, dict):
            for seat, held in value.items():
                initial[f"{spec.name}_{seat}"] = str(held)
        elif spec.kind == "flag":
            initial[spec.name] = bool(value)
        elif value is not None:
            initial[spec.name] = str(value)
    for seat, value in (record.get("card_points") or {}).items():
        initial[f"points_{seat}"] = str(value)
    for p, value in enumerate(record.get("scores") or []):
        if record.get("outcome") == "manual" and p < size:
            initial[f"score_{p}"] = value
    return initial


class FlagForm(CleanTextFormMixin, forms.Form):
    """A player flags one hand of his table with a comment (the table's private link)."""

    hand = forms.ModelChoiceField(label=gettext_lazy("Hand"), queryset=Hand.objects.none())
    comment = forms.CharField(label=gettext_lazy("What is wrong?"), max_length=500)

    def __init__(self, *args, table, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["hand"].queryset = table.hands.order_by("number")
        self.fields["hand"].label_from_instance = lambda h: _("Hand %(number)s") % {"number": h.number}


class ConfirmSheetForm(CleanTextFormMixin, forms.Form):
    """A player confirms his table's sheet (the table's private link), optionally with his name,
    which is checked as a name (:mod:`tournaments.text`). ``sheet_version`` (hidden) is the
    version of the sheet his page showed (:func:`~scoring.services.tables.sheet_versions`), so
    what is confirmed is what he read (:func:`~scoring.services.tables.confirm_sheet`)."""

    name = forms.CharField(label=gettext_lazy("Your name (optional)"), required=False, max_length=120)
    sheet_version = forms.CharField(required=False, widget=forms.HiddenInput)

    name_like_fields = ("name",)
    text_check_exempt = ("sheet_version",)  # never stored nor shown: compared with the table's

    def clean_sheet_version(self) -> int | None:
        """The version the page showed as a whole number; ``None`` when the post has none (a page
        from before pages said which) or not a whole number, confirmed as a sheet that changed
        since. Never an error: the page shows no field to correct."""
        value = self.cleaned_data.get("sheet_version") or ""
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 12 else None
