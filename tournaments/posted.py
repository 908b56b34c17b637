"""Numbers a form posts (ids, round numbers, seeds), read without trusting the form."""


def whole_number(value) -> int | None:
    """``value`` as a whole number 0 or more (``"12"`` → 12), or ``None`` for anything else: empty,
    ``"x"``, ``"-3"``, ``"²"`` (a tampered form matches nothing instead of failing)."""
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else None


def whole_numbers(values) -> list[int]:
    """The whole numbers among ``values`` (``["3", "x", None]`` → ``[3]``)."""
    return [n for n in map(whole_number, values) if n is not None]
