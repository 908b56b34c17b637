"""The UI ships in German (default), English and Slovenian; the committed .mo matches its .po."""

import ast
import gettext
import re
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


def po_plural_entries(path: Path) -> dict[str, tuple[str, list[str]]]:
    """``{msgid: (msgid_plural, [msgstr[0], msgstr[1], ...])}`` of the plural entries of a .po file."""
    entries, key, current = {}, None, {}
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        match = re.match(r'^(msgid_plural|msgid|msgstr\[(\d+)\]|msgstr) (".*")$', line)
        if match:
            key = match.group(1)
            current[key] = ast.literal_eval(match.group(3))
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
        elif not line.strip():
            if "msgid_plural" in current:
                indices = sorted(int(k[7:-1]) for k in current if k.startswith("msgstr["))
                entries[current["msgid"]] = (current["msgid_plural"], [current[f"msgstr[{i}]"] for i in indices])
            key, current = None, {}
        else:
            key = None
    return entries


NAMED = re.compile(r"%\((\w+)\)")

# Translated catalogues (English is the source language: its msgstrs may stay empty). Numbers that
# pick every plural form of the language: German one/other; Slovenian n%100 == 1, 2, 3-4, other.
TRANSLATED = {"de": (2, [1, 2]), "sl": (4, [1, 2, 3, 5])}


@pytest.mark.parametrize("language", sorted(TRANSLATED))
def test_every_string_is_translated_and_compiled(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    entries = po_entries(po)
    plurals = po_plural_entries(po)
    nplurals, samples = TRANSLATED[language]
    assert len(entries) > 150
    assert f"nplurals={nplurals};" in po.read_text(encoding="utf-8")
    assert "#, fuzzy" not in po.read_text(encoding="utf-8")
    untranslated = [m for m, s in entries.items() if not s]
    untranslated += [m for m, (_, forms) in plurals.items() if len(forms) != nplurals or not all(forms)]
    assert untranslated == []
    lost = [m for m, s in entries.items() if set(NAMED.findall(m)) != set(NAMED.findall(s))]
    lost += [
        m for m, (p, forms) in plurals.items() if any(set(NAMED.findall(p)) != set(NAMED.findall(f)) for f in forms)
    ]
    assert lost == [], "a translation drops or misspells a %(name)s placeholder"
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    stale = [m for m, s in entries.items() if compiled.gettext(m) != s]
    stale += [
        m
        for m, (p, forms) in plurals.items()
        for n in samples
        if compiled.ngettext(m, p, n) != forms[compiled.plural(n)]
    ]
    assert stale == [], "run manage.py compilemessages and commit the .mo"


def test_slovenian_plural_forms_follow_n_mod_100():
    with open(LOCALE / "sl" / "LC_MESSAGES" / "django.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    numbers = (1, 2, 3, 4, 5, 101, 102, 111)
    forms = {n: compiled.ngettext("%(count)s round", "%(count)s rounds", n) % {"count": n} for n in numbers}
    assert forms == {
        1: "1 krog", 2: "2 kroga", 3: "3 krogi", 4: "4 krogi", 5: "5 krogov",
        101: "101 krog", 102: "102 kroga", 111: "111 krogov",
    }


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


@pytest.mark.django_db
def test_pages_in_slovenian_by_cookie_or_language_switch(client, four_table):
    assert "sl" in dict(settings.LANGUAGES)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sl"
    page = client.get("/").content.decode()
    assert '<html lang="sl">' in page
    assert "Turnirji" in page and "Turniere" not in page
    page = client.get(four_table.get_absolute_url()).content.decode()
    assert "Vnesena ni še nobena igra." in page
    assert "Noch kein Spiel eingetragen." not in page

    client.cookies.clear()
    assert "Noch kein Spiel eingetragen." in client.get(four_table.get_absolute_url()).content.decode()
    client.post("/i18n/setlang/", {"language": "sl", "next": "/"})
    assert "Vnesena ni še nobena igra." in client.get(four_table.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_ruleset_messages_in_slovenian_keep_the_game_terms(director_client, four_table):
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sl"
    response = director_client.post(
        f"/manage/table/{four_table.pk}/hands/",
        {"outcome": "played", "dealer": "3", "contract": "dreier", "declarer": "1", "partner": "2", "won": "1"},
    )
    assert response.status_code == 422
    errors = " ".join(response.context["form"].non_field_errors())
    assert "Igra Dreier nima partnerja" in errors


def test_nested_problems_are_translated_with_their_parameters():
    from django.utils import translation

    from tournaments.problems import translate_problem
    from variants import Problem

    inner = Problem("the loser pays the pot of %(pot)s to the others", pot=12)
    outer = Problem("This Trischaken would split points into fractions (%(reason)s): enter a manual row agreed by the tournament director.", reason=inner)
    with translation.override("de"):
        text = translate_problem(outer)
    assert "Topf von 12" in text and "manuell" in text.lower()
    with translation.override("sl"):
        text = translate_problem(outer)
    assert "skupni znesek 12" in text and "ročno vrstico" in text


@pytest.mark.parametrize("language", ["en", "de", "sl"])
def test_times_read_on_the_24_hour_clock_in_every_language(language):
    """A director's "Published: version 20 at 07:32." in English too, not "at 7:32 a.m.." with
    the sentence's full stop doubled."""
    import datetime

    from django.utils import timezone, translation

    from publishing.venue import when

    morning = timezone.make_aware(datetime.datetime(2026, 11, 28, 7, 32))
    evening = timezone.make_aware(datetime.datetime(2026, 11, 28, 19, 5))
    with translation.override(language):
        assert (when(morning, morning), when(evening, evening)) == ("07:32", "19:05")
