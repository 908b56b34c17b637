"""Rule tests for Tapp-Tarock, edition "klassik" (``variants/tapp.py``).

Every expected row below was worked out by hand from the rule text, never from the engine:

- ``TT`` = ``../shared/rules/tapp-tarock.md`` (§1 table and card points, §2 contracts, §3 record,
  §4 scoring, §5 validation, §6 tournament defaults);
- ``HR`` = ``../shared/rules/hand-record.md`` (seats, struck and manual rows);
- ``TF`` = ``../shared/rules/tournament-formats.md`` §1.

Arithmetic of TT §4, written out for every case::

    V = 3 Dreier, 4 Unterer, 5 Oberer, 8 Solo;  k = kontra on the game
    G = ±V (won / lost), or in its place: declarer's Valat +4V silent / +8V announced,
        announced Valat failed −8V, defenders' Valat −4V (valat_fixed: 12 / 24);  G ×= 2**k
    P = 4 silent / 8 announced, ×2 in a Solo, ×2**(Pagat kontra) if announced;
        + if the declarer made it or a defender's silent Pagat failed, − otherwise
    n = G + P;  declarer +2n, each defender −n, the sitting-out dealer 0
    hand bonus h (Trull 3, Vier Könige 3, Köpfe 1) held by x: x +2h, each other active seat −h

Unless said otherwise a 3-table hand has ``dealer = 2`` (Vorhand seat 0) and the declarer is seat 0,
so a row reads ``[declarer, defender 1, defender 2]``; a 4-table hand has ``dealer = 3`` (seat 3 sits
out, HR "Seats").
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from variants.problems import Problem
from variants.tapp import TappTarockRuleset

from .rule_helpers import assert_invalid, check_row

RS = TappTarockRuleset()


def rs_with(**options):
    return TappTarockRuleset(options=options)


# --------------------------------------------------------------------------------------------------
# builders (records only, no scoring logic)
# --------------------------------------------------------------------------------------------------


def H(contract, declarer=0, dealer=2, bonuses=(), **extra):
    """A played hand; pass ``won=`` and/or ``declarer_points=`` (TT §3)."""
    h = {"dealer": dealer, "contract": contract, "declarer": declarer}
    if isinstance(bonuses, tuple):
        if bonuses:
            h["bonuses"] = list(bonuses)
    else:
        h["bonuses"] = bonuses  # as given: a list, or a malformed value for the refusals
    h.update(extra)
    return h


def pag(team="declarer", announced=False, made=True, **extra):
    return {"bonus": "pagat", "team": team, "announced": announced, "made": made, **extra}


def val(team="declarer", announced=False, made=True, **extra):
    return {"bonus": "valat", "team": team, "announced": announced, "made": made, **extra}


def held(key, holder, **extra):
    return {"bonus": key, "holder": holder, **extra}


def problems(rs, h, size=3):
    return [str(p) for p in rs.validate(copy.deepcopy(h), size)]


# --------------------------------------------------------------------------------------------------
# declared data (TT §1, §2, §3, §6; TF §1)
# --------------------------------------------------------------------------------------------------


def test_identity_and_tournament_defaults():
    assert (RS.key, RS.edition, RS.name, RS.label) == ("tapp-tarock", "klassik", "Tapp-Tarock", "Tapp-Tarock")
    assert RS.table_sizes == (3, 4) and RS.preferred_table_size == 3 and RS.max_other_tables == 2
    assert RS.zero_sum is True and RS.sitting_out_pays is False
    assert RS.default_rounds == 3 and RS.default_hands_per_round == 24
    # TT §6: 24 at a 3-table, 32 at a 4-table; a director's base scales the same way
    assert RS.hands_per_round(3) == 24 and RS.hands_per_round(4) == 32
    assert RS.hands_per_round(3, 18) == 18 and RS.hands_per_round(4, 18) == 24
    assert RS.tiebreaks == ("best_rounds", "lots") and RS.victory_points is None
    assert isinstance(RS.default_round_minutes, int) and 90 <= RS.default_round_minutes <= 120
    assert [c.key for c in RS.seat_cards(4)] == ["skues", "21", "20", "19"]
    assert len(RS.seat_cards(3)) == 3
    assert RS.sitting_out(3, 4) == 3 and RS.sitting_out(2, 3) is None
    assert RS.active_seats(3, 4) == [0, 1, 2]


def test_contracts_bonuses_and_fields():
    # TT §2 table
    assert [(c.key, c.name, c.value, c.code, c.solo) for c in RS.contracts] == [
        ("dreier", "Dreier", 3, "d", False),
        ("unterer", "Unterer", 4, "u", False),
        ("oberer", "Oberer", 5, "o", False),
        ("solo", "Solo", 8, "s", True),
    ]
    # TT §3 table
    assert [(b.key, b.silent, b.announced, b.kind, b.code) for b in RS.bonuses] == [
        ("pagat", 4, 8, "trick", "pag"),
        ("valat", 4, 8, "valat", "v"),
        ("trull", 3, None, "hand", "tr"),
        ("vier_koenige", 3, None, "hand", "4k"),
        ("koepfe", 1, None, "hand", "kp"),
    ]
    assert RS.bonus("pagat").can_fail_silently and RS.bonus("valat").multiplier
    assert all(RS.bonus(k).held for k in ("trull", "vier_koenige", "koepfe"))
    for c in RS.contracts:
        assert RS.fields(c) == ("declarer", "won", "declarer_points", "kontra", "bonuses")
        assert [b.key for b in RS.allowed_bonuses(c.key)] == ["pagat", "valat", "trull", "vier_koenige", "koepfe"]
    with pytest.raises(KeyError):
        RS.contract("sechserdreier")
    assert RS.kontra_names == ("", "kontra", "rekontra", "subkontra")
    assert RS.kontra_codes == ("", "k", "re", "sub") and RS.max_kontra == 3


def test_options_and_their_defaults():
    # TT §1, §4: fourth_player off, failed silent Pagat on, hand bonuses on, kontra on, Valat multiplier
    assert RS.option_defaults == {
        "fourth_with_defenders": False,
        "failed_silent_pagat_counts": True,
        "hand_bonuses": True,
        "kontra_counts": True,
        "valat_fixed": False,
    }
    for option in RS.option_specs:
        assert option.label and option.help and option.source.startswith("tapp-tarock.md §")
    fixed = rs_with(valat_fixed=True)
    assert (fixed.bonus("valat").silent, fixed.bonus("valat").announced) == (12, 24)
    assert rs_with(fourth_with_defenders=True).sitting_out_pays is True


def test_rules_summary_follows_the_options():
    default = " ".join(RS.rules_summary())
    assert "4 times" in default and "scores 0" in default
    switched = " ".join(
        rs_with(valat_fixed=True, fourth_with_defenders=True, hand_bonuses=False, kontra_counts=False,
                failed_silent_pagat_counts=False).rules_summary()
    )
    assert "12 silent" in switched and "with the defenders" in switched
    assert "score nothing" in switched and "do not count" in switched and "scores nothing" in switched
    assert all(isinstance(p, Problem) for p in RS.rules_summary())


def test_the_notation_examples_are_valid():
    assert len(RS.notation_examples()) == len(RS.notation_example_hands) >= 4


# --------------------------------------------------------------------------------------------------
# contracts won and lost (TT §2, §4: G = ±V; declarer ±2V, each defender ∓V)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, won, row",
    [
        ("dreier", True, [6, -3, -3]),  # TT §4 example: "three points from each defender"
        ("dreier", False, [-6, 3, 3]),
        ("unterer", True, [8, -4, -4]),
        ("unterer", False, [-8, 4, 4]),
        ("oberer", True, [10, -5, -5]),
        ("oberer", False, [-10, 5, 5]),
        ("solo", True, [16, -8, -8]),
        ("solo", False, [-16, 8, 8]),
    ],
)
def test_every_contract_won_and_lost_by_won(contract, won, row):
    check_row(RS, H(contract, won=won), 3, row)


@pytest.mark.parametrize(
    "contract, points, row",
    [
        ("dreier", 36, [6, -3, -3]),  # TT §1: the declarer needs 36
        ("dreier", 35, [-6, 3, 3]),  # 35 is Remis and loses
        ("dreier", 69, [6, -3, -3]),
        ("dreier", 1, [-6, 3, 3]),
        ("unterer", 36, [8, -4, -4]),
        ("unterer", 35, [-8, 4, 4]),
        ("oberer", 50, [10, -5, -5]),
        ("oberer", 20, [-10, 5, 5]),
        ("solo", 36, [16, -8, -8]),
        ("solo", 35, [-16, 8, 8]),
        ("solo", 68, [16, -8, -8]),
        ("solo", 1, [-16, 8, 8]),
    ],
)
def test_every_contract_won_and_lost_by_points(contract, points, row):
    check_row(RS, H(contract, declarer_points=points), 3, row)


@pytest.mark.parametrize("spelling", [36, "36", "36/0"])
def test_points_spellings_are_the_same(spelling):
    # TT §1 Decision (spelling)
    check_row(RS, H("dreier", declarer_points=spelling), 3, [6, -3, -3])
    check_row(RS, H("dreier", declarer_points=spelling, won=True), 3, [6, -3, -3])


def test_won_of_reads_the_points_first():
    # TT §3: "if given, won = (p >= 36)"
    assert RS.won_of({"declarer_points": 36}) is True
    assert RS.won_of({"declarer_points": "35"}) is False
    assert RS.won_of({"won": True}) is True
    assert RS.won_of({}) is None
    assert RS.won_of({"declarer_points": "x", "won": False}) is False


def test_other_declarers_and_dealers():
    # dealer 0: Vorhand seat 1; declarer seat 2 wins an Oberer: +10, the others −5
    check_row(RS, H("oberer", declarer=2, dealer=0, won=True), 3, [-5, -5, 10])
    check_row(RS, H("dreier", declarer=1, dealer=1, won=False), 3, [3, -6, 3])


# --------------------------------------------------------------------------------------------------
# Pagat ultimo (TT §3, §4: P = 4 / 8, ×2 in a Solo, ×2**kontra announced)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, won, bonus, row",
    [
        # declarer's silent Pagat made: n = 3 + 4 = 7
        ("dreier", True, pag(), [14, -7, -7]),
        # announced and made: n = 3 + 8 = 11
        ("dreier", True, pag(announced=True), [22, -11, -11]),
        # announced and failed, game won: n = 3 − 8 = −5
        ("dreier", True, pag(announced=True, made=False), [-10, 5, 5]),
        # announced and failed, game lost: n = −3 − 8 = −11
        ("dreier", False, pag(announced=True, made=False), [-22, 11, 11]),
        # defenders' silent Pagat made (counts for both defenders): n = 3 − 4 = −1
        ("dreier", True, pag("opponents"), [-2, 1, 1]),
        # declarer's silent Pagat failed (played to the last trick and beaten): n = 3 − 4 = −1
        ("dreier", True, pag(made=False), [-2, 1, 1]),
        # defenders' silent Pagat failed: counts for the declarer, n = 3 + 4 = 7
        ("dreier", True, pag("opponents", made=False), [14, -7, -7]),
        # Oberer lost, defenders' Pagat made: n = −5 − 4 = −9
        ("oberer", False, pag("opponents"), [-18, 9, 9]),
        # Solo doubles the Pagat: silent 8, announced 16
        ("solo", True, pag(), [32, -16, -16]),  # n = 8 + 8
        ("solo", True, pag(announced=True), [48, -24, -24]),  # n = 8 + 16
        ("solo", False, pag(announced=True, made=False), [-48, 24, 24]),  # n = −8 − 16
        ("solo", True, pag("opponents"), [0, 0, 0]),  # n = 8 − 8
        ("solo", True, pag("opponents", made=False), [32, -16, -16]),  # n = 8 + 8
        ("solo", False, pag(made=False), [-32, 16, 16]),  # n = −8 − 8
    ],
)
def test_pagat(contract, won, bonus, row):
    check_row(RS, H(contract, won=won, bonuses=[bonus]), 3, row)


@pytest.mark.parametrize(
    "bonus, row",
    [
        (pag(made=False), [6, -3, -3]),  # declarer's silent Pagat failed scores 0: n = 3
        (pag("opponents", made=False), [6, -3, -3]),  # defenders' silent Pagat failed: 0
        (pag(), [14, -7, -7]),  # a made one still counts: n = 3 + 4
        (pag(announced=True, made=False), [-10, 5, 5]),  # an announced failure still counts: n = 3 − 8
    ],
)
def test_failed_silent_pagat_option_off(bonus, row):
    # TT §4 Decision (failed silent Pagat), option failed_silent_pagat_counts off: it scores 0
    check_row(rs_with(failed_silent_pagat_counts=False), H("dreier", won=True, bonuses=[bonus]), 3, row)


@pytest.mark.parametrize(
    "contract, won, level, made, row",
    [
        ("dreier", True, 0, True, [22, -11, -11]),  # n = 3 + 8
        ("dreier", True, 1, True, [38, -19, -19]),  # n = 3 + 16
        ("dreier", True, 2, True, [70, -35, -35]),  # n = 3 + 32
        ("dreier", True, 3, True, [134, -67, -67]),  # n = 3 + 64
        ("dreier", True, 1, False, [-26, 13, 13]),  # n = 3 − 16
        ("unterer", False, 2, False, [-72, 36, 36]),  # n = −4 − 32
        ("solo", True, 1, True, [80, -40, -40]),  # n = 8 + 8·2·2
        ("solo", False, 3, False, [-272, 136, 136]),  # n = −8 − 8·2·8
    ],
)
def test_pagat_kontra_levels(contract, won, level, made, row):
    # TT §3: "kontra": 0..3 on an announced Pagat; §4: P *= 2**bonus.kontra
    check_row(RS, H(contract, won=won, bonuses=[pag(announced=True, made=made, kontra=level)]), 3, row)


def test_pagat_kontra_is_independent_of_the_game_kontra():
    # game kontra 1: G = 3·2 = 6; Pagat kontra 2: P = 8·4 = 32; n = 38
    check_row(RS, H("dreier", won=True, kontra=1, bonuses=[pag(announced=True, kontra=2)]), 3, [76, -38, -38])


# --------------------------------------------------------------------------------------------------
# Valat (TT §3, §4: in place of the game post, ×2**k)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, won, bonus, row",
    [
        ("dreier", True, val(), [24, -12, -12]),  # G = 4·3
        ("dreier", True, val(announced=True), [48, -24, -24]),  # G = 8·3
        ("unterer", True, val(), [32, -16, -16]),  # G = 4·4
        ("oberer", True, val(announced=True), [80, -40, -40]),  # G = 8·5
        ("solo", True, val(), [64, -32, -32]),  # G = 4·8
        ("solo", True, val(announced=True), [128, -64, -64]),  # TT §4 example: "64 from each defender"
        # failed announced Valat: −8V whatever the card points (TT §4 Decision)
        ("oberer", True, val(announced=True, made=False), [-80, 40, 40]),
        ("oberer", False, val(announced=True, made=False), [-80, 40, 40]),
        ("dreier", True, val(announced=True, made=False), [-48, 24, 24]),
        ("solo", False, val(announced=True, made=False), [-128, 64, 64]),
        # defenders' silent Valat, the mirror: −4V
        ("unterer", False, val("opponents"), [-32, 16, 16]),
        ("dreier", False, val("opponents"), [-24, 12, 12]),
        ("solo", False, val("opponents"), [-64, 32, 32]),
    ],
)
def test_valat(contract, won, bonus, row):
    check_row(RS, H(contract, won=won, bonuses=[bonus]), 3, row)


def test_failed_announced_valat_ignores_the_points():
    # TT §4 Decision: −8V in place of the game post; won/points still recorded, not in the row
    check_row(RS, H("oberer", declarer_points=60, bonuses=[val(announced=True, made=False)]), 3, [-80, 40, 40])
    check_row(RS, H("oberer", declarer_points=20, bonuses=[val(announced=True, made=False)]), 3, [-80, 40, 40])
    # Solo, declarer took no trick: only the failed Valat is recorded (TT §4, §5 item 8)
    check_row(RS, H("solo", declarer_points=0, bonuses=[val(announced=True, made=False)]), 3, [-128, 64, 64])


def test_valat_with_points():
    check_row(RS, H("dreier", declarer_points=65, bonuses=[val()]), 3, [24, -12, -12])
    # Solo: the defenders' Valat leaves the declarer 0 card points (TT §5 item 8)
    check_row(RS, H("solo", declarer_points=0, bonuses=[val("opponents")]), 3, [-64, 32, 32])
    check_row(RS, H("dreier", declarer_points=4, bonuses=[val("opponents")]), 3, [-24, 12, 12])


@pytest.mark.parametrize(
    "contract, won, k, bonus, row",
    [
        ("dreier", True, 1, val(), [48, -24, -24]),  # G = 12·2
        ("dreier", True, 2, val(announced=True, made=False), [-192, 96, 96]),  # G = −24·4
        ("unterer", False, 1, val("opponents"), [-64, 32, 32]),  # G = −16·2
        ("solo", True, 3, val(announced=True), [1024, -512, -512]),  # G = 64·8
    ],
)
def test_kontra_on_the_game_multiplies_the_valat(contract, won, k, bonus, row):
    # TT §4 Decision (game kontra): kontra multiplies whatever stands in the game post
    check_row(RS, H(contract, won=won, kontra=k, bonuses=[bonus]), 3, row)


@pytest.mark.parametrize(
    "contract, won, k, bonus, row",
    [
        ("dreier", True, 0, val(), [24, -12, -12]),  # 12
        ("solo", True, 0, val(), [24, -12, -12]),  # 12, not doubled in a Solo
        ("oberer", True, 0, val(announced=True), [48, -24, -24]),  # 24
        ("solo", True, 0, val(announced=True), [48, -24, -24]),  # 24
        ("solo", True, 0, val(announced=True, made=False), [-48, 24, 24]),  # −24
        ("unterer", False, 0, val("opponents"), [-24, 12, 12]),  # −12
        ("dreier", True, 1, val(), [48, -24, -24]),  # 12·2
        ("solo", False, 2, val("opponents"), [-96, 48, 48]),  # −12·4
    ],
)
def test_valat_fixed_option(contract, won, k, bonus, row):
    # TT §4 Decision (Valat mode) valat_fixed: 12 / 24 whatever the contract, mirrored, ×2**k
    check_row(rs_with(valat_fixed=True), H(contract, won=won, kontra=k, bonuses=[bonus]), 3, row)


@pytest.mark.parametrize(
    "bonuses, row",
    [
        # TT §4 Decision: the Valat replaces the game only, the Pagat still scores: n = 12 + 4
        ([val(), pag()], [32, -16, -16]),
        # announced Valat and Pagat made: n = 24 + 8
        ([val(announced=True), pag(announced=True)], [64, -32, -32]),
        # the defenders' Pagat played and beaten under the declarer's Valat: n = 12 + 4
        ([val(), pag("opponents", made=False)], [32, -16, -16]),
        # the declarer's announced Pagat fails under his own Valat (not played last): n = 12 − 8
        ([val(), pag(announced=True, made=False)], [8, -4, -4]),
        # the defenders' Valat, a defender's Pagat beaten by the other defender: n = −12 + 4
        ([val("opponents"), pag("opponents", made=False)], [-16, 8, 8]),
        # the defenders' Valat and their Pagat made: n = −12 − 4
        ([val("opponents"), pag("opponents")], [-32, 16, 16]),
        # the defenders' Valat, the declarer's silent Pagat beaten: n = −12 − 4
        ([val("opponents"), pag(made=False)], [-32, 16, 16]),
    ],
)
def test_valat_and_pagat(bonuses, row):
    won = bonuses[0]["team"] == "declarer"
    check_row(RS, H("dreier", won=won, bonuses=bonuses), 3, row)


# --------------------------------------------------------------------------------------------------
# hand bonuses (TT §3, §4 Decision: to the holder alone, paid by each other active player)
# --------------------------------------------------------------------------------------------------


def test_worked_example_unterer_with_four_kings_held_by_a_defender():
    # TT §4: "declarer +8 − 3 = +5, that defender −4 + 6 = +2, the other −4 − 3 = −7"
    check_row(RS, H("unterer", won=True, bonuses=[held("vier_koenige", 1)]), 3, [5, 2, -7])


@pytest.mark.parametrize(
    "contract, won, bonuses, row",
    [
        # Trull held by the declarer: [6, −3, −3] + [6, −3, −3]
        ("dreier", True, [held("trull", 0)], [12, -6, -6]),
        # Trull held by a losing declarer: [−6, 3, 3] + [6, −3, −3]
        ("dreier", False, [held("trull", 0)], [0, 0, 0]),
        # Köpfe held by defender seat 2, game lost: [−6, 3, 3] + [−1, −1, 2]
        ("dreier", False, [held("koepfe", 2)], [-7, 2, 5]),
        # Köpfe held by the declarer: [10, −5, −5] + [2, −1, −1]
        ("oberer", True, [held("koepfe", 0)], [12, -6, -6]),
        # Trull by seat 1 and Vier Könige by seat 2: [6, −3, −3] + [−3, 6, −3] + [−3, −3, 6]
        ("dreier", True, [held("trull", 1), held("vier_koenige", 2)], [0, 0, 0]),
        # Trull and Vier Könige in one hand (seat 2): [−8, 4, 4] + [−3, −3, 6] + [−3, −3, 6]
        ("unterer", False, [held("trull", 2), held("vier_koenige", 2)], [-14, -2, 16]),
        # never doubled in a Solo: [16, −8, −8] + [6, −3, −3]
        ("solo", True, [held("trull", 0)], [22, -11, -11]),
        # Köpfe of one defender and Vier Könige of the other: [6, −3, −3] + [−1, 2, −1] + [−3, −3, 6]
        ("dreier", True, [held("koepfe", 1), held("vier_koenige", 2)], [2, -4, 2]),
    ],
)
def test_hand_bonuses_go_to_the_holder(contract, won, bonuses, row):
    check_row(RS, H(contract, won=won, bonuses=bonuses), 3, row)


def test_hand_bonuses_are_never_kontrad_and_stand_beside_a_valat():
    # kontra 1 on the game: n = 6 → [12, −6, −6]; Trull of seat 1 undoubled: [−3, 6, −3]
    check_row(RS, H("dreier", won=True, kontra=1, bonuses=[held("trull", 1)]), 3, [9, 0, -9])
    # silent Valat 12 → [24, −12, −12]; Trull of the declarer [6, −3, −3] (TT §4 "zusätzlich")
    check_row(RS, H("dreier", won=True, bonuses=[val(), held("trull", 0)]), 3, [30, -15, -15])


def test_hand_bonus_may_spell_out_its_side():
    # TT §3: team/announced/made may be given and must read the holder's side, false, true
    bonus = held("vier_koenige", 1, team="opponents", announced=False, made=True)
    check_row(RS, H("unterer", won=True, bonuses=[bonus]), 3, [5, 2, -7])
    mine = held("trull", 0, team="declarer", announced=False, made=True)
    check_row(RS, H("dreier", won=True, bonuses=[mine]), 3, [12, -6, -6])


def test_hand_bonuses_option_off():
    # TT §4, option hand_bonuses off: recorded and validated, score 0
    off = rs_with(hand_bonuses=False)
    check_row(off, H("unterer", won=True, bonuses=[held("vier_koenige", 1)]), 3, [8, -4, -4])
    check_row(off, H("dreier", won=False, bonuses=[held("trull", 2), held("vier_koenige", 1)]), 3, [-6, 3, 3])
    assert_invalid(off, H("dreier", won=True, bonuses=[held("trull", 0), held("koepfe", 0)]), 3, "Trull, not Köpfe")


# --------------------------------------------------------------------------------------------------
# kontra on the game (TT §3: ×2, ×4, ×8; §4 option kontra_counts)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, won, k, row",
    [
        ("dreier", True, 0, [6, -3, -3]),
        ("dreier", True, 1, [12, -6, -6]),  # 3·2
        ("dreier", True, 2, [24, -12, -12]),  # 3·4
        ("dreier", True, 3, [48, -24, -24]),  # 3·8
        ("oberer", False, 1, [-20, 10, 10]),  # −5·2
        ("unterer", False, 2, [-32, 16, 16]),  # −4·4
        ("solo", False, 3, [-128, 64, 64]),  # −8·8
        ("solo", True, 2, [64, -32, -32]),  # 8·4
    ],
)
def test_every_kontra_level(contract, won, k, row):
    check_row(RS, H(contract, won=won, kontra=k), 3, row)


def test_kontra_counts_off():
    # TT §4 option kontra_counts off: the game's and the Pagat's kontra are read as 0
    off = rs_with(kontra_counts=False)
    check_row(off, H("dreier", won=True, kontra=3), 3, [6, -3, -3])
    check_row(off, H("solo", won=True, kontra=2, bonuses=[pag(announced=True, kontra=3)]), 3, [48, -24, -24])  # 8 + 16
    check_row(off, H("dreier", won=True, kontra=1, bonuses=[val()]), 3, [24, -12, -12])  # 12, not 24
    # still validated
    assert_invalid(off, H("dreier", won=True, kontra=4), 3, "0 to 3")


def test_zero_and_absent_kontra_on_the_pagat_are_the_same():
    check_row(RS, H("dreier", won=True, bonuses=[pag(announced=True, kontra=0)]), 3, [22, -11, -11])
    check_row(RS, H("dreier", won=True, bonuses=[pag(kontra=0)]), 3, [14, -7, -7])


# --------------------------------------------------------------------------------------------------
# 4-tables (TT §1 Decision (4-table), option fourth_with_defenders)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "h, row",
    [
        (H("dreier", dealer=3, won=True), [6, -3, -3, 0]),
        (H("solo", dealer=3, declarer=2, won=False), [8, 8, -16, 0]),
        # dealer 1 sits out: active 2, 3, 0; seat 2 wins an Oberer
        (H("oberer", dealer=1, declarer=2, won=True), [-5, 0, 10, -5]),
        # TT §4 example at a 4-table: the hand bonus stays among the active seats
        (H("unterer", dealer=3, won=True, bonuses=[held("vier_koenige", 1)]), [5, 2, -7, 0]),
        (H("dreier", dealer=0, declarer=3, won=True, bonuses=[pag()]), [0, -7, -7, 14]),
    ],
)
def test_four_table_dealer_sits_out_with_zero(h, row):
    check_row(RS, h, 4, row)


@pytest.mark.parametrize(
    "h, row",
    [
        # the sitting-out dealer −n, the declarer +3n (TT §1 option)
        (H("dreier", dealer=3, won=True), [9, -3, -3, -3]),
        (H("dreier", dealer=3, won=False), [-9, 3, 3, 3]),
        (H("solo", dealer=3, won=True, bonuses=[val(announced=True)]), [192, -64, -64, -64]),
        (H("oberer", dealer=1, declarer=2, won=True), [-5, -5, 15, -5]),
        # hand bonuses stay among the three active seats: n = 4 → [12, −4, −4, −4]; Kings of seat 1
        # [−3, 6, −3, 0]
        (H("unterer", dealer=3, won=True, bonuses=[held("vier_koenige", 1)]), [9, 2, -7, -4]),
    ],
)
def test_four_table_fourth_with_defenders(h, row):
    check_row(rs_with(fourth_with_defenders=True), h, 4, row)


def test_fourth_with_defenders_changes_nothing_at_a_three_table():
    check_row(rs_with(fourth_with_defenders=True), H("dreier", won=True), 3, [6, -3, -3])


def test_four_table_sitting_out_dealer_cannot_play_or_hold():
    assert_invalid(RS, H("dreier", dealer=3, declarer=3, won=True), 4, "sits out")
    assert_invalid(RS, H("dreier", dealer=3, won=True, bonuses=[held("trull", 3)]), 4, "sits out")


# --------------------------------------------------------------------------------------------------
# the three worked examples of TT §4
# --------------------------------------------------------------------------------------------------


def test_the_worked_examples():
    check_row(RS, H("dreier", won=True), 3, [6, -3, -3])  # n = 3
    check_row(RS, H("solo", won=True, bonuses=[val(announced=True)]), 3, [128, -64, -64])  # G = 8·8 = 64
    check_row(RS, H("unterer", won=True, bonuses=[held("vier_koenige", 1)]), 3, [5, 2, -7])


def test_the_posts_explain_the_row():
    st_ = RS.breakdown(H("dreier", won=True, bonuses=[pag(), held("trull", 0)]), 3)
    assert [v for _label, v in st_.posts] == [3, 4, 3]  # game, Pagat (per defender), Trull (per payer)
    assert st_.row == (20, -10, -10)  # n = 3 + 4 → [14, −7, −7]; Trull of the declarer [6, −3, −3]
    assert str(st_.posts[0][0]) == "Dreier" and str(st_.posts[1][0]) == "Pagat ultimo"
    kontra = RS.breakdown(H("solo", won=False, kontra=2), 3)
    assert kontra.posts == (("Solo, rekontra ×4", -32),) and kontra.row == (-64, 32, 32)


# --------------------------------------------------------------------------------------------------
# struck and manual hands (TT §3, §5 item 12; HR)
# --------------------------------------------------------------------------------------------------


def test_struck_hands_score_zero_and_ignore_their_other_fields():
    check_row(RS, {"dealer": 0, "outcome": "struck"}, 3, [0, 0, 0])
    check_row(RS, {"dealer": 1, "outcome": "struck", "contract": "sechserdreier", "kontra": 9}, 4, [0, 0, 0, 0])


def test_manual_rows():
    check_row(RS, {"dealer": 0, "outcome": "manual", "scores": [4, -2, -2]}, 3, [4, -2, -2])
    check_row(RS, {"dealer": 3, "outcome": "manual", "scores": [-10, 5, 5, 0], "contract": "bogus"}, 4, [-10, 5, 5, 0])
    # the sitting-out dealer may carry a non-zero entry with fourth_with_defenders (TT §1)
    check_row(rs_with(fourth_with_defenders=True), {"dealer": 3, "outcome": "manual", "scores": [-9, 3, 3, 3]}, 4, [-9, 3, 3, 3])


@pytest.mark.parametrize(
    "rs, size, h, words",
    [
        (RS, 3, {"dealer": 0, "outcome": "manual", "scores": [6, -2, 0]}, "difference +4"),
        (RS, 3, {"dealer": 0, "outcome": "manual", "scores": [4, -2, -2, 0]}, "3 whole numbers"),
        (RS, 4, {"dealer": 0, "outcome": "manual", "scores": [4, -2, -2]}, "4 whole numbers"),
        (RS, 3, {"dealer": 0, "outcome": "manual"}, "3 whole numbers"),
        (RS, 4, {"dealer": 3, "outcome": "manual", "scores": [-9, 3, 3, 3]}, "sits out"),
        (rs_with(fourth_with_defenders=True), 4, {"dealer": 3, "outcome": "manual", "scores": [-9, 3, 3, 4]}, "difference +1"),
    ],
)
def test_manual_refusals(rs, size, h, words):
    # TT §5 item 12
    assert_invalid(rs, h, size, words)


# --------------------------------------------------------------------------------------------------
# refusals, TT §5 items 1–11
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["sechserdreier", "trischaken", "bettler", "tapper", "Dreier", 3])
def test_item1_unknown_contract(key):
    msgs = problems(RS, H(key, won=True))
    assert any("not a Tapp-Tarock contract" in m and str(key) in m for m in msgs), msgs
    assert "dreier, unterer, oberer or solo" in msgs[0]


@pytest.mark.parametrize("key", ["pass", "Pass", "passe"])
def test_item1_passed_out_deal(key):
    assert_invalid(RS, {"dealer": 0, "contract": key}, 3, "redealt by the same dealer")


def test_item1_contract_missing():
    assert_invalid(RS, {"dealer": 0, "declarer": 1, "won": True}, 3, "contract is missing")


@pytest.mark.parametrize("size", [2, 5])
def test_item2_table_size(size):
    msgs = problems(RS, H("dreier", won=True), size)
    assert msgs == [f"Tapp-Tarock is played at tables of 3, or of 4 with the dealer sitting out, not {size}."]


@pytest.mark.parametrize(
    "h, size, words",
    [
        ({"dealer": 3, "contract": "dreier", "declarer": 0, "won": True}, 3, "dealer must be a seat"),
        ({"dealer": -1, "contract": "dreier", "declarer": 0, "won": True}, 3, "dealer must be a seat"),
        ({"dealer": "0", "contract": "dreier", "declarer": 0, "won": True}, 3, "dealer must be a seat"),
        ({"dealer": 2, "contract": "dreier", "won": True}, 3, "declarer is missing"),
        ({"dealer": 2, "contract": "dreier", "declarer": 3, "won": True}, 3, "declarer must be a seat"),
        ({"dealer": 2, "contract": "dreier", "declarer": True, "won": True}, 3, "declarer must be a seat"),
        ({"dealer": 0, "contract": "dreier", "declarer": 0, "won": True}, 4, "seat 1 deals and sits out"),
    ],
)
def test_item2_seats(h, size, words):
    assert_invalid(RS, h, size, words)


def test_item3_neither_won_nor_points():
    assert_invalid(RS, H("dreier"), 3, "whether the declarer won, or the declarer's card points")
    assert_invalid(RS, H("dreier", won="yes"), 3, "“Won” must be true or false")


@pytest.mark.parametrize(
    "contract, points, words",
    [
        ("dreier", "35/2", "no Blatt"),
        ("dreier", "36/1", "“36/1”"),
        ("dreier", "abc", "“abc”"),
        ("dreier", True, "whole number"),
        ("dreier", 36.5, "whole number"),
        ("dreier", " 36", "whole number"),
        ("dreier", "036", "whole number"),
        ("dreier", "-3", "whole number"),
        ("dreier", 70, "from 1 to 69, not 70"),
        ("dreier", 0, "from 1 to 69, not 0"),
        ("oberer", -1, "from 1 to 69, not -1"),
        ("unterer", "71", "from 1 to 69"),
        ("solo", 69, "from 0 to 68, not 69"),
        ("solo", 70, "from 0 to 68"),
    ],
)
def test_item4_card_points_form_and_range(contract, points, words):
    assert_invalid(RS, H(contract, declarer_points=points), 3, words)


def test_item4_won_contradicting_the_points():
    assert_invalid(RS, H("dreier", declarer_points=38, won=False), 3, "38 card points win the Dreier")
    assert_invalid(RS, H("solo", declarer_points=35, won=True), 3, "35 card points lose the Solo")
    assert_invalid(RS, H("oberer", declarer_points="36/0", won=False), 3, "“won” must be true")


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("partner", 1, "no partner"),
        ("partner", 0, "no partner"),  # the declarer's own seat is a seat too
        ("revoke", 1, "manual row"),
        ("card_points", {"0": 40, "1": 20, "2": 10}, "card points per player"),
        ("kontra_by", 1, "“kontra by”"),
        ("mond_lost_by", 2, "Mond"),
        ("against_solo", True, "against a Solo"),
        ("against_solo", 0, "against a Solo"),
        ("conceded", True, "conceding"),
        ("called", "XX", "“called”"),
        ("all_tricks", "declarer", "all tricks"),
        ("tarokks", {"1": 8}, "tarokks"),
        ("forfeit", True, "forfeit"),
    ],
)
def test_item5_unused_fields(field, value, words):
    assert_invalid(RS, H("dreier", won=True, **{field: value}), 3, words)


def test_item5_defaults_of_unused_fields_are_accepted():
    h = H("dreier", won=True, partner=None, revoke=None, card_points={}, kontra_by=None, mond_lost_by=None,
          against_solo=False, conceded=False, kontra=0, bonuses=[], note="fine")
    check_row(RS, h, 3, [6, -3, -3])


@pytest.mark.parametrize("key", ["uhu", "kakadu", "koenig_ultimo", "mondfang", "sack1", "pagat_ultimo", None])
def test_item6_unknown_bonus(key):
    assert_invalid(RS, H("dreier", won=True, bonuses=[{"bonus": key, "team": "declarer", "announced": False, "made": True}]), 3,
                   f"“{key}” is not a Tapp-Tarock bonus")


@pytest.mark.parametrize(
    "bonuses, words",
    [
        ([pag(), pag()], "Pagat ultimo is recorded twice"),
        ([pag(), pag("opponents")], "Pagat ultimo is recorded twice"),
        ([val(announced=True, made=False), val("opponents")], "Valat is recorded twice"),
        ([held("trull", 0), held("trull", 1)], "Trull is recorded twice"),
        ([held("vier_koenige", 1), held("vier_koenige", 2)], "only four Kings"),
        ([held("koepfe", 1), held("koepfe", 2)], "cannot both hold two of the three trull cards"),
    ],
)
def test_item6_bonus_twice(bonuses, words):
    assert_invalid(RS, H("dreier", won=False, bonuses=bonuses), 3, words)


@pytest.mark.parametrize("bonuses", ["pagat", {"bonus": "pagat"}, ["pagat"], 5])
def test_item6_bonuses_must_be_a_list_of_entries(bonuses):
    assert_invalid(RS, H("dreier", won=True, bonuses=bonuses), 3, "list of bonus entries")


@pytest.mark.parametrize(
    "bonus, words",
    [
        ({"bonus": "pagat", "team": "declarer", "announced": False}, "Pagat ultimo needs team"),
        ({"bonus": "pagat", "announced": False, "made": True}, "Pagat ultimo needs team"),
        ({"bonus": "valat", "team": "declarer", "made": True}, "Valat needs team"),
        ({"bonus": "pagat", "team": "both", "announced": False, "made": True}, "needs team"),
        ({"bonus": "pagat", "team": "declarer", "announced": "no", "made": True}, "needs team"),
        (pag("opponents", announced=True), "Only the declarer announces"),
        (pag("opponents", announced=True, made=False), "Only the declarer announces"),
    ],
)
def test_item7_team_bonus_fields(bonus, words):
    assert_invalid(RS, H("dreier", won=True, bonuses=[bonus]), 3, words)


def test_item7_opponents_announced_valat():
    assert_invalid(RS, H("dreier", won=False, bonuses=[val("opponents", announced=True)]), 3, "Only the declarer announces")


@pytest.mark.parametrize(
    "h, words",
    [
        (H("dreier", won=True, bonuses=[val(made=False)]), "silent Valat that fails is no Valat"),
        (H("dreier", won=False, bonuses=[val("opponents", made=False)]), "silent Valat that fails is no Valat"),
        (H("dreier", won=False, bonuses=[val()]), "took every trick and won the Dreier"),
        (H("oberer", declarer_points=30, bonuses=[val(announced=True)]), "took every trick and won the Oberer"),
        (H("unterer", won=True, bonuses=[val("opponents")]), "took no trick and lost the Unterer"),
        (H("dreier", declarer_points=40, bonuses=[val("opponents")]), "took no trick"),
        (H("solo", declarer_points=0), "0 card points in a Solo"),
        (H("solo", declarer_points=0, bonuses=[val(announced=True)]), "0 card points in a Solo"),
        (H("solo", declarer_points=5, bonuses=[val("opponents")]), "leaves the declarer 0 card points, not 5"),
    ],
)
def test_item8_valat_contradictions(h, words):
    assert_invalid(RS, h, 3, words)


@pytest.mark.parametrize(
    "contract, extra, bonuses, words",
    [
        ("dreier", {"won": True}, [val(), pag("opponents")], "opponents' Pagat ultimo cannot be made"),
        ("dreier", {"won": False}, [val("opponents"), pag()], "declarer's Pagat ultimo cannot be made"),
        ("dreier", {"won": False}, [val("opponents"), pag(announced=True)], "cannot be made"),
        ("dreier", {"won": True}, [val(), pag(made=False)], "his own Pagat cannot have been beaten"),
        ("solo", {"declarer_points": 0}, [val(announced=True, made=False), pag()], "cannot be made"),
    ],
)
def test_item9_valat_and_pagat_of_the_other_side(contract, extra, bonuses, words):
    assert_invalid(RS, H(contract, bonuses=bonuses, **extra), 3, words)


def test_item9_a_defenders_pagat_beaten_by_the_other_defender_is_valid():
    # n = −4V + 4 = −12 + 4 = −8 (TT §4: a defender's silent Pagat failed counts for the declarer)
    check_row(RS, H("dreier", won=False, bonuses=[val("opponents"), pag("opponents", made=False)]), 3, [-16, 8, 8])


@pytest.mark.parametrize(
    "h, words",
    [
        (H("dreier", won=True, kontra=4), "kontra on the game must be 0 to 3"),
        (H("dreier", won=True, kontra=-1), "kontra on the game must be 0 to 3"),
        (H("dreier", won=True, kontra="k"), "kontra on the game must be 0 to 3"),
        (H("dreier", won=True, kontra=True), "kontra on the game must be 0 to 3"),
        (H("dreier", won=True, bonuses=[pag(announced=True, kontra=4)]), "kontra on Pagat ultimo must be 0 to 3"),
        (H("dreier", won=True, bonuses=[pag(kontra=1)]), "not a silent Pagat ultimo"),
        (H("dreier", won=True, bonuses=[pag("opponents", kontra=2)]), "not a silent Pagat ultimo"),
        (H("dreier", won=True, bonuses=[val(kontra=1)]), "not the Valat"),
        (H("dreier", won=True, bonuses=[val(announced=True, kontra=1)]), "not the Valat"),
        (H("dreier", won=True, bonuses=[held("trull", 1, kontra=1)]), "not Trull"),
        (H("dreier", won=True, bonuses=[held("koepfe", 1, kontra=True)]), "not Köpfe"),
    ],
)
def test_item10_kontra(h, words):
    assert_invalid(RS, h, 3, words)


@pytest.mark.parametrize(
    "bonuses, words",
    [
        ([{"bonus": "trull"}], "Trull needs its holder"),
        ([{"bonus": "koepfe", "team": "opponents", "announced": False, "made": True}], "Köpfe needs its holder"),
        ([held("trull", 3)], "holder of Trull must be a seat from 0 to 2"),
        ([held("trull", "1")], "holder of Trull must be a seat"),
        ([held("vier_koenige", 1, announced=True)], "never announced"),
        ([held("vier_koenige", 1, made=False)], "cannot fail"),
        ([held("vier_koenige", 1, team="declarer")], "is a defender, so team must be “opponents”, not “declarer”"),
        ([held("trull", 0, team="opponents")], "is the declarer, so team must be “declarer”, not “opponents”"),
        ([{"bonus": "pagat", "holder": 1, "team": "opponents", "announced": False, "made": True}], "has no holder"),
        ([{"bonus": "valat", "holder": 0, "team": "declarer", "announced": False, "made": True}], "has no holder"),
        ([held("trull", 1), held("koepfe", 1)], "Three trull cards are a Trull, not Köpfe"),
        ([held("trull", 1), held("koepfe", 2)], "seat 2 held all three, so seat 3 cannot hold two of them"),
        ([held("trull", 0), pag("opponents")], "includes the Pagat"),
        ([held("trull", 1), pag()], "includes the Pagat"),
        ([held("trull", 2), pag(announced=True, made=False)], "includes the Pagat"),
    ],
)
def test_item11_hand_bonuses(bonuses, words):
    assert_invalid(RS, H("dreier", won=True, bonuses=bonuses), 3, words)


def test_item11_trull_with_the_pagat_of_its_side_is_valid():
    # [6, −3, −3] + Pagat silent made by the defenders [−2, 1, 1] → n = −1; Trull of seat 1
    check_row(RS, H("dreier", won=True, bonuses=[held("trull", 1), pag("opponents")]), 3, [-5, 7, -2])
    # Trull and Vier Könige of one player, Köpfe absent: valid (seven cards)
    check_row(RS, H("dreier", won=True, bonuses=[held("trull", 0), held("vier_koenige", 0)]), 3, [18, -9, -9])


def test_refusals_name_several_things_at_once():
    h = H("dreier", won=True, kontra=5, partner=1, bonuses=[{"bonus": "uhu"}, held("trull", 7)])
    msgs = problems(RS, h)
    assert len(msgs) == 4, msgs


def test_messages_are_problems_with_seats_shown_one_based():
    (p,) = RS.validate(H("dreier", dealer=3, won=True, bonuses=[held("trull", 3)]), 4)
    assert isinstance(p, Problem) and p.params["seat"] == 3 and "seat 4" in p


def test_the_record_must_be_an_object():
    assert RS.validate(["dreier"], 3) == ["The hand record must be a JSON object."]


# --------------------------------------------------------------------------------------------------
# notable hands (base Ruleset.notable, extended)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, expected",
    [
        (H("dreier", won=True), []),
        (H("dreier", won=True, bonuses=[val()]), ["Valat"]),
        (H("dreier", won=False, bonuses=[val("opponents")]), ["Valat"]),
        (H("oberer", won=False, bonuses=[val(announced=True, made=False)]), []),
        (H("solo", won=True), ["Solo won"]),
        (H("solo", declarer_points=40), ["Solo won"]),
        (H("solo", won=False), []),
        (H("solo", won=True, bonuses=[val(announced=True, made=False)]), []),
        (H("solo", won=True, bonuses=[val(announced=True), pag(announced=True)]), ["Valat", "Solo won", "Pagat ultimo announced"]),
        (H("dreier", won=True, bonuses=[pag()]), []),
        (H("dreier", won=True, bonuses=[held("trull", 1)]), ["Trull: seat 2"]),
        (H("dreier", won=True, bonuses=[held("vier_koenige", 0), held("koepfe", 2)]), ["Vier Könige: seat 1"]),
        ({"dealer": 0, "outcome": "struck"}, []),
        ({"dealer": 0, "outcome": "manual", "scores": [2, -1, -1]}, []),
        ({"dealer": 0, "contract": "nope"}, []),
        (H("dreier", won=True, bonuses=5), []),
        ("garbage", []),
    ],
)
def test_notable(record, expected):
    reasons = RS.notable(record, None)
    assert [str(r) for r in reasons] == expected
    assert all(isinstance(r, Problem) for r in reasons)


def test_notable_valat_is_the_counted_msgid():
    (reason,) = RS.notable(H("dreier", won=True, bonuses=[val()]), None)
    assert reason.msgid == "Valat"
    solo = RS.notable(H("solo", won=True), None)[0]
    assert solo.msgid == "%(contract)s won" and solo.params == {"contract": "Solo"}


# --------------------------------------------------------------------------------------------------
# random hands (hypothesis invariants)
# --------------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(), size=st.sampled_from([3, 4]), dealer=st.integers(min_value=0, max_value=3), fourth=st.booleans())
def test_random_hands_validate_and_sum_to_zero(seed, size, dealer, fourth):
    dealer %= size
    rs = rs_with(fourth_with_defenders=True) if fourth else RS
    hand = rs.random_hand(random.Random(seed), size, dealer)
    assert rs.validate(hand, size) == []
    row = rs.score(hand, size)
    assert len(row) == size and sum(row) == 0
    assert all(isinstance(x, int) for x in row)
    if size == 4 and not fourth:
        assert row[dealer] == 0
    if hand.get("outcome", "played") == "played":
        assert hand["declarer"] in rs.active_seats(dealer, size)


def test_random_hands_draw_a_realistic_mix():
    rng = random.Random(2026)
    hands = [RS.draw_random(rng, 3, k % 3) for k in range(3000)]
    assert sum(1 for h in hands if RS.validate(h, 3)) == 0
    played = [h for h in hands if h.get("outcome", "played") == "played"]
    share = {c.key: sum(h["contract"] == c.key for h in played) / len(played) for c in RS.contracts}
    assert share["dreier"] > 0.5 and 0.03 < share["solo"] < 0.15
    keys = [b["bonus"] for h in played for b in h.get("bonuses", [])]
    assert {"pagat", "valat", "trull", "vier_koenige", "koepfe"} <= set(keys)
    assert any(h.get("kontra") for h in played)
