"""Widgets rendered in Python: the entry form has some 45 fields and 120 options, which Django's
template per widget (and per option) makes the slowest part of saving a hand (see
``bench/README.md``). Each renders what its Django widget renders: the same element, name,
value and attributes (in the order Django writes them), escaped the same way."""

from html import escape

from django import forms
from django.utils.safestring import mark_safe


def _text(value) -> str:
    """``value`` escaped for HTML as Django's ``conditional_escape`` does it (safe text as it is),
    without its lazy-text wrapper on every call."""
    return value.__html__() if hasattr(value, "__html__") else escape(str(value))


def _attrs(attrs: dict) -> str:
    """The attributes as ``django.forms.utils.flatatt`` and Django's ``attrs.html`` write them:
    ``True`` as a bare name, ``False`` and ``None`` left out, each value escaped."""
    out = []
    for name, value in attrs.items():
        if value is True:
            out.append(f" {name}")
        elif value is not False and value is not None:
            out.append(f' {name}="{_text(value)}"')
    return "".join(out)


class FastSelect(forms.Select):
    """Renders like :class:`django.forms.Select` (name, id, attributes, the selected option) for
    flat choices, without a template per option."""

    def render(self, name, value, attrs=None, renderer=None):
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        chosen = {str(v) for v in self.format_value(value)}
        options = "".join(
            f'<option value="{_text(v)}"{" selected" if str(v) in chosen else ""}>{_text(label)}</option>'
            for v, label in self.choices
        )
        return mark_safe(f"<select{_attrs(final)}>{options}</select>")


class FastInputMixin:
    """``render`` of an ``<input>`` widget as ``django/forms/widgets/input.html`` writes it:
    type, name, the value where there is one, then the attributes (``True`` as a bare name,
    ``False`` left out)."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        shown = widget["value"]
        value_attr = f' value="{_text(shown)}"' if shown is not None else ""
        return mark_safe(f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"{value_attr}{_attrs(widget["attrs"])}>')


class FastTextInput(FastInputMixin, forms.TextInput):
    """:class:`django.forms.TextInput`, rendered in Python."""


class FastNumberInput(FastInputMixin, forms.NumberInput):
    """:class:`django.forms.NumberInput`, rendered in Python."""


class FastHiddenInput(FastInputMixin, forms.HiddenInput):
    """:class:`django.forms.HiddenInput`, rendered in Python."""


class FastCheckboxInput(FastInputMixin, forms.CheckboxInput):
    """:class:`django.forms.CheckboxInput`, rendered in Python (checked as an attribute)."""


class FastRadioSelect(forms.RadioSelect):
    """:class:`django.forms.RadioSelect` rendered in Python, to the character what its templates
    (``multiple_input.html``, ``input_option.html``) write, for flat choices; grouped choices
    go through the templates."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        groups = widget["optgroups"]
        if any(group or not all(option["wrap_label"] for option in options) for group, options, _index in groups):
            return super().render(name, value, attrs, renderer)
        own = widget["attrs"]
        parts = [
            "<div",
            f' id="{_text(own["id"])}"' if own.get("id") else "",
            f' class="{_text(own["class"])}"' if own.get("class") else "",
            ">",
        ]
        for _group, options, _index in groups:
            for option in options:
                shown = "" if option["value"] is None else f' value="{_text(option["value"])}"'
                tag = f'<input type="{_text(option["type"])}" name="{_text(option["name"])}"{shown}{_attrs(option["attrs"])}>'
                label_id = option["attrs"].get("id")
                label_for = f' for="{_text(label_id)}"' if label_id else ""
                parts.append(f"<div>\n    <label{label_for}>{tag}\n {_text(option['label'])}</label>\n\n</div>")
        parts.append("\n</div>")
        return mark_safe("".join(parts))
