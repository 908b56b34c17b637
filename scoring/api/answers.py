"""What the public API answers, as plain data (dicts, lists, numbers, text) ready for JSON: built
from what the public pages show and nothing else (no private link, token, role or e-mail).

Each builder reads the database itself and returns the answer of one endpoint; the views
(:mod:`scoring.api.views`) key it by the data version and keep it in the cache. The shapes are
documented by :mod:`scoring.api.serializers` (the OpenAPI schema); the rows are built here by hand,
not through DRF serializers, since the standings of 1,000 players are built again after every
hand. Texts (ruleset labels, tie-break explanations, hand labels, seat cards) are in the active
language, as on the pages.

Identifiers: a tournament's ``player_id`` is its registration's id, as in the address of the
player's page (``/t/<id>/players/<player_id>/``); a cup's ``player_id`` is the register's player
id, as in the cup's player page (``/cups/<id>/players/<player_id>/``).
"""

from __future__ import annotations

from fractions import Fraction

from django.db.models import Count
from django.urls import reverse
from django.utils.translation import gettext

from scoring.cups.exports import counting_text
from scoring.cups.models import Cup
from scoring.cups.table import CupStandings
from scoring.live.player_page import PlayerPage
from scoring.ranking import format_points
from scoring.standings import Standings
from scoring.templatetags.scoring_extras import total_words
from tournaments.links import absolute
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.problems import card_labels


def number(value) -> int | float | None:
    """A score or points as JSON takes it: a whole number as ``int``, a fraction (Bled's shared
    table points, ``Fraction(7, 6)``) as a ``float`` rounded to 4 places; ``None`` stays."""
    if value is None:
        return None
    value = Fraction(value).limit_denominator(1000)
    return int(value) if value.denominator == 1 else round(float(value), 4)


def tournament_links(pk: int) -> dict[str, str]:
    """Absolute addresses (on ``PUBLIC_URL``) of a tournament's pages, API answers and widget."""
    return {
        "self": absolute(reverse("api:tournament", args=[pk])),
        "standings": absolute(reverse("api:standings", args=[pk])),
        "rounds": absolute(reverse("api:rounds", args=[pk])),
        "page": absolute(reverse("tournaments:detail", args=[pk])),
        "standings_page": absolute(reverse("scoring:standings", args=[pk])),
        "widget": absolute(reverse("api:widget", args=[pk])),
    }


def _mirror_uid(t):
    """The venue's identifier of a mirror (each version of it is a new copy with its own), else
    ``None``."""
    if not t.mirrored_from:
        return None
    mirror = getattr(t, "mirror", None)  # the reverse one-to-one: None when there is none
    return mirror.uid if mirror is not None else None


def tournament_summary(t: Tournament) -> dict:
    """A tournament as the list shows it (and the detail begins)."""
    rs = t.get_ruleset()
    return {
        "id": t.pk,
        "uid": str(_mirror_uid(t) or t.uid),  # a mirror: the venue's, the same for every version
        "name": t.name,
        "date": t.date.isoformat(),
        "venue": t.venue,
        "ruleset": {"key": t.ruleset, "edition": t.edition, "label": gettext(rs.label)},
        "status": t.status,
        "rounds": t.rounds,
        "data_version": t.data_version,
        "mirrored_from": t.mirrored_from,
        "links": tournament_links(t.pk),
    }


def tournament_detail(t: Tournament) -> dict:
    """:func:`tournament_summary` with what the tournament's page adds: the rounds drawn, the
    active field, the hands per round, the cup it counts for (two queries)."""
    drawn = list(t.round_set.order_by("number").values_list("number", flat=True))
    cup = None
    if t.cup_id is not None:
        name = Cup.objects.filter(pk=t.cup_id).values_list("name", flat=True).first()
        cup = {"id": t.cup_id, "name": name, "link": absolute(reverse("api:cup", args=[t.cup_id]))}
    return {
        **tournament_summary(t),
        "hands_per_round": t.hands_per_round,
        "drawn_rounds": drawn,
        "players": t.registrations.filter(withdrawn=False).count(),
        "cup": cup,
    }


def standings_data(standings: Standings) -> dict:
    """The standings as the page shows them: per row the rank (``shared`` with the row above),
    the player, each counted round's score (and table points where the ruleset ranks by them,
    ``provisional`` while the table plays), the total as ranked (with what players call it,
    Cego's "Gute") and the game points, and the tie-break text that separated him from the row
    above."""
    t = standings.tournament
    rs = t.get_ruleset()
    victory = bool(rs.victory_points)
    words: dict = {}
    rows = []
    for row in standings.rows:
        e = row.entry
        total = row.total
        if total not in words:
            words[total] = "" if victory else total_words(total, rs)
        playing = e.playing or [False] * len(e.rounds)
        tables = e.tables or [None] * len(e.rounds)
        rows.append(
            {
                "rank": row.rank,
                "shared": row.shared,
                "player_id": e.key,
                "name": e.name,
                "club": e.club,
                "start_number": e.start_number,
                "withdrawn": e.withdrawn,
                "total": number(total),
                "total_shown": format_points(total) if victory else str(total),
                "total_words": words[total],
                "game_points": e.game_total,
                "rounds": [
                    {
                        "round": n,
                        "score": score,
                        "table": table,
                        "table_points": number(tp),
                        "table_points_shown": None if tp is None else format_points(tp),
                        "provisional": bool(provisional),
                        "playing": bool(still),
                    }
                    for n, (score, tp, provisional), table, still in zip(standings.rounds, e.round_cells, tables, playing)
                ],
                "tiebreak": row.tiebreak,
            }
        )
    return {
        "tournament": t.pk,
        "name": t.name,
        "rounds": standings.rounds,
        "after": standings.after,
        "final": standings.final,
        "provisional": standings.provisional,
        "level": standings.level,
        "ranked_by": rs.victory_points or "game_points",
        "tiebreaks": [k for k in rs.tiebreaks],
        "rows": rows,
        "links": tournament_links(t.pk),
    }


def rounds_data(t: Tournament, number: int | None = None) -> list[dict]:
    """The drawn rounds of ``t`` (or only round ``number``), each with its tables: the hands
    played and planned, and the seats in order with the player, his drawn card and a
    substitute who took over (three queries)."""
    cards = card_labels(t.get_ruleset())
    rounds = Round.objects.filter(tournament=t).order_by("number")
    tables = Table.objects.filter(round__tournament=t).annotate(hands_played=Count("hands")).order_by("round__number", "number")
    seats = Seat.objects.filter(table__round__tournament=t).select_related("registration__player", "substitute__player")
    if number is not None:
        rounds, tables, seats = rounds.filter(number=number), tables.filter(round__number=number), seats.filter(table__round__number=number)
    by_table: dict[int, list] = {}
    for s in seats.order_by("table_id", "position"):
        by_table.setdefault(s.table_id, []).append(s)
    out = {r.number: {"number": r.number, "verified": r.verified_at is not None, "tables": []} for r in rounds}
    for table in tables.values("pk", "number", "round__number", "ended_after", "hands_played"):
        members = by_table.get(table["pk"], [])
        planned = t.hand_cap(len(members), table["ended_after"])
        out[table["round__number"]]["tables"].append(
            {
                "id": table["pk"],
                "number": table["number"],
                "hands_played": table["hands_played"],
                "hands_planned": planned,
                "finished": table["hands_played"] >= planned,
                "seats": [seat_data(s, cards) for s in members],
                "link": absolute(reverse("scoring:sheet", args=[table["pk"]])),
            }
        )
    return list(out.values())


def seat_data(s: Seat, cards: dict[str, str]) -> dict:
    """A seat as the seating list shows it (``seat`` counts from 1)."""
    player = s.registration.player
    substitute = None
    if s.substitute_id is not None:
        substitute = {"player_id": s.substitute_id, "name": s.substitute.player.name, "from_hand": s.substitute_from}
    return {
        "seat": s.position + 1,
        "player_id": s.registration_id,
        "name": player.name,
        "club": player.club,
        "card": cards.get(s.card, s.card),
        "substitute": substitute,
    }


def player_data(page: PlayerPage) -> dict:
    """A player's results in one tournament, as his own page shows them: rank and total now,
    rank after the round before, and per round his table, seat, drawn card, tablemates, round
    score and each hand with his score and running total."""
    reg = page.registration
    t = reg.tournament
    return {
        "tournament": t.pk,
        "player_id": reg.pk,
        "name": reg.player.name,
        "club": reg.player.club,
        "start_number": reg.start_number,
        "withdrawn": reg.withdrawn,
        "rank": page.rank,
        "shared": page.shared,
        "total": number(page.total),
        "rank_before": page.rank_before,
        "rounds": [
            {
                "round": r.number,
                "table": r.table.number,
                "table_id": r.table.pk,
                "seat": r.seat,
                "card": r.card,
                "mates": r.mates,
                "score": r.score,
                "substitute_from": r.substitute_from,
                "hands": [{"number": h.number, "label": h.label, "score": h.score, "total": h.total} for h in r.hands],
            }
            for r in page.rounds
        ],
        "links": {
            "self": absolute(reverse("api:player", args=[t.pk, reg.pk])),
            "page": absolute(reverse("live:player", args=[t.pk, reg.pk])),
            "tournament": absolute(reverse("api:tournament", args=[t.pk])),
        },
    }


def cup_summary(cup: Cup) -> dict:
    """A cup as the list of cups shows it."""
    return {
        "id": cup.pk,
        "name": cup.name,
        "ruleset": cup.ruleset,
        "method": cup.method,
        "method_label": cup.get_method_display(),
        "links": {
            "self": absolute(reverse("api:cup", args=[cup.pk])),
            "page": absolute(reverse("cups:table", args=[cup.pk])),
        },
    }


def cup_table_data(standings: CupStandings) -> dict:
    """A cup's table (or one of its sub-rankings) as its page shows it: the tournaments held, and
    per row the rank (``shared``), the player, his result at each tournament (rank, cup points,
    whether it counts), the counted total and how many results count; the final's qualifiers
    and the tournaments still to come."""
    cup = standings.cup
    qualified = standings.qualified_keys
    events = [
        {
            "key": e.key,
            "name": e.name,
            "short": e.short,
            "date": e.date.isoformat(),
            "away": e.away,
            "players": e.field,
            "tournament_id": e.tournament.pk if e.tournament is not None else None,
        }
        for e in standings.events
    ]
    rows = [
        {
            "rank": row.rank,
            "shared": row.shared,
            "player_id": row.player.pk,
            "name": row.player.name,
            "club": row.player.club,
            "results": [
                {"event": r.key, "rank": r.rank or None, "shared": r.shared, "points": r.points, "counted": r.key in row.counted, "absent": r.absent}
                for r in row.results
            ],
            "total": row.total,
            "counted": len(row.counted),
            "played": row.played,
            "qualified": row.player.pk in qualified,
        }
        for row in standings.rows
    ]
    return {
        **cup_summary(cup),
        "ranking": None if standings.ranking is None else {"id": standings.ranking.pk, "name": standings.ranking.name},
        "rankings": [{"id": r.pk, "name": r.name} for r in cup.rankings.all()],
        "counting": counting_text(cup, standings),
        "events": events,
        "rows": rows,
        "to_come": [{"id": t.pk, "name": t.name, "date": t.date.isoformat()} for t in standings.to_come],
    }
