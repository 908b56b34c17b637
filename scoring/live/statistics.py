"""The statistics of the day: best hand of the day and of each round, the biggest round, the
contract mix and how often each contract was won, valats, the games in which everyone plays for
himself (Trischaken, Klop), kontras and the hands worth mentioning; the standings round by round for
the progression chart; and each player's results across every tournament he played.

A read model over stored rows, like :mod:`scoring.exporters.standings`: a fixed number of queries however
large the tournament (the seats, the hands, and the standings' own), rows loaded as tuples where
model instances are not needed (1,000 players play about 12,000 hands). What counts as a hand
worth mentioning is the ruleset's (:meth:`variants.base.Ruleset.notable`); nothing here asks for a
ruleset by name. Words are in the active language (the pages are cached per language).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.models import Hand
from scoring.services import record_positions
from scoring.standings import cached_standings, compute_standings
from tournaments.models import Player, Registration, Seat, Tournament
from tournaments.problems import translate_problem

NOTABLE_LIMIT = 100  # notable hands listed on the page and in the report (all are counted)
PROGRESSION_TOP = 10  # players drawn in the progression chart besides the one chosen
VALAT = "Valat"  # the msgid of the valat reason (Ruleset.notable's vocabulary)


# ----------------------------------------------------------------------------------- shapes


@dataclass(frozen=True)
class PlayerRef:
    """A player as a hand saw him: ``registration_id`` (for the link to his page) and ``name``."""

    registration_id: int
    name: str


@dataclass(frozen=True)
class HandRef:
    """Where a hand was played: ``round`` and ``table`` numbers, ``table_id`` (for the sheet's
    link) and the hand's ``number`` (1-based) at its table."""

    round: int
    table: int
    table_id: int
    number: int


@dataclass(frozen=True)
class BestHand:
    """A seat's score in one hand: ``score`` (points written, Schrift), the ``player`` who made
    it, ``where`` and ``words`` (the hand in words, :meth:`variants.base.Ruleset.describe`)."""

    score: int
    player: PlayerRef
    where: HandRef
    words: str


@dataclass(frozen=True)
class RoundBest:
    """The best hands (ties included) of round ``number``."""

    number: int
    hands: list[BestHand]


@dataclass(frozen=True)
class RoundScore:
    """A player's round score (the seat's stored score, what the standings show): ``score`` in
    round ``round`` at table ``table``."""

    score: int
    player: PlayerRef
    round: int
    table: int
    table_id: int


@dataclass
class ContractCount:
    """How often contract ``key`` (``name``) was played, and won by its declarer. ``decided``:
    the contract has a declarer who wins or loses (not Trischaken or Klop, where everyone plays
    for himself); ``won`` is 0 where it is not."""

    key: str
    name: str
    played: int = 0
    won: int = 0
    decided: bool = True

    @property
    def lost(self) -> int:
        """Games the declarer lost (0 where nobody wins or loses)."""
        return self.played - self.won if self.decided else 0

    @property
    def won_percent(self) -> int | None:
        """Share of the games won, whole percent (``None`` where nobody wins or loses)."""
        return round(100 * self.won / self.played) if self.decided and self.played else None


@dataclass(frozen=True)
class NotableHand:
    """A hand worth mentioning: ``where``, the ``reasons`` (translated), its ``words`` and the
    ``best`` score a seat made in it (the list is ordered by it)."""

    where: HandRef
    reasons: list[str]
    words: str
    best: int


@dataclass(frozen=True)
class Tally:
    """A count of hands for a reason or a player: ``label`` (translated text or a name),
    ``count``, and the player's ``registration_id`` where it is a player."""

    label: str
    count: int
    registration_id: int | None = None


@dataclass
class DayStatistics:
    """Everything of the statistics page and the day report (:func:`day_statistics`).

    Counts are of hands: ``played`` (scored from a record), ``manual`` (rows written by hand)
    and ``struck``. ``best``: the highest score a seat made in one hand, every hand that made it
    (ties), first played first; ``rounds``: the same per round; ``biggest``: the highest round
    score of a player (ties); ``contracts``: the mix in catalogue order, contracts played at least
    once; ``everyone``: the contracts in which everyone plays for himself, with their counts
    (Trischaken, Klop); ``valats``: hands with a valat made; ``kontra_hands``: hands with a kontra
    (on the game, on a bonus, or by a named player: :func:`kontra_said`) and ``kontras``: the
    players who said most kontras (ties; only where the record names who said it, ``kontra_by``:
    who said kontra to a Klop, who said the Kontra on a Königrufen game); ``reasons``: how many hands each
    reason of :meth:`~variants.base.Ruleset.notable` made worth mentioning; ``notable``: those
    hands, at most :data:`NOTABLE_LIMIT`, highest score first, of ``notable_total``.
    """

    tournament: Tournament
    ruleset: object
    played: int = 0
    manual: int = 0
    struck: int = 0
    best: list[BestHand] = field(default_factory=list)
    rounds: list[RoundBest] = field(default_factory=list)
    biggest: list[RoundScore] = field(default_factory=list)
    contracts: list[ContractCount] = field(default_factory=list)
    everyone: list[ContractCount] = field(default_factory=list)
    valats: int = 0
    kontra_hands: int = 0
    kontras: list[Tally] = field(default_factory=list)
    reasons: list[Tally] = field(default_factory=list)
    notable: list[NotableHand] = field(default_factory=list)
    notable_total: int = 0

    @property
    def hands(self) -> int:
        """Every hand that counts, played or written by hand (struck hands do not)."""
        return self.played + self.manual

    @property
    def more_notable(self) -> int:
        """Notable hands counted but not listed (beyond :data:`NOTABLE_LIMIT`)."""
        return self.notable_total - len(self.notable)


# ------------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class _Seat:
    """A seat as the statistics need it: its player, and the substitute who took it over from
    hand ``substitute_from`` on (``None``: nobody); the round scores of both (the seat's)."""

    player: PlayerRef
    substitute: PlayerRef | None
    substitute_from: int | None
    score: int
    substitute_score: int


@dataclass
class _Table:
    """A table as the statistics need it: round and table number, seats by position."""

    round: int
    number: int
    seats: dict[int, _Seat] = field(default_factory=dict)

    def player(self, position: int, hand_number: int) -> PlayerRef | None:
        """Who played seat ``position`` in hand ``hand_number``: the substitute from his first
        hand on, else the registered player (``None`` for a position without a seat)."""
        seat = self.seats.get(position)
        if seat is None:
            return None
        if seat.substitute is not None and seat.substitute_from is not None and hand_number >= seat.substitute_from:
            return seat.substitute
        return seat.player


def _tables(tournament: Tournament) -> dict[int, _Table]:
    """``{table_id: _Table}`` with every seat and its players (one query, rows as tuples)."""
    tables: dict[int, _Table] = {}
    refs: dict[int, PlayerRef] = {}

    def ref(pk, name):
        if pk not in refs:
            refs[pk] = PlayerRef(pk, name)
        return refs[pk]

    for table_id, round_number, number, position, reg_id, name, sub_id, sub_name, sub_from, score, sub_score in Seat.objects.filter(
        table__round__tournament=tournament
    ).values_list(
        "table_id",
        "table__round__number",
        "table__number",
        "position",
        "registration_id",
        "registration__player__name",
        "substitute_id",
        "substitute__player__name",
        "substitute_from",
        "score",
        "substitute_score",
    ):
        table = tables.setdefault(table_id, _Table(round_number, number))
        substitute = ref(sub_id, sub_name) if sub_id is not None else None
        table.seats[position] = _Seat(ref(reg_id, name), substitute, sub_from, score, sub_score)
    return tables


def _hands(tournament: Tournament):
    """``(table_id, number, record, scores)`` of every hand, in playing order (one query)."""
    return (
        Hand.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "number")
        .values_list("table_id", "number", "record", "scores")
    )


def own_row(record: dict, scores: list[int]) -> list[int]:
    """A stored row (over every seat of its table) in the hand's own seat numbering: the seats
    in play after a player left the table (the record's ``seats``), else the row as it is."""
    seats = record.get("seats")
    return [scores[p] if p < len(scores) else 0 for p in seats] if seats else list(scores)


def declarer_won(rs, record: dict, row: list[int]) -> bool | None:
    """Whether the declarer of a played hand won: as the record says (``won``,
    :meth:`~variants.base.Ruleset.won_of`), else by the sign of his score in ``row`` (own
    numbering), as the score sheet's words say it (:meth:`~variants.base.Ruleset.describe`);
    ``None`` without a declarer.

    **Decision**: where the card points decide (Cego, Bled) the declarer's own score decides; a
    Bled game lost whose silent bonuses outweigh the loss, or whose declarer lost his own Mond,
    reads as the sheet reads it.
    """
    won = rs.won_of(record)
    if won is not None:
        return won
    declarer = record.get("declarer")
    if isinstance(declarer, int) and 0 <= declarer < len(row):
        return row[declarer] > 0
    return None


def _words(rs, record: dict, row: list[int], names: dict[int, str]) -> str:
    """The hand in words with the players' names (the record's own numbering)."""
    return " · ".join(translate_problem(part, names) for part in rs.describe(record, row))


# ---------------------------------------------------------------------------- the day


def kontra_said(record: dict) -> bool:
    """Whether ``record`` carries a kontra level on the game or on one of its bonuses
    (``../shared/rules/hand-record.md`` "kontra"; Königrufen records them without scoring them,
    ``koenigrufen.md`` §1)."""
    levels = [record.get("kontra")] + [b.get("kontra") for b in record.get("bonuses") or [] if isinstance(b, dict)]
    return any(isinstance(level, int) and not isinstance(level, bool) and level > 0 for level in levels)


def day_statistics(tournament: Tournament) -> DayStatistics:
    """The statistics of ``tournament`` (:class:`DayStatistics`) from its stored hands and seats.

    Three queries (the seats with their players, the hands, the tournament's options are on the
    object) whatever the size: every hand is read once as a tuple. Scores are the points written
    (Schrift, ``../shared/rules/README.md``); a struck hand counts for nothing, a manual row
    counts for the best hand and the biggest round (it is what the sheet says) but not for the
    contract mix, which needs a played record.

    **Decision**: a tie for the best hand or the biggest round lists every player who made it,
    first played first; the notable hands are ordered by the highest score made in them, then as
    played, and at most :data:`NOTABLE_LIMIT` are listed.
    """
    rs = tournament.get_ruleset()
    stats = DayStatistics(tournament=tournament, ruleset=rs)
    tables = _tables(tournament)
    mix: dict[str, ContractCount] = {}
    # The best hands so far, of the day (key None) and of each round: (score, [(seat, hand)]).
    best: dict[int | None, tuple[int, list]] = {}
    reasons: Counter = Counter()
    reason_text: dict[str, str] = {}
    kontras: Counter = Counter()
    kontra_names: dict[int, str] = {}
    notable: list[tuple] = []
    played_tables: set[int] = set()
    for table_id, number, record, scores in _hands(tournament):
        table = tables.get(table_id)
        if table is None:
            continue
        played_tables.add(table_id)
        outcome = record.get("outcome", "played")
        if outcome == "struck":
            stats.struck += 1
            continue
        if outcome == "manual":
            stats.manual += 1
        else:
            stats.played += 1
        positions = record_positions(record, len(table.seats))
        row = own_row(record, scores)
        players = [table.player(p, number) for p in positions]
        hand = (HandRef(table.round, table.number, table_id, number), record, row, players)
        top = max(row) if row else 0
        for key in (None, table.round):
            score, hands = best.get(key, (None, []))
            if score is None or top > score:
                best[key] = (top, [hand])
            elif top == score:
                hands.append(hand)
        if outcome != "played":
            continue
        try:
            contract = rs.contract(record.get("contract"))
        except (KeyError, TypeError):
            continue  # a record the ruleset no longer knows (recompute reports it)
        count = mix.get(contract.key)
        if count is None:
            count = mix[contract.key] = ContractCount(contract.key, contract.name, decided="declarer" in rs.fields(contract))
        count.played += 1
        if count.decided and declarer_won(rs, record, row):
            count.won += 1
        by = record.get("kontra_by")
        if kontra_said(record) or by is not None:
            stats.kontra_hands += 1
        if isinstance(by, int) and 0 <= by < len(players) and players[by] is not None:
            kontras[players[by].registration_id] += 1
            kontra_names[players[by].registration_id] = players[by].name
        found = rs.notable(record, row)
        if found:
            for reason in found:
                key = str(reason)
                reasons[key] += 1
                if key not in reason_text:
                    reason_text[key] = translate_problem(reason)
            if any(getattr(r, "msgid", r) == VALAT for r in found):
                stats.valats += 1
            notable.append((top, hand, found))
    # Words only for what is shown: the best hands and the notable hands listed.
    stats.best = _best_hands(rs, best.pop(None, (0, []))[1])
    stats.rounds = [RoundBest(n, _best_hands(rs, hands)) for n, (_score, hands) in sorted(best.items())]
    order = {c.key: i for i, c in enumerate(rs.contracts)}
    stats.contracts = sorted(mix.values(), key=lambda c: order.get(c.key, len(order)))
    stats.everyone = [c for c in stats.contracts if not c.decided]
    stats.biggest = _biggest_rounds(tables, played_tables)
    if kontras:
        most = max(kontras.values())
        stats.kontras = [Tally(kontra_names[pk], most, pk) for pk, n in kontras.items() if n == most]
        stats.kontras.sort(key=lambda t: t.label)
    stats.reasons = [Tally(reason_text[key], n) for key, n in sorted(reasons.items(), key=lambda item: (-item[1], item[0]))]
    notable.sort(key=lambda item: (-item[0], item[1][0].round, item[1][0].table, item[1][0].number))
    stats.notable_total = len(notable)
    for top, (where, record, row, players), found in notable[:NOTABLE_LIMIT]:
        names = _names(players)
        words = _words(rs, record, row, names)
        stats.notable.append(NotableHand(where, [translate_problem(r, names) for r in found], words, top))
    return stats


def _names(players: list[PlayerRef | None]) -> dict[int, str]:
    """``{seat: name}`` in a hand's own numbering."""
    return {i: p.name for i, p in enumerate(players) if p is not None}


def _best_hands(rs, hands: list) -> list[BestHand]:
    """:class:`BestHand` of every seat that made the top score of ``hands`` (``(where, record,
    row, players)`` tuples of hands sharing the same top score), in playing order."""
    result = []
    for where, record, row, players in hands:
        top = max(row)
        words = _words(rs, record, row, _names(players))
        result.extend(
            BestHand(score, players[seat], where, words)
            for seat, score in enumerate(row)
            if score == top and seat < len(players) and players[seat] is not None
        )
    return result


def _biggest_rounds(tables: dict[int, _Table], played: set[int]) -> list[RoundScore]:
    """The highest round score of a player at a table that played a hand (ties: every one, in
    round and table order); the registered player's and a substitute's parts of a seat count
    each for its own player, as in the standings (:func:`scoring.standings.round_results`)."""
    scores: list[RoundScore] = []
    for table_id, table in tables.items():
        if table_id not in played:
            continue
        for seat in table.seats.values():
            scores.append(RoundScore(seat.score, seat.player, table.round, table.number, table_id))
            if seat.substitute is not None:
                scores.append(RoundScore(seat.substitute_score, seat.substitute, table.round, table.number, table_id))
    if not scores:
        return []
    top = max(s.score for s in scores)
    return sorted((s for s in scores if s.score == top), key=lambda s: (s.round, s.table, s.player.name))


def contract_mix(tournament: Tournament) -> list[ContractCount]:
    """The contract mix of the day alone (one query, for the chart): :attr:`DayStatistics.contracts`."""
    rs = tournament.get_ruleset()
    mix: dict[str, ContractCount] = {}
    for record, scores in Hand.objects.filter(table__round__tournament=tournament).values_list("record", "scores"):
        if record.get("outcome", "played") != "played":
            continue
        try:
            contract = rs.contract(record.get("contract"))
        except (KeyError, TypeError):
            continue
        count = mix.get(contract.key)
        if count is None:
            count = mix[contract.key] = ContractCount(contract.key, contract.name, decided="declarer" in rs.fields(contract))
        count.played += 1
        if count.decided and declarer_won(rs, record, own_row(record, scores)):
            count.won += 1
    order = {c.key: i for i, c in enumerate(rs.contracts)}
    return sorted(mix.values(), key=lambda c: order.get(c.key, len(order)))


# --------------------------------------------------------------------------- progression


@dataclass(frozen=True)
class Series:
    """One player's line in the progression chart: ``name``, ``registration_id``, his total
    after each round (``None`` before his first round), and whether he was ``chosen``."""

    name: str
    registration_id: int
    totals: list[float | None]
    chosen: bool = False


@dataclass(frozen=True)
class Progression:
    """The standings round by round: ``rounds`` (numbers), the ``label`` of what is summed
    (table points or game points) and the ``series`` (best first, the chosen player last)."""

    rounds: list[int]
    label: str
    series: list[Series]


def progression(tournament: Tournament, chosen: int | None = None, top: int = PROGRESSION_TOP) -> Progression:
    """The total after each round of the ``top`` players of the current standings, and of the
    player with registration id ``chosen`` if he is not among them (an id of another tournament
    or of nobody is ignored). The total is what the standings rank by: table points where the
    ruleset ranks by them (``tarok-bled.md`` §7), else game points (``tournament-formats.md``
    §1); a round a player did not play adds nothing. The standings' own queries, once.

    The rounds end at the last round in which a hand was played: where every round is drawn at
    the start, the rounds to come are not drawn as flat lines."""
    standings = compute_standings(tournament)
    ruleset = tournament.get_ruleset()
    label = _("Table points") if ruleset.victory_points else _("Game points")
    played = max((i for row in standings.rows for i, v in enumerate(row.entry.rounds) if v is not None), default=-1) + 1
    series = []
    for row in standings.rows:
        is_top = len(series) < top
        if not is_top and row.entry.key != chosen:
            continue
        values = (row.entry.victory if row.entry.victory is not None else row.entry.rounds)[:played]
        totals, total, started = [], 0, False
        for value in values:
            if value is not None:
                total += value
                started = True
            totals.append(float(total) if started else None)
        series.append(Series(row.entry.name, row.entry.key, totals, chosen=row.entry.key == chosen))
    return Progression(standings.rounds[:played], label, series)


# ------------------------------------------------------------------ across tournaments


@dataclass(frozen=True)
class TournamentResult:
    """A player's result in one tournament: ``rank`` (``None`` if not ranked), ``shared``,
    ``total`` (what the standings rank by), his ``best_round`` score and its ``best_round_number``
    (``None`` without a round played), and whether the standings are ``final``."""

    tournament: Tournament
    registration: Registration
    rank: int | None
    shared: bool
    total: object
    best_round: int | None
    best_round_number: int | None
    final: bool


@dataclass(frozen=True)
class Career:
    """A player across every tournament he played (registered in), newest first: ``results``,
    ``average_rank`` (one decimal, over the finished tournaments he is ranked in; ``None``
    without one) and ``best`` (the result with his best round score, ``None`` without a round)."""

    player: Player
    results: list[TournamentResult]
    average_rank: float | None
    best: TournamentResult | None


def career(player: Player) -> Career:
    """``player``'s results in every tournament he is registered in (:class:`Career`).

    Queries: one for his registrations, then the standings' own per tournament (his rank needs
    the whole field ranked under that tournament's ruleset and tie-breaks).

    **Decision**: the average rank counts only tournaments whose standings are final (every
    round drawn and played): a rank during a running tournament still moves. The best round is
    the highest round score (game points) in any tournament, a running one included: it is
    written and stays.
    """
    registrations = list(
        Registration.objects.filter(player=player).select_related("tournament").order_by("-tournament__date", "-tournament_id")
    )
    results = []
    for registration in registrations:
        standings = cached_standings(registration.tournament)
        mine = next((row for row in standings.rows if row.entry.key == registration.pk), None)
        rank = shared = total = best = best_number = None
        if mine is not None:
            rank, shared, total = mine.rank, mine.shared, mine.total
            played = [(score, n) for score, n in zip(mine.entry.rounds, standings.rounds) if score is not None]
            if played:
                best, best_number = max(played, key=lambda item: (item[0], -item[1]))
        results.append(TournamentResult(registration.tournament, registration, rank, bool(shared), total, best, best_number, standings.final))
    ranks = [r.rank for r in results if r.final and r.rank is not None]
    average = round(sum(ranks) / len(ranks), 1) if ranks else None
    with_round = [r for r in results if r.best_round is not None]
    best_result = max(with_round, key=lambda r: r.best_round) if with_round else None
    return Career(player, results, average, best_result)
