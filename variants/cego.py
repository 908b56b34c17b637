"""Three-handed Cego as played at the Ichenheim tournament (``cego-ichenheim.md``).

Pure Python. A hand is scored from the declarer's card points: a base value ``B`` in steps of 5 over
35 (won) or below 36 (lost), times the contract's factor; every other player at the table — the
defenders and the sitting-out dealer of a 4-table — pays ``V`` to the declarer or receives it from
him. Rows sum to 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import Contract, Option, Ruleset, SeatCard, Settlement, ThreeHandedTables, seat_row
from .cardpoints import CardPointsError
from .checks import HandCheck, recorded_points, whole_points
from .problems import Problem, _

FAMILY_CEGO = "cego"  # the Cego family: cego .. geiss, factor f, may be played against a Solo

CONTRACTS = (
    # cego-ichenheim.md §2: key, name, factor f (Cego family), family
    Contract("cego", "Cego", 1, FAMILY_CEGO, vorhand_only=True, note=_("Vorhand's compulsory game"), code="c"),
    Contract("eine", "Eine", 2, FAMILY_CEGO, code="e"),
    Contract("eine_leere", "Eine Leere", 3, FAMILY_CEGO, code="el"),
    Contract("zwei_leere", "Zwei Leere", 4, FAMILY_CEGO, code="zl"),
    Contract("zwei_verschiedene", "Zwei Verschiedene", 5, FAMILY_CEGO, code="zv"),
    Contract("geiss", "Geiß", 6, FAMILY_CEGO, note=_("Kleiner Mann"), code="g"),
    Contract("solo", "Solo", 1, "solo", note=_("own hand, factor 1 won or lost"), code="s"),
    Contract("ulti", "Ulti", 20, "ulti", note=_("own hand, last trick with Trock I"), code="u"),
    Contract("solodu", "Solodu", 64, "solodu", note=_("own hand, every trick (Drescher)"), code="sdu"),
    # Options, off by default (§2 Decision; SEED 17.4)
    Contract("piccolo", "Piccolo", 10, "piccolo", code="p"),
    Contract("bettel", "Bettel", 15, "bettel", code="b"),
    Contract("raeuber", "Räuber", 5, "raeuber", vorhand_only=True, note=_("the player with most points pays"), code="rb"),
)
OPTION_CONTRACTS = {"piccolo": "piccolo", "bettel": "bettel", "raeuber": "raeuber"}

# Seating by card (tournament-formats.md §2): the highest card deals first, the others follow in
# playing order by the strength of their cards.
SEAT_CARDS = (
    SeatCard("gstiess", _("Gstieß")),
    SeatCard("21", _("Trock XXI")),
    SeatCard("20", _("Trock XX")),
    SeatCard("19", _("Trock XIX")),
)

BUERGERMEISTER = 35  # loses with exactly 35 (§3)

# Example hands of the reference card, (table size, record), each as typed for the first hand of a
# round (seat 0 deals, seat 1 is Vorhand), where the card shows it: Vorhand's Cego, an Eine Leere,
# an Eine against a Solo, an Ulti and a manual row.
NOTATION_EXAMPLES = (
    (3, {"dealer": 0, "contract": "cego", "declarer": 1, "declarer_points": 40}),
    (3, {"dealer": 0, "contract": "eine_leere", "declarer": 1, "declarer_points": 48}),
    (3, {"dealer": 0, "contract": "eine", "declarer": 2, "declarer_points": 30, "against_solo": True}),
    (3, {"dealer": 0, "contract": "ulti", "declarer": 0, "won": True}),
    (3, {"dealer": 0, "outcome": "manual", "scores": [4, -2, -2]}),
)


def base_value(points: int) -> int:
    """Base value ``B`` of ``cego-ichenheim.md`` §3 for the declarer's card points ``0..70``.

    Won (36 or more): one per 5 points or part of 5 over 35; lost: one per 5 points or part of 5
    below 36; 8 when one side took every trick (0 or 70).
    """
    if points in (0, 70):
        return 8
    if points >= 36:
        return -(-(points - 35) // 5)
    return -(-(36 - points) // 5)


OPTIONS = (
    # cego-ichenheim.md §2 Decision: Piccolo (10), Bettel (15) and Räuber (SEED 17.4), off by default
    Option("piccolo", _("Piccolo (10)"), _("The declarer takes no trick."), source="cego-ichenheim.md §2"),
    Option("bettel", _("Bettel (15)"), _("The declarer takes no trick, a higher game."), source="cego-ichenheim.md §2"),
    Option("raeuber", _("Räuber"), _("Everyone for himself; the player with most points pays."), source="cego-ichenheim.md §2"),
)


class CegoRuleset(ThreeHandedTables, Ruleset):
    """Validate and score Ichenheim Cego hands (``cego-ichenheim.md``).

    ``options``: ``piccolo``, ``bettel``, ``raeuber`` enable those contracts (off by default).
    """

    key = "cego-ichenheim"
    edition = "ichenheim"
    name = "Cego Ichenheim"
    label = "Cego Ichenheim"
    source = "Dummett & McLeod, supplement 17.3 (cego-ichenheim.md)"
    table_sizes = (3, 4)
    preferred_table_size = 3
    max_other_tables = 2  # "one or two tables of four players" (§1)
    zero_sum = True
    sitting_out_pays = True  # the sitting-out dealer "wins and loses equally with the defenders"
    default_rounds = 2  # "Two sessions of 24 deals" (§1)
    default_hands_per_round = 24
    # The rule file gives no time: 2 hours a round, as the Austrian cups play (Decision).
    default_round_minutes = 120
    seat_card_set = SEAT_CARDS  # the sitting-out dealer of a 4-table still pays and receives (§1)
    tiebreaks = ("card_draw",)  # §4: equal rank, then a card draw recorded by the director
    option_specs = OPTIONS
    notation_example_hands = NOTATION_EXAMPLES
    value_heading = _("Factor / value")

    def __init__(self, editions: Sequence[str] = (), options: Mapping | None = None):
        super().__init__(editions, options)
        self.contracts = tuple(
            c for c in CONTRACTS if c.key not in OPTION_CONTRACTS or self.options[OPTION_CONTRACTS[c.key]]
        )
        self._contracts = {c.key: c for c in self.contracts}

    # ----------------------------------------------------------------- catalogue and table format

    def contract(self, key: str) -> Contract:
        """The contract with ``key`` (enabled options only); raises ``KeyError``."""
        return self._contracts[key]

    def fields(self, contract: Contract) -> tuple[str, ...]:
        """The record fields the entry form asks for this contract."""
        if contract.family == FAMILY_CEGO:
            return ("declarer", "declarer_points", "against_solo")
        if contract.family == "solo":
            return ("declarer", "declarer_points")
        if contract.family == "raeuber":
            return ("card_points",)
        return ("declarer", "won")

    base_value = staticmethod(base_value)

    def flags(self, hand: Mapping) -> list[str]:
        """Display flags of §3: ``"buergermeister"`` (lost with exactly 35), ``"durchgegangen"`` (0)."""
        points = hand.get("declarer_points")
        try:
            points = whole_points(points) if points is not None else None
        except CardPointsError:
            return []
        if points == BUERGERMEISTER:
            return ["buergermeister"]
        if points == 0:
            return ["durchgegangen"]
        return []

    def won_of(self, record) -> bool | None:
        """A Solodu recorded with card points is won exactly with all 70 (§3 "Validation")."""
        contract = self._contracts.get(record.get("contract"))
        if contract is not None and contract.family == "solodu" and record.get("declarer_points") is not None:
            try:
                return whole_points(record["declarer_points"]) == 70
            except CardPointsError:
                return None
        return super().won_of(record)

    def hand_flags(self, record) -> list[Problem]:
        """The flags of §3 in words: "Bürgermeister" (lost with 35), "durchgegangen" (no trick)."""
        words = {"buergermeister": _("Bürgermeister"), "durchgegangen": _("durchgegangen")}
        return [Problem(words[f]) for f in self.flags(record)]

    def notable(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """Why a hand is worth mentioning (:meth:`Ruleset.notable`), in Cego's own terms (§2,
        §3): a Solo, Ulti or Solodu won (the own-hand games), every trick taken by the declarer
        (70 card points: the base value 8), and the flags of :meth:`hand_flags`,
        "Bürgermeister" (lost with exactly 35) and "durchgegangen" (no trick). The Räuber
        option, everyone for himself, is mentioned by name as Trischaken is. Never raises."""
        reasons = super().notable(record, row)
        if record.get("outcome", "played") != "played":
            return reasons
        contract = self._contracts.get(record.get("contract"))
        if contract is None or contract.family == "raeuber":
            return reasons
        points = recorded_points(record)
        if points == 70:
            reasons.append(Problem(_("every trick")))
        if contract.family in ("solo", "ulti", "solodu"):
            won = self.won_of(record)
            if won is None and points is not None:
                won = points >= BUERGERMEISTER + 1
            if won:
                reasons.append(Problem(_("%(contract)s won"), contract=contract.name))
        return reasons + self.hand_flags(record)

    def total_words(self, total: int) -> Problem | None:
        """Positive totals are "Gute", negative "Miese" (§4); "plus" and "minus" in English."""
        if total > 0:
            return Problem(_("plus"))
        if total < 0:
            return Problem(_("minus"))
        return None

    def rules_summary(self) -> list[Problem]:
        """§3 in one sentence for the rules page."""
        return [
            Problem(
                _(
                    "Cego family games: base value 1 per 5 card points or part of 5 over 35 (won) or below 36 (lost), 8 when one side took every trick; times the factor (+1 against a Solo). Every other player at the table, the sitting-out dealer of a 4-table too, pays or receives that much."
                )
            )
        ]

    # ------------------------------------------------------------------------------ scoring

    @property
    def checker(self) -> type:
        """The :class:`~variants.checks.HandCheck` subclass that validates this ruleset's hands."""
        return _Check

    def settle(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The zero-sum row of a valid played hand (§3)."""
        return _settle(self, dict(hand), table_size)

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """A hand of an Ichenheim evening (:func:`variants.randomhands.cego_hand`)."""
        from .randomhands import cego_hand

        return cego_hand(self, table_size, dealer, rng)


class _Check(HandCheck):
    def check_played(self) -> None:
        h = self.hand
        contract = self.contract()
        if contract is None:
            return
        for field_name, message in (
            ("partner", _("Cego has no partner.")),
            ("revoke", _("Cego has no Renonce settlement: enter a manual row agreed by the tournament director.")),
        ):
            if h.get(field_name) is not None:
                self.add(message)
        if h.get("bonuses"):
            self.add(_("Cego has no bonuses."))
        against_solo = h.get("against_solo", False)
        if not isinstance(against_solo, bool):
            self.add(_("“Against a Solo” must be true or false."))
        elif against_solo and contract.family != FAMILY_CEGO:
            self.add(_("Only the Cego games (Cego to Geiß) can be played against a Solo, not %(contract)s."), contract=contract.name)
        if contract.family == "raeuber":
            self.check_raeuber()
            return
        declarer = self.seat("declarer", _("declarer"), required=True)
        if (
            contract.vorhand_only
            and declarer is not None
            and declarer != self.vorhand
            and not against_solo
        ):
            self.add(
                _("Only Vorhand (%(vorhand_seat)s) may play a %(contract)s, unless against a Solo."),
                vorhand_seat=self.vorhand,
                contract=contract.name,
            )
        won = h.get("won")
        if won is not None and not isinstance(won, bool):
            self.add(_("“Won” must be true or false."))
            return
        raw = h.get("declarer_points")
        if contract.family in (FAMILY_CEGO, "solo") or (contract.family == "solodu" and raw is not None):
            points = self.declarer_whole_points()
            if points is None:
                return
            derived = points == 70 if contract.family == "solodu" else points >= 36
            if won is not None and won != derived:
                self.add(
                    _("%(points)s card points mean the %(contract)s was %(result)s."),
                    points=points,
                    contract=contract.name,
                    result=_("won") if derived else _("lost"),
                )
        elif won is None:
            self.add(_("Say whether the %(contract)s was won or lost."), contract=contract.name)

    def check_raeuber(self) -> None:
        """Räuber (option): whole card points for every active seat, summing to 70."""
        points = self.whole_card_points(
            _("Räuber needs the card points of every active player."),
            _("Card points must be whole numbers from 0 to 70 per seat, not “%(value)s”."),
            _("Räuber needs the card points of exactly the active players."),
            empty_is_missing=False,
        )
        if points is None:
            return
        if sum(points.values()) != 70:
            self.add(_("The card points add up to %(total)s, not 70."), total=sum(points.values()))
            return
        most = max(points.values())
        if list(points.values()).count(most) > 1:
            self.add(_("Two players tie for most points: enter a manual row agreed by the tournament director."))


def _settle(rs: CegoRuleset, h: dict, n: int) -> Settlement:
    contract = rs.contract(h["contract"])
    if contract.family == "raeuber":
        return _settle_raeuber(rs, h, n)
    declarer = h["declarer"]
    posts: list[tuple[str, int]] = []
    if contract.family in (FAMILY_CEGO, "solo"):
        points = whole_points(h["declarer_points"])
        won = points >= 36
        factor = contract.value + (1 if h.get("against_solo") else 0)
        value = base_value(points) * factor
        posts = [(_("base value"), base_value(points)), (_("factor"), factor)]
    elif contract.family == "solodu" and h.get("declarer_points") is not None:
        won = whole_points(h["declarer_points"]) == 70
        value = contract.value
    else:
        won = h["won"]
        value = contract.value
    sign = 1 if won else -1
    # Every other player — defenders and the sitting-out dealer — pays or receives V (§3 "Row").
    amounts = {s: -sign * value for s in range(n) if s != declarer}
    amounts[declarer] = sign * value * (n - 1)
    return Settlement(posts=tuple(posts), summary=_("won") if won else _("lost"), row=seat_row(n, amounts, "Cego"))


def _settle_raeuber(rs: CegoRuleset, h: dict, n: int) -> Settlement:
    """Räuber (SEED 17.4): the player with most points pays 5 to each other player, 10 if anyone
    took no trick, 20 if two did. **Decision**: the sitting-out dealer of a 4-table is not part of it."""
    points = {int(k): whole_points(v) for k, v in h["card_points"].items()}
    loser = max(points, key=points.get)
    without_trick = sum(1 for p in points.values() if p == 0)
    pay = 5 * (2 ** min(without_trick, 2))
    amounts = {s: pay for s in points if s != loser}
    amounts[loser] = -pay * (len(points) - 1)
    return Settlement(summary=_("the player with most points pays"), row=seat_row(n, amounts, "Cego"))
