"""Random hand records for demos, benchmarks and tests (:meth:`variants.base.Ruleset.random_hand`).

Pure Python, no Django. Each generator builds hand records in the shape of ``hand-record.md`` from
the ``random.Random`` passed in (a seed reproduces the same hands); the ruleset's ``random_hand``
checks each with ``validate`` and draws a rare rejected one again.

- :func:`catalogue_hand`: any ruleset, from its catalogue alone (every field a contract uses);
- :func:`koenigrufen_hand`: what a Tirol cup sheet looks like (``koenigrufen.md``): mostly Rufer,
  then Dreier, Trischaken and the negative contracts, a few Besserrufer, Farbendreier and
  Sechserdreier, the occasional solo or ouvert contract and a Valat about once in 150 hands;
- :func:`cego_hand`: an Ichenheim Cego evening (``cego-ichenheim.md``);
- :func:`bled_hand`: a Bled round with Klop, radelci, kontra and the Mond (``tarok-bled.md``).
"""

from __future__ import annotations

import random

from .cardpoints import WHOLE_PACK_THIRDS, format_thirds

__all__ = ["catalogue_hand", "koenigrufen_hand", "cego_hand", "bled_hand", "random_round"]

MAYOR_THIRDS = 3 * 35 + 2  # "35/2", koenigrufen.md §4.2
MIN_TRICK_THIRDS = 4  # one trick of four blank cards is 4/3 points

# Share of each contract in a Tirol cup evening (weights, roughly per cent).
CONTRACT_WEIGHTS: dict[str, float] = {
    "rufer": 45.0,
    "dreier": 20.0,
    "trischaken": 8.0,
    "piccolo": 6.0,
    "bettler": 4.0,
    "besserrufer": 3.0,
    "farbendreier": 3.0,
    "sechserdreier": 3.0,
    "solorufer": 2.0,
    "solodreier": 1.5,
    "farbensolo": 1.0,
    "piccolo_ouvert": 1.0,
    "bettler_ouvert": 1.0,
    "zwiccolo_ouvert": 0.5,
    # Wiener Tarockcup contracts, should the generator be used with that ruleset.
    "zwiccolo": 1.0,
    "pagatrufer": 2.0,
    "uhurufer": 0.8,
    "kakadurufer": 0.4,
    "quapilrufer": 0.2,
}
DEFAULT_CONTRACT_WEIGHT = 0.5

# Probability that the declarer's side fulfils the contract.
WIN_RATES: dict[str, float] = {
    "rufer": 0.65,
    "besserrufer": 0.60,
    "solorufer": 0.60,
    "dreier": 0.55,
    "sechserdreier": 0.50,
    "farbendreier": 0.60,
    "solodreier": 0.55,
    "farbensolo": 0.60,
}
FAMILY_WIN_RATES = {"king_call": 0.62, "dreier": 0.55, "colour": 0.60, "negative": 0.60}

PARTNER_IN_TALON = 0.05  # the called king lay in the talon: the declarer plays alone
CONCEDE_WHEN_ALONE = 0.4  # ... and then gives the game up (schleifen) this often

# Per hand (of a contract that allows the bonus): probability of a silent and of an announced bonus.
BONUS_RATES: dict[str, tuple[float, float]] = {
    "pagat": (0.10, 0.04),
    "uhu": (0.03, 0.012),
    "kakadu": (0.015, 0.006),
    "quapil": (0.008, 0.003),
    "koenig_ultimo": (0.06, 0.01),
    "mondfang": (0.03, 0.004),
    "trull": (0.07, 0.02),
    "vier_koenige": (0.05, 0.015),
    "sack1": (0.0, 0.012),
}
SACK2_AFTER_SACK1 = 0.25
BONUS_ORDER = (*BONUS_RATES, "sack2")
BIRDS = ("pagat", "uhu", "kakadu", "quapil")
BESSERRUFER_BIRDS = (("pagat", 60), ("uhu", 25), ("kakadu", 10), ("quapil", 5))
SACKS = ("sack1", "sack2")

# About one hand in 150 is a Valat; the negative contracts and Trischaken (about 20 % of hands)
# cannot have one, so the rate among the others is a little higher.
VALAT_RATE = 1 / 120
# (announced, team, made) -> weight
VALAT_KINDS = (
    ((False, "declarer", True), 70),
    ((True, "declarer", True), 15),
    ((True, "declarer", False), 9),
    ((False, "opponents", True), 6),
)


def _weighted(rng: random.Random, items):
    """Pick from ``(item, weight)`` pairs."""
    items = list(items)
    return rng.choices([item for item, _ in items], weights=[w for _, w in items], k=1)[0]


def _contract_weights(ruleset) -> list[tuple[object, float]]:
    return [
        (contract, CONTRACT_WEIGHTS.get(contract.key, DEFAULT_CONTRACT_WEIGHT))
        for contract in ruleset.contracts
    ]


def _win_rate(contract) -> float:
    return WIN_RATES.get(contract.key, FAMILY_WIN_RATES.get(contract.family, 0.6))


def _can_fail_silently(bonus) -> bool:
    """Birds and König ultimo: a silent one recorded as failed was played to its trick and beaten."""
    flag = getattr(bonus, "can_fail_silently", None)
    if flag is not None:
        return bool(flag)
    return bonus.key in BIRDS or bonus.key == "koenig_ultimo"


def _bonus(key: str, team: str, announced: bool, made: bool) -> dict:
    return {"bonus": key, "team": team, "announced": announced, "made": made}


# --------------------------------------------------------------------------------------------------
# Trischaken


def _trischaken_card_points(seats: list[int], rng: random.Random) -> dict[str, str]:
    """Card points of the active seats: realistic splits of 70 points, no three-way tie."""
    while True:
        roll = rng.random()
        virgins = 0 if roll < 0.90 else (1 if roll < 0.99 else 2)
        order = list(seats)
        rng.shuffle(order)
        jungfrauen, players = order[:virgins], order[virgins:]
        thirds = {seat: 0 for seat in jungfrauen}
        remaining = WHOLE_PACK_THIRDS
        if rng.random() < 0.05:  # a clear loser, often a mayor (at least 35/2)
            mayor = players.pop(0)
            thirds[mayor] = rng.randint(MAYOR_THIRDS - 12, 150)
            remaining -= thirds[mayor]
        # everyone who took a trick has at least one trick's worth; the rest split unevenly
        weights = [rng.gammavariate(4.0, 1.0) for _ in players]
        spare = remaining - MIN_TRICK_THIRDS * len(players)
        shares = [int(spare * w / sum(weights)) for w in weights]
        shares[rng.randrange(len(shares))] += spare - sum(shares)
        for seat, share in zip(players, shares):
            thirds[seat] = MIN_TRICK_THIRDS + share
        values = list(thirds.values())
        if sum(values) != WHOLE_PACK_THIRDS or any(values.count(v) >= 3 for v in values):
            continue  # a three-way tie needs a manual row (koenigrufen.md §4.2): draw again
        return {str(seat): format_thirds(thirds[seat]) for seat in seats}


# --------------------------------------------------------------------------------------------------
# Bonuses


def _sides(contract, partner) -> str:
    return "2v2" if contract.king_call and partner is not None else "1v3"


def _silent_team(key: str, sides: str, rng: random.Random) -> str:
    if key == "koenig_ultimo":
        return "declarer"  # the called king is the partner's
    declarer_share = 0.5 if sides == "2v2" else 0.4
    return "declarer" if rng.random() < declarer_share else "opponents"


def _random_bonuses(ruleset, contract, partner, won: bool, rng: random.Random) -> list[dict]:
    allowed = {bonus.key: bonus for bonus in ruleset.allowed_bonuses(contract.key)}
    sides = _sides(contract, partner)
    bonuses: dict[str, dict] = {}

    # A bird caller or Besserrufer names its bird: an announced bonus of the declarer's team.
    bird = getattr(contract, "bird", None)
    if bird == "any":
        candidates = [(b, w) for b, w in BESSERRUFER_BIRDS if b in allowed]
        bird = _weighted(rng, candidates) if candidates else None
    if bird is not None:
        bonuses[bird] = _bonus(bird, "declarer", True, rng.random() < 0.6)

    for key in BONUS_ORDER:
        p_silent, p_announced = BONUS_RATES.get(key, (0.0, 0.0))
        if key in bonuses or key not in allowed:
            continue
        if key == "koenig_ultimo" and partner is None:
            continue  # König ultimo needs a called king in play
        definition = allowed[key]
        if key == "sack2":
            # announced only on top of the 1. Sack, by the same team; 55/2 contains 45/2
            sack1 = bonuses.get("sack1")
            if sack1 is not None and rng.random() < SACK2_AFTER_SACK1:
                bonuses[key] = _bonus(key, sack1["team"], True, sack1["made"] and rng.random() < 0.5)
            continue
        roll = rng.random()
        if roll < p_announced:
            team = "declarer" if rng.random() < 0.75 else "opponents"
            if key == "koenig_ultimo":
                team = "declarer"
            made = rng.random() < 0.65
            if key == "sack1":  # 45/2 card points: only the side that wins the game gets there
                made = ((team == "declarer") == won) and rng.random() < 0.75
            bonuses[key] = _bonus(key, team, True, made)
        elif roll < p_announced + p_silent and definition.silent is not None:
            made = rng.random() < 0.6 if _can_fail_silently(definition) else True
            bonuses[key] = _bonus(key, _silent_team(key, sides, rng), False, made)
    return _consistent_sacks(list(bonuses.values()), won)


def _consistent_sacks(bonuses: list[dict], won: bool) -> list[dict]:
    """A Sack is at least 45/2 (55/2) card points: only the side that won the game can make one."""
    winners = "declarer" if won else "opponents"
    made_sack1 = {}
    result = []
    for b in bonuses:
        key = b["bonus"]
        if key in SACKS and b["made"]:
            # the 2. Sack (55/2) contains the 1. (45/2)
            possible = b["team"] == winners and (key == "sack1" or made_sack1.get(b["team"], False))
            if not possible:
                b = dict(b, made=False)
        if b["bonus"] == "sack1":
            made_sack1[b["team"]] = b["made"]
        result.append(b)
    return result


def _add_valat(ruleset, contract, bonuses: list[dict], won: bool, rng: random.Random):
    """Maybe turn the hand into a Valat; return ``(bonuses, won)``."""
    allowed = {bonus.key for bonus in ruleset.allowed_bonuses(contract.key)}
    if "valat" not in allowed or rng.random() >= VALAT_RATE:
        return bonuses, won
    announced, team, made = _weighted(rng, VALAT_KINDS)
    if not made:  # an announced Valat that went off: the game may still be won
        won = rng.random() < 0.7
        valat = _bonus("valat", team, announced, made)
        kept = [b for b in bonuses if not (b["announced"] and b["bonus"] in ("trull", "vier_koenige"))]
        return _consistent_sacks(kept, won) + [valat], won
    # A made Valat: one side took every trick. The other side achieved nothing, the winning side
    # lost no bird, and material bonuses are part of the Valat (only announced ones stay on record).
    won = team == "declarer"
    material = {"trull", "vier_koenige", "sack1", "sack2"}
    kept = []
    for b in bonuses:
        if b["team"] != team:
            if b["announced"]:
                kept.append(dict(b, made=False))  # the losing side's announcements failed
            continue
        if b["bonus"] in material and not b["announced"]:
            continue
        if announced and b["announced"] and b["bonus"] in ("trull", "vier_koenige"):
            continue  # not announced next to an announced Valat (W20)
        kept.append(dict(b, made=True))
    return kept + [_bonus("valat", team, announced, True)], won


# --------------------------------------------------------------------------------------------------
# Hands


def koenigrufen_hand(ruleset, table_size: int, dealer: int, rng: random.Random) -> dict:
    """One Königrufen hand of a Tirol cup evening's mix (see the module docstring)."""
    seats = ruleset.active_seats(dealer, table_size)
    first = seats[0]
    contract = _weighted(rng, _contract_weights(ruleset))

    if contract.trischaken:
        return {
            "dealer": dealer,
            "contract": contract.key,
            "declarer": first,
            "card_points": _trischaken_card_points(seats, rng),
        }

    declarer = first if contract.vorhand_only else rng.choice(seats)
    hand = {"dealer": dealer, "contract": contract.key, "declarer": declarer}

    partner = None
    if contract.king_call:
        if rng.random() >= PARTNER_IN_TALON:
            partner = rng.choice([seat for seat in seats if seat != declarer])
        hand["partner"] = partner
        if partner is None and contract.has_talon and rng.random() < CONCEDE_WHEN_ALONE:
            hand["won"] = False
            hand["conceded"] = True
            bird = contract.bird
            if bird == "any":
                bird = _weighted(rng, BESSERRUFER_BIRDS)
            hand["bonuses"] = [_bonus(bird, "declarer", True, False)] if bird else []
            return hand

    won = rng.random() < _win_rate(contract)
    bonuses = [] if contract.negative else _random_bonuses(ruleset, contract, partner, won, rng)
    if not contract.negative:
        bonuses, won = _add_valat(ruleset, contract, bonuses, won, rng)
    hand["won"] = won
    hand["bonuses"] = bonuses
    return hand


# A Cego evening at Ichenheim (cego-ichenheim.md §2): mostly Vorhand's Cego and the small Cego
# games, a fair share of Solos, Gegensolo now and then, Ulti and Solodu rarely.
CEGO_WEIGHTS = {
    "cego": 38.0,
    "eine": 14.0,
    "eine_leere": 9.0,
    "zwei_leere": 6.0,
    "zwei_verschiedene": 4.0,
    "geiss": 2.5,
    "solo": 22.0,
    "ulti": 3.0,
    "solodu": 0.5,
    "piccolo": 1.0,
    "bettel": 1.0,
}


def cego_hand(ruleset, table_size: int, dealer: int, rng: random.Random) -> dict:
    """One Cego hand: the declarer's card points decide the game (won from 36, cego-ichenheim.md §3)."""
    seats = [(dealer + 1 + i) % table_size for i in range(table_size)]
    active = [s for s in seats if s != ruleset.sitting_out(dealer, table_size)]
    contract = _weighted(rng, [(c, CEGO_WEIGHTS.get(c.key, 0.5)) for c in ruleset.contracts if c.family != "raeuber"])
    hand: dict = {"dealer": dealer, "contract": contract.key}
    against_solo = contract.family == "cego" and rng.random() < 0.12
    hand["declarer"] = active[0] if contract.vorhand_only and not against_solo else rng.choice(active)
    if against_solo:
        hand["against_solo"] = True
    if contract.family in ("cego", "solo"):
        won = rng.random() < (0.62 if contract.family == "cego" else 0.55)
        if rng.random() < 0.01:
            points = 70 if won else 0  # one side took every trick
        else:
            points = rng.randint(36, 66) if won else rng.randint(8, 35)
        hand["declarer_points"] = points
    else:
        hand["won"] = rng.random() < (0.5 if contract.family in ("ulti", "solodu") else 0.6)
    return hand


# A Bled round (tarok-bled.md §2): mostly Trojka from forehand and the small games, Klop when
# everyone passes, Berač and Solo now and then — enough of them to put radelci into play.
BLED_WEIGHTS = {"klop": 12.0, "trojka": 30.0, "dvojko": 24.0, "enojko": 16.0, "berac": 7.0, "solo": 5.0}


def bled_hand(ruleset, table_size: int, dealer: int, rng: random.Random) -> dict:
    """One Bled hand: card points decide normal games and Solo (won above 35, tarok-bled.md §3);
    Klop splits 70–72 card points (§4); kontra, bonuses and the Mond penalty appear now and then."""
    active = ruleset.active_seats(dealer, table_size)
    contract = _weighted(rng, [(c, BLED_WEIGHTS[c.key]) for c in ruleset.contracts])
    hand: dict = {"dealer": dealer, "contract": contract.key}
    if contract.key == "klop":
        total = rng.choice((70, 71, 72))
        first, second = rng.randint(4, 34), rng.randint(4, 34)
        points = [first, second, total - first - second]  # now and then a full (35+) or empty player
        if points[2] < 0:
            points = [first, total - first, 0]
        hand["card_points"] = {str(s): p for s, p in zip(active, points)}
        if rng.random() < 0.2:
            hand["kontra_by"] = rng.choice(active)
        return hand
    hand["declarer"] = active[0] if contract.vorhand_only else rng.choice(active)
    if rng.random() < 0.08:
        hand["kontra"] = 1 if rng.random() < 0.85 else 2
    if contract.key == "berac":
        hand["won"] = rng.random() < 0.6
        return hand
    won = rng.random() < 0.62
    if rng.random() < 0.015:
        hand["declarer_points"] = 70 if won else 0  # a valat
        return hand
    hand["declarer_points"] = rng.randint(36, 62) if won else rng.randint(10, 35)
    defenders = [s for s in active if s != hand["declarer"]]
    if rng.random() < 0.06:
        hand["mond_lost_by"] = rng.choice(defenders + [hand["declarer"]])
    if contract.family == "normal":
        bonuses = []
        for key, chance in (("trula", 0.08), ("kralji", 0.06), ("pagat_ultimo", 0.05)):
            if rng.random() < chance:
                announced = rng.random() < 0.3
                team = "declarer" if rng.random() < 0.7 else "opponents"
                made = rng.random() < 0.75 or (not announced and key != "pagat_ultimo")
                bonuses.append({"bonus": key, "team": team, "announced": announced, "made": made})
        if bonuses:
            hand["bonuses"] = bonuses
    return hand


def random_round(ruleset, table_size: int, first_dealer: int, hands: int, rng: random.Random) -> list[dict]:
    """The hands of one table's round; the dealer of hand ``k`` is ``(first_dealer + k - 1) % n``."""
    return [
        ruleset.random_hand(rng, table_size, (first_dealer + k - 1) % table_size)
        for k in range(1, hands + 1)
    ]


def catalogue_hand(ruleset, rng: random.Random, table_size: int, dealer: int) -> dict:
    """A hand drawn from the ruleset's catalogue alone: a contract, then every field it uses
    (``fields``) with a plausible value, now and then a manual or struck row. Not always valid:
    :meth:`variants.base.Ruleset.random_hand` draws until the ruleset accepts one."""
    active = ruleset.active_seats(dealer, table_size)
    roll = rng.random()
    if roll < 0.02:
        return {"dealer": dealer, "outcome": "struck", "note": "demo"}
    if roll < 0.05 or not ruleset.contracts:  # free scoring has written rows only
        scores = [rng.randint(-20, 20) for _ in range(table_size)]
        out = ruleset.sitting_out(dealer, table_size)
        if out is not None and not ruleset.sitting_out_pays:
            scores[out] = 0
        if ruleset.zero_sum:
            scores[active[0]] -= sum(scores)
        return {"dealer": dealer, "outcome": "manual", "scores": scores}
    contract = rng.choice(ruleset.contracts)
    fields = ruleset.fields(contract)
    hand: dict = {"dealer": dealer, "contract": contract.key}
    if "declarer" in fields:
        hand["declarer"] = active[0] if contract.vorhand_only else rng.choice(active)
    if "partner" in fields:
        hand["partner"] = rng.choice([None, *[s for s in active if s != hand.get("declarer")]])
    if "won" in fields:
        hand["won"] = rng.random() < 0.55
    if "declarer_points" in fields:
        hand["declarer_points"] = rng.randint(10, 60)
    if "card_points" in fields:
        cuts = sorted(rng.randint(0, 70) for _ in range(len(active) - 1))
        hand["card_points"] = {str(s): b - a for s, a, b in zip(active, [0, *cuts], [*cuts, 70])}
    if "bonuses" in fields:
        allowed = ruleset.allowed_bonuses(contract.key)
        chosen = rng.sample(list(allowed), k=min(len(allowed), rng.choice([0, 0, 1])))
        hand["bonuses"] = [
            {"bonus": b.key, "team": "declarer", "announced": b.announced_only, "made": True} for b in chosen
        ]
    return hand
