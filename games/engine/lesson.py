"""The lesson after the game: votes against seats, wasted votes, efficiency gap, Gallagher index,
packed and cracked districts, and where a game sits among random maps of the same board.

Game-independent and pure (no Django): each game has a small adapter beside its engine
(``mapmaker_lesson.lesson(state)``) that lists its districts (Mapmaker districts, Berrymandering
pieces of cake, First Past the Post constituencies) and calls ``lesson_from_districts``.  The
measures are explained for teachers, with the exact formulas, in ``docs/lesson.md``.

Conventions (module constants, each overridable per call):

* **Needed votes.**  With exactly two parties a winner needed half the district's votes, the
  exact half (``total / 2``, so 9.5 when 19 votes were cast), as in the efficiency gap of
  Stephanopoulos and McGhee.  With more parties it needed one vote more than the runner-up.
  A winner never needed more than it had: a tie settled by a choice (Mapmaker's closer) needed
  every vote.
* **Wasted votes.**  Every vote for a party that did not win the district, plus the winner's
  votes beyond what it needed.
* **Undecided districts** (``winner`` None while parties tie for the most votes):
  ``undecided="split"`` (Mapmaker: the tie is still to be settled, or is never settled in the
  competitive solo game) shares the district equally among the tied parties for the seat
  shares; the tied parties waste nothing there, the others waste everything.
  ``undecided="nobody"`` (a tie elects no one, like a tied piece of cake in Berrymandering):
  nobody gets the seat, every vote there is wasted, and seat shares are counted over the
  districts that elected someone.  A district whose winner is None but that has one clear
  leader is won by that leader.
* **Packed**: a party won the district with a lead over the runner-up of at least
  ``PACKED_LEAD`` (a third) of the votes cast there (two parties: 2/3 of the votes or more),
  and with votes it did not need (so a 1-0 or 2-1-0 win is not packed).
* **Narrow loss**: a party with votes in the district did not win it and had at most
  ``NARROW_LOSS`` (a tenth) of the votes cast there fewer than the winner (two parties: 45% or
  more; a lost tie is the narrowest loss).  A party is **cracked** when it lost at least
  ``CRACKED_MIN`` (2) districts narrowly.

Exact arithmetic throughout (``fractions.Fraction``); the result holds plain numbers: vote
counts stay whole numbers where they are whole (a needed half gives ``x.5``), shares and
indices are floats that the caller rounds for display (``words`` already are rounded).
"""

import math
import random
from fractions import Fraction

PACKED_LEAD = Fraction(1, 3)
NARROW_LOSS = Fraction(1, 10)
CRACKED_MIN = 2
UNDECIDED_RULES = ("split", "nobody")


def lesson_from_districts(parties, districts, unit=("district", "districts"), *,
                          undecided="split", packed_lead=PACKED_LEAD, narrow_loss=NARROW_LOSS,
                          cracked_min=CRACKED_MIN):
    """The lesson of one finished (or unfinished) election over ``districts``.

    ``parties``: ``[{"party": key, "name": str}, ...]`` (keys: ints or strings; their order is
    the order of every per-party list below).  ``districts``: ``[{"votes": {key: n} or [n, ...]
    (a list is indexed by the party key), "winner": key | None, "cells": anything (passed
    through, e.g. ``[[q, r], ...]``)}, ...]``.  ``unit``: how one seat and several are called.

    Returns (JSON-serialisable)::

        {"unit": {"one": "district", "many": "districts"},
         "undecided_rule": "split" | "nobody",
         "thresholds": {"packed_lead", "narrow_loss", "cracked_min"},
         "total_votes", "district_count", "decided_count",
         "parties": [{"party", "name", "votes", "seats" (districts won), "tied_open" (undecided
                      ties it shares, "split" only), "vote_share", "seat_share",
                      "seat_minus_vote" (seat share - vote share), "wasted", "wasted_lost"
                      (votes where it lost), "wasted_surplus" (beyond what it needed where it
                      won), "wasted_share" (of its own votes), "packed": [district index],
                      "narrow_losses": [district index], "cracked": bool}],
         "districts": [{"index", "cells", "votes": [per party], "total", "winner",
                        "leaders" (parties with the most votes), "tied" (several leaders),
                        "needed" (votes the winner needed; None without a winner),
                        "margin" (winner - runner-up, 0 when undecided), "lead_share" (margin /
                        total), "wasted": [per party], "packed": party | None,
                        "narrow_losses": [parties], "cracked": [cracked parties that lost it
                        narrowly]}],
         "efficiency_gap": None (not exactly two parties, or no votes) |
                           {"parties": [a, b], "value" ((wasted a - wasted b) / all votes:
                            positive means a wasted more, so it favours b), "favours": key |
                            None, "wasted": [a, b], "seats" (|value| x district count)},
         "gallagher": percentage points | None (no votes or no districts),
         "words": [sentences for the page]}

    A game that counts the same votes more than one way adds ``"systems"``: ``[{"name",
    "seats" (per party, aligned with "parties"), "words"}, ...]``; the end screen and the class
    debrief show them side by side.
    """
    if undecided not in UNDECIDED_RULES:
        raise ValueError(f"undecided must be one of {UNDECIDED_RULES}, not {undecided!r}")
    keys = [p["party"] for p in parties]
    if len(set(keys)) != len(keys):
        raise ValueError("party keys must be distinct")
    names = [p.get("name", str(p["party"])) for p in parties]
    slot = {k: j for j, k in enumerate(keys)}
    n_parties = len(keys)
    two = n_parties == 2
    packed_lead = Fraction(packed_lead)
    narrow_loss = Fraction(narrow_loss)

    party_votes = [Fraction(0)] * n_parties
    seats = [0] * n_parties
    seat_value = [Fraction(0)] * n_parties
    tied_open = [0] * n_parties
    wasted_lost = [Fraction(0)] * n_parties
    wasted_surplus = [Fraction(0)] * n_parties
    packed = [[] for _ in keys]
    narrow = [[] for _ in keys]
    rows = []
    decided = 0
    for index, d in enumerate(districts):
        votes = [Fraction(_votes_of(d["votes"], k)) for k in keys]
        total = sum(votes, Fraction(0))
        top = max(votes) if votes else Fraction(0)
        leaders = [j for j, v in enumerate(votes) if v == top]
        winner = d.get("winner")
        if winner is None:
            w = leaders[0] if len(leaders) == 1 else None
        elif winner in slot:
            w = slot[winner]
        else:
            raise ValueError(f"district {index}: the winner {winner!r} is not a listed party")
        wasted = list(votes)
        needed = None
        margin = Fraction(0)
        losers = range(n_parties)
        if w is not None:
            decided += 1
            seats[w] += 1
            seat_value[w] += 1
            runner = max((v for j, v in enumerate(votes) if j != w), default=Fraction(0))
            needed = min(votes[w], total / 2 if two else runner + 1)
            wasted[w] = votes[w] - needed
            wasted_surplus[w] += wasted[w]
            margin = votes[w] - runner
            best = votes[w]
            losers = [j for j in range(n_parties) if j != w]
        elif undecided == "split":
            for j in leaders:
                wasted[j] = Fraction(0)
                tied_open[j] += 1
                seat_value[j] += Fraction(1, len(leaders))
            best = top
            losers = [j for j in range(n_parties) if j not in leaders]
        else:  # nobody: every party lost this district
            best = top
        narrow_here = []
        for j in losers:
            wasted_lost[j] += votes[j]
            if votes[j] > 0 and best - votes[j] <= narrow_loss * total:
                narrow[j].append(index)
                narrow_here.append(j)
        for j in range(n_parties):
            party_votes[j] += votes[j]
        packed_by = None
        if w is not None and total > 0 and margin >= packed_lead * total and wasted[w] > 0:
            packed_by = w
            packed[w].append(index)
        rows.append({
            "index": index,
            "cells": d.get("cells"),
            "votes": [_num(v) for v in votes],
            "total": _num(total),
            "winner": None if w is None else keys[w],
            "leaders": [keys[j] for j in leaders],
            "tied": len(leaders) > 1,
            "needed": None if needed is None else _num(needed),
            "margin": _num(margin),
            "lead_share": float(margin / total) if total else 0.0,
            "wasted": [_num(x) for x in wasted],
            "packed": None if packed_by is None else keys[packed_by],
            "narrow_losses": [keys[j] for j in narrow_here],
            "cracked": [],
        })

    total_votes = sum(party_votes, Fraction(0))
    seat_base = len(rows) if undecided == "split" else decided
    vote_share = [v / total_votes if total_votes else Fraction(0) for v in party_votes]
    seat_share = [s / seat_base if seat_base else Fraction(0) for s in seat_value]
    cracked = [len(narrow[j]) >= cracked_min for j in range(n_parties)]
    for row in rows:
        row["cracked"] = [k for k in row["narrow_losses"] if cracked[slot[k]]]
    wasted_total = [wasted_lost[j] + wasted_surplus[j] for j in range(n_parties)]
    out_parties = []
    for j, key in enumerate(keys):
        out_parties.append({
            "party": key,
            "name": names[j],
            "votes": _num(party_votes[j]),
            "seats": seats[j],
            "tied_open": tied_open[j],
            "vote_share": float(vote_share[j]),
            "seat_share": float(seat_share[j]),
            "seat_minus_vote": float(seat_share[j] - vote_share[j]),
            "wasted": _num(wasted_total[j]),
            "wasted_lost": _num(wasted_lost[j]),
            "wasted_surplus": _num(wasted_surplus[j]),
            "wasted_share": float(wasted_total[j] / party_votes[j]) if party_votes[j] else 0.0,
            "packed": packed[j],
            "narrow_losses": narrow[j],
            "cracked": cracked[j],
        })

    gap = None
    if two and total_votes:
        value = (wasted_total[0] - wasted_total[1]) / total_votes
        gap = {
            "parties": list(keys),
            "value": float(value),
            "favours": keys[1] if value > 0 else keys[0] if value < 0 else None,
            "wasted": [_num(wasted_total[0]), _num(wasted_total[1])],
            "seats": float(abs(value) * len(rows)),
        }
    gallagher = None
    if total_votes and seat_base:
        square = sum(((vote_share[j] - seat_share[j]) * 100) ** 2 for j in range(n_parties))
        gallagher = math.sqrt(square / 2)

    one, many = unit
    lesson = {
        "unit": {"one": one, "many": many},
        "undecided_rule": undecided,
        "thresholds": {"packed_lead": float(packed_lead), "narrow_loss": float(narrow_loss),
                       "cracked_min": cracked_min},
        "total_votes": _num(total_votes),
        "district_count": len(rows),
        "decided_count": decided,
        "parties": out_parties,
        "districts": rows,
        "efficiency_gap": gap,
        "gallagher": gallagher,
    }
    lesson["words"] = plain_words(lesson)
    return lesson


def _votes_of(votes, key):
    if isinstance(votes, dict):
        if key in votes:
            return votes[key]
        return votes.get(str(key), 0)  # a JSON round trip turns int keys into strings
    if isinstance(key, int) and 0 <= key < len(votes):
        return votes[key]
    return 0


def _num(x):
    """A Fraction as a plain number: an int when whole, else a float."""
    return int(x) if x.denominator == 1 else float(x)


def _pct(x):
    return f"{round(x * 100)}%"


def _votes_text(x):
    return f"{x:g}" if isinstance(x, float) else str(x)


def _times(k, one, many):
    return f"{k} {one if k == 1 else many}"


def plain_words(lesson):
    """Sentences a teacher can read out (rounded for display), from a lesson dict."""
    one, many = lesson["unit"]["one"], lesson["unit"]["many"]
    parties = lesson["parties"]
    n = lesson["district_count"]
    words = []
    if not n:
        return ["No " + many + " have been formed yet."]
    for p in parties:
        open_ties = f" (and shares {_times(p['tied_open'], 'undecided tie', 'undecided ties')})" \
            if p["tied_open"] else ""
        words.append(f"The {p['name']} got {_pct(p['vote_share'])} of the votes and won "
                     f"{_pct(p['seat_share'])} of the {many} ({p['seats']} of {n}){open_ties}.")
    if lesson["total_votes"]:
        ahead = max(parties, key=lambda p: p["seat_minus_vote"])
        behind = min(parties, key=lambda p: p["seat_minus_vote"])
        shares = {round(p["vote_share"], 9) for p in parties}
        if len(shares) == 1 and len(parties) > 1:
            words.append(f"Every party had exactly the same number of votes ({parties[0]['votes']}"
                         f"), so a fair result would share the {many} equally.")
        if round(ahead["seat_minus_vote"] * 100) > 0:
            words.append(f"Biggest gap: the {ahead['name']} won "
                         f"{round(ahead['seat_minus_vote'] * 100)} points more of the {many} "
                         f"than of the votes; the {behind['name']} "
                         f"{round(-behind['seat_minus_vote'] * 100)} points fewer.")
        else:
            words.append(f"Every party's share of the {many} is close to its share of the votes.")
    for p in parties:
        words.append(f"The {p['name']} wasted {_votes_text(p['wasted'])} of their "
                     f"{_votes_text(p['votes'])} votes ({_pct(p['wasted_share'])}).")
    gap = lesson["efficiency_gap"]
    if gap is not None:
        if gap["favours"] is None:
            words.append("Efficiency gap: 0%. Both parties wasted the same number of votes.")
        else:
            name = {p["party"]: p["name"] for p in parties}
            loser = [k for k in gap["parties"] if k != gap["favours"]][0]
            words.append(f"Efficiency gap: {_pct(abs(gap['value']))} in favour of the "
                         f"{name[gap['favours']]}: the {name[loser]} wasted more votes, worth "
                         f"about {gap['seats']:.1f} {many}.")
    if lesson["gallagher"] is not None:
        words.append(f"Gallagher index: {lesson['gallagher']:.1f} (0 means every party's share "
                     f"of the {many} equals its share of the votes).")
    for p in parties:
        if p["packed"]:
            words.append(f"The {p['name']} were packed in "
                         f"{_times(len(p['packed']), one, many)}: they won with far more votes "
                         "than they needed.")
    for p in parties:
        if p["cracked"]:
            words.append(f"The {p['name']} were cracked: they lost "
                         f"{_times(len(p['narrow_losses']), one, many)} narrowly.")
    return words


# ---------------------------------------------------------------------- ensembles of random maps
def ensemble_rng(seed, index):
    """The random source of map ``index`` of the ensemble drawn with ``seed``.

    Each map has its own source, so any range of maps can be drawn anywhere (one worker or
    several) and the results concatenate to exactly the single-run result.  String seeding is
    hashed with SHA-512 by ``random``: the same in every process and Python version.
    """
    return random.Random(f"lesson-ensemble:{seed}:{index}")


def summarise_ensemble(parties, actual_seats, seats_lists):
    """Where this game's seats sit among random maps.

    ``parties``: ``[{"party", "name"}, ...]``; ``actual_seats``: this game's seats, aligned with
    ``parties``; ``seats_lists``: one list of seats per random map, aligned the same way.

    Returns ``{"maps": n, "parties": [{"party", "name", "seats" (this game), "histogram"
    (``histogram[k]`` = maps where the party won k seats; the same length for every party),
    "mean", "min", "max", "at_least_maps", "at_least" (share of maps where it won at least as
    many as in this game), "at_most_maps", "at_most" (at most as many)}], "totals":
    {"histogram" (maps by their number of seats awarded), "this_game"}}``.  Shares are None
    when there are no maps.
    """
    n = len(seats_lists)
    for seats in seats_lists:
        if len(seats) != len(parties):
            raise ValueError("every seats list must have one number per party")
    width = 1 + max([max(s) for s in seats_lists if s] + [max(actual_seats, default=0), 0])
    rows = []
    for j, p in enumerate(parties):
        mine = actual_seats[j]
        histogram = [0] * width
        for seats in seats_lists:
            histogram[seats[j]] += 1
        at_least = sum(c for k, c in enumerate(histogram) if k >= mine)
        at_most = sum(c for k, c in enumerate(histogram) if k <= mine)
        values = [seats[j] for seats in seats_lists]
        rows.append({
            "party": p["party"],
            "name": p.get("name", str(p["party"])),
            "seats": mine,
            "histogram": histogram,
            "mean": sum(values) / n if n else None,
            "min": min(values) if n else None,
            "max": max(values) if n else None,
            "at_least_maps": at_least,
            "at_least": at_least / n if n else None,
            "at_most_maps": at_most,
            "at_most": at_most / n if n else None,
        })
    totals = [sum(seats) for seats in seats_lists]
    total_width = 1 + max(totals + [sum(actual_seats), 0])
    total_histogram = [0] * total_width
    for t in totals:
        total_histogram[t] += 1
    return {"maps": n, "parties": rows,
            "totals": {"histogram": total_histogram, "this_game": sum(actual_seats)}}
