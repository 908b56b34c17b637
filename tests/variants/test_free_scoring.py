"""Free scoring: any other Tarock game by written rows — zero-sum or not, the dealer
sitting out at the larger tables or not, as the tournament sets (``variants/free.py``)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from variants import FreeScoringRuleset, InvalidHand, get_ruleset


def manual(dealer, *scores):
    return {"dealer": dealer, "outcome": "manual", "scores": list(scores)}


def test_registered_with_no_contracts_and_every_table_of_three_to_five():
    rs = get_ruleset("free-scoring")
    assert rs.contracts == () and rs.bonuses == ()
    assert rs.table_sizes == (3, 4, 5) and rs.preferred_table_size == 4
    assert [rs.sitting_out(d, n) for n in (3, 4, 5) for d in range(n)] == [None] * 12  # everyone plays
    assert (rs.default_rounds, rs.default_hands_per_round) == (3, 16)
    assert rs.victory_points is None and rs.tiebreaks == ("best_rounds", "lots")


def test_a_zero_sum_row_counts_as_written_and_a_writing_error_is_refused():
    rs = FreeScoringRuleset()
    assert rs.score(manual(0, 30, -10, -10, -10), 4) == [30, -10, -10, -10]
    assert rs.score(manual(2, -6, 3, 3), 3) == [-6, 3, 3]
    with pytest.raises(InvalidHand) as refused:
        rs.score(manual(0, 30, -10, -10, -11), 4)
    assert "difference -1" in str(refused.value)
    with pytest.raises(InvalidHand, match="4 whole numbers"):
        rs.score(manual(0, 30, -30), 4)


def test_not_zero_sum_takes_any_row():
    rs = FreeScoringRuleset(options={"zero_sum": False})
    assert not rs.zero_sum
    assert rs.score(manual(1, 0, 0, 70, 0, 0), 5) == [0, 0, 70, 0, 0]


def test_dealer_sits_out_at_the_larger_table_and_must_score_0():
    four = FreeScoringRuleset(options={"dealer_sits_out": True})
    assert four.table_sizes == (4, 5) and four.preferred_table_size == 4
    assert (four.sitting_out(3, 5), four.sitting_out(3, 4)) == (3, None)
    assert (four.hands_per_round(4), four.hands_per_round(5)) == (16, 20)  # each player plays 16
    assert four.score(manual(1, 3, 0, -1, -1, -1), 5) == [3, 0, -1, -1, -1]
    with pytest.raises(InvalidHand, match="sits out"):
        four.score(manual(1, 3, 1, -2, -1, -1), 5)
    three = FreeScoringRuleset(options={"dealer_sits_out": True, "three_handed": True})
    assert three.table_sizes == (3, 4) and three.preferred_table_size == 3
    assert (three.hands_per_round(3), three.hands_per_round(4)) == (24, 32)
    assert three.validate(manual(0, 0, 2, -1, -1), 4) == []
    assert three.validate(manual(0, 0, 2, -1), 3) != []  # a 3-table: everyone plays, the row must add up
    assert "table has 3 / 4 seats" in " ".join(three.validate(manual(0, 1, -1, 0, 0, 0), 5))


def test_a_played_hand_is_refused_and_the_line_says_how_to_write_a_row():
    rs = FreeScoringRuleset()
    assert "no contracts" in " ".join(rs.validate({"dealer": 0, "contract": "rufer", "declarer": 1}, 4))
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("r 1 +", 4, 0)
    assert "“r”" in str(refused.value) and "“0 30 -10 -20”" in str(refused.value)
    assert rs.parse_hand("= 5 -5 0 0 # Zwanzigerrufen", 4, 0) == {
        "dealer": 0, "outcome": "manual", "scores": [5, -5, 0, 0], "note": "Zwanzigerrufen"
    }
    assert rs.parse_hand("-- # misdealt", 4, 2) == {"dealer": 2, "outcome": "struck", "note": "misdealt"}


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(),
    zero_sum=st.booleans(),
    three=st.booleans(),
    out=st.booleans(),
)
def test_random_rows_are_valid_and_read_back_from_their_line(seed, zero_sum, three, out):
    rs = FreeScoringRuleset(options={"zero_sum": zero_sum, "three_handed": three, "dealer_sits_out": out})
    rng = random.Random(seed)
    size = rng.choice(rs.table_sizes)
    dealer = rng.randrange(size)
    hand = rs.random_hand(rng, size, dealer)
    row = rs.score(hand, size)
    if zero_sum:
        assert sum(row) == 0
    if rs.sitting_out(dealer, size) is not None:
        assert row[dealer] == 0
    assert rs.parse_hand(rs.format_hand(hand, size), size, dealer) == hand


def test_a_plain_row_of_numbers_is_the_hand_and_the_equals_sign_still_reads():
    """Every free-scoring hand is a row, so the line needs no "=": "10 -5 -5 0" is the hand, written
    back without it; a row that does not add up or has the wrong count is refused as with "="."""
    rs = FreeScoringRuleset()
    row = {"dealer": 1, "outcome": "manual", "scores": [10, -5, -5, 0]}
    assert rs.parse_hand("10 -5 -5 0", 4, 1) == row
    assert rs.parse_hand("= 10 -5 -5 0", 4, 1) == row
    assert rs.parse_hand("+10 \u22125 -5 0 # Zwanzigerrufen", 4, 1) == {**row, "note": "Zwanzigerrufen"}
    assert rs.format_hand(row, 4) == "10 -5 -5 0"
    assert rs.format_hand({**row, "note": "Pagat"}, 4) == "10 -5 -5 0 # Pagat"
    assert rs.notation.example() == "0 30 -10 -20"  # the placeholder of the quick line
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("10 -5 -5 1", 4, 1)
    assert [str(e) for e in refused.value.errors] == ["The row does not sum to 0 (difference +1): a writing error."]
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("10 -5 -5", 4, 1)
    assert [str(e) for e in refused.value.errors] == ["A manual row needs 4 numbers, one per seat, not 3."]
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("10 -5 x 0", 4, 1)
    assert [str(e) for e in refused.value.errors] == ["“x” is not a whole number: a manual row is the scores of every seat."]
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("", 4, 1)
    assert [str(e) for e in refused.value.errors] == ["Type a hand: the row as written, one number per seat, e.g. “0 30 -10 -20”."]
    # Not zero-sum: any row, still no "=".
    free = FreeScoringRuleset(options={"zero_sum": False})
    assert free.parse_hand("0 0 70 0 0", 5, 1) == {"dealer": 1, "outcome": "manual", "scores": [0, 0, 70, 0, 0]}
    # The rules page says so.
    assert any("no “=” is needed" in line for line in rs.rules_summary())


def test_a_ruleset_with_contracts_still_wants_the_equals_sign():
    """At a Königrufen table a line of numbers is no hand: "5 -15 5 5" asks for the "="."""
    rs = get_ruleset("tiroler-tarockcup")
    with pytest.raises(InvalidHand, match="starts with “=”"):
        rs.parse_hand("5 -15 5 5", 4, 0)
    assert rs.format_hand({"dealer": 0, "outcome": "manual", "scores": [5, -15, 5, 5]}, 4) == "= 5 -15 5 5"
