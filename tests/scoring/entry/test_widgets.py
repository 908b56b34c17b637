"""FastSelect renders what Django's Select renders (options, selection, escaping, attributes)."""

import re

import pytest
from django import forms

from scoring.entry.widgets import FastSelect

CHOICES = [("", "—"), ("d:a:1", "Spieler · angesagt"), ("3", "Anna <Huber> & Co")]


def options(html):
    return re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', html)


@pytest.mark.parametrize("value", [None, "", "d:a:1", 3, "3", "missing"])
def test_same_options_and_selection_as_djangos_select(value):
    attrs = {"id": "id_x", "required": True}
    fast = FastSelect(choices=CHOICES).render("x", value, attrs)
    django = forms.Select(choices=CHOICES).render("x", value, attrs)
    assert options(fast) == options(django)
    assert 'name="x"' in fast and 'id="id_x"' in fast and " required" in fast
    assert "&lt;Huber&gt; &amp; Co" in fast
