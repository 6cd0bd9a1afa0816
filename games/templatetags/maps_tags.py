"""Template helpers for the state maps: ``{% if user|can_read_maps %}`` (the nav link)."""

from django import template

from games.maps_selectors import can_read_maps as _can_read_maps

register = template.Library()


@register.filter
def can_read_maps(user):
    return _can_read_maps(user)
