"""A name or a typed word quoted inside a translated message takes the language's own quotation
marks: “…” in English, „…“ in German, »…« in Slovenian."""

from django.utils import translation

from scoring.entry.raw_rows import parse_raw_rows
from tournaments.text import quoted


def test_each_language_quotes_with_its_own_marks():
    with translation.override("en"):
        assert quoted("Hofer-Mair") == "“Hofer-Mair”"
    with translation.override("de"):
        assert quoted("Hofer-Mair") == "„Hofer-Mair“"
    with translation.override("sl"):
        assert quoted("Hofer-Mair") == "»Hofer-Mair«"


def test_a_raw_row_refused_in_german_quotes_the_word_in_german():
    with translation.override("de"):
        _rows, problems = parse_raw_rows("10 zehn -10 0", 4)
    message = problems[0].message
    assert "„zehn“" in message and "“zehn”" not in message
