"""Template helpers for score sheets."""

from django import template

register = template.Library()


@register.filter
def dict_get(mapping, key):
    """``mapping[key]`` or an empty list (for ``{% for flag in flags|dict_get:hand.pk %}``)."""
    return (mapping or {}).get(key, [])
