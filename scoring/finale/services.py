"""The Ö-Finale's two lists from the database (``../shared/rules/koenigrufen-raiffeisen.md`` §6.9).

- :func:`qualifiers`: every player whose final season rank in one of the finale's cups has an
  entry in that cup's Vorrundenpunkte table (``Cup.oe_finale_table``,
  :func:`scoring.cups.points.vorrundenpunkte`), with each such cup rank and its points, and his
  Vorrundenpunkte: the highest of them, or their sum with the option. A cup's table is its cup
  table (:func:`scoring.cups.table.cup_standings`: its finished tournaments and its imported
  results). Players sharing a cup rank each get that rank's value.
- :func:`gesamtwertung`: the Gesamtwertung "Österreichischer Tarockmeister" of the players the
  day's standings rank (:func:`scoring.standings.cached_standings`): Vorrundenpunkte (0 for a
  player who is no qualifier, marked) + Finalpunkte (the organiser's table at his day rank). Ties
  go to the better day rank, then to the lots: the day's standings already order their level
  players by the lots the director drew, so the order of the day decides; players the day leaves
  level (lots not drawn yet) share the Gesamtwertung's rank too.

**Decisions** where the rules are silent:

- *While the day goes on* the Gesamtwertung is shown as it stands, marked provisional: each player
  gets the Finalpunkte of his current day rank. Before any hand of the day is scored nobody has a
  day rank: the Finalpunkte are 0 and the Vorrundenpunkte alone order the field (level players
  share their rank). The same mark is given while a qualifying cup still has tournaments to come
  (or fewer held than it plans), since its ranks may still move, and while the Finalpunkte table
  is not entered.
- *A cup without a Vorrundenpunkte table* qualifies nobody; the pages name it.
- *A registered player who is no qualifier* (a guest, a late entry) plays and is ranked with 0
  Vorrundenpunkte, marked. A registered player the day does not rank (he withdrew before he
  played) is not in the Gesamtwertung, as he is not in the day's standings.
- *A qualifier who is not registered* is on the qualifiers' list, marked, and not in the
  Gesamtwertung.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.cups.models import Cup
from scoring.cups.points import VORRUNDENPUNKTE, vorrundenpunkte
from scoring.cups.table import CupPlayer, cup_standings
from scoring.finale import points
from scoring.finale.models import OeFinale
from scoring.standings import cached_standings
from tournaments import services as tournament_services
from tournaments.models import Player, Registration, Tournament
from tournaments.versioning import current_stamp


@dataclass(frozen=True)
class CupPlace:
    """A qualifier's place in one cup: its ``cup_id`` and ``cup_name``, his final season ``rank``
    (``shared`` with another player), and the Vorrundenpunkte it carries."""

    cup_id: int
    cup_name: str
    rank: int
    shared: bool
    points: int


@dataclass
class Qualifier:
    """A qualifier: the ``player`` (register key, name, club), his ``places`` (one per cup he
    qualified through, in the order of the finale's cups), his ``vorrundenpunkte``, his ``rank``
    on the list (``shared`` with the one above when level) and his ``registration`` id in the
    final's tournament (``None``: not registered)."""

    player: CupPlayer
    places: list[CupPlace]
    vorrundenpunkte: int = 0
    rank: int = 0
    shared: bool = False
    registration: int | None = None

    @property
    def registered(self) -> bool:
        return self.registration is not None


@dataclass
class QualifyingCup:
    """A cup of the finale: the ``cup``, its Vorrundenpunkte ``table`` (``""``: none), whether its
    season is ``final`` (no tournament to come, at least as many held as planned), the tournaments
    ``held`` and how many players ``qualified`` through it."""

    cup: Cup
    table: str
    final: bool
    held: int
    qualified: int = 0

    @property
    def ranks(self) -> int:
        """How many ranks its table has (0 without one)."""
        return len(VORRUNDENPUNKTE.get(self.table, ()))


@dataclass
class Qualifiers:
    """The qualifiers' list of a finale: its ``cups`` (:class:`QualifyingCup`, by name) and the
    ``rows`` (:class:`Qualifier`), by Vorrundenpunkte, then name."""

    finale: OeFinale
    cups: list[QualifyingCup]
    rows: list[Qualifier]

    @property
    def provisional(self) -> bool:
        """Some cup with a table has not finished its season: its ranks may still move."""
        return any(c.table and not c.final for c in self.cups)

    @property
    def without_table(self) -> list[Cup]:
        """The finale's cups that carry no Vorrundenpunkte (no table chosen)."""
        return [c.cup for c in self.cups if not c.table]

    @property
    def by_player(self) -> dict[int, Qualifier]:
        return {q.player.pk: q for q in self.rows}

    @property
    def unregistered(self) -> list[Qualifier]:
        return [q for q in self.rows if not q.registered]


def season_over(cup: Cup, held: int, to_come: int) -> bool:
    """Whether the cup's season is over: no tournament of it is still to come, and at least as
    many were held as it plans (when it says)."""
    planned = getattr(cup, "planned", None)
    return to_come == 0 and (planned is None or held >= planned)


def finale_of(tournament: Tournament) -> OeFinale | None:
    """The tournament's Ö-Finale, with its cups, or ``None`` if it is no Ö-Finale."""
    finale = OeFinale.objects.filter(tournament=tournament).prefetch_related("cups").first()
    if finale is not None:
        finale.tournament = tournament
    return finale


def qualifiers(finale: OeFinale) -> Qualifiers:
    """The finale's qualifiers (see the module's docstring): one cup table per cup with a
    Vorrundenpunkte table, one query for the registrations."""
    cups: list[QualifyingCup] = []
    found: dict[int, Qualifier] = {}
    for cup in sorted(finale.cups.all(), key=lambda c: (c.name.casefold(), c.pk)):
        table = cup.oe_finale_table if cup.oe_finale_table in VORRUNDENPUNKTE else ""
        if not table:
            cups.append(QualifyingCup(cup, "", True, 0))
            continue
        standings = cup_standings(cup)
        entry = QualifyingCup(cup, table, season_over(cup, len(standings.events), len(standings.to_come)), len(standings.events))
        cups.append(entry)
        sharing = Counter(row.rank for row in standings.rows)
        for row in standings.rows:
            value = vorrundenpunkte(table, row.rank)
            if value is None:
                continue
            entry.qualified += 1
            qualifier = found.setdefault(row.player.pk, Qualifier(row.player, []))
            qualifier.places.append(CupPlace(cup.pk, cup.name, row.rank, sharing[row.rank] > 1, value))
    for q in found.values():
        q.vorrundenpunkte = points.combined((p.points for p in q.places), finale.sum_vorrundenpunkte)
    registered = dict(
        Registration.objects.filter(tournament_id=finale.tournament_id, player_id__in=list(found)).values_list("player_id", "pk")
    )
    rows = sorted(found.values(), key=lambda q: (-q.vorrundenpunkte, q.player.name.casefold(), q.player.pk))
    for i, q in enumerate(rows):
        q.registration = registered.get(q.player.pk)
        if i and rows[i - 1].vorrundenpunkte == q.vorrundenpunkte:
            q.rank, q.shared = rows[i - 1].rank, True
        else:
            q.rank = i + 1
    return Qualifiers(finale, cups, rows)


@dataclass
class FinaleRow:
    """A line of the Gesamtwertung: ``rank`` (``shared`` with the line above when nothing
    separates them; ``tiebreak``: ``"day"`` when the better day rank, ``above_day_rank``, put the
    line above it, ``"level"`` when shared), the player's ``registration`` id, ``name`` and ``club``, his
    ``day_rank`` (``None`` before the day begins; ``day_shared`` while the day leaves him level)
    and Schrift (``day_total``), ``vorrundenpunkte``, ``finalpunkte``, their ``total``, and his
    ``qualifier`` entry (``None``: no qualifier, 0 Vorrundenpunkte)."""

    registration: int
    name: str
    club: str
    day_rank: int | None
    day_shared: bool
    day_total: float
    vorrundenpunkte: int
    finalpunkte: int
    qualifier: Qualifier | None
    rank: int = 0
    shared: bool = False
    tiebreak: str = ""
    above_day_rank: int | None = None

    @property
    def total(self) -> int:
        return self.vorrundenpunkte + self.finalpunkte


@dataclass
class Gesamtwertung:
    """The Gesamtwertung of a finale: its ``rows`` (:class:`FinaleRow`, best first), the
    ``qualifiers`` it was computed from, whether the day is ``day_final`` (its final standings)
    and ``day_started`` (some hand scored), whether the Finalpunkte ``table_entered``."""

    finale: OeFinale
    rows: list[FinaleRow]
    qualifiers: Qualifiers
    day_final: bool
    day_started: bool
    table_entered: bool
    outsiders: int = field(default=0)

    @property
    def final(self) -> bool:
        """The Gesamtwertung will not change: the day's standings are final, every qualifying
        cup's season is over and the Finalpunkte table is entered."""
        return self.day_final and not self.qualifiers.provisional and self.table_entered

    @property
    def day_level(self) -> bool:
        """Some players are level on the day after every tie-break (the lots are not drawn)."""
        return any(r.day_shared for r in self.rows)


def gesamtwertung(finale: OeFinale, found: Qualifiers | None = None) -> Gesamtwertung:
    """The finale's Gesamtwertung (see the module's docstring). ``found``: its
    :func:`qualifiers` if the caller has them. Queries: the qualifiers', the day's standings
    (cached per data version) and one for the registrations' players."""
    tournament = finale.tournament
    found = found if found is not None else qualifiers(finale)
    standings = cached_standings(tournament)
    table = tuple(finale.finalpunkte or ())
    owners = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "player_id"))
    by_player = found.by_player
    started = any(score is not None for row in standings.rows for score in row.entry.rounds)
    day_ranks = Counter(row.rank for row in standings.rows)
    rows: list[tuple[int, FinaleRow]] = []
    for position, row in enumerate(standings.rows):
        entry = row.entry
        qualifier = by_player.get(owners.get(entry.key))
        day_rank = row.rank if started else None
        rows.append((position, FinaleRow(
            registration=entry.key,
            name=entry.name,
            club=entry.club,
            day_rank=day_rank,
            day_shared=started and day_ranks[row.rank] > 1,
            day_total=entry.total,
            vorrundenpunkte=qualifier.vorrundenpunkte if qualifier else 0,
            finalpunkte=points.finalpunkte(table, day_rank),
            qualifier=qualifier,
        )))
    rows.sort(key=lambda item: (-item[1].total, item[0]))  # ties: the day's order (day rank, then its lots)
    ranked = [r for _position, r in rows]
    for i, r in enumerate(ranked):
        above = ranked[i - 1] if i else None
        if above is None or above.total != r.total:
            r.rank = i + 1
        elif above.day_rank == r.day_rank:
            r.rank, r.shared, r.tiebreak = above.rank, True, "level"
        else:
            r.rank, r.tiebreak, r.above_day_rank = i + 1, "day", above.day_rank
    return Gesamtwertung(
        finale, ranked, found, day_final=standings.final, day_started=started, table_entered=bool(table),
        outsiders=sum(1 for r in ranked if r.qualifier is None),
    )


ROUNDS, HANDS = 3, 16  # §6.9: 3 rounds (Decision) of 16 hands at a 4-table (20 at a 5-table)


def format_notes(tournament: Tournament) -> list[str]:
    """Where ``tournament``'s settings differ from the Ö-Finale's format (§6.9: 3 rounds of 16
    hands at a 4-table, the tables drawn at random each round), one translated sentence each; the
    director changes them on the tournament's form, if he means to. Nothing is enforced."""
    notes = []
    if tournament.rounds != ROUNDS:
        notes.append(_("The Ö-Finale plays %(format)s rounds; this tournament has %(rounds)s.") % {"format": ROUNDS, "rounds": tournament.rounds})
    if tournament.hands_per_round != HANDS:
        notes.append(_("The Ö-Finale plays %(format)s hands a round at a 4-table; this tournament plays %(hands)s.") % {"format": HANDS, "hands": tournament.hands_per_round})
    if tournament.draw_mode not in (Tournament.DrawMode.AVOID_REPEATS, Tournament.DrawMode.RANDOM):
        notes.append(_("The Ö-Finale draws its tables at random each round; this tournament draws them: %(mode)s.") % {"mode": tournament.get_draw_mode_display()})
    return notes


def finale_version(tournament_id: int) -> tuple[int, str] | None:
    """``(tournament id, stamp)`` for the page cache of the finale's pages: the tournament's data
    version (every change of the finale's settings bumps it) joined with the versions of its
    cups and their tournaments, hashed, so a corrected cup tournament or an import shows at once.
    ``None`` when there is no such tournament. Three queries at most."""
    found = current_stamp(tournament_id)
    if found is None:
        return None
    cups = list(Cup.objects.filter(oe_finales__tournament_id=tournament_id).order_by("pk").values_list("pk", "version"))
    if not cups:
        return tournament_id, found
    held = Tournament.objects.filter(cup_id__in=[pk for pk, _v in cups]).order_by("pk").values_list("pk", "cup_id", "data_version")
    joined = ",".join(f"{pk}:{v}" for pk, v in cups) + "|" + ",".join(f"{pk}:{c}:{v}" for pk, c, v in held)
    return tournament_id, f"{found}.f{hashlib.sha256(joined.encode()).hexdigest()[:16]}"


def register_qualifiers(finale: OeFinale, user=None) -> int:
    """Register every qualifier of ``finale`` not registered in its tournament yet, in the order
    of the qualifiers' list (:func:`tournaments.services.register`, logged as ``user``'s), in one
    transaction: all of them or none. Returns how many were registered (0 when every qualifier
    is, so a second click registers nobody twice)."""
    with transaction.atomic():
        missing = [q.player.pk for q in qualifiers(finale).unregistered]
        players = Player.objects.in_bulk(missing)
        for player_id in missing:
            tournament_services.register(finale.tournament, players[player_id], user)
    return len(missing)
