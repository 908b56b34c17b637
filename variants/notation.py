"""The hand notation: one line of text per hand, parsed strictly and printed canonically.

What SAN is to chess (``conventions.md``, "A notation for hands"): every ruleset reads and writes a
hand as one line, ``parse_hand`` turns a line into a hand record (``hand-record.md``) and
``format_hand`` turns a record into its canonical line, so that the line of a record scores exactly
as the record. Parsing is strict: every token is used or refused with a message that names it —
unknown, not allowed in the contract, repeated, contradictory, out of range or with no place left.
Nothing typed is ever ignored.

The grammar is the same for every ruleset; what a ruleset offers comes from its catalogue: its
contract and bonus codes (``Contract.code``, ``Bonus.code``), the record fields each contract uses
(``fields(contract)``), the bonuses it allows, whether card points carry Blatt (``uses_blatt``) and
which seats play a hand (``active_seats``). Tokens are separated by spaces; case does not matter::

    line    := (played | manual | struck) ["#" note]
    played  := CONTRACT token*            "d 2 + pag!", "r 1 3 -", "el 2 48", "t 30 20 12 8"
    manual  := "=" [CONTRACT] SCORE × n   "= 5 -15 5 5"; Bled "=b 0 -140 0" names the contract
             | SCORE × n                  "10 -5 -5 0" where every hand is a row (no contracts:
                                          free scoring), printed so too
    struck  := "--"                       "-- # cards misdealt"

After the contract, in any order:

=====================  ===========================================================================
``2``, ``anna``, ``ab``  a seat: 1-based number, or (with ``names``) a name prefix or the initials;
                       seats fill the declarer, then the partner (king calls)
``48``, ``35/2``       card points once the seats are given: the declarer's (Cego, Bled), or every
                       active player's in seat order (Trischaken, Klop, Räuber); ``P/B`` with Blatt
                       where the ruleset counts it (Königrufen)
``+`` / ``-``          won / lost
``x``                  conceded (schleifen)
``gs``                 played against a Solo (Gegensolo)
``k re sub mort``      the kontra level on the game (kontra, rekontra, subkontra, mortkontra; each
                       ruleset's own codes, ``mord`` in Königrufen, ``szub hirs mord`` in Hungarian
                       Tarokk; ``retour`` is ``re``); a ruleset records up to its ``max_kontra``
                       (Tapp-Tarock: ``sub``)
``k2`` ``m2`` ``r2``   kontra said by seat 2 (who said kontra to a Klop, or the Kontra on a
                       Königrufen game: alone it is a Kontra, level 1, so ``k k2`` is refused;
                       ``re k2`` a Rekontra whose Kontra seat 2 said), Mond captured from seat 2,
                       Renonce by seat 2; ``m:anna`` names the seat by player
``pag`` ``/pag!-``     a bonus by its code: ``/`` the opponents', ``!`` announced (``!k``, ``!re``
                       … with its own kontra), ``-`` failed; plain: silent, declarer's team, made;
                       a bonus whose success follows from the record (Hungarian ``du!``) has no
                       ``-`` unless it failed
``tr2`` ``tr:anna``    a bonus held in one hand (Tapp-Tarock's Trull) and its holder
``xix`` ``pr`` ``8t2`` a ruleset's own record field (``Ruleset.record_fields``): a choice by its
                       code (the called tarokk), a flag (próbahárom), a value per seat (eight
                       tarokks declared by seat 2)
``0``                  in the partner's place: nobody, where the ruleset writes it out
                       (Hungarian: the called tarokk lay in a discard) and card points follow
=====================  ===========================================================================

**Clashes, resolved by position and shape** (``hand-record.md`` keeps the codes directors know):
the first token is always the contract, so Bled's ``k`` first is Klop, later the kontra; ``k2``
(a digit follows) is who said kontra, ``kr`` is Kralji; Königrufen's ``r`` first is the Rufer,
``r3`` later the Renonce. A code of the ruleset always wins over a player's name: name such a
player by his seat number or by more letters; codes of features the ruleset does not have (kontra
``re`` at a Cego table, Gegensolo ``gs`` at a Königrufen table) are read as names. Names need two letters at least.

Pure Python, no Django. Messages are :class:`~variants.problems.Problem` in English, marked for
translation; parameters ending in ``token`` or ``names`` are shown as typed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cardpoints import WHOLE_PACK_THIRDS, format_thirds
from .problems import InvalidHand, Problem, _

STRUCK = "--"
MANUAL = "="
NOTE = "#"
WON, LOST = "+", "-"
CONCEDED = "x"
AGAINST_SOLO = "gs"
OPPONENTS = "/"
ANNOUNCED = "!"
FAILED = "-"
# Kontra levels (hand-record.md "kontra") every ruleset with kontras reads: the short codes (also
# the codes a ruleset writes unless it has its own) and the game's words; a ruleset adds its own
# (``Ruleset.kontra_codes``, ``kontra_names``) and records at most ``Ruleset.max_kontra``.
KONTRA_CODES = ("", "k", "re", "sub", "mort")
KONTRA_LEVELS = {
    **{code: level for level, code in enumerate(KONTRA_CODES) if code},
    "kontra": 1, "rekontra": 2, "retour": 2, "subkontra": 3, "mortkontra": 4,
    "szub": 3, "szubkontra": 3, "hirs": 4, "hirskontra": 4, "mord": 5, "mordkontra": 5,
}
# A letter and a seat: who said kontra in Klop, whose Mond was captured, who revoked.
SEAT_MARKS = {"k": "kontra_by", "m": "mond_lost_by", "r": "revoke"}
_SEAT_MARK = re.compile(r"^([kmr])(?::(.+)|(\d+))$")
NOBODY = "0"  # in the partner's place: no partner
_NUMBER = re.compile(r"^(\d+)(?:/(\d+))?$")
_SCORE = re.compile(r"^[+-]?\d+$")
# Dashes that phones and word processors put in place of "-": minus sign, figure dash, en dash,
# small and fullwidth hyphen-minus.
_DASHES = str.maketrans({"\u2212": "-", "\u2012": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-"})
MIN_NAME = 2  # a player is named by two letters at least; one letter is a code
MAX_SCORE = 9999  # one hand's score either way, as on the hand form's manual row
MAX_POINTS = WHOLE_PACK_THIRDS // 3


# Letters that no accent removal makes plain, spelt as a name search types them (case-folded
# letters only: :func:`fold` maps after case-folding).
OWN_LETTERS = str.maketrans(
    {"đ": "d", "ð": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "þ": "th", "ħ": "h", "ı": "i", "ŧ": "t"}
)


def fold(text: str) -> str:
    """``text`` for comparing: case-folded, accents removed, the letters of :data:`OWN_LETTERS`
    spelt plain ("Šimić" -> "simic", "Đukić" -> "dukic", "Łukasz" -> "lukasz")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(OWN_LETTERS)


def initials(name: str) -> str:
    """The folded initials of a name: "Hans-Peter Falk" -> "hpf"."""
    return "".join(word[0] for word in re.split(r"[\s\-]+", fold(name)) if word)


def matches(low: str, names: Sequence[str]) -> list[int]:
    """Seats (0-based) whose player's initials are ``low`` (folded) or whose name, or a word of
    it, starts with ``low``."""
    hits = []
    for seat, name in enumerate(names):
        folded = fold(name)
        words = [w for w in re.split(r"[\s\-]+", folded) if w]
        if initials(name) == low or folded.startswith(low) or any(w.startswith(low) for w in words):
            hits.append(seat)
    return hits


def _one(p: "_Parse", t: "_Token", hits: list, shown, ambiguous: str):
    """The one thing in ``hits`` a token names, or ``None`` after the ``ambiguous`` message naming
    every candidate (``shown(candidate)``)."""
    if len(hits) == 1:
        return hits[0]
    p.add(ambiguous, token=t.text, names=" / ".join(shown(h) for h in hits))
    return None


@dataclass
class _Token:
    text: str  # as typed (dashes normalised)
    low: str  # folded


@dataclass
class _Parse:
    """The state of one parse: what each token said, and the problems found."""

    rs: object
    size: int
    dealer: int
    names: Sequence[str] | None
    contract: object = None
    fields: frozenset = frozenset()
    problems: list = field(default_factory=list)
    seats: list = field(default_factory=list)  # (token, seat) for declarer, partner
    points: list = field(default_factory=list)  # (token, value) in slot order
    won: tuple | None = None  # (token, bool)
    flags: dict = field(default_factory=dict)  # "conceded" / "against_solo" -> token
    kontra: tuple | None = None  # (token, level)
    marks: dict = field(default_factory=dict)  # field -> (token, seat)
    bonuses: dict = field(default_factory=dict)  # key -> (token, entry)
    extras: dict = field(default_factory=dict)  # record field -> (token, value); per seat: {seat: (token, value)}
    text: str = ""  # the line without its note, as typed

    def add(self, msgid: str, **params) -> None:
        self.problems.append(Problem(msgid, **params))


class Notation:
    """Parse and print the hand notation of one ruleset (see the module docstring).

    ``rs`` is a ruleset object: ``label``, ``contracts`` (with ``code`` and ``aliases``),
    ``contract(key)``, ``bonuses`` (with ``code``), ``allowed_bonuses(key)``, ``fields(contract)``,
    ``active_seats(dealer, n)``, ``uses_blatt`` and ``uses_history``.
    """

    def __init__(self, rs):
        self.rs = rs
        self.contract_codes: dict[str, object] = {}
        for c in rs.contracts:
            for code in (c.code, *c.aliases, c.key):
                if code:
                    self.contract_codes.setdefault(fold(code), c)
        self.bonus_codes = {fold(code): b for b in rs.bonuses for code in (b.code, b.key) if code}
        self.features = frozenset().union(*(rs.fields(c) for c in rs.contracts))
        self.kontra_levels = {
            **KONTRA_LEVELS,
            **{fold(word): level for level, word in enumerate(rs.kontra_names) if word},
            **{fold(code): level for level, code in enumerate(rs.kontra_codes) if code},
        }
        # The ruleset's own record fields: a choice's or a flag's code -> (field, choice or None);
        # per-seat fields by the codes their tokens start with.
        self.field_codes: dict[str, tuple] = {}
        self.seat_field_codes: list[tuple] = []
        for spec in rs.record_fields:
            if spec.kind == "flag":
                self.field_codes[fold(spec.code)] = (spec, None)
            for choice in spec.choices:
                if spec.kind == "per_seat":
                    self.seat_field_codes.append((fold(choice.code), spec, choice))
                else:
                    self.field_codes[fold(choice.code)] = (spec, choice)
        self.seat_field_codes.sort(key=lambda item: -len(item[0]))

    @property
    def rows_only(self) -> bool:
        """Every hand is a written row (a ruleset without contracts: free scoring), so a line of
        numbers is the row without the ``=`` of a manual row, and is printed so."""
        return not self.rs.contracts

    def is_contract_code(self, word: str) -> bool:
        """Whether ``word`` names a contract of the ruleset by its code, an alias or its key
        (Bled's ``3``, Königrufen's ``6``: a line starting with it may be a hand, not scores)."""
        return fold(word) in self.contract_codes

    # ------------------------------------------------------------------------------- parsing

    def parse(self, line: str, table_size: int, dealer: int, names: Sequence[str] | None = None) -> dict:
        """The hand record of ``line`` for ``dealer`` at a table of ``table_size`` seats, checked
        by the ruleset; ``names``: the players in seat order, so seats may be named. Raises
        :class:`~variants.problems.InvalidHand` naming every token it cannot use, then the ruleset's
        own problems with the record."""
        if not isinstance(line, str):
            raise InvalidHand([Problem(_("A hand in notation is a line of text."))])
        text, note = self._split_note(line.translate(_DASHES))
        tokens = [_Token(t, fold(t)) for t in text.split()]
        p = _Parse(self.rs, table_size, dealer, list(names) if names is not None else None, text=text.strip())
        if note is not None and not note:
            p.add(_("“#” must be followed by the note."))
        if not tokens:
            if self.rows_only:
                p.add(_("Type a hand: the row as written, one number per seat, e.g. “%(example_token)s”."), example_token=self.example())
            else:
                p.add(_("Type a hand: its contract code first, e.g. “%(example_token)s”."), example_token=self.example())
            raise InvalidHand(p.problems)
        first = tokens[0]
        if first.low == STRUCK:
            record = self._struck(p, tokens[1:])
        elif first.low.startswith(MANUAL):
            record = self._manual(p, first, tokens[1:])
        elif self.rows_only and _SCORE.match(first.text):
            record = self._manual(p, _Token(MANUAL, MANUAL), tokens)  # a row: the "=" goes without saying
        else:
            record = self._played(p, first, tokens[1:])
        if p.problems:
            raise InvalidHand(p.problems)
        if note:
            record["note"] = note
        problems = self.rs.validate(record, table_size)
        if problems:
            raise InvalidHand(problems, record)
        return record

    @staticmethod
    def _split_note(line: str) -> tuple[str, str | None]:
        if NOTE not in line:
            return line, None
        text, note = line.split(NOTE, 1)
        return text, note.strip()

    def _struck(self, p: _Parse, rest: list[_Token]) -> dict:
        for t in rest:
            p.add(_("“%(token)s”: a struck hand carries nothing but a note (# …)."), token=t.text)
        return {"dealer": p.dealer, "outcome": "struck"}

    def _manual(self, p: _Parse, first: _Token, rest: list[_Token]) -> dict:
        record: dict = {"dealer": p.dealer, "outcome": "manual"}
        glued = first.text[len(MANUAL):]
        words = list(rest)
        if glued and _SCORE.match(glued):
            words.insert(0, _Token(glued, glued))  # "=5 -15 5 5": the first score
        elif glued:
            contract = self._contract(p, _Token(glued, fold(glued)))
            if contract is not None:
                if self.rs.uses_history:
                    record["contract"] = contract.key
                else:
                    p.add(
                        _("“%(token)s”: a manual row names no contract in %(ruleset)s, it only counts its numbers."),
                        token=first.text,
                        ruleset=self.rs.label,
                    )
        scores = []
        for t in words:
            if not _SCORE.match(t.text):
                p.add(_("“%(token)s” is not a whole number: a manual row is the scores of every seat."), token=t.text)
            elif abs(int(t.text)) > MAX_SCORE:
                p.add(_("“%(token)s” is too large for one hand (at most %(max)s either way)."), token=t.text, max=MAX_SCORE)
            else:
                scores.append(int(t.text))
        if not p.problems and len(scores) != p.size:
            p.add(
                _("A manual row needs %(size)s numbers, one per seat, not %(count)s."),
                size=p.size,
                count=len(scores),
            )
        record["scores"] = scores
        return record

    def _contract(self, p: _Parse, t: _Token):
        """The contract a token names: its code, an alias, its key, or a unique start of its name."""
        contract = self.contract_codes.get(t.low)
        if contract is not None:
            return contract
        starts = [c for c in self.rs.contracts if len(t.low) >= MIN_NAME and fold(c.name).replace(" ", "").startswith(t.low)]
        if starts:
            return _one(p, t, starts, lambda c: f"{c.name} ({c.code})", _("“%(token)s” could be %(names)s: type its code."))
        if not self.rs.contracts:
            p.add(
                _("“%(token)s”: %(ruleset)s has no contracts: a hand is its row as written, e.g. “%(example_token)s”."),
                token=t.text,
                ruleset=self.rs.label,
                example_token=self.example(),
            )
            return None
        if t.low.lstrip("+-").isdigit():
            # Scores typed straight into the line: say how a written row is entered instead of
            # listing contract codes.
            p.add(_("“%(token)s” is not a contract: a row of written scores starts with “=”, e.g. “= %(example_token)s”."),
                  token=t.text, example_token=p.text)
            return None
        p.add(
            _("“%(token)s” is not a contract of %(ruleset)s: start with one of %(names)s."),
            token=t.text,
            ruleset=self.rs.label,
            names=", ".join(c.code for c in self.rs.contracts),
        )
        return None

    def _played(self, p: _Parse, first: _Token, rest: list[_Token]) -> dict:
        contract = self._contract(p, first)
        if contract is None:
            return {}
        p.contract = contract
        p.fields = frozenset(self.rs.fields(contract))
        slots = self._slots(p)
        for t in rest:
            self._token(p, t, slots)
        self._unused_beside_revoke_or_concession(p)
        self._nobody_without_points(p)
        self._kontra_beside_its_sayer(p)
        return self._record(p)

    def _kontra_beside_its_sayer(self, p: _Parse) -> None:
        """Where a contract records both the kontra level and who said the Kontra (Königrufen),
        who said it implies at least a Kontra: ``k3`` alone is level 1 said by seat 3 (as a Klop's
        ``k2`` is a kontra), and :meth:`_record` fills the level in. A level 1 typed beside it
        (``k k3``) would then count for nothing: refuse it, as every token must count. A higher
        level (``re k3``) says what ``k3`` alone cannot."""
        if (
            {"kontra", "kontra_by"} <= p.fields
            and "kontra_by" in p.marks
            and p.kontra is not None
            and p.kontra[1] == 1
        ):
            p.add(_("“%(token)s”: “%(other_token)s” records the Kontra already: leave it out."),
                  token=p.kontra[0].text, other_token=p.marks["kontra_by"][0].text)

    def _nobody_without_points(self, p: _Parse) -> None:
        """``0`` in the partner's place stands only so that the card points after it are not read
        as the partner (:meth:`format` writes it there alone): with no card points after it, a
        partner left out reads the same (a próbahárom lost without play has none), so the token
        would count for nothing. Refuse it rather than accept a token that changes nothing."""
        if self.rs.partner_written_out and len(p.seats) > 1 and p.seats[1][0].low == NOBODY and not p.points:
            p.add(_("“%(token)s” (nobody as the partner) is written only before the card points: leave it out here."),
                  token=p.seats[1][0].text)

    def _slots(self, p: _Parse) -> list[str]:
        """What numbers fill, in order: seat slots, then card points."""
        slots = [s for s in ("declarer", "partner") if s in p.fields]
        if "declarer_points" in p.fields:
            slots.append("declarer_points")
        elif "card_points" in p.fields:
            slots += [f"points:{seat}" for seat in sorted(self.rs.active_seats(p.dealer, p.size))]
        return slots

    def _token(self, p: _Parse, t: _Token, slots: list[str]) -> None:
        low, c = t.low, p.contract
        if low in (WON, LOST):
            if not p.fields & {"won", "declarer_points"}:
                return self._not_allowed(p, t)
            if p.won is not None:
                return self._twice(p, t, p.won[0])
            p.won = (t, low == WON)
        elif low in (CONCEDED, AGAINST_SOLO) and ("conceded" if low == CONCEDED else "against_solo") in self.features:
            # Codes of features the ruleset lacks fall through to player names ("gs" for Georg Stadler).
            name = "conceded" if low == CONCEDED else "against_solo"
            if name not in p.fields:
                return self._not_allowed(p, t, name)
            if name in p.flags:
                return self._twice(p, t, p.flags[name])
            p.flags[name] = t
        elif low in self.field_codes and self.field_codes[low][0].name in self.features:
            self._record_field(p, t, *self.field_codes[low])
        elif (seat_field := self._seat_field_token(t)) is not None:
            self._seat_field(p, t, *seat_field)
        elif low in self.kontra_levels and self.features & {"kontra", "kontra_by"}:
            if "kontra" not in p.fields and "kontra_by" in p.fields:
                p.add(_("“%(token)s”: in a %(contract)s write who said kontra, e.g. k2."), token=t.text, contract=c.name)
                return None
            if "kontra" not in p.fields:
                return self._not_allowed(p, t, "kontra")
            if p.kontra is not None:
                return self._twice(p, t, p.kontra[0])
            if not self._kontra_level_ok(p, t, self.kontra_levels[low]):
                return None
            p.kontra = (t, self.kontra_levels[low])
        elif (mark := _SEAT_MARK.match(low)) and SEAT_MARKS[mark.group(1)] in self.features:
            name = SEAT_MARKS[mark.group(1)]
            if name not in p.fields:
                return self._not_allowed(p, t, name)
            seat = self._seat(p, t, mark.group(3) or t.text.split(":", 1)[1], number_only=mark.group(3) is not None)
            if seat is None:
                return None
            if name in p.marks:
                return self._twice(p, t, p.marks[name][0])
            p.marks[name] = (t, seat)
        elif (held := self._held_token(t)) is not None:
            self._held(p, t, *held)
        elif (bonus := self._bonus_token(t)) is not None:
            self._bonus(p, t, *bonus)
        elif _NUMBER.match(low):
            self._number(p, t, slots)
        elif p.names is not None and len(low) >= MIN_NAME and matches(low, p.names):
            seat_slots = [s for s in slots if s in ("declarer", "partner")]
            if not seat_slots:
                p.add(_("“%(token)s”: a %(contract)s names no declarer."), token=t.text, contract=c.name)
            elif len(p.seats) >= len(seat_slots):
                p.add(_("“%(token)s” is one player too many for a %(contract)s."), token=t.text, contract=c.name)
            else:
                p.seats.append((t, self._seat(p, t, t.text)))
        else:
            self._unknown(p, t)
        return None

    def _bonus_token(self, t: _Token):
        """``(bonus, team, announced, kontra token, made)`` if ``t`` is a bonus token, else None."""
        body = t.low
        team = "declarer"
        if body.startswith(OPPONENTS):
            team, body = "opponents", body[1:]
        made = True
        if body.endswith(FAILED) and len(body) > 1:
            made, body = False, body[:-1]
        announced, level = False, ""
        if ANNOUNCED in body:
            body, level = body.split(ANNOUNCED, 1)
            announced = True
        bonus = self.bonus_codes.get(body)
        if bonus is None:
            return None
        return bonus, team, announced, level, made

    @staticmethod
    def _after_code(t: _Token, code: str) -> tuple[str, bool] | None:
        """``(seat reference, number only)`` where ``t`` is ``code`` followed by a seat: its
        number (``tr2``) or, after a colon, a player as typed (``tr:anna``); else None."""
        if not t.low.startswith(code) or len(t.low) <= len(code):
            return None
        rest = t.text[len(code):]
        if rest.isdigit():
            return rest, True
        if rest.startswith(":") and len(rest) > 1:
            return rest[1:], False
        return None

    def _held_token(self, t: _Token):
        """``(bonus, seat reference, number only)`` if ``t`` names a held bonus and its holder
        (``tr2``, ``tr:anna``), else None."""
        for code, bonus in self.bonus_codes.items():
            if bonus.held and (seat := self._after_code(t, code)) is not None:
                return bonus, *seat
        return None

    def _held(self, p: _Parse, t: _Token, bonus, ref: str, number_only: bool) -> None:
        if bonus.key not in {b.key for b in self.rs.allowed_bonuses(p.contract.key)}:
            p.add(_("“%(token)s”: %(bonus)s is not allowed in a %(contract)s."), token=t.text, bonus=bonus.name, contract=p.contract.name)
            return
        seat = self._seat(p, t, ref, number_only=number_only)
        if seat is None:
            return
        if bonus.key in p.bonuses:
            return self._twice(p, t, p.bonuses[bonus.key][0])
        p.bonuses[bonus.key] = (t, {"bonus": bonus.key, "holder": seat})
        return None

    def _kontra_level_ok(self, p: _Parse, t: _Token, level: int) -> bool:
        """Whether the ruleset records kontra ``level``; a problem naming the token if not."""
        if level <= self.rs.max_kontra:
            return True
        p.add(
            _("“%(token)s”: %(ruleset)s records kontras up to %(word)s."),
            token=t.text,
            ruleset=self.rs.label,
            word=self.rs.kontra_word(self.rs.max_kontra),
        )
        return False

    def _record_field(self, p: _Parse, t: _Token, spec, choice) -> None:
        """A choice or flag of the ruleset's own record fields (the called tarokk, próbahárom)."""
        if spec.name not in p.fields:
            return self._not_allowed(p, t)
        if spec.name in p.extras:
            return self._twice(p, t, p.extras[spec.name][0])
        p.extras[spec.name] = (t, True if choice is None else choice.value)
        return None

    def _seat_field_token(self, t: _Token):
        """``(field, choice, seat reference, number only)`` if ``t`` is a per-seat field's code
        followed by a seat (``8t2``, ``8t:anna``), else None."""
        for code, spec, choice in self.seat_field_codes:
            if spec.name in self.features and (seat := self._after_code(t, code)) is not None:
                return spec, choice, *seat
        return None

    def _seat_field(self, p: _Parse, t: _Token, spec, choice, ref: str, number_only: bool) -> None:
        if spec.name not in p.fields:
            return self._not_allowed(p, t)
        seat = self._seat(p, t, ref, number_only=number_only)
        if seat is None:
            return None
        given = p.extras.setdefault(spec.name, {})
        if seat in given:
            return self._twice(p, t, given[seat][0])
        given[seat] = (t, choice.value)
        return None

    def _bonus(self, p: _Parse, t: _Token, bonus, team: str, announced: bool, level: str, made: bool) -> None:
        allowed = {b.key for b in self.rs.allowed_bonuses(p.contract.key)}
        if bonus.key not in allowed:
            p.add(_("“%(token)s”: %(bonus)s is not allowed in a %(contract)s."), token=t.text, bonus=bonus.name, contract=p.contract.name)
            return
        if bonus.held:
            p.add(
                _("“%(token)s”: %(bonus)s is held in one hand: write its code and the holder's seat, e.g. %(example_token)s."),
                token=t.text,
                bonus=bonus.name,
                example_token=f"{bonus.code or bonus.key}2",
            )
            return
        entry = {"bonus": bonus.key, "team": team, "announced": announced, "made": made}
        if bonus.derived and made:
            del entry["made"]  # follows from the record (Hungarian dupla, volát)
        if level:
            if level not in self.kontra_levels:
                p.add(
                    _("“%(token)s”: after “!” comes a kontra level (%(names)s) or nothing."),
                    token=t.text,
                    names=", ".join(c for c in self.rs.kontra_codes if c) or "k",
                )
                return
            if "kontra" not in p.fields:
                p.add(_("“%(token)s”: a kontra on a bonus is not recorded in %(ruleset)s."), token=t.text, ruleset=self.rs.label)
                return
            if not self._kontra_level_ok(p, t, self.kontra_levels[level]):
                return
            entry["kontra"] = self.kontra_levels[level]
        slot = (bonus.key, team) if self.rs.bonus_per_team else bonus.key
        if slot in p.bonuses:
            other = p.bonuses[slot][0]
            if other.low == t.low:
                self._twice(p, t, other)
            else:
                p.add(
                    _("“%(other_token)s” and “%(token)s” both record the %(bonus)s: a bonus is entered once."),
                    other_token=other.text,
                    token=t.text,
                    bonus=bonus.name,
                )
            return
        p.bonuses[slot] = (t, entry)

    def _number(self, p: _Parse, t: _Token, slots: list[str]) -> None:
        filled = len(p.seats) + len(p.points)
        if filled >= len(slots):
            p.add(_("“%(token)s” is one number too many for a %(contract)s."), token=t.text, contract=p.contract.name)
            return
        slot = slots[filled]
        if slot == "partner" and t.low == NOBODY and self.rs.partner_written_out:
            p.seats.append((t, None))  # nobody: the called card lay in a discard
            return
        if slot in ("declarer", "partner"):
            seat = None
            if "/" in t.low:
                p.add(_("“%(token)s” is not a seat: seats are numbered 1 to %(size)s."), token=t.text, size=p.size)
            else:
                seat = self._seat(p, t, t.text, number_only=True)
            if seat is not None:
                p.seats.append((t, seat))
            else:
                p.seats.append((t, None))  # keeps its place: the next number is not read as a seat
            return
        value = self._points(p, t)
        p.points.append((t, value))

    def _points(self, p: _Parse, t: _Token):
        """Card points from a number token: whole points, or thirds where the ruleset counts Blatt."""
        match = _NUMBER.match(t.low)
        points, blatt = int(match.group(1)), match.group(2)
        if blatt is not None and not self.rs.uses_blatt:
            p.add(_("“%(token)s”: %(ruleset)s counts whole card points (no Blatt)."), token=t.text, ruleset=self.rs.label)
            return None
        if blatt is not None and int(blatt) > 2:
            p.add(_("“%(token)s”: the Blatt after “/” is 0, 1 or 2."), token=t.text)
            return None
        thirds = 3 * points + int(blatt or 0)
        if thirds > 3 * self.rs.max_card_points:
            p.add(_("“%(token)s” is more than %(max)s card points."), token=t.text, max=self.rs.max_card_points)
            return None
        return format_thirds(thirds) if self.rs.uses_blatt else points

    def _seat(self, p: _Parse, t: _Token, ref: str, number_only: bool = False) -> int | None:
        """The seat ``ref`` names: a number 1..n, or (with names) a player; None with a problem."""
        if number_only or ref.isdigit():
            number = int(ref)
            if not 1 <= number <= p.size:
                p.add(
                    _("“%(token)s”: there is no seat %(number)s at a table of %(size)s."),
                    token=t.text,
                    number=number,
                    size=p.size,
                )
                return None
            return number - 1
        if p.names is None:
            self._unknown(p, t)
            return None
        low = fold(ref)
        hits = matches(low, p.names) if len(low) >= MIN_NAME else []
        if hits:
            return _one(
                p, t, hits, lambda s: f"{p.names[s]} ({s + 1})",
                _("“%(token)s” could be %(names)s: type more of the name or the seat number."),
            )
        p.add(_("“%(token)s” is no player at this table."), token=t.text)
        return None

    def _not_allowed(self, p: _Parse, t: _Token, name: str | None = None) -> None:
        if name is not None and name not in self.features:
            return self._unknown(p, t)
        p.add(_("“%(token)s” is not allowed in a %(contract)s."), token=t.text, contract=p.contract.name)
        return None

    @staticmethod
    def _twice(p: _Parse, t: _Token, other: _Token) -> None:
        if other.low == t.low:
            p.add(_("“%(token)s” is given twice."), token=t.text)
        else:
            p.add(_("“%(other_token)s” and “%(token)s” both given."), other_token=other.text, token=t.text)

    def _unknown(self, p: _Parse, t: _Token) -> None:
        if p.names is not None:
            p.add(_("“%(token)s” is neither a code of %(ruleset)s nor a player at this table."), token=t.text, ruleset=self.rs.label)
        else:
            p.add(_("“%(token)s” is not a code of %(ruleset)s."), token=t.text, ruleset=self.rs.label)

    def _unused_beside_revoke_or_concession(self, p: _Parse) -> None:
        """A Renonce settles the hand on its own (``koenigrufen.md`` §1 "Renonce"): the result,
        the concession, silent bonuses and Trischaken card points would count for nothing; a
        conceded hand has no result. Refuse them rather than store what does not count."""
        if "revoke" in p.marks:
            unused = [t for t in (p.won and p.won[0], p.flags.get("conceded")) if t]
            unused += [t for t, entry in p.bonuses.values() if not entry["announced"]]
            unused += [t for t, _value in p.points]
            for t in unused:
                p.add(_("“%(token)s” does not count beside a Renonce: leave it out."), token=t.text)
        elif "conceded" in p.flags and p.won is not None:
            p.add(_("“%(token)s”: a conceded hand is neither won nor lost."), token=p.won[0].text)

    def _record(self, p: _Parse) -> dict:
        c = p.contract
        record: dict = {"dealer": p.dealer, "contract": c.key}
        seats = [seat for _t, seat in p.seats]
        if "declarer" in p.fields and seats:
            record["declarer"] = seats[0]
        if "partner" in p.fields:
            record["partner"] = seats[1] if len(seats) > 1 else None
        values = [value for _t, value in p.points]
        if "declarer_points" in p.fields and values:
            record["declarer_points"] = values[0]
        elif "card_points" in p.fields and values:
            active = sorted(self.rs.active_seats(p.dealer, p.size))
            record["card_points"] = {str(seat): value for seat, value in zip(active, values)}
        elif "card_points" in p.fields and "revoke" not in p.marks:
            record["card_points"] = {}
        if p.won is not None:
            record["won"] = p.won[1]
        for name in p.flags:
            record[name] = True
        if p.kontra is not None:
            record["kontra"] = p.kontra[1]
        elif "kontra_by" in p.marks and {"kontra", "kontra_by"} <= p.fields:
            record["kontra"] = 1  # who said the Kontra implies one (:meth:`_kontra_beside_its_sayer`)
        for name, (_t, seat) in p.marks.items():
            record[name] = seat
        if "bonuses" in p.fields:
            order = {b.key: i for i, b in enumerate(self.rs.bonuses)}
            entries = [entry for _t, entry in p.bonuses.values()]
            record["bonuses"] = sorted(entries, key=lambda e: (order[e["bonus"]], e.get("team") == "opponents"))
        for spec in self.rs.record_fields:
            given = p.extras.get(spec.name)
            if given is None:
                continue
            if spec.kind == "per_seat":
                record[spec.name] = {str(seat): value for seat, (_t, value) in sorted(given.items())}
            else:
                record[spec.name] = given[1]
        return record

    # ------------------------------------------------------------------------------ printing

    def format(self, record: Mapping, table_size: int, names: Sequence[str] | None = None) -> str:
        """The canonical line of ``record`` (a valid record; an incomplete one gives the line of
        what it has). Seats are numbers, or with ``names`` the initials where they read back as
        that seat. Fields that never change the score are left out (a Trischaken's Vorhand as
        declarer, a result the card points decide, a partner equal to the declarer, a Kontra beside
        who said it: ``k3`` alone)."""
        record = dict(record)
        seat = self._seat_writer(names)
        note = record.get("note")
        outcome = record.get("outcome", "played")
        if outcome == "struck":
            return self._with_note(STRUCK, note)
        if outcome == "manual":
            head = MANUAL
            if self.rs.uses_history and record.get("contract"):
                head += self._code(record["contract"])
            scores = record.get("scores") or []
            if self.rows_only and scores:
                return self._with_note(" ".join(str(s) for s in scores), note)
            return self._with_note(" ".join([head, *(str(s) for s in scores)]), note)
        key = record.get("contract")
        try:
            contract = self.rs.contract(key)
        except (KeyError, TypeError):
            return self._with_note(str(key or ""), note)
        fields = set(self.rs.fields(contract))
        revoke = record.get("revoke")
        parts = [contract.code or contract.key]
        declarer = record.get("declarer")
        if "declarer" in fields and declarer is not None:
            parts.append(seat(declarer))
            partner = record.get("partner")
            if "partner" in fields and partner is not None and (partner != declarer or self.rs.self_call_written):
                parts.append(seat(partner))
            elif (
                "partner" in fields
                and partner is None
                and "declarer_points" in fields
                and record.get("declarer_points") is not None
                and self.rs.partner_written_out
            ):
                parts.append(NOBODY)  # or the card points would be read as the partner
        if "declarer_points" in fields and record.get("declarer_points") is not None:
            parts.append(self._points_text(record["declarer_points"]))
        if "card_points" in fields and record.get("card_points") and revoke is None:
            points = {int(k): v for k, v in record["card_points"].items()}
            parts += [self._points_text(points[s]) for s in sorted(points)]
        won = record.get("won") if isinstance(record.get("won"), bool) else None  # as recorded
        points_decide = "declarer_points" in fields and record.get("declarer_points") is not None
        if "won" in fields and won is not None and revoke is None and not record.get("conceded") and not points_decide:
            parts.append(WON if won else LOST)
        if record.get("conceded") and "conceded" in fields and revoke is None:
            parts.append(CONCEDED)
        if record.get("against_solo") and "against_solo" in fields:
            parts.append(AGAINST_SOLO)
        said_by = record.get("kontra_by") is not None and "kontra_by" in fields
        if record.get("kontra") and "kontra" in fields and not (record["kontra"] == 1 and said_by):
            parts.append(self._kontra_code(record["kontra"]))  # a Kontra with its sayer: ``k3`` alone
        parts += self._record_field_codes(record, fields, seat)
        by_key: dict = {}  # the entries of each bonus key, the declarer's team's first (the sort is stable)
        for e in sorted((b for b in record.get("bonuses") or [] if isinstance(b, Mapping)), key=lambda e: e.get("team") == "opponents"):
            if isinstance(e.get("bonus"), str):  # another key names no bonus of the ruleset
                by_key.setdefault(e["bonus"], []).append(e)
        for bonus, b in ((bonus, b) for bonus in (self.rs.bonuses if by_key else ()) for b in by_key.get(bonus.key, ())):
            if revoke is not None and not b.get("announced"):
                continue
            if bonus.held:
                holder = b.get("holder")
                parts.append((bonus.code or bonus.key) + (seat(holder, mark=True) if isinstance(holder, int) else ""))
                continue
            text = (OPPONENTS if b.get("team") == "opponents" else "") + (bonus.code or bonus.key)
            if b.get("announced"):
                text += ANNOUNCED + (self._kontra_code(b["kontra"]) if b.get("kontra") else "")
            if b.get("made") is False:
                text += FAILED
            parts.append(text)
        for letter, name in SEAT_MARKS.items():
            if record.get(name) is not None and name in fields:
                parts.append(letter + seat(record[name], mark=True))
        return self._with_note(" ".join(parts), note)

    def _kontra_code(self, level) -> str:
        """Kontra ``level`` as the ruleset writes it (``re``, Hungarian ``hirs``)."""
        codes = self.rs.kontra_codes
        return codes[level] if isinstance(level, int) and 0 <= level < len(codes) else str(level)

    def _record_field_codes(self, record: Mapping, fields, seat) -> list[str]:
        """The ruleset's own record fields of ``record`` as tokens, in catalogue order."""
        parts = []
        for spec in self.rs.record_fields:
            value = record.get(spec.name)
            if spec.name not in fields or value in (None, False):
                continue
            if spec.kind == "flag":
                parts.append(spec.code)
            elif spec.kind == "choice" and (choice := spec.choice(value)) is not None:
                parts.append(choice.code)
            elif spec.kind == "per_seat" and isinstance(value, Mapping):
                for key, held in sorted(value.items(), key=lambda item: int(item[0]) if str(item[0]).isdigit() else -1):
                    choice = spec.choice(held)
                    if choice is not None and str(key).isdigit():
                        parts.append(choice.code + seat(int(key), mark=True))
        return parts

    def _code(self, key: str) -> str:
        try:
            contract = self.rs.contract(key)
        except (KeyError, TypeError):
            return str(key)
        return contract.code or contract.key

    @staticmethod
    def _with_note(text: str, note) -> str:
        return f"{text} {NOTE} {note}" if note else text

    def _points_text(self, value) -> str:
        """Card points as written in a line: whole, or ``P/B`` when the Blatt is not 0."""
        text = str(value).replace(" ", "")
        if "/" in text:
            whole, blatt = text.split("/", 1)
            return whole if blatt == "0" else text
        return text

    def _seat_writer(self, names: Sequence[str] | None):
        """A function seat -> its text in a line: number, or initials that read back as the seat."""
        if names is None:
            return lambda seat, mark=False: str(seat + 1)
        names = list(names)

        def write(seat: int, mark: bool = False) -> str:
            if 0 <= seat < len(names):
                short = initials(names[seat])
                if len(short) >= MIN_NAME and not self._is_code(short) and matches(short, names) == [seat]:
                    return f":{short}" if mark else short
            return str(seat + 1)

        return write

    def _is_code(self, low: str) -> bool:
        """Whether a token reads as something other than a player after the contract."""
        return bool(
            low in (WON, LOST, CONCEDED, AGAINST_SOLO)
            or low in self.kontra_levels
            or low in self.field_codes
            or self._seat_field_token(_Token(low, low)) is not None
            or self._held_token(_Token(low, low)) is not None
            or _SEAT_MARK.match(low)
            or self._bonus_token(_Token(low, low)) is not None
            or _NUMBER.match(low)
        )

    def example(self) -> str:
        """The line of the ruleset's first example hand, for placeholders."""
        examples = self.rs.notation_examples()
        if not examples:
            return self.rs.contracts[0].code
        size, record = examples[0]
        return self.format(record, size)
