"""The entry form's widgets rendered in Python write what Django's templates write: inputs (text,
number, hidden, check box) and the radio buttons, character for character."""

import pytest
from django import forms

from scoring.entry.widgets import FastCheckboxInput, FastHiddenInput, FastNumberInput, FastRadioSelect, FastTextInput

ATTRS = [{}, {"id": "id_x"}, {"id": "id_x", "required": True, "placeholder": 'a "b" <c> & d', "autofocus": True, "off": False}]


@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize("value", [None, "", "Anna <Huber> & \"Co\"", 0, 17, -3])
@pytest.mark.parametrize(
    ("fast", "django"),
    [(FastTextInput, forms.TextInput), (FastNumberInput, forms.NumberInput), (FastHiddenInput, forms.HiddenInput)],
)
def test_inputs_render_as_djangos(fast, django, value, attrs):
    assert fast(attrs={"size": 6}).render("x", value, attrs) == django(attrs={"size": 6}).render("x", value, attrs)


@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize("value", [None, False, True, "", "on"])
def test_check_boxes_render_as_djangos(value, attrs):
    assert FastCheckboxInput().render("x", value, attrs) == forms.CheckboxInput().render("x", value, attrs)


@pytest.mark.parametrize("attrs", [*ATTRS, {"id": "id_won", "class": "c"}])
@pytest.mark.parametrize("value", [None, "", "1", "0", "missing"])
def test_radio_buttons_render_as_djangos(value, attrs):
    choices = [("", "—"), ("1", "won"), ("0", "lost <& \"x\">")]
    assert FastRadioSelect(choices=choices).render("won", value, attrs) == forms.RadioSelect(choices=choices).render("won", value, attrs)


def test_grouped_radio_buttons_go_through_the_templates():
    choices = [("Team", [("1", "won"), ("0", "lost")])]
    assert FastRadioSelect(choices=choices).render("won", "1", {"id": "w"}) == forms.RadioSelect(choices=choices).render("won", "1", {"id": "w"})
