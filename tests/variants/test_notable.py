"""What a ruleset calls a hand worth mentioning (``Ruleset.notable``), asked of the
ruleset object, never by its name. Expected reasons written by hand from the rule texts:

- ``KR`` = ``../shared/rules/koenigrufen.md`` §1 (families, solo contracts, bonus classes);
- ``BL`` = ``../shared/rules/tarok-bled.md`` §2–§4 (Klop, valat at 70 / 0 card points, Solo, Berač);
- ``CE`` = ``../shared/rules/cego-ichenheim.md`` §2–§3 (Solo, Ulti, Solodu, Bürgermeister,
  durchgegangen, every trick);
- ``HR`` = ``../shared/rules/hand-record.md`` (records, struck and manual hands).
"""

import pytest

import variants
from variants.problems import Problem

from .rule_helpers import D, O, hand

TIROL = variants.get_ruleset("tiroler-tarockcup", "2019/20")
WTC = variants.get_ruleset("wiener-tarockcup", "2020")
BLED = variants.get_ruleset("tarok-bled")
CEGO = variants.get_ruleset("cego-ichenheim")


def texts(reasons):
    assert all(isinstance(r, Problem) for r in reasons)
    return [str(r) for r in reasons]


@pytest.mark.parametrize(
    "rs, record, row, expected",
    [
        pytest.param(TIROL, hand("rufer", 1, partner=2), None, [], id="KR-ordinary-rufer"),
        pytest.param(TIROL, hand("dreier", 1, won=False, bonuses=[D("pagat", made=False)]), None, [], id="KR-failed-announcement-is-not-mentioned"),
        pytest.param(
            TIROL,
            {"dealer": 3, "contract": "trischaken", "card_points": {"0": 20, "1": 20, "2": 15, "3": 15}},
            None,
            ["Trischaken"],
            id="KR-trischaken-everyone-for-himself",
        ),
        pytest.param(TIROL, hand("solodreier", 1), None, ["Solodreier won"], id="KR-solo-won"),
        pytest.param(TIROL, hand("solodreier", 1, won=False), None, [], id="KR-solo-lost"),
        pytest.param(TIROL, hand("dreier", 1), None, [], id="KR-dreier-is-no-solo"),
        pytest.param(
            TIROL,
            hand("dreier", 1, bonuses=[D("valat", announced=False), D("pagat")]),
            None,
            ["Valat", "Pagat announced"],
            id="KR-valat-and-announced-pagat",
        ),
        pytest.param(TIROL, hand("dreier", 1, won=False, bonuses=[O("uhu")]), None, ["opponents: Uhu announced"], id="KR-opponents-bird"),
        pytest.param(TIROL, hand("dreier", 1, bonuses=[D("trull", announced=True)]), None, [], id="KR-announced-trull-is-material-not-a-bird"),
        pytest.param(WTC, hand("farbensolo", 2, bonuses=[D("koenig_ultimo")]), None, ["Farbensolo won", "König ultimo announced"], id="KR-wtc-colour-solo"),
        pytest.param(TIROL, {"dealer": 0, "outcome": "struck"}, None, [], id="HR-struck"),
        pytest.param(TIROL, {"dealer": 0, "outcome": "manual", "contract": "solodreier", "scores": [30, -10, -10, -10]}, None, [], id="HR-manual"),
        pytest.param(TIROL, {"dealer": 0, "contract": "no-such-contract"}, None, [], id="HR-unknown-contract"),
    ],
)
def test_koenigrufen_and_the_shared_default(rs, record, row, expected):
    assert texts(rs.notable(record, row)) == expected


@pytest.mark.parametrize(
    "record, expected",
    [
        pytest.param({"dealer": 2, "contract": "klop", "card_points": {"0": 20, "1": 30, "2": 21}}, ["Klop"], id="BL-4-klop"),
        pytest.param({"dealer": 2, "contract": "trojka", "declarer": 0, "declarer_points": 40}, [], id="BL-3-trojka-won"),
        pytest.param({"dealer": 2, "contract": "trojka", "declarer": 0, "declarer_points": 70}, ["Valat"], id="BL-3-silent-valat-70"),
        pytest.param({"dealer": 2, "contract": "dvojko", "declarer": 1, "declarer_points": 0}, ["Valat"], id="BL-3-opponents-valat-0"),
        pytest.param(
            {"dealer": 2, "contract": "enojko", "declarer": 1, "declarer_points": 70, "bonuses": [D("valat")]},
            ["Valat"],
            id="BL-3-announced-valat-once",
        ),
        pytest.param({"dealer": 2, "contract": "solo", "declarer": 1, "declarer_points": 36}, ["Solo won"], id="BL-3-solo-won"),
        pytest.param({"dealer": 2, "contract": "solo", "declarer": 1, "declarer_points": 35}, [], id="BL-3-solo-35-loses"),
        pytest.param({"dealer": 2, "contract": "berac", "declarer": 1, "won": True}, ["Berač won"], id="BL-2-berac-won"),
        pytest.param({"dealer": 2, "contract": "berac", "declarer": 1, "won": False, "kontra": 1}, [], id="BL-2-berac-lost"),
        pytest.param(
            {"dealer": 2, "contract": "dvojko", "declarer": 1, "declarer_points": 40, "bonuses": [D("pagat_ultimo")]},
            ["Pagat ultimo announced"],
            id="BL-3-announced-pagat-ultimo",
        ),
    ],
)
def test_bled_names_klop_and_its_silent_valat(record, expected):
    assert texts(BLED.notable(record, None)) == expected


@pytest.mark.parametrize(
    "record, expected",
    [
        pytest.param({"dealer": 2, "contract": "cego", "declarer": 0, "declarer_points": 40}, [], id="CE-3-cego-won"),
        pytest.param({"dealer": 2, "contract": "eine", "declarer": 0, "declarer_points": 35}, ["Bürgermeister"], id="CE-3-buergermeister"),
        pytest.param({"dealer": 2, "contract": "eine", "declarer": 0, "declarer_points": 0}, ["durchgegangen"], id="CE-3-durchgegangen"),
        pytest.param({"dealer": 2, "contract": "geiss", "declarer": 1, "declarer_points": 70}, ["every trick"], id="CE-3-every-trick"),
        pytest.param({"dealer": 2, "contract": "solo", "declarer": 1, "declarer_points": 36}, ["Solo won"], id="CE-2-solo-won"),
        pytest.param({"dealer": 2, "contract": "solo", "declarer": 1, "declarer_points": 35}, ["Bürgermeister"], id="CE-2-solo-lost-with-35"),
        pytest.param({"dealer": 2, "contract": "ulti", "declarer": 1, "won": True}, ["Ulti won"], id="CE-2-ulti-won"),
        pytest.param({"dealer": 2, "contract": "ulti", "declarer": 1, "won": False}, [], id="CE-2-ulti-lost"),
        pytest.param({"dealer": 2, "contract": "solodu", "declarer": 1, "declarer_points": 70}, ["every trick", "Solodu won"], id="CE-3-solodu-with-all-points"),
    ],
)
def test_cego_names_its_own_games(record, expected):
    assert texts(CEGO.notable(record, None)) == expected


def test_the_row_decides_a_solo_where_the_record_does_not_say():
    """HR "won": a record without ``won`` is decided by the declarer's score in the row, as the
    score sheet's words are (``Ruleset.describe``)."""
    record = {"dealer": 3, "contract": "solodreier", "declarer": 1}
    assert texts(TIROL.notable(record, [-10, 30, -10, -10])) == ["Solodreier won"]
    assert texts(TIROL.notable(record, [10, -30, 10, 10])) == []


def test_reasons_translate_with_their_parameters():
    """The web layer translates a reason like any other Problem (its msgid and parameters)."""
    reason = TIROL.notable(hand("farbensolo", 1), None)[0]
    assert reason.msgid == "%(contract)s won" and reason.params == {"contract": "Farbensolo"}


def test_every_registered_ruleset_answers_for_its_random_hands():
    """No ruleset raises on the hands it deals itself (``randomhands``), and struck hands are never
    worth mentioning."""
    import random

    for rs in variants.all_rulesets():
        rng = random.Random(18)
        size = rs.preferred_table_size
        for number in range(60):
            record = rs.random_hand(rng, size, number % size)
            assert isinstance(rs.notable(record, rs.score(record, size)), list)
        assert rs.notable({"dealer": 0, "outcome": "struck"}, [0] * size) == []
