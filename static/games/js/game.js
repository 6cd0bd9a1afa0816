// The game page shell: one for every game.
//
// The page provides:
//   <div id="game" data-ws-path="/ws/games/12/" data-lobby-url="/games/"
//        data-board-module="/static/games/js/<kind>-board.js"></div>
//   {{ initial|json_script:"game-initial" }}   the first state frame
//   {{ meta|json_script:"game-meta" }}         {kind, title, decided_by: {code: words}}
// and loads this file with <script type="module">.
//
// The shell owns the connection (reconnect, resync), banners, the players, the turn card,
// the game log, the end screen's frame and the test hooks.  The board module owns drawing and
// move input; it exports createBoard(page) and gets `page` (below) to send moves and to put
// its own cards on the page.  Board module interface (every method but render optional):
//   render(game, status)          draw the frame's view; status: {mySeat, myTurn, canAct,
//                                 busy, connected, over}
//   turnDetail(game, status)      a node for the turn card (e.g. borders left this turn)
//   seatChip(seat, label, game)   a node naming a seat (e.g. with its party's colour)
//   decidedBy(result, game)       a sentence saying how the game was decided
//   resultDetail(game)            a node for the end screen (e.g. a solo score)
//   onError(code, message)        a refused move came back
//   showLesson(lesson)            mark what the lesson after the game points at (packed
//                                 and cracked districts) on the board
//   guideSteps                    a guided first game (the page opened with ?guide=1): a list
//                                 of {text, done(game)}; the shell shows the first not done
//
// Test hooks: body[data-version|data-status|data-seat|data-my-turn|data-busy|data-over],
// #connection-status[data-state], #status-banner[data-status], #turn-status, #game-message,
// #seat-notice[data-kind] (seat_lost, seat_back, resumed), #pause-overlay, #pause-text,
// #turn-sound, #guide[data-step], #guide-text,
// #players [data-seat], #game-log li[data-ply], #result, #result-summary[data-winners]
// [data-decided-by], #decided-by, #ranking, #lesson (see lesson.js); window.gameApp.

import { renderLesson } from "./lesson.js";
import { GameSocket } from "./socket.js";
import { h, joinNames, plural } from "./ui.js";

const LOG_LIMIT = 300;
const PRESS_WAIT_MAX_MS = 1500; // the longest a press holds back a redraw

function readJSON(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

function buildLayout(root) {
  const els = {};
  els.connection = h("div", { id: "connection-status", class: "connection", role: "status", "aria-live": "polite", dataset: { state: "connecting" } });
  els.notice = h("div", { id: "seat-notice", class: "seat-notice", role: "status", "aria-live": "polite", hidden: true });
  els.banner = h("div", { id: "status-banner", class: "status-banner", role: "status", "aria-live": "polite", hidden: true });
  els.board = h("div", { id: "board", class: "board" });
  els.pause = h("div", { id: "pause-overlay", class: "pause-overlay", role: "status", hidden: true });
  els.hint = h("p", { id: "board-hint", class: "board-hint", "aria-live": "polite" });
  els.boardArea = h("section", { class: "board-area", "aria-labelledby": "board-heading" },
    h("h2", { id: "board-heading", class: "visually-hidden" }, "Board"),
    h("div", { class: "board-frame" }, els.board, els.pause), els.hint);

  els.turn = h("p", { id: "turn-status", class: "turn-status", "aria-live": "polite" });
  els.turnDetail = h("div", { id: "turn-detail", class: "turn-detail" });
  els.sound = h("input", { type: "checkbox", id: "turn-sound" });
  els.turnCard = h("section", { class: "card turn-card", "aria-label": "Turn" }, els.turn, els.turnDetail,
    h("label", { class: "turn-sound" }, els.sound, " Play a sound when it is my turn"));
  els.message = h("div", { id: "game-message", class: "game-message", role: "alert" });
  els.guide = h("section", { id: "guide", class: "card guide-card", "aria-live": "polite", hidden: true });
  els.result = h("section", { id: "result", class: "card result-card", "aria-labelledby": "result-heading", hidden: true, tabindex: "-1" });
  els.boardCards = h("div", { class: "board-cards" });
  els.players = h("ul", { id: "players", class: "players" });
  els.playersCard = h("section", { class: "card", "aria-labelledby": "players-heading" },
    h("h2", { id: "players-heading" }, "Players"), els.players);
  els.log = h("ol", { id: "game-log", class: "game-log", role: "log", "aria-live": "polite", "aria-label": "Game log" });
  els.logCard = h("section", { class: "card log-card", "aria-labelledby": "log-heading" },
    h("h2", { id: "log-heading" }, "Game log"), els.log);
  els.back = h("p", { class: "back-link" }, h("a", { href: root.dataset.backUrl || root.dataset.lobbyUrl || "/games/", id: "back-link" },
    root.dataset.backLabel || "Back to my games"));
  const panel = h("aside", { class: "panel", "aria-label": "Game information" },
    els.guide, els.turnCard, els.message, els.result, els.boardCards, els.playersCard, els.logCard, els.back);
  els.lesson = h("section", { id: "lesson", class: "card lesson", "aria-labelledby": "lesson-heading", hidden: true });
  root.replaceChildren(els.connection, els.notice, els.banner,
    h("div", { class: "game-layout" }, els.boardArea, panel), els.lesson);
  return els;
}

export async function startGame(options = {}) {
  const root = options.root || document.getElementById("game");
  const initial = options.initial || readJSON("game-initial");
  const meta = options.meta || readJSON("game-meta") || { title: "", decided_by: {} };
  const wsPath = options.wsPath || root.dataset.wsPath;
  if (!initial) throw new Error("game.js: no initial game state (#game-initial)");
  const boardModule = options.boardModule || await import(root.dataset.boardModule);

  const els = buildLayout(root);
  let game = initial;
  let connState = "connecting";
  let lastAckVersion = -1;
  let ackStateTimer = null;
  let resultShownFor = null;
  const log = new Map(); // ply -> {ply, seat, lines}

  const view = () => game.view || {};
  const mySeat = () => (game.seat === null || game.seat === undefined ? null : game.seat);
  const toMove = () => view().to_move || [];
  const isOver = () => !!view().is_over || game.status === "finished";
  const myTurn = () => game.status === "active" && !isOver() && mySeat() !== null && toMove().includes(mySeat());
  const isBusy = () => socket.hasPending || lastAckVersion > game.version;
  const seatRow = (seat) => (game.seats || []).find((s) => s.index === seat);
  const seatName = (seat) => {
    const s = seatRow(seat);
    if (!s) return `Player ${seat + 1}`;
    if (s.open) return "an open seat";
    return s.name || `Player ${seat + 1}`;
  };
  // An engine names a player "{seat:N}" (see the engine contract); the table knows the name.
  const fillNames = (text) => String(text).replace(/\{seat:(\d+)\}/g, (_, n) => seatName(Number(n)));
  // A yes-or-no figure of the game's summary reads as words.
  const figure = (value) => {
    if (value === null || value === undefined) return "\u2013";  // not counted (yet)
    return typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
  };
  const status = () => ({
    mySeat: mySeat(), myTurn: myTurn(), busy: isBusy(), connected: connState === "open",
    over: isOver(), canAct: myTurn() && connState === "open" && !isBusy(),
  });

  function showMessage(text, code = "info") {
    els.message.textContent = text;
    els.message.dataset.code = code;
  }
  function clearMessage() {
    els.message.textContent = "";
    delete els.message.dataset.code;
  }

  /** Why the player cannot make `move` now (any move if none is given), or null if they can.
   *  The game's anytime moves (e.g. leaving) need no turn. */
  function refusal(move = null) {
    const anytime = !!move && (meta.anytime_moves || []).includes(move.type);
    if (mySeat() === null) return ["You are watching this game; only players can move.", "spectator"];
    if (isOver()) return ["The game is over.", "over"];
    if (game.status === "waiting") return ["The game starts when every seat is taken.", "waiting"];
    if (game.status === "paused") return ["Your teacher has paused the game.", "paused"];
    if (!myTurn() && !anytime) return [`It is not your turn: wait for ${joinNames(toMove().map(seatName))}.`, "not_your_turn"];
    if (isBusy()) return ["Wait a moment: your last move is still on its way.", "busy"];
    if (connState !== "open") return ["You are offline. Wait until the connection is back, then try again.", "offline"];
    return null;
  }

  const page = {
    h, root, meta,
    get game() { return game; },
    mySeat, seatName, status, showMessage, clearMessage, refusal,
    setHint: (text) => { els.hint.textContent = text || ""; },
    addBoardExtra: (node) => els.boardArea.append(node),
    addPanelCard: (node) => els.boardCards.append(node),
    /** Send a move made on the current board; false (with a message) when it cannot go. */
    send(move) {
      const why = refusal(move);
      if (why) { showMessage(...why); return false; }
      const ref = socket.sendMove(move, game.version);
      if (!ref) { showMessage("Wait a moment: your last move is still on its way.", "busy"); return false; }
      clearMessage();
      els.hint.textContent = "";
      render();
      return true;
    },
    render: () => render(),
  };
  const board = boardModule.createBoard(els.board, page);

  const socketHandlers = {
    onState: (g) => {
      const before = game;
      game = g;
      noticeChanges(before, g);
      if (g.log) log.set(g.log.ply, g.log);
      if (lastAckVersion <= g.version) { lastAckVersion = -1; clearTimeout(ackStateTimer); }
      render();
    },
    onLog: (entries) => {
      log.clear();
      for (const e of entries) log.set(e.ply, e);
      renderLog();
    },
    onLesson: (frame) => {
      renderLesson(els.lesson, frame);
      if (board.showLesson && frame.lesson) board.showLesson(frame.lesson);
    },
    onAck: ({ version }) => {
      if (typeof version === "number" && version > game.version) {
        lastAckVersion = version;
        clearTimeout(ackStateTimer);
        // The state frame normally comes with the ack; ask again if it does not.
        ackStateTimer = setTimeout(() => socket.sync(), 2500);
      }
      render();
    },
    onError: ({ code, message }) => {
      showMessage(message || "That move was not allowed.", code);
      if (board.onError) board.onError(code, message);
      render();
    },
    onStatus: (s) => { connState = s.state; renderConnection(s); render(); },
  };
  const socket = options.socketFactory ? options.socketFactory(socketHandlers) : new GameSocket(wsPath, socketHandlers);

  // --- what changed under the player: their seat, a pause, their turn ------------------
  let noticeTimer = null;
  let wasBenched = false;
  const soundKey = "gerrymander-turn-sound";
  els.sound.checked = localStorage.getItem(soundKey) === "on";
  els.sound.addEventListener("change", () => {
    localStorage.setItem(soundKey, els.sound.checked ? "on" : "off");
    if (els.sound.checked) beep(); // the click lets the page make sounds from now on
  });
  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.35);
    } catch { /* no sound on this device */ }
  }

  function notice(text, kind, fade) {
    clearTimeout(noticeTimer);
    els.notice.textContent = text;
    els.notice.dataset.kind = kind;
    els.notice.hidden = false;
    els.notice.classList.remove("fading");
    if (fade) {
      noticeTimer = setTimeout(() => els.notice.classList.add("fading"), 2500);
      noticeTimer = setTimeout(() => { els.notice.hidden = true; }, 4000);
    }
  }

  function noticeChanges(before, after) {
    const hadSeat = before.seat !== null && before.seat !== undefined;
    const hasSeat = after.seat !== null && after.seat !== undefined;
    if (hadSeat && !hasSeat && after.status !== "finished") {
      const row = (after.seats || []).find((x) => x.index === before.seat);
      const who = row && row.is_bot ? "a bot" : "someone else";
      wasBenched = true;
      notice(`Your teacher gave your seat to ${who}. You can watch the table; if your seat comes back to you, you play on from here.`, "seat_lost", false);
    } else if (!hadSeat && hasSeat && wasBenched) {
      wasBenched = false;
      notice("Your seat is yours again: play on!", "seat_back", true);
    } else if (before.status === "paused" && after.status === "active") {
      notice("Resumed: play on!", "resumed", true);
    }
    const wasMine = before.status === "active" && hadSeat && ((before.view || {}).to_move || []).includes(before.seat);
    const isMine = after.status === "active" && hasSeat && ((after.view || {}).to_move || []).includes(after.seat);
    if (isMine && !wasMine && els.sound.checked) beep();
  }

  function chip(seat, label) {
    if (board.seatChip) return board.seatChip(seat, label ?? seatName(seat), game);
    return h("span", { class: "seat-chip" }, label ?? seatName(seat));
  }

  // --- rendering ---------------------------------------------------------------------
  function renderConnection(s) {
    const node = els.connection;
    node.dataset.state = s.state;
    node.replaceChildren();
    node.classList.toggle("visible", s.state !== "open" && s.state !== "connecting");
    if (s.state === "open") node.textContent = "Connected";
    else if (s.state === "connecting") node.textContent = "Connecting...";
    else if (s.state === "reconnecting") {
      const secs = s.delay ? Math.max(1, Math.round(s.delay / 1000)) : 0;
      node.append(secs ? `Connection lost: reconnecting in ${secs} s... ` : "Reconnecting... ",
        h("button", { type: "button", class: "button button-small", onclick: () => socket.reconnectNow() }, "Try now"));
    } else if (s.state === "denied") {
      node.textContent = s.message || "You cannot use this game.";
    } else node.textContent = "Disconnected.";
  }

  function renderBanner() {
    const b = els.banner;
    b.replaceChildren();
    b.dataset.status = game.status;
    if (game.status === "waiting" && !root.dataset.shareUrl) {
      const open = (game.seats || []).filter((s) => s.open).length;
      b.append(h("strong", {}, `Waiting for players: ${plural(open, "seat is", "seats are")} still open.`));
      b.hidden = false;
    } else if (game.status === "waiting") {
      const open = (game.seats || []).filter((s) => s.open).length;
      const shareUrl = root.dataset.shareUrl;
      const input = h("input", { type: "text", readonly: true, value: shareUrl, id: "share-link", class: "share-input", "aria-label": "Link to this game" });
      const copy = h("button", {
        type: "button", class: "button button-small", id: "copy-link",
        onclick: async () => {
          try { await navigator.clipboard.writeText(shareUrl); copy.textContent = "Copied!"; } catch {
            input.select(); copy.textContent = "Press Ctrl+C to copy";
          }
        },
      }, "Copy link");
      b.append(h("strong", {}, `Waiting for players: ${plural(open, "seat is", "seats are")} still open.`),
        " Share this link with your classmates:", h("span", { class: "share" }, input, copy));
      b.hidden = false;
    } else if (game.status === "paused") {
      b.append(h("strong", {}, "Paused by your teacher."), " The game continues when your teacher restarts it.");
      b.hidden = false;
    } else if (isOver()) {
      b.append(h("strong", {}, "Game over!"), " See the result beside the board.");
      b.hidden = false;
    } else {
      b.hidden = true;
    }
  }

  // #turn-status is a live region: only touch it when its text really changes, so screen
  // readers announce a new turn once rather than on every frame.
  function renderTurn() {
    const fresh = h("p");
    const v = view();
    let title = meta.title || "Game";
    els.turnCard.classList.remove("my-turn");
    els.turnCard.hidden = isOver() && !!v.result;
    if (isOver()) fresh.textContent = "Game over";
    else if (game.status === "waiting") fresh.textContent = "Waiting for players to join";
    else if (game.status === "paused") fresh.textContent = "Paused by your teacher";
    else if (myTurn()) {
      els.turnCard.classList.add("my-turn");
      const others = toMove().filter((s) => s !== mySeat());
      fresh.append(chip(mySeat(), "Your turn"));
      if (others.length) fresh.append(h("span", { class: "turn-sub" }, `${joinNames(others.map(seatName))} ${others.length === 1 ? "moves" : "move"} at the same time`));
      title = "\u25CF Your turn";
    } else if (toMove().length) {
      const names = toMove().map((s) => {
        const row = seatRow(s);
        return `${seatName(s)}${row && row.is_bot ? " (bot)" : ""}`;
      });
      fresh.append(toMove().length === 1 ? chip(toMove()[0], `${names[0]}'s turn`)
        : h("span", {}, `Waiting for ${joinNames(names)}`));
      const committed = v.committed || [];
      if (committed.length) fresh.append(h("span", { class: "turn-sub" }, `${joinNames(committed.map(seatName))} ${committed.length === 1 ? "has" : "have"} moved`));
    }
    if (fresh.textContent !== els.turn.textContent || fresh.innerHTML !== els.turn.innerHTML) {
      els.turn.replaceChildren(...fresh.childNodes);
    }
    const detail = board.turnDetail && !isOver() && game.status === "active" ? board.turnDetail(game, status()) : null;
    els.turnDetail.replaceChildren(...(detail ? [detail] : []));
    document.title = `${title} - ${meta.title} - Gerrymander Classroom`;
  }

  function renderPlayers() {
    const committed = new Set(view().committed || []);
    const items = (game.seats || []).map((s) => {
      const active = !isOver() && game.status === "active" && toMove().includes(s.index);
      return h("li", { class: `player${active ? " active" : ""}`, dataset: { seat: String(s.index) } },
        chip(s.index, s.open ? "Open seat" : (s.name || `Player ${s.index + 1}`)),
        s.index === mySeat() ? h("span", { class: "tag" }, "you") : null,
        s.is_bot ? h("span", { class: "tag" }, `bot${s.bot_level ? `: ${s.bot_level}` : ""}`) : null,
        active ? h("span", { class: "tag tag-turn" }, "to move") : null,
        committed.has(s.index) ? h("span", { class: "tag tag-ready" }, "has moved") : null);
    });
    els.players.replaceChildren(...items);
    els.playersCard.hidden = items.length <= 1;
  }

  function renderLog() {
    const entries = [...log.values()].sort((a, b) => a.ply - b.ply).slice(-LOG_LIMIT);
    const shown = [...els.log.children].map((li) => li.dataset.ply).join(",");
    if (shown === entries.map((e) => String(e.ply)).join(",")) return;
    const atEnd = els.log.scrollTop + els.log.clientHeight >= els.log.scrollHeight - 8;
    els.log.replaceChildren(...entries.map((e) => h("li", { dataset: { ply: String(e.ply), seat: String(e.seat) } },
      ...e.lines.map((line) => h("span", { class: "log-line" }, line)))));
    if (atEnd) els.log.scrollTop = els.log.scrollHeight;
  }

  function renderResult() {
    const v = view();
    const r = v.result;
    if (!isOver() || !r) { els.result.hidden = true; return; }
    const first = resultShownFor !== game.version && els.result.hidden;
    resultShownFor = game.version;
    const winners = r.winners || [];
    const me = mySeat();
    const solo = (game.seats || []).length === 1;
    let heading = "Game over";
    if (solo) heading = r.won ? "You won!" : "Not this time";
    else if (!winners.length) heading = "A draw!";
    else if (winners.includes(me)) heading = winners.length > 1 ? "You share the win!" : "You won!";
    else if (me !== null) heading = "Game over: better luck next time!";
    const summary = h("div", { id: "result-summary", dataset: { winners: winners.join(","), decidedBy: r.decided_by || "" } });
    if (!solo && !winners.length) {
      summary.append(h("p", { class: "result-winner" }, "Nobody wins: it is a draw."));
    } else if (!solo) {
      summary.append(h("p", { class: "result-winner" }, winners.length > 1 ? "Winners (shared): " : "Winner: ",
        ...winners.flatMap((s, i) => [i ? " and " : "", chip(s)])));
    }
    const decided = board.decidedBy ? board.decidedBy(r, game)
      : (meta.decided_by && meta.decided_by[r.decided_by] ? `Decided by: ${meta.decided_by[r.decided_by]}.` : "");
    if (decided && !solo) summary.append(h("p", { class: "decided-by", id: "decided-by", dataset: { decidedBy: r.decided_by || "" } }, decided));
    if (r.outcome) summary.append(h("p", { class: "outcome", id: "result-outcome" }, fillNames(r.outcome)));
    const nodes = [h("h2", { id: "result-heading" }, heading), summary];
    const figures = game.summary || [];
    if (solo) {
      const items = figures[0] || [];
      if (items.length) {
        nodes.push(h("dl", { class: "result-figures", id: "result-figures" },
          items.flatMap((i) => [h("dt", {}, i.label), h("dd", { dataset: { key: i.key } }, figure(i.value))])));
      }
    } else if ((r.ranking || []).length) {
      const labels = (figures[0] || []).map((i) => i.label);
      const table = h("table", { class: "ranking", id: "ranking" },
        h("caption", { class: "visually-hidden" }, "Final ranking"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"),
          labels.map((l) => h("th", { scope: "col" }, l)))),
        h("tbody", {}, r.ranking.map((row) => h("tr", {
          dataset: { seat: String(row.seat), place: String(row.place) },
          class: winners.includes(row.seat) ? "winner-row" : "",
        }, h("td", {}, String(row.place)),
        h("th", { scope: "row" }, chip(row.seat, row.seat === me ? `${seatName(row.seat)} (you)` : seatName(row.seat))),
        (figures[row.seat] || []).map((i) => h("td", { dataset: { key: i.key } }, figure(i.value)))))));
      nodes.push(h("div", { class: "table-scroll" }, table));
    }
    const extra = board.resultDetail ? board.resultDetail(game) : null;
    if (extra) nodes.push(extra);
    // A solo player may play the same map and deal again (the server renders that form).
    const again = solo ? document.getElementById("again-form") : null;
    if (again) { again.hidden = false; nodes.push(again); }
    nodes.push(h("p", {}, h("a", { class: "button", href: root.dataset.lobbyUrl || "/games/" }, "Play another game")));
    els.result.replaceChildren(...nodes);
    els.result.hidden = false;
    if (first) els.result.focus({ preventScroll: false });
  }

  function renderPause() {
    const paused = game.status === "paused";
    els.boardArea.classList.toggle("is-paused", paused);
    els.pause.hidden = !paused;
    if (paused) {
      els.pause.replaceChildren(h("strong", {}, "Paused"),
        h("span", { id: "pause-text" }, game.pause_message || "Eyes on your teacher."));
    }
  }

  function renderGuide() {
    const steps = root.dataset.guide === "1" ? board.guideSteps : null;
    if (!steps || !steps.length) { els.guide.hidden = true; return; }
    const index = steps.findIndex((step) => !step.done(game));
    const at = index < 0 ? steps.length : index;
    els.guide.hidden = false;
    els.guide.dataset.step = String(at + 1);
    const text = index < 0 ? (board.guideEnd ? board.guideEnd(game) : "Well done!") : steps[index].text;
    els.guide.replaceChildren(
      h("h2", {}, index < 0 ? "Well done!" : `Step ${at + 1} of ${steps.length}`),
      h("p", { id: "guide-text" }, text),
      h("progress", { max: String(steps.length), value: String(at), "aria-label": "Steps done" }));
  }

  // A redraw replaces the board's and the hand's elements.  Between a press and its release
  // that loses the click (the browser has no element left to send it to), so frames that
  // arrive meanwhile are drawn once the pointer is released, just after its click.
  let pressed = false;
  let redrawAfterPress = false;
  let pressTimer = null;
  function pressEnd() {
    if (!pressed) return;
    pressed = false;
    clearTimeout(pressTimer);
    if (redrawAfterPress) {
      redrawAfterPress = false;
      setTimeout(render, 0);
    }
  }
  document.addEventListener("pointerdown", () => {
    pressed = true;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(pressEnd, PRESS_WAIT_MAX_MS);  // a release the page never heard of
  }, true);
  document.addEventListener("pointerup", pressEnd, true);
  document.addEventListener("pointercancel", pressEnd, true);
  window.addEventListener("blur", pressEnd);

  function render() {
    if (pressed) {
      redrawAfterPress = true;
      return;
    }
    document.body.dataset.version = String(game.version);
    document.body.dataset.status = game.status;
    document.body.dataset.seat = mySeat() === null ? "spectator" : String(mySeat());
    document.body.dataset.myTurn = myTurn() ? "true" : "false";
    document.body.dataset.busy = isBusy() ? "true" : "false";
    document.body.dataset.over = isOver() ? "true" : "false";
    renderBanner();
    renderPause();
    renderTurn();
    renderPlayers();
    renderResult();
    renderGuide();
    renderLog();
    board.render(game, status());
  }

  render();
  socket.connect();
  return { socket, board, page, get game() { return game; }, render };
}

if (!window.__GAME_MANUAL_START__ && document.getElementById("game-initial")) {
  window.gameApp = null;
  startGame().then((app) => { window.gameApp = app; });
}
