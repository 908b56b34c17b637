"""Build the demo tournament through the services, exactly as a director would run it.

Used by ``manage.py build_demo`` (the README's run command) and covered by a test. Everything is
drawn from fixed seeds, so the demo is the same every time.
"""

from __future__ import annotations

import csv
import datetime
import random
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments import services as tournament_services
from tournaments.models import Player, Tournament

from .demo_hands import random_hand
from .services import save_hand

DEMO_USERNAME = "director"
DEMO_PASSWORD = "tarock-demo"
TIROL_DEMO_NAME = "Tiroler Tarockcup – Demo Hall in Tirol"
PLAYERS_FILE = Path(settings.BASE_DIR) / "fixtures" / "players_tirol.csv"


def ensure_director():
    """The demo director login (staff and superuser); password reset to the demo password."""
    user, _created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
    user.is_staff = user.is_superuser = True
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user


def demo_players(path: Path = PLAYERS_FILE) -> list[Player]:
    """The invented players of ``fixtures/players_tirol.csv``, created once and reused."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [Player.objects.get_or_create(name=r["name"], club=r["club"])[0] for r in rows]


@transaction.atomic
def build_tirol_demo(seed: int = 2019, reset: bool = False) -> Tournament:
    """A complete Tiroler Tarockcup: 22 players, 3 rounds of 5 tables (three of 4, two of 5),
    every hand entered (16 at a 4-table, 20 at a 5-table). Returns the existing demo tournament
    unless ``reset``."""
    existing = Tournament.objects.filter(name=TIROL_DEMO_NAME).first()
    if existing and not reset:
        return existing
    if existing:
        existing.delete()
    director = ensure_director()
    tournament = Tournament.objects.create(
        name=TIROL_DEMO_NAME,
        date=datetime.date(2026, 10, 17),
        venue="Gasthof Goldener Engl, Hall in Tirol",
        ruleset="tiroler-tarockcup",
        edition="2019/20",
        rounds=3,
        hands_per_round=16,
    )
    for player in demo_players():
        tournament_services.register(tournament, player)
    rng = random.Random(seed)
    rs = tournament.get_ruleset()
    for number in range(1, tournament.rounds + 1):
        rnd = tournament_services.draw_next_round(tournament, seed=seed * 100 + number)
        for table in rnd.tables.all():
            size = table.seats.count()
            for k in range(1, tournament.hands_for_table(size) + 1):
                hand = random_hand(rs, size, table.dealer_of(k, size), rng)
                save_hand(table, hand, director)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament
