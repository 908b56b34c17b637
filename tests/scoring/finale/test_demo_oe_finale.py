"""An Ö-Finale of the two demo cups, its Gesamtwertung checked by hand, and the demo's own finale
(``../shared/rules/koenigrufen-raiffeisen.md`` §6.9; the demo: ``scoring/demo.py``).

The demo cups' final season ranks (as ``build_demo_cup`` and ``build_rtc_demo_cup`` build them,
fixed seeds) of the eight players of the scripted day, and the Vorrundenpunkte §6.9's tables give
at those ranks:

- Tiroler Tarockcup demo, the 40-rank table (120, 109, 100, 93, 87, 82, 78, 73, 69, 64, 60, 57,
  53, 50, 46, 43, 41, 38, 35, 33, 31, 29, …): Christian Gstrein 1. → 120, Theresia Kathrein 2. →
  109, Vinzenz Zangerl 21. → 31, Josef Angerer 22. → 29.
- Raiffeisen Tarockcup demo, the 60-rank table (120, 111, 104, 98, 95, 91, 88, 84, 81, 78, 75, 72,
  69, …): Florian Kaltenböck 1. → 120, Leopold Reisecker 2. → 111, Hubert Lindorfer 4. → 98,
  Johann Brandstötter 13. → 69.

The day: one round at two 4-tables (the draw, then swaps), three hands each, written in the
notation, every contract 1 against 3 (declarer ±3 × value, each opponent ∓value; §6.1: Dreier 4,
Farbendreier 3, Piccolo 2):

- Table 1, Angerer, Kaltenböck, Zangerl, Gstrein: Dreier Angerer won (+12, −4, −4, −4), Dreier
  Gstrein lost (+4, +4, +4, −12), Piccolo Zangerl lost (+2, +2, −6, +2) → 18, 2, −6, −14.
- Table 2, Brandstötter, Lindorfer, Kathrein, Reisecker: Dreier Reisecker lost (+4, +4, +4, −12),
  Farbendreier Brandstötter won (+9, −3, −3, −3), Farbendreier Kathrein lost (+3, +3, −9, +3) →
  16, 4, −8, −12.

Day ranks: 1. Angerer 18, 2. Brandstötter 16, 3. Lindorfer 4, 4. Kaltenböck 2, 5. Zangerl −6,
6. Kathrein −8, 7. Reisecker −12, 8. Gstrein −14.

Finalpunkte (the organiser's table, a short one): 60, 55, 51, 48, 45, 42, 40; rank 8 is past its
end: 0.

Totals: Kaltenböck 120 + 48 = 168; Kathrein 109 + 42 = 151; Reisecker 111 + 40 = 151 (level with
Kathrein: her better day rank, 6 against 7, puts her first); Lindorfer 98 + 51 = 149; Brandstötter
69 + 55 = 124; Gstrein 120 + 0 = 120; Angerer 29 + 60 = 89; Zangerl 31 + 45 = 76.
"""

import pytest
from django.urls import reverse

from scoring.demo import OE_FINALE_DEMO, build_demo_cup, build_demo_oe_finale, build_rtc_demo_cup
from scoring.finale.forms import OeFinaleForm
from scoring.finale.models import OeFinale
from scoring.finale.services import finale_of, gesamtwertung, qualifiers
from scoring.models import Hand
from scoring.services import end_table, save_hand
from tournaments import services
from tournaments.models import Player, Seat, Tournament

# Vorrundenpunkte by cup: (cup rank, points of §6.9's table at that rank), typed from the rule text.
TIROL = {  # the 40-rank table
    "Christian Gstrein": (1, 120),
    "Theresia Kathrein": (2, 109),
    "Vinzenz Zangerl": (21, 31),
    "Josef Angerer": (22, 29),
}
RTC = {  # the 60-rank table
    "Florian Kaltenböck": (1, 120),
    "Leopold Reisecker": (2, 111),
    "Hubert Lindorfer": (4, 98),
    "Johann Brandstötter": (13, 69),
}
FINALPUNKTE = "60 55 51 48 45 42 40"
TABLES = (
    ("Josef Angerer", "Florian Kaltenböck", "Vinzenz Zangerl", "Christian Gstrein"),
    ("Johann Brandstötter", "Hubert Lindorfer", "Theresia Kathrein", "Leopold Reisecker"),
)
HANDS = (
    ("d angerer +", "d gstrein -", "p zangerl -"),
    ("d reisecker -", "fd brandstötter +", "fd kathrein -"),
)
# (name, day rank, Schrift, Vorrundenpunkte, Finalpunkte, total), in the Gesamtwertung's order.
EXPECTED = [
    ("Florian Kaltenböck", 4, 2, 120, 48, 168),
    ("Theresia Kathrein", 6, -8, 109, 42, 151),
    ("Leopold Reisecker", 7, -12, 111, 40, 151),
    ("Hubert Lindorfer", 3, 4, 98, 51, 149),
    ("Johann Brandstötter", 2, 16, 69, 55, 124),
    ("Christian Gstrein", 8, -14, 120, 0, 120),
    ("Josef Angerer", 1, 18, 29, 60, 89),
    ("Vinzenz Zangerl", 5, -6, 31, 45, 76),
]


@pytest.fixture
def demo_cups(db):
    return build_demo_cup(), build_rtc_demo_cup()


def make_finale(tournament, cups, table=FINALPUNKTE):
    """The Ö-Finale of ``tournament`` as the director's settings form saves it."""
    form = OeFinaleForm({"cups": [c.pk for c in cups], "finalpunkte_text": table}, instance=OeFinale(tournament=tournament))
    assert form.is_valid(), form.errors
    form.save()
    return finale_of(tournament)


def seat_as(rnd, regs, tables):
    """Swap the drawn players until table ``k`` of ``rnd`` holds ``tables[k]`` (registrations)."""
    drawn = list(rnd.tables.order_by("number"))
    wanted = {regs[name].pk: drawn[k].pk for k, names in enumerate(tables) for name in names}
    while True:
        seat = {s.registration_id: s.table_id for s in Seat.objects.filter(table__round=rnd)}
        wrong = [pk for pk, table in wanted.items() if seat[pk] != table]
        if not wrong:
            return drawn
        first = wrong[0]
        second = next(pk for pk in wrong if seat[pk] == wanted[first])
        services.swap_players(rnd, rnd.tournament.registrations.get(pk=first), rnd.tournament.registrations.get(pk=second))


@pytest.mark.django_db
def test_the_gesamtwertung_of_a_day_after_the_demo_cups_by_hand(demo_cups):
    t = Tournament.objects.create(
        name="Ö-Finale – Probe", date=OE_FINALE_DEMO.date, venue="Stadthalle Wels",
        ruleset="raiffeisen-tarockcup", edition="2023", rounds=1,
    )
    finale = make_finale(t, demo_cups)
    found = qualifiers(finale)
    assert len(found.rows) == 22 + 13  # every rank of both demo seasons has an entry in its cup's table
    by_name = {q.player.name: q for q in found.rows}
    for cup_name, cup in (("Tiroler Tarockcup 2026/27 – Demo", TIROL), ("Raiffeisen Tarockcup 2026/27 – Demo", RTC)):
        for name, (rank, points) in cup.items():
            q = by_name[name]
            assert [(p.cup_name, p.rank, p.points) for p in q.places] == [(cup_name, rank, points)], name
            assert q.vorrundenpunkte == points
    players = {p.name: p for p in Player.objects.filter(name__in=[*TIROL, *RTC])}
    regs = {name: services.register(t, players[name]) for names in TABLES for name in names}
    rnd = services.draw_next_round(t, seed=5)
    rs = t.get_ruleset()
    for table, names, lines in zip(seat_as(rnd, regs, TABLES), TABLES, HANDS, strict=True):
        seated = {s.registration_id: s.position for s in table.seats.all()}
        in_seat_order = sorted(names, key=lambda n: seated[regs[n].pk])
        for k, line in enumerate(lines, start=1):
            save_hand(table, rs.parse_hand(line, 4, table.dealer_of(k, 4), in_seat_order))
        end_table(table)
    wertung = gesamtwertung(finale_of(t))
    assert wertung.day_final and wertung.table_entered
    assert [(r.name, r.day_rank, r.day_total, r.vorrundenpunkte, r.finalpunkte, r.total) for r in wertung.rows] == EXPECTED
    assert [r.rank for r in wertung.rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    kathrein, reisecker = wertung.rows[1], wertung.rows[2]
    assert not reisecker.shared and (reisecker.tiebreak, reisecker.above_day_rank) == ("day", 6)
    assert kathrein.tiebreak == "" and kathrein.total != wertung.rows[0].total  # her place needs no tie-break


@pytest.mark.django_db
def test_the_demo_finale_is_played_and_its_pages_answer(demo_cups, client):
    t = build_demo_oe_finale()
    assert (t.name, t.ruleset, t.edition, t.status) == (OE_FINALE_DEMO.name, "raiffeisen-tarockcup", "2023", Tournament.Status.FINISHED)
    season_dates = [r.date for cup in demo_cups for r in cup.imported_results.all()]
    season_dates += [d for cup in demo_cups for d in cup.tournaments.values_list("date", flat=True)]
    assert t.date > max(season_dates)  # after both seasons
    finale = finale_of(t)
    assert set(finale.cups.all()) == set(demo_cups)
    assert finale.finalpunkte[:5] == [60, 55, 51, 48, 45]  # the demo organiser's table
    assert t.registrations.count() == 22 + 13  # every qualifier registered
    assert not qualifiers(finale).unregistered
    assert (t.rounds, t.hands_per_round) == (3, 16)
    for rnd in t.round_set.all():
        sizes = sorted(table.seats.count() for table in rnd.tables.all())
        assert set(sizes) <= {4, 5} and sum(sizes) == 35
        for table in rnd.tables.all():
            assert table.hands.count() == {4: 16, 5: 20}[table.seats.count()]
    assert Hand.objects.filter(table__round__tournament=t).exists()
    wertung = gesamtwertung(finale)
    assert wertung.day_final and len(wertung.rows) == 35
    for row in wertung.rows:
        assert row.total == row.vorrundenpunkte + row.finalpunkte and row.qualifier is not None
    assert next(r for r in wertung.rows if r.day_rank == 1).finalpunkte == 60
    totals = [r.total for r in wertung.rows]
    assert totals == sorted(totals, reverse=True)
    for name in ("finale:gesamtwertung", "finale:qualifiers"):
        assert client.get(reverse(name, args=[t.pk])).status_code == 200
    assert build_demo_oe_finale() == t  # kept unless reset
