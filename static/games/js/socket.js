// A small reconnecting game socket.
//
// Protocol (JSON text frames):
//   client -> server  {"type":"move","move":{...},"version":N,"ref":"..."}  |  {"type":"sync"}
//   client -> server  {"type":"log"}  (the whole game log again)
//   server -> client  {"type":"state","game":{...}}  {"type":"ack","ref":..,"version":N}
//                     {"type":"error","code":..,"message":..,"ref":..}
//                     {"type":"log","entries":[{ply, seat, lines}, ...]}  (after each connect)
//                     {"type":"lesson",...}  a finished game's lesson (games/lessons.py)
// Close codes 4401 (signed out), 4403 (account off), 4404 (no such game), 4429 (too much):
// never reconnect; 4409 (classes changed): reconnect at once.
//
// At most one move is pending.  On every (re)connect the server sends a state frame first; if
// its version equals the version the pending move was made on, the move never landed and is
// sent again (once); otherwise the game moved on (our move included, or someone else's) and the
// pending move is dropped.  The server's version check makes this lose or double nothing.

export const FATAL_CLOSE_CODES = {
  4401: "You are signed out (or your password was changed). Please sign in again to play.",
  4403: "Your account has been switched off. Ask your teacher.",
  4404: "This game does not exist (any more).",
  4410: "Your seat in this game was given to someone else, and the game is not yours to watch.",
  4429: "Too many messages or windows at once: close some tabs, then reload this page.",
};

// Closed by the server with a reason to look again at once (the user's classes changed):
// reconnect straight away; the server checks again what this user may see.
export const RESYNC_CLOSE_CODE = 4409;

export const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 10000;

/** Delay before reconnect attempt number `attempt` (0-based): 0.5 s doubling to 10 s, each
 *  jittered by +-25% (never above 10 s) so a classroom of tablets does not reconnect in step. */
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt));
  return Math.round(Math.min(BACKOFF_MAX_MS, base * (0.75 + 0.5 * random())));
}

let refCounter = 0;
function makeRef() {
  refCounter += 1;
  const rand = (globalThis.crypto && crypto.randomUUID)
    ? crypto.randomUUID().slice(0, 8)
    : Math.random().toString(36).slice(2, 10);
  return `m${Date.now().toString(36)}-${refCounter}-${rand}`;
}

export function socketUrl(path, loc = globalThis.location) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}${path}`;
}

/**
 * new GameSocket(wsPath, {onState, onAck, onError, onStatus}, {WebSocketImpl})
 *   onState(game)                      every state frame
 *   onLog(entries)                     the whole game log (after each connect)
 *   onLesson(frame)                    a finished game's lesson (as its ensemble grows)
 *   onAck({ref, version})              our move was accepted
 *   onError({code, message, ref})      a refused move or a bad frame
 *   onStatus({state, attempt, delay, code, message})
 *        state: "connecting" | "open" | "reconnecting" | "denied" | "closed"
 */
export class GameSocket {
  constructor(path, handlers = {}, options = {}) {
    this.url = socketUrl(path, options.location);
    this.handlers = handlers;
    this.WebSocketImpl = options.WebSocketImpl || globalThis.WebSocket;
    this.random = options.random || Math.random;
    this.setTimeout = options.setTimeout || globalThis.setTimeout.bind(globalThis);
    this.clearTimeout = options.clearTimeout || globalThis.clearTimeout.bind(globalThis);
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.state = "idle";
    this.pending = null; // {ref, version, move, sent, resent}
    this.awaitingFirstState = false;
    this.ackTimeoutMs = options.ackTimeoutMs || 10000;
    this.ackTimer = null;
    this._onOnline = () => this.reconnectNow();
    this._onVisible = () => {
      if (document.visibilityState === "visible") {
        if (this.state === "open") this.sync();
        else this.reconnectNow();
      }
    };
    if (globalThis.addEventListener) {
      globalThis.addEventListener("online", this._onOnline);
    }
    if (globalThis.document) {
      document.addEventListener("visibilitychange", this._onVisible);
    }
  }

  _emit(name, arg) {
    const fn = this.handlers[name];
    if (fn) {
      try { fn(arg); } catch (err) { console.error(`GameSocket ${name} handler failed`, err); }
    }
  }

  _status(state, extra = {}) {
    this.state = state;
    this._emit("onStatus", { state, attempt: this.attempt, ...extra });
  }

  connect() {
    if (this.stopped) return;
    this.clearTimeout(this.timer);
    this.timer = null;
    this._status(this.attempt === 0 ? "connecting" : "reconnecting", { delay: 0 });
    let ws;
    try {
      ws = new this.WebSocketImpl(this.url);
    } catch (err) {
      this._scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.awaitingFirstState = true;
      this._status("open");
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      this._handleFrame(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.clearTimeout(this.ackTimer);
      if (FATAL_CLOSE_CODES[event.code]) {
        this.stopped = true;
        this._status("denied", { code: event.code, message: FATAL_CLOSE_CODES[event.code] });
        return;
      }
      if (this.stopped) { this._status("closed"); return; }
      if (event.code === RESYNC_CLOSE_CODE) {
        this._status("reconnecting", { delay: 0, message: "Your classes changed: reconnecting..." });
        this.connect();
        return;
      }
      this._scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows and schedules the reconnect */ };
  }

  _scheduleReconnect() {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, this.random);
    this.attempt += 1;
    this._status("reconnecting", { delay });
    this.clearTimeout(this.timer);
    this.timer = this.setTimeout(() => this.connect(), delay);
  }

  /** Skip the wait (browser came back online, tab became visible, user pressed "retry"). */
  reconnectNow() {
    if (this.stopped || this.state === "open" || this.state === "connecting") return;
    if (this.ws && this.ws.readyState === 0) return; // CONNECTING
    this.connect();
  }

  _handleFrame(frame) {
    switch (frame.type) {
      case "state": {
        const game = frame.game;
        if (this.awaitingFirstState) {
          this.awaitingFirstState = false;
          this.attempt = 0; // backoff resets once a connection really works
          this._resolvePendingAfterConnect(game);
        } else if (this.pending && this.pending.sent && game.version > this.pending.version) {
          // The board moved past the version our move was made on; the ack (or an error)
          // still tells us which way it went, but nothing will be resent any more, and the
          // player may make the next move on the new board.
          this.pending.superseded = true;
        }
        this._emit("onState", game);
        break;
      }
      case "log":
        this._emit("onLog", frame.entries || []);
        break;
      case "lesson":
        this._emit("onLesson", frame);
        break;
      case "ack":
        if (this.pending && frame.ref === this.pending.ref) this.pending = null;
        this._emit("onAck", { ref: frame.ref, version: frame.version });
        break;
      case "error":
        if (this.pending && (frame.ref === this.pending.ref || frame.ref == null)) {
          this.pending = null;
        }
        this._emit("onError", { code: frame.code, message: frame.message, ref: frame.ref });
        break;
      default:
        break;
    }
  }

  _resolvePendingAfterConnect(game) {
    const p = this.pending;
    if (!p) return;
    if (!p.sent) {
      // Made while we were offline: valid only if nothing happened meanwhile.
      if (game.version === p.version) this._transmit(p);
      else this._dropPending("The game moved on while you were offline; your move was not sent.");
      return;
    }
    if (game.version === p.version && !p.resent) {
      p.resent = true;
      this._transmit(p);
    } else {
      // Either our move landed (the new state shows it) or someone else moved first.
      this.pending = null;
    }
  }

  _dropPending(message) {
    const p = this.pending;
    this.pending = null;
    if (p && message) this._emit("onError", { code: "dropped", message, ref: p.ref });
  }

  _transmit(p) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify({ type: "move", move: p.move, version: p.version, ref: p.ref }));
    p.sent = true;
    // No answer in time: the connection is probably half-dead.  Drop it; the reconnect
    // resync then resends or drops the move by the version rule.
    this.clearTimeout(this.ackTimer);
    const ws = this.ws;
    this.ackTimer = this.setTimeout(() => {
      if (this.pending === p && this.ws === ws && ws.readyState === 1) ws.close(4000);
    }, this.ackTimeoutMs);
    return true;
  }

  /** A move is on its way and the board does not show its outcome yet.  (Once a newer
   *  board arrives - often before the ack - the next move may go; its answer still comes.) */
  get hasPending() { return this.pending !== null && !this.pending.superseded; }

  /** Send a move made on board `version`.  Returns its ref, or null when a move is pending. */
  sendMove(move, version) {
    if (this.hasPending || this.stopped) return null;
    const p = { ref: makeRef(), version, move, sent: false, resent: false };
    this.pending = p;
    if (this.state === "open" && !this.awaitingFirstState) this._transmit(p);
    return p.ref;
  }

  sync() {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: "sync" }));
  }

  close() {
    this.stopped = true;
    this.clearTimeout(this.timer);
    this.clearTimeout(this.ackTimer);
    if (globalThis.removeEventListener) globalThis.removeEventListener("online", this._onOnline);
    if (globalThis.document) document.removeEventListener("visibilitychange", this._onVisible);
    if (this.ws) this.ws.close(1000);
  }
}
