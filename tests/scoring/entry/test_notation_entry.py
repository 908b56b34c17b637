"""The quick-entry line read on the server: what is saved is what the line says.

The line is parsed by the tournament's ruleset (``variants/notation.py``); the form's fields only
mirror it. Which of the two the scorer used last (``source``) is what counts, so a stale field can
neither change nor block a typed line, and a refused line keeps what was typed.
"""

import re
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.entry.raw_rows import RawRowsRejected, save_raw_rows
from scoring.models import Hand
from scoring.services import save_hand
from tournaments import services


def post(client, table, url_name="hand_create", **fields):
    data = {"outcome": "played", "dealer": "3", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse(f"entry:{url_name}", args=[table.pk]), data)


def names(table):
    return [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]


@pytest.mark.django_db
def test_a_typed_line_is_saved_as_read(director_client, four_table):
    # koenigrufen.md §1: Dreier 5 + announced Pagat 2 = 7 per opponent; dealer seat 4, Vorhand seat 1.
    response = post(director_client, four_table, quick="d 2 + pag!", source="line")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.scores == [-7, 21, -7, -7]
    assert hand.record == {
        "dealer": 3, "contract": "dreier", "declarer": 1, "won": True,
        "bonuses": [{"bonus": "pagat", "team": "declarer", "announced": True, "made": True}],
    }


@pytest.mark.django_db
def test_the_line_wins_over_stale_fields_and_their_errors(director_client, four_table):
    """The fields showed an earlier reading; what the scorer typed last is the line."""
    response = post(
        director_client, four_table, quick="r 1 3 -", source="line",
        contract="dreier", declarer=2, won=1, bonus_pagat="d:a:1", points_0="999",
    )
    assert response.status_code == 302
    # Rufer by Vorhand (seat 1) with seat 3, lost: −1 each, 2 against 2.
    assert Hand.objects.get().scores == [-1, 1, -1, 1]


@pytest.mark.django_db
def test_the_fields_win_over_an_old_line(director_client, four_table):
    response = post(director_client, four_table, quick="d 2 + pag!", source="fields", contract="piccolo", declarer=2, won=1)
    assert response.status_code == 302
    assert Hand.objects.get().record["contract"] == "piccolo"


@pytest.mark.django_db
def test_without_the_script_a_typed_line_counts(director_client, four_table):
    post(director_client, four_table, quick="p 3 +")  # no "source": the browser ran no script
    assert Hand.objects.get().scores == [-2, -2, 6, -2]


@pytest.mark.django_db
def test_a_refused_line_names_the_token_keeps_the_line_and_saves_nothing(director_client, four_table, english):
    response = post(director_client, four_table, quick="p 3 + pag", source="line")
    assert response.status_code == 422
    assert not Hand.objects.exists()
    page = response.content.decode()
    assert "“pag”: Pagat is not allowed in a Piccolo." in page
    assert re.search(r'<input[^>]*name="quick"[^>]*value="p 3 \+ pag"', page)


@pytest.mark.django_db
def test_seats_by_name_and_ambiguous_names(director_client, make_tournament, english):
    t = make_tournament(players=4)
    for reg, name in zip(t.registrations.order_by("start_number"), ["Anna Berger", "Anton Bauer", "Maria Egger", "Hans Falk"]):
        reg.player.name = name
        reg.player.save()
    table = services.draw_next_round(t, seed=7).tables.get()
    seated = names(table)
    vorhand, other = seated[0], seated[2]
    refused = post(director_client, table, quick="r 1 a +", source="line")  # one letter: not a name
    assert "“a” is neither a code" in refused.content.decode()
    response = post(director_client, table, quick=f"r {vorhand.split()[1][:4]} {other.split()[1]} +", source="line")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.record["declarer"], hand.record["partner"]) == (0, 2)


@pytest.mark.django_db
def test_a_struck_hand_by_line_keeps_its_reason(director_client, four_table, english):
    refused = post(director_client, four_table, quick="--", source="line")
    assert refused.status_code == 422 and "Say why the hand is struck." in refused.content.decode()
    post(director_client, four_table, quick="-- # Karten falsch gegeben", source="line")
    hand = Hand.objects.get()
    assert hand.record == {"dealer": 3, "outcome": "struck", "note": "Karten falsch gegeben"}
    assert hand.history.first().history_change_reason == "Karten falsch gegeben"


@pytest.mark.django_db
def test_preview_shows_words_notation_row_and_the_fields_for_the_page(director_client, four_table, english):
    response = post(director_client, four_table, "hand_preview", quick="D 2 + PAG!", source="line")
    ctx = response.context
    assert ctx["valid"] and ctx["scores"] == [-7, 21, -7, -7]
    assert ctx["line"] == "d 2 + pag!"
    assert ctx["label"].startswith("Dreier · ") and "Pagat announced" in ctx["label"]
    state = ctx["state"]
    assert state["source"] == "line" and state["typed"] == "D 2 + PAG!"
    assert state["fields"]["contract"] == "dreier" and state["fields"]["declarer"] == "1"
    assert state["fields"]["won"] == "1" and state["fields"]["bonus_pagat"] == "d:a:1"
    assert 'id="preview-state"' in response.content.decode()
    # From the fields, the page gets the line to show.
    response = post(director_client, four_table, "hand_preview", quick="", source="fields", contract="rufer", declarer=0, partner=2, won=0)
    assert response.context["state"] == {"source": "fields", "typed": "", "line": "r 1 3 -", "fields": {}}
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_preview_of_a_line_the_ruleset_refuses_still_shows_what_was_read(director_client, four_table, english):
    response = post(director_client, four_table, "hand_preview", quick="d 2", source="line")
    ctx = response.context
    assert not ctx["valid"]
    assert "Say whether the Dreier was won or lost." in ctx["errors"]
    assert ctx["state"]["fields"]["contract"] == "dreier"
    response = post(director_client, four_table, "hand_preview", quick="d 2 + zz", source="line")
    assert response.context["state"]["fields"] == {}  # nothing read: the page clears the fields


@pytest.mark.django_db
def test_editing_starts_from_the_stored_hand_in_notation(director_client, four_table):
    hand = save_hand(four_table, {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True})
    response = director_client.get(reverse("entry:hand_edit", args=[hand.pk]))
    assert response.context["form"]["quick"].value() == "d 2 +"
    director_client.post(
        reverse("entry:hand_edit", args=[hand.pk]),
        {"dealer": "3", "outcome": "played", "quick": "d 2 - /pag", "source": "line", "version": "1"},
    )
    hand.refresh_from_db()
    # Dreier lost −5 and the opponents' silent Pagat −1: −6 per opponent.
    assert hand.scores == [6, -18, 6, 6]
    history = director_client.get(reverse("entry:hand_history", args=[hand.pk])).content.decode()
    assert '<code class="notation">d 2 - /pag</code>' in history and '<code class="notation">d 2 +</code>' in history


@pytest.mark.django_db
def test_without_the_script_an_edit_in_the_fields_is_not_overruled_by_the_shown_line(director_client, four_table, english):
    """The edit page shows the stored hand's line; a scorer without the page's script who changes
    the fields (and not the line) gets what the fields say, also after a refused first try."""
    hand = save_hand(four_table, {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True})
    url = reverse("entry:hand_edit", args=[hand.pk])
    shown = director_client.get(url).context["form"]
    assert shown["quick"].value() == "d 2 +" and shown["quick_was"].value() == "d 2 +"
    fields = {"dealer": "3", "outcome": "played", "quick": "d 2 +", "quick_was": "d 2 +", "version": "1",
              "contract": "dreier", "declarer": "1", "won": "0"}
    director_client.post(url, fields)
    hand.refresh_from_db()
    assert hand.scores == [5, -15, 5, 5]  # the Dreier lost, as the fields now say (koenigrufen.md §1)
    # A refused line, then the scorer corrects the fields: the page now shows the typed line as
    # the one it showed, so the unchanged line no longer counts.
    refused = director_client.post(url, {**fields, "version": "2", "quick": "d 2 + zz"})
    assert refused.status_code == 422
    assert refused.context["form"]["quick_was"].value() == "d 2 + zz"
    director_client.post(url, {**fields, "version": "2", "quick": "d 2 + zz", "quick_was": "d 2 + zz", "won": "1"})
    hand.refresh_from_db()
    assert hand.scores == [-5, 15, -5, -5]


@pytest.mark.django_db
def test_the_sheet_shows_each_hand_in_notation(director_client, client, four_table):
    save_hand(four_table, {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2, "won": True})
    sheet = director_client.get(four_table.get_absolute_url()).content.decode()
    assert '<code class="notation">r 1 3 +</code>' in sheet
    assert 'title="r 1 3 +"' in client.get(four_table.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_placeholder_and_card_follow_the_tournaments_ruleset(director_client, make_tournament):
    t = make_tournament(players=3, ruleset="tarok-bled", edition="2005", rounds=4, hands_per_round=21)
    table = services.draw_next_round(t, seed=5).tables.get()
    page = director_client.get(table.get_absolute_url()).content.decode()
    assert 'placeholder="z. B. d 2 45 k m3"' in page  # German, the default language
    assert "<code>k2</code>" in page and "<code>x</code>" not in page  # Klop kontra, no conceding in Bled


# ------------------------------------------------------------------------------- raw rows


@pytest.mark.django_db
def test_raw_rows_take_notation_lines_beside_numbers(four_table):
    first = four_table.dealer_of(1, 4)
    vorhand = (first + 2) % 4  # of hand 2, dealt by the seat after the first dealer
    partner = (vorhand + 2) % 4
    text = f"1: 5 -15 5 5\nr {vorhand + 1} {partner + 1} +\n3. d 4 + pag! # angesagt"
    hands = save_raw_rows(four_table, text)
    assert [h.record.get("outcome", "played") for h in hands] == ["manual", "played", "played"]
    assert [h.record["dealer"] for h in hands] == [first, (first + 1) % 4, (first + 2) % 4]
    # koenigrufen.md §1: Rufer won, 2 against 2: +1 / −1; Dreier 5 + announced Pagat 2 = 7 × 3 for seat 4.
    assert hands[1].scores == [1 if s in (vorhand, partner) else -1 for s in range(4)]
    assert hands[2].scores == [-7, -7, -7, 21]
    assert hands[2].record["note"] == "angesagt"


@pytest.mark.django_db
def test_raw_rows_name_each_bad_line_and_save_nothing(four_table, english):
    text = "5 -15 5 5\np 2 + pag\n7: d 2 +\n0 0 0 0"
    with pytest.raises(RawRowsRejected) as rejected:
        save_raw_rows(four_table, text)
    assert [(p.line, p.message) for p in rejected.value.problems] == [
        (2, "Line 2: “pag”: Pagat is not allowed in a Piccolo."),
        (3, "Line 3 is numbered 7, but it would be hand 3 of this table."),
    ]
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_raw_rows_read_a_digit_contract_code_as_a_hand_and_never_guess_a_line_of_numbers(four_table, make_tournament, english):
    first = four_table.dealer_of(1, 4)
    vorhand = (first + 1) % 4
    # koenigrufen.md §4 contract table: Sechserdreier 4, won by the Vorhand: 4 from each opponent;
    # then a score row that starts with 6 is still scores (its other words are no hand).
    hands = save_raw_rows(four_table, f"6 {vorhand + 1} +\n6 -2 -2 -2")
    assert hands[0].record["contract"] == "sechserdreier"
    assert hands[0].scores == [12 if s == vorhand else -4 for s in range(4)]
    assert hands[1].record["outcome"] == "manual" and hands[1].scores == [6, -2, -2, -2]
    # tarok-bled.md §3: "3 1 40" is a Trojka in Bled's digit codes and a row of three numbers.
    t = make_tournament(players=3, ruleset="tarok-bled", edition="2005")
    bled = services.draw_next_round(t, seed=1).tables.get()
    with pytest.raises(RawRowsRejected) as rejected:
        save_raw_rows(bled, "3 1 40")
    assert [p.message for p in rejected.value.problems] == [
        "Line 1 reads both as scores and as a Trojka: write the hand with its letter code (“t …”) "
        "or the scores after “=” (“= 3 1 40”)."
    ]
    assert not Hand.objects.filter(table=bled).exists()
    save_raw_rows(bled, "= 3 1 40")
    assert Hand.objects.get(table=bled).scores == [3, 1, 40]


@pytest.mark.django_db
def test_running_totals_are_numbers_only(four_table, english):
    with pytest.raises(RawRowsRejected) as rejected:
        save_raw_rows(four_table, "5 -15 5 5\nd 2 +", cumulative=True)
    assert [p.line for p in rejected.value.problems] == [2]
    assert "running totals are numbers only" in rejected.value.problems[0].message


# ----------------------------------------------------------------------- the card, printed


@pytest.mark.django_db
def test_rules_page_and_one_page_pdf_show_the_notation_card(client, make_tournament, english):
    t = make_tournament(players=4)
    page = client.get(reverse("scoring:rules", args=[t.pk])).content.decode()
    assert "<code>d 2 + pag!</code>" in page and "<code>sd</code>" in page and "Solodreier" in page
    response = client.get(reverse("exports:notation_card_pdf", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "t 30 20 12/1 7/2" in text and "Renonce" in text


@pytest.mark.django_db
def test_refusals_are_translated(director_client, four_table):
    with translation.override("de"):
        response = post(director_client, four_table, quick="p 3 + pag", source="line")
    assert "„pag“: Pagat ist in einem Piccolo nicht erlaubt." in response.content.decode()


@pytest.mark.parametrize("key", ["tiroler-tarockcup", "wiener-tarockcup", "cego-ichenheim", "tarok-bled"])
def test_the_cards_manual_rows_fit_the_ruleset_and_read_back(key):
    """The card's manual-row examples are the ruleset's own: its table size, its named contract."""
    from scoring.exporters.notation_card import notation_card
    from variants.registry import get_ruleset

    rs = get_ruleset(key)
    card = notation_card(rs)
    size = rs.table_sizes[0]
    assert len(rs.parse_hand(card.manual, size, 0)["scores"]) == size
    if rs.uses_history:  # Bled: a Klop written as numbers still hands out radelci (tarok-bled.md §5)
        named = rs.parse_hand(card.manual_named, size, 0)
        assert named["contract"] == "klop" and rs.manual_awards(named)
    else:
        assert card.manual_named == ""
