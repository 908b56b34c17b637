"""Rule tests for the Tiroler Tarockcup ruleset (Königrufen, edition 2019/20).

Every expected row below was computed by hand from the rule text, never from the engine:

- ``KR``  = ``../shared/rules/koenigrufen.md`` (§1 "The engine", §4 "Tiroler Tarockcup");
- ``HR``  = ``../shared/rules/hand-record.md``;
- ``S1``  = ``../shared/rules/sources/tiroler-cupregeln-2019-20-en.txt`` (cup rules 2019/20).

Arithmetic (KR §1 "From a hand to a row"): the net value ``n`` is the sum of the posts (game and
bonuses) from the declarer side's point of view; 2 against 2: declarer ``+n``, partner ``+n``, each
opponent ``-n``; 1 against 3: declarer ``+3n``, each opponent ``-n``; the dealer at a 5-table has 0.

Table S1 / KR §4 (V = game value; bonuses silent/announced):
rufer 1, piccolo 2, solorufer 2, besserrufer 1 + bird, bettler 4, sechserdreier 4 (lost: -8),
farbendreier 5, dreier 5, zwiccolo_ouvert 8, piccolo_ouvert 8, bettler_ouvert 8, farbensolo 10,
solodreier 10; pagat 1/2, uhu 2/4, kakadu 3/6, quapil 4/8, koenig_ultimo 1/2, mondfang 1/2,
vier_koenige 1/2, trull 1/2, sack1 -/2, sack2 -/2, valat 10/20.

Unless said otherwise a 4-table hand has ``dealer = 3``, so Vorhand is seat 0 (HR "Seats").
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from variants import InvalidHand, all_rulesets, get_ruleset

from .rule_helpers import B, D, O, assert_invalid, check_row, hand, trisch4

KEY = "tiroler-tarockcup"


@pytest.fixture(scope="module")
def rs():
    return get_ruleset(KEY)


# --------------------------------------------------------------------------------------------------
# helpers (building records only; no scoring logic)
# --------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------
# catalogue (KR §4 tables, S1 table)
# --------------------------------------------------------------------------------------------------

TIROL_CONTRACTS = {
    # key: (V, family, vorhand_only, solo)
    "rufer": (1, "king_call", True, False),
    "trischaken": (None, "trischaken", True, False),
    "piccolo": (2, "negative", False, False),
    "solorufer": (2, "king_call", False, True),
    "besserrufer": (1, "king_call", False, False),
    "bettler": (4, "negative", False, False),
    "sechserdreier": (4, "dreier", True, False),
    "farbendreier": (5, "colour", False, False),
    "dreier": (5, "dreier", False, False),
    "zwiccolo_ouvert": (8, "negative", False, False),
    "piccolo_ouvert": (8, "negative", False, False),
    "bettler_ouvert": (8, "negative", False, False),
    "farbensolo": (10, "colour", False, True),
    "solodreier": (10, "dreier", False, True),
}

TIROL_BONUSES = {
    # key: (silent, announced, kind)  -- KR §4 bonus list, KR §1 "Bonus classes"
    "pagat": (1, 2, "trick"),
    "uhu": (2, 4, "trick"),
    "kakadu": (3, 6, "trick"),
    "quapil": (4, 8, "trick"),
    "koenig_ultimo": (1, 2, "trick"),
    "mondfang": (1, 2, "trick"),
    "vier_koenige": (1, 2, "material"),
    "trull": (1, 2, "material"),
    "sack1": (None, 2, "material"),
    "sack2": (None, 2, "material"),
    "valat": (10, 20, "valat"),
}

ALL_BONUS_KEYS = set(TIROL_BONUSES)
ALLOWED = {  # KR §1 "Bonuses allowed per contract family" (Tirol colour games also have the Säcke)
    "king_call": ALL_BONUS_KEYS,
    "dreier": ALL_BONUS_KEYS - {"koenig_ultimo"},
    "colour": {"vier_koenige", "valat", "sack1", "sack2"},
    "negative": set(),
    "trischaken": set(),
}


def test_ruleset_identity(rs):
    assert rs.key == KEY
    assert rs.edition == "2019/20"  # HR "Context passed with a hand": current Tirol edition
    assert "2019/20" in rs.editions
    assert any(r.key == KEY for r in all_rulesets())


def test_contract_table(rs):
    """KR §4 contract table, S1 "Cup rules" table."""
    assert {c.key for c in rs.contracts} == set(TIROL_CONTRACTS)
    for key, (value, family, vorhand_only, solo) in TIROL_CONTRACTS.items():
        c = rs.contract(key)
        assert c.key == key
        assert c.value == value, key
        assert c.family == family, key
        assert bool(c.vorhand_only) == vorhand_only, key
        assert bool(c.solo) == solo, key
    assert rs.contract("sechserdreier").lost_factor == 2  # S1 §3 "points for going off are doubled"
    for key in set(TIROL_CONTRACTS) - {"sechserdreier"}:
        assert rs.contract(key).lost_factor == 1, key


@pytest.mark.parametrize("key", ["pagatrufer", "uhurufer", "zwiccolo", "koenigrufer", ""])
def test_unknown_contract_key(rs, key):
    """KR §4: no bird callers and no plain Zwiccolo in Tirol."""
    with pytest.raises(KeyError):
        rs.contract(key)


def test_bonus_table(rs):
    """KR §4 bonus list; Säcke announced-only (KR §4 Decision, S1 "–/2")."""
    assert {b.key for b in rs.bonuses} == ALL_BONUS_KEYS
    for b in rs.bonuses:
        silent, announced, kind = TIROL_BONUSES[b.key]
        assert b.silent == silent, b.key
        assert b.announced == announced, b.key
        assert b.kind == kind, b.key


@pytest.mark.parametrize("contract", sorted(TIROL_CONTRACTS))
def test_allowed_bonuses(rs, contract):
    """KR §1 "Bonuses allowed per contract family"; S1 §3 Farbenspiele "The only bonuses are Four
    Kings, Säcke and Valat"; S1 §4 "There are no bonuses in any negative contract"."""
    family = TIROL_CONTRACTS[contract][1]
    assert {b.key for b in rs.allowed_bonuses(contract)} == ALLOWED[family]


# --------------------------------------------------------------------------------------------------
# every contract won and lost, 4-table (dealer 3, Vorhand 0)
# --------------------------------------------------------------------------------------------------

CONTRACT_CASES = [
    # Rufer, KR §4 V=1; 2 vs 2 (KR §1 table): n = +1 / -1
    pytest.param(hand("rufer", 0, True, partner=2), 4, [1, -1, 1, -1],
                 id="KR4 rufer won, partner seat 2 (2v2, n=+1)"),
    pytest.param(hand("rufer", 0, False, partner=2), 4, [-1, 1, -1, 1],
                 id="KR4 rufer lost, partner seat 2 (2v2, n=-1)"),
    pytest.param(hand("rufer", 0, True, partner=1), 4, [1, 1, -1, -1],
                 id="KR4 rufer won, partner seat 1 (2v2, n=+1)"),
    # king in the talon: partner null -> 1 vs 3 (KR §1 table)
    pytest.param(hand("rufer", 0, True, partner=None), 4, [3, -1, -1, -1],
                 id="KR1 rufer won, king in talon (1v3, n=+1)"),
    pytest.param(hand("rufer", 0, False, partner=None), 4, [-3, 1, 1, 1],
                 id="KR1 rufer lost, king in talon (1v3, n=-1)"),
    pytest.param(hand("rufer", 0, True, partner=0), 4, [3, -1, -1, -1],
                 id="HR partner==declarer treated as null (1v3)"),
    # Solorufer, V=2
    pytest.param(hand("solorufer", 1, True, partner=3), 4, [-2, 2, -2, 2],
                 id="KR4 solorufer won 2v2 (n=+2)"),
    pytest.param(hand("solorufer", 1, False, partner=3), 4, [2, -2, 2, -2],
                 id="KR4 solorufer lost 2v2 (n=-2)"),
    pytest.param(hand("solorufer", 1, True, partner=None), 4, [-2, 6, -2, -2],
                 id="KR4 solorufer won, king in talon 1v3 (n=+2)"),
    # Besserrufer = Rufer 1 + announced bird as its own post (KR §1 "Bird callers and Besserrufer")
    pytest.param(hand("besserrufer", 2, True, partner=0, bonuses=[D("pagat")]), 4, [3, -3, 3, -3],
                 id="KR1 besserrufer won + announced pagat made (n=1+2)"),
    pytest.param(hand("besserrufer", 2, True, partner=0, bonuses=[D("pagat", made=False)]), 4,
                 [-1, 1, -1, 1], id="KR1 besserrufer won, pagat lost (n=1-2)"),
    pytest.param(hand("besserrufer", 2, False, partner=0, bonuses=[D("uhu")]), 4, [3, -3, 3, -3],
                 id="KR1 besserrufer lost, uhu made (n=-1+4)"),
    pytest.param(hand("besserrufer", 2, False, partner=0, bonuses=[D("uhu", made=False)]), 4,
                 [-5, 5, -5, 5], id="KR1 besserrufer lost, uhu lost (n=-1-4)"),
    pytest.param(hand("besserrufer", 1, True, partner=None, bonuses=[D("quapil")]), 4,
                 [-9, 27, -9, -9], id="KR1 besserrufer alone won + quapil made (1v3, n=1+8)"),
    # negative contracts, 1 vs 3 (KR §1 "Negative contracts")
    pytest.param(hand("piccolo", 1, True), 4, [-2, 6, -2, -2], id="KR4 piccolo won (V=2)"),
    pytest.param(hand("piccolo", 1, False), 4, [2, -6, 2, 2], id="KR4 piccolo lost (V=2)"),
    pytest.param(hand("bettler", 2, True), 4, [-4, -4, 12, -4], id="KR4 bettler won (V=4)"),
    pytest.param(hand("bettler", 2, False), 4, [4, 4, -12, 4], id="KR4 bettler lost (V=4)"),
    pytest.param(hand("zwiccolo_ouvert", 2, True), 4, [-8, -8, 24, -8],
                 id="KR4 zwiccolo_ouvert won (V=8)"),
    pytest.param(hand("zwiccolo_ouvert", 2, False), 4, [8, 8, -24, 8],
                 id="KR4 zwiccolo_ouvert lost (V=8)"),
    pytest.param(hand("piccolo_ouvert", 0, True), 4, [24, -8, -8, -8],
                 id="KR4 piccolo_ouvert won (V=8)"),
    pytest.param(hand("piccolo_ouvert", 0, False), 4, [-24, 8, 8, 8],
                 id="KR4 piccolo_ouvert lost (V=8)"),
    pytest.param(hand("bettler_ouvert", 1, True), 4, [-8, 24, -8, -8],
                 id="KR4 bettler_ouvert won (V=8)"),
    pytest.param(hand("bettler_ouvert", 1, False), 4, [8, -24, 8, 8],
                 id="KR4 bettler_ouvert lost (V=8)"),
    # Dreier family
    pytest.param(hand("sechserdreier", 0, True), 4, [12, -4, -4, -4],
                 id="KR4 sechserdreier won (V=4)"),
    pytest.param(hand("sechserdreier", 0, False), 4, [-24, 8, 8, 8],
                 id="KR4/S1-3 sechserdreier lost, game doubled (n=-8)"),
    pytest.param(hand("dreier", 3, True), 4, [-5, -5, -5, 15], id="KR4 dreier won by dealer (V=5)"),
    pytest.param(hand("dreier", 3, False), 4, [5, 5, 5, -15], id="KR4 dreier lost (V=5)"),
    pytest.param(hand("solodreier", 1, True), 4, [-10, 30, -10, -10], id="KR4 solodreier won (V=10)"),
    pytest.param(hand("solodreier", 1, False), 4, [10, -30, 10, 10], id="KR4 solodreier lost (V=10)"),
    # colour games
    pytest.param(hand("farbendreier", 1, True), 4, [-5, 15, -5, -5], id="KR4 farbendreier won (V=5)"),
    pytest.param(hand("farbendreier", 1, False), 4, [5, -15, 5, 5], id="KR4 farbendreier lost (V=5)"),
    pytest.param(hand("farbensolo", 2, True), 4, [-10, -10, 30, -10], id="KR4 farbensolo won (V=10)"),
    pytest.param(hand("farbensolo", 2, False), 4, [10, 10, -30, 10], id="KR4 farbensolo lost (V=10)"),
    # the HR example Dreier: 5 + Kakadu 6 + Quapil 8 = 19
    pytest.param({"dealer": 3, "contract": "dreier", "declarer": 1, "won": True,
                  "bonuses": [D("kakadu"), D("quapil")]}, 4, [-19, 57, -19, -19],
                 id="HR example dreier + announced kakadu + quapil"),
    # absent optional fields take their defaults (HR "Fields": bonuses [], partner null)
    pytest.param({"dealer": 3, "contract": "dreier", "declarer": 2, "won": True}, 4,
                 [-5, -5, 15, -5], id="HR defaults: no bonuses/partner fields"),
    # kontra is recorded but never counts (KR §1 "Tournament score = Schrift", S1 §7)
    pytest.param(hand("dreier", 2, True, kontra=2), 4, [-5, -5, 15, -5],
                 id="KR1 kontra field ignored"),
]


@pytest.mark.parametrize("h, size, expected", CONTRACT_CASES)
def test_contracts(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# 5-table: the dealer sits out and scores 0 (KR §1 "Table", HR "Seats")
# --------------------------------------------------------------------------------------------------

FIVE_CASES = [
    pytest.param({"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True,
                  "bonuses": []}, 5, [0, 1, -1, 1, -1], id="HR example rufer at 5 seats"),
    pytest.param(hand("dreier", 4, True, dealer=2), 5, [-5, -5, 0, -5, 15],
                 id="KR1 5-table dreier won, dealer 2 out"),
    pytest.param(hand("rufer", 0, True, dealer=4, partner=None), 5, [3, -1, -1, -1, 0],
                 id="KR1 5-table rufer alone, dealer 4 out, Vorhand wraps to 0"),
    pytest.param(hand("bettler", 3, False, dealer=1), 5, [4, 0, 4, -12, 4],
                 id="KR1 5-table bettler lost, dealer 1 out"),
    pytest.param(hand("solorufer", 2, True, dealer=3, partner=0), 5, [2, -2, 2, 0, -2],
                 id="KR1 5-table solorufer 2v2, dealer 3 out"),
    pytest.param(hand("sechserdreier", 0, False, dealer=4), 5, [-24, 8, 8, 8, 0],
                 id="KR1 5-table sechserdreier lost -8"),
    # Farbensolo 10, opponents' announced Vier Könige x2 = -4: n = 6
    pytest.param(hand("farbensolo", 0, True, dealer=2, bonuses=[O("vier_koenige")]), 5,
                 [18, -6, 0, -6, -6], id="KR1 5-table farbensolo, opp vier_koenige doubled (n=6)"),
    pytest.param({"dealer": 2, "contract": "trischaken", "declarer": 3,
                  "card_points": {"0": "30/0", "1": "20/0", "3": "12/0", "4": "8/0"}}, 5,
                 [-2, -2, 0, 2, 2], id="HR example trischaken at 5 (KR4.2 step 4 normal case)"),
    pytest.param({"dealer": 2, "contract": "trischaken", "declarer": 3,
                  "card_points": {"0": 10, "1": 20, "3": 30, "4": 10}}, 5,
                 [2, 2, 0, -6, 2], id="KR4.2 step 2 5-table Vorhand (seat 3) most pays 6"),
    pytest.param({"dealer": 0, "contract": "trischaken",
                  "card_points": {"1": 20, "2": 20, "3": 20, "4": 10}, "revoke": 3}, 5,
                 [0, 4, 4, -12, 4], id="KR4.2 step 1 5-table trischaken renonce"),
    pytest.param(hand("rufer", 2, False, dealer=1, partner=None, conceded=True), 5,
                 [1, 0, -3, 1, 1], id="KR1 5-table rufer conceded"),
    pytest.param(hand("dreier", 2, True, dealer=0, revoke=4), 5, [0, 5, 15, 5, -25],
                 id="KR1 5-table renonce in dreier by seat 4"),
    pytest.param({"dealer": 0, "outcome": "struck"}, 5, [0, 0, 0, 0, 0], id="KR1 5-table struck"),
    pytest.param({"dealer": 0, "outcome": "manual", "scores": [0, 4, -2, -1, -1]}, 5,
                 [0, 4, -2, -1, -1], id="HR 5-table manual row"),
]


@pytest.mark.parametrize("h, size, expected", FIVE_CASES)
def test_five_table(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# every bonus: silent/announced, made/failed, each team (KR §1 bonus post + Decision)
# Base: Rufer won, dealer 3, declarer 0 (Vorhand), partner 2 -> game +1, row [n, -n, n, -n].
# --------------------------------------------------------------------------------------------------

# (bonus, team, announced, made, n)  with n = 1 (game) +/- the bonus value, worked out by hand
BONUS_MATRIX = [
    # pagat 1/2
    ("pagat", "declarer", False, True, 2),
    ("pagat", "declarer", False, False, 0),   # silent bird failed -> opponents get s=1
    ("pagat", "declarer", True, True, 3),
    ("pagat", "declarer", True, False, -1),
    ("pagat", "opponents", False, True, 0),
    ("pagat", "opponents", False, False, 2),  # opponents' silent bird beaten -> declarer side +1
    ("pagat", "opponents", True, True, -1),
    ("pagat", "opponents", True, False, 3),
    # uhu 2/4
    ("uhu", "declarer", False, True, 3),
    ("uhu", "declarer", False, False, -1),
    ("uhu", "declarer", True, True, 5),
    ("uhu", "declarer", True, False, -3),
    ("uhu", "opponents", False, True, -1),
    ("uhu", "opponents", False, False, 3),
    ("uhu", "opponents", True, True, -3),
    ("uhu", "opponents", True, False, 5),
    # kakadu 3/6
    ("kakadu", "declarer", False, True, 4),
    ("kakadu", "declarer", False, False, -2),
    ("kakadu", "declarer", True, True, 7),
    ("kakadu", "declarer", True, False, -5),
    ("kakadu", "opponents", False, True, -2),
    ("kakadu", "opponents", False, False, 4),
    ("kakadu", "opponents", True, True, -5),
    ("kakadu", "opponents", True, False, 7),
    # quapil 4/8
    ("quapil", "declarer", False, True, 5),
    ("quapil", "declarer", False, False, -3),
    ("quapil", "declarer", True, True, 9),
    ("quapil", "declarer", True, False, -7),
    ("quapil", "opponents", False, True, -3),
    ("quapil", "opponents", False, False, 5),
    ("quapil", "opponents", True, True, -7),
    ("quapil", "opponents", True, False, 9),
    # koenig_ultimo 1/2 (fails silently like a bird, KR §1 Decision)
    ("koenig_ultimo", "declarer", False, True, 2),
    ("koenig_ultimo", "declarer", False, False, 0),
    ("koenig_ultimo", "declarer", True, True, 3),
    ("koenig_ultimo", "declarer", True, False, -1),
    ("koenig_ultimo", "opponents", False, True, 0),
    ("koenig_ultimo", "opponents", False, False, 2),
    ("koenig_ultimo", "opponents", True, True, -1),
    ("koenig_ultimo", "opponents", True, False, 3),
    # mondfang 1/2 (cannot fail silently)
    ("mondfang", "declarer", False, True, 2),
    ("mondfang", "declarer", True, True, 3),
    ("mondfang", "declarer", True, False, -1),
    ("mondfang", "opponents", False, True, 0),
    ("mondfang", "opponents", True, True, -1),
    ("mondfang", "opponents", True, False, 3),
    # vier_koenige 1/2
    ("vier_koenige", "declarer", False, True, 2),
    ("vier_koenige", "declarer", True, True, 3),
    ("vier_koenige", "declarer", True, False, -1),
    ("vier_koenige", "opponents", False, True, 0),
    ("vier_koenige", "opponents", True, True, -1),
    ("vier_koenige", "opponents", True, False, 3),
    # trull 1/2
    ("trull", "declarer", False, True, 2),
    ("trull", "declarer", True, True, 3),
    ("trull", "declarer", True, False, -1),
    ("trull", "opponents", False, True, 0),
    ("trull", "opponents", True, True, -1),
    ("trull", "opponents", True, False, 3),
    # sack1 -/2, sack2 -/2 (announced only)
    ("sack1", "declarer", True, True, 3),
    ("sack1", "declarer", True, False, -1),
    ("sack1", "opponents", True, True, -3),  # opponents with 45+ points: the Rufer is lost, -1 - 2
    ("sack1", "opponents", True, False, 3),
    ("sack2", "declarer", True, True, 3),
    ("sack2", "declarer", True, False, -1),
    ("sack2", "opponents", True, True, -3),
    ("sack2", "opponents", True, False, 3),
    # valat 10/20 (game post stays: "Valat is added to the score for game", KR §4.1)
    ("valat", "declarer", False, True, 11),
    ("valat", "declarer", True, True, 21),
    ("valat", "declarer", True, False, -19),
    ("valat", "opponents", True, False, 21),
]


def _bonus_id(p):
    key, team, announced, made, n = p
    return (f"KR1 rufer+{key} {team} {'announced' if announced else 'silent'} "
            f"{'made' if made else 'failed'} n={n}")


@pytest.mark.parametrize("key, team, announced, made, n", BONUS_MATRIX,
                         ids=[_bonus_id(p) for p in BONUS_MATRIX])
def test_bonus_matrix_rufer_2v2(rs, key, team, announced, made, n):
    # The Rufer is won, except where the opponents made a Sack (KR §4: at least 45 and 2 Blatt
    # leaves the declarer's team 24⅓ at most, so the game is lost).
    won = not (key in ("sack1", "sack2") and team == "opponents" and made)
    h = hand("rufer", 0, won, partner=2, bonuses=[B(key, team, announced, made)])
    check_row(rs, h, 4, [n, -n, n, -n])


BONUS_CASES = [
    # 1 vs 3, Dreier declarer 1 (dealer 3), game 5
    pytest.param(hand("dreier", 1, True, bonuses=[O("pagat")]), 4, [-3, 9, -3, -3],
                 id="KR1 dreier, opp announced pagat made (n=5-2)"),
    pytest.param(hand("dreier", 1, True, bonuses=[D("trull", announced=False)]), 4,
                 [-6, 18, -6, -6], id="KR1 dreier, silent trull declarer (n=5+1)"),
    pytest.param(hand("dreier", 1, True, bonuses=[O("quapil", announced=False, made=False)]), 4,
                 [-9, 27, -9, -9], id="KR1 Decision dreier, opp silent quapil beaten (n=5+4)"),
    pytest.param(hand("dreier", 1, True, bonuses=[D("uhu", announced=False, made=False)]), 4,
                 [-3, 9, -3, -3], id="KR1 Decision dreier, own silent uhu beaten (n=5-2)"),
    pytest.param(hand("dreier", 1, True, bonuses=[O("sack1", made=False)]), 4, [-7, 21, -7, -7],
                 id="KR1 dreier, opp announced sack1 failed (n=5+2)"),
    pytest.param(hand("dreier", 1, True, bonuses=[O("mondfang", announced=False)]), 4,
                 [-4, 12, -4, -4], id="KR1 dreier, opp silent mondfang (n=5-1)"),
    pytest.param(hand("dreier", 1, False, bonuses=[D("kakadu")]), 4, [-1, 3, -1, -1],
                 id="KR1 dreier lost, announced kakadu made (n=-5+6)"),
    pytest.param(hand("dreier", 1, True, bonuses=[
        D("pagat"), O("trull", announced=False), D("uhu", announced=False, made=False),
        O("kakadu", made=False)]), 4, [-10, 30, -10, -10],
        id="KR1 dreier, four posts (n=5+2-1-2+6)"),
    # lost game, own silent bird made: n = -1 + 1 = 0
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[D("pagat", announced=False)]), 4,
                 [0, 0, 0, 0], id="KR1 rufer lost + silent pagat (n=0)"),
    pytest.param(hand("rufer", 0, True, partner=None, bonuses=[D("pagat", announced=False)]), 4,
                 [6, -2, -2, -2], id="KR1 rufer alone + silent pagat (1v3, n=2)"),
    # colour games: vier_koenige, säcke, valat allowed (S1 §3 Farbenspiele)
    pytest.param(hand("farbendreier", 1, False, bonuses=[D("vier_koenige"), O("sack1")]), 4,
                 [5, -15, 5, 5], id="KR1 farbendreier lost + vier_koenige - opp sack1 (n=-5+2-2)"),
    pytest.param(hand("farbendreier", 1, True, bonuses=[D("sack2")]), 4, [-7, 21, -7, -7],
                 id="KR4 farbendreier + sack2 (n=5+2)"),
    # solo doubling (KR §1, S1 §3 "All bonuses score double (including Valat)")
    pytest.param(hand("solorufer", 1, True, partner=3, bonuses=[D("pagat")]), 4, [-6, 6, -6, 6],
                 id="KR1 solo x2 solorufer + announced pagat (n=2+4)"),
    pytest.param(hand("solorufer", 1, True, partner=3,
                      bonuses=[O("uhu", announced=False, made=False)]), 4, [-6, 6, -6, 6],
                 id="KR1 solo x2 solorufer, opp silent uhu beaten (n=2+4)"),
    pytest.param(hand("solorufer", 1, True, partner=3, bonuses=[D("koenig_ultimo", made=False)]),
                 4, [2, -2, 2, -2], id="KR1 solo x2 solorufer, announced koenig_ultimo failed (n=2-4)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[O("uhu", announced=False)]), 4,
                 [-6, 18, -6, -6], id="KR1 solo x2 solodreier, opp silent uhu (n=10-4)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("mondfang"), D("trull", announced=False)]),
                 4, [-16, 48, -16, -16], id="KR1 solo x2 solodreier mondfang+trull (n=10+4+2)"),
    pytest.param(hand("farbensolo", 1, True, bonuses=[D("vier_koenige")]), 4, [-14, 42, -14, -14],
                 id="KR1 solo x2 farbensolo + announced vier_koenige (n=10+4)"),
    pytest.param(hand("farbensolo", 2, True, bonuses=[D("sack2", made=False)]), 4,
                 [-6, -6, 18, -6], id="KR1 solo x2 farbensolo, announced sack2 failed (n=10-4)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat", announced=False)]), 4,
                 [-30, 90, -30, -30], id="KR1/S1-3 solo x2 silent valat (n=10+20)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat")]), 4, [-50, 150, -50, -50],
                 id="KR1/S1-3 solo x2 announced valat (n=10+40)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat", made=False)]), 4,
                 [30, -90, 30, 30], id="KR4.1 solo x2 announced valat failed, game won (n=10-40)"),
    pytest.param(hand("solodreier", 1, False, bonuses=[D("valat", made=False),
                                                       D("pagat", announced=False)]), 4,
                 [48, -144, 48, 48], id="KR4.1 solo x2 valat failed, game lost, pagat (n=-10-40+2)"),
    pytest.param(hand("solorufer", 1, False, partner=3, bonuses=[O("valat")]), 4,
                 [42, -42, 42, -42], id="KR1 solo x2 opp announced valat (n=-2-40)"),
    # Sechserdreier lost: only the game is doubled (S1 §3 "points for game only")
    pytest.param(hand("sechserdreier", 0, False, bonuses=[D("trull")]), 4, [-18, 6, 6, 6],
                 id="KR1 sechserdreier lost -8, announced trull made not doubled (n=-8+2)"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[O("pagat", announced=False)]), 4,
                 [-27, 9, 9, 9], id="KR1 sechserdreier lost -8, opp silent pagat (n=-8-1)"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[D("kakadu", made=False)]), 4,
                 [-42, 14, 14, 14], id="KR1 sechserdreier lost -8, kakadu failed -6 (n=-14)"),
    pytest.param(hand("sechserdreier", 0, True, bonuses=[D("kakadu", announced=False)]), 4,
                 [21, -7, -7, -7], id="KR1 sechserdreier won + silent kakadu (n=4+3)"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[O("valat", announced=False)]), 4,
                 [-54, 18, 18, 18], id="KR1 sechserdreier lost, opp silent valat (n=-8-10)"),
]


@pytest.mark.parametrize("h, size, expected", BONUS_CASES)
def test_bonuses(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# Valat (KR §4.1, S1 §5)
# --------------------------------------------------------------------------------------------------

VALAT_CASES = [
    # Rufer won, declarer 0, partner 2: 2v2 [n, -n, n, -n]
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("trull", announced=False),
                                                             D("vier_koenige")]), 4,
                 [21, -21, 21, -21],
                 id="KR4.1 valat made: silent trull and announced vier_koenige score nothing (n=1+20)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat", announced=False),
                                                             D("trull"), D("sack1"), D("sack2")]), 4,
                 [11, -11, 11, -11],
                 id="KR4.1 silent valat made: announced trull, sack1, sack2 score nothing (n=1+10)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat"), O("trull", made=False)]), 4,
                 [21, -21, 21, -21],
                 id="KR4.1 Decision valat made: opp announced trull failed scores nothing (n=1+20)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("pagat", announced=False), D("uhu")]), 4,
        [16, -16, 16, -16], id="KR4.1 valat made, trick bonuses still score (n=1+10+1+4)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat"), D("mondfang", announced=False), D("koenig_ultimo", announced=False),
        D("vier_koenige", announced=False)]), 4,
        [23, -23, 23, -23], id="KR4.1 valat made + silent mondfang + koenig_ultimo, vier_koenige 0 (n=1+20+1+1)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("pagat", made=False)]), 4,
        [9, -9, 9, -9], id="KR4.1 valat made, announced pagat failed still counts (n=1+10-2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat"), O("pagat", made=False)]), 4,
                 [23, -23, 23, -23], id="KR4.1 valat made, opp announced pagat failed (n=1+20+2)"),
    # announced Valat failed: game and all other bonuses score normally
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", made=False), D("trull"), D("pagat", announced=False)]), 4,
        [-16, 16, -16, 16], id="KR4.1 announced valat failed, trull+pagat score (n=1-20+2+1)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[D("valat", made=False)]), 4,
                 [-21, 21, -21, 21], id="KR4.1 announced valat failed, game lost (n=-1-20)"),
    pytest.param(hand("rufer", 0, True, partner=None, bonuses=[
        D("valat", made=False), O("vier_koenige", announced=False)]), 4,
        [-60, 20, 20, 20], id="KR4.1 valat failed 1v3, opp silent vier_koenige counts (n=1-20-1)"),
    # Valat by the opponents (won: false)
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat", announced=False)]), 4,
                 [-11, 11, -11, 11], id="KR4.1 opp silent valat (n=-1-10)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat")]), 4,
                 [-21, 21, -21, 21], id="KR4.1 opp announced valat (n=-1-20)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat", announced=False),
                                                              O("trull", announced=False)]), 4,
                 [-11, 11, -11, 11], id="KR4.1 opp valat, their silent trull scores nothing (n=-1-10)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat", announced=False),
                                                              D("pagat", made=False)]), 4,
                 [-13, 13, -13, 13], id="KR4.1 opp valat, declarer's announced pagat failed (n=-1-10-2)"),
    pytest.param(hand("dreier", 1, False, bonuses=[O("valat"), O("mondfang", announced=False)]), 4,
                 [26, -78, 26, 26], id="KR4.1 opp valat vs dreier + their mondfang (n=-5-20-1)"),
    # 1 vs 3 contracts
    pytest.param(hand("dreier", 1, True, bonuses=[D("valat")]), 4, [-25, 75, -25, -25],
                 id="KR4.1 dreier + announced valat (n=5+20)"),
    pytest.param(hand("farbendreier", 1, True, bonuses=[D("valat", announced=False),
                                                         D("vier_koenige")]), 4,
                 [-15, 45, -15, -15], id="KR4.1 farbendreier silent valat, vier_koenige 0 (n=5+10)"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[D("valat", made=False)]), 4,
                 [-84, 28, 28, 28], id="KR4.1/S1-3 sechserdreier lost: game -8, valat -20 not doubled"),
]


@pytest.mark.parametrize("h, size, expected", VALAT_CASES)
def test_valat(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# Trischaken (KR §4.2), 4-table, dealer 3, Vorhand = seat 0 declares
# Thirds: "P/B" = 3P + B; the pack is 210 thirds. Mayor: at least "35/2" = 107 thirds.
# --------------------------------------------------------------------------------------------------

TRISCH_CASES = [
    # step 4 normal case: top two pay 2, bottom two receive 2
    pytest.param(trisch4("12/0", "30/0", "20/0", "8/0"), 4, [2, -2, -2, 2],
                 id="KR4.2 step 4 normal case"),
    pytest.param(trisch4(12, 30, 20, 8), 4, [2, -2, -2, 2], id="HR card points as ints"),
    pytest.param(trisch4("12", "30", "20", "8"), 4, [2, -2, -2, 2], id="HR card points as '30' strings"),
    pytest.param(trisch4("12", 30, "20/0", 8), 4, [2, -2, -2, 2], id="HR card points mixed notations"),
    pytest.param(trisch4(12, 30, 20, 8, declarer=None), 4, [2, -2, -2, 2],
                 id="HR trischaken declarer null"),
    pytest.param({"dealer": 3, "contract": "trischaken",
                  "card_points": {"0": 12, "1": 30, "2": 20, "3": 8}}, 4, [2, -2, -2, 2],
                 id="HR trischaken declarer omitted"),
    # ties (step 4: equal points share the amounts of their places)
    pytest.param(trisch4(12, 25, 25, 8), 4, [2, -2, -2, 2], id="KR4.2 step 4 top-two tie"),
    pytest.param(trisch4(10, 30, 15, 15), 4, [2, -2, 0, 0], id="KR4.2 step 4 middle tie gives 0/0"),
    pytest.param(trisch4(10, 30, 20, 10), 4, [2, -2, -2, 2], id="KR4.2 step 4 bottom tie"),
    pytest.param(trisch4(10, 25, 25, 10), 4, [2, -2, -2, 2], id="KR4.2 step 4 top and bottom ties"),
    # the Blatt decides: 20/1 (61 thirds) beats 20/0 (60): no middle tie. 83+61+60+6 = 210
    pytest.param(trisch4("2/0", "27/2", "20/1", "20/0"), 4, [2, -2, -2, 2],
                 id="KR4.2/HR Blatt breaks a middle tie"),
    # a non-Vorhand mayor near the boundary: 35/1 is not a mayor -> normal case. 60+106+30+14
    pytest.param(trisch4("20/0", "35/1", "10/0", "4/2"), 4, [-2, -2, 2, 2],
                 id="KR4.2 step 4 non-Vorhand 35/1 is not a mayor"),
    # step 2: non-Vorhand mayor (>= 35/2) is sole loser, pays 6 to the three others. 60+107+30+13
    pytest.param(trisch4("20/0", "35/2", "10/0", "4/1"), 4, [2, -6, 2, 2],
                 id="KR4.2 step 2 non-Vorhand mayor 35/2 pays 6"),
    pytest.param(trisch4(20, 40, 5, 5), 4, [2, -6, 2, 2], id="KR4.2 step 2 non-Vorhand mayor 40 pays 6"),
    # step 2: Vorhand most (alone or tied) is sole loser
    pytest.param(trisch4(30, 20, 12, 8), 4, [-6, 2, 2, 2], id="KR4.2 step 2 Vorhand most alone pays 6"),
    pytest.param(trisch4(25, 25, 12, 8), 4, [-6, 2, 2, 2], id="KR4.2 step 2 Vorhand tied for most pays 6"),
    pytest.param(trisch4(20, 20, 20, 10), 4, [-6, 2, 2, 2],
                 id="KR4.2 step 2 Vorhand in a three-way tie for most is sole loser (no thirds)"),
    pytest.param(trisch4("35/2", "20/0", "10/0", "4/1"), 4, [-12, 4, 4, 4],
                 id="KR4.2 step 2 Vorhand mayor 35/2 pays 12"),
    pytest.param(trisch4("35/1", "20/0", "10/0", "4/2"), 4, [-6, 2, 2, 2],
                 id="KR4.2 step 2 Vorhand 35/1 not mayor pays 6"),
    pytest.param(trisch4("35/2", "34/1", 0, 0), 4, [-12, 0, 6, 6],
                 id="KR4.2 step 2 Vorhand mayor pays 12 to two Jungfrauen"),
    pytest.param(trisch4(70, 0, 0, 0), 4, [-12, 4, 4, 4],
                 id="KR4.2 step 2 Vorhand mayor all 70, three Jungfrauen get 4 each"),
    # step 2 with Jungfrauen: the payment goes to them only
    pytest.param(trisch4(40, 20, 10, 0), 4, [-12, 0, 0, 12],
                 id="KR4.2 step 2 Vorhand mayor pays 12 to the Jungfrau"),
    pytest.param(trisch4(30, 25, 15, 0), 4, [-6, 0, 0, 6],
                 id="KR4.2 step 2 Vorhand most (no mayor) pays 6 to the Jungfrau"),
    pytest.param(trisch4(20, 40, 10, 0), 4, [0, -6, 0, 6],
                 id="KR4.2 step 2 non-Vorhand mayor pays 6 to the Jungfrau"),
    pytest.param(trisch4(35, 35, 0, 0), 4, [-6, 0, 3, 3],
                 id="KR4.2 step 2 Vorhand tied 35/0 (no mayor) pays 6 to two Jungfrauen"),
    pytest.param(trisch4(30, 40, 0, 0), 4, [0, -6, 3, 3],
                 id="KR4.2 step 2 non-Vorhand mayor pays 6 to two Jungfrauen"),
    pytest.param(trisch4(0, 70, 0, 0), 4, [2, -6, 2, 2],
                 id="KR4.2 step 2 non-Vorhand mayor all 70, three Jungfrauen 2 each"),
    # step 3: Jungfrau without a sole loser
    pytest.param(trisch4(15, 30, 25, 0), 4, [-2, -2, -2, 6],
                 id="KR4.2 step 3 Jungfrau without sole loser gets 2 from each"),
    pytest.param(trisch4(0, 30, 25, 15), 4, [6, -2, -2, -2],
                 id="KR4.2 step 3 Vorhand is the Jungfrau"),
    pytest.param(trisch4(0, "23/1", "23/1", "23/1"), 4, [6, -2, -2, -2],
                 id="KR4.2 step 3 Jungfrau with three-way tie (no thirds)"),
    # two Jungfrauen, no sole loser: 35/1 = 106 thirds, 34/2 = 104 thirds
    pytest.param(trisch4(0, "35/1", "34/2", 0), 4, [4, -4, -4, 4],
                 id="KR4.2 step 3 two Jungfrauen without sole loser"),
    pytest.param(trisch4(0, 35, 35, 0), 4, [4, -4, -4, 4],
                 id="KR4.2 step 3 two Jungfrauen, 35/35 tie"),
    # step 1: Renonce overrides everything
    pytest.param(trisch4(12, 30, 20, 8, revoke=2), 4, [4, 4, -12, 4], id="KR4.2 step 1 renonce"),
    pytest.param(trisch4(40, 30, 0, 0, revoke=0), 4, [-12, 4, 4, 4],
                 id="KR4.2 step 1 renonce by Vorhand mayor"),
]


@pytest.mark.parametrize("h, size, expected", TRISCH_CASES)
def test_trischaken(rs, h, size, expected):
    check_row(rs, h, size, expected)


@pytest.mark.parametrize("h", [
    # places 1-3 tied at 20: (-2 -2 +2) / 3 each -> thirds
    pytest.param(trisch4(10, 20, 20, 20), id="KR4.2 step 4 three-way tie at the top"),
    # places 2-4 tied at 13/0: (-2 +2 +2) / 3 each -> thirds; 31/0 is not a mayor
    pytest.param(trisch4(13, 31, 13, 13), id="KR4.2 step 4 three-way tie at the bottom"),
])
def test_trischaken_three_way_tie_needs_manual_row(rs, h):
    """KR §4.2 step 4, HR "The score row": thirds -> the hand needs a manual row."""
    assert_invalid(rs, h, 4, "manual")


# --------------------------------------------------------------------------------------------------
# Renonce (KR §1, S1 §6)
# --------------------------------------------------------------------------------------------------

RENONCE_CASES = [
    # Dreier (1v3), an opponent revokes: declarer 3x5, others 1x5, offender pays the sum (W20 example)
    pytest.param(hand("dreier", 1, True, revoke=2), 4, [5, 15, -25, 5],
                 id="KR1 renonce dreier, opponent revokes (+15/+5/+5/-25)"),
    pytest.param(hand("dreier", 1, False, revoke=2), 4, [5, 15, -25, 5],
                 id="KR1 renonce dreier, won ignored"),
    # A = announced pagat (declarer) 2 + announced trull (opponents) 2 = 4; silent uhu ignored
    pytest.param(hand("dreier", 1, True, revoke=0, bonuses=[
        D("pagat", made=False), O("trull"), D("uhu", announced=False)]), 4,
        [-45, 27, 9, 9], id="KR1 renonce dreier with announced bonuses of both sides (V+A=9)"),
    pytest.param(hand("dreier", 1, True, revoke=1), 4, [5, -15, 5, 5],
                 id="KR1 renonce dreier, declarer revokes"),
    # Rufer with partner (2v2): declarer revokes and pays his partner too
    pytest.param(hand("rufer", 0, True, partner=2, revoke=0), 4, [-3, 1, 1, 1],
                 id="KR1 renonce rufer, declarer revokes, pays partner too"),
    pytest.param(hand("rufer", 0, True, partner=2, revoke=0, bonuses=[D("uhu"), O("pagat")]), 4,
                 [-21, 7, 7, 7], id="KR1 renonce rufer by declarer, A=4+2 (V+A=7)"),
    pytest.param(hand("rufer", 0, True, partner=2, revoke=1), 4, [1, -3, 1, 1],
                 id="KR1 renonce rufer 2v2, opponent revokes (declarer gets 1x)"),
    pytest.param(hand("rufer", 0, True, partner=2, revoke=2), 4, [1, 1, -3, 1],
                 id="KR1 renonce rufer 2v2, partner revokes"),
    pytest.param(hand("rufer", 0, True, partner=None, revoke=3), 4, [3, 1, 1, -5],
                 id="KR1 renonce rufer alone, opponent revokes (declarer 3x)"),
    pytest.param(hand("besserrufer", 1, True, partner=3, revoke=2, bonuses=[D("kakadu")]), 4,
                 [7, 7, -21, 7], id="KR1 renonce besserrufer, bird counts in A (V+A=1+6)"),
    # solo doubling applies to A
    pytest.param(hand("solodreier", 1, True, revoke=0, bonuses=[D("pagat")]), 4,
                 [-70, 42, 14, 14], id="KR1 renonce solodreier, A=2x2 (V+A=14)"),
    pytest.param(hand("solorufer", 1, True, partner=3, revoke=0, bonuses=[D("valat", made=False)]),
                 4, [-126, 42, 42, 42], id="KR1 renonce solorufer 2v2, announced valat x2 (V+A=42)"),
    # Sechserdreier: V=4 (the doubling is for going off only)
    pytest.param(hand("sechserdreier", 0, False, revoke=1), 4, [12, -20, 4, 4],
                 id="KR1 renonce sechserdreier, V=4"),
    # negative contracts
    pytest.param(hand("bettler", 2, False, revoke=2), 4, [4, 4, -12, 4],
                 id="KR1 renonce bettler, declarer revokes"),
    pytest.param(hand("bettler", 2, True, revoke=0), 4, [-20, 4, 12, 4],
                 id="KR1 renonce bettler, opponent revokes"),
    # revoke overrides conceded
    pytest.param(hand("rufer", 0, False, partner=None, conceded=True, revoke=2), 4, [3, 1, -5, 1],
                 id="KR1 revoke overrides conceded (opponent revokes)"),
    pytest.param(hand("rufer", 0, False, partner=None, conceded=True, revoke=0), 4, [-3, 1, 1, 1],
                 id="KR1 revoke overrides conceded (declarer revokes)"),
]


@pytest.mark.parametrize("h, size, expected", RENONCE_CASES)
def test_renonce(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# Conceding (schleifen), KR §1
# --------------------------------------------------------------------------------------------------

CONCEDE_CASES = [
    pytest.param(hand("rufer", 0, False, partner=None, conceded=True), 4, [-3, 1, 1, 1],
                 id="KR1 rufer conceded 1v3 (n=-1)"),
    pytest.param(hand("rufer", 0, True, partner=None, conceded=True), 4, [-3, 1, 1, 1],
                 id="KR1 rufer conceded, won ignored"),
    pytest.param(hand("rufer", 0, False, partner=0, conceded=True), 4, [-3, 1, 1, 1],
                 id="KR1/HR rufer conceded, partner==declarer"),
    pytest.param(hand("besserrufer", 1, False, partner=None, conceded=True, bonuses=[D("uhu")]), 4,
                 [5, -15, 5, 5], id="KR1 besserrufer conceded n=-(1+4)"),
    pytest.param(hand("besserrufer", 1, True, partner=None, conceded=True,
                      bonuses=[D("quapil", made=False)]), 4,
                 [9, -27, 9, 9], id="KR1 besserrufer conceded n=-(1+8), bird made ignored"),
]


@pytest.mark.parametrize("h, size, expected", CONCEDE_CASES)
def test_conceded(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# struck and manual hands (KR §1 "Struck hand", HR "Fields"/"The score row")
# --------------------------------------------------------------------------------------------------

OUTCOME_CASES = [
    pytest.param({"dealer": 3, "outcome": "struck"}, 4, [0, 0, 0, 0], id="KR1 struck hand"),
    pytest.param({"dealer": 3, "outcome": "struck", "contract": "dreier", "declarer": 1,
                  "won": True, "note": "sheet unreadable"}, 4, [0, 0, 0, 0],
                 id="KR1 struck hand with contract data"),
    pytest.param({"dealer": 3, "outcome": "manual", "scores": [5, -3, -1, -1]}, 4, [5, -3, -1, -1],
                 id="HR manual row returned as given"),
    pytest.param({"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]}, 4, [0, 0, 0, 0],
                 id="HR manual zero row"),
    # KR §4.2 step 4: a three-way tie goes to a manual row agreed by the director
    pytest.param({"dealer": 3, "outcome": "manual", "contract": "trischaken",
                  "scores": [3, -1, -1, -1]}, 4, [3, -1, -1, -1], id="KR4.2 manual row for a trischaken tie"),
]


@pytest.mark.parametrize("h, size, expected", OUTCOME_CASES)
def test_outcomes(rs, h, size, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# validation messages (KR §1 "Validation", HR)
# --------------------------------------------------------------------------------------------------

INVALID_CASES = [
    # contract
    pytest.param(hand("foo", 1), 4, ("contract", "foo"), id="unknown contract"),
    pytest.param(hand("pagatrufer", 1, bonuses=[D("pagat")]), 4, ("contract", "pagatrufer"),
                 id="KR4 WTC-only contract pagatrufer"),
    pytest.param({"dealer": 3, "declarer": 1, "won": True}, 4, ("contract",), id="contract missing"),
    # Vorhand-only (KR §4 *): dealer 3 -> Vorhand 0
    pytest.param(hand("rufer", 1, partner=2), 4, ("vorhand",), id="KR4 rufer by non-Vorhand"),
    pytest.param(hand("sechserdreier", 2), 4, ("vorhand",), id="KR4 sechserdreier by non-Vorhand"),
    pytest.param(trisch4(12, 30, 20, 8, declarer=2), 4, ("vorhand",),
                 id="KR4/HR trischaken declared by non-Vorhand"),
    pytest.param(hand("rufer", 1, dealer=4, partner=2), 5, ("vorhand",),
                 id="KR4 5-table rufer by seat 1, Vorhand is 0"),
    # partner
    pytest.param(hand("dreier", 1, partner=2), 4, ("partner",), id="KR1 partner in a dreier"),
    pytest.param(hand("bettler", 1, partner=2), 4, ("partner",), id="KR1 partner in a bettler"),
    pytest.param(hand("farbensolo", 1, partner=2), 4, ("partner",), id="KR1 partner in a farbensolo"),
    pytest.param(hand("rufer", 1, dealer=0, partner=0), 5, ("partner", "sit", "out"),
                 id="KR1 partner is the sitting-out dealer"),
    pytest.param(hand("rufer", 0, partner=4), 4, ("partner", "seat"), id="partner seat out of range"),
    # declarer
    pytest.param(hand("dreier", 0, dealer=0), 5, ("declarer", "sit", "out"),
                 id="KR1 sitting-out dealer as declarer"),
    pytest.param(hand("dreier", 4), 4, ("declarer", "seat"), id="declarer seat out of range"),
    pytest.param({"dealer": 3, "contract": "dreier", "won": True}, 4, ("declarer",),
                 id="declarer missing"),
    # won
    pytest.param({"dealer": 3, "contract": "dreier", "declarer": 1}, 4, ("won",), id="missing won"),
    pytest.param({"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2}, 4, ("won",),
                 id="missing won in rufer"),
    # bonuses not allowed for the contract (KR §1 table, S1 §3/§4)
    pytest.param(hand("dreier", 1, bonuses=[D("koenig_ultimo")]), 4, ("koenig_ultimo", "ultimo", "könig", "allowed"),
                 id="KR1 koenig_ultimo in a dreier"),
    pytest.param(hand("solodreier", 1, bonuses=[D("koenig_ultimo", announced=False)]), 4,
                 ("koenig_ultimo", "ultimo", "könig", "allowed"), id="KR1 koenig_ultimo in a solodreier"),
    pytest.param(hand("piccolo", 1, bonuses=[D("trull", announced=False)]), 4,
                 ("trull", "bonus", "allowed"), id="KR1/S1-4 any bonus in piccolo (trull)"),
    pytest.param(hand("bettler_ouvert", 1, bonuses=[O("pagat")]), 4,
                 ("pagat", "bonus", "allowed"), id="KR1/S1-4 any bonus in bettler_ouvert (pagat)"),
    pytest.param(hand("zwiccolo_ouvert", 1, bonuses=[D("valat")]), 4,
                 ("valat", "bonus", "allowed"), id="KR1/S1-4 valat in zwiccolo_ouvert"),
    pytest.param(hand("farbendreier", 1, bonuses=[D("pagat")]), 4,
                 ("pagat", "bonus", "allowed"), id="KR1/S1-3 pagat in a farbendreier"),
    pytest.param(hand("farbendreier", 1, bonuses=[D("trull")]), 4,
                 ("trull", "bonus", "allowed"), id="KR1/S1-3 trull in a farbendreier"),
    pytest.param(hand("farbensolo", 1, bonuses=[O("mondfang", announced=False)]), 4,
                 ("mondfang", "bonus", "allowed"), id="KR1/S1-3 mondfang in a farbensolo"),
    pytest.param(trisch4(12, 30, 20, 8, partner=1), 4, ("partner",),
                 id="HR partner seat in trischaken (not a king call)"),
    pytest.param(trisch4(12, 30, 20, 8, bonuses=[D("pagat")]), 4,
                 ("pagat", "bonus", "allowed"), id="KR1 bonus in trischaken"),
    pytest.param(hand("dreier", 1, bonuses=[D("absolut")]), 4, ("absolut", "bonus"),
                 id="unknown bonus key"),
    # bonus record shape
    pytest.param(hand("dreier", 1, bonuses=[D("pagat"), D("pagat", announced=False)]), 4,
                 ("pagat", "once", "twice", "more than", "duplicate"), id="KR1 same bonus twice"),
    pytest.param(hand("dreier", 1, bonuses=[D("pagat"), O("pagat", made=False)]), 4,
                 ("pagat", "once", "twice", "more than", "duplicate"),
                 id="KR1 same bonus twice, both teams"),
    pytest.param(hand("dreier", 1, bonuses=[D("sack1", announced=False)]), 4,
                 ("sack1", "sack", "announced"), id="KR4 silent sack1 (announced only)"),
    pytest.param(hand("farbendreier", 1, bonuses=[O("sack2", announced=False)]), 4,
                 ("sack2", "sack", "announced"), id="KR4 silent sack2 (announced only)"),
    pytest.param(hand("rufer", 0, partner=None, bonuses=[D("koenig_ultimo", announced=False)]), 4,
                 ("partner", "king", "könig", "ultimo"), id="KR1 koenig_ultimo without a partner"),
    pytest.param(hand("rufer", 0, partner=0, bonuses=[D("koenig_ultimo")]), 4,
                 ("partner", "king", "könig", "ultimo"),
                 id="KR1 koenig_ultimo with partner==declarer (plays alone)"),
    pytest.param(hand("rufer", 0, partner=2, bonuses=[D("trull", announced=False, made=False)]), 4,
                 ("trull", "silent", "fail", "made"), id="KR1 Decision silent trull made:false"),
    pytest.param(hand("rufer", 0, partner=2,
                      bonuses=[O("vier_koenige", announced=False, made=False)]), 4,
                 ("vier_koenige", "silent", "fail", "made"), id="KR1 Decision silent vier_koenige failed"),
    pytest.param(hand("rufer", 0, partner=2, bonuses=[O("mondfang", announced=False, made=False)]), 4,
                 ("mondfang", "silent", "fail", "made"), id="KR1 Decision silent mondfang failed"),
    pytest.param(hand("rufer", 0, partner=2, bonuses=[D("valat", announced=False, made=False)]), 4,
                 ("valat", "silent", "fail", "made"), id="KR1 Decision silent valat failed"),
    # Valat consistency with won
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[D("valat")]), 4, ("valat", "won"),
                 id="KR1 declarer valat made with won false"),
    pytest.param(hand("dreier", 1, False, bonuses=[D("valat", announced=False)]), 4,
                 ("valat", "won"), id="KR1 declarer silent valat made with won false"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[O("valat")]), 4, ("valat", "won"),
                 id="KR1 opponents valat made with won true"),
    # Besserrufer bird
    pytest.param(hand("besserrufer", 1, partner=3), 4, ("bird", "besserrufer"),
                 id="KR1 besserrufer without a bird"),
    pytest.param(hand("besserrufer", 1, partner=3, bonuses=[D("pagat", announced=False)]), 4,
                 ("bird", "besserrufer"), id="KR1 besserrufer with only a silent bird"),
    pytest.param(hand("besserrufer", 1, partner=3, bonuses=[O("uhu")]), 4, ("bird", "besserrufer"),
                 id="KR1 besserrufer, bird announced by the opponents only"),
    pytest.param(hand("besserrufer", 1, partner=3, bonuses=[D("trull")]), 4, ("bird", "besserrufer"),
                 id="KR1 besserrufer with announced trull, no bird"),
    # conceding
    pytest.param(hand("solorufer", 1, False, partner=None, conceded=True), 4,
                 ("solorufer", "conce", "talon", "schleif"), id="KR1 conceding a solorufer"),
    pytest.param(hand("rufer", 0, False, partner=2, conceded=True), 4, ("partner", "talon", "conce"),
                 id="KR1 conceding with a partner"),
    pytest.param(hand("dreier", 1, False, conceded=True), 4, ("conce", "king", "schleif"),
                 id="KR1 conceding a dreier (not a king call)"),
    # revoke seat
    pytest.param(hand("dreier", 1, True, dealer=0, revoke=0), 5, ("revoke", "renonce", "sit", "out"),
                 id="KR1 revoke by the sitting-out dealer"),
    pytest.param(hand("dreier", 1, True, revoke=7), 4, ("revoke", "renonce", "seat"),
                 id="revoke seat out of range"),
    # Trischaken card points (KR §1 Validation, HR "Card points")
    pytest.param(trisch4(12, 30, 20, 10), 4, ("70", "sum"), id="KR1 trischaken points add to 72"),
    pytest.param(trisch4("12/1", 30, 20, 8), 4, ("70", "sum", "210"),
                 id="KR1 trischaken points add to 70/1"),
    pytest.param(trisch4("12/3", 30, 20, "7/0"), 4, ("blatt", "card point", "12/3", "/"),
                 id="KR1/HR a Blatt of 3"),
    pytest.param(trisch4("abc", 30, 20, 20), 4, ("card point", "abc", "seat"),
                 id="HR card points not in P/B notation"),
    pytest.param(trisch4(-10, 40, 20, 20), 4, ("card point", "-10", "0", "70", "seat"),
                 id="KR1 negative card points"),
    pytest.param(trisch4(71, 0, 0, 0), 4, ("card point", "70", "71"), id="KR1 card points above 70"),
    pytest.param({"dealer": 3, "contract": "trischaken", "declarer": 0,
                  "card_points": {"0": 30, "1": 20, "2": 20}}, 4, ("seat", "3", "missing", "card point"),
                 id="KR1 trischaken seat missing"),
    pytest.param({"dealer": 3, "contract": "trischaken", "declarer": 0}, 4,
                 ("card point", "card_points", "missing"), id="KR1 trischaken without card points"),
    pytest.param({"dealer": 0, "contract": "trischaken", "declarer": 1,
                  "card_points": {"0": 10, "1": 20, "2": 20, "3": 10, "4": 10}}, 5,
                 ("sit", "out", "seat", "0"), id="KR1 trischaken sitting-out seat present"),
    pytest.param({"dealer": 0, "contract": "trischaken", "declarer": 1,
                  "card_points": {"0": 10, "1": 20, "2": 20, "3": 20}}, 5,
                 ("sit", "out", "seat", "missing"), id="KR1 trischaken sitting-out seat instead of seat 4"),
    # manual rows
    pytest.param({"dealer": 3, "outcome": "manual", "scores": [9, -1, -1, -1]}, 4, ("6",),
                 id="HR manual row sums to 6 (difference named)"),
    pytest.param({"dealer": 3, "outcome": "manual", "scores": [-4, 1, 1, 1]}, 4, ("1",),
                 id="HR manual row sums to -1"),
    pytest.param({"dealer": 0, "outcome": "manual", "scores": [2, -2, 1, 1, -2]}, 5,
                 ("sit", "out", "dealer", "seat 0", "0"), id="HR manual row gives the sitting-out seat 2"),
    pytest.param({"dealer": 3, "outcome": "manual", "scores": [1, -1, 0]}, 4,
                 ("length", "4", "seat", "score"), id="HR manual row of the wrong length"),
    pytest.param({"dealer": 3, "outcome": "manual", "scores": [1.5, -1.5, 0, 0]}, 4,
                 ("score", "row", "number", "whole", "int"), id="HR manual row with a fraction"),
    pytest.param({"dealer": 3, "outcome": "manual"}, 4, ("score", "row", "number"),
                 id="HR manual row without scores"),
    # table
    pytest.param(hand("dreier", 1, dealer=4), 4, ("dealer", "seat"), id="dealer out of range"),
]


@pytest.mark.parametrize("h, size, keywords", INVALID_CASES)
def test_invalid(rs, h, size, keywords):
    assert_invalid(rs, h, size, *keywords)


def test_invalid_hand_errors_match_validate(rs):
    h = hand("rufer", 1, partner=2)  # non-Vorhand Rufer (KR §4 *)
    errors = rs.validate(copy.deepcopy(h), 4)
    with pytest.raises(InvalidHand) as exc:
        rs.score(copy.deepcopy(h), 4)
    assert list(exc.value.errors) == list(errors)


def test_manual_difference_sign_and_value(rs):
    """HR "The score row": the message names the difference (here 30)."""
    errors = rs.validate({"dealer": 3, "outcome": "manual", "scores": [40, -5, -3, -2]}, 4)
    assert errors and "30" in " ".join(errors)


@pytest.mark.parametrize("h, size", [
    pytest.param(hand("rufer", 0, True, partner=2, kontra=3, note="Sub on the game"), 4,
                 id="KR1 kontra level recorded (Sub, the highest)"),
    pytest.param(hand("rufer", 0, True, dealer=4, partner=2), 5, id="KR4 5-table Vorhand wraps (dealer 4)"),
    pytest.param(hand("dreier", 3, True), 4, id="dealer may declare at a 4-table"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("trull"), D("vier_koenige")]),
                 4, id="KR4 announced valat with announced trull is allowed in Tirol (W20-only rule)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[O("koenig_ultimo", made=False)]), 4,
                 id="KR1 opponents may announce koenig_ultimo"),
])
def test_valid(rs, h, size):
    assert rs.validate(copy.deepcopy(h), size) == []


def test_validate_and_score_do_not_mutate(rs):
    h = hand("dreier", 1, True, bonuses=[D("pagat"), O("trull", announced=False)])
    before = copy.deepcopy(h)
    rs.validate(h, 4)
    rs.score(h, 4)
    assert h == before


def test_history_is_ignored(rs):
    """HR "Context passed with a hand": only Bled uses the history."""
    h = hand("dreier", 1, True)
    history = [hand("rufer", 0, True, partner=2), {"dealer": 0, "outcome": "struck"}]
    assert list(rs.score(h, 4, history=history)) == [-5, 15, -5, -5]


# --------------------------------------------------------------------------------------------------
# property: every valid row sums to 0, has length n and gives the sitting-out dealer 0
# --------------------------------------------------------------------------------------------------


def _points_text(thirds, draw):
    p, b = divmod(thirds, 3)
    if b == 0:
        style = draw(st.sampled_from(["int", "str", "pb"]))
        return p if style == "int" else (str(p) if style == "str" else f"{p}/0")
    return f"{p}/{b}"


@st.composite
def random_hands(draw):
    size = draw(st.sampled_from([4, 5]))
    dealer = draw(st.integers(0, size - 1))
    vorhand = (dealer + 1) % size
    active = [s for s in range(size) if not (size == 5 and s == dealer)]
    outcome = draw(st.sampled_from(["played"] * 12 + ["struck", "manual"]))
    if outcome == "struck":
        return {"dealer": dealer, "outcome": "struck"}, size
    if outcome == "manual":
        vals = draw(st.lists(st.integers(-60, 60), min_size=len(active) - 1, max_size=len(active) - 1))
        vals.append(-sum(vals))
        scores = [0] * size
        for seat, v in zip(active, vals):
            scores[seat] = v
        return {"dealer": dealer, "outcome": "manual", "scores": scores}, size
    contract = draw(st.sampled_from(sorted(TIROL_CONTRACTS)))
    value, family, vorhand_only, solo = TIROL_CONTRACTS[contract]
    h = {"dealer": dealer, "contract": contract}
    if family == "trischaken":
        cuts = sorted(draw(st.lists(st.integers(0, 210), min_size=3, max_size=3)))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 210 - cuts[2]]
        h["card_points"] = {str(seat): _points_text(t, draw) for seat, t in zip(active, parts)}
        if draw(st.booleans()):
            h["declarer"] = vorhand
        if draw(st.integers(0, 5)) == 0:
            h["revoke"] = draw(st.sampled_from(active))
        return h, size
    declarer = vorhand if vorhand_only else draw(st.sampled_from(active))
    h["declarer"] = declarer
    h["won"] = draw(st.booleans())
    if family == "king_call":
        h["partner"] = draw(st.sampled_from([None, declarer] + [s for s in active if s != declarer]))
    keys = sorted(ALLOWED[family])
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=4)) if keys else []
    bonuses = []
    for key in chosen:
        announced = True if TIROL_BONUSES[key][0] is None else draw(st.booleans())
        bonuses.append(B(key, draw(st.sampled_from(["declarer", "opponents"])), announced,
                         draw(st.booleans())))
    if contract == "besserrufer" and draw(st.integers(0, 3)) > 0:
        bird = draw(st.sampled_from(["pagat", "uhu", "kakadu", "quapil"]))
        bonuses = [b for b in bonuses if b["bonus"] != bird]
        bonuses.append(D(bird, True, draw(st.booleans())))
    h["bonuses"] = bonuses
    if family == "king_call" and draw(st.integers(0, 5)) == 0:
        h["conceded"] = True
    if draw(st.integers(0, 6)) == 0:
        h["revoke"] = draw(st.sampled_from(active))
    return h, size


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(random_hands())
def test_property_zero_sum_and_sitting_out(rs, case):
    h, size = case
    errors = rs.validate(copy.deepcopy(h), size)
    if errors:
        with pytest.raises(InvalidHand):
            rs.score(copy.deepcopy(h), size)
    assume(not errors)
    row = list(rs.score(copy.deepcopy(h), size))
    assert len(row) == size
    assert all(isinstance(x, int) for x in row)
    assert sum(row) == 0
    if size == 5:
        assert row[h["dealer"]] == 0
