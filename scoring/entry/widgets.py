"""A ``<select>`` rendered in Python: the entry form has some 120 options, which Django's
template-per-option rendering makes the slowest part of saving a hand (see ``bench/README.md``)."""

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join


class FastSelect(forms.Select):
    """Renders like :class:`django.forms.Select` (name, id, attributes, the selected option) for
    flat choices, without a template per option."""

    def render(self, name, value, attrs=None, renderer=None):
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        chosen = {str(v) for v in self.format_value(value)}
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            ((v, " selected" if str(v) in chosen else "", label) for v, label in self.choices),
        )
        return format_html("<select{}>{}</select>", flatatt(final), options)
