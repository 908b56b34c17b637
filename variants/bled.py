"""Three-handed Slovenian Tarok under the Bled tournament rules (``tarok-bled.md``).

Pure Python. Rows are declarer-only (§3): the declarer writes the hand's score, the defenders 0;
the player whose Mond was captured writes the Mond penalty; in Klop (§4) everyone writes his own.
A hand is scored with the radelci its declarer holds (§5), which follow from the earlier hands of
the same table and round (``history``, oldest first), so the same record can score differently
after another history.

A valat (§3, §6, revised 2026-11-26) is recorded as the ``valat`` bonus made, with its side
(``team`` declarer or opponents): the talon cards the declarer did not take count for the
defenders, so a valat never leaves the declarer exactly 70 or 0 card points. ``p`` may then be
left out, and if given lies on the winning side's half (36..70 for the declarer's valat, 0..34 for
the defenders'); ``p = 70`` or ``p = 0`` with no valat bonus still stand for the silent valat of
either side. In a Solo, whose whole talon is the defenders', the valat is recorded the same way,
made and silent (a Solo has no announcements and no other bonus).

Options (:data:`OPTIONS`; ``tarok-bled.md`` Decisions and §8): ``round_difference`` (the difference
to 35 rounded to the nearest 5, PAGAT; default exact, TNET), ``mond_penalty_20`` (the Mond penalty
is 20; default 21), ``solo_difference`` (Solo is 80 plus the difference; default a flat 80),
``rank_by_game_points`` (ranked by total game points alone; default by table points, §7),
``klop_full_above_35`` (in Klop only more than 35 is full), ``radelci_after_valat`` (default on: a
valat hands out radelci) and ``solo_valat`` (a Solo taking every trick scores the valat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .base import Bonus, Contract, Option, Ruleset, SeatCard, Settlement, ThreeHandedTables, seat_row
from .cardpoints import CardPointsError
from .checks import HandCheck, is_int, recorded_points, whole_points
from .problems import Problem, _

FAMILY_NORMAL = "normal"  # Trojka, Dvojko, Enojko: value + difference (§3)

CONTRACTS = (
    # tarok-bled.md §2: key, name, value, family
    Contract("klop", "Klop", None, "klop", vorhand_only=True, note=_("everyone for himself; forehand only"), code="k"),
    Contract("trojka", "Trojka", 10, FAMILY_NORMAL, vorhand_only=True, note=_("takes 3 talon cards; forehand only"), code="t", aliases=('3',)),
    Contract("dvojko", "Dvojko", 20, FAMILY_NORMAL, note=_("takes 2 talon cards"), code="d", aliases=('2',)),
    Contract("enojko", "Enojko", 30, FAMILY_NORMAL, note=_("takes 1 talon card"), code="e", aliases=('1',)),
    Contract("berac", "Berač", 70, "berac", note=_("take no trick; no talon"), code="b"),
    Contract("solo", "Solo", 80, "solo", note=_("without the talon; the talon counts for the defenders"), code="s"),
)

BONUSES = (
    # tarok-bled.md §3: silent / announced values
    Bonus("trula", "Trula", 10, 20, "material", code="tru"),
    Bonus("kralji", "Kralji", 10, 20, "material", code="kr"),
    Bonus("pagat_ultimo", "Pagat ultimo", 25, 50, "trick", can_fail_silently=True, code="pag"),
    Bonus("valat", "Valat", 250, 500, "valat", code="val"),
)

# Seating by card (tournament-formats.md §2): the highest card deals first, the others follow in
# playing order by the strength of their cards.
SEAT_CARDS = (
    SeatCard("skis", _("Škis")),
    SeatCard("mond", _("Mond (XXI)")),
    SeatCard("20", _("Tarok XX")),
    SeatCard("19", _("Tarok XIX")),
)

HALF = 35  # "35 loses" (§3)
PACK = 70  # card points in the pack (§1)
KLOP_TOTALS = (69, 70, 71, 72)  # each pile counted in threes (§4, §6; 69 revised 2026-11-26)
KLOP_FULL = 35  # "If a player takes 35 or more points" (§4)
KLOP_LIMIT = 70  # the −70 / +70 of a full or an empty player (§4; 140 under kontra)
MAX_KONTRA = 4  # kontra, re, sub, mort (hand-record.md "kontra")
RADELC_CONTRACTS = ("klop", "berac", "solo")  # §5
SILENT_VALAT = 250  # §3: a valat made silently

# Example hands of the reference card, (table size, record), each as typed for the first hand of a
# round (seat 0 deals, seat 1 is forehand), where the card shows it: a Dvojko with kontra and the
# Mond lost, a Trojka with a silent Trula and an announced Pagat ultimo, a Trojka valat recorded
# as the bonus with its card points (§3 revised 2026-11-26), a Klop with kontra, a Berač with
# rekontra and a manual row that still hands out radelci (a Solo).
NOTATION_EXAMPLES = (
    (3, {"dealer": 0, "contract": "dvojko", "declarer": 1, "declarer_points": 45, "kontra": 1, "mond_lost_by": 2}),
    (3, {"dealer": 0, "contract": "trojka", "declarer": 1, "declarer_points": 38, "bonuses": [
        {"bonus": "trula", "team": "declarer", "announced": False, "made": True},
        {"bonus": "pagat_ultimo", "team": "declarer", "announced": True, "made": True},
    ]}),
    (3, {"dealer": 0, "contract": "trojka", "declarer": 1, "declarer_points": 66, "bonuses": [
        {"bonus": "valat", "team": "declarer", "announced": False, "made": True},
    ]}),
    (3, {"dealer": 0, "contract": "klop", "card_points": {"0": 20, "1": 30, "2": 21}, "kontra_by": 2}),
    (3, {"dealer": 0, "contract": "berac", "declarer": 2, "won": False, "kontra": 2}),
    (3, {"dealer": 0, "outcome": "manual", "contract": "solo", "scores": [0, -160, 0]}),
)


def table_points(scores: Sequence[int]) -> list[Fraction]:
    """Table points of one round at one table (``tarok-bled.md`` §7): 2 / 1 / ½ for first /
    second / third by round score; tied players share the average of the places they occupy.

    ``scores``: the round score of each seat; returns the table points per seat as exact
    :class:`~fractions.Fraction` (a three-way tie shares 7/6 each, and totals compare exactly).
    **Decision** (the spec is silent): at a table of four the fourth place gets 0 (2 / 1 / ½ / 0).
    """
    places = (Fraction(2), Fraction(1), Fraction(1, 2), Fraction(0))
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    points = [Fraction(0)] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(places[i : j + 1]) / (j - i + 1)
        for k in order[i : j + 1]:
            points[k] = share
        i = j + 1
    return points


OPTIONS = (
    # Decisions of tarok-bled.md with PAGAT's readings (§3, §7), and the options table of §8
    # (2026-11-23). All off by default but radelci_after_valat.
    Option("round_difference", _("Difference to 35 rounded to the nearest 5"), _("PAGAT; exact by default (TNET)."), source="tarok-bled.md §3"),
    Option("mond_penalty_20", _("Mond penalty 20 instead of 21"), _("PAGAT, tarok-scoreboard."), source="tarok-bled.md §3, §8"),
    Option("solo_difference", _("Solo scores 80 plus the difference"), _("A flat 80 by default."), source="tarok-bled.md §3"),
    Option("rank_by_game_points", _("Rank by game points instead of table points"), source="tarok-bled.md §7"),
    Option(
        "klop_full_above_35",
        _("In Klop only more than 35 card points is full"),
        _("Exactly 35 then counts like any other total (Palčka, tarok-scoreboard)."),
        source="tarok-bled.md §8",
    ),
    Option(
        "radelci_after_valat",
        _("A valat hands out radelci"),
        _("Off: only Klop, Berač and Solo do (tarok-scoreboard)."),
        default=True,
        source="tarok-bled.md §5, §8",
    ),
    Option(
        "solo_valat",
        _("A Solo taking every trick scores the valat"),
        _("250, doubled by each kontra, in place of the Solo's 80 (TZS B1.14, Palčka)."),
        source="tarok-bled.md §8",
    ),
)


class BledRuleset(ThreeHandedTables, Ruleset):
    """Validate and score Bled Slovenian Tarok hands (``tarok-bled.md``).

    ``history`` matters here: the earlier hand records of the table in this round, oldest first
    (radelci, §5). Options: :data:`OPTIONS`.
    """

    uses_history = True  # a hand is scored after the earlier hands of its table and round (§5)
    key = "tarok-bled"
    edition = "2005"
    name = "Tarok Bled"
    label = "Tarok Bled (2005)"
    source = "Dummett & McLeod, supplement 16.8; Tarok.net rules (tarok-bled.md)"
    table_sizes = (3, 4)
    preferred_table_size = 3
    max_other_tables = 2  # N = 3a + 4b with at most two 4-tables (tournament-formats.md §1)
    zero_sum = False  # declarer-only rows (§3)
    sitting_out_pays = False  # the resting dealer of a 4-table scores 0, Klop included (§1)
    default_rounds = 4  # §1 Decision: 4 rounds of 21 hands
    default_hands_per_round = 21
    default_round_minutes = 90  # §1 Decision: "21 deals in 90 minutes"
    seat_card_set = SEAT_CARDS  # the dealer of a 4-table rests in every hand, Klop included (§1)
    bonuses = BONUSES
    contracts = CONTRACTS
    option_specs = OPTIONS
    notation_example_hands = NOTATION_EXAMPLES
    vorhand_only_note = _("forehand only.")
    marks_label = _("radelci")

    def __init__(self, editions: Sequence[str] = (), options: Mapping | None = None):
        super().__init__(editions, options)
        self._contracts = {c.key: c for c in CONTRACTS}
        self._bonuses = {b.key: b for b in BONUSES}

    # ----------------------------------------------------------------- catalogue and table format

    @property
    def victory_points(self) -> str | None:
        """``"table_points"`` when the tournament ranks by table points (§7), else ``None``."""
        return None if self.options["rank_by_game_points"] else "table_points"

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """§7: table points, then total game points, then a recorded draw; ranked by game points
        alone, only the draw is left."""
        return ("game_points", "lots") if self.victory_points else ("lots",)

    def contract(self, key: str) -> Contract:
        """The contract with ``key``; raises ``KeyError``."""
        return self._contracts[key]

    def bonus(self, key: str) -> Bonus:
        """The bonus with ``key``; raises ``KeyError``."""
        return self._bonuses[key]

    def allowed_bonuses(self, contract_key: str) -> tuple[Bonus, ...]:
        """Bonuses only in the normal games (§6); in a Solo only the valat, which records that
        one side took every trick (§3 revised 2026-11-26: its ``p`` never reaches 70 or 0)."""
        family = self.contract(contract_key).family
        if family == FAMILY_NORMAL:
            return BONUSES
        return (self.bonus("valat"),) if family == "solo" else ()

    def fields(self, contract: Contract) -> tuple[str, ...]:
        """The record fields the entry form asks for this contract (``hand-record.md`` "Fields")."""
        if contract.family == "klop":
            return ("card_points", "kontra_by")
        if contract.family == "berac":
            return ("declarer", "won", "kontra")
        if contract.family == "solo":
            return ("declarer", "declarer_points", "kontra", "bonuses", "mond_lost_by")
        return ("declarer", "declarer_points", "kontra", "bonuses", "mond_lost_by")

    @property
    def mond_penalty(self) -> int:
        """What the player whose Mond was captured writes, as a positive number (§3): 21, or 20."""
        return 20 if self.options["mond_penalty_20"] else 21

    def table_points(self, scores: Sequence[int]) -> list[Fraction]:
        """Table points of one table's round scores (§7, :func:`table_points`)."""
        return table_points(scores)

    def difference(self, points: int) -> int:
        """``|p − 35|`` (§3), rounded to the nearest 5 with the ``round_difference`` option."""
        d = abs(points - HALF)
        return (d + 2) // 5 * 5 if self.options["round_difference"] else d

    def klop_full(self, points: int) -> bool:
        """A Klop player who is "full" (§4): 35 or more, or more than 35 (``klop_full_above_35``)."""
        return points > KLOP_FULL if self.options["klop_full_above_35"] else points >= KLOP_FULL

    def rules_summary(self) -> list[Problem]:
        """§3–§7 in sentences for the rules page, with the options in force (how a valat is
        recorded: §3 and §6 revised 2026-11-26)."""
        lines = [
            Problem(
                _("Normal games: value plus the difference between the declarer's card points and %(half)s (35 loses), won or lost; each kontra doubles the game."),
                half=HALF,
            )
        ]
        if self.options["round_difference"]:
            lines.append(Problem(_("The difference is rounded to the nearest 5.")))
        lines += [
            Problem(
                _("Only the declarer writes the result; the defenders write 0. The player whose Mond was captured writes −%(penalty)s, which no kontra or radelc doubles."),
                penalty=self.mond_penalty,
            ),
            Problem(_("Valat: 250 silent, 500 announced, doubled by each kontra, in place of the game and the bonuses.")),
            Problem(_("A valat is recorded as the valat bonus of the side that made it; the declarer's card points may then be left out, or lie on that side's half (36 to 70 for his valat, 0 to 34 for the opponents'). In a Solo it is recorded made and silent.")),
            Problem(_("Solo: 80 plus the difference.") if self.options["solo_difference"] else _("Solo: 80, no difference.")),
            Problem(_("Berač: 70.")),
            Problem(
                _("Klop: everyone loses his card points; kontra doubles them. A player with more than 35 loses 70 (140 after a kontra) and the others nothing; a player without a trick wins 70 (140).")
                if self.options["klop_full_above_35"]
                else _("Klop: everyone loses his card points; kontra doubles them. A player with 35 or more loses 70 (140 after a kontra) and the others nothing; a player without a trick wins 70 (140).")
            ),
            Problem(
                _("Radelci: after every Klop, Berač, Solo and valat every player at the table gets a radelc. A declarer holding one scores his hand double, win or lose, and loses one radelc when he wins. Radelci left at the end of a round cost nothing.")
                if self.options["radelci_after_valat"]
                else _("Radelci: after every Klop, Berač and Solo (not after a valat) every player at the table gets a radelc. A declarer holding one scores his hand double, win or lose, and loses one radelc when he wins. Radelci left at the end of a round cost nothing.")
            ),
            Problem(
                _("Each round gives table points 2 / 1 / ½ by the round score at the table (tied players share); the tournament ranks by table points, then game points, then a drawn lot.")
                if self.victory_points
                else _("The tournament ranks by game points, then a drawn lot.")
            ),
        ]
        if self.options["solo_valat"]:
            lines.append(Problem(_("A Solo taking every trick scores the valat: 250, doubled by each kontra.")))
        return lines

    # ------------------------------------------------------------------------------ scoring

    @property
    def checker(self) -> type:
        """The :class:`~variants.checks.HandCheck` subclass that validates this ruleset's hands."""
        return _Check

    def settle(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The row of a valid played hand after ``history`` (the earlier records of its table and
        round, oldest first, assumed valid: they give the radelci held before it, §5)."""
        return _settle(self, dict(hand), table_size, self.radelci(history, table_size))

    def notable(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """Why a hand is worth mentioning (:meth:`Ruleset.notable`): the shared reasons (Klop,
        where everyone plays for himself; a valat recorded as a bonus; an announced Pagat ultimo
        made), a valat made silently (70 or 0 card points in a normal game or a Solo, §3, with
        or without the ``solo_valat`` option), and a Solo or a Berač won (§2, §3). Never raises."""
        reasons = super().notable(record, row)
        if record.get("outcome", "played") != "played":
            return reasons
        contract = self._contracts.get(record.get("contract"))
        if contract is None or contract.family == "klop":
            return reasons
        points = recorded_points(record)
        if points in (0, PACK) and not any(r.msgid == "Valat" for r in reasons):
            reasons.insert(0, Problem(_("Valat")))
        if contract.family == "berac":
            won = record.get("won")
        elif (valat := _made_valat(record)) is not None:
            won = valat.get("team") == "declarer"  # a valat made decides (§3 revised)
        else:
            won = points > HALF if points is not None else None
        if contract.family in ("berac", "solo") and won is True:
            reasons.append(Problem(_("%(contract)s won"), contract=contract.name))
        return reasons

    def describe(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """The hand in words (:meth:`Ruleset.describe`); a silent valat recorded by the card points
        alone (70 for the declarer, 0 for the opponents, §3) says "Valat" like one recorded as the
        bonus, so that every valat reads as one."""
        parts = super().describe(record, row)
        if record.get("outcome", "played") != "played" or _valat_entry(record) is not None:
            return parts
        contract = self._contracts.get(record.get("contract"))
        if contract is None or contract.family not in (FAMILY_NORMAL, "solo"):
            return parts
        points = recorded_points(record)
        if points in (0, PACK):
            team = "declarer" if points == PACK else "opponents"
            parts.append(self.bonus_words({"bonus": "valat", "team": team, "announced": False, "made": True}))
        return parts

    def manual_awards(self, hand) -> bool:
        """**Decision**: a manual row hands out radelci by its ``contract`` (§5)."""
        return hand.get("contract") in RADELC_CONTRACTS

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """A hand of a Bled round (:func:`variants.randomhands.bled_hand`)."""
        from .randomhands import bled_hand

        return bled_hand(self, table_size, dealer, rng)

    def history_marks(self, history: Sequence, table_size: int) -> list[str]:
        """"○" per radelc each seat holds after ``history``, as players draw them on the sheet."""
        return ["○" * n for n in self.radelci(history, table_size)]

    def history_note(self, record, history: Sequence, table_size: int) -> list[Problem]:
        """What ``record`` did with the radelci (§5): "radelc ×2" when the declarer's radelc
        doubled it, "+ radelc" when everyone got one after it."""
        held = self.radelci(history, table_size)
        before = list(held)
        self.apply_radelci(record, table_size, held)
        notes = []
        declarer = record.get("declarer")
        played = record.get("outcome", "played") == "played" and "declarer" in self.fields_of(record)
        if played and declarer is not None and 0 <= declarer < table_size and before[declarer]:
            notes.append(Problem(_("radelc ×2")))
        if any(after > was for after, was in zip(held, before)):  # only an award raises a count
            notes.append(Problem(_("+ radelc")))
        return notes

    def fields_of(self, record) -> tuple[str, ...]:
        """The fields of the record's contract, empty for an unknown one."""
        try:
            return self.fields(self.contract(record.get("contract")))
        except (KeyError, TypeError):
            return ()

    def radelci(self, history: Sequence, table_size: int) -> list[int]:
        """Radelci each seat holds after the hands of ``history`` (§5), oldest first.

        Per hand: the declarer who held one and won loses one; then, after Klop, Bera, Solo or a
        valat made or announced, every seat (a resting dealer too) gets one. Struck hands change
        nothing; **Decision**: manual hands give radelci by their ``contract`` and remove none.
        """
        held = [0] * table_size
        for record in history:
            self.apply_radelci(record, table_size, held)
        return held

    def apply_radelci(self, record: Mapping, table_size: int, held: list[int]) -> None:
        """Update ``held`` (radelci per seat) in place by one hand of the history (§5)."""
        outcome = record.get("outcome", "played")
        if outcome == "struck":
            return
        if outcome == "manual":
            awards = record.get("contract") in RADELC_CONTRACTS
        else:
            try:
                won, awards = _result(self, record)
            except (KeyError, TypeError, ValueError, CardPointsError):
                return  # a stored hand the ruleset now refuses (recompute reports it): no radelci
            declarer = record.get("declarer")
            if won and declarer is not None and held[declarer]:
                held[declarer] -= 1
        if awards:
            for seat in range(table_size):
                held[seat] += 1


class _Check(HandCheck):
    """§6 "Validation", plus the record rules of ``hand-record.md``."""

    def check_played(self) -> None:
        h = self.hand
        contract = self.contract()
        if contract is None:
            return
        for field_name, message in (
            ("partner", _("Slovenian Tarok has no partner: the declarer plays alone.")),
            ("revoke", _("Tarok Bled has no revoke settlement: enter a manual row agreed by the tournament director.")),
            ("against_solo", _("“Against a Solo” is a Cego field.")),
            ("conceded", _("Tarok Bled has no conceding.")),
        ):
            if h.get(field_name) not in (None, False):
                self.add(message)
        kontra = h.get("kontra", 0)
        if not is_int(kontra) or not 0 <= kontra <= MAX_KONTRA:
            self.add(_("The kontra level must be 0 to 4 (kontra, re, sub, mort)."))
            kontra = 0
        if contract.family == "klop":
            self.check_klop(kontra)
            return
        if h.get("kontra_by") is not None:
            self.add(_("“Kontra by” belongs to Klop; record the kontra level of %(contract)s instead."), contract=contract.name)
        if h.get("card_points"):
            self.add(_("Only Klop records every player's card points."))
        declarer = self.seat("declarer", _("declarer"), required=True)
        if contract.vorhand_only and declarer is not None and declarer != self.vorhand:
            self.add(
                _("Only forehand (%(vorhand_seat)s) may play %(contract)s."),
                vorhand_seat=self.vorhand,
                contract=contract.name,
            )
        won = h.get("won")
        if won is not None and not isinstance(won, bool):
            self.add(_("“Won” must be true or false."))
            return
        mond = self.seat("mond_lost_by", _("player who lost the Mond"), required=False)
        if contract.family == "berac":
            if won is None:
                self.add(_("Say whether the Berač was won or lost."))
            if h.get("declarer_points") is not None:
                self.add(_("A Berač is won or lost by tricks: enter no card points."))
            if mond is not None:
                self.add(_("There is no Mond penalty in a Berač."))
            if h.get("bonuses"):
                self.add(_("There are no bonuses in %(contract)s."), contract=contract.name)
            return
        if h.get("declarer_points") is None and _made_valat(h) is not None:
            points = None  # a valat made: the card points may be left out (§3, §6 revised)
        else:
            points = self.declarer_whole_points()
            if points is None:
                return
        if contract.family == "solo":
            valat = self.check_solo_bonuses(contract)
        else:
            valat = self.check_bonuses(points)
        if valat is not None:
            self.check_valat(valat, points)
            self.check_won_beside_valat(valat, contract)
        elif won is not None and points is not None and won != (points > HALF):
            self.add_won(points, contract)
        if contract.family == "solo" and points is None and self.rs.options["solo_difference"] and not self.solo_valat_scored(valat):
            self.add(_("A Solo scores 80 plus the difference in this tournament: enter the declarer's card points with the valat."))

    def solo_valat_scored(self, valat: Mapping | None) -> bool:
        """Whether a Solo's valat scores the valat (the ``solo_valat`` option, §8: the declarer's
        valat only) rather than the Solo."""
        return bool(self.rs.options["solo_valat"] and valat and valat.get("team") == "declarer" and valat.get("made") is True)

    def check_solo_bonuses(self, contract: Contract) -> Mapping | None:
        """A Solo has no bonuses (§3, §6) but the valat that records who took every trick (§3
        revised 2026-11-26), made and silent: a Solo has no announcements. Returns the valat
        entry, or ``None``."""
        bonuses = self.hand.get("bonuses") or []
        if not isinstance(bonuses, list) or not all(isinstance(b, Mapping) for b in bonuses):
            self.add(_("Bonuses must be a list of bonus entries."))
            return None
        if any(b.get("bonus") != "valat" for b in bonuses):
            self.add(_("There are no bonuses in %(contract)s."), contract=contract.name)
            return None
        if len(bonuses) > 1:
            self.add(_("%(bonus)s is recorded twice."), bonus=self.rs.bonus("valat").name)
            return None
        if not bonuses:
            return None
        b = bonuses[0]
        if b.get("team") not in ("declarer", "opponents") or not isinstance(b.get("announced"), bool) or not isinstance(b.get("made"), bool):
            self.add(_("%(bonus)s needs a team (declarer or opponents), announced and made."), bonus=self.rs.bonus("valat").name)
            return None
        if b["announced"] or not b["made"] or b.get("kontra"):
            self.add(_("In a Solo a valat is recorded only as made and silent: a Solo has no announcements."))
            return None
        return b

    def check_won_beside_valat(self, valat: Mapping, contract: Contract) -> None:
        """A valat made decides the result: a ``won`` given must agree with it (§3)."""
        won = self.hand.get("won")
        if won is None or not valat.get("made"):
            return
        if valat["team"] == "declarer" and won is not True:
            self.add(_("A valat made by the declarer means the %(contract)s was won."), contract=contract.name)
        elif valat["team"] == "opponents" and won is not False:
            self.add(_("A valat made by the opponents means the %(contract)s was lost."), contract=contract.name)

    def add_won(self, points: int, contract: Contract) -> None:
        self.add(
            _("%(points)s card points mean the %(contract)s was %(result)s."),
            points=points,
            contract=contract.name,
            result=_("won") if points > HALF else _("lost"),
        )

    def check_bonuses(self, points: int | None) -> Mapping | None:
        """The bonuses of a normal game (§3, §6); returns the valat bonus entry if one is recorded
        (well formed; :meth:`check_valat` then checks it against the card points ``points``,
        ``None`` where they were left out)."""
        bonuses = self.hand.get("bonuses") or []
        if not isinstance(bonuses, list) or not all(isinstance(b, Mapping) for b in bonuses):
            self.add(_("Bonuses must be a list of bonus entries."))
            return None
        seen: set[str] = set()
        valat = None
        for b in bonuses:
            key = b.get("bonus")
            if key not in self.rs._bonuses:
                self.add(_("Unknown bonus “%(bonus)s” in %(ruleset)s."), bonus=key, ruleset=self.rs.label)
                continue
            bonus = self.rs.bonus(key)
            if key in seen:
                self.add(_("%(bonus)s is recorded twice."), bonus=bonus.name)
            seen.add(key)
            team, announced, made = b.get("team"), b.get("announced"), b.get("made")
            if team not in ("declarer", "opponents") or not isinstance(announced, bool) or not isinstance(made, bool):
                self.add(_("%(bonus)s needs a team (declarer or opponents), announced and made."), bonus=bonus.name)
                continue
            level = b.get("kontra", 0)
            if not is_int(level) or not 0 <= level <= MAX_KONTRA:
                self.add(_("The kontra on %(bonus)s must be 0 to 4."), bonus=bonus.name)
            elif level and not announced:
                self.add(_("Only an announced bonus can be kontra'd, not a silent %(bonus)s."), bonus=bonus.name)
            if not announced and not made and not bonus.can_fail_silently:
                self.add(_("A silent %(bonus)s cannot fail: record it only when it was made."), bonus=bonus.name)
            if key == "valat":
                valat = b
                if level:
                    self.add(_("A valat is doubled by the kontra on the game, not on its own."))
        if valat is not None and len(seen) > 1:
            self.add(_("A valat replaces the game and the other bonuses: record no other bonus with it."))
        elif valat is None and points in (0, 70) and seen:
            self.add(_("%(points)s card points are a valat, which replaces the bonuses: record no bonus."), points=points)
        return valat

    def check_valat(self, b: Mapping, points: int | None) -> None:
        """The card points beside a valat (§3, §6, revised 2026-11-26): a valat made leaves them
        out or on the winning side's half, 36..70 for the declarer's, 0..34 for the opponents'
        (the talon cards he did not take count for the defenders, so it never reaches exactly 70);
        a failed one cannot have the card points of a valat made."""
        made, declarers = b["made"], b["team"] == "declarer"
        if points is None:
            return
        if made and declarers and not HALF < points <= PACK:
            self.add(_("A valat made by the declarer leaves him 36 to 70 card points, not %(points)s: correct them or leave them out."), points=points)
        elif made and not declarers and not 0 <= points < HALF:
            self.add(_("A valat made by the opponents leaves the declarer 0 to 34 card points, not %(points)s: correct them or leave them out."), points=points)
        elif not made and declarers and points == 70:
            self.add(_("70 card points are a valat made, not failed."))
        elif not made and not declarers and points == 0:
            self.add(_("0 card points mean the opponents' valat was made, not failed."))

    def check_klop(self, kontra: int) -> None:
        """§4 and §6: every active player's whole card points summing to 69–72 (revised
        2026-11-26); kontra by a player."""
        h = self.hand
        if kontra:
            self.add(_("In Klop the kontra level stays 0: record who said kontra instead."))
        declarer = h.get("declarer")
        if declarer is not None and declarer != self.vorhand:
            self.add(_("Klop has no declarer; forehand (%(vorhand_seat)s) chooses it."), vorhand_seat=self.vorhand)
        self.seat("kontra_by", _("player who said kontra"), required=False)
        if self.seat("mond_lost_by", _("player who lost the Mond"), required=False) is not None:
            self.add(_("There is no Mond penalty in Klop."))
        if h.get("bonuses"):
            self.add(_("There are no bonuses in %(contract)s."), contract="Klop")
        if h.get("declarer_points") is not None or h.get("won") is not None:
            self.add(_("Klop records every player's card points, not a declarer's result."))
        points = self.whole_card_points(
            _("Klop needs the card points of every active player."),
            _("Card points must be whole numbers from 0 to 70 per player, not “%(value)s”."),
            _("Klop needs the card points of exactly the active players."),
        )
        if points is None:
            return
        total = sum(points.values())
        if total not in KLOP_TOTALS:
            self.add(_("The card points add up to %(total)s; in Klop they come to 69, 70, 71 or 72."), total=total)


def _valat_entry(h: Mapping) -> Mapping | None:
    """The record's ``valat`` bonus entry, or ``None`` (also for bonuses that are no list)."""
    bonuses = h.get("bonuses")
    if not isinstance(bonuses, list):
        return None
    return next((b for b in bonuses if isinstance(b, Mapping) and b.get("bonus") == "valat"), None)


def _made_valat(h: Mapping) -> Mapping | None:
    """The record's valat bonus if it was made (by either side), else ``None`` (§3 revised)."""
    valat = _valat_entry(h)
    return valat if valat is not None and valat.get("made") is True else None


def _points(h: Mapping) -> int | None:
    """The declarer's whole card points of a valid record, ``None`` where a valat made left them
    out (§3 revised 2026-11-26)."""
    return None if h.get("declarer_points") is None else whole_points(h["declarer_points"])


def _solo_won(h: Mapping, points: int | None) -> bool:
    """Whether a valid Solo was won (§3): by the valat recorded (the declarer's made wins, the
    opponents' loses), else by more than 35 card points."""
    valat = _made_valat(h)
    if valat is not None:
        return valat["team"] == "declarer"
    return points > HALF


def _result(rs: BledRuleset, h: Mapping) -> tuple[bool | None, bool]:
    """``(won, awards)`` of a valid played hand for the radelci (§5): did the declarer win, and
    does every player get a radelc after it."""
    contract = rs.contract(h["contract"])
    if contract.family == "klop":
        return None, True
    if contract.family == "berac":
        return h["won"], True
    points = _points(h)
    if contract.family == "solo":
        return _solo_won(h, points), True
    valat_value = _valat(_valat_entry(h), points)
    if valat_value is not None:
        return valat_value > 0, bool(rs.options["radelci_after_valat"])  # §5 Decision, §8 option
    return points > HALF, False


def _settle(rs: BledRuleset, h: dict, n: int, held: Sequence[int]) -> Settlement:
    """Score a valid played hand with the radelci ``held`` per seat before it (§3–§5).

    A Solo whose declarer took every trick (70 card points, or his valat recorded, §3 revised)
    scores the Solo, or with the ``solo_valat`` option the silent valat (§8); the opponents'
    valat in a Solo is the Solo lost (**Decision**: the option names the Solo taking every trick).
    """
    contract = rs.contract(h["contract"])
    if contract.family == "klop":
        return _settle_klop(rs, h, n)
    won, awards = _result(rs, h)
    sign = 1 if won else -1
    factor = 2 ** h.get("kontra", 0)
    posts: list[tuple[str, int]] = []
    points = None if contract.family == "berac" else _points(h)
    valat = _valat_entry(h)
    if contract.family == "berac":
        value = contract.value * factor * sign
        posts.append((contract.name, value))
    elif contract.family == "solo" and rs.options["solo_valat"] and (
        (valat is None and points == PACK) or (valat is not None and valat["team"] == "declarer")
    ):
        value = SILENT_VALAT * factor  # every trick: the valat in place of the Solo (§8 solo_valat)
        posts.append((_("valat"), value))
    elif contract.family == "solo":
        extra = rs.difference(points) if rs.options["solo_difference"] else 0
        value = (contract.value + extra) * factor * sign
        posts.append((contract.name, value))
    else:
        valat_value = _valat(valat, points)
        if valat_value is not None:  # in place of game, difference and bonuses
            value = valat_value * factor
            posts.append((_("valat"), value))
        else:
            value = (contract.value + rs.difference(points)) * factor * sign
            posts.append((_("game"), value))
            for b in h.get("bonuses", []):
                amount = _bonus_value(rs.bonus(b["bonus"]), b)
                value += amount
                posts.append((rs.bonus(b["bonus"]).name, amount))
    doubled = held[h["declarer"]] > 0
    if doubled:  # §5: the whole hand score, win or loss; not the Mond penalty
        value *= 2
        posts.append((_("radelc ×2"), value))
    row = list(seat_row(n, {h["declarer"]: value}))
    if h.get("mond_lost_by") is not None:
        row[h["mond_lost_by"]] -= rs.mond_penalty
        posts.append((_("Mond lost"), -rs.mond_penalty))
    return Settlement(
        posts=tuple(posts),
        summary=_("won") if won else _("lost"),
        row=tuple(row),
        doubled=doubled,
        won=won,
        awards=awards,
    )


def _valat(valat: Mapping | None, points: int | None) -> int | None:
    """The valat score of a normal game before kontra and radelc (§3), ``None`` without a valat.

    Recorded as the valat bonus (whatever the card points beside it, §3 revised 2026-11-26):
    the declarer's +250 silent, +500 announced, −500 announced and failed; the opponents' −250
    silent, −500 announced; **Decision**: their announced valat that fails gives the declarer
    +500. Without the bonus, 70 card points are the declarer's silent valat (+250) and 0 the
    opponents' (−250).
    """
    if valat is None:
        if points == PACK:
            return 250
        if points == 0:
            return -250
        return None
    amount = 500 if valat["announced"] else 250
    sign = 1 if valat["made"] else -1
    return amount * sign * (1 if valat["team"] == "declarer" else -1)


def _bonus_value(bonus: Bonus, b: Mapping) -> int:
    """One bonus for the declarer (§3): plus when his side made it or the opponents' announced
    one failed, minus otherwise; an announced bonus × 2**its own kontra. **Decision**: a silent
    Pagat of the opponents beaten at the last trick gives the declarer +25."""
    value = (bonus.announced if b["announced"] else bonus.silent) * 2 ** b.get("kontra", 0)
    declarers = b["team"] == "declarer"
    return value if declarers == b["made"] else -value


def _settle_klop(rs: BledRuleset, h: dict, n: int) -> Settlement:
    """Klop (§4): everyone for himself; kontra doubles; full and empty players settle ±70."""
    points = {int(k): whole_points(v) for k, v in h["card_points"].items()}
    kontra_by = h.get("kontra_by")
    k = 2 if kontra_by is not None else 1
    full = [s for s, p in points.items() if rs.klop_full(p)]
    empty = [s for s, p in points.items() if p == 0]
    if full or empty:
        amounts = {s: 0 for s in points}
        for s in full:
            amounts[s] = -KLOP_LIMIT * k
        for s in empty:
            amounts[s] = KLOP_LIMIT * k
        summary = _("a full or an empty player settles Klop")
    elif kontra_by is not None and points[kontra_by] == max(points.values()):
        amounts = {s: -p for s, p in points.items()}
        amounts[kontra_by] = -2 * points[kontra_by]
        summary = _("kontra by the player with most points")
    else:
        amounts = {s: -k * p for s, p in points.items()}
        summary = _("kontra") if kontra_by is not None else _("each loses his card points")
    return Settlement(summary=summary, row=seat_row(n, amounts), awards=True)
