"""Template helpers for score sheets."""

from django import template

from scoring.ranking import format_points

register = template.Library()


@register.filter
def dict_get(mapping, key):
    """``mapping[key]`` or an empty list (for ``{% for flag in flags|dict_get:hand.pk %}``)."""
    return (mapping or {}).get(key, [])


@register.filter
def points(value) -> str:
    """Victory points as players write them: 2, 1½, ½, 3⅙ … (halves and sixths from shared
    places, ``tarok-bled.md`` §7); other values with two decimals."""
    return format_points(value)
