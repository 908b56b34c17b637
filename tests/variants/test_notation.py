"""The hand notation (``variants/notation.py``): strict parsing, canonical printing, round trips.

Property tests (hypothesis) for every ruleset, edition and option: a valid record printed by
``format_hand`` and read back by ``parse_hand`` scores exactly as the record; token soup never raises
anything but ``InvalidHand``; and a line that is accepted uses every one of its tokens (leave any one
out and the record changes or the line is refused). Then refusals written by hand from the rule files,
each with the message the scorer must see.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from variants import InvalidHand, get_ruleset
from variants.cardpoints import format_thirds

RULESETS = [
    ("tiroler-tarockcup", "2019/20", {}),
    ("tiroler-tarockcup", "2019/20", {"failed_silent_birds_count": False}),
    ("wiener-tarockcup", "2020", {}),
    ("wiener-tarockcup", "2009", {}),
    ("raiffeisen-tarockcup", "2023", {}),
    ("raiffeisen-tarockcup", "2023", {"failed_silent_birds_count": True, "virgins_paid_in_full": True}),
    ("cego-ichenheim", "ichenheim", {}),
    ("cego-ichenheim", "ichenheim", {"piccolo": True, "bettel": True, "raeuber": True}),
    ("tarok-bled", "2005", {}),
    ("tarok-bled", "2005", {"round_difference": True, "mond_penalty_20": True, "solo_difference": True}),
    ("hungarian-tarokk", "paskievics", {}),
    ("hungarian-tarokk", "paskievics", {"mordkontra": True, "xxi_catch_kupa": True, "proba_pvsz18": True}),
    ("tapp-tarock", "klassik", {}),
    ("tapp-tarock", "klassik", {"fourth_with_defenders": True, "valat_fixed": True, "hand_bonuses": False}),
    ("free-scoring", "rows", {}),
    ("free-scoring", "rows", {"zero_sum": False, "three_handed": True, "dealer_sits_out": True}),
]
IDS = [f"{k} {e} {'+'.join(o) or 'default'}" for k, e, o in RULESETS]

NAMES = [
    "Anna Berger", "Karl Dorn", "Maria Egger", "Hans-Peter Falk", "Šimon Žagar", "Anton Bauer",
    "Valentin Tru", "Regina Ebner", "Kurt Raab", "Mia", "Sepp Ulm", "Pagitz Alois",
]


# ----------------------------------------------------------------------------- random records


def _bonus(rng: random.Random, bonus, active=()) -> dict:
    if bonus.held:
        return {"bonus": bonus.key, "holder": rng.choice(list(active) or [0])}
    announced = bonus.announced_only or rng.random() < 0.4
    entry = {
        "bonus": bonus.key,
        "team": rng.choice(["declarer", "opponents"]),
        "announced": announced,
        "made": rng.random() < 0.7,
    }
    if announced and rng.random() < 0.2:
        entry["kontra"] = rng.randint(1, 4)
    return entry


def _whole_split(rng: random.Random, seats: list[int], total: int) -> dict[str, int]:
    cuts = sorted(rng.randint(0, total) for _ in range(len(seats) - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
    return {str(s): p for s, p in zip(seats, parts)}


def _thirds_split(rng: random.Random, seats: list[int]) -> dict[str, str]:
    while True:
        cuts = sorted(rng.randint(0, 210) for _ in range(len(seats) - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, 210])]
        if all(p == 0 or p >= 4 for p in parts):
            return {str(s): format_thirds(p) for s, p in zip(seats, parts)}


def draw_record(rs, size: int, dealer: int, rng: random.Random) -> dict:
    """A record built field by field from the catalogue (every field a contract uses, rare ones
    too: Renonce, conceding, kontra on bonuses, manual and struck rows). Not necessarily valid."""
    roll = rng.random()
    if roll < 0.05:
        record = {"dealer": dealer, "outcome": "struck"}
        if rng.random() < 0.5:
            record["note"] = rng.choice(["misdealt", "Karten falsch gegeben", "x # y"])
        return record
    active = rs.active_seats(dealer, size)
    if roll < 0.12 or not rs.contracts:
        scores = [rng.randint(-40, 40) for _ in range(size)]
        out = rs.sitting_out(dealer, size)
        if out is not None and not rs.sitting_out_pays:
            scores[out] = 0
        if rs.zero_sum:
            scores[active[0]] -= sum(scores)
        record = {"dealer": dealer, "outcome": "manual", "scores": scores}
        if rs.uses_history and rng.random() < 0.5:
            record["contract"] = rng.choice(rs.contracts).key
        return record
    contract = rng.choice(rs.contracts)
    fields = rs.fields(contract)
    record: dict = {"dealer": dealer, "contract": contract.key}
    if "declarer" in fields:
        record["declarer"] = active[0] if contract.vorhand_only and rng.random() < 0.8 else rng.choice(active)
    if "partner" in fields:
        record["partner"] = rng.choice([None, *active])
    if "won" in fields and rng.random() < 0.95:
        record["won"] = rng.random() < 0.5
    if "declarer_points" in fields:
        record["declarer_points"] = rng.choice([0, 70, rng.randint(0, 70), rng.randint(30, 45)])
        if rng.random() < 0.3:
            record["declarer_points"] = str(record["declarer_points"])
    if "card_points" in fields:
        if rs.uses_blatt:
            record["card_points"] = _thirds_split(rng, active)
        else:
            record["card_points"] = _whole_split(rng, active, rng.choice([70, 70, 71, 72]))
    if "kontra" in fields and rng.random() < 0.3:
        record["kontra"] = rng.randint(1, 4)
    if "kontra_by" in fields and rng.random() < 0.3:
        record["kontra_by"] = rng.choice(active)
    if "mond_lost_by" in fields and rng.random() < 0.2:
        record["mond_lost_by"] = rng.choice(active)
    if "against_solo" in fields and rng.random() < 0.2:
        record["against_solo"] = True
    if "conceded" in fields and record.get("partner") is None and rng.random() < 0.3:
        record["conceded"] = True
    if "revoke" in fields and rng.random() < 0.1:
        record["revoke"] = rng.choice(active)
    if "bonuses" in fields:
        allowed = list(rs.allowed_bonuses(contract.key))
        chosen = rng.sample(allowed, k=min(len(allowed), rng.choice([0, 0, 1, 1, 2, 3])))
        if contract.bird and contract.bird != "any":
            chosen = [b for b in chosen if b.key != contract.bird]
            record["bonuses"] = [{"bonus": contract.bird, "team": "declarer", "announced": True, "made": rng.random() < 0.6}]
        elif contract.bird == "any":
            bird = rng.choice(["pagat", "uhu", "kakadu", "quapil"])
            chosen = [b for b in chosen if b.key != bird]
            record["bonuses"] = [{"bonus": bird, "team": "declarer", "announced": True, "made": rng.random() < 0.6}]
        else:
            record["bonuses"] = []
        record["bonuses"] += [_bonus(rng, b, active) for b in chosen]
        if "kontra" not in fields:
            for b in record["bonuses"]:
                b.pop("kontra", None)
    for spec in rs.record_fields:  # a ruleset's own fields: the called tarokk, declared tarokks …
        if spec.name not in fields or rng.random() < 0.3:
            continue
        if spec.kind == "flag":
            record[spec.name] = rng.random() < 0.1
        elif spec.kind == "choice":
            record[spec.name] = rng.choice(spec.choices).value
        elif rng.random() < 0.3:
            record[spec.name] = {str(rng.choice(active)): rng.choice(spec.choices).value}
    if rng.random() < 0.1:
        record["note"] = "Schiedsrichter"
    return record


def valid_record(rs, rng: random.Random) -> tuple[int, dict]:
    """A valid ``(table size, record)``: drawn until the ruleset accepts one."""
    for _ in range(500):
        size = rng.choice(rs.table_sizes)
        if rng.random() < 0.5:  # an evening's hand, as the ruleset draws them
            return size, rs.random_hand(random.Random(rng.getrandbits(32)), size, rng.randrange(size))
        record = draw_record(rs, size, rng.randrange(size), rng)
        if not rs.validate(record, size):
            return size, record
    raise AssertionError("no valid record in 500 draws")


def names_for(rng: random.Random, size: int) -> list[str]:
    return rng.sample(NAMES, size)


# ---------------------------------------------------------------------------------- properties


@pytest.mark.parametrize("key, edition, options", RULESETS, ids=IDS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), with_names=st.booleans())
def test_the_line_of_a_valid_record_scores_as_the_record(key, edition, options, rng, with_names):
    rs = get_ruleset(key, edition, options)
    size, record = valid_record(rs, rng)
    names = names_for(rng, size) if with_names else None
    line = rs.format_hand(record, size, names)
    back = rs.parse_hand(line, size, record["dealer"], names)
    assert rs.score(back, size) == rs.score(record, size), line
    assert back.get("note") == record.get("note")
    # The canonical line is a fixed point: the record read back prints the same line.
    assert rs.format_hand(back, size, names) == line


@pytest.mark.parametrize("key, edition, options", RULESETS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_a_bled_record_scores_the_same_after_any_history(key, edition, options, rng):
    """Where the row depends on the earlier hands (Bled radelci), the line still carries all of it."""
    rs = get_ruleset(key, edition, options)
    size, record = valid_record(rs, rng)
    history = []
    for _ in range(rng.randint(0, 4)):
        for _attempt in range(50):
            earlier = draw_record(rs, size, rng.randrange(size), rng)
            if not rs.validate(earlier, size):
                history.append(earlier)
                break
    back = rs.parse_hand(rs.format_hand(record, size), size, record["dealer"])
    assert rs.score(back, size, history) == rs.score(record, size, history)


def _vocabulary(rs) -> list[str]:
    words = ["+", "-", "x", "gs", "k", "re", "sub", "mort", "kontra", "#", "=", "--", "/", "!", "k2", "m1", "r3",
             "m:an", "r:zz", "k9", "0", "1", "2", "3", "4", "5", "9", "35/2", "70", "71", "99", "12/3", "-5", "=b",
             "an", "ka", "zz", "hpf", "dorn", "::", "é", "½", "4/1", "k:", "m", "r", "=5", "pag!zz"]
    for c in rs.contracts:
        words += [c.code, c.key, *c.aliases]
    for b in rs.bonuses:
        words += [b.code, f"/{b.code}!", f"{b.code}-", f"{b.code}!k", f"/{b.code}!re-", f"{b.code}2", f"{b.code}:an"]
    words += [code for code in rs.kontra_codes if code]
    for spec in rs.record_fields:
        words += [spec.code] if spec.kind == "flag" else [c.code + ("2" if spec.kind == "per_seat" else "") for c in spec.choices]
    return words


@pytest.mark.parametrize("key, edition, options", RULESETS, ids=IDS)
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_token_soup_is_parsed_or_refused_and_an_accepted_line_uses_every_token(key, edition, options, data):
    rs = get_ruleset(key, edition, options)
    size = data.draw(st.sampled_from(rs.table_sizes))
    dealer = data.draw(st.integers(0, size - 1))
    names = data.draw(st.one_of(st.none(), st.permutations(NAMES).map(lambda n: n[:size])))
    words = data.draw(st.lists(st.sampled_from(_vocabulary(rs)), min_size=0, max_size=8))
    if rs.contracts and data.draw(st.booleans()):  # most lines start with a contract
        words = [data.draw(st.sampled_from([c.code for c in rs.contracts]))] + words
    _check_tokens(rs, size, dealer, names, words)


@pytest.mark.parametrize("key, edition, options", RULESETS, ids=IDS)
@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False), data=st.data())
def test_a_valid_line_with_tokens_moved_or_added_is_refused_or_uses_every_token(key, edition, options, rng, data):
    rs = get_ruleset(key, edition, options)
    size, record = valid_record(rs, rng)
    names = names_for(rng, size) if rng.random() < 0.5 else None
    words = rs.format_hand({k: v for k, v in record.items() if k != "note"}, size, names).split()
    head, rest = words[:1], words[1:]
    rng.shuffle(rest)
    extra = data.draw(st.lists(st.sampled_from(_vocabulary(rs)), max_size=2))
    for word in extra:
        rest.insert(rng.randint(0, len(rest)), word)
    _check_tokens(rs, size, record["dealer"], names, head + rest)


def _check_tokens(rs, size, dealer, names, words):
    """``words`` as a line: refused with messages, or accepted, valid, and every word counts."""
    line = " ".join(words)
    try:
        record = rs.parse_hand(line, size, dealer, names)
    except InvalidHand as refused:
        assert refused.errors and all(isinstance(e, str) and e for e in refused.errors)
        return
    assert not rs.validate(record, size)
    if "#" in words:
        return  # everything after "#" is the note, a single piece of text
    for i in range(len(words)):
        if i == 0 and words[0] == "=" and rs.notation.rows_only:
            continue  # a ruleset that scores rows only reads a row without its "=" the same way
        shorter = " ".join(words[:i] + words[i + 1 :])
        try:
            other = rs.parse_hand(shorter, size, dealer, names)
        except InvalidHand:
            continue
        assert other != record, f"“{words[i]}” in {line!r} changed nothing"


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40))
def test_any_text_is_parsed_or_refused(text):
    for key in ("tiroler-tarockcup", "cego-ichenheim", "tarok-bled"):
        rs = get_ruleset(key)
        try:
            rs.parse_hand(text, rs.table_sizes[0], 0, NAMES[: rs.table_sizes[0]])
        except InvalidHand:
            pass


# ------------------------------------------------------------------------------ refusals by hand

TIROL, WTC, CEGO, BLED = "tiroler-tarockcup", "wiener-tarockcup", "cego-ichenheim", "tarok-bled"
FOUR = ["Anna Berger", "Karl Dorn", "Maria Egger", "Hans Falk"]

REFUSALS = [
    # koenigrufen.md §1 "Bonuses allowed per contract family": the negative contracts have none.
    (TIROL, 4, 0, None, "p 3 + pag", ["“pag”: Pagat is not allowed in a Piccolo."]),
    # §4: the Säcke are announced-only in 2019/20; a silent one is refused, not dropped.
    (TIROL, 5, 2, None, "r 4 5 + s1", ["1. Sack only counts when announced."]),
    # §1 Decision: only birds and König ultimo can fail silently; a failed silent Mondfang cannot.
    (TIROL, 5, 2, None, "r 4 5 + mf-", ["A silent Mondfang cannot fail: record the side that made it."]),
    # hand-record.md "bonus": each bonus key at most once per hand.
    (TIROL, 5, 2, None, "r 4 5 + pag! /pag!", ["“pag!” and “/pag!” both record the Pagat: a bonus is entered once."]),
    (TIROL, 4, 0, None, "d 2 + pag pag", ["“pag” is given twice."]),
    (TIROL, 4, 0, None, "d 2 + -", ["“+” and “-” both given."]),
    (TIROL, 4, 0, None, "d 5 +", ["“5”: there is no seat 5 at a table of 4."]),
    (TIROL, 4, 0, None, "d 2 3 +", ["“3” is one number too many for a Dreier."]),
    (TIROL, 4, 0, None, "d 2 + x", ["“x” is not allowed in a Dreier."]),
    # §1 "Conceding": a conceded hand is settled without a result.
    (TIROL, 4, 3, None, "r 1 + x", ["“+”: a conceded hand is neither won nor lost."]),
    # §1 "Renonce": silent bonuses and the result do not count beside it.
    (TIROL, 4, 2, None, "d 1 + pag r2", ["“+” does not count beside a Renonce: leave it out.",
                                         "“pag” does not count beside a Renonce: leave it out."]),
    # §4.2: card points to the Blatt, 0, 1 or 2, at most 70.
    (TIROL, 4, 3, None, "t 30 20 12/3 7/2", ["“12/3”: the Blatt after “/” is 0, 1 or 2."]),
    (TIROL, 4, 3, None, "t 71 0 0 0", ["“71” is more than 70 card points."]),
    (TIROL, 4, 3, None, "t 30 20 12 7 1", ["“1” is one number too many for a Trischaken."]),
    (TIROL, 4, 3, None, "t 30 20 12 + ", ["“+” is not allowed in a Trischaken."]),
    # Kontra, Re, Sub and Mord are recorded, never scored (§1; hand-record.md "kontra" 0..4),
    # Trischaken has none (§2.2 "No kontra"), and the Kontra is said by an opponent of the declarer;
    # who said it is a Kontra already, so a "k" beside it would count for nothing.
    (TIROL, 4, 3, None, "t 30 20 12 8 k", ["“k” is not allowed in a Trischaken."]),
    (TIROL, 4, 0, None, "d 2 + k2", ["seat 2 plays on the declarer's side: kontra is said by an opponent."]),
    (TIROL, 4, 0, None, "d 2 + k2 k3", ["“k2” and “k3” both given."]),
    (TIROL, 4, 0, None, "d 2 + k k3", ["“k”: “k3” records the Kontra already: leave it out."]),
    (TIROL, 4, 0, None, "d 2 + k re", ["“k” and “re” both given."]),
    # There is no Mondfang in the WTC (§2).
    (WTC, 4, 0, None, "d 2 + mf", ["“mf” is not a code of Wiener Tarockcup 2020."]),
    (TIROL, 4, 0, None, "so 1 +", ["“so” could be Solorufer (sr) / Solodreier (sd): type its code."]),
    (TIROL, 4, 0, None, "", ["Type a hand: its contract code first, e.g. “d 2 + pag!”."]),
    (TIROL, 4, 0, None, "d 2 + #", ["“#” must be followed by the note."]),
    (TIROL, 4, 0, None, "-- 3", ["“3”: a struck hand carries nothing but a note (# …)."]),
    (TIROL, 4, 0, None, "= 5 -15 5", ["A manual row needs 4 numbers, one per seat, not 3."]),
    (TIROL, 4, 0, None, "= 5 -15 5 6", ["The row does not sum to 0 (difference +1): a writing error."]),
    # Scores typed without the "=": the message says how a written row is entered.
    (TIROL, 4, 0, None, "5 -15 5 5", ["“5” is not a contract: a row of written scores starts with “=”, e.g. “= 5 -15 5 5”."]),
    (TIROL, 4, 0, None, "=d 5 -15 5 5", ["“=d”: a manual row names no contract in Tiroler Tarockcup 2019/20, it only counts its numbers."]),
    # Names: initials or a name prefix, an ambiguous one names the candidates.
    (TIROL, 4, 3, ["Anna Berger", "Anton Bauer", "Maria Egger", "Hans Falk"], "r ab 3 +",
     ["“ab” could be Anna Berger (1) / Anton Bauer (2): type more of the name or the seat number."]),
    (TIROL, 4, 3, FOUR, "r 1 zz +", ["“zz” is neither a code of Tiroler Tarockcup 2019/20 nor a player at this table."]),
    (TIROL, 4, 3, FOUR, "r 1 hf kd +", ["“kd” is one player too many for a Rufer."]),
    (TIROL, 4, 3, FOUR, "t hf", ["“hf”: a Trischaken names no declarer."]),
    # cego-ichenheim.md §1, §3: tables of 3, whole card points 0..70, Gegensolo only in the Cego games.
    (CEGO, 3, 0, None, "c 4 40", ["“4”: there is no seat 4 at a table of 3."]),
    (CEGO, 3, 2, None, "c 1 130", ["“130” is more than 70 card points."]),
    (CEGO, 3, 0, None, "el 2 48/1", ["“48/1”: Cego Ichenheim counts whole card points (no Blatt)."]),
    (CEGO, 3, 0, None, "s 2 40 gs", ["“gs” is not allowed in a Solo."]),
    (CEGO, 3, 0, None, "el 2 30 +", ["30 card points mean the Eine Leere was lost."]),
    (CEGO, 3, 0, None, "sdu 2 70", ["“70” is one number too many for a Solodu."]),
    (CEGO, 3, 0, None, "el 2 48 pag", ["“pag” is not a code of Cego Ichenheim."]),
    # tarok-bled.md §2, §3, §4, §6.
    (BLED, 3, 2, None, "t 1 80", ["“80” is more than 70 card points."]),
    (BLED, 3, 0, None, "t 3 40", ["Only forehand (seat 2) may play Trojka."]),
    (BLED, 3, 0, None, "d 2 40 k re", ["“k” and “re” both given."]),
    (BLED, 3, 2, None, "k 20 30 21 k", ["“k”: in a Klop write who said kontra, e.g. k2."]),
    (BLED, 3, 2, None, "k 20 30 21 m2", ["“m2” is not allowed in a Klop."]),
    (BLED, 3, 2, None, "k 20 30 21 k2 k3", ["“k2” and “k3” both given."]),
    (BLED, 3, 2, None, "k 20 30 30", ["The card points add up to 80; in Klop they come to 69, 70, 71 or 72."]),
    (BLED, 3, 0, None, "d 2 45 pag!x", ["“pag!x”: after “!” comes a kontra level (k, re, sub, mort) or nothing."]),
    (BLED, 3, 0, None, "d 2 45 tru!", []),  # accepted: an announced Trula
    (BLED, 3, 0, None, "d 2 45 tru k2", ["“k2” is not allowed in a Dvojko."]),
    (BLED, 3, 0, None, "b 2 40 -", ["“40” is one number too many for a Berač."]),
    (BLED, 3, 0, None, "d 2 45 m4", ["“m4”: there is no seat 4 at a table of 3."]),
    (BLED, 3, 0, None, "= 0 x 0", ["“x” is not a whole number: a manual row is the scores of every seat."]),
]


@pytest.mark.parametrize(
    "key, size, dealer, names, line, messages",
    REFUSALS,
    ids=[f"{r[0]} {r[4]!r}" for r in REFUSALS],
)
def test_refusals_name_the_token(key, size, dealer, names, line, messages):
    rs = get_ruleset(key)
    if not messages:
        rs.parse_hand(line, size, dealer, names)
        return
    with pytest.raises(InvalidHand) as refused:
        rs.parse_hand(line, size, dealer, names)
    assert [str(e) for e in refused.value.errors] == messages


# ------------------------------------------------------------------------- accepted, by hand


@pytest.mark.parametrize(
    "key, size, dealer, names, line, row",
    [
        # koenigrufen.md §1, §4: Dreier 5 + announced Pagat 2 = 7 per opponent.
        (TIROL, 4, 0, None, "d 2 + pag!", [-7, 21, -7, -7]),
        (TIROL, 4, 0, None, "D 2 + PAG!", [-7, 21, -7, -7]),  # case does not matter
        (TIROL, 4, 0, None, "d 2 \u2013", [5, -15, 5, 5]),  # an en dash typed for "-" (lost)
        # Rufer by Vorhand (seat 1 after dealer seat 4) with the partner named by initials: lost, −1 each.
        (TIROL, 4, 3, FOUR, "r 1 hf -", [-1, 1, 1, -1]),
        (TIROL, 4, 3, FOUR, "r berger egger +", [1, -1, 1, -1]),
        # Königrufen has no Gegensolo: "gs" is Georg Stadler; "re" is its rekontra (§1), so Renate
        # Egger is named by more letters. The kontra never changes the row.
        (TIROL, 4, 3, ["Renate Egger", "Georg Stadler", "Maria Huber", "Hans Falk"], "r ren gs + re", [1, 1, -1, -1]),
        (TIROL, 4, 0, None, "d 2 + k3", [-5, 15, -5, -5]),
        (TIROL, 4, 0, None, "d 2 + mort k3", [-5, 15, -5, -5]),  # a Mord said to it (hand-record.md 0..4)
        # §1 "Conceding": Rufer alone, conceded: −1 × 3 for the declarer.
        (TIROL, 4, 3, None, "r 1 x", [-3, 1, 1, 1]),
        # §4.2 step 1: Renonce in Trischaken, offender −12, the others +4.
        (TIROL, 4, 3, None, "t r2", [4, -12, 4, 4]),
        # §4.2 step 2: Vorhand (seat 1) has the most: pays 6, 2 to each other.
        (TIROL, 4, 3, None, "t 30 20 12/1 7/2", [-6, 2, 2, 2]),
        # W20 §2.2: Vorhand loses the pot of 12 (doubled for Vorhand), 4 to each.
        (WTC, 4, 3, None, "t 30 20 12/1 7/2", [-12, 4, 4, 4]),
        # cego-ichenheim.md §3: Eine Leere p = 48 → B 3 × f 3 = 9 per defender.
        (CEGO, 3, 0, None, "el 2 48", [-9, 18, -9]),
        (CEGO, 3, 0, None, "eine_leere 2 48", [-9, 18, -9]),
        # Eine against a Solo, p = 30 → B 2 × (2 + 1) = 6, lost.
        (CEGO, 3, 0, None, "e 3 30 gs", [6, 6, -12]),
        # tarok-bled.md §3: Dvojko 20 + 10 difference, kontra ×2 = 60; seat 3's Mond −21.
        (BLED, 3, 0, None, "d 2 45 k m3", [0, 60, -21]),
        (BLED, 3, 0, None, "2 2 45 k m3", [0, 60, -21]),  # today's digit codes carry over
        # "k" first is Klop, later the kontra; "kr" is Kralji: Trojka 10 + 5 + Kralji 10 = 25.
        (BLED, 3, 2, None, "3 1 40 kr", [25, 0, 0]),
        (BLED, 3, 2, None, "3 1 40 k", [30, 0, 0]),
        # §4: kontra by seat 2 (30 points, the most): he loses 60, the others their points.
        (BLED, 3, 2, None, "k 20 30 21 k2", [-20, -60, -21]),
        (BLED, 3, 0, None, "=b 0 -140 0", [0, -140, 0]),
        (TIROL, 4, 0, None, "-- # Karten falsch gegeben", [0, 0, 0, 0]),
    ],
)
def test_accepted_lines_score_as_the_rules_say(key, size, dealer, names, line, row):
    rs = get_ruleset(key)
    record = rs.parse_hand(line, size, dealer, names)
    assert rs.score(record, size) == row


def test_a_code_wins_over_a_name_and_format_never_writes_a_clashing_name():
    """tarok-bled.md: "kr" is Kralji; a player whose initials are "kr" is named by seat or more letters."""
    rs = get_ruleset(BLED)
    names = ["Kristina Rupnik", "Jure Novak", "Ana Kos"]
    record = rs.parse_hand("t 1 40 kr", 3, 2, names)
    assert record["bonuses"] == [{"bonus": "kralji", "team": "declarer", "announced": False, "made": True}]
    assert rs.parse_hand("t kri 40", 3, 2, names)["declarer"] == 0
    assert rs.format_hand({"dealer": 2, "contract": "trojka", "declarer": 0, "declarer_points": 40}, 3, names) == "t 1 40"
    assert rs.format_hand({"dealer": 0, "contract": "dvojko", "declarer": 1, "declarer_points": 40}, 3, names) == "d jn 40"


def test_every_example_of_every_ruleset_is_valid_and_round_trips():
    for key, edition, options in RULESETS:
        rs = get_ruleset(key, edition, options)
        assert len(rs.notation_examples()) == len(rs.notation_example_hands)
        for size, record in rs.notation_examples():
            line = rs.format_hand(record, size)
            assert rs.score(rs.parse_hand(line, size, record["dealer"]), size) == rs.score(record, size)


def test_names_with_letters_of_their_own_are_read_as_typed_plain():
    """A seat named by its initials or the start of the name, as the register's search finds it:
    "dd" or "duk" is Đorđe Đukić, "lu" Łukasz."""
    from variants.notation import fold, initials, matches

    assert fold("Đukić Łukasz Ørsted") == "dukic lukasz orsted"
    assert initials("Đorđe Đukić") == "dd"
    assert matches("duk", ["Anna Huber", "Đorđe Đukić", "Łukasz Nowak"]) == [1]
