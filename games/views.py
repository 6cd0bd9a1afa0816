"""Lobby and game pages: parse, call a service, render."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import hooks, services
from games.access import game_can_join, game_can_watch, session_key_remember, session_keys
from games.engine import get_rules, kinds
from games.forms import GameCreateForm
from games.models import Game
from games.selectors import game_frame, game_meta, games_of_user


@login_required
def lobby(request):
    if request.method == "POST":
        form = GameCreateForm(request.POST)
        if form.is_valid():
            kind, options = form.cleaned_data["kind"], form.engine_options()
            bots = form.cleaned_data.get("bots") or ""
            try:
                count = services.seats_needed(kind=kind, options=options)
                humans = [] if form.cleaned_data.get("watch") \
                    else [services.SeatSpec(user=request.user)]
                seats = humans + [
                    services.SeatSpec(bot_level=bots) for _ in range(count - len(humans))
                ]
                game = services.game_create(kind=kind, options=options,
                                            created_by=request.user, seats=seats, lobby=True)
            except services.GameError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect(game)
    else:
        form = GameCreateForm()
    mine = list(games_of_user(user=request.user)[:50])
    return render(
        request,
        "games/lobby.html",
        {
            "form": form,
            "my_games": mine,
            "titles": hooks.game_titles(games=mine),
            "guided": guided_games(),
        },
    )


def guided_games():
    """The games with a solo mode: each can be learnt with a guided first game."""
    return [{"kind": kind, "title": get_rules(kind).title}
            for kind in kinds() if any(m.solo for m in get_rules(kind).modes)]


@login_required
@require_POST
def game_learn(request, kind):
    """A guided first game: the game's first solo mode, with the guide shown beside it."""
    if kind not in kinds():
        raise Http404("There is no such game.")
    rules = get_rules(kind)
    mode = next((m for m in rules.modes if m.solo), None)
    if mode is None:
        raise Http404("This game has no solo mode to learn with.")
    try:
        game = services.game_create(kind=kind, options=rules.mode_options(mode.key),
                                    created_by=request.user, lobby=True,
                                    seats=[services.SeatSpec(user=request.user)])
    except services.GameError as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    return redirect(f"{game.get_absolute_url()}?guide=1")


@login_required
def game_detail(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    session_key_remember(request.session, game, request.GET.get("key"))  # a share link
    if not game_can_watch(game=game, user=request.user, keys=session_keys(request.session)):
        raise Http404("There is no such game.")  # the same answer as a missing one
    # Whoever may see the game keeps its key in their session: a player whose seat goes to
    # someone else still watches the table from this browser.
    session_key_remember(request.session, game, game.share_key)
    frame = game_frame(game=game, user=request.user)
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "game_id": game.pk,
            "page": hooks.game_page(game=game, user=request.user),
            "initial": frame,
            "meta": game_meta(game.kind),
            "board_module": f"games/js/{game.kind}-board.js",
            "ws_path": f"/ws/games/{game.pk}/",
            # joining follows the watching rules, checked above
            "can_join": game.is_open and frame["seat"] is None,
            # a solo player may play the same map and deal again once it is over
            "can_again": frame["seat"] is not None and len(frame["seats"]) == 1,
            # the share link, for whoever may already share it (a player or the creator)
            "share_url": request.build_absolute_uri(
                f"{game.get_absolute_url()}?key={game.share_key}")
            if frame["seat"] is not None or game.created_by_id == request.user.pk else "",
        },
    )


@login_required
@require_POST
def game_join(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    if not game_can_join(game=game, user=request.user, keys=session_keys(request.session)):
        raise Http404("There is no such game.")
    try:
        services.seat_take(game_id=game.pk, user=request.user)
    except services.GameError as exc:
        messages.error(request, exc.message)
    return redirect(game)


@login_required
@require_POST
def game_again(request, game_id):
    """"Try this map again" on a finished solo game: the same map and deal, from the start."""
    try:
        game = services.game_again(game_id=game_id, user=request.user)
    except services.GameError as exc:
        if exc.code == "not_your_game":
            raise Http404("There is no such game.") from exc  # the same answer as a missing one
        messages.error(request, exc.message)
        return redirect("games:detail", game_id=game_id)
    return redirect(game)
