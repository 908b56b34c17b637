"""The notation card of a ruleset: every code of the quick-entry line and worked examples.

Generated from the ruleset's catalogue and its notation (:mod:`variants.notation`), never written
by hand: the contracts and bonuses with their codes, the tokens the ruleset's contracts use, and its
example hands with their canonical lines (``format_hand``), their words and their rows. The same
card is shown on the score sheet (folded), on the tournament's rules page and as a one-page PDF for
the scorers' desk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .services import describe


@dataclass
class NotationCard:
    """What a notation card shows.

    - ``contracts``: ``(code, aliases, name)`` per contract, in the ruleset's order;
    - ``bonuses``: the ruleset's :class:`~variants.base.Bonus` entries (code, name, values);
    - ``features``: the record fields some contract uses (``"kontra"``, ``"revoke"``, …), so the
      card lists only the tokens this ruleset reads;
    - ``blatt``: card points carry Blatt (``P/B``); ``history``: a manual row may name its contract;
    - ``examples``: ``(line, words, row)`` per example hand, the row as ``[(seat label, score)]``;
    - ``kontras``: ``(code, word)`` of every kontra level the ruleset records;
    - ``fields``: ``(tokens, label)`` of the ruleset's own record fields (``Ruleset.record_fields``):
      a choice's codes (``xx xix … ii``), a flag's code, a per-seat code with seat 2 (``8t2``);
    - ``held``: a bonus held in one hand, its code with seat 2 (``tr2``), or ``""``;
      ``nobody``: the partner may be written as ``0`` (nobody) before the card points;
    - ``manual``: a manual row at the ruleset's first table size (``= 5 -15 5 5``);
      ``manual_named``: the same naming a contract whose manual row awards marks (Bled's
      ``=b …`` for the radelci), or ``""``.
    """

    ruleset: object
    contracts: list = field(default_factory=list)
    bonuses: list = field(default_factory=list)
    features: frozenset = frozenset()
    blatt: bool = False
    history: bool = False
    example_bonus: str = ""
    examples: list = field(default_factory=list)
    manual: str = ""
    manual_named: str = ""
    kontras: list = field(default_factory=list)
    fields: list = field(default_factory=list)
    held: str = ""
    nobody: bool = False


def notation_card(rs) -> NotationCard:
    """The notation card of ruleset ``rs`` (its edition and options), in the active language."""
    card = NotationCard(
        ruleset=rs,
        contracts=[(c.code, ", ".join(c.aliases), c.name) for c in rs.contracts],
        bonuses=list(rs.bonuses),
        features=rs.notation.features,
        blatt=rs.uses_blatt,
        history=rs.uses_history,
        example_bonus=next((b.code for b in rs.bonuses if not b.held), ""),
        kontras=[(rs.kontra_codes[level], rs.kontra_word(level)) for level in range(1, rs.max_kontra + 1)],
        held=next((f"{b.code}2" for b in rs.bonuses if b.held), ""),
        nobody=rs.partner_written_out and {"partner", "declarer_points"} <= rs.notation.features,
    )
    for spec in rs.record_fields:
        if spec.name not in card.features:
            continue
        if spec.kind == "flag":
            card.fields.append((spec.code, _(spec.label)))
        elif spec.kind == "choice":
            codes = [c.code for c in spec.choices]
            if len(codes) > 6:  # the called tarokk: xx xix … ii
                codes = [*codes[:2], "…", codes[-1]]
            card.fields.append((" ".join(codes), _(spec.label)))
        else:
            for choice in spec.choices:
                card.fields.append((f"{choice.code}2", f"{_(spec.label)}: {_(choice.label)}"))
    size = rs.table_sizes[0]
    scores = " ".join(str(n) for n in [5, -5 * (size - 1)] + [5] * (size - 2))
    card.manual = f"= {scores}"
    named = next((c for c in rs.contracts if rs.manual_awards({"outcome": "manual", "contract": c.key})), None)
    if named is not None:
        card.manual_named = f"={named.code} {scores}"
    for size, record in rs.notation_examples():
        labels = {i: _("seat %(number)s") % {"number": i + 1} for i in range(size)}
        row = rs.score(record, size)
        card.examples.append(
            (rs.format_hand(record, size), describe(record, labels, rs, row), list(zip(labels.values(), row)))
        )
    return card
