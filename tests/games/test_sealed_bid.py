"""The seam carries a game it was not shaped around: the tests' own sealed-bid game (three
seats bid at once, hidden bids, a reveal), from the lobby and an assignment, over three
sockets at once, played by bots from their views, in the dashboard, results and CSV."""

import asyncio
import csv
import io
import json

import pytest
from channels.db import database_sync_to_async

from classrooms import selectors as class_selectors
from classrooms import services as class_services
from games import bot_runner, services
from games.engine import get_rules
from games.models import Game, Move

from .helpers import game_socket, make_user

RULES = get_rules("sealedbid")


def sealed_game(*users, bots=()):
    seats = [services.SeatSpec(user=u) for u in users]
    seats += [services.SeatSpec(bot_level=level) for level in bots]
    return services.game_create(kind="sealedbid", options={"players": 3}, seats=seats,
                                seed="sealed", created_by=users[0] if users else None)


@pytest.fixture
def three(db):
    return make_user("ana"), make_user("ben"), make_user("eve")


def test_created_from_the_lobby_with_its_own_mode(client, three):
    ana, *_ = three
    client.force_login(ana)
    lobby = client.get("/games/").content.decode()
    assert 'value="sealedbid:3"' in lobby and "Sealed Bid" in lobby
    response = client.post("/games/", {"game": "sealedbid:3", "bots": "easy"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.kind == "sealedbid"
    assert game.seats.count() == 3 and game.status == Game.Status.ACTIVE
    page = client.get(game.get_absolute_url()).content.decode()
    assert "games/js/sealedbid-board.js" in page and "Sealed Bid" in page


def test_every_seat_bids_on_the_board_it_saw_and_cannot_bid_twice(three):
    ana, ben, eve = three
    game = sealed_game(ana, ben, eve)
    for seat, user, amount in ((0, ana, 7), (1, ben, 2)):
        services.move_submit(game_id=game.pk, seat_index=seat, user=user,
                             move={"type": "bid", "amount": amount}, expected_version=0)
    with pytest.raises(services.MoveRejected) as twice:
        services.move_submit(game_id=game.pk, seat_index=0, user=ana,
                             move={"type": "bid", "amount": 1}, expected_version=0)
    assert twice.value.code == "already_bid"
    game = services.move_submit(game_id=game.pk, seat_index=2, user=eve,
                                move={"type": "bid", "amount": 4}, expected_version=1)
    assert game.version == 3 and game.step_version == 3
    assert game.state["points"] == [1, 0, 0] and game.state["coins"] == [3, 8, 6]
    assert list(Move.objects.filter(game=game).values_list("ply", "seat")) == [
        (0, 0), (1, 1), (2, 2)]
    # the next round is a new step: a bid made on a board of the round before is stale
    with pytest.raises(services.StaleVersion):
        services.move_submit(game_id=game.pk, seat_index=1, user=ben,
                             move={"type": "bid", "amount": 1}, expected_version=2)
    from games.replay import game_replay

    assert game_replay(game=Game.objects.get(pk=game.pk)).matches


@pytest.mark.django_db(transaction=True)
def test_bots_are_scheduled_once_per_step_not_on_every_commit(three, monkeypatch):
    ana, ben, _ = three
    scheduled = []
    monkeypatch.setattr(bot_runner, "bot_move_enqueue", lambda **kw: scheduled.append(kw))
    game = sealed_game(ana, ben, bots=("easy",))
    owner = f"class:{ana.pk}"  # made outside the lobby by ana
    assert scheduled == [{"game_id": game.pk, "step": 0, "seat_index": 2, "owner": owner}]
    services.move_submit(game_id=game.pk, seat_index=0, user=ana,
                         move={"type": "bid", "amount": 1}, expected_version=0)
    assert len(scheduled) == 1, "another seat's bid must not schedule the bot again"
    assert services.bot_move_play(game_id=game.pk, step=0, seat_index=2) == "moved"
    assert services.bot_move_play(game_id=game.pk, step=0, seat_index=2) == "not_bot_turn"
    services.move_submit(game_id=game.pk, seat_index=1, user=ben,
                         move={"type": "bid", "amount": 1}, expected_version=1)
    assert scheduled[-1] == {"game_id": game.pk, "step": 3, "seat_index": 2, "owner": owner}
    assert len(scheduled) == 2


def test_a_bot_decides_from_its_seats_view_only(three, monkeypatch):
    """The bot is handed exactly what its seat sees: the bids already made by others this
    round are not in it."""
    import games.bots

    ana, ben, _ = three
    game = sealed_game(ana, ben, bots=("easy",))
    game = services.move_submit(game_id=game.pk, seat_index=0, user=ana,
                                move={"type": "bid", "amount": 9}, expected_version=0)
    handed = []
    real = games.bots.get_bot

    class Spy:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view, seat, **kwargs):
            handed.append((view, seat))
            return self.bot.choose(view, seat, **kwargs)

    monkeypatch.setattr(games.bots, "get_bot", lambda kind, level: Spy(real(kind, level)))
    assert services.bot_move_play(game_id=game.pk, step=0, seat_index=2) == "moved"
    (view, seat), = handed
    assert seat == 2 and view == RULES.view(game.state, 2)
    assert view["committed"] == [0] and view["my_bid"] is None
    # the same view, whatever ana really bid
    other = {**game.state, "bids": [0, None, None]}
    assert RULES.view(other, 2) == view


async def _frames_until(comm, pred, timeout=5):
    seen = []
    while True:
        frame = json.loads(await comm.receive_from(timeout=timeout))
        seen.append(frame)
        if pred(frame):
            return seen


@pytest.mark.django_db(transaction=True)
@pytest.mark.embedded
async def test_three_sockets_bid_at_once_without_a_stale_error_and_learn_nothing_early(
        any_layer):
    ana, ben, eve = await database_sync_to_async(
        lambda: (make_user("ana"), make_user("ben"), make_user("eve")))()
    game = await database_sync_to_async(sealed_game)(ana, ben, eve)
    comms = [await database_sync_to_async(game_socket)(game.pk, u) for u in (ana, ben, eve)]
    for comm in comms:
        assert (await comm.connect())[0]
        await _frames_until(comm, lambda f: f["type"] == "log")
    bids = [7, 2, 4]
    # all three send at once, each on the board it saw (version 0)
    await asyncio.gather(*(comm.send_to(text_data=json.dumps(
        {"type": "move", "move": {"type": "bid", "amount": amount}, "version": 0, "ref": f"b{i}"}))
        for i, (comm, amount) in enumerate(zip(comms, bids, strict=True))))
    for i, comm in enumerate(comms):
        frames = await _frames_until(
            comm, lambda f: f["type"] == "state" and f["game"]["version"] == 3)
        frames += await _frames_until(comm, lambda f: f["type"] == "ack") \
            if not any(f["type"] == "ack" for f in frames) else []
        assert not [f for f in frames if f["type"] == "error"], frames
        for frame in frames:
            if frame["type"] != "state" or frame["game"]["version"] == 3:
                continue
            view = frame["game"]["view"]
            # before the reveal a socket sees its own bid, and of the others only that they bid
            assert view["my_bid"] == (bids[i] if i in view["committed"] else None)
            assert view["revealed"] is None
            for line in frame["game"]["log"]["lines"]:
                if frame["game"]["log"]["seat"] != i:
                    assert not any(ch.isdigit() for ch in line), line
        final = frames[-1] if frames[-1]["type"] == "state" else next(
            f for f in reversed(frames) if f["type"] == "state")
        assert final["game"]["view"]["revealed"]["bids"] == bids
        assert "Bids revealed" in " ".join(final["game"]["log"]["lines"])
    for comm in comms:
        await comm.disconnect()
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.version == 3 and game.state["points"] == [1, 0, 0]


@pytest.mark.django_db(transaction=True)
def test_bots_play_a_whole_game_from_their_views(bots_now, three):
    game = sealed_game(bots=("random", "easy", "hard"))
    import time

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        time.sleep(0.05)
    assert game.status == Game.Status.FINISHED and game.version == 9
    assert Move.objects.filter(game=game, by_bot=True).count() == 9


def test_assigned_and_shown_with_its_own_columns(client, three):
    from classrooms.models import Membership

    teacher = make_user("teach")
    class_services.teacher_make(user=teacher)
    classroom = class_services.classroom_create(teacher=teacher, name="7C")
    for user in three:
        Membership.objects.create(classroom=classroom, student=user)
    client.force_login(teacher)
    form = client.get(f"/classes/{classroom.pk}/assignments/new/").content.decode()
    assert 'value="sealedbid:3"' in form
    response = client.post(f"/classes/{classroom.pk}/assignments/new/", {
        "title": "Bids", "game": "sealedbid:3", "table_size": 3, "grouping": "random",
        "bot_level": ""})
    assert response.status_code == 302
    table = class_selectors.dashboard_rows(assignment=classroom.assignments.get())[0]
    assert [i["label"] for i in table["players"][0]["summary"]] == ["Points", "Coins left"]
    game = Game.objects.get(kind="sealedbid")
    users = {s.index: s.user for s in game.seats.all()}
    for _round in range(3):
        for seat in range(3):
            game.refresh_from_db()
            services.move_submit(game_id=game.pk, seat_index=seat, user=users[seat],
                                 move={"type": "bid", "amount": seat}, expected_version=game.version)
    assignment = classroom.assignments.get()
    results = client.get(f"/assignments/{assignment.pk}/results/").content.decode()
    assert "<th>Points</th>" in results and "<th>Coins left</th>" in results
    raw = client.get(f"/assignments/{assignment.pk}/results.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(raw)))
    assert {r["Points"] for r in rows} == {"3", "0"} and {r["Coins left"] for r in rows} == {
        "10", "7", "4"}
    assert sum(r["Won"] == "yes" for r in rows) == 1
