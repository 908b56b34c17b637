"""Three-handed Tapp-Tarock, edition "klassik" (``../shared/rules/tapp-tarock.md``).

Pure Python, no Django. The declarer plays alone against the other two. A played hand is split into
posts (``tapp-tarock.md`` §4): the game post ``G`` (the contract value ``V`` won or lost, or a Valat in
its place, times ``2**kontra``) and the Pagat post ``P``; their sum ``n`` is what each defender pays
the declarer (``+2n`` for the declarer, ``−n`` for each defender). Hand bonuses (Trull, Vier Könige,
Köpfe) are paid to the player who held them by each other active player, whichever side he was on.
At a 4-table the dealer sits out and scores 0, or, with the option ``fourth_with_defenders``, wins
and loses with the defenders. Rows always sum to 0.

Options (:data:`OPTIONS`, ``tapp-tarock.md`` §1, §4): ``fourth_with_defenders`` (off),
``failed_silent_pagat_counts`` (on), ``hand_bonuses`` (on), ``kontra_counts`` (on), ``valat_fixed``
(off: Valat 4V / 8V; on: 12 / 24).

**Decisions** where ``../shared/rules/tapp-tarock.md`` is silent (the rule file's own Decisions are
implemented as written):

- round clock: 105 minutes (§6 "24 ≈ 1¾ h");
- card points are spelled exactly ``36``, ``"36"`` or ``"36/0"`` (§1): no spaces, signs or leading
  zeros; a missing or ``null`` kontra reads 0, ``false`` is not a kontra level;
- a contract ``"pass"`` (also ``"passe"``, ``"passed"``, ``"all_pass"``) gets the §5 item 1 message
  about the redeal; the Hungarian Tarokk fields (``called``, ``all_tricks``, ``tarokks``, ``forfeit``)
  are refused like the unused fields of §3, and ``card_points: {}`` reads as absent;
- the cards exist once: each hand bonus at most once per hand; Trull and Köpfe never together,
  whoever holds them (three trull cards); a Trull holds the Pagat, so a recorded Pagat ultimo must
  be the Trull holder's side's;
- a Solo with 0 card points (no trick taken) counts as the defenders taking every trick for §5
  item 9; the defenders' Valat in a game with a talon half needs only a lost game (the declarer's
  discard, at least 1 point, is his), no other bound;
- posts: the game (or the Valat in its place) and the Pagat are what each defender pays the
  declarer (their sum is ``n``); a hand bonus's post is what each other active player pays its
  holder; a failed silent Pagat with ``failed_silent_pagat_counts`` off and hand bonuses with
  ``hand_bonuses`` off show as posts of 0;
- with ``fourth_with_defenders`` the sitting-out dealer shares ``−n`` but never pays or receives a
  hand bonus (§1: "hand bonuses stay among the three active seats").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .base import Bonus, Contract, Option, Ruleset, SeatCard, Settlement, ThreeHandedTables
from .checks import HandCheck, is_int
from .problems import Problem, _

FAMILY = "tapp"  # every Tapp contract: one declarer against two (§2)

CONTRACTS = (
    # tapp-tarock.md §2: key, name, value V, family
    Contract("dreier", "Dreier", 3, FAMILY, note=_("either talon half, chosen after seeing both"), code="d"),
    Contract("unterer", "Unterer", 4, FAMILY, note=_("the bottom talon half"), code="u"),
    Contract("oberer", "Oberer", 5, FAMILY, note=_("the top talon half"), code="o"),
    Contract("solo", "Solo", 8, FAMILY, solo=True, note=_("no talon; all six cards count for the defenders"), code="s"),
)

BONUSES = (
    # tapp-tarock.md §3: team bonuses (silent / announced) and hand bonuses (silent value only)
    Bonus("pagat", "Pagat ultimo", 4, 8, "trick", can_fail_silently=True, code="pag"),
    Bonus("valat", "Valat", 4, 8, "valat", multiplier=True, code="v"),
    Bonus("trull", "Trull", 3, None, "hand", description=_("Sküs, Mond and Pagat in one hand"), code="tr"),
    Bonus("vier_koenige", "Vier Könige", 3, None, "hand", description=_("all four Kings in one hand"), code="4k"),
    Bonus("koepfe", "Köpfe", 1, None, "hand", description=_("two of the three trull cards in one hand"), code="kp"),
)
# valat_fixed (§4 "Valat mode"): 12 silent / 24 announced whatever the contract.
FIXED_VALAT = Bonus("valat", "Valat", 12, 24, "valat", code="v")
HAND_BONUSES = ("trull", "vier_koenige", "koepfe")

# Seating by card (tournament-formats.md §2, tapp-tarock.md §6): the highest card deals first.
SEAT_CARDS = (
    SeatCard("skues", _("Sküs")),
    SeatCard("21", _("Tarock XXI")),
    SeatCard("20", _("Tarock XX")),
    SeatCard("19", _("Tarock XIX")),
)

WIN = 36  # the declarer needs 36 card points; 35 is Remis and loses (§1)
MAX_KONTRA = 3  # kontra, rekontra, subkontra (§3)
# Card points of the declarer (§1): 1..69 with a talon half, 0..68 in a Solo.
POINT_RANGE = {False: (1, 69), True: (0, 68)}
# §1 Decision (spelling): 36, "36" and "36/0" are the same; any other form is invalid.
_POINTS = re.compile(r"^(0|[1-9][0-9]*)(/0)?$", re.ASCII)
# Record fields Tapp-Tarock does not use (§3), with their defaults, and the message naming each.
UNUSED_FIELDS = (
    ("partner", (None,), _("Tapp-Tarock has no partner: the declarer plays alone against the other two.")),
    ("revoke", (None,), _("Tapp-Tarock has no Renonce settlement: enter a manual row agreed by the tournament director.")),
    ("card_points", (None, {}), _("Tapp-Tarock has no card points per player: record the declarer's card points only.")),
    ("kontra_by", (None,), _("Tapp-Tarock has no “kontra by”: record the kontra level of the game.")),
    ("mond_lost_by", (None,), _("Tapp-Tarock has no Mond penalty (“Mond lost by”).")),
    ("against_solo", (None, False), _("Tapp-Tarock has no game against a Solo (“against a Solo” is a Cego field).")),
    ("conceded", (None, False), _("Tapp-Tarock has no conceding: the game is played out.")),
    # Decision: the Hungarian Tarokk fields (hand-record.md, 2026-11-23) are refused as well.
    ("called", (None,), _("Tapp-Tarock calls no tarock (“called” is a Hungarian Tarokk field).")),
    ("all_tricks", (None,), _("Tapp-Tarock records a Valat as a bonus, not as “all tricks” (a Hungarian Tarokk field).")),
    ("tarokks", (None, {}), _("Tapp-Tarock has no eight or nine tarokks (“tarokks” is a Hungarian Tarokk field).")),
    ("forfeit", (None, False), _("Tapp-Tarock has no forfeit (a Hungarian Tarokk field).")),
)
# A contract key that says everybody passed (§1 Decision "all pass").
PASS_KEYS = ("pass", "passe", "passed", "all_pass")
# Why a hand bonus cannot be recorded twice (the cards exist once, §3).
TWICE_REASONS = {
    "trull": _("there is only one Sküs, Mond and Pagat"),
    "vier_koenige": _("there are only four Kings"),
    "koepfe": _("two players cannot both hold two of the three trull cards"),
}

OPTIONS = (
    Option(
        "fourth_with_defenders",
        _("The sitting-out dealer wins and loses with the defenders"),
        _("At a table of four the dealer pays or receives what each defender does (1821); off: he scores 0."),
        default=False,
        source="tapp-tarock.md §1",
    ),
    Option(
        "failed_silent_pagat_counts",
        _("A silent Pagat beaten at the last trick scores for the other side"),
        _("Off: a silent Pagat that fails scores nothing."),
        default=True,
        source="tapp-tarock.md §4",
    ),
    Option(
        "hand_bonuses",
        _("Hand bonuses: Trull 3, Vier Könige 3, Köpfe 1"),
        _("Paid to the holder by each other player. Off: recorded but scored 0 (Krüpl, Furr)."),
        default=True,
        source="tapp-tarock.md §4",
    ),
    Option(
        "kontra_counts",
        _("Kontras count in the score"),
        _("Kontra, Rekontra, Subkontra double the game or an announced Pagat. Off: recorded but not scored."),
        default=True,
        source="tapp-tarock.md §4",
    ),
    Option(
        "valat_fixed",
        _("Valat scores a fixed 12 silent / 24 announced"),
        _("Whatever the contract (Wikipedia, Tower Grove). Off: 4 / 8 times the contract value."),
        default=False,
        source="tapp-tarock.md §4",
    ),
)

# Example hands of the reference card, (table size, record), each at the game's table of three as
# typed for the first hand of a round (seat 0 deals), where the card shows it: a Dreier won with its
# card points, an Oberer lost by ``won`` with a Kontra, a Solo with an announced Pagat, the §4
# example of a hand bonus held by a defender (Unterer won, four Kings: +5 / +2 / −7), and a manual
# row.
NOTATION_EXAMPLES = (
    (3, {"dealer": 0, "contract": "dreier", "declarer": 1, "declarer_points": 41}),
    (3, {"dealer": 0, "contract": "oberer", "declarer": 2, "won": False, "kontra": 1}),
    (3, {"dealer": 0, "contract": "solo", "declarer": 1, "won": True,
         "bonuses": [{"bonus": "pagat", "team": "declarer", "announced": True, "made": True}]}),
    (3, {"dealer": 0, "contract": "unterer", "declarer": 0, "won": True,
         "bonuses": [{"bonus": "vier_koenige", "holder": 1}]}),
    (3, {"dealer": 0, "outcome": "manual", "scores": [-10, 5, 5], "note": "revoke"}),
)


def parse_points(value) -> int | None:
    """Whole card points from a record value (§1 Decision "spelling"): an ``int`` or the strings
    ``"36"`` / ``"36/0"``; ``None`` for anything else (a ``bool``, a Blatt part ``"35/2"``, a sign,
    spaces, leading zeros, a float). The range is not checked here."""
    if is_int(value):
        return value
    if isinstance(value, str):
        match = _POINTS.match(value)
        if match:
            return int(match.group(1))
    return None


def _is_default(value, defaults: tuple) -> bool:
    """Whether a record value is one of a field's defaults (``None``, ``False``, an empty
    mapping), compared strictly: ``0`` is not ``false``."""
    return any(
        (d is None and value is None)
        or (d is False and value is False)
        or (isinstance(d, dict) and isinstance(value, Mapping) and not value)
        for d in defaults
    )


def _level(value) -> int | None:
    """A kontra level as recorded: absent (``None``) reads 0; an int as it is; else ``None``."""
    if value is None:
        return 0
    return value if is_int(value) else None


class TappTarockRuleset(ThreeHandedTables, Ruleset):
    """Validate and score Tapp-Tarock hands (``../shared/rules/tapp-tarock.md``, edition "klassik").

    ``options`` (:data:`OPTIONS`): ``fourth_with_defenders``, ``failed_silent_pagat_counts``,
    ``hand_bonuses``, ``kontra_counts``, ``valat_fixed``. With ``fourth_with_defenders`` the
    sitting-out dealer of a 4-table pays and receives like a defender, so ``sitting_out_pays`` is
    true on that instance (a manual row may give him a non-zero entry, §5 item 12).
    """

    key = "tapp-tarock"
    edition = "klassik"
    name = "Tapp-Tarock"
    label = "Tapp-Tarock"
    source = "Mayr/Sedlaczek, Das Große Tarockbuch, via the encyclopedia article “Tapp-Tarock” (tapp-tarock.md)"
    table_sizes = (3, 4)
    preferred_table_size = 3
    max_other_tables = 2  # N = 3a + 4b with at most two 4-tables (§6)
    zero_sum = True
    sitting_out_pays = False  # §1 Decision: the dealer of a 4-table scores 0 (option: with the defenders)
    default_rounds = 3  # §6, as both Austrian cups
    default_hands_per_round = 24  # §6: eight Touren of three deals
    # §6: "21 Bled deals take 90 min, so 24 ≈ 1¾ h" — 105 minutes on the round's clock (Decision).
    default_round_minutes = 105
    tiebreaks = ("best_rounds", "lots")  # §6: best round, second-best, ..., then lots
    seat_card_set = SEAT_CARDS
    contracts = CONTRACTS
    option_specs = OPTIONS
    notation_example_hands = NOTATION_EXAMPLES
    kontra_names = ("", "kontra", "rekontra", "subkontra")  # §3: levels 0..3
    kontra_codes = ("", "k", "re", "sub")
    max_card_points = 70  # the pack (§1); the declarer's own range is checked by the ruleset

    def __init__(self, editions: Sequence[str] = (), options: Mapping | None = None):
        super().__init__(editions, options)
        fixed = bool(self.options["valat_fixed"])
        self.bonuses = tuple(FIXED_VALAT if fixed and b.key == "valat" else b for b in BONUSES)
        self._bonuses = {b.key: b for b in self.bonuses}
        self._contracts = {c.key: c for c in CONTRACTS}
        # §1 option: the sitting-out dealer wins and loses with the defenders (HandCheck.check_manual).
        self.sitting_out_pays = bool(self.options["fourth_with_defenders"])

    # ----------------------------------------------------------------- catalogue and table format

    def contract(self, key: str) -> Contract:
        """The contract with ``key`` (§2); raises ``KeyError`` (also for an unhashable key)."""
        try:
            return self._contracts[key]
        except TypeError:
            raise KeyError(key) from None

    def bonus(self, key: str) -> Bonus:
        """The bonus with ``key`` (§3, the Valat as the ``valat_fixed`` option sets it); raises ``KeyError``."""
        try:
            return self._bonuses[key]
        except TypeError:
            raise KeyError(key) from None

    def allowed_bonuses(self, contract_key: str) -> tuple[Bonus, ...]:
        """Every bonus in every contract (§3); raises ``KeyError`` for an unknown contract."""
        self.contract(contract_key)
        return self.bonuses

    def fields(self, contract: Contract) -> tuple[str, ...]:
        """The record fields of every contract (§3): ``declarer``, ``won`` or ``declarer_points``,
        ``kontra`` and ``bonuses``."""
        return ("declarer", "won", "declarer_points", "kontra", "bonuses")

    def hands_per_round(self, table_size: int, base: int | None = None) -> int:
        """Hands a table plays in a round (§6): ``base`` (default 24) at a 3-table, ``base × 4 // 3``
        at a 4-table (32), so that each player plays as many hands as at a 3-table."""
        base = self.default_hands_per_round if base is None else base
        return base * table_size // 3

    def won_of(self, record) -> bool | None:
        """Whether the declarer won (§3): from ``declarer_points`` (36 or more) where they are given
        and read as whole points, else the record's ``won``; ``None`` where neither says. Never raises."""
        if isinstance(record, Mapping) and record.get("declarer_points") is not None:
            points = parse_points(record["declarer_points"])
            if points is not None:
                return points >= WIN
        return super().won_of(record) if isinstance(record, Mapping) else None

    def valat_value(self, contract: Contract, announced: bool) -> int:
        """The Valat in place of the game post, before kontra (§4): ``4V`` silent / ``8V`` announced,
        or with ``valat_fixed`` 12 / 24 whatever the contract (not doubled in a Solo)."""
        if self.options["valat_fixed"]:
            return FIXED_VALAT.announced if announced else FIXED_VALAT.silent
        return (8 if announced else 4) * contract.value

    # ------------------------------------------------------------------------------- in words

    def notable(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """Why a hand is worth mentioning (:meth:`Ruleset.notable`): a Valat made by either side
        ("Valat"), a Solo won ("Solo won"), an announced Pagat made, and the Trull and the Vier
        Könige held ("Trull: seat 2"). Never raises.

        **Decision**: Köpfe (two trull cards, about every other hand) is not mentioned; a Solo
        whose announced Valat failed is not mentioned as won (the declarer pays ``8V``, §4).
        """
        if not isinstance(record, Mapping) or record.get("outcome", "played") != "played":
            return []
        bonuses = record.get("bonuses")
        if not isinstance(bonuses, (list, tuple)):
            bonuses = []
            record = {**record, "bonuses": bonuses}
        entries = [b for b in bonuses if isinstance(b, Mapping) and isinstance(b.get("bonus"), str)]
        try:
            reasons = super().notable(record, row)
            failed_valat = any(
                b["bonus"] == "valat" and b.get("team") == "declarer" and b.get("announced") and b.get("made") is False
                for b in entries
            )
            if failed_valat:
                reasons = [r for r in reasons if r.msgid != "%(contract)s won"]
            for b in entries:
                if b["bonus"] in ("trull", "vier_koenige") and is_int(b.get("holder")):
                    reasons.append(self.bonus_words(b))
        except (AttributeError, KeyError, TypeError, ValueError):  # a stored record of any shape
            return []
        return reasons

    def rules_summary(self) -> list[Problem]:
        """§2–§4 in sentences for the rules page, with the options in force."""
        o = self.options
        lines = [
            Problem(
                _("Dreier 3, Unterer 4, Oberer 5, Solo 8: the declarer needs 36 card points (35 is Remis and loses) and receives the value from each defender, or pays it to each.")
            ),
            Problem(
                _("Valat, in place of the game: 12 silent, 24 announced, whatever the contract. An announced Valat that fails costs 24; the defenders' Valat costs the declarer 12.")
                if o["valat_fixed"]
                else _("Valat, in place of the game: 4 times the contract value silent, 8 times announced. An announced Valat that fails costs 8 times the value, whatever the card points; the defenders' Valat costs the declarer 4 times.")
            ),
            Problem(
                _("Pagat ultimo: 4 silent, 8 announced, doubled in a Solo. Only the declarer announces; a defender's Pagat counts for both defenders.")
            ),
            Problem(
                _("A silent Pagat played to the last trick and beaten scores for the other side.")
                if o["failed_silent_pagat_counts"]
                else _("A silent Pagat that fails scores nothing.")
            ),
            Problem(
                _("Kontra, Rekontra and Subkontra double, quadruple or multiply by eight the game (a Valat included) or an announced Pagat.")
                if o["kontra_counts"]
                else _("Kontras are recorded but do not count in the score.")
            ),
            Problem(
                _("Trull 3, Vier Könige 3 and Köpfe 1 go to the player who held them, paid by each other player, whichever side he played on; never doubled.")
                if o["hand_bonuses"]
                else _("Trull, Vier Könige and Köpfe are recorded but score nothing.")
            ),
            Problem(
                _("At a table of four the dealer sits out but wins and loses with the defenders: the declarer receives from, or pays, three players.")
                if o["fourth_with_defenders"]
                else _("At a table of four the dealer sits out and scores 0.")
            ),
        ]
        return lines

    # ------------------------------------------------------------------------------ scoring

    @property
    def checker(self) -> type:
        """The :class:`~variants.checks.HandCheck` subclass that validates this ruleset's hands (§5)."""
        return TappCheck

    def settle(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The zero-sum row of a valid played hand (§4); ``history`` is not used.

        ``posts``: ``(label, value)``; the game post (or the Valat in its place) and the Pagat
        post are what each defender pays the declarer and add up to ``n``; a hand-bonus post is
        what each other active player pays its holder. ``row``: one ``int`` per seat; the
        declarer ``+2n``, each defender ``−n``, the sitting-out dealer 0 (with
        ``fourth_with_defenders``: ``−n`` and the declarer ``+3n``); then each hand bonus ``h``
        held by seat ``x``: ``+2h`` for ``x``, ``−h`` for each other active seat. The row sums to
        0 (asserted). Raises ``KeyError``/``TypeError`` for a hand that :meth:`validate` refuses.
        """
        return _settle(self, hand, table_size)

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """A hand of a Tapp-Tarock evening, from ``rng`` (``random.Random``) alone: mostly Dreier,
        then Unterer, Oberer and a few Solos; a Pagat now and then, a Valat about once in 150
        hands, kontras, and the hand bonuses at about the rate the cards give them (Trull 1 in 15,
        Vier Könige 1 in 60, Köpfe nearly every other hand); now and then a struck hand or a
        manual row (a revoke). Almost always valid (:meth:`Ruleset.random_hand` draws again)."""
        return _draw(self, rng, table_size, dealer)


# --------------------------------------------------------------------------------------------------
# validation (§5)


class TappCheck(HandCheck):
    """§5 "Validation" of a Tapp-Tarock hand record, items 1–11 (item 12, manual rows, is
    :meth:`HandCheck.check_manual`, with ``sitting_out_pays`` set by the ``fourth_with_defenders``
    option). Adds :class:`~variants.problems.Problem` messages naming what is wrong, in the order found.

    **Decisions** beyond the list of §5 (where the cards make a record impossible):

    - a Trull holds the Pagat, so a recorded Pagat ultimo belongs to the Trull holder's side;
    - Trull and Köpfe never stand together, whoever holds them (only three trull cards exist), and
      a hand bonus is recorded at most once (one Trull, four Kings, no two players with two of three
      trull cards);
    - a Solo with 0 card points (the declarer took no trick) counts as the defenders taking every
      trick for §5 item 9, like their Valat;
    - the Hungarian Tarokk fields (``called``, ``all_tricks``, ``tarokks``, ``forfeit``) are refused
      like the unused fields of §3; ``card_points: {}`` reads as absent.
    """

    def run(self) -> list[Problem]:
        """§5 item 2: a table of 3, or of 4 with the dealer out; then the shared checks."""
        if isinstance(self.raw, Mapping) and self.n not in self.rs.table_sizes:
            self.add(_("Tapp-Tarock is played at tables of 3, or of 4 with the dealer sitting out, not %(size)s."), size=self.n)
            return self.problems
        return super().run()

    def check_played(self) -> None:
        h = self.hand
        contract = self.tapp_contract()
        if contract is None:
            return
        for field_name, defaults, message in UNUSED_FIELDS:
            if not _is_default(h.get(field_name), defaults):
                self.add(message)
        self.declarer = self.seat("declarer", _("declarer"), required=True)
        self.check_game_kontra()
        self.points = None
        self.won = self.check_result(contract)
        self.check_bonuses(contract)

    def tapp_contract(self) -> Contract | None:
        """§5 item 1: the contract, one of §2; a passed-out deal is not a hand."""
        key = self.hand.get("contract")
        if key is None:
            self.add(_("The contract is missing: use dreier, unterer, oberer or solo."))
            return None
        if isinstance(key, str) and key.strip().lower() in PASS_KEYS:
            self.add(_("“%(contract)s”: a passed-out deal is redealt by the same dealer and not recorded."), contract=key)
            return None
        try:
            return self.rs.contract(key)
        except KeyError:
            self.add(_("“%(contract)s” is not a Tapp-Tarock contract: use dreier, unterer, oberer or solo."), contract=key)
            return None

    def check_game_kontra(self) -> None:
        """§5 item 10: the game's kontra is 0..3."""
        level = _level(self.hand.get("kontra"))
        if level is None or not 0 <= level <= MAX_KONTRA:
            self.add(
                _("The kontra on the game must be 0 to 3 (kontra, rekontra, subkontra), not “%(value)s”."),
                value=self.hand.get("kontra"),
            )

    def check_result(self, contract: Contract) -> bool | None:
        """§5 items 3 and 4: ``won`` or ``declarer_points`` (whole, in range), agreeing with each
        other. Returns whether the declarer won (``None`` if the record does not say it validly);
        sets ``self.points`` to the card points given (or ``None``)."""
        h = self.hand
        won = h.get("won")
        if won is not None and not isinstance(won, bool):
            self.add(_("“Won” must be true or false, not “%(value)s”."), value=won)
            won = None
            bad_won = True
        else:
            bad_won = False
        raw = h.get("declarer_points")
        if raw is None:
            if won is None and not bad_won:
                self.add(_("Record whether the declarer won, or the declarer's card points."))
            return won
        points = parse_points(raw)
        low, high = POINT_RANGE[contract.solo]
        if points is None:
            self.add(
                _("The declarer's card points are a whole number, written 36, “36” or “36/0”, not “%(value)s”: Tapp-Tarock counts no Blatt."),
                value=raw,
            )
            return won
        if not low <= points <= high:
            self.add(
                _("%(contract)s: the declarer's card points lie from %(low)s to %(high)s, not %(points)s (whole numbers 1..69, 0..68 in a Solo)."),
                contract=contract.name,
                low=low,
                high=high,
                points=points,
            )
            return won
        self.points = points
        derived = points >= WIN
        if won is not None and won != derived:
            if derived:
                self.add(_("%(points)s card points win the %(contract)s (36 or more): “won” must be true."), points=points, contract=contract.name)
            else:
                self.add(_("%(points)s card points lose the %(contract)s (35 is Remis and loses): “won” must be false."), points=points, contract=contract.name)
        return derived

    def check_bonuses(self, contract: Contract) -> None:
        """§5 items 6–11 on the ``bonuses`` list."""
        bonuses = self.hand.get("bonuses")
        if bonuses is None:
            bonuses = []
        if not isinstance(bonuses, list) or not all(isinstance(b, Mapping) for b in bonuses):
            self.add(_("The bonuses must be a list of bonus entries ({“bonus”: key, …})."))
            return
        seen: dict[str, Mapping] = {}
        for b in bonuses:
            key = b.get("bonus")
            try:
                bonus = self.rs.bonus(key)
            except KeyError:
                self.add(
                    _("“%(bonus)s” is not a Tapp-Tarock bonus: use pagat, valat, trull, vier_koenige or koepfe."),
                    bonus=key,
                )
                continue
            if key in seen:
                if key in TWICE_REASONS:
                    self.add(_("%(bonus)s is recorded twice: %(reason)s."), bonus=bonus.name, reason=TWICE_REASONS[key])
                else:
                    self.add(_("%(bonus)s is recorded twice: a bonus is entered once per hand."), bonus=bonus.name)
                continue
            ok = self.check_hand_bonus(bonus, b) if bonus.held else self.check_team_bonus(bonus, b)
            if ok:
                seen[key] = b
        self.check_together(contract, seen)

    def check_team_bonus(self, bonus: Bonus, b: Mapping) -> bool:
        """§5 items 7, 8, 10, 11 on one Pagat or Valat entry; whether it is well-formed."""
        ok = True
        if b.get("holder") is not None:
            self.add(_("%(bonus)s is a team bonus and has no holder: record its team instead."), bonus=bonus.name)
            ok = False
        team, announced, made = b.get("team"), b.get("announced"), b.get("made")
        if team not in ("declarer", "opponents") or not isinstance(announced, bool) or not isinstance(made, bool):
            self.add(_("%(bonus)s needs team (declarer or opponents), announced and made."), bonus=bonus.name)
            return False
        if team == "opponents" and announced:
            self.add(_("Only the declarer announces: the opponents' %(bonus)s can only be silent."), bonus=bonus.name)
            ok = False
        level = _level(b.get("kontra"))
        if level is None or not 0 <= level <= MAX_KONTRA:
            self.add(_("The kontra on %(bonus)s must be 0 to 3 (kontra, rekontra, subkontra), not “%(value)s”."), bonus=bonus.name, value=b.get("kontra"))
            ok = False
        elif level and bonus.key == "valat":
            self.add(_("Only the game and an announced Pagat can be kontra'd, not the Valat: the kontra on the game doubles it."))
            ok = False
        elif level and not announced:
            self.add(_("Only the game and an announced Pagat can be kontra'd, not a silent %(bonus)s."), bonus=bonus.name)
            ok = False
        if bonus.key == "valat" and not announced and not made:
            self.add(_("A silent Valat that fails is no Valat: remove it."))
            ok = False
        return ok

    def check_hand_bonus(self, bonus: Bonus, b: Mapping) -> bool:
        """§5 items 10, 11 on one hand-bonus entry; whether it is well-formed."""
        holder = b.get("holder")
        if holder is None:
            self.add(_("%(bonus)s needs its holder, the player who held the cards."), bonus=bonus.name)
            return False
        if not is_int(holder) or not 0 <= holder < self.n:
            self.add(_("The holder of %(bonus)s must be a seat from 0 to %(last)s, not “%(value)s”."), bonus=bonus.name, last=self.n - 1, value=holder)
            return False
        if holder == self.out:
            self.add(_("%(seat)s deals and sits out this hand and cannot hold %(bonus)s."), seat=holder, bonus=bonus.name)
            return False
        ok = True
        announced, made, team = b.get("announced"), b.get("made"), b.get("team")
        if announced is not None and announced is not False:
            self.add(_("%(bonus)s is held, never announced: “announced” must be false or left out."), bonus=bonus.name)
            ok = False
        if made is not None and made is not True:
            self.add(_("%(bonus)s is held and cannot fail: “made” must be true or left out."), bonus=bonus.name)
            ok = False
        if team is not None and self.declarer is not None:
            side = "declarer" if holder == self.declarer else "opponents"
            if team != side:
                if side == "declarer":
                    message = _("%(bonus)s: its holder %(holder_seat)s is the declarer, so team must be “declarer”, not “%(team)s”.")
                else:
                    message = _("%(bonus)s: its holder %(holder_seat)s is a defender, so team must be “opponents”, not “%(team)s”.")
                self.add(message, bonus=bonus.name, holder_seat=holder, team=team)
                ok = False
        if b.get("kontra") not in (None, 0) or isinstance(b.get("kontra"), bool):
            self.add(_("Only the game and an announced Pagat can be kontra'd, not %(bonus)s."), bonus=bonus.name)
            ok = False
        return ok

    def check_together(self, contract: Contract, seen: Mapping[str, Mapping]) -> None:
        """§5 items 8, 9, 11: the bonuses against each other and against the result."""
        valat, pagat = seen.get("valat"), seen.get("pagat")
        won, points = self.won, self.points
        if valat is not None and valat["made"]:
            if valat["team"] == "declarer" and won is False:
                self.add(_("The declarer's Valat means he took every trick and won the %(contract)s, not lost it."), contract=contract.name)
            elif valat["team"] == "opponents" and won is True:
                self.add(_("The opponents' Valat means the declarer took no trick and lost the %(contract)s, not won it."), contract=contract.name)
        if contract.solo and points is not None:
            opponents_valat = valat is not None and valat["team"] == "opponents" and valat["made"]
            failed_valat = valat is not None and valat["team"] == "declarer" and valat["announced"] and not valat["made"]
            if points == 0 and not (opponents_valat or failed_valat):
                self.add(_("0 card points in a Solo mean the declarer took no trick: record the opponents' Valat, or his failed announced Valat."))
            elif opponents_valat and points != 0:
                self.add(_("The opponents' Valat in a Solo leaves the declarer 0 card points, not %(points)s."), points=points)
        # §5 item 9: the side that took every trick.
        every_trick = None
        if valat is not None and valat["made"]:
            every_trick = valat["team"]
        elif contract.solo and points == 0:
            every_trick = "opponents"
        if every_trick is not None and pagat is not None:
            other = "opponents" if every_trick == "declarer" else "declarer"
            if pagat["team"] == other and pagat["made"]:
                if every_trick == "declarer":
                    self.add(_("Impossible: the declarer took every trick, so the opponents' Pagat ultimo cannot be made."))
                else:
                    self.add(_("Impossible: the opponents took every trick, so the declarer's Pagat ultimo cannot be made."))
            elif every_trick == "declarer" and pagat["team"] == "declarer" and not pagat["announced"] and not pagat["made"]:
                self.add(_("Impossible: the declarer took every trick, so his own Pagat cannot have been beaten at the last trick."))
        # §5 item 11: only three trull cards exist.
        trull, koepfe = seen.get("trull"), seen.get("koepfe")
        if trull is not None and koepfe is not None:
            if trull["holder"] == koepfe["holder"]:
                self.add(_("Three trull cards are a Trull, not Köpfe: record only the Trull of %(holder_seat)s."), holder_seat=trull["holder"])
            else:
                self.add(
                    _("Three trull cards are a Trull: %(trull_seat)s held all three, so %(koepfe_seat)s cannot hold two of them (Köpfe)."),
                    trull_seat=trull["holder"],
                    koepfe_seat=koepfe["holder"],
                )
        # Decision: the Trull includes the Pagat, so the Pagat ultimo is the Trull holder's side's.
        if trull is not None and pagat is not None and self.declarer is not None:
            side = "declarer" if trull["holder"] == self.declarer else "opponents"
            if pagat["team"] != side:
                self.add(
                    _("The Trull of %(holder_seat)s includes the Pagat, so the Pagat ultimo's team must be “%(side)s”, not “%(team)s”."),
                    holder_seat=trull["holder"],
                    side=side,
                    team=pagat["team"],
                )


# --------------------------------------------------------------------------------------------------
# settlement (§4)


def _settle(rs: TappTarockRuleset, hand: Mapping, n: int) -> Settlement:
    """The row of a valid played hand (§4 pseudo-code, with the Decisions and options)."""
    contract = rs.contract(hand["contract"])
    declarer, dealer = hand["declarer"], hand["dealer"]
    counts_kontra = rs.options["kontra_counts"]
    k = (hand.get("kontra") or 0) if counts_kontra else 0
    won = rs.won_of(hand)
    entries = {b["bonus"]: b for b in hand.get("bonuses") or []}
    posts: list[tuple[str, int]] = []

    # Game post G (SEED §Bidding), or the Valat in its place (SEED §Contracts, Decisions).
    V = contract.value
    valat = entries.get("valat")
    if valat is not None:
        value = rs.valat_value(contract, valat["announced"])
        sign = 1 if (valat["team"] == "declarer") == valat["made"] else -1
        G = sign * value
        if valat["team"] == "declarer":
            label = _("Valat announced") if valat["announced"] else _("Valat")
            if not valat["made"]:
                label = _("Valat announced failed")
        else:
            label = _("opponents' Valat")
    else:
        G = V if won else -V
        label = contract.name
    G *= 2**k
    if k:
        label = Problem(_("%(post)s, %(kontra)s ×%(factor)s"), post=label, kontra=rs.kontra_word(k), factor=2**k)
    posts.append((label, G))

    # Pagat post P.
    P = 0
    pagat = entries.get("pagat")
    if pagat is not None:
        bonus = rs.bonus("pagat")
        P = bonus.announced if pagat["announced"] else bonus.silent
        if contract.solo:
            P *= 2  # "Solo … verdoppelt Pagat ultimo" (§3)
        if pagat["announced"] and counts_kontra:
            P *= 2 ** (pagat.get("kontra") or 0)
        # + if the declarer made it or a defender's silent Pagat failed; − otherwise (§4)
        if (pagat["team"] == "declarer") != pagat["made"]:
            P = -P
        if not pagat["announced"] and not pagat["made"] and not rs.options["failed_silent_pagat_counts"]:
            P = 0
        posts.append((rs.bonus_words(pagat), P))

    net = G + P
    row = [0] * n
    out = rs.sitting_out(dealer, n)
    active = rs.active_seats(dealer, n)
    payers = [s for s in range(n) if s != declarer and (s != out or rs.options["fourth_with_defenders"])]
    for s in payers:
        row[s] -= net
    row[declarer] += net * len(payers)
    notes: list[str] = []
    if out is not None and rs.options["fourth_with_defenders"]:
        notes.append(_("The sitting-out dealer wins and loses with the defenders."))

    # Hand bonuses to the holder alone, paid by each other active seat (§4 Decision).
    for key in HAND_BONUSES:
        b = entries.get(key)
        if b is None:
            continue
        h = rs.bonus(key).silent if rs.options["hand_bonuses"] else 0
        holder = b["holder"]
        for s in active:
            if s != holder:
                row[s] -= h
                row[holder] += h
        posts.append((rs.bonus_words(b), h))

    assert sum(row) == 0, f"Tapp-Tarock row {row} does not sum to 0"
    if out is not None and not rs.options["fourth_with_defenders"]:
        assert row[out] == 0, f"Tapp-Tarock row {row}: the sitting-out dealer must score 0"
    if valat is not None:
        summary = posts[0][0]  # the Valat stands in place of the game: it says how the hand ended
    else:
        summary = _("won") if won else _("lost")
    return Settlement(posts=tuple(posts), summary=summary, notes=tuple(notes), row=tuple(row))


# --------------------------------------------------------------------------------------------------
# random hands


CONTRACT_WEIGHTS = (("dreier", 62), ("unterer", 17), ("oberer", 13), ("solo", 8))
WIN_RATES = {"dreier": 0.66, "unterer": 0.6, "oberer": 0.56, "solo": 0.52}
VALAT_RATE = 1 / 150
VALAT_KINDS = (  # (team, announced, made): weight
    (("declarer", False, True), 60),
    (("declarer", True, True), 14),
    (("declarer", True, False), 10),
    (("opponents", False, True), 16),
)
KONTRA_RATES = ((1, 0.09), (2, 0.025), (3, 0.005))  # level, probability
# Hand bonuses (held after the talon pickup): roughly 3·C(16,3)/C(54,3) for the Trull, 3·C(16,4)/C(54,4)
# for the Kings; two of the three trull cards in one hand is common.
TRULL_RATE, KINGS_RATE, KOEPFE_RATE = 0.066, 0.017, 0.45


def _weighted(rng, pairs):
    return rng.choices([item for item, _w in pairs], weights=[w for _i, w in pairs], k=1)[0]


def _draw(rs: TappTarockRuleset, rng, n: int, dealer: int) -> dict:
    """One random hand record (see :meth:`TappTarockRuleset.draw_random`)."""
    active = rs.active_seats(dealer, n)
    out = rs.sitting_out(dealer, n)
    roll = rng.random()
    if roll < 0.01:
        return {"dealer": dealer, "outcome": "struck", "note": "misdealt"}
    if roll < 0.02:  # a revoke: the offender pays each other player, written by hand
        offender = rng.choice(active)
        others = [s for s in range(n) if s != offender and (s != out or rs.sitting_out_pays)]
        amount = rng.choice((3, 4, 5, 6, 8))
        scores = [0] * n
        for s in others:
            scores[s] = amount
        scores[offender] = -amount * len(others)
        return {"dealer": dealer, "outcome": "manual", "scores": scores, "note": "revoke"}
    key = _weighted(rng, CONTRACT_WEIGHTS)
    contract = rs.contract(key)
    solo = contract.solo
    declarer = rng.choice(active)
    hand: dict = {"dealer": dealer, "contract": key, "declarer": declarer}
    bonuses: list[dict] = []
    every_trick = None
    valat = None
    if rng.random() < VALAT_RATE:
        team, announced, made = _weighted(rng, VALAT_KINDS)
        valat = {"bonus": "valat", "team": team, "announced": announced, "made": made}
        if made:
            every_trick = team
    if every_trick == "declarer":
        won = True
        points = rng.randint(57, 68 if solo else 69)
    elif every_trick == "opponents":
        won = False
        points = 0 if solo else rng.randint(1, 10)
    else:
        won = rng.random() < WIN_RATES[key]
        points = rng.randint(36, 60) if won else rng.randint(14, 35)
    hand["won"] = won
    if rng.random() < 0.6:
        hand["declarer_points"] = points if rng.random() < 0.9 else (str(points) if rng.random() < 0.5 else f"{points}/0")
        if rng.random() < 0.5:
            del hand["won"]
    for level, rate in reversed(KONTRA_RATES):
        if rng.random() < rate:
            hand["kontra"] = level
            break
    # Pagat ultimo: silent by either side, or announced by the declarer.
    pagat = None
    roll = rng.random()
    if roll < 0.035:
        pagat = {"bonus": "pagat", "team": "declarer", "announced": True, "made": rng.random() < 0.65}
        if rng.random() < 0.12:
            pagat["kontra"] = 1 if rng.random() < 0.8 else 2
    elif roll < 0.115:
        team = rng.choice(("declarer", "opponents"))
        pagat = {"bonus": "pagat", "team": team, "announced": False, "made": rng.random() < 0.7}
    if pagat is not None and every_trick is not None:
        if pagat["team"] != every_trick:
            pagat["made"] = False  # beaten by the side that took every trick (§5 item 9)
        elif every_trick == "declarer" and not pagat["announced"]:
            pagat["made"] = True  # his own Pagat played to the last trick won it
    if pagat is not None:
        bonuses.append(pagat)
    if valat is not None:
        bonuses.append(valat)
    # Hand bonuses: held after the talon pickup, by any active player.
    if rng.random() < TRULL_RATE:
        holders = active
        if pagat is not None:  # the Trull holds the Pagat: the holder is on the Pagat's side
            holders = [declarer] if pagat["team"] == "declarer" else [s for s in active if s != declarer]
        bonuses.append({"bonus": "trull", "holder": rng.choice(holders)})
    elif rng.random() < KOEPFE_RATE:
        bonuses.append({"bonus": "koepfe", "holder": rng.choice(active)})
    if rng.random() < KINGS_RATE:
        bonuses.append({"bonus": "vier_koenige", "holder": rng.choice(active)})
    if bonuses:
        hand["bonuses"] = bonuses
    return hand
