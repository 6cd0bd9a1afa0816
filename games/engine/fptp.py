"""First Past the Post - the rules engine (2 to 5 players, sealed bids, news deck, AV).

Reads beside the published rulebook "First Past the Post - Rules" and the project's rulings;
``docs/rules/first-past-the-post.md`` says the rules as implemented, with every ruling.

===================================  ==========================================================
Rulebook / ruling                    Code
===================================  ==========================================================
Equipment: 50 budget cards, 32       ``fptp_data`` (``BUDGET_CARDS``, ``NEWS_DECK``,
  news cards, 8 Gerrymander Hexes      ``GERRYMANDER_HEXES``, ``DEFAULT_MAP``)
Setup: shuffle, deal players + 2     ``FPTPRules.setup``
Draw Budget Cards (to players still  ``_start_turn`` / ``_draw_card`` (the discard pile is
  in + 2; reshuffle the discards)      shuffled into a new draw pile when it runs out)
Draw and Play a News Card            ``_start_turn`` (drawn automatically; never reshuffled)
  Permanent: give, at most 2 held      ``_give`` (move ``give``)
  Action, "You may": declined goes     ``_use_news`` (moves ``pay`` / ``urbanise`` / ``news``
    to the bottom of the news pile       with ``accept: false``); ``_finish_news``
Campaign: the bus on an empty hex    ``_campaign`` (move ``campaign``)
  sealed bids, all at once             ``_bid`` (move ``bid``: a simultaneous step)
  sway = card + Permanent bonuses      ``sway_bonus``
  ties: active player, else draw-off   ``_reveal`` with ``fptp_count.rank_by_drawoff``
  used cards discarded                 ``_reveal``
Gerrymander (seven conditions)       ``fptp_map.gerrymander_problem``; ``_gerrymander``
Floods / Riots / Urbanisation /      ``_campaign`` (a won hex under Floods or Riots), ``_urbanise``,
  Clean Slate                          ``_clean_slate``
Ending the Game                      ``_after_campaign`` (every hex won; the end vote offered
                                       once ``decided_constituencies`` are all decided), ``_vote``
Constituency winner and tie-breaks   ``fptp_count.count_constituencies`` ("fptp")
Game winner                          ``result`` (constituencies, then hexes, else shared)
Early Leavers                        ``_leave`` (move ``leave``, allowed at any time)
Alternative Vote                     ``count_constituencies`` ("av"); stacks in ``_reveal``
===================================  ==========================================================

Moves
-----
``{"type": "give", "seat": s}``                  a drawn Permanent card goes to seat ``s``
``{"type": "give", "seat": s, "discard": k}``    ... who holds 2 already: card kind ``k`` of
                                                 theirs is discarded (the giver chooses)
``{"type": "pay", "card": v}``                   use a "Pay N" news card (v >= N)
``{"type": "news", "accept": false}``            leave a "You may" card unused (to the bottom)
``{"type": "gerrymander", "hex": [q, r], "colour": c}``   after paying
``{"type": "clean_slate", "seat": s}``            after paying for Clean Slate
``{"type": "urbanise", "rural": [q, r], "city": [q, r]}``  use Urbanisation
``{"type": "campaign", "hex": [q, r]}``           the battle bus (a won hex only under
                                                 Floods / Riots, which uses that card)
``{"type": "bid", "card": v}``                    the sealed bid (simultaneous)
``{"type": "end", "agree": true | false}``        answer the end offer (simultaneous)
``{"type": "leave"}``                             leave the game (any time; ``anytime_moves``)

State (internal, JSON)
----------------------
Piles are lists whose last item is the top.  ``stacks[i]`` is hex i's vote counters, top
first (the last campaign's full sway ranking; FPTP reads only the top).  ``const_of[i]`` is
the constituency index of hex i (gerrymandering changes it).  ``shuffle_key`` seeds the
reshuffles of the budget discard pile; it is hidden like the piles and hands.
"""

import random

from games.engine import fptp_lesson
from games.engine.base import IllegalMove, Mode, Option, Rules, seat_ref, seats_checked
from games.engine.base import is_int as _is_int
from games.engine.fptp_count import (
    count_constituencies,
    decided_constituencies,
    rank_by_drawoff,
)
from games.engine.fptp_data import (
    BUDGET_CARDS,
    COLOURS,
    DEFAULT_MAP,
    HAND_EXTRA,
    HEX_TYPE_NAMES,
    MAX_PERMANENTS,
    NEWS,
    NEWS_DECK,
    SEAT_COLOURS,
    SEAT_SHAPES,
)
from games.engine.fptp_map import board_for, check_map, gerrymander_problem, normalise_map

VARIANTS = ("fptp", "av")
SYSTEM_NAMES = {"fptp": "First Past the Post", "av": "Alternative Vote"}

_DEFAULT_MAP = normalise_map(DEFAULT_MAP)

_LISTS = ("const_of", "gerrymandered", "stacks", "left", "budget_pile", "budget_discard",
          "news_pile", "news_discard", "bids", "votes", "old")


def _copy(state):
    """A copy sharing no mutable container with ``state`` except the map (never changed) and
    the inner lists of ``stacks`` (always replaced, never changed in place)."""
    new = dict(state)
    for key in _LISTS:
        new[key] = list(state[key])
    new["hands"] = [list(h) for h in state["hands"]]
    new["perms"] = [list(p) for p in state["perms"]]
    new["gerry_left"] = dict(state["gerry_left"])
    new["events"] = []
    return new


def _plural(k, word, words=None):
    return f"{k} {word}" if k == 1 else f"{k} {words or word + 's'}"


def _seat_list(seats):
    names = [seat_ref(s) for s in seats]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _title(kind):
    return NEWS[kind]["title"]


def players_in(state):
    return [s for s in range(state["players"]) if not state["left"][s]]


def hand_size(state):
    """Cards a player draws up to: players still in the game plus two."""
    return len(players_in(state)) + HAND_EXTRA


def _next_seat(state, seat):
    n = state["players"]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if not state["left"][s]:
            return s
    return seat


def clockwise(state, seats):
    """``seats`` in turn order starting from the active player."""
    a, n = state["active"], state["players"]
    return sorted(seats, key=lambda s: (s - a) % n)


def in_region(board, const_of, i, where):
    """Is hex ``i`` in a news card's region?"""
    if "hex_type" in where:
        return board.types[i] == where["hex_type"]
    if "nation" in where:
        return board.nation[i] == where["nation"]
    if "not_nation" in where:
        return board.nation[i] != where["not_nation"]
    if "constituency" in where:
        return board.const_names[const_of[i]] == where["constituency"]
    return False


def sway_bonus(state, seat, i, board=None):
    """The sway ``seat``'s Permanent cards add in hex ``i`` (their bonuses add up)."""
    board = board or board_for(state["map"])
    total = 0
    for kind in state["perms"][seat]:
        eff = NEWS[kind]["effect"]
        if in_region(board, state["const_of"], i, eff["where"]):
            total += eff["sway"]
    return total


def _played(state, seat, card):
    """``seat`` showed ``card`` (a revealed bid, a payment): one fewer of its hidden cards
    is older than the last reshuffle if the card was not in that pile."""
    if state["pile_set"] is not None and card not in state["pile_set"]:
        state["old"][seat] -= 1


def _hex_words(board, const_of, i):
    return f"a {board.type_names[i]} hex of {board.const_names[const_of[i]]}"


# --------------------------------------------------------------------------- the rules

class FPTPRules(Rules):
    name = "fptp"
    title = "First Past the Post"
    players_min = 2
    players_max = 5
    imperfect_information = True
    simultaneous = True
    modes = tuple(Mode(str(n), f"{n} players", {"players": n}) for n in range(2, 6))
    options = (
        Option("variant", "Voting system",
               (("fptp", "First Past the Post"), ("av", "Alternative Vote")), "fptp"),
        Option("news", "News cards",
               ((True, "With news cards"),
                (False, "Without news cards (quicker, for younger players)")), True),
    )
    decided_by = {
        "constituencies": "most constituencies",
        "hexes": "tie-break: most hexes won",
        "shared": "shared win",
    }
    anytime_moves = ("leave",)

    # ------------------------------------------------------------------ setup
    def _parse_options(self, options):
        if not isinstance(options, dict):
            raise IllegalMove("bad_options", "The game options must be a dictionary.")
        players = options.get("players")
        if not _is_int(players) or not 2 <= players <= 5:
            raise IllegalMove("bad_options", "First Past the Post needs 2 to 5 players.")
        variant = options.get("variant", "fptp")
        if variant is None:
            variant = "fptp"
        if variant not in VARIANTS:
            raise IllegalMove("bad_options", "The voting system must be \"fptp\" (First Past "
                                             "the Post) or \"av\" (Alternative Vote).")
        news = options.get("news", True)
        if news is None:
            news = True
        if not isinstance(news, bool):
            raise IllegalMove("bad_options", "News cards are either on (true) or off (false).")
        data = options.get("map")
        if data is None:
            data = _DEFAULT_MAP
        else:
            problems = check_map(data)
            if problems:
                raise IllegalMove("bad_options", f"This map cannot be played: {problems[0]}")
            data = normalise_map(data)
        first = options.get("first_player")
        if first is not None and (not _is_int(first) or not 0 <= first < players):
            raise IllegalMove("bad_options",
                              f"The first player must be a seat from 0 to {players - 1}.")
        return players, variant, news, data, first

    def seat_count(self, options):
        return self._parse_options(options)[0]

    def map_check(self, data):
        return check_map(data)

    def setup(self, options, seed):
        players, variant, news, data, first = self._parse_options(options)
        rng = random.Random(seed)
        board = board_for(data)
        pile = list(BUDGET_CARDS)
        rng.shuffle(pile)
        news_pile = [card["kind"] for card in NEWS_DECK for _ in range(card["count"])] \
            if news else []
        rng.shuffle(news_pile)
        if first is None:
            first = rng.randrange(players)
        key = f"{rng.getrandbits(64):016x}"
        hands = [[] for _ in range(players)]
        for _ in range(players + HAND_EXTRA):
            for k in range(players):
                hands[(first + k) % players].append(pile.pop())
        state = {
            "game": "fptp",
            "version": 1,
            "players": players,
            "variant": variant,
            "news_on": news,
            "map": data,
            "const_of": list(board.home),
            "gerrymandered": [None] * board.size,
            "gerry_left": {c: board.gerrymander_hexes.get(c, 0) for c in COLOURS},
            "stacks": [[] for _ in range(board.size)],
            "hands": hands,
            "left": [False] * players,
            "perms": [[] for _ in range(players)],
            "budget_pile": pile,
            "budget_discard": [],
            "news_pile": news_pile,
            "news_known": 0,
            "news_discard": [],
            "news_card": None,
            "paid": None,
            "first_player": first,
            "active": first,
            "turn": 0,
            "step": "campaign",
            "bus": None,
            "recampaign": None,
            "bids": [None] * players,
            "votes": [None] * players,
            "next_offer_turn": 0,
            "last_reveal": None,
            "over": False,
            "end_reason": None,
            "final": None,
            "shuffle_key": key,
            "shuffles": 0,
            "pile_set": None,
            "old": [0] * players,
            "events": [],
        }
        self._start_turn(state, first)
        return state

    # ------------------------------------------------------------------ turn machinery
    def _draw_card(self, state):
        """The top budget card (the discard pile becomes the new pile when it runs out)."""
        if not state["budget_pile"]:
            if not state["budget_discard"]:
                return None
            pile = state["budget_discard"]
            state["budget_discard"] = []
            # public from now on: which cards make up the new pile, and so how many of each
            # seat's cards are older than it (those cannot be in the pile)
            state["pile_set"] = sorted(pile)
            state["old"] = [len(h) for h in state["hands"]]
            random.Random(f"{state['shuffle_key']}|{state['shuffles']}").shuffle(pile)
            state["shuffles"] += 1
            state["budget_pile"] = pile
            state["events"].append({"e": "reshuffle", "count": len(pile)})
        return state["budget_pile"].pop()

    def _start_turn(self, state, seat):
        state["active"] = seat
        state["turn"] += 1
        state["bus"] = None
        state["recampaign"] = None
        state["paid"] = None
        state["news_card"] = None
        state["events"].append({"e": "turn", "seat": seat, "turn": state["turn"]})
        hand = state["hands"][seat]
        drawn = []
        while len(hand) < hand_size(state):
            card = self._draw_card(state)
            if card is None:
                break
            hand.append(card)
            drawn.append(card)
        if drawn:
            state["events"].append({"e": "draw", "seat": seat, "cards": drawn})
        state["step"] = "campaign"
        if state["news_on"] and state["news_pile"]:
            kind = state["news_pile"].pop()
            if len(state["news_pile"]) < state["news_known"]:
                state["news_known"] = len(state["news_pile"])
            state["news_card"] = kind
            state["events"].append({"e": "news", "seat": seat, "kind": kind})
            card = NEWS[kind]
            if card["type"] == "permanent" or card["effect"]["action"] != "recampaign":
                state["step"] = "news"

    def _finish_news(self, state, used):
        """The current news card is discarded (used) or goes to the bottom of the pile."""
        kind = state["news_card"]
        if kind is None:
            return
        if used:
            state["news_discard"].append(kind)
        else:
            state["news_pile"].insert(0, kind)
            state["news_known"] += 1
        state["news_card"] = None

    def _after_campaign(self, state):
        if all(state["stacks"]):
            self._end_game(state, "all_won")
            return
        if state["turn"] >= state["next_offer_turn"] and \
                all(decided_constituencies(state, state["variant"])):
            state["step"] = "end_vote"
            state["votes"] = [None] * state["players"]
            state["events"].append({"e": "offer"})
            return
        self._start_turn(state, _next_seat(state, state["active"]))

    def _end_game(self, state, reason):
        if state["news_card"] is not None:
            self._finish_news(state, state["paid"] is not None)
        state["over"] = True
        state["step"] = "over"
        state["end_reason"] = reason
        # cards committed to a campaign the game's end cut short are discarded face up
        for s, b in enumerate(state["bids"]):
            if b is not None:
                _played(state, s, b)
        state["budget_discard"].extend(b for b in state["bids"] if b is not None)
        state["bids"] = [None] * state["players"]
        state["votes"] = [None] * state["players"]
        state["final"] = {system: count_constituencies(state, system) for system in VARIANTS}
        state["events"].append({"e": "over", "reason": reason})

    # ------------------------------------------------------------------ who moves, and how
    def to_move(self, state):
        step = state["step"]
        if state["over"]:
            return []
        if step == "bid":
            return [s for s in range(state["players"])
                    if not state["left"][s] and state["bids"][s] is None and state["hands"][s]]
        if step == "end_vote":
            return [s for s in range(state["players"])
                    if not state["left"][s] and state["votes"][s] is None]
        return [state["active"]]

    def legal_moves(self, state, seat):
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            return []
        if seat not in self.to_move(state):
            return []
        step = state["step"]
        if step == "news":
            moves = self._news_moves(state, seat)
        elif step == "gerrymander":
            moves = self._gerrymander_moves(state, self._gerrymander_colours(state))
        elif step == "clean_slate":
            moves = [{"type": "clean_slate", "seat": s} for s in players_in(state)
                     if state["perms"][s]]
        elif step == "campaign":
            moves = [{"type": "campaign", "hex": [q, r]}
                     for q, r in (board_for(state["map"]).coords[i]
                                  for i in self._campaign_hexes(state))]
        elif step == "bid":
            moves = [{"type": "bid", "card": v} for v in sorted(set(state["hands"][seat]))]
        else:  # end_vote
            moves = [{"type": "end", "agree": True}, {"type": "end", "agree": False}]
        return moves + [{"type": "leave"}]

    def _news_moves(self, state, seat):
        card = NEWS[state["news_card"]]
        if card["type"] == "permanent":
            moves = []
            for s in players_in(state):
                held = state["perms"][s]
                if len(held) < MAX_PERMANENTS:
                    moves.append({"type": "give", "seat": s})
                else:
                    moves.extend({"type": "give", "seat": s, "discard": k}
                                 for k in dict.fromkeys(held))
            return moves
        eff = card["effect"]
        moves = []
        if eff["action"] == "swap":
            moves = self._urbanise_moves(state)
        elif self._action_possible(state):
            moves = [{"type": "pay", "card": v}
                     for v in sorted(set(state["hands"][seat])) if v >= eff["cost"]]
        return moves + [{"type": "news", "accept": False}]

    def _gerrymander_colours(self, state):
        colours = NEWS[state["news_card"]]["effect"]["colours"] or COLOURS
        return [c for c in colours if state["gerry_left"].get(c, 0) > 0]

    def _gerrymander_moves(self, state, colours, first_only=False):
        board = board_for(state["map"])
        moves = []
        for colour in colours:
            for i in range(board.size):
                if board.types[i] != "rural":
                    continue
                code, _ = gerrymander_problem(board, state["const_of"], state["gerrymandered"],
                                              i, colour)
                if code is None:
                    q, r = board.coords[i]
                    moves.append({"type": "gerrymander", "hex": [q, r], "colour": colour})
                    if first_only:
                        return moves
        return moves

    def _action_possible(self, state):
        """Can the current "Pay N" card be used at all (before anyone pays)?"""
        action = NEWS[state["news_card"]]["effect"]["action"]
        if action == "gerrymander":
            colours = self._gerrymander_colours(state)
            return bool(colours and self._gerrymander_moves(state, colours, first_only=True))
        if action == "clean_slate":
            return any(state["perms"][s] for s in players_in(state))
        return False

    def _urbanise_moves(self, state):
        board = board_for(state["map"])
        stacks, const_of = state["stacks"], state["const_of"]
        moves = []
        for k, city in enumerate(board.city):
            if not stacks[city]:
                continue
            cq, cr = board.coords[city]
            for i in range(board.size):
                if const_of[i] == k and board.types[i] == "rural" and stacks[i] \
                        and stacks[i][0] != stacks[city][0]:
                    q, r = board.coords[i]
                    moves.append({"type": "urbanise", "rural": [q, r], "city": [cq, cr]})
        return moves

    def _campaign_hexes(self, state):
        board = board_for(state["map"])
        stacks = state["stacks"]
        out = [i for i in range(board.size) if not stacks[i]]
        kind = state["news_card"]
        if kind is not None and NEWS[kind]["effect"].get("action") == "recampaign":
            types = NEWS[kind]["effect"]["hex_types"]
            out += [i for i in range(board.size) if stacks[i] and board.types[i] in types]
            out.sort()
        return out

    # ------------------------------------------------------------------ applying moves
    def apply(self, state, seat, move):
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("bad_move", "A move must be an object with a \"type\".")
        if state["over"]:
            raise IllegalMove("game_over", "The game is over.")
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
        if state["left"][seat]:
            raise IllegalMove("has_left", "You have left this game.")
        kind = move["type"]
        if kind == "leave":
            return self._leave(state, seat)
        step = state["step"]
        if seat not in self.to_move(state):
            if step == "bid" and state["bids"][seat] is not None:
                raise IllegalMove("already_bid",
                                  "You have already chosen your card for this campaign.")
            if step == "bid" and not state["hands"][seat]:
                raise IllegalMove("no_cards", "You have no budget cards, so you cannot "
                                              "campaign this time.")
            if step == "end_vote" and state["votes"][seat] is not None:
                raise IllegalMove("already_answered", "You have already answered.")
            raise IllegalMove("not_your_turn", "It is not your turn.")
        handler = {
            "news": self._news_step,
            "gerrymander": self._gerrymander,
            "clean_slate": self._clean_slate,
            "campaign": self._campaign,
            "bid": self._bid,
            "end_vote": self._vote,
        }[step]
        return handler(state, seat, move)

    def _expect(self, state, move, *kinds):
        if move["type"] not in kinds:
            raise IllegalMove("wrong_move", self._waiting_for(state))

    def _waiting_for(self, state):
        step = state["step"]
        if step == "news":
            card = NEWS[state["news_card"]]
            if card["type"] == "permanent":
                return f"First give {card['title']} to a player (\"give\")."
            if card["effect"]["action"] == "swap":
                return (f"First decide about {card['title']}: swap two vote counters "
                        "(\"urbanise\") or leave the card (\"news\" with accept false).")
            return (f"First decide about {card['title']}: pay a budget card of at least "
                    f"{card['effect']['cost']} (\"pay\") or leave the card (\"news\" with "
                    "accept false).")
        if step == "gerrymander":
            return "Now place the Gerrymander Hex (\"gerrymander\")."
        if step == "clean_slate":
            return "Now choose whose Permanent cards are discarded (\"clean_slate\")."
        if step == "campaign":
            return "Now choose the hex to campaign for (\"campaign\")."
        if step == "bid":
            return "Now choose a budget card for this campaign (\"bid\")."
        return "Now answer whether to end the game (\"end\" with agree true or false)."

    def _hex(self, state, value):
        if not isinstance(value, (list, tuple)) or len(value) != 2 \
                or not all(_is_int(x) for x in value):
            raise IllegalMove("bad_hex", "Name a hex by its coordinates [q, r].")
        board = board_for(state["map"])
        i = board.index.get((value[0], value[1]))
        if i is None:
            raise IllegalMove("off_map", f"There is no hex at ({value[0]}, {value[1]}) on "
                                         "this map.")
        return i

    def _card(self, state, seat, value):
        if not _is_int(value):
            raise IllegalMove("bad_card", "Name a budget card by its number.")
        if value not in state["hands"][seat]:
            raise IllegalMove("not_in_hand", f"You do not hold the budget card {value}.")
        return value

    def _seat_arg(self, state, value):
        if not _is_int(value) or not 0 <= value < state["players"]:
            raise IllegalMove("bad_seat", "Choose one of the players in this game.")
        if state["left"][value]:
            raise IllegalMove("has_left", "That player has left the game.")
        return value

    # news -----------------------------------------------------------------
    def _news_step(self, state, seat, move):
        card = NEWS[state["news_card"]]
        if card["type"] == "permanent":
            self._expect(state, move, "give")
            return self._give(state, seat, move)
        action = card["effect"]["action"]
        if action == "swap":
            self._expect(state, move, "urbanise", "news")
        else:
            self._expect(state, move, "pay", "news")
        if move["type"] == "news":
            if move.get("accept") is not False:
                raise IllegalMove("use_card", self._waiting_for(state))
            new = _copy(state)
            new["events"].append({"e": "decline", "seat": seat, "kind": state["news_card"]})
            self._finish_news(new, used=False)
            new["step"] = "campaign"
            return new
        if move["type"] == "urbanise":
            return self._urbanise(state, seat, move)
        return self._pay(state, seat, move, card)

    def _give(self, state, seat, move):
        to = self._seat_arg(state, move.get("seat"))
        held = state["perms"][to]
        discard = move.get("discard")
        kind = state["news_card"]
        if len(held) >= MAX_PERMANENTS:
            if discard is None:
                raise IllegalMove("choose_discard", f"That player already holds "
                                                    f"{MAX_PERMANENTS} Permanent cards: say "
                                                    "which of them to discard (\"discard\").")
            if not isinstance(discard, str) or discard not in held:
                raise IllegalMove("bad_discard", "That player does not hold that card.")
        elif discard is not None:
            raise IllegalMove("nothing_to_discard", f"That player holds fewer than "
                                                    f"{MAX_PERMANENTS} Permanent cards, so "
                                                    "none is discarded.")
        new = _copy(state)
        if discard is not None:
            new["perms"][to].remove(discard)
            new["news_discard"].append(discard)
        new["perms"][to].append(kind)
        new["news_card"] = None
        new["step"] = "campaign"
        new["events"].append({"e": "give", "seat": seat, "to": to, "kind": kind,
                              "discard": discard})
        return new

    def _pay(self, state, seat, move, card):
        value = self._card(state, seat, move.get("card"))
        cost = card["effect"]["cost"]
        if value < cost:
            raise IllegalMove("too_low", f"{card['title']} costs a budget card of at least "
                                         f"{cost}; {value} is too low.")
        if not self._action_possible(state):
            if card["effect"]["action"] == "gerrymander":
                why = "there is no Gerrymander Hex that could be placed anywhere"
            else:
                why = "nobody holds a Permanent card"
            raise IllegalMove("cannot_use", f"{card['title']} cannot be used now: {why}.")
        new = _copy(state)
        new["hands"][seat].remove(value)
        new["budget_discard"].append(value)
        _played(new, seat, value)
        new["paid"] = value
        new["step"] = card["effect"]["action"]
        new["events"].append({"e": "pay", "seat": seat, "card": value,
                              "kind": state["news_card"]})
        return new

    def _gerrymander(self, state, seat, move):
        self._expect(state, move, "gerrymander")
        board = board_for(state["map"])
        i = self._hex(state, move.get("hex"))
        colour = move.get("colour")
        allowed = NEWS[state["news_card"]]["effect"]["colours"] or COLOURS
        if colour not in COLOURS:
            raise IllegalMove("bad_colour", "The colour must be green, orange, yellow or grey.")
        if colour not in allowed:
            raise IllegalMove("wrong_colour", f"{_title(state['news_card'])} only lets you "
                                              f"place a {' or '.join(allowed)} Gerrymander Hex.")
        if state["gerry_left"].get(colour, 0) <= 0:
            raise IllegalMove("none_left", f"There is no {colour} Gerrymander Hex left.")
        code, result = gerrymander_problem(board, state["const_of"], state["gerrymandered"], i,
                                           colour)
        if code is not None:
            raise IllegalMove(code, result)
        new = _copy(state)
        old = new["const_of"][i]
        new["const_of"][i] = result
        new["gerrymandered"][i] = colour
        new["gerry_left"][colour] -= 1
        self._finish_news(new, used=True)
        new["paid"] = None
        new["step"] = "campaign"
        new["events"].append({"e": "gerrymander", "seat": seat, "hex": i, "colour": colour,
                              "from": old, "to": result})
        return new

    def _clean_slate(self, state, seat, move):
        self._expect(state, move, "clean_slate")
        target = self._seat_arg(state, move.get("seat"))
        if not state["perms"][target]:
            raise IllegalMove("no_permanents", "That player holds no Permanent cards.")
        new = _copy(state)
        kinds = new["perms"][target]
        new["news_discard"].extend(kinds)
        new["perms"][target] = []
        self._finish_news(new, used=True)
        new["paid"] = None
        new["step"] = "campaign"
        new["events"].append({"e": "clean_slate", "seat": seat, "target": target,
                              "kinds": kinds})
        return new

    def _urbanise(self, state, seat, move):
        board = board_for(state["map"])
        i = self._hex(state, move.get("rural"))
        c = self._hex(state, move.get("city"))
        const_of, stacks = state["const_of"], state["stacks"]
        if board.types[i] != "rural":
            raise IllegalMove("not_rural", "The first hex to swap must be a Rural hex.")
        if board.types[c] != "city":
            raise IllegalMove("not_city", "The second hex to swap must be a City hex.")
        if const_of[i] != const_of[c]:
            raise IllegalMove("not_same_constituency", "The two hexes must be in the same "
                                                       "constituency.")
        if not stacks[i] or not stacks[c]:
            raise IllegalMove("no_counter", "Both hexes must already have a vote counter.")
        if stacks[i][0] == stacks[c][0]:
            raise IllegalMove("same_counter", "Both hexes have the same player's vote "
                                              "counter; swapping would change nothing.")
        new = _copy(state)
        new["stacks"][i], new["stacks"][c] = stacks[c], stacks[i]
        self._finish_news(new, used=True)
        new["step"] = "campaign"
        new["events"].append({"e": "urbanise", "seat": seat, "rural": i, "city": c})
        return new

    # campaign and bids ------------------------------------------------------
    def _campaign(self, state, seat, move):
        self._expect(state, move, "campaign")
        board = board_for(state["map"])
        i = self._hex(state, move.get("hex"))
        stack = state["stacks"][i]
        kind = state["news_card"]
        recampaign = None
        if stack:
            eff = NEWS[kind]["effect"] if kind is not None else {}
            if eff.get("action") != "recampaign":
                raise IllegalMove("already_won", "That hex already has a vote counter: "
                                                 "campaign for a hex without one.")
            if board.types[i] not in eff["hex_types"]:
                kinds = " or ".join(HEX_TYPE_NAMES[t] for t in eff["hex_types"])
                raise IllegalMove("already_won", f"{_title(kind)} only lets you campaign "
                                                 f"again for a {kinds} hex.")
            recampaign = {"kind": kind, "holder": stack[0], "bonus": eff["holder_bonus"]}
        new = _copy(state)
        if kind is not None:
            if recampaign is None:
                new["events"].append({"e": "decline", "seat": seat, "kind": kind})
            self._finish_news(new, used=recampaign is not None)
        new["bus"] = i
        new["recampaign"] = recampaign
        new["step"] = "bid"
        new["bids"] = [None] * new["players"]
        new["events"].append({"e": "campaign", "seat": seat, "hex": i,
                              "recampaign": recampaign})
        if not self.to_move(new):
            self._reveal(new)
        return new

    def _bid(self, state, seat, move):
        self._expect(state, move, "bid")
        value = self._card(state, seat, move.get("card"))
        new = _copy(state)
        new["hands"][seat].remove(value)
        new["bids"][seat] = value
        new["events"].append({"e": "bid", "seat": seat, "card": value})
        if not self.to_move(new):
            self._reveal(new)
        return new

    def _reveal(self, state):
        """All bids are in: sways, the winner (ties: the active player, else draw-offs), the
        vote counter stack (the full ranking), discards; then what comes next."""
        board = board_for(state["map"])
        n, i, a = state["players"], state["bus"], state["active"]
        bids = state["bids"]
        bidders = clockwise(state, [s for s in range(n) if bids[s] is not None])
        for s in bidders:
            _played(state, s, bids[s])
        rec = state["recampaign"]
        bonus = [None] * n
        sway = [None] * n
        for s in bidders:
            bonus[s] = sway_bonus(state, s, i, board)
            if rec is not None and s == rec["holder"]:
                bonus[s] += rec["bonus"]
            sway[s] = bids[s] + bonus[s]
        ordered = sorted(bidders, key=lambda s: -sway[s])
        groups = []
        for s in ordered:
            if groups and sway[groups[-1][0]] == sway[s]:
                groups[-1].append(s)
            else:
                groups.append([s])
        av = state["variant"] == "av"
        rounds = []
        ranking = []
        for gi, group in enumerate(groups):
            head = [a] if a in group else []
            rest = [s for s in group if s != a]
            if len(rest) > 1 and (av or (gi == 0 and not head)):
                rest = rank_by_drawoff(rest, lambda: self._draw_card(state), rounds, full=av)
            ranking.extend(head + rest)
        winner = ranking[0] if ranking else None
        if ranking:
            state["stacks"][i] = ranking
        state["budget_discard"].extend(bids[s] for s in range(n) if bids[s] is not None)
        state["budget_discard"].extend(c for rnd in rounds for _s, c in rnd)
        state["last_reveal"] = {
            "turn": state["turn"],
            "hex": i,
            "active": a,
            "bids": list(bids),
            "bonus": bonus,
            "sways": sway,
            "drawoff": rounds,
            "ranking": ranking,
            "winner": winner,
            "recampaign": rec,
        }
        state["bids"] = [None] * n
        state["events"].append({"e": "reveal"})
        state["step"] = "revealed"
        self._after_campaign(state)

    # end vote and leaving ----------------------------------------------------
    def _vote(self, state, seat, move):
        self._expect(state, move, "end")
        agree = move.get("agree")
        if not isinstance(agree, bool):
            raise IllegalMove("bad_answer", "Answer with agree true (end the game) or false "
                                            "(play on).")
        new = _copy(state)
        new["votes"][seat] = agree
        new["events"].append({"e": "vote", "seat": seat, "agree": agree})
        self._settle_vote(new)
        return new

    def _settle_vote(self, state):
        votes = state["votes"]
        if any(v is False for v in votes):
            state["votes"] = [None] * state["players"]
            state["next_offer_turn"] = state["turn"] + len(players_in(state))
            state["events"].append({"e": "play_on"})
            self._start_turn(state, _next_seat(state, state["active"]))
        elif all(votes[s] for s in players_in(state)):
            self._end_game(state, "agreed")

    def _leave(self, state, seat):
        new = _copy(state)
        new["left"][seat] = True
        new["old"][seat] = 0
        new["budget_discard"].extend(new["hands"][seat])
        new["hands"][seat] = []
        if new["bids"][seat] is not None:
            new["budget_discard"].append(new["bids"][seat])
            new["bids"][seat] = None
        new["news_discard"].extend(new["perms"][seat])
        new["perms"][seat] = []
        new["votes"][seat] = None
        new["events"].append({"e": "leave", "seat": seat})
        remaining = players_in(new)
        step = new["step"]
        if len(remaining) == 1:
            last = remaining[0]
            empty = [i for i, st in enumerate(new["stacks"]) if not st]
            for i in empty:
                new["stacks"][i] = [last]
            new["events"].append({"e": "claim", "seat": last, "count": len(empty)})
            self._end_game(new, "last_player")
        elif step == "end_vote":
            self._settle_vote(new)
        elif step == "bid":
            if not self.to_move(new):
                self._reveal(new)
        elif seat == new["active"]:
            # the leaver's turn ends before its campaign: an unused news card goes to the
            # bottom of the pile, one already paid for is discarded
            if new["news_card"] is not None:
                self._finish_news(new, used=new["paid"] is not None)
            self._start_turn(new, _next_seat(new, seat))
        return new

    # ------------------------------------------------------------------ views
    def view(self, state, seat):
        return self.views(state, [seat])[0]

    def views(self, state, seats):
        seats = seats_checked(state, seats)
        common = self._view_common(state)
        out = []
        for seat in seats:
            view = dict(common)
            view["seat"] = seat
            view["hand"] = sorted(state["hands"][seat]) if seat is not None else None
            view["my_bid"] = state["bids"][seat] if seat is not None else None
            view["legal_moves"] = self.legal_moves(state, seat) if seat is not None else []
            out.append(view)
        return out

    def standings(self, state):
        """The current count (the final one once over) by the game's voting system."""
        if state["over"]:
            return state["final"][state["variant"]]
        return count_constituencies(state, state["variant"], drawoff=False)

    def _view_common(self, state):
        board = board_for(state["map"])
        n = state["players"]
        const_of, stacks = state["const_of"], state["stacks"]
        hexes = []
        for i, (q, r) in enumerate(board.coords):
            k = const_of[i]
            hexes.append({
                "q": q, "r": r, "type": board.types[i], "nation": board.nation[i],
                "constituency": board.const_names[k], "colour": board.const_colour[k],
                "gerrymandered": state["gerrymandered"][i],
                "owner": stacks[i][0] if stacks[i] else None,
                "stack": list(stacks[i]),
            })
        count = self.standings(state)
        decided = [True] * len(board.const_names) if state["over"] else \
            decided_constituencies(state, state["variant"])
        consts = []
        for k, row in enumerate(count["constituencies"]):
            cq, cr = board.coords[board.city[k]]
            consts.append({
                "name": row["name"], "nation": board.const_nation[k],
                "colour": board.const_colour[k], "city": [cq, cr], "hexes": row["hexes"],
                "unclaimed": row["unclaimed"], "leader": row["winner"], "tied": row["tied"],
                "votes": row["votes"], "margin": row["margin"], "decided": decided[k],
            })
        to_move = self.to_move(state)
        step = state["step"]
        committed = []
        if step == "bid":
            committed = [s for s in range(n) if state["bids"][s] is not None]
        elif step == "end_vote":
            committed = [s for s in range(n) if state["votes"][s] is not None]
        seats = []
        for s in range(n):
            seats.append({
                "seat": s, "colour": SEAT_COLOURS[s], "shape": SEAT_SHAPES[s],
                "hand_size": len(state["hands"][s]), "old_cards": state["old"][s],
                "permanents": list(state["perms"][s]),
                "left": state["left"][s], "committed": s in committed,
                "constituencies": count["per_seat"][s], "hexes": count["hexes"][s],
            })
        kind = state["news_card"]
        news_card = None
        if kind is not None:
            card = NEWS[kind]
            news_card = {"kind": kind, "title": card["title"], "type": card["type"],
                         "text": card["text"]}
        decision = None
        if not state["over"]:
            decision = {"news": "use_news", "gerrymander": "gerrymander",
                        "clean_slate": "clean_slate", "campaign": "campaign", "bid": "bid",
                        "end_vote": "end_vote"}[step]
            if step == "news" and NEWS[kind]["type"] == "permanent":
                decision = "give"
        reveal = state["last_reveal"]
        if reveal is not None:
            q, r = board.coords[reveal["hex"]]
            reveal = {**reveal, "hex": [q, r],
                      "constituency": board.const_names[const_of[reveal["hex"]]]}
        bus = state["bus"]
        return {
            "game": "fptp",
            "variant": state["variant"],
            "news": state["news_on"],
            "players": n,
            "map": state["map"],
            "hexes": hexes,
            "constituencies": consts,
            "seats": seats,
            "draw_to": hand_size(state),
            "first_player": state["first_player"],
            "active": state["active"],
            "turn": state["turn"],
            "step": step,
            "pending": None if decision is None else {"decision": decision, "seats": to_move},
            "bus": None if bus is None else list(board.coords[bus]),
            "recampaign": state["recampaign"],
            "news_card": news_card,
            "paid": state["paid"],
            "budget_pile": len(state["budget_pile"]),
            "budget_discard": list(state["budget_discard"]),
            "budget_pile_cards": None if state["pile_set"] is None else list(state["pile_set"]),
            "news_pile": len(state["news_pile"]),
            "news_pile_bottom": list(reversed(state["news_pile"][:state["news_known"]])),
            "news_discard": list(state["news_discard"]),
            "gerrymander_left": dict(state["gerry_left"]),
            "last_reveal": reveal,
            "committed": committed,
            "end_vote": None if step != "end_vote" else
            {"agreed": [s for s in range(n) if state["votes"][s]]},
            "next_end_offer_turn": state["next_offer_turn"],
            "end_reason": state["end_reason"],
            "final": state["final"],
            "to_move": to_move,
            "is_over": state["over"],
            "result": self.result(state) if state["over"] else None,
        }

    def is_over(self, state):
        return bool(state["over"])

    # ------------------------------------------------------------------ result
    def result(self, state):
        if not state["over"]:
            return None
        variant = state["variant"]
        other = "av" if variant == "fptp" else "fptp"
        main = _rank(state["final"][variant], state["players"])
        alt = _rank(state["final"][other], state["players"])
        rows = []
        for row in main["ranking"]:
            s = row["seat"]
            rows.append({**row, "colour": SEAT_COLOURS[s], "left": state["left"][s]})
        winners = main["winners"]
        if len(winners) == 1:
            outcome = (f"{seat_ref(winners[0])} wins with "
                       f"{_plural(main['ranking'][0]['constituencies'], 'constituency', 'constituencies')}"
                       f" under {SYSTEM_NAMES[variant]}.")
        else:
            outcome = f"{_seat_list(winners)} share the win under {SYSTEM_NAMES[variant]}."
        return {
            "ranking": rows,
            "winners": winners,
            "decided_by": main["decided_by"],
            "variant": variant,
            "end_reason": state["end_reason"],
            "constituency_winners": [row["winner"] for row in
                                     state["final"][variant]["constituencies"]],
            "other_system": {"system": other, "winners": alt["winners"],
                             "decided_by": alt["decided_by"],
                             "constituencies": state["final"][other]["per_seat"],
                             "constituency_winners": [row["winner"] for row in
                                                      state["final"][other]["constituencies"]]},
            "outcome": outcome,
        }

    # ------------------------------------------------------------------ around the table
    def summary(self, state, seat):
        variant = state["variant"]
        other = "av" if variant == "fptp" else "fptp"
        if state["over"]:
            main, alt = state["final"][variant], state["final"][other]
        else:
            main = count_constituencies(state, variant, drawoff=False)
            alt = count_constituencies(state, other, drawoff=False)
        return [
            {"key": "colour", "label": "Colour", "value": SEAT_COLOURS[seat]},
            {"key": "constituencies", "label": "Constituencies", "value": main["per_seat"][seat]},
            {"key": "hexes", "label": "Hexes won", "value": main["hexes"][seat]},
            {"key": "constituencies_other",
             "label": f"Constituencies under {SYSTEM_NAMES[other]}",
             "value": alt["per_seat"][seat]},
            {"key": "left", "label": "Left the game", "value": bool(state["left"][seat])},
        ]

    def describe(self, before, move, after, seat, viewer):
        board = board_for(after["map"])
        lines = []
        for ev in after["events"]:
            lines.extend(_event_lines(board, before, after, ev, viewer))
        return lines or [f"{seat_ref(seat)} moved."]

    def progress(self, state):
        """The share of hexes that carry a vote counter (1 once over)."""
        return fptp_lesson.progress(state)

    # ------------------------------------------------------------------ the lesson after the game
    ensemble_maps = 1000

    def lesson(self, state):
        return fptp_lesson.lesson(state)

    def ensemble(self, state, *, seed, start, stop):
        return fptp_lesson.ensemble(state, seed=seed, start=start, stop=stop)

    def ensemble_summary(self, state, seats_lists):
        return fptp_lesson.ensemble_summary(state, seats_lists)

    # ------------------------------------------------------------------ sampling
    def sample_state(self, view, seat, rng):
        data = view["map"]
        board = board_for(data)
        n = view["players"]
        index = board.const_index
        seats = view["seats"]
        state = {
            "game": "fptp", "version": 1, "players": n, "variant": view["variant"],
            "news_on": view["news"], "map": data,
            "const_of": [index[h["constituency"]] for h in view["hexes"]],
            "gerrymandered": [h["gerrymandered"] for h in view["hexes"]],
            "gerry_left": dict(view["gerrymander_left"]),
            "stacks": [list(h["stack"]) for h in view["hexes"]],
            "left": [row["left"] for row in seats],
            "perms": [list(row["permanents"]) for row in seats],
            "budget_discard": list(view["budget_discard"]),
            "news_discard": list(view["news_discard"]),
            "news_card": view["news_card"]["kind"] if view["news_card"] else None,
            "paid": view["paid"],
            "first_player": view["first_player"],
            "active": view["active"], "turn": view["turn"], "step": view["step"],
            "bus": None if view["bus"] is None else board.index[tuple(view["bus"])],
            "recampaign": view["recampaign"],
            "bids": [None] * n,
            "votes": [None] * n,
            "next_offer_turn": view["next_end_offer_turn"],
            "last_reveal": None,
            "over": view["is_over"], "end_reason": view["end_reason"], "final": view["final"],
            "shuffle_key": f"{rng.getrandbits(64):016x}", "shuffles": 0, "events": [],
            "pile_set": None if view["budget_pile_cards"] is None else
            list(view["budget_pile_cards"]),
            "old": [row["old_cards"] for row in seats],
        }
        if view["last_reveal"] is not None:
            rev = dict(view["last_reveal"])
            rev.pop("constituency")
            rev["hex"] = board.index[tuple(rev["hex"])]
            state["last_reveal"] = rev
        if view["end_vote"] is not None:
            for s in view["end_vote"]["agreed"]:
                state["votes"][s] = True
        # budget cards: what this seat cannot see is dealt at random
        unseen = list(BUDGET_CARDS)
        seen = list(view["budget_discard"])
        if seat is not None:
            seen += view["hand"]
            if view["my_bid"] is not None:
                seen.append(view["my_bid"])
        for c in seen:
            unseen.remove(c)
        # cards that were not in the pile at its last reshuffle are in hands since then
        pile_set = set(view["budget_pile_cards"] or BUDGET_CARDS)
        new_cards = [c for c in unseen if c in pile_set]
        old_cards = [c for c in unseen if c not in pile_set]
        rng.shuffle(new_cards)
        rng.shuffle(old_cards)
        hands = []
        for s in range(n):
            if s == seat:
                hands.append(list(view["hand"]))
                state["bids"][s] = view["my_bid"]
                continue
            committed = s in view["committed"] and view["step"] == "bid"
            k = seats[s]["hand_size"] + committed
            old = seats[s]["old_cards"]
            held = old_cards[:old] + new_cards[:k - old]
            del old_cards[:old]
            del new_cards[:k - old]
            rng.shuffle(held)
            if committed:
                state["bids"][s] = held.pop()
            hands.append(held)
        state["hands"] = hands
        state["budget_pile"] = new_cards + old_cards
        # news cards: the unknown part of the pile in random order, then the known bottom
        if view["news"]:
            unknown = [card["kind"] for card in NEWS_DECK for _ in range(card["count"])]
            known = list(reversed(view["news_pile_bottom"]))
            gone = view["news_discard"] + [k for row in seats for k in row["permanents"]] + \
                known + ([state["news_card"]] if state["news_card"] else [])
            for k in gone:
                unknown.remove(k)
            rng.shuffle(unknown)
            state["news_pile"] = known + unknown
            state["news_known"] = len(known)
        else:
            state["news_pile"] = []
            state["news_known"] = 0
        return state


def _rank(count, n):
    """Ranking, winners and decided_by from one count: constituencies, then hexes."""
    per, hexes = count["per_seat"], count["hexes"]
    keys = [(-per[s], -hexes[s]) for s in range(n)]
    ranking = [{"seat": s, "place": 1 + sum(1 for k in keys if k < keys[s]),
                "constituencies": per[s], "hexes": hexes[s]} for s in range(n)]
    ranking.sort(key=lambda row: (row["place"], row["seat"]))
    top = max(per)
    cands = [s for s in range(n) if per[s] == top]
    if len(cands) == 1:
        return {"ranking": ranking, "winners": cands, "decided_by": "constituencies"}
    best = max(hexes[s] for s in cands)
    cands = [s for s in cands if hexes[s] == best]
    return {"ranking": ranking, "winners": cands,
            "decided_by": "hexes" if len(cands) == 1 else "shared"}


# --------------------------------------------------------------------------- describe

def _event_lines(board, before, after, ev, viewer):
    e = ev["e"]
    who = seat_ref(ev["seat"]) if "seat" in ev else ""
    if e == "turn":
        return [f"Turn {ev['turn']}: {who} is the active player."]
    if e == "draw":
        cards = ev["cards"]
        if viewer == ev["seat"]:
            return [f"{who} drew {', '.join(str(c) for c in cards)}."]
        return [f"{who} drew {_plural(len(cards), 'budget card')}."]
    if e == "reshuffle":
        return [f"The budget draw pile ran out: the {_plural(ev['count'], 'discarded card')} "
                "were shuffled into a new draw pile."]
    if e == "news":
        card = NEWS[ev["kind"]]
        return [f"{who} drew {card['title']} ({card['type']}): {card['text']}"]
    if e == "decline":
        return [f"{who} did not use {_title(ev['kind'])}; it goes to the bottom of the news "
                "pile."]
    if e == "give":
        line = f"{who} gave {_title(ev['kind'])} to {seat_ref(ev['to'])}"
        if ev["discard"]:
            line += f", who discards {_title(ev['discard'])}"
        return [line + "."]
    if e == "pay":
        return [f"{who} paid {ev['card']} for {_title(ev['kind'])}."]
    if e == "gerrymander":
        return [f"{who} gerrymandered a Rural hex of {board.const_names[ev['from']]} into "
                f"{board.const_names[ev['to']]} with a {ev['colour']} Gerrymander Hex."]
    if e == "clean_slate":
        names = ", ".join(_title(k) for k in ev["kinds"])
        return [f"{who} used Clean Slate: {seat_ref(ev['target'])} discards {names}."]
    if e == "urbanise":
        name = board.const_names[after["const_of"][ev["city"]]]
        return [f"{who} swapped the vote counters of a Rural hex and the City of {name}."]
    if e == "campaign":
        where = _hex_words(board, after["const_of"], ev["hex"])
        rec = ev["recampaign"]
        if rec:
            return [f"{who} uses {_title(rec['kind'])} to campaign again in {where}, held by "
                    f"{seat_ref(rec['holder'])} (+{rec['bonus']} sway for "
                    f"{seat_ref(rec['holder'])} there)."]
        return [f"{who} campaigns in {where}."]
    if e == "bid":
        if viewer == ev["seat"]:
            return [f"{who} chose {ev['card']}."]
        return [f"{who} has chosen a card."]
    if e == "reveal":
        return _reveal_lines(board, after)
    if e == "offer":
        return ["No constituency can change hands any more: every player still in decides "
                "whether to end the game."]
    if e == "vote":
        return [f"{who} agrees to end the game." if ev["agree"] else
                f"{who} wants to play on."]
    if e == "play_on":
        return ["The game goes on."]
    if e == "leave":
        return [f"{who} left the game; their vote counters stay on the board."]
    if e == "claim":
        return [f"{who} is the last player left and claims the "
                f"{_plural(ev['count'], 'empty hex', 'empty hexes')}."]
    if e == "over":
        res = FPTP.result(after)
        why = {"all_won": "every hex is won", "agreed": "the players agreed to end it",
               "last_player": "only one player is left"}[ev["reason"]]
        return [f"The game is over ({why}). {res['outcome']}"]
    return []


def _reveal_lines(board, state):
    rev = state["last_reveal"]
    parts = []
    for s in clockwise({"active": rev["active"], "players": state["players"]},
                       [s for s in range(state["players"]) if rev["bids"][s] is not None]):
        b, bonus = rev["bids"][s], rev["bonus"][s]
        if bonus:
            parts.append(f"{seat_ref(s)} {b} ({'+' if bonus > 0 else '-'}{abs(bonus)} = "
                         f"{rev['sways'][s]})")
        else:
            parts.append(f"{seat_ref(s)} {b}")
    if not parts:
        return ["Nobody could campaign: the hex stays empty."]
    lines = []
    winner = rev["winner"]
    top = rev["sways"][winner]
    tied = [s for s in rev["ranking"] if rev["sways"][s] == top]
    line = f"Cards revealed: {', '.join(parts)}; {seat_ref(winner)} wins the hex."
    lines.append(line)
    if len(tied) > 1:
        if winner == rev["active"]:
            lines.append(f"{_seat_list(tied)} tied on {top}: the active player wins ties.")
        else:
            lines.append(f"{_seat_list(sorted(tied))} tied on {top}: a draw-off decides.")
    for rnd in rev["drawoff"]:
        cards = ", ".join(f"{seat_ref(s)} {c}" for s, c in rnd)
        lines.append(f"Draw-off: {cards}.")
    if state["variant"] == "av" and len(rev["ranking"]) > 1:
        lines.append("Vote counter stack, top first: "
                     f"{', '.join(seat_ref(s) for s in rev['ranking'])}.")
    return lines


FPTP = FPTPRules()
