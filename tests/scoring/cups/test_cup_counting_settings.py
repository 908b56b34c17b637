"""A cup's counting settings (../shared/rules/tournament-formats.md §4 "Revised 2026-11-26",
../shared/rules/koenigrufen-raiffeisen.md §6.9) from the settings page to the cup table, its
page and its exports: the tournaments planned, the tie-break order, the Wiener Tarockcup final's
negative ranks with the final named, and the Ö-Finale table. Numbers by hand from the rule text."""

import datetime
import io
from types import SimpleNamespace

import openpyxl
import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.cups import table as cup_table_module
from scoring.cups.exports import cup_poster_pdf, cup_workbook
from scoring.cups.models import Cup, CupAction, CupResult
from scoring.cups.table import cup_standings
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def cup_data(**more):
    """The settings page's POST with no sub-ranking."""
    data = {"name": "Wiener Tarockcup 2018/19", "ruleset": "tiroler-tarockcup", "method": "wtc_fixpunkte", "counting": "half",
            "final_top": "", "final_min_played": "", "planned": "", "cup_tiebreak": "best_results", "final_tournament": "",
            "oe_finale_table": "", "ranking-TOTAL_FORMS": "0", "ranking-INITIAL_FORMS": "0", "ranking-MIN_NUM_FORMS": "0",
            "ranking-MAX_NUM_FORMS": "1000"}
    data.update(more)
    return data


def imported(cup, event, day, ranks, size=None):
    """Imported results of one event: ``ranks`` ``{player: rank}``."""
    for player, rank in ranks.items():
        CupResult.objects.create(cup=cup, event=event, date=datetime.date(2018, 9, day), player=player, rank=rank,
                                 field_size=size or len(ranks))


@pytest.fixture
def players(db):
    return {n: Player.objects.create(name=n, club="Wien") for n in ("Anna", "Bert", "Carl", "Dora")}


# -- the settings page -------------------------------------------------------------------------


def test_the_settings_page_saves_the_new_settings_logs_them_and_bumps_the_version(director_client, make_tournament, english):
    cup = Cup.objects.create(name="Wiener Tarockcup 2018/19", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", counting="half")
    final = make_tournament(players=0, name="Finale", cup=cup)
    other = make_tournament(players=0, name="Fremd")  # not of the cup
    url = reverse("cups_manage:edit", args=[cup.pk])
    page = director_client.get(url).content.decode()
    for label in ("Tournaments planned", "Ties on the cup total", "Final scores negative ranks", "The cup&#x27;s final",
                  "Ö-Finale Vorrundenpunkte table", "OÖ/WTC Fixpunkte"):
        assert label in page, label
    assert "The best half” counts from this number" in page  # a help text

    refused = director_client.post(url, cup_data(final_tournament=str(other.pk)))
    assert refused.status_code == 422  # only the cup's own tournaments
    assert director_client.post(url, cup_data(planned="0")).status_code == 422

    version = Cup.objects.get().version
    response = director_client.post(url, cup_data(planned="12", cup_tiebreak="more_results_first", wtc_final_negative="on",
                                                  final_tournament=str(final.pk), oe_finale_table="60"))
    assert response.status_code == 302
    cup.refresh_from_db()
    assert (cup.planned, cup.cup_tiebreak, cup.wtc_final_negative, cup.final_tournament, cup.oe_finale_table) == (
        12, "more_results_first", True, final, "60")
    assert cup.version == version + 1
    action = CupAction.objects.get(action=CupAction.Action.EDITED)
    for part in ("Tournaments planned: – → 12", "Ties on the cup total:", "The cup's final: – → Finale",
                 "Ö-Finale Vorrundenpunkte table: – → 60 ranks"):
        assert part in action.detail, (part, action.detail)


def test_a_new_cup_takes_the_defaults(director_client, english):
    data = cup_data(name="Neu")
    del data["cup_tiebreak"]  # a script posting the old fields only
    assert director_client.post(reverse("cups_manage:create"), data).status_code == 302
    cup = Cup.objects.get(name="Neu")
    assert (cup.planned, cup.cup_tiebreak, cup.wtc_final_negative, cup.final_tournament, cup.oe_finale_table) == (
        None, "best_results", False, None, "")


# -- the cup table and its page ----------------------------------------------------------------


def test_the_page_says_the_best_half_of_the_planned_tournaments_and_the_rules(client, players, english):
    cup = Cup.objects.create(name="Cup", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", counting="half", planned=12,
                             oe_finale_table="40")
    for day in range(1, 6):  # 5 held of 12 planned: the best 6 count, so all 5 of Anna's
        imported(cup, f"Turnier {day}", day, {players["Anna"]: 1, players["Bert"]: 2})
    page = client.get(reverse("cups:table", args=[cup.pk])).content.decode()
    assert "the best half of the 12 planned tournaments counts: 6 results" in page
    assert "5 tournaments held" in page
    assert "Level totals are separated by the best counted result, then the second best, and so on; then more counted results" in page
    assert "the table of 40 ranks" in page
    assert "Ranks above 50" not in page  # no negative final
    anna = cup_standings(cup).rows[0]
    assert (anna.player.name, len(anna.counted), anna.total) == ("Anna", 5, 5 * 223)

    cup.planned, cup.cup_tiebreak, cup.oe_finale_table = None, "more_results_first", ""
    cup.save()
    cup_table_module.touch_cup(cup.pk)
    page = client.get(reverse("cups:table", args=[cup.pk])).content.decode()
    assert "the best half counts: 3 results" in page  # 5 held: floor(6/2) = 3
    assert "Level totals are separated by more counted results, then the best single result, then the latest tournament." in page
    assert "Vorrundenpunkte" not in page
    assert cup_standings(cup).rows[0].total == 3 * 223


def test_the_cups_tie_break_order_orders_the_table(players):
    # §4's example from imported results, WTC Fixpunkte: A 1st (223) and 4th (168) = 391;
    # B 2nd (198), 10th (117) and 18th (76) = 391.
    cup = Cup.objects.create(name="Cup", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", counting="all")
    a, b = players["Anna"], players["Bert"]
    imported(cup, "Eins", 1, {a: 1, b: 2}, size=40)
    imported(cup, "Zwei", 2, {a: 4, b: 10}, size=40)
    imported(cup, "Drei", 3, {b: 18}, size=40)
    assert [(r.player.name, r.total, r.tiebreak) for r in cup_standings(cup).rows] == [("Anna", 391, ""), ("Bert", 391, "best")]
    cup.cup_tiebreak = "more_results_first"
    assert [(r.player.name, r.total, r.tiebreak) for r in cup_standings(cup).rows] == [("Bert", 391, ""), ("Anna", 391, "counted")]


# -- the Wiener Tarockcup final to 2019/20 -----------------------------------------------------


@pytest.fixture
def wtc_final(players, monkeypatch):
    """A WTC Fixpunkte cup (every result counts, the best 3 go to the final) with one imported
    event — Anna 1st (223), Bert 2nd (198), Carl 3rd (180), Dora 4th (168) — and its final, a
    tournament of 70: Anna 2nd, Bert 51st, Dora 60th, 67 others; Carl, qualified, stays away.
    The final's standings are given as they would be computed (every rank distinct)."""
    cup = Cup.objects.create(name="WTC 2018/19", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", counting="all", final_top=3,
                             wtc_final_negative=True)
    imported(cup, "Vorrunde", 1, {players["Anna"]: 1, players["Bert"]: 2, players["Carl"]: 3, players["Dora"]: 4})
    final = Tournament.objects.create(name="Finale", date=datetime.date(2019, 5, 1), ruleset="tiroler-tarockcup", edition="2019/20", cup=cup)
    others = [Player.objects.create(name=f"Spieler {i:02d}") for i in range(67)]
    ranks = {players["Anna"]: 2, players["Bert"]: 51, players["Dora"]: 60}
    free = iter(r for r in range(1, 71) if r not in ranks.values())
    ranks.update({p: next(free) for p in others})
    regs = Registration.objects.bulk_create(
        Registration(tournament=final, player=p, start_number=n) for n, p in enumerate(ranks, start=1)
    )
    rows = [SimpleNamespace(entry=SimpleNamespace(key=reg.pk, total=0), rank=ranks[reg.player]) for reg in regs]
    standings = SimpleNamespace(final=True, rows=sorted(rows, key=lambda r: r.rank))
    monkeypatch.setattr(cup_table_module, "cached_standings", lambda t: standings)
    cup.final_tournament = final
    cup.save()
    return cup


def by_name(cup):
    return {r.player.name: r for r in cup_standings(cup).rows}


def test_the_final_scores_negative_ranks_and_an_absent_qualifier(wtc_final):
    rows = by_name(wtc_final)
    final = lambda row: next(r for r in row.results if r.key == f"t{wtc_final.final_tournament_id}")  # noqa: E731
    # Anna 2nd: 198; Bert 51st: −(51 − 50) = −1; Dora 60th: −(60 − 50) = −10; Carl, a qualifier
    # (3rd without the final) absent: −(70 − 49) = −21.
    assert {n: (final(rows[n]).points, final(rows[n]).absent) for n in ("Anna", "Bert", "Carl", "Dora")} == {
        "Anna": (198, False), "Bert": (-1, False), "Carl": (-21, True), "Dora": (-10, False),
    }
    assert {n: rows[n].total for n in ("Anna", "Bert", "Carl", "Dora")} == {
        "Anna": 223 + 198, "Bert": 198 - 1, "Carl": 180 - 21, "Dora": 168 - 10,
    }
    assert rows["Carl"].played == 1  # the final he stayed away from is not played
    # The qualifiers are reckoned without the final: Anna, Bert, Carl.
    assert [r.player.name for r in cup_standings(wtc_final).qualified] == ["Anna", "Bert", "Carl"]
    # A rank-1 player of the final (not in the season before) gets the Fixpunkte, 223.
    assert rows["Spieler 00"].total == 223


def test_without_the_option_the_final_is_a_tournament_like_any_other(wtc_final):
    wtc_final.wtc_final_negative = False
    rows = by_name(wtc_final)
    # Bert 51st and Dora 60th: 0 (Fixpunkte end at rank 50); Carl has no result in the final.
    assert {n: rows[n].total for n in ("Anna", "Bert", "Carl", "Dora")} == {"Anna": 421, "Bert": 198, "Carl": 180, "Dora": 168}
    assert rows["Carl"].played == 1 and len(rows["Carl"].results) == 1


def test_the_page_and_exports_say_the_final_scores_negative(wtc_final, client, english):
    page = client.get(reverse("cups:table", args=[wtc_final.pk])).content.decode()
    assert "The final (Finale) scores ranks 1–50 like any tournament, ranks from 51 on −(rank − 50)" in page
    assert "qualified for the final and did not play it" in page  # Carl's −21
    player = client.get(reverse("cups:player", args=[wtc_final.pk, Player.objects.get(name="Carl").pk])).content.decode()
    assert "qualified, did not play" in player

    wb = openpyxl.load_workbook(io.BytesIO(cup_workbook(wtc_final)))
    ws = wb["Cup"]
    heads = [c.value for c in ws[1]]
    assert "The final (Finale)" in ws.cell(1, heads.index("Total") + 1).comment.text
    assert "best counted result, then the second best" in ws.cell(1, heads.index("Tie-break") + 1).comment.text
    carl = next(r for r in wb["Results"].iter_rows(values_only=True) if r[4] == "Carl" and r[0] == "Finale")
    assert carl[2:4] == ("absent", 70) and carl[6] == -21

    text = PdfReader(io.BytesIO(cup_poster_pdf(wtc_final))).pages[0].extract_text()
    assert "The final (Finale)" in " ".join(text.split())


def test_a_final_named_but_not_yet_held(players, make_tournament, client, english):
    cup = Cup.objects.create(name="WTC", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", counting="all", final_top=2,
                             wtc_final_negative=True)
    imported(cup, "Vorrunde", 1, {players["Anna"]: 1, players["Bert"]: 2, players["Carl"]: 3})
    cup.final_tournament = make_tournament(players=0, name="Finale", cup=cup)
    cup.save()
    rows = by_name(cup)  # no standings yet: nobody absent, nothing negative
    assert {n: rows[n].total for n in rows} == {"Anna": 223, "Bert": 198, "Carl": 180}
    assert [r.player.name for r in cup_standings(cup).qualified] == ["Anna", "Bert"]
    page = client.get(reverse("cups:table", args=[cup.pk])).content.decode()
    assert "The final (Finale) scores" in page
