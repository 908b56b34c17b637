"""Two small cup seasons of finished tournaments and an Ö-Finale day, built through the services
(``../shared/rules/koenigrufen-raiffeisen.md`` §6.9).

Each day is one round at tables of 4 whose players are seated as the test wants them (the draw,
then swaps); at each table one Rufer is won by the two players meant to finish highest there
(declared from Vorhand, so the dealer is the seat before; ``koenigrufen.md`` §1: +1 each, −1 each
for the other two), and the drawn lots order the players level on the Schrift. So a day finishes
exactly in the order given. Each cup's days are played under the cup's ruleset, the final under
the Raiffeisen Tarockcup's (§6.9: "every player uses this edition at the final").

Cup points (``tournament-formats.md`` §4, WTC Fixpunkte): ranks 1–4 get 223, 198, 180, 168; two
players sharing ranks 1–2 get (223 + 198) / 2 = 210.5 → 211 each.

- Cup A, "Tiroler Tarockcup" (Vorrundenpunkte table of 40 ranks): A1 Anna, Bert, Carl, Dora;
  A2 Carl, Anna, Bert, Dora. Anna 198 + 223 = 421, Carl 180 + 223 = 403, Bert 198 + 180 = 378,
  Dora 168 + 168 = 336: ranks 1–4, Vorrundenpunkte 120, 109, 100, 93.
- Cup B, "Wiener Tarockcup" (table of 60 ranks): B1 Anna and Emil level first (no lots drawn
  between them), Franz, Bert. Anna 211, Emil 211 (rank 1 shared), Franz 180 (rank 3), Bert 168
  (rank 4): Vorrundenpunkte 120, 120, 104, 98.
- The final day (``final_day``): Anna, Gerda, Emil, Carl, Bert, Franz, Hans, Dora; Gerda and Hans
  qualified through no cup.
"""

import datetime

import pytest

from scoring.cups.models import Cup
from scoring.services import end_table, save_hand
from tournaments import services
from tournaments.models import Player, Registration, Seat

# The final is played under the Raiffeisen Tarockcup's edition whatever the players' cups (§6.9).
FINAL_RULES = {"ruleset": "raiffeisen-tarockcup", "edition": "2023"}
EDITIONS = {"tiroler-tarockcup": "2019/20", "wiener-tarockcup": "2020"}
NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Franz", "Gerda", "Hans")


def play_day(t, order, lots=None):
    """Register ``order`` (players, best first) in tournament ``t`` (one round, a multiple of 4
    players), seat them, play one Rufer a table and end the tables: the day's final standings
    rank them in ``order``. ``lots``: the players given a lot (default all), by their place in
    ``order``; players level on the Schrift without lots share their rank."""
    regs = [services.register(t, p) for p in order]
    for i, reg in enumerate(regs):
        if lots is None or order[i] in lots:
            Registration.objects.filter(pk=reg.pk).update(lot=i + 1)
    rnd = services.draw_next_round(t, seed=7)
    tables = list(rnd.tables.order_by("number"))
    count = len(tables)
    wanted = {reg.pk: tables[i % count].pk for i, reg in enumerate(regs)}  # table k: places k, k + T, …
    while True:
        seat = {s.registration_id: s.table_id for s in Seat.objects.filter(table__round=rnd)}
        wrong = [r for r in regs if seat[r.pk] != wanted[r.pk]]
        if not wrong:
            break
        first = wrong[0]
        second = next(r for r in wrong if seat[r.pk] == wanted[first.pk])
        services.swap_players(rnd, first, second)
    for k, table in enumerate(tables):
        position = {s.registration_id: s.position for s in table.seats.all()}
        declarer, partner = position[regs[k].pk], position[regs[k + count].pk]
        dealer = (declarer - 1) % 4  # a Rufer is Vorhand's, the seat after the dealer
        save_hand(table, {"dealer": dealer, "contract": "rufer", "declarer": declarer, "partner": partner, "won": True})
        end_table(table)
    t.refresh_from_db()
    return t


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name, club="Imst" if name < "E" else "Wien") for name in NAMES}


@pytest.fixture
def day(make_tournament):
    """``day(name, date, order, cup=None, lots=None)``: a finished tournament of ``order``."""

    def make(name, date, order, cup=None, lots=None):
        rules = {"ruleset": cup.ruleset, "edition": EDITIONS[cup.ruleset]} if cup else {}
        t = make_tournament(players=0, rounds=1, name=name, date=date, cup=cup, **rules)
        return play_day(t, order, lots)

    return make


@pytest.fixture
def cups(players, day):
    """Cup A and cup B of the module's docstring, their seasons played."""
    p = players
    a = Cup.objects.create(name="Tiroler Tarockcup", ruleset="tiroler-tarockcup", method="wtc_fixpunkte", oe_finale_table="40")
    b = Cup.objects.create(name="Wiener Tarockcup", ruleset="wiener-tarockcup", method="wtc_fixpunkte", oe_finale_table="60")
    day("A1", datetime.date(2026, 9, 1), [p["Anna"], p["Bert"], p["Carl"], p["Dora"]], cup=a)
    day("A2", datetime.date(2026, 9, 8), [p["Carl"], p["Anna"], p["Bert"], p["Dora"]], cup=a)
    day("B1", datetime.date(2026, 9, 2), [p["Anna"], p["Emil"], p["Franz"], p["Bert"]], cup=b, lots={p["Franz"], p["Bert"]})
    return a, b


@pytest.fixture
def final_day(cups, players, make_tournament):
    """The Ö-Finale day: 8 players, day ranks Anna, Gerda, Emil, Carl, Bert, Franz, Hans, Dora
    (Gerda and Hans qualified through no cup)."""
    p = players
    t = make_tournament(players=0, rounds=1, name="Ö-Finale 2027", date=datetime.date(2027, 6, 5), **FINAL_RULES)
    return play_day(t, [p[n] for n in ("Anna", "Gerda", "Emil", "Carl", "Bert", "Franz", "Hans", "Dora")])
