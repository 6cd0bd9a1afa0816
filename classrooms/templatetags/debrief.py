"""Small filters for the debrief page's SVG bars (widths as numbers, shares as percents)."""

from django import template

from classrooms.selectors import whole_percent

register = template.Library()


@register.filter
def bar(share, width=200):
    """The length of a bar for ``share`` (0..1) of ``width`` units."""
    try:
        return round(max(0.0, min(1.0, float(share))) * float(width), 1)
    except (TypeError, ValueError):
        return 0


@register.filter
def percent(share):
    try:
        return f"{whole_percent(share)}%"
    except (TypeError, ValueError):
        return ""
