"""Rule tests for Hungarian Tarokk, Paskievics (key "hungarian-tarokk", edition "paskievics").

Every expected row below was worked out by hand from the rule text, never from the engine:

- ``§n``  = ``../shared/rules/hungarian-tarokk.md`` section n;
- ``HR``  = ``../shared/rules/hand-record.md`` (its section "Added for the seeds' other games");
- ``PAG`` = pagat.com "Hungarian Tarokk" as the rule file quotes it (the multiplier table of §3.2).

Arithmetic, written out by hand for every case:

- game value ``g``: három 1, kettő 2, egy 3, szóló 4 (§1); the declarer's side wins with 48 card
  points or more (47 with the option ``kontra_47_declarer_wins`` on a kontra'd game, §5);
- dupla (71+ / 23-) 2g silent, 4g announced; volát (``all_tricks``) 3g silent, 6g announced; the
  game ``g · 2**kG``; exclusions of §3.2 rules 1–5;
- tuletroá, négykirály 1 / 2; pagátultimó 5 / 10; XXI-fogás 21 / 42 (42 / 84 with
  ``xxi_catch_kupa``); announced ``× 2**k`` for its side if made, against it if not (§3.3);
- net ``n`` from the declarer's side's view; 2 against 2: declarer and partner ``+n``, each
  opponent ``−n``; a lone declarer ``+3n``, each opponent ``−n`` (§3.4);
- declared tarokks: the holder ``+3v``, each other active player ``−v``, ``v`` = 1 (eight) or 2
  (nine) (§3.5); with ``tarokks_team_post`` a post ``±v`` inside ``n``;
- próbahárom lost without play: the bidder ``−3g``, the others ``+g`` (§3.6); with
  ``proba_pvsz18`` három only, 3 each.

Unless said otherwise a hand is at a 4-table with dealer 0 (Vorhand seat 1), the declarer seat 1
and his partner seat 2, so a net ``n`` gives the row ``[−n, n, n, −n]``; a lone declarer at seat 1
gives ``[−n, 3n, −n, −n]``.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from variants import InvalidHand
from variants.hungarian import HungarianTarokkRuleset

ALL_OPTIONS = {
    "mordkontra": True,
    "kontra_47_declarer_wins": True,
    "announcer_game_never_scored": True,
    "silent_trull_with_volat": True,
    "xxi_catch_kupa": True,
    "tarokks_team_post": True,
    "proba_pvsz18": True,
}


@pytest.fixture(scope="module")
def rs():
    return HungarianTarokkRuleset()


def hand(contract="harom", points=52, declarer=1, partner=2, called="XX", dealer=0, bonuses=(), **extra):
    """A played hand record (§2); ``partner`` is always written out."""
    h = {
        "dealer": dealer,
        "contract": contract,
        "declarer": declarer,
        "called": called,
        "partner": partner,
        "declarer_points": points,
        "bonuses": list(bonuses),
    }
    h.update(extra)
    return h


def E(key, team="declarer", announced=False, made=True, kontra=None):
    """A bonus entry (§2); ``made=None`` leaves it out (dupla, volát)."""
    e = {"bonus": key, "team": team, "announced": announced}
    if made is not None:
        e["made"] = made
    if kontra is not None:
        e["kontra"] = kontra
    return e


def A(key, team="declarer", made=True, kontra=None):
    """An announced bonus entry."""
    return E(key, team, True, made, kontra)


def pair(n):
    """The 2-against-2 row of a net ``n`` (declarer 1 + partner 2 against 0 and 3), §3.4."""
    return [-n, n, n, -n]


def alone(n):
    """The row of a lone declarer at seat 1 for a net ``n`` (§3.4)."""
    return [-n, 3 * n, -n, -n]


def check_row(rs, h, size, expected):
    assert sum(expected) == 0 and len(expected) == size, "test data error"
    problems = rs.validate(copy.deepcopy(h), size)
    assert problems == [], f"valid hand refused: {problems}"
    assert list(rs.score(copy.deepcopy(h), size)) == list(expected)


def refused(rs, h, size, *words):
    """The hand is refused with a message containing every word of ``words``; ``score`` raises."""
    problems = rs.validate(copy.deepcopy(h), size)
    assert problems, f"expected a refusal: {h}"
    text = " | ".join(problems)
    assert any(all(w.lower() in p.lower() for w in words) for p in problems), f"{words!r} not in {text!r}"
    with pytest.raises(InvalidHand):
        rs.score(copy.deepcopy(h), size)
    return problems


# ------------------------------------------------------------------------------ catalogue, §1, §7


def test_identity_and_table_format(rs):
    assert (rs.key, rs.edition, rs.name, rs.label) == ("hungarian-tarokk", "paskievics", "Hungarian Tarokk", "Hungarian Tarokk (Paskievics)")
    assert "PAG" in rs.source or "pagat" in rs.source
    assert rs.table_sizes == (4, 5) and rs.preferred_table_size == 4 and rs.max_other_tables is None
    assert rs.zero_sum and not rs.sitting_out_pays
    # §1: the dealer of a 5-table sits out; nobody at a 4-table
    assert rs.sitting_out(2, 5) == 2 and rs.sitting_out(2, 4) is None
    assert rs.active_seats(0, 5) == [1, 2, 3, 4]
    # §7: the tarokk drawer is Vorhand of the first hand, the seat before him deals
    assert rs.first_dealer(4) == 3 and rs.first_dealer(5) == 4
    assert [c.key for c in rs.seat_cards(4)][0] == "tarokk" and len(rs.seat_cards(4)) == 4 and len(rs.seat_cards(5)) == 5
    assert len({c.key for c in rs.seat_cards(5)}) == 5
    # §7: 16 hands at a 4-table, 20 at a 5-table, 4 rounds, 80 minutes
    assert rs.hands_per_round(4) == 16 and rs.hands_per_round(5) == 20 and rs.hands_per_round(5, 24) == 30
    assert (rs.default_rounds, rs.default_hands_per_round, rs.default_round_minutes) == (4, 16, 80)
    assert rs.victory_points == "table_points"
    assert rs.tiebreaks == ("game_points", "card_draw")


def test_contracts_and_bonuses_of_the_rule_file(rs):
    # §1: game values 1..4
    assert [(c.key, c.name, c.value, c.code) for c in rs.contracts] == [
        ("harom", "Három", 1, "3"),
        ("ketto", "Kettő", 2, "2"),
        ("egy", "Egy", 3, "1"),
        ("szolo", "Szóló", 4, "s"),
    ]
    # §3.1: silent / announced
    table = {b.key: (b.name, b.silent, b.announced, b.code, b.derived, b.multiplier) for b in rs.bonuses}
    assert table == {
        "tuletroa": ("Tuletroá", 1, 2, "tu", False, False),
        "negykiraly": ("Négykirály", 1, 2, "4k", False, False),
        "dupla": ("Dupla", 2, 4, "du", True, True),
        "volat": ("Volát", 3, 6, "vol", True, True),
        "pagatultimo": ("Pagátultimó", 5, 10, "pu", False, False),
        "xxi_fogas": ("XXI-fogás", 21, 42, "xxi", False, False),
    }
    assert rs.bonus("volat").kind == "valat"
    assert rs.bonus("pagatultimo").kind == "trick" and rs.bonus("pagatultimo").can_fail_silently
    assert rs.bonus("xxi_fogas").kind == "trick" and not rs.bonus("xxi_fogas").can_fail_silently
    for c in rs.contracts:
        assert [b.key for b in rs.allowed_bonuses(c.key)] == ["tuletroa", "negykiraly", "dupla", "volat", "pagatultimo", "xxi_fogas"]
        assert rs.fields(c) == ("declarer", "partner", "called", "declarer_points", "won", "all_tricks", "kontra", "bonuses", "tarokks", "forfeit")
    with pytest.raises(KeyError):
        rs.allowed_bonuses("rufer")


def test_record_fields_kontra_words_and_labels(rs):
    called = rs.record_field("called")
    assert called.kind == "choice"
    assert [c.value for c in called.choices] == ["XX", "XIX", "XVIII", "XVII", "XVI", "XV", "XIV", "XIII", "XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II"]
    assert called.choice("XX").code == "xx" and called.choice("XXI") is None and called.choice("I") is None
    all_tricks = rs.record_field("all_tricks")
    assert [(c.value, c.code) for c in all_tricks.choices] == [("declarer", "all"), ("opponents", "/all")]
    tarokks = rs.record_field("tarokks")
    assert tarokks.kind == "per_seat" and [(c.value, c.code) for c in tarokks.choices] == [(8, "8t"), (9, "9t")]
    forfeit = rs.record_field("forfeit")
    assert forfeit.kind == "flag" and forfeit.code == "pr"
    # §2 kontra levels; mordkontra only with the option (§5)
    assert rs.kontra_names == ("", "kontra", "rekontra", "szubkontra", "hirskontra") and rs.max_kontra == 4
    assert rs.kontra_codes == ("", "k", "re", "szub", "hirs")
    mord = HungarianTarokkRuleset(options={"mordkontra": True})
    assert mord.kontra_names[-1] == "mordkontra" and mord.kontra_codes[-1] == "mord" and mord.max_kontra == 5
    assert rs.max_card_points == 94 and rs.self_call_written
    assert "called tarokk" in rs.partner_label and "discard" in rs.partner_none_label


def test_options_are_booleans_off_by_default_with_their_source(rs):
    keys = [o.key for o in rs.option_specs]
    assert keys == list(ALL_OPTIONS)
    for o in rs.option_specs:
        assert o.default is False and o.label and o.help and o.source == "hungarian-tarokk.md §5"
    assert all(value is False for value in rs.options.values())


@pytest.mark.parametrize(
    "scores, expected",
    [
        # §7: 10 / 8 / 6 / 4 by round score
        ([5, -3, 20, -22], [8, 6, 10, 4]),
        # equal round scores share the average of their places: (10 + 8) / 2 = 9
        ([7, 7, -4, -10], [9, 9, 6, 4]),
        # (8 + 6 + 4) / 3 = 6
        ([30, -10, -10, -10], [10, 6, 6, 6]),
        # all four equal: (10 + 8 + 6 + 4) / 4 = 7
        ([0, 0, 0, 0], [7, 7, 7, 7]),
        # 5-table: 10 / 8 / 6 / 4 / 4
        ([1, 2, 3, 4, 5], [4, 4, 6, 8, 10]),
        # 5-table, 3rd and 4th equal: (6 + 4) / 2 = 5
        ([9, 5, 1, 1, -20], [10, 8, 5, 5, 4]),
        # 5-table, 2nd and 3rd equal: (8 + 6) / 2 = 7
        ([9, 5, 5, -20, 1], [10, 7, 7, 4, 4]),
    ],
)
def test_table_points(rs, scores, expected):
    points = rs.table_points(scores)
    assert points == [Fraction(p) for p in expected]
    assert all(isinstance(p, Fraction) for p in points)


def test_three_way_tie_shares_a_fraction(rs):
    # (8 + 6 + 4) / 3 = 6, and (10 + 8 + 6) / 3 = 8; a 5-table tie of 2nd..3rd: (8 + 6) / 2 = 7
    assert rs.table_points([3, 3, 3, 0, 0])[:3] == [Fraction(8)] * 3
    assert rs.table_points([3, 3, 3, 0, 0])[3:] == [Fraction(4)] * 2
    assert rs.table_points([1, 1, 0, 0]) == [Fraction(9), Fraction(9), Fraction(5), Fraction(5)]


# ------------------------------------------------------------------------------ §3.2 the game


@pytest.mark.parametrize("contract, g", [("harom", 1), ("ketto", 2), ("egy", 3), ("szolo", 4)])
def test_every_contract_won_and_lost(rs, contract, g):
    # §1 game value g, §3.2 rule 5: the game g for the side that wins it
    check_row(rs, hand(contract, 52), 4, pair(g))
    check_row(rs, hand(contract, 30), 4, pair(-g))


@pytest.mark.parametrize(
    "points, row",
    [
        (48, pair(1)),  # "at least 48"
        (47, pair(-1)),  # "The opponents win if they have 47 or more"
        (70, pair(1)),
        (71, pair(2)),  # silent dupla 2g replaces the game
        (24, pair(-1)),
        (23, pair(-2)),  # the opponents' silent dupla
    ],
)
def test_thresholds_of_the_game_and_the_silent_dupla(rs, points, row):
    check_row(rs, hand("harom", points), 4, row)


def test_pag_two_with_75_points_is_a_double_game_of_4(rs):
    # PAG: "if the bid is two and the declarer's team takes 75 card points, the payment of 4 points
    # for double game replaces the 2 points for game"
    check_row(rs, hand("ketto", 75), 4, pair(4))


def test_silent_volat_replaces_game_and_dupla(rs):
    # §3.2 rule 3: 3g for the side that took every trick
    check_row(rs, hand("egy", 90, all_tricks="declarer"), 4, pair(9))
    check_row(rs, hand("egy", 5, all_tricks="opponents"), 4, pair(-9))
    check_row(rs, hand("harom", 72, all_tricks="declarer"), 4, pair(3))
    check_row(rs, hand("harom", 22, all_tricks="opponents"), 4, pair(-3))


# PAG "BASIC GAME SCORE MULTIPLIERS FOR DECLARER'S TEAM", quoted cell by cell. Columns: points /
# tricks of the declarer's team; each column is a (declarer_points, all_tricks) example.
COLUMNS = [(10, "opponents"), (20, None), (40, None), (60, None), (80, None), (90, "declarer")]
PAG_TABLE = [
    ("nothing", 0, [], [-3, -2, -1, 1, 2, 3]),
    ("double game", 0, [A("dupla", made=None)], [-7, -6, -5, -4, 4, 7]),
    ("volát", 0, [A("volat", made=None)], [-9, -8, -7, -6, -6, 6]),
    ("double game, volát", 0, [A("dupla", made=None), A("volat", made=None)], [-13, -12, -11, -10, -2, 10]),
    ("kontra the game", 1, [], [-5, -4, -2, 2, 4, 5]),
    ("kontra the game; opponents announce double", 1, [A("dupla", "opponents", made=None)], [-9, -6, 2, 6, 8, 9]),
    ("double game; opponents kontra the double", 0, [A("dupla", made=None, kontra=1)], [-11, -10, -9, -8, 8, 11]),
    ("double game; opponents kontra the double and the game", 1, [A("dupla", made=None, kontra=1)], [-13, -12, -10, -6, 10, 13]),
]


@pytest.mark.parametrize("label, kontra, bonuses, multipliers", PAG_TABLE, ids=[row[0] for row in PAG_TABLE])
@pytest.mark.parametrize("column", range(6), ids=["no trick", "23-", "24-47", "48-70", "71+", "all tricks"])
def test_pag_multiplier_table_cell_by_cell(rs, label, kontra, bonuses, multipliers, column):
    # §3.2: "They reproduce every cell of PAG's table"; a három, so the multiplier is the net
    points, all_tricks = COLUMNS[column]
    h = hand("harom", points, bonuses=bonuses, kontra=kontra, all_tricks=all_tricks)
    check_row(rs, h, 4, pair(multipliers[column]))


@pytest.mark.parametrize(
    "bonuses, kontra, points, all_tricks, row",
    [
        # the two cells the rule file quotes, in a two (g = 2):
        # "Double game, volát", 71 or more: +4g − 6g = −2g = −4
        ([A("dupla", made=None), A("volat", made=None)], 0, 75, None, pair(-4)),
        # "Kontra the game; opponents announce double", 24–47: −2g + 4g = +2g = +4
        ([A("dupla", "opponents", made=None)], 1, 40, None, pair(4)),
        # a szóló (g = 4), double game announced and made with volát silent: 4g + 3g = 28
        ([A("dupla", made=None)], 0, 94, "declarer", pair(28)),
    ],
)
def test_quoted_cells_in_a_two_and_a_solo(rs, bonuses, kontra, points, all_tricks, row):
    contract = "szolo" if points == 94 else "ketto"
    check_row(rs, hand(contract, points, bonuses=bonuses, kontra=kontra, all_tricks=all_tricks), 4, row)


def test_pag_worked_example(rs):
    # §2: a two, declarer announces double game, opponents kontra it and the game, 52 points:
    # game +2·2 = +4, failed dupla −8·2 = −16, n = −12
    h = {"dealer": 0, "contract": "ketto", "declarer": 1, "called": "XX", "partner": 2,
         "declarer_points": 52, "kontra": 1,
         "bonuses": [{"bonus": "dupla", "team": "declarer", "announced": True, "kontra": 1}]}
    check_row(rs, h, 4, [12, -12, -12, 12])


def test_dupla_replaces_the_game_unless_kontrad(rs):
    # §3.2 rule 5: kG = 0 and the winner announced dupla: no game; kontra'd: the game too
    check_row(rs, hand("harom", 75, bonuses=[A("dupla", made=None)]), 4, pair(4))
    check_row(rs, hand("harom", 75, bonuses=[A("dupla", made=None)], kontra=1), 4, pair(4 + 2))
    # an announced volát made: 6g, no silent dupla, no game; kontra'd game: 6 + 2
    check_row(rs, hand("harom", 90, all_tricks="declarer", bonuses=[A("volat", made=None)]), 4, pair(6))
    check_row(rs, hand("harom", 90, all_tricks="declarer", bonuses=[A("volat", made=None)], kontra=1), 4, pair(8))
    # a silent volát beside a kontra'd game: 3 + 2 (rule 5 "in addition to the kontra'd game")
    check_row(rs, hand("harom", 90, all_tricks="declarer", kontra=1), 4, pair(5))
    # a silent dupla beside a kontra'd game: 2 + 2
    check_row(rs, hand("harom", 80, kontra=1), 4, pair(4))
    # announced volát with 80 points and a trick lost: −6, no silent dupla (announced volát), no game
    check_row(rs, hand("harom", 80, bonuses=[A("volat", made=None)]), 4, pair(-6))
    # the announced entries may carry a made that agrees with §3.2
    check_row(rs, hand("harom", 75, bonuses=[A("dupla", made=True)]), 4, pair(4))
    check_row(rs, hand("harom", 60, bonuses=[A("dupla", made=False)]), 4, pair(-4))
    check_row(rs, hand("harom", 90, all_tricks="declarer", bonuses=[A("volat", made=True)]), 4, pair(6))


# ------------------------------------------------------------------------------ §3.3 bonuses

# A három won with 52 points (game +1) and one bonus entry: the expected net, by hand (§3.3).
BONUS_CASES = [
    # key, team, announced, made, net
    ("tuletroa", "declarer", False, True, 1 + 1),
    ("tuletroa", "opponents", False, True, 1 - 1),
    ("tuletroa", "declarer", True, True, 1 + 2),
    ("tuletroa", "declarer", True, False, 1 - 2),
    ("tuletroa", "opponents", True, True, 1 - 2),
    ("tuletroa", "opponents", True, False, 1 + 2),
    ("negykiraly", "declarer", False, True, 1 + 1),
    ("negykiraly", "opponents", False, True, 1 - 1),
    ("negykiraly", "declarer", True, True, 1 + 2),
    ("negykiraly", "declarer", True, False, 1 - 2),
    ("negykiraly", "opponents", True, True, 1 - 2),
    ("negykiraly", "opponents", True, False, 1 + 2),
    ("pagatultimo", "declarer", False, True, 1 + 5),
    ("pagatultimo", "opponents", False, True, 1 - 5),
    ("pagatultimo", "declarer", False, False, 1 - 5),  # silent, pagát beaten in the last trick
    ("pagatultimo", "opponents", False, False, 1 + 5),
    ("pagatultimo", "declarer", True, True, 1 + 10),
    ("pagatultimo", "declarer", True, False, 1 - 10),
    ("pagatultimo", "opponents", True, True, 1 - 10),
    ("pagatultimo", "opponents", True, False, 1 + 10),
    ("xxi_fogas", "declarer", False, True, 1 + 21),
    ("xxi_fogas", "opponents", False, True, 1 - 21),
    ("xxi_fogas", "declarer", True, True, 1 + 42),
    ("xxi_fogas", "declarer", True, False, 1 - 42),
    ("xxi_fogas", "opponents", True, True, 1 - 42),
    ("xxi_fogas", "opponents", True, False, 1 + 42),
]


@pytest.mark.parametrize("key, team, announced, made, net", BONUS_CASES)
def test_every_bonus_silent_announced_made_failed(rs, key, team, announced, made, net):
    check_row(rs, hand("harom", 52, bonuses=[E(key, team, announced, made)]), 4, pair(net))


def test_bonuses_do_not_depend_on_the_game_value(rs):
    # PAG: "not affected by the basic game value": a szóló (g = 4) with a silent pagátultimó, 4 + 5
    check_row(rs, hand("szolo", 52, bonuses=[E("pagatultimo")]), 4, pair(9))
    # and a lost egy (−3) with the opponents' announced XXI-fogás made: −3 − 42
    check_row(rs, hand("egy", 40, bonuses=[A("xxi_fogas", "opponents")]), 4, pair(-45))


def test_four_kings_examples_of_3_3(rs):
    # A = declarer's side announces four kings, B = opponents take them: B scores 2 + 1 = 3;
    # with the game +1: n = 1 − 3 = −2
    h = hand(bonuses=[A("negykiraly", made=False), E("negykiraly", "opponents")])
    check_row(rs, h, 4, pair(-2))
    # both announce, A's kontra'd, kings split: B nets 4 − 2 = 2; n = 1 − 2 = −1
    h = hand(bonuses=[A("negykiraly", made=False, kontra=1), A("negykiraly", "opponents", made=False)])
    check_row(rs, h, 4, pair(-1))
    # "if either side actually takes all four kings they will score 6": A takes them, n = 1 + 6
    h = hand(bonuses=[A("negykiraly", made=True, kontra=1), A("negykiraly", "opponents", made=False)])
    check_row(rs, h, 4, pair(7))
    # B takes them: n = 1 − 6
    h = hand(bonuses=[A("negykiraly", made=False, kontra=1), A("negykiraly", "opponents", made=True)])
    check_row(rs, h, 4, pair(-5))


def test_silent_trull_and_four_kings_score_nothing_beside_a_volat(rs):
    # §3.3: volát 3, silent trull 0, silent four kings 0
    h = hand("harom", 90, all_tricks="declarer", bonuses=[E("tuletroa"), E("negykiraly")])
    check_row(rs, h, 4, pair(3))
    # announced ones are scored as usual: 3 + 2 + 2
    h = hand("harom", 90, all_tricks="declarer", bonuses=[A("tuletroa"), A("negykiraly")])
    check_row(rs, h, 4, pair(7))
    # the opponents' volát: −3, their silent trull 0
    check_row(rs, hand("harom", 10, all_tricks="opponents", bonuses=[E("tuletroa", "opponents")]), 4, pair(-3))
    # option silent_trull_with_volat: trull 1, four kings still 0 (§5)
    opt = HungarianTarokkRuleset(options={"silent_trull_with_volat": True})
    h = hand("harom", 90, all_tricks="declarer", bonuses=[E("tuletroa"), E("negykiraly")])
    check_row(opt, h, 4, pair(3 + 1))


def test_pag_interesting_consequence(rs):
    # PAG: "double game, trull and four kings for 4 points (2 + 1 + 1), rather than ... volát ...
    # worth only 3 points"
    check_row(rs, hand("harom", 85, bonuses=[E("tuletroa"), E("negykiraly")]), 4, pair(4))
    check_row(rs, hand("harom", 94, all_tricks="declarer", bonuses=[E("tuletroa"), E("negykiraly")]), 4, pair(3))


def test_the_silent_failed_pagatultimo_even_when_the_partner_won_the_trick(rs):
    # §3.3: 5 against the side that played the pagát, with a volát of that same side: 3 − 5
    check_row(rs, hand("harom", 90, all_tricks="declarer", bonuses=[E("pagatultimo", made=False)]), 4, pair(-2))


# ------------------------------------------------------------------------------ kontra


@pytest.mark.parametrize("level, factor", [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16)])
def test_every_kontra_level_on_the_game(rs, level, factor):
    # §3.1: the game × 2**kG; a két (g = 2)
    check_row(rs, hand("ketto", 52, kontra=level), 4, pair(2 * factor))
    check_row(rs, hand("ketto", 40, kontra=level), 4, pair(-2 * factor))


@pytest.mark.parametrize("level, factor", [(1, 2), (2, 4), (3, 8), (4, 16)])
def test_every_kontra_level_on_an_announced_bonus(rs, level, factor):
    # an announced pagátultimó 10 × 2**k, game +1 not kontra'd
    check_row(rs, hand(bonuses=[A("pagatultimo", kontra=level)]), 4, pair(1 + 10 * factor))
    check_row(rs, hand(bonuses=[A("pagatultimo", made=False, kontra=level)]), 4, pair(1 - 10 * factor))
    # the opponents' announced tuletroá kontra'd by the declarer's side and failed
    check_row(rs, hand(bonuses=[A("tuletroa", "opponents", made=False, kontra=level)]), 4, pair(1 + 2 * factor))


def test_kontras_are_independent_of_each_other(rs):
    # PAG §Kontra: the game rekontra'd (×4) and the pagátultimó kontra'd (×2): 4 + 20
    check_row(rs, hand(kontra=2, bonuses=[A("pagatultimo", kontra=1)]), 4, pair(4 + 20))


def test_mordkontra_only_with_its_option(rs):
    mord = HungarianTarokkRuleset(options={"mordkontra": True})
    # 5 = mordkontra ×32 (§2, §5)
    check_row(mord, hand("harom", 52, kontra=5), 4, pair(32))
    check_row(mord, hand("harom", 52, bonuses=[A("pagatultimo", kontra=5)]), 4, pair(1 + 320))
    refused(rs, hand("harom", 52, kontra=5), 4, "mordkontra", "hirskontra")
    refused(rs, hand("harom", 52, bonuses=[A("pagatultimo", kontra=5)]), 4, "mordkontra")
    refused(mord, hand("harom", 52, kontra=6), 4, "0 to 5")
    refused(rs, hand("harom", 52, kontra=6), 4, "0 to 4")


# ------------------------------------------------------------------------------ §3.4 shapes


def test_self_call_plays_alone_for_three_times(rs):
    # §1 item 1, §3.4: a szóló with the own XX, 60 points: n = 4, ×3 for the declarer
    check_row(rs, hand("szolo", 60, partner=1), 4, alone(4))
    # a lost kettő self-call: n = −2
    check_row(rs, hand("ketto", 40, partner=1), 4, alone(-2))
    # Decision §3.4: the lone game keeps the value of the bid: an egy, n = 3
    check_row(rs, hand("egy", 50, partner=1), 4, alone(3))


def test_discarded_call_plays_alone_with_the_obliged_kontra(rs):
    # §1 item 2: partner null, kontra 1: the game 1 × 2 = 2, ×3 for the declarer
    check_row(rs, hand("harom", 50, partner=None, called="XIX", kontra=1), 4, alone(2))
    # lost, with an announced pagátultimó of the declarer made: −2 + 10 = 8
    check_row(rs, hand("harom", 40, partner=None, kontra=1, bonuses=[A("pagatultimo")]), 4, alone(8))


def test_other_seats_in_a_partnership(rs):
    # declarer 3, partner 0 (dealer 2, Vorhand 3): n = 2 (kettő won) -> [2, -2, -2, 2]
    check_row(rs, hand("ketto", 60, declarer=3, partner=0, dealer=2), 4, [2, -2, -2, 2])


def test_five_table_dealer_sits_out_with_0(rs):
    # §1: dealer 0 of a 5-table rests; declarer 2, partner 4, a három won: [0, -1, 1, -1, 1]
    check_row(rs, hand("harom", 52, declarer=2, partner=4), 5, [0, -1, 1, -1, 1])
    # a lone declarer at a 5-table, self-call at seat 3, szóló won: 4 × 3
    check_row(rs, hand("szolo", 52, declarer=3, partner=3), 5, [0, -4, -4, 12, -4])
    # the dealer cannot play
    refused(rs, hand("harom", 52, declarer=0, partner=2), 5, "sits out")
    refused(rs, hand("harom", 52, declarer=1, partner=0), 5, "sits out")


# ------------------------------------------------------------------------------ §3.5 tarokks


def test_declared_tarokks_are_paid_by_each_other_active_player(rs):
    # a három won (n = 1): [-1, 1, 1, -1]; seat 0 declared eight: +3 / −1 each other
    check_row(rs, hand(tarokks={"0": 8}), 4, [-1 + 3, 1 - 1, 1 - 1, -1 - 1])
    # seat 2 declared nine: +6 / −2 each other
    check_row(rs, hand(tarokks={"2": 9}), 4, [-1 - 2, 1 - 2, 1 + 6, -1 - 2])
    # two declarations, int keys accepted: seat 1 eight, seat 3 nine
    check_row(rs, hand(tarokks={1: 8, 3: 9}), 4, [-1 - 1 - 2, 1 + 3 - 2, 1 - 1 - 2, -1 - 1 + 6])
    # a 5-table: dealer 0 neither pays nor receives; seat 1 eight
    check_row(rs, hand("harom", 52, declarer=2, partner=4, tarokks={"1": 8}), 5, [0, -1 + 3, 1 - 1, -1 - 1, 1 - 1])
    # whatever the result and the sides: a lone declarer (self-call) losing, seat 3 nine
    check_row(rs, hand("harom", 40, partner=1, tarokks={"3": 9}), 4, [1 - 2, -3 - 2, 1 - 2, 1 + 6])


def test_tarokks_team_post_option(rs):
    opt = HungarianTarokkRuleset(options={"tarokks_team_post": True})
    # §5: a post v for the holder's side inside n: seat 0 (opponent) eight: n = 1 − 1 = 0
    check_row(opt, hand(tarokks={"0": 8}), 4, pair(0))
    # seat 2 (partner) nine: n = 1 + 2 = 3
    check_row(opt, hand(tarokks={"2": 9}), 4, pair(3))
    # a lone declarer, an opponent declares nine: n = 1 − 2 = −1, ×3
    check_row(opt, hand(partner=1, tarokks={"0": 9}), 4, alone(-1))
    # the same without the option: alone(1) = [-1, 3, -1, -1] plus seat 0's +6 / −2
    check_row(rs, hand(partner=1, tarokks={"0": 9}), 4, [5, 1, -3, -3])


# ------------------------------------------------------------------------------ §3.6 forfeit


@pytest.mark.parametrize(
    "contract, dealer, row",
    [
        # the fourth bidder (dealer + 4) % 4 = the dealer; −3g, the others +g
        ("harom", 0, [-3, 1, 1, 1]),
        ("ketto", 1, [2, -6, 2, 2]),
        ("egy", 2, [3, 3, -9, 3]),
    ],
)
def test_forfeit_pays_the_game_value_to_each(rs, contract, dealer, row):
    check_row(rs, {"dealer": dealer, "contract": contract, "declarer": dealer, "forfeit": True}, 4, row)


def test_forfeit_at_a_five_table_and_its_defaults(rs):
    # dealer 0 rests, the fourth bidder is (0 + 4) % 5 = 4
    check_row(rs, {"dealer": 0, "contract": "harom", "declarer": 4, "forfeit": True}, 5, [0, 1, 1, 1, -3])
    # fields at their hand-record default are accepted, a note too
    h = {"dealer": 3, "contract": "harom", "declarer": 3, "forfeit": True, "kontra": 0, "bonuses": [],
         "tarokks": {}, "partner": None, "all_tricks": None, "note": "no honour in the talon"}
    check_row(rs, h, 4, [1, 1, 1, -3])


def test_forfeit_pvsz18_option(rs):
    opt = HungarianTarokkRuleset(options={"proba_pvsz18": True})
    # §5: három only, 3 to each
    check_row(opt, {"dealer": 0, "contract": "harom", "declarer": 0, "forfeit": True}, 4, [-9, 3, 3, 3])
    refused(opt, {"dealer": 0, "contract": "ketto", "declarer": 0, "forfeit": True}, 4, "PVSZ18", "Kettő")


def test_forfeit_refusals(rs):
    refused(rs, {"dealer": 0, "contract": "szolo", "declarer": 0, "forfeit": True}, 4, "szóló", "talon")
    refused(rs, {"dealer": 0, "contract": "harom", "declarer": 1, "forfeit": True}, 4, "fourth player")
    for extra in ({"declarer_points": 20}, {"kontra": 1}, {"bonuses": [E("tuletroa")]}, {"partner": 2},
                  {"called": "XX"}, {"tarokks": {"1": 8}}, {"won": True}, {"all_tricks": "opponents"}):
        h = {"dealer": 0, "contract": "harom", "declarer": 0, "forfeit": True, **extra}
        refused(rs, h, 4, "próbahárom", next(iter(extra)))
    refused(rs, {"dealer": 0, "contract": "harom", "declarer": 0, "forfeit": "yes"}, 4, "forfeit")


# ------------------------------------------------------------------------------ options


def test_kontra_47_declarer_wins(rs):
    opt = HungarianTarokkRuleset(options={"kontra_47_declarer_wins": True})
    # default: 47 loses, also kontra'd
    check_row(rs, hand("harom", 47, kontra=1), 4, pair(-2))
    # option: 47 wins a kontra'd game (kG >= 1)
    check_row(opt, hand("harom", 47, kontra=1), 4, pair(2))
    check_row(opt, hand("harom", 47, kontra=1, won=True), 4, pair(2))
    refused(opt, hand("harom", 47, kontra=1, won=False), 4, "47", "win")
    # not without kontra
    check_row(opt, hand("harom", 47), 4, pair(-1))
    check_row(opt, hand("harom", 46, kontra=1), 4, pair(-2))


def test_announcer_game_never_scored(rs):
    opt = HungarianTarokkRuleset(options={"announcer_game_never_scored": True})
    # PAG's example: the kontra'd game is not scored for the side that announced dupla: n = −16
    h = hand("ketto", 52, kontra=1, bonuses=[A("dupla", made=None, kontra=1)])
    check_row(opt, h, 4, pair(-16))
    # dupla made, game kontra'd: default 4 + 2, option 4
    h = hand("harom", 80, kontra=1, bonuses=[A("dupla", made=None)])
    check_row(rs, h, 4, pair(6))
    check_row(opt, h, 4, pair(4))
    # the other side's kontra'd game still scores: the announcer lost, −4 − 2 either way
    h = hand("harom", 30, kontra=1, bonuses=[A("dupla", made=None)])
    check_row(rs, h, 4, pair(-6))
    check_row(opt, h, 4, pair(-6))


def test_xxi_catch_kupa(rs):
    opt = HungarianTarokkRuleset(options={"xxi_catch_kupa": True})
    assert (opt.bonus("xxi_fogas").silent, opt.bonus("xxi_fogas").announced) == (42, 84)
    assert (rs.bonus("xxi_fogas").silent, rs.bonus("xxi_fogas").announced) == (21, 42)
    # KUPA §1.5: 42 silent, 84 announced; game +1
    check_row(opt, hand(bonuses=[E("xxi_fogas")]), 4, pair(43))
    check_row(opt, hand(bonuses=[A("xxi_fogas", made=False)]), 4, pair(1 - 84))
    check_row(opt, hand(bonuses=[A("xxi_fogas", "opponents", kontra=1)]), 4, pair(1 - 168))


# ------------------------------------------------------------------------------ §4 refusals


def test_contract_declarer_and_partner_seats(rs):
    refused(rs, hand("rufer"), 4, "rufer")
    refused(rs, {k: v for k, v in hand().items() if k != "contract"}, 4, "contract")
    refused(rs, {k: v for k, v in hand().items() if k != "declarer"}, 4, "declarer")
    refused(rs, hand(declarer=4), 4, "declarer")
    refused(rs, hand(partner=7), 4, "partner")
    refused(rs, hand(partner="2"), 4, "partner")


def test_called_is_required_and_never_an_honour(rs):
    refused(rs, {k: v for k, v in hand().items() if k != "called"}, 4, "called")
    refused(rs, hand(called=None), 4, "called")
    refused(rs, hand(called="XXI"), 4, "XXI", "honour")
    refused(rs, hand(called="I"), 4, "pagát", "honour")
    refused(rs, hand(called="skíz"), 4, "skíz", "honour")
    refused(rs, hand(called="IIII"), 4, "IV")
    refused(rs, hand(called="xx"), 4, "XX")
    refused(rs, hand(called="XXV"), 4, "XXV")
    for numeral in ("XIX", "XV", "IV", "II"):
        check_row(rs, hand(called=numeral), 4, pair(1))


def test_partner_must_be_written_out(rs):
    h = hand()
    del h["partner"]
    problems = refused(rs, h, 4, "called tarokk", "null")
    assert any("discard" in p for p in problems)


def test_self_call_only_with_the_xx(rs):
    refused(rs, hand(partner=1, called="XIX"), 4, "only with the XX", "XIX")


def test_discarded_call_needs_kontra(rs):
    refused(rs, hand(partner=None), 4, "discard", "hivatalból")
    refused(rs, hand(partner=None, kontra=0), 4, "kontra")


@pytest.mark.parametrize("value", [55, "55", "55/0", " 55 "])
def test_declarer_points_forms_are_the_same(rs, value):
    check_row(rs, hand("harom", value), 4, pair(1))


@pytest.mark.parametrize("value, words", [
    (95, ("0 to 94", "95")),
    (-1, ("0 to 94",)),
    ("55/1", ("Blatt", "55/1")),
    ("55/2", ("Blatt",)),
    (55.0, ("0 to 94",)),
    (True, ("0 to 94",)),
    ("fifty", ("fifty",)),
    ("٥٥", ("0 to 94",)),
    (None, ("card points",)),
])
def test_declarer_points_refusals(rs, value, words):
    refused(rs, hand("harom", value), 4, *words)


def test_won_must_agree_with_the_points(rs):
    check_row(rs, hand("harom", 48, won=True), 4, pair(1))
    check_row(rs, hand("harom", 47, won=False), 4, pair(-1))
    refused(rs, hand("harom", 47, won=True), 4, "47", "lose")
    refused(rs, hand("harom", 47, won=True, kontra=1), 4, "47 card points lose")
    refused(rs, hand("harom", 48, won=False), 4, "48", "win")
    refused(rs, hand("harom", 48, won="yes"), 4, "won")


def test_all_tricks_bounds(rs):
    refused(rs, hand("harom", 71, all_tricks="declarer"), 4, "every trick", "71")
    refused(rs, hand("harom", 23, all_tricks="opponents"), 4, "every trick", "23")
    refused(rs, hand("harom", 60, all_tricks="both"), 4, "both")
    # Decision (fewer than 4 points are less than a trick): 91+ or 3- need all_tricks
    refused(rs, hand("harom", 91), 4, "91", "every trick")
    refused(rs, hand("harom", 3), 4, "3 card points", "every trick")
    check_row(rs, hand("harom", 90), 4, pair(2))
    check_row(rs, hand("harom", 4), 4, pair(-2))


@pytest.mark.parametrize("key", ["centrum", "kismadar", "nagymadar", "sasultimo", "kiraly_uhu"])
def test_illusztralt_bonuses_are_refused(rs, key):
    # §8
    refused(rs, hand(bonuses=[A(key)]), 4, key, "Illusztrált")


def test_unknown_bonuses_are_refused_with_a_hint(rs):
    refused(rs, hand(bonuses=[E("trull")]), 4, "trull", "tuletroa")
    refused(rs, hand(bonuses=[E("valat")]), 4, "valat", "volat")
    refused(rs, hand(bonuses=[E("foo")]), 4, "foo")
    refused(rs, hand(bonuses={"tuletroa": True}), 4, "list")
    refused(rs, hand(bonuses=["tuletroa"]), 4, "list")


def test_kontra_on_silent_bonuses_and_bad_levels(rs):
    refused(rs, hand(bonuses=[E("tuletroa", kontra=1)]), 4, "silent", "kontra")
    check_row(rs, hand(bonuses=[E("tuletroa", kontra=0)]), 4, pair(2))
    refused(rs, hand(bonuses=[A("tuletroa", kontra=-1)]), 4, "Tuletroá", "0 to 4")
    refused(rs, hand(bonuses=[A("tuletroa", kontra="k")]), 4, "Tuletroá", "0 to 4")
    refused(rs, hand(kontra="1"), 4, "kontra", "0 to 4")
    refused(rs, hand(kontra=-1), 4, "kontra")


def test_bonus_entry_shape(rs):
    refused(rs, hand(bonuses=[{"bonus": "tuletroa", "announced": True, "made": True}]), 4, "team")
    refused(rs, hand(bonuses=[{"bonus": "tuletroa", "team": "declarer", "made": True}]), 4, "announced")
    refused(rs, hand(bonuses=[A("tuletroa", made=None)]), 4, "announced Tuletroá", "made")
    refused(rs, hand(bonuses=[E("tuletroa", made=None)]), 4, "Tuletroá", "made")
    refused(rs, hand(bonuses=[A("tuletroa", made="yes")]), 4, "made")


def test_silent_bonuses_that_cannot_fail(rs):
    refused(rs, hand(bonuses=[E("negykiraly", made=False)]), 4, "silent Négykirály", "cannot fail")
    refused(rs, hand(bonuses=[E("tuletroa", made=False)]), 4, "cannot fail")
    refused(rs, hand(bonuses=[E("xxi_fogas", made=False)]), 4, "cannot fail")


def test_dupla_and_volat_are_listed_only_when_announced(rs):
    refused(rs, hand("harom", 75, bonuses=[E("dupla")]), 4, "silent Dupla", "card points")
    refused(rs, hand("harom", 90, all_tricks="declarer", bonuses=[E("volat")]), 4, "silent Volát", "all_tricks")
    # a given made must agree with §3.2
    refused(rs, hand("harom", 60, bonuses=[A("dupla", made=True)]), 4, "Dupla", "60")
    refused(rs, hand("harom", 75, bonuses=[A("dupla", made=False)]), 4, "Dupla", "75")
    refused(rs, hand("harom", 20, bonuses=[A("dupla", "opponents", made=False)]), 4, "Dupla", "20")
    refused(rs, hand("harom", 80, bonuses=[A("volat", made=True)]), 4, "Volát", "all_tricks")
    refused(rs, hand("harom", 90, all_tricks="declarer", bonuses=[A("volat", made=False)]), 4, "Volát")


def test_duplicate_entries(rs):
    refused(rs, hand(bonuses=[A("tuletroa"), A("tuletroa")]), 4, "twice")
    refused(rs, hand(bonuses=[E("pagatultimo"), E("pagatultimo", "opponents", made=False)]), 4, "silent Pagátultimó", "twice")
    refused(rs, hand(bonuses=[A("tuletroa", made=False), E("tuletroa")]), 4, "both announced and silent")
    refused(rs, hand(bonuses=[E("negykiraly"), A("negykiraly", made=False)]), 4, "both announced and silent")
    refused(rs, hand("harom", 75, bonuses=[A("dupla", made=None), A("dupla", made=None)]), 4, "Dupla", "twice")
    # both sides announcing the same bonus is allowed (§3.3)
    check_row(rs, hand(bonuses=[A("tuletroa", made=False), A("tuletroa", "opponents", made=False)]), 4, pair(1 - 2 + 2))


@pytest.mark.parametrize(
    "key, words",
    [
        ("tuletroa", ("all three honours",)),
        ("negykiraly", ("all four kings",)),
        ("pagatultimo", ("one pagát",)),
        ("xxi_fogas", ("one XXI",)),
    ],
)
def test_at_most_one_side_makes_each_feat(rs, key, words):
    refused(rs, hand(bonuses=[A(key, made=True), E(key, "opponents")]), 4, *words)
    refused(rs, hand(bonuses=[A(key, made=True), A(key, "opponents", made=True)]), 4, *words)


def test_the_side_without_a_trick_made_nothing(rs):
    h = hand("harom", 90, all_tricks="declarer", bonuses=[E("pagatultimo", "opponents")])
    refused(rs, h, 4, "opponents took no trick", "Pagátultimó")
    h = hand("harom", 10, all_tricks="opponents", bonuses=[A("xxi_fogas", made=True)])
    refused(rs, h, 4, "declarer's side took no trick", "XXI-fogás")
    # their failed announcements and a beaten silent pagát are fine: volát 3, their failed
    # announced pagátultimó +10, their silent pagát beaten +5
    h = hand("harom", 90, all_tricks="declarer", bonuses=[A("pagatultimo", "opponents", made=False)])
    check_row(rs, h, 4, pair(3 + 10))
    h = hand("harom", 90, all_tricks="declarer", bonuses=[E("pagatultimo", "opponents", made=False)])
    check_row(rs, h, 4, pair(3 + 5))


def test_the_all_tricks_side_made_its_announced_trull_and_kings(rs):
    for key, name in (("tuletroa", "Tuletroá"), ("negykiraly", "Négykirály")):
        h = hand("harom", 90, all_tricks="declarer", bonuses=[A(key, made=False)])
        refused(rs, h, 4, "took every trick", name)


def test_trull_excludes_the_other_sides_xxi_catch_and_pagatultimo(rs):
    refused(rs, hand(bonuses=[E("tuletroa"), E("xxi_fogas", "opponents")]), 4, "Tuletroá", "XXI-fogás", "exclude")
    refused(rs, hand(bonuses=[E("tuletroa", "opponents"), A("pagatultimo", made=True)]), 4, "Tuletroá", "Pagátultimó", "exclude")
    # the same side may have both: 1 + 1 + 21
    check_row(rs, hand(bonuses=[E("tuletroa"), E("xxi_fogas")]), 4, pair(23))
    # the other side's pagát beaten by the trull side is fine: 1 + 1 + 5
    check_row(rs, hand(bonuses=[E("tuletroa"), E("pagatultimo", "opponents", made=False)]), 4, pair(7))


def test_tarokks_refusals(rs):
    refused(rs, hand(tarokks={"1": 7}), 4, "8 or 9", "7")
    refused(rs, hand(tarokks={"1": "8"}), 4, "8 or 9")
    refused(rs, hand(tarokks={"4": 8}), 4, "not a seat")
    refused(rs, hand(tarokks={"x": 8}), 4, "not a seat")
    refused(rs, hand(tarokks={"1": 8, 1: 9}), 4, "twice")
    refused(rs, hand(tarokks={"0": 8, "1": 8, "2": 8}), 4, "24 tarokks", "22")
    refused(rs, hand(tarokks=[1, 8]), 4, "seat by seat")
    refused(rs, hand("harom", 52, declarer=2, partner=4, tarokks={"0": 8}), 5, "sits out")
    # 9 + 9 = 18 is possible: −1 + … by hand: seat 0 nine +6, seat 3 nine +6, each pays the other 2
    check_row(rs, hand(tarokks={"0": 9, "3": 9}), 4, [-1 + 6 - 2, 1 - 2 - 2, 1 - 2 - 2, -1 + 6 - 2])


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("card_points", {"0": 20}, ("declarer_points",)),
        ("kontra_by", 2, ("who said kontra",)),
        ("against_solo", True, ("Cego",)),
        ("mond_lost_by", 0, ("Mond",)),
        ("conceded", True, ("conceding",)),
        ("revoke", 0, ("renonsz", "manual row")),
    ],
)
def test_fields_of_other_rulesets_are_refused(rs, field, value, words):
    refused(rs, hand(**{field: value}), 4, *words)


def test_fields_of_other_rulesets_at_their_default_are_accepted(rs):
    h = hand(card_points=None, kontra_by=None, against_solo=False, mond_lost_by=None, conceded=False, revoke=None)
    check_row(rs, h, 4, pair(1))


def test_manual_and_struck_rows(rs):
    check_row(rs, {"dealer": 0, "outcome": "manual", "scores": [-6, 2, 2, 2]}, 4, [-6, 2, 2, 2])
    refused(rs, {"dealer": 0, "outcome": "manual", "scores": [-6, 2, 2, 6]}, 4, "sum")
    refused(rs, {"dealer": 0, "outcome": "manual", "scores": [2, -6, 2, 2, 0]}, 5, "sits out")
    check_row(rs, {"dealer": 0, "outcome": "manual", "scores": [0, -6, 2, 2, 2]}, 5, [0, -6, 2, 2, 2])
    check_row(rs, {"dealer": 1, "outcome": "struck", "note": "misdeal"}, 5, [0, 0, 0, 0, 0])


def test_messages_name_seats_one_based(rs):
    problems = refused(rs, {"dealer": 0, "contract": "harom", "declarer": 1, "forfeit": True}, 4, "fourth player")
    assert any("seat 1" in p and "seat 2" in p for p in problems)  # the dealer seat 0 is "seat 1"


def test_msgids_have_no_stray_percent(rs):
    import re

    import variants.hungarian as module

    text = open(module.__file__, encoding="utf-8").read()
    for msgid in re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', text):
        assert not re.search(r"%(?!\(\w+\)s)", msgid), msgid


# ------------------------------------------------------------------------------ words, summary


def test_won_of(rs):
    assert rs.won_of(hand("harom", 48)) is True
    assert rs.won_of(hand("harom", 47, kontra=1)) is False
    assert HungarianTarokkRuleset(options={"kontra_47_declarer_wins": True}).won_of(hand("harom", 47, kontra=1)) is True
    assert rs.won_of({"dealer": 0, "contract": "harom"}) is None
    assert rs.won_of({"dealer": 0, "contract": "harom", "declarer": 0, "forfeit": True}) is False
    assert rs.won_of(hand("harom", "55/1")) is None


def test_notable(rs):
    def msgids(record, size=4):
        row = rs.score(record, size) if not rs.validate(record, size) else None
        return [r.msgid for r in rs.notable(record, row)]

    assert msgids(hand("harom", 90, all_tricks="declarer")) == ["Valat"]
    assert msgids(hand("harom", 10, all_tricks="opponents")) == ["Valat"]
    assert "Valat" in msgids(hand("harom", 90, all_tricks="declarer", bonuses=[A("volat", made=None)]))
    assert msgids(hand("harom", 80, bonuses=[A("volat", made=None)])) == []  # a failed announcement
    reasons = rs.notable(hand("szolo", 60, partner=1))
    assert [str(r) for r in reasons] == ["Szóló won"] and reasons[0].msgid == "%(contract)s won"
    assert msgids(hand("szolo", 40, partner=1)) == []
    assert msgids(hand("harom", 52)) == []
    assert msgids(hand(bonuses=[E("tuletroa"), E("pagatultimo")])) == []  # silent trull, silent pagát
    words = [str(r) for r in rs.notable(hand(bonuses=[A("pagatultimo"), A("tuletroa", "opponents", made=False)]))]
    assert words == ["Pagátultimó announced"]
    assert [str(r) for r in rs.notable(hand(bonuses=[A("negykiraly", "opponents")]))] == ["opponents: Négykirály announced"]
    assert [str(r) for r in rs.notable(hand(bonuses=[E("xxi_fogas", "opponents")]))] == ["opponents: XXI-fogás"]
    assert [str(r) for r in rs.notable({"dealer": 0, "contract": "harom", "declarer": 0, "forfeit": True})] == ["Próbahárom lost without play"]
    assert "the called tarokk lay in a discard" in [str(r) for r in rs.notable(hand(partner=None, kontra=1))]
    # never raises
    for record in ({"outcome": "struck"}, {"outcome": "manual", "scores": [1]}, {"contract": "rufer"},
                   {"contract": "harom", "bonuses": 5}, {"contract": "szolo", "declarer_points": "x"}, {}):
        assert rs.notable(record, None) == [] or isinstance(rs.notable(record, None), list)
    assert rs.notable(None) == []


def test_describe_and_summary(rs):
    parts = [str(p) for p in rs.describe(hand("szolo", 60, partner=1, tarokks={"2": 9}), [-4, 12, -4, -4])]
    assert "Szóló" in parts and "self-call" in parts and "XX" in parts
    assert any("nine tarokks" in p for p in parts)
    # "won" is the game (52 points), not the sign of the row: PAG's example, row [12, -12, -12, 12]
    size, record = rs.notation_example_hands[0]
    parts = [str(p) for p in rs.describe(record, [12, -12, -12, 12])]
    assert "won" in parts and "lost" not in parts
    assert "lost" in [str(p) for p in rs.describe(hand("harom", 47), [1, -1, -1, 1])]
    parts = [str(p) for p in rs.describe(hand(partner=None, kontra=1))]
    assert "kontra" in parts and "the called tarokk lay in a discard" in parts
    summary = [str(p) for p in rs.rules_summary()]
    assert len(summary) >= 5
    assert any("hirskontra ×16." in s for s in summary) and not any("mordkontra" in s for s in summary)
    with_options = [str(p) for p in HungarianTarokkRuleset(options=ALL_OPTIONS).rules_summary()]
    assert any("mordkontra ×32" in s for s in with_options)
    assert any("XXI-fogás 42 and 84" in s for s in with_options)
    assert any("47 wins" in s for s in with_options)
    assert any("pays 3" in s for s in with_options)


def test_breakdown_posts_add_up_to_the_net(rs):
    b = rs.breakdown(hand("ketto", 52, kontra=1, bonuses=[A("dupla", made=None, kontra=1)]), 4)
    assert sum(value for _label, value in b.posts) == -12  # PAG: 4 − 16
    assert "-12" in str(b.summary)
    b = rs.breakdown({"dealer": 0, "contract": "egy", "declarer": 0, "forfeit": True}, 4)
    assert b.row == (-9, 3, 3, 3)


def test_notation_examples_are_all_valid():
    for opts in ({}, ALL_OPTIONS):
        ruleset = HungarianTarokkRuleset(options=opts)
        examples = ruleset.notation_example_hands
        assert len(examples) >= 5
        valid = ruleset.notation_examples()
        if not opts:
            assert len(valid) == len(examples)
    rs = HungarianTarokkRuleset()
    # the first is PAG's example of §2
    size, record = rs.notation_example_hands[0]
    assert rs.score(record, size) == [12, -12, -12, 12]


# ------------------------------------------------------------------------------ random hands


@pytest.mark.parametrize("size", [4, 5])
@settings(max_examples=200, deadline=None)
@given(seed=st.integers())
def test_random_hands_validate_and_sum_to_zero(size, seed):
    rs = HungarianTarokkRuleset()
    rng = random.Random(seed)
    dealer = rng.randrange(size)
    record = rs.random_hand(rng, size, dealer)
    assert rs.validate(record, size) == []
    row = rs.score(record, size)
    assert sum(row) == 0 and len(row) == size and all(isinstance(v, int) for v in row)
    if size == 5:
        assert row[dealer] == 0
    rs.notable(record, row)
    rs.describe(record, row)


@pytest.mark.parametrize("size", [4, 5])
@settings(max_examples=200, deadline=None)
@given(seed=st.integers())
def test_random_hands_with_every_option(size, seed):
    rs = HungarianTarokkRuleset(options=ALL_OPTIONS)
    rng = random.Random(seed)
    dealer = rng.randrange(size)
    record = rs.random_hand(rng, size, dealer)
    assert rs.validate(record, size) == []
    row = rs.score(record, size)
    assert sum(row) == 0
    if size == 5:
        assert row[dealer] == 0


def test_random_draws_are_mostly_valid_and_varied():
    rs = HungarianTarokkRuleset()
    rng = random.Random(2026)
    records = [rs.draw_random(rng, 4, k % 4) for k in range(2000)]
    assert all(rs.validate(r, 4) == [] for r in records)
    contracts = [r.get("contract") for r in records if r.get("outcome", "played") == "played" and not r.get("forfeit")]
    assert contracts.count("harom") > contracts.count("ketto") > contracts.count("egy") > 0
    assert contracts.count("szolo") > 0
    assert any(r.get("forfeit") for r in records)
    assert any(r.get("all_tricks") for r in records)
    assert any(r.get("tarokks") for r in records)
    assert any(r.get("kontra") for r in records)
    assert any("partner" in r and r["partner"] is None for r in records)
    assert any(r.get("partner") is not None and r.get("partner") == r.get("declarer") for r in records)
    assert any(b["announced"] for r in records for b in r.get("bonuses", []))


def test_a_probaharom_is_written_without_a_result_and_reads_back():
    # §3.6: a három lost without play by the fourth bidder (dealer 2 at a 4-table: seat 2 bids);
    # the line says what was recorded, nothing more: g = 1 to each other player, −3 for him.
    rs = HungarianTarokkRuleset()
    record = {"dealer": 2, "contract": "harom", "declarer": 2, "forfeit": True}
    assert rs.format_hand(record, 4) == "3 3 pr"
    assert rs.score(rs.parse_hand("3 3 pr", 4, 2), 4) == [1, 1, -3, 1]


def test_nobody_as_partner_is_written_only_before_the_card_points():
    # §2: "0" in the partner's place keeps the card points from being read as the partner; in a
    # próbahárom (no points, no partner) it would count for nothing, so it is refused by name.
    rs = HungarianTarokkRuleset()
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("3 3 0 pr", 4, 2)
    assert any("“0”" in e and "before the card points" in e for e in refused.value.errors)
    assert rs.parse_hand("3 1 0 xx k 52", 4, 0)["partner"] is None  # before the points it counts
