"""The registry of rulesets, keyed by ruleset key and edition (``shared/rules/README.md``).

Adding a ruleset touches its own module (a :class:`variants.base.Ruleset`) and one
:func:`register` line in ``variants/__init__.py``; nothing outside ``variants/`` asks for a
ruleset by name (``tests/test_toy_ruleset.py`` plays a whole tournament with one that exists only
in that test).
"""

from __future__ import annotations

from collections.abc import Callable


class UnknownRuleset(KeyError):
    """No ruleset is registered under this key, or it has no such edition."""


_FACTORIES: dict[str, dict[str, Callable]] = {}
_CURRENT: dict[str, str] = {}


def register(key: str, edition: str, factory: Callable, *, current: bool = False) -> None:
    """Register ``factory(editions, options)`` as edition ``edition`` of ruleset ``key``.

    ``current`` marks the edition :func:`get_ruleset` returns when none is asked for; the first
    registered edition of a key is current until another claims it.
    """
    _FACTORIES.setdefault(key, {})[edition] = factory
    if current or key not in _CURRENT:
        _CURRENT[key] = edition


def unregister(key: str) -> None:
    """Forget ruleset ``key`` and all its editions (for tests that register a ruleset of their own)."""
    _FACTORIES.pop(key, None)
    _CURRENT.pop(key, None)


def get_ruleset(key: str, edition: str | None = None, options: dict | None = None):
    """The ruleset object for ``key`` in ``edition`` (default: the current edition).

    ``options`` overrides the ruleset's ``option_defaults``. Raises :class:`UnknownRuleset`.
    """
    editions = _FACTORIES.get(key)
    if not editions:
        raise UnknownRuleset(f"unknown ruleset {key!r}")
    edition = edition or _CURRENT[key]
    if edition not in editions:
        raise UnknownRuleset(f"ruleset {key!r} has no edition {edition!r}")
    ordered = (_CURRENT[key],) + tuple(e for e in editions if e != _CURRENT[key])
    return editions[edition](ordered, options)


def all_rulesets() -> list:
    """Every registered ruleset in its current edition, in registration order."""
    return [get_ruleset(key) for key in _FACTORIES]


def choices() -> list[tuple[str, str]]:
    """``(key, name)`` pairs of the registered rulesets, for forms."""
    return [(rs.key, rs.name) for rs in all_rulesets()]
