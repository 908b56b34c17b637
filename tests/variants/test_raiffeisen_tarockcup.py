"""Rule tests for the Raiffeisen Tarockcup ruleset (Königrufen), edition 2023.

Every expected row below was computed by hand from the rule text, never from the engine:

- ``RA`` = ``../shared/rules/koenigrufen-raiffeisen.md`` §6.0–§6.12 (contracts §6.1, bonuses
  §6.2, posts and conceding §6.3, Valat §6.4, Trischaken §6.5, Renonce §6.6, Kontra §6.7,
  validation §6.8, tournaments §6.9, differences §6.10, worked examples §6.11);
- ``KR`` = ``../shared/rules/koenigrufen.md`` §1 (the engine) and its "Options" table;
- ``HR`` = ``../shared/rules/hand-record.md``.

Arithmetic (KR §1 "From a hand to a row"): the net value ``n`` is the sum of the posts (game and
bonuses) from the declarer side's point of view; 2 against 2: declarer ``+n``, partner ``+n``, each
opponent ``-n``; 1 against 3: declarer ``+3n``, each opponent ``-n``; the dealer of a 5-table has 0.

Table (RA §6.1, bidding order; * Vorhand only): trischaken*, rufer* 1, piccolo 2, bettler 2,
solorufer 2 (solo), besserrufer 1 (+ its bird), farbendreier 3, sechserdreier* 4 (lost -8), dreier 4,
farbensolo 6 (solo), piccolo_ouvert 6, bettler_ouvert 7, solodreier 8 (solo). Bonuses (RA §6.2,
silent/announced): pagat 1/2, uhu 2/4, kakadu 3/6, quapil 4/8, koenig_ultimo 1/2, trull 1/2,
vier_koenige 1/2, ×2 in solos; valat ×4/×8 of ``V`` in place of the game post, never doubled in a
solo, doubled against the declarer of a Sechserdreier; beside any valat only announced bonuses count
(RA §6.4). A beaten silent bird scores 0 by default (RA §6.2, option ``failed_silent_birds_count``).

Unless said otherwise a 4-table hand has ``dealer = 3``, so Vorhand is seat 0 (HR "Seats"); the
worked examples of RA §6.11 have ``dealer = 0`` (Vorhand 1) as written there.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from variants import InvalidHand, all_rulesets, get_ruleset

from .rule_helpers import B, D, O, assert_invalid, check_row, hand, trisch4

KEY = "raiffeisen-tarockcup"
EDITION = "2023"
FAILED_ON = {"failed_silent_birds_count": True}
VIRGINS_ON = {"virgins_paid_in_full": True}


@pytest.fixture(scope="module")
def rs():
    return get_ruleset(KEY)


def with_options(**options):
    return get_ruleset(KEY, EDITION, options)


def s(h):
    """A silent bonus entry: ``D``/``O`` with ``announced=False``."""
    return dict(h, announced=False)


# --------------------------------------------------------------------------------------------------
# identity and catalogue (RA §6.0, §6.1, §6.2, §6.9)
# --------------------------------------------------------------------------------------------------

# key: (V, family, vorhand_only, solo, bird, lost_factor, code) -- RA §6.1, in bidding order
CONTRACTS = {
    "trischaken": (None, "trischaken", True, False, None, 1, "t"),
    "rufer": (1, "king_call", True, False, None, 1, "r"),
    "piccolo": (2, "negative", False, False, None, 1, "p"),
    "bettler": (2, "negative", False, False, None, 1, "b"),
    "solorufer": (2, "king_call", False, True, None, 1, "sr"),
    "besserrufer": (1, "king_call", False, False, "any", 1, "br"),
    "farbendreier": (3, "colour", False, False, None, 1, "fd"),
    "sechserdreier": (4, "dreier", True, False, None, 2, "6"),
    "dreier": (4, "dreier", False, False, None, 1, "d"),
    "farbensolo": (6, "colour", False, True, None, 1, "fs"),
    "piccolo_ouvert": (6, "negative", False, False, None, 1, "po"),
    "bettler_ouvert": (7, "negative", False, False, None, 1, "bo"),
    "solodreier": (8, "dreier", False, True, None, 1, "sd"),
}
# key: (silent, announced, kind, can fail silently) -- RA §6.2
BONUSES = {
    "pagat": (1, 2, "trick", True),
    "uhu": (2, 4, "trick", True),
    "kakadu": (3, 6, "trick", True),
    "quapil": (4, 8, "trick", True),
    "koenig_ultimo": (1, 2, "trick", True),
    "trull": (1, 2, "material", False),
    "vier_koenige": (1, 2, "material", False),
    "valat": (4, 8, "valat", False),  # ×4 / ×8 of the game value (RA §6.4)
}
SEVEN = {"pagat", "uhu", "kakadu", "quapil", "koenig_ultimo", "trull", "vier_koenige"}
ALLOWED = {  # RA §6.2 family table
    "king_call": SEVEN | {"valat"},
    "dreier": (SEVEN - {"koenig_ultimo"}) | {"valat"},
    "colour": {"vier_koenige", "valat"},
    "negative": set(),
    "trischaken": set(),
}


def test_registered_as_current_edition(rs):
    """RA §6.0: key ``raiffeisen-tarockcup``, edition 2023 (current)."""
    assert rs.key == KEY
    assert rs.edition == EDITION
    assert tuple(rs.editions) == (EDITION,)
    assert any(r.key == KEY and r.edition == EDITION for r in all_rulesets())
    assert "Raiffeisen" in rs.name


@pytest.mark.parametrize("edition", ["2021", "2019/20", "2024"])
def test_unknown_edition_raises_keyerror(edition):
    """RA §6.0 "A '2024' would name no document"; ÖF21 needs no edition of its own."""
    with pytest.raises(KeyError):
        get_ruleset(KEY, edition=edition)


def test_contract_table_in_bidding_order(rs):
    """RA §6.1 table: values, families, Vorhand-only, solos, the Besserrufer's bird, lost factor,
    notation codes; in bidding order, lowest first."""
    assert [c.key for c in rs.contracts] == list(CONTRACTS)
    for key, (value, family, vorhand_only, solo, bird, lost_factor, code) in CONTRACTS.items():
        c = rs.contract(key)
        assert (c.value, c.family, bool(c.vorhand_only), bool(c.solo), c.bird, c.lost_factor, c.code) == (
            value, family, vorhand_only, solo, bird, lost_factor, code), key


@pytest.mark.parametrize("key", ["zwiccolo", "zwiccolo_ouvert", "pagatrufer", "uhurufer", "kakadurufer",
                                 "quapilrufer", "mondfang", ""])
def test_contracts_not_in_this_edition(rs, key):
    """RA §6.1 "Not in this edition: Zwiccolo …, the named bird callers, Mondfang, Säcke"."""
    with pytest.raises(KeyError):
        rs.contract(key)


def test_bonus_table(rs):
    """RA §6.2: silent / announced values; Valat 4-/8-fach (a multiplier)."""
    assert [b.key for b in rs.bonuses] == list(BONUSES)
    for b in rs.bonuses:
        silent, announced, kind, fails = BONUSES[b.key]
        assert (b.silent, b.announced, b.kind, bool(b.can_fail_silently)) == (silent, announced, kind, fails), b.key
    assert rs.bonus("valat").multiplier
    for key in ("mondfang", "sack1", "sack2"):
        with pytest.raises(KeyError):
            rs.bonus(key)


@pytest.mark.parametrize("contract", list(CONTRACTS))
def test_allowed_bonuses(rs, contract):
    """RA §6.2 "Bonuses allowed per contract family"."""
    family = CONTRACTS[contract][1]
    assert {b.key for b in rs.allowed_bonuses(contract)} == ALLOWED[family]


def test_tournament_defaults(rs):
    """RA §6.9: 3 rounds of 16 hands at a 4-table, 20 at a 5-table (Decision); tables of 4 or 5;
    ties by best round, second-best, …, then lots."""
    assert rs.hands_per_round(4) == 16
    assert rs.hands_per_round(5) == 20
    assert rs.default_rounds == 3
    assert tuple(rs.table_sizes) == (4, 5)
    assert tuple(rs.tiebreaks) == ("best_rounds", "lots")


def test_options_and_their_defaults(rs):
    """KR "Options": ``failed_silent_birds_count`` default **off** in this edition only (RA §6.2);
    ``virgins_paid_in_full`` (off, RA §6.10 item 4)."""
    assert rs.option_defaults == {"failed_silent_birds_count": False, "virgins_paid_in_full": False}
    for key, edition in (("tiroler-tarockcup", "2019/20"), ("wiener-tarockcup", "2020"), ("wiener-tarockcup", "2009")):
        other = get_ruleset(key, edition)
        assert other.option_defaults["failed_silent_birds_count"] is True
        assert "virgins_paid_in_full" not in other.option_defaults
    assert [o.key for o, on in rs.options_in_force()] == ["failed_silent_birds_count", "virgins_paid_in_full"]
    assert not any(on for _o, on in rs.options_in_force())


def test_rules_page_sentences(rs):
    """The rules page states kontras never count (RA §6.7) and this edition's Valat and König ultimo."""
    text = " ".join(str(line) for line in rs.rules_summary())
    assert "never change the Schrift" in text
    assert "Valat" in text and "only announced bonuses count" in text
    assert "König ultimo" in text


# --------------------------------------------------------------------------------------------------
# worked examples RA §6.11 (dealer 0, Vorhand 1) and the ÖF21 tariff cases
# --------------------------------------------------------------------------------------------------

WORKED = [
    pytest.param(4, hand("besserrufer", 1, False, dealer=0, partner=3, bonuses=[D("uhu")]), [-3, 3, -3, 3],
                 id="RA6.11 W1 besserrufer lost, announced Uhu made (-1+4=3)"),
    pytest.param(4, hand("dreier", 2, True, dealer=0, bonuses=[s(D("trull")), s(O("pagat"))]), [-4, -4, 12, -4],
                 id="RA6.11 W2 dreier won, silent Trull / opp silent Pagat (4+1-1)"),
    pytest.param(4, hand("sechserdreier", 1, False, dealer=0, bonuses=[D("uhu")]), [4, -12, 4, 4],
                 id="RA6.11 W3 sechserdreier lost, announced Uhu made (-8+4)"),
    pytest.param(4, hand("solorufer", 1, False, dealer=0, partner=2, bonuses=[D("koenig_ultimo")]), [-2, 2, 2, -2],
                 id="RA6.11 W4 solorufer lost, announced Koenig ultimo (-2+2x2)"),
    pytest.param(4, hand("dreier", 1, True, dealer=0, bonuses=[s(D("valat")), D("trull"), s(D("pagat"))]),
                 [-18, 54, -18, -18], id="RA6.11 W5 dreier silent Valat 16 + announced Trull 2, silent Pagat dropped"),
    pytest.param(4, hand("dreier", 3, True, dealer=0, bonuses=[D("valat", made=False), D("pagat")]), [30, 30, 30, -90],
                 id="RA6.11 W6 dreier won on cards, announced Valat failed -32 + Pagat 2"),
    pytest.param(4, hand("solodreier", 2, True, dealer=0, bonuses=[D("valat")]), [-64, -64, 192, -64],
                 id="RA6.11 W7 solodreier announced Valat 8x8, not doubled"),
    pytest.param(4, hand("besserrufer", 2, None, dealer=0, conceded=True, bonuses=[D("uhu", made=False)]),
                 [5, 5, -15, 5], id="RA6.11 W8 besserrufer conceded, Uhu -(1+4)"),
    pytest.param(4, hand("dreier", 2, True, dealer=0, revoke=0), [-20, 4, 12, 4],
                 id="RA6.11 W9 dreier, opponent 0 revokes (OeOR25 B.4)"),
    pytest.param(4, hand("farbensolo", 2, True, dealer=0, bonuses=[s(D("vier_koenige"))]), [-8, -8, 24, -8],
                 id="RA6.11 W10 farbensolo, silent Vier Koenige (6+1x2)"),
    pytest.param(5, hand("rufer", 1, True, dealer=0, partner=3, bonuses=[O("trull", made=False)]), [0, 3, -3, 3, -3],
                 id="RA6.11 W11 5-table rufer, opp announced Trull failed (1+2)"),
    pytest.param(4, {"dealer": 0, "contract": "trischaken", "card_points": {"0": "13/1", "1": "36/0", "2": "13/1", "3": "7/1"}},
                 [4, -12, 4, 4], id="RA6.11 W12a trischaken Vorhand Buergermeister u=4"),
    pytest.param(4, {"dealer": 0, "contract": "trischaken", "card_points": {"0": "20", "1": "20", "2": "20", "3": "10"}},
                 [2, -6, 2, 2], id="RA6.11 W12b trischaken three tied incl. Vorhand: Vorhand alone u=2"),
    pytest.param(4, {"dealer": 0, "contract": "trischaken", "card_points": {"0": "40", "1": "20", "2": "10", "3": "0"}},
                 [-6, 0, 0, 6], id="RA6.11 W12c trischaken Buergermeister 0, Jungfrau 3 takes all 6"),
    pytest.param(4, hand("dreier", 1, True, dealer=0), [-4, 12, -4, -4], id="RA6.11 OeF21 tariff Dreier 4"),
    pytest.param(4, hand("solodreier", 1, True, dealer=0), [-8, 24, -8, -8], id="RA6.11 OeF21 tariff Solodreier 8"),
]


@pytest.mark.parametrize("size, h, expected", WORKED)
def test_worked_examples(rs, size, h, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# every contract won and lost at a 4-table (dealer 3, Vorhand 0)
# --------------------------------------------------------------------------------------------------

CONTRACT_CASES = [
    pytest.param(hand("rufer", 0, True, partner=2), [1, -1, 1, -1], id="RA6.1 rufer won 2v2 n=1"),
    pytest.param(hand("rufer", 0, False, partner=2), [-1, 1, -1, 1], id="RA6.1 rufer lost 2v2 n=-1"),
    pytest.param(hand("rufer", 0, True, partner=None), [3, -1, -1, -1], id="RA6.3 rufer king in talon won 1v3"),
    pytest.param(hand("rufer", 0, False, partner=None), [-3, 1, 1, 1], id="RA6.3 rufer king in talon lost 1v3"),
    pytest.param(hand("piccolo", 1, True), [-2, 6, -2, -2], id="RA6.1 piccolo won 2"),
    pytest.param(hand("piccolo", 1, False), [2, -6, 2, 2], id="RA6.1 piccolo lost 2"),
    pytest.param(hand("bettler", 2, True), [-2, -2, 6, -2], id="RA6.1 bettel won 2"),
    pytest.param(hand("bettler", 2, False), [2, 2, -6, 2], id="RA6.1 bettel lost 2"),
    pytest.param(hand("solorufer", 1, True, partner=3), [-2, 2, -2, 2], id="RA6.1 solorufer won 2"),
    pytest.param(hand("solorufer", 1, False, partner=3), [2, -2, 2, -2], id="RA6.1 solorufer lost 2"),
    pytest.param(hand("solorufer", 1, True, partner=None), [-2, 6, -2, -2], id="RA6.3 solorufer king in talon won 1v3"),
    pytest.param(hand("besserrufer", 2, True, partner=0, bonuses=[D("pagat")]), [3, -3, 3, -3],
                 id="RA6.1 besserrufer won, Pagat made 1+2"),
    pytest.param(hand("besserrufer", 2, False, partner=0, bonuses=[D("pagat")]), [1, -1, 1, -1],
                 id="RA6.1 besserrufer lost, Pagat made -1+2"),
    pytest.param(hand("besserrufer", 2, False, partner=0, bonuses=[D("pagat", made=False)]), [-3, 3, -3, 3],
                 id="RA6.1 besserrufer lost, Pagat failed -1-2"),
    pytest.param(hand("besserrufer", 2, True, partner=0, bonuses=[D("quapil"), D("pagat", made=False)]),
                 [7, -7, 7, -7], id="RA6.8 besserrufer with a second announced bird 1+8-2"),
    pytest.param(hand("farbendreier", 3, True), [-3, -3, -3, 9], id="RA6.1 farbendreier won 3"),
    pytest.param(hand("farbendreier", 3, False), [3, 3, 3, -9], id="RA6.1 farbendreier lost 3"),
    pytest.param(hand("sechserdreier", 0, True), [12, -4, -4, -4], id="RA6.1 sechserdreier won 4"),
    pytest.param(hand("sechserdreier", 0, False), [-24, 8, 8, 8], id="RA6.1 sechserdreier lost -8"),
    pytest.param(hand("dreier", 1, True), [-4, 12, -4, -4], id="RA6.1 dreier won 4"),
    pytest.param(hand("dreier", 1, False), [4, -12, 4, 4], id="RA6.1 dreier lost 4"),
    pytest.param(hand("farbensolo", 2, True), [-6, -6, 18, -6], id="RA6.1 farbensolo won 6"),
    pytest.param(hand("farbensolo", 2, False), [6, 6, -18, 6], id="RA6.1 farbensolo lost 6"),
    pytest.param(hand("piccolo_ouvert", 3, True), [-6, -6, -6, 18], id="RA6.1 piccolo ouvert won 6"),
    pytest.param(hand("piccolo_ouvert", 3, False), [6, 6, 6, -18], id="RA6.1 piccolo ouvert lost 6"),
    pytest.param(hand("bettler_ouvert", 0, True), [21, -7, -7, -7], id="RA6.1 bettel ouvert won 7"),
    pytest.param(hand("bettler_ouvert", 0, False), [-21, 7, 7, 7], id="RA6.1 bettel ouvert lost 7"),
    pytest.param(hand("solodreier", 1, True), [-8, 24, -8, -8], id="RA6.1 solodreier won 8"),
    pytest.param(hand("solodreier", 1, False), [8, -24, 8, 8], id="RA6.1 solodreier lost 8"),
]


@pytest.mark.parametrize("h, expected", CONTRACT_CASES)
def test_contracts(rs, h, expected):
    check_row(rs, h, 4, expected)


# --------------------------------------------------------------------------------------------------
# every bonus silent / announced, made / failed, in a Rufer and doubled in a Solorufer (RA §6.2)
# --------------------------------------------------------------------------------------------------

# Rufer won, declarer 0, partner 2 (dealer 3): game +1; row [n, -n, n, -n].
# (key, team, announced, made, n by default, n with failed_silent_birds_count on)
RUFER_MATRIX = [
    # pagat 1/2
    ("pagat", "declarer", False, True, 2, 2),
    ("pagat", "declarer", False, False, 1, 0),  # beaten silent bird: 0 by default, -1 with the option
    ("pagat", "declarer", True, True, 3, 3),
    ("pagat", "declarer", True, False, -1, -1),
    ("pagat", "opponents", False, True, 0, 0),
    ("pagat", "opponents", False, False, 1, 2),
    ("pagat", "opponents", True, True, -1, -1),
    ("pagat", "opponents", True, False, 3, 3),
    # uhu 2/4
    ("uhu", "declarer", False, True, 3, 3),
    ("uhu", "declarer", False, False, 1, -1),
    ("uhu", "declarer", True, True, 5, 5),
    ("uhu", "declarer", True, False, -3, -3),
    ("uhu", "opponents", False, True, -1, -1),
    ("uhu", "opponents", False, False, 1, 3),
    ("uhu", "opponents", True, True, -3, -3),
    ("uhu", "opponents", True, False, 5, 5),
    # kakadu 3/6
    ("kakadu", "declarer", False, True, 4, 4),
    ("kakadu", "declarer", False, False, 1, -2),
    ("kakadu", "declarer", True, True, 7, 7),
    ("kakadu", "declarer", True, False, -5, -5),
    ("kakadu", "opponents", False, True, -2, -2),
    ("kakadu", "opponents", False, False, 1, 4),
    ("kakadu", "opponents", True, True, -5, -5),
    ("kakadu", "opponents", True, False, 7, 7),
    # quapil 4/8
    ("quapil", "declarer", False, True, 5, 5),
    ("quapil", "declarer", False, False, 1, -3),
    ("quapil", "declarer", True, True, 9, 9),
    ("quapil", "declarer", True, False, -7, -7),
    ("quapil", "opponents", False, True, -3, -3),
    ("quapil", "opponents", False, False, 1, 5),
    ("quapil", "opponents", True, True, -7, -7),
    ("quapil", "opponents", True, False, 9, 9),
    # koenig_ultimo 1/2, declarer's team only (RA §6.2)
    ("koenig_ultimo", "declarer", False, True, 2, 2),
    ("koenig_ultimo", "declarer", False, False, 1, 0),
    ("koenig_ultimo", "declarer", True, True, 3, 3),
    ("koenig_ultimo", "declarer", True, False, -1, -1),
    # trull 1/2 (a silent one cannot fail)
    ("trull", "declarer", False, True, 2, 2),
    ("trull", "declarer", True, True, 3, 3),
    ("trull", "declarer", True, False, -1, -1),
    ("trull", "opponents", False, True, 0, 0),
    ("trull", "opponents", True, True, -1, -1),
    ("trull", "opponents", True, False, 3, 3),
    # vier_koenige 1/2
    ("vier_koenige", "declarer", False, True, 2, 2),
    ("vier_koenige", "declarer", True, True, 3, 3),
    ("vier_koenige", "declarer", True, False, -1, -1),
    ("vier_koenige", "opponents", False, True, 0, 0),
    ("vier_koenige", "opponents", True, True, -1, -1),
    ("vier_koenige", "opponents", True, False, 3, 3),
]

# Solorufer won, declarer 1, partner 3 (dealer 3): game +2, every bonus ×2; row [-n, n, -n, n].
SOLO_MATRIX = [
    ("pagat", "declarer", False, True, 4, 4),
    ("pagat", "declarer", False, False, 2, 0),
    ("pagat", "declarer", True, True, 6, 6),
    ("pagat", "declarer", True, False, -2, -2),
    ("pagat", "opponents", False, True, 0, 0),
    ("pagat", "opponents", False, False, 2, 4),
    ("pagat", "opponents", True, True, -2, -2),
    ("pagat", "opponents", True, False, 6, 6),
    ("uhu", "declarer", False, True, 6, 6),
    ("uhu", "declarer", False, False, 2, -2),
    ("uhu", "declarer", True, True, 10, 10),
    ("uhu", "declarer", True, False, -6, -6),
    ("uhu", "opponents", False, True, -2, -2),
    ("uhu", "opponents", False, False, 2, 6),
    ("uhu", "opponents", True, True, -6, -6),
    ("uhu", "opponents", True, False, 10, 10),
    ("kakadu", "declarer", False, True, 8, 8),
    ("kakadu", "declarer", False, False, 2, -4),
    ("kakadu", "declarer", True, True, 14, 14),
    ("kakadu", "declarer", True, False, -10, -10),
    ("kakadu", "opponents", False, True, -4, -4),
    ("kakadu", "opponents", False, False, 2, 8),
    ("kakadu", "opponents", True, True, -10, -10),
    ("kakadu", "opponents", True, False, 14, 14),
    ("quapil", "declarer", False, True, 10, 10),
    ("quapil", "declarer", False, False, 2, -6),
    ("quapil", "declarer", True, True, 18, 18),
    ("quapil", "declarer", True, False, -14, -14),
    ("quapil", "opponents", False, True, -6, -6),
    ("quapil", "opponents", False, False, 2, 10),
    ("quapil", "opponents", True, True, -14, -14),
    ("quapil", "opponents", True, False, 18, 18),
    ("koenig_ultimo", "declarer", False, True, 4, 4),
    ("koenig_ultimo", "declarer", False, False, 2, 0),
    ("koenig_ultimo", "declarer", True, True, 6, 6),
    ("koenig_ultimo", "declarer", True, False, -2, -2),
    ("trull", "declarer", False, True, 4, 4),
    ("trull", "declarer", True, True, 6, 6),
    ("trull", "declarer", True, False, -2, -2),
    ("trull", "opponents", False, True, 0, 0),
    ("trull", "opponents", True, True, -2, -2),
    ("trull", "opponents", True, False, 6, 6),
    ("vier_koenige", "declarer", False, True, 4, 4),
    ("vier_koenige", "declarer", True, True, 6, 6),
    ("vier_koenige", "declarer", True, False, -2, -2),
    ("vier_koenige", "opponents", False, True, 0, 0),
    ("vier_koenige", "opponents", True, True, -2, -2),
    ("vier_koenige", "opponents", True, False, 6, 6),
]


def _bonus_id(p, contract):
    key, team, announced, made, n, n_on = p
    return (f"RA6.2 {contract}+{key} {team} {'announced' if announced else 'silent'} "
            f"{'made' if made else 'failed'} n={n} (option on n={n_on})")


@pytest.mark.parametrize("key, team, announced, made, n, n_on", RUFER_MATRIX,
                         ids=[_bonus_id(p, "rufer") for p in RUFER_MATRIX])
def test_bonus_matrix_rufer_2v2(key, team, announced, made, n, n_on):
    h = hand("rufer", 0, True, partner=2, bonuses=[B(key, team, announced, made)])
    check_row(get_ruleset(KEY), h, 4, [n, -n, n, -n])
    check_row(with_options(**FAILED_ON), h, 4, [n_on, -n_on, n_on, -n_on])


@pytest.mark.parametrize("key, team, announced, made, n, n_on", SOLO_MATRIX,
                         ids=[_bonus_id(p, "solorufer") for p in SOLO_MATRIX])
def test_bonus_matrix_solorufer_doubled(key, team, announced, made, n, n_on):
    h = hand("solorufer", 1, True, partner=3, bonuses=[B(key, team, announced, made)])
    check_row(get_ruleset(KEY), h, 4, [-n, n, -n, n])
    check_row(with_options(**FAILED_ON), h, 4, [-n_on, n_on, -n_on, n_on])


BONUS_CASES = [
    # Dreier won, declarer 1 (dealer 3), game 4, 1 vs 3
    pytest.param({}, hand("dreier", 1, True, bonuses=[s(O("quapil", made=False))]), [-4, 12, -4, -4],
                 id="RA6.2 dreier, opp silent Quapil beaten scores 0 by default"),
    pytest.param(FAILED_ON, hand("dreier", 1, True, bonuses=[s(O("quapil", made=False))]), [-8, 24, -8, -8],
                 id="KR options dreier, opp silent Quapil beaten, option on: 4+4"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[s(D("uhu", made=False))]), [-4, 12, -4, -4],
                 id="RA6.2 dreier, own silent Uhu beaten scores 0 by default"),
    pytest.param(FAILED_ON, hand("dreier", 1, True, bonuses=[s(D("uhu", made=False))]), [-2, 6, -2, -2],
                 id="KR options dreier, own silent Uhu beaten, option on: 4-2"),
    pytest.param({}, hand("dreier", 1, False, bonuses=[D("kakadu")]), [-2, 6, -2, -2],
                 id="RA6.2 dreier lost, announced Kakadu made -4+6"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[D("pagat"), s(O("trull")), s(D("uhu", made=False)),
                                                      O("kakadu", made=False)]),
                 [-11, 33, -11, -11], id="RA6.2 dreier four posts 4+2-1+0+6"),
    pytest.param({}, hand("farbendreier", 1, False, bonuses=[D("vier_koenige")]), [1, -3, 1, 1],
                 id="RA6.2 farbendreier lost + announced Vier Koenige -3+2"),
    pytest.param({}, hand("farbensolo", 1, True, bonuses=[O("vier_koenige")]), [-2, 6, -2, -2],
                 id="RA6.2 farbensolo won, opp announced Vier Koenige 6-2x2"),
    pytest.param({}, hand("solodreier", 1, True, bonuses=[s(O("trull")), D("pagat", made=False)]),
                 [-2, 6, -2, -2], id="RA6.2 solodreier 8 - 1x2 - 2x2"),
    pytest.param({}, hand("rufer", 0, True, partner=None, bonuses=[s(D("pagat"))]), [6, -2, -2, -2],
                 id="RA6.3 rufer alone + silent Pagat 1v3 n=2"),
]


@pytest.mark.parametrize("options, h, expected", BONUS_CASES)
def test_bonuses(options, h, expected):
    check_row(with_options(**options), h, 4, expected)


# --------------------------------------------------------------------------------------------------
# Valat (RA §6.4): 4V / 8V in place of the game, never doubled in solos, doubled against the
# declarer of a Sechserdreier; beside any valat only announced bonuses count
# --------------------------------------------------------------------------------------------------

VALAT_CASES = [
    pytest.param({}, hand("dreier", 1, True, bonuses=[s(D("valat"))]), [-16, 48, -16, -16],
                 id="RA6.4 dreier silent Valat 4x4"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[D("valat")]), [-32, 96, -32, -32],
                 id="RA6.4 dreier announced Valat 8x4"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[D("valat", made=False)]), [32, -96, 32, 32],
                 id="RA6.4 dreier declarer's announced Valat failed, won on cards: -32"),
    pytest.param({}, hand("dreier", 1, False, bonuses=[D("valat", made=False)]), [32, -96, 32, 32],
                 id="RA6.4 item7 dreier declarer's announced Valat failed, won ignored"),
    pytest.param({}, hand("dreier", 1, False, bonuses=[s(O("valat"))]), [16, -48, 16, 16],
                 id="RA6.4 dreier opponents' silent Valat -16"),
    pytest.param({}, hand("dreier", 1, False, bonuses=[O("valat")]), [32, -96, 32, 32],
                 id="RA6.4 dreier opponents' announced Valat -32"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[O("valat", made=False)]), [-32, 96, -32, -32],
                 id="RA6.4 item6 dreier opponents' announced Valat failed: +32 to the declarer"),
    pytest.param({}, hand("dreier", 1, False, bonuses=[O("valat", made=False)]), [-32, 96, -32, -32],
                 id="RA6.4 item6 opponents' failed Valat, won ignored"),
    # Sechserdreier, declarer 0 (Vorhand)
    pytest.param({}, hand("sechserdreier", 0, False, bonuses=[s(O("valat"))]), [-96, 32, 32, 32],
                 id="RA6.4 item3 sechserdreier opponents' silent Valat 4x4x2=32 each (HT-T 12)"),
    pytest.param({}, hand("sechserdreier", 0, False, bonuses=[O("valat")]), [-192, 64, 64, 64],
                 id="RA6.4 item3 sechserdreier opponents' announced Valat 8x4x2=64 each"),
    pytest.param({}, hand("sechserdreier", 0, True, bonuses=[D("valat", made=False)]), [-192, 64, 64, 64],
                 id="RA6.4 item3 sechserdreier declarer's announced Valat failed 64 each (MAIR -192)"),
    pytest.param({}, hand("sechserdreier", 0, True, bonuses=[s(D("valat"))]), [48, -16, -16, -16],
                 id="RA6.4 sechserdreier declarer's silent Valat 16, not doubled"),
    pytest.param({}, hand("sechserdreier", 0, True, bonuses=[D("valat")]), [96, -32, -32, -32],
                 id="RA6.4 sechserdreier declarer's announced Valat 32"),
    pytest.param({}, hand("sechserdreier", 0, False, bonuses=[O("valat", made=False)]), [96, -32, -32, -32],
                 id="RA6.4 item6 sechserdreier opponents' failed Valat 32, never doubled"),
    # solos: never doubled
    pytest.param({}, hand("solodreier", 1, True, bonuses=[s(D("valat"))]), [-32, 96, -32, -32],
                 id="RA6.4 item4 solodreier silent Valat 4x8, not doubled"),
    pytest.param({}, hand("solorufer", 1, True, partner=3, bonuses=[D("valat")]), [-16, 16, -16, 16],
                 id="RA6.4 item4 solorufer announced Valat 8x2=16 (MAIR-CUPS)"),
    pytest.param({}, hand("farbensolo", 2, False, bonuses=[s(O("valat"))]), [24, 24, -72, 24],
                 id="RA6.4 item4 farbensolo opponents' silent Valat 4x6"),
    pytest.param({}, hand("solodreier", 1, True, bonuses=[s(D("valat")), D("trull")]), [-36, 108, -36, -36],
                 id="RA6.4 item5 solodreier silent Valat 32 + announced Trull 2x2"),
    # king calls
    pytest.param({}, hand("rufer", 0, True, partner=2, bonuses=[s(D("valat"))]), [4, -4, 4, -4],
                 id="RA6.4 rufer 2v2 silent Valat 4x1"),
    pytest.param({}, hand("besserrufer", 0, True, partner=2, bonuses=[D("pagat"), s(D("valat"))]), [6, -6, 6, -6],
                 id="RA6.4 item1 besserrufer V=1: silent Valat 4 + announced Pagat 2"),
    pytest.param({}, hand("farbendreier", 3, True, bonuses=[D("valat")]), [-24, -24, -24, 72],
                 id="RA6.4 farbendreier announced Valat 8x3"),
    # only announced bonuses beside a valat (RA §6.4 item 5)
    pytest.param({}, hand("dreier", 1, True, bonuses=[D("valat", made=False), s(D("trull")), s(O("pagat")), D("uhu")]),
                 [28, -84, 28, 28], id="RA6.4 item5 failed Valat: silent Trull and opp silent Pagat dropped, Uhu 4"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[O("valat", made=False), s(D("kakadu"))]), [-32, 96, -32, -32],
                 id="RA6.4 item5 opponents' failed Valat: silent Kakadu dropped"),
    pytest.param(FAILED_ON, hand("dreier", 1, True, bonuses=[D("valat", made=False), s(O("pagat", made=False))]),
                 [32, -96, 32, 32], id="RA6.4 item5 failed silent bird beside a Valat 0 even with the option"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[s(D("valat")), D("pagat", made=False)]), [-14, 42, -14, -14],
                 id="RA6.4 item5 made Valat 16, announced Pagat failed costs 2"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[s(D("valat")), O("uhu", made=False)]), [-20, 60, -20, -20],
                 id="RA6.4 item5 made Valat 16, opponents' announced Uhu failed +4"),
    pytest.param({}, hand("dreier", 1, True, bonuses=[s(D("valat")), s(D("vier_koenige")), s(D("quapil"))]),
                 [-16, 48, -16, -16], id="RA6.4 item5 made silent Valat, silent Vier Koenige and Quapil dropped"),
]


@pytest.mark.parametrize("options, h, expected", VALAT_CASES)
def test_valat(options, h, expected):
    check_row(with_options(**options), h, 4, expected)


# --------------------------------------------------------------------------------------------------
# Trischaken (RA §6.5), dealer 3 -> Vorhand 0 unless said
# --------------------------------------------------------------------------------------------------

TRISCHAKEN_CASES = [
    # step 3: one loser, not Vorhand
    pytest.param({}, trisch4("20", "30", "10", "10"), [1, -3, 1, 1], id="RA6.5 step3 loser pays 1 each (u=1)"),
    pytest.param({}, trisch4("10", "40", "10", "10"), [2, -6, 2, 2], id="RA6.5 step3 Buergermeister pays 2 each (u=2)"),
    pytest.param({}, trisch4("10", "35/2", "12/1", "12/0"), [2, -6, 2, 2], id="RA6.5 step3 35/2 is a Buergermeister"),
    pytest.param({}, trisch4("10", "35/1", "12/2", "12/0"), [1, -3, 1, 1], id="RA6.5 step3 35/1 is none"),
    pytest.param({}, trisch4("20", "30", "20", "0"), [0, -3, 0, 3], id="RA6.5 step3 one Jungfrau takes all 3"),
    pytest.param({}, trisch4("10", "40", "20", "0"), [0, -6, 0, 6], id="RA6.5 step3 Buergermeister, Jungfrau takes 6"),
    pytest.param({}, trisch4("34/2", "35/1", "0", "0"), [0, -4, 2, 2],
                 id="RA6.5 step3 two Jungfrauen 35/1:34/2: 2x2=4"),
    pytest.param(VIRGINS_ON, trisch4("34/2", "35/1", "0", "0"), [0, -6, 3, 3],
                 id="RA6.10 item4 option: two Jungfrauen 3u=3 each, loser 6u=6"),
    pytest.param({}, trisch4("30", "40", "0", "0"), [0, -6, 3, 3], id="RA6.5 step3 Buergermeister, two Jungfrauen share 6"),
    pytest.param(VIRGINS_ON, trisch4("30", "40", "0", "0"), [0, -12, 6, 6],
                 id="RA6.10 item4 option: Buergermeister pays 6 to each Jungfrau"),
    pytest.param({}, trisch4("0", "70", "0", "0"), [2, -6, 2, 2], id="RA6.5 step3 three Jungfrauen +2 each (SW19)"),
    pytest.param(VIRGINS_ON, trisch4("0", "70", "0", "0"), [2, -6, 2, 2],
                 id="RA6.5 three Jungfrauen share, option or not (Decision)"),
    # step 2: Vorhand among the losers
    pytest.param({}, trisch4("30", "20", "10", "10"), [-6, 2, 2, 2], id="RA6.5 step2 Vorhand loses u=2"),
    pytest.param({}, trisch4("40", "10", "10", "10"), [-12, 4, 4, 4], id="RA6.5 step2 Vorhand Buergermeister u=4"),
    pytest.param({}, trisch4("25", "25", "10", "10"), [-6, 2, 2, 2], id="RA6.5 step2 Vorhand tied loses alone"),
    pytest.param({}, trisch4("30", "20", "20", "0"), [-6, 0, 0, 6], id="RA6.5 step2 Vorhand pays 6 to the Jungfrau"),
    pytest.param({}, trisch4("40", "30", "0", "0"), [-12, 0, 6, 6], id="RA6.5 step2 Vorhand Buergermeister, two Jungfrauen 6 each"),
    pytest.param(VIRGINS_ON, trisch4("40", "30", "0", "0"), [-24, 0, 12, 12],
                 id="RA6.10 item4 option: Vorhand Buergermeister pays 12 to each Jungfrau"),
    pytest.param({}, trisch4("35", "35", "0", "0"), [-6, 0, 3, 3], id="RA6.5 step2 Vorhand tied, two Jungfrauen 3 each"),
    pytest.param(VIRGINS_ON, trisch4("35", "35", "0", "0"), [-12, 0, 6, 6],
                 id="RA6.10 item4 option: Vorhand tied pays 6 to each Jungfrau"),
    pytest.param({}, trisch4("70", "0", "0", "0"), [-12, 4, 4, 4], id="RA6.5 step2 Vorhand every trick pays 12 (SW19)"),
    # step 4: two tied losers, Vorhand not among them
    pytest.param({}, trisch4("10", "25", "25", "10"), [2, -2, -2, 2], id="RA6.5 step4 two tied losers pay 2 each"),
    pytest.param({}, trisch4("20", "25", "25", "0"), [0, -2, -2, 4], id="RA6.5 step4 Jungfrau takes all 4"),
    pytest.param({}, trisch4("0", "35", "35", "0"), [2, -2, -2, 2], id="RA6.5 step4 two Jungfrauen share 4"),
    pytest.param(VIRGINS_ON, trisch4("0", "35", "35", "0"), [3, -3, -3, 3],
                 id="RA6.10 item4 option: two tied losers pay 3, each Jungfrau 3"),
    # step 5: three tied losers
    pytest.param({}, trisch4("10", "20", "20", "20"), [3, -1, -1, -1], id="RA6.5 step5 three tied -1 -1 -1 +3 (OeF21)"),
    pytest.param({}, trisch4("0", "23/1", "23/1", "23/1"), [3, -1, -1, -1], id="RA6.5 step5 three tied, fourth a Jungfrau"),
    # step 1: Renonce
    pytest.param({}, trisch4("30", "20", "10", "10", revoke=2), [2, 2, -6, 2], id="RA6.5 step1 renonce pays 2 each"),
    pytest.param({}, trisch4("30", "20", "10", "10", revoke=0), [-12, 4, 4, 4], id="RA6.5 step1 renonce by Vorhand 4 each"),
    pytest.param({}, {"dealer": 3, "contract": "trischaken", "revoke": 3}, [2, 2, 2, -6],
                 id="RA6.5 step1 renonce without card points"),
]


@pytest.mark.parametrize("options, h, expected", TRISCHAKEN_CASES)
def test_trischaken(options, h, expected):
    check_row(with_options(**options), h, 4, expected)


def test_trischaken_declarer_may_be_omitted(rs):
    """HR: in Trischaken ``declarer`` may be omitted; if given it must be Vorhand (RA §6.8)."""
    h = trisch4("30", "20", "10", "10")
    del h["declarer"]
    check_row(rs, h, 4, [-6, 2, 2, 2])


TRISCHAKEN_FIVE = [
    pytest.param({"dealer": 0, "contract": "trischaken", "card_points": {"1": "30", "2": "20", "3": "10", "4": "10"}},
                 [0, -6, 2, 2, 2], id="RA6.5 5-table Vorhand 1 loses, dealer 0 sits out"),
    pytest.param({"dealer": 0, "contract": "trischaken", "card_points": {"1": "20", "2": "30", "3": "20", "4": "0"}},
                 [0, 0, -3, 0, 3], id="RA6.5 5-table Jungfrau takes 3"),
    pytest.param({"dealer": 0, "contract": "trischaken", "revoke": 3}, [0, 2, 2, -6, 2], id="RA6.5 5-table renonce"),
    pytest.param({"dealer": 0, "contract": "trischaken", "revoke": 1}, [0, -12, 4, 4, 4], id="RA6.5 5-table renonce by Vorhand"),
]


@pytest.mark.parametrize("h, expected", TRISCHAKEN_FIVE)
def test_trischaken_five_table(rs, h, expected):
    check_row(rs, h, 5, expected)


# --------------------------------------------------------------------------------------------------
# Renonce (RA §6.6): G = V (8V with an announced Valat), A = announced bonuses ×2 in solos,
# declarer 1v3 3(G+A), a Sechserdreier's regular opponent 2G+A, others G+A; offender pays the sum
# --------------------------------------------------------------------------------------------------

RENONCE_CASES = [
    pytest.param(4, hand("dreier", 1, None, revoke=1), [4, -12, 4, 4], id="RA6.6 OeOR25 B.4 dreier declarer revokes"),
    pytest.param(4, hand("dreier", 1, True, revoke=2), [4, 12, -20, 4], id="RA6.6 OeOR25 B.4 dreier opponent revokes"),
    pytest.param(4, hand("sechserdreier", 0, None, revoke=2), [12, 8, -28, 8],
                 id="RA6.6 OeOR25 B.4 sechserdreier: regular opponents 8 each"),
    pytest.param(4, hand("sechserdreier", 0, None, revoke=1, bonuses=[D("uhu")]), [24, -48, 12, 12],
                 id="RA6.6 OeOR25 B.4 sechserdreier + Uhu: +24, +12, +12, -48"),
    pytest.param(4, hand("sechserdreier", 0, None, revoke=0), [-24, 8, 8, 8],
                 id="RA6.6 sechserdreier declarer revokes: 2G=8 each"),
    pytest.param(4, hand("sechserdreier", 0, None, revoke=0, bonuses=[D("uhu")]), [-36, 12, 12, 12],
                 id="RA6.6 sechserdreier declarer revokes + Uhu: 2G+A=12 each"),
    pytest.param(4, hand("besserrufer", 0, None, revoke=0, bonuses=[D("pagat", made=False)]), [-9, 3, 3, 3],
                 id="RA6.6 besserrufer without a bird: -9 +3 +3 +3"),
    pytest.param(4, hand("rufer", 0, True, partner=2, revoke=1), [1, -3, 1, 1], id="RA6.6 rufer 2v2 opponent revokes"),
    pytest.param(4, hand("rufer", 0, True, partner=2, revoke=0), [-3, 1, 1, 1],
                 id="RA6.6 rufer declarer revokes, pays his partner too"),
    pytest.param(4, hand("solodreier", 1, True, revoke=3, bonuses=[D("pagat")]), [12, 36, 12, -60],
                 id="RA6.6 solodreier + announced Pagat x2: declarer 3(8+4), others 12"),
    pytest.param(4, hand("dreier", 1, True, revoke=0, bonuses=[D("valat")]), [-160, 96, 32, 32],
                 id="RA6.6 announced Valat: G=8V=32"),
    pytest.param(4, hand("sechserdreier", 0, True, revoke=1, bonuses=[D("valat")]), [96, -224, 64, 64],
                 id="RA6.6 sechserdreier announced Valat: G=32, regular opponents 2G=64"),
    pytest.param(4, hand("dreier", 1, True, revoke=2, bonuses=[D("pagat"), O("trull", made=False), s(D("kakadu"))]),
                 [8, 24, -40, 8], id="RA6.6 announced bonuses of both sides A=4, silent Kakadu ignored"),
    pytest.param(4, hand("rufer", 0, None, partner=None, conceded=True, revoke=2), [3, 1, -5, 1],
                 id="RA6.6 revoke overrides conceded"),
    pytest.param(5, hand("dreier", 2, True, dealer=0, revoke=4), [0, 4, 12, 4, -20], id="RA6.6 5-table opponent revokes"),
]


@pytest.mark.parametrize("size, h, expected", RENONCE_CASES)
def test_renonce(rs, size, h, expected):
    check_row(rs, h, size, expected)


# --------------------------------------------------------------------------------------------------
# Conceding (RA §6.3): Rufer / Besserrufer with the king in the talon, -(1 + a(bird)) 1 against 3
# --------------------------------------------------------------------------------------------------

CONCEDED_CASES = [
    pytest.param(hand("rufer", 0, None, conceded=True), [-3, 1, 1, 1], id="RA6.3 rufer conceded -1"),
    pytest.param(hand("besserrufer", 1, None, conceded=True, bonuses=[D("pagat", made=False)]), [3, -9, 3, 3],
                 id="RA6.3 besserrufer Pagat conceded -3 (OeF21 3 Punkte)"),
    pytest.param(hand("besserrufer", 1, None, conceded=True, bonuses=[D("uhu")]), [5, -15, 5, 5],
                 id="RA6.3 besserrufer Uhu conceded -5, made ignored"),
    pytest.param(hand("besserrufer", 1, None, conceded=True, bonuses=[D("kakadu", made=False)]), [7, -21, 7, 7],
                 id="RA6.3 besserrufer Kakadu conceded -7"),
    pytest.param(hand("besserrufer", 1, True, conceded=True, bonuses=[D("quapil", made=False)]), [9, -27, 9, 9],
                 id="RA6.3 besserrufer Quapil conceded -9, won ignored"),
]


@pytest.mark.parametrize("h, expected", CONCEDED_CASES)
def test_conceded(rs, h, expected):
    check_row(rs, h, 4, expected)


# --------------------------------------------------------------------------------------------------
# 5-table (RA §6.9): the dealer sits out and scores 0
# --------------------------------------------------------------------------------------------------

FIVE_CASES = [
    pytest.param(hand("dreier", 2, True, dealer=0), [0, -4, 12, -4, -4], id="RA6.9 5-table dreier"),
    pytest.param(hand("rufer", 1, False, dealer=0, partner=None), [0, -3, 1, 1, 1], id="RA6.9 5-table rufer alone lost"),
    pytest.param(hand("sechserdreier", 1, False, dealer=0), [0, -24, 8, 8, 8], id="RA6.9 5-table sechserdreier lost"),
    pytest.param(hand("rufer", 3, True, dealer=2, partner=0), [1, -1, 0, 1, -1], id="RA6.9 5-table dealer 2 rufer"),
    pytest.param(hand("solodreier", 4, False, dealer=0, bonuses=[s(O("valat"))]), [0, 32, 32, 32, -96],
                 id="RA6.9 5-table solodreier opponents' silent Valat 4x8"),
]


@pytest.mark.parametrize("h, expected", FIVE_CASES)
def test_five_table(rs, h, expected):
    check_row(rs, h, 5, expected)


# --------------------------------------------------------------------------------------------------
# Kontra (RA §6.7), struck and manual hands (RA §6.8)
# --------------------------------------------------------------------------------------------------


def test_kontra_is_recorded_never_scored(rs):
    plain = hand("dreier", 1, True, bonuses=[D("pagat")])
    check_row(rs, plain, 4, [-6, 18, -6, -6])
    check_row(rs, dict(plain, kontra=3, kontra_by=2), 4, [-6, 18, -6, -6])
    check_row(rs, dict(plain, bonuses=[dict(D("pagat"), kontra=1)]), 4, [-6, 18, -6, -6])


def test_struck_and_manual(rs):
    """ÖF21 §1: "alle vier Spieler bekommen null Punkte"; a manual row as written (RA §6.8)."""
    check_row(rs, {"dealer": 0, "outcome": "struck", "note": "Schreibfehler"}, 4, [0, 0, 0, 0])
    check_row(rs, {"dealer": 0, "outcome": "manual", "scores": [0, 5, -15, 5, 5]}, 5, [0, 5, -15, 5, 5])


# --------------------------------------------------------------------------------------------------
# refusals (RA §6.8) with the key words of their messages
# --------------------------------------------------------------------------------------------------

INVALID = [
    pytest.param(4, hand("zwiccolo", 1), ["unknown contract"], id="RA6.8 no zwiccolo"),
    pytest.param(4, hand("zwiccolo_ouvert", 1), ["unknown contract"], id="RA6.8 no zwiccolo ouvert"),
    pytest.param(4, hand("pagatrufer", 1, partner=2, bonuses=[D("pagat")]), ["unknown contract"], id="RA6.8 no pagatrufer"),
    pytest.param(4, hand("uhurufer", 1, partner=2, bonuses=[D("uhu")]), ["unknown contract"], id="RA6.8 no uhurufer"),
    pytest.param(4, hand("kakadurufer", 1, partner=2, bonuses=[D("kakadu")]), ["unknown contract"], id="RA6.8 no kakadurufer"),
    pytest.param(4, hand("quapilrufer", 1, partner=2, bonuses=[D("quapil")]), ["unknown contract"], id="RA6.8 no quapilrufer"),
    pytest.param(4, hand("dreier", 1, bonuses=[D("mondfang")]), ["unknown bonus"], id="RA6.8 no mondfang"),
    pytest.param(4, hand("dreier", 1, bonuses=[D("sack1")]), ["unknown bonus"], id="RA6.8 no sack1"),
    pytest.param(4, hand("dreier", 1, bonuses=[D("sack2")]), ["unknown bonus"], id="RA6.8 no sack2"),
    pytest.param(4, hand("rufer", 1, partner=2), ["only vorhand"], id="RA6.8 rufer Vorhand only"),
    pytest.param(4, hand("sechserdreier", 2), ["only vorhand"], id="RA6.8 sechserdreier Vorhand only"),
    pytest.param(4, trisch4("30", "20", "10", "10", declarer=1), ["only vorhand"], id="RA6.8 trischaken Vorhand only"),
    pytest.param(4, hand("rufer", 0, partner=2, bonuses=[O("koenig_ultimo")]), ["declarer's team only", "captures"],
                 id="RA6.8 koenig ultimo of the opponents (announced)"),
    pytest.param(4, hand("rufer", 0, partner=2, bonuses=[s(O("koenig_ultimo"))]), ["declarer's team only", "captures"],
                 id="RA6.8 koenig ultimo of the opponents (silent)"),
    pytest.param(4, hand("rufer", 0, partner=None, bonuses=[D("koenig_ultimo")]), ["needs a called king"],
                 id="RA6.8 koenig ultimo needs a partner"),
    pytest.param(4, hand("dreier", 1, bonuses=[D("koenig_ultimo")]), ["not allowed"], id="RA6.8 koenig ultimo only in king calls"),
    pytest.param(4, hand("besserrufer", 1, partner=2), ["needs a bird announced"], id="RA6.8 besserrufer without a bird"),
    pytest.param(4, hand("besserrufer", 1, partner=2, bonuses=[s(D("pagat"))]), ["needs a bird announced"],
                 id="RA6.8 besserrufer with a silent bird only"),
    pytest.param(4, hand("besserrufer", 1, partner=2, bonuses=[O("pagat")]), ["needs a bird announced"],
                 id="RA6.8 besserrufer with the opponents' bird"),
    pytest.param(4, hand("besserrufer", 1, partner=2, bonuses=[D("trull")]), ["needs a bird announced"],
                 id="RA6.8 besserrufer with Trull is no bird"),
    pytest.param(4, hand("dreier", 1, bonuses=[D("valat"), s(D("valat"))]), ["twice"], id="RA6.8 valat at most once"),
    pytest.param(4, hand("dreier", 1, False, bonuses=[s(D("valat"))]), ["means the game was won"],
                 id="RA6.4 item7 declarer's Valat needs won"),
    pytest.param(4, hand("dreier", 1, True, bonuses=[O("valat")]), ["means the game was lost"],
                 id="RA6.4 item7 opponents' Valat needs lost"),
    pytest.param(4, hand("farbendreier", 1, bonuses=[D("pagat")]), ["not allowed"], id="RA6.2 colour: no Pagat"),
    pytest.param(4, hand("farbensolo", 1, bonuses=[s(D("trull"))]), ["not allowed"], id="RA6.2 colour: no Trull"),
    pytest.param(4, hand("piccolo", 1, bonuses=[D("pagat")]), ["not allowed"], id="RA6.2 negative: no bonuses"),
    pytest.param(4, hand("bettler_ouvert", 1, bonuses=[s(D("valat"))]), ["not allowed"], id="RA6.2 negative: no Valat"),
    pytest.param(4, trisch4("30", "20", "10", "10", bonuses=[D("pagat")]), ["not allowed"], id="RA6.8 trischaken: no bonuses"),
    pytest.param(4, trisch4("30", "20", "10", "11"), ["add up to"], id="RA6.8 trischaken 210 thirds"),
    pytest.param(4, {"dealer": 3, "contract": "trischaken", "card_points": {"0": "40", "1": "30", "2": "0"}},
                 ["missing"], id="RA6.8 trischaken every active seat"),
    pytest.param(5, {"dealer": 0, "contract": "trischaken",
                     "card_points": {"0": "0", "1": "30", "2": "20", "3": "10", "4": "10"}},
                 ["sits out"], id="RA6.8 trischaken sitting-out dealer has no card points"),
    pytest.param(4, trisch4("30", "20", "10", "10", kontra=1), ["no kontra in trischaken"], id="RA6.5 trischaken no kontra"),
    pytest.param(5, hand("dreier", 0, dealer=0), ["sits out"], id="RA6.8 sitting-out declarer"),
    pytest.param(5, hand("solorufer", 2, dealer=0, partner=0), ["sits out"], id="RA6.8 sitting-out partner"),
    pytest.param(5, hand("dreier", 2, dealer=0, revoke=0), ["sits out"], id="RA6.8 sitting-out revoker"),
    pytest.param(4, {"dealer": 0, "outcome": "manual", "scores": [4, -4, 4, -3]}, ["does not sum to 0"],
                 id="RA6.8 manual row sums to 0"),
    pytest.param(5, {"dealer": 0, "outcome": "manual", "scores": [1, -1, 0, 0, 0]}, ["must score 0"],
                 id="RA6.8 manual row: sitting-out seat 0"),
    pytest.param(4, hand("dreier", 1, bonuses=[s(D("trull", made=False))]), ["cannot fail"],
                 id="RA6.2 a silent Trull cannot fail"),
    pytest.param(4, hand("dreier", 1, partner=2), ["has no partner"], id="KR1 partner only in king calls"),
    pytest.param(4, hand("solorufer", 1, None, conceded=True), ["cannot be conceded"], id="RA6.3 solorufer not conceded"),
    pytest.param(4, hand("dreier", 1, None, conceded=True), ["cannot be conceded"], id="RA6.3 dreier not conceded"),
    pytest.param(4, hand("rufer", 0, None, partner=2, conceded=True), ["called king lay in the talon"],
                 id="RA6.3 conceded only with the king in the talon"),
    pytest.param(4, hand("besserrufer", 1, None, conceded=True, bonuses=[D("pagat"), s(D("trull"))]),
                 ["no bonus but the bird"], id="RA6.3 conceded besserrufer: only its bird"),
    pytest.param(4, hand("besserrufer", 1, None, conceded=True, bonuses=[D("pagat"), D("uhu")]),
                 ["no bonus but the bird"], id="RA6.3 conceded besserrufer: exactly one bird"),
    pytest.param(4, hand("rufer", 0, None, partner=None, conceded=True, bonuses=[D("pagat")]),
                 ["no bonus but the bird"], id="RA6.3 conceded rufer: no bonus"),
    pytest.param(4, hand("dreier", 1, None), ["won or lost"], id="KR1 won or lost is needed"),
]


@pytest.mark.parametrize("size, h, keywords", INVALID)
def test_invalid(rs, size, h, keywords):
    assert_invalid(rs, h, size, *keywords)


def test_second_announced_bird_in_a_besserrufer_is_allowed(rs):
    """RA §6.8: "Ein weiterer, aus dem Talon gehobener Vogel darf zusätzlich angesagt werden"."""
    assert rs.validate(hand("besserrufer", 1, True, partner=2, bonuses=[D("pagat"), D("uhu", made=False)]), 4) == []


def test_validate_and_score_do_not_mutate(rs):
    h = hand("besserrufer", 1, True, partner=3, bonuses=[D("pagat"), s(D("trull")), s(D("valat"))])
    before = copy.deepcopy(h)
    rs.validate(h, 4)
    rs.score(h, 4)
    assert h == before


# --------------------------------------------------------------------------------------------------
# the notation card, the notation line and random hands
# --------------------------------------------------------------------------------------------------


def test_every_notation_example_is_accepted_and_round_trips(rs):
    """Each edition shows the examples it accepts: here all of them (RA §6.1 keeps the codes)."""
    assert len(rs.notation_examples()) == len(rs.notation_example_hands)
    for size, record in rs.notation_examples():
        line = rs.format_hand(record, size)
        assert rs.score(rs.parse_hand(line, size, record["dealer"]), size) == rs.score(record, size), line


@pytest.mark.parametrize("line, size, dealer, expected", [
    ("d 2 + pag!", 4, 0, [-6, 18, -6, -6]),
    ("br 2 4 - uhu!", 4, 0, [-3, 3, -3, 3]),  # W1
    ("6 2 - uhu!", 4, 0, [4, -12, 4, 4]),  # W3
    ("sd 3 + val!", 4, 0, [-64, -64, 192, -64]),  # W7
    ("t 13/1 36 13/1 7/1", 4, 0, [4, -12, 4, 4]),  # W12a
])
def test_notation_lines(rs, line, size, dealer, expected):
    record = rs.parse_hand(line, size, dealer)
    assert rs.score(record, size) == expected
    assert rs.parse_hand(rs.format_hand(record, size), size, dealer) == record


def test_zwiccolo_code_is_refused_in_the_notation(rs):
    with pytest.raises(InvalidHand):
        rs.parse_hand("z 2 +", 4, 0)


@pytest.mark.parametrize("size", [4, 5])
def test_random_hands_are_valid_and_reproducible(rs, size):
    rng = random.Random(2023)
    hands = [rs.random_hand(rng, size, k % size) for k in range(1500)]
    contracts = {h["contract"] for h in hands}
    assert {"rufer", "dreier", "trischaken"} <= contracts
    assert contracts <= set(CONTRACTS)
    for h in hands:
        assert rs.validate(h, size) == [], h
        row = rs.score(h, size)
        assert sum(row) == 0
        if size == 5:
            assert row[h["dealer"]] == 0
    rng2 = random.Random(2023)
    assert [rs.random_hand(rng2, size, k % size) for k in range(1500)] == hands


# --------------------------------------------------------------------------------------------------
# properties: every valid row sums to 0, gives the sitting-out dealer 0, and its notation line
# reads back to the same row (pattern of test_wiener_tarockcup.py and test_notation.py)
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
    active = [seat for seat in range(size) if not (size == 5 and seat == dealer)]
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
    contract = draw(st.sampled_from(sorted(CONTRACTS)))
    value, family, vorhand_only, solo, bird, _lost, _code = CONTRACTS[contract]
    h = {"dealer": dealer, "contract": contract}
    if family == "trischaken":
        cuts = sorted(draw(st.lists(st.integers(0, 210), min_size=3, max_size=3)))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 210 - cuts[2]]
        if draw(st.booleans()):  # bias toward ties, Bürgermeister and Jungfrauen
            parts = draw(st.sampled_from([[0, 70, 70, 70], [0, 0, 105, 105], [60, 60, 45, 45], [0, 0, 0, 210],
                                          [107, 103, 0, 0], [106, 104, 0, 0], [108, 102, 0, 0], [75, 75, 60, 0],
                                          [60, 60, 60, 30], [107, 43, 30, 30]]))
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
        h["partner"] = draw(st.sampled_from([None, declarer] + [seat for seat in active if seat != declarer]))
    keys = sorted(ALLOWED[family])
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=4)) if keys else []
    bonuses = [B(key, draw(st.sampled_from(["declarer", "opponents"])), draw(st.booleans()), draw(st.booleans()))
               for key in chosen]
    if bird and draw(st.integers(0, 5)) > 0:
        named = draw(st.sampled_from(["pagat", "uhu", "kakadu", "quapil"]))
        bonuses = [b for b in bonuses if b["bonus"] != named]
        bonuses.append(D(named, True, draw(st.booleans())))
    h["bonuses"] = bonuses
    if family == "king_call" and draw(st.integers(0, 5)) == 0:
        h["conceded"] = True
    if draw(st.integers(0, 6)) == 0:
        h["revoke"] = draw(st.sampled_from(active))
    return h, size


OPTION_SETS = [{}, FAILED_ON, VIRGINS_ON, {**FAILED_ON, **VIRGINS_ON}]


@settings(max_examples=500, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=random_hands(), options=st.sampled_from(OPTION_SETS))
def test_property_zero_sum_sitting_out_and_notation_round_trip(case, options):
    rs = with_options(**options)
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
    line = rs.format_hand(h, size)
    back = rs.parse_hand(line, size, h["dealer"])
    assert rs.score(back, size) == row, line
    assert rs.format_hand(back, size) == line


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 5]), options=st.sampled_from(OPTION_SETS))
def test_property_random_hand_line_round_trip(seed, size, options):
    rs = with_options(**options)
    rng = random.Random(seed)
    dealer = rng.randrange(size)
    record = rs.random_hand(rng, size, dealer)
    line = rs.format_hand(record, size)
    back = rs.parse_hand(line, size, dealer)
    assert rs.score(back, size) == rs.score(record, size), line
    assert rs.format_hand(back, size) == line
