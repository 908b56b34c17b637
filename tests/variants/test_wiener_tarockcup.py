"""Rule tests for the Wiener Tarockcup ruleset (Königrufen), editions 2020 and 2009.

Every expected row below was computed by hand from the rule text, never from the engine:

- ``KR``  = ``../shared/rules/koenigrufen.md``: §1 "The engine", §2 edition 2020 (W20, Valat
  §2.1, Trischaken §2.2), §3 edition 2009 (S0, Trischaken §3.1), §5 hands and rounds;
- ``HR``  = ``../shared/rules/hand-record.md``;
- ``S0``  = ``../shared/rules/sources/dummett-mcleod-supplement-18.10-wiener-tarockcup-2009.txt``.

Arithmetic (KR §1 "From a hand to a row"): the net value ``n`` is the sum of the posts (game and
bonuses) from the declarer side's point of view; 2 against 2: declarer ``+n``, partner ``+n``, each
opponent ``-n``; 1 against 3: declarer ``+3n``, each opponent ``-n``; the dealer at a 5-table has 0.

Table 2020 (KR §2; V = game value): rufer* 1, trischaken*, piccolo 2, zwiccolo 2, solorufer 2,
pagatrufer 1(+2), bettler 4, sechserdreier* 4 (lost -8), uhurufer 1(+4), farbendreier 5, dreier 5,
piccolo_ouvert 6, zwiccolo_ouvert 6, kakadurufer 1(+6), bettler_ouvert 8, quapilrufer 1(+8),
farbensolo 10, solodreier 10.  Bonuses silent/announced: koenig_ultimo 1/2, trull 1/2,
vier_koenige 1/2, pagat 1/2, uhu 2/4, kakadu 3/6, quapil 4/8, valat 10/20 (added to the game).

Table 2009 (KR §3, S0): as 2020 without zwiccolo and zwiccolo_ouvert, sechserdreier* 5 (lost -10);
Valat silent 4V / announced 8V REPLACING the game post (V without any bird).

Unless said otherwise a 4-table hand has ``dealer = 3``, so Vorhand is seat 0 (HR "Seats").
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from variants import InvalidHand, get_ruleset

from .rule_helpers import B, D, O, assert_invalid, check_row, hand, trisch4

KEY = "wiener-tarockcup"
W20 = "2020"
W09 = "2009"
EDITIONS = (W20, W09)


def ruleset(edition):
    return get_ruleset(KEY, edition=edition)


@pytest.fixture(scope="module")
def w20():
    return get_ruleset(KEY)


@pytest.fixture(scope="module")
def w09():
    return get_ruleset(KEY, edition=W09)


# --------------------------------------------------------------------------------------------------
# helpers (building records only; no scoring logic) -- copied from the Tirol tests
# --------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------
# catalogue (KR §2 and §3 tables, S0 schedule)
# --------------------------------------------------------------------------------------------------

# key: (V, family, vorhand_only, solo, bird, lost_factor)
W20_CONTRACTS = {
    "rufer": (1, "king_call", True, False, None, 1),
    "trischaken": (None, "trischaken", True, False, None, 1),
    "piccolo": (2, "negative", False, False, None, 1),
    "zwiccolo": (2, "negative", False, False, None, 1),
    "solorufer": (2, "king_call", False, True, None, 1),
    "pagatrufer": (1, "king_call", False, False, "pagat", 1),
    "bettler": (4, "negative", False, False, None, 1),
    "sechserdreier": (4, "dreier", True, False, None, 2),  # "lost: game -8"
    "uhurufer": (1, "king_call", False, False, "uhu", 1),
    "farbendreier": (5, "colour", False, False, None, 1),
    "dreier": (5, "dreier", False, False, None, 1),
    "piccolo_ouvert": (6, "negative", False, False, None, 1),
    "zwiccolo_ouvert": (6, "negative", False, False, None, 1),
    "kakadurufer": (1, "king_call", False, False, "kakadu", 1),
    "bettler_ouvert": (8, "negative", False, False, None, 1),
    "quapilrufer": (1, "king_call", False, False, "quapil", 1),
    "farbensolo": (10, "colour", False, True, None, 1),
    "solodreier": (10, "dreier", False, True, None, 1),
}

W09_CONTRACTS = {
    "rufer": (1, "king_call", True, False, None, 1),
    "trischaken": (None, "trischaken", True, False, None, 1),
    "sechserdreier": (5, "dreier", True, False, None, 2),  # S0 "Sechserdreier 5 (–10)"
    "piccolo": (2, "negative", False, False, None, 1),
    "solorufer": (2, "king_call", False, True, None, 1),
    "pagatrufer": (1, "king_call", False, False, "pagat", 1),
    "bettler": (4, "negative", False, False, None, 1),
    "uhurufer": (1, "king_call", False, False, "uhu", 1),
    "farbendreier": (5, "colour", False, False, None, 1),
    "dreier": (5, "dreier", False, False, None, 1),
    "piccolo_ouvert": (6, "negative", False, False, None, 1),
    "kakadurufer": (1, "king_call", False, False, "kakadu", 1),
    "bettler_ouvert": (8, "negative", False, False, None, 1),
    "quapilrufer": (1, "king_call", False, False, "quapil", 1),
    "farbensolo": (10, "colour", False, True, None, 1),
    "solodreier": (10, "dreier", False, True, None, 1),
}

CONTRACTS = {W20: W20_CONTRACTS, W09: W09_CONTRACTS}

# key: (silent, announced, kind, can fail silently)  -- KR §2 bonus list, KR §1 "Bonus classes"
BONUSES = {
    "koenig_ultimo": (1, 2, "trick", True),
    "trull": (1, 2, "material", False),
    "vier_koenige": (1, 2, "material", False),
    "pagat": (1, 2, "trick", True),
    "uhu": (2, 4, "trick", True),
    "kakadu": (3, 6, "trick", True),
    "quapil": (4, 8, "trick", True),
    "valat": (10, 20, "valat", False),  # 2009: a multiplier of the game instead (KR §3)
}
ALL_BONUS_KEYS = set(BONUSES)
ALLOWED = {  # KR §1 "Bonuses allowed per contract family" (WTC colour games: Vier Könige, Valat)
    "king_call": ALL_BONUS_KEYS,
    "dreier": ALL_BONUS_KEYS - {"koenig_ultimo"},
    "colour": {"vier_koenige", "valat"},
    "negative": set(),
    "trischaken": set(),
}
BIRDS = ("pagat", "uhu", "kakadu", "quapil")


@pytest.mark.parametrize("edition", EDITIONS)
def test_ruleset_identity(edition):
    rs = ruleset(edition)
    assert rs.key == KEY
    assert rs.edition == edition
    assert tuple(rs.editions) == (W20, W09)  # HR "Context": 2020 current, 2009 older


def test_current_edition_is_2020(w20):
    """KR §0 table: ``wiener-tarockcup`` 2020 (current); HR "Without an edition the current one"."""
    assert w20.edition == W20
    assert tuple(w20.editions) == (W20, W09)


@pytest.mark.parametrize("edition", ["1999", "2019/20", "2021"])
def test_unknown_edition_raises_keyerror(edition):
    with pytest.raises(KeyError):
        get_ruleset(KEY, edition=edition)


@pytest.mark.parametrize("edition", EDITIONS)
def test_contract_table(edition):
    """KR §2 / §3 contract tables; * = Vorhand only; solos = "bonuses ×2"."""
    rs = ruleset(edition)
    table = CONTRACTS[edition]
    assert {c.key for c in rs.contracts} == set(table)
    for key, (value, family, vorhand_only, solo, bird, lost_factor) in table.items():
        c = rs.contract(key)
        assert c.key == key
        assert c.value == value, key
        assert c.family == family, key
        assert bool(c.vorhand_only) == vorhand_only, key
        assert bool(c.solo) == solo, key
        if bird:
            assert c.bird == bird, key
        else:
            assert not c.bird, key
        assert c.lost_factor == lost_factor, key


def test_2020_has_zwiccolo_2009_has_none(w20, w09):
    """KR §2 table lists zwiccolo and zwiccolo_ouvert; KR §3 "No Zwiccolo"."""
    assert w20.contract("zwiccolo").value == 2
    assert w20.contract("zwiccolo_ouvert").value == 6
    for key in ("zwiccolo", "zwiccolo_ouvert"):
        with pytest.raises(KeyError):
            w09.contract(key)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("key", ["besserrufer", "koenigrufer", ""])
def test_unknown_contract_key(edition, key):
    """KR §2 "There is no Besserrufer in the WTC"."""
    with pytest.raises(KeyError):
        ruleset(edition).contract(key)


@pytest.mark.parametrize("edition", EDITIONS)
def test_bonus_table(edition):
    """KR §2 bonus list ("No Mondfang, no Säcke"); KR §3 "Bonuses as 2020" (Valat differs)."""
    rs = ruleset(edition)
    keys = {b.key for b in rs.bonuses}
    assert keys == ALL_BONUS_KEYS
    assert not keys & {"mondfang", "sack1", "sack2"}
    for b in rs.bonuses:
        silent, announced, kind, fails = BONUSES[b.key]
        assert b.kind == kind, b.key
        assert bool(b.can_fail_silently) == fails, b.key
        if b.key == "valat" and edition == W09:
            continue  # 2009: 4V / 8V, not a fixed value (KR §3)
        assert b.silent == silent, b.key
        assert b.announced == announced, b.key


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("key", ["mondfang", "sack1", "sack2"])
def test_no_mondfang_no_saecke(edition, key):
    with pytest.raises(KeyError):
        ruleset(edition).bonus(key)


@pytest.mark.parametrize("edition, contract",
                         [(e, c) for e in EDITIONS for c in sorted(CONTRACTS[e])])
def test_allowed_bonuses(edition, contract):
    """KR §1 "Bonuses allowed per contract family"."""
    family = CONTRACTS[edition][contract][1]
    assert {b.key for b in ruleset(edition).allowed_bonuses(contract)} == ALLOWED[family]


@pytest.mark.parametrize("edition", EDITIONS)
def test_hands_per_round(edition):
    """KR §5: 20 at a 4-table ("fünf Radln"), 25 at a 5-table (Decision)."""
    rs = ruleset(edition)
    assert rs.hands_per_round(4) == 20
    assert rs.hands_per_round(5) == 25


# --------------------------------------------------------------------------------------------------
# every contract won and lost, 4-table (dealer 3, Vorhand 0)
# --------------------------------------------------------------------------------------------------

def _both(h, size, expected, id_):
    return [pytest.param(e, h, size, expected, id=f"{e} {id_}") for e in EDITIONS]


CONTRACT_CASES = [
    # Rufer V=1, 2 vs 2: n = +1 / -1
    *_both(hand("rufer", 0, True, partner=2), 4, [1, -1, 1, -1], "KR2 rufer won 2v2 (n=+1)"),
    *_both(hand("rufer", 0, False, partner=2), 4, [-1, 1, -1, 1], "KR2 rufer lost 2v2 (n=-1)"),
    *_both(hand("rufer", 0, True, partner=1), 4, [1, 1, -1, -1], "KR2 rufer won, partner seat 1"),
    *_both(hand("rufer", 0, True, partner=None), 4, [3, -1, -1, -1],
           "KR1 rufer won, king in talon 1v3"),
    *_both(hand("rufer", 0, False, partner=None), 4, [-3, 1, 1, 1], "KR1 rufer lost 1v3"),
    *_both(hand("rufer", 0, True, partner=0), 4, [3, -1, -1, -1],
           "HR partner==declarer treated as null (1v3)"),
    # Solorufer V=2
    *_both(hand("solorufer", 1, True, partner=3), 4, [-2, 2, -2, 2], "KR2 solorufer won 2v2 (n=2)"),
    *_both(hand("solorufer", 1, False, partner=3), 4, [2, -2, 2, -2], "KR2 solorufer lost 2v2"),
    *_both(hand("solorufer", 1, True, partner=None), 4, [-2, 6, -2, -2],
           "KR2 solorufer won alone 1v3"),
    # bird callers: Rufer 1 + the named bird announced by the declarer team, its own post (KR §1)
    *_both(hand("pagatrufer", 1, True, partner=3, bonuses=[D("pagat")]), 4, [-3, 3, -3, 3],
           "KR1 pagatrufer won + pagat made (n=1+2)"),
    *_both(hand("pagatrufer", 1, True, partner=3, bonuses=[D("pagat", made=False)]), 4,
           [1, -1, 1, -1], "KR1 pagatrufer won, bird lost (n=1-2)"),
    *_both(hand("pagatrufer", 1, False, partner=3, bonuses=[D("pagat")]), 4, [-1, 1, -1, 1],
           "KR1 pagatrufer lost, pagat made (n=-1+2)"),
    *_both(hand("pagatrufer", 1, False, partner=3, bonuses=[D("pagat", made=False)]), 4,
           [3, -3, 3, -3], "KR1 pagatrufer lost, pagat lost (n=-1-2)"),
    *_both(hand("uhurufer", 2, True, partner=0, bonuses=[D("uhu")]), 4, [5, -5, 5, -5],
           "KR1 uhurufer won + uhu made (n=1+4)"),
    *_both(hand("uhurufer", 2, True, partner=0, bonuses=[D("uhu", made=False)]), 4,
           [-3, 3, -3, 3], "KR1 uhurufer won, bird lost (n=1-4)"),
    *_both(hand("uhurufer", 2, False, partner=0, bonuses=[D("uhu")]), 4, [3, -3, 3, -3],
           "KR1 uhurufer lost, uhu made (n=-1+4)"),
    *_both(hand("uhurufer", 2, False, partner=0, bonuses=[D("uhu", made=False)]), 4,
           [-5, 5, -5, 5], "KR1 uhurufer lost, uhu lost (n=-1-4)"),
    *_both(hand("kakadurufer", 3, True, partner=1, bonuses=[D("kakadu")]), 4, [-7, 7, -7, 7],
           "KR1 kakadurufer won + kakadu made (n=1+6)"),
    *_both(hand("kakadurufer", 3, True, partner=1, bonuses=[D("kakadu", made=False)]), 4,
           [5, -5, 5, -5], "KR1 kakadurufer won, bird lost (n=1-6)"),
    *_both(hand("kakadurufer", 3, False, partner=1, bonuses=[D("kakadu")]), 4, [-5, 5, -5, 5],
           "KR1 kakadurufer lost, kakadu made (n=-1+6)"),
    *_both(hand("kakadurufer", 3, False, partner=1, bonuses=[D("kakadu", made=False)]), 4,
           [7, -7, 7, -7], "KR1 kakadurufer lost, kakadu lost (n=-1-6)"),
    *_both(hand("quapilrufer", 0, True, partner=2, bonuses=[D("quapil")]), 4, [9, -9, 9, -9],
           "KR1 quapilrufer won + quapil made (n=1+8)"),
    *_both(hand("quapilrufer", 0, True, partner=2, bonuses=[D("quapil", made=False)]), 4,
           [-7, 7, -7, 7], "KR1 quapilrufer won, bird lost (n=1-8)"),
    *_both(hand("quapilrufer", 0, False, partner=2, bonuses=[D("quapil")]), 4, [7, -7, 7, -7],
           "KR1 quapilrufer lost, quapil made (n=-1+8)"),
    *_both(hand("quapilrufer", 0, False, partner=2, bonuses=[D("quapil", made=False)]), 4,
           [-9, 9, -9, 9], "KR1 quapilrufer lost, quapil lost (n=-1-8)"),
    *_both(hand("quapilrufer", 2, True, partner=None, bonuses=[D("quapil")]), 4,
           [-9, -9, 27, -9], "KR1 quapilrufer alone won + quapil (1v3, n=9)"),
    *_both(hand("kakadurufer", 1, True, partner=3, bonuses=[D("kakadu"), O("pagat", announced=False)]),
           4, [-6, 6, -6, 6], "KR1 kakadurufer + kakadu, opp silent pagat (n=1+6-1)"),
    # negative contracts, 1 vs 3
    *_both(hand("piccolo", 1, True), 4, [-2, 6, -2, -2], "KR2 piccolo won (V=2)"),
    *_both(hand("piccolo", 1, False), 4, [2, -6, 2, 2], "KR2 piccolo lost (V=2)"),
    *_both(hand("bettler", 2, True), 4, [-4, -4, 12, -4], "KR2 bettler won (V=4)"),
    *_both(hand("bettler", 2, False), 4, [4, 4, -12, 4], "KR2 bettler lost (V=4)"),
    *_both(hand("piccolo_ouvert", 0, True), 4, [18, -6, -6, -6], "KR2 piccolo_ouvert won (V=6)"),
    *_both(hand("piccolo_ouvert", 0, False), 4, [-18, 6, 6, 6], "KR2 piccolo_ouvert lost (V=6)"),
    *_both(hand("bettler_ouvert", 1, True), 4, [-8, 24, -8, -8], "KR2 bettler_ouvert won (V=8)"),
    *_both(hand("bettler_ouvert", 1, False), 4, [8, -24, 8, 8], "KR2 bettler_ouvert lost (V=8)"),
    # Dreier family and colour games
    *_both(hand("dreier", 3, True), 4, [-5, -5, -5, 15], "KR2 dreier won by dealer (V=5)"),
    *_both(hand("dreier", 3, False), 4, [5, 5, 5, -15], "KR2 dreier lost (V=5)"),
    *_both(hand("solodreier", 1, True), 4, [-10, 30, -10, -10], "KR2 solodreier won (V=10)"),
    *_both(hand("solodreier", 1, False), 4, [10, -30, 10, 10], "KR2 solodreier lost (V=10)"),
    *_both(hand("farbendreier", 1, True), 4, [-5, 15, -5, -5], "KR2 farbendreier won (V=5)"),
    *_both(hand("farbendreier", 1, False), 4, [5, -15, 5, 5], "KR2 farbendreier lost (V=5)"),
    *_both(hand("farbensolo", 2, True), 4, [-10, -10, 30, -10], "KR2 farbensolo won (V=10)"),
    *_both(hand("farbensolo", 2, False), 4, [10, 10, -30, 10], "KR2 farbensolo lost (V=10)"),
    # Zwiccolo: 2020 only
    pytest.param(W20, hand("zwiccolo", 2, True), 4, [-2, -2, 6, -2], id="2020 KR2 zwiccolo won (V=2)"),
    pytest.param(W20, hand("zwiccolo", 2, False), 4, [2, 2, -6, 2], id="2020 KR2 zwiccolo lost (V=2)"),
    pytest.param(W20, hand("zwiccolo_ouvert", 1, True), 4, [-6, 18, -6, -6],
                 id="2020 KR2 zwiccolo_ouvert won (V=6)"),
    pytest.param(W20, hand("zwiccolo_ouvert", 1, False), 4, [6, -18, 6, 6],
                 id="2020 KR2 zwiccolo_ouvert lost (V=6)"),
    # Sechserdreier: 2020 V=4 (lost -8); 2009 V=5 (lost -10)
    pytest.param(W20, hand("sechserdreier", 0, True), 4, [12, -4, -4, -4],
                 id="2020 KR2 sechserdreier won (V=4)"),
    pytest.param(W20, hand("sechserdreier", 0, False), 4, [-24, 8, 8, 8],
                 id="2020 KR2 sechserdreier lost (game -8)"),
    pytest.param(W09, hand("sechserdreier", 0, True), 4, [15, -5, -5, -5],
                 id="2009 KR3 sechserdreier won (V=5)"),
    pytest.param(W09, hand("sechserdreier", 0, False), 4, [-30, 10, 10, 10],
                 id="2009 KR3/S0 sechserdreier lost (game -10)"),
    # Sechserdreier lost: only the game is doubled (KR §1 "points for game only")
    pytest.param(W20, hand("sechserdreier", 0, False, bonuses=[D("trull")]), 4, [-18, 6, 6, 6],
                 id="2020 KR1 sechserdreier lost -8 + announced trull 2 (n=-6)"),
    pytest.param(W09, hand("sechserdreier", 0, False, bonuses=[D("trull")]), 4, [-24, 8, 8, 8],
                 id="2009 KR1 sechserdreier lost -10 + announced trull 2 (n=-8)"),
    pytest.param(W09, hand("sechserdreier", 0, False, bonuses=[O("pagat", announced=False)]), 4,
                 [-33, 11, 11, 11], id="2009 KR1 sechserdreier lost -10, opp silent pagat (n=-11)"),
    # solos: bonuses x2 (KR §1)
    *_both(hand("solorufer", 1, True, partner=3, bonuses=[D("pagat")]), 4, [-6, 6, -6, 6],
           "KR1 solo x2 solorufer + announced pagat (n=2+4)"),
    *_both(hand("solorufer", 1, False, partner=3, bonuses=[D("koenig_ultimo", announced=False)]), 4,
           [0, 0, 0, 0], "KR1 solo x2 solorufer lost + silent koenig_ultimo (n=-2+2)"),
    *_both(hand("solodreier", 1, True, bonuses=[O("uhu", announced=False)]), 4, [-6, 18, -6, -6],
           "KR1 solo x2 solodreier, opp silent uhu (n=10-4)"),
    *_both(hand("solodreier", 1, True, bonuses=[D("quapil"), D("trull", announced=False)]), 4,
           [-28, 84, -28, -28], "KR1 solo x2 solodreier quapil+silent trull (n=10+16+2)"),
    *_both(hand("solodreier", 1, False, bonuses=[O("kakadu", made=False)]), 4, [-2, 6, -2, -2],
           "KR1 solo x2 solodreier lost, opp announced kakadu failed (n=-10+12)"),
    *_both(hand("farbensolo", 1, True, bonuses=[D("vier_koenige")]), 4, [-14, 42, -14, -14],
           "KR1 solo x2 farbensolo + announced vier_koenige (n=10+4)"),
    *_both(hand("farbensolo", 0, False, bonuses=[O("vier_koenige", announced=False)]), 4,
           [-36, 12, 12, 12], "KR1 solo x2 farbensolo lost, opp silent vier_koenige (n=-10-2)"),
    # HR example: Dreier 5 + Kakadu 6 + Quapil 8 = 19 per opponent
    *_both({"dealer": 3, "contract": "dreier", "declarer": 1, "won": True,
            "bonuses": [D("kakadu"), D("quapil")]}, 4, [-19, 57, -19, -19],
           "HR example dreier + announced kakadu + quapil"),
    *_both({"dealer": 3, "contract": "dreier", "declarer": 2, "won": True}, 4, [-5, -5, 15, -5],
           "HR defaults: no bonuses/partner fields"),
    *_both(hand("dreier", 2, True, kontra=3), 4, [-5, -5, 15, -5],
           "KR1 kontra recorded, never counts (W20 'keine Auswirkung auf die Schrift')"),
]


@pytest.mark.parametrize("edition, h, size, expected", CONTRACT_CASES)
def test_contracts(edition, h, size, expected):
    check_row(ruleset(edition), h, size, expected)


# --------------------------------------------------------------------------------------------------
# every bonus: silent/announced, made/failed, each team (KR §1 bonus post + Decision)
# Base: Rufer won, dealer 3, declarer 0 (Vorhand), partner 2 -> game +1, row [n, -n, n, -n].
# Valat is edition-specific and has its own sections below.
# --------------------------------------------------------------------------------------------------

# (bonus, team, announced, made, n), n = 1 (game) +/- the bonus value, worked out by hand
BONUS_MATRIX = [
    # koenig_ultimo 1/2 (fails silently like a bird, KR §1 Decision)
    ("koenig_ultimo", "declarer", False, True, 2),
    ("koenig_ultimo", "declarer", False, False, 0),
    ("koenig_ultimo", "declarer", True, True, 3),
    ("koenig_ultimo", "declarer", True, False, -1),
    ("koenig_ultimo", "opponents", False, True, 0),
    ("koenig_ultimo", "opponents", False, False, 2),
    ("koenig_ultimo", "opponents", True, True, -1),
    ("koenig_ultimo", "opponents", True, False, 3),
    # trull 1/2 (cannot fail silently)
    ("trull", "declarer", False, True, 2),
    ("trull", "declarer", True, True, 3),
    ("trull", "declarer", True, False, -1),
    ("trull", "opponents", False, True, 0),
    ("trull", "opponents", True, True, -1),
    ("trull", "opponents", True, False, 3),
    # vier_koenige 1/2
    ("vier_koenige", "declarer", False, True, 2),
    ("vier_koenige", "declarer", True, True, 3),
    ("vier_koenige", "declarer", True, False, -1),
    ("vier_koenige", "opponents", False, True, 0),
    ("vier_koenige", "opponents", True, True, -1),
    ("vier_koenige", "opponents", True, False, 3),
    # pagat 1/2
    ("pagat", "declarer", False, True, 2),
    ("pagat", "declarer", False, False, 0),   # own silent bird beaten -> opponents get s=1
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
]


def _bonus_id(edition, p, contract="rufer"):
    key, team, announced, made, n = p
    return (f"{edition} KR1 {contract}+{key} {team} {'announced' if announced else 'silent'} "
            f"{'made' if made else 'failed'} n={n}")


@pytest.mark.parametrize("edition, key, team, announced, made, n",
                         [(e, *p) for e in EDITIONS for p in BONUS_MATRIX],
                         ids=[_bonus_id(e, p) for e in EDITIONS for p in BONUS_MATRIX])
def test_bonus_matrix_rufer_2v2(edition, key, team, announced, made, n):
    h = hand("rufer", 0, True, partner=2, bonuses=[B(key, team, announced, made)])
    check_row(ruleset(edition), h, 4, [n, -n, n, -n])


# Solorufer won, declarer 1, partner 3 (dealer 3): game +2, every bonus x2 (KR §1); row [-n, n, -n, n]
SOLO_MATRIX = [
    ("koenig_ultimo", "declarer", False, True, 4),
    ("koenig_ultimo", "declarer", False, False, 0),
    ("koenig_ultimo", "declarer", True, True, 6),
    ("koenig_ultimo", "declarer", True, False, -2),
    ("koenig_ultimo", "opponents", False, True, 0),
    ("koenig_ultimo", "opponents", False, False, 4),
    ("koenig_ultimo", "opponents", True, True, -2),
    ("koenig_ultimo", "opponents", True, False, 6),
    ("trull", "declarer", False, True, 4),
    ("trull", "declarer", True, True, 6),
    ("trull", "declarer", True, False, -2),
    ("trull", "opponents", False, True, 0),
    ("trull", "opponents", True, True, -2),
    ("trull", "opponents", True, False, 6),
    ("vier_koenige", "declarer", False, True, 4),
    ("vier_koenige", "declarer", True, True, 6),
    ("vier_koenige", "declarer", True, False, -2),
    ("vier_koenige", "opponents", False, True, 0),
    ("vier_koenige", "opponents", True, True, -2),
    ("vier_koenige", "opponents", True, False, 6),
    ("pagat", "declarer", False, True, 4),
    ("pagat", "declarer", False, False, 0),
    ("pagat", "declarer", True, True, 6),
    ("pagat", "declarer", True, False, -2),
    ("pagat", "opponents", False, True, 0),
    ("pagat", "opponents", False, False, 4),
    ("pagat", "opponents", True, True, -2),
    ("pagat", "opponents", True, False, 6),
    ("uhu", "declarer", False, True, 6),
    ("uhu", "declarer", False, False, -2),
    ("uhu", "declarer", True, True, 10),
    ("uhu", "declarer", True, False, -6),
    ("uhu", "opponents", False, True, -2),
    ("uhu", "opponents", False, False, 6),
    ("uhu", "opponents", True, True, -6),
    ("uhu", "opponents", True, False, 10),
    ("kakadu", "declarer", False, True, 8),
    ("kakadu", "declarer", False, False, -4),
    ("kakadu", "declarer", True, True, 14),
    ("kakadu", "declarer", True, False, -10),
    ("kakadu", "opponents", False, True, -4),
    ("kakadu", "opponents", False, False, 8),
    ("kakadu", "opponents", True, True, -10),
    ("kakadu", "opponents", True, False, 14),
    ("quapil", "declarer", False, True, 10),
    ("quapil", "declarer", False, False, -6),
    ("quapil", "declarer", True, True, 18),
    ("quapil", "declarer", True, False, -14),
    ("quapil", "opponents", False, True, -6),
    ("quapil", "opponents", False, False, 10),
    ("quapil", "opponents", True, True, -14),
    ("quapil", "opponents", True, False, 18),
]


@pytest.mark.parametrize("edition, key, team, announced, made, n",
                         [(e, *p) for e in EDITIONS for p in SOLO_MATRIX],
                         ids=[_bonus_id(e, p, "solorufer") for e in EDITIONS for p in SOLO_MATRIX])
def test_bonus_matrix_solorufer_doubled(edition, key, team, announced, made, n):
    h = hand("solorufer", 1, True, partner=3, bonuses=[B(key, team, announced, made)])
    check_row(ruleset(edition), h, 4, [-n, n, -n, n])


BONUS_CASES = [
    # 1 vs 3, Dreier declarer 1 (dealer 3), game 5
    *_both(hand("dreier", 1, True, bonuses=[O("pagat")]), 4, [-3, 9, -3, -3],
           "KR1 dreier, opp announced pagat made (n=5-2)"),
    *_both(hand("dreier", 1, True, bonuses=[D("trull", announced=False)]), 4, [-6, 18, -6, -6],
           "KR1 dreier, silent trull declarer (n=5+1)"),
    *_both(hand("dreier", 1, True, bonuses=[O("quapil", announced=False, made=False)]), 4,
           [-9, 27, -9, -9], "KR1 Decision dreier, opp silent quapil beaten (n=5+4)"),
    *_both(hand("dreier", 1, True, bonuses=[D("uhu", announced=False, made=False)]), 4,
           [-3, 9, -3, -3], "KR1 Decision dreier, own silent uhu beaten (n=5-2)"),
    *_both(hand("dreier", 1, False, bonuses=[D("kakadu")]), 4, [-1, 3, -1, -1],
           "KR1 dreier lost, announced kakadu made (n=-5+6)"),
    *_both(hand("dreier", 1, True, bonuses=[
        D("pagat"), O("trull", announced=False), D("uhu", announced=False, made=False),
        O("kakadu", made=False)]), 4, [-10, 30, -10, -10], "KR1 dreier, four posts (n=5+2-1-2+6)"),
    *_both(hand("rufer", 0, False, partner=2, bonuses=[D("pagat", announced=False)]), 4,
           [0, 0, 0, 0], "KR1 rufer lost + silent pagat (n=0)"),
    *_both(hand("rufer", 0, True, partner=None, bonuses=[D("pagat", announced=False)]), 4,
           [6, -2, -2, -2], "KR1 rufer alone + silent pagat (1v3, n=2)"),
    *_both(hand("farbendreier", 1, False, bonuses=[D("vier_koenige")]), 4, [3, -9, 3, 3],
           "KR1 farbendreier lost + announced vier_koenige (n=-5+2)"),
]


@pytest.mark.parametrize("edition, h, size, expected", BONUS_CASES)
def test_bonuses(edition, h, size, expected):
    check_row(ruleset(edition), h, size, expected)


# --------------------------------------------------------------------------------------------------
# Valat 2020 (KR §2.1): fixed 10/20 added to the game, x2 in solos; silent Trull / Vier Könige
# absorbed when made; failed announced Valat -20 (-40 in solos), everything else still scored.
# --------------------------------------------------------------------------------------------------

VALAT_2020 = [
    # Rufer, declarer 0, partner 2: 2v2 [n, -n, n, -n]
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat", announced=False)]), 4,
                 [11, -11, 11, -11], id="KR2.1 silent valat (n=1+10)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat")]), 4,
                 [21, -21, 21, -21], id="KR2.1 announced valat (n=1+20)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat", made=False)]), 4,
                 [-19, 19, -19, 19], id="KR2.1 announced valat failed, game won (n=1-20)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[D("valat", made=False)]), 4,
                 [-21, 21, -21, 21], id="KR2.1 announced valat failed, game lost (n=-1-20)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat", announced=False)]), 4,
                 [-11, 11, -11, 11], id="KR2.1 opp silent valat (n=-1-10)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat")]), 4,
                 [-21, 21, -21, 21], id="KR2.1 opp announced valat (n=-1-20)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[O("valat", made=False)]), 4,
                 [21, -21, 21, -21], id="KR2.1 opp announced valat failed, game won (n=1+20)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[O("valat", made=False)]), 4,
                 [19, -19, 19, -19], id="KR2.1 opp announced valat failed, game lost (n=-1+20)"),
    # absorption of the silent material bonuses
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat"), D("trull", announced=False), D("vier_koenige", announced=False)]), 4,
        [21, -21, 21, -21], id="KR2.1 valat made: silent trull + silent vier_koenige absorbed (n=1+20)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("trull"), D("vier_koenige")]), 4,
        [15, -15, 15, -15], id="KR2.1 silent valat, announced trull + vier_koenige count (n=1+10+2+2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("trull", announced=False), D("vier_koenige")]), 4,
        [13, -13, 13, -13], id="KR2.1 silent valat: silent trull 0, announced vier_koenige 2 (n=1+10+2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), O("trull", made=False)]), 4,
        [13, -13, 13, -13], id="KR2.1 valat made, opp announced trull failed counts (n=1+10+2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat"), D("pagat", announced=False), D("uhu")]), 4,
        [26, -26, 26, -26], id="KR2.1 valat made, birds count (n=1+20+1+4)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("koenig_ultimo", announced=False)]), 4,
        [12, -12, 12, -12], id="KR2.1 valat made + silent koenig_ultimo (n=1+10+1)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("kakadu", made=False)]), 4,
        [5, -5, 5, -5], id="KR2.1 valat made, announced kakadu failed still counts (n=1+10-6)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat"), O("pagat", made=False)]), 4,
                 [23, -23, 23, -23], id="KR2.1 valat made, opp announced pagat failed (n=1+20+2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat"), O("uhu", announced=False, made=False)]), 4,
        [23, -23, 23, -23], id="KR2.1 valat made, opp silent uhu beaten (n=1+20+2)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[
        O("valat", announced=False), O("trull", announced=False)]), 4,
        [-11, 11, -11, 11], id="KR2.1 opp valat absorbs their silent trull (n=-1-10)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[
        O("valat"), O("uhu", announced=False), D("pagat", made=False)]), 4,
        [-25, 25, -25, 25], id="KR2.1 opp valat + their silent uhu, our pagat failed (n=-1-20-2-2)"),
    # failed announced Valat: game and other bonuses still scored, silent trull NOT absorbed
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", made=False), D("trull", announced=False), D("pagat")]), 4,
        [-16, 16, -16, 16], id="KR2.1 Decision valat failed, silent trull + pagat count (n=1-20+1+2)"),
    # 1 vs 3
    pytest.param(hand("dreier", 1, True, bonuses=[D("valat")]), 4, [-25, 75, -25, -25],
                 id="KR2.1 dreier + announced valat (n=5+20)"),
    pytest.param(hand("farbendreier", 1, True, bonuses=[
        D("valat", announced=False), D("vier_koenige", announced=False)]), 4,
        [-15, 45, -15, -15], id="KR2.1 farbendreier silent valat absorbs silent vier_koenige (n=5+10)"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[D("valat", made=False)]), 4,
                 [-84, 28, 28, 28], id="KR2.1 sechserdreier lost: game -8, valat -20 not doubled"),
    pytest.param(hand("sechserdreier", 0, True, bonuses=[D("valat", announced=False)]), 4,
                 [42, -14, -14, -14], id="KR2.1 sechserdreier + silent valat (n=4+10)"),
    pytest.param(hand("pagatrufer", 1, True, partner=3, bonuses=[D("pagat"), D("valat", announced=False)]),
                 4, [-13, 13, -13, 13], id="KR2.1 pagatrufer valat (n=1+2+10)"),
    # solos: Valat doubled (KR §2.1 Decision)
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat", announced=False)]), 4,
                 [-30, 90, -30, -30], id="KR2.1 Decision solo x2 silent valat (n=10+20)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat")]), 4, [-50, 150, -50, -50],
                 id="KR2.1 Decision solo x2 announced valat (n=10+40)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat", made=False)]), 4,
                 [30, -90, 30, 30], id="KR2.1 Decision solo valat failed -40, game won (n=10-40)"),
    pytest.param(hand("solodreier", 1, False, bonuses=[D("valat", made=False)]), 4,
                 [50, -150, 50, 50], id="KR2.1 Decision solo valat failed -40, game lost (n=-10-40)"),
    pytest.param(hand("solorufer", 1, False, partner=3, bonuses=[O("valat")]), 4,
                 [42, -42, 42, -42], id="KR2.1 solo x2 opp announced valat vs solorufer (n=-2-40)"),
    pytest.param(hand("farbensolo", 2, True, bonuses=[
        D("valat"), D("vier_koenige", announced=False)]), 4,
        [-50, -50, 150, -50], id="KR2.1 farbensolo valat x2, silent vier_koenige absorbed (n=10+40)"),
    pytest.param(hand("solorufer", 1, True, partner=3, bonuses=[
        D("valat", announced=False), D("pagat", announced=False)]), 4,
        [-24, 24, -24, 24], id="KR2.1 solorufer silent valat + silent pagat x2 (n=2+20+2)"),
]


@pytest.mark.parametrize("h, size, expected", VALAT_2020)
def test_valat_2020(w20, h, size, expected):
    check_row(w20, h, size, expected)


# --------------------------------------------------------------------------------------------------
# Valat 2009 (KR §3, S0 "×8/×4", "supersedes the game, Four Kings and Trull, but not birds"):
# silent 4V / announced 8V in place of the game post; V without any bird; never doubled.
# --------------------------------------------------------------------------------------------------

VALAT_2009 = [
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat", announced=False)]), 4,
                 [4, -4, 4, -4], id="KR3 rufer valat silent 4V (n=4)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat")]), 4,
                 [8, -8, 8, -8], id="KR3 rufer valat announced 8V (n=8)"),
    pytest.param(hand("dreier", 1, True, bonuses=[D("valat", announced=False)]), 4,
                 [-20, 60, -20, -20], id="KR3 dreier valat silent x4 (n=20)"),
    pytest.param(hand("dreier", 1, True, bonuses=[D("valat")]), 4,
                 [-40, 120, -40, -40], id="KR3 dreier valat announced x8 (n=40)"),
    pytest.param(hand("rufer", 0, True, partner=None, bonuses=[D("valat")]), 4,
                 [24, -8, -8, -8], id="KR3 rufer alone valat announced 8V 1v3 (n=8)"),
    # bird callers: V = 1 without the bird; the bird still scores
    pytest.param(hand("pagatrufer", 1, True, partner=3, bonuses=[D("pagat"), D("valat", announced=False)]),
                 4, [-6, 6, -6, 6], id="KR3 pagatrufer valat silent: 4x1 + pagat 2 (n=6)"),
    pytest.param(hand("pagatrufer", 1, True, partner=3, bonuses=[D("pagat"), D("valat")]), 4,
                 [-10, 10, -10, 10], id="KR3 pagatrufer valat announced: 8x1 + pagat 2 (n=10)"),
    pytest.param(hand("quapilrufer", 1, True, partner=None, bonuses=[D("quapil"), D("valat")]), 4,
                 [-16, 48, -16, -16], id="KR3 quapilrufer alone valat: 8x1 + quapil 8 (1v3, n=16)"),
    # silent Trull / Vier Könige absorbed, announced ones score; birds and König ultimo score
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("trull", announced=False), D("vier_koenige", announced=False)]),
        4, [4, -4, 4, -4], id="KR3 valat absorbs silent trull and vier_koenige (n=4)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("trull"), D("vier_koenige")]), 4,
        [8, -8, 8, -8], id="KR3 silent valat, announced trull + vier_koenige score (n=4+2+2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("trull")]), 4,
                 [10, -10, 10, -10],
                 id="KR3 announced valat + announced trull allowed in 2009 (n=8+2)"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", announced=False), D("uhu", announced=False), D("koenig_ultimo")]), 4,
        [8, -8, 8, -8], id="KR3 valat + silent uhu + announced koenig_ultimo score (n=4+2+2)"),
    pytest.param(hand("dreier", 1, True, bonuses=[
        D("valat", announced=False), O("pagat", announced=False, made=False)]), 4,
        [-21, 63, -21, -21], id="KR3 dreier valat, opp silent pagat beaten (n=20+1)"),
    pytest.param(hand("dreier", 1, True, bonuses=[
        D("valat"), D("kakadu", made=False)]), 4,
        [-34, 102, -34, -34], id="KR3 dreier valat announced, own announced kakadu failed (n=40-6)"),
    # solo: the Valat post is not doubled, the birds are
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat")]), 4,
                 [-80, 240, -80, -80], id="KR3 solodreier valat announced 8x10 not doubled (n=80)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[
        D("valat", announced=False), D("pagat", announced=False)]), 4,
        [-42, 126, -42, -42], id="KR3 solodreier silent valat 4x10 + silent pagat x2 (n=40+2)"),
    pytest.param(hand("solorufer", 1, True, partner=3, bonuses=[
        D("valat", announced=False), D("uhu")]), 4,
        [-16, 16, -16, 16], id="KR3 solorufer silent valat 4x2 + announced uhu x2 (n=8+8)"),
    pytest.param(hand("farbensolo", 2, True, bonuses=[
        D("valat", announced=False), D("vier_koenige")]), 4,
        [-44, -44, 132, -44], id="KR3 farbensolo silent valat 40 + announced vier_koenige x2 (n=44)"),
    # Sechserdreier: V = 5, never doubled for the Valat
    pytest.param(hand("sechserdreier", 0, True, bonuses=[D("valat", announced=False)]), 4,
                 [60, -20, -20, -20], id="KR3 sechserdreier valat silent 4x5 (n=20)"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[O("valat", announced=False)]), 4,
                 [-60, 20, 20, 20], id="KR3 sechserdreier lost to opp silent valat, -4x5 not doubled"),
    pytest.param(hand("sechserdreier", 0, False, bonuses=[D("valat", made=False)]), 4,
                 [-120, 40, 40, 40], id="KR3 Decision sechserdreier valat failed -8x5 not doubled"),
    # opponents' Valat
    pytest.param(hand("dreier", 1, False, bonuses=[O("valat", announced=False)]), 4,
                 [20, -60, 20, 20], id="KR3 opp silent valat vs dreier (n=-20)"),
    pytest.param(hand("dreier", 1, False, bonuses=[O("valat")]), 4,
                 [40, -120, 40, 40], id="KR3 opp announced valat vs dreier (n=-40)"),
    pytest.param(hand("dreier", 1, False, bonuses=[
        O("valat", announced=False), D("pagat", made=False)]), 4,
        [22, -66, 22, 22], id="KR3 opp valat, declarer's announced pagat failed (n=-20-2)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[
        O("valat"), O("trull", announced=False)]), 4,
        [-8, 8, -8, 8], id="KR3 opp valat 8V absorbs their silent trull (n=-8)"),
    # failed announced Valat: 8V in place of the game post (KR §3 Decision)
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[D("valat", made=False)]), 4,
                 [-8, 8, -8, 8], id="KR3 Decision valat failed, game won: -8V (n=-8)"),
    pytest.param(hand("rufer", 0, False, partner=2, bonuses=[D("valat", made=False)]), 4,
                 [-8, 8, -8, 8], id="KR3 Decision valat failed, game lost: -8V (n=-8)"),
    pytest.param(hand("dreier", 1, True, bonuses=[D("valat", made=False), D("pagat", announced=False)]),
                 4, [39, -117, 39, 39], id="KR3 Decision dreier valat failed -40 + silent pagat (n=-39)"),
    pytest.param(hand("dreier", 1, True, bonuses=[O("valat", made=False)]), 4,
                 [-40, 120, -40, -40], id="KR3 Decision opp announced valat failed: +8V (n=40)"),
    pytest.param(hand("solodreier", 1, True, bonuses=[D("valat", made=False)]), 4,
                 [80, -240, 80, 80], id="KR3 Decision solodreier valat failed -8x10 not doubled"),
    pytest.param(hand("rufer", 0, True, partner=2, bonuses=[
        D("valat", made=False), D("trull", announced=False)]), 4,
        [-7, 7, -7, 7],
        id="KR3 Decision valat failed: silent trull scores (absorbed only when made) (n=-8+1)"),
]


@pytest.mark.parametrize("h, size, expected", VALAT_2009)
def test_valat_2009(w09, h, size, expected):
    check_row(w09, h, size, expected)


# --------------------------------------------------------------------------------------------------
# Trischaken 2020 (KR §2.2), 4-table, dealer 3, Vorhand = seat 0 declares.
# Thirds: "P/B" = 3P + B; 210 thirds in all; Bürgermeister: at least "35/2" = 107 thirds.
# --------------------------------------------------------------------------------------------------

TRISCH_2020 = [
    # loser alone, not Vorhand, no Bürgermeister: pot 6 shared by three non-losers
    pytest.param(trisch4(20, 30, 12, 8), [2, -6, 2, 2], id="KR2.2 loser alone pot 6 (-6,+2,+2,+2)"),
    pytest.param(trisch4("20/0", "30/0", "12/0", "8/0"), [2, -6, 2, 2], id="HR P/B notation"),
    pytest.param(trisch4(20, 30, 12, 8, declarer=None), [2, -6, 2, 2], id="HR declarer null"),
    pytest.param({"dealer": 3, "contract": "trischaken",
                  "card_points": {"0": 20, "1": 30, "2": 12, "3": 8}}, [2, -6, 2, 2],
                 id="HR declarer omitted"),
    # Vorhand loser: pot 12
    pytest.param(trisch4(30, 20, 12, 8), [-12, 4, 4, 4], id="KR2.2 Vorhand loser pot 12"),
    # Bürgermeister: pot 12; the spec example "loser with 40 points (not Vorhand)"
    pytest.param(trisch4(20, 40, 5, 5), [4, -12, 4, 4], id="KR2.2 example 40 points -12,+4,+4,+4"),
    pytest.param(trisch4("20/0", "35/2", "10/0", "4/1"), [4, -12, 4, 4],
                 id="KR2.2 Buergermeister boundary 35/2 pot 12"),
    pytest.param(trisch4("20/0", "35/1", "10/0", "4/2"), [2, -6, 2, 2],
                 id="KR2.2 35/1 is no Buergermeister pot 6"),
    pytest.param(trisch4(20, 36, 10, 4), [4, -12, 4, 4], id="KR2.2 36/0 Buergermeister pot 12"),
    # Vorhand Bürgermeister: pot 24
    pytest.param(trisch4(40, 20, 5, 5), [-24, 8, 8, 8], id="KR2.2 Vorhand Buergermeister pot 24"),
    pytest.param(trisch4("35/2", "20/0", "10/0", "4/1"), [-24, 8, 8, 8],
                 id="KR2.2 Vorhand Buergermeister at 35/2 pot 24"),
    pytest.param(trisch4("35/1", "20/0", "10/0", "4/2"), [-12, 4, 4, 4],
                 id="KR2.2 Vorhand 35/1 no Buergermeister pot 12"),
    # two tied losers, not Vorhand: they share the payment (3 each), two non-losers get 3 each
    pytest.param(trisch4(10, 25, 25, 10), [3, -3, -3, 3], id="KR2.2 two tied losers share pot 6"),
    pytest.param(trisch4(15, 25, 25, 5), [3, -3, -3, 3], id="KR2.2 two tied losers 25/25, 15/5"),
    pytest.param(trisch4("4/1", "30/1", "30/1", "5/0"), [3, -3, -3, 3],
                 id="KR2.2 two tied losers tie to the Blatt"),
    pytest.param(trisch4("4/2", "30/2", "30/1", "4/1"), [2, -6, 2, 2],
                 id="KR2.2 the Blatt breaks the tie: 30/2 loses alone"),
    # Vorhand among tied losers: Vorhand alone is the loser (pot 12), the other is a non-loser
    pytest.param(trisch4(25, 25, 12, 8), [-12, 4, 4, 4], id="KR2.2 Vorhand tied for most loses alone"),
    pytest.param(trisch4(20, 20, 20, 10), [-12, 4, 4, 4],
                 id="KR2.2 Vorhand in a three-way tie loses alone"),
    # three tied losers (Decision): share pot 6 -> 2 each, the fourth gets 6
    pytest.param(trisch4(10, 20, 20, 20), [6, -2, -2, -2], id="KR2.2 Decision three tied losers"),
    # Jungfrauen take the whole pot
    pytest.param(trisch4(20, 30, 20, 0), [0, -6, 0, 6], id="KR2.2 one Jungfrau takes pot 6"),
    pytest.param(trisch4(0, 30, 25, 15), [6, -6, 0, 0], id="KR2.2 Vorhand Jungfrau takes pot 6"),
    pytest.param(trisch4(20, 40, 10, 0), [0, -12, 0, 12], id="KR2.2 one Jungfrau, Buergermeister pot 12"),
    pytest.param(trisch4(30, 25, 15, 0), [-12, 0, 0, 12], id="KR2.2 one Jungfrau, Vorhand loser pot 12"),
    pytest.param(trisch4(40, 20, 10, 0), [-24, 0, 0, 24],
                 id="KR2.2 one Jungfrau, Vorhand Buergermeister pot 24"),
    pytest.param(trisch4(10, 30, 30, 0), [0, -3, -3, 6],
                 id="KR2.2 one Jungfrau, two tied losers pay 3 each"),
    pytest.param(trisch4(30, 30, 10, 0), [-12, 0, 0, 12],
                 id="KR2.2 one Jungfrau, Vorhand tied loses alone pot 12"),
    pytest.param(trisch4(0, "23/1", "23/1", "23/1"), [6, -2, -2, -2],
                 id="KR2.2 Jungfrau and three tied losers pay 2 each"),
    pytest.param(trisch4(30, 40, 0, 0), [0, -12, 6, 6], id="KR2.2 two Jungfrauen share pot 12"),
    pytest.param(trisch4(0, "35/1", "34/2", 0), [3, -6, 0, 3], id="KR2.2 two Jungfrauen share pot 6"),
    pytest.param(trisch4(0, 30, 40, 0), [6, 0, -12, 6], id="KR2.2 two Jungfrauen incl. Vorhand"),
    pytest.param(trisch4(35, 35, 0, 0), [-12, 0, 6, 6],
                 id="KR2.2 two Jungfrauen, Vorhand tied 35/0 loses alone pot 12"),
    pytest.param(trisch4(0, 35, 35, 0), [3, -3, -3, 3],
                 id="KR2.2 two Jungfrauen, two tied losers pay 3 each"),
    pytest.param(trisch4(0, 70, 0, 0), [4, -12, 4, 4], id="KR2.2 three Jungfrauen share pot 12"),
    pytest.param(trisch4(70, 0, 0, 0), [-24, 8, 8, 8], id="KR2.2 three Jungfrauen share pot 24"),
    # Renonce: the offender pays 6 to each other player
    pytest.param(trisch4(20, 30, 12, 8, revoke=2), [6, 6, -18, 6], id="KR2.2 renonce -18/+6/+6/+6"),
    pytest.param(trisch4(40, 30, 0, 0, revoke=0), [-18, 6, 6, 6], id="KR2.2 renonce by Vorhand"),
]


@pytest.mark.parametrize("h, expected", TRISCH_2020)
def test_trischaken_2020(w20, h, expected):
    check_row(w20, h, 4, expected)


# --------------------------------------------------------------------------------------------------
# Trischaken 2009 (KR §3.1 and its Decisions, S0): u = 1, x2 Vorhand loser, x2 Bürgermeister
# (at least 35/2, as in the other editions: KR §3.1 revised 2026-11-23, earlier 36/0). No Jungfrau: each loser pays u to each non-loser. Jungfrauen: a single loser
# pays 3u shared by them; tied losers pay 3 each shared by them; others 0. Renonce: 2 to each.
# --------------------------------------------------------------------------------------------------

TRISCH_2009 = [
    pytest.param(trisch4(20, 30, 12, 8), [1, -3, 1, 1], id="KR3.1 loser pays 1 to each"),
    pytest.param(trisch4(30, 20, 12, 8), [-6, 2, 2, 2], id="KR3.1 Vorhand loser pays 2 to each"),
    pytest.param(trisch4(20, 40, 5, 5), [2, -6, 2, 2], id="KR3.1 Buergermeister pays 2 to each"),
    pytest.param(trisch4(40, 20, 5, 5), [-12, 4, 4, 4],
                 id="KR3.1 Vorhand Buergermeister pays 4 to each"),
    # the Bürgermeister boundary: 35/2 (KR §3.1 revised 2026-11-23); 35/1 is none
    pytest.param(trisch4("20/0", "35/2", "10/0", "4/1"), [2, -6, 2, 2],
                 id="KR3.1 revised 2026-11-23 35/2 is a Buergermeister"),
    pytest.param(trisch4("20/0", "35/1", "10/1", "4/1"), [1, -3, 1, 1],
                 id="KR3.1 revised 2026-11-23 35/1 is no Buergermeister"),
    pytest.param(trisch4(20, 36, 10, 4), [2, -6, 2, 2], id="KR3.1 Decision 36/0 Buergermeister"),
    pytest.param(trisch4("35/2", "20/0", "10/0", "4/1"), [-12, 4, 4, 4],
                 id="KR3.1 Vorhand 35/2 u=4 (Vorhand and Buergermeister)"),
    pytest.param(trisch4("35/1", "20/0", "10/1", "4/1"), [-6, 2, 2, 2],
                 id="KR3.1 Vorhand 35/1 u=2 (no Buergermeister)"),
    pytest.param(trisch4(36, 20, 10, 4), [-12, 4, 4, 4], id="KR3.1 Vorhand 36/0 u=4"),
    # ties: "If two or three players tie for most points, they each pay 1 game point"
    pytest.param(trisch4(10, 25, 25, 10), [2, -2, -2, 2],
                 id="KR3.1 two tied losers each pay 1 to each non-loser"),
    pytest.param(trisch4(10, 20, 20, 20), [3, -1, -1, -1], id="KR3.1 three tied losers pay 1 each"),
    pytest.param(trisch4(25, 25, 12, 8), [-6, 2, 2, 2], id="KR3.1 Decision Vorhand tied loses alone"),
    pytest.param(trisch4(20, 20, 20, 10), [-6, 2, 2, 2],
                 id="KR3.1 Decision Vorhand in three-way tie loses alone"),
    # Jungfrauen
    pytest.param(trisch4(20, 30, 20, 0), [0, -3, 0, 3], id="KR3.1 Jungfrau wins 3 from the loser"),
    pytest.param(trisch4(0, 30, 25, 15), [3, -3, 0, 0], id="KR3.1 Vorhand Jungfrau wins 3"),
    pytest.param(trisch4(20, 40, 10, 0), [0, -6, 0, 6],
                 id="KR3.1 Buergermeister pays 6 to a Jungfrau"),
    pytest.param(trisch4(30, 25, 15, 0), [-6, 0, 0, 6], id="KR3.1 Vorhand loser pays 6 to a Jungfrau"),
    pytest.param(trisch4(40, 20, 10, 0), [-12, 0, 0, 12],
                 id="KR3.1 Vorhand Buergermeister pays 12 to a Jungfrau"),
    pytest.param(trisch4(30, 40, 0, 0), [0, -6, 3, 3],
                 id="KR3.1 Buergermeister pays 3 each to two Jungfrauen"),
    pytest.param(trisch4(35, 35, 0, 0), [-6, 0, 3, 3],
                 id="KR3.1 two Jungfrauen, Vorhand tied loses alone 3u=6"),
    pytest.param(trisch4(10, 30, 30, 0), [0, -3, -3, 6],
                 id="KR3.1 two tied losers and a Jungfrau pay 3 each"),
    pytest.param(trisch4(0, 35, 35, 0), [3, -3, -3, 3],
                 id="KR3.1 two tied losers pay 3 each shared by two Jungfrauen"),
    pytest.param(trisch4(0, "23/1", "23/1", "23/1"), [9, -3, -3, -3],
                 id="KR3.1 three tied losers pay 3 each to the Jungfrau"),
    pytest.param(trisch4(30, 30, 10, 0), [-6, 0, 0, 6],
                 id="KR3.1 Jungfrau, Vorhand tied loses alone 3u=6"),
    pytest.param(trisch4(0, 70, 0, 0), [2, -6, 2, 2],
                 id="KR3.1 Buergermeister 70: 3u=6 shared by three Jungfrauen"),
    pytest.param(trisch4(70, 0, 0, 0), [-12, 4, 4, 4],
                 id="KR3.1 Vorhand Buergermeister 70: 3u=12 shared by three Jungfrauen"),
    # Renonce
    pytest.param(trisch4(20, 30, 12, 8, revoke=2), [2, 2, -6, 2], id="KR3.1 renonce pays 2 to each"),
    pytest.param(trisch4(40, 30, 0, 0, revoke=0), [-6, 2, 2, 2], id="KR3.1 renonce by Vorhand"),
]


@pytest.mark.parametrize("h, expected", TRISCH_2009)
def test_trischaken_2009(w09, h, expected):
    check_row(w09, h, 4, expected)


def test_trischaken_2009_fraction_needs_manual_row(w09):
    """KR §3.1: a single non-Vorhand loser below 35/2 pays 3u = 3 "shared equally by the
    Jungfrauen": with two Jungfrauen that is 1.5 each. HR "The score row": where a rule would split
    points into fractions, validate reports that the hand needs a manual row."""
    assert_invalid(w09, trisch4(0, "35/1", "34/2", 0), 4, "manual")


def test_trischaken_buergermeister_boundary_is_35_2_in_both_editions(w20, w09):
    """35/2 is a Bürgermeister in 2020 (KR §2.2) and, revised 2026-11-23, in 2009 too (KR §3.1);
    35/1 in neither. 2020: pot 6, doubled for the Bürgermeister, to the three others; 2009: u = 2
    from the Bürgermeister to each."""
    mayor = trisch4("20/0", "35/2", "10/0", "4/1")
    assert list(w20.score(copy.deepcopy(mayor), 4)) == [4, -12, 4, 4]
    assert list(w09.score(copy.deepcopy(mayor), 4)) == [2, -6, 2, 2]
    below = trisch4("20/0", "35/1", "10/1", "4/1")
    assert list(w20.score(copy.deepcopy(below), 4)) == [2, -6, 2, 2]
    assert list(w09.score(copy.deepcopy(below), 4)) == [1, -3, 1, 1]


# --------------------------------------------------------------------------------------------------
# Renonce in normal contracts (KR §1; 2009: an announced Valat puts 8V in place of V)
# --------------------------------------------------------------------------------------------------

RENONCE_CASES = [
    # the W20 example: Dreier, an opponent revokes: declarer +15, the two others +5, offender -25
    *_both(hand("dreier", 1, True, revoke=2), 4, [5, 15, -25, 5],
           "KR1 renonce dreier, opponent revokes (W20 example +15/+5/+5/-25)"),
    *_both(hand("dreier", 1, False, revoke=2), 4, [5, 15, -25, 5], "KR1 renonce, won ignored"),
    *_both(hand("dreier", 1, True, revoke=1), 4, [5, -15, 5, 5], "KR1 renonce dreier, declarer revokes"),
    # A = announced pagat (declarer) 2 + announced trull (opponents) 2; silent uhu ignored: V+A = 9
    *_both(hand("dreier", 1, True, revoke=0, bonuses=[
        D("pagat", made=False), O("trull"), D("uhu", announced=False)]), 4, [-45, 27, 9, 9],
        "KR1 renonce dreier, announced bonuses of both sides (V+A=9)"),
    # 2 vs 2: every non-offender gets 1x(V+A); a revoking declarer pays his partner too
    *_both(hand("rufer", 0, True, partner=2, revoke=0), 4, [-3, 1, 1, 1],
           "KR1 renonce rufer, declarer revokes, pays partner too"),
    *_both(hand("rufer", 0, True, partner=2, revoke=1), 4, [1, -3, 1, 1],
           "KR1 renonce rufer 2v2, opponent revokes"),
    *_both(hand("rufer", 0, True, partner=None, revoke=3), 4, [3, 1, 1, -5],
           "KR1 renonce rufer alone, opponent revokes (declarer 3x)"),
    *_both(hand("pagatrufer", 1, True, partner=3, revoke=2, bonuses=[D("pagat")]), 4,
           [3, 3, -9, 3], "KR1 renonce pagatrufer, bird counts in A (V+A=1+2)"),
    *_both(hand("quapilrufer", 1, False, partner=None, revoke=0, bonuses=[D("quapil")]), 4,
           [-45, 27, 9, 9], "KR1 renonce quapilrufer alone (V+A=1+8, declarer 3x)"),
    # solo doubling applies to A
    *_both(hand("solodreier", 1, True, revoke=0, bonuses=[D("pagat")]), 4, [-70, 42, 14, 14],
           "KR1 renonce solodreier, A=2x2 (V+A=14)"),
    *_both(hand("bettler", 2, True, revoke=0), 4, [-20, 4, 12, 4], "KR1 renonce bettler, opponent revokes"),
    *_both(hand("rufer", 0, False, partner=None, conceded=True, revoke=2), 4, [3, 1, -5, 1],
           "KR1 revoke overrides conceded"),
    # edition-specific
    pytest.param(W20, hand("sechserdreier", 0, False, revoke=1), 4, [12, -20, 4, 4],
                 id="2020 KR1 renonce sechserdreier V=4"),
    pytest.param(W09, hand("sechserdreier", 0, False, revoke=1), 4, [15, -25, 5, 5],
                 id="2009 KR1 renonce sechserdreier V=5"),
    pytest.param(W20, hand("zwiccolo", 3, True, revoke=3), 4, [2, 2, 2, -6],
                 id="2020 KR1 renonce zwiccolo, declarer revokes"),
    pytest.param(W20, hand("dreier", 1, True, revoke=2, bonuses=[D("valat")]), 4, [25, 75, -125, 25],
                 id="2020 KR1 renonce dreier + announced valat (V+A=5+20)"),
    pytest.param(W20, hand("solorufer", 1, True, partner=3, revoke=0, bonuses=[D("valat", made=False)]),
                 4, [-126, 42, 42, 42], id="2020 KR1 renonce solorufer, announced valat x2 (V+A=42)"),
    pytest.param(W09, hand("dreier", 1, True, revoke=2, bonuses=[D("valat")]), 4, [40, 120, -200, 40],
                 id="2009 KR1 renonce dreier + announced valat: 8V=40 in place of V"),
    pytest.param(W09, hand("dreier", 1, True, revoke=2, bonuses=[D("valat", made=False), O("uhu")]), 4,
                 [44, 132, -220, 44], id="2009 KR1 renonce dreier, valat 8V=40 + opp uhu 4 (44)"),
    pytest.param(W09, hand("pagatrufer", 1, True, partner=3, revoke=0, bonuses=[D("pagat"), D("valat")]),
                 4, [-30, 10, 10, 10], id="2009 KR1 renonce pagatrufer valat: 8x1 + pagat 2 (10)"),
    pytest.param(W09, hand("dreier", 1, True, revoke=2, bonuses=[D("valat", announced=False)]), 4,
                 [5, 15, -25, 5], id="2009 KR1 renonce ignores a silent valat (V=5)"),
]


@pytest.mark.parametrize("edition, h, size, expected", RENONCE_CASES)
def test_renonce(edition, h, size, expected):
    check_row(ruleset(edition), h, size, expected)


# --------------------------------------------------------------------------------------------------
# Conceding (schleifen), KR §1; W20 "z.B. Pagatrufer 3 Punkte"
# --------------------------------------------------------------------------------------------------

CONCEDE_CASES = [
    *_both(hand("rufer", 0, False, partner=None, conceded=True), 4, [-3, 1, 1, 1],
           "KR1 rufer conceded 1v3 (n=-1)"),
    *_both(hand("pagatrufer", 1, False, partner=None, conceded=True, bonuses=[D("pagat")]), 4,
           [3, -9, 3, 3], "KR1 pagatrufer conceded n=-(1+2) (W20 '3 Punkte')"),
    *_both(hand("kakadurufer", 2, True, partner=None, conceded=True, bonuses=[D("kakadu", made=False)]),
           4, [7, 7, -21, 7], "KR1 kakadurufer conceded n=-(1+6), won/made ignored"),
]


@pytest.mark.parametrize("edition, h, size, expected", CONCEDE_CASES)
def test_conceded(edition, h, size, expected):
    check_row(ruleset(edition), h, size, expected)


# --------------------------------------------------------------------------------------------------
# 5-table: the dealer sits out and scores 0 (KR §1 "Table", HR "Seats")
# --------------------------------------------------------------------------------------------------

FIVE_CASES = [
    *_both({"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True,
            "bonuses": []}, 5, [0, 1, -1, 1, -1], "HR example rufer at 5 seats"),
    *_both(hand("dreier", 4, True, dealer=2), 5, [-5, -5, 0, -5, 15],
           "KR1 5-table dreier won, dealer 2 out"),
    *_both(hand("uhurufer", 3, True, dealer=1, partner=4, bonuses=[D("uhu")]), 5, [-5, 0, -5, 5, 5],
           "KR1 5-table uhurufer 2v2 (n=1+4), dealer 1 out"),
    *_both(hand("rufer", 0, True, dealer=4, partner=None), 5, [3, -1, -1, -1, 0],
           "KR1 5-table rufer alone, dealer 4 out, Vorhand wraps to 0"),
    pytest.param(W20, hand("sechserdreier", 0, False, dealer=4), 5, [-24, 8, 8, 8, 0],
                 id="2020 KR2 5-table sechserdreier lost -8"),
    pytest.param(W09, hand("sechserdreier", 0, False, dealer=4), 5, [-30, 10, 10, 10, 0],
                 id="2009 KR3 5-table sechserdreier lost -10"),
    pytest.param(W20, hand("zwiccolo", 1, False, dealer=3), 5, [2, -6, 2, 0, 2],
                 id="2020 KR2 5-table zwiccolo lost, dealer 3 out"),
    pytest.param(W20, hand("dreier", 2, True, dealer=0, bonuses=[D("valat", announced=False)]), 5,
                 [0, -15, 45, -15, -15], id="2020 KR2.1 5-table dreier silent valat (n=5+10)"),
    pytest.param(W09, hand("dreier", 2, True, dealer=0, bonuses=[D("valat", announced=False)]), 5,
                 [0, -20, 60, -20, -20], id="2009 KR3 5-table dreier silent valat 4V (n=20)"),
    # Trischaken: dealer 2 sits out, Vorhand is seat 3; loser seat 0 (30, not Vorhand, no mayor)
    pytest.param(W20, {"dealer": 2, "contract": "trischaken", "declarer": 3,
                       "card_points": {"0": "30/0", "1": "20/0", "3": "12/0", "4": "8/0"}}, 5,
                 [-6, 2, 0, 2, 2], id="2020 KR2.2 HR example trischaken at 5, pot 6"),
    pytest.param(W09, {"dealer": 2, "contract": "trischaken", "declarer": 3,
                       "card_points": {"0": "30/0", "1": "20/0", "3": "12/0", "4": "8/0"}}, 5,
                 [-3, 1, 0, 1, 1], id="2009 KR3.1 HR example trischaken at 5, u=1"),
    pytest.param(W20, {"dealer": 2, "contract": "trischaken", "declarer": 3,
                       "card_points": {"0": 10, "1": 20, "3": 30, "4": 10}}, 5,
                 [4, 4, 0, -12, 4], id="2020 KR2.2 5-table Vorhand (seat 3) loser pot 12"),
    pytest.param(W09, {"dealer": 2, "contract": "trischaken", "declarer": 3,
                       "card_points": {"0": 10, "1": 20, "3": 30, "4": 10}}, 5,
                 [2, 2, 0, -6, 2], id="2009 KR3.1 5-table Vorhand (seat 3) loser u=2"),
    pytest.param(W20, {"dealer": 0, "contract": "trischaken",
                       "card_points": {"1": 20, "2": 20, "3": 20, "4": 10}, "revoke": 3}, 5,
                 [0, 6, 6, -18, 6], id="2020 KR2.2 5-table trischaken renonce"),
    pytest.param(W09, {"dealer": 0, "contract": "trischaken",
                       "card_points": {"1": 20, "2": 20, "3": 20, "4": 10}, "revoke": 3}, 5,
                 [0, 2, 2, -6, 2], id="2009 KR3.1 5-table trischaken renonce"),
    *_both(hand("dreier", 2, True, dealer=0, revoke=4), 5, [0, 5, 15, 5, -25],
           "KR1 5-table renonce in dreier by seat 4"),
    *_both({"dealer": 0, "outcome": "struck"}, 5, [0, 0, 0, 0, 0], "KR1 5-table struck"),
    *_both({"dealer": 0, "outcome": "manual", "scores": [0, 4, -2, -1, -1]}, 5, [0, 4, -2, -1, -1],
           "HR 5-table manual row"),
]


@pytest.mark.parametrize("edition, h, size, expected", FIVE_CASES)
def test_five_table(edition, h, size, expected):
    check_row(ruleset(edition), h, size, expected)


# --------------------------------------------------------------------------------------------------
# struck and manual hands
# --------------------------------------------------------------------------------------------------

OUTCOME_CASES = [
    *_both({"dealer": 3, "outcome": "struck"}, 4, [0, 0, 0, 0], "KR1 struck hand"),
    *_both({"dealer": 3, "outcome": "manual", "scores": [5, -3, -1, -1]}, 4, [5, -3, -1, -1],
           "HR manual row returned as given"),
]


@pytest.mark.parametrize("edition, h, size, expected", OUTCOME_CASES)
def test_outcomes(edition, h, size, expected):
    check_row(ruleset(edition), h, size, expected)


# --------------------------------------------------------------------------------------------------
# validation (KR §1 "Validation"): some in both editions, some differing between them
# --------------------------------------------------------------------------------------------------

def _both_invalid(h, size, keywords, id_):
    return [pytest.param(e, h, size, keywords, id=f"{e} {id_}") for e in EDITIONS]


INVALID_CASES = [
    *_both_invalid(hand("besserrufer", 1, partner=3, bonuses=[D("pagat")]), 4,
                   ("contract", "besserrufer"), "KR2 no besserrufer in the WTC"),
    *_both_invalid(hand("foo", 1), 4, ("contract", "foo"), "unknown contract"),
    *_both_invalid(hand("rufer", 0, partner=2, bonuses=[D("mondfang")]), 4, ("mondfang", "bonus"),
                   "KR2 no mondfang in the WTC"),
    *_both_invalid(hand("dreier", 1, bonuses=[D("sack1")]), 4, ("sack1", "sack", "bonus"),
                   "KR2 no sack1 in the WTC"),
    *_both_invalid(hand("farbendreier", 1, bonuses=[O("sack2")]), 4, ("sack2", "sack", "bonus"),
                   "KR2 no sack2 in the WTC"),
    # Vorhand only (dealer 3 -> Vorhand 0)
    *_both_invalid(hand("rufer", 1, partner=2), 4, ("vorhand",), "KR2 rufer by non-Vorhand"),
    *_both_invalid(hand("sechserdreier", 2), 4, ("vorhand",), "KR2 sechserdreier by non-Vorhand"),
    *_both_invalid(trisch4(20, 30, 12, 8, declarer=2), 4, ("vorhand",),
                   "KR2 trischaken declared by non-Vorhand"),
    # bird callers carry their announced bird (KR §1)
    *_both_invalid(hand("pagatrufer", 1, partner=3), 4, ("pagat", "bird", "pagatrufer"),
                   "KR1 pagatrufer without its bird"),
    *_both_invalid(hand("uhurufer", 1, partner=3, bonuses=[D("uhu", announced=False)]), 4,
                   ("uhu", "bird", "uhurufer", "announced"), "KR1 uhurufer with a silent uhu only"),
    *_both_invalid(hand("kakadurufer", 1, partner=3, bonuses=[D("pagat")]), 4,
                   ("kakadu", "bird", "kakadurufer"), "KR1 kakadurufer naming another bird"),
    *_both_invalid(hand("quapilrufer", 1, partner=3, bonuses=[O("quapil")]), 4,
                   ("quapil", "bird", "quapilrufer"), "KR1 quapilrufer, bird announced by opponents"),
    # bonuses not allowed for the family
    *_both_invalid(hand("dreier", 1, bonuses=[D("koenig_ultimo")]), 4,
                   ("koenig_ultimo", "ultimo", "könig", "allowed"), "KR1 koenig_ultimo in a dreier"),
    *_both_invalid(hand("farbendreier", 1, bonuses=[D("pagat")]), 4, ("pagat", "bonus", "allowed"),
                   "KR1 pagat in a farbendreier"),
    *_both_invalid(hand("farbensolo", 1, bonuses=[D("trull", announced=False)]), 4,
                   ("trull", "bonus", "allowed"), "KR1 trull in a farbensolo"),
    *_both_invalid(hand("bettler", 1, bonuses=[D("valat")]), 4, ("valat", "bonus", "allowed"),
                   "KR1 valat in a bettler"),
    *_both_invalid(trisch4(20, 30, 12, 8, bonuses=[D("pagat")]), 4, ("pagat", "bonus", "allowed"),
                   "KR1 bonus in trischaken"),
    # silent non-bird bonuses cannot fail
    *_both_invalid(hand("rufer", 0, partner=2, bonuses=[D("trull", announced=False, made=False)]), 4,
                   ("trull", "silent", "fail", "made"), "KR1 silent trull failed"),
    *_both_invalid(hand("rufer", 0, partner=2, bonuses=[O("vier_koenige", announced=False, made=False)]),
                   4, ("vier_koenige", "silent", "fail", "made"), "KR1 silent vier_koenige failed"),
    *_both_invalid(hand("rufer", 0, partner=2, bonuses=[D("valat", announced=False, made=False)]), 4,
                   ("valat", "silent", "fail", "made"), "KR1 silent valat failed"),
    *_both_invalid(hand("rufer", 0, partner=None, bonuses=[D("koenig_ultimo")]), 4,
                   ("partner", "king", "könig", "ultimo"), "KR1 koenig_ultimo without a partner"),
    *_both_invalid(hand("dreier", 1, bonuses=[D("pagat"), O("pagat", made=False)]), 4,
                   ("pagat", "once", "twice", "more than", "duplicate"), "KR1 same bonus twice"),
    # Valat and won
    *_both_invalid(hand("rufer", 0, False, partner=2, bonuses=[D("valat")]), 4, ("valat", "won"),
                   "KR1 declarer valat made with won false"),
    *_both_invalid(hand("dreier", 1, True, bonuses=[O("valat", announced=False)]), 4, ("valat", "won"),
                   "KR1 opponents valat made with won true"),
    # partner outside king calls, seats
    *_both_invalid(hand("dreier", 1, partner=2), 4, ("partner",), "KR1 partner in a dreier"),
    *_both_invalid(hand("dreier", 0, dealer=0), 5, ("declarer", "sit", "out"),
                   "KR1 sitting-out dealer as declarer"),
    *_both_invalid(hand("dreier", 1, True, dealer=0, revoke=0), 5, ("revoke", "renonce", "sit", "out"),
                   "KR1 revoke by the sitting-out dealer"),
    *_both_invalid(hand("solorufer", 1, False, partner=None, conceded=True), 4,
                   ("solorufer", "conce", "talon", "schleif"), "KR1 conceding a solorufer"),
    # Trischaken card points
    *_both_invalid(trisch4(12, 30, 20, 10), 4, ("70", "sum"), "KR1 trischaken points add to 72"),
    *_both_invalid({"dealer": 0, "contract": "trischaken", "declarer": 1,
                    "card_points": {"0": 10, "1": 20, "2": 20, "3": 10, "4": 10}}, 5,
                   ("sit", "out", "seat", "0"), "KR1 trischaken sitting-out seat present"),
    *_both_invalid({"dealer": 3, "outcome": "manual", "scores": [9, -1, -1, -1]}, 4, ("6",),
                   "HR manual row sums to 6"),
    # edition differences
    pytest.param(W09, hand("zwiccolo", 1), 4, ("contract", "zwiccolo"), id="2009 KR3 no zwiccolo"),
    pytest.param(W09, hand("zwiccolo_ouvert", 1), 4, ("contract", "zwiccolo"),
                 id="2009 KR3 no zwiccolo_ouvert"),
    # W20: an announced Valat excludes announced Trull and announced Vier Könige
    pytest.param(W20, hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("trull")]), 4,
                 ("valat", "trull"), id="2020 KR1 announced valat with announced trull"),
    pytest.param(W20, hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("vier_koenige")]), 4,
                 ("valat", "vier", "könig", "koenig"), id="2020 KR1 announced valat with announced vier_koenige"),
    pytest.param(W20, hand("dreier", 1, True, bonuses=[D("valat", made=False), D("trull")]), 4,
                 ("valat", "trull"), id="2020 KR1 failed announced valat with announced trull"),
    pytest.param(W20, hand("dreier", 1, True, bonuses=[D("valat", made=False), O("trull")]), 4,
                 ("valat", "trull"),
                 id="2020 KR1 announced valat with the opponents' announced trull"),
]


@pytest.mark.parametrize("edition, h, size, keywords", INVALID_CASES)
def test_invalid(edition, h, size, keywords):
    assert_invalid(ruleset(edition), h, size, *keywords)


@pytest.mark.parametrize("edition, h", [
    pytest.param(W09, hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("trull")]),
                 id="2009 announced valat + announced trull (the exclusion is W20's)"),
    pytest.param(W09, hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("vier_koenige")]),
                 id="2009 announced valat + announced vier_koenige"),
    pytest.param(W20, hand("rufer", 0, True, partner=2, bonuses=[D("valat", announced=False), D("trull")]),
                 id="2020 silent valat + announced trull"),
    pytest.param(W20, hand("zwiccolo", 1), id="2020 zwiccolo"),
    pytest.param(W20, hand("zwiccolo_ouvert", 1), id="2020 zwiccolo_ouvert"),
])
def test_valid(edition, h):
    assert ruleset(edition).validate(copy.deepcopy(h), 4) == []


def test_same_hand_valid_in_one_edition_invalid_in_the_other(w20, w09):
    """KR §1 Validation "(W20) an announced Valat excludes announced Trull"; KR §3 "No Zwiccolo"."""
    valat_trull = hand("rufer", 0, True, partner=2, bonuses=[D("valat"), D("trull")])
    assert w20.validate(copy.deepcopy(valat_trull), 4)
    assert w09.validate(copy.deepcopy(valat_trull), 4) == []
    assert list(w09.score(copy.deepcopy(valat_trull), 4)) == [10, -10, 10, -10]  # 8V + 2
    zwiccolo = hand("zwiccolo", 1, True)
    assert w20.validate(copy.deepcopy(zwiccolo), 4) == []
    assert w09.validate(copy.deepcopy(zwiccolo), 4)


def test_same_valat_scores_differently(w20, w09):
    """KR §2.1 (10 added to the game) vs KR §3 (4V in place of the game)."""
    h = hand("dreier", 1, True, bonuses=[D("valat", announced=False)])
    assert list(w20.score(copy.deepcopy(h), 4)) == [-15, 45, -15, -15]  # 5 + 10
    assert list(w09.score(copy.deepcopy(h), 4)) == [-20, 60, -20, -20]  # 4 x 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_validate_and_score_do_not_mutate(edition):
    rs = ruleset(edition)
    h = hand("pagatrufer", 1, True, partner=3,
             bonuses=[D("pagat"), D("trull", announced=False), D("valat", announced=False)])
    before = copy.deepcopy(h)
    rs.validate(h, 4)
    rs.score(h, 4)
    assert h == before


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
def random_hands(draw, edition):
    table = CONTRACTS[edition]
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
    contract = draw(st.sampled_from(sorted(table)))
    value, family, vorhand_only, solo, bird, _ = table[contract]
    h = {"dealer": dealer, "contract": contract}
    if family == "trischaken":
        cuts = sorted(draw(st.lists(st.integers(0, 210), min_size=3, max_size=3)))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 210 - cuts[2]]
        if draw(st.booleans()):  # bias toward ties and Jungfrauen
            parts = draw(st.sampled_from([[0, 70, 70, 70], [0, 0, 105, 105], [60, 60, 45, 45],
                                          [0, 0, 0, 210], [107, 103, 0, 0], [106, 104, 0, 0],
                                          [108, 102, 0, 0], [75, 75, 60, 0]]))
            parts = draw(st.permutations(parts))
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
    bonuses = [B(key, draw(st.sampled_from(["declarer", "opponents"])), draw(st.booleans()),
                 draw(st.booleans())) for key in chosen]
    if bird and draw(st.integers(0, 5)) > 0:
        bonuses = [b for b in bonuses if b["bonus"] != bird]
        bonuses.append(D(bird, True, draw(st.booleans())))
    h["bonuses"] = bonuses
    if family == "king_call" and draw(st.integers(0, 5)) == 0:
        h["conceded"] = True
    if draw(st.integers(0, 6)) == 0:
        h["revoke"] = draw(st.sampled_from(active))
    return h, size


def _check_property(rs, case):
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


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow,
                                 HealthCheck.function_scoped_fixture])
@given(random_hands(W20))
def test_property_zero_sum_and_sitting_out_2020(w20, case):
    _check_property(w20, case)


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow,
                                 HealthCheck.function_scoped_fixture])
@given(random_hands(W09))
def test_property_zero_sum_and_sitting_out_2009(w09, case):
    _check_property(w09, case)
