"""The organiser's form for a new publishing key: a label and, optionally, one of his cups."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.cups.roles import managed_cups
from tournaments.text import CleanTextFormMixin


class KeyForm(CleanTextFormMixin, forms.Form):
    """``label`` (his words for where the key is used) and ``cup`` (one he keeps, or none)."""

    name_like_fields = ("label",)

    label = forms.CharField(
        label=_("Label"), max_length=100, required=False,
        help_text=_("Your words for where it is used, e.g. “Gasthof Post, laptop of the cup”."),
    )
    cup = forms.ModelChoiceField(
        label=_("Cup"), queryset=None, required=False, empty_label=_("no cup"),
        help_text=_("Tournaments published with this key count for this cup (one you keep, of the tournament's ruleset)."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cup"].queryset = managed_cups(user).order_by("name")
