"""The forms of a cup's settings page: the cup's own settings and its sub-rankings
(``../shared/rules/tournament-formats.md`` §4)."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.cups.models import Cup, CupRanking
from scoring.member_picker import MemberChoiceField, MemberPicker
from tournaments.models import Player, Tournament
from tournaments.text import CleanTextFormMixin
from variants import registry


def ruleset_choices():
    """``(key, label)`` of every registered ruleset (a cup is of one ruleset, any edition)."""
    seen = {}
    for rs in registry.all_rulesets():
        seen.setdefault(rs.key, rs.name)
    return sorted(seen.items(), key=lambda item: item[1])


class CupForm(CleanTextFormMixin, forms.ModelForm):
    """A cup's settings (``../shared/rules/tournament-formats.md`` §4,
    ``../shared/rules/koenigrufen-raiffeisen.md`` §6.9); ``counting`` must read as ``all``,
    ``half`` or a number from 1; ``planned``, if given, from 1; the final is one of the cup's own
    tournaments (a new cup has none yet); the name holds no control, direction or invisible
    character (:mod:`tournaments.text`)."""

    name_like_fields = ("name",)

    ruleset = forms.ChoiceField(label=gettext_lazy("Ruleset"), choices=ruleset_choices)

    class Meta:
        model = Cup
        fields = [
            "name", "ruleset", "method", "counting", "planned", "cup_tiebreak", "final_top", "final_min_played",
            "final_tournament", "wtc_final_negative", "oe_finale_table",
        ]

    def __init__(self, data=None, *args, **kwargs):
        if data is not None and "cup_tiebreak" not in data:  # a post without it (a script): unchanged
            data = data.copy()
            data["cup_tiebreak"] = (kwargs.get("instance") or Cup()).cup_tiebreak
        super().__init__(data, *args, **kwargs)
        final = self.fields["final_tournament"]
        final.queryset = self.instance.tournaments.order_by("date", "pk") if self.instance.pk else Tournament.objects.none()
        final.empty_label = _("none")
        if not self.instance.pk:
            final.help_text = _("Which of the cup's tournaments is its final: it can be chosen once tournaments have joined the cup.")

    def clean_planned(self):
        value = self.cleaned_data["planned"]
        if value == 0:
            raise forms.ValidationError(_("Leave it empty, or plan at least one tournament."))
        return value

    def clean_counting(self):
        value = self.cleaned_data["counting"].strip().casefold()
        if value in ("all", "half") or (value.isdigit() and int(value) >= 1):
            return value
        raise forms.ValidationError(
            _("“%(value)s” is not a counting rule: write “all”, “half” or a number of results from 1.") % {"value": self.cleaned_data["counting"]}
        )

    def clean_ruleset(self):
        value = self.cleaned_data["ruleset"]
        if self.instance.pk and value != self.instance.ruleset and self.instance.tournaments.exists():
            raise forms.ValidationError(_("Its tournaments are played under another ruleset: a cup keeps the ruleset of its tournaments."))
        return value


class CupRankingForm(CleanTextFormMixin, forms.ModelForm):
    """A sub-ranking: a club, picked players, or the away tournaments; its name and club are
    checked as names (:mod:`tournaments.text`). Its players are picked from the register with a
    search (:class:`~scoring.member_picker.MemberPicker`): only those chosen are rendered."""

    name_like_fields = ("name", "club")

    class Meta:
        model = CupRanking
        fields = ["name", "club", "members", "away_only"]
        widgets = {"members": MemberPicker(("name", "club"))}
        field_classes = {"members": MemberChoiceField}

    def __init__(self, *args, search_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        members = self.fields["members"]
        members.queryset = Player.objects.all()
        members.widget.search_url = search_url
        members.help_text = _("Find and pick its players (women, youth, guests …), or name a club, or count the away tournaments only.")


RankingFormSet = forms.inlineformset_factory(Cup, CupRanking, form=CupRankingForm, extra=1, can_delete=True)
