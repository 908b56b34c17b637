"""Tournament services: registering players and drawing a round's seating.

Views and management commands call these; the pure draw is :mod:`tournaments.draw`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.db import models, transaction
from django.db.models import Count, Max
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import actions, signals
from .draw import SeatingImpossible, draw_with_mode, plan_table_sizes
from .errors import Refused
from .bulk_insert import insert_rows
from .models import Player, Registration, Round, Seat, Table, Tournament, new_token
from .problems import translate_problem
from .versioning import touch


class DrawRefused(Refused):
    """The round cannot be drawn; ``message`` says why in words a director understands."""


class AlreadyDone(DrawRefused):
    """What was asked for has happened already (a second click, a second tab): nothing changed.
    ``number``: the round the request was about."""

    def __init__(self, message, number: int):
        super().__init__(message)
        self.number = number


class UnfinishedTables(DrawRefused):
    """The previous round still has tables playing; the director confirms to draw anyway.
    ``tables``: their numbers; ``number``: the round they belong to."""

    def __init__(self, number: int, tables: list[int]):
        self.number, self.tables = number, tables
        super().__init__(_("%(playing)s Draw the next round anyway?") % {"playing": still_playing(number, tables)})


def table_list(tables: list[int]) -> str:
    """Table numbers as a sentence lists them in the active language: "2", "1 and 2", "1, 3 and 4"."""
    return get_text_list([str(t) for t in tables], _("and"))


def still_playing(number: int, tables: list[int]) -> str:
    """"Round 1 is still playing at table 2." / "… at tables 1 and 2." (``tables`` not empty)."""
    return ngettext(
        "Round %(number)s is still playing at table %(tables)s.",
        "Round %(number)s is still playing at tables %(tables)s.",
        len(tables),
    ) % {"number": number, "tables": table_list(tables)}


def draw_problem(tournament: Tournament) -> str | None:
    """Why the next round cannot be drawn now, in words that say what is missing, or ``None``:
    every round is drawn already; no player is registered; the active players cannot be seated at
    tables of the ruleset's sizes (too few for one table, or a count like 6 or 7 at tables of 4
    and 5: the message names the nearest counts that work, ``tournament-formats.md`` §1). The
    director's pages show it instead of a "Draw" button; :func:`draw_next_round` refuses the same."""
    drawn = tournament.round_set.count()
    if drawn >= tournament.rounds:
        return ngettext(
            "All %(counter)s round is drawn; for another, raise the number of rounds under Edit.",
            "All %(counter)s rounds are drawn; for another, raise the number of rounds under Edit.",
            tournament.rounds,
        ) % {"counter": tournament.rounds}
    active = tournament.registrations.filter(withdrawn=False).count()
    if not active:
        return _nobody_to_seat(tournament)
    rs = tournament.get_ruleset()
    try:
        plan_table_sizes(active, rs.table_sizes, rs.preferred_table_size, rs.max_other_tables)
    except SeatingImpossible as exc:
        return translate_problem(exc.problem)
    return None


def _nobody_to_seat(tournament: Tournament) -> str:
    """What is missing when no active player is left to seat."""
    if tournament.registrations.exists():
        return _("Every registered player has withdrawn: nobody is left to seat.")
    return _("No player is registered yet: register the players before the draw.")


def unfinished_tables(tournament: Tournament, number: int) -> list[int]:
    """Numbers of the tables of round ``number`` that have neither played all their hands nor been
    ended by the director, in order: asked of the app that keeps the hands
    (:data:`tournaments.signals.unfinished_tables`). Raises ``ImproperlyConfigured`` if no
    installed app answers."""
    return signals.required_answer(signals.unfinished_tables, Tournament, tournament=tournament, number=number)


# How the draw by standings orders the players: ``order(tournament, players)`` returns
# ``players`` (registration ids) best first.
StandingsOrder = Callable[[Tournament, list[int]], list[int]]


def standings_order(tournament: Tournament, players: list[int]) -> list[int]:
    """``players`` (registration ids) in the order the standings page shows them, best first,
    players not ranked yet after them in the given order: asked of the app that keeps the
    standings (:data:`tournaments.signals.standings_order`). Raises
    ``ImproperlyConfigured`` if no installed app answers."""
    return signals.required_answer(signals.standings_order, Tournament, tournament=tournament, players=players)


def tables_with_counts(tournament: Tournament, round_id: int | None = None) -> list[Table]:
    """Every table of ``tournament`` (of round ``round_id`` only, if given) in round and table
    order, its round loaded, with ``size`` (seats) and ``played`` (hands entered) counted by the
    database in two grouped queries (one join of hands and seats counted distinct took 60 ms at
    1,000 players, loading the hands 0.5 s)."""
    in_t = Table.objects.filter(round__tournament=tournament)
    if round_id is not None:
        in_t = in_t.filter(round_id=round_id)
    played = dict(in_t.filter(hands__isnull=False).values_list("pk").annotate(n=Count("hands")))
    sizes = dict(in_t.filter(seats__isnull=False).values_list("pk").annotate(n=Count("seats")))
    tables = list(in_t.select_related("round").order_by("round__number", "number"))
    for table in tables:
        table.size, table.played = sizes.get(table.pk, 0), played.get(table.pk, 0)
    return tables


def table_counts(tournament: Tournament) -> list[tuple[int, int, int, int, int]]:
    """Every table of ``tournament`` as a plain row ``(pk, number, round id, seats, hands
    entered)`` in round and table order: :func:`tables_with_counts` without building a model
    object per table (one query: each count a subquery of the table's own rows)."""
    return list(
        Table.objects.filter(round__tournament=tournament)
        .annotate(seat_count=_per_table(Seat), hand_count=_per_table(Table._meta.get_field("hands").related_model))
        .order_by("round__number", "number")
        .values_list("pk", "number", "round_id", "seat_count", "hand_count")
    )


def _per_table(model) -> models.Expression:
    """How many rows of ``model`` name the outer query's table (0 for none), as a subquery."""
    rows = model.objects.filter(table=models.OuterRef("pk")).order_by().values("table").annotate(n=Count("pk")).values("n")
    return models.functions.Coalesce(models.Subquery(rows, output_field=models.IntegerField()), 0)


def register(tournament: Tournament, player: Player, user=None) -> Registration:
    """Register ``player`` with the next free start number; returns the (existing) registration.
    Logged as done by ``user`` (:mod:`tournaments.actions`)."""
    with transaction.atomic():
        touch(tournament.pk)  # locks the row: start numbers are given one at a time
        existing = tournament.registrations.filter(player=player).first()
        if existing:
            return existing
        last = tournament.registrations.aggregate(m=Max("start_number"))["m"] or 0
        created = Registration.objects.create(tournament=tournament, player=player, start_number=last + 1)
        if user is not None:  # a director's registration; the demo and benchmarks register thousands
            actions.log(tournament.pk, actions.Action.REGISTERED, user, detail=f"{player.name} ({created.start_number})")
        return created


def past_tables(tournament: Tournament) -> dict[int, list[list[int]]]:
    """Registration ids per table of every round drawn so far, ``{round: [tables]}``, for repeat
    avoidance and for the draw report (which round a pair met in). Substitutes count as met."""
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table_id, reg_id, sub_id in Seat.objects.filter(table__round__tournament=tournament).values_list(
        "table__round__number", "table_id", "registration_id", "substitute_id"
    ):
        table = rounds.setdefault(round_number, {}).setdefault(table_id, [])
        table.extend([reg_id] if sub_id is None else [reg_id, sub_id])
    return {number: list(tables.values()) for number, tables in rounds.items()}


def draw_next_round(
    tournament: Tournament,
    seed: int | None = None,
    user=None,
    *,
    expected: int | None = None,
    unfinished_ok: bool = True,
    order: StandingsOrder | None = None,
) -> Round:
    """Draw and store the next round, or in the mode "all rounds at the start" every remaining
    round (``tournament-formats.md`` §2). Returns the first round drawn.

    Tables of the ruleset's sizes from ``seed`` (a fresh random seed when ``None``, stored with the
    round) in the tournament's draw mode: random avoiding players meeting again (default), pure
    random, all rounds at once minimising repeats over all of them, or by current standings; then
    seats by drawn card. Every active (not withdrawn) registration is seated exactly once.

    ``expected``: the round number the director's page offered to draw; if another request drew
    it meanwhile (a double click), :class:`AlreadyDone` and nothing is drawn. ``unfinished_ok``:
    without it, a previous round with tables still playing raises :class:`UnfinishedTables`
    naming them, for the director to confirm. ``order``: how the draw by standings orders the
    active players, called inside the draw's transaction (:data:`StandingsOrder`); by default
    :func:`standings_order`, the standings page's order.

    Raises :class:`DrawRefused` when every round is drawn already or the field cannot be seated
    (the message names the nearest player counts that work).
    """
    rs = tournament.get_ruleset()
    with transaction.atomic():
        touch(tournament.pk)
        tournament.refresh_from_db(fields=["rounds", "draw_mode", "status"])
        number = (tournament.round_set.aggregate(m=Max("number"))["m"] or 0) + 1
        if expected is not None and number > expected:
            raise AlreadyDone(_("Round %(number)s is drawn already.") % {"number": expected}, expected)
        if number > tournament.rounds:
            raise DrawRefused(_("All %(rounds)s rounds are drawn already.") % {"rounds": tournament.rounds})
        if not unfinished_ok and number > 1 and (playing := unfinished_tables(tournament, number - 1)):
            raise UnfinishedTables(number - 1, playing)
        players = list(
            tournament.registrations.filter(withdrawn=False).order_by("start_number").values_list("pk", flat=True)
        )
        if not players:
            raise DrawRefused(_nobody_to_seat(tournament))
        mode = tournament.draw_mode
        if mode == Tournament.DrawMode.BY_STANDINGS:
            players = (order or standings_order)(tournament, players)
        rounds = tournament.rounds - number + 1 if mode == Tournament.DrawMode.ALL_AT_START else 1
        seed = secrets.randbelow(2**62) if seed is None else seed
        try:
            drawn = draw_with_mode(
                mode,
                players,
                rs.table_sizes,
                rs.preferred_table_size,
                rs.max_other_tables,
                seed,
                past_tables(tournament),
                rs.seat_cards,
                rounds=rounds,
                first_round=number,
            )
        except SeatingImpossible as exc:
            raise DrawRefused(translate_problem(exc.problem)) from exc
        first = None
        for k, (result, seatings) in enumerate(drawn):
            rnd = _store_round(tournament, rs, number + k, result, seatings, user, drawn_with=seed)
            first = first or rnd
        if tournament.status == Tournament.Status.PLANNED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return first


def _store_round(tournament, rs, number: int, result, seatings, user, drawn_with: int) -> Round:
    """Store one drawn round: the round with its seed and report, its tables, seats and the log.
    ``drawn_with`` is the seed the director's draw started from (round k of an all-at-start draw
    has its own derived seed, reproducible only from that one).

    Four INSERTs whatever the field's size (SQLite splits a bulk insert into batches of 999
    parameters): the round, the log entry, the tables in one :func:`~tournaments.bulk_insert.insert_rows`,
    then their seats in another (an INSERT per table made most of a 3-round draw's 2.3 s at 5,000
    players, and Django's ``bulk_create`` preparing each value then most of the rest). Each table
    gets its token from :func:`tournaments.models.new_token`, the field's default; no signal
    handler listens to tables or seats being saved.
    """
    report = draw_report(result)
    report["mode"] = tournament.draw_mode
    if result.seed != drawn_with:
        report["drawn_with_seed"] = drawn_with
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        seed=result.seed,
        repeats=[list(p) for p in result.repeats],
        report=report,
    )
    actions.log(
        tournament.pk, actions.Action.DRAWN, user, round_number=number, seed=result.seed,
        repeats=len(result.repeats), detail=" ".join(str(len(s)) for s in seatings),
    )
    numbers = insert_rows(
        Table,
        ("round_id", "number", "first_dealer", "token"),
        [(rnd.pk, index + 1, rs.first_dealer(len(seating)), new_token()) for index, seating in enumerate(seatings)],
        returning=("id", "number"),
    )
    table_ids = {number: pk for pk, number in numbers}
    if None in table_ids.values():  # a database that returns no ids from a bulk insert
        table_ids = dict(Table.objects.filter(round=rnd).values_list("number", "pk"))
    insert_rows(
        Seat,
        ("table_id", "position", "registration_id", "card"),
        [
            (table_ids[index + 1], position, reg_id, card.key)
            for index, seating in enumerate(seatings)
            for position, (reg_id, card) in enumerate(seating)
        ],
    )
    return rnd


def draw_report(result) -> dict:
    """What the draw report shows of a :class:`tournaments.draw.RoundDraw`: table sizes, the pairs
    meeting again with the rounds they met before, the lowest number of repeats found."""
    rounds_met = getattr(result, "repeat_rounds", None) or [[] for _ in result.repeats]
    return {
        "sizes": [len(t) for t in result.tables],
        "repeats": [[a, b, list(r or [])] for (a, b), r in zip(result.repeats, rounds_met)],
        "best_repeats": getattr(result, "best_repeats", len(result.repeats)),
        "attempts": getattr(result, "attempts", 1),
    }


def _unlocked(rnd: Round, tables) -> None:
    """Raise :class:`DrawRefused` if a hand is entered at any of ``tables`` (the seating is locked)."""
    locked = sorted(t.number for t in tables if t.hands.exists())
    if locked:
        raise DrawRefused(
            ngettext(
                "Hands are entered at table %(tables)s of round %(number)s: its seating is locked.",
                "Hands are entered at tables %(tables)s of round %(number)s: their seating is locked.",
                len(locked),
            )
            % {"tables": table_list(locked), "number": rnd.number}
        )


def swap_players(rnd: Round, first: Registration, second: Registration, user=None) -> None:
    """Swap two players' seats in ``rnd`` (the drawn cards stay with the seats). Raises
    :class:`DrawRefused` if either is not seated in the round or a hand is entered at their tables."""
    with transaction.atomic():
        touch(rnd.tournament_id)
        seats = {s.registration_id: s for s in Seat.objects.select_for_update().filter(table__round=rnd, registration__in=[first, second])}
        if len(seats) != 2 or first.pk == second.pk:
            raise DrawRefused(_("Choose two different players seated in round %(number)s.") % {"number": rnd.number})
        a, b = seats[first.pk], seats[second.pk]
        _unlocked(rnd, {a.table, b.table})
        if a.table_id == b.table_id:
            # Same table: exchange places and cards. (table, position) is unique: move one aside first.
            Seat.objects.filter(pk=a.pk).update(position=255)
            Seat.objects.filter(pk=b.pk).update(position=a.position, card=a.card)
            Seat.objects.filter(pk=a.pk).update(position=b.position, card=b.card)
        else:
            Seat.objects.filter(pk=a.pk).update(registration=second)
            Seat.objects.filter(pk=b.pk).update(registration=first)
        actions.log(
            rnd.tournament_id, actions.Action.SWAPPED, user, round_number=rnd.number, seed=rnd.seed,
            detail=f"{first.player.name} ↔ {second.player.name}",
        )


def seat_substitute(seat: Seat, substitute: Registration, user=None) -> Seat:
    """A substitute takes over ``seat`` for the rest of the round, from the table's next hand on.

    Raises :class:`DrawRefused` if the substitute is of another tournament, withdrawn, already
    seated in this round, or the table has played all its hands.
    """
    table = seat.table
    rnd = table.round
    with transaction.atomic():
        touch(rnd.tournament_id)
        if substitute.tournament_id != rnd.tournament_id or substitute.withdrawn:
            raise DrawRefused(_("The substitute must be an active player of this tournament."))
        if Seat.objects.filter(table__round=rnd).filter(models.Q(registration=substitute) | models.Q(substitute=substitute)).exists():
            raise DrawRefused(_("%(name)s already plays in round %(number)s.") % {"name": substitute.player.name, "number": rnd.number})
        seat.substitute = substitute
        seat.substitute_from = table.hands.count() + 1
        seat.save(update_fields=["substitute", "substitute_from"])
        actions.log(
            rnd.tournament_id, actions.Action.SUBSTITUTE, user, round_number=rnd.number,
            detail=f"{seat.registration.player.name} → {substitute.player.name} ({table}, {seat.substitute_from})",
        )
    return seat


def delete_last_round(tournament: Tournament, user=None, expected: int | None = None) -> None:
    """Delete the last drawn round if no hand has been entered in it yet (to redraw it).

    ``expected``: the round the director asked to delete; if it is gone already (a double click),
    :class:`AlreadyDone` and the round before it stays. Raises :class:`DrawRefused` when there is
    no round or a hand is entered (the seating is locked).
    """
    with transaction.atomic():
        touch(tournament.pk)
        rnd = tournament.round_set.order_by("-number").first()
        if expected is not None and (rnd is None or rnd.number < expected):
            raise AlreadyDone(_("Round %(number)s is deleted already.") % {"number": expected}, expected)
        if expected is not None and rnd.number > expected:
            raise DrawRefused(_("Only the last round can be deleted."))
        if rnd is None:
            raise DrawRefused(_("No round has been drawn yet."))
        # Hands are saved under a lock on their table: lock the round's tables too.
        list(Table.objects.select_for_update().filter(round=rnd))
        if rnd.tables.filter(hands__isnull=False).exists():
            raise DrawRefused(_("Hands are entered in round %(number)s: its seating is locked.") % {"number": rnd.number})
        actions.log(
            tournament.pk, actions.Action.DELETED, user, round_number=rnd.number, seed=rnd.seed, repeats=len(rnd.repeats)
        )
        rnd.delete()



def redraw_last_round(
    tournament: Tournament, number: int, user=None, seed: int | None = None, order: StandingsOrder | None = None
) -> Round:
    """Draw round ``number``, the last one, again with a fresh seed, in one transaction: if the new
    draw is refused, the old round stays as it was. Both the deletion and the new draw are in the
    draw log. ``seed``: the seed of the draw the director saw; if the round was drawn again
    meanwhile (a double click), :class:`AlreadyDone` and it stays as it is. ``order`` as for
    :func:`draw_next_round`. Raises :class:`DrawRefused`."""
    with transaction.atomic():
        touch(tournament.pk)
        if tournament.round_set.filter(number__gt=number).exists():
            raise DrawRefused(_("Only the last round can be drawn again."))
        if seed is not None and tournament.round_set.filter(number=number).exclude(seed=seed).exists():
            raise AlreadyDone(_("Round %(number)s is drawn again already.") % {"number": number}, number)
        delete_last_round(tournament, user, expected=number)
        return draw_next_round(tournament, user=user, expected=number, order=order)
