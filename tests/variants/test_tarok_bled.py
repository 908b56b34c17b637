"""Rule tests for the Slovenian Tarok ruleset, Bled tournament rules (key "tarok-bled", edition "2005").

Every expected row below was computed by hand from the rule text and the lead's written decisions,
never from the engine:

- ``§n``  = ``../shared/rules/tarok-bled.md`` section n;
- ``HR``  = ``../shared/rules/hand-record.md``;
- ``TF``  = ``../shared/rules/tournament-formats.md`` §1, §3;
- ``Dn``  = decision n of the lead where the rule text is silent (bonus sign D1, valat D2, Solo/Bera
  D3, Klop D4, radelci D5, normal games D6, 4-table D7, manual rows D8).

Arithmetic (§3), written out by hand for every case:

- normal game: ``won = p > 35``; ``d = |p - 35|`` (option ``round_difference``: to the nearest
  multiple of 5, 12 -> 10, 13 -> 15, 2 -> 0, 3 -> 5); ``game = (value + d) x (+1 | -1) x 2**kontra``
  with value trojka 10, dvojko 20, enojko 30;
- bonuses (silent / announced): trula 10/20, kralji 10/20, pagat_ultimo 25/50; an announced bonus with
  kontra k is worth value x 2**k; the game kontra does not multiply bonuses; sign D1;
- valat (D2): p 70 silent +250, announced +500, announced and failed -500; p 0 -250, opponents'
  announced -500, opponents' announced and failed +500; all x 2**kontra of the game, replacing game,
  difference and bonuses;
- Solo ``+-80 x 2**kontra`` (option ``solo_difference``: ``+-(80 + d)``); Bera ``+-70 x 2**kontra``;
- rows are declarer-only: the declarer's seat has the total, every other seat 0, plus the Mond
  penalty (-21, option -20) on the seat in ``mond_lost_by``, never multiplied;
- radelci (§5, D5): a declarer holding >= 1 radelc has his hand score (not the Mond) doubled once;
- Klop (§4): the formula of §4, every active player scores his own result.

Unless said otherwise a 3-table hand has ``dealer = 2`` (forehand seat 0) and a 4-table hand has
``dealer = 3`` (seat 3 rests, forehand seat 0), HR "Seats".
"""

from __future__ import annotations

import copy

import pytest

from variants import InvalidHand, get_ruleset

KEY = "tarok-bled"


@pytest.fixture(scope="module")
def rs():
    return get_ruleset(KEY)


@pytest.fixture(scope="module")
def rs_round():
    return get_ruleset(KEY, options={"round_difference": True})


@pytest.fixture(scope="module")
def rs_mond20():
    return get_ruleset(KEY, options={"mond_penalty_20": True})


@pytest.fixture(scope="module")
def rs_solo_diff():
    return get_ruleset(KEY, options={"solo_difference": True})


@pytest.fixture(scope="module")
def table_points():
    from variants.bled import table_points as tp

    return tp


# --------------------------------------------------------------------------------------------------
# helpers (building records and comparing rows only; no scoring logic)
# --------------------------------------------------------------------------------------------------


def g(contract, declarer, p, dealer=2, **extra):
    """A card-point contract (trojka, dvojko, enojko, solo), HR "Fields"."""
    h = {"dealer": dealer, "contract": contract, "declarer": declarer, "declarer_points": p}
    h.update(extra)
    return h


def bera(declarer, won, dealer=2, **extra):
    h = {"dealer": dealer, "contract": "berac", "declarer": declarer, "won": won}
    h.update(extra)
    return h


def klop(points, dealer=2, **extra):
    """A Klop; ``points`` maps active seat -> card points (keys written as strings, HR)."""
    h = {"dealer": dealer, "contract": "klop", "card_points": {str(s): v for s, v in points.items()}}
    h.update(extra)
    return h


def klop3(dealer):
    """A plain Klop at a 3-table (20 / 30 / 20), for histories."""
    return klop({0: 20, 1: 30, 2: 20}, dealer=dealer)


def klop4(dealer):
    """A plain Klop at a 4-table: the three active seats get 20 / 30 / 20."""
    active = [s for s in range(4) if s != dealer]
    return klop(dict(zip(active, [20, 30, 20])), dealer=dealer)


def struck(dealer=2, **extra):
    h = {"dealer": dealer, "outcome": "struck"}
    h.update(extra)
    return h


def manual(scores, dealer=2, **extra):
    h = {"dealer": dealer, "outcome": "manual", "scores": list(scores)}
    h.update(extra)
    return h


def bonus(key, team, announced, made, kontra=None):
    b = {"bonus": key, "team": team, "announced": announced, "made": made}
    if kontra is not None:
        b["kontra"] = kontra
    return b


def Dn(key, announced=True, made=True, kontra=None):
    """A bonus of the declarer's team."""
    return bonus(key, "declarer", announced, made, kontra)


def Op(key, announced=True, made=True, kontra=None):
    """A bonus of the opponents."""
    return bonus(key, "opponents", announced, made, kontra)


def check(rs, h, size, expected, history=()):
    """``validate`` accepts the hand and ``score`` returns exactly ``expected`` (Bled rows are not
    zero-sum, §3)."""
    assert len(expected) == size, "test data error: row length"
    errors = rs.validate(copy.deepcopy(h), size, history=copy.deepcopy(list(history)))
    assert not list(errors), f"valid hand rejected: {errors}"
    row = list(rs.score(copy.deepcopy(h), size, history=copy.deepcopy(list(history))))
    assert all(isinstance(x, int) and not isinstance(x, bool) for x in row), row
    assert row == list(expected)


def invalid(rs, h, size, history=()):
    """``validate`` reports at least one problem and ``score`` raises InvalidHand with errors."""
    errors = rs.validate(copy.deepcopy(h), size, history=copy.deepcopy(list(history)))
    assert list(errors), f"expected the hand to be invalid: {h}"
    with pytest.raises(InvalidHand) as exc:
        rs.score(copy.deepcopy(h), size, history=copy.deepcopy(list(history)))
    assert exc.value.errors, "InvalidHand.errors must list the problems"


# --------------------------------------------------------------------------------------------------
# identity (HR "Context passed with a hand")
# --------------------------------------------------------------------------------------------------


def test_ruleset_identity(rs):
    assert rs.key == KEY
    assert rs.edition == "2005"


# --------------------------------------------------------------------------------------------------
# every contract won and lost, 3-table (dealer 2, forehand 0); §2 values, §3 formula
# --------------------------------------------------------------------------------------------------

CONTRACT3_CASES = [
    # trojka, forehand only
    pytest.param(g("trojka", 0, 40), [15, 0, 0], id="§3 trojka won p=40: (10 + 5) = 15"),
    pytest.param(g("trojka", 0, 30), [-15, 0, 0], id="§3 trojka lost p=30: -(10 + 5) = -15"),
    pytest.param(g("trojka", 0, 60), [35, 0, 0], id="§3 trojka won p=60: (10 + 25) = 35"),
    pytest.param(g("trojka", 0, 12), [-33, 0, 0], id="§3 trojka lost p=12: -(10 + 23) = -33"),
    # dvojko, any player
    pytest.param(g("dvojko", 1, 50), [0, 35, 0], id="§3 dvojko won p=50: (20 + 15) = 35"),
    pytest.param(g("dvojko", 1, 20), [0, -35, 0], id="§3 dvojko lost p=20: -(20 + 15) = -35"),
    pytest.param(g("dvojko", 0, 44), [29, 0, 0], id="§3 dvojko by forehand won p=44: (20 + 9) = 29"),
    # enojko, the dealer plays at a 3-table
    pytest.param(g("enojko", 2, 45), [0, 0, 40], id="§3 enojko by the dealer won p=45: (30 + 10) = 40"),
    pytest.param(g("enojko", 2, 25), [0, 0, -40], id="§3 enojko lost p=25: -(30 + 10) = -40"),
    pytest.param(g("enojko", 1, 66), [0, 61, 0], id="§3 enojko won p=66: (30 + 31) = 61"),
    # berac: ±70 by won
    pytest.param(bera(1, True), [0, 70, 0], id="§3 bera won: +70"),
    pytest.param(bera(1, False), [0, -70, 0], id="§3 bera lost: -70"),
    pytest.param(bera(0, True), [70, 0, 0], id="§3 bera by forehand won: +70"),
    pytest.param(bera(2, False), [0, 0, -70], id="§3 bera by the dealer lost: -70"),
    # solo: ±80, won when p > 35, no difference
    pytest.param(g("solo", 1, 40), [0, 80, 0], id="§3 solo won p=40: +80 (no difference)"),
    pytest.param(g("solo", 1, 30), [0, -80, 0], id="§3 solo lost p=30: -80"),
    pytest.param(g("solo", 2, 36), [0, 0, 80], id="§3 solo won p=36: +80"),
    pytest.param(g("solo", 2, 35), [0, 0, -80], id="§3 solo p=35 loses: -80"),
    pytest.param(g("solo", 0, 70), [80, 0, 0], id="D3 solo p=70 no valat special case: +80"),
    pytest.param(g("solo", 0, 0), [-80, 0, 0], id="D3 solo p=0 no valat special case: -80"),
    # optional consistent won (HR "won")
    pytest.param(g("dvojko", 1, 50, won=True), [0, 35, 0], id="HR dvojko p=50 won true consistent: 35"),
    pytest.param(g("trojka", 0, 35, won=False), [-10, 0, 0],
                 id="HR trojka p=35 won false consistent: -(10 + 0)"),
    pytest.param(g("solo", 1, 40, won=True), [0, 80, 0], id="HR solo p=40 won true consistent: 80"),
    # points as strings (HR "Card points")
    pytest.param(g("dvojko", 1, "50"), [0, 35, 0], id="HR p as string '50': 35"),
    pytest.param(g("enojko", 1, "30"), [0, -35, 0], id="HR p as string '30': -(30 + 5) = -35"),
    # forehand wraps: dealer 0 -> forehand 1, dealer 1 -> forehand 2
    pytest.param(g("trojka", 1, 41, dealer=0), [0, 16, 0], id="HR trojka by forehand 1 (dealer 0): 10 + 6 = 16"),
    pytest.param(g("trojka", 2, 29, dealer=1), [0, 0, -16],
                 id="HR trojka by forehand 2 (dealer 1) lost: -(10 + 6) = -16"),
    # explicit defaults (HR "Fields")
    pytest.param(g("dvojko", 1, 50, kontra=0, bonuses=[], mond_lost_by=None, outcome="played"), [0, 35, 0],
                 id="HR defaults written out: 35"),
]


@pytest.mark.parametrize("h, expected", CONTRACT3_CASES)
def test_contracts_three_table(rs, h, expected):
    check(rs, h, 3, expected)


# --------------------------------------------------------------------------------------------------
# kontra on the game (§3: × 2**kontra; Bera and Solo too)
# --------------------------------------------------------------------------------------------------

KONTRA_CASES = [
    pytest.param(g("dvojko", 1, 50, kontra=1), [0, 70, 0], id="§3 dvojko won kontra: 35 × 2 = 70"),
    pytest.param(g("dvojko", 1, 50, kontra=2), [0, 140, 0], id="§3 dvojko won re: 35 × 4 = 140"),
    pytest.param(g("dvojko", 1, 50, kontra=3), [0, 280, 0], id="§3 dvojko won sub: 35 × 8 = 280"),
    pytest.param(g("dvojko", 1, 50, kontra=4), [0, 560, 0], id="§3 dvojko won mort: 35 × 16 = 560"),
    pytest.param(g("enojko", 1, 30, kontra=1), [0, -70, 0], id="§3 enojko lost kontra: -(30 + 5) × 2 = -70"),
    pytest.param(g("enojko", 1, 30, kontra=3), [0, -280, 0], id="§3 enojko lost sub: -(30 + 5) × 8 = -280"),
    pytest.param(g("trojka", 0, 40, kontra=1), [30, 0, 0], id="§3 trojka won kontra: 15 × 2 = 30"),
    pytest.param(g("trojka", 0, 18, kontra=2), [-108, 0, 0], id="§3 trojka lost re: -(10 + 17) × 4 = -108"),
    pytest.param(g("trojka", 0, 35, kontra=4), [-160, 0, 0], id="§3 trojka p=35 mort: -(10 + 0) × 16 = -160"),
    pytest.param(g("enojko", 2, 70 - 1, kontra=4), [0, 0, 1024],
                 id="§3 enojko won p=69 mort: (30 + 34) × 16 = 1024"),
    pytest.param(bera(1, True, kontra=1), [0, 140, 0], id="§3 bera won kontra: 70 × 2 = 140"),
    pytest.param(bera(1, False, kontra=2), [0, -280, 0], id="§3 bera lost re: -70 × 4 = -280"),
    pytest.param(bera(2, True, kontra=3), [0, 0, 560], id="§3 bera won sub: 70 × 8 = 560"),
    pytest.param(bera(0, False, kontra=4), [-1120, 0, 0], id="§3 bera lost mort: -70 × 16 = -1120"),
    pytest.param(g("solo", 1, 40, kontra=1), [0, 160, 0], id="§3 solo won kontra: 80 × 2 = 160"),
    pytest.param(g("solo", 1, 30, kontra=2), [0, -320, 0], id="§3 solo lost re: -80 × 4 = -320"),
    pytest.param(g("solo", 0, 55, kontra=3), [640, 0, 0], id="§3 solo won sub: 80 × 8 = 640"),
    pytest.param(g("solo", 2, 10, kontra=4), [0, 0, -1280], id="§3 solo lost mort: -80 × 16 = -1280"),
]


@pytest.mark.parametrize("h, expected", KONTRA_CASES)
def test_kontra(rs, h, expected):
    check(rs, h, 3, expected)


# --------------------------------------------------------------------------------------------------
# the difference d = |p - 35| (§3, D6), trojka by forehand 0
# --------------------------------------------------------------------------------------------------

DIFFERENCE_CASES = [
    pytest.param(35, [-10, 0, 0], id="§3 p=35 loses, d=0: -(10 + 0) = -10"),
    pytest.param(36, [11, 0, 0], id="§3 p=36 wins, d=1: 10 + 1 = 11"),
    pytest.param(34, [-11, 0, 0], id="§3 p=34 loses, d=1: -(10 + 1) = -11"),
    pytest.param(47, [22, 0, 0], id="§3 p=47 d=12 exact: 10 + 12 = 22"),
    pytest.param(48, [23, 0, 0], id="§3 p=48 d=13 exact: 10 + 13 = 23"),
    pytest.param(69, [44, 0, 0], id="§3 p=69 d=34: 10 + 34 = 44"),
    pytest.param(1, [-44, 0, 0], id="§3 p=1 d=34: -(10 + 34) = -44"),
    pytest.param(70, [250, 0, 0], id="§3/D2 p=70 is the declarer's silent valat: +250 (not 10 + 35)"),
    pytest.param(0, [-250, 0, 0], id="§3/D2 p=0 is the defenders' valat: -250 (not -(10 + 35))"),
]


@pytest.mark.parametrize("p, expected", DIFFERENCE_CASES)
def test_difference(rs, p, expected):
    check(rs, g("trojka", 0, p), 3, expected)


ROUND_CASES = [
    pytest.param(g("trojka", 0, 47), [20, 0, 0], id="§3 option round: p=47 d=12 -> 10: 10 + 10 = 20"),
    pytest.param(g("trojka", 0, 48), [25, 0, 0], id="§3 option round: p=48 d=13 -> 15: 10 + 15 = 25"),
    pytest.param(g("trojka", 0, 37), [10, 0, 0], id="§3 option round: p=37 d=2 -> 0: 10 + 0 = 10 (won)"),
    pytest.param(g("trojka", 0, 38), [15, 0, 0], id="§3 option round: p=38 d=3 -> 5: 10 + 5 = 15"),
    pytest.param(g("trojka", 0, 36), [10, 0, 0], id="§3 option round: p=36 d=1 -> 0: 10 (won)"),
    pytest.param(g("trojka", 0, 34), [-10, 0, 0], id="§3 option round: p=34 d=1 -> 0: -10 (lost)"),
    pytest.param(g("trojka", 0, 35), [-10, 0, 0], id="§3 option round: p=35 d=0: -10"),
    pytest.param(g("trojka", 0, 33), [-10, 0, 0], id="§3 option round: p=33 d=2 -> 0: -10"),
    pytest.param(g("dvojko", 1, 22), [0, -35, 0], id="§3 option round: p=22 d=13 -> 15: -(20 + 15) = -35"),
    pytest.param(g("dvojko", 1, 23), [0, -30, 0], id="§3 option round: p=23 d=12 -> 10: -(20 + 10) = -30"),
    pytest.param(g("trojka", 0, 69), [45, 0, 0], id="§3 option round: p=69 d=34 -> 35: 10 + 35 = 45"),
    pytest.param(g("enojko", 1, 1), [0, -65, 0], id="§3 option round: p=1 d=34 -> 35: -(30 + 35) = -65"),
    pytest.param(g("enojko", 1, 51), [0, 45, 0], id="§3 option round: p=51 d=16 -> 15: 30 + 15 = 45"),
    pytest.param(g("dvojko", 1, 47, kontra=1), [0, 60, 0],
                 id="§3 option round: p=47 d=10, kontra: (20 + 10) × 2 = 60"),
    pytest.param(g("solo", 1, 47), [0, 80, 0], id="§3 option round does not touch the fixed Solo 80"),
    pytest.param(g("trojka", 0, 70), [250, 0, 0], id="§3 option round: p=70 is still a silent valat 250"),
]


@pytest.mark.parametrize("h, expected", ROUND_CASES)
def test_round_difference_option(rs_round, h, expected):
    check(rs_round, h, 3, expected)


SOLO_DIFF_CASES = [
    pytest.param(g("solo", 1, 40), [0, 85, 0], id="§3 option solo_difference: p=40 80 + 5 = 85"),
    pytest.param(g("solo", 1, 30), [0, -85, 0], id="§3 option solo_difference: p=30 -(80 + 5) = -85"),
    pytest.param(g("solo", 1, 35), [0, -80, 0], id="§3 option solo_difference: p=35 -(80 + 0) = -80"),
    pytest.param(g("solo", 2, 50, kontra=1), [0, 0, 190],
                 id="§3 option solo_difference: p=50 kontra (80 + 15) × 2 = 190"),
    pytest.param(g("solo", 0, 70), [115, 0, 0], id="§3/D3 option solo_difference: p=70 80 + 35 = 115"),
    pytest.param(g("dvojko", 1, 50), [0, 35, 0], id="§3 option solo_difference leaves dvojko alone: 35"),
]


@pytest.mark.parametrize("h, expected", SOLO_DIFF_CASES)
def test_solo_difference_option(rs_solo_diff, h, expected):
    check(rs_solo_diff, h, 3, expected)


def test_solo_difference_with_round_difference():
    """§3 both options: d = |47 - 35| = 12 rounds to 10; Solo 80 + 10 = 90."""
    rs = get_ruleset(KEY, options={"solo_difference": True, "round_difference": True})
    check(rs, g("solo", 1, 47), 3, [0, 90, 0])


# --------------------------------------------------------------------------------------------------
# bonuses (§3, D1); base: trojka by forehand 0, p=40 -> game 15
# --------------------------------------------------------------------------------------------------

BONUS_CASES = [
    # trula 10/20
    pytest.param(Dn("trula", False, True), 25, id="§3 trula silent by declarer made: 15 + 10 = 25"),
    pytest.param(Dn("trula", True, True), 35, id="§3 trula announced by declarer made: 15 + 20 = 35"),
    pytest.param(Dn("trula", True, False), -5, id="§3/D1 trula announced by declarer failed: 15 - 20 = -5"),
    pytest.param(Op("trula", False, True), 5, id="§3/D1 trula silent by opponents made: 15 - 10 = 5"),
    pytest.param(Op("trula", True, True), -5, id="§3/D1 trula announced by opponents made: 15 - 20 = -5"),
    pytest.param(Op("trula", True, False), 35, id="§3 trula announced by opponents failed: 15 + 20 = 35"),
    # kralji 10/20
    pytest.param(Dn("kralji", False, True), 25, id="§3 kralji silent by declarer made: 15 + 10 = 25"),
    pytest.param(Dn("kralji", True, True), 35, id="§3 kralji announced by declarer made: 15 + 20 = 35"),
    pytest.param(Dn("kralji", True, False), -5, id="§3/D1 kralji announced by declarer failed: 15 - 20 = -5"),
    pytest.param(Op("kralji", False, True), 5, id="§3/D1 kralji silent by opponents made: 15 - 10 = 5"),
    pytest.param(Op("kralji", True, True), -5, id="§3/D1 kralji announced by opponents made: 15 - 20 = -5"),
    pytest.param(Op("kralji", True, False), 35, id="§3 kralji announced by opponents failed: 15 + 20 = 35"),
    # pagat_ultimo 25/50
    pytest.param(Dn("pagat_ultimo", False, True), 40, id="§3 pagat silent by declarer made: 15 + 25 = 40"),
    pytest.param(Dn("pagat_ultimo", False, False), -10,
                 id="§3/D1 pagat silent by declarer beaten: 15 - 25 = -10"),
    pytest.param(Dn("pagat_ultimo", True, True), 65, id="§3 pagat announced by declarer made: 15 + 50 = 65"),
    pytest.param(Dn("pagat_ultimo", True, False), -35,
                 id="§3/D1 pagat announced by declarer failed: 15 - 50 = -35"),
    pytest.param(Op("pagat_ultimo", False, True), -10,
                 id="§3/D1 pagat silent by opponents made: 15 - 25 = -10"),
    pytest.param(Op("pagat_ultimo", False, False), 40,
                 id="D1 pagat silent by opponents beaten: 15 + 25 = 40"),
    pytest.param(Op("pagat_ultimo", True, True), -35,
                 id="§3/D1 pagat announced by opponents made: 15 - 50 = -35"),
    pytest.param(Op("pagat_ultimo", True, False), 65,
                 id="§3 pagat announced by opponents failed: 15 + 50 = 65"),
    # bonus kontra: value × 2**k
    pytest.param(Dn("trula", True, True, kontra=1), 55, id="§3 trula announced made kontra: 15 + 20×2 = 55"),
    pytest.param(Dn("trula", True, True, kontra=2), 95, id="§3 trula announced made re: 15 + 20×4 = 95"),
    pytest.param(Dn("kralji", True, False, kontra=1), -25,
                 id="§3/D1 kralji announced failed kontra: 15 - 20×2 = -25"),
    pytest.param(Op("kralji", True, True, kontra=4), -305,
                 id="§3/D1 opponents' kralji made mort: 15 - 20×16 = -305"),
    pytest.param(Op("trula", True, False, kontra=3), 175,
                 id="§3 opponents' trula failed sub: 15 + 20×8 = 175"),
    pytest.param(Dn("pagat_ultimo", True, True, kontra=4), 815,
                 id="§3 pagat announced made mort: 15 + 50×16 = 815"),
    pytest.param(Dn("pagat_ultimo", True, False, kontra=2), -185,
                 id="§3/D1 pagat announced failed re: 15 - 50×4 = -185"),
    pytest.param(Op("pagat_ultimo", True, False, kontra=3), 415,
                 id="§3 opponents' pagat failed sub: 15 + 50×8 = 415"),
    pytest.param(Op("pagat_ultimo", True, True, kontra=1), -85,
                 id="§3/D1 opponents' pagat made kontra: 15 - 50×2 = -85"),
    pytest.param(Dn("trula", True, True, kontra=0), 35, id="§3 bonus kontra 0 written out: 15 + 20 = 35"),
]


@pytest.mark.parametrize("b, total", BONUS_CASES)
def test_bonus(rs, b, total):
    check(rs, g("trojka", 0, 40, bonuses=[b]), 3, [total, 0, 0])


BONUS_MIX_CASES = [
    # the game's kontra does not multiply bonuses (§3)
    pytest.param(g("trojka", 0, 40, kontra=1, bonuses=[Dn("trula", False, True)]), [40, 0, 0],
                 id="§3 game kontra only on the game: 15×2 + 10 = 40"),
    pytest.param(g("trojka", 0, 40, kontra=2, bonuses=[Dn("pagat_ultimo", True, True)]), [110, 0, 0],
                 id="§3 game re only on the game: 15×4 + 50 = 110"),
    pytest.param(g("trojka", 0, 40, kontra=3, bonuses=[Op("kralji", True, True)]), [100, 0, 0],
                 id="§3/D1 game sub only on the game: 15×8 - 20 = 100"),
    pytest.param(g("trojka", 0, 40, kontra=1, bonuses=[Dn("trula", True, True, kontra=1)]), [70, 0, 0],
                 id="§3 game kontra and bonus kontra separately: 15×2 + 20×2 = 70"),
    pytest.param(g("trojka", 0, 30, kontra=1, bonuses=[Dn("pagat_ultimo", False, True)]), [-5, 0, 0],
                 id="§3 lost game kontra plus silent pagat: -15×2 + 25 = -5"),
    # bonuses on a lost game
    pytest.param(g("dvojko", 1, 30, bonuses=[Dn("kralji", False, True)]), [0, -15, 0],
                 id="§3 dvojko lost p=30 plus silent kralji: -(20 + 5) + 10 = -15"),
    pytest.param(g("enojko", 2, 20, bonuses=[Op("pagat_ultimo", False, True)]), [0, 0, -70],
                 id="§3/D1 enojko lost p=20 and opponents' silent pagat: -(30 + 15) - 25 = -70"),
    # several bonuses
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("trula", False, True), Op("kralji", True, True),
                                             Dn("pagat_ultimo", True, True, kontra=1)]), [105, 0, 0],
                 id="§3/D1 three bonuses: 15 + 10 - 20 + 50×2 = 105"),
    pytest.param(g("dvojko", 1, 50, bonuses=[Dn("trula", True, True), Dn("kralji", True, True),
                                             Dn("pagat_ultimo", True, True)]), [0, 125, 0],
                 id="§3 all three announced and made: 35 + 20 + 20 + 50 = 125"),
    pytest.param(g("dvojko", 1, 50, bonuses=[Op("trula", False, True), Op("kralji", False, True),
                                             Op("pagat_ultimo", False, True)]), [0, -10, 0],
                 id="§3/D1 all three silent by opponents: 35 - 10 - 10 - 25 = -10"),
    # 4-table
    pytest.param(g("dvojko", 2, 45, dealer=3, bonuses=[Dn("pagat_ultimo", False, True)]), [0, 0, 55, 0],
                 id="§3 4-table dvojko p=45 plus silent pagat: (20 + 10) + 25 = 55"),
]


@pytest.mark.parametrize("h, expected", BONUS_MIX_CASES)
def test_bonus_combinations(rs, h, expected):
    check(rs, h, len(expected), expected)


# --------------------------------------------------------------------------------------------------
# valat (§3 and D2)
# --------------------------------------------------------------------------------------------------

VALAT_CASES = [
    # the declarer's silent valat
    pytest.param(g("trojka", 0, 70), [250, 0, 0], id="§3/D2 silent valat p=70: +250"),
    pytest.param(g("trojka", 0, 70, kontra=1), [500, 0, 0], id="§3/D2 silent valat kontra: 250 × 2 = 500"),
    pytest.param(g("dvojko", 1, 70, kontra=2), [0, 1000, 0], id="§3/D2 silent valat re: 250 × 4 = 1000"),
    pytest.param(g("enojko", 2, 70, kontra=4), [0, 0, 4000], id="§3/D2 silent valat mort: 250 × 16 = 4000"),
    pytest.param(g("dvojko", 1, 70, bonuses=[Dn("valat", False, True)]), [0, 250, 0],
                 id="§3 silent valat recorded as a bonus: +250"),
    # the declarer's announced valat
    pytest.param(g("trojka", 0, 70, bonuses=[Dn("valat")]), [500, 0, 0], id="§3/D2 announced valat made: +500"),
    pytest.param(g("dvojko", 1, 70, kontra=1, bonuses=[Dn("valat")]), [0, 1000, 0],
                 id="§3/D2 announced valat made kontra: 500 × 2 = 1000"),
    pytest.param(g("enojko", 2, 70, kontra=3, bonuses=[Dn("valat")]), [0, 0, 4000],
                 id="§3/D2 announced valat made sub: 500 × 8 = 4000"),
    pytest.param(g("trojka", 0, 60, bonuses=[Dn("valat", True, False)]), [-500, 0, 0],
                 id="§3/D2 announced valat failed p=60: -500 (replaces the game +(10 + 25))"),
    pytest.param(g("dvojko", 1, 20, kontra=1, bonuses=[Dn("valat", True, False)]), [0, -1000, 0],
                 id="§3/D2 announced valat failed p=20 kontra: -500 × 2 = -1000"),
    pytest.param(g("enojko", 1, 69, kontra=2, bonuses=[Dn("valat", True, False)]), [0, -2000, 0],
                 id="§3/D2 announced valat failed p=69 re: -500 × 4 = -2000"),
    # the defenders' valat
    pytest.param(g("trojka", 0, 0), [-250, 0, 0], id="§3/D2 defenders' silent valat p=0: -250"),
    pytest.param(g("trojka", 0, 0, kontra=1), [-500, 0, 0], id="§3/D2 defenders' valat kontra: -250 × 2 = -500"),
    pytest.param(g("dvojko", 1, 0, kontra=4), [0, -4000, 0], id="§3/D2 defenders' valat mort: -250 × 16 = -4000"),
    pytest.param(g("dvojko", 1, 0, bonuses=[Op("valat", False, True)]), [0, -250, 0],
                 id="§3/D2 defenders' silent valat recorded as a bonus: -250"),
    pytest.param(g("trojka", 0, 0, bonuses=[Op("valat")]), [-500, 0, 0],
                 id="§3/D2 defenders' announced valat made: -500"),
    pytest.param(g("dvojko", 2, 0, kontra=2, bonuses=[Op("valat")]), [0, 0, -2000],
                 id="§3/D2 defenders' announced valat made re: -500 × 4 = -2000"),
    pytest.param(g("trojka", 0, 10, bonuses=[Op("valat", True, False)]), [500, 0, 0],
                 id="D2 defenders' announced valat failed p=10: +500 for the declarer"),
    pytest.param(g("dvojko", 1, 50, kontra=1, bonuses=[Op("valat", True, False)]), [0, 1000, 0],
                 id="D2 defenders' announced valat failed p=50 kontra: +500 × 2 = 1000"),
    # the Mond penalty still applies (D2), outside kontra
    pytest.param(g("trojka", 0, 70, mond_lost_by=1), [250, -21, 0],
                 id="D2 silent valat with the defender's Mond lost: 250, -21"),
    pytest.param(g("trojka", 0, 0, mond_lost_by=0), [-271, 0, 0],
                 id="D2 defenders' valat and the declarer's Mond: -250 - 21 = -271"),
    pytest.param(g("dvojko", 1, 70, kontra=1, mond_lost_by=2), [0, 500, -21],
                 id="D2 silent valat kontra, Mond not doubled: 500, -21"),
    # 4-table
    pytest.param(g("dvojko", 1, 70, dealer=3), [0, 250, 0, 0], id="§3/D7 4-table silent valat: 250, dealer 0"),
    pytest.param(g("dvojko", 2, 0, dealer=3, bonuses=[Op("valat")]), [0, 0, -500, 0],
                 id="§3/D7 4-table defenders' announced valat: -500, dealer 0"),
]


@pytest.mark.parametrize("h, expected", VALAT_CASES)
def test_valat(rs, h, expected):
    check(rs, h, len(expected), expected)


# --------------------------------------------------------------------------------------------------
# the Mond penalty (§3): -21 (option -20), never multiplied by kontra or radelc
# --------------------------------------------------------------------------------------------------

MOND_CASES = [
    pytest.param(g("trojka", 0, 40, mond_lost_by=0), [-6, 0, 0], id="§3 Mond lost by the declarer: 15 - 21 = -6"),
    pytest.param(g("trojka", 0, 40, mond_lost_by=1), [15, -21, 0], id="§3 Mond lost by a defender: 15, -21"),
    pytest.param(g("trojka", 0, 40, mond_lost_by=2), [15, 0, -21], id="§3 Mond lost by the other defender"),
    pytest.param(g("dvojko", 1, 50, kontra=2, mond_lost_by=2), [0, 140, -21],
                 id="§3 Mond not multiplied by kontra: 35×4 = 140, -21"),
    pytest.param(g("dvojko", 1, 50, kontra=1, mond_lost_by=1), [0, 49, 0],
                 id="§3 Mond on the declarer under kontra: 35×2 - 21 = 49"),
    pytest.param(g("enojko", 1, 20, mond_lost_by=1), [0, -66, 0],
                 id="§3 lost game and Mond on the declarer: -(30 + 15) - 21 = -66"),
    pytest.param(g("solo", 1, 40, mond_lost_by=1), [0, 59, 0], id="§3 Solo with the declarer's Mond: 80 - 21 = 59"),
    pytest.param(g("solo", 1, 40, mond_lost_by=0), [-21, 80, 0], id="§3 Solo with a defender's Mond: 80, -21"),
    pytest.param(g("solo", 1, 30, kontra=1, mond_lost_by=2), [0, -160, -21],
                 id="§3 Solo lost kontra, defender's Mond: -80×2 = -160, -21"),
    pytest.param(g("trojka", 0, 40, mond_lost_by=1, bonuses=[Dn("trula", False, True)]), [25, -21, 0],
                 id="§3 Mond beside a bonus: 15 + 10 = 25, -21"),
    pytest.param(g("dvojko", 1, 50, dealer=3, mond_lost_by=2), [0, 35, -21, 0],
                 id="§3 4-table Mond of a defender: 35, -21, resting dealer 0"),
    pytest.param(g("dvojko", 1, 50, dealer=3, mond_lost_by=None), [0, 35, 0, 0],
                 id="HR 4-table mond_lost_by null: 35"),
]


@pytest.mark.parametrize("h, expected", MOND_CASES)
def test_mond_penalty(rs, h, expected):
    check(rs, h, len(expected), expected)


MOND20_CASES = [
    pytest.param(g("trojka", 0, 40, mond_lost_by=1), [15, -20, 0], id="§3 option Mond 20 on a defender: 15, -20"),
    pytest.param(g("trojka", 0, 40, mond_lost_by=0), [-5, 0, 0], id="§3 option Mond 20 on the declarer: 15 - 20 = -5"),
    pytest.param(g("solo", 2, 50, kontra=1, mond_lost_by=2), [0, 0, 140],
                 id="§3 option Mond 20, Solo kontra: 80×2 - 20 = 140"),
]


@pytest.mark.parametrize("h, expected", MOND20_CASES)
def test_mond_penalty_option_20(rs_mond20, h, expected):
    check(rs_mond20, h, 3, expected)


def test_mond_penalty_option_21_explicit():
    """§3 Decision: 21 is the default; turning the PAGAT option off explicitly changes nothing."""
    rs = get_ruleset(KEY, options={"mond_penalty_20": False})
    check(rs, g("trojka", 0, 40, mond_lost_by=1), 3, [15, -21, 0])


def test_mond_in_klop_has_no_penalty(rs):
    """§3: the Mond penalty does not exist in Klop: a recorded mond_lost_by is either refused or
    ignored (plain Klop row -20, -30, -20)."""
    h = klop({0: 20, 1: 30, 2: 20}, mond_lost_by=1)
    if list(rs.validate(copy.deepcopy(h), 3)):
        invalid(rs, h, 3)
    else:
        check(rs, h, 3, [-20, -30, -20])


# --------------------------------------------------------------------------------------------------
# 4-table: the dealer rests and scores 0 (§1 Decision, D7)
# --------------------------------------------------------------------------------------------------

FOUR_TABLE_CASES = [
    pytest.param(g("trojka", 0, 40, dealer=3), [15, 0, 0, 0], id="§1 4-table trojka by forehand 0: 15"),
    pytest.param(g("trojka", 1, 30, dealer=0), [0, -15, 0, 0], id="§1 4-table dealer 0, trojka by forehand 1: -15"),
    pytest.param(g("enojko", 3, 60, dealer=0), [0, 0, 0, 55], id="§1 4-table enojko by seat 3: 30 + 25 = 55"),
    pytest.param(g("dvojko", 0, 20, dealer=1, kontra=1), [-70, 0, 0, 0],
                 id="§1 4-table dvojko lost kontra: -(20 + 15)×2 = -70"),
    pytest.param(bera(2, True, dealer=1), [0, 0, 70, 0], id="§1 4-table bera won: 70, dealer 1 rests"),
    pytest.param(bera(0, False, dealer=2, kontra=1), [-140, 0, 0, 0], id="§1 4-table bera lost kontra: -140"),
    pytest.param(g("solo", 3, 50, dealer=2), [0, 0, 0, 80], id="§1 4-table solo won: 80"),
    pytest.param(g("solo", 1, 20, dealer=3), [0, -80, 0, 0], id="§1 4-table solo lost: -80"),
]


@pytest.mark.parametrize("h, expected", FOUR_TABLE_CASES)
def test_four_table(rs, h, expected):
    check(rs, h, 4, expected)


# --------------------------------------------------------------------------------------------------
# Klop (§4, D4); 3-table dealer 2, forehand 0
# --------------------------------------------------------------------------------------------------

KLOP3_CASES = [
    # no kontra: everyone -points
    pytest.param(klop({0: 20, 1: 30, 2: 20}), [-20, -30, -20], id="§4 plain Klop sum 70: -points each"),
    pytest.param(klop({0: 24, 1: 24, 2: 24}), [-24, -24, -24], id="§4 plain Klop sum 72"),
    pytest.param(klop({0: 10, 1: 27, 2: 34}), [-10, -27, -34], id="§4 plain Klop sum 71, 34 is not full"),
    # kontra, kontra-giver not most: everyone -2 × points
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra_by=0), [-40, -60, -40],
                 id="§4 kontra by 0 (not most): -2 × points each"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra_by=2), [-40, -60, -40],
                 id="§4 kontra by 2 (not most): -2 × points each"),
    pytest.param(klop({0: 5, 1: 33, 2: 33}, kontra_by=0), [-10, -66, -66],
                 id="§4 kontra by the player with least: -2 × 5, -2 × 33, -2 × 33"),
    # kontra-giver has most: he -2 × points, the others -points
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra_by=1), [-20, -60, -20],
                 id="§4 kontra-giver 1 has most: -2 × 30, the others -points"),
    pytest.param(klop({0: 34, 1: 19, 2: 18}, kontra_by=0), [-68, -19, -18],
                 id="§4 kontra-giver 0 has most (34): -68, -19, -18"),
    pytest.param(klop({0: 30, 1: 30, 2: 10}, kontra_by=0), [-60, -30, -10],
                 id="§4 tie for most counts as most: kontra-giver 0 -2 × 30, others -points"),
    pytest.param(klop({0: 30, 1: 30, 2: 10}, kontra_by=1), [-30, -60, -10],
                 id="§4 tie for most counts as most: kontra-giver 1 -2 × 30, others -points"),
    pytest.param(klop({0: 24, 1: 24, 2: 24}, kontra_by=2), [-24, -24, -48],
                 id="§4 three-way tie for most: kontra-giver 2 -48, others -24"),
    # a full player (>= 35): -70 × K, everyone else 0
    pytest.param(klop({0: 40, 1: 20, 2: 10}), [-70, 0, 0], id="§4 full player 40 without kontra: -70, others 0"),
    pytest.param(klop({0: 35, 1: 25, 2: 10}), [-70, 0, 0], id="§4 exactly 35 is full: -70, others 0"),
    pytest.param(klop({0: 10, 1: 10, 2: 50}), [0, 0, -70], id="§4 full player 50: -70"),
    pytest.param(klop({0: 40, 1: 20, 2: 10}, kontra_by=1), [-140, 0, 0],
                 id="§4 full player with kontra by another: -70 × 2 = -140"),
    pytest.param(klop({0: 40, 1: 20, 2: 10}, kontra_by=0), [-140, 0, 0],
                 id="§4 full player is the kontra-giver: -140 (full beats 'most')"),
    pytest.param(klop({0: 36, 1: 35, 2: 1}), [-70, -70, 0], id="§4 two full players: -70 each"),
    pytest.param(klop({0: 36, 1: 35, 2: 1}, kontra_by=2), [-140, -140, 0],
                 id="§4 two full players with kontra: -140 each"),
    # a player with no trick (0): +70 × K
    pytest.param(klop({0: 0, 1: 30, 2: 40}), [70, 0, -70], id="§4 no trick +70, full -70, other 0"),
    pytest.param(klop({0: 0, 1: 30, 2: 40}, kontra_by=1), [140, 0, -140],
                 id="§4/D4 no trick +70×2, full -70×2 under kontra"),
    pytest.param(klop({0: 0, 1: 30, 2: 40}, kontra_by=0), [140, 0, -140],
                 id="§4/D4 kontra by the empty player: +140, full -140"),
    pytest.param(klop({0: 0, 1: 0, 2: 70}), [70, 70, -70], id="§4 two players with no trick: +70 each, full -70"),
    pytest.param(klop({0: 0, 1: 0, 2: 70}, kontra_by=2), [140, 140, -140],
                 id="§4/D4 two empty players under kontra: +140 each, full -140"),
    pytest.param(klop({0: 0, 1: 35, 2: 36}), [70, -70, -70], id="§4 one empty, two full: +70, -70, -70"),
    pytest.param(klop({0: 0, 1: 35, 2: 36}, kontra_by=2), [140, -140, -140],
                 id="§4/D4 kontra with full and empty: +140, -140, -140"),
    # declarer omitted / given as forehand; int keys; string values (HR)
    pytest.param(klop({0: 20, 1: 30, 2: 20}, declarer=0), [-20, -30, -20], id="HR Klop declarer = forehand 0"),
    pytest.param({"dealer": 2, "contract": "klop", "card_points": {0: 20, 1: 30, 2: 20}}, [-20, -30, -20],
                 id="HR Klop card_points with int keys"),
    pytest.param(klop({0: "20", 1: "30", 2: "20"}), [-20, -30, -20], id="HR Klop card points as strings"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra_by=None, kontra=0), [-20, -30, -20],
                 id="D4 Klop kontra_by null and kontra 0 written out"),
    # forehand 1 (dealer 0)
    pytest.param(klop({0: 15, 1: 45, 2: 10}, dealer=0, declarer=1, kontra_by=2), [0, -140, 0],
                 id="§4 dealer 0, declarer forehand 1, full 45 under kontra: -140"),
]


@pytest.mark.parametrize("h, expected", KLOP3_CASES)
def test_klop_three_table(rs, h, expected):
    check(rs, h, 3, expected)


KLOP4_CASES = [
    pytest.param(klop({0: 20, 1: 30, 2: 20}, dealer=3), [-20, -30, -20, 0],
                 id="§1/§4 4-table plain Klop: resting dealer 3 scores 0"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, dealer=3, kontra_by=1), [-20, -60, -20, 0],
                 id="§4 4-table kontra-giver most: -60, others -points, dealer 0"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, dealer=3, kontra_by=0), [-40, -60, -40, 0],
                 id="§4 4-table kontra not most: -2 × points, dealer 0"),
    pytest.param(klop({0: 10, 1: 50, 2: 10}, dealer=3), [0, -70, 0, 0], id="§4 4-table full player: -70, dealer 0"),
    pytest.param(klop({0: 0, 1: 30, 2: 40}, dealer=3, kontra_by=2), [140, 0, -140, 0],
                 id="§4/D4 4-table empty and full under kontra: +140, -140, dealer 0"),
    pytest.param(klop({0: 25, 2: 25, 3: 21}, dealer=1), [-25, 0, -25, -21],
                 id="§1/§4 4-table dealer 1 rests: -25, 0, -25, -21 (sum 71)"),
    pytest.param(klop({1: 24, 2: 24, 3: 24}, dealer=0, declarer=1, kontra_by=3), [0, -24, -24, -48],
                 id="§4 4-table dealer 0 rests, tie for most with kontra-giver 3: -48"),
]


@pytest.mark.parametrize("h, expected", KLOP4_CASES)
def test_klop_four_table(rs, h, expected):
    check(rs, h, 4, expected)


# --------------------------------------------------------------------------------------------------
# struck and manual hands (HR "Fields", D8)
# --------------------------------------------------------------------------------------------------

OUTCOME_CASES = [
    pytest.param(struck(), 3, [0, 0, 0], id="HR struck 3-table"),
    pytest.param(struck(dealer=3), 4, [0, 0, 0, 0], id="HR struck 4-table"),
    pytest.param(struck(contract="dvojko", declarer=1, declarer_points=50, note="misdeal"), 3, [0, 0, 0],
                 id="HR struck with contract data: 0"),
    pytest.param(manual([40, 0, -21]), 3, [40, 0, -21], id="D8 manual row need not sum to 0"),
    pytest.param(manual([0, 0, 0]), 3, [0, 0, 0], id="D8 manual zero row"),
    pytest.param(manual([-20, -30, -20], contract="klop"), 3, [-20, -30, -20], id="D8 manual row with contract klop"),
    pytest.param(manual([0, 35, 0, 0], dealer=3), 4, [0, 35, 0, 0], id="D8 4-table manual, resting dealer 0"),
    pytest.param(manual([0, -10, 5, 7], dealer=0), 4, [0, -10, 5, 7], id="D8 4-table manual, dealer 0 rests"),
]


@pytest.mark.parametrize("h, size, expected", OUTCOME_CASES)
def test_outcomes(rs, h, size, expected):
    check(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# radelci: rs.radelci(history, table_size) (§5, D5)
# 3-table dealers rotate 2, 0, 1, 2, ... (forehand 0, 1, 2, 0, ...); 4-table 3, 0, 1, 2.
# --------------------------------------------------------------------------------------------------

RADELCI_CASES = [
    pytest.param([], 3, [0, 0, 0], id="§5 no history: none"),
    pytest.param([], 4, [0, 0, 0, 0], id="§5 no history 4-table: none"),
    pytest.param([klop3(2)], 3, [1, 1, 1], id="§5 after a Klop: +1 each"),
    pytest.param([klop4(3)], 4, [1, 1, 1, 1], id="§5 4-table Klop: +1 each, the resting dealer too"),
    pytest.param([klop3(2), klop3(0)], 3, [2, 2, 2], id="§5 two Klops: 2 each"),
    pytest.param([bera(1, True)], 3, [1, 1, 1], id="§5 after a Bera won: +1 each"),
    pytest.param([bera(0, False)], 3, [1, 1, 1], id="§5 after a Bera lost: +1 each"),
    pytest.param([g("solo", 2, 40)], 3, [1, 1, 1], id="§5 after a Solo won: +1 each"),
    pytest.param([g("solo", 2, 30)], 3, [1, 1, 1], id="§5 after a Solo lost: +1 each"),
    pytest.param([g("trojka", 0, 40)], 3, [0, 0, 0], id="§5 a normal game gives none"),
    pytest.param([g("dvojko", 1, 70)], 3, [1, 1, 1], id="§5/D5 silent valat made (p=70): +1 each"),
    pytest.param([g("dvojko", 1, 0)], 3, [1, 1, 1], id="§5/D5 defenders' valat (p=0): +1 each"),
    pytest.param([g("dvojko", 1, 70, bonuses=[Dn("valat")])], 3, [1, 1, 1],
                 id="§5/D5 announced valat made: +1 each (once)"),
    pytest.param([g("trojka", 0, 30, bonuses=[Dn("valat", True, False)])], 3, [1, 1, 1],
                 id="§5/D5 declarer's announced valat failed: +1 each"),
    pytest.param([g("dvojko", 1, 0, bonuses=[Op("valat")])], 3, [1, 1, 1],
                 id="§5/D5 defenders' announced valat made: +1 each"),
    pytest.param([g("trojka", 0, 20, bonuses=[Op("valat", True, False)])], 3, [1, 1, 1],
                 id="§5/D5 defenders' announced valat failed: +1 each"),
    # removal on a win only
    pytest.param([klop3(2), g("trojka", 1, 40, dealer=0)], 3, [1, 0, 1],
                 id="§5 Klop, then seat 1 wins a trojka: his radelc removed"),
    pytest.param([klop3(2), g("trojka", 1, 30, dealer=0)], 3, [1, 1, 1],
                 id="§5 Klop, then seat 1 loses a trojka: radelc kept"),
    pytest.param([klop3(2), g("dvojko", 1, 35, dealer=0)], 3, [1, 1, 1],
                 id="§5 Klop, then p=35 (a loss): radelc kept"),
    pytest.param([klop3(2), klop3(0), g("trojka", 2, 50, dealer=1)], 3, [2, 2, 1],
                 id="§5 two Klops, then seat 2 wins: one removed, one kept"),
    pytest.param([klop3(2), g("dvojko", 0, 40, dealer=0), g("dvojko", 0, 40, dealer=1)], 3, [0, 1, 1],
                 id="§5 one radelc, two wins: removed once, never below 0"),
    pytest.param([klop3(2), g("trojka", 1, 40, dealer=0, mond_lost_by=2)], 3, [1, 0, 1],
                 id="§5 the Mond does not affect radelci"),
    # order: removal, then award
    pytest.param([klop3(2), bera(1, True, dealer=0)], 3, [2, 1, 2],
                 id="§5 Klop, Bera won by 1: 1 - 1 + 1 = 1, others 1 + 1 = 2"),
    pytest.param([klop3(2), bera(1, False, dealer=0)], 3, [2, 2, 2], id="§5 Klop, Bera lost: 2 each"),
    pytest.param([klop3(2), g("solo", 2, 50, dealer=0)], 3, [2, 2, 1],
                 id="§5 Klop, Solo won by 2: 1 - 1 + 1 = 1, others 2"),
    pytest.param([klop3(2), g("solo", 2, 35, dealer=0)], 3, [2, 2, 2], id="§5 Klop, Solo lost p=35: 2 each"),
    pytest.param([klop3(2), g("dvojko", 0, 70, dealer=0)], 3, [1, 2, 2],
                 id="§5/D5 Klop, valat won by 0: 1 - 1 + 1 = 1, others 2"),
    pytest.param([klop3(2), g("dvojko", 0, 0, dealer=0)], 3, [2, 2, 2],
                 id="§5/D5 Klop, defenders' valat against 0: kept, +1 each"),
    pytest.param([bera(1, True), bera(1, True, dealer=0)], 3, [2, 1, 2],
                 id="§5 Bera won (none held), Bera won again: [1,1,1] -> 1 - 1 + 1, others 2"),
    pytest.param([bera(1, True), klop3(0), klop3(1)], 3, [3, 3, 3], id="§5 three radelc hands: 3 each"),
    # struck and manual (D5)
    pytest.param([struck()], 3, [0, 0, 0], id="§5 struck hand gives none"),
    pytest.param([struck(contract="klop", card_points={"0": 20, "1": 30, "2": 20})], 3, [0, 0, 0],
                 id="§5 struck Klop gives none"),
    pytest.param([klop3(2), struck(dealer=0)], 3, [1, 1, 1], id="§5 struck hand changes nothing"),
    pytest.param([manual([-20, -30, -20], contract="klop")], 3, [1, 1, 1], id="§5/D5 manual Klop gives +1"),
    pytest.param([manual([0, 70, 0], contract="berac", declarer=1, won=True)], 3, [1, 1, 1],
                 id="§5/D5 manual Bera gives +1"),
    pytest.param([manual([0, 80, 0], contract="solo", declarer=1)], 3, [1, 1, 1], id="§5/D5 manual Solo gives +1"),
    pytest.param([manual([15, 0, 0], contract="trojka", declarer=0)], 3, [0, 0, 0],
                 id="§5/D5 manual trojka gives none"),
    pytest.param([manual([15, 0, 0])], 3, [0, 0, 0], id="§5/D5 manual row without contract gives none"),
    pytest.param([klop3(2), manual([0, 80, 0], dealer=0, contract="solo", declarer=1, won=True)], 3, [2, 2, 2],
                 id="D5 manual Solo 'won' never removes: 1 + 1 = 2 each"),
    pytest.param([klop3(2), manual([0, 30, 0], dealer=0, contract="trojka", declarer=1, declarer_points=40)],
                 3, [1, 1, 1], id="D5 manual trojka never removes"),
    # 4-table
    pytest.param([klop4(3), bera(1, True, dealer=0)], 4, [2, 1, 2, 2],
                 id="§5 4-table Klop, Bera won by 1: 1, others 2 (resting dealer too)"),
    pytest.param([klop4(3), g("trojka", 1, 40, dealer=0)], 4, [1, 0, 1, 1],
                 id="§5 4-table Klop, trojka won by 1: removed"),
    pytest.param([g("solo", 2, 40, dealer=3)], 4, [1, 1, 1, 1], id="§5 4-table Solo: resting dealer 3 too"),
    pytest.param([g("trojka", 0, 40, dealer=3)], 4, [0, 0, 0, 0], id="§5 4-table normal game: none"),
    pytest.param([g("dvojko", 2, 0, dealer=3)], 4, [1, 1, 1, 1], id="§5/D5 4-table defenders' valat: +1 each"),
]


@pytest.mark.parametrize("history, size, expected", RADELCI_CASES)
def test_radelci(rs, history, size, expected):
    assert list(rs.radelci(copy.deepcopy(history), size)) == expected


# --------------------------------------------------------------------------------------------------
# scoring with radelci (§5, D5): the whole hand score doubled once, not the Mond penalty
# --------------------------------------------------------------------------------------------------

RADELC_SCORE_CASES = [
    # normal games, doubled win and loss
    pytest.param([klop3(1)], g("trojka", 0, 40), 3, [30, 0, 0], id="§5 radelc, trojka won: 15 × 2 = 30"),
    pytest.param([klop3(1)], g("trojka", 0, 30), 3, [-30, 0, 0], id="§5 radelc, trojka lost: -15 × 2 = -30"),
    pytest.param([klop3(0), klop3(1)], g("trojka", 0, 40), 3, [30, 0, 0],
                 id="§5 two radelci still double once: 15 × 2 = 30"),
    pytest.param([klop3(1)], g("dvojko", 1, 50, kontra=1), 3, [0, 140, 0],
                 id="§5 radelc and kontra: 35 × 2 × 2 = 140"),
    # removal on a win only
    pytest.param([klop3(1), g("trojka", 0, 40)], g("dvojko", 0, 40, dealer=0), 3, [25, 0, 0],
                 id="§5 radelc removed by the win: next dvojko 20 + 5 = 25 undoubled"),
    pytest.param([klop3(1), g("trojka", 0, 40)], g("dvojko", 1, 40, dealer=0), 3, [0, 50, 0],
                 id="§5 a defender keeps his radelc: 25 × 2 = 50"),
    pytest.param([klop3(0), klop3(1), g("trojka", 0, 40)], g("dvojko", 0, 40, dealer=0), 3, [50, 0, 0],
                 id="§5 second radelc kept after the win: 25 × 2 = 50"),
    pytest.param([klop3(1), g("trojka", 0, 30)], g("dvojko", 0, 40, dealer=0), 3, [50, 0, 0],
                 id="§5 a loss keeps the radelc: 25 × 2 = 50"),
    # Bera / Solo: scored with the radelci before the hand
    pytest.param([], bera(1, True), 3, [0, 70, 0], id="§5 first Bera, no radelc yet: 70"),
    pytest.param([bera(1, True)], bera(1, True, dealer=0), 3, [0, 140, 0],
                 id="§5 second Bera uses the radelc of the first: 70 × 2 = 140"),
    pytest.param([bera(1, True), bera(1, True, dealer=0)], bera(1, True, dealer=1), 3, [0, 140, 0],
                 id="§5 third Bera: 1 held (1 - 1 + 1): 70 × 2 = 140"),
    pytest.param([klop3(1)], bera(0, False, kontra=1), 3, [-280, 0, 0],
                 id="§5 radelc, Bera lost kontra: -70 × 2 × 2 = -280"),
    pytest.param([klop3(1)], g("solo", 2, 40), 3, [0, 0, 160], id="§5 radelc, Solo won: 80 × 2 = 160"),
    pytest.param([klop3(1)], g("solo", 2, 30, kontra=1), 3, [0, 0, -320],
                 id="§5 radelc, Solo lost kontra: -80 × 2 × 2 = -320"),
    # the Mond penalty is outside the doubling
    pytest.param([klop3(1)], g("trojka", 0, 40, mond_lost_by=0), 3, [9, 0, 0],
                 id="§5 radelc, Mond on the declarer: 15 × 2 - 21 = 9"),
    pytest.param([klop3(1)], g("trojka", 0, 40, mond_lost_by=1), 3, [30, -21, 0],
                 id="§5 radelc, Mond on a defender: 30, -21"),
    pytest.param([klop3(1)], g("solo", 1, 40, mond_lost_by=1), 3, [0, 139, 0],
                 id="§5 radelc, Solo, declarer's Mond: 80 × 2 - 21 = 139"),
    # bonuses and valat are doubled
    pytest.param([klop3(1)], g("trojka", 0, 40, bonuses=[Dn("trula", False, True)]), 3, [50, 0, 0],
                 id="§5 radelc doubles game and bonus: (15 + 10) × 2 = 50"),
    pytest.param([klop3(1)], g("trojka", 0, 40, bonuses=[Op("pagat_ultimo", True, True, kontra=1)]), 3,
                 [-170, 0, 0], id="§5/D1 radelc, opponents' pagat kontra: (15 - 50×2) × 2 = -170"),
    pytest.param([klop3(1)], g("trojka", 0, 70), 3, [500, 0, 0], id="§5/D2 radelc doubles a silent valat: 250 × 2"),
    pytest.param([klop3(1)], g("trojka", 0, 0), 3, [-500, 0, 0],
                 id="§5/D2 radelc doubles the defenders' valat: -250 × 2"),
    pytest.param([klop3(1)], g("trojka", 0, 70, kontra=1, bonuses=[Dn("valat")]), 3, [2000, 0, 0],
                 id="§5/D2 radelc, announced valat kontra: 500 × 2 × 2 = 2000"),
    pytest.param([klop3(1)], g("dvojko", 1, 55, kontra=1, bonuses=[Dn("pagat_ultimo", False, True)],
                                mond_lost_by=2), 3, [0, 210, -21],
                 id="§5 everything: ((20 + 20) × 2 + 25) × 2 = 210, Mond -21 apart"),
    # Klop is never doubled
    pytest.param([klop3(1)], klop({0: 20, 1: 30, 2: 20}), 3, [-20, -30, -20], id="§4/§5 Klop not doubled"),
    pytest.param([klop3(1)], klop({0: 20, 1: 30, 2: 20}, kontra_by=1), 3, [-20, -60, -20],
                 id="§4/§5 Klop with kontra not doubled"),
    pytest.param([klop3(1)], klop({0: 40, 1: 20, 2: 10}), 3, [-70, 0, 0], id="§4/§5 full Klop not doubled"),
    # struck / manual
    pytest.param([struck(dealer=1)], g("trojka", 0, 40), 3, [15, 0, 0], id="§5 struck hand gives no radelc: 15"),
    pytest.param([struck(dealer=1, contract="klop", card_points={"0": 20, "1": 30, "2": 20})],
                 g("trojka", 0, 40), 3, [15, 0, 0], id="§5 struck Klop gives no radelc: 15"),
    pytest.param([manual([-20, -30, -20], dealer=1, contract="klop")], g("trojka", 0, 40), 3, [30, 0, 0],
                 id="§5/D5 manual Klop gives a radelc: 15 × 2 = 30"),
    pytest.param([manual([0, 0, 15], dealer=1, contract="trojka", declarer=2)], g("trojka", 0, 40), 3,
                 [15, 0, 0], id="§5/D5 manual trojka gives none: 15"),
    pytest.param([klop3(1), manual([15, 0, 0], dealer=2, contract="trojka", declarer=0, declarer_points=40)],
                 g("dvojko", 0, 40, dealer=0), 3, [50, 0, 0],
                 id="D5 manual trojka never removes: 25 × 2 = 50"),
    pytest.param([klop3(1)], manual([15, 0, 0]), 3, [15, 0, 0], id="D8 a manual row is not doubled"),
    pytest.param([klop3(1)], struck(), 3, [0, 0, 0], id="HR a struck hand stays 0 with radelci"),
    # 4-table
    pytest.param([klop4(3)], g("dvojko", 1, 50, dealer=0), 4, [0, 70, 0, 0],
                 id="§5 4-table radelc: 35 × 2 = 70, resting dealer 0"),
    pytest.param([klop4(3)], bera(2, False, dealer=0), 4, [0, 0, -140, 0],
                 id="§5 4-table radelc, Bera lost: -70 × 2 = -140"),
    pytest.param([klop4(3)], klop({1: 20, 2: 30, 3: 20}, dealer=0), 4, [0, -20, -30, -20],
                 id="§4/§5 4-table Klop not doubled, dealer 0 rests"),
]


@pytest.mark.parametrize("history, h, size, expected", RADELC_SCORE_CASES)
def test_score_with_radelci(rs, history, h, size, expected):
    check(rs, h, size, expected, history=history)


def test_radelc_with_options():
    """§3 options and §5: round_difference p=47 d=12 -> 10, (20 + 10) × 2 = 60; solo_difference
    p=45: (80 + 10) × 2 = 180; Mond 20 outside: 60 - 20 = 40."""
    rs = get_ruleset(KEY, options={"round_difference": True, "solo_difference": True, "mond_penalty_20": True})
    check(rs, g("dvojko", 1, 47, dealer=2), 3, [0, 60, 0], history=[klop3(1)])
    check(rs, g("solo", 1, 45, dealer=2), 3, [0, 180, 0], history=[klop3(1)])
    check(rs, g("dvojko", 1, 47, dealer=2, mond_lost_by=1), 3, [0, 40, 0], history=[klop3(1)])


def test_radelci_follow_a_whole_round(rs):
    """§5 over a sequence: hand by hand, the radelci before each hand and its score."""
    h1 = klop({0: 20, 1: 30, 2: 20}, dealer=2)              # Klop: -20, -30, -20; then [1, 1, 1]
    h2 = g("dvojko", 1, 50, dealer=0)                       # 35 × 2 = 70; 1 wins: [1, 0, 1]
    h3 = bera(0, False, dealer=1)                           # -70 × 2 = -140; lost, keeps: [2, 1, 2]
    h4 = g("trojka", 0, 60, dealer=2)                       # (10 + 25) × 2 = 70; wins: [1, 1, 2]
    h5 = g("dvojko", 1, 40, dealer=0, mond_lost_by=1)       # (20 + 5) × 2 - 21 = 29; wins: [1, 0, 2]
    h6 = g("enojko", 1, 40, dealer=1)                       # no radelc: 30 + 5 = 35; [1, 0, 2]
    hands = [h1, h2, h3, h4, h5, h6]
    rows = [[-20, -30, -20], [0, 70, 0], [-140, 0, 0], [70, 0, 0], [0, 29, 0], [0, 35, 0]]
    after = [[1, 1, 1], [1, 0, 1], [2, 1, 2], [1, 1, 2], [1, 0, 2], [1, 0, 2]]
    for k, (h, row, rad) in enumerate(zip(hands, rows, after)):
        check(rs, h, 3, row, history=hands[:k])
        assert list(rs.radelci(copy.deepcopy(hands[: k + 1]), 3)) == rad, k


# --------------------------------------------------------------------------------------------------
# table points (§7, TF §1; lead's decision for 4-tables: 2 / 1 / ½ / 0)
# --------------------------------------------------------------------------------------------------

TABLE_POINT_CASES = [
    pytest.param([100, 50, -20], [2, 1, 0.5], id="§7 no ties: 2, 1, ½"),
    pytest.param([-20, 50, 100], [0.5, 1, 2], id="§7 no ties, reversed seats"),
    pytest.param([0, -5, 3], [1, 0.5, 2], id="§7 small scores, no ties"),
    pytest.param([50, 50, 10], [1.5, 1.5, 0.5], id="§7 two firsts: (2 + 1)/2 = 1.5 each"),
    pytest.param([10, 50, 50], [0.5, 1.5, 1.5], id="§7 two firsts on seats 1 and 2"),
    pytest.param([100, 10, 10], [2, 0.75, 0.75], id="§7 tie for second: (1 + ½)/2 = 0.75 each"),
    pytest.param([-30, 80, -30], [0.75, 2, 0.75], id="§7 tie for second, negative"),
    pytest.param([0, 0, 0], [3.5 / 3] * 3, id="§7 three-way tie: (2 + 1 + ½)/3 each"),
    pytest.param([10, 40, -5, 0], [1, 2, 0, 0.5], id="§7 4-table no ties: 2 / 1 / ½ / 0"),
    pytest.param([30, 30, 0, 0], [1.5, 1.5, 0.25, 0.25], id="§7 4-table two ties: 1.5, 1.5, (½ + 0)/2"),
    pytest.param([50, 20, 20, 10], [2, 0.75, 0.75, 0], id="§7 4-table tie for second: 0.75 each"),
    pytest.param([5, 5, 5, -10], [3.5 / 3] * 3 + [0], id="§7 4-table three-way tie for first: 3.5/3 each"),
    pytest.param([7, 7, 7, 7], [0.875] * 4, id="§7 4-table four-way tie: 3.5/4 = 0.875 each"),
    pytest.param([-1, 9, 9, 9], [0, 3.5 / 3, 3.5 / 3, 3.5 / 3], id="§7 4-table three-way tie, fourth 0"),
]


@pytest.mark.parametrize("scores, expected", TABLE_POINT_CASES)
def test_table_points(table_points, scores, expected):
    got = list(table_points(list(scores)))
    assert got == pytest.approx(expected)
    assert sum(got) == pytest.approx(3.5)


# --------------------------------------------------------------------------------------------------
# validation (§6 and the decisions); 3-table dealer 2 (forehand 0) unless said otherwise
# --------------------------------------------------------------------------------------------------

INVALID_CASES = [
    # §6 "valat excludes the other bonuses": 70 card points are the declarer's silent valat, so a
    # bonus recorded with them is refused rather than silently dropped (lead's ruling)
    pytest.param(g("trojka", 0, 70, bonuses=[Dn("trula", False, True)]), 3, id="§6 silent valat p=70 with a trula"),
    # contract and seats
    pytest.param(g("foo", 0, 40), 3, id="§6 unknown contract"),
    pytest.param({"dealer": 2, "declarer": 0, "declarer_points": 40}, 3, id="§6 contract missing"),
    pytest.param(g("trojka", 1, 40), 3, id="§6 trojka by a non-forehand"),
    pytest.param(g("trojka", 2, 40), 3, id="§6 trojka by the dealer at a 3-table"),
    pytest.param(g("trojka", 2, 40, dealer=3), 4, id="§6 4-table trojka by a non-forehand"),
    pytest.param(g("trojka", 3, 40, dealer=3), 4, id="§6/D7 4-table trojka by the resting dealer"),
    pytest.param({"dealer": 2, "contract": "dvojko", "declarer_points": 40}, 3, id="HR declarer missing"),
    pytest.param(g("dvojko", 3, 40), 3, id="HR declarer seat out of range"),
    pytest.param(g("dvojko", 1, 40, dealer=3), 3, id="HR dealer out of range"),
    pytest.param(g("dvojko", 3, 40, dealer=3), 4, id="D7 4-table dvojko by the resting dealer"),
    pytest.param(g("solo", 0, 40, dealer=0), 4, id="D7 4-table solo by the resting dealer"),
    pytest.param(bera(1, True, dealer=1), 4, id="D7 4-table bera by the resting dealer"),
    pytest.param(g("dvojko", 1, 40, outcome="foo"), 3, id="HR unknown outcome"),
    # points (§6: 0 ≤ p ≤ 70, whole numbers)
    pytest.param(g("dvojko", 1, -1), 3, id="§6 p = -1"),
    pytest.param(g("dvojko", 1, 71), 3, id="§6 p = 71"),
    pytest.param({"dealer": 2, "contract": "dvojko", "declarer": 1}, 3, id="§3 declarer_points missing"),
    pytest.param(g("dvojko", 1, "abc"), 3, id="HR p = 'abc'"),
    pytest.param(g("dvojko", 1, "35/1"), 3, id="HR p = '35/1': Blatt only in Koenigrufen"),
    pytest.param(g("dvojko", 1, 35.5), 3, id="HR p = 35.5 not whole"),
    pytest.param(g("solo", 1, 71), 3, id="§6 solo p = 71"),
    pytest.param({"dealer": 2, "contract": "solo", "declarer": 1, "won": True}, 3,
                 id="§6 solo without declarer_points"),
    # won must agree with the points (HR "won")
    pytest.param(g("dvojko", 1, 40, won=False), 3, id="HR won false with p=40"),
    pytest.param(g("trojka", 0, 35, won=True), 3, id="HR/§3 won true with p=35 (35 loses)"),
    pytest.param(g("enojko", 1, 36, won=False), 3, id="HR won false with p=36"),
    pytest.param(g("solo", 1, 30, won=True), 3, id="HR solo won true with p=30"),
    pytest.param(g("solo", 1, 36, won=False), 3, id="HR solo won false with p=36"),
    # Bera: won only (§6, D3)
    pytest.param({"dealer": 2, "contract": "berac", "declarer": 1}, 3, id="§6/D3 bera without won"),
    pytest.param(bera(1, True, declarer_points=0), 3, id="D3 bera with declarer_points"),
    pytest.param(bera(1, True, bonuses=[Dn("trula", False, True)]), 3, id="§6/D3 bera with a bonus"),
    pytest.param(bera(1, False, mond_lost_by=1), 3, id="§3/D3 bera with mond_lost_by"),
    # bonuses only in normal games (§6)
    pytest.param(g("solo", 1, 40, bonuses=[Dn("pagat_ultimo", False, True)]), 3, id="§6/D3 solo with a bonus"),
    pytest.param(g("solo", 1, 70, bonuses=[Dn("valat")]), 3, id="§6/D3 solo with a valat bonus"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, bonuses=[Dn("trula", False, True)]), 3, id="§6 klop with a bonus"),
    # bonus entries
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("trula", False, True), Dn("trula", False, True)]), 3,
                 id="§6 the same bonus twice"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("foo", False, True)]), 3, id="HR unknown bonus key"),
    pytest.param(g("trojka", 0, 40, bonuses=[bonus("trula", "both", False, True)]), 3, id="HR unknown bonus team"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("trula", False, False)]), 3, id="D1 silent trula made false"),
    pytest.param(g("trojka", 0, 40, bonuses=[Op("kralji", False, False)]), 3, id="D1 silent kralji made false"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("trula", False, True, kontra=1)]), 3,
                 id="§6 kontra on a silent bonus"),
    pytest.param(g("trojka", 0, 40, bonuses=[Op("pagat_ultimo", False, True, kontra=2)]), 3,
                 id="§6 kontra on the opponents' silent pagat"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("trula", True, True, kontra=5)]), 3, id="§6 bonus kontra 5"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("kralji", True, True, kontra=-1)]), 3, id="§6 bonus kontra -1"),
    # valat (§3, §6, D2)
    pytest.param(g("dvojko", 1, 35, bonuses=[Dn("valat")]), 3, id="§3/§6 revised: declarer's valat made with p=35"),
    pytest.param(g("dvojko", 1, 20, bonuses=[Dn("valat", False, True)]), 3,
                 id="§3/§6 revised: declarer's silent valat made with p=20"),
    pytest.param(g("dvojko", 1, 35, bonuses=[Op("valat")]), 3, id="§3/§6 revised: opponents' valat made with p=35"),
    pytest.param(g("dvojko", 1, 70, bonuses=[Op("valat")]), 3, id="§3/D2 opponents' valat made with p=70"),
    pytest.param(g("dvojko", 1, 70, bonuses=[Dn("valat"), Dn("trula", False, True)]), 3,
                 id="§6 valat with another bonus"),
    pytest.param(g("dvojko", 1, 0, bonuses=[Op("valat"), Op("pagat_ultimo", False, True)]), 3,
                 id="§6 opponents' valat with their pagat"),
    pytest.param(g("dvojko", 1, 60, bonuses=[Dn("valat", True, False), Op("kralji", True, True)]), 3,
                 id="§6/D2 failed valat with another bonus"),
    # game kontra 0..4 (§6)
    pytest.param(g("dvojko", 1, 40, kontra=5), 3, id="§6 kontra 5"),
    pytest.param(g("dvojko", 1, 40, kontra=-1), 3, id="§6 kontra -1"),
    pytest.param(bera(1, True, kontra=5), 3, id="§6 bera kontra 5"),
    # Klop (§6, D4)
    pytest.param(klop({0: 20, 1: 30, 2: 20}, declarer=1), 3, id="§6/HR klop declarer not forehand"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, declarer=2), 3, id="§6/HR klop declarer the dealer"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra=1), 3, id="D4 klop with game kontra 1"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra=1, kontra_by=0), 3, id="D4 klop kontra field with kontra_by"),
    pytest.param({"dealer": 2, "contract": "klop"}, 3, id="§6 klop without card points"),
    pytest.param(klop({0: 40, 1: 30}), 3, id="§6 klop card points of a seat missing"),
    pytest.param(klop({0: 20, 1: 30, 2: 18}), 3, id="§6 revised: klop card points sum 68"),
    pytest.param(klop({0: 20, 1: 30, 2: 23}), 3, id="§6 klop card points sum 73"),
    pytest.param(klop({0: "20/1", 1: 30, 2: 20}), 3, id="§6 klop card points with Blatt"),
    pytest.param(klop({0: 20.5, 1: 30, 2: 20}), 3, id="§6 klop card points not whole (sum 70.5)"),
    pytest.param(klop({0: -1, 1: 36, 2: 35}), 3, id="§6 klop negative card points (sum 70)"),
    pytest.param(klop({0: 20, 1: 30, 2: 20, 3: 0}), 3, id="§6 klop card points for a seat not at the table"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, kontra_by=3), 3, id="§6 klop kontra_by out of range"),
    pytest.param(klop({0: 20, 1: 30, 2: 20, 3: 0}, dealer=3), 4, id="§6/D7 klop card points for the resting dealer"),
    pytest.param(klop({0: 20, 1: 30, 3: 20}, dealer=3), 4,
                 id="§6/D7 klop card points of the resting dealer instead of an active seat"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, dealer=3, kontra_by=3), 4, id="§6/D7 klop kontra_by the resting dealer"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, dealer=3, declarer=3), 4, id="D7 klop declarer the resting dealer"),
    # Mond (§6, D7)
    pytest.param(g("dvojko", 1, 40, mond_lost_by=3), 3, id="§6 mond_lost_by out of range"),
    pytest.param(g("dvojko", 1, 40, dealer=3, mond_lost_by=3), 4, id="§6/D7 mond_lost_by the resting dealer"),
    pytest.param(g("dvojko", 1, 40, mond_lost_by=[1, 2]), 3, id="§6 mond_lost_by more than one"),
    # manual rows (D8)
    pytest.param({"dealer": 2, "outcome": "manual"}, 3, id="D8 manual without scores"),
    pytest.param(manual([1, 2]), 3, id="D8 manual row too short"),
    pytest.param(manual([1, 2, 3, 0]), 3, id="D8 manual row too long"),
    pytest.param(manual([0, 10, 0, 5], dealer=3), 4, id="D8 manual row gives the resting dealer 5"),
    pytest.param(manual([3, 0, 10, 0], dealer=0), 4, id="D8 manual row gives the resting dealer 0 a score of 3"),
]


@pytest.mark.parametrize("h, size", INVALID_CASES)
def test_invalid(rs, h, size):
    invalid(rs, h, size)


VALID_EDGE_CASES = [
    pytest.param(g("trojka", 0, 0), 3, id="§6 p = 0"),
    pytest.param(g("trojka", 0, 70), 3, id="§6 p = 70"),
    pytest.param(g("dvojko", 1, "30"), 3, id="HR p = '30'"),
    pytest.param(g("dvojko", 1, 36, won=True), 3, id="HR won true with p=36"),
    pytest.param(g("dvojko", 1, 35, won=False), 3, id="HR won false with p=35"),
    pytest.param(g("enojko", 2, 40), 3, id="§1 the dealer plays at a 3-table"),
    pytest.param(g("dvojko", 2, 40, dealer=3), 4, id="§2 dvojko by any active seat at a 4-table"),
    pytest.param(g("trojka", 0, 40, kontra=4), 3, id="§6 kontra 4"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("pagat_ultimo", True, True, kontra=4)]), 3,
                 id="§6 bonus kontra 4"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("pagat_ultimo", False, False)]), 3,
                 id="§3/D1 silent pagat beaten (declarer)"),
    pytest.param(g("trojka", 0, 40, bonuses=[Op("pagat_ultimo", False, False)]), 3,
                 id="D1 silent pagat beaten (opponents)"),
    pytest.param(g("trojka", 0, 40, bonuses=[Dn("trula", False, True), Dn("kralji", False, True),
                                             Dn("pagat_ultimo", False, True)]), 3, id="§6 three different bonuses"),
    pytest.param(g("trojka", 0, 70, bonuses=[Dn("valat")]), 3, id="§6 declarer's valat made with p=70"),
    pytest.param(g("trojka", 0, 0, bonuses=[Op("valat")]), 3, id="§6 opponents' valat made with p=0"),
    pytest.param(g("trojka", 0, 69, bonuses=[Dn("valat", True, False)]), 3, id="D2 declarer's valat failed p=69"),
    pytest.param(g("dvojko", 1, 69, bonuses=[Dn("valat")]), 3, id="§3/§6 revised: declarer's valat made with p=69"),
    pytest.param(g("dvojko", 1, 50, bonuses=[Dn("valat", False, True)]), 3,
                 id="§3/§6 revised: declarer's silent valat made with p=50"),
    pytest.param(g("dvojko", 1, 1, bonuses=[Op("valat")]), 3, id="§3/§6 revised: opponents' valat made with p=1"),
    pytest.param(klop({0: 20, 1: 30, 2: 19}), 3, id="§4/§6 revised: klop sum 69"),
    pytest.param(g("trojka", 0, 40, mond_lost_by=None), 3, id="§6 mond_lost_by null"),
    pytest.param(g("trojka", 0, 40, mond_lost_by=0), 3, id="§6 mond_lost_by the declarer"),
    pytest.param(klop({0: 24, 1: 24, 2: 23}), 3, id="§6 klop sum 71"),
    pytest.param(klop({0: 24, 1: 24, 2: 24}), 3, id="§6 klop sum 72"),
    pytest.param(klop({0: 0, 1: 0, 2: 70}), 3, id="§6 klop two players with 0"),
    pytest.param(klop({0: 20, 1: 30, 2: 20}, declarer=0), 3, id="HR klop declarer = forehand"),
    pytest.param(klop({1: 20, 2: 30, 3: 21}, dealer=0, kontra_by=3), 4, id="§6 4-table klop dealer 0, kontra_by 3"),
    pytest.param(manual([99, -5, 0]), 3, id="D8 manual row not summing to 0"),
    pytest.param(manual([0, 1, 2, 3], dealer=0), 4, id="D8 4-table manual, resting dealer 0 has 0"),
]


@pytest.mark.parametrize("h, size", VALID_EDGE_CASES)
def test_valid_edge_cases(rs, h, size):
    assert not list(rs.validate(copy.deepcopy(h), size)), h
    row = list(rs.score(copy.deepcopy(h), size))
    assert len(row) == size


def test_invalid_hand_errors_match_validate(rs):
    h = g("trojka", 1, 40)  # §6 trojka only by forehand
    errors = list(rs.validate(copy.deepcopy(h), 3))
    with pytest.raises(InvalidHand) as exc:
        rs.score(copy.deepcopy(h), 3)
    assert list(exc.value.errors) == errors


def test_validate_score_and_radelci_do_not_mutate(rs):
    h = g("dvojko", 1, 55, kontra=1, bonuses=[Dn("pagat_ultimo", False, True)], mond_lost_by=2)
    history = [klop3(1), bera(1, True, dealer=2)]
    before_h, before_hist = copy.deepcopy(h), copy.deepcopy(history)
    rs.validate(h, 3, history=history)
    rs.score(h, 3, history=history)
    rs.radelci(history, 3)
    assert h == before_h
    assert history == before_hist


def test_history_order_matters(rs):
    """§5 oldest first: [trojka won by 0, Klop] leaves seat 0 his radelc (the win came before the
    Klop, with no radelc to remove); [Klop, trojka won by 0] removes it."""
    first = [g("trojka", 0, 40, dealer=2), klop3(0)]
    second = [klop3(1), g("trojka", 0, 40, dealer=2)]
    assert list(rs.radelci(copy.deepcopy(first), 3)) == [1, 1, 1]
    assert list(rs.radelci(copy.deepcopy(second), 3)) == [0, 1, 1]
    # next hand dvojko by 0 at p=40: (20 + 5) = 25, doubled to 50 only after the first order
    check(rs, g("dvojko", 0, 40, dealer=1), 3, [50, 0, 0], history=first)
    check(rs, g("dvojko", 0, 40, dealer=1), 3, [25, 0, 0], history=second)
