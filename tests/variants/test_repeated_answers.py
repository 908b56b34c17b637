"""What a ruleset answers again and again (a sheet, a download and a notation line ask it for every
hand): the same answer each time, one a caller cannot change, and :class:`variants.Problem`'s text.

Expected values are written by hand from ``koenigrufen.md`` §1 ("Bonuses allowed per contract
family") and §4 (the Tirol tables), and ``hand-record.md`` ("Fields", "Seats": seat 0 is "seat 1").
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from variants import Problem, get_ruleset

ALL_TIROL = ("pagat", "uhu", "kakadu", "quapil", "koenig_ultimo", "mondfang", "vier_koenige", "trull", "sack1", "sack2", "valat")


def keys(bonuses) -> tuple[str, ...]:
    return tuple(b.key for b in bonuses)


@pytest.mark.parametrize("ask", range(3))
def test_tirol_allowed_bonuses_by_family(ask):
    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    assert keys(rs.allowed_bonuses("rufer")) == ALL_TIROL  # king call: everything
    assert keys(rs.allowed_bonuses("dreier")) == tuple(b for b in ALL_TIROL if b != "koenig_ultimo")
    assert keys(rs.allowed_bonuses("farbendreier")) == ("vier_koenige", "sack1", "sack2", "valat")
    assert rs.allowed_bonuses("piccolo") == ()
    assert rs.allowed_bonuses("trischaken") == ()


def test_tirol_fields_asked_again():
    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    rufer, solorufer, piccolo, trischaken = (rs.contract(k) for k in ("rufer", "solorufer", "piccolo", "trischaken"))
    for _ in range(3):
        assert rs.fields(rufer) == ("declarer", "won", "partner", "conceded", "bonuses", "kontra", "kontra_by", "revoke")
        assert rs.fields(solorufer) == ("declarer", "won", "partner", "bonuses", "kontra", "kontra_by", "revoke")
        assert rs.fields(piccolo) == ("declarer", "won", "kontra", "kontra_by", "revoke")
        assert rs.fields(trischaken) == ("card_points", "revoke")


def test_answers_cannot_be_changed_by_a_caller():
    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    assert isinstance(rs.fields(rs.contract("rufer")), tuple)
    assert isinstance(rs.allowed_bonuses("rufer"), tuple)


def test_unknown_contract_is_refused_every_time():
    rs = get_ruleset("wiener-tarockcup", "2020")
    for _ in range(2):
        with pytest.raises(KeyError):
            rs.allowed_bonuses("mondfang")  # a bonus, not a contract


def test_a_contract_made_elsewhere_is_answered_by_its_own_family():
    rs = get_ruleset("tiroler-tarockcup", "2019/20")
    rufer = rs.contract("rufer")
    assert "partner" in rs.fields(rufer)
    # the same key, another family: answered afresh, not with the Rufer's fields
    assert rs.fields(replace(rufer, family="trischaken")) == ("card_points", "revoke")
    assert "partner" in rs.fields(rufer)


def test_each_ruleset_instance_answers_for_its_own_options():
    # silent_sacks changes the Säcke's silent value, not which bonuses a contract allows
    plain = get_ruleset("tiroler-tarockcup", "2019/20")
    sacks = get_ruleset("tiroler-tarockcup", "2019/20", options={"silent_sacks": True})
    assert keys(sacks.allowed_bonuses("rufer")) == ALL_TIROL
    assert {b.key: b.silent for b in sacks.allowed_bonuses("rufer")}["sack1"] == 1
    assert {b.key: b.silent for b in plain.allowed_bonuses("rufer")}["sack1"] is None


def test_problem_text_counts_seats_from_one():
    p = Problem("%(declarer_seat)s + %(partner_seat)s", declarer_seat=0, partner_seat=2)
    assert p == "seat 1 + seat 3"
    assert p.msgid == "%(declarer_seat)s + %(partner_seat)s"
    assert p.params == {"declarer_seat": 0, "partner_seat": 2}  # the seats as given, 0-based


def test_problem_text_without_seats_and_without_parameters():
    assert Problem("%(points)s points", points=35) == "35 points"
    assert Problem("%(bonus_text)s announced", bonus_text=Problem("%(text)s", text="Pagat")) == "Pagat announced"
    bare = Problem("won")
    assert bare == "won" and bare.msgid == "won" and bare.params == {}
    assert isinstance(bare, str)


def test_problem_mixed_parameters():
    p = Problem("%(player_seat)s %(text)s", player_seat=3, text="30/1")
    assert p == "seat 4 30/1"
    assert p.params == {"player_seat": 3, "text": "30/1"}
