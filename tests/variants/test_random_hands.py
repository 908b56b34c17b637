"""Random hands (``Ruleset.random_hand``, :mod:`variants.randomhands`): valid, zero-sum, varied
and reproducible Tiroler Tarockcup hands; and a valid hand for every ruleset from its catalogue."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from variants import all_rulesets, get_ruleset
from variants.randomhands import catalogue_hand, random_round

SEED = 20192020
HANDS = 2000


@pytest.fixture(scope="module")
def ruleset():
    return get_ruleset("tiroler-tarockcup")


def _generate(ruleset, table_size: int, count: int = HANDS, seed: int = SEED) -> list[dict]:
    rng = random.Random(seed)
    return [ruleset.random_hand(rng, table_size, k % table_size) for k in range(count)]


@pytest.fixture(scope="module", params=[4, 5], ids=["4-table", "5-table"])
def generated(request, ruleset):
    table_size = request.param
    return table_size, _generate(ruleset, table_size)


def test_every_hand_validates_and_scores_zero_sum(ruleset, generated):
    table_size, hands = generated
    for hand in hands:
        assert ruleset.validate(hand, table_size) == [], hand
        row = ruleset.score(hand, table_size)
        assert len(row) == table_size, hand
        assert all(isinstance(points, int) for points in row), (hand, row)
        assert sum(row) == 0, (hand, row)
        if table_size == 5:
            assert row[hand["dealer"]] == 0, (hand, row)


def test_sitting_out_dealer_never_plays(ruleset, generated):
    table_size, hands = generated
    for hand in hands:
        seats = ruleset.active_seats(hand["dealer"], table_size)
        assert len(seats) == 4
        assert hand["declarer"] in seats
        if hand.get("partner") is not None:
            assert hand["partner"] in seats and hand["partner"] != hand["declarer"]
        if "card_points" in hand:
            assert sorted(int(seat) for seat in hand["card_points"]) == sorted(seats)


def test_vorhand_only_contracts_are_played_by_vorhand(ruleset, generated):
    table_size, hands = generated
    for hand in hands:
        if ruleset.contract(hand["contract"]).vorhand_only:
            assert hand["declarer"] == (hand["dealer"] + 1) % table_size, hand


def test_the_mix_is_realistic(ruleset, generated):
    table_size, hands = generated
    contracts = Counter(hand["contract"] for hand in hands)
    for key in ("rufer", "dreier", "trischaken", "piccolo", "bettler", "besserrufer", "farbendreier"):
        assert contracts[key] > 0, key
    assert 0.38 < contracts["rufer"] / HANDS < 0.52
    assert 0.15 < contracts["dreier"] / HANDS < 0.25
    assert 0.05 < contracts["trischaken"] / HANDS < 0.11

    valats = [hand for hand in hands if any(b["bonus"] == "valat" for b in hand.get("bonuses", []))]
    assert 1 <= len(valats) <= 40

    rufer = [hand for hand in hands if hand["contract"] == "rufer"]
    alone = [hand for hand in rufer if hand["partner"] is None]
    assert 0 < len(alone) < 0.12 * len(rufer)
    assert any(hand.get("conceded") for hand in alone)
    played = [hand for hand in rufer if not hand.get("conceded")]
    assert 0.55 < sum(hand["won"] for hand in played) / len(played) < 0.75

    bonuses = [b for hand in hands for b in hand.get("bonuses", [])]
    assert any(not b["announced"] for b in bonuses)
    assert any(b["announced"] for b in bonuses)
    assert {b["team"] for b in bonuses} == {"declarer", "opponents"}


def test_bonuses_follow_the_contract(ruleset, generated):
    _, hands = generated
    for hand in hands:
        contract = ruleset.contract(hand["contract"])
        allowed = {bonus.key: bonus for bonus in ruleset.allowed_bonuses(contract.key)}
        keys = [b["bonus"] for b in hand.get("bonuses", [])]
        assert len(keys) == len(set(keys)), hand
        for b in hand.get("bonuses", []):
            assert b["bonus"] in allowed, hand
            if allowed[b["bonus"]].silent is None:
                assert b["announced"], hand
            if not b["announced"] and not b["made"]:
                assert b["bonus"] in ("pagat", "uhu", "kakadu", "quapil", "koenig_ultimo"), hand
            if b["bonus"] == "koenig_ultimo":
                assert hand.get("partner") is not None, hand
            if b["bonus"] == "valat" and b["made"]:
                assert hand["won"] == (b["team"] == "declarer"), hand
        if contract.key == "besserrufer":
            assert any(
                b["bonus"] in ("pagat", "uhu", "kakadu", "quapil") and b["announced"] and b["team"] == "declarer"
                for b in hand["bonuses"]
            ), hand


def test_trischaken_card_points(ruleset, generated):
    table_size, hands = generated
    splits = [hand["card_points"] for hand in hands if hand["contract"] == "trischaken"]

    def thirds(text: str) -> int:
        points, blatt = text.split("/")
        return 3 * int(points) + int(blatt)

    for split in splits:
        values = [thirds(text) for text in split.values()]
        assert len(values) == 4 and sum(values) == 210, split
        assert all(values.count(value) < 3 for value in values), split
    assert any(0 in (thirds(t) for t in split.values()) for split in splits), "no Jungfrau"
    assert any(max(thirds(t) for t in split.values()) >= 107 for split in splits), "no mayor"


def test_same_seed_same_hands(ruleset):
    assert _generate(ruleset, 5, 300, seed=7) == _generate(ruleset, 5, 300, seed=7)
    assert _generate(ruleset, 4, 300, seed=7) != _generate(ruleset, 4, 300, seed=8)


def test_random_round_rotates_the_dealer(ruleset):
    rng = random.Random(SEED)
    hands = random_round(ruleset, 5, 3, 20, rng)
    assert [hand["dealer"] for hand in hands] == [(3 + k - 1) % 5 for k in range(1, 21)]
    for hand in hands:
        assert ruleset.validate(hand, 5) == []
    assert random_round(ruleset, 4, 0, 16, random.Random(1)) == random_round(ruleset, 4, 0, 16, random.Random(1))


@pytest.mark.parametrize("rs", all_rulesets(), ids=lambda rs: rs.key)
def test_every_ruleset_draws_valid_hands_and_the_catalogue_alone_does_too(rs):
    rng = random.Random(7)
    for size in rs.table_sizes:
        for dealer in range(size):
            assert rs.validate(rs.random_hand(rng, size, dealer), size) == []
    # A ruleset that draws no evening of its own still gets valid hands from its catalogue.
    for size in rs.table_sizes:
        drawn = [catalogue_hand(rs, rng, size, 0) for _ in range(200)]
        assert any(not rs.validate(hand, size) for hand in drawn)
