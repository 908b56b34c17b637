"""The options a tournament may switch on (added 2026-11-23): rows written by hand from the options
tables of ``koenigrufen.md`` ("Options a tournament may switch on") and ``tarok-bled.md`` §8.

Königrufen rows: the declarer's side's net value ``n`` goes ×3 to a declarer playing alone, −n to
each opponent (§1); Bled rows are declarer-only (§3).
"""

import pytest

from variants import InvalidHand, get_ruleset


def bonus(key, team="declarer", announced=False, made=True):
    return {"bonus": key, "team": team, "announced": announced, "made": made}


def dreier(won, *bonuses, declarer=1):
    return {"dealer": 3, "contract": "dreier", "declarer": declarer, "won": won, "bonuses": list(bonuses)}


def sechser(won, *bonuses):
    # the Sechserdreier is Vorhand's (koenigrufen.md §3): dealer seat 4 (3), Vorhand seat 1 (0)
    return {"dealer": 3, "contract": "sechserdreier", "declarer": 0, "won": won, "bonuses": list(bonuses)}


# ---------------------------------------------------------------- Tirol: silent_sacks


TIROL = ("tiroler-tarockcup", "2019/20")


def test_without_silent_sacks_a_silent_sack_is_refused():
    """§4: the Säcke are announced-only in the 2019/20 text."""
    with pytest.raises(InvalidHand, match="only counts when announced"):
        get_ruleset(*TIROL).score(dreier(True, bonus("sack1")), 4)


@pytest.mark.parametrize(
    "hand, row",
    [
        # Dreier 5 + silent 1. Sack 1 = 6 per opponent.
        (dreier(True, bonus("sack1")), [-6, 18, -6, -6]),
        # The opponents' silent 2. Sack against a lost Dreier: −5 − 1 = −6.
        (dreier(False, bonus("sack2", "opponents")), [6, -18, 6, 6]),
        # Announced as before: 5 + 2 = 7.
        (dreier(True, bonus("sack1", announced=True)), [-7, 21, -7, -7]),
        # §4.1: a made Valat absorbs the Säcke, silent too: 5 + 10 = 15.
        (dreier(True, bonus("valat"), bonus("sack1")), [-15, 45, -15, -15]),
    ],
    ids=["silent 1. Sack counts 1", "opponents' silent 2. Sack", "announced Sack 2", "absorbed by a Valat"],
)
def test_silent_sacks_count_one(hand, row):
    assert get_ruleset(*TIROL, {"silent_sacks": True}).score(hand, 4) == row


# ------------------------------------------------- WTC 2009: valat_doubled_in_lost_sechserdreier


W09 = ("wiener-tarockcup", "2009")


@pytest.mark.parametrize(
    "hand, default, switched",
    [
        # §3: the opponents' silent Valat is 4V = −20 per opponent; the option doubles it like the
        # lost game: 5 × (−2) × 4 = −40 per opponent.
        (sechser(False, bonus("valat", "opponents")), [-60, 20, 20, 20], [-120, 40, 40, 40]),
        # announced: −8V = −40; doubled −80.
        (sechser(False, bonus("valat", "opponents", announced=True)), [-120, 40, 40, 40], [-240, 80, 80, 80]),
        # The declarer's own Valat of a won Sechserdreier is no lost game: +4V = 20 either way.
        (sechser(True, bonus("valat")), [60, -20, -20, -20], [60, -20, -20, -20]),
        # A Dreier is not doubled when lost: the opponents' Valat stays −20.
        (dreier(False, bonus("valat", "opponents"), declarer=0), [-60, 20, 20, 20], [-60, 20, 20, 20]),
    ],
    ids=["silent", "announced", "declarer's Valat", "Dreier"],
)
def test_valat_doubled_in_lost_sechserdreier(hand, default, switched):
    assert get_ruleset(*W09).score(hand, 4) == default
    assert get_ruleset(*W09, {"valat_doubled_in_lost_sechserdreier": True}).score(hand, 4) == switched


def test_options_belong_to_their_editions():
    assert "silent_sacks" in get_ruleset(*TIROL).option_defaults
    assert "silent_sacks" not in get_ruleset("wiener-tarockcup", "2020").option_defaults
    assert "valat_doubled_in_lost_sechserdreier" in get_ruleset(*W09).option_defaults
    assert "valat_doubled_in_lost_sechserdreier" not in get_ruleset("wiener-tarockcup", "2020").option_defaults
    assert get_ruleset(*TIROL).option_defaults["failed_silent_birds_count"] is True


# ------------------------------------------------------------------------------- Bled (§8)


BLED = ("tarok-bled", "2005")


def klop(*points, dealer=2):
    return {"dealer": dealer, "contract": "klop", "card_points": {str(s): p for s, p in enumerate(points)}}


@pytest.mark.parametrize(
    "points, default, switched",
    [
        # §4: 35 is full (−70, the others nothing); switched, 35 counts like any other total.
        ((35, 20, 15), [-70, 0, 0], [-35, -20, -15]),
        # 36 is full either way.
        ((36, 20, 14), [-70, 0, 0], [-70, 0, 0]),
    ],
    ids=["35", "36"],
)
def test_klop_full_above_35(points, default, switched):
    assert get_ruleset(*BLED).score(klop(*points), 3) == default
    assert get_ruleset(*BLED, {"klop_full_above_35": True}).score(klop(*points), 3) == switched


def test_radelci_after_valat_default_on_and_switched_off():
    """§5 Decision: after a valat every seat gets a radelc; §8 switched off: none. Hand 2, a
    Dvojko by seat 2 with 45 card points: (20 + 10) = 30, doubled by his radelc to 60."""
    valat = {"dealer": 2, "contract": "trojka", "declarer": 0, "declarer_points": 70}  # a silent valat
    dvojko = {"dealer": 0, "contract": "dvojko", "declarer": 1, "declarer_points": 45}
    assert get_ruleset(*BLED).score(dvojko, 3, [valat]) == [0, 60, 0]
    assert get_ruleset(*BLED, {"radelci_after_valat": False}).score(dvojko, 3, [valat]) == [0, 30, 0]
    assert get_ruleset(*BLED).option_defaults["radelci_after_valat"] is True


@pytest.mark.parametrize(
    "points, kontra, default, switched",
    [
        # §3: a Solo is a flat 80 (×2 per kontra); switched (§8), taking every trick scores the
        # valat: 250 × 2**kontra.
        (70, 0, 80, 250),
        (70, 1, 160, 500),
        # Not every trick: the Solo either way.
        (60, 0, 80, 80),
    ],
)
def test_solo_valat(points, kontra, default, switched):
    solo = {"dealer": 0, "contract": "solo", "declarer": 1, "declarer_points": points, "kontra": kontra}
    assert get_ruleset(*BLED).score(solo, 3) == [0, default, 0]
    assert get_ruleset(*BLED, {"solo_valat": True}).score(solo, 3) == [0, switched, 0]
