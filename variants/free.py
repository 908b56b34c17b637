"""Free scoring: any Tarock game by written rows.

A tournament of a game the project has no rules for — Reform Tarock (the seeds' satirical game),
Zwanzigerrufen, a house variant — still gets the draw, the score sheets, the standings, the
exports, the cups and the live day: every hand is the row the table wrote on its sheet (a
``manual`` hand of ``hand-record.md``, "Fields"), or a struck hand. There is no rule file: what the
tournament sets is in its options. In the hand notation a line of numbers is the row, ``10 -5 -5 0``:
every hand is one, so the ``=`` of a manual row is not needed (``= 10 -5 -5 0`` reads the same) and
the canonical line leaves it out (:mod:`variants.notation`).

- ``zero_sum`` (on by default): every row must sum to 0, as in Königrufen and Cego; off for games
  that write only the declarer's result (as Bled does, ``tarok-bled.md`` §3).
- ``three_handed`` (off): the game is played by three, so a table of 3 is the usual one; off, by
  four (a table of 4).
- ``dealer_sits_out`` (off): at a table one larger than the game the dealer sits the hand out and
  scores 0 (``hand-record.md`` "Seats"): tables of 3 and 4 in a three-handed game, of 4 and 5 in a
  four-handed one. Off, every player at a table of 3, 4 or 5 plays every hand.

**Decisions** (no rule file speaks for these games): the standings sum the rows (game points),
ties broken by the best round, then the second best, …, then lots, as the Austrian cups
(``tournament-formats.md``); 3 rounds of 16 hands (24 in a three-handed game, as Cego and Tapp);
where the dealer sits out, a larger table plays proportionally more hands so that each player
plays as many; seats are drawn by card, the highest card (the Sküs) deals first and the others
follow by the strength of theirs (``tournament-formats.md`` §2, the rule of the three-handed
rulesets).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import Option, Ruleset, SeatCard, Settlement
from .checks import HandCheck
from .problems import Problem, _

SEAT_CARDS = (
    SeatCard("skus", _("Sküs")),
    SeatCard("21", _("Tarock XXI")),
    SeatCard("20", _("Tarock XX")),
    SeatCard("19", _("Tarock XIX")),
    SeatCard("18", _("Tarock XVIII")),
)

OPTIONS = (
    Option(
        "zero_sum",
        _("Every row sums to 0"),
        _("Off for games in which only the declarer writes his result."),
        default=True,
        source="variants/free.py",
    ),
    Option(
        "three_handed",
        _("A three-handed game"),
        _("Tables of 3 are the usual ones; off: tables of 4."),
        source="variants/free.py",
    ),
    Option(
        "dealer_sits_out",
        _("The dealer sits out at the larger tables"),
        _("Tables of 3 and 4 in a three-handed game, of 4 and 5 otherwise; the dealer of the larger table scores 0."),
        source="variants/free.py",
    ),
)

NOTATION_EXAMPLES = (
    # valid whatever the options: the dealer (seat 1) scores 0, as he would sitting out; the card
    # shows those of the game's own table (three seats in a three-handed game, four otherwise)
    (4, {"dealer": 0, "outcome": "manual", "scores": [0, 30, -10, -20]}),
    (4, {"dealer": 1, "outcome": "struck", "note": "misdealt"}),
    (3, {"dealer": 0, "outcome": "manual", "scores": [0, 20, -20]}),
    (3, {"dealer": 1, "outcome": "struck", "note": "misdealt"}),
)


class FreeScoringRuleset(Ruleset):
    """Hands as written rows only (see the module docstring for the options and Decisions).

    ``options``: ``zero_sum`` (default on), ``three_handed``, ``dealer_sits_out`` (default off).
    A played hand is refused (there are no contracts): a hand is a ``manual`` row of whole
    numbers, one per seat, summing to 0 where ``zero_sum`` is on, the sitting-out dealer 0; or
    ``struck``.
    """

    key = "free-scoring"
    edition = "rows"
    name = _("Free scoring")
    label = _("Free scoring (written rows)")
    source = _("No rule file: every hand is the row the table wrote.")
    contracts = ()
    bonuses = ()
    option_specs = OPTIONS
    default_rounds = 3
    default_round_minutes = None
    tiebreaks = ("best_rounds", "lots")

    def __init__(self, editions: Sequence[str] = (), options: Mapping | None = None):
        super().__init__(editions, options)
        self.zero_sum = bool(self.options["zero_sum"])
        self.game_size = 3 if self.options["three_handed"] else 4
        self.preferred_table_size = self.game_size
        if self.options["dealer_sits_out"]:
            self.table_sizes = (self.game_size, self.game_size + 1)
        else:
            self.table_sizes = (3, 4, 5)
        self.default_hands_per_round = 24 if self.game_size == 3 else 16

    def fields(self, contract) -> tuple[str, ...]:
        """No contract exists, so no contract asks for a field."""
        return ()

    def seat_cards(self, table_size: int) -> tuple[SeatCard, ...]:
        """Seating cards in seat order: seat 0 draws the Sküs and deals first."""
        return SEAT_CARDS[:table_size]

    def sitting_out(self, dealer: int, table_size: int) -> int | None:
        """The dealer of a table one larger than the game, with ``dealer_sits_out``; else nobody."""
        if self.options["dealer_sits_out"] and table_size > self.game_size:
            return dealer
        return None

    def hands_per_round(self, table_size: int, base: int | None = None) -> int:
        """``base`` hands at the usual table; where the dealer sits out, a larger table plays
        ``base × size / game size`` so that each player plays as many hands (Decision)."""
        base = self.default_hands_per_round if base is None else base
        if self.sitting_out(0, table_size) is not None:
            return base * table_size // self.game_size
        return base

    @property
    def notation_example_hands(self) -> tuple[tuple[int, dict], ...]:
        """The examples at the game's own table: rows of three in a three-handed game, of four
        otherwise (a row of four on the card of a three-handed game would show a seat nobody has)."""
        return tuple((size, record) for size, record in NOTATION_EXAMPLES if size == self.game_size)

    def rules_summary(self) -> list[Problem]:
        """How the tournament scores, with its options, for the rules page."""
        summary = [Problem(_("Every hand is the row the table wrote on its sheet: one whole number per player. The standings add the rows."))]
        summary.append(Problem(_("In the line a hand is its numbers in seat order, e.g. “30 -10 -10 -10”; no “=” is needed.")))
        summary.append(
            Problem(_("A row must sum to 0: a row that does not is refused as a writing error."))
            if self.zero_sum
            else Problem(_("Rows need not sum to 0."))
        )
        if self.options["dealer_sits_out"]:
            summary.append(
                Problem(_("At a table of %(size)s the dealer sits the hand out and scores 0."), size=self.game_size + 1)
            )
        return summary

    @property
    def checker(self) -> type:
        """The :class:`~variants.checks.HandCheck` subclass that validates the hands."""
        return _Check

    def settle(self, hand, table_size: int, history: Sequence = ()) -> Settlement:  # pragma: no cover - validation refuses played hands
        raise AssertionError("free scoring has no played hands")

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """A random written row (demos and benchmarks): a declarer wins or loses 1 to 10 tens from
        each other active player (zero-sum), or writes his result alone (not zero-sum)."""
        active = self.active_seats(dealer, table_size)
        declarer = rng.choice(active)
        value = 10 * rng.randint(1, 10) * rng.choice((1, 1, -1))
        scores = [0] * table_size
        if self.zero_sum:
            for seat in active:
                scores[seat] = -value
            scores[declarer] = value * (len(active) - 1)
        else:
            scores[declarer] = value
        return {"dealer": dealer, "outcome": "manual", "scores": scores}


class _Check(HandCheck):
    def check_played(self) -> None:
        self.add(_("Free scoring has no contracts: enter the row as written, e.g. “30 -10 -10 -10”."))
