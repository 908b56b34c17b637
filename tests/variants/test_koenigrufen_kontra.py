"""Kontra, Re, Sub and Mord in Königrufen (every edition of the engine): recorded, shown, never scored.

Rule text: ``../shared/rules/koenigrufen.md`` ("KR") §1 "Tournament score = Schrift": "Kontra, Re
and Sub never count for the tournament" (S1 §7; W20 "Kontra (doppelt), Retour (vierfach) und Sub
(achtfach) haben keine Auswirkung auf die Schrift"); §2.2 Trischaken "No kontra";
``hand-record.md`` ("HR") "kontra" (``0..4``: 1 kontra ×2, 2 re ×4, 3 sub ×8, 4 mort ×16;
"Königrufen tournaments ignore kontras in the Schrift (the field may be recorded)") and "kontra_by".

Every expected row is written by hand from the rule text (KR §1 "From a hand to a row": posts
summed into ``n``; 2 against 2 ``±n``; 1 against 3 declarer ``3n``, opponents ``-n``), and each is
the same with and without the kontras.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from variants import InvalidHand, get_ruleset

from .rule_helpers import D, O, assert_invalid, hand, trisch4

EDITIONS = [("tiroler-tarockcup", "2019/20"), ("wiener-tarockcup", "2020"), ("wiener-tarockcup", "2009")]
IDS = [f"{k} {e}" for k, e in EDITIONS]


def with_kontra(h, **kontras):
    return {**copy.deepcopy(h), **kontras}


# (edition, table size, hand, row by hand, kontras added)
ROWS = [
    # KR §1, §4: Dreier by seat 1 (dealer 0), won: 5 + announced Pagat 2 = 7; 1 against 3.
    pytest.param("tiroler-tarockcup", "2019/20", 4, hand("dreier", 1, dealer=0, bonuses=[D("pagat")]), [-7, 21, -7, -7],
                 {"kontra": 1, "kontra_by": 2}, id="KR1 Tirol Dreier kontra by an opponent"),
    pytest.param("tiroler-tarockcup", "2019/20", 4, hand("dreier", 1, dealer=0, bonuses=[D("pagat")]), [-7, 21, -7, -7],
                 {"kontra": 3, "kontra_by": 3, "bonuses": [{**D("pagat"), "kontra": 2}]}, id="KR1 Tirol Dreier sub, Pagat rekontra'd"),
    # HR example: Rufer at a 5-table, seat 0 deals and sits out, 1 + 3 against 2 + 4: [0, 1, -1, 1, -1].
    pytest.param("tiroler-tarockcup", "2019/20", 5, hand("rufer", 1, dealer=0, partner=3), [0, 1, -1, 1, -1],
                 {"kontra": 2, "kontra_by": 4}, id="KR1 Tirol Rufer 5-table rekontra"),
    # KR §2: Solodreier 10, lost: n = -10, declarer -30, each opponent +10.
    pytest.param("wiener-tarockcup", "2020", 4, hand("solodreier", 2, won=False), [10, 10, -30, 10],
                 {"kontra": 1, "kontra_by": 0}, id="KR2 W20 Solodreier lost, kontra"),
    # KR §2: Pagatrufer 1 + announced Pagat 2 = 3, won, 2 against 2; the opponents kontra the Pagat.
    pytest.param("wiener-tarockcup", "2020", 4, hand("pagatrufer", 1, partner=3, bonuses=[D("pagat")]), [-3, 3, -3, 3],
                 {"bonuses": [{**D("pagat"), "kontra": 1}]}, id="KR2 W20 Pagatrufer, Pagat kontra'd"),
    # KR §3: Piccolo 2, won: declarer +6, each opponent -2.
    pytest.param("wiener-tarockcup", "2009", 4, hand("piccolo", 3, won=True), [-2, -2, -2, 6],
                 {"kontra": 2, "kontra_by": 1}, id="KR3 W09 Piccolo rekontra"),
    # KR §1 Renonce, the W20 example: Dreier, an opponent revokes: declarer +15, others +5, offender -25.
    pytest.param("wiener-tarockcup", "2020", 4, hand("dreier", 0, won=None, revoke=2), [15, 5, -25, 5],
                 {"kontra": 1, "kontra_by": 2}, id="KR1 W20 Renonce after a kontra"),
    # KR §1 Conceding: Rufer alone (king in the talon), conceded: -1 × 3 for the declarer.
    pytest.param("wiener-tarockcup", "2020", 4, hand("rufer", 0, won=None, conceded=True), [-3, 1, 1, 1],
                 {"kontra": 1}, id="KR1 W20 Rufer conceded, kontra"),
]


@pytest.mark.parametrize("key, edition, size, h, row, kontras", ROWS)
def test_the_row_is_the_same_with_and_without_kontra(key, edition, size, h, row, kontras):
    rs = get_ruleset(key, edition)
    plain = {k: v for k, v in h.items() if v is not None or k == "partner"}
    kontrad = with_kontra(plain, **kontras)
    assert rs.validate(kontrad, size) == []
    assert rs.score(plain, size) == row
    assert rs.score(kontrad, size) == row
    # the posts are the same too: a kontra is no post of the Schrift
    assert rs.breakdown(kontrad, size).posts == rs.breakdown(plain, size).posts


@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
def test_every_contract_with_a_declarer_records_kontra_trischaken_none(key, edition):
    rs = get_ruleset(key, edition)
    # HR "kontra" 0..4: every level the record contract allows, Mord the highest
    assert rs.max_kontra == 4 and rs.kontra_names[1:] == ("kontra", "rekontra", "subkontra", "mordkontra")
    assert rs.kontra_codes[1:] == ("k", "re", "sub", "mord")
    for c in rs.contracts:
        fields = rs.fields(c)
        if c.trischaken:
            assert "kontra" not in fields and "kontra_by" not in fields
        else:
            assert {"kontra", "kontra_by"} <= set(fields), c.key
    catalogue = {c["key"]: c["fields"] for c in rs.catalogue()["contracts"]}
    assert "kontra" in catalogue["dreier"] and "kontra" not in catalogue["trischaken"]
    assert any("never change the Schrift" in line for line in rs.rules_summary())


# ------------------------------------------------------------------------------------- the line

LINES = [
    # (line, dealer, size, record)
    ("r 1 3 + k", 3, 4, {"dealer": 3, "contract": "rufer", "declarer": 0, "partner": 2, "won": True, "kontra": 1, "bonuses": []}),
    ("d 2 + re pag!k k3", 0, 4, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "kontra": 2, "kontra_by": 2,
                                 "bonuses": [{**D("pagat"), "kontra": 1}]}),
    ("d 2 + sub k4", 0, 4, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "kontra": 3, "kontra_by": 3, "bonuses": []}),
    # who said the Kontra is a Kontra: "k2" alone is level 1 said by seat 2, printed so
    ("p 4 - k2", 0, 5, {"dealer": 0, "contract": "piccolo", "declarer": 3, "won": False, "kontra": 1, "kontra_by": 1}),
    ("d 2 + k4", 0, 4, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "kontra": 1, "kontra_by": 3, "bonuses": []}),
    # HR "kontra" 4: Mord, on the game and on an announced bonus
    ("d 2 + mord", 0, 4, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "kontra": 4, "bonuses": []}),
    ("d 2 + mord pag!mord k3", 0, 4, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": True, "kontra": 4,
                                      "kontra_by": 2, "bonuses": [{**D("pagat"), "kontra": 4}]}),
]


@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
@pytest.mark.parametrize("line, dealer, size, record", LINES, ids=[item[0] for item in LINES])
def test_the_line_reads_kontra_and_prints_it_back(key, edition, line, dealer, size, record):
    rs = get_ruleset(key, edition)
    assert rs.parse_hand(line, size, dealer) == record
    assert rs.format_hand(record, size) == line


@pytest.mark.parametrize(
    "line, level",
    [("d 2 + kontra", 1), ("d 2 + K", 1), ("d 2 + rekontra", 2), ("d 2 + retour", 2), ("d 2 + subkontra", 3),
     ("d 2 + mord", 4), ("d 2 + Mordkontra", 4), ("d 2 + mort", 4), ("d 2 + mortkontra", 4), ("d 2 + k3", 1)],
)
def test_the_game_s_words_are_read_too(line, level):
    rs = get_ruleset("wiener-tarockcup")
    assert rs.parse_hand(line, 4, 0)["kontra"] == level


def test_kontra_by_a_player_named_by_name():
    rs = get_ruleset("tiroler-tarockcup")
    names = ["Anna Berger", "Berta Huber", "Carl Egger", "Dora Falk"]
    record = rs.parse_hand("d anna + k:berta", 4, 3, names)
    assert (record["declarer"], record["kontra"], record["kontra_by"]) == (0, 1, 1)
    assert rs.format_hand(record, 4, names) == "d ab + k:bh"


@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
@pytest.mark.parametrize("size, dealer", [(4, 0), (5, 0), (4, 2)])
def test_a_kontra_said_by_a_seat_prints_to_a_line_that_reads_back_the_same(key, edition, size, dealer):
    """HR "kontra_by": {kontra: 1, kontra_by: 3} prints as "k4" alone and reads back to itself; so
    do Re and Mord beside who said the Kontra."""
    rs = get_ruleset(key, edition)
    declarer = rs.active_seats(dealer, size)[0]
    opponent = rs.active_seats(dealer, size)[-1]
    for level in (1, 2, 4):
        record = {"dealer": dealer, "contract": "dreier", "declarer": declarer, "won": True, "kontra": level,
                  "kontra_by": opponent, "bonuses": []}
        assert rs.validate(record, size) == []
        line = rs.format_hand(record, size)
        assert line.split()[-1] == f"k{opponent + 1}" and (level == 1) == (len(line.split()) == 4), line
        assert rs.parse_hand(line, size, dealer) == record


LINE_REFUSALS = [
    ("t 30 20 12 8 k", 3, 4, ["“k” is not allowed in a Trischaken."]),
    ("t 30 20 12 8 k2", 3, 4, ["“k2” is not allowed in a Trischaken."]),
    ("t 30 20 12 8 mord", 3, 4, ["“mord” is not allowed in a Trischaken."]),
    # who said the Kontra is a Kontra already: a level 1 beside it would count for nothing
    ("d 2 + k k3", 0, 4, ["“k”: “k3” records the Kontra already: leave it out."]),
    ("d 2 + kontra k3", 0, 4, ["“kontra”: “k3” records the Kontra already: leave it out."]),
    ("d 2 + k2", 0, 4, ["seat 2 plays on the declarer's side: kontra is said by an opponent."]),
    ("r 1 3 + k3", 3, 4, ["seat 3 plays on the declarer's side: kontra is said by an opponent."]),
    ("r 2 4 + re k1", 0, 5, ["seat 1 deals and sits out this hand and cannot be player who said kontra."]),
    ("d 2 + k re", 0, 4, ["“k” and “re” both given."]),
    ("d 2 + mort mord", 0, 4, ["“mort” and “mord” both given."]),
    ("d 2 + pag!x", 0, 4, ["“pag!x”: after “!” comes a kontra level (k, re, sub, mord) or nothing."]),
]


@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
@pytest.mark.parametrize("line, dealer, size, messages", LINE_REFUSALS, ids=[item[0] for item in LINE_REFUSALS])
def test_the_line_refuses_kontras_that_cannot_be(key, edition, line, dealer, size, messages):
    rs = get_ruleset(key, edition)
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand(line, size, dealer)
    assert [str(e) for e in refused.value.errors] == [m.format(label=rs.label) for m in messages]


def test_valat_kontra_is_the_game_s():
    # Decision (variants/koenigrufen.py): a Valat is kontra'd with the game.
    rs = get_ruleset("tiroler-tarockcup")
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand("d 2 + val!k", 4, 0)
    assert [str(e) for e in refused.value.errors] == ["A kontra on the Valat is the kontra on the game: record it there."]
    record = rs.parse_hand("d 2 + val! k", 4, 0)
    # KR §4.1: Dreier 5 + announced Valat 20 = 25; 1 against 3.
    assert rs.score(record, 4) == [-25, 75, -25, -25] and record["kontra"] == 1


# --------------------------------------------------------------------------------- the record

@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
@pytest.mark.parametrize(
    "h, size, words",
    [
        (hand("dreier", 1, dealer=0, kontra=5), 4, "Kontra must be a level from 0 to 4 (kontra, rekontra, subkontra, mordkontra)."),
        (hand("dreier", 1, dealer=0, kontra="re"), 4, "Kontra must be a level from 0 to 4"),
        (hand("dreier", 1, dealer=0, kontra=True), 4, "Kontra must be a level from 0 to 4"),
        (trisch4("30/0", "20/0", "12/1", "7/2", kontra=1), 4, "There is no kontra in Trischaken: everyone plays for himself."),
        (trisch4("30/0", "20/0", "12/1", "7/2", kontra_by=1), 4, "There is no kontra in Trischaken"),
        # the record carries the level itself (only the line reads "k3" alone as a Kontra)
        (hand("dreier", 1, dealer=0, kontra_by=2), 4, "enter its level too"),
        (hand("dreier", 1, dealer=0, kontra=0, kontra_by=2), 4, "enter its level too"),
        (hand("dreier", 1, dealer=0, kontra=1, kontra_by=1), 4, "kontra is said by an opponent"),
        (hand("rufer", 0, partner=2, kontra=1, kontra_by=2), 4, "kontra is said by an opponent"),
        (hand("dreier", 1, dealer=0, kontra=1, kontra_by=7), 4, "must be a seat from 0 to 3"),
        (hand("dreier", 1, dealer=0, bonuses=[{**D("pagat", announced=False), "kontra": 1}]), 4,
         "Only an announced bonus can be kontra'd, not a silent Pagat."),
        (hand("dreier", 1, dealer=0, bonuses=[{**O("uhu"), "kontra": 5}]), 4,
         "The kontra on Uhu must be a level from 0 to 4."),
        (hand("dreier", 1, dealer=0, bonuses=[{**D("valat"), "kontra": 1}]), 4, "the kontra on the game"),
    ],
)
def test_the_record_refuses_kontras_that_cannot_be(key, edition, h, size, words):
    assert_invalid(get_ruleset(key, edition), {k: v for k, v in h.items() if v is not None or k == "partner"}, size, words)


@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
def test_a_mord_from_an_older_archive_or_an_import_is_valid_and_never_scored(key, edition):
    """HR "kontra" is 0..4 and Königrufen "may record" it: a record with level 4 (the restore
    re-validates every hand) is valid, on the game and on an announced bonus, and its row is the
    row without it: KR §1, §4 Dreier 5 + announced Pagat 2 = 7, 1 against 3."""
    rs = get_ruleset(key, edition)
    plain = hand("dreier", 1, dealer=0, bonuses=[D("pagat")])
    plain = {k: v for k, v in plain.items() if v is not None or k == "partner"}
    mord = with_kontra(plain, kontra=4, kontra_by=3, bonuses=[{**D("pagat"), "kontra": 4}])
    assert rs.validate(mord, 4) == []
    assert rs.score(mord, 4) == rs.score(plain, 4) == [-7, 21, -7, -7]
    assert [str(p) for p in rs.describe(mord)] == ["Dreier", "seat 2", "mordkontra", "kontra by seat 4", "won",
                                                    "Pagat announced mordkontra"]
    line = rs.format_hand(mord, 4)
    assert line == "d 2 + mord pag!mord k4"
    assert rs.parse_hand(line, 4, 0) == {k: v for k, v in mord.items() if k != "partner"}


def test_a_kontra_of_level_0_or_null_is_no_kontra():
    rs = get_ruleset("tiroler-tarockcup")
    for level in (0, None):
        h = hand("dreier", 1, dealer=0, kontra=level, bonuses=[{**D("pagat"), "kontra": level}])
        assert rs.validate(h, 4) == []
        assert rs.score(h, 4) == [-7, 21, -7, -7]


# ---------------------------------------------------------------------------------- in words

def test_the_hand_in_words_says_the_kontra_and_who_said_it():
    rs = get_ruleset("wiener-tarockcup")
    words = lambda h: [str(p) for p in rs.describe(h)]  # noqa: E731
    base = hand("dreier", 1, dealer=0, bonuses=[D("pagat")])
    assert words(base) == ["Dreier", "seat 2", "won", "Pagat announced"]
    assert words({**base, "kontra": 1, "kontra_by": 2}) == ["Dreier", "seat 2", "kontra by seat 3", "won", "Pagat announced"]
    assert words({**base, "kontra": 2, "kontra_by": 2}) == ["Dreier", "seat 2", "rekontra", "kontra by seat 3", "won", "Pagat announced"]
    assert words({**base, "kontra": 3}) == ["Dreier", "seat 2", "subkontra", "won", "Pagat announced"]
    assert words({**base, "bonuses": [{**D("pagat"), "kontra": 1}]})[-1] == "Pagat announced kontra"
    # the seat of who said it is a seat parameter: the pages put the player's name in
    said = [p for p in rs.describe({**base, "kontra": 1, "kontra_by": 2}) if getattr(p, "params", {}).get("player_seat") == 2]
    assert said and said[0].msgid == "kontra by %(player_seat)s"


def test_a_kontra_is_not_a_hand_worth_mentioning():
    rs = get_ruleset("tiroler-tarockcup")
    assert rs.notable(hand("dreier", 1, dealer=0, kontra=3, kontra_by=2)) == []


# ------------------------------------------------------------------------------ property

@pytest.mark.parametrize("key, edition", EDITIONS, ids=IDS)
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_any_kontra_on_any_evening_hand_leaves_the_row_and_reads_back(key, edition, seed, data):
    """KR §1: whatever kontras a valid hand carries, its row is the row without them, and its line
    reads back to the same record."""
    rs = get_ruleset(key, edition)
    rng = random.Random(seed)
    size = rng.choice(rs.table_sizes)
    dealer = rng.randrange(size)
    plain = rs.random_hand(rng, size, dealer)
    contract = rs.contract(plain["contract"]) if plain.get("outcome", "played") == "played" else None
    if contract is None or contract.trischaken:
        return
    kontrad = copy.deepcopy(plain)
    kontrad["kontra"] = data.draw(st.integers(0, 4))
    declarer, partner = plain.get("declarer"), plain.get("partner")
    opponents = [s for s in rs.active_seats(dealer, size) if s not in (declarer, partner)]
    if kontrad["kontra"] and data.draw(st.booleans()):
        kontrad["kontra_by"] = data.draw(st.sampled_from(opponents))
    for b in kontrad.get("bonuses") or []:
        if b["announced"] and b["bonus"] != "valat":
            b["kontra"] = data.draw(st.integers(0, 4))
    assert rs.validate(kontrad, size) == []
    assert rs.score(kontrad, size) == rs.score(plain, size)
    line = rs.format_hand(kontrad, size)
    back = rs.parse_hand(line, size, dealer)
    assert rs.format_hand(back, size) == line
    assert back.get("kontra", 0) == kontrad["kontra"] and back.get("kontra_by") == kontrad.get("kontra_by")
    kontras = lambda record: {b["bonus"]: b.get("kontra", 0) for b in record.get("bonuses") or []}  # noqa: E731
    assert kontras(back) == kontras(kontrad)
