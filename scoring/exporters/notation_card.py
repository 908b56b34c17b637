"""The notation card of a ruleset: every code of the quick-entry line and worked examples.

Generated from the ruleset's catalogue and its notation (:mod:`variants.notation`), never written
by hand: the contracts and bonuses with their codes and values, the tokens the ruleset's contracts
use (the partner only where a contract has one), and its example hands with their canonical lines
(``format_hand``), their words and their rows. An example is shown as a scorer gets it: its line
typed at the first hand of a round at a fresh table of its size (the dealer of hand 1, no earlier
hands), read and scored by the ruleset, so the row on the card is the row the sheet would save. The
same card is shown on the score sheet (folded), on the tournament's rules page and as a one-page
PDF for the scorers' desk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Above this many contracts the card lists them in two columns side by side, so that the long
# catalogues (the Wiener Tarockcup's 18) leave the one printed page room for the examples.
CONTRACTS_PER_COLUMN = 10

from django.utils.translation import gettext as _

from scoring.services import describe
from variants import InvalidHand


@dataclass
class NotationCard:
    """What a notation card shows.

    - ``contracts``: ``(code, aliases, name, value)`` per contract, in the ruleset's order (value
      ``None`` where the contract has its own settlement); ``value_heading``: what the value is
      (the ruleset's words: "Value", "Game value");
    - ``bonuses``: the ruleset's :class:`~variants.base.Bonus` entries (code, name, silent and
      announced values; ``multiplier`` ones are times the game value, ``times_game`` says
      whether the card needs that note);
    - ``partner``: some contract has a partner (its fields name one), so the card may speak of
      him; ``partner_always``: the partner is always written (``Ruleset.partner_written_out``);
    - ``features``: the record fields some contract uses (``"kontra"``, ``"revoke"``, …), so the
      card lists only the tokens this ruleset reads;
    - ``blatt``: card points carry Blatt (``P/B``); ``history``: a manual row may name its contract;
    - ``examples``: ``(line, words, row)`` per example hand, the row as ``[(seat label, score)]``;
    - ``kontras``: ``(code, word)`` of every kontra level the ruleset records; ``kontra_by_in``:
      the names of the contracts that record who said kontra in place of a kontra level (Bled's
      Klop), ``""`` where who said it goes beside the level (Königrufen);
    - ``fields``: ``(tokens, label, help)`` of the ruleset's own record fields
      (``Ruleset.record_fields``): a choice's codes (``xx xix … ii``) and a flag's code with the
      field's help line (whether it is required, what it means), a per-seat code with seat 2
      (``8t2``) and no help;
    - ``held``: a bonus held in one hand, its code with seat 2 (``tr2``), or ``""``;
      ``nobody``: the partner may be written as ``0`` (nobody) before the card points;
    - ``manual``: a manual row at the ruleset's first table size (``= 5 -15 5 5``);
      ``manual_named``: the same naming a contract whose manual row awards marks (Bled's
      ``=b …`` for the radelci), or ``""``.
    """

    ruleset: object
    contracts: list = field(default_factory=list)
    value_heading: str = ""
    bonuses: list = field(default_factory=list)
    times_game: bool = False
    partner: bool = False
    partner_always: bool = False
    features: frozenset = frozenset()
    blatt: bool = False
    history: bool = False
    example_bonus: str = ""
    examples: list = field(default_factory=list)
    manual: str = ""
    manual_named: str = ""
    kontras: list = field(default_factory=list)
    kontra_by_in: str = ""
    fields: list = field(default_factory=list)
    held: str = ""
    nobody: bool = False

    @property
    def contract_columns(self) -> list[list]:
        """:attr:`contracts` in one column, or two halves where there are more than
        :data:`CONTRACTS_PER_COLUMN`."""
        if len(self.contracts) <= CONTRACTS_PER_COLUMN:
            return [self.contracts]
        half = (len(self.contracts) + 1) // 2
        return [self.contracts[:half], self.contracts[half:]]


def notation_card(rs) -> NotationCard:
    """The notation card of ruleset ``rs`` (its edition and options), in the active language.

    Its examples are those of ``rs.notation_examples()`` whose line the first hand of a round
    accepts (:func:`card_examples`); one it would refuse is left off rather than shown wrong."""
    partner = "partner" in rs.notation.features
    card = NotationCard(
        ruleset=rs,
        contracts=[(c.code, ", ".join(c.aliases), c.name, c.value) for c in rs.contracts],
        value_heading=_(rs.value_heading),
        bonuses=list(rs.bonuses),
        times_game=any(b.multiplier for b in rs.bonuses),
        partner=partner,
        partner_always=partner and rs.partner_written_out,
        features=rs.notation.features,
        blatt=rs.uses_blatt,
        history=rs.uses_history,
        example_bonus=next((b.code for b in rs.bonuses if not b.held), ""),
        kontras=[(rs.kontra_codes[level], rs.kontra_word(level)) for level in range(1, rs.max_kontra + 1)],
        kontra_by_in=", ".join(c.name for c in rs.contracts if {"kontra_by"} <= set(rs.fields(c)) and "kontra" not in rs.fields(c)),
        held=next((f"{b.code}2" for b in rs.bonuses if b.held), ""),
        nobody=rs.partner_written_out and {"partner", "declarer_points"} <= rs.notation.features,
    )
    for spec in rs.record_fields:
        if spec.name not in card.features:
            continue
        help_line = _(spec.help) if spec.help else ""
        if spec.kind == "flag":
            card.fields.append((spec.code, _(spec.label), help_line))
        elif spec.kind == "choice":
            codes = [c.code for c in spec.choices]
            if len(codes) > 6:  # the called tarokk: xx xix … ii
                codes = [*codes[:2], "…", codes[-1]]
            card.fields.append((" ".join(codes), _(spec.label), help_line))
        else:
            for choice in spec.choices:
                card.fields.append((f"{choice.code}2", f"{_(spec.label)}: {_(choice.label)}", ""))
    size = rs.table_sizes[0]
    scores = " ".join(str(n) for n in [5, -5 * (size - 1)] + [5] * (size - 2))
    card.manual = f"= {scores}"
    named = next((c for c in rs.contracts if rs.manual_awards({"outcome": "manual", "contract": c.key})), None)
    if named is not None:
        card.manual_named = f"={named.code} {scores}"
    card.examples = card_examples(rs)
    return card


def card_examples(rs) -> list[tuple[str, str, list]]:
    """``(line, words, row)`` of each example hand of ``rs`` as the card shows it: the canonical
    line of the example's record, read by the ruleset as typed at the first hand of a round at a
    fresh table of the example's size (dealer ``rs.first_dealer(size)``, no history) and scored
    there; the words and the row (``[(seat label, score)]``) are of what that reading gives.
    Examples whose line that hand refuses are left out."""
    examples = []
    for size, record in rs.notation_examples():
        line = rs.format_hand(record, size)
        try:
            read = rs.parse_hand(line, size, rs.first_dealer(size))
            row = rs.score(read, size)
        except InvalidHand:
            continue
        labels = {i: _("seat %(number)s") % {"number": i + 1} for i in range(size)}
        examples.append((line, describe(read, labels, rs, row), list(zip(labels.values(), row))))
    return examples
