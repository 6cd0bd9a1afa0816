"""One contract suite over every registered game (``games.engine.kinds()``).

Whatever a game is, the platform relies on the same promises: deterministic per seed, JSON
round trips, inputs never mutated, ``views`` equal to ``view``, only ``IllegalMove`` for junk,
random playouts that end, every listed legal move applies, public summaries, and for games
with hidden information a ``sample_state`` that agrees with what the seat sees while the
hidden parts really vary.
"""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, get_rules, kinds

CASES = [(kind, mode.key) for kind in kinds() for mode in get_rules(kind).modes]
MAX_PLIES = 5000
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _options(kind, mode_key):
    return get_rules(kind).mode_options(mode_key)


def random_move(rules, state, rng):
    """(seat, move): a random seat among those to move, and one of its legal moves."""
    seats = [s for s in rules.to_move(state) if rules.legal_moves(state, s)]
    assert seats, f"nobody can move although the game is not over: {rules.to_move(state)}"
    seat = rng.choice(seats)
    return seat, rng.choice(rules.legal_moves(state, seat))


def playout(rules, options, seed, *, plies=MAX_PLIES):
    """The states of one random game (first to last, at most ``plies`` moves)."""
    rng = random.Random(f"playout|{seed}")
    state = rules.setup(options, seed)
    states = [state]
    while not rules.is_over(state) and len(states) <= plies:
        seat, move = random_move(rules, state, rng)
        state = rules.apply(state, seat, move)
        states.append(state)
    return states


def sample(states, k, rng):
    picks = sorted(rng.sample(range(len(states)), min(k, len(states))))
    return [states[i] for i in picks]


def seats_of(rules, options):
    return list(range(rules.seat_count(options)))


@pytest.fixture(scope="module", params=CASES, ids=[f"{k}-{m}" for k, m in CASES])
def game(request):
    kind, mode_key = request.param
    rules = get_rules(kind)
    options = _options(kind, mode_key)
    return rules, options, playout(rules, options, f"contract-{kind}-{mode_key}")


def test_metadata_is_declared():
    for kind in kinds():
        rules = get_rules(kind)
        assert rules.name == kind and rules.title
        assert 1 <= rules.players_min <= rules.players_max
        assert isinstance(rules.imperfect_information, bool)
        assert isinstance(rules.simultaneous, bool)
        assert rules.modes and len({m.key for m in rules.modes}) == len(rules.modes)
        for mode in rules.modes:
            seats = rules.seat_count(rules.mode_options(mode.key))
            assert rules.players_min <= seats <= rules.players_max or (mode.solo and seats == 1)
        for option in rules.options:
            assert option.choices and option.default in [v for v, _ in option.choices]
            assert all(any(m.key == k for m in rules.modes) for k in option.modes)


def test_bad_options_are_refused_in_words():
    for kind in kinds():
        rules = get_rules(kind)
        for junk in (None, [], "x", {"players": 99}, {"players": "two"}, {"mode": "nope"}):
            with pytest.raises(IllegalMove) as refused:
                rules.setup(junk, 1)
            assert refused.value.code == "bad_options" and refused.value.message


def test_deterministic_per_seed(game):
    rules, options, states = game
    again = playout(rules, options, "contract-again")
    assert again == playout(rules, options, "contract-again")
    assert rules.setup(options, 7) == rules.setup(options, 7)


def test_random_playouts_end_with_a_complete_result(game):
    rules, options, states = game
    final = states[-1]
    assert rules.is_over(final), f"not over after {len(states) - 1} plies"
    assert rules.to_move(final) == []
    result = rules.result(final)
    json.dumps(result)
    seats = seats_of(rules, options)
    assert sorted(r["seat"] for r in result["ranking"]) == seats
    assert all(r["place"] >= 1 for r in result["ranking"])
    assert set(result["winners"]) <= set(seats)
    assert result["decided_by"] in rules.decided_by


def test_json_round_trip_plays_the_same(game):
    rules, options, states = game
    rng = random.Random(1)
    for state in sample(states[:-1], 12, rng):
        copied = json.loads(json.dumps(state))
        assert copied == state
        seat, move = random_move(rules, state, rng)
        assert rules.apply(copied, seat, move) == rules.apply(state, seat, move)
        assert rules.views(copied, [None, *seats_of(rules, options)]) == \
            rules.views(state, [None, *seats_of(rules, options)])


def jsonb_copy(value):
    """``value`` as PostgreSQL's jsonb hands it back: object keys shortest first, then by
    their bytes (not in the order they were written)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return {k: jsonb_copy(value[k]) for k in keys}
    if isinstance(value, list):
        return [jsonb_copy(v) for v in value]
    return value


def test_a_database_that_reorders_keys_plays_the_same(game):
    """A game saved in PostgreSQL and read back must be the same game: same legal moves, same
    views for every seat, and the same next state."""
    rules, options, states = game
    rng = random.Random(2)
    viewers = [None, *seats_of(rules, options)]
    for state in sample(states[:-1], 12, rng):
        stored = jsonb_copy(state)
        for seat in rules.to_move(state):
            assert rules.legal_moves(stored, seat) == rules.legal_moves(state, seat)
        assert rules.views(stored, viewers) == rules.views(state, viewers)
        seat, move = random_move(rules, state, rng)
        after, expected = rules.apply(stored, seat, move), rules.apply(state, seat, move)
        assert after == expected  # (dicts compare without regard to key order)
        assert rules.views(after, viewers) == rules.views(expected, viewers)


def test_nothing_mutates_its_input(game):
    rules, options, states = game
    rng = random.Random(2)
    seats = seats_of(rules, options)
    for state in sample(states[:-1], 10, rng):
        frozen = copy.deepcopy(state)
        seat, move = random_move(rules, state, rng)
        frozen_move = copy.deepcopy(move)
        after = rules.apply(state, seat, move)
        for viewer in [None, *seats]:
            view = rules.view(state, viewer)
            rules.sample_state(view, viewer, random.Random(3))
            rules.describe(state, move, after, seat, viewer)
        for s in seats:
            rules.summary(state, s)
            rules.legal_moves(state, s)
        assert state == frozen and move == frozen_move


def test_views_equal_view_per_seat(game):
    rules, options, states = game
    viewers = [None, *seats_of(rules, options)]
    for state in sample(states, 10, random.Random(4)):
        views = rules.views(state, viewers)
        assert views == [rules.view(state, v) for v in viewers]
        for viewer, view in zip(viewers, views, strict=True):
            json.dumps(view)
            assert view["to_move"] == rules.to_move(state)
            assert view["is_over"] == rules.is_over(state)
            own = rules.legal_moves(state, viewer) if viewer is not None else []
            assert view["legal_moves"] == own
            if rules.simultaneous:
                assert isinstance(view["committed"], list)


def test_every_listed_legal_move_applies(game):
    rules, options, states = game
    for state in sample(states[:-1], 8, random.Random(5)):
        for seat in rules.to_move(state):
            moves = rules.legal_moves(state, seat)
            for move in moves[:40]:
                json.dumps(move)
                rules.apply(state, seat, move)


def test_moves_of_other_seats_and_finished_games_are_refused(game):
    rules, options, states = game
    seats = seats_of(rules, options)
    for state in sample(states[:-1], 6, random.Random(6)):
        waiting = set(rules.to_move(state))
        for seat in waiting:
            for other in set(seats) - waiting:
                for move in rules.legal_moves(state, seat)[:5]:
                    if move.get("type") in rules.anytime_moves:
                        continue
                    with pytest.raises(IllegalMove):
                        rules.apply(state, other, move)
    final = states[-1]
    for seat in seats:
        assert rules.legal_moves(final, seat) == []
        for move in rules.legal_moves(states[-2], rules.to_move(states[-2])[0])[:3]:
            with pytest.raises(IllegalMove):
                rules.apply(final, seat, move)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12,
)


@pytest.mark.parametrize("kind", kinds())
@FAST
@given(seat=st.one_of(st.integers(-3, 8), st.none(), st.booleans(), st.text(max_size=2)),
       move=st.one_of(JUNK, st.fixed_dictionaries({"type": st.text(max_size=12)}, optional={
           "between": JUNK, "groups": JUNK, "cell": JUNK, "card": JUNK, "hex": JUNK,
           "party": JUNK, "tile": JUNK, "colour": JUNK, "choice": JUNK})),
       steps=st.integers(0, 30))
def test_junk_raises_only_illegal_move(kind, seat, move, steps):
    rules = get_rules(kind)
    for mode in rules.modes:
        options = rules.mode_options(mode.key)
        state = playout(rules, options, f"junk-{steps}", plies=steps)[-1]
        try:
            rules.apply(state, seat, move)
        except IllegalMove as exc:
            assert exc.code and exc.message
        try:
            rules.legal_moves(state, seat)
        except IllegalMove:
            pass


def test_summaries_are_public_and_shaped_alike(game):
    rules, options, states = game
    seats = seats_of(rules, options)
    keys = None
    for state in sample(states, 8, random.Random(7)):
        for seat in seats:
            items = rules.summary(state, seat)
            json.dumps(items)
            assert all(set(item) == {"key", "label", "value"} for item in items)
            keys = keys or [i["key"] for i in items]
            assert [i["key"] for i in items] == keys, "every seat and state has the same columns"
            # public: a state sampled from any seat's view has the same summaries
            for viewer in [None, *seats]:
                other = rules.sample_state(rules.view(state, viewer), viewer, random.Random(8))
                assert rules.summary(other, seat) == items


def test_describe_gives_lines_for_every_viewer(game):
    rules, options, states = game
    viewers = [None, *seats_of(rules, options)]
    rng = random.Random(9)
    for before in sample(states[:-1], 10, rng):
        seat, move = random_move(rules, before, rng)
        after = rules.apply(before, seat, move)
        for viewer in viewers:
            lines = rules.describe(before, move, after, seat, viewer)
            assert isinstance(lines, list) and lines and all(isinstance(x, str) for x in lines)


def test_sample_state_agrees_with_the_view(game):
    rules, options, states = game
    viewers = [None, *seats_of(rules, options)]
    for state in sample(states, 10, random.Random(10)):
        for viewer in viewers:
            view = rules.view(state, viewer)
            samples = [rules.sample_state(view, viewer, random.Random(i)) for i in range(4)]
            for sampled in samples:
                assert rules.view(sampled, viewer) == view
                assert rules.to_move(sampled) == rules.to_move(state)
                json.dumps(sampled)
            if not rules.imperfect_information:
                # nothing is hidden: the sample is the position itself, for every seat
                assert all(rules.views(s, viewers) == rules.views(state, viewers)
                           for s in samples)


@pytest.mark.parametrize("kind", [k for k in kinds() if get_rules(k).imperfect_information])
def test_hidden_parts_really_vary_across_samples(kind):
    """In some mode, some position and some seat's view, different draws give different full
    states (a game whose modes hide something; another mode may hide nothing)."""
    rules = get_rules(kind)
    for mode in rules.modes:
        options = rules.mode_options(mode.key)
        for state in playout(rules, options, f"vary-{kind}-{mode.key}")[:-1]:
            for viewer in [None, *seats_of(rules, options)]:
                view = rules.view(state, viewer)
                drawn = [rules.sample_state(view, viewer, random.Random(i)) for i in range(4)]
                if any(d != drawn[0] for d in drawn[1:]):
                    return
    pytest.fail("the hidden parts never varied across samples")
