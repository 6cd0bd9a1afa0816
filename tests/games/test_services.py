"""The move service: the one write path every entry point uses."""

import json
import random

import pytest

from games import services
from games.engine import get_rules
from games.models import Game, Move
from games.replay import game_replay

from .helpers import a_legal_move, make_game, make_user, seat_to_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return make_user("ana"), make_user("ben")


def test_full_table_starts_and_open_seats_wait(players):
    ana, ben = players
    assert make_game(ana, ben).status == Game.Status.ACTIVE
    waiting = make_game(ana, options={"players": 3})
    assert waiting.status == Game.Status.WAITING
    assert [s.is_empty for s in waiting.seats.order_by("index")] == [False, True, True]
    services.seat_take(game_id=waiting.pk, user=ben)
    with pytest.raises(services.SeatError, match="already have a seat"):
        services.seat_take(game_id=waiting.pk, user=ben)
    services.seat_take(game_id=waiting.pk, user=make_user("cal"))
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.ACTIVE
    with pytest.raises(services.SeatError, match="already started"):
        services.seat_take(game_id=waiting.pk, user=make_user("dee"))


def test_move_appends_log_saves_snapshot_and_bumps_version(players, django_capture_on_commit_callbacks):
    ana, ben = players
    game = make_game(ana, ben)
    move = a_legal_move(game, 0)
    expected_state = get_rules("mapmaker").apply(game.state, 0, move)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        updated = services.move_submit(game_id=game.pk, seat_index=0, move=move,
                                       expected_version=0, user=ana)
    assert len(callbacks) == 1  # broadcast + bots only after commit
    assert updated.version == 1
    game.refresh_from_db()
    assert game.state == expected_state
    assert list(Move.objects.filter(game=game).values_list("ply", "seat", "move")) == [(0, 0, move)]


@pytest.mark.parametrize(
    "bad_move, code",
    [
        ({"type": "border", "between": [[0, 0], [5, 5]]}, "not_adjacent"),
        ({"type": "border", "between": [[0, 0]]}, "bad_move"),
        ({"type": "teleport"}, "bad_move"),
        ({"type": "undo"}, "undo_not_allowed"),
        ({"type": "choose_winner", "party": 1}, "no_choice_pending"),
    ],
)
def test_illegal_move_is_refused_with_a_message_and_changes_nothing(players, bad_move, code):
    ana, ben = players
    game = make_game(ana, ben)
    before = json.dumps(game.state, sort_keys=True)
    with pytest.raises(services.MoveRejected) as info:
        services.move_submit(game_id=game.pk, seat_index=0, move=bad_move, expected_version=0,
                             user=ana)
    assert info.value.code == code and info.value.message
    game.refresh_from_db()
    assert game.version == 0 and json.dumps(game.state, sort_keys=True) == before
    assert not Move.objects.filter(game=game).exists()


def test_too_small_border_message_comes_from_the_engine(players):
    """The rulebook: you cannot close off fewer than 4 counties."""
    ana, _ = players
    game = make_game(ana, options={"mode": "solo-easy"})
    # The corner county (3, -3) of the 37-county board has three neighbours in play.
    for version, other in enumerate([[2, -3], [2, -2]]):
        services.move_submit(game_id=game.pk, seat_index=0,
                             move={"type": "border", "between": [[3, -3], other]},
                             expected_version=version, user=ana)
    with pytest.raises(services.MoveRejected) as info:
        services.move_submit(game_id=game.pk, seat_index=0,
                             move={"type": "border", "between": [[3, -3], [3, -2]]},
                             expected_version=2, user=ana)
    assert info.value.code == "too_small"
    assert "at least 4" in info.value.message
    assert Game.objects.get(pk=game.pk).version == 2


def test_stale_version_and_wrong_seat_are_refused(players):
    ana, ben = players
    game = make_game(ana, ben)
    move = a_legal_move(game, 0)
    services.move_submit(game_id=game.pk, seat_index=0, move=move, expected_version=0, user=ana)
    with pytest.raises(services.StaleVersion, match="moved on"):
        services.move_submit(game_id=game.pk, seat_index=0, move=move, expected_version=0, user=ana)
    game.refresh_from_db()
    with pytest.raises(services.SeatError):
        services.move_submit(game_id=game.pk, seat_index=1, move=a_legal_move(game, 1),
                             expected_version=1, user=ana)
    with pytest.raises(services.SeatError):  # a human seat cannot be played as a bot
        services.move_submit(game_id=game.pk, seat_index=1, move=a_legal_move(game, 1),
                             expected_version=1)
    assert Move.objects.filter(game=game).count() == 1


def test_paused_game_refuses_moves_until_resumed(players):
    ana, ben = players
    game = make_game(ana, ben)
    services.game_set_paused(game_id=game.pk, paused=True)
    with pytest.raises(services.MoveRejected, match="paused"):
        services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                             expected_version=0, user=ana)
    services.game_set_paused(game_id=game.pk, paused=False)
    services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                         expected_version=0, user=ana)


def test_a_whole_game_finishes_with_a_result_and_replays_exactly(players):
    ana, ben = players
    users = {0: ana, 1: ben}
    game = make_game(ana, ben)
    rng = random.Random(7)
    while game.status == Game.Status.ACTIVE:
        seat = seat_to_move(game)
        game = services.move_submit(game_id=game.pk, seat_index=seat,
                                    move=a_legal_move(game, seat, rng),
                                    expected_version=game.version, user=users[seat])
    assert game.status == Game.Status.FINISHED and game.finished_at
    assert game.result["winners"] and game.result["decided_by"]
    assert game_replay(game=game).matches
    with pytest.raises(services.MoveRejected, match="over"):
        services.move_submit(game_id=game.pk, seat_index=0, move={"type": "undo"},
                             expected_version=game.version, user=ana)


def test_replay_notices_a_tampered_snapshot(players):
    ana, ben = players
    game = make_game(ana, ben)
    services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                         expected_version=0, user=ana)
    game.refresh_from_db()
    assert game_replay(game=game).matches
    Game.objects.filter(pk=game.pk).update(state=get_rules("mapmaker").setup({"players": 2}, 1))
    game.refresh_from_db()
    report = game_replay(game=game)
    assert not report.matches and "differs" in report.problem


def test_replay_command(players, capsys):
    from django.core.management import CommandError, call_command

    ana, ben = players
    game = make_game(ana, ben)
    services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                         expected_version=0, user=ana)
    call_command("game_replay", game.pk)
    assert f"game {game.pk}: OK (1 moves replayed)" in capsys.readouterr().out
    Game.objects.filter(pk=game.pk).update(version=5)
    with pytest.raises(CommandError, match="do not match"):
        call_command("game_replay")
    with pytest.raises(CommandError, match="No such game"):
        call_command("game_replay", 99999)


def test_seat_can_be_handed_to_a_bot_and_back(players):
    ana, ben = players
    game = make_game(ana, ben)
    services.seat_assign(game_id=game.pk, index=1, bot_level="easy")
    assert game.seats.get(index=1).is_bot
    services.seat_assign(game_id=game.pk, index=1, user=ben)
    seat = game.seats.get(index=1)
    assert seat.user == ben and not seat.is_bot
    with pytest.raises(services.SeatError, match="another seat"):
        services.seat_assign(game_id=game.pk, index=0, user=ben)


@pytest.mark.django_db(transaction=True)
def test_rolled_back_transaction_broadcasts_nothing(players, monkeypatch):
    """Real commits (transaction=True): without the caller's failure this move would be sent."""
    from django.db import transaction

    ana, ben = players
    game = make_game(ana, ben)
    sent = []
    monkeypatch.setattr(services, "group_send_many", lambda events: sent.append(events))
    with pytest.raises(RuntimeError), transaction.atomic():
        services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                             expected_version=0, user=ana)
        raise RuntimeError("the caller failed after the move")
    game.refresh_from_db()
    assert game.version == 0 and sent == []


@pytest.mark.django_db(transaction=True)
def test_a_failing_listener_or_broadcast_does_not_undo_or_hide_a_committed_move(players, monkeypatch,
                                                                               settings):
    from games import bot_runner
    from games.signals import game_changed

    settings.BOT_RUNNER = "inprocess"
    ana, ben = players
    game = make_game(ana, bots=("easy",))
    scheduled = []
    monkeypatch.setattr(bot_runner, "bot_move_enqueue", lambda **kw: scheduled.append(kw))

    def broken_listener(**kwargs):
        raise RuntimeError("dashboard down")

    def broken_broadcast(events):
        raise ConnectionError("redis down")

    game_changed.connect(broken_listener, dispatch_uid="test-broken")
    monkeypatch.setattr(services, "group_send_many", broken_broadcast)
    try:
        updated = services.move_submit(game_id=game.pk, seat_index=0,
                                       move=a_legal_move(game, 0), expected_version=0, user=ana)
    finally:
        game_changed.disconnect(dispatch_uid="test-broken")
    assert updated.version == 1 and Move.objects.filter(game=game).count() == 1
    assert scheduled == [{"game_id": game.pk, "step": 1, "seat_index": 1,
                          "owner": f"class:{ana.pk}"}]


@pytest.mark.django_db(transaction=True)
def test_after_a_move_the_players_views_leave_before_the_dashboards(players, monkeypatch):
    from games.signals import game_changed

    ana, ben = players
    game = make_game(ana, ben)
    sent = []
    monkeypatch.setattr(services, "group_send_many", lambda events: sent.append(
        sorted(group for group, _ in events)))
    game_changed.connect(lambda **kw: [("dashboard", {"type": "x"})], dispatch_uid="test-order",
                         weak=False)
    try:
        services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                             expected_version=0, user=ana)
    finally:
        game_changed.disconnect(dispatch_uid="test-order")
    views = sorted([f"game-{game.pk}-seat-0", f"game-{game.pk}-seat-1", f"game-{game.pk}-spectators"])
    assert sent[0] == views and "dashboard" in sent[1]


def test_seat_changes_are_checked(players):
    ana, ben = players
    game = make_game(ana, ben)
    with pytest.raises(services.SeatError, match="no bot level 'genius'"):
        services.seat_assign(game_id=game.pk, index=1, bot_level="genius")
    with pytest.raises(services.SeatError, match="changed meanwhile"):
        services.seat_assign(game_id=game.pk, index=1, bot_level="easy", expect=(ana.pk, ""))
    services.seat_assign(game_id=game.pk, index=1, bot_level="easy", expect=(ben.pk, ""))
    assert game.seats.get(index=1).bot_level == "easy"
    with pytest.raises(services.SeatError, match="no bot level"):
        make_game(ana, bots=("x" * 40,))


def test_a_huge_move_is_refused_before_it_reaches_the_log(players):
    ana, ben = players
    game = make_game(ana, ben)
    move = {**a_legal_move(game, 0), "junk": "x" * 5000}
    with pytest.raises(services.MoveRejected, match="too large"):
        services.move_submit(game_id=game.pk, seat_index=0, move=move, expected_version=0, user=ana)
    assert not Move.objects.filter(game=game).exists()


def test_a_ply_taken_behind_the_lock_reads_as_the_game_moved_on(players):
    ana, ben = players
    game = make_game(ana, ben)
    Move.objects.create(game=game, ply=0, seat=0, move={"type": "border"})  # a rogue writer
    with pytest.raises(services.StaleVersion, match="moved on"):
        services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                             expected_version=0, user=ana)
    game.refresh_from_db()
    assert game.version == 0 and Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("moves", [0, 7, 400])
def test_broadcast_frames_are_each_seats_own_frame_byte_for_byte(players, moves):
    """A broadcast encodes what the seats share once; every group must still get exactly the
    frame a fresh connect would send that seat (finished games included)."""
    from games.broadcast import game_events, game_payload, latest_entry, state_frame

    ana, ben = players
    eve = make_user("eve")
    game = make_game(ana, ben, eve, options={"players": 3, "first_seat": 0})
    users = {0: ana, 1: ben, 2: eve}
    rng = random.Random(moves)
    for _ in range(moves):
        if game.status != Game.Status.ACTIVE:
            break
        seat = seat_to_move(game)
        game = services.move_submit(game_id=game.pk, seat_index=seat, user=users[seat],
                                    move=a_legal_move(game, seat, rng), expected_version=game.version)
    seats = list(game.seats.order_by("index"))
    events = game_events(game=game, seats=seats)
    assert [group for group, _ in events] == [
        f"game-{game.pk}-seat-0", f"game-{game.pk}-seat-1", f"game-{game.pk}-seat-2",
        f"game-{game.pk}-spectators"]
    for (_, event), seat_index in zip(events, [0, 1, 2, None], strict=True):
        assert event["frame"] == state_frame(game_payload(
            game=game, seats=seats, seat_index=seat_index, entry=latest_entry(game)))
    assert (game.status == Game.Status.FINISHED) == (moves == 400)
