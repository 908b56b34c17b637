"""The Raiffeisen Tarockcup demo evening and its season cup, as ``manage.py build_demo`` builds them.

Rules: ``../shared/rules/koenigrufen-raiffeisen.md`` §6.9 (3 rounds of 16 hands, 20 at a 5-table
whose dealer sits out and scores 0; the RTC season ranked by the Fixpunkte table, the 60-rank
Ö-Finale table; Tirol carries the 40-rank table) and ``../shared/rules/tournament-formats.md`` §4
(the Fixpunkte: 223, 198, 180, …).

Each test builds only what it looks at (the evening alone is 156 hands, under a second).
"""

from collections import Counter

import pytest
from django.urls import reverse

from scoring.demo import RTC_DEMO, build_demo_cup, build_rtc_demo, build_rtc_demo_cup
from scoring.models import Hand

# tournament-formats.md §4, "WTC Fixpunkte", ranks 1–13 (the RTC uses them, §6.9), written out.
FIXPUNKTE = {1: 223, 2: 198, 3: 180, 4: 168, 5: 156, 6: 147, 7: 138, 8: 131, 9: 124, 10: 117, 11: 110, 12: 105, 13: 100}


@pytest.fixture
def evening(db):
    return build_rtc_demo()


def test_the_demo_evening_has_two_tables_of_four_and_one_of_five_each_round(evening):
    assert (evening.ruleset, evening.edition) == ("raiffeisen-tarockcup", "2023")
    assert evening.name.startswith("Raiffeisen Tarockcup – Demo Gasthof")
    assert evening.registrations.count() == 13
    assert evening.round_set.count() == 3
    for rnd in evening.round_set.all():
        sizes = sorted(t.seats.count() for t in rnd.tables.all())
        assert sizes == [4, 4, 5]
        for table in rnd.tables.all():
            assert table.hands.count() == {4: 16, 5: 20}[table.seats.count()]
    assert Hand.objects.filter(table__round__tournament=evening).count() == 3 * (16 + 16 + 20)


def test_the_five_table_dealer_sits_out_and_every_row_sums_to_zero(evening):
    rs = evening.get_ruleset()
    hands = list(Hand.objects.filter(table__round__tournament=evening).select_related("table").order_by("table", "number"))
    five = [h for h in hands if len(h.scores) == 5]
    assert len(five) == 3 * 20
    for hand in five:
        dealer = hand.record["dealer"]
        assert dealer == hand.table.dealer_of(hand.number, 5)
        assert hand.scores[dealer] == 0, (hand.number, hand.record, hand.scores)
    for table in {h.table for h in five}:  # 20 hands: each of the five deals, and sits out, four times
        assert Counter(h.record["dealer"] for h in five if h.table == table) == {s: 4 for s in range(5)}
    for hand in hands:
        assert sum(hand.scores) == 0, (hand.record, hand.scores)
        assert rs.validate(hand.record, len(hand.scores)) == []
        assert rs.score(hand.record, len(hand.scores)) == hand.scores  # re-scoring gives the stored row
    contracts = Counter(h.record["contract"] for h in hands)
    assert contracts.most_common(1)[0][0] == "rufer"
    assert contracts["trischaken"] >= 5 and contracts["besserrufer"] >= 2
    valats = [h for h in hands if any(b["bonus"] == "valat" for b in h.record.get("bonuses", []))]
    assert 1 <= len(valats) <= 3  # rare


def test_the_season_cup_ranks_the_evening_by_fixpunkte(db, client):
    from scoring.cups.models import Cup
    from scoring.cups.table import cup_standings
    from scoring.standings import cached_standings

    cup = build_rtc_demo_cup()
    assert (cup.method, cup.counting, cup.planned, cup.oe_finale_table) == ("wtc_fixpunkte", "all", 10, "60")
    assert cup.ruleset == RTC_DEMO.ruleset
    evening = cup.tournaments.get()
    assert evening.name == RTC_DEMO.name
    standings = cup_standings(cup)
    assert len(standings.events) == 4  # three imported tournaments and the evening
    assert standings.counts == 4  # every result counts
    # The evening's cup points follow its final ranks: 223 for the winner, 198, 180, …
    ranks = {r.entry.key: r.rank for r in cached_standings(evening).rows}
    assert sorted(ranks.values()) == list(range(1, 14))  # no shared rank today
    owner = dict(evening.registrations.values_list("pk", "player_id"))
    by_player = {row.player.pk: row for row in standings.rows}
    key = f"t{evening.pk}"
    for registration, rank in ranks.items():
        result = next(r for r in by_player[owner[registration]].results if r.key == key)
        assert (result.rank, result.points) == (rank, FIXPUNKTE[rank])
    winner = next(row for row in standings.rows if owner[min(ranks, key=ranks.get)] == row.player.pk)
    assert any(r.key == key and r.points == 223 for r in winner.results)
    # Every result counts: each total is the sum of the player's results, best total first.
    for row in standings.rows:
        assert row.total == sum(r.points for r in row.results)
        assert all(r.points in FIXPUNKTE.values() for r in row.results)
    totals = [row.total for row in standings.rows]
    assert totals == sorted(totals, reverse=True) and standings.rows[0].rank == 1
    assert client.get(reverse("cups:table", args=[cup.pk])).status_code == 200
    assert build_rtc_demo_cup() == cup  # kept unless reset
    assert Cup.objects.filter(name=cup.name).count() == 1


def test_the_tirol_demo_cup_carries_the_forty_rank_table(db):
    assert build_demo_cup().oe_finale_table == "40"
