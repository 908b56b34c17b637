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


@register.filter
def total_words(total, ruleset) -> str:
    """What players call a total under ``ruleset`` (Cego: Gute, Miese), translated; "" if nothing."""
    from tournaments.problems import translate_problem

    words = ruleset.total_words(total)
    return translate_problem(words) if words is not None else ""


@register.simple_tag
def switched_options(ruleset) -> list:
    """``[(label, on)]`` of the options this tournament set otherwise than the ruleset's default,
    labels translated (for the standings and their prints)."""
    from django.utils.translation import gettext

    return [(gettext(o.label), on) for o, on in ruleset.options_in_force() if on != o.default]
