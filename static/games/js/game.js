// Entry module of the Mapmaker game page: socket + board + side panel.
//
// The page provides:
//   <div id="game" data-ws-path="/ws/games/12/" data-lobby-url="/games/"></div>
//   {{ initial|json_script:"game-initial" }}
// and loads this file with <script type="module">.  Everything inside #game is built here.
//
// Test hooks: #board svg, [data-edge], [data-legal], #turn-status, #borders-left,
// #district-counts, #game-message, #tie-dialog [data-party], #result, #undo-button,
// #solo-score, #connection-status[data-state], body[data-version], body[data-status],
// body[data-my-turn], body[data-busy].

import { GameSocket } from "./socket.js";
import { MapmakerBoard, PARTIES, partyInfo } from "./mapmaker-board.js";

const DECIDED_BY = {
  districts: "Decided by the number of districts won.",
  swing_counties: "Decided by swing counties: the tied players had the same number of districts, so the one controlling more swing counties won.",
  supreme_court: "Decided by the Supreme Court: still tied on swing counties, so the tied player with the fewest votes for their own party inside their own districts won.",
  shared: "A shared win: the players were still tied after every tie-break.",
  solo: "Solo game.",
};

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function chip(party, label) {
  const info = partyInfo(party);
  return h("span", { class: `party-chip party-${party ?? "none"}` },
    h("span", { class: "swatch", style: `background:${info.color}`, "aria-hidden": "true" }),
    label ?? info.name);
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function countsByParty(view) {
  const counts = {};
  const dc = view.district_counts;
  if (Array.isArray(dc)) dc.forEach((n, p) => { counts[p] = n; });
  else if (dc && typeof dc === "object") for (const [p, n] of Object.entries(dc)) counts[Number(p)] = n;
  else {
    for (const d of view.districts || []) {
      if (d.winner !== null && d.winner !== undefined) counts[d.winner] = (counts[d.winner] || 0) + 1;
    }
  }
  return counts;
}

/** Build the page skeleton inside root.  Returns the elements by role. */
function buildLayout(root) {
  const lobbyUrl = root.dataset.lobbyUrl || "/games/";
  const els = {};
  els.connection = h("div", { id: "connection-status", class: "connection", role: "status", "aria-live": "polite", dataset: { state: "connecting" } });
  els.banner = h("div", { id: "status-banner", class: "status-banner", role: "status", "aria-live": "polite", hidden: true });
  els.board = h("div", { id: "board", class: "board" });
  els.hint = h("p", { id: "board-hint", class: "board-hint", "aria-live": "polite" });
  const legend = h("ul", { class: "legend", "aria-label": "Key" },
    ...PARTIES.map((p, i) => h("li", { class: `legend-party legend-party-${i}` }, chip(i, p.name))),
    h("li", {}, h("span", { class: "legend-swing", "aria-hidden": "true" }), "Swing county (0 or 1 vote)"),
    h("li", {}, h("span", { class: "legend-border", "aria-hidden": "true" }), "District border"),
  );
  const help = h("details", { class: "help" },
    h("summary", {}, "How to play"),
    h("ul", {},
      h("li", {}, "Place borders on the edges between counties. With a mouse, point at an edge to preview it and click to place it. On a tablet, tap an edge once to preview it and tap it again to place it."),
      h("li", {}, "With a keyboard: press Tab to reach the board, move between edges with the arrow keys, and press Enter or Space to place a border."),
      h("li", {}, "A closed-off group of at least 4 counties that cannot be split into two groups of 4 or more becomes a district. The party with the most votes wins it."),
      h("li", {}, "Most districts wins. Ties are broken by swing counties (purple, worth 0 or 1), then by the Supreme Court rule."),
    ));
  const boardArea = h("section", { class: "board-area", "aria-labelledby": "board-heading" },
    h("h2", { id: "board-heading", class: "visually-hidden" }, "Board"),
    els.board, els.hint, legend, help);

  els.turn = h("p", { id: "turn-status", class: "turn-status", "aria-live": "polite" });
  els.bordersLeft = h("p", { id: "borders-left", class: "borders-left" });
  els.tieOpen = h("button", { type: "button", id: "tie-open", class: "button button-primary", hidden: true }, "Choose the district winner");
  els.turnCard = h("section", { class: "card turn-card", "aria-label": "Turn" }, els.turn, els.bordersLeft, els.tieOpen);
  els.message = h("div", { id: "game-message", class: "game-message", role: "alert" });

  els.soloScore = h("span", { id: "solo-score", class: "solo-score-value" }, "0");
  els.soloDetail = h("p", { id: "solo-detail", class: "solo-detail" });
  els.undo = h("button", { type: "button", id: "undo-button", class: "button" }, "Undo last border");
  els.soloCard = h("section", { class: "card solo-card", "aria-labelledby": "solo-heading", hidden: true },
    h("h2", { id: "solo-heading" }, "Your score"),
    h("p", { class: "solo-score" }, els.soloScore),
    els.soloDetail, els.undo);

  els.counts = h("div", { id: "district-counts", class: "district-counts" });
  els.progress = h("p", { class: "progress-text", id: "district-progress" });
  els.countsCard = h("section", { class: "card", "aria-labelledby": "counts-heading" },
    h("h2", { id: "counts-heading" }, "Districts"), els.counts, els.progress);

  els.players = h("ul", { id: "players", class: "players" });
  els.playersCard = h("section", { class: "card", "aria-labelledby": "players-heading" },
    h("h2", { id: "players-heading" }, "Players"), els.players);

  els.result = h("section", { id: "result", class: "card result-card", "aria-labelledby": "result-heading", hidden: true, tabindex: "-1" });

  const panel = h("aside", { class: "panel", "aria-label": "Game information" },
    els.turnCard, els.message, els.result, els.soloCard, els.countsCard, els.playersCard,
    h("p", { class: "back-link" }, h("a", { href: lobbyUrl }, "Back to my games")));

  els.tieText = h("p", { id: "tie-text" });
  els.tieChoices = h("div", { id: "tie-choices", class: "tie-choices" });
  els.tieDialog = h("dialog", { id: "tie-dialog", class: "tie-dialog", "aria-labelledby": "tie-title", "aria-describedby": "tie-text" },
    h("h2", { id: "tie-title" }, "It's a tie! You choose the winner"),
    els.tieText, els.tieChoices,
    h("form", { method: "dialog", class: "tie-later" },
      h("button", { class: "button button-quiet", value: "later" }, "Let me look at the board first")));

  root.replaceChildren(els.connection, els.banner,
    h("div", { class: "game-layout" }, boardArea, panel), els.tieDialog);
  return els;
}

export function startGame(options = {}) {
  const root = options.root || document.getElementById("game");
  const initialNode = document.getElementById("game-initial");
  const initial = options.initial || (initialNode ? JSON.parse(initialNode.textContent) : null);
  const wsPath = options.wsPath || root.dataset.wsPath;
  const shareUrl = options.shareUrl || root.dataset.shareUrl || `${location.origin}${location.pathname}`;
  if (!initial) throw new Error("game.js: no initial game state (#game-initial)");

  const els = buildLayout(root);
  let game = initial;
  let connState = "connecting";
  let lastAckVersion = -1;
  let ackStateTimer = null;
  let tieDismissed = null; // version at which the player closed the tie dialog
  let resultShownFor = null;

  const board = new MapmakerBoard(els.board, {
    onEdge: (edge) => onEdge(edge),
    onHint: (text) => { els.hint.textContent = text; },
  });

  const socketHandlers = {
    onState: (g) => {
      game = g;
      if (lastAckVersion <= g.version) { lastAckVersion = -1; clearTimeout(ackStateTimer); }
      render();
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
      render();
    },
    onStatus: (s) => { connState = s.state; renderConnection(s); render(); },
  };
  const socket = options.socketFactory
    ? options.socketFactory(socketHandlers)
    : new GameSocket(wsPath, socketHandlers);

  // --- helpers -----------------------------------------------------------------------
  const view = () => game.view || {};
  const isSolo = () => String(view().mode || "").startsWith("solo");
  const mySeat = () => (game.seat === null || game.seat === undefined ? null : game.seat);
  const partyOfSeat = (seat) => {
    const pos = view().party_of_seat;
    if (Array.isArray(pos) && pos[seat] !== undefined) return pos[seat];
    return seat;
  };
  const seatName = (seat) => {
    const s = (game.seats || []).find((x) => x.index === seat) || (game.seats || [])[seat];
    if (!s) return `Player ${seat + 1}`;
    if (s.open) return "an open seat";
    return s.name || `Player ${seat + 1}`;
  };
  const isBusy = () => socket.hasPending || lastAckVersion > game.version;
  const isOver = () => !!view().is_over || game.status === "finished";
  const toMove = () => view().to_move || [];
  const pending = () => view().pending_choice || null;
  const myTurn = () => game.status === "active" && !isOver() && mySeat() !== null
    && toMove().includes(mySeat());
  const canPlaceBorders = () => myTurn() && !pending() && connState === "open" && !isBusy();

  function showMessage(text, code = "info") {
    els.message.textContent = text;
    els.message.dataset.code = code;
  }
  function clearMessage() {
    els.message.textContent = "";
    delete els.message.dataset.code;
  }

  function send(move) {
    if (connState !== "open") {
      showMessage("You are offline. Wait until the connection is back, then try again.", "offline");
      return false;
    }
    const ref = socket.sendMove(move, game.version);
    if (!ref) {
      showMessage("Wait a moment: your last move is still on its way.", "busy");
      return false;
    }
    clearMessage();
    els.hint.textContent = "";
    render();
    return true;
  }

  // --- actions -----------------------------------------------------------------------
  function onEdge(edge) {
    if (mySeat() === null) { showMessage("You are watching this game; only players can place borders.", "spectator"); return; }
    if (isOver()) { showMessage("The game is over.", "over"); return; }
    if (game.status === "waiting") { showMessage("The game starts when every seat is taken.", "waiting"); return; }
    if (game.status === "paused") { showMessage("Your teacher has paused the game.", "paused"); return; }
    if (!myTurn()) { showMessage(`It is not your turn: wait for ${seatName(view().turn?.seat ?? toMove()[0])}.`, "not_your_turn"); return; }
    if (pending()) { showMessage("First choose the winner of the tied district.", "pending_choice"); openTieDialog(); return; }
    if (isBusy()) { showMessage("Wait a moment: your last border is still on its way.", "busy"); return; }
    // Illegal edges are sent too: the engine's message tells the student why.
    if (send({ type: "border", between: edge.between }) && edge.legal) board.markPlacing(edge.key);
  }

  els.undo.addEventListener("click", () => {
    if (!view().can_undo) return;
    send({ type: "undo" });
  });
  els.tieOpen.addEventListener("click", () => openTieDialog(true));
  els.tieDialog.addEventListener("close", () => {
    if (els.tieDialog.returnValue === "later") tieDismissed = game.version;
    render();
  });

  function openTieDialog(force = false) {
    const pc = pending();
    if (!pc || pc.seat !== mySeat() || isOver() || game.status !== "active") return;
    if (!force && tieDismissed === game.version) return;
    const d = (view().districts || [])[pc.district] || {};
    const votes = d.votes;
    const voteOf = (p) => (Array.isArray(votes) ? votes[p] : votes && votes[p]);
    const parts = pc.parties.map((p) => partyInfo(p).name);
    const v = voteOf(pc.parties[0]);
    els.tieText.textContent = `You closed a district where ${parts.join(" and ")} are tied`
      + (v !== undefined && v !== null ? ` with ${plural(v, "vote", "votes")} each` : "")
      + ". Pick the party that wins it (it can be yours, or not).";
    els.tieChoices.replaceChildren(...pc.parties.map((p) => h("button", {
      type: "button", class: `button party-button party-${p}`, dataset: { party: String(p) },
      style: `--party:${partyInfo(p).color}`,
      onclick: () => {
        tieDismissed = null;
        els.tieDialog.close("chosen");
        send({ type: "choose_winner", party: p });
      },
    }, chip(p), p === partyOfSeat(mySeat()) ? " (you)" : "")));
    if (!els.tieDialog.open) {
      els.tieDialog.returnValue = "";
      if (typeof els.tieDialog.showModal === "function") els.tieDialog.showModal();
      else els.tieDialog.setAttribute("open", "");
    }
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
    if (game.status === "waiting") {
      const open = (game.seats || []).filter((s) => s.open).length;
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
    } else if (game.status === "finished" || isOver()) {
      b.append(h("strong", {}, "Game over!"), " See the result beside the board.");
      b.hidden = false;
    } else {
      b.hidden = true;
    }
  }

  // #turn-status is a live region: only touch it when its text really changes, so screen
  // readers announce a new turn once rather than on every frame.
  function renderTurn() {
    const live = els.turn;
    els.turn = h("p");
    try { renderTurnInto(); } finally {
      const fresh = els.turn;
      els.turn = live;
      if (fresh.textContent !== live.textContent || fresh.innerHTML !== live.innerHTML) {
        live.replaceChildren(...fresh.childNodes);
      }
    }
  }

  function renderTurnInto() {
    const v = view();
    const pc = pending();
    const turn = v.turn || null;
    els.turn.replaceChildren();
    els.bordersLeft.replaceChildren();
    els.turnCard.classList.remove("my-turn");
    els.turnCard.style.removeProperty("--party");
    els.tieOpen.hidden = true;
    let title = "Mapmaker";

    els.turnCard.hidden = isOver() && !!v.result;
    if (isOver()) {
      els.turn.textContent = "Game over";
    } else if (game.status === "waiting") {
      els.turn.textContent = "Waiting for players to join";
    } else if (game.status === "paused") {
      els.turn.textContent = "Paused by your teacher";
    } else if (pc) {
      if (pc.seat === mySeat()) {
        els.turn.textContent = "A tied district! Choose its winner.";
        els.tieOpen.hidden = false;
        els.turnCard.classList.add("my-turn");
        title = "Your choice";
      } else {
        els.turn.append(chip(partyOfSeat(pc.seat), seatName(pc.seat)), " is choosing the winner of a tied district.");
      }
    } else if (isSolo()) {
      els.turn.textContent = mySeat() === null ? "Solo game" : "Draw districts: place borders anywhere.";
      els.bordersLeft.textContent = `Borders placed: ${v.borders_used ?? (v.borders || []).length}`;
    } else {
      const seat = turn && turn.seat !== undefined && turn.seat !== null ? turn.seat : toMove()[0];
      if (seat !== undefined && seat !== null) {
        const party = partyOfSeat(seat);
        els.turnCard.style.setProperty("--party", partyInfo(party).color);
        if (seat === mySeat()) {
          els.turnCard.classList.add("my-turn");
          els.turn.append(chip(party, "Your turn"), h("span", { class: "turn-sub" }, partyInfo(party).name));
          title = "Your turn";
        } else {
          const s = (game.seats || [])[seat];
          els.turn.append(chip(party, `${seatName(seat)}'s turn`), h("span", { class: "turn-sub" }, `${partyInfo(party).name}${s && s.is_bot ? " (bot)" : ""}`));
        }
      }
      if (turn && typeof turn.borders_left === "number") {
        const quota = turn.quota || turn.borders_left;
        const pips = h("span", { class: "pips", "aria-hidden": "true" });
        for (let i = 0; i < quota; i += 1) pips.append(h("span", { class: i < quota - turn.borders_left ? "pip used" : "pip" }));
        els.bordersLeft.append(
          h("span", { class: "borders-left-text" }, `${plural(turn.borders_left, "border", "borders")} left this turn`),
          quota ? h("span", { class: "visually-hidden" }, ` (of ${quota})`) : null, pips);
        els.bordersLeft.dataset.left = String(turn.borders_left);
      }
    }
    document.title = `${title} - Mapmaker - Gerrymander Classroom`;
  }

  function partiesInPlay() {
    const v = view();
    const set = new Set();
    if (Array.isArray(v.party_of_seat)) v.party_of_seat.forEach((p) => set.add(p));
    if (isSolo()) { set.add(0); set.add(1); }
    for (const c of v.counties || []) if (c.party !== null && c.party !== undefined) set.add(c.party);
    return [...set].filter((p) => p !== null && p !== undefined).sort();
  }

  function renderCounts() {
    const v = view();
    const counts = countsByParty(v);
    const seatOfParty = {};
    (v.party_of_seat || []).forEach((p, s) => { seatOfParty[p] = s; });
    const rows = partiesInPlay().map((p) => {
      const s = seatOfParty[p];
      const seatRow = s !== undefined ? (game.seats || [])[s] : null;
      const who = s !== undefined
        ? (s === mySeat() ? "you" : (seatRow && seatRow.open ? "open seat" : seatName(s)))
        : (isSolo() ? "other" : "");
      return h("li", { class: "count-row", dataset: { party: String(p), count: String(counts[p] || 0) } },
        chip(p), who ? h("span", { class: "count-who" }, who) : null,
        h("span", { class: "count-value", "aria-label": `${counts[p] || 0} districts` }, String(counts[p] || 0)));
    });
    const tied = (v.districts || []).filter((d) => d.winner === null || d.winner === undefined).length;
    if (tied) {
      rows.push(h("li", { class: "count-row", dataset: { party: "tied", count: String(tied) } },
        h("span", { class: "party-chip" }, h("span", { class: "swatch swatch-tied", "aria-hidden": "true" }), "Tied"),
        h("span", { class: "count-value" }, String(tied))));
    }
    els.counts.replaceChildren(h("ul", { class: "count-list" }, rows));
    const total = (v.counties || []).length;
    const inDistricts = (v.districts || []).reduce((n, d) => n + (d.counties || []).length, 0);
    els.progress.replaceChildren(
      `${plural((v.districts || []).length, "district", "districts")}; ${inDistricts} of ${total} counties districted.`,
      h("progress", { max: String(total || 1), value: String(inDistricts), "aria-label": "Counties in districts" }));
  }

  function renderPlayers() {
    const v = view();
    const items = (game.seats || []).map((s) => {
      const party = partyOfSeat(s.index);
      const active = !isOver() && game.status === "active" && toMove().includes(s.index);
      const label = s.open ? "Open seat" : (s.name || `Player ${s.index + 1}`);
      return h("li", { class: `player${active ? " active" : ""}`, dataset: { seat: String(s.index) } },
        chip(party, label),
        s.index === mySeat() ? h("span", { class: "tag" }, "you") : null,
        s.is_bot ? h("span", { class: "tag" }, `bot${s.bot_level ? `: ${s.bot_level}` : ""}`) : null,
        active ? h("span", { class: "tag tag-turn" }, "to move") : null);
    });
    els.players.replaceChildren(...items);
    els.playersCard.hidden = !items.length || (isSolo() && items.length <= 1 && !!v);
  }

  function renderSolo() {
    const v = view();
    const solo = isSolo();
    els.soloCard.hidden = !solo;
    if (!solo) { els.undo.hidden = true; return; }
    els.undo.hidden = mySeat() === null;
    const score = v.score ?? (v.result && v.result.score) ?? 0;
    els.soloScore.textContent = String(score);
    const districts = (v.districts || []).length;
    const used = v.borders_used ?? (v.borders || []).length;
    if (v.mode === "solo-competitive") {
      els.soloDetail.textContent = `10 points per district (${districts}) minus 1 per border (${used}). Every district must be tied.`;
    } else {
      const counts = countsByParty(v);
      const mine = partyOfSeat(mySeat() ?? 0);
      const other = mine === 0 ? 1 : 0;
      els.soloDetail.textContent = `Your districts (${counts[mine] || 0}) minus the other party's (${counts[other] || 0}). Tied districts are not allowed.`;
    }
    els.undo.disabled = !v.can_undo || isBusy() || connState !== "open" || isOver() || game.status !== "active";
  }

  function renderResult() {
    const v = view();
    const r = v.result;
    if (!isOver() || !r) { els.result.hidden = true; return; }
    const first = resultShownFor !== game.version && els.result.hidden;
    resultShownFor = game.version;
    els.result.replaceChildren();
    els.result.hidden = false;
    const winners = r.winners || [];
    const me = mySeat();
    if (r.decided_by === "solo" || isSolo()) {
      const won = !!r.won;
      els.result.append(
        h("h2", { id: "result-heading" }, won ? "You won!" : "Not this time"),
        h("p", { class: "result-winner" }, won ? "Winner: you! " : "", `Final score: `, h("strong", { id: "result-score" }, String(r.score ?? v.score ?? 0))),
        h("p", {}, `${plural(r.borders_used ?? v.borders_used ?? 0, "border", "borders")} used, ${plural((v.districts || []).length, "district", "districts")}.`),
        v.mode === "solo-competitive" && !won
          ? h("p", {}, "Every district had to be tied between Red and Blue.") : null);
    } else {
      let heading = "Game over";
      if (winners.includes(me)) heading = winners.length > 1 ? "You share the win!" : "You won!";
      else if (me !== null) heading = "Game over: better luck next time!";
      els.result.append(h("h2", { id: "result-heading" }, heading));
    }
    // #result-summary reads the same for every seat and for spectators (no "you").
    const summary = h("div", { id: "result-summary", dataset: { winners: winners.join(","), decidedBy: r.decided_by || "" } });
    if (!(r.decided_by === "solo" || isSolo())) {
      summary.append(h("p", { class: "result-winner" },
        winners.length > 1 ? "Winners (shared): " : "Winner: ",
        ...winners.flatMap((s, i) => [i ? " and " : "", chip(partyOfSeat(s), seatName(s))])));
    }
    summary.append(h("p", { class: "decided-by", id: "decided-by", dataset: { decidedBy: r.decided_by || "" } },
      DECIDED_BY[r.decided_by] || (r.decided_by ? `Decided by ${String(r.decided_by).replace(/_/g, " ")}.` : "")));
    els.result.append(summary);
    const ranking = r.ranking || [];
    if (ranking.length) {
      const table = h("table", { class: "ranking" },
        h("caption", { class: "visually-hidden" }, "Final ranking"),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"),
          h("th", { scope: "col" }, "Districts"), h("th", { scope: "col" }, "Swing counties"),
          h("th", { scope: "col" }, "Own votes"))),
        h("tbody", {}, ranking.map((row) => h("tr", { dataset: { seat: String(row.seat), place: String(row.place), districts: String(row.districts ?? ""), swingCounties: String(row.swing_counties ?? "") }, class: winners.includes(row.seat) ? "winner-row" : "" },
          h("td", {}, String(row.place)),
          h("th", { scope: "row" }, chip(row.party ?? partyOfSeat(row.seat), row.seat === me ? `${seatName(row.seat)} (you)` : seatName(row.seat))),
          h("td", {}, String(row.districts ?? "")),
          h("td", {}, String(row.swing_counties ?? "")),
          h("td", {}, String(row.own_votes ?? ""))))));
      els.result.append(h("div", { class: "table-scroll" }, table));
    }
    els.result.append(h("p", {}, h("a", { class: "button", href: root.dataset.lobbyUrl || "/games/" }, "Play another game")));
    if (first) els.result.focus({ preventScroll: false });
  }

  function render() {
    const v = view();
    document.body.dataset.version = String(game.version);
    document.body.dataset.status = game.status;
    document.body.dataset.seat = mySeat() === null ? "spectator" : String(mySeat());
    document.body.dataset.myTurn = myTurn() && !pending() ? "true" : "false";
    document.body.dataset.busy = isBusy() ? "true" : "false";
    document.body.dataset.over = isOver() ? "true" : "false";
    renderBanner();
    renderTurn();
    renderCounts();
    renderPlayers();
    renderSolo();
    renderResult();
    const inPlay = new Set(partiesInPlay());
    root.querySelectorAll(".legend-party").forEach((li, i) => { li.hidden = !inPlay.has(i); });
    const highlight = v.pending_choice ? v.pending_choice.district : null;
    board.render(v, { interactive: canPlaceBorders(), highlightDistrict: highlight });
    // Tie dialog: only for the player who closed the district.
    const pc = pending();
    if (pc && pc.seat === mySeat() && game.status === "active" && !isOver()) openTieDialog();
    else if (els.tieDialog.open) els.tieDialog.close("gone");
  }

  render();
  socket.connect();
  return { socket, board, get game() { return game; }, render };
}

if (!window.__MAPMAKER_MANUAL_START__ && document.getElementById("game-initial")) {
  window.mapmakerGame = startGame();
}
