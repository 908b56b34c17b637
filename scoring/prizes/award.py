"""The prize list of a tournament: who wins what, and the money.

:func:`award` is pure: it takes the final standings' rows, the categories and the fund as plain
data and returns a :class:`PrizeList`; :func:`prize_list` gathers them from the database.

How prizes are given (the rule files are silent on prizes; these are the **Decisions**, as Austrian
and Baden tournaments hand them out):

- The **prize money** is the entry fee × the players in the standings (every registered player
  but one who withdrew before he played) × the share paid out. A places category divides it by
  its ``shares``, one percent per place; a category may give a fixed ``amount`` to each winner
  instead (or besides, for group prizes), and goods (``description``).
- **Ties**: players who are still level after every tie-break of the ruleset (the final standings
  leave them level until the director records the lots or card draw,
  ``../shared/rules/tournament-formats.md`` §3, ``cego-ichenheim.md`` §4) share the places they
  occupy: together they get the money of those places, split equally, each marked "shared". Once
  the lots are recorded the standings separate them and so does the prize list.
- **One prize per player** among the places and group categories: the places categories are
  handed out first, then the group categories, each kind in its order; a player who won a place
  is passed over in a group category (the next of the group gets it). The plus, last-place and
  best-hand prizes are given besides. A places prize is named by the standings' rank, a group
  prize by the place within the group. A player who withdrew keeps the place the standings give
  him (he played his rounds), except for the last place.
- **Every player in plus** (the Cego custom: "Gute", ``cego-ichenheim.md`` §4): game points above
  0 (also where the standings rank by table points).
- **Last place** (Mauskönig): the last of the players who did not withdraw.
- **Best hand**: the highest score a player made in one hand; the players of level hands share it
  (a player with two such hands once). It has no place: its award carries the hand's ``points``.
- **Fixed amounts** (a category's ``amount``: the best hand, the last place, a place's fixed prize)
  are paid **besides** the prize money, from the organiser's purse: the list shows what is paid out
  in all as the pool's shares + the fixed prizes = the total.
- **Kontra pot**: each kontra level recorded on a hand is one call (a rekontra is two: the kontra
  and the re), on the game and on each bonus; the pot is calls × the amount per kontra. Struck
  hands do not count.
- Money is split to the cent, rounded down; what a split leaves over is shown as the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from django.utils.translation import gettext as _

from variants.checks import is_int

CENT = Decimal("0.01")
EXCLUSIVE = ("places", "group")  # kinds of which a player wins at most one prize


@dataclass(frozen=True)
class Placed:
    """A row of the final standings: ``key`` (registration id), ``name``, ``rank`` (shared ranks
    repeat), ``total`` (what the standings rank by), ``withdrawn``; ``club`` for group
    categories; ``game_total``: his game points (``None``: the same as ``total``), which decide
    the plus prize where the standings rank by table points (Bled)."""

    key: int
    name: str
    rank: int
    total: float
    withdrawn: bool = False
    club: str = ""
    game_total: int | None = None

    @property
    def in_plus(self) -> bool:
        """His game points are above 0 ("Gute")."""
        return (self.total if self.game_total is None else self.game_total) > 0


@dataclass(frozen=True)
class Category:
    """A prize category as :func:`award` reads it (see :class:`scoring.prizes.models.PrizeCategory`);
    ``members``: registration ids of a group, ``None`` where ``club`` names it."""

    kind: str
    name: str
    places: int = 1
    shares: tuple[Decimal, ...] = ()
    amount: Decimal | None = None
    description: str = ""
    club: str = ""
    members: frozenset[int] | None = None


@dataclass(frozen=True)
class Fund:
    """Entry fee per player, percent of the entry fees paid out, amount per kontra, currency."""

    entry_fee: Decimal = Decimal(0)
    payout_percent: Decimal = Decimal(100)
    kontra_amount: Decimal = Decimal(0)
    currency: str = "€"


@dataclass(frozen=True)
class BestHand:
    """A hand that scored ``score`` for player ``key`` (``name``); ``where`` says which hand."""

    key: int
    name: str
    score: int
    where: str = ""


@dataclass
class Award:
    """One prize: its category, the place(s) ("3" or "2–3"; ``""`` for a prize without a place,
    the best hand), the winners' names and keys, the money each gets (``None``: no money) and the
    goods; ``shared``: level players share it; ``note``; ``points``: the hand's score of a
    best-hand prize (``None`` for the others)."""

    category: str
    kind: str
    place: str
    names: list[str]
    keys: list[int]
    amount: Decimal | None
    description: str = ""
    shared: bool = False
    note: str = ""
    points: int | None = None


@dataclass
class PrizeList:
    """Every award in the order handed out, plus the money: ``entries`` (players paying the fee),
    ``prize_money`` (the pool the entry fees make), ``paid`` (the sum of the awards' money, what is
    paid out in all), ``from_pool`` (the part of it that is the pool's shares) and ``fixed`` (the
    fixed amounts paid besides the pool): ``from_pool + fixed == paid``; ``rest`` (prize money not
    given: places without winners, cents a split left over), ``kontras`` (calls) and
    ``kontra_pot``; ``final``: the standings are final; ``level``: some prize is shared because
    lots are missing."""

    awards: list[Award]
    currency: str
    entries: int
    prize_money: Decimal
    paid: Decimal
    rest: Decimal
    kontras: int
    kontra_pot: Decimal
    final: bool
    level: bool = False
    warnings: list[str] = field(default_factory=list)
    from_pool: Decimal = Decimal(0)

    @property
    def fixed(self) -> Decimal:
        """The fixed amounts paid besides the prize money (``paid − from_pool``)."""
        return self.paid - self.from_pool

    @property
    def has_points(self) -> bool:
        """Whether some award carries a hand's points (the list shows their column)."""
        return any(a.points is not None for a in self.awards)

    def ceremony_order(self) -> list[Award]:
        """The awards as a prize-giving reveals them: the other prizes first, then the places
        from the last to the first."""
        places = [a for a in self.awards if a.kind == "places"]
        return [a for a in self.awards if a.kind != "places"] + places[::-1]


def parse_shares(text: str) -> tuple[Decimal, ...]:
    """``"30 20 15,5 10"`` → ``(30, 20, 15.5, 10)``: percents per place, separated by spaces or
    semicolons, a decimal comma or point. Raises ``ValueError`` naming the first token that is not
    a number above 0, or if they add up to more than 100."""
    shares = []
    for token in text.replace(";", " ").split():
        try:
            value = Decimal(token.replace(",", "."))
        except InvalidOperation:
            value = None
        if value is None or not value.is_finite() or value <= 0:
            raise ValueError(_("“%(token)s” is not a share: write percents above 0, such as 30 20 15.") % {"token": token})
        shares.append(value)
    if sum(shares) > 100:
        raise ValueError(_("The shares add up to %(sum)s %%, more than 100 %%.") % {"sum": sum(shares)})
    return tuple(shares)


def split(money: Decimal, ways: int) -> Decimal:
    """``money`` split ``ways`` ways, rounded down to the cent."""
    return (money / ways).quantize(CENT, rounding=ROUND_DOWN)


def place_label(first: int, last: int) -> str:
    """``"3"`` or ``"2–3"``."""
    return str(first) if first == last else f"{first}–{last}"


def _groups(rows: list[Placed]) -> list[list[Placed]]:
    """``rows`` (in standings order) cut into groups of equal rank."""
    groups: list[list[Placed]] = []
    for row in rows:
        if groups and groups[-1][0].rank == row.rank:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _in_group(category: Category, row: Placed) -> bool:
    if category.members is not None:
        return row.key in category.members
    return bool(category.club) and row.club.casefold() == category.club.strip().casefold()


def award(rows: list[Placed], categories: list[Category], fund: Fund, kontras: int = 0,
          best_hands: list[BestHand] = (), final: bool = True) -> PrizeList:
    """The prize list for the final standings ``rows`` (best first, :class:`Placed`), the
    ``categories`` in their order, the ``fund``, the number of kontra calls and the day's best
    hands (:class:`BestHand`, any order). See the module's docstring for the rules."""
    entries = len(rows)
    prize_money = (fund.entry_fee * entries * fund.payout_percent / 100).quantize(CENT, rounding=ROUND_DOWN)
    awards: list[Award] = []
    taken: set[int] = set()
    level = False
    from_pot = Decimal(0)  # what the awards take of the prize money
    shared_note = _("level after every tie-break: they share these places")

    def ranked(candidates: list[Placed], category: Category, kind: str):
        nonlocal level, from_pot
        position = 1
        for group in _groups(candidates):
            if position > category.places:
                break
            last = position + len(group) - 1
            # A place is named by the standings' rank; a group's by the place within the group.
            label = place_label(group[0].rank, group[0].rank + len(group) - 1) if kind == "places" else place_label(position, last)
            paid = range(position, min(last, category.places) + 1)
            ways = len(group)
            share = split(sum((category.shares[p - 1] for p in paid if p <= len(category.shares)), Decimal(0)) * prize_money / 100, ways)
            fixed = split(category.amount * len(paid), ways) if category.amount is not None else Decimal(0)
            from_pot += share * ways
            money = share + fixed if share or category.amount is not None else None  # no share left: goods only
            shared = ways > 1
            level = level or shared
            awards.append(
                Award(
                    category.name, kind, label, [r.name for r in group], [r.key for r in group],
                    money, category.description, shared, shared_note if shared else "",
                )
            )
            if kind in EXCLUSIVE:
                taken.update(r.key for r in group)
            position = last + 1

    def alone(category: Category, kind: str, place: str, group: list, note: str = "", points: int | None = None):
        """One award to ``group`` (level players or hands share it)."""
        money = None if category.amount is None else split(category.amount, len(group))
        awards.append(Award(category.name, kind, place, [g.name for g in group], [g.key for g in group], money, category.description,
                            len(group) > 1, note, points))

    # The places first, then the groups (a player wins one of them), then the rest, each in order.
    handed = sorted(categories, key=lambda c: {"places": 0, "group": 1}.get(c.kind, 2))
    for category in handed:
        if category.kind == "places":
            ranked([r for r in rows if r.key not in taken], category, "places")
        elif category.kind == "group":
            ranked([r for r in rows if r.key not in taken and _in_group(category, r)], category, "group")
        elif category.kind == "plus":
            for r in rows:
                if r.in_plus:
                    awards.append(Award(category.name, "plus", str(r.rank), [r.name], [r.key], category.amount, category.description))
        elif category.kind == "last":
            playing = [r for r in rows if not r.withdrawn]
            if playing:
                alone(category, "last", str(playing[-1].rank), [r for r in playing if r.rank == playing[-1].rank])
        elif category.kind == "best_hand" and best_hands:
            top = max(h.score for h in best_hands)
            hands = [h for h in best_hands if h.score == top]
            players = list({h.key: h for h in hands}.values())  # a player with two such hands wins once
            where = dict.fromkeys(h.where for h in hands if h.where)  # a hand two players made, named once
            alone(category, "best_hand", "", players, "; ".join(where), points=top)

    warnings = []
    if sum((sum(c.shares) for c in categories), Decimal(0)) > 100:
        warnings.append(_("The places' shares add up to more than %(limit)s %% of the prize money.") % {"limit": 100})
    return PrizeList(
        awards=awards,
        currency=fund.currency,
        entries=entries,
        prize_money=prize_money,
        paid=sum((a.amount * len(a.keys) for a in awards if a.amount is not None), Decimal(0)),
        from_pool=from_pot,
        rest=prize_money - from_pot,
        kontras=kontras,
        kontra_pot=(fund.kontra_amount * kontras).quantize(CENT),
        final=final,
        level=level,
        warnings=warnings,
    )


def kontra_calls(records) -> int:
    """The kontra calls of hand ``records``: the game's kontra level (a rekontra is two calls), a
    Klop's ``kontra_by`` (one) and each bonus's level (``../shared/rules/hand-record.md``, fields
    ``kontra``, ``kontra_by``). Struck hands count nothing."""
    calls = 0
    for record in records:
        if not isinstance(record, dict) or record.get("outcome") == "struck":
            continue
        levels = [record.get("kontra")] + [b.get("kontra") for b in record.get("bonuses") or [] if isinstance(b, dict)]
        calls += sum(level for level in levels if is_int(level) and level > 0)
        # Who said kontra is a call of its own only where the game records no level (a Klop's
        # kontra); beside a level (Königrufen's Kontra on the game) he said the call counted there.
        game_level = record.get("kontra")
        if record.get("kontra_by") is not None and not (is_int(game_level) and game_level > 0):
            calls += 1
    return calls


def categories_of(tournament) -> list[Category]:
    """The tournament's prize categories as :class:`Category`, in their order (two queries)."""
    from scoring.prizes.models import PrizeCategory

    found = []
    for c in PrizeCategory.objects.filter(tournament=tournament).prefetch_related("members"):
        members = frozenset(m.pk for m in c.members.all())
        found.append(
            Category(
                kind=c.kind,
                name=c.name,
                places=c.places,
                shares=parse_shares(c.shares) if c.shares else (),
                amount=c.amount,
                description=c.description,
                club=c.club,
                members=members if c.kind == "group" and members else None,
            )
        )
    return found


def fund_of(tournament) -> Fund:
    """The tournament's :class:`Fund` (no money set: every amount 0)."""
    from scoring.prizes.models import PrizeFund

    found = PrizeFund.objects.filter(tournament=tournament).first()
    if found is None:
        return Fund()
    return Fund(found.entry_fee, found.payout_percent, found.kontra_amount, found.currency)


def prize_list(tournament) -> PrizeList:
    """The prize list of ``tournament`` after its standings now (:func:`award`): final once every
    round is finished and the lots are drawn; before that it shows where the prizes would go."""
    from scoring.live.statistics import day_statistics
    from scoring.models import Hand
    from scoring.standings import compute_standings

    standings = compute_standings(tournament)
    rows = [Placed(r.entry.key, r.entry.name, r.rank, r.entry.total, r.entry.withdrawn, r.entry.club, r.entry.game_total) for r in standings.rows]
    fund = fund_of(tournament)
    categories = categories_of(tournament)
    kontras = 0
    if fund.kontra_amount:
        kontras = kontra_calls(Hand.objects.filter(table__round__tournament=tournament).values_list("record", flat=True).iterator())
    hands = []
    if any(c.kind == "best_hand" for c in categories):
        hands = [
            BestHand(h.player.registration_id, h.player.name, h.score,
                     _("round %(round)s, table %(table)s, hand %(hand)s: %(words)s") % {"round": h.where.round, "table": h.where.table, "hand": h.where.number, "words": h.words})
            for h in day_statistics(tournament).best
        ]
    return award(rows, categories, fund, kontras, hands, final=standings.final)
