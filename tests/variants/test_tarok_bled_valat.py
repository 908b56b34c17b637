"""A Bled valat recorded as the bonus made, and a Klop that counts 69 (``tarok-bled.md`` §3, §4, §6,
"Revised 2026-11-26").

The talon cards the declarer did not take count for the defenders, so a valat in Trojka, Dvojko or
Enojko — and in a Solo — never leaves the declarer exactly 70 or 0 card points. A valat is the
``valat`` bonus made with its side; ``p`` may be left out, and if given lies on the winning side's
half: 36..70 for the declarer's valat, 0..34 for the defenders'. ``p = 70`` / ``p = 0`` alone keep
their meaning. Klop totals come to 69..72.

Every expected row is worked out by hand from the rule text: a valat scores 250 silent, 500
announced, × 2**kontra of the game, in place of game, difference and bonuses, for the declarer
(+) or against him (the defenders' valat, −); rows are declarer-only, the Mond penalty −21 on its
own seat. Seats 0..2; dealer 2 makes seat 0 forehand (the only one who may play Trojka).
"""

import pytest

from variants import InvalidHand, get_ruleset

RS = get_ruleset("tarok-bled")


def hand(contract="trojka", declarer=0, p=None, bonuses=(), **extra):
    record = {"dealer": 2, "contract": contract, "declarer": declarer, **extra}
    if p is not None:
        record["declarer_points"] = p
    if bonuses:
        record["bonuses"] = list(bonuses)
    return record


def valat(team="declarer", announced=False, made=True):
    return {"bonus": "valat", "team": team, "announced": announced, "made": made}


def klop(*points, **extra):
    return {"dealer": 2, "contract": "klop", "card_points": {str(s): p for s, p in enumerate(points)}, **extra}


ACCEPTED = [
    # §3 revised: the declarer's valat, the card points on his half or left out
    pytest.param(hand(p=66, bonuses=[valat()]), [250, 0, 0], id="§3 Trojka valat p=66: silent 250"),
    pytest.param(hand(bonuses=[valat()]), [250, 0, 0], id="§3 Trojka valat without p: silent 250"),
    pytest.param(hand(p=36, bonuses=[valat()]), [250, 0, 0], id="§3 declarer's valat at the edge p=36"),
    pytest.param(hand("dvojko", 1, bonuses=[valat(announced=True)]), [0, 500, 0],
                 id="§3 Dvojko announced valat made without p: 500"),
    pytest.param(hand("enojko", 2, 64, [valat(announced=True)], kontra=1), [0, 0, 1000],
                 id="§3 Enojko announced valat made p=64, kontra: 500 × 2 = 1000"),
    pytest.param(hand(p=67, bonuses=[valat()], mond_lost_by=1), [250, -21, 0],
                 id="§3 valat p=67 and the defender's Mond: 250, -21 never doubled"),
    # §3 revised: the defenders' valat, p on their half (0..34) or left out
    pytest.param(hand(p=4, bonuses=[valat("opponents")]), [-250, 0, 0], id="§3 defenders' valat p=4: -250"),
    pytest.param(hand("dvojko", 1, bonuses=[valat("opponents")]), [0, -250, 0], id="§3 defenders' valat without p: -250"),
    pytest.param(hand("dvojko", 1, 34, [valat("opponents", announced=True)], kontra=2), [0, -2000, 0],
                 id="§3 defenders' announced valat p=34 (edge), rekontra: -500 × 4 = -2000"),
    # §3: p = 70 and p = 0 alone keep their meaning
    pytest.param(hand(p=70), [250, 0, 0], id="§3 p=70 alone: the declarer's silent valat 250"),
    pytest.param(hand(p=0), [-250, 0, 0], id="§3 p=0 alone: the defenders' silent valat -250"),
    # §3 revised and §8: a Solo's valat (whole talon the defenders') is the Solo, ±80 by default
    pytest.param(hand("solo", 1, bonuses=[valat()]), [0, 80, 0], id="§3/§8 Solo valat without p: the Solo won 80"),
    pytest.param(hand("solo", 1, 58, [valat()], kontra=1), [0, 160, 0], id="§3/§8 Solo valat p=58, kontra: 80 × 2"),
    pytest.param(hand("solo", 1, bonuses=[valat("opponents")]), [0, -80, 0], id="§3 defenders' valat in a Solo: lost -80"),
    # §4, §6 revised: Klop totals 69..72; nobody 35 or more, nobody empty: everyone -points
    pytest.param(klop(20, 30, 19), [-20, -30, -19], id="§4 Klop summing to 69: -20 -30 -19"),
    pytest.param(klop(35, 34, 0), [-70, 0, 70], id="§4 Klop summing to 69 with a full and an empty player: -70, 0, +70"),
]


@pytest.mark.parametrize(("record", "row"), ACCEPTED)
def test_accepted_and_scored(record, row):
    assert RS.validate(record, 3) == []
    assert RS.score(record, 3) == row


REFUSED = [
    # §6 revised: p off the winning side's half
    pytest.param(hand("dvojko", 1, 40, [valat("opponents")]),
                 "A valat made by the opponents leaves the declarer 0 to 34 card points, not 40: correct them or leave them out.",
                 id="§6 defenders' valat with p=40"),
    pytest.param(hand(p=35, bonuses=[valat()]),
                 "A valat made by the declarer leaves him 36 to 70 card points, not 35: correct them or leave them out.",
                 id="§6 declarer's valat with p=35 (35 loses)"),
    # §3: only a valat made may leave the card points out
    pytest.param(hand(bonuses=[valat(announced=True, made=False)]), "Enter the declarer's card points (0 to 70).",
                 id="§3 a failed valat needs the card points"),
    pytest.param(hand(), "Enter the declarer's card points (0 to 70).", id="§3 no valat, no card points"),
    # §6: the valat still replaces the other bonuses
    pytest.param(hand(bonuses=[valat(), {"bonus": "trula", "team": "declarer", "announced": False, "made": True}]),
                 "A valat replaces the game and the other bonuses: record no other bonus with it.",
                 id="§6 valat without p beside a trula"),
    # §3, §6: a Solo has no announcements and no other bonus
    pytest.param(hand("solo", 1, bonuses=[valat(announced=True)]),
                 "In a Solo a valat is recorded only as made and silent: a Solo has no announcements.",
                 id="§3 announced valat in a Solo"),
    # §4, §6 revised: 68 is no Klop total
    pytest.param(klop(20, 30, 18), "The card points add up to 68; in Klop they come to 69, 70, 71 or 72.",
                 id="§6 Klop summing to 68"),
]


@pytest.mark.parametrize(("record", "message"), REFUSED)
def test_refused_with_a_message(record, message):
    assert message in RS.validate(record, 3)
    with pytest.raises(InvalidHand):
        RS.score(record, 3)


@pytest.mark.parametrize(
    ("line", "row", "word"),
    [
        ("t 1 66 val", [250, 0, 0], "Valat"),
        ("t 1 val", [250, 0, 0], "Valat"),
        ("t 1 k val!", [1000, 0, 0], "Valat announced"),
        ("t 1 4 /val", [-250, 0, 0], "opponents: Valat"),
        ("d 2 /val", [0, -250, 0], "opponents: Valat"),
        ("t 1 70", [250, 0, 0], "Valat"),  # the old record, read as before, says valat too
        ("t 1 0", [-250, 0, 0], "opponents: Valat"),
        ("s 2 val", [0, 80, 0], "Valat"),
        ("k 20 30 19", [-20, -30, -19], None),
    ],
)
def test_the_quick_line_reads_it_and_the_words_say_valat(line, row, word):
    """The notation line (dealer 2, forehand seat 1 in the line's numbering) gives the record the
    rules accept, prints back the same, and the hand in words names the valat."""
    record = RS.parse_hand(line, 3, 2)
    assert RS.score(record, 3) == row
    assert RS.format_hand(record, 3) == line
    words = [str(part) for part in RS.describe(record, row)]
    if word is not None:
        assert word in words


def test_the_line_refuses_the_defenders_valat_with_40_naming_the_rule():
    with pytest.raises(InvalidHand) as refused:
        RS.parse_hand("t 1 40 /val", 3, 2)
    assert refused.value.errors == [
        "A valat made by the opponents leaves the declarer 0 to 34 card points, not 40: correct them or leave them out."
    ]


def test_a_valat_without_points_hands_out_radelci_and_spends_the_declarers():
    """§5: every player gets a radelc after a valat (option radelci_after_valat, on by default);
    the declarer who held one and won loses it; his valat is doubled by it."""
    history = [klop(20, 30, 19)]  # a Klop: one radelc each
    assert RS.radelci(history, 3) == [1, 1, 1]
    valat_hand = hand(bonuses=[valat()])
    assert RS.score(valat_hand, 3, history) == [500, 0, 0]  # 250 × 2 by his radelc
    assert RS.radelci(history + [valat_hand], 3) == [1, 2, 2]  # his spent, then one each


@pytest.mark.parametrize(
    ("options", "record", "row"),
    [
        # §8 solo_valat: a Solo taking every trick scores the silent valat, 250 × 2**kontra
        ({"solo_valat": True}, hand("solo", 1, bonuses=[valat()]), [0, 250, 0]),
        ({"solo_valat": True}, hand("solo", 1, 61, [valat()], kontra=1), [0, 500, 0]),
        # §3 option solo_difference: 80 + |p − 35|, p=60 → 80 + 25 = 105
        ({"solo_difference": True}, hand("solo", 1, 60, [valat()]), [0, 105, 0]),
        # §3 option round_difference changes nothing for a valat: it replaces the game
        ({"round_difference": True}, hand(p=66, bonuses=[valat()]), [250, 0, 0]),
    ],
)
def test_options_with_a_recorded_valat(options, record, row):
    assert get_ruleset("tarok-bled", options=options).score(record, 3) == row


def test_the_rules_page_says_how_a_valat_is_recorded():
    summary = [str(line) for line in RS.rules_summary()]
    assert any("recorded as the valat bonus" in line and "36 to 70" in line and "0 to 34" in line for line in summary)
