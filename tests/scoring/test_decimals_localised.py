"""Numbers with decimals are written the reader's way: table points shared at a table of four
(¾ each for a shared second place, ``tarok-bled.md`` §7) read "0,75" in Slovenian and German,
"0.75" in English; halves, thirds and sixths keep their fraction signs."""

from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation

from scoring.ranking import format_points
from scoring.services import save_hand
from tournaments import services


@pytest.mark.parametrize(("language", "expected"), [("sl", "0,75"), ("de", "0,75"), ("en", "0.75")])
def test_quarters_use_the_languages_decimal_sign(language, expected):
    with translation.override(language):
        assert format_points(Fraction(3, 4)) == expected
        assert format_points(Fraction(-11, 4)) == "-" + expected.replace("0", "2", 1)
        assert format_points(Fraction(3, 2)) == "1½"  # as players write it, in every language


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "expected", "wrong"), [("sl", "0,75", "0.75"), ("de", "0,75", "0.75"), ("en", "0.75", "0,75")])
def test_the_standings_page_writes_shared_table_points_in_the_language(make_tournament, language, expected, wrong):
    t = make_tournament(players=4, ruleset="tarok-bled", edition="2005", rounds=4, hands_per_round=21)
    table = services.draw_next_round(t, seed=5).tables.get()
    save_hand(table, {"dealer": 0, "outcome": "manual", "scores": [0, 30, 10, 10]})  # the dealer sits out: 0, 2, ¾, ¾
    page = Client(headers={"accept-language": language}).get(f"/t/{t.pk}/standings/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'<html lang="{language}"' in html
    assert expected in html and wrong not in html
