"""Forms for players, tournaments, registrations and the draw. Every typed text is checked for
characters it may not hold (:class:`tournaments.text.CleanTextFormMixin`); names and the venue
also for direction and invisible characters."""

import json

from django import forms
from django.db.models import Count, Max
from django.utils.translation import gettext_lazy as _

import variants
from tournaments import signals
from tournaments.models import Player, Registration, Seat, Table, Tournament
from tournaments.registration.register import name_key, namesakes

from .text import CleanTextFormMixin


def edition_choices():
    """``("key|edition", label)`` for every registered ruleset edition, labelled as players name it
    ("Tiroler Tarockcup 2019/20", "Cego Ichenheim"); its sources are on the rules page."""
    return [(value, _(rs.label)) for value, rs in editions()]


def editions():
    """Every registered ruleset edition, as ``("key|edition", ruleset object)``."""
    return [
        (f"{rs.key}|{edition}", variants.get_ruleset(rs.key, edition))
        for rs in variants.all_rulesets()
        for edition in rs.editions
    ]


def option_choices():
    """``("key|edition:option", "Ruleset: label")`` for every option of every edition
    (:attr:`variants.base.Ruleset.option_specs`; the page shows those of the chosen edition)."""
    return [(f"{value}:{o.key}", f"{_(rs.label)}: {_(o.label)}") for value, rs in editions() for o in rs.option_specs]


class TournamentForm(CleanTextFormMixin, forms.ModelForm):
    """Create or edit a tournament; the ruleset and edition are chosen together."""

    name_like_fields = ("name", "venue")

    ruleset_edition = forms.ChoiceField(label=_("Ruleset and edition"), choices=edition_choices)
    ruleset_options = forms.MultipleChoiceField(
        label=_("Ruleset options"),
        required=False,
        choices=option_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only the chosen ruleset's options apply."),
    )

    field_order = ["name", "date", "venue", "ruleset_edition", "rounds", "hands_per_round", "ruleset_options", "draw_mode", "cup", "away", "status"]

    class Meta:
        model = Tournament
        fields = ["name", "date", "venue", "rounds", "hands_per_round", "draw_mode", "cup", "away", "status"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, user=None, **kwargs):
        """``user``: who fills the form; he is offered only the cups he keeps
        (:data:`tournaments.signals.cups_kept`) and the one the tournament is in, and another cup
        posted is refused as no valid choice. ``None`` (a command, a restore's check) offers every
        cup."""
        super().__init__(*args, **kwargs)
        self.user = user
        if user is not None:
            cups = self.fields["cup"].queryset
            kept = signals.answer(signals.cups_kept, Tournament, default=cups.none(), user=user)
            current = cups.filter(pk=self.instance.cup_id) if self.instance.cup_id else cups.none()
            self.fields["cup"].queryset = (kept | current).distinct()
        for name in ("rounds", "hands_per_round", "draw_mode"):
            self.fields[name].required = False
        self.fields["rounds"].help_text = _("Empty: the chosen ruleset's default, shown in grey.")
        self.fields["hands_per_round"].help_text = _(
            "At a table of the usual size; empty: the chosen ruleset's default, shown in grey (larger tables play proportionally more where the ruleset says so)."
        )
        if not self.instance.pk:
            # Empty means the chosen ruleset's default (clean); the model's own default (3 × 16)
            # must not be shown, or a Cego tournament left untouched would get it.
            for name in ("rounds", "hands_per_round"):
                self.initial.pop(name, None)
                self.fields[name].initial = None
        current = f"{self.instance.ruleset}|{self.instance.edition}" if self.instance.pk else None
        chosen = {}
        for value, rs in editions():
            settings = {**rs.option_defaults, **(self.instance.options if value == current else {})}
            chosen.update({f"{value}:{name}": on for name, on in settings.items()})
        self.fields["ruleset_options"].initial = [key for key, on in chosen.items() if on]
        if self.instance.pk:
            self.fields["ruleset_edition"].initial = f"{self.instance.ruleset}|{self.instance.edition}"
            if self.instance.round_set.exists():
                self.fields["ruleset_edition"].disabled = True
                self.fields["ruleset_options"].disabled = True
                self.fields["ruleset_edition"].help_text = _("Fixed once a round is drawn.")
        self.show_ruleset_defaults()

    def show_ruleset_defaults(self) -> None:
        """Each ruleset's default rounds and hands as placeholders, for the chosen one now and (by
        the script tournament-form.js) for whichever is chosen next; without the script, the
        other rulesets' options are ignored on saving."""
        defaults = {
            value: {"rounds": rs.default_rounds, "hands": rs.default_hands_per_round}
            for value, rs in ((v, variants.get_ruleset(*v.split("|", 1))) for v, _label in self.fields["ruleset_edition"].choices)
        }
        self.fields["ruleset_edition"].widget.attrs["data-defaults"] = json.dumps(defaults)
        chosen = self.data.get(self.add_prefix("ruleset_edition")) if self.is_bound else self.fields["ruleset_edition"].initial
        current = defaults.get(chosen or "", next(iter(defaults.values()), {}))
        self.fields["rounds"].widget.attrs["placeholder"] = current.get("rounds", "")
        self.fields["hands_per_round"].widget.attrs["placeholder"] = current.get("hands", "")

    def edition(self):
        """The ruleset object of the chosen ruleset and edition (``None`` if none was chosen)."""
        value = self.cleaned_data.get("ruleset_edition") or (
            f"{self.instance.ruleset}|{self.instance.edition}" if self.instance.pk else None
        )
        if not value:
            return None
        key, edition = value.split("|", 1)
        return variants.get_ruleset(key, edition)

    def clean(self):
        data = super().clean()
        rs = self.edition()
        if rs is not None and data.get("cup") is not None and data["cup"].ruleset != rs.key:
            self.add_error("cup", _("%(cup)s is a cup of another ruleset: a cup ranks tournaments of one ruleset.") % {"cup": data["cup"].name})
        if rs is not None:
            if data.get("rounds") is None and "rounds" not in self.errors:
                data["rounds"] = rs.default_rounds
            if data.get("hands_per_round") is None and "hands_per_round" not in self.errors:
                data["hands_per_round"] = rs.default_hands_per_round
        return data

    def clean_draw_mode(self):
        return self.cleaned_data["draw_mode"] or Tournament.DrawMode.AVOID_REPEATS

    def clean_rounds(self):
        rounds = self.cleaned_data["rounds"]
        if rounds is None:
            return rounds
        drawn = self.instance.round_set.count() if self.instance.pk else 0
        if rounds < drawn:
            raise forms.ValidationError(_("%(drawn)s rounds are drawn already.") % {"drawn": drawn})
        return rounds

    def clean_hands_per_round(self):
        hands = self.cleaned_data["hands_per_round"]
        if self.instance.pk and hands is not None:
            rs = self.instance.get_ruleset()
            played = (
                Table.objects.filter(round__tournament=self.instance)
                .annotate(played=Max("hands__number"), size=Count("seats", distinct=True))
                .filter(played__isnull=False)
            )
            for table in played:
                if rs.hands_per_round(table.size, hands) < table.played:
                    raise forms.ValidationError(
                        _("A table has played %(number)s hands already.") % {"number": table.played}
                    )
        return hands

    def save(self, commit=True):
        key, edition = self.cleaned_data["ruleset_edition"].split("|", 1)
        self.instance.ruleset, self.instance.edition = key, edition
        # Set explicitly: an omitted field would otherwise fall back to the model's default.
        self.instance.rounds = self.cleaned_data["rounds"]
        self.instance.hands_per_round = self.cleaned_data["hands_per_round"]
        selected = set(self.cleaned_data.get("ruleset_options") or ())
        value = self.cleaned_data["ruleset_edition"]
        self.instance.options = {o.key: f"{value}:{o.key}" in selected for o in variants.get_ruleset(key, edition).option_specs}
        return super().save(commit)


class PlayerForm(CleanTextFormMixin, forms.ModelForm):
    """A player of the register. A new player whose name is in the register already is refused
    naming the existing ones, unless the director says he is somebody else (``another``)."""

    name_like_fields = ("name", "club")

    another = forms.BooleanField(label=_("This is another person with the same name: add anyway"), required=False)

    class Meta:
        model = Player
        fields = ["name", "club"]

    def clean(self):
        data = super().clean()
        name = (data.get("name") or "").strip()
        if name and not data.get("another"):
            same = [p for p in namesakes([name]).get(name_key(name), []) if p.pk != self.instance.pk]  # one query, not the register
            if same:
                raise forms.ValidationError(
                    _("%(players)s is in the register already: register that player, or tick that this is another person.")
                    % {"players": ", ".join(str(p) for p in same)}
                )
        return data


class RegisterPlayersForm(CleanTextFormMixin, forms.Form):
    """Register players by name: a pasted list, one per line, and/or one new player's name and
    club. Every line is matched against the player register (:mod:`tournaments.registration.register`),
    which also refuses a line whose name holds a direction or invisible character, naming the
    line; the list as a whole is refused here only for control characters."""

    name_like_fields = ("new_name", "new_club")

    names = forms.CharField(
        label=_("Paste a list of names"),
        required=False,
        strip=False,  # kept as typed, blank lines too: the messages number its lines as the director sees them
        widget=forms.Textarea(attrs={"rows": 6, "cols": 40, "spellcheck": "false"}),
        help_text=_("One player per line: “Name; Town or club”, “Name (Town or club)” or just the name."),
    )
    new_name = forms.CharField(label=_("New player: name"), max_length=120, required=False)
    new_club = forms.CharField(label=_("New player: town or club"), max_length=120, required=False)

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean(self):
        data = super().clean()
        if not (data.get("names") or "").strip() and not (data.get("new_name") or "").strip():
            raise forms.ValidationError(_("Search the register, paste names or enter a new player's name."))
        return data

    def new_player(self) -> tuple[str, str] | None:
        """``(name, club)`` typed in the "New player" fields, or ``None`` if no name is typed.
        It is registered with the pasted list but is no line of it
        (:func:`tournaments.registration.register.read_names`)."""
        name = (self.cleaned_data.get("new_name") or "").strip()
        return (name, (self.cleaned_data.get("new_club") or "").strip()) if name else None

    def choices(self) -> dict[str, str]:
        """The director's picks for names that matched players of the register: ``{key: value}``,
        the key a pasted line's number or ``"new"`` for the new player (``choice_3``, ``choice_new``)."""
        picks = {}
        for key, value in self.data.items():
            name = key[7:]
            if key.startswith("choice_") and ((name.isascii() and name.isdigit()) or name == "new") and value:
                picks[name] = value
        return picks


class DrawForm(forms.Form):
    """Draw the next round; an empty seed draws a fresh random one (stored with the round and
    shown on its seating page, not in the message after the draw). The page keeps the seed under
    an "Advanced" disclosure: a director drawing as usual never needs it.

    ``number``: the round the page offered to draw (a second click of the same page draws
    nothing); ``confirm``: draw although tables of the previous round are still playing.
    """

    seed = forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_(
            "Leave it empty for a fresh random draw. The same seed draws the same seating again, to check or repeat a "
            "draw; each round's seed is under “Details of the draw” on its seating page."
        ),
    )
    number = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    confirm = forms.BooleanField(label=_("Draw anyway"), required=False)



class SwapForm(forms.Form):
    """Swap two players of a round by hand (before hands are entered at their tables)."""

    first = forms.ModelChoiceField(label=_("Player"), queryset=Registration.objects.none())
    second = forms.ModelChoiceField(label=_("with"), queryset=Registration.objects.none())

    def __init__(self, *args, round, **kwargs):
        super().__init__(*args, **kwargs)
        seated = Registration.objects.filter(seats__table__round=round).select_related("player").order_by("player__name")
        for name in ("first", "second"):
            self.fields[name].queryset = seated
            self.fields[name].label_from_instance = lambda r: r.player.name


class SubstituteForm(forms.Form):
    """A substitute takes over a seat for the rest of the round."""

    seat = forms.ModelChoiceField(label=_("Seat of"), queryset=Seat.objects.none())
    substitute = forms.ModelChoiceField(label=_("Substitute"), queryset=Registration.objects.none())

    def __init__(self, *args, round, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = (
            Seat.objects.filter(table__round=round, substitute__isnull=True)
            .select_related("registration__player", "table")
            .order_by("registration__player__name")
        )
        self.fields["seat"].label_from_instance = lambda s: f"{s.registration.player.name} ({s.table})"
        self.fields["substitute"].queryset = (
            round.tournament.registrations.filter(withdrawn=False)
            .exclude(seats__table__round=round)
            .select_related("player")
            .order_by("player__name")
        )
        self.fields["substitute"].label_from_instance = lambda r: r.player.name
