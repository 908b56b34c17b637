"""The UI ships in German (default) and English; the committed .mo matches its .po."""

import ast
import gettext
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"


def po_entries(path: Path) -> dict[str, str]:
    """``{msgid: msgstr}`` of the singular entries of a .po file (header and plurals skipped)."""
    entries, key, current = {}, None, {}
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith(("msgid ", "msgstr ")):
            key = line.split(" ", 1)[0]
            current[key] = ast.literal_eval(line.split(" ", 1)[1])
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
        elif not line.strip():
            if current.get("msgid") and "msgstr" in current:
                entries[current["msgid"]] = current["msgstr"]
            key, current = None, {}
        else:
            key = None if line.startswith(("msgid_plural", "msgstr[")) else key
            if line.startswith("msgid_plural"):
                current = {}
    return entries


def test_every_german_string_is_translated_and_compiled():
    entries = po_entries(LOCALE / "de" / "LC_MESSAGES" / "django.po")
    assert len(entries) > 150
    untranslated = [m for m, s in entries.items() if not s]
    assert untranslated == []
    with open(LOCALE / "de" / "LC_MESSAGES" / "django.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    stale = [m for m, s in entries.items() if compiled.gettext(m) != s]
    assert stale == [], "run manage.py compilemessages and commit the .mo"


@pytest.mark.django_db
def test_pages_in_german_by_default_and_english_on_request(client, four_table):
    page = client.get(four_table.get_absolute_url()).content.decode()
    assert "Noch kein Spiel eingetragen." in page
    assert "No hand entered yet" not in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(four_table.get_absolute_url()).content.decode()
    assert "No hand entered yet." in page


@pytest.mark.django_db
def test_ruleset_messages_are_translated_with_player_names(director_client, four_table):
    response = director_client.post(
        f"/manage/table/{four_table.pk}/hands/",
        {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "partner": "2", "won": "1"},
    )
    assert response.status_code == 422
    errors = " ".join(response.context["form"].non_field_errors())
    assert "Partner" in errors and "Dreier" in errors
    assert "has no partner" not in errors


def test_nested_problems_are_translated_with_their_parameters():
    from django.utils import translation

    from tournaments.problems import translate_problem
    from variants import Problem

    inner = Problem("the loser pays the pot of %(pot)s to the others", pot=12)
    outer = Problem("This Trischaken would split points into fractions (%(reason)s): enter a manual row agreed by the tournament director.", reason=inner)
    with translation.override("de"):
        text = translate_problem(outer)
    assert "Topf von 12" in text and "manuell" in text.lower()
