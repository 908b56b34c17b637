"""Tarock rulesets as pure Python: validate hand records and compute score rows.

``variants`` knows nothing of Django. A ruleset takes the hand records of
``shared/rules/hand-record.md`` and returns score rows::

    from variants import get_ruleset, all_rulesets, InvalidHand
    rs = get_ruleset("tiroler-tarockcup")            # current edition, "2019/20"
    rs.validate(hand, table_size, history=())        # -> list[Problem], empty when valid
    rs.evaluate(hand, table_size, history=())        # -> Scored: problems, or the settlement
    rs.score(hand, table_size, history=())           # -> list[int]; raises InvalidHand(errors)
    rs.parse_hand(line, table_size, dealer, names)   # the notation: a line -> a checked record
    rs.format_hand(record, table_size)               # a record -> its canonical line

What a ruleset offers is declared by :class:`variants.base.Ruleset`.
"""

from .base import Bonus, Breakdown, Choice, Contract, Option, RecordField, Ruleset, Scored, SeatCard, Settlement, card_names
from .cardpoints import CardPointsError, format_thirds, parse_thirds
from .problems import InvalidHand, Problem
from .bled import BledRuleset
from .cego import CegoRuleset
from .free import FreeScoringRuleset
from .hungarian import HungarianTarokkRuleset
from .koenigrufen import RAIFFEISEN_2023, TIROL_2019, WTC_2009, WTC_2020, KoenigrufenRuleset
from .tapp import TappTarockRuleset
from .registry import UnknownRuleset, all_rulesets, choices, get_ruleset, register, unregister


def _koenigrufen(spec):
    return lambda editions, options: KoenigrufenRuleset(spec, editions, options)


register(TIROL_2019.key, TIROL_2019.edition, _koenigrufen(TIROL_2019), current=True)
register(WTC_2020.key, WTC_2020.edition, _koenigrufen(WTC_2020), current=True)
register(WTC_2009.key, WTC_2009.edition, _koenigrufen(WTC_2009))
register(RAIFFEISEN_2023.key, RAIFFEISEN_2023.edition, _koenigrufen(RAIFFEISEN_2023), current=True)
register(CegoRuleset.key, CegoRuleset.edition, CegoRuleset, current=True)
register(BledRuleset.key, BledRuleset.edition, BledRuleset, current=True)
register(HungarianTarokkRuleset.key, HungarianTarokkRuleset.edition, HungarianTarokkRuleset, current=True)
register(TappTarockRuleset.key, TappTarockRuleset.edition, TappTarockRuleset, current=True)
register(FreeScoringRuleset.key, FreeScoringRuleset.edition, FreeScoringRuleset, current=True)

__all__ = [
    "BledRuleset",
    "Bonus",
    "Breakdown",
    "Choice",
    "CardPointsError",
    "Contract",
    "InvalidHand",
    "Option",
    "Problem",
    "RAIFFEISEN_2023",
    "RecordField",
    "Ruleset",
    "Scored",
    "SeatCard",
    "Settlement",
    "TappTarockRuleset",
    "UnknownRuleset",
    "all_rulesets",
    "card_names",
    "choices",
    "format_thirds",
    "get_ruleset",
    "parse_thirds",
    "register",
    "unregister",
]
