"""What other apps tell the games' pages about a game (the games app never imports them).

A provider registered with ``game_page_register(fn)`` is asked ``fn(game=..., user=...)`` and
may return a dict with any of: ``title`` (what the game is called here, e.g. "Lesson 1 -
table 2"), ``back_url`` and ``back_label`` (where "Back" leads), ``watching`` (a dict the
page shows as the viewer's controls of this table, see ``templates/games/game_detail.html``),
``due_at`` (an ISO time the game is due).  A provider registered with
``game_titles_register(fn)`` is asked ``fn(games=[...])`` and returns ``{game id: title}``
for the games it knows (one query for a whole list).  Later providers' keys win.
"""

_page_providers = []
_title_providers = []


def game_page_register(fn):
    _page_providers.append(fn)
    return fn


def game_titles_register(fn):
    _title_providers.append(fn)
    return fn


def game_page(*, game, user):
    context = {"title": game.title, "back_url": "", "back_label": "Back to my games"}
    for provider in _page_providers:
        context.update(provider(game=game, user=user) or {})
    return context


def game_titles(*, games):
    """``{game id: title}`` for ``games``: what each is called (its own title by default)."""
    titles = {game.pk: f"{game.title} #{game.pk}" for game in games}
    for provider in _title_providers:
        titles.update(provider(games=games) or {})
    return titles
