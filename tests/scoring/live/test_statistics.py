"""The statistics of the day, its pictures and the day report (Tagesbericht), and each
player's results across every tournament he played.

Every expected number below is worked out by hand from the rule texts (Tiroler Tarockcup,
``../shared/rules/koenigrufen.md`` §1 and §4; Tarok Bled, ``tarok-bled.md`` §4), for a table of
four where seat ``dealer + 1`` is Vorhand. The seating is drawn, so expectations are written per
seat position and looked up through the drawn seats.
"""

import datetime
import io

import pytest
from django.test import Client
from django.urls import reverse

from scoring.live.statistics import NOTABLE_LIMIT, career, contract_mix, day_statistics, progression
from scoring.services import end_table, save_hand
from tournaments import services
from tournaments.models import Player, Tournament

PAGAT = {"bonus": "pagat", "team": "declarer", "announced": True, "made": True}
SILENT_VALAT = {"bonus": "valat", "team": "declarer", "announced": False, "made": True}

ROUND_1 = [
    # Dreier 5 + Pagat announced 2 = 7 per opponent, declarer alone (§1): [-7, 21, -7, -7].
    {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True, "bonuses": [PAGAT]},
    # Rufer 1, seat 1 (Vorhand) with seat 3: [-1, 1, -1, 1].
    {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True},
    # Trischaken, Vorhand seat 2 with 12; nobody a mayor, no Jungfrau: the two with most points pay
    # 2 each (§4.2): [-2, -2, 2, 2].
    {"dealer": 1, "contract": "trischaken", "card_points": {"0": 30, "1": 20, "2": 12, "3": 8}},
    # Solodreier 10 lost by seat 0: [-30, 10, 10, 10].
    {"dealer": 2, "contract": "solodreier", "declarer": 0, "won": False},
    # Dreier 5 + silent Valat 10 added to the game (§4.1) = 15, seat 2 alone: [-15, -15, 45, -15];
    # a kontra is recorded (never scored in Königrufen).
    {"dealer": 3, "contract": "dreier", "declarer": 2, "won": True, "bonuses": [SILENT_VALAT], "kontra": 1},
]
ROUND_1_TOTALS = {0: -55, 1: 15, 2: 49, 3: -9}  # by seat position
ROUND_2 = [
    # Solodreier 10 won by seat 2: [-10, -10, 30, -10].
    {"dealer": 0, "contract": "solodreier", "declarer": 2, "won": True},
    # Rufer lost by seat 2 (Vorhand) with seat 0: [-1, 1, -1, 1].
    {"dealer": 1, "contract": "rufer", "declarer": 2, "partner": 0, "won": False},
    {"dealer": 2, "outcome": "struck", "note": "wrong deal"},
]
ROUND_2_TOTALS = {0: -11, 1: -9, 2: 29, 3: -9}


def play(tournament, seed, hands):
    """Draw the next round (one table of four), enter ``hands``, end the table. Returns the table
    and ``{position: registration}``."""
    rnd = services.draw_next_round(tournament, seed=seed)
    table = rnd.tables.get()
    for record in hands:
        save_hand(table, record)
    end_table(table)
    seats = {s.position: s.registration for s in table.seats.select_related("registration__player")}
    return table, seats


@pytest.fixture
def day(make_tournament, english):
    """A Tirol tournament of two rounds at one table of four, both ended."""
    t = make_tournament(players=4, rounds=2)
    table1, seats1 = play(t, 7, ROUND_1)
    table2, seats2 = play(t, 8, ROUND_2)
    return t, (table1, seats1), (table2, seats2)


@pytest.mark.django_db
def test_the_statistics_of_a_small_day(day, django_assert_max_num_queries):
    t, (table1, seats1), (table2, seats2) = day
    t = Tournament.objects.get(pk=t.pk)
    with django_assert_max_num_queries(3):
        stats = day_statistics(t)
    assert (stats.played, stats.manual, stats.struck, stats.hands) == (7, 0, 1, 7)

    # Best hand of the day: the Valat of round 1, hand 5, 45 for seat 2.
    [best] = stats.best
    assert (best.score, best.player.registration_id, best.where.round, best.where.table, best.where.number) == (45, seats1[2].pk, 1, 1, 5)
    assert best.words.startswith(f"Dreier · {seats1[2].player.name} · ") and "Valat" in best.words
    # Best of each round: round 1 the same; round 2 the Solodreier, 30 for seat 2 in hand 1.
    assert [(r.number, [(h.score, h.player.registration_id, h.where.number) for h in r.hands]) for r in stats.rounds] == [
        (1, [(45, seats1[2].pk, 5)]),
        (2, [(30, seats2[2].pk, 1)]),
    ]
    # Biggest round: 49 by seat 2 of round 1 (round 2's best is 29).
    assert [(b.score, b.player.registration_id, b.round, b.table) for b in stats.biggest] == [(49, seats1[2].pk, 1, 1)]

    # Contract mix in catalogue order, with wins; Trischaken has nobody who wins or loses.
    assert [(c.name, c.played, c.won, c.decided) for c in stats.contracts] == [
        ("Rufer", 2, 1, True),
        ("Trischaken", 1, 0, False),
        ("Dreier", 2, 2, True),
        ("Solodreier", 2, 1, True),
    ]
    assert [c.won_percent for c in stats.contracts] == [50, None, 100, 50]
    assert [(c.name, c.played) for c in stats.everyone] == [("Trischaken", 1)]
    assert [(c.name, c.played, c.won) for c in contract_mix(t)] == [(c.name, c.played, c.won) for c in stats.contracts]

    assert stats.valats == 1
    assert stats.kontra_hands == 1 and stats.kontras == []  # a Königrufen kontra names nobody
    assert [(r.label, r.count) for r in stats.reasons] == [
        ("Pagat announced", 1),
        ("Solodreier won", 1),
        ("Trischaken", 1),
        ("Valat", 1),
    ]
    # Highest score first: the Valat (45), the Solodreier (30), the Pagat (21), the Trischaken (2).
    assert [(n.where.round, n.where.number, n.reasons, n.best) for n in stats.notable] == [
        (1, 5, ["Valat"], 45),
        (2, 1, ["Solodreier won"], 30),
        (1, 1, ["Pagat announced"], 21),
        (1, 3, ["Trischaken"], 2),
    ]
    assert stats.notable_total == 4 and stats.more_notable == 0 and NOTABLE_LIMIT >= 4


@pytest.mark.django_db
def test_the_player_who_said_most_kontras(make_tournament, english):
    """Bled Klop records who said kontra (``kontra_by``, ``tarok-bled.md`` §4); a kontra on a game
    counts as a hand with a kontra but names nobody."""
    t = make_tournament(players=3, ruleset="tarok-bled", edition="2005", rounds=1)
    klop = {"dealer": 2, "contract": "klop", "card_points": {"0": 20, "1": 30, "2": 21}}
    _table, seats = play(
        t,
        3,
        [
            {**klop, "kontra_by": 2},
            {**klop, "dealer": 0, "kontra_by": 2},
            {**klop, "dealer": 1, "kontra_by": 0},
            {"dealer": 2, "contract": "trojka", "declarer": 0, "declarer_points": 40, "kontra": 1},
            {"dealer": 0, "contract": "dvojko", "declarer": 1, "declarer_points": 30},
        ],
    )
    stats = day_statistics(t)
    assert [(k.label, k.count, k.registration_id) for k in stats.kontras] == [(seats[2].player.name, 2, seats[2].pk)]
    assert stats.kontra_hands == 4
    assert [(c.name, c.played, c.won, c.decided) for c in stats.contracts] == [
        ("Klop", 3, 0, False),
        ("Trojka", 1, 1, True),  # 40 card points win (§3)
        ("Dvojko", 1, 0, True),  # 30 lose
    ]
    assert [(r.label, r.count) for r in stats.reasons] == [("Klop", 3)]


@pytest.mark.django_db
def test_the_progression_sums_each_round(day):
    t, (_t1, seats1), (_t2, seats2) = day
    position2 = {reg.pk: pos for pos, reg in seats2.items()}
    chosen = seats1[0]  # last after round 1 with -55
    result = progression(t, chosen=chosen.pk, top=2)
    assert result.rounds == [1, 2]
    assert result.label == "Game points"
    lines = {s.registration_id: s for s in result.series}
    expected = ROUND_1_TOTALS[0] + ROUND_2_TOTALS[position2[chosen.pk]]
    assert lines[chosen.pk].totals == [-55, expected] and lines[chosen.pk].chosen
    assert len(result.series) == 3 and result.series[-1].registration_id == chosen.pk
    # Another tournament's player is ignored: only the top two.
    assert len(progression(t, chosen=10**6, top=2).series) == 2


@pytest.mark.django_db
def test_a_players_results_across_two_tournaments(make_tournament, english):
    """Two tournaments of one round each with the same four players; ranks by total (no ties)."""
    first = make_tournament(players=4, rounds=1, name="Herbstturnier", date=datetime.date(2026, 10, 3))
    _table, seats_a = play(first, 7, ROUND_1)  # totals by position -55, 15, 49, -9
    second = make_tournament(players=0, rounds=1, name="Winterturnier", date=datetime.date(2026, 12, 5))
    for reg in first.registrations.select_related("player"):
        services.register(second, reg.player)
    _table, seats_b = play(
        second,
        11,
        [
            # Solodreier won by seat 0: [30, -10, -10, -10]; Rufer won by seat 0 with seat 1:
            # [1, 1, -1, -1]; Dreier won by seat 3: [-5, -5, -5, 15]. Totals 26, -14, -16, 4.
            {"dealer": 3, "contract": "solodreier", "declarer": 0, "won": True},
            {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 1, "won": True},
            {"dealer": 2, "contract": "dreier", "declarer": 3, "won": True},
        ],
    )
    rank_a = {2: 1, 1: 2, 3: 3, 0: 4}
    total_b, rank_b = {0: 26, 1: -14, 2: -16, 3: 4}, {0: 1, 3: 2, 1: 3, 2: 4}
    player = seats_a[2].player  # first in the first tournament with 49
    where_b = next(pos for pos, reg in seats_b.items() if reg.player_id == player.pk)

    result = career(Player.objects.get(pk=player.pk))
    assert [(r.tournament.name, r.rank, r.total, r.best_round, r.best_round_number, r.final) for r in result.results] == [
        ("Winterturnier", rank_b[where_b], total_b[where_b], total_b[where_b], 1, True),
        ("Herbstturnier", rank_a[2], 49, 49, 1, True),
    ]
    assert result.average_rank == round((1 + rank_b[where_b]) / 2, 1)
    assert result.best.tournament.name == "Herbstturnier" and result.best.best_round == 49

    # On his page in either tournament, with the link to his page in the other one.
    reg_b = second.registrations.get(player=player)
    page = Client().get(reverse("live:player", args=[first.pk, seats_a[2].pk])).content.decode()
    assert "Tournaments played" in page and "Winterturnier" in page
    assert reverse("live:player", args=[second.pk, reg_b.pk]) in page
    assert f"average rank <strong>{result.average_rank}</strong>" in page

    # The page's cache version follows every tournament of the player (scoring.live.player_page).
    from scoring.live.player_page import page_version
    from tournaments.versioning import touch

    before = page_version(first.pk, seats_a[2].pk)
    touch(second.pk)
    assert page_version(first.pk, seats_a[2].pk) not in (None, before)
    assert page_version(first.pk, reg_b.pk) is None  # a registration of the other tournament


@pytest.mark.django_db
def test_the_statistics_page_and_the_charts_answer_anonymously(day):
    t, (table1, seats1), _second = day
    client = Client()
    page = client.get(reverse("live:statistics", args=[t.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Best hand of the day" in html and seats1[2].player.name in html
    # The best hand links to its player's page (his results across tournaments) and to the sheet.
    assert reverse("live:player", args=[t.pk, seats1[2].pk]) in html
    assert reverse("scoring:sheet", args=[table1.pk]) in html
    assert reverse("live:chart_progression", args=[t.pk]) in html and reverse("live:chart_contracts", args=[t.pk]) in html
    chosen = client.get(reverse("live:statistics", args=[t.pk]), {"player": seats1[0].pk}).content.decode()
    assert f'{reverse("live:chart_progression", args=[t.pk])}?player={seats1[0].pk}' in chosen

    for url in (
        reverse("live:chart_progression", args=[t.pk]),
        reverse("live:chart_progression", args=[t.pk]) + f"?player={seats1[0].pk}",
        reverse("live:chart_contracts", args=[t.pk]),
        reverse("live:table_chart", args=[table1.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml", url
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304  # cached per version

    missing = Tournament.objects.order_by("-pk").first().pk + 1
    for name in ("statistics", "chart_progression", "chart_contracts"):
        assert client.get(reverse(f"live:{name}", args=[missing])).status_code == 404
    assert client.get(reverse("live:table_chart", args=[table1.pk + 1000])).status_code == 404


@pytest.mark.django_db
def test_the_day_report_carries_the_statistics_and_both_charts(day):
    from pypdf import PdfReader

    t, (_table1, seats1), _second = day
    response = Client().get(reverse("exports:day_report_pdf", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    again = Client().get(reverse("exports:export", args=[t.pk, "day-report"]))  # kept for this version
    assert b"".join(again.streaming_content) == response.content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Best hand of the day" in text and seats1[2].player.name in text
    # The progression chart: its title, axis and every player in its legend.
    assert "Standings round by round" in text and "Game points" in text
    # The contract chart: its title and the numbers on its bars (they are only in the chart).
    assert "Contracts of the day" in text
    assert "2 played, 1 won" in text and "2 played, 2 won" in text and "1 played" in text


@pytest.mark.django_db
def test_a_substitute_is_credited_with_the_hands_he_played(make_tournament, english):
    """A substitute takes a seat from the table's next hand on: the hands before are the seated
    player's, the hands after are his (the best hand and the biggest round name who played)."""
    t = make_tournament(players=4, rounds=1)
    rnd = services.draw_next_round(t, seed=7)
    table = rnd.tables.get()
    seat = table.seats.select_related("registration__player").get(position=2)
    spare = services.register(t, Player.objects.create(name="Ersatz Egon", club="Imst"))
    # Dreier won by seat 2: 5 per opponent, [-5, -5, 15, -5] (koenigrufen.md §1).
    save_hand(table, {"dealer": 1, "contract": "dreier", "declarer": 2, "won": True})
    services.seat_substitute(seat, spare)
    # Solodreier won by seat 2, now the substitute's: [-10, -10, 30, -10].
    save_hand(table, {"dealer": 2, "contract": "solodreier", "declarer": 2, "won": True})
    stats = day_statistics(t)
    assert [(b.score, b.player.registration_id, b.where.number) for b in stats.best] == [(30, spare.pk, 2)]
    assert [(b.score, b.player.registration_id) for b in stats.biggest] == [(30, spare.pk)]  # 15 for the seated player


@pytest.mark.django_db
def test_the_progression_ends_at_the_last_round_played_when_all_are_drawn_at_the_start(make_tournament, english):
    t = make_tournament(players=4, rounds=3, draw_mode="all_at_start")
    services.draw_next_round(t, seed=3)  # all three rounds
    table = t.round_set.get(number=1).tables.get()
    save_hand(table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True})
    shown = progression(t)
    assert shown.rounds == [1]  # rounds 2 and 3 are drawn, not played: no flat lines for them
    assert sorted(s.totals for s in shown.series) == [[-1.0], [-1.0], [1.0], [1.0]]
