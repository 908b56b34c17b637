"""The entry seams a first-time director and his scorer tripped over: raw rows refuse exactly the
lines of numbers their help names, a transcribed hand reads in the page's language, a scorer never
strikes a hand, one word for the quick line, a struck hand's reason shown once, and no restore
button on a verified round's history."""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.entry.raw_rows import RawRowsRejected, save_raw_rows
from scoring.models import Hand
from scoring.services import save_hand, verify_round
from tournaments import services
from tournaments.models import TournamentRole
from tournaments.permissions import Level

STRIKE_REFUSED = "Only a tournament director may strike a hand"


def table_of(make_tournament, players, ruleset=None, edition=None):
    kwargs = {"ruleset": ruleset, "edition": edition} if ruleset else {}
    t = make_tournament(players=players, **kwargs)
    return services.draw_next_round(t, seed=3).tables.get()


def scorer_client(table):
    user = get_user_model().objects.create_user("schreiber", password="pw-123-geheim")
    TournamentRole.objects.create(tournament=table.round.tournament, user=user, level=Level.SCORER)
    c = Client()
    c.force_login(user)
    return c


def page(client, table) -> str:
    return client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()


def text_of(markup: str) -> str:
    """The page as read: tags and attributes gone."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup)))


def post(client, table, url_name="hand_create", **fields):
    data = {"outcome": "played", "dealer": str(table.dealer_of(1, table.seats.count())), **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse(f"entry:{url_name}", args=[table.pk]), data)


# ------------------------------------------------------------------------------------ raw rows


@pytest.mark.django_db
def test_the_help_says_exactly_which_lines_of_numbers_are_refused_and_they_are(director_client, make_tournament, english):
    # tarok-bled.md §3: Trojka, Dvojko and Enojko have the codes 3, 2 and 1; Bled writes only the
    # declarer's result, so a row need not sum to 0 and a mistaken reading would be saved.
    bled = table_of(make_tournament, 3, "tarok-bled", "2005")
    help_text = text_of(page(director_client, bled))
    assert "unless it starts with “3”, “2”, “1” (a contract's code in this game) and none of its numbers has a sign" in help_text
    assert "(“t …” for “3 …”)" in help_text
    # Starting with a code, no sign: refused, whatever else the numbers are and however separated.
    for line in ("3 1 40", "3, 1, 40", "3;1;40", "2 5 5", "1 0 0"):
        with pytest.raises(RawRowsRejected) as refused:
            save_raw_rows(bled, line)
        assert "reads both as scores and as a" in refused.value.problems[0].message, line
    assert not Hand.objects.exists()
    # A signed number makes it scores, as the help says ("1 -1 1 -1" in the day's test).
    hands = save_raw_rows(bled, "1 -1 0\n3 +5 0\n= 3 5 5\n40 0 0")
    assert [h.scores for h in hands] == [[1, -1, 0], [3, 5, 0], [3, 5, 5], [40, 0, 0]]


@pytest.mark.django_db
def test_where_no_contract_has_a_number_a_line_of_numbers_is_always_the_scores(director_client, make_tournament, english):
    # Free scoring: every hand is a row (as its quick line reads a plain row); Cego's codes are letters.
    free = table_of(make_tournament, 4, "free-scoring", "rows")
    assert "A line of numbers is always the scores." in text_of(page(director_client, free))
    assert [h.scores for h in save_raw_rows(free, "10 -5 -5 0\n3 -1 -1 -1")] == [[10, -5, -5, 0], [3, -1, -1, -1]]


@pytest.mark.django_db
def test_a_hungarian_line_of_numbers_is_told_to_name_the_contract_in_letters(make_tournament, english):
    # hungarian-tarokk.md: Három, Kettő, Egy have the codes 3, 2, 1 and no letter code of their own.
    table = table_of(make_tournament, 4, "hungarian-tarokk", "paskievics")
    with pytest.raises(RawRowsRejected) as refused:
        save_raw_rows(table, "3 1 2 4")
    assert refused.value.problems[0].message == (
        "Line 1 reads both as scores and as a Három: write the hand with its letter code (“harom …”) "
        "or the scores after “=” (“= 3 1 2 4”)."
    )


@pytest.mark.django_db
def test_a_transcribed_hand_reads_in_the_pages_language_once(director_client, four_table):
    save_raw_rows(four_table, "5 -15 5 5")
    sheet = page(director_client, four_table)  # German, the default language
    body = sheet[sheet.index('id="sheet"'):]
    assert "raw rows" not in body  # the stored note, English, is not shown
    assert text_of(body).count("von der Papierschrift übertragen") == 1
    assert Hand.objects.get().record["note"] == "raw rows"  # stored data stays as it is


# ---------------------------------------------------------------------- striking: a director's call


@pytest.mark.django_db
def test_a_scorer_is_not_offered_striking_a_hand_and_is_refused_it_by_name(director_client, four_table, english):
    scorer = scorer_client(four_table)
    assert 'value="struck"' not in page(scorer, four_table)
    assert 'value="struck"' in page(director_client, four_table)
    # the form's outcome, the line, their previews, raw rows: refused, nothing saved
    fields = post(scorer, four_table, outcome="struck", reason="Karten falsch gegeben", number=1)
    assert fields.status_code == 422 and STRIKE_REFUSED in fields.content.decode()
    line = post(scorer, four_table, quick="-- # Karten falsch gegeben", source="line", number=1)
    assert line.status_code == 422 and STRIKE_REFUSED in line.content.decode()
    for data in ({"quick": "-- # Karten falsch gegeben", "source": "line"}, {"outcome": "struck", "reason": "x", "source": "fields"}):
        preview = post(scorer, four_table, "hand_preview", **data).content.decode()
        assert STRIKE_REFUSED in preview and "This hand scores" not in preview, data
    raw = scorer.post(reverse("entry:raw_rows", args=[four_table.pk]), {"rows": "5 -15 5 5\n-- # falsch"})
    assert raw.status_code == 422 and f"Line 2: {STRIKE_REFUSED}" in raw.content.decode()
    assert not Hand.objects.exists()
    # editing a hand into a struck one: refused too
    hand = save_hand(four_table, {"dealer": four_table.dealer_of(1, 4), "outcome": "manual", "scores": [1, -1, 0, 0]})
    edit = scorer.post(reverse("entry:hand_edit", args=[hand.pk]),
                       {"dealer": "0", "quick": "-- # falsch", "source": "line", "version": "1"})
    assert edit.status_code == 422 and Hand.objects.get().record["outcome"] == "manual"
    # the director strikes it
    struck = director_client.post(reverse("entry:hand_edit", args=[hand.pk]),
                                  {"dealer": "0", "quick": "-- # falsch", "source": "line", "version": "1"})
    assert struck.status_code == 302 and Hand.objects.get().record["outcome"] == "struck"


@pytest.mark.django_db
def test_a_scorer_may_not_restore_a_struck_version(director, four_table, english):
    scorer = scorer_client(four_table)
    dealer = four_table.dealer_of(1, 4)
    hand = save_hand(four_table, {"dealer": dealer, "outcome": "struck", "note": "falsch"}, director, reason="falsch")
    save_hand(four_table, {"dealer": dealer, "outcome": "manual", "scores": [1, -1, 0, 0]}, director, hand=hand)
    history = reverse("entry:hand_history", args=[hand.pk])
    shown = scorer.get(history).content.decode()
    assert "restore this version" not in shown and "only a tournament director restores it" in shown
    old = hand.history.order_by("history_date").first()
    response = scorer.post(history, {"history_id": old.history_id}, follow=True)
    assert STRIKE_REFUSED in response.content.decode()
    assert Hand.objects.get().record["outcome"] == "manual"


# ----------------------------------------------------------------------------------- words


@pytest.mark.django_db
def test_the_sheet_calls_it_the_quick_line_everywhere(director_client, four_table, english):
    shown = page(director_client, four_table)
    assert "Quick entry" not in shown and "quick-entry" not in shown
    assert '<label for="quick">Quick line</label>' in shown
    assert "as on the quick line" in shown


@pytest.mark.django_db
def test_a_struck_hands_reason_is_shown_once(director_client, four_table, english):
    response = post(director_client, four_table, quick="-- # Karten falsch gegeben", source="line", number=1)
    assert response.status_code == 302
    assert Hand.objects.get().record == {"dealer": four_table.dealer_of(1, 4), "outcome": "struck", "note": "Karten falsch gegeben"}
    assert page(director_client, four_table).count("Karten falsch gegeben") == 1


# --------------------------------------------------------------------------------- history


@pytest.mark.django_db
def test_a_verified_rounds_history_offers_no_restore_and_says_why(director, director_client, four_table, english):
    dealer = four_table.dealer_of(1, 4)
    hand = save_hand(four_table, {"dealer": dealer, "outcome": "manual", "scores": [1, -1, 0, 0]}, director)
    save_hand(four_table, {"dealer": dealer, "outcome": "manual", "scores": [2, -2, 0, 0]}, director, hand=hand)
    history = reverse("entry:hand_history", args=[hand.pk])
    assert director_client.get(history).content.decode().count("restore this version") == 1
    verify_round(four_table.round, director)
    shown = text_of(director_client.get(history).content.decode())
    assert "restore this version" not in shown
    assert "Round 1 is verified: its hands are locked, so no earlier version can be restored." in shown
