"""The Ö-Finale's settings form: the qualifying cups, the Finalpunkte table typed as text, and the
option to sum the Vorrundenpunkte (``../shared/rules/koenigrufen-raiffeisen.md`` §6.9). A refused
table is answered with one message per problem, each naming its rank
(:func:`scoring.finale.points.parse_finalpunkte`); the form keeps what was typed."""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.cups.models import Cup
from scoring.finale import points
from scoring.finale.models import OeFinale
from tournaments.text import CleanTextFormMixin


def problem_text(problem: points.Problem) -> str:
    """What the form says about one :class:`~scoring.finale.points.Problem`, naming its rank."""
    values = {"rank": problem.rank, "text": problem.text, "above": problem.above, "first": points.WINNER,
              "zero_from": points.ZERO_FROM, "limit": points.MAX_RANKS}
    return {
        points.NOT_A_NUMBER: _("Rank %(rank)s: “%(text)s” is not a whole number."),
        points.FIRST: _("Rank %(rank)s: the day's winner gets %(first)s Finalpunkte, not %(text)s."),
        points.INCREASE: _("Rank %(rank)s: %(text)s is more than the %(above)s of the rank above; the Finalpunkte never increase down the ranks."),
        points.NEGATIVE: _("Rank %(rank)s: %(text)s is negative; there are no minus points."),
        points.PAST_100: _("Rank %(rank)s: %(text)s, but every rank from %(zero_from)s on gets 0 Finalpunkte."),
        points.TOO_LONG: _("Rank %(rank)s: the table lists at most %(limit)s ranks (every rank from 101 on gets 0 anyway)."),
    }[problem.kind] % values


class OeFinaleForm(CleanTextFormMixin, forms.ModelForm):
    """The finale's cups (those with a Vorrundenpunkte table, and any chosen before), the
    Finalpunkte table as text (``"60 57 55 …"`` or one value a line; empty: not entered yet) and
    the sum option. ``cleaned_data["finalpunkte_text"]`` is the table as a tuple of ints."""

    finalpunkte_text = forms.CharField(
        label=gettext_lazy("Finalpunkte"), required=False, widget=forms.Textarea(attrs={"rows": 6, "cols": 50}),
        help_text=gettext_lazy(
            "The Finalpunkte (points of the final day) by day rank, rank 1 first: “60 57 55 …” or one value a line. "
            "Rank 1 gets 60, no rank more than the one above, none below 0, every rank from 101 on 0; "
            "ranks past the end of the table get 0."
        ),
    )

    class Meta:
        model = OeFinale
        fields = ["cups", "sum_vorrundenpunkte"]
        widgets = {"cups": forms.CheckboxSelectMultiple}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        chosen = list(self.instance.cups.values_list("pk", flat=True)) if self.instance.pk else []
        cups = self.fields["cups"]
        cups.queryset = Cup.objects.filter(~Q(oe_finale_table="") | Q(pk__in=chosen)).order_by("name")
        cups.label_from_instance = cup_label
        if self.instance.pk and not self.is_bound:
            self.initial["finalpunkte_text"] = points.format_table(self.instance.finalpunkte or ())

    def clean_finalpunkte_text(self):
        try:
            return points.parse_finalpunkte(self.cleaned_data["finalpunkte_text"])
        except points.FinalpunkteError as error:
            raise forms.ValidationError([problem_text(p) for p in error.problems]) from error

    def save(self, commit=True):
        self.instance.finalpunkte = list(self.cleaned_data["finalpunkte_text"])
        return super().save(commit)


def cup_label(cup: Cup) -> str:
    """``"Tiroler Tarockcup 2025/26 (40 ranks)"``; a cup whose table was taken away meanwhile says
    it qualifies nobody."""
    if not cup.oe_finale_table:
        return _("%(cup)s (no Vorrundenpunkte table: qualifies nobody)") % {"cup": cup.name}
    return _("%(cup)s (%(ranks)s ranks)") % {"cup": cup.name, "ranks": cup.oe_finale_table}
