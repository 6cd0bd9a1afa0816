"""Racing submits for one ply: exactly one wins, the other is told the game moved on."""

import threading

import pytest
from django.db import connections

from games import services
from games.engine import get_rules
from games.models import Move

from .helpers import make_game, make_user


def race_once(game, user, moves, version):
    barrier = threading.Barrier(len(moves))
    outcomes = [None] * len(moves)

    def submit(i):
        try:
            barrier.wait(5)
            services.move_submit(game_id=game.pk, seat_index=0, move=moves[i],
                                 expected_version=version, user=user)
            outcomes[i] = "won"
        except services.StaleVersion as exc:
            outcomes[i] = exc.message
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(moves))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def check_races(rounds=8):
    ana = make_user("ana")
    for round_ in range(rounds):
        game = make_game(ana, options={"mode": "solo-easy"}, seed=f"race-{round_}")
        moves = get_rules("mapmaker").legal_moves(game.state, 0)[:4]
        outcomes = race_once(game, ana, moves, version=0)
        assert outcomes.count("won") == 1, outcomes
        assert all("moved on" in o for o in outcomes if o != "won"), outcomes
        assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [0]
        game.refresh_from_db()
        assert game.version == 1
        winner = moves[outcomes.index("won")]
        assert game.state == get_rules("mapmaker").apply(
            get_rules("mapmaker").setup(game.options, game.seed), 0, winner)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_submits_on_postgres_one_wins():
    check_races()


@pytest.mark.embedded
@pytest.mark.django_db(transaction=True)
def test_racing_submits_on_the_configured_database_one_wins():
    check_races(rounds=4)
