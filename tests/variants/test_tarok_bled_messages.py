"""Every validation message of Tarok Bled (``tarok-bled.md`` §6), each by a hand that earns it.

The scorer reads these messages (translated, with player names); each case names the rule it
enforces and asserts the exact message the ruleset gives, so a message cannot silently disappear
or change its meaning. Seats 0..2; dealer 2 makes seat 0 forehand.
"""

import pytest

from variants import get_ruleset

RS = get_ruleset("tarok-bled")


def g(contract="dvojko", declarer=0, points=40, **extra):
    return {"dealer": 2, "contract": contract, "declarer": declarer, "declarer_points": points, **extra}


def klop(points=(20, 30, 20), **extra):
    return {"dealer": 2, "contract": "klop", "card_points": {str(s): p for s, p in enumerate(points)}, **extra}


def b(key, team="declarer", announced=True, made=True, **extra):
    return {"bonus": key, "team": team, "announced": announced, "made": made, **extra}


CASES = [
    # §6 contracts and declarers
    (g("trojka", declarer=1), 3, "Only forehand (%(vorhand_seat)s) may play %(contract)s."),
    (klop(declarer=1), 3, "Klop has no declarer; forehand (%(vorhand_seat)s) chooses it."),
    ({"dealer": 2, "contract": "dvojko", "declarer_points": 40}, 3, "The %(role)s is missing."),
    # §6 card points of normal games and Solo
    ({"dealer": 2, "contract": "solo", "declarer": 0}, 3, "Enter the declarer's card points (0 to 70)."),
    (g(points=71), 3, "The declarer's card points must be a whole number from 0 to 70, not “%(value)s”."),
    (g(points="35/1"), 3, "The declarer's card points must be a whole number from 0 to 70, not “%(value)s”."),
    (g(points=30, won=True), 3, "%(points)s card points mean the %(contract)s was %(result)s."),
    (g("solo", points=36, won=False), 3, "%(points)s card points mean the %(contract)s was %(result)s."),
    (g(won="yes"), 3, "“Won” must be true or false."),
    # §6 Bera: won only
    ({"dealer": 2, "contract": "berac", "declarer": 1}, 3, "Say whether the Berač was won or lost."),
    ({"dealer": 2, "contract": "berac", "declarer": 1, "won": True, "declarer_points": 0}, 3,
     "A Berač is won or lost by tricks: enter no card points."),
    ({"dealer": 2, "contract": "berac", "declarer": 1, "won": True, "mond_lost_by": 0}, 3,
     "There is no Mond penalty in a Berač."),
    # §6 bonuses only in normal games, once each, valat alone
    (g("solo", bonuses=[b("trula")]), 3, "There are no bonuses in %(contract)s."),
    ({"dealer": 2, "contract": "berac", "declarer": 1, "won": True, "bonuses": [b("trula")]}, 3,
     "There are no bonuses in %(contract)s."),
    (klop(bonuses=[b("trula")]), 3, "There are no bonuses in %(contract)s."),
    (g(bonuses=[b("trula"), b("trula", "opponents")]), 3, "%(bonus)s is recorded twice."),
    (g(bonuses=[b("sack1")]), 3, "Unknown bonus “%(bonus)s” in %(ruleset)s."),
    (g(bonuses=[{"bonus": "trula", "team": "both", "announced": True, "made": True}]), 3,
     "%(bonus)s needs a team (declarer or opponents), announced and made."),
    (g(bonuses="trula"), 3, "Bonuses must be a list of bonus entries."),
    (g(points=70, bonuses=[b("valat"), b("trula")]), 3,
     "A valat replaces the game and the other bonuses: record no other bonus with it."),
    (g(points=70, bonuses=[b("kralji", announced=False)]), 3,
     "%(points)s card points are a valat, which replaces the bonuses: record no bonus."),
    # §3 valat and the card points
    (g(points=30, bonuses=[b("valat")]), 3,
     "A valat made by the declarer leaves him 36 to 70 card points, not %(points)s: correct them or leave them out."),
    (g(points=40, bonuses=[b("valat", "opponents")]), 3,
     "A valat made by the opponents leaves the declarer 0 to 34 card points, not %(points)s: correct them or leave them out."),
    ({"dealer": 2, "contract": "dvojko", "declarer": 0, "won": False, "bonuses": [b("valat", announced=False)]}, 3,
     "A valat made by the declarer means the %(contract)s was won."),
    ({"dealer": 2, "contract": "dvojko", "declarer": 0, "won": True, "bonuses": [b("valat", "opponents", announced=False)]}, 3,
     "A valat made by the opponents means the %(contract)s was lost."),
    ({"dealer": 2, "contract": "solo", "declarer": 0, "bonuses": [b("valat")]}, 3,
     "In a Solo a valat is recorded only as made and silent: a Solo has no announcements."),
    (g(points=70, bonuses=[b("valat", made=False)]), 3, "70 card points are a valat made, not failed."),
    (g(points=0, bonuses=[b("valat", "opponents", made=False)]), 3,
     "0 card points mean the opponents' valat was made, not failed."),
    (g(points=70, bonuses=[b("valat", kontra=1)]), 3, "A valat is doubled by the kontra on the game, not on its own."),
    # §6 kontra
    (g(kontra=5), 3, "The kontra level must be 0 to 4 (kontra, re, sub, mort)."),
    (g(bonuses=[b("trula", kontra=5)]), 3, "The kontra on %(bonus)s must be 0 to 4."),
    (g(bonuses=[b("trula", announced=False, kontra=1)]), 3,
     "Only an announced bonus can be kontra'd, not a silent %(bonus)s."),
    (g(bonuses=[b("kralji", announced=False, made=False)]), 3,
     "A silent %(bonus)s cannot fail: record it only when it was made."),
    (g(kontra_by=1), 3, "“Kontra by” belongs to Klop; record the kontra level of %(contract)s instead."),
    # §4 and §6 Klop
    (klop(kontra=1), 3, "In Klop the kontra level stays 0: record who said kontra instead."),
    (klop(mond_lost_by=1), 3, "There is no Mond penalty in Klop."),
    (klop(won=True), 3, "Klop records every player's card points, not a declarer's result."),
    ({"dealer": 2, "contract": "klop"}, 3, "Klop needs the card points of every active player."),
    (klop((20, 30)), 3, "Klop needs the card points of exactly the active players."),
    ({"dealer": 3, "contract": "klop", "card_points": {"0": 20, "1": 30, "2": 10, "3": 10}}, 4,
     "Klop needs the card points of exactly the active players."),  # the resting dealer plays no Klop
    (klop((20, 30, 18)), 3, "The card points add up to %(total)s; in Klop they come to 69, 70, 71 or 72."),
    (klop((20, 30, "x")), 3, "Card points must be whole numbers from 0 to 70 per player, not “%(value)s”."),
    (klop(kontra_by=3), 3, "The %(role)s must be a seat from 0 to %(last)s."),
    (g(card_points={"0": 40}), 3, "Only Klop records every player's card points."),
    # §6 Mond: an active player; the resting dealer of a 4-table is none
    (g(mond_lost_by=7), 3, "The %(role)s must be a seat from 0 to %(last)s."),
    ({"dealer": 3, "contract": "dvojko", "declarer": 0, "declarer_points": 40, "mond_lost_by": 3}, 4,
     "%(seat)s deals and sits out this hand and cannot be %(role)s."),
    # hand-record.md: what Bled does not have
    (g(partner=1), 3, "Slovenian Tarok has no partner: the declarer plays alone."),
    (g(revoke=1), 3, "Tarok Bled has no revoke settlement: enter a manual row agreed by the tournament director."),
    (g(against_solo=True), 3, "“Against a Solo” is a Cego field."),
    (g(conceded=True), 3, "Tarok Bled has no conceding."),
    (g("skis"), 3, "Unknown contract “%(contract)s” in %(ruleset)s."),
    # manual rows: any sum (declarer-only), but one number per seat and 0 for the resting dealer
    ({"dealer": 2, "outcome": "manual", "scores": [10, 0]}, 3, "A manual row needs %(size)s whole numbers, one per seat."),
    ({"dealer": 3, "outcome": "manual", "scores": [10, 0, 0, 5]}, 4, "The dealer %(seat)s sits out this hand and must score 0."),
]


@pytest.mark.parametrize(("hand", "size", "msgid"), CASES, ids=[c[2][:60] for c in CASES])
def test_each_message(hand, size, msgid):
    assert msgid in [p.msgid for p in RS.validate(hand, size)]


# Messages that only a tournament's options give: (options, hand, size, msgid).
OPTION_CASES = [
    # §3 option solo_difference: a Solo's valat still needs the card points for the difference
    ({"solo_difference": True}, {"dealer": 2, "contract": "solo", "declarer": 0, "bonuses": [b("valat", announced=False)]}, 3,
     "A Solo scores 80 plus the difference in this tournament: enter the declarer's card points with the valat."),
]


@pytest.mark.parametrize(("options", "hand", "size", "msgid"), OPTION_CASES, ids=[c[3][:60] for c in OPTION_CASES])
def test_each_option_message(options, hand, size, msgid):
    assert msgid in [p.msgid for p in get_ruleset("tarok-bled", options=options).validate(hand, size)]
    assert msgid not in [p.msgid for p in RS.validate(hand, size)]


def test_every_message_of_the_ruleset_is_exercised():
    """Each message the Bled validator can give has a case above (its source is read for them)."""
    import pathlib
    import re

    source = pathlib.Path(__file__).parents[2].joinpath("variants", "bled.py").read_text(encoding="utf-8")
    added = set(re.findall(r'self\.add\(\s*_\("((?:[^"\\]|\\.)*)"\)', source))
    assert added  # the pattern still finds them
    assert added <= {c[2] for c in CASES} | {c[3] for c in OPTION_CASES}


@pytest.mark.parametrize(
    ("hand", "size"),
    [
        (g(points=70, bonuses=[b("valat")]), 3),
        (g(points=0), 3),
        (klop((35, 35, 0), kontra_by=2), 3),
        ({"dealer": 2, "outcome": "manual", "scores": [55, 0, -21]}, 3),  # not zero-sum
        ({"dealer": 1, "contract": "trojka", "declarer": 2, "declarer_points": 36}, 3),
    ],
)
def test_valid_edge_cases_give_no_message(hand, size):
    assert RS.validate(hand, size) == []


def test_a_refused_stored_hand_in_the_history_gives_no_radelci():
    """A stored hand the ruleset now refuses (``manage.py recompute`` reports it) neither crashes
    the later hands' scoring nor hands out radelci; the Solo after it still does (§5)."""
    history = [{"dealer": 0, "contract": "solo", "declarer": 1}, g("solo", points=40)]
    assert RS.radelci(history, 3) == [1, 1, 1]
