"""What every ruleset checks the same way: the record's shape, dealer, outcome, seats, manual rows.

A ruleset's validator subclasses :class:`HandCheck` and implements :meth:`HandCheck.check_played`
(``hand-record.md`` "Fields" and "The score row").
"""

from __future__ import annotations

from collections.abc import Mapping

from .cardpoints import CardPointsError, parse_thirds
from .problems import Problem, _

OUTCOMES = ("played", "struck", "manual")


def is_int(value) -> bool:
    """A JSON integer (``bool`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_points(value, max_points: int = 70) -> int:
    """Whole card points ``0..max_points`` from a record value (``hand-record.md``: integers or
    "n p" thirds), for the rulesets without Blatt (Cego, Bled; Hungarian Tarokk up to 94); raises
    :class:`CardPointsError` (``blatt`` set for a Blatt part)."""
    return parse_thirds(value, allow_blatt=False, max_points=max_points) // 3


def recorded_points(record, max_points: int = 70) -> int | None:
    """The declarer's whole card points as ``record`` gives them (:func:`whole_points`), or
    ``None`` where it gives none or none that read; never raises for a mapping (for remarks about
    a hand, not for its validation)."""
    if record.get("declarer_points") is None:
        return None
    try:
        return whole_points(record["declarer_points"], max_points)
    except CardPointsError:
        return None


class HandCheck:
    """One validation run over a hand record; collects :class:`~variants.problems.Problem` in order.

    ``rs`` must offer ``table_sizes``, ``label``, ``sitting_out(dealer, n)``, ``active_seats(dealer,
    n)`` and ``sitting_out_pays`` (Cego's dealer pays; Königrufen's scores 0).
    """

    def __init__(self, rs, hand, table_size: int):
        self.rs = rs
        self.raw = hand
        self.n = table_size
        self.problems: list[Problem] = []

    def add(self, msgid: str, **params) -> None:
        self.problems.append(Problem(msgid, **params))

    def normalise(self, hand: Mapping) -> dict:
        """The record with the ruleset's defaults filled in (``hand-record.md`` "Fields")."""
        h = dict(hand)
        h.setdefault("outcome", "played")
        return h

    def run(self) -> list[Problem]:
        if not isinstance(self.raw, Mapping):
            self.add(_("The hand record must be a JSON object."))
            return self.problems
        if self.n not in self.rs.table_sizes:
            self.add(
                _("A %(ruleset)s table has %(sizes)s seats, not %(size)s."),
                ruleset=self.rs.name,
                sizes=" / ".join(str(s) for s in self.rs.table_sizes),
                size=self.n,
            )
            return self.problems
        self.hand = h = self.normalise(self.raw)
        dealer = h.get("dealer")
        if not is_int(dealer) or not 0 <= dealer < self.n:
            self.add(_("The dealer must be a seat from 0 to %(last)s."), last=self.n - 1)
            return self.problems
        self.dealer = dealer
        self.vorhand = (dealer + 1) % self.n
        self.out = self.rs.sitting_out(dealer, self.n)
        self.active = self.rs.active_seats(dealer, self.n)
        outcome = h["outcome"]
        if outcome not in OUTCOMES:
            self.add(_("Unknown outcome “%(outcome)s”: use played, struck or manual."), outcome=outcome)
        elif outcome == "manual":
            self.check_manual()
        elif outcome == "played":
            self.check_played()
        return self.problems

    def check_played(self) -> None:  # pragma: no cover - every ruleset implements it
        raise NotImplementedError

    def check_manual(self) -> None:
        """A row written by hand: whole numbers, summing to 0 where the ruleset is zero-sum; the
        sitting-out seat 0 unless he pays."""
        scores = self.hand.get("scores")
        if not isinstance(scores, list) or len(scores) != self.n or not all(is_int(s) for s in scores):
            self.add(_("A manual row needs %(size)s whole numbers, one per seat."), size=self.n)
            return
        if self.rs.zero_sum and sum(scores):
            self.add(
                _("The row does not sum to 0 (difference %(difference)+d): a writing error."),
                difference=sum(scores),
            )
        if self.out is not None and scores[self.out] and not self.rs.sitting_out_pays:
            self.add(_("The dealer %(seat)s sits out this hand and must score 0."), seat=self.out)

    def seat(self, field_name: str, label: str, *, required: bool) -> int | None:
        """The seat in ``field_name`` if it is an active seat, else ``None`` (with a problem)."""
        value = self.hand.get(field_name)
        if value is None:
            if required:
                self.add(_("The %(role)s is missing."), role=label)
            return None
        if not is_int(value) or not 0 <= value < self.n:
            self.add(_("The %(role)s must be a seat from 0 to %(last)s."), role=label, last=self.n - 1)
            return None
        if value == self.out:
            self.add(_("%(seat)s deals and sits out this hand and cannot be %(role)s."), seat=value, role=label)
            return None
        return value

    def contract(self):
        """The record's contract from the ruleset, or ``None`` with a problem."""
        key = self.hand.get("contract")
        if key is None:
            self.add(_("The contract is missing."))
            return None
        try:
            return self.rs.contract(key)
        except (KeyError, TypeError):
            self.add(_("Unknown contract “%(contract)s” in %(ruleset)s."), contract=key, ruleset=self.rs.label)
            return None

    def declarer_whole_points(self) -> int | None:
        """The record's ``declarer_points`` as whole card points 0..70 (:func:`whole_points`), or
        ``None`` after adding the message for a missing value or one that is not whole points."""
        raw = self.hand.get("declarer_points")
        if raw is None:
            self.add(_("Enter the declarer's card points (0 to 70)."))
            return None
        try:
            return whole_points(raw)
        except CardPointsError:
            self.add(_("The declarer's card points must be a whole number from 0 to 70, not “%(value)s”."), value=raw)
            return None

    def whole_card_points(self, missing: str, bad: str, not_active: str, *, empty_is_missing: bool = True) -> dict[int, int] | None:
        """The record's ``card_points`` as ``{seat: whole points}`` over exactly the active seats
        (Klop, Räuber: no Blatt), or ``None`` after adding the ruleset's message: ``missing`` when
        there are none, ``bad`` (with ``%(value)s``) for a value that is not whole points 0..70,
        ``not_active`` when the seats are not the active ones (an empty mapping too, unless
        ``empty_is_missing``)."""
        raw = self.hand.get("card_points")
        if not isinstance(raw, Mapping) or (empty_is_missing and not raw):
            self.add(missing)
            return None
        points = {}
        for key, value in raw.items():
            try:
                points[int(key)] = whole_points(value)
            except (TypeError, ValueError, CardPointsError):
                self.add(bad, value=value)
                return None
        if sorted(points) != sorted(self.active):
            self.add(not_active)
            return None
        return points
