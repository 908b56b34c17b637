"""Four-handed Hungarian Tarokk, Paskievics (XX-calling), as a tournament ruleset.

Pure Python, no Django. The rules are ``../shared/rules/hungarian-tarokk.md`` ("the rule file"; its
source is pagat.com "Hungarian Tarokk", PAG), the record is ``../shared/rules/hand-record.md``
(section "Added for the seeds' other games (2026-11-23)"). Section numbers below (§n) are the rule
file's.

A played hand is scored from the declarer's side's card points (``declarer_points``, 0..94), the
side that took every trick (``all_tricks``), the kontra on the game, the bonus entries and the
declared tarokks (§2, §3):

- the game, the double game (*dupla*) and the volát are worth ``g``, ``2g`` / ``4g`` and ``3g`` /
  ``6g`` (silent / announced, ``g`` the bid's game value 1..4) and exclude each other as §3.2 says;
- tuletroá, négykirály, pagátultimó and XXI-fogás are posts of their own (§3.3);
- every kontra'd item is multiplied by ``2**k``, ``k`` its own kontra level (§3.1);
- the posts add up to the net value ``n`` from the declarer's side's view; 2 against 2 every player
  of the side wins or loses ``n``, a lone declarer (self-call, discarded call) ``3n`` (§3.4);
- declared tarokks are paid to the holder by each other active player (§3.5);
- a próbahárom lost without play costs the bidder ``g`` to each other player (§3.6).

Rows sum to 0; the dealer of a 5-table sits out and scores 0 (§1). Options: :data:`OPTIONS` (§5).

**Decisions** where the rule file is silent (each repeated where it is implemented):

- the options of §5 are check boxes: ``kontra_max`` 5 is ``mordkontra``, ``xxi_catch_value`` 42 / 84
  is ``xxi_catch_kupa`` (the 30 / 60 reading, second-hand only, is not offered), ``proba_penalty``
  ``pvsz18`` is ``proba_pvsz18``;
- every bonus entry states ``team`` and ``announced``; a silent entry's ``kontra`` may be absent,
  ``null`` or ``0``; the game's ``kontra: null`` and ``bonuses`` / ``tarokks`` ``null`` read as
  their defaults;
- ``called`` is exactly one of ``"II"`` … ``"XX"``; another spelling ("xx", "IIII", 20) is refused
  with the right numeral;
- a side with fewer than 4 card points took no trick (every card counts 1 at least, a trick has four
  cards): 91 or more, or 3 or fewer, needs the matching ``all_tricks``;
- ``tarokks`` keys may be JSON strings ("1") or ints; with ``tarokks_team_post`` the post belongs to
  the holder's side, so a lone declarer's three opponents share an opponent's post;
- a próbahárom record may carry ``won: false`` (it is lost); ``won_of`` is ``False`` for it;
- the seating kings follow the tarokk in the order hearts, diamonds, spades, clubs (as Königrufen);
- table points at a table of another size: 10 / 8 / 6 / 4, then 4 for every further place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from .base import Bonus, Choice, Contract, Option, RecordField, Ruleset, SeatCard, Settlement, seat_row
from .cardpoints import CardPointsError
from .checks import HandCheck, is_int, recorded_points, whole_points
from .problems import Problem, _

__all__ = ["HungarianTarokkRuleset", "table_points", "OPTIONS"]

FAMILY = "hungarian"

CONTRACTS = (
    # §1: key, bid, game value g; the talon cards the declarer takes are 3, 2, 1, 0.
    Contract("harom", "Három", 1, FAMILY, note=_("three talon cards for the declarer"), code="3"),
    Contract("ketto", "Kettő", 2, FAMILY, note=_("two talon cards for the declarer"), code="2"),
    Contract("egy", "Egy", 3, FAMILY, note=_("one talon card for the declarer"), code="1"),
    Contract("szolo", "Szóló", 4, FAMILY, note=_("no talon card for the declarer"), code="s"),
)

BONUSES = (
    # §3.1: silent / announced. Dupla and volát are multiples of g (multiplier) and follow from the
    # card points and all_tricks (derived, §2); the others do not depend on g.
    Bonus("tuletroa", "Tuletroá", 1, 2, "material", code="tu"),
    Bonus("negykiraly", "Négykirály", 1, 2, "material", code="4k"),
    Bonus("dupla", "Dupla", 2, 4, "material", multiplier=True, code="du", derived=True),
    Bonus("volat", "Volát", 3, 6, "valat", multiplier=True, code="vol", derived=True),
    Bonus("pagatultimo", "Pagátultimó", 5, 10, "trick", can_fail_silently=True, code="pu"),
    Bonus("xxi_fogas", "XXI-fogás", 21, 42, "trick", code="xxi"),
)
XXI_KUPA = (42, 84)  # option xxi_catch_kupa (KUPA §1.5, §5)

TEAMS = ("declarer", "opponents")
DERIVED = ("dupla", "volat")
FEATS = ("tuletroa", "negykiraly", "pagatultimo", "xxi_fogas")  # §4: at most one side makes each

WIN = 48  # "at least 48" (PAG §The scoring)
WIN_KONTRA_47 = 47  # option kontra_47_declarer_wins, on a kontra'd game (§5)
DUPLA_DECLARER = 71  # "at least 71 points, keeping the other side to 23 card points or fewer" (§3.1)
DUPLA_OPPONENTS = 23
PACK = 94  # card points in the pack (PAG §The cards)
ALL_TRICKS_MIN = 72  # §4: the other side then owns only discards, 22 at most
ALL_TRICKS_MAX = 22
MIN_TRICK_POINTS = 4  # every card counts 1 point at least, a trick has four cards (PAG §The cards)
TAROKKS_IN_PACK = 22
TAROKK_PAYMENT = {8: 1, 9: 2}  # §3.5
PROBA_PVSZ18 = 3  # option proba_pvsz18: 3 to each (§5)
TALON_BIDS = ("harom", "ketto", "egy")  # §3.6: a forfeit draws from the talon

# The kontra levels in the game's words (hand-record.md "kontra"; 5 only with the mordkontra
# option, §5) and their codes in the hand notation.
KONTRA_NAMES = ("", "kontra", "rekontra", "szubkontra", "hirskontra", "mordkontra")
KONTRA_CODES = ("", "k", "re", "szub", "hirs", "mord")
KONTRA_MAX = 4
KONTRA_MAX_MORD = 5

# §2 "called": the tarokks II..XX in standard numerals; the honours (skíz, XXI, pagát) are never
# called (PAG §Calling a partner, item 2).
ROMAN = {
    20: "XX", 19: "XIX", 18: "XVIII", 17: "XVII", 16: "XVI", 15: "XV", 14: "XIV", 13: "XIII", 12: "XII",
    11: "XI", 10: "X", 9: "IX", 8: "VIII", 7: "VII", 6: "VI", 5: "V", 4: "IV", 3: "III", 2: "II",
}
CALLABLE = tuple(ROMAN[v] for v in range(20, 1, -1))
SELF_CALL = "XX"  # §1 Decision: he calls himself only with the XX
HONOUR_WORDS = {"XXI": "XXI", "I": "pagát (I)", "SKIZ": "skíz", "SKÍZ": "skíz", "SKIS": "skíz", "SKÜS": "skíz", "XXII": "skíz"}

# §8: the Illusztrált bonuses, refused here by name; and other rulesets' keys with their Hungarian one.
ILLUSZTRALT = frozenset(
    {
        "centrum", "kismadar", "nagymadar", "uhu", "pagatuhu", "pagat_uhu", "sasuhu", "sas_uhu",
        "kiralyuhu", "kiraly_uhu", "kiralyultimo", "kiraly_ultimo", "sasultimo", "sas_ultimo",
    }
)
BONUS_HINTS = {
    "trull": "tuletroa", "trula": "tuletroa", "tuli": "tuletroa",
    "vier_koenige": "negykiraly", "kralji": "negykiraly", "four_kings": "negykiraly",
    "double": "dupla", "duplajatek": "dupla",
    "valat": "volat",
    "pagat": "pagatultimo", "pagat_ultimo": "pagatultimo", "ultimo": "pagatultimo",
    "mondfang": "xxi_fogas", "xxi_catch": "xxi_fogas", "huszonegyfogas": "xxi_fogas",
}

# Fields of hand-record.md that this ruleset does not have (§2): refused unless absent or default.
FOREIGN_FIELDS = (
    ("card_points", _("Hungarian Tarokk records the card points of the declarer's side (declarer_points), not every player's.")),
    ("kontra_by", _("Hungarian Tarokk records the kontra level on the game and on each announcement, not who said kontra.")),
    ("against_solo", _("“Against a Solo” is a Cego field, not Hungarian Tarokk.")),
    ("mond_lost_by", _("Hungarian Tarokk has no Mond penalty: a captured XXI is the XXI-fogás bonus.")),
    ("conceded", _("Hungarian Tarokk has no conceding: a lone declarer plays the hand.")),
    ("revoke", _("Hungarian Tarokk has no computed renonsz settlement: enter a manual row agreed by the tournament director.")),
)
# A próbahárom lost without play carries these and nothing else (§2, §3.6); other fields may be
# present at their hand-record.md default (FORFEIT_DEFAULTS, or null).
FORFEIT_FIELDS = frozenset({"dealer", "outcome", "contract", "declarer", "forfeit", "note"})
FORFEIT_DEFAULTS = {"bonuses": [], "kontra": 0, "tarokks": {}, "conceded": False, "against_solo": False, "won": False}

TEAM_WORDS = {"declarer": _("declarer's side"), "opponents": _("opponents")}

RECORD_FIELDS = (
    RecordField(
        "called",
        _("Called tarokk"),
        "choice",
        choices=tuple(Choice(numeral, numeral, numeral.lower()) for numeral in CALLABLE),
        help=_("Required in every played hand but a próbahárom lost without play: the tarokk the declarer called, normally the XX; honours are never called."),
    ),
    RecordField(
        "all_tricks",
        _("All tricks (volát)"),
        "choice",
        choices=(
            Choice("declarer", _("all tricks: declarer's side"), "all"),
            Choice("opponents", _("all tricks: opponents"), "/all"),
        ),
        help=_("The side that took all nine tricks, if one did."),
    ),
    RecordField(
        "tarokks",
        _("Declared tarokks"),
        "per_seat",
        choices=(Choice(8, _("eight tarokks"), "8t"), Choice(9, _("nine tarokks"), "9t")),
        help=_("Players who declared eight or nine tarokks."),
    ),
    RecordField(
        "forfeit",
        _("Próbahárom lost without play"),
        "flag",
        code="pr",
        help=_("The fourth bidder drew no honour from the talon and lost without play."),
    ),
)

# Seating by card (§7, tournament-formats.md §2): the tarokk draws Vorhand of the first hand, the
# kings follow him in playing order (the fifth card at a 5-table).
SEAT_CARDS = (
    SeatCard("tarokk", _("Tarokk")),
    SeatCard("hearts", _("King of hearts")),
    SeatCard("diamonds", _("King of diamonds")),
    SeatCard("spades", _("King of spades")),
    SeatCard("clubs", _("King of clubs")),
)

# §7: table points by place at the table in each round.
PLACE_POINTS = {4: (10, 8, 6, 4), 5: (10, 8, 6, 4, 4)}

OPTIONS = (
    # §5, all off by default. The rule file's non-boolean options are check boxes here:
    # kontra_max 5 = mordkontra, xxi_catch_value 42/84 = xxi_catch_kupa, proba_penalty pvsz18 = proba_pvsz18.
    Option(
        "mordkontra",
        _("Mordkontra (×32) allowed"),
        _("A fifth kontra level (PAG). Off: hirskontra (×16) is the highest, as in the Hungarian tournament rules."),
        source="hungarian-tarokk.md §5",
    ),
    Option(
        "kontra_47_declarer_wins",
        _("47 card points win a kontra'd game"),
        _("After a kontra on the game the declarer's side wins at 47–47 (Kovács, PAG Variations in the scoring). Off: 47 loses."),
        source="hungarian-tarokk.md §5",
    ),
    Option(
        "announcer_game_never_scored",
        _("No game for a side that announced dupla or volát"),
        _("Not even when the game was kontra'd (PVSZ18 §4.5–4.6). Off: a kontra'd game is always scored (PAG)."),
        source="hungarian-tarokk.md §5",
    ),
    Option(
        "silent_trull_with_volat",
        _("Silent tuletroá scores beside a volát"),
        _("PAG Variations in the scoring; a silent négykirály still scores nothing. Off: neither scores beside a volát."),
        source="hungarian-tarokk.md §5",
    ),
    Option(
        "xxi_catch_kupa",
        _("XXI-fogás 42 silent, 84 announced"),
        _("Tarokk Kupa §1.5. Off: 21 silent, 42 announced (PAG)."),
        source="hungarian-tarokk.md §5",
    ),
    Option(
        "tarokks_team_post",
        _("Declared tarokks are paid to the holder's side"),
        _("A post of 1 (eight) or 2 (nine) for the holder's side inside the net score, so his partner shares it (PVSZ18 §4.1). Off: each other active player pays the holder (PAG)."),
        source="hungarian-tarokk.md §5",
    ),
    Option(
        "proba_pvsz18",
        _("Próbahárom as in PVSZ18"),
        _("Only a három can be lost without play, and the bidder pays 3 to each other player (PVSZ18 §8.2). Off: a three, two or one, paying its game value (PAG)."),
        source="hungarian-tarokk.md §5",
    ),
)


def _entry(key: str, team: str = "declarer", announced: bool = False, made: bool | None = True, kontra: int = 0) -> dict:
    """A bonus entry of the hand record (§2); ``made=None`` leaves it out (dupla, volát)."""
    e: dict = {"bonus": key, "team": team, "announced": announced}
    if made is not None:
        e["made"] = made
    if kontra:
        e["kontra"] = kontra
    return e


# Example hands of the reference card, (table size, record), each as typed for the first hand of a
# round (seat 3 deals, seat 0 is Vorhand, §7), where the card shows it: PAG's own example (§2), a
# self-call szóló with a silent tuletroá, a discarded call with declared tarokks and the opponents'
# announced pagátultimó, a próbahárom lost without play (bid by the fourth player, the dealer,
# §3.6) and a manual row — five, so that the notation card stays one page.
NOTATION_EXAMPLES = (
    (4, {"dealer": 3, "contract": "ketto", "declarer": 1, "called": "XX", "partner": 2, "declarer_points": 52, "kontra": 1,
         "bonuses": [_entry("dupla", announced=True, made=None, kontra=1)]}),
    (4, {"dealer": 3, "contract": "szolo", "declarer": 3, "called": "XX", "partner": 3, "declarer_points": 61,
         "bonuses": [_entry("tuletroa")]}),
    (4, {"dealer": 3, "contract": "harom", "declarer": 3, "called": "XIX", "partner": None, "declarer_points": 44, "kontra": 1,
         "bonuses": [_entry("pagatultimo", "opponents", announced=True, made=True)], "tarokks": {"1": 8}}),
    (4, {"dealer": 3, "contract": "harom", "declarer": 3, "forfeit": True}),
    (4, {"dealer": 3, "outcome": "manual", "scores": [-6, 2, 2, 2]}),
)


# --------------------------------------------------------------------------------- table points


def table_points(scores: Sequence[int]) -> list[Fraction]:
    """Table points of one table's round (§7): 10 / 8 / 6 / 4 for the places by round score, at a
    5-table 10 / 8 / 6 / 4 / 4; players with equal round scores share the average of the places
    they occupy (ITVB 2.3, a **Decision** of §7 for Paskievics).

    ``scores``: the round score of each seat; returns one :class:`~fractions.Fraction` per seat.
    **Decision**: any other table size gets 10 / 8 / 6 / 4 and 4 for every further place.
    """
    count = len(scores)
    places = PLACE_POINTS.get(count) or (PLACE_POINTS[4] + (4,) * max(0, count - 4))[:count]
    order = sorted(range(count), key=lambda seat: -scores[seat])
    points = [Fraction(0)] * count
    i = 0
    while i < count:
        j = i
        while j + 1 < count and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = Fraction(sum(places[i : j + 1]), j - i + 1)
        for k in order[i : j + 1]:
            points[k] = share
        i = j + 1
    return points


def _seat_key(key) -> int | None:
    """A seat from a ``tarokks`` key: an ``int`` or a string of ASCII digits ("1"); else ``None``."""
    if is_int(key):
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit():
        return int(key)
    return None


def _other(team: str) -> str:
    return "opponents" if team == "declarer" else "declarer"


def _sign(team: str) -> int:
    """+1 for the declarer's side, −1 for the opponents: posts are seen from the declarer's side."""
    return 1 if team == "declarer" else -1


def _roman_value(text: str) -> int | None:
    """The number a Roman numeral or a decimal string stands for ("IIII" -> 4), or ``None``."""
    text = text.strip().upper()
    if text.isascii() and text.isdigit():
        return int(text)
    if not text or any(c not in "IVXL" for c in text):
        return None
    values = {"I": 1, "V": 5, "X": 10, "L": 50}
    total = 0
    for i, c in enumerate(text):
        v = values[c]
        total += -v if i + 1 < len(text) and values[text[i + 1]] > v else v
    return total


class HungarianTarokkRuleset(Ruleset):
    """Validate and score Hungarian Tarokk (Paskievics) hands (``../shared/rules/hungarian-tarokk.md``).

    Record: ``hand-record.md`` with the fields of §2 (``called``, ``partner`` written out,
    ``declarer_points`` 0..94, ``all_tricks``, ``kontra``, ``bonuses``, ``tarokks``, ``forfeit``).
    ``options``: the booleans of :data:`OPTIONS` (§5), all off by default. ``history`` is ignored.
    """

    key = "hungarian-tarokk"
    edition = "paskievics"
    name = "Hungarian Tarokk"
    label = "Hungarian Tarokk (Paskievics)"
    source = "pagat.com “Hungarian Tarokk” (PAG); hungarian-tarokk.md"
    table_sizes = (4, 5)
    preferred_table_size = 4
    max_other_tables = None
    zero_sum = True
    sitting_out_pays = False  # the resting dealer of a 5-table "neither wins nor loses" (§1)
    default_rounds = 4  # §7
    default_hands_per_round = 16  # §7: 16 at a 4-table, 20 at a 5-table
    default_round_minutes = 80  # §7: "within 80 minutes"
    tiebreaks = ("game_points", "card_draw")  # §7: table points, then game points, then a drawn card
    contracts = CONTRACTS
    bonuses = BONUSES
    option_specs = OPTIONS
    notation_example_hands = NOTATION_EXAMPLES
    record_fields = RECORD_FIELDS
    kontra_names = KONTRA_NAMES
    kontra_codes = KONTRA_CODES
    max_card_points = PACK
    partner_label = _("Partner (holder of the called tarokk)")
    partner_none_label = _("none – the called tarokk lay in a discard")
    self_call_written = True
    partner_written_out = True  # §2: required in a played hand, ``null`` written out
    bonus_per_team = True  # both sides may record the same bonus, each once (§2, §3.3)
    value_heading = _("Game value")

    def __init__(self, editions: Sequence[str] = (), options: Mapping | None = None):
        super().__init__(editions, options)
        top = KONTRA_MAX_MORD if self.options.get("mordkontra") else KONTRA_MAX
        self.kontra_names = KONTRA_NAMES[: top + 1]
        self.kontra_codes = KONTRA_CODES[: top + 1]
        if self.options.get("xxi_catch_kupa"):
            silent, announced = XXI_KUPA
            self.bonuses = tuple(replace(b, silent=silent, announced=announced) if b.key == "xxi_fogas" else b for b in BONUSES)
        self._contracts = {c.key: c for c in self.contracts}
        self._bonuses = {b.key: b for b in self.bonuses}

    # ----------------------------------------------------------------- catalogue and table format

    @property
    def victory_points(self) -> str:
        """Rounds are ranked by table points (§7)."""
        return "table_points"

    def table_points(self, scores: Sequence[int]) -> list[Fraction]:
        """Table points of one table's round scores (§7, :func:`table_points`)."""
        return table_points(scores)

    def contract(self, key: str) -> Contract:
        """The contract with ``key`` (§1); raises ``KeyError``."""
        return self._contracts[key]

    def bonus(self, key: str) -> Bonus:
        """The bonus with ``key`` (§3.1, XXI-fogás at the option's value); raises ``KeyError``."""
        return self._bonuses[key]

    def allowed_bonuses(self, contract_key: str) -> tuple[Bonus, ...]:
        """Every contract allows all six bonuses (§3.1); raises ``KeyError`` for an unknown contract."""
        self.contract(contract_key)
        return self.bonuses

    def fields(self, contract: Contract) -> tuple[str, ...]:
        """The record fields of a hand (§2), the same for every bid."""
        return ("declarer", "partner", "called", "declarer_points", "won", "all_tricks", "kontra", "bonuses", "tarokks", "forfeit")

    def sitting_out(self, dealer: int, table_size: int) -> int | None:
        """The dealer of a 5-table sits the hand out and scores 0 (§1)."""
        return dealer if table_size == 5 else None

    def hands_per_round(self, table_size: int, base: int | None = None) -> int:
        """``base`` (default 16) hands at a 4-table, ``base × 5/4`` at a 5-table (§7: 16 / 20)."""
        base = self.default_hands_per_round if base is None else base
        return base * table_size // self.preferred_table_size

    def seat_cards(self, table_size: int) -> tuple[SeatCard, ...]:
        """The seating draw (§7): a tarokk, then kings of hearts, diamonds, spades (and clubs at
        a 5-table), in seat order; seat 0 draws the tarokk and is Vorhand of the first hand."""
        return SEAT_CARDS[:table_size]

    def first_dealer(self, table_size: int) -> int:
        """The seat before the tarokk's Vorhand deals first (§7, PAG §Choice of seats)."""
        return table_size - 1

    @property
    def xxi_values(self) -> tuple[int, int]:
        """XXI-fogás silent / announced: 21 / 42, 42 / 84 with ``xxi_catch_kupa`` (§3.1, §5)."""
        b = self.bonus("xxi_fogas")
        return b.silent, b.announced

    def declarer_wins(self, points: int, kontra: int) -> bool:
        """Whether the declarer's side wins the game with ``points`` (§3.2): 48 or more; 47 too
        on a kontra'd game (``kontra >= 1``) with the ``kontra_47_declarer_wins`` option (§5)."""
        if points >= WIN:
            return True
        return bool(self.options.get("kontra_47_declarer_wins")) and kontra >= 1 and points >= WIN_KONTRA_47

    def won_of(self, record) -> bool | None:
        """Whether the declarer won (§2): from ``declarer_points`` and the game's kontra
        (:meth:`declarer_wins`); ``None`` without readable points. **Decision**: a próbahárom lost
        without play (``forfeit``) is ``False``. Never raises."""
        try:
            if record.get("forfeit") is True:
                return False
            points = recorded_points(record, PACK)
            if points is None:
                return None
            kontra = record.get("kontra", 0)
            return self.declarer_wins(points, kontra if is_int(kontra) else 0)
        except AttributeError:
            return None

    # ------------------------------------------------------------------------------ in words

    def describe(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """A hand in words (:meth:`Ruleset.describe`). **Decision**: "won" / "lost" is the game,
        decided by the card points (§3.2, :meth:`won_of`), not the sign of the row: PAG's example
        (§2) is a game won with 52 points and a row lost to the failed dupla."""
        if isinstance(record, Mapping) and record.get("won") is None and record.get("outcome", "played") == "played":
            won = self.won_of(record)
            if won is not None and not record.get("forfeit"):
                record = {**record, "won": won}
        return super().describe(record, row)

    def hand_flags(self, record) -> list[Problem]:
        """A self-call and a discarded call in words (§1), for :meth:`describe`."""
        try:
            if record.get("forfeit") is True or "partner" not in record:
                return []
            if record["partner"] is None:
                return [Problem(_("the called tarokk lay in a discard"))]
            if record["partner"] == record.get("declarer"):
                return [Problem(_("self-call"))]
        except AttributeError:
            pass
        return []

    def notable(self, record, row: Sequence[int] | None = None) -> list[Problem]:
        """Why a hand is worth mentioning (:meth:`Ruleset.notable`), in this game's terms: a
        volát made by either side, announced or silent ("Valat", the statistics' msgid), a szóló
        won ("%(contract)s won"), an announced tuletroá, négykirály, pagátultimó or XXI-fogás
        made (:meth:`bonus_words`), and a próbahárom lost without play.

        **Decision**: a silent XXI-fogás made is mentioned too (the captured XXI's holder "has to
        wear the mayor's hat", PAG §Bonuses 6), and so is a called tarokk that lay in a discard (a
        lone game with an obliged kontra, §1); a self-call is an ordinary lone game and is not.
        Never raises: an unknown contract, a struck hand or a manual row gives no reason.
        """
        try:
            return self._notable(record, row)
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            return []

    def _notable(self, record, row) -> list[Problem]:
        if not isinstance(record, Mapping) or record.get("outcome", "played") != "played":
            return []
        contract = self._contracts.get(record.get("contract")) if isinstance(record.get("contract"), str) else None
        if contract is None:
            return []
        if record.get("forfeit") is True:
            return [Problem(_("Próbahárom lost without play"))]
        reasons: list[Problem] = []
        entries = [b for b in record.get("bonuses") or [] if isinstance(b, Mapping) and b.get("bonus") in self._bonuses]
        if record.get("all_tricks") in TEAMS or any(b["bonus"] == "volat" and b.get("made") is True for b in entries):
            reasons.append(Problem(_("Valat")))
        if contract.key == "szolo":
            won = self.won_of(record)
            declarer = record.get("declarer")
            if won is None and row is not None and is_int(declarer) and 0 <= declarer < len(row):
                won = row[declarer] > 0
            if won:
                reasons.append(Problem(_("%(contract)s won"), contract=contract.name))
        for b in entries:
            if b["bonus"] in FEATS and b.get("made") is True and (b.get("announced") is True or b["bonus"] == "xxi_fogas"):
                reasons.append(self.bonus_words(b))
        if "partner" in record and record["partner"] is None:
            reasons.append(Problem(_("the called tarokk lay in a discard")))
        return reasons

    def rules_summary(self) -> list[Problem]:
        """§3 and §7 in sentences for the rules page, with the options in force."""
        kontra_47 = self.options.get("kontra_47_declarer_wins")
        xxi_silent, xxi_announced = self.xxi_values
        lines = [
            Problem(
                _("Game value g: három 1, kettő 2, egy 3, szóló 4. The declarer's side wins the game with 48 card points or more of 94; 47 loses.")
                if not kontra_47
                else _("Game value g: három 1, kettő 2, egy 3, szóló 4. The declarer's side wins the game with 48 card points or more of 94; after a kontra on the game 47 wins too.")
            ),
            Problem(
                _("Dupla (71 card points or more, the other side 23 or fewer): 2g silent, 4g announced. Volát (all nine tricks): 3g silent, 6g announced. Without a kontra a side's dupla or volát takes the place of its game; a kontra'd game is always scored.")
                if not self.options.get("announcer_game_never_scored")
                else _("Dupla (71 card points or more, the other side 23 or fewer): 2g silent, 4g announced. Volát (all nine tricks): 3g silent, 6g announced. A side's dupla or volát takes the place of its game; a side that announced dupla or volát never scores the game, even kontra'd.")
            ),
            Problem(
                _("Tuletroá and négykirály 1 silent, 2 announced; pagátultimó 5 and 10, a silent one whose pagát is beaten in the last trick costs 5; XXI-fogás %(silent)s and %(announced)s. An announced bonus scores for its side if made, against it if not."),
                silent=xxi_silent,
                announced=xxi_announced,
            ),
            Problem(
                _("Silent tuletroá and silent négykirály of the side that took every trick score nothing.")
                if not self.options.get("silent_trull_with_volat")
                else _("Silent tuletroá of the side that took every trick scores; its silent négykirály scores nothing.")
            ),
            Problem(
                _("Each kontra doubles the game or the announcement it is said to: kontra ×2, rekontra ×4, szubkontra ×8, hirskontra ×16.")
                if self.max_kontra == KONTRA_MAX
                else _("Each kontra doubles the game or the announcement it is said to: kontra ×2, rekontra ×4, szubkontra ×8, hirskontra ×16, mordkontra ×32.")
            ),
            Problem(
                _("The net score is paid by each opponent to one player of the declarer's side; a declarer alone (self-call with the XX, or the called tarokk in a discard) receives or pays it three times.")
            ),
            Problem(
                _("Eight declared tarokks are paid 1, nine 2, by each other active player.")
                if not self.options.get("tarokks_team_post")
                else _("Eight declared tarokks count 1, nine 2, for the holder's side in the net score.")
            ),
            Problem(
                _("A próbahárom lost without play: the bidder pays 3 to each other player (három only).")
                if self.options.get("proba_pvsz18")
                else _("A próbahárom lost without play: the bidder pays the game value to each other player.")
            ),
            Problem(
                _("Each round gives table points 10 / 8 / 6 / 4 (10 / 8 / 6 / 4 / 4 at a table of five) by the round score at the table, equal scores sharing; the tournament ranks by table points, then game points, then a card draw.")
            ),
        ]
        return lines

    # ------------------------------------------------------------------------------ scoring

    @property
    def checker(self) -> type:
        """The :class:`~variants.checks.HandCheck` subclass that validates this ruleset's hands (§4)."""
        return _Check

    def settle(self, hand, table_size: int, history: Sequence = ()) -> Settlement:
        """The zero-sum row of a valid played hand (§3.2–§3.6) with its posts. ``posts``: the
        items of the net value ``n`` from the declarer's side's view (they add up to ``n``), then
        each declared tarokk paid outside ``n``, as ``+v`` from the holder's view (paid by each
        other active player; with ``tarokks_team_post`` a ``±v`` post inside ``n`` instead,
        **Decision**: for the holder's whole side, a lone declarer's three opponents too).
        ``summary``: won or lost and ``n``; ``won``: the declarer's side won the game (§3.2).
        ``history`` is ignored. Raises ``KeyError`` / ``TypeError`` on a hand ``validate`` refuses."""
        return _settle(self, _normalise(hand), table_size)

    def draw_random(self, rng, table_size: int, dealer: int) -> dict:
        """A hand of a Paskievics tournament evening (:func:`random_hand_record`)."""
        return random_hand_record(self, rng, table_size, dealer)


# ------------------------------------------------------------------------------------ validation


def _normalise(hand: Mapping) -> dict:
    """The record with the defaults of ``hand-record.md`` filled in (``null`` bonuses and tarokks
    read as none). ``partner``, ``called`` and ``declarer_points`` have none (§2)."""
    h = dict(hand)
    h.setdefault("outcome", "played")
    if h.get("bonuses") is None:
        h["bonuses"] = []
    if h.get("tarokks") is None:
        h["tarokks"] = {}
    h.setdefault("kontra", 0)
    h.setdefault("all_tricks", None)
    h.setdefault("forfeit", False)
    return h


class _Check(HandCheck):
    """One validation run over a hand (§4 "Validation", every row), collecting problems in order.

    Besides §4, **Decision**: a side with fewer than 4 card points took no trick (every card
    counts at least 1 point and a trick has four cards, PAG §The cards), so ``declarer_points``
    of 91 or more, or of 3 or fewer, needs the matching ``all_tricks``.
    """

    def normalise(self, hand: Mapping) -> dict:
        return _normalise(hand)

    # ------------------------------------------------------------------------------ played hand

    def check_played(self) -> None:
        h = self.hand
        contract = self.contract()
        forfeit = h.get("forfeit")
        if not isinstance(forfeit, bool):
            self.add(_("“forfeit” (próbahárom lost without play) must be true or false."))
            return
        if contract is None:
            return
        if forfeit:
            self.check_forfeit(contract)
            return
        for field_name, message in FOREIGN_FIELDS:
            value = h.get(field_name)
            if value is not None and value is not False:
                self.add(message)
        declarer = self.seat("declarer", _("declarer"), required=True)
        partner_ok, partner = self.check_partner(declarer)
        called = self.check_called()
        if partner_ok and declarer is not None and partner == declarer and called is not None and called != SELF_CALL:
            self.add(_("A declarer can call himself only with the XX, not with the %(called)s."), called=called)
        kontra = self.check_level(h.get("kontra"), None)
        if partner_ok and partner is None and kontra == 0:
            self.add(_("The called tarokk lay in a discard: its discarder must kontra the game (hivatalból kontra), so the kontra level is at least 1."))
        points = self.check_points()
        all_tricks = self.check_all_tricks(points)
        won = h.get("won")
        if won is not None and not isinstance(won, bool):
            self.add(_("“won” must be true or false."))
        elif won is not None and points is not None and kontra is not None:
            derived = self.rs.declarer_wins(points, kontra)
            if won and not derived:
                self.add(_("%(points)s card points lose: “won” cannot be true."), points=points)
            elif not won and derived:
                self.add(_("%(points)s card points win: “won” cannot be false."), points=points)
        self.check_bonuses(points, all_tricks)
        self.check_tarokks()

    def check_partner(self, declarer: int | None) -> tuple[bool, int | None]:
        """§2, §4: ``partner`` written out, an active seat, the declarer's own (self-call) or
        ``null`` (the called tarokk lay in a discard). Returns ``(readable, partner)``."""
        if "partner" not in self.hand:
            self.add(_("Who held the called tarokk? Write the partner's seat, the declarer's own seat for a self-call, or null if it lay in a discard."))
            return False, None
        if self.hand["partner"] is None:
            return True, None
        partner = self.seat("partner", _("partner"), required=False)
        return partner is not None, partner

    def check_called(self) -> str | None:
        """§2, §4: ``called`` is one of II..XX; an honour is never called. Returns it, or ``None``."""
        called = self.hand.get("called")
        if called is None:
            self.add(_("Which tarokk did the declarer call? “called” is missing (XX, XIX, … II)."))
            return None
        if called in CALLABLE:
            return called
        text = str(called).strip()
        number = _roman_value(text) if isinstance(called, str) else (called if is_int(called) else None)
        honour = HONOUR_WORDS.get(text.upper()) or {21: "XXI", 1: "pagát (I)", 22: "skíz"}.get(number)
        if honour is not None:
            self.add(_("The %(called)s is an honour: honours are never called."), called=honour)
        elif number is not None and number in ROMAN:
            self.add(_("Write the called tarokk as “%(numeral)s”, not “%(value)s”."), numeral=ROMAN[number], value=called)
        else:
            self.add(_("“%(value)s” is not a tarokk that can be called: write XX, XIX, … II."), value=called)
        return None

    def check_level(self, level, bonus: Bonus | None) -> int | None:
        """A kontra level 0..``max_kontra`` (§4, §5) on the game (``bonus`` ``None``) or an announced
        bonus; returns it, or ``None`` after the problem."""
        if level is None:
            return 0
        top = self.rs.max_kontra
        if not is_int(level) or level < 0 or level > KONTRA_MAX_MORD:
            if bonus is None:
                self.add(_("The kontra level on the game must be 0 to %(max)s (kontra, rekontra, szubkontra, hirskontra…), not “%(value)s”."), max=top, value=level)
            else:
                self.add(_("The kontra level on %(bonus)s must be 0 to %(max)s, not “%(value)s”."), bonus=bonus.name, max=top, value=level)
            return None
        if level > top:
            self.add(_("Mordkontra is above hirskontra, the tournament maximum: switch on the mordkontra option to record it."))
            return None
        return level

    def check_points(self) -> int | None:
        """§2: ``declarer_points`` required, whole card points 0..94 (no Blatt part)."""
        raw = self.hand.get("declarer_points")
        if raw is None:
            self.add(_("Enter the card points of the declarer's side (0 to 94), his discard included."))
            return None
        try:
            return whole_points(raw, PACK)
        except CardPointsError as error:
            if error.blatt:
                self.add(_("Hungarian Tarokk counts whole card points, without a Blatt part: “%(value)s”."), value=raw)
            else:
                self.add(_("The card points of the declarer's side must be a whole number from 0 to 94, not “%(value)s”."), value=raw)
            return None

    def check_all_tricks(self, points: int | None) -> str | None:
        """§4: ``all_tricks`` null, "declarer" (72 or more points) or "opponents" (22 or fewer);
        and the class Decision on fewer than 4 points."""
        value = self.hand.get("all_tricks")
        if value is not None and value not in TEAMS:
            self.add(_("“all_tricks” is the side that took every trick: declarer or opponents, not “%(value)s”."), value=value)
            return None
        if points is None:
            return value
        if value == "declarer" and points < ALL_TRICKS_MIN:
            self.add(
                _("The declarer's side took every trick but has only %(points)s card points: the opponents then own only discards, 22 points at most, so it needs 72 or more."),
                points=points,
            )
        elif value == "opponents" and points > ALL_TRICKS_MAX:
            self.add(
                _("The opponents took every trick but the declarer's side has %(points)s card points: it then owns only the declarer's discard, 22 points at most."),
                points=points,
            )
        elif value is None and points > PACK - MIN_TRICK_POINTS:
            self.add(
                _("%(points)s card points leave the opponents less than one trick: the declarer's side took every trick, record it as volát (all tricks)."),
                points=points,
            )
        elif value is None and points < MIN_TRICK_POINTS:
            self.add(
                _("%(points)s card points are less than one trick: the opponents took every trick, record it as volát (all tricks)."),
                points=points,
            )
        return value

    def check_bonuses(self, points: int | None, all_tricks: str | None) -> None:
        """The bonus entries (§2, §4): keys of §3.1, team, announced, made, kontra, no duplicates,
        dupla and volát announced only, and what the sides can have made together."""
        entries = self.hand.get("bonuses")
        if not isinstance(entries, list) or not all(isinstance(b, Mapping) for b in entries):
            self.add(_("Bonuses must be a list of bonus entries."))
            return
        dupla_by = None
        if points is not None:
            dupla_by = "declarer" if points >= DUPLA_DECLARER else "opponents" if points <= DUPLA_OPPONENTS else None
        announced_seen: set[tuple[str, str]] = set()
        silent_seen: dict[str, str] = {}
        made_by: dict[str, set[str]] = {key: set() for key in FEATS}
        readable: list[tuple[Bonus, str, bool, bool | None]] = []
        for b in entries:
            bonus = self.known_bonus(b.get("bonus"))
            if bonus is None:
                continue
            team, announced, made = b.get("team"), b.get("announced"), b.get("made")
            if team not in TEAMS:
                self.add(_("%(bonus)s needs its team: declarer or opponents."), bonus=bonus.name)
                continue
            if not isinstance(announced, bool):
                self.add(_("Was %(bonus)s announced? “announced” must be true or false."), bonus=bonus.name)
                continue
            level = b.get("kontra")
            if not announced and level is not None and not (is_int(level) and level == 0):
                self.add(_("A silent %(bonus)s cannot be kontra'd: only an announcement can."), bonus=bonus.name)
            elif announced:
                self.check_level(level, bonus)
            if made is not None and not isinstance(made, bool):
                self.add(_("“made” of %(bonus)s must be true or false."), bonus=bonus.name)
                continue
            if bonus.derived:
                if not announced:
                    if bonus.key == "dupla":
                        self.add(_("A silent Dupla follows from the card points: do not list it."))
                    else:
                        self.add(_("A silent Volát follows from all_tricks (the side that took every trick): do not list it."))
                    continue
                if made is not None:
                    self.check_derived_made(bonus, team, made, dupla_by, all_tricks, points)
            elif made is None:
                if announced:
                    self.add(_("Did the announced %(bonus)s succeed? “made” is missing."), bonus=bonus.name)
                else:
                    self.add(_("Was the silent %(bonus)s made? “made” is missing."), bonus=bonus.name)
                continue
            elif not announced and not made and not bonus.can_fail_silently:
                self.add(_("A silent %(bonus)s cannot fail: record it only when it was made."), bonus=bonus.name)
                continue
            # duplicates (§2): once per side announced, once per hand silent, never both for a side
            if announced:
                if (bonus.key, team) in announced_seen:
                    self.add(_("The %(team)s announced %(bonus)s twice: record it once."), team=TEAM_WORDS[team], bonus=bonus.name)
                    continue
                if silent_seen.get(bonus.key) == team:
                    self.add(_("The %(team)s have %(bonus)s both announced and silent: the announcement replaces the silent bonus."), team=TEAM_WORDS[team], bonus=bonus.name)
                    continue
                announced_seen.add((bonus.key, team))
            else:
                if bonus.key in silent_seen:
                    self.add(_("A silent %(bonus)s is recorded twice: at most one silent entry per hand."), bonus=bonus.name)
                    continue
                if (bonus.key, team) in announced_seen:
                    self.add(_("The %(team)s have %(bonus)s both announced and silent: the announcement replaces the silent bonus."), team=TEAM_WORDS[team], bonus=bonus.name)
                    continue
                silent_seen[bonus.key] = team
            readable.append((bonus, team, announced, made))
            if bonus.key in FEATS and made:
                made_by[bonus.key].add(team)
        self.check_made_together(readable, made_by, all_tricks)

    def known_bonus(self, key) -> Bonus | None:
        """The bonus ``key`` of §3.1, or ``None`` after the message (§8: an Illusztrált key)."""
        if isinstance(key, str) and key in self.rs._bonuses:
            return self.rs.bonus(key)
        if isinstance(key, str) and key.lower() in ILLUSZTRALT:
            self.add(
                _("%(bonus)s is an Illusztrált bonus, not Paskievics: Hungarian Tarokk has tuletroa, negykiraly, dupla, volat, pagatultimo and xxi_fogas."),
                bonus=key,
            )
        elif isinstance(key, str) and key.lower() in BONUS_HINTS:
            hint = self.rs.bonus(BONUS_HINTS[key.lower()])
            self.add(_("Unknown bonus “%(bonus)s” in Hungarian Tarokk: its %(name)s is “%(key)s”."), bonus=key, name=hint.name, key=hint.key)
        else:
            self.add(
                _("Unknown bonus “%(bonus)s” in Hungarian Tarokk: use tuletroa, negykiraly, dupla, volat, pagatultimo or xxi_fogas."),
                bonus=key,
            )
        return None

    def check_derived_made(self, bonus: Bonus, team: str, made: bool, dupla_by, all_tricks, points) -> None:
        """§2: a ``made`` given on an announced dupla or volát agrees with §3.2."""
        if bonus.key == "dupla":
            if points is None:
                return
            derived = dupla_by == team
            if made != derived:
                self.add(
                    _("%(points)s card points mean the announced Dupla of the %(team)s was %(result)s: correct “made” or leave it out."),
                    points=points,
                    team=TEAM_WORDS[team],
                    result=_("made") if derived else _("not made"),
                )
        else:
            derived = all_tricks == team
            if made != derived:
                self.add(
                    _("The announced Volát of the %(team)s was %(result)s by all_tricks (the side that took every trick): correct “made” or leave it out."),
                    team=TEAM_WORDS[team],
                    result=_("made") if derived else _("not made"),
                )

    def check_made_together(self, readable, made_by: dict[str, set[str]], all_tricks: str | None) -> None:
        """§4: at most one side made each feat; the side that took no trick made nothing; the
        side that took every trick made its announced tuletroá and négykirály; a side's tuletroá
        leaves the other side no XXI-fogás and no pagátultimó made."""
        both = {
            "tuletroa": _("Both sides cannot take all three honours: only one side can have made Tuletroá."),
            "negykiraly": _("Both sides cannot take all four kings: only one side can have made Négykirály."),
            "pagatultimo": _("There is one pagát: only one side can have made Pagátultimó."),
            "xxi_fogas": _("There is one XXI: only one side can have made XXI-fogás."),
        }
        for key in FEATS:
            if len(made_by[key]) > 1:
                self.add(both[key])
        if all_tricks is not None:
            beaten = _other(all_tricks)
            for bonus, team, announced, made in readable:
                if team == beaten and made and not bonus.derived:
                    self.add(
                        _("The %(team)s took no trick, so they cannot have made %(bonus)s."),
                        team=TEAM_WORDS[team],
                        bonus=bonus.name,
                    )
                if team == all_tricks and announced and bonus.key in ("tuletroa", "negykiraly") and made is False:
                    self.add(
                        _("The %(team)s took every trick, so their announced %(bonus)s was made: kings and honours are never discarded."),
                        team=TEAM_WORDS[team],
                        bonus=bonus.name,
                    )
        for team in made_by["tuletroa"]:
            other = _other(team)
            if other in made_by["xxi_fogas"]:
                self.add(_("Tuletroá and the other side's XXI-fogás exclude each other: the side with the trull took the skíz and the XXI."))
            if other in made_by["pagatultimo"]:
                self.add(_("Tuletroá and the other side's Pagátultimó exclude each other: the side with the trull took the pagát."))

    def check_tarokks(self) -> None:
        """§3.5, §4: ``tarokks`` maps active seats to 8 or 9, at most 22 declared in all."""
        raw = self.hand.get("tarokks")
        if not isinstance(raw, Mapping):
            self.add(_("Declared tarokks are written seat by seat, each 8 or 9, like {\"1\": 9}."))
            return
        seen: set[int] = set()
        total = 0
        for key, value in raw.items():
            seat = _seat_key(key)
            if seat is None or not 0 <= seat < self.n:
                self.add(_("“%(value)s” is not a seat: declared tarokks are written by seat, from 0 to %(last)s."), value=key, last=self.n - 1)
                continue
            if seat == self.out:
                self.add(_("%(seat)s deals and sits out this hand and cannot declare tarokks."), seat=seat)
                continue
            if seat in seen:
                self.add(_("%(seat)s declared tarokks twice."), seat=seat)
                continue
            seen.add(seat)
            if not is_int(value) or value not in TAROKK_PAYMENT:
                self.add(_("%(seat)s: declared tarokks are 8 or 9, not “%(value)s”."), seat=seat, value=value)
                continue
            total += value
        if total > TAROKKS_IN_PACK:
            self.add(_("%(total)s tarokks declared, the pack has 22."), total=total)

    # ------------------------------------------------------------------------------ forfeit

    def check_forfeit(self, contract: Contract) -> None:
        """§3.6, §4: a próbahárom lost without play: a three, two or one (a három only with
        ``proba_pvsz18``), bid by the fourth player ``(dealer + 4) % n``, nothing else recorded:
        any other field absent, ``null`` or at its ``hand-record.md`` default (``kontra`` 0,
        ``bonuses`` [], ``tarokks`` {}, ``conceded`` / ``against_solo`` false). **Decision**:
        ``won: false`` is accepted too, the hand being lost."""
        if contract.key not in TALON_BIDS:
            self.add(_("A szóló draws no talon card: it cannot be lost for want of an honour (próbahárom)."))
        elif self.rs.options.get("proba_pvsz18") and contract.key != "harom":
            self.add(_("Under PVSZ18 only a három can be a próbahárom, not a %(contract)s."), contract=contract.name)
        declarer = self.seat("declarer", _("declarer"), required=True)
        fourth = (self.dealer + 4) % self.n
        if declarer is not None and declarer != fourth:
            self.add(
                _("Only the fourth player after three passes (%(fourth_seat)s) can bid a próbahárom, not %(declarer_seat)s."),
                fourth_seat=fourth,
                declarer_seat=declarer,
            )
        for key, value in self.hand.items():
            if key in FORFEIT_FIELDS or value is None:
                continue
            default = FORFEIT_DEFAULTS.get(key, None)
            if default is not None and type(value) is type(default) and value == default:
                continue
            self.add(
                _("A próbahárom lost without play records only the dealer, the contract and the declarer: remove “%(field_token)s”."),
                field_token=key,
            )


# ------------------------------------------------------------------------------------ settlement


def _tarokks(h: Mapping) -> list[tuple[int, int]]:
    """``[(seat, 8 or 9)]`` of a valid record's declared tarokks, by seat."""
    return sorted((_seat_key(key), value) for key, value in (h.get("tarokks") or {}).items())


def _settle(rs: HungarianTarokkRuleset, h: dict, n: int) -> Settlement:
    """Score a valid played hand (§3.2–§3.6)."""
    contract = rs.contract(h["contract"])
    g = contract.value
    declarer = h["declarer"]
    active = rs.active_seats(h["dealer"], n)
    if h["forfeit"]:
        return _settle_forfeit(rs, h, n, g, declarer, active)

    points = whole_points(h["declarer_points"], PACK)
    k_game = h["kontra"] or 0
    all_tricks = h["all_tricks"]
    partner = h["partner"]
    lone = partner is None or partner == declarer
    side = {declarer} if lone else {declarer, partner}
    team_of = {seat: ("declarer" if seat in side else "opponents") for seat in active}

    winner = "declarer" if rs.declarer_wins(points, k_game) else "opponents"
    dupla_by = "declarer" if points >= DUPLA_DECLARER else "opponents" if points <= DUPLA_OPPONENTS else None
    volat_by = all_tricks
    entries = h["bonuses"]
    announced = {(b["bonus"], b["team"]): b for b in entries if b["bonus"] in DERIVED}  # listed only when announced (§2)
    posts: list[tuple[str, int]] = []

    # §3.2 rules 1 and 2: announced dupla and volát, for the side if made, against it if not.
    for key, made_by in (("dupla", dupla_by), ("volat", volat_by)):
        for team in TEAMS:
            b = announced.get((key, team))
            if b is None:
                continue
            made = made_by == team
            value = rs.bonus(key).announced * g * 2 ** (b.get("kontra") or 0)
            posts.append((rs.bonus_words(dict(b, made=made)), _sign(team) * (value if made else -value)))
    # rule 3: silent volát of the side that took every trick and did not announce it
    if volat_by is not None and ("volat", volat_by) not in announced:
        posts.append((rs.bonus_words(_entry("volat", volat_by)), _sign(volat_by) * rs.bonus("volat").silent * g))
    # rule 4: silent dupla, announced neither dupla nor volát, not every trick
    if (
        dupla_by is not None
        and ("dupla", dupla_by) not in announced
        and ("volat", dupla_by) not in announced
        and volat_by != dupla_by
    ):
        posts.append((rs.bonus_words(_entry("dupla", dupla_by)), _sign(dupla_by) * rs.bonus("dupla").silent * g))
    # rule 5: the game for the side that won it
    winner_announced = ("dupla", winner) in announced or ("volat", winner) in announced
    if k_game >= 1:
        game_scored = not (rs.options.get("announcer_game_never_scored") and winner_announced)
    else:
        game_scored = not winner_announced and dupla_by != winner and volat_by != winner
    if game_scored:
        label = _("game") if not k_game else Problem(_("game %(kontra)s"), kontra=rs.kontra_word(k_game))
        posts.append((label, _sign(winner) * g * 2**k_game))

    # §3.3: tuletroá, négykirály, pagátultimó, XXI-fogás, each its own post
    for b in entries:
        key = b["bonus"]
        if key in DERIVED:
            continue
        bonus = rs.bonus(key)
        if b["announced"]:
            value = bonus.announced * 2 ** (b.get("kontra") or 0)
            amount = value if b["made"] else -value
        elif b["made"]:
            amount = bonus.silent
            if b["team"] == all_tricks and (key == "negykiraly" or (key == "tuletroa" and not rs.options.get("silent_trull_with_volat"))):
                amount = 0  # "A team which wins all the tricks scores nothing for silent trull or silent four kings"
        else:
            amount = -bonus.silent  # a silent pagátultimó beaten in the last trick
        posts.append((rs.bonus_words(b), _sign(b["team"]) * amount))

    # §3.5 with tarokks_team_post: a post for the holder's side inside n
    declared = _tarokks(h)
    team_post = bool(rs.options.get("tarokks_team_post"))
    if team_post:
        for seat, count in declared:
            posts.append((_tarokk_label(seat, count), _sign(team_of[seat]) * TAROKK_PAYMENT[count]))

    net = sum(value for _label, value in posts)
    amounts: dict[int, int] = {seat: 0 for seat in active}
    opponents = [seat for seat in active if seat not in side]
    if lone:  # §3.4: a lone declarer is paid the net score by each of the three
        amounts[declarer] += 3 * net
    else:
        amounts[declarer] += net
        amounts[partner] += net
    for seat in opponents:
        amounts[seat] -= net

    # §3.5: each declared tarokk paid to the holder by each other active player, outside n
    if not team_post:
        for seat, count in declared:
            v = TAROKK_PAYMENT[count]
            for other in active:
                amounts[other] += v * (len(active) - 1) if other == seat else -v
            posts.append((_tarokk_label(seat, count), v))

    won = winner == "declarer"
    if lone:
        summary = Problem(
            _("%(result)s; net %(net)s for the declarer alone, paid by or to each of the three opponents."),
            result=_("won") if won else _("lost"),
            net=net,
        )
    else:
        summary = Problem(
            _("%(result)s; net %(net)s for the declarer and his partner, each paid by or to one opponent."),
            result=_("won") if won else _("lost"),
            net=net,
        )
    return Settlement(posts=tuple(posts), summary=summary, row=seat_row(n, amounts, "Hungarian Tarokk"), won=won)


def _tarokk_label(seat: int, count: int) -> Problem:
    words = _("eight tarokks") if count == 8 else _("nine tarokks")
    return Problem("%(player_seat)s: %(text)s", player_seat=seat, text=words)


def _settle_forfeit(rs, h, n: int, g: int, declarer: int, active: list[int]) -> Settlement:
    """§3.6: the bidder pays ``g`` to each other active player (3 with ``proba_pvsz18``)."""
    pay = PROBA_PVSZ18 if rs.options.get("proba_pvsz18") else g
    amounts = {seat: pay for seat in active if seat != declarer}
    amounts[declarer] = -pay * (len(active) - 1)
    return Settlement(
        posts=((_("Próbahárom lost without play"), -pay),),
        summary=Problem(_("Próbahárom lost without play: the bidder pays %(value)s to each other player."), value=pay),
        row=seat_row(n, amounts, "Hungarian Tarokk"),
        won=False,
    )


# ---------------------------------------------------------------------------------- random hands

# A Paskievics evening: mostly threes, some twos and ones, a few solos (PAG §The bidding).
CONTRACT_WEIGHTS = (("harom", 52.0), ("ketto", 24.0), ("egy", 14.0), ("szolo", 10.0))
WIN_RATES = {"harom": 0.64, "ketto": 0.6, "egy": 0.57, "szolo": 0.5}
CALLED_WEIGHTS = (("XX", 86.0), ("XIX", 9.0), ("XVIII", 3.0), ("XVII", 1.0), ("XVI", 1.0))
SELF_CALL_RATE = 0.07  # of hands where the XX is called
DISCARDED_CALL_RATE = 0.03
# Per hand: (announced by someone, made silently by some side, silent failed) for each feat.
FEAT_RATES = {
    "tuletroa": (0.04, 0.14, 0.0),
    "negykiraly": (0.02, 0.05, 0.0),
    "pagatultimo": (0.05, 0.04, 0.04),
    "xxi_fogas": (0.02, 0.04, 0.0),
}


def _weighted(rng, items):
    items = list(items)
    return rng.choices([item for item, _w in items], weights=[w for _item, w in items], k=1)[0]


def _kontra_level(rng, top: int) -> int:
    roll = rng.random()
    if roll < 0.85:
        return 0
    if roll < 0.96:
        return 1
    if roll < 0.992:
        return 2
    if roll < 0.999:
        return 3
    return 4 if top == KONTRA_MAX or roll < 0.9997 else 5


def random_hand_record(rs: HungarianTarokkRuleset, rng, table_size: int, dealer: int) -> dict:
    """One random hand record of a Paskievics tournament evening, from ``rng`` alone
    (``random.Random``; a seed reproduces it): mostly threes, some twos and ones, a few szólós,
    mostly the XX called, now and then a self-call or a called tarokk in a discard (then with the
    obliged kontra), kontras, announced and silent bonuses consistent with each other, declared
    tarokks, rarely a volát, a próbahárom lost without play, a struck hand or a manual row.
    Built to pass :meth:`HungarianTarokkRuleset.validate`."""
    active = rs.active_seats(dealer, table_size)
    roll = rng.random()
    if roll < 0.01:
        return {"dealer": dealer, "outcome": "struck", "note": "misdeal"}
    if roll < 0.03:
        net = rng.randint(1, 12)
        scores = [0] * table_size
        seats = list(active)
        rng.shuffle(seats)
        if rng.random() < 0.8:
            for seat in seats[:2]:
                scores[seat] = net
            for seat in seats[2:]:
                scores[seat] = -net
        else:
            scores[seats[0]] = -3 * net
            for seat in seats[1:]:
                scores[seat] = net
        return {"dealer": dealer, "outcome": "manual", "scores": scores}
    if roll < 0.042:
        key = "harom" if rs.options.get("proba_pvsz18") or rng.random() < 0.8 else rng.choice(("ketto", "egy"))
        return {"dealer": dealer, "contract": key, "declarer": (dealer + 4) % table_size, "forfeit": True}

    contract = rs.contract(_weighted(rng, CONTRACT_WEIGHTS))
    declarer = rng.choice(active)
    called = _weighted(rng, CALLED_WEIGHTS)
    others = [seat for seat in active if seat != declarer]
    shape = rng.random()
    if shape < DISCARDED_CALL_RATE:
        partner = None
    elif called == SELF_CALL and shape < DISCARDED_CALL_RATE + SELF_CALL_RATE:
        partner = declarer
    else:
        partner = rng.choice(others)
    kontra = _kontra_level(rng, rs.max_kontra)
    if partner is None:
        kontra = max(kontra, 1)  # hivatalból kontra (§1)
    hand: dict = {
        "dealer": dealer,
        "contract": contract.key,
        "declarer": declarer,
        "called": called,
        "partner": partner,
    }

    trick_roll = rng.random()
    all_tricks = "declarer" if trick_roll < 0.012 else "opponents" if trick_roll < 0.015 else None
    if all_tricks == "declarer":
        points = rng.randint(ALL_TRICKS_MIN + 8, PACK)
    elif all_tricks == "opponents":
        points = rng.randint(0, 12)
    elif rng.random() < WIN_RATES[contract.key]:
        points = rng.randint(DUPLA_DECLARER, 90) if rng.random() < 0.12 else rng.randint(WIN, 70)
    else:
        points = rng.randint(MIN_TRICK_POINTS, DUPLA_OPPONENTS) if rng.random() < 0.06 else rng.randint(24, 47)
    hand["declarer_points"] = points if rng.random() < 0.9 else str(points)
    if all_tricks:
        hand["all_tricks"] = all_tricks
    if kontra:
        hand["kontra"] = kontra

    entries: list[dict] = []
    dupla_by = "declarer" if points >= DUPLA_DECLARER else "opponents" if points <= DUPLA_OPPONENTS else None
    for key, team, rate in (("dupla", "declarer", 0.04), ("volat", "declarer", 0.006), ("dupla", "opponents", 0.01)):
        if rng.random() < rate:
            made = dupla_by == team if key == "dupla" else all_tricks == team
            level = 1 if rng.random() < 0.2 else 0
            entries.append(_entry(key, team, True, made if rng.random() < 0.3 else None, level))

    feats: dict[str, tuple[str | None, str | None, str | None]] = {}
    for key, (p_announced, p_silent, p_failed) in FEAT_RATES.items():
        announcer = made_by = failed = None
        if rng.random() < p_announced:
            announcer = "declarer" if rng.random() < 0.75 else "opponents"
            outcome = rng.random()
            made_by = announcer if outcome < 0.65 else _other(announcer) if outcome < 0.75 else None
        elif rng.random() < p_silent:
            made_by = "declarer" if rng.random() < 0.55 else "opponents"
        elif rng.random() < p_failed:
            failed = "declarer" if rng.random() < 0.5 else "opponents"
        feats[key] = (announcer, made_by, failed)
    if all_tricks is not None:  # the other side took no trick and made nothing; kings and honours are all_tricks'
        for key, (announcer, made_by, failed) in feats.items():
            if made_by == _other(all_tricks):
                made_by = None
            if key in ("tuletroa", "negykiraly") and announcer == all_tricks:
                made_by = all_tricks
            feats[key] = (announcer, made_by, failed)
    trull = feats["tuletroa"][1]
    if trull is not None:  # the trull side holds skíz, XXI and pagát in its tricks
        for key in ("xxi_fogas", "pagatultimo"):
            announcer, made_by, failed = feats[key]
            feats[key] = (announcer, None if made_by == _other(trull) else made_by, failed)
    for key, (announcer, made_by, failed) in feats.items():
        if announcer is not None:
            level = _kontra_level(rng, rs.max_kontra) if rng.random() < 0.5 else 0
            entries.append(_entry(key, announcer, True, made_by == announcer, level))
        if made_by is not None and made_by != announcer:
            entries.append(_entry(key, made_by, False, True))
        if failed is not None:
            entries.append(_entry(key, failed, False, False))
    if entries:
        rng.shuffle(entries)
        hand["bonuses"] = entries

    tarokk_roll = rng.random()
    if tarokk_roll < 0.13:
        holders = rng.sample(active, 2 if tarokk_roll < 0.015 else 1)
        hand["tarokks"] = {str(seat): (9 if rng.random() < 0.2 else 8) for seat in holders}
    if rng.random() < 0.3:
        hand["won"] = rs.declarer_wins(points, kontra)
    return hand
