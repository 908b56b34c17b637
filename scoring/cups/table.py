"""The cup table of a season from the database: each finished tournament of the cup and each
imported result (:class:`~scoring.cups.models.CupResult`) give cup points
(:func:`scoring.cups.points.shared_points`); :func:`scoring.cups.points.cup_table` ranks the season.

A tournament counts once its final standings are in (every round drawn and finished,
:attr:`scoring.standings.Standings.final`); until then it is listed as to come. Its field is the
players its final standings rank (a player who withdrew after playing keeps his place).

**Decisions**: a sub-ranking ranks the same cup points (earned against the whole field), among its
players only; an "away only" sub-ranking counts the away tournaments only, and its counting rule
applies to the away tournaments held (the planned number is the whole season's, so it does not
apply there). The final's qualifiers are the players with at least ``final_min_played``
tournaments, then the best ``final_top`` of those, and everyone level with the last of them; once
the cup's final (``Cup.final_tournament``) is held they are reckoned over the season without it.

**The Wiener Tarockcup final to 2019/20** (``Cup.wtc_final_negative`` with a final named,
``tournament-formats.md`` §4, revised 2026-11-26): in the final, ranks from 51 on score
``−(rank − 50)``; each qualifier (reckoned without the final) who did not play it gets a result
there of ``−(entrants − 49)``, ``entrants`` the final's field. **Decision** (the rule is silent):
the final's result is counted like any other by the cup's counting rule (with "all" it always
counts).
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.utils import formats

from scoring.cups.models import Cup, CupRanking, CupResult
from scoring.cups.points import (
    SHORT_NAME_LIMIT,
    CupRow,
    Result,
    absent_from_final_points,
    cup_table,
    place_of,
    results_counted,
    shared_points,
    short_names,
)
from scoring.standings import cached_standings
from tournaments.models import Player, Registration, Tournament


@dataclass(frozen=True)
class CupPlayer:
    """A player of the cup table: his register ``pk``, ``name`` and ``club``."""

    pk: int
    name: str
    club: str = ""


@dataclass(frozen=True)
class Event:
    """A tournament of the season: ``key`` (``"t<id>"`` for a tournament kept here, ``"x<id>"``
    for imported results), ``name``, ``date``, ``away``, its ``order`` in the season (1 = first
    held), the ``field`` size, the ``tournament`` if it is kept here and its ``short`` name, the
    head of its column (:func:`scoring.cups.points.short_names`)."""

    key: str
    name: str
    date: object
    away: bool
    order: int
    field: int
    tournament: Tournament | None = None
    short: str = ""


@dataclass
class CupStandings:
    """A cup's table: the ``events`` held (season order), the ``rows`` (:class:`~scoring.cups.points.CupRow`
    with a :class:`CupPlayer` each), ``counted`` (results counted per player), the tournaments
    still ``to_come``, the ``ranking`` shown (``None``: the whole cup) and the final's
    ``qualified`` rows. ``counts``: how many results the counting rule counts (the best half:
    reckoned from ``planned`` when ``from_planned``, else from the events held); ``final``: the
    cup's final if it is among the events held."""

    cup: Cup
    events: list[Event]
    rows: list[CupRow]
    counted: int
    to_come: list[Tournament] = field(default_factory=list)
    ranking: CupRanking | None = None
    qualified: list[CupRow] = field(default_factory=list)
    counts: int = 0
    planned: int | None = None
    final: Event | None = None

    @property
    def from_planned(self) -> bool:
        """Whether "the best half" is reckoned from the tournaments planned, not those held (a
        planned number below the tournaments held is overtaken by them)."""
        return self.cup.counting == "half" and self.planned is not None and self.planned >= len(self.events)

    @property
    def qualified_keys(self) -> set[int]:
        """The register keys of the final's qualifiers (to mark their rows)."""
        return {row.player.pk for row in self.qualified}

    @property
    def results(self) -> list[tuple[Event, CupPlayer, Result]]:
        """Every result of the table, by event then rank: for the workbook's sheet of results."""
        by_key = {e.key: e for e in self.events}
        found = [(by_key[r.key], row.player, r) for row in self.rows for r in row.results]
        return sorted(found, key=lambda item: (item[0].order, item[2].rank, item[1].name))


@dataclass
class _Held:
    """A tournament held, before the season is put in order: its rows are ``(player id, rank,
    total)``."""

    date: object
    name: str
    key: str
    away: bool
    tournament: Tournament | None
    rows: list[tuple]
    size: int = 0


def short_place(h: _Held) -> str:
    """What names a held tournament in a column head: the town of its venue (a tournament kept
    here, :func:`scoring.cups.points.place_of`), else its name if that is short (an imported event is
    mostly named by its place, "Absam"), else nothing (the head is its day)."""
    if h.tournament is not None and h.tournament.venue.strip():
        return place_of(h.tournament.venue)
    return h.name if len(h.name.strip()) <= SHORT_NAME_LIMIT else ""


def season(cup: Cup) -> tuple[list[Event], dict[int, list[Result]], dict[int, CupPlayer], list[Tournament]]:
    """Every result of the cup's season: ``(events, {player id: [Result]}, {player id: CupPlayer},
    tournaments to come)``. One standings computation per tournament of the cup, one query for
    the imported results."""
    held: list[_Held] = []
    to_come = []
    for t in cup.tournaments.order_by("date", "pk"):
        standings = cached_standings(t)
        if not standings.final or not standings.rows:
            to_come.append(t)
            continue
        owners = dict(Registration.objects.filter(tournament=t).values_list("pk", "player_id"))
        rows = [(owners[r.entry.key], r.rank, r.entry.total) for r in standings.rows]
        held.append(_Held(t.date, t.name, f"t{t.pk}", t.away, t, rows, len(rows)))
    imported: dict[tuple, _Held] = {}
    for result in CupResult.objects.filter(cup=cup).order_by("pk"):
        event = imported.setdefault((result.date, result.event), _Held(result.date, result.event, f"x{result.pk}", False, None, []))
        event.rows.append((result.player_id, result.rank, result.total))
        event.size = max(event.size, result.field_size)
        event.away = event.away or result.away
    held.extend(imported.values())
    held.sort(key=lambda h: (h.date, h.name))
    heads = short_names([(short_place(h), formats.date_format(h.date, "SHORT_DATE_FORMAT")) for h in held])
    final_key = final_event_key(cup, held)
    negative = cup.wtc_final_negative and final_key is not None
    events, results = [], defaultdict(list)
    for order, h in enumerate(held, start=1):
        events.append(Event(h.key, h.name, h.date, h.away, order, h.size, h.tournament, heads[order - 1]))
        sharing = Counter(rank for _p, rank, _t in h.rows)
        in_final = negative and h.key == final_key
        for player_id, rank, total in h.rows:
            points = shared_points(cup.method, rank, sharing[rank], h.size, total, final=in_final)
            results[player_id].append(Result(h.key, order, rank, points, sharing[rank] > 1))
    if negative:
        final = next(e for e in events if e.key == final_key)
        played = {player_id for player_id, _rank, _total in next(h for h in held if h.key == final_key).rows}
        for row in qualified(cup, rank_without_final(cup, events, results, final_key, cup.planned)):
            if row.player not in played:
                results[row.player].append(Result(final_key, final.order, 0, absent_from_final_points(final.field), absent=True))
    players = {pk: CupPlayer(pk, name, club) for pk, name, club in Player.objects.filter(pk__in=results).values_list("pk", "name", "club")}
    return events, dict(results), players, to_come


def final_event_key(cup: Cup, held: list) -> str | None:
    """The event key of the cup's final (``Cup.final_tournament``) if it is one of the cup's
    tournaments and held (its final standings in), else ``None``."""
    if cup.final_tournament_id is None:
        return None
    key = f"t{cup.final_tournament_id}"
    return key if any(h.key == key for h in held) else None


def rank_without_final(cup: Cup, events: list[Event], results: dict, final_key: str, planned: int | None) -> list[CupRow]:
    """The cup table over ``events`` without the final (for the final's qualifiers): ``results``
    by player (the rows' players are these keys), ``planned`` as :func:`cup_table` takes it."""
    without = {p: [r for r in rs if r.key != final_key] for p, rs in results.items()}
    without = {p: rs for p, rs in without.items() if rs}
    season_keys = [e.key for e in events if e.key != final_key]
    return cup_table(without, len(season_keys), cup.counting_rule, season_keys, cup.cup_tiebreak, planned)


def in_ranking(ranking: CupRanking | None, player: CupPlayer, members: set[int]) -> bool:
    """Whether ``player`` is ranked in ``ranking`` (every player when it names no club and no
    members: an away-only ranking of everyone)."""
    if ranking is None:
        return True
    if ranking.club.strip():
        return player.club.strip().casefold() == ranking.club.strip().casefold()
    return not members or player.pk in members


def cup_standings(cup: Cup, ranking: CupRanking | None = None, held: tuple | None = None) -> CupStandings:
    """The cup table of ``cup``, or of its sub-ranking ``ranking``, with the final's qualifiers
    (see the module's docstring). ``held``: the cup's :func:`season` if the caller has it (the
    workbook ranks the whole cup and every sub-ranking from one)."""
    events, results, players, to_come = held if held is not None else season(cup)
    members = set(ranking.members.values_list("pk", flat=True)) if ranking is not None else set()
    if ranking is not None and ranking.away_only:
        away_keys = {e.key for e in events if e.away}
        events = [e for e in events if e.away]
        results = {p: [r for r in rs if r.key in away_keys] for p, rs in results.items()}
    chosen = {players[p]: rs for p, rs in results.items() if rs and in_ranking(ranking, players[p], members)}
    held = len(events)
    away_only = ranking is not None and ranking.away_only
    planned = None if away_only else cup.planned
    rows = cup_table(chosen, held, cup.counting_rule, [e.key for e in events], cup.cup_tiebreak, planned)
    standings = CupStandings(cup, events, rows, max((len(r.counted) for r in rows), default=0), to_come, ranking)
    standings.counts = results_counted(held, cup.counting_rule, planned)
    standings.planned = planned or None
    final_key = f"t{cup.final_tournament_id}" if cup.final_tournament_id else None
    standings.final = next((e for e in events if e.key == final_key), None)
    if standings.final is None:
        standings.qualified = qualified(cup, rows)
    else:  # the final's qualifiers are reckoned without it
        before = rank_without_final(cup, events, {r.player: r.results for r in rows}, final_key, planned)
        keys = {row.player.pk for row in qualified(cup, before)}
        standings.qualified = [row for row in rows if row.player.pk in keys]
    return standings


def qualified(cup: Cup, rows: list[CupRow]) -> list[CupRow]:
    """The final's qualifiers among ``rows`` (best first): at least ``final_min_played``
    tournaments, then the best ``final_top`` of those and everyone level with the last. Empty
    when the cup has no final."""
    if cup.final_top is None and cup.final_min_played is None:
        return []
    eligible = [r for r in rows if cup.final_min_played is None or r.played >= cup.final_min_played]
    if cup.final_top is None or len(eligible) <= cup.final_top:
        return eligible
    last = eligible[cup.final_top - 1]
    return [r for i, r in enumerate(eligible) if i < cup.final_top or r.rank == last.rank]


def cup_version(cup_id: int) -> tuple[str, str] | None:
    """``("cup<id>", stamp)`` for the page cache: the cup's own version and the data versions of
    its tournaments, hashed (two queries); ``None`` when there is no such cup."""
    version = Cup.objects.filter(pk=cup_id).values_list("version", flat=True).first()
    if version is None:
        return None
    rows = Tournament.objects.filter(cup_id=cup_id).order_by("pk").values_list("pk", "data_version")
    joined = f"{version}|" + "-".join(f"{pk}:{v}" for pk, v in rows)
    return f"cup{cup_id}", hashlib.sha256(joined.encode()).hexdigest()[:20]


def touch_cup(cup_id: int) -> None:
    """Bump the cup's version (call inside the transaction of a change of the cup)."""
    from django.db.models import F

    Cup.objects.filter(pk=cup_id).update(version=F("version") + 1)
