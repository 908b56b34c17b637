"""§1 Table sizes: how many tables of which size seat a field (``tournament-formats.md`` §1)."""

from __future__ import annotations

from collections.abc import Iterable

from variants.problems import Problem, _


class SeatingImpossible(ValueError):
    """``n`` players cannot be split into tables of the allowed sizes (``tournament-formats.md`` §1).

    Attributes:

    - ``n``: the refused player count;
    - ``nearest``: ``(below, above)``, the nearest seatable counts below and above ``n``; ``below`` is
      ``None`` when no smaller positive count works (e.g. 1–3 players at Königrufen);
    - ``problem``: a :class:`~variants.problems.Problem` naming both counts, e.g. "11 players cannot be
      seated at tables of 4/5 players; the nearest counts that work are 10 or 12." It is also the
      exception's ``str``.
    """

    def __init__(self, n: int, nearest: tuple[int | None, int], problem: Problem):
        self.n = n
        self.nearest = nearest
        self.problem = problem
        super().__init__(str(problem))


def _check_sizes(sizes: Iterable[int], preferred: int, max_other: int | None) -> tuple[int, ...]:
    sizes = tuple(sorted(set(sizes)))
    if not sizes or any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in sizes):
        raise ValueError(f"table sizes must be positive integers, got {sizes!r}")
    if preferred not in sizes:
        raise ValueError(f"preferred size {preferred!r} is not one of the sizes {sizes!r}")
    if max_other is not None and max_other < 0:
        raise ValueError(f"max_other must be None or >= 0, got {max_other!r}")
    return sizes


def _fewest_tables(limit: int, others: tuple[int, ...]) -> list[int | None]:
    """``fewest[r]``: the fewest tables of sizes ``others`` holding exactly ``r`` players, else None."""
    fewest: list[int | None] = [0] + [None] * limit
    for r in range(1, limit + 1):
        options = [fewest[r - s] for s in others if s <= r and fewest[r - s] is not None]
        fewest[r] = min(options) + 1 if options else None
    return fewest


def _plan(
    n: int, others: tuple[int, ...], preferred: int, max_other: int | None, fewest: list[int | None]
) -> list[int] | None:
    """The plan for ``n`` (see :func:`plan_table_sizes`) or None; ``fewest`` must reach ``n``."""
    if n <= 0:
        return None
    for a in range(n // preferred, -1, -1):
        rest = n - a * preferred
        k = fewest[rest]
        if k is None or (max_other is not None and k > max_other):
            continue
        # Rebuild one fewest-table combination for ``rest``, taking the largest size first.
        tables = [preferred] * a
        while rest:
            s = next(s for s in sorted(others, reverse=True)
                     if s <= rest and fewest[rest - s] is not None and fewest[rest - s] == fewest[rest] - 1)
            tables.append(s)
            rest -= s
        return sorted(tables, reverse=True)
    return None


def plan_table_sizes(
    n: int, sizes: tuple[int, ...] = (4, 5), preferred: int = 4, max_other: int | None = None
) -> list[int]:
    """Table sizes for ``n`` players (``tournament-formats.md`` §1 "Table sizes").

    Uses as many tables of the ``preferred`` size as possible; the remaining players sit at the
    fewest tables of the other ``sizes``, at most ``max_other`` of them (``None``: no limit).

    - Königrufen (Wiener / Tiroler Tarockcup): ``sizes=(4, 5), preferred=4`` — ``N = 4a + 5b``;
    - Cego Ichenheim and Tarok Bled: ``sizes=(3, 4), preferred=3, max_other=2`` — ``N = 3a + 4b`` with
      at most two 4-tables (which always suffices).

    Returns the list of table sizes, larger tables first, e.g. ``[5, 5, 4, 4, 4]`` for 22 players at
    Königrufen, ``[4, 3, 3]`` for 10 players at Cego. Every player is seated exactly once:
    ``sum(result) == n``.

    Raises :class:`SeatingImpossible` for counts that cannot be seated (Königrufen 0–3, 6, 7, 11;
    Cego/Bled 0–2, 5), with the nearest counts that work; ``ValueError`` for a negative ``n`` or
    invalid ``sizes`` / ``preferred`` / ``max_other``; ``TypeError`` if ``n`` is not an ``int``.
    """
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"player count must be an int, got {n!r}")
    if n < 0:
        raise ValueError(f"player count must not be negative, got {n}")
    sizes = _check_sizes(sizes, preferred, max_other)
    others = tuple(s for s in sizes if s != preferred)
    # Some multiple of ``preferred`` lies in (n, n + preferred], so the nearest count above is there.
    limit = n + preferred
    fewest = _fewest_tables(limit, others)
    plan = _plan(n, others, preferred, max_other, fewest)
    if plan is not None:
        return plan

    below = next((m for m in range(n - 1, 0, -1) if _plan(m, others, preferred, max_other, fewest)), None)
    above = next(m for m in range(n + 1, limit + 1) if _plan(m, others, preferred, max_other, fewest))
    size_text = "/".join(str(s) for s in sizes)
    if below is None:
        problem = Problem(
            _("%(n)d players cannot be seated at tables of %(sizes)s players; "
              "the nearest count that works is %(above)d."),
            n=n, sizes=size_text, above=above,
        )
    else:
        problem = Problem(
            _("%(n)d players cannot be seated at tables of %(sizes)s players; "
              "the nearest counts that work are %(below)d or %(above)d."),
            n=n, sizes=size_text, below=below, above=above,
        )
    raise SeatingImpossible(n, (below, above), problem)
