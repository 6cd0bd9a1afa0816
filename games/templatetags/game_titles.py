from django import template

register = template.Library()


@register.filter
def title_of(titles, game):
    """What ``game`` is called in a list (``games.hooks.game_titles``)."""
    return (titles or {}).get(game.pk, f"{game.title} #{game.pk}")
