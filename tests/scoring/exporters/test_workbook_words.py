"""A hand in words from the translated phrases kept per language: the same text as translating
each phrase with gettext, in every language and every ruleset, and the workbook's hands in the
language it is asked in."""

import random
from io import BytesIO

import pytest
from django.utils import translation
from django.utils.translation import gettext
from openpyxl import load_workbook

from scoring.exporters.standings import standings_xlsx
from scoring.services import describe, record_names, save_hand
from scoring.services.display import describe_parts, prepared_parts
from tournaments import services
from tournaments.problems import VERBATIM, phrases, translate_problem
from variants import Problem, all_rulesets

LANGUAGES = ("de", "en", "sl")


def gettext_phrase_by_phrase(problem, seat_names=None) -> str:
    """A message translated as before the phrases were kept: ``gettext`` for each phrase, each time."""
    msgid = getattr(problem, "msgid", None)
    if msgid is None:
        return gettext(str(problem))
    params = {}
    for key, value in problem.params.items():
        if key.endswith("seat") and isinstance(value, int):
            value = (seat_names or {}).get(value) or gettext("seat %(number)s") % {"number": value + 1}
        elif key.endswith(VERBATIM):
            pass
        elif getattr(value, "msgid", None):
            value = gettext_phrase_by_phrase(value, seat_names)
        elif isinstance(value, str):
            value = gettext(value)
        params[key] = value
    return gettext(msgid) % params if params else gettext(msgid)


def hands_of_every_ruleset():
    """``(ruleset, record, row, size)``: 40 random hands per ruleset and table size (seeded), a
    struck hand, a manual row and a hand in its own seat numbering after a player left."""
    rng = random.Random(30)
    for rs in all_rulesets():
        for size in rs.table_sizes:
            for k in range(40):
                try:
                    record = rs.random_hand(rng, size, k % size)
                    row = rs.score(record, size)
                except Exception:  # a ruleset that scores only after earlier hands, or rows only
                    continue
                yield rs, record, row, size
            yield rs, {"dealer": 0, "outcome": "struck"}, [0] * size, size
            contract = rs.contracts[0].key if rs.contracts else "x"  # free scoring has none
            yield rs, {"dealer": 0, "outcome": "manual", "contract": contract, "scores": [0] * size}, [0] * size, size
            yield rs, {"dealer": 0, "contract": contract, "declarer": 1, "partner": 2, "won": True,
                       "seats": list(range(size))[::-1]}, [1] * size, size


NAMES = {0: "Anna", 1: "Berta", 2: "Carl", 3: "Dora", 4: "Emil"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_kept_phrases_give_the_words_gettext_gives(language):
    hands = list(hands_of_every_ruleset())
    assert len({rs.key for rs, *_ in hands}) == len(all_rulesets()) and len(hands) > 500
    with translation.override(language):
        for rs, record, row, _size in hands:
            own = record_names(record, NAMES)
            parts = rs.describe(record, row)
            expected = " · ".join(gettext_phrase_by_phrase(part, own) for part in parts)
            assert describe(record, NAMES, rs, row) == expected, (rs.key, record)
            assert describe_parts(prepared_parts(parts), own) == expected, (rs.key, record)
            assert describe_parts(prepared_parts(parts), {}) == " · ".join(gettext_phrase_by_phrase(p, {}) for p in parts)


def test_nested_messages_and_seats_without_names():
    inner = Problem("the loser pays the pot of %(pot)s to the others", pot=12)
    outer = Problem("This Trischaken would split points into fractions (%(reason)s): enter a manual row agreed by the tournament director.", reason=inner)
    seated = Problem("kontra by %(player_seat)s", player_seat=2)
    for language in LANGUAGES:
        with translation.override(language):
            for problem in (inner, outer, seated):
                assert translate_problem(problem) == gettext_phrase_by_phrase(problem)
                assert translate_problem(problem, {2: "Carl"}) == gettext_phrase_by_phrase(problem, {2: "Carl"})
    with translation.override("de"):
        assert translate_problem(seated) == "Kontra von Platz 3"
        assert translate_problem(seated, {2: "Carl"}) == "Kontra von Carl"


def test_switching_language_switches_the_words():
    from variants import get_ruleset

    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    dreier = {"dealer": 0, "contract": "dreier", "declarer": 3, "won": False}
    rufer = {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2, "won": True,
             "bonuses": [{"bonus": "vier_koenige", "team": "declarer", "announced": False, "made": True}]}
    said = {
        "de": ("Dreier · Dora · verloren", "Rufer · Anna + Carl · gewonnen · Vier Könige"),
        "en": ("Dreier · Dora · lost", "Rufer · Anna + Carl · won · Vier Könige"),
        "sl": ("Dreier · Dora · izgubljena", "Rufer · Anna + Carl · dobljena · Vier Könige"),
    }
    for language in ("de", "en", "sl", "de", "sl", "en"):
        with translation.override(language):
            got = (describe(dreier, NAMES, rs, [5, 5, 5, -15]), describe(rufer, NAMES, rs, [2, -2, 2, -2]))
            assert got == said[language]
            assert phrases()["lost"] == {"de": "verloren", "en": "lost", "sl": "izgubljena"}[language]


@pytest.mark.django_db
def test_workbook_hands_in_the_language_asked_for(make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    names = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]
    save_hand(table, {"dealer": 0, "contract": "dreier", "declarer": 3, "won": False})
    save_hand(table, {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": True})  # Vorhand calls
    save_hand(table, {"dealer": 2, "contract": "dreier", "declarer": 3, "won": False})  # the same hand again

    def hands_sheet(language):
        with translation.override(language):
            book = load_workbook(BytesIO(standings_xlsx(t)))
        rows = list(book.worksheets[2].iter_rows(values_only=True))
        return [row[1:4] for row in rows[2:5]]  # dealer, description, notation

    d, r = f"Dreier · {names[3]}", f"Rufer · {names[2]} + {names[0]}"
    assert hands_sheet("de") == [(names[0], d + " · verloren", "d 4 -"), (names[1], r + " · gewonnen", "r 3 1 +"),
                                 (names[2], d + " · verloren", "d 4 -")]
    assert hands_sheet("sl") == [(names[0], d + " · izgubljena", "d 4 -"), (names[1], r + " · dobljena", "r 3 1 +"),
                                 (names[2], d + " · izgubljena", "d 4 -")]
    assert hands_sheet("en") == [(names[0], d + " · lost", "d 4 -"), (names[1], r + " · won", "r 3 1 +"),
                                 (names[2], d + " · lost", "d 4 -")]
    assert hands_sheet("de")[0][1] == d + " · verloren"
