"""Hands that cannot have happened, found in review; expected refusals stated from the rule text."""

import pytest

from variants import get_ruleset
from variants.cardpoints import CardPointsError, parse_thirds

RS = get_ruleset("tiroler-tarockcup")


def bonus(key, team, announced=True, made=True):
    return {"bonus": key, "team": team, "announced": announced, "made": made}


@pytest.mark.parametrize(
    "hand",
    [
        # koenigrufen.md §4: a Sack is at least 45 and 2 Blatt; the side that has it won the game.
        {"dealer": 3, "contract": "dreier", "declarer": 0, "won": True, "bonuses": [bonus("sack1", "opponents")]},
        {"dealer": 3, "contract": "dreier", "declarer": 0, "won": False, "bonuses": [bonus("sack2", "declarer")]},
        # §4.1: after a Valat the other side took no trick: no bird, no Trull, nothing made.
        {"dealer": 3, "contract": "dreier", "declarer": 0, "won": True,
         "bonuses": [bonus("valat", "declarer", False), bonus("pagat", "opponents", False)]},
        {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2, "won": False,
         "bonuses": [bonus("valat", "opponents"), bonus("trull", "declarer", False)]},
    ],
    ids=["sack by opponents but won", "sack by declarer but lost", "valat and opponents' pagat", "valat and declarer's trull"],
)
def test_impossible_hands_are_refused(hand):
    assert RS.validate(hand, 4)


def test_a_bird_of_the_losing_side_may_still_fail_under_a_valat():
    # The opponents' Pagat played and beaten: it scores for the Valat side (§1 Decision).
    hand = {"dealer": 3, "contract": "dreier", "declarer": 0, "won": True,
            "bonuses": [bonus("valat", "declarer", False), bonus("pagat", "opponents", False, False)]}
    assert RS.validate(hand, 4) == []
    assert RS.score(hand, 4) == [48, -16, -16, -16]  # Dreier 5 + silent Valat 10 + beaten Pagat 1 = 16


@pytest.mark.parametrize("points", ["0/1", "0/2", "1/0"])
def test_trischaken_points_below_one_trick_are_impossible(points):
    other = {"0/1": "29/2", "0/2": "29/1", "1/0": "29/0"}[points]
    hand = {"dealer": 3, "contract": "trischaken", "card_points": {"0": "20", "1": "20", "2": other, "3": points}}
    assert any("1/1" in p for p in RS.validate(hand, 4))


def test_card_points_take_only_ascii_digits():
    with pytest.raises(CardPointsError):
        parse_thirds("٣٠")


@pytest.mark.parametrize("key", ["tiroler-tarockcup", "wiener-tarockcup", "raiffeisen-tarockcup", "cego-ichenheim"])
def test_a_missing_contract_says_so(key):
    problems = get_ruleset(key).validate({"dealer": 0}, 4)
    assert [str(p) for p in problems] == ["The contract is missing."]
