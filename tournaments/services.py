"""Tournament services: registering players and drawing a round's seating.

Views and management commands call these; the pure draw is :mod:`tournaments.draw`.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from .draw import SeatingImpossible, draw_round
from .problems import translate_problem
from .models import Player, Registration, Round, Seat, Table, Tournament


class DrawRefused(Exception):
    """The round cannot be drawn; ``message`` says why in words a director understands."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))


def register(tournament: Tournament, player: Player) -> Registration:
    """Register ``player`` with the next free start number; returns the (existing) registration."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        existing = tournament.registrations.filter(player=player).first()
        if existing:
            return existing
        last = tournament.registrations.aggregate(m=Max("start_number"))["m"] or 0
        return Registration.objects.create(tournament=tournament, player=player, start_number=last + 1)


def past_tables(tournament: Tournament) -> list[list[int]]:
    """Registration ids per table of every round drawn so far, for repeat avoidance."""
    tables: dict[int, list[int]] = {}
    for table_id, reg_id in Seat.objects.filter(table__round__tournament=tournament).values_list(
        "table_id", "registration_id"
    ):
        tables.setdefault(table_id, []).append(reg_id)
    return list(tables.values())


def draw_next_round(tournament: Tournament, seed: int | None = None) -> Round:
    """Draw and store the next round (``tournament-formats.md`` §2).

    Tables of the ruleset's sizes at random from ``seed`` (a fresh random seed when ``None``,
    stored with the round), avoiding players meeting again; then seats by drawn card. Every active
    (not withdrawn) registration is seated exactly once.

    Raises :class:`DrawRefused` when every round is drawn already or the field cannot be seated
    (the message names the nearest player counts that work).
    """
    rs = tournament.get_ruleset()
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        number = (tournament.round_set.aggregate(m=Max("number"))["m"] or 0) + 1
        if number > tournament.rounds:
            raise DrawRefused(_("All %(rounds)s rounds are drawn already.") % {"rounds": tournament.rounds})
        players = list(
            tournament.registrations.filter(withdrawn=False).order_by("start_number").values_list("pk", flat=True)
        )
        seed = secrets.randbelow(2**62) if seed is None else seed
        try:
            result, seatings = draw_round(
                players,
                rs.table_sizes,
                rs.preferred_table_size,
                rs.max_other_tables,
                seed,
                past_tables(tournament),
                rs.seat_cards,
            )
        except SeatingImpossible as exc:
            raise DrawRefused(translate_problem(exc.problem)) from exc
        rnd = Round.objects.create(
            tournament=tournament, number=number, seed=seed, repeats=[list(p) for p in result.repeats]
        )
        seats = []
        for index, seating in enumerate(seatings):
            table = Table.objects.create(round=rnd, number=index + 1, first_dealer=rs.first_dealer(len(seating)))
            for position, (reg_id, card) in enumerate(seating):
                seats.append(Seat(table=table, position=position, registration_id=reg_id, card=card.key))
        Seat.objects.bulk_create(seats)
        if tournament.status == Tournament.Status.PLANNED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return rnd


def delete_last_round(tournament: Tournament) -> None:
    """Delete the last drawn round if no hand has been entered in it yet (to redraw it).

    Raises :class:`DrawRefused` when there is no round or a hand is entered (the seating is locked).
    """
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        rnd = tournament.round_set.order_by("-number").first()
        if rnd is None:
            raise DrawRefused(_("No round has been drawn yet."))
        # Hands are saved under a lock on their table: lock the round's tables too.
        list(Table.objects.select_for_update().filter(round=rnd))
        if rnd.tables.filter(hands__isnull=False).exists():
            raise DrawRefused(_("Hands are entered in round %(number)s: its seating is locked.") % {"number": rnd.number})
        rnd.delete()

