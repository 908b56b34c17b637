"""The Königrufen engine shared by the Austrian cups (``koenigrufen.md``; the Raiffeisen Tarockcup
2023 in ``koenigrufen-raiffeisen.md`` §6).

One engine, editions as data: an :class:`Edition` holds the contract table, the bonus table, which
bonuses each contract family allows, how Valat treats material bonuses and the Trischaken
settlement; :class:`KoenigrufenRuleset` validates and scores hand records (``hand-record.md``) under
one edition.

Row convention (``koenigrufen.md`` §1 "From a hand to a row"): the hand is split into posts (the game
and each bonus), summed from the declarer side's view into a net value ``n``; two against two gives
declarer and partner ``+n`` and each opponent ``-n``; one against three gives the declarer ``+3n``
and each opponent ``-n``. Every row sums to 0, the sitting-out dealer of a 5-table scores 0.

Kontras (``koenigrufen.md`` §1 "Tournament score = Schrift": "Kontra, Re and Sub never count for the
tournament") are recorded and never scored: ``kontra`` is the level on the game (1 Kontra ×2, 2 Re or
Retour ×4, 3 Sub ×8, 4 Mord ×16: ``hand-record.md`` "kontra" is ``0..4`` and says Königrufen may record
it), an announced bonus may carry its own ``kontra``, and ``kontra_by`` is the opponent who said the
Kontra on the game (in the notation ``k3`` alone is a Kontra said by seat 3). They feed the kontra pot (each
level one call) and the statistics' "most kontras said" (``kontra_by``); the row is the same with or
without them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial

from .base import Bonus, Contract, Option, Ruleset, SeatCard, Settlement, catalogue, seat_row
from .checks import HandCheck, is_int
from .cardpoints import WHOLE_PACK_THIRDS, CardPointsError, format_thirds, parse_thirds
from .problems import Problem, _

BIRDS = ("pagat", "uhu", "kakadu", "quapil")
SACKS = ("sack1", "sack2")
RESULT_BONUSES = ("valat", "sack1", "sack2")  # made by one side, they decide who won the game
MIN_TRICK_THIRDS = 4  # a player with a trick has at least four cards: 1/1 (hand-record.md)
TEAMS = ("declarer", "opponents")

# Seating by card (tournament-formats.md §2): the Tarock draws Vorhand of the first hand, the others
# follow in playing order Herz, Karo, Pik, Kreuz (Kreuz only at a 5-table).
SEAT_CARDS = (
    SeatCard("tarock", _("Tarock")),
    SeatCard("herz", _("Herz-König")),
    SeatCard("karo", _("Karo-König")),
    SeatCard("pik", _("Pik-König")),
    SeatCard("kreuz", _("Kreuz-König")),
)


# Kontra levels (koenigrufen.md §1, W20 "Kontra (doppelt), Retour (vierfach) und Sub (achtfach)"):
# the words the form and the hand's words show, and their codes in the notation (``retour``,
# ``mort`` and the long words are read too, variants/notation.py). Index = level. **Decision**: Mord
# (Mordkontra ×16) is the highest: the rule texts stop at Sub, but hand-record.md's ``kontra`` is
# ``0..4`` and lets Königrufen record it, so every record the contract allows (an older archive,
# an import) stays valid; like every kontra it never changes the Schrift.
KONTRA_NAMES = ("", "kontra", "rekontra", "subkontra", "mordkontra")
KONTRA_CODES = ("", "k", "re", "sub", "mord")


def _made(bonus: str, team: str = "declarer", announced: bool = False) -> dict:
    return {"bonus": bonus, "team": team, "announced": announced, "made": True}


# Example hands of the reference card, (table size, record): a Dreier with a Pagat announced, a
# lost Rufer with the opponents' silent Uhu and a Kontra said by seat 2 (its row is the row without
# it, §1), a Trischaken to the Blatt, a Piccolo, a Renonce, a manual row and a struck hand. Each
# edition shows those it accepts.
NOTATION_EXAMPLES = (
    (4, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "bonuses": [_made("pagat", announced=True)]}),
    (4, {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2, "won": False, "kontra": 1, "kontra_by": 1,
         "bonuses": [_made("uhu", "opponents")]}),
    (4, {"dealer": 3, "contract": "trischaken", "card_points": {"0": "30/0", "1": "20/0", "2": "12/1", "3": "7/2"}}),
    (4, {"dealer": 1, "contract": "piccolo", "declarer": 2, "won": True}),
    (4, {"dealer": 2, "contract": "dreier", "declarer": 0, "revoke": 1}),
    (4, {"dealer": 0, "outcome": "manual", "scores": [5, -15, 5, 5]}),
    (4, {"dealer": 0, "outcome": "struck", "note": "misdealt"}),
)


def sitting_out(dealer: int, table_size: int) -> int | None:
    """The seat that sits out a Königrufen hand: the dealer of a 5-table (§1 "Table")."""
    return dealer if table_size == 5 else None


def active_seats(dealer: int, table_size: int) -> list[int]:
    """Seats that play a Königrufen hand in playing order, Vorhand first (``hand-record.md``)."""
    seats = [(dealer + 1 + i) % table_size for i in range(table_size)]
    return [s for s in seats if s != sitting_out(dealer, table_size)]


@dataclass(frozen=True)
class TrischakenResult:
    """A Trischaken settlement: ``amounts`` per active seat (may hold fractions) and a ``reason``."""

    amounts: Mapping[int, Fraction]
    reason: str


TrischakenSettlement = Callable[[Mapping[int, int], int], TrischakenResult]


@dataclass(frozen=True)
class Edition:
    """The data that makes one Königrufen edition (``koenigrufen.md`` §2–4).

    - ``contracts`` in bidding order, ``bonuses`` in the order score sheets list them;
    - ``family_bonuses``: contract family -> bonus keys allowed (§1 table);
    - ``valat_absorbs``: material bonus keys that score nothing when a Valat is made, and whether
      announced ones are absorbed too (``valat_absorbs_announced``);
    - ``valat_multiplies``: the Valat's values are multiples of the game value ``V`` that replace
      the game post and are never doubled (2009, §3); otherwise a fixed bonus (Tirol §4.1, W20 §2.1);
    - ``announced_valat_excludes``: bonuses that cannot be announced beside an announced Valat (W20);
    - ``trischaken``: the settlement, given ``{seat: thirds}`` of the active seats and Vorhand;
    - ``trischaken_revoke``: what the offender pays each other player in Trischaken;
    - ``hands_per_round``: hands at a 4-table (§5); a 5-table plays ``× 5/4``;
    - ``options``: the edition's own :class:`~variants.base.Option` ("Options" table).

    Fields added for the Raiffeisen Tarockcup (``koenigrufen-raiffeisen.md`` §6); their defaults
    keep the three older editions scoring as before:

    - ``valat_only_announced``: beside any ``valat`` entry (made or failed, either side) only
      announced bonuses are scored, silent ones score 0 (§6.4 item 5);
    - ``valat_lost_factor``: a multiplied Valat post that goes against the declarer is multiplied
      by the contract's ``lost_factor`` too (Sechserdreier: 32 / 64 per opponent, §6.4 item 3);
    - ``koenig_ultimo_declarer_only``: König ultimo is a bonus of the declarer's team only, the
      opponents' would be a capture (§6.2, §6.8);
    - ``revoke_lost_factor``: in a Renonce an opponent of a contract with a ``lost_factor`` gets
      ``lost_factor × G + A`` (OÖR25 B.4, §6.6);
    - ``trischaken_revoke_vorhand``: what a revoking Vorhand pays each other player in Trischaken
      (``None``: ``trischaken_revoke`` as for anybody; §6.5 step 1);
    - ``trischaken_options``: option keys the Trischaken settlement takes as keyword arguments
      (``virgins_paid_in_full``, §6.10 item 4);
    - ``failed_silent_birds_default``: the default of the option ``failed_silent_birds_count``
      (on, §1; off in the Raiffeisen Tarockcup, §6.2).
    """

    key: str
    edition: str
    name: str
    source: str
    contracts: tuple[Contract, ...]
    bonuses: tuple[Bonus, ...]
    family_bonuses: Mapping[str, tuple[str, ...]]
    valat_absorbs: tuple[str, ...]
    valat_absorbs_announced: bool
    trischaken: TrischakenSettlement
    trischaken_revoke: int
    hands_per_round: int
    valat_multiplies: bool = False
    announced_valat_excludes: tuple[str, ...] = ()
    default_rounds: int = 3
    round_minutes: int | None = None  # the round's time limit, if the edition's rules give one
    tiebreaks: tuple[str, ...] = ("best_rounds", "lots")
    notes: tuple[str, ...] = field(default=())  # sentences of the rules page (rules_summary), marked for translation
    options: tuple[Option, ...] = ()  # options beyond failed_silent_birds_count, all editions
    valat_only_announced: bool = False
    valat_lost_factor: bool = False
    koenig_ultimo_declarer_only: bool = False
    revoke_lost_factor: bool = False
    trischaken_revoke_vorhand: int | None = None
    trischaken_options: tuple[str, ...] = ()
    failed_silent_birds_default: bool = True


# Options a tournament may switch on (koenigrufen.md, "Options a tournament may switch on",
# 2026-11-23); each edition offers those its Edition lists.
FAILED_SILENT_BIRDS = Option(
    "failed_silent_birds_count",
    _("A silent bird played and beaten counts for the other side"),
    _("Off: a silent bird or König ultimo recorded as failed scores nothing."),
    default=True,
    source="koenigrufen.md §1",
)
SILENT_SACKS = Option(
    "silent_sacks",
    _("A silent 1. or 2. Sack counts 1"),
    _("Announced Säcke count 2 as before (German Tirol rules 2020, the cups' scorer)."),
    source="koenigrufen.md, options: silent_sacks",
)
VALAT_DOUBLED_IN_LOST_SECHSERDREIER = Option(
    "valat_doubled_in_lost_sechserdreier",
    _("A Valat of the opponents against a lost Sechserdreier is doubled like the game"),
    _("5 × (−2) × 4 = −40 per opponent for a silent Valat (the Sauwald rules, the cups' scorer)."),
    source="koenigrufen.md, options: valat_doubled_in_lost_sechserdreier",
)


class KoenigrufenRuleset(Ruleset):
    """Validate and score Königrufen hands under one :class:`Edition` (``koenigrufen.md``).

    Options (``koenigrufen.md`` "Options a tournament may switch on"): every edition
    ``failed_silent_birds_count`` (default on, §1 Decision: a silent bird or König ultimo recorded
    ``made: false`` scores its silent value for the other side; off: nothing); the Tiroler
    Tarockcup ``silent_sacks`` (a silent Sack counts 1); the Wiener Tarockcup 2009
    ``valat_doubled_in_lost_sechserdreier`` (the opponents' Valat doubled like a lost
    Sechserdreier's game); the Raiffeisen Tarockcup 2023 ``virgins_paid_in_full`` (two Jungfrauen
    are each paid in full, ``koenigrufen-raiffeisen.md`` §6.10 item 4), and there
    ``failed_silent_birds_count`` defaults to off (§6.2). ``history`` is ignored (only Bled uses it).
    """

    table_sizes = (4, 5)
    preferred_table_size = 4
    max_other_tables = None
    zero_sum = True
    sitting_out_pays = False  # the sitting-out dealer of a 5-table scores 0 (§1 "Table")
    uses_blatt = True  # card points to the Blatt, "P/B" (hand-record.md "Card points")
    notation_example_hands = NOTATION_EXAMPLES
    kontra_names = KONTRA_NAMES  # recorded, never scored (§1)
    kontra_codes = KONTRA_CODES

    def __init__(self, spec: Edition, editions: Sequence[str] = (), options: Mapping | None = None):
        self.spec = spec
        self.key = spec.key
        self.edition = spec.edition
        self.name = spec.name
        self.label = f"{spec.name} {spec.edition}"
        self.source = spec.source
        failed_silent = FAILED_SILENT_BIRDS
        if spec.failed_silent_birds_default != failed_silent.default:
            # an edition-level default of the option (koenigrufen-raiffeisen.md §6.2: off there)
            failed_silent = replace(failed_silent, default=spec.failed_silent_birds_default, source="koenigrufen-raiffeisen.md §6.2")
        self.option_specs = (failed_silent, *spec.options)
        super().__init__(editions, options)
        # The edition's Trischaken settlement with the options it takes (spec.trischaken_options)
        self.trischaken = partial(spec.trischaken, **{k: bool(self.options.get(k)) for k in spec.trischaken_options})
        self.contracts = spec.contracts
        self.bonuses = spec.bonuses
        if self.options.get("silent_sacks"):  # a silent Sack counts 1 (option silent_sacks)
            self.bonuses = tuple(replace(b, silent=1) if b.key in SACKS else b for b in spec.bonuses)
        self.default_rounds = spec.default_rounds
        self.default_hands_per_round = spec.hands_per_round
        self.default_round_minutes = spec.round_minutes
        self.tiebreaks = spec.tiebreaks
        self._contracts = {c.key: c for c in self.contracts}
        self._bonuses = {b.key: b for b in self.bonuses}
        # Answers of allowed_bonuses (by contract key) and fields (of its own contracts, by the
        # object's id, the object kept beside it): both depend on nothing the ruleset changes after
        # this, and a sheet, a download or a notation line asks them for every hand.
        self._allowed: dict[str, tuple[Bonus, ...]] = {}
        self._fields: dict[int, tuple[Contract, tuple[str, ...]]] = {}

    # ----------------------------------------------------------------- catalogue and table format

    def contract(self, key: str) -> Contract:
        """The contract with ``key``; raises ``KeyError`` if this edition has none."""
        return self._contracts[key]

    def bonus(self, key: str) -> Bonus:
        """The bonus with ``key``; raises ``KeyError`` if this edition has none."""
        return self._bonuses[key]

    def allowed_bonuses(self, contract_key: str) -> tuple[Bonus, ...]:
        """Bonuses the contract allows, in catalogue order (``koenigrufen.md`` §1 family table).
        Raises ``KeyError`` for a contract this edition has none of."""
        found = self._allowed.get(contract_key)
        if found is None:
            allowed = set(self.spec.family_bonuses.get(self.contract(contract_key).family, ()))
            found = self._allowed[contract_key] = tuple(b for b in self.bonuses if b.key in allowed)
        return found

    def fields(self, contract: Contract) -> tuple[str, ...]:
        """The record fields the entry form asks for this contract (``hand-record.md`` "Fields").

        Every contract with a declarer records the kontra on the game and who said it
        (``kontra``, ``kontra_by``); Trischaken has none: "No kontra" (``koenigrufen.md`` §2.2,
        and the 2009 edition "as 2020"). **Decision**: the Tirol text (§4.2) is silent; every
        player plays for himself there, so nobody can say kontra to anybody's game, and the
        Raiffeisen rules say it outright ("Beim Trischaken gibt es kein Kontra",
        ``koenigrufen-raiffeisen.md`` §6.5): no kontra in any edition's Trischaken."""
        cached = self._fields.get(id(contract))
        if cached is not None and cached[0] is contract:
            return cached[1]
        if contract.trischaken:
            answer: tuple[str, ...] = ("card_points", "revoke")
        else:
            fields = ["declarer", "won"]
            if contract.king_call:
                fields.append("partner")
                if contract.has_talon:
                    fields.append("conceded")
            if self.allowed_bonuses(contract.key):
                fields.append("bonuses")
            answer = (*fields, "kontra", "kontra_by", "revoke")
        if any(c is contract for c in self.contracts):  # one made elsewhere is asked each time
            self._fields[id(contract)] = (contract, answer)
        return answer

    def catalogue(self) -> dict:
        """The contract and bonus tables as plain data (for forms, help pages and JSON)."""
        return catalogue(
            self,
            dealer_sits_out_at=5,
            solo=lambda c: c.solo,
            bird=lambda c: c.bird,
            lost_factor=lambda c: c.lost_factor,
            king_call=lambda c: c.king_call,
        )

    def hands_per_round(self, table_size: int, base: int | None = None) -> int:
        """Hands a table of ``table_size`` plays in a round: ``base`` (default the edition's) at a
        4-table, ``base × 5/4`` at a 5-table (``koenigrufen.md`` §5: Tirol 16/20, WTC 20/25)."""
        base = self.default_hands_per_round if base is None else base
        return base * table_size // self.preferred_table_size

    def seat_cards(self, table_size: int) -> tuple[SeatCard, ...]:
        """Cards of the seating draw in seat order: seat 0 draws the Tarock and is Vorhand of the
        first hand (``tournament-formats.md`` §2)."""
        return SEAT_CARDS[:table_size]

    def first_dealer(self, table_size: int) -> int:
        """The first dealer is the seat before the Tarock's Vorhand (``tournament-formats.md`` §2)."""
        return table_size - 1

    def sitting_out(self, dealer: int, table_size: int) -> int | None:
        """The seat that sits out this hand: the dealer of a 5-table (``koenigrufen.md`` §1)."""
        return sitting_out(dealer, table_size)

    # ------------------------------------------------------------------------------ scoring

    @property
    def checker(self) -> type:
        """The :class:`~variants.checks.HandCheck` subclass that validates this ruleset's hands."""
        return _Check

    def settle(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The row of a valid played hand, with the posts that make it (§1, §2–4)."""
        return _settle(self, _normalise(hand), table_size)

    def rules_summary(self) -> list[Problem]:
        """What the rules page says beside the tables: kontras are recorded, never scored
        (``koenigrufen.md`` §1 "Tournament score = Schrift")."""
        return [
            Problem(_("Kontra, Re, Sub and Mord are recorded for the kontra pot and the statistics; they never change the Schrift.")),
            *(Problem(note) for note in self.spec.notes),  # the edition's own sentences (Edition.notes)
        ]

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """A hand of a Tirol cup evening's mix (:func:`variants.randomhands.koenigrufen_hand`)."""
        from .randomhands import koenigrufen_hand

        return koenigrufen_hand(self, table_size, dealer, rng)

    # ------------------------------------------------------------------------------- internals

    def bonus_value(self, contract: Contract, bonus: Mapping) -> int:
        """A bonus post's value from the declarer side's view, solo doubling applied (§1)."""
        definition = self.bonus(bonus["bonus"])
        if bonus["announced"]:
            value = definition.announced
        elif bonus["made"] or self.options["failed_silent_birds_count"]:
            value = definition.silent or 0
        else:
            value = 0
        sign = 1 if (bonus["team"] == "declarer") == bonus["made"] else -1
        return sign * value * (2 if contract.solo else 1)


def _normalise(hand: Mapping) -> dict:
    """The record with the defaults of ``hand-record.md`` "Fields" filled in."""
    h = dict(hand)
    h.setdefault("outcome", "played")
    h.setdefault("bonuses", [])
    h.setdefault("partner", None)
    h.setdefault("revoke", None)
    h.setdefault("conceded", False)
    if h.get("partner") is not None and h.get("partner") == h.get("declarer"):
        h["partner"] = None  # koenigrufen.md §1 Validation: partner == declarer plays alone
    return h


class _Check(HandCheck):
    """One validation run (``koenigrufen.md`` §1 "Validation"): collects problems in order."""

    # Played hands only: struck and manual rows are HandCheck's, their settlement the Ruleset's.

    def normalise(self, hand: Mapping) -> dict:
        return _normalise(hand)

    def check_played(self) -> None:
        h = self.hand
        contract = self.contract()
        if contract is None:
            return
        declarer = self.seat("declarer", _("declarer"), required=not contract.trischaken)
        if contract.vorhand_only and declarer is not None and declarer != self.vorhand:
            self.add(
                _("Only Vorhand (%(vorhand_seat)s) may play a %(contract)s."),
                vorhand_seat=self.vorhand,
                contract=contract.name,
            )
        revoke = self.seat("revoke", _("revoker"), required=False)
        if h["partner"] is not None:
            if contract.king_call:
                self.seat("partner", _("partner"), required=False)
            else:
                self.add(_("A %(contract)s has no partner: only king-call contracts do."), contract=contract.name)
        self.check_kontra(contract, declarer)
        if not isinstance(h["conceded"], bool):
            self.add(_("“Conceded” must be true or false."))
        if contract.trischaken:
            self.check_bonuses(contract)  # none allowed: refused with the usual message
            self.check_trischaken(revoke)
            return
        decided_by_play = revoke is None and not h["conceded"]
        won = h.get("won")
        if won is None and decided_by_play:
            self.add(_("Say whether the %(contract)s was won or lost."), contract=contract.name)
        elif won is not None and not isinstance(won, bool):
            self.add(_("“Won” must be true or false."))
        bonuses = self.check_bonuses(contract)
        if bonuses is None:
            return
        if decided_by_play and isinstance(won, bool):
            # A Valat or a Sack (45 or more card points) made by one side decides the game.
            for b in bonuses:
                if b["bonus"] in RESULT_BONUSES and b["made"]:
                    name = self.rs.bonus(b["bonus"]).name
                    if b["team"] == "declarer" and not won:
                        self.add(_("%(bonus)s made by the declarer's team means the game was won."), bonus=name)
                    if b["team"] == "opponents" and won:
                        self.add(_("%(bonus)s made by the opponents means the game was lost."), bonus=name)
        if any(b["bonus"] == "valat" and b["announced"] for b in bonuses):
            for b in bonuses:
                if b["bonus"] in self.rs.spec.announced_valat_excludes and b["announced"]:
                    self.add(
                        _("%(bonus)s cannot be announced beside an announced Valat."),
                        bonus=self.rs.bonus(b["bonus"]).name,
                    )
        valat = next((b for b in bonuses if b["bonus"] == "valat" and b["made"]), None)
        if valat:
            for b in bonuses:
                if b["team"] != valat["team"] and b["made"]:
                    self.add(
                        _("After a Valat the other side took no trick and cannot have made %(bonus)s."),
                        bonus=self.rs.bonus(b["bonus"]).name,
                    )
        if contract.bird:
            self.check_called_bird(contract, bonuses)
        if h["conceded"] and revoke is None:
            self.check_conceded(contract, bonuses)

    def check_kontra(self, contract: Contract, declarer: int | None) -> None:
        """The kontra on the game and who said it (§1 "Tournament score = Schrift": recorded for
        the kontra pot and the statistics, never scored).

        ``kontra`` is a level from 0 to the ruleset's highest (4, Mord); none in Trischaken (see
        :meth:`KoenigrufenRuleset.fields`). ``kontra_by`` is the player who said the Kontra on
        the game: an active opponent of the declarer (neither the declarer nor the partner he
        called), recorded with a level of at least 1. **Decision**: the record names who said the
        Kontra, not who said Re or Sub: "most kontras said" counts the Kontras, and Re is said by
        the declarer's side answering it; who said it may be left out. A record naming who said
        it with level 0 is refused (the level is data, not guessed): the notation reads ``k3``
        alone as level 1 and writes the level into the record; the entry form's "Kontra by" with
        "—" on the game gets the message below."""
        h = self.hand
        level = h.get("kontra", 0)
        top = self.rs.max_kontra
        if level is not None and (not is_int(level) or not 0 <= level <= top):
            self.add(
                _("Kontra must be a level from 0 to %(max)s (%(words)s)."),
                max=top,
                words=", ".join(self.rs.kontra_names[1:]),
            )
            return
        if contract.trischaken:
            if level or h.get("kontra_by") is not None:
                self.add(_("There is no kontra in Trischaken: everyone plays for himself."))
            return
        by = self.seat("kontra_by", _("player who said kontra"), required=False)
        if by is None:
            return
        if not level:
            self.add(_("Who said kontra is recorded with the kontra on the game: enter its level too."))
        elif by == declarer or (by == h["partner"] and contract.king_call):
            self.add(_("%(seat)s plays on the declarer's side: kontra is said by an opponent."), seat=by)

    def check_bonuses(self, contract: Contract) -> list[dict] | None:
        raw = self.hand["bonuses"]
        if not isinstance(raw, list):
            self.add(_("Bonuses must be a list."))
            return None
        allowed = {b.key for b in self.rs.allowed_bonuses(contract.key)}
        seen: set[str] = set()
        good = []
        for item in raw:
            if not isinstance(item, Mapping):
                self.add(_("Each bonus must be an object with bonus, team, announced and made."))
                continue
            key = item.get("bonus")
            try:
                definition = self.rs.bonus(key)
            except (KeyError, TypeError):
                self.add(_("Unknown bonus “%(bonus)s” in %(ruleset)s."), bonus=key, ruleset=self.rs.label)
                continue
            name = definition.name
            if key not in allowed:
                self.add(_("%(bonus)s is not allowed in a %(contract)s."), bonus=name, contract=contract.name)
                continue
            if key in seen:
                self.add(_("%(bonus)s is entered twice."), bonus=name)
                continue
            seen.add(key)
            team, announced, made = item.get("team"), item.get("announced"), item.get("made")
            if team not in TEAMS:
                self.add(_("%(bonus)s: the team must be the declarer's team or the opponents."), bonus=name)
                continue
            if not isinstance(announced, bool) or not isinstance(made, bool):
                self.add(_("%(bonus)s: say whether it was announced and whether it was made."), bonus=name)
                continue
            if definition.announced_only and not announced:
                self.add(_("%(bonus)s only counts when announced."), bonus=name)
                continue
            if not announced and not made and not definition.can_fail_silently:
                self.add(
                    _("A silent %(bonus)s cannot fail: record the side that made it."),
                    bonus=name,
                )
                continue
            if key == "koenig_ultimo" and team != "declarer" and self.rs.spec.koenig_ultimo_declarer_only:
                # koenigrufen-raiffeisen.md §6.2, §6.8: the opponents winning the called king in
                # the last trick is a king capture, and there are no captures ("keine Fänge")
                self.add(
                    _("König ultimo is a bonus of the declarer's team only: %(ruleset)s scores no captures (the opponents winning the called king)."),
                    ruleset=self.rs.label,
                )
                continue
            if key == "koenig_ultimo" and self.hand["partner"] is None:
                self.add(_("König ultimo needs a called king in play: enter the partner."))
                continue
            if not self.bonus_kontra_ok(definition, item):
                continue
            good.append({"bonus": key, "team": team, "announced": announced, "made": made})
        return good

    def bonus_kontra_ok(self, definition, item: Mapping) -> bool:
        """An announced bonus may carry its own kontra level (recorded, never scored, §1); a
        silent one cannot be kontra'd. **Decision**: a Valat is kontra'd with the game (it is
        played instead of it), so its kontra is recorded as the kontra on the game."""
        level = item.get("kontra")
        if level in (None, 0):
            return True
        if not is_int(level) or not 0 < level <= self.rs.max_kontra:
            self.add(
                _("The kontra on %(bonus)s must be a level from 0 to %(max)s."), bonus=definition.name, max=self.rs.max_kontra
            )
            return False
        if not item.get("announced"):
            self.add(_("Only an announced bonus can be kontra'd, not a silent %(bonus)s."), bonus=definition.name)
            return False
        if definition.kind == "valat":
            self.add(_("A kontra on the Valat is the kontra on the game: record it there."))
            return False
        return True

    def check_called_bird(self, contract: Contract, bonuses: list[dict]) -> None:
        """Bird callers and the Besserrufer carry their announced bird (§1 "Bird callers")."""
        announced = [b for b in bonuses if b["bonus"] in BIRDS and b["announced"] and b["team"] == "declarer"]
        if contract.bird == "any":
            if not announced:
                self.add(
                    _("A %(contract)s needs a bird announced by the declarer's team (Pagat, Uhu, Kakadu or Quapil)."),
                    contract=contract.name,
                )
        elif not any(b["bonus"] == contract.bird for b in announced):
            self.add(
                _("A %(contract)s needs the %(bonus)s announced by the declarer's team."),
                contract=contract.name,
                bonus=self.rs.bonus(contract.bird).name,
            )

    def check_conceded(self, contract: Contract, bonuses: list[dict]) -> None:
        """Schleifen: king calls with the talon, called king in the talon (§1 "Conceding")."""
        if not (contract.king_call and contract.has_talon):
            self.add(_("A %(contract)s cannot be conceded: only king calls played with the talon."), contract=contract.name)
            return
        if self.hand["partner"] is not None:
            self.add(_("A hand can only be conceded when the called king lay in the talon (no partner)."))
        named = [b for b in bonuses if b["bonus"] in BIRDS and b["announced"] and b["team"] == "declarer"]
        others = [b for b in bonuses if b not in named] if contract.bird else bonuses
        if others or (contract.bird and len(named) > 1):
            self.add(_("A conceded hand carries no bonus but the bird its contract names."))

    def check_trischaken(self, revoke: int | None) -> None:
        raw = self.hand.get("card_points")
        if raw is None and revoke is not None:
            return  # Renonce settles Trischaken without counting (§4.2 step 1)
        if not isinstance(raw, Mapping):
            self.add(_("Trischaken needs the card points of every active player."))
            return
        points: dict[int, int] = {}
        given: set[int] = set()
        for seat_key, value in raw.items():
            try:
                seat = int(seat_key)
            except (TypeError, ValueError):
                self.add(_("Card points are given per seat number, not “%(key)s”."), key=seat_key)
                continue
            given.add(seat)
            if seat not in self.active:
                if seat == self.out:
                    self.add(_("%(seat)s deals and sits out this hand and has no card points."), seat=seat)
                else:
                    self.add(_("There is no seat %(number)s at this table."), number=seat)
                continue
            try:
                points[seat] = parse_thirds(value)
            except CardPointsError:
                self.add(
                    _("Card points of %(seat)s must be P/B with P from 0 to 70 and B (Blatt) 0, 1 or 2, not “%(value)s”."),
                    seat=seat,
                    value=value,
                )
                continue
            if 0 < points[seat] < MIN_TRICK_THIRDS:
                self.add(
                    _("Card points of %(seat)s: a trick has at least four cards, 1/1; write 0 for no trick."),
                    seat=seat,
                )
        for seat in [s for s in self.active if s not in given]:
            self.add(_("Card points of %(seat)s are missing."), seat=seat)
        if self.problems:
            return
        total = sum(points.values())
        if total != WHOLE_PACK_THIRDS:
            self.add(
                _("Trischaken card points add up to %(total)s, not 70/0."),
                total=format_thirds(total),
            )
            return
        if revoke is None:
            result = self.rs.trischaken(points, self.vorhand)
            if any(v.denominator != 1 for v in result.amounts.values()):
                self.add(
                    _("This Trischaken would split points into fractions (%(reason)s): enter a manual row agreed by the tournament director."),
                    reason=result.reason,
                )


# ---------------------------------------------------------------------------------- settlement


def _settle(rs: KoenigrufenRuleset, h: dict, n: int) -> Settlement:
    """Compute the row of a valid, normalised played hand."""
    contract = rs.contract(h["contract"])
    dealer = h["dealer"]
    vorhand = (dealer + 1) % n
    active = rs.active_seats(dealer, n)
    if contract.trischaken:
        return _settle_trischaken(rs, h, n, active, vorhand)
    if h["revoke"] is not None:
        return _settle_revoke(rs, contract, h, n, active)
    declarer, partner = h["declarer"], h["partner"]
    posts: list[tuple[str, int]] = []
    if h["conceded"]:
        bird = [b for b in h["bonuses"] if b["bonus"] in BIRDS and b["announced"] and b["team"] == "declarer"]
        value = contract.value + (rs.bonus(bird[0]["bonus"]).announced if contract.bird and bird else 0)
        posts.append((_("conceded (schleifen)"), -value))
        partner = None
    else:
        valat = next((b for b in h["bonuses"] if b["bonus"] == "valat"), None)
        if rs.spec.valat_multiplies and valat:
            # 2009 (§3): silent 4V / announced 8V replace the game post, never doubled.
            factor = rs.bonus("valat").announced if valat["announced"] else rs.bonus("valat").silent
            sign = 1 if (valat["team"] == "declarer") == valat["made"] else -1
            if rs.options.get("valat_doubled_in_lost_sechserdreier") and valat["team"] == "opponents" and valat["made"]:
                factor *= contract.lost_factor  # doubled like the lost game (option, koenigrufen.md)
            elif rs.spec.valat_lost_factor and sign < 0:
                # koenigrufen-raiffeisen.md §6.4 item 3: the post against a Sechserdreier's declarer
                # (the opponents' Valat, his own failed announced one) is doubled like the lost game
                factor *= contract.lost_factor
            posts.append((f"{contract.name} Valat ×{factor}", sign * factor * contract.value))
        else:
            game = contract.value if h["won"] else -contract.value * contract.lost_factor
            posts.append((contract.name, game))
        valat_made = bool(valat and valat["made"])
        for b in h["bonuses"]:
            name = rs.bonus(b["bonus"]).name
            if b is valat and rs.spec.valat_multiplies:
                continue
            if valat and rs.spec.valat_only_announced and not b["announced"]:
                # koenigrufen-raiffeisen.md §6.4 item 5: beside any Valat, made or failed, only
                # announced bonuses are scored; silent ones, made or failed, score 0
                posts.append((name, 0))
                continue
            if valat_made and b["bonus"] in rs.spec.valat_absorbs and (
                rs.spec.valat_absorbs_announced or not b["announced"]
            ):
                posts.append((name, 0))  # absorbed by the Valat (§2.1, §3, §4.1)
                continue
            posts.append((name, rs.bonus_value(contract, b)))
    net = sum(v for _label, v in posts)
    if partner is not None:
        amounts = {s: (net if s in (declarer, partner) else -net) for s in active}
        summary = _("two against two")
    else:
        amounts = {s: (3 * net if s == declarer else -net) for s in active}
        summary = _("one against three")
    return Settlement(posts=tuple(posts), summary=summary, row=seat_row(n, amounts, "Königrufen"))


def _settle_revoke(rs: KoenigrufenRuleset, contract: Contract, h: dict, n: int, active: list[int]) -> Settlement:
    """Renonce (§1): every non-offender scores what a winner in his position scores; the offender
    pays the sum. Winner's value ``V + A``, ``A`` all announced bonuses of both sides (solo ×2);
    where Valat multiplies the game (2009), an announced Valat puts ``8V`` in place of ``V``."""
    factor = 2 if contract.solo else 1
    game = contract.value  # G (koenigrufen-raiffeisen.md §6.6: V, or 8V if a Valat was announced)
    counted = []
    for b in h["bonuses"]:
        if not b["announced"]:
            continue
        if b["bonus"] == "valat" and rs.spec.valat_multiplies:
            game = rs.bonus("valat").announced * contract.value
        else:
            counted.append(b)
    announced = sum(rs.bonus(b["bonus"]).announced for b in counted) * factor
    win = game + announced
    offender, declarer = h["revoke"], h["declarer"]
    alone = h["partner"] is None
    amounts = {s: (3 * win if (s == declarer and alone) else win) for s in active if s != offender}
    if rs.spec.revoke_lost_factor and contract.lost_factor != 1:
        # koenigrufen-raiffeisen.md §6.6 (OÖR25 B.4): a regular opponent of a Sechserdreier gets
        # 2G + A, "the lost Sechserdreier he would have won counts double"
        for s in amounts:
            if s not in (declarer, h["partner"]):
                amounts[s] = contract.lost_factor * game + announced
    amounts[offender] = -sum(amounts.values())
    posts = ((contract.name, game), (_("announced bonuses"), announced))
    return Settlement(posts=posts, summary=_("Renonce: the offender pays every other player"), row=seat_row(n, amounts, "Königrufen"))


def _settle_trischaken(rs: KoenigrufenRuleset, h: dict, n: int, active: list[int], vorhand: int) -> Settlement:
    if h["revoke"] is not None:
        pay = rs.spec.trischaken_revoke
        if h["revoke"] == vorhand and rs.spec.trischaken_revoke_vorhand is not None:
            pay = rs.spec.trischaken_revoke_vorhand  # koenigrufen-raiffeisen.md §6.5 step 1: Vorhand pays 4 each
        amounts = {s: (-(len(active) - 1) * pay if s == h["revoke"] else pay) for s in active}
        return Settlement(summary=_("Renonce in Trischaken"), row=seat_row(n, amounts, "Königrufen"))
    points = {int(k): parse_thirds(v) for k, v in h["card_points"].items()}
    result = rs.trischaken(points, vorhand)
    return Settlement(summary=result.reason, row=seat_row(n, {s: int(v) for s, v in result.amounts.items()}, "Königrufen"))


# --------------------------------------------------------------------- Trischaken settlements

MAYOR_TIROL = 3 * 35 + 2  # "at least 35 points and 2 cards" (koenigrufen.md §4.2)


def trischaken_tirol(points: Mapping[int, int], vorhand: int) -> TrischakenResult:
    """Tiroler Tarockcup Trischaken (``koenigrufen.md`` §4.2, decision steps 2–4).

    ``points``: ``{seat: thirds}`` of the four active seats (summing to 210). Returns amounts per
    seat; a three-way tie gives thirds, which :class:`_Check` turns into a "manual row" problem.
    """
    most = max(points.values())
    top = [s for s, p in points.items() if p == most]
    jungfrauen = [s for s, p in points.items() if p == 0]
    loser, pay, reason = None, 0, ""
    if vorhand in top:
        loser = vorhand
        pay = 12 if points[vorhand] >= MAYOR_TIROL else 6
        reason = {
            (12, False): _("Vorhand has the most points and is a mayor: pays 12"),
            (6, False): _("Vorhand has the most points: pays 6"),
            (12, True): _("Vorhand has the most points and is a mayor: pays 12 to the Jungfrau (no trick)"),
            (6, True): _("Vorhand has the most points: pays 6 to the Jungfrau (no trick)"),
        }[pay, bool(jungfrauen)]
    elif most >= MAYOR_TIROL:
        loser, pay = top[0], 6
        reason = _("a mayor (35/2 or more) pays 6 to the Jungfrau (no trick)") if jungfrauen else _("a mayor (35/2 or more) pays 6")
    if loser is not None:
        recipients = jungfrauen or [s for s in points if s != loser]
        share = Fraction(pay, len(recipients))
        amounts = {s: Fraction(0) for s in points}
        amounts[loser] = Fraction(-pay)
        for s in recipients:
            amounts[s] = share
        return TrischakenResult(amounts, reason)
    if jungfrauen:
        takers = [s for s in points if s not in jungfrauen]
        amounts = {s: Fraction(-2 * len(jungfrauen)) for s in takers}
        for s in jungfrauen:
            amounts[s] = Fraction(2 * len(takers))
        return TrischakenResult(amounts, _("a Jungfrau (no trick) receives 2 from each player who took a trick"))
    # Normal case: places 1..4 by points pay 2, 2 and receive 2, 2; ties share their places' amounts.
    place_amounts = (-2, -2, 2, 2)
    ordered = sorted(points, key=lambda s: -points[s])
    amounts = {}
    for value in set(points.values()):
        places = [i for i, s in enumerate(ordered) if points[s] == value]
        share = Fraction(sum(place_amounts[i] for i in places), len(places))
        for i in places:
            amounts[ordered[i]] = share
    tied = max(list(points.values()).count(v) for v in points.values())
    reason = _("the two with the most points pay 2 each")
    if tied >= 3:
        reason = _("three players tied on card points")
    return TrischakenResult(amounts, reason)


def _losers(points: Mapping[int, int], vorhand: int) -> list[int]:
    """The players with the most card points; Vorhand among them loses alone (§2.2, §3.1)."""
    most = max(points.values())
    top = [s for s, p in points.items() if p == most]
    return [vorhand] if vorhand in top else top


MAYOR_WTC_2020 = 3 * 35 + 2  # "mindestens 35 Punkte und 2 Blatt" (koenigrufen.md §2.2)
MAYOR_WTC_2009 = 3 * 35 + 2  # "35 points and 2 Blatt" (koenigrufen.md §3.1 Decision, revised 2026-11-23; was 36/0)


def trischaken_wtc_2020(points: Mapping[int, int], vorhand: int) -> TrischakenResult:
    """Wiener Tarockcup 2020 Trischaken, the pot rule (``koenigrufen.md`` §2.2).

    The loser (most points; tied losers share, unless Vorhand is among them: then Vorhand alone)
    pays a pot of 6, doubled if he is Vorhand or a Bürgermeister (35/2 or more), 24 if both. The
    non-losers share the pot; if anyone took no trick, the Jungfrauen share it and the others get 0.
    """
    losers = _losers(points, vorhand)
    pot = 6
    if losers == [vorhand]:
        pot *= 2
    if len(losers) == 1 and points[losers[0]] >= MAYOR_WTC_2020:
        pot *= 2
    jungfrauen = [s for s, p in points.items() if p == 0]
    recipients = jungfrauen or [s for s in points if s not in losers]
    amounts = {s: Fraction(0) for s in points}
    for s in losers:
        amounts[s] = Fraction(-pot, len(losers))
    for s in recipients:
        amounts[s] = Fraction(pot, len(recipients))
    if jungfrauen:
        reason = Problem(_("the loser pays the pot of %(pot)s to the Jungfrau (no trick)"), pot=pot)
    else:
        reason = Problem(_("the loser pays the pot of %(pot)s to the others"), pot=pot)
    return TrischakenResult(amounts, reason)


def trischaken_wtc_2009(points: Mapping[int, int], vorhand: int) -> TrischakenResult:
    """Wiener Tarockcup 2009 Trischaken (``koenigrufen.md`` §3.1 and its Decisions).

    Unit ``u`` = 1, ×2 if the loser is Vorhand, ×2 if he is a Bürgermeister (35/2 or more, §3.1
    revised 2026-11-23). Without a Jungfrau each loser pays ``u`` to each non-loser. With Jungfrauen a single loser pays ``3u``,
    tied losers 3 each, shared equally by the Jungfrauen; the others get 0. A share that is not
    whole (a loser of ``u`` = 1 and two Jungfrauen) makes the hand a manual row.
    """
    losers = _losers(points, vorhand)
    unit = 1
    if losers == [vorhand]:
        unit *= 2
    if len(losers) == 1 and points[losers[0]] >= MAYOR_WTC_2009:
        unit *= 2
    jungfrauen = [s for s, p in points.items() if p == 0]
    amounts = {s: Fraction(0) for s in points}
    if jungfrauen:
        each = 3 * unit if len(losers) == 1 else 3
        for s in losers:
            amounts[s] = Fraction(-each)
        for s in jungfrauen:
            amounts[s] = Fraction(each * len(losers), len(jungfrauen))
        reason = _("the loser pays the Jungfrau (no trick)")
    else:
        others = [s for s in points if s not in losers]
        for s in losers:
            amounts[s] = Fraction(-unit * len(others))
        for s in others:
            amounts[s] = Fraction(unit * len(losers))
        reason = _("the loser pays each other player")
    return TrischakenResult(amounts, reason)


# ---------------------------------------------------------------------------------- editions

_ALL_BONUSES_KING = ("pagat", "uhu", "kakadu", "quapil", "koenig_ultimo", "mondfang", "vier_koenige", "trull", "sack1", "sack2", "valat")

TIROL_2019 = Edition(
    key="tiroler-tarockcup",
    edition="2019/20",
    name="Tiroler Tarockcup",
    source="Tiroler Cupregeln 2019/20 (koenigrufen.md §1, §4)",
    contracts=(
        # koenigrufen.md §4 table, bidding order ascending
        Contract("rufer", "Rufer", 1, "king_call", vorhand_only=True, code="r"),
        Contract("trischaken", "Trischaken", None, "trischaken", vorhand_only=True, code="t"),
        Contract("piccolo", "Piccolo", 2, "negative", code="p"),
        Contract("solorufer", "Solorufer", 2, "king_call", solo=True, code="sr"),
        Contract("besserrufer", "Besserrufer", 1, "king_call", bird="any", code="br"),
        Contract("bettler", "Bettler", 4, "negative", code="b"),
        Contract("sechserdreier", "Sechserdreier", 4, "dreier", vorhand_only=True, lost_factor=2, code="6"),
        Contract("farbendreier", "Farbendreier", 5, "colour", code="fd"),
        Contract("dreier", "Dreier", 5, "dreier", code="d"),
        Contract("zwiccolo_ouvert", "Zwiccolo ouvert", 8, "negative", code="zo"),
        Contract("piccolo_ouvert", "Piccolo ouvert", 8, "negative", code="po"),
        Contract("bettler_ouvert", "Bettel ouvert", 8, "negative", code="bo"),
        Contract("farbensolo", "Farbensolo", 10, "colour", solo=True, code="fs"),
        Contract("solodreier", "Solodreier", 10, "dreier", solo=True, code="sd"),
    ),
    bonuses=(
        # koenigrufen.md §4 "Bonuses (silent / announced)"
        Bonus("pagat", "Pagat", 1, 2, "trick", can_fail_silently=True, code="pag"),
        Bonus("uhu", "Uhu", 2, 4, "trick", can_fail_silently=True, code="uhu"),
        Bonus("kakadu", "Kakadu", 3, 6, "trick", can_fail_silently=True, code="kak"),
        Bonus("quapil", "Quapil", 4, 8, "trick", can_fail_silently=True, code="qua"),
        Bonus("koenig_ultimo", "König ultimo", 1, 2, "trick", can_fail_silently=True, code="ku"),
        Bonus("mondfang", "Mondfang", 1, 2, "trick", code="mf"),
        Bonus("vier_koenige", "Vier Könige", 1, 2, "material", code="vk"),
        Bonus("trull", "Trull", 1, 2, "material", code="tru"),
        Bonus("sack1", "1. Sack", None, 2, "material", code="s1"),
        Bonus("sack2", "2. Sack", None, 2, "material", code="s2"),
        Bonus("valat", "Valat", 10, 20, "valat", code="val"),
    ),
    family_bonuses={
        "king_call": _ALL_BONUSES_KING,
        "dreier": tuple(b for b in _ALL_BONUSES_KING if b != "koenig_ultimo"),
        "colour": ("vier_koenige", "sack1", "sack2", "valat"),
        "negative": (),
        "trischaken": (),
    },
    # §4.1: when a Valat is made, Trull, Vier Könige and the Säcke score nothing, silent or announced
    valat_absorbs=("trull", "vier_koenige", "sack1", "sack2"),
    valat_absorbs_announced=True,
    trischaken=trischaken_tirol,
    trischaken_revoke=4,  # §4.2 step 1: offender −12, the others +4 each
    hands_per_round=16,  # §5: 16 at a 4-table, 20 at a 5-table
    default_rounds=3,  # tournament-formats.md §1
    options=(SILENT_SACKS,),
)


_WTC_BONUSES = ("pagat", "uhu", "kakadu", "quapil", "koenig_ultimo", "vier_koenige", "trull", "valat")
_WTC_FAMILIES = {
    "king_call": _WTC_BONUSES,
    "dreier": tuple(b for b in _WTC_BONUSES if b != "koenig_ultimo"),
    "colour": ("vier_koenige", "valat"),
    "negative": (),
    "trischaken": (),
}


def _wtc_bonuses(valat: Bonus) -> tuple[Bonus, ...]:
    """The WTC bonus table (``koenigrufen.md`` §2: no Mondfang, no Säcke) with its Valat."""
    return (
        Bonus("pagat", "Pagat", 1, 2, "trick", can_fail_silently=True, code="pag"),
        Bonus("uhu", "Uhu", 2, 4, "trick", can_fail_silently=True, code="uhu"),
        Bonus("kakadu", "Kakadu", 3, 6, "trick", can_fail_silently=True, code="kak"),
        Bonus("quapil", "Quapil", 4, 8, "trick", can_fail_silently=True, code="qua"),
        Bonus("koenig_ultimo", "König ultimo", 1, 2, "trick", can_fail_silently=True, code="ku"),
        Bonus("vier_koenige", "Vier Könige", 1, 2, "material", code="vk"),
        Bonus("trull", "Trull", 1, 2, "material", code="tru"),
        valat,
    )


WTC_2020 = Edition(
    key="wiener-tarockcup",
    edition="2020",
    name="Wiener Tarockcup",
    source="WTC Tarife und Regeln 2020 (koenigrufen.md §1, §2)",
    round_minutes=120,  # "2 hours per round" (tournament-formats.md §1, sources)
    contracts=(
        # koenigrufen.md §2 table, bidding order ascending
        Contract("rufer", "Rufer", 1, "king_call", vorhand_only=True, code="r"),
        Contract("trischaken", "Trischaken", None, "trischaken", vorhand_only=True, code="t"),
        Contract("piccolo", "Piccolo", 2, "negative", code="p"),
        Contract("zwiccolo", "Zwiccolo", 2, "negative", code="z"),
        Contract("solorufer", "Solorufer", 2, "king_call", solo=True, code="sr"),
        Contract("pagatrufer", "Pagatrufer", 1, "king_call", bird="pagat", code="pr"),
        Contract("bettler", "Bettler", 4, "negative", code="b"),
        Contract("sechserdreier", "Sechserdreier", 4, "dreier", vorhand_only=True, lost_factor=2, code="6"),
        Contract("uhurufer", "Uhurufer", 1, "king_call", bird="uhu", code="ur"),
        Contract("farbendreier", "Farbendreier", 5, "colour", code="fd"),
        Contract("dreier", "Dreier", 5, "dreier", code="d"),
        Contract("piccolo_ouvert", "Piccolo ouvert", 6, "negative", code="po"),
        Contract("zwiccolo_ouvert", "Zwiccolo ouvert", 6, "negative", code="zo"),
        Contract("kakadurufer", "Kakadurufer", 1, "king_call", bird="kakadu", code="kr"),
        Contract("bettler_ouvert", "Bettler ouvert", 8, "negative", code="bo"),
        Contract("quapilrufer", "Quapilrufer", 1, "king_call", bird="quapil", code="qr"),
        Contract("farbensolo", "Farbensolo", 10, "colour", solo=True, code="fs"),
        Contract("solodreier", "Solodreier", 10, "dreier", solo=True, code="sd"),
    ),
    bonuses=_wtc_bonuses(Bonus("valat", "Valat", 10, 20, "valat", code="val")),
    family_bonuses=_WTC_FAMILIES,
    # §2.1: a made Valat absorbs the silent Trull and silent Vier Könige; announced ones count
    valat_absorbs=("trull", "vier_koenige"),
    valat_absorbs_announced=False,
    announced_valat_excludes=("trull", "vier_koenige"),  # W20: "können ... nicht angesagt werden"
    trischaken=trischaken_wtc_2020,
    trischaken_revoke=6,  # §2.2: the offender pays 6 to each other active player
    hands_per_round=20,  # §5: "fünf Radln"; 25 at a 5-table
)

WTC_2009 = Edition(
    key="wiener-tarockcup",
    edition="2009",
    name="Wiener Tarockcup",
    source="Dummett & McLeod, supplement 18.10 (koenigrufen.md §1, §3)",
    round_minutes=120,  # "2 hours per round" (tournament-formats.md §1, sources)
    contracts=(
        # koenigrufen.md §3 table
        Contract("rufer", "Rufer", 1, "king_call", vorhand_only=True, code="r"),
        Contract("trischaken", "Trischaken", None, "trischaken", vorhand_only=True, code="t"),
        Contract("sechserdreier", "Sechserdreier", 5, "dreier", vorhand_only=True, lost_factor=2, code="6"),
        Contract("piccolo", "Piccolo", 2, "negative", code="p"),
        Contract("solorufer", "Solorufer", 2, "king_call", solo=True, code="sr"),
        Contract("pagatrufer", "Pagatrufer", 1, "king_call", bird="pagat", code="pr"),
        Contract("bettler", "Bettler", 4, "negative", code="b"),
        Contract("uhurufer", "Uhurufer", 1, "king_call", bird="uhu", code="ur"),
        Contract("farbendreier", "Farbendreier", 5, "colour", code="fd"),
        Contract("dreier", "Dreier", 5, "dreier", code="d"),
        Contract("piccolo_ouvert", "Piccolo ouvert", 6, "negative", code="po"),
        Contract("kakadurufer", "Kakadurufer", 1, "king_call", bird="kakadu", code="kr"),
        Contract("bettler_ouvert", "Bettler ouvert", 8, "negative", code="bo"),
        Contract("quapilrufer", "Quapilrufer", 1, "king_call", bird="quapil", code="qr"),
        Contract("farbensolo", "Farbensolo", 10, "colour", solo=True, code="fs"),
        Contract("solodreier", "Solodreier", 10, "dreier", solo=True, code="sd"),
    ),
    # §3: "Valat ×8/×4" of the game value, replacing the game post
    bonuses=_wtc_bonuses(Bonus("valat", "Valat", 4, 8, "valat", multiplier=True, code="val")),
    family_bonuses=_WTC_FAMILIES,
    # §3: "the score for Valat supersedes the game, Four Kings and Trull, but not birds"; announced
    # Trull and Vier Könige still score (the cup's 2019/20 text)
    valat_absorbs=("trull", "vier_koenige"),
    valat_absorbs_announced=False,
    valat_multiplies=True,
    trischaken=trischaken_wtc_2009,
    trischaken_revoke=2,  # §3.1 Decision: the offender pays 2 to each other player
    hands_per_round=20,
    options=(VALAT_DOUBLED_IN_LOST_SECHSERDREIER,),
)


# ------------------------------------------------------------------ Raiffeisen Tarockcup 2023

MAYOR_RAIFFEISEN = 3 * 35 + 2  # "35/2", 107 thirds: "mit dem Spiel" (koenigrufen-raiffeisen.md §6.5)


def _pay(amounts: dict[int, Fraction], payer: int, total: Fraction, recipients: Sequence[int]) -> None:
    """``payer`` pays ``total``, shared equally by ``recipients``."""
    amounts[payer] -= total
    for s in recipients:
        amounts[s] += total / len(recipients)


def trischaken_raiffeisen(points: Mapping[int, int], vorhand: int, *, virgins_paid_in_full: bool = False) -> TrischakenResult:
    """Raiffeisen Tarockcup 2023 Trischaken (``koenigrufen-raiffeisen.md`` §6.5, steps 2–5).

    ``points``: ``{seat: thirds}`` of the four active seats (summing to 210); ``vorhand`` the
    Trischaker. ``L`` are the players with the most points, Jungfrauen those with 0 (no trick), a
    Bürgermeister has at least ``"35/2"`` (107 thirds). Every amount is whole (§6.5 notes).

    - step 2, Vorhand in ``L`` (alone or tied): Vorhand alone loses, ``u`` = 2, 4 if Bürgermeister;
      he pays ``3u``, shared by the Jungfrauen, else ``u`` to each other player;
    - step 3, one loser, not Vorhand: ``u`` = 1, 2 if Bürgermeister, paid the same way; two
      Jungfrauen of a ``u`` = 1 loser (``"35/1"`` : ``"34/2"``) get 2 each, the loser pays 4
      (OÖ23 "2 × 2 = 4");
    - step 4, two tied losers (Vorhand not among them): each pays 2, the two others +2 each; a
      single Jungfrau among them takes all 4;
    - step 5, three tied losers: −1, −1, −1, +3 (ÖF21).

    ``virgins_paid_in_full`` (option, §6.10 item 4): two Jungfrauen are each paid in full: with a
    sole loser each receives ``3u`` (the loser pays ``6u``); beside two tied losers each receives
    3 and each loser pays 3. **Decision**: the option is about two Jungfrauen (§6.10 item 4 names
    only that case); three Jungfrauen share as without it (SW19, the option's source, has the
    player with every trick pay 6, Vorhand 12).
    """
    most = max(points.values())
    top = [s for s, p in points.items() if p == most]
    jungfrauen = [s for s, p in points.items() if p == 0]
    amounts = {s: Fraction(0) for s in points}
    if vorhand in top or len(top) == 1:
        # §6.5 steps 2 and 3: one loser pays 3u
        loser = vorhand if vorhand in top else top[0]
        mayor = points[loser] >= MAYOR_RAIFFEISEN
        unit = (2 if loser == vorhand else 1) * (2 if mayor else 1)
        if len(jungfrauen) == 2 and virgins_paid_in_full:
            _pay(amounts, loser, Fraction(6 * unit), jungfrauen)  # §6.10 item 4: 3u to each
        elif len(jungfrauen) == 2 and unit == 1:
            _pay(amounts, loser, Fraction(4), jungfrauen)  # §6.5 step 3: "2 × 2 = 4"
        else:
            _pay(amounts, loser, Fraction(3 * unit), jungfrauen or [s for s in points if s != loser])
        if loser == vorhand:
            reason = Problem(_("Vorhand has the most points and pays %(pot)s"), pot=-int(amounts[loser]))
        elif mayor:
            reason = Problem(_("a Bürgermeister (35/2 or more) pays %(pot)s"), pot=-int(amounts[loser]))
        else:
            reason = Problem(_("the player with the most points pays %(pot)s"), pot=-int(amounts[loser]))
        if len(jungfrauen) == 1:
            reason = Problem(_("%(text)s to the Jungfrau (no trick)"), text=reason)
        elif jungfrauen:
            reason = Problem(_("%(text)s to the Jungfrauen (no trick)"), text=reason)
        return TrischakenResult(amounts, reason)
    others = [s for s in points if s not in top]
    if len(top) == 2:
        # §6.5 step 4: two tied losers pay 2 each; a single Jungfrau beside them takes all 4
        if len(jungfrauen) == 2 and virgins_paid_in_full:
            for s in top:
                _pay(amounts, s, Fraction(3), jungfrauen)  # §6.10 item 4: each loser pays 3, each Jungfrau gets 3
        else:
            for s in top:
                _pay(amounts, s, Fraction(2), jungfrauen or others)
        return TrischakenResult(amounts, _("the two with the most points pay 2 each"))
    # §6.5 step 5: three tied losers pay 1 each to the fourth
    for s in top:
        _pay(amounts, s, Fraction(1), others)
    return TrischakenResult(amounts, _("three tied for the most points pay 1 each"))


_RAIFFEISEN_BONUSES = ("pagat", "uhu", "kakadu", "quapil", "koenig_ultimo", "trull", "vier_koenige", "valat")

VIRGINS_PAID_IN_FULL = Option(
    "virgins_paid_in_full",
    _("Each player without a trick is paid in full in Trischaken"),
    _("Off: two Jungfrauen share the payment (OÖ23). On: each gets the whole amount (SW19, LTA)."),
    source="koenigrufen-raiffeisen.md §6.5, §6.10 item 4",
)

RAIFFEISEN_2023 = Edition(
    key="raiffeisen-tarockcup",
    edition="2023",  # "Version 4/2023" (koenigrufen-raiffeisen.md §6.0)
    name="Raiffeisen Tarockcup",
    source="Oberösterreichische Tarockregeln 4/2023, ÖF-Turnierregeln 2021 (koenigrufen-raiffeisen.md §6)",
    contracts=(
        # koenigrufen-raiffeisen.md §6.1, bidding order ascending; * Vorhand only
        Contract("trischaken", "Trischaken", None, "trischaken", vorhand_only=True, code="t"),
        Contract("rufer", "Rufer", 1, "king_call", vorhand_only=True, code="r"),
        Contract("piccolo", "Piccolo", 2, "negative", code="p"),
        Contract("bettler", "Bettel", 2, "negative", code="b"),
        Contract("solorufer", "Solorufer", 2, "king_call", solo=True, code="sr"),
        Contract("besserrufer", "Besserrufer", 1, "king_call", bird="any", code="br"),
        Contract("farbendreier", "Farbendreier", 3, "colour", code="fd"),
        Contract("sechserdreier", "Sechserdreier", 4, "dreier", vorhand_only=True, lost_factor=2, code="6"),
        Contract("dreier", "Dreier", 4, "dreier", code="d"),
        Contract("farbensolo", "Farbensolo", 6, "colour", solo=True, code="fs"),
        Contract("piccolo_ouvert", "Piccolo ouvert", 6, "negative", code="po"),
        Contract("bettler_ouvert", "Bettel ouvert", 7, "negative", code="bo"),
        Contract("solodreier", "Solodreier", 8, "dreier", solo=True, code="sd"),
    ),
    bonuses=(
        # koenigrufen-raiffeisen.md §6.2, silent / announced (RTC "Ansagen und Punktebewertung")
        Bonus("pagat", "Pagat", 1, 2, "trick", can_fail_silently=True, code="pag"),
        Bonus("uhu", "Uhu", 2, 4, "trick", can_fail_silently=True, code="uhu"),
        Bonus("kakadu", "Kakadu", 3, 6, "trick", can_fail_silently=True, code="kak"),
        Bonus("quapil", "Quapil", 4, 8, "trick", can_fail_silently=True, code="qua"),
        Bonus("koenig_ultimo", "König ultimo", 1, 2, "trick", can_fail_silently=True, code="ku"),
        Bonus("trull", "Trull", 1, 2, "material", code="tru"),
        Bonus("vier_koenige", "Vier Könige", 1, 2, "material", code="vk"),
        # §6.4: "Valat 8-fach" announced, 4-fach silent, of the game value, replacing the game post
        Bonus("valat", "Valat", 4, 8, "valat", multiplier=True, code="val"),
    ),
    family_bonuses={
        # koenigrufen-raiffeisen.md §6.2 family table
        "king_call": _RAIFFEISEN_BONUSES,
        "dreier": tuple(b for b in _RAIFFEISEN_BONUSES if b != "koenig_ultimo"),
        "colour": ("vier_koenige", "valat"),
        "negative": (),
        "trischaken": (),
    },
    # §6.4 item 5: beside a Valat only announced bonuses count (valat_only_announced), nothing more
    valat_absorbs=(),
    valat_absorbs_announced=False,
    valat_multiplies=True,  # §6.4 items 1, 4: 4V / 8V replace the game post, never doubled in solos
    valat_only_announced=True,  # §6.4 item 5
    valat_lost_factor=True,  # §6.4 item 3: against the Sechserdreier's declarer 32 / 64 per opponent
    koenig_ultimo_declarer_only=True,  # §6.2, §6.8: "keine Fänge"
    revoke_lost_factor=True,  # §6.6: a Sechserdreier's regular opponent gets 2G + A (OÖR25 B.4)
    trischaken=trischaken_raiffeisen,
    trischaken_revoke=2,  # §6.5 step 1: the offender pays 2 to each other active player
    trischaken_revoke_vorhand=4,  # §6.5 step 1: 4 to each if the offender is Vorhand
    trischaken_options=("virgins_paid_in_full",),
    failed_silent_birds_default=False,  # §6.2 "Failed silent bonuses", §6.10 item 7
    hands_per_round=16,  # §6.9: 3 rounds of 16 hands; 20 at a 5-table (Decision)
    default_rounds=3,  # §6.9
    tiebreaks=("best_rounds", "lots"),  # §6.9: best round, second-best, ..., then lots
    options=(VIRGINS_PAID_IN_FULL,),
    notes=(
        # §6.4
        _("A Valat counts 4 (silent) or 8 (announced) times the game value in place of the game, never doubled in a solo; against the declarer of a Sechserdreier it is doubled once more. Beside a Valat only announced bonuses count."),
        # §6.2, §6.8
        _("König ultimo is a bonus of the declarer's team only: there are no captures."),
        # §6.6
        _("Renonce: every other player scores as if he had won the game and every announced bonus; an opponent of a Sechserdreier gets the game twice."),
        # §6.5
        _("Trischaken: the player with the most points pays 1 to each other player, 2 with 35/2 or more; Vorhand with the most points, alone or tied, pays double; two tied for the most pay 2 each, three pay 1 each to the fourth; players without a trick take the whole payment."),
    ),
)
