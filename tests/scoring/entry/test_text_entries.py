"""Characters a typed text may not hold (tournaments/text.py) at the scoring pages: the private
link's confirmation name and flag comment, raw rows, a hand's note and reason, the reasons for
deleting a hand and reopening a round, the prize settings, the cup and its sub-rankings, and the
cup results import. Each is refused with a message naming the character (not a server error:
PostgreSQL refuses a null character in text), keeps what was typed where there is a form, and
writes nothing."""

import codecs
import datetime

import pytest
from django.test import Client
from django.urls import reverse

from scoring.cups import importer as cup_import
from scoring.cups.models import Cup, CupRanking, CupResult
from scoring.models import Hand, HandFlag, SheetConfirmation
from scoring.prizes.models import PrizeCategory, PrizeFund
from scoring.services import save_hand
from tournaments.models import ActionLog, Player

ZWSP, BOM, NUL = "\u200b", "\ufeff", "\x00"


def manual(table, scores, number=1):
    return save_hand(table, {"dealer": table.dealer_of(number, len(scores)), "outcome": "manual", "scores": scores})


# ------------------------------------------------------------------------------- the private link


@pytest.mark.django_db
def test_a_confirmation_name_with_a_null_character_is_refused_and_kept(four_table, english):
    manual(four_table, [1, -1, 0, 0])
    url = reverse("scoring:private_sheet", args=[four_table.token])
    players = Client()
    response = players.post(url, {"confirm": "1", "name": f"An{NUL}na"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Character 3 is a null character (U+0000), which cannot be stored as text; remove it." in page
    assert 'value="An' in page  # what was typed is in the field again
    response = players.post(url, {"confirm": "1", "name": "Anna \u202eregeB"})
    assert response.status_code == 422 and "U+202E" in response.content.decode()
    assert not SheetConfirmation.objects.exists()
    assert players.post(url, {"confirm": "1", "name": "Jože Šuštar", "sheet_version": "1"}).status_code == 302
    assert players.post(url, {"confirm": "1", "sheet_version": "1"}).status_code == 302  # the name stays optional
    assert list(SheetConfirmation.objects.order_by("pk").values_list("name", flat=True)) == ["Jože Šuštar", ""]


@pytest.mark.django_db
def test_a_flag_comment_with_a_null_character_is_refused(four_table, english):
    hand = manual(four_table, [1, -1, 0, 0])
    url = reverse("scoring:private_sheet", args=[four_table.token])
    response = Client().post(url, {"hand": hand.pk, "comment": f"Pagat{NUL} fehlt"})
    assert response.status_code == 422 and "Character 6 is a null character (U+0000)" in response.content.decode()
    assert not HandFlag.objects.exists()
    assert Client().post(url, {"hand": hand.pk, "comment": "Pagat fehlt (Šuštar)"}).status_code == 302
    assert HandFlag.objects.get().comment == "Pagat fehlt (Šuštar)"


# ------------------------------------------------------------------------------- raw rows and hands


@pytest.mark.django_db
def test_raw_rows_with_a_null_character_are_refused_by_line(director_client, four_table, english):
    url = reverse("entry:raw_rows", args=[four_table.pk])
    response = director_client.post(url, {"rows": f"5 -15 5 5\n1 -1{NUL} 0 0\nd 2 + # gut{ZWSP}\n"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Line 2, character 5 is a null character (U+0000)" in page
    assert "Line 3, character 12 is an invisible zero-width space (U+200B)" in page
    assert "5 -15 5 5" in page  # what was typed comes back
    assert not Hand.objects.exists()
    assert director_client.post(url, {"rows": "5 -15 5 5\n1\t-1\t0\t0\n"}).status_code == 302  # tabs still separate
    assert Hand.objects.count() == 2


@pytest.mark.django_db
def test_a_hand_note_or_reason_with_a_bad_character_is_refused_and_kept(director_client, four_table, english):
    url = reverse("entry:hand_create", args=[four_table.pk])
    manual_row = {"outcome": "manual", "dealer": "3", "score_0": "1", "score_1": "-1", "score_2": "0", "score_3": "0", "source": "fields"}
    response = director_client.post(url, {**manual_row, "note": "Pagat \u202egnalf"})
    page = response.content.decode()
    assert response.status_code == 422 and "holds the invisible direction character U+202E" in page
    response = director_client.post(url, {**manual_row, "note": f"ok{NUL}"})
    assert response.status_code == 422 and "Character 3 is a null character (U+0000)" in response.content.decode()
    response = director_client.post(url, {"outcome": "struck", "dealer": "3", "source": "fields", "reason": f"doppelt{NUL}"})
    assert response.status_code == 422 and "Character 8 is a null character (U+0000)" in response.content.decode()
    # The quick line carries a note after "#": checked as the note is.
    response = director_client.post(url, {"dealer": "3", "quick": f"= 1 -1 0 0 # gut{ZWSP}", "source": "line"})
    page = response.content.decode()
    assert response.status_code == 422 and "invisible zero-width space (U+200B)" in page and "= 1 -1 0 0 # gut" in page
    assert not Hand.objects.exists()
    # The preview names the refused note too.
    preview = director_client.post(reverse("entry:hand_preview", args=[four_table.pk]), {**manual_row, "note": f"ok{NUL}"})
    assert "null character (U+0000)" in preview.content.decode()
    assert director_client.post(url, {**manual_row, "note": "Šuštar gibt"}).status_code == 302
    assert Hand.objects.get().record["note"] == "Šuštar gibt"


@pytest.mark.django_db
def test_deleting_a_hand_with_a_null_character_in_the_reason_deletes_nothing(director_client, four_table, english):
    hand = manual(four_table, [1, -1, 0, 0])
    response = director_client.post(reverse("entry:hand_delete", args=[hand.pk]), {"reason": f"dop{NUL}pelt"}, follow=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Hand 1 is not deleted. The reason: Character 4 is a null character (U+0000)" in page
    assert Hand.objects.filter(pk=hand.pk).exists() and hand.history.count() == 1


@pytest.mark.django_db
def test_reopening_a_round_with_a_null_character_in_the_reason_is_refused(director_client, four_table, english):
    manual(four_table, [1, -1, 0, 0])
    rnd = four_table.round
    director_client.post(reverse("entry:verify_round", args=[rnd.pk]))
    response = director_client.post(reverse("entry:reopen_round", args=[rnd.pk]), {"reason": f"Tippfehler{NUL}"}, follow=True)
    assert response.status_code == 200
    assert "Round 1 is not reopened. The reason: Character 11 is a null character (U+0000)" in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.verified_at is not None and not ActionLog.objects.filter(action="reopened").exists()


# ------------------------------------------------------------------------------- prizes


def prize_post(**changes):
    data = {
        "fund-entry_fee": "15", "fund-payout_percent": "90", "fund-kontra_amount": "0.20", "fund-currency": "€",
        "cat-TOTAL_FORMS": "1", "cat-INITIAL_FORMS": "0", "cat-MIN_NUM_FORMS": "0", "cat-MAX_NUM_FORMS": "1000",
        "cat-0-order": "1", "cat-0-kind": "places", "cat-0-name": "Hauptpreise", "cat-0-places": "3",
        "cat-0-shares": "50 30 20", "cat-0-amount": "", "cat-0-description": "Pokal", "cat-0-club": "", "seen": "0",
    }
    return {**data, **changes}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("cat-0-name", "Haupt\u202epreise", "holds the invisible direction character U+202E"),
        ("cat-0-name", f"Haupt{ZWSP}preise", "Character 6 is an invisible zero-width space (U+200B)"),
        ("cat-0-description", f"Pokal{NUL}", "Character 6 is a null character (U+0000)"),
        ("fund-currency", f"{BOM}€", "Character 1 is an invisible byte-order mark (U+FEFF)"),
    ],
)
def test_prize_settings_with_a_bad_name_are_refused_and_kept(make_tournament, director_client, field, value, message, english):
    t = make_tournament(players=4)
    response = director_client.post(reverse("prizes_director:settings", args=[t.pk]), prize_post(**{field: value}))
    page = response.content.decode()
    assert response.status_code == 422 and message in page
    assert 'value="50 30 20"' in page  # the rest of what was typed stays
    assert not PrizeCategory.objects.exists() and not PrizeFund.objects.exists()


@pytest.mark.django_db
def test_accented_prize_names_pass(make_tournament, director_client):
    t = make_tournament(players=4)
    response = director_client.post(reverse("prizes_director:settings", args=[t.pk]), prize_post(**{"cat-0-name": "Nagrada Jože Šuštar"}))
    assert response.status_code == 302 and PrizeCategory.objects.get().name == "Nagrada Jože Šuštar"


# ------------------------------------------------------------------------------- cups


def cup_post(name="Tiroler Cup 2027", ranking="Damen"):
    return {"name": name, "ruleset": "tiroler-tarockcup", "method": "tirol", "counting": "all", "final_top": "", "final_min_played": "",
            "ranking-TOTAL_FORMS": "1", "ranking-INITIAL_FORMS": "0", "ranking-MIN_NUM_FORMS": "0", "ranking-MAX_NUM_FORMS": "1000",
            "ranking-0-name": ranking, "ranking-0-club": ""}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (cup_post(name="Tiroler \u202eCup"), "holds the invisible direction character U+202E"),
        (cup_post(name=f"Tiroler{ZWSP} Cup"), "Character 8 is an invisible zero-width space (U+200B)"),
        (cup_post(name=f"Tiroler Cup{NUL}"), "Character 12 is a null character (U+0000)"),
        (cup_post(ranking=f"{BOM}Damen"), "Character 1 is an invisible byte-order mark (U+FEFF)"),
        (cup_post(ranking="Da\u2066men"), "holds the invisible direction character U+2066"),
    ],
)
def test_a_cup_or_sub_ranking_with_a_bad_name_is_refused_and_kept(director_client, data, message, english):
    response = director_client.post(reverse("cups_manage:create"), data)
    page = response.content.decode()
    assert response.status_code == 422 and message in page
    assert 'value="all"' in page  # the rest of what was typed stays
    assert not Cup.objects.exists() and not CupRanking.objects.exists()


@pytest.mark.django_db
def test_an_accented_cup_name_passes(director_client):
    response = director_client.post(reverse("cups_manage:create"), cup_post(name="Pokal Šuštar-Žagar", ranking="Ženske"))
    assert response.status_code == 302
    assert Cup.objects.get().name == "Pokal Šuštar-Žagar" and CupRanking.objects.get().name == "Ženske"


@pytest.mark.django_db
def test_cup_results_with_a_leading_mark_are_read_and_a_marked_name_inside_is_refused_by_row(english):
    cup = Cup.objects.create(name="Cup", ruleset="tiroler-tarockcup", method="tirol", counting="all")
    agathe = Player.objects.create(name="Agathe Merz", club="Lienz")
    good = codecs.BOM_UTF8 + "Turnier;Datum;Rang;Name;Verein\nCup Imst;2025-10-04;1;Agathe Merz;Lienz\nCup Imst;2025-10-04;2;Jože Šuštar;Bled\n".encode()
    preview = cup_import.parse_results(cup, "ergebnisse.csv", good)
    assert not preview.problems and preview.result_count == 2
    assert [p.player for p in preview.accepted[0].rows] == [agathe, None]  # the register's Agathe, not a new one
    bad = (
        "Turnier;Datum;Rang;Name;Verein\n"
        f"Cup Lienz;2025-11-08;1;Agathe{ZWSP} Merz;Lienz\n"
        f"Cup Lienz;2025-11-08;2;Jože Šuštar;{BOM}Bled\n"
        f"Cup{ZWSP} Telfs;2025-12-06;1;Hofer-Mair;Telfs\n"
    ).encode()
    preview = cup_import.parse_results(cup, "ergebnisse.csv", bad)
    messages = [(p.line, p.message) for p in preview.problems]
    assert (2, "Name: Character 7 is an invisible zero-width space (U+200B), which makes a name look like another; remove it.") in messages
    assert (3, "Town or club: Character 1 is an invisible byte-order mark (U+FEFF), which makes a name look like another; remove it.") in messages
    assert (4, "Tournament: Character 4 is an invisible zero-width space (U+200B), which makes a name look like another; remove it.") in messages
    assert not preview.ok
    assert (Player.objects.count(), CupResult.objects.count()) == (1, 0)


@pytest.mark.django_db
def test_a_stored_name_with_an_invisible_character_is_still_matched_by_the_cup_import():
    cup = Cup.objects.create(name="Cup", ruleset="tiroler-tarockcup", method="tirol", counting="all")
    marked = Player.objects.create(name=f"{BOM}Agathe Merz", club="Lienz")  # stored before the checks
    content = "Turnier;Datum;Rang;Name;Verein\nCup Imst;2025-10-04;1;Agathe Merz;Lienz\n".encode()
    preview = cup_import.parse_results(cup, "ergebnisse.csv", content)
    assert preview.accepted[0].rows[0].player == marked
    assert cup_import.import_results(cup, preview) == (1, 0)
    assert CupResult.objects.get().date == datetime.date(2025, 10, 4)
