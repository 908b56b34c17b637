"""An archive written before scoring/ was split into apps by purpose (the cups, prizes and export
jobs in apps of their own, the archive a package above them) restores with today's code: the same
standings, its prize fund and prize categories (a group's members too), and it joins its cup where
this site has it.

``before_the_layout_move.tarock.json.gz`` is the Tiroler Tarockcup demo tournament (``manage.py
build_demo``, 22 players, 3 rounds of five tables, 264 hands) with one more prize category, "Beste
Dame" (a group of the ten ladies of the demo cup's sub-ranking), written by ``manage.py
export_tournament`` of the program as it was just before the move. It is in the demo cup
"Tiroler Tarockcup 2026/27 – Demo"; its roles are of the users "director" and "scorer1".

The numbers below are read from the archive's content, not from a restore: a player's total is
the sum of his seats' round scores (``seats[].score``, which are the sums of the hands' scores at
his position); the prize money is 22 entries × 20 € × 90 % = 396.00 €, shared 35 25 18 12 10 %
over the first five places.
"""

from decimal import Decimal as D
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from archive.backup import restore, summarize
from scoring.cups.models import Cup, CupAction
from scoring.models import Hand
from scoring.prizes.award import prize_list
from scoring.prizes.models import PrizeCategory
from scoring.standings import compute_standings

ARCHIVE = Path(__file__).parent / "before_the_layout_move.tarock.json.gz"
CUP = "Tiroler Tarockcup 2026/27 – Demo"
# The ten members of the "Beste Dame" group, as the archive's prize_members name them.
LADIES = {
    "Barbara Pfurtscheller", "Elisabeth Haslwanter", "Gertraud Auer", "Ingrid Praxmarer", "Katharina Thaler",
    "Magdalena Steixner", "Notburga Holzknecht", "Rosa Kometer", "Theresia Kathrein", "Walburga Falkner",
}


@pytest.fixture
def content():
    return ARCHIVE.read_bytes()


@pytest.mark.django_db
def test_it_restores_with_the_standings_it_was_written_with(content, english):
    summary = summarize(content)
    assert (summary.players, summary.rounds, summary.planned_rounds, summary.hands, summary.deleted_hands) == (22, 3, 3, 264, 0)
    restored = restore(content)
    t = restored.tournament
    assert (t.name, t.ruleset, t.edition, str(t.date)) == ("Tiroler Tarockcup – Demo Hall in Tirol", "tiroler-tarockcup", "2019/20", "2026-10-17")
    assert Hand.objects.filter(table__round__tournament=t).count() == 264
    # This database has neither of the archive's users: their roles are left out, the actor kept by name.
    assert restored.summary.skipped_roles == (("director", "organiser"), ("scorer1", "scorer"))
    assert restored.summary.unknown_users == ("director",)
    rows = compute_standings(t).rows
    assert [(r.rank, r.entry.name, r.entry.club, list(r.entry.rounds), r.total) for r in rows[:3]] == [
        (1, "Hannes Schwaighofer", "Kufstein", [48, 30, 12], 90),
        (2, "Otto Waldner", "Mayrhofen", [17, 16, 21], 54),
        (3, "Sebastian Unterberger", "Jenbach", [-29, 33, 38], 42),
    ]
    assert (rows[-1].rank, rows[-1].entry.name, rows[-1].total) == (22, "Johann Stöckl", -79)


@pytest.mark.django_db
def test_its_prize_fund_and_categories_come_back_and_award_as_before(content):
    t = restore(content).tournament
    fund = t.prize_fund
    assert (fund.entry_fee, fund.payout_percent, fund.kontra_amount, fund.currency) == (D("20.00"), D("90.00"), D("0.50"), "€")
    categories = list(PrizeCategory.objects.filter(tournament=t).order_by("order"))
    assert [(c.order, c.kind, c.name, c.places, c.shares, c.amount, c.description) for c in categories] == [
        (1, "places", "Hauptpreise", 5, "35 25 18 12 10", None, "Pokal"),
        (2, "best_hand", "Bestes Spiel", 1, "", D("10.00"), ""),
        (3, "last", "Mauskönig", 1, "", None, "Trostpreis"),
        (4, "group", "Beste Dame", 1, "", D("15.00"), "Blumen"),
    ]
    assert {m.player.name for m in categories[3].members.select_related("player")} == LADIES
    prizes = prize_list(t)
    assert (prizes.entries, prizes.prize_money) == (22, D("396.00"))
    assert [(a.category, a.place, a.names, a.amount) for a in prizes.awards] == [
        ("Hauptpreise", "1", ["Hannes Schwaighofer"], D("138.60")),
        ("Hauptpreise", "2", ["Otto Waldner"], D("99.00")),
        ("Hauptpreise", "3", ["Sebastian Unterberger"], D("71.28")),
        ("Hauptpreise", "4", ["Christian Gstrein"], D("47.52")),
        ("Hauptpreise", "5", ["Notburga Holzknecht"], D("39.60")),
        # The best lady has a place prize already: the next one, 20 points against 21.
        ("Beste Dame", "1", ["Walburga Falkner"], D("15.00")),
        # Round 1, table 1, hand 11: his Farbensolo, +42, the highest score of a hand.
        ("Bestes Spiel", "", ["Hannes Schwaighofer"], D("10.00")),
        ("Mauskönig", "22", ["Johann Stöckl"], None),
    ]
    assert prizes.paid == D("421.00")  # 396 + 15 + 10
    assert prizes.kontras == 0  # no hand of the day recorded a kontra


@pytest.mark.django_db
def test_it_joins_its_cup_where_this_site_has_it(content, tmp_path, capsys, english):
    cup = Cup.objects.create(name=CUP, ruleset="tiroler-tarockcup", method="tirol", counting="3", final_top=10)
    assert (summarize(content).cup, summarize(content).cup_dropped) == (CUP, None)
    path = tmp_path / "before.tarock.json.gz"
    path.write_bytes(content)
    call_command("import_tournament", str(path))
    assert f"It is in the cup {CUP}." in capsys.readouterr().out
    t = cup.tournaments.get()
    assert t.name == "Tiroler Tarockcup – Demo Hall in Tirol"
    joined = CupAction.objects.filter(cup=cup, action=CupAction.Action.TOURNAMENT_JOINED)
    assert list(joined.values_list("user_name", "detail")) == [("", "Tiroler Tarockcup – Demo Hall in Tirol (2026-10-17)")]


@pytest.mark.django_db
def test_without_its_cup_on_this_site_it_is_restored_alone(content, english):
    restored = restore(content)
    assert restored.tournament.cup is None
    assert restored.summary.cup_dropped == (
        f"The archive's cup “{CUP}” is not on this site: the tournament is restored without a cup."
    )


@pytest.mark.django_db
def test_its_pages_show_after_the_restore(content, client, director):
    cup = Cup.objects.create(name=CUP, ruleset="tiroler-tarockcup", method="tirol", counting="3", final_top=10)
    t = restore(content).tournament
    assert t.cup == cup
    client.force_login(director)
    for url in (
        reverse("tournaments:detail", args=[t.pk]),
        reverse("scoring:standings", args=[t.pk]),
        reverse("prizes:list", args=[t.pk]),
        reverse("prizes_director:settings", args=[t.pk]),
        reverse("cups:table", args=[cup.pk]),
        reverse("exports:standings_pdf", args=[t.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    standings = client.get(reverse("scoring:standings", args=[t.pk])).content.decode()
    assert "Hannes Schwaighofer" in standings
