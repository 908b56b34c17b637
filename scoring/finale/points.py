"""The Ö-Finale's points, pure Python: the Finalpunkte table the organiser enters, checked; the
Finalpunkte of a day rank; a qualifier's Vorrundenpunkte from his cups
(``../shared/rules/koenigrufen-raiffeisen.md`` §6.9).

Nothing here touches Django: :mod:`scoring.finale.services` gathers the cup tables and the day's
standings and asks these functions; :mod:`scoring.finale.forms` words the problems found.

- **Finalpunkte** (ÖFM18, via §6.9): "60 Punkte für den Sieg bis hin zu 0 Punkte ab Rang 101", no
  negative points. The table itself was not found: the organiser enters it, rank 1 first, and it
  is checked: rank 1 has 60, no rank has more than the one above, none is negative, every rank
  from 101 on has 0. A rank past the end of the table gets 0.
- **Vorrundenpunkte**: each cup's table (:data:`scoring.cups.points.VORRUNDENPUNKTE`) gives the
  points of a final season rank; a player qualified through several cups takes the highest
  (option ``oe_finale_sum_vorrundenpunkte``: their sum).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WINNER = 60  # Finalpunkte of the day's winner (ÖFM18)
ZERO_FROM = 101  # the first rank that gets no Finalpunkte (ÖFM18: "0 Punkte ab Rang 101")
MAX_RANKS = 1000  # ranks a table may list (bounds what a form can make the server hold)

# What :class:`Problem` can say about a table.
NOT_A_NUMBER, FIRST, INCREASE, NEGATIVE, PAST_100, TOO_LONG = (
    "not_a_number", "first", "increase", "negative", "past_100", "too_long",
)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a typed Finalpunkte table: ``kind`` (one of the constants above), the
    ``rank`` it is at (1 = the day's winner; ``0`` for the whole table), the ``text`` typed there
    and, for an increase, the ``above`` value of the rank before."""

    kind: str
    rank: int = 0
    text: str = ""
    above: int | None = None


class FinalpunkteError(ValueError):
    """A typed Finalpunkte table that is refused: ``problems``, a list of :class:`Problem` in the
    order of the ranks (at most ``limit`` of them)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(f"{p.kind}@{p.rank}" for p in problems))
        self.problems = problems


def tokens(text: str) -> list[str]:
    """The values of a typed table: separated by spaces, line breaks, commas or semicolons
    (``"60 57\\n55; 53"`` → ``["60", "57", "55", "53"]``)."""
    return text.replace(",", " ").replace(";", " ").split()


def parse_finalpunkte(text: str, limit: int = 10) -> tuple[int, ...]:
    """``"60 57 55 …"`` (or one value a line) → ``(60, 57, 55, …)``, rank 1 first. An empty text is
    the empty table (not entered yet). Raises :class:`FinalpunkteError` with each problem found, at
    most ``limit``, each naming its rank: a value that is not a whole number, rank 1 other than 60,
    a value above the one of the rank before, a negative value, a value other than 0 from rank 101
    on, more than :data:`MAX_RANKS` values."""
    typed = tokens(text)
    if len(typed) > MAX_RANKS:
        raise FinalpunkteError([Problem(TOO_LONG, MAX_RANKS + 1, typed[MAX_RANKS])])
    problems: list[Problem] = []
    values: list[int] = []
    above: int | None = None
    for rank, token in enumerate(typed, start=1):
        value = whole(token)
        if value is None:
            problems.append(Problem(NOT_A_NUMBER, rank, token))
            above = None  # the next value is compared with nothing rather than with a guess
            continue
        values.append(value)
        if value < 0:
            problems.append(Problem(NEGATIVE, rank, token))
        elif rank == 1 and value != WINNER:
            problems.append(Problem(FIRST, rank, token))
        elif above is not None and value > above:
            problems.append(Problem(INCREASE, rank, token, above))
        elif rank >= ZERO_FROM and value != 0:
            problems.append(Problem(PAST_100, rank, token))
        above = value
    if problems:
        raise FinalpunkteError(problems[:limit])
    return tuple(values)


def whole(token: str) -> int | None:
    """``token`` as a whole number (``"57"`` → 57, ``"-3"`` → −3, ``"+5"`` → 5), else ``None``
    (``"5.5"``, ``"x"``, ``"٥"``: only the digits 0–9)."""
    sign, digits = (token[0], token[1:]) if token[:1] in "+-" else ("", token)
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    return -int(digits) if sign == "-" else int(digits)


def check(table: Sequence[int]) -> list[Problem]:
    """The problems of a stored table (as :func:`parse_finalpunkte` finds them in its text)."""
    try:
        parse_finalpunkte(format_table(table))
    except FinalpunkteError as error:
        return error.problems
    return []


def format_table(table: Iterable[int]) -> str:
    """A stored table as the form shows it: ten values a line, so a rank is easy to find."""
    values = [str(v) for v in table]
    return "\n".join(" ".join(values[i : i + 10]) for i in range(0, len(values), 10))


def finalpunkte(table: Sequence[int], rank: int | None) -> int:
    """The Finalpunkte of day rank ``rank`` under ``table`` (rank 1 first): 0 past the table's end,
    from rank :data:`ZERO_FROM` on and without a rank (``None``: the day has not begun). Players
    who share a day rank each get that rank's value (**Decision**, as for a shared cup rank's
    Vorrundenpunkte, §6.9)."""
    if rank is None or rank < 1 or rank >= ZERO_FROM or rank > len(table):
        return 0
    return table[rank - 1]


def combined(points: Iterable[int], summed: bool = False) -> int:
    """A qualifier's Vorrundenpunkte from those of each cup he qualified through: the highest, or
    with ``summed`` (option ``oe_finale_sum_vorrundenpunkte``) their sum; 0 for none."""
    points = list(points)
    if not points:
        return 0
    return sum(points) if summed else max(points)
