"""Builders and checks shared by the rule tests (records only, no scoring logic).

Expected rows stay in the test files, written by hand from the rule text.
"""

import copy

import pytest

from variants import InvalidHand


def B(key, team="declarer", announced=True, made=True):
    """A bonus entry of the hand record (HR "Fields", bonus)."""
    return {"bonus": key, "team": team, "announced": announced, "made": made}


def D(key, announced=True, made=True):
    return B(key, "declarer", announced, made)


def O(key, announced=True, made=True):
    return B(key, "opponents", announced, made)


def hand(contract, declarer, won=True, dealer=3, partner=None, bonuses=(), **extra):
    h = {"dealer": dealer, "contract": contract, "declarer": declarer, "won": won,
         "partner": partner, "bonuses": list(bonuses)}
    h.update(extra)
    return h


def trisch4(p0, p1, p2, p3, **extra):
    """Trischaken at a 4-table, dealer 3, Vorhand (seat 0) declares it."""
    h = {"dealer": 3, "contract": "trischaken", "declarer": 0,
         "card_points": {"0": p0, "1": p1, "2": p2, "3": p3}}
    h.update(extra)
    return h


def assert_invalid(rs, h, size, *keywords):
    """``validate`` rejects the hand with a message containing one of ``keywords`` (case-insensitive),
    and ``score`` raises InvalidHand carrying the errors."""
    errors = rs.validate(copy.deepcopy(h), size)
    assert errors, f"expected the hand to be invalid: {h}"
    assert all(isinstance(e, str) for e in errors)
    if keywords:
        text = " | ".join(errors).lower()
        assert any(k.lower() in text for k in keywords), (
            f"none of {keywords!r} in the messages {errors!r}")
    with pytest.raises(InvalidHand) as exc:
        rs.score(copy.deepcopy(h), size)
    assert exc.value.errors, "InvalidHand.errors must list the problems"


def check_row(rs, h, size, expected):
    assert sum(expected) == 0, "test data error: expected row must sum to 0"
    assert len(expected) == size, "test data error: row length"
    errors = rs.validate(copy.deepcopy(h), size)
    assert errors == [], f"valid hand rejected: {errors}"
    assert list(rs.score(copy.deepcopy(h), size)) == list(expected)
