// Development harness: fake game frames and a fake socket, no server needed.
// Serve static/ with `python -m http.server` and open /games/dev/harness.html?scenario=mid
// Scenarios: mid, tie, over, solo, solo-easy, four, waiting, paused, spectator, offline.

import { startGame } from "../js/game.js";
import { DIRECTIONS, edgeKey } from "../js/mapmaker-board.js";

const TIERS = [
  [0, 0, 1], [0, -1, 1], [1, -1, 1], [-1, 0, 1], [1, 0, 1], [-1, 1, 1], [0, 1, 1],
  [0, -2, 1], [1, -2, 1], [2, -2, 1], [-1, -1, 1], [2, -1, 1], [-2, 0, 1], [2, 0, 1],
  [-2, 1, 1], [1, 1, 1], [-2, 2, 1], [-1, 2, 1], [0, 2, 1], [0, -3, 1], [1, -3, 1],
  [2, -3, 1], [3, -3, 1], [-1, -2, 1], [3, -2, 1], [-2, -1, 1], [3, -1, 1], [-3, 0, 1],
  [3, 0, 1], [-3, 1, 1], [2, 1, 1], [-3, 2, 1], [1, 2, 1], [-3, 3, 1], [-2, 3, 1],
  [-1, 3, 1], [0, 3, 1],
  [-3, 4, 3], [-2, 4, 3], [-1, 4, 3], [1, 3, 3], [2, 2, 3], [3, 1, 3], [4, -1, 3],
  [4, -2, 3], [4, -3, 3], [3, -4, 3], [2, -4, 3], [1, -4, 3], [-1, -3, 3], [-2, -2, 3],
  [-3, -1, 3], [-4, 1, 3], [-4, 2, 3], [-4, 3, 3],
  [-4, 4, 4], [0, 4, 4], [4, 0, 4], [4, -4, 4], [0, -4, 4], [-4, 0, 4],
  [-3, 5, 4], [-2, 5, 4], [2, 3, 4], [3, 2, 4], [5, -2, 4], [5, -3, 4], [3, -5, 4],
  [2, -5, 4], [-2, -3, 4], [-3, -2, 4], [-5, 2, 4], [-5, 3, 4],
];
const VALUES = [1, 10, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9];

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; };
}
function shuffle(a, rand) {
  for (let i = a.length - 1; i > 0; i -= 1) { const j = Math.floor(rand() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}
const ck = (q, r) => `${q},${r}`;

function makeBoard(players, seed, parties) {
  const rand = rng(seed);
  const minTier = players <= 2 ? 1 : players;
  const cells = TIERS.filter(([, , t]) => t <= minTier).map(([q, r]) => [q, r]);
  const tokens = [];
  for (const p of parties) for (const v of VALUES) tokens.push({ party: p, value: v });
  tokens.push({ party: null, value: 0 });
  shuffle(tokens, rand);
  return cells.map(([q, r], i) => ({ q, r, party: tokens[i].party, value: tokens[i].value, swing: tokens[i].value <= 1, district: null }));
}

/** Grow `n` districts from the board edge, sizes 4-6; returns the view pieces. */
function carve(counties, nDistricts, seed, { allTied = false } = {}) {
  const rand = rng(seed + 7);
  const byKey = new Map(counties.map((c) => [ck(c.q, c.r), c]));
  const nb = (c) => DIRECTIONS.map(([dq, dr]) => byKey.get(ck(c.q + dq, c.r + dr))).filter(Boolean);
  const districts = [];
  const ringOrder = [...counties].sort((a, b) => (Math.max(Math.abs(b.q), Math.abs(b.r), Math.abs(b.q + b.r)) - Math.max(Math.abs(a.q), Math.abs(a.r), Math.abs(a.q + a.r))) || (rand() - 0.5));
  for (const start of ringOrder) {
    if (districts.length >= nDistricts) break;
    if (start.district !== null) continue;
    const size = 4 + Math.floor(rand() * 3);
    const group = [start];
    const inGroup = new Set([ck(start.q, start.r)]);
    while (group.length < size) {
      const frontier = group.flatMap(nb).filter((c) => c.district === null && !inGroup.has(ck(c.q, c.r)));
      if (!frontier.length) break;
      const pick = frontier[Math.floor(rand() * frontier.length)];
      inGroup.add(ck(pick.q, pick.r)); group.push(pick);
    }
    if (group.length < 4) continue;
    const index = districts.length;
    group.forEach((c) => { c.district = index; });
    const votes = [0, 0, 0, 0];
    group.forEach((c) => { if (c.party !== null) votes[c.party] += c.value; });
    const max = Math.max(...votes);
    const top = votes.map((v, p) => (v === max ? p : -1)).filter((p) => p >= 0);
    const tied = allTied || top.length > 1;
    districts.push({ counties: group.map((c) => [c.q, c.r]), winner: tied ? null : top[0], tied, votes, closed_by: 0 });
  }
  const borders = [];
  const seen = new Set();
  for (const c of counties) {
    for (const n of nb(c)) {
      const k = edgeKey([c.q, c.r], [n.q, n.r]);
      if (seen.has(k)) continue;
      seen.add(k);
      if (c.district !== n.district && (c.district !== null || n.district !== null)) borders.push([[c.q, c.r], [n.q, n.r]]);
    }
  }
  return { districts, borders };
}

function freeEdges(view) {
  const byKey = new Map(view.counties.map((c) => [ck(c.q, c.r), c]));
  const taken = new Set(view.borders.map(([a, b]) => edgeKey(a, b)));
  const out = [];
  const seen = new Set();
  for (const c of view.counties) {
    for (const [dq, dr] of DIRECTIONS) {
      const n = byKey.get(ck(c.q + dq, c.r + dr));
      if (!n) continue;
      const k = edgeKey([c.q, c.r], [n.q, n.r]);
      if (seen.has(k) || taken.has(k)) continue;
      seen.add(k);
      if (c.district !== null && c.district === n.district) continue;
      if (c.district !== null || n.district !== null) continue;
      out.push({ key: k, between: [[c.q, c.r], [n.q, n.r]] });
    }
  }
  return out;
}

function counts(districts, parties) {
  const out = parties.map(() => 0);
  for (const d of districts) if (d.winner !== null) out[d.winner] += 1;
  return out;
}

const NAMES = ["ana", "ben", "chloe", "dev"];

function scenario(name) {
  const multi = { mid: 2, tie: 2, over: 3, four: 4, waiting: 2, paused: 3, spectator: 2, offline: 2 }[name];
  if (multi) {
    const players = multi;
    const parties = [...Array(players).keys()];
    const counties = makeBoard(players, 42 + players, parties);
    const nD = { mid: 3, tie: 4, over: 99, four: 6, waiting: 0, paused: 3, spectator: 3, offline: 2 }[name];
    const { districts, borders } = carve(counties, nD, 3 + players);
    // A few dangling borders in open country.
    const view = {
      mode: "multiplayer", counties, borders, districts,
      party_of_seat: parties, is_over: false, result: null, pending_choice: null,
    };
    if (name !== "over") {
      const fe = freeEdges(view);
      const rand = rng(99);
      for (let i = 0; i < 3 && fe.length; i += 1) view.borders.push(fe.splice(Math.floor(rand() * fe.length), 1)[0].between);
    }
    const seat = name === "spectator" ? null : 0;
    const turnSeat = name === "four" ? 2 : 0;
    view.turn = { number: 6, seat: turnSeat, quota: 4, borders_left: 3 };
    view.to_move = [turnSeat];
    if (name === "tie") {
      const d = view.districts[view.districts.length - 1];
      d.winner = null; d.tied = true; d.votes = [11, 11, 0, 0];
      view.pending_choice = { seat: 0, district: view.districts.length - 1, parties: [0, 1] };
    }
    view.district_counts = counts(view.districts, parties);
    view.legal_moves = [];
    if (seat !== null && view.to_move.includes(seat) && !view.pending_choice) {
      view.legal_moves = freeEdges(view).slice(3).map((e) => ({ type: "border", between: e.between }));
    }
    if (view.pending_choice) view.legal_moves = view.pending_choice.parties.map((p) => ({ type: "choose_winner", party: p }));
    if (name === "over") {
      view.is_over = true; view.to_move = []; view.turn = null; view.legal_moves = [];
      view.district_counts = counts(view.districts, parties);
      const ranking = parties.map((p) => ({ seat: p, party: p, districts: view.district_counts[p], swing_counties: p === 1 ? 2 : 1, own_votes: 40 + p * 3 }));
      ranking.sort((a, b) => b.districts - a.districts || b.swing_counties - a.swing_counties);
      ranking.forEach((r, i) => { r.place = i + 1; });
      view.result = { ranking, winners: [ranking[0].seat], decided_by: "swing_counties" };
    }
    const status = { waiting: "waiting", paused: "paused", over: "finished" }[name] || "active";
    const seats = parties.map((i) => ({
      index: i, name: NAMES[i], is_bot: name === "four" && i === 3, bot_level: name === "four" && i === 3 ? "medium" : null,
      open: name === "waiting" && i === 1,
    }));
    return { id: 12, kind: "mapmaker", status, version: 17, seat, seats, view };
  }
  // Solo.
  const mode = name === "solo-easy" ? "solo-easy" : "solo-competitive";
  const counties = makeBoard(2, 7, [0, 1]);
  const { districts, borders } = carve(counties, 4, 11, { allTied: mode === "solo-competitive" });
  const view = {
    mode, counties, borders, districts, party_of_seat: [1], is_over: false, result: null,
    pending_choice: null, to_move: [0], turn: null, can_undo: true,
  };
  view.district_counts = counts(districts, [0, 1]);
  view.borders_used = borders.length;
  view.score = mode === "solo-competitive" ? 10 * districts.length - borders.length : view.district_counts[1] - view.district_counts[0];
  view.legal_moves = freeEdges(view).map((e) => ({ type: "border", between: e.between }));
  return { id: 5, kind: "mapmaker", status: "active", version: 30, seat: 0, seats: [{ index: 0, name: "ana", is_bot: false, bot_level: null, open: false }], view };
}

/** A fake socket that "applies" border moves (no district logic) and fakes opponents. */
class FakeSocket {
  constructor(handlers, game, opts = {}) {
    this.h = handlers; this.game = game; this.pending = null; this.opts = opts;
    this.history = [];
    const legalNow = new Set((game.view.legal_moves || []).filter((m) => m.type === "border").map((m) => edgeKey(m.between[0], m.between[1])));
    this.illegal = new Set(freeEdges(game.view).map((e) => e.key).filter((k) => legalNow.size && !legalNow.has(k)));
    this.log = [];
    window.fakeSocketLog = this.log;
  }
  get hasPending() { return this.pending !== null; }
  connect() {
    if (this.opts.offline) {
      this.h.onStatus({ state: "reconnecting", attempt: 3, delay: 4000 });
      return;
    }
    this.h.onStatus({ state: "open", attempt: 0 });
    setTimeout(() => this.h.onState(structuredClone(this.game)), 30);
  }
  reconnectNow() { this.opts.offline = false; this.connect(); }
  sync() { this.h.onState(structuredClone(this.game)); }
  sendMove(move, version) {
    if (this.pending) return null;
    const ref = `r${Math.random().toString(36).slice(2, 8)}`;
    this.pending = ref;
    this.log.push({ move, version, ref });
    setTimeout(() => this._apply(move, version, ref), 250);
    return ref;
  }
  _apply(move, version, ref) {
    const g = this.game;
    const v = g.view;
    this.pending = null;
    if (version !== g.version) {
      this.h.onError({ code: "stale", message: "The game moved on: look at the board again.", ref });
      this.h.onState(structuredClone(g)); return;
    }
    if (move.type === "undo") {
      const prev = this.history.pop();
      if (prev) { g.view = prev; g.version += 1; }
      g.view.can_undo = this.history.length > 0 || g.view.mode.startsWith("solo");
      this.h.onState(structuredClone(g)); this.h.onAck({ ref, version: g.version }); return;
    }
    if (move.type === "choose_winner") {
      const pc = v.pending_choice;
      v.districts[pc.district].winner = move.party; v.districts[pc.district].tied = true;
      v.pending_choice = null;
      v.district_counts = counts(v.districts, v.party_of_seat.length > 1 ? v.party_of_seat : [0, 1]);
      v.legal_moves = this._legal(v);
      g.version += 1;
      this.h.onState(structuredClone(g)); this.h.onAck({ ref, version: g.version }); return;
    }
    const key = edgeKey(move.between[0], move.between[1]);
    const legal = (v.legal_moves || []).some((m) => m.type === "border" && edgeKey(m.between[0], m.between[1]) === key);
    if (!legal) {
      this.h.onError({ code: "illegal", message: "That border would leave 3 counties on their own; every district needs at least 4.", ref });
      return;
    }
    this.history.push(structuredClone(v));
    v.borders.push(move.between);
    if (v.mode && v.mode.startsWith("solo")) {
      v.borders_used = v.borders.length;
      v.score = v.mode === "solo-competitive" ? 10 * v.districts.length - v.borders.length : v.score;
      v.can_undo = true;
    } else if (v.turn) {
      v.turn.borders_left -= 1;
      if (v.turn.borders_left <= 0) {
        const next = (v.turn.seat + 1) % v.party_of_seat.length;
        v.turn = { number: v.turn.number + 1, seat: next, quota: 4, borders_left: 4 };
        v.to_move = [next];
        setTimeout(() => this._opponent(), 900);
      }
    }
    v.legal_moves = v.to_move.includes(g.seat) ? this._legal(v) : [];
    g.version += 1;
    this.h.onState(structuredClone(g));
    this.h.onAck({ ref, version: g.version });
  }
  _legal(v) {
    return freeEdges(v).filter((e) => !this.illegal.has(e.key)).map((e) => ({ type: "border", between: e.between }));
  }
  _opponent() {
    const g = this.game; const v = g.view;
    if (v.to_move.includes(g.seat)) return;
    const fe = freeEdges(v);
    const n = Math.min(v.turn.borders_left, fe.length);
    for (let i = 0; i < n; i += 1) v.borders.push(fe.splice(Math.floor(Math.random() * fe.length), 1)[0].between);
    const next = (v.turn.seat + 1) % v.party_of_seat.length;
    v.turn = { number: v.turn.number + 1, seat: next, quota: 4, borders_left: 4 };
    v.to_move = [next];
    v.legal_moves = v.to_move.includes(g.seat) ? this._legal(v) : [];
    g.version += 1;
    this.h.onState(structuredClone(g));
    if (!v.to_move.includes(g.seat)) setTimeout(() => this._opponent(), 900);
  }
}

const params = new URLSearchParams(location.search);
const name = params.get("scenario") || "mid";
const game = scenario(name);
window.harnessGame = game;
document.getElementById("scenario-name").textContent = name;
window.mapmakerGame = startGame({
  initial: structuredClone(game),
  wsPath: "/ws/games/12/",
  shareUrl: "http://127.0.0.1:8000/games/12/",
  socketFactory: (handlers) => new FakeSocket(handlers, game, { offline: name === "offline" }),
});
