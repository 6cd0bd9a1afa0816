// Unit tests of static/games/js/socket.js (reconnect, backoff, pending-move resync).
// Runs under Node (`node tests/js/socket.test.mjs`) and in Chromium (tests/js/runner.html,
// driven by tests/js/test_js_units.py).  No dependencies.

import { GameSocket, backoffDelay, BACKOFF_MAX_MS } from "../../static/games/js/socket.js";

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
function assert(cond, msg) { if (!cond) throw new Error(msg || "assertion failed"); }
function eq(a, b, msg) {
  const ja = JSON.stringify(a); const jb = JSON.stringify(b);
  if (ja !== jb) throw new Error(`${msg || "not equal"}: ${ja} !== ${jb}`);
}

class FakeWS {
  static all = [];
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; FakeWS.all.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close(code = 1000) { this.readyState = 3; this.onclose && this.onclose({ code }); }
  // server side helpers
  open() { this.readyState = 1; this.onopen && this.onopen({}); }
  frame(obj) { this.onmessage && this.onmessage({ data: JSON.stringify(obj) }); }
  drop(code = 1006) { this.readyState = 3; this.onclose && this.onclose({ code }); }
}

function setup() {
  FakeWS.all = [];
  const timers = [];
  let timerId = 0;
  const events = { states: [], errors: [], acks: [], status: [] };
  const sock = new GameSocket("/ws/games/1/", {
    onState: (g) => events.states.push(g),
    onError: (e) => events.errors.push(e),
    onAck: (a) => events.acks.push(a),
    onStatus: (s) => events.status.push(s),
  }, {
    WebSocketImpl: FakeWS,
    location: { protocol: "https:", host: "example.test" },
    random: () => 0.5,
    setTimeout: (fn, ms) => { const id = ++timerId; timers.push({ id, fn, ms }); return id; },
    clearTimeout: (id) => { const i = timers.findIndex((t) => t.id === id); if (i >= 0) timers.splice(i, 1); },
  });
  const runTimer = () => { const t = timers.shift(); if (!t) throw new Error("no timer pending"); t.fn(); return t.ms; };
  const lastWS = () => FakeWS.all[FakeWS.all.length - 1];
  return { sock, events, timers, runTimer, lastWS };
}

const state = (version) => ({ type: "state", game: { id: 1, version, seat: 0, view: {} } });

test("backoff: 0.5 s doubling to 10 s, jittered, capped", () => {
  eq(backoffDelay(0, () => 0.5), 500);
  eq(backoffDelay(1, () => 0.5), 1000);
  eq(backoffDelay(4, () => 0.5), 8000);
  eq(backoffDelay(5, () => 0.5), 10000);
  eq(backoffDelay(30, () => 1), BACKOFF_MAX_MS);
  assert(backoffDelay(0, () => 0) === 375 && backoffDelay(0, () => 1) === 625, "jitter +-25%");
});

test("url uses wss on https", () => {
  const { sock, lastWS } = setup();
  sock.connect();
  eq(lastWS().url, "wss://example.test/ws/games/1/");
});

test("move frame carries version and ref; ack clears pending", () => {
  const { sock, events, lastWS } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(7));
  const ref = sock.sendMove({ type: "border", between: [[0, 0], [1, 0]] }, 7);
  assert(ref, "ref returned");
  eq(lastWS().sent[0], { type: "move", move: { type: "border", between: [[0, 0], [1, 0]] }, version: 7, ref });
  eq(sock.sendMove({ type: "undo" }, 7), null, "only one pending move");
  lastWS().frame({ type: "ack", ref, version: 8 });
  assert(!sock.hasPending, "pending cleared");
  eq(events.acks.length, 1);
});

test("a newer board before the ack frees the next move; the late ack changes nothing", () => {
  const { sock, events, lastWS } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(7));
  const first = sock.sendMove({ type: "border", between: [[0, 0], [1, 0]] }, 7);
  lastWS().frame(state(8)); // the broadcast of our own move, ahead of its ack
  assert(!sock.hasPending, "the board shows the outcome");
  const second = sock.sendMove({ type: "border", between: [[1, 0], [2, 0]] }, 8);
  assert(second && second !== first, "the next move goes at once");
  eq(lastWS().sent.map((f) => [f.ref, f.version]), [[first, 7], [second, 8]]);
  lastWS().frame({ type: "ack", ref: first, version: 8 });
  assert(sock.hasPending, "the second move still waits for its own answer");
  lastWS().frame({ type: "ack", ref: second, version: 9 });
  assert(!sock.hasPending);
  eq(events.acks.length, 2);
});

test("error frame clears pending and is reported", () => {
  const { sock, events, lastWS } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(3));
  const ref = sock.sendMove({ type: "border", between: [[0, 0], [1, 0]] }, 3);
  lastWS().frame({ type: "error", code: "too_small", message: "Nope", ref });
  assert(!sock.hasPending);
  eq(events.errors[0].message, "Nope");
});

test("reconnect: same version -> the pending move is resent once, with the same ref", () => {
  const { sock, runTimer, lastWS, events } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(5));
  const ref = sock.sendMove({ type: "border", between: [[0, 0], [0, 1]] }, 5);
  lastWS().drop();
  eq(events.status.at(-1).state, "reconnecting");
  eq(runTimer(), 500, "first retry after ~0.5 s");
  const ws2 = lastWS(); ws2.open(); ws2.frame(state(5));
  eq(ws2.sent.length, 1, "resent");
  eq(ws2.sent[0].ref, ref); eq(ws2.sent[0].version, 5);
  // Dropped again before an answer: the move is not sent a third time.
  ws2.drop(); runTimer();
  const ws3 = lastWS(); ws3.open(); ws3.frame(state(5));
  eq(ws3.sent.length, 0, "not resent twice");
  assert(!sock.hasPending, "dropped");
});

test("reconnect: newer version -> the pending move is dropped, not resent", () => {
  const { sock, runTimer, lastWS } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(5));
  sock.sendMove({ type: "border", between: [[0, 0], [0, 1]] }, 5);
  lastWS().drop(); runTimer();
  const ws2 = lastWS(); ws2.open(); ws2.frame(state(6));
  eq(ws2.sent.length, 0);
  assert(!sock.hasPending);
});

test("backoff grows while failing and resets after a working connection", () => {
  const { sock, runTimer, lastWS } = setup();
  sock.connect(); lastWS().drop();
  eq(runTimer(), 500); lastWS().drop();
  eq(runTimer(), 1000); lastWS().drop();
  eq(runTimer(), 2000);
  lastWS().open(); lastWS().frame(state(1));
  lastWS().drop();
  eq(runTimer(), 500, "reset after success");
});

test("close codes 4401/4403/4404 stop reconnecting", () => {
  for (const code of [4401, 4403, 4404]) {
    const { sock, timers, lastWS, events } = setup();
    sock.connect(); lastWS().drop(code);
    eq(timers.length, 0, `no retry after ${code}`);
    eq(events.status.at(-1).state, "denied");
    assert(events.status.at(-1).message, "message");
  }
});

test("a move made while offline is sent after reconnect only if the version still matches", () => {
  const { sock, runTimer, lastWS } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(2));
  lastWS().drop();
  sock.sendMove({ type: "undo" }, 2);
  runTimer();
  const ws2 = lastWS(); ws2.open();
  eq(ws2.sent.length, 0, "waits for the state frame");
  ws2.frame(state(2));
  eq(ws2.sent.length, 1);
});

test("no answer in time: the socket is recycled and the move resynced", () => {
  const { sock, timers, lastWS } = setup();
  sock.connect(); lastWS().open(); lastWS().frame(state(9));
  sock.sendMove({ type: "undo" }, 9);
  const ack = timers.find((t) => t.ms === 10000);
  assert(ack, "ack timer armed");
  const ws = lastWS();
  ack.fn();
  eq(ws.readyState, 3, "closed");
  assert(timers.some((t) => t.ms === 500), "reconnect scheduled");
});

export async function run(log = console.log) {
  let failed = 0;
  for (const t of tests) {
    try { await t.fn(); log(`ok - ${t.name}`); } catch (err) { failed += 1; log(`FAIL - ${t.name}: ${err.message}`); }
  }
  log(`${tests.length - failed}/${tests.length} passed`);
  return { total: tests.length, failed };
}

if (typeof process !== "undefined" && process.argv
    && import.meta.url === (await import("node:url")).pathToFileURL(process.argv[1]).href) {
  run().then(({ failed }) => { process.exitCode = failed ? 1 : 0; });
}
