"""Build the demo tournament through the services, exactly as a director would run it.

Used by ``manage.py build_demo`` (the README's run command) and covered by a test. Everything is
drawn from fixed seeds, so the demo is the same every time.
"""

from __future__ import annotations

import csv
import datetime
import random
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments import roles
from tournaments import services as tournament_services
from tournaments.models import Player, Tournament
from variants import get_ruleset

from .services import save_hand

DEMO_USERNAME = "director"
DEMO_PASSWORD = "tarock-demo"
FIXTURES = Path(settings.BASE_DIR) / "fixtures"


@dataclass(frozen=True)
class DemoSpec:
    """One demo tournament: its settings, the players file (``""``: its players come from elsewhere,
    the Ö-Finale's qualifiers) and the seed everything is drawn from."""

    name: str
    date: datetime.date
    venue: str
    ruleset: str
    edition: str
    players: str
    seed: int
    plus_prize: bool = False  # the Baden custom: every player finishing in plus wins a prize
    options: tuple[tuple[str, bool], ...] = ()  # the ruleset options the tournament sets


TIROL_DEMO = DemoSpec(
    name="Tiroler Tarockcup – Demo Hall in Tirol",
    date=datetime.date(2026, 10, 17),
    venue="Gasthof Goldener Engl, Hall in Tirol",
    ruleset="tiroler-tarockcup",
    edition="2019/20",
    players="players_tirol.csv",
    seed=2019,
)
WTC_DEMO = DemoSpec(
    name="Wiener Tarockcup – Demo Café Ritter",
    date=datetime.date(2026, 11, 7),
    venue="Café Ritter, Wien-Ottakring",
    ruleset="wiener-tarockcup",
    edition="2020",
    players="players_wien.csv",
    seed=2020,
)
CEGO_DEMO = DemoSpec(
    name="Cego-Turnier Ichenheim – Demo",
    date=datetime.date(2026, 1, 6),
    venue="Gasthaus Hechten, Ichenheim",
    ruleset="cego-ichenheim",
    edition="ichenheim",
    players="players_baden.csv",
    seed=1706,
    plus_prize=True,
)
BLED_DEMO = DemoSpec(
    name="Turnir v taroku Bled – Demo",
    date=datetime.date(2026, 9, 12),
    venue="Hotel Jelovica, Bled",
    ruleset="tarok-bled",
    edition="2005",
    players="players_bled.csv",
    seed=2005,
)
HUNGARIAN_DEMO = DemoSpec(
    name="Paskievics tarokkverseny – Demo Eger",
    date=datetime.date(2026, 3, 14),
    venue="Lovas Étterem, Eger",
    ruleset="hungarian-tarokk",
    edition="paskievics",
    players="players_budapest.csv",
    seed=1912,
)
TAPP_DEMO = DemoSpec(
    name="Tapp-Tarock-Turnier – Demo Café Ritter",
    date=datetime.date(2026, 2, 21),
    venue="Café Ritter, Wien-Ottakring",
    ruleset="tapp-tarock",
    edition="klassik",
    players="players_wien.csv",  # the Viennese register, reused (players are kept across games)
    seed=1821,
)
# Zwanzigerrufen has no ruleset: a four-handed game written row by row, the dealer of a 5-table
# sitting out (free scoring's options).
FREE_DEMO = DemoSpec(
    name="Zwanzigerrufen – Demo Hall in Tirol (free scoring)",
    date=datetime.date(2026, 8, 29),
    venue="Gasthof Goldener Engl, Hall in Tirol",
    ruleset="free-scoring",
    edition="rows",
    players="players_tirol.csv",
    seed=20,
    options=(("dealer_sits_out", True),),
)
# An evening of the Raiffeisen Tarockcup Austria (Upper Austria, ``koenigrufen-raiffeisen.md``
# §6.9): 13 players at two 4-tables and one 5-table whose dealer sits out, 3 rounds of 16 hands
# (20 at the 5-table).
RTC_DEMO = DemoSpec(
    name="Raiffeisen Tarockcup – Demo Gasthof Kirchenwirt Peuerbach",
    date=datetime.date(2026, 11, 20),
    venue="Gasthof Kirchenwirt, Peuerbach",
    ruleset="raiffeisen-tarockcup",
    edition="2023",
    players="players_ooe.csv",
    seed=2037,  # an evening with a dozen Trischaken, a few Besserrufer and one (silent) Valat
)
# The Tarock-Österreich-Finale after both demo seasons (``koenigrufen-raiffeisen.md`` §6.9): the
# qualifiers of the Tirol and the Raiffeisen demo cups, 3 rounds of 16 hands (20 at a 5-table)
# under the Raiffeisen Tarockcup's edition. Built after the cups (:func:`build_demo_oe_finale`).
OE_FINALE_DEMO = DemoSpec(
    name="Tarock-Österreich-Finale – Demo",
    date=datetime.date(2027, 6, 5),  # after both seasons
    venue="Stadthalle Wels",
    ruleset="raiffeisen-tarockcup",
    edition="2023",
    players="",  # the qualifiers of the two demo cups
    seed=2027,
)
# The Finalpunkte by day rank the demo's organiser enters (the real table was not found, §6.9):
# 60 for the winner, never rising, 0 from rank 27 on (and past the table's end).
OE_FINALE_FINALPUNKTE = "60 55 51 48 45 42 40 38 36 34\n32 30 28 26 24 22 20 18 16 14\n12 10 8 6 4 2 0"
# The demo tournaments built from a players file, in the order the build_demo command builds them.
TOURNAMENT_DEMOS = (TIROL_DEMO, WTC_DEMO, CEGO_DEMO, BLED_DEMO, HUNGARIAN_DEMO, TAPP_DEMO, FREE_DEMO, RTC_DEMO)
DEMOS = (*TOURNAMENT_DEMOS, OE_FINALE_DEMO)  # every demo tournament
TIROL_DEMO_NAME = TIROL_DEMO.name


def ensure_director():
    """The demo director login: created with the demo password in the "Organisers" group, as a
    new organiser would be set up (no superuser). An existing user of that name is never touched:
    not his password, not his rights — returned as he is."""
    User = get_user_model()
    user = User.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
        user.groups.add(roles.organisers_group())
    return user


def demo_players(path: Path) -> list[Player]:
    """The invented players of a ``fixtures/players_*.csv`` file, created once and reused."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [Player.objects.get_or_create(name=r["name"], club=r["club"])[0] for r in rows]


@transaction.atomic
def build_demo(spec: DemoSpec, reset: bool = False) -> Tournament:
    """A complete demo tournament through the services: players registered, every round drawn
    from the spec's seed and every hand entered (the ruleset's hands per round, more at a
    5-table). Returns the existing demo tournament unless ``reset``. The Ö-Finale's spec is built
    by :func:`build_demo_oe_finale`."""
    if spec == OE_FINALE_DEMO:
        return build_demo_oe_finale(reset)
    existing = Tournament.objects.filter(name=spec.name).first()
    if existing and not reset:
        return existing
    if existing:
        existing.delete()
    director = ensure_director()
    rs, tournament = new_demo_tournament(spec, director)
    for player in demo_players(FIXTURES / spec.players):
        tournament_services.register(tournament, player)
    play_demo_rounds(tournament, rs, spec.seed, director)
    demo_prizes(tournament, spec)
    return tournament


def new_demo_tournament(spec: DemoSpec, director):
    """``(ruleset, tournament)``: the spec's tournament created with its ruleset's defaults (rounds,
    hands per round, options) and organised by ``director``; nobody registered yet."""
    rs = get_ruleset(spec.ruleset, spec.edition, dict(spec.options))
    tournament = Tournament.objects.create(
        name=spec.name,
        date=spec.date,
        venue=spec.venue,
        ruleset=spec.ruleset,
        edition=spec.edition,
        options={**rs.option_defaults, **dict(spec.options)},
        rounds=rs.default_rounds,
        hands_per_round=rs.default_hands_per_round,
    )
    roles.create_tournament_roles(tournament, director)  # the demo director organises it
    return rs, tournament


def play_demo_rounds(tournament: Tournament, rs, seed: int, director) -> None:
    """Draw every round of ``tournament`` (round ``n`` from ``seed * 100 + n``), enter every hand
    of every table as random hands from ``random.Random(seed)`` (each dealt by the table's dealer
    of that hand) and mark the tournament finished."""
    rng = random.Random(seed)
    for number in range(1, tournament.rounds + 1):
        rnd = tournament_services.draw_next_round(tournament, seed=seed * 100 + number)
        for table in rnd.tables.all():
            size = table.seats.count()
            for k in range(1, tournament.hands_for_table(size) + 1):
                hand = rs.random_hand(rng, size, table.dealer_of(k, size))
                save_hand(table, hand, director)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])


def demo_prizes(tournament: Tournament, spec: DemoSpec) -> None:
    """The demo's prize-giving: 20 € entry, the prize money over five places, the best hand, the
    Mauskönig, a kontra pot and (Cego) every player in plus."""
    from scoring.prizes.models import PrizeCategory, PrizeFund

    PrizeFund.objects.create(tournament=tournament, entry_fee=20, payout_percent=90, kontra_amount="0.50")
    categories = [
        PrizeCategory(kind="places", name="Hauptpreise", places=5, shares="35 25 18 12 10", description="Pokal"),
        PrizeCategory(kind="best_hand", name="Bestes Spiel", amount=10),
        PrizeCategory(kind="last", name="Mauskönig", description="Trostpreis"),
    ]
    if spec.plus_prize:
        categories.insert(1, PrizeCategory(kind="plus", name="Gute", amount=5))
    for order, category in enumerate(categories, start=1):
        category.tournament, category.order = tournament, order
        category.save()


def build_tirol_demo(reset: bool = False) -> Tournament:
    """The Tiroler Tarockcup demo: 22 players, 3 rounds of five tables (three of 4, two of 5)."""
    return build_demo(TIROL_DEMO, reset)


def build_cego_demo(reset: bool = False) -> Tournament:
    """The Ichenheim Cego demo: 31 players, nine 3-tables and one 4-table, 2 sessions of 24 hands."""
    return build_demo(CEGO_DEMO, reset)


def build_wtc_demo(reset: bool = False) -> Tournament:
    """The Wiener Tarockcup 2020 demo: 18 players, 3 rounds of 20 hands (25 at the two 5-tables)."""
    return build_demo(WTC_DEMO, reset)


def build_bled_demo(reset: bool = False) -> Tournament:
    """The Bled Slovenian Tarok demo: 18 players, six 3-tables, 4 rounds of 21 hands, radelci."""
    return build_demo(BLED_DEMO, reset)


def build_rtc_demo(reset: bool = False) -> Tournament:
    """The Raiffeisen Tarockcup 2023 demo: 13 players, 3 rounds at two 4-tables (16 hands) and one
    5-table (20 hands, its dealer sitting out)."""
    return build_demo(RTC_DEMO, reset)


DEMO_CUP_NAME = "Tiroler Tarockcup 2026/27 – Demo"
# Three tournaments of the season held before the demo tournament, their results imported as a
# cup that started mid-season would import them: (name, date, away, seed).
DEMO_CUP_EARLIER = (
    ("Cupturnier Imst", datetime.date(2026, 9, 12), False, 1),
    ("Cupturnier Lienz", datetime.date(2026, 9, 26), True, 2),
    ("Cupturnier Kufstein", datetime.date(2026, 10, 3), False, 3),
)
DEMO_CUP_LADIES = (
    "Barbara Pfurtscheller", "Elisabeth Haslwanter", "Gertraud Auer", "Ingrid Praxmarer", "Katharina Thaler",
    "Magdalena Steixner", "Notburga Holzknecht", "Rosa Kometer", "Theresia Kathrein", "Walburga Falkner",
)


def import_earlier(cup, players: list[Player], name: str, date: datetime.date, seed: int, smallest: int, away: bool = False) -> None:
    """An earlier tournament of ``cup``'s season imported as results, as a cup that started
    mid-season imports them: a field of ``smallest`` to all of ``players`` drawn from ``seed``,
    ranked in the order drawn."""
    from scoring.cups.models import CupResult

    rng = random.Random(seed)
    field = rng.sample(players, rng.randint(smallest, len(players)))
    CupResult.objects.bulk_create(
        CupResult(cup=cup, event=name, date=date, away=away, player=p, rank=rank, field_size=len(field))
        for rank, p in enumerate(field, start=1)
    )


def build_demo_cup(reset: bool = False):
    """The demo season cup: the Tirol demo tournament and three earlier tournaments of the season
    whose results (drawn from a fixed seed among the Tirol demo players) are imported; Tirol
    formula, the best 3 results count, the best 10 qualify for the final, with a ladies' and an away
    sub-ranking. Returns the cup (the existing one unless ``reset``)."""
    from scoring.cups.models import Cup, CupRanking
    from scoring.cups.roles import cup_created

    existing = Cup.objects.filter(name=DEMO_CUP_NAME).first()
    if existing and not reset:
        return existing
    if existing:
        existing.delete()
    tirol = build_tirol_demo()
    cup = Cup.objects.create(
        name=DEMO_CUP_NAME, ruleset=tirol.ruleset, method=Cup.Method.TIROL, counting="3", final_top=10,
        oe_finale_table=Cup.OeFinaleTable.RANKS_40,  # Tirol carries the 40-rank table (koenigrufen-raiffeisen.md §6.9)
    )
    cup_created(cup, ensure_director())  # the demo director keeps the cup, as its creator would
    players = demo_players(FIXTURES / TIROL_DEMO.players)
    for name, date, away, seed in DEMO_CUP_EARLIER:
        import_earlier(cup, players, name, date, seed, smallest=16, away=away)
    ladies = CupRanking.objects.create(cup=cup, name="Damen")
    ladies.members.set(p for p in players if p.name in DEMO_CUP_LADIES)
    CupRanking.objects.create(cup=cup, name="Auswärts", away_only=True)
    tirol.cup = cup
    tirol.save(update_fields=["cup"])
    return cup


RTC_DEMO_CUP_NAME = "Raiffeisen Tarockcup 2026/27 – Demo"
# Tournaments of the season held before the demo evening, their results imported: (name, date, seed).
RTC_DEMO_CUP_EARLIER = (
    ("Cupturnier Schärding", datetime.date(2026, 9, 18), 11),
    ("Cupturnier Eferding", datetime.date(2026, 10, 2), 12),
    ("Cupturnier Ried im Innkreis", datetime.date(2026, 10, 16), 13),
)
RTC_DEMO_CUP_PLANNED = 10  # tournaments the season plans, held and still to come


def build_rtc_demo_cup(reset: bool = False):
    """The demo Raiffeisen Tarockcup season: the RTC demo evening and three earlier tournaments of
    the season whose results (drawn from fixed seeds among the Upper Austrian demo players) are
    imported; cup points by the Fixpunkte table (223, 198, 180, …), every result counts, 10
    tournaments planned, the season's ranks carrying the 60-rank Ö-Finale table
    (``../shared/rules/koenigrufen-raiffeisen.md`` §6.9). Returns the cup (the existing one unless
    ``reset``)."""
    from scoring.cups.models import Cup
    from scoring.cups.roles import cup_created

    existing = Cup.objects.filter(name=RTC_DEMO_CUP_NAME).first()
    if existing and not reset:
        return existing
    if existing:
        existing.delete()
    evening = build_rtc_demo()
    cup = Cup.objects.create(
        name=RTC_DEMO_CUP_NAME,
        ruleset=evening.ruleset,
        method=Cup.Method.WTC_FIXPUNKTE,  # the RTC uses the Fixpunkte table (§6.9)
        counting="all",  # how many results count was not found (§6.9): the default, all
        planned=RTC_DEMO_CUP_PLANNED,
        oe_finale_table=Cup.OeFinaleTable.RANKS_60,
    )
    cup_created(cup, ensure_director())  # the demo director keeps the cup, as its creator would
    players = demo_players(FIXTURES / RTC_DEMO.players)
    for name, date, seed in RTC_DEMO_CUP_EARLIER:
        import_earlier(cup, players, name, date, seed, smallest=9)
    evening.cup = cup
    evening.save(update_fields=["cup"])
    return cup


@transaction.atomic
def build_demo_oe_finale(reset: bool = False) -> Tournament:
    """The demo Tarock-Österreich-Finale (``../shared/rules/koenigrufen-raiffeisen.md`` §6.9):
    the tournament of :data:`OE_FINALE_DEMO` (3 rounds of 16 hands, the Raiffeisen Tarockcup's
    defaults) made an Ö-Finale of the two demo cups (:func:`build_demo_cup`, 40-rank table;
    :func:`build_rtc_demo_cup`, 60-rank table; built first if missing) as the director's settings
    form does, the Finalpunkte :data:`OE_FINALE_FINALPUNKTE`; every qualifier registered in the
    order of the qualifiers' list (as "register the qualifiers" does), the rounds drawn and played
    with random hands from the spec's seed, the tournament finished. Returns the existing finale's
    tournament unless ``reset``. Raises ``ValueError`` if the settings form refuses the demo's
    settings (a bug of the demo)."""
    from scoring.finale.forms import OeFinaleForm
    from scoring.finale.models import OeFinale
    from scoring.finale.services import finale_of, register_qualifiers
    from tournaments.versioning import touch

    spec = OE_FINALE_DEMO
    existing = Tournament.objects.filter(name=spec.name).first()
    if existing and not reset:
        return existing
    if existing:
        existing.delete()
    cups = [build_demo_cup(), build_rtc_demo_cup()]
    director = ensure_director()
    rs, tournament = new_demo_tournament(spec, director)
    form = OeFinaleForm(
        {"cups": [cup.pk for cup in cups], "finalpunkte_text": OE_FINALE_FINALPUNKTE},
        instance=OeFinale(tournament=tournament),
    )
    if not form.is_valid():
        raise ValueError(f"The demo's Ö-Finale settings are refused: {form.errors.as_text()}")
    touch(tournament.pk)  # as the settings page saves it: the tournament's pages show the change
    form.save()
    register_qualifiers(finale_of(tournament))
    play_demo_rounds(tournament, rs, spec.seed, director)
    return tournament
