// The Berrymandering board module: the cake as SVG, drawn only from the engine view, and the
// Berrymandering parts of the game page (createBoard, at the end; the shell is game.js).
//
// Geometry: square cells (x: column, left to right; y: row, top down), touching when they
// share a side.  Berries are drawn by shape (a strawberry is a pointed heart with leaves, a
// blueberry a round berry with a crown) and their number is written on the tile, so nothing
// depends on colour alone.
//
// How a cutter cuts: drag across 4 cells, or tap (click, or Enter/Space on the focused cell)
// 4 cells one by one.  The 4th cell closes the group when the 4 cells are connected; if not,
// the page says why at once and nothing is kept.  Groups are checked here before anything is
// sent (size, connected, eaten, already in a group) and, after every change, the cells still
// ungrouped: an island of them that can no longer be split into groups of 4 is marked (an
// exact search, below).  When every uneaten cell is in a group, "Cut the cake" sends the
// whole cut as one move; the engine stays the judge and its message is shown if it refuses.
//
// DOM hooks (stable, used by tests; the state-maps browser test drives this board too):
//   svg.bm-board[data-phase][data-interactive]   the cake (inside #board)
//   [data-cell="x,y"]          a cell (focusable: arrow keys move, Enter/Space acts); with
//                              data-tile ("strawberry-3" | "blueberry-1" | "random"),
//                              data-eaten ("true"/"false"), data-mystery ("blueberry-2": the
//                              Mystery tile on a Random cell, once face up), data-group (the
//                              group it is in: the cutter's groups while cutting, the cut's
//                              groups while choosing), data-forming="true" (in the group being
//                              formed), data-stuck="true" (in an island that cannot be split)
//   [data-group-label="i"]     the number of group i on the cake
//   [data-group-badge="i"]     group i's berries on the cake while choosing
//   #cut-tools                 the cutter's bar: #cut-status, #cut-message[data-code],
//                              #cut-undo, #cut-clear, #cut-submit
//   #choose-list               the chooser's groups: [data-choose="i"] buttons (each eats
//                              group i of view.cut; text: its berries per team)
//   #mystery-pick              the Mystery keeper's tiles: [data-mystery="i"] buttons
//   #cakeland                  the panel card: #bm-round, #bm-candles [data-team="0|1"]
//                              [data-candles], #bm-roles [data-role="cutter|chooser|keeper"],
//                              #mystery-left, #mystery-revealed li, #mystery-news
//   #final-candles, #solo-rating [data-rating]   on the end screen
//   [data-eaten-group="k"]     the marker of the k-th group eaten (view.history[k]; it shows
//                              k + 1, the group's number in the lesson after the game)
//   .bm-cell.lesson-packed, .bm-cell.lesson-cracked   cells of groups the lesson marks

import { SVG_NS, h, howToPlay, plural } from "./ui.js";

// The stylesheet lives next to this module.  The production static storage rewrites the
// path of every dynamic import to its hashed file name, even inside a string: that is how
// this module learns the hashed name of its stylesheet, so a new board never meets an old
// cached stylesheet (tests/games/test_berrymandering_static.py).  Elsewhere the path stays
// as written.  (Never write that import form anywhere else in this file, comments too.)
const STYLE_REF = 'import("../css/berrymandering.css")';

export const TEAMS = [
  { name: "Strawberry", plural: "strawberries", key: "strawberry", color: "#e03131", dark: "#a61e1e", tint: "#ffe3e3" },
  { name: "Blueberry", plural: "blueberries", key: "blueberry", color: "#3b5bdb", dark: "#1c2f86", tint: "#dbe4ff" },
];
const KEEPER = 2;
const CELL = 60;
const GROUP_TINTS = ["#fff3bf", "#d3f9d8", "#e5dbff", "#ffd8a8", "#c5f6fa", "#fcc2d7", "#d0ebff", "#e9fac8", "#f3d9fa", "#ffe066"];
const TILE_WORDS = { 1: "single", 2: "double", 3: "triple", 4: "quadruple" };
const DECIDED_BY = {
  candles: "Decided by candles: the team with more candles rules Cakeland.",
  draw: "Equal candles: a draw. Nobody rules Cakeland.",
  third_player: "Equal candles, so the Mystery keeper wins.",
  solo: "Solo: your candles against the score sheet.",
};
const SOLO_SHEET = [
  [0, "1-4", "You won't be crowned ruler of Cakeland today."],
  [5, "5", "You may sit on the throne for a day."],
  [6, "6", "You rule for a week, with a parade of cakes."],
  [7, "7", "You rule for a year."],
  [8, "8", "Cakeland is yours to rule forever."],
  [9, "9", "Impossible: you cheated!"],
];

// ---------------------------------------------------------------- pure helpers (exported)

export const cellKey = (x, y) => `${x},${y}`;
export const parseKey = (key) => key.split(",").map(Number);
const fmtCell = (key) => `(${key})`;
const STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1]];

function readingOrder(keys) {
  return [...keys].map(parseKey).sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([x, y]) => cellKey(x, y));
}

/** Are these cells (keys "x,y") one orthogonally connected piece? */
export function connected(keys) {
  const set = new Set(keys);
  if (!set.size) return true;
  const start = set.values().next().value;
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) {
    const [x, y] = parseKey(todo.pop());
    for (const [dx, dy] of STEPS) {
      const k = cellKey(x + dx, y + dy);
      if (set.has(k) && !seen.has(k)) { seen.add(k); todo.push(k); }
    }
  }
  return seen.size === set.size;
}

/** The connected parts of a set of cells, each in reading order, ordered by first cell. */
export function islands(keys) {
  const left = new Set(keys);
  const out = [];
  for (const start of readingOrder(left)) {
    if (!left.has(start)) continue;
    left.delete(start);
    const part = [start];
    for (let i = 0; i < part.length; i += 1) {
      const [x, y] = parseKey(part[i]);
      for (const [dx, dy] of STEPS) {
        const k = cellKey(x + dx, y + dy);
        if (left.has(k)) { left.delete(k); part.push(k); }
      }
    }
    out.push(readingOrder(part));
  }
  return out;
}

// The 19 fixed tetromino orientations, each as offsets from its first cell in reading order.
const SHAPES = [
  [[0, 0], [1, 0], [2, 0], [3, 0]], [[0, 0], [1, 0], [0, 1], [1, 1]], [[0, 0], [1, 0], [2, 0], [1, 1]],
  [[1, 0], [2, 0], [0, 1], [1, 1]], [[0, 0], [1, 0], [1, 1], [2, 1]], [[0, 0], [0, 1], [0, 2], [1, 2]],
  [[1, 0], [1, 1], [1, 2], [0, 2]],
];
export const ORIENTATIONS = (() => {
  const seen = new Set();
  const out = [];
  for (const shape of SHAPES) {
    let cells = shape;
    for (let turn = 0; turn < 4; turn += 1) {
      const sorted = [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      const [fx, fy] = sorted[0];
      const offs = sorted.map(([x, y]) => [x - fx, y - fy]);
      const sig = JSON.stringify(offs);
      if (!seen.has(sig)) { seen.add(sig); out.push(offs); }
      cells = cells.map(([x, y]) => [-y, x]);
    }
  }
  return out;
})();

/** Can these cells be cut into groups of 4 connected cells?  Exact: true or false; null when
 *  the search passes `limit` steps (then nobody is told anything wrong).  The first cell left
 *  in reading order must be the first cell of the piece covering it, so trying every
 *  orientation there is complete; dead ends are remembered. */
export function tileable(keys, limit = 20000) {
  const cells = readingOrder(keys);
  if (cells.length % 4) return false;
  const index = new Map(cells.map((k, i) => [k, i]));
  const coords = cells.map(parseKey);
  const placements = coords.map(([x, y]) => {
    const list = [];
    for (const offs of ORIENTATIONS) {
      const ids = offs.map(([dx, dy]) => index.get(cellKey(x + dx, y + dy)));
      if (ids.every((i) => i !== undefined)) list.push(ids);
    }
    return list;
  });
  const covered = new Uint8Array(cells.length);
  const dead = new Set();
  let steps = 0;
  function search(from) {
    let first = from;
    while (first < cells.length && covered[first]) first += 1;
    if (first === cells.length) return true;
    const key = covered.join("");
    if (dead.has(key)) return false;
    steps += 1;
    if (steps > limit) throw new Error("limit");
    for (const ids of placements[first]) {
      if (ids.some((i) => covered[i])) continue;
      for (const i of ids) covered[i] = 1;
      const ok = search(first + 1);
      for (const i of ids) covered[i] = 0;
      if (ok) return true;
    }
    dead.add(key);
    return false;
  }
  try { return search(0); } catch { return null; }
}

/** The islands of `keys` that can no longer be cut into groups of 4:
 *  [{cells, reason: "size" | "shape"}]. */
export function stuckIslands(keys) {
  const out = [];
  for (const part of islands(keys)) {
    if (part.length % 4) out.push({ cells: part, reason: "size" });
    else if (part.length > 4 ? tileable(part) === false : !connected(part)) out.push({ cells: part, reason: "shape" });
  }
  return out;
}

/** The stuck islands worth pointing at: when the wrong sizes are a small island cut off
 *  from a big one, the small one is the mistake (the big one is only its echo). */
export function stuckToShow(keys) {
  const stuck = stuckIslands(keys);
  const bySize = stuck.filter((s) => s.reason === "size");
  if (bySize.length >= 2) {
    const biggest = bySize.reduce((a, b) => (b.cells.length > a.cells.length ? b : a));
    if (bySize.every((s) => s === biggest || s.cells.length < biggest.cells.length)) {
      return stuck.filter((s) => s !== biggest);
    }
  }
  return stuck;
}

function stuckWords(stuck) {
  const { cells, reason } = stuck;
  const where = cells.length === 1 ? `The cell ${fmtCell(cells[0])}` : `The ${cells.length} cells around ${fmtCell(cells[0])}`;
  const verb = cells.length === 1 ? "is" : "are";
  if (reason === "size") {
    return `${where} ${verb} cut off and cannot make groups of 4 (${cells.length} is not a multiple of 4). Undo a group to fix it.`;
  }
  return `${where} cannot be split into groups of 4 connected cells. Undo a group to fix it.`;
}

// ---------------------------------------------------------------- drawing helpers

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}
const r2 = (n) => Math.round(n * 100) / 100;

/** One berry of `team` centred at (cx, cy) with radius r. */
function drawBerry(parent, team, cx, cy, r) {
  const t = TEAMS[team];
  const g = el("g", { class: `berry berry-${t.key}` }, parent);
  if (team === 0) {
    // a strawberry: a heart with a point at the bottom, seeds, and leaves on top
    el("path", {
      class: "berry-body", fill: t.color, stroke: t.dark, "stroke-width": r2(r * 0.12),
      d: `M${r2(cx - r)},${r2(cy - 0.35 * r)} C${r2(cx - r)},${r2(cy + 0.35 * r)} ${r2(cx - 0.35 * r)},${r2(cy + 0.8 * r)} ${r2(cx)},${r2(cy + r)} `
        + `C${r2(cx + 0.35 * r)},${r2(cy + 0.8 * r)} ${r2(cx + r)},${r2(cy + 0.35 * r)} ${r2(cx + r)},${r2(cy - 0.35 * r)} `
        + `C${r2(cx + 0.55 * r)},${r2(cy - 0.8 * r)} ${r2(cx - 0.55 * r)},${r2(cy - 0.8 * r)} ${r2(cx - r)},${r2(cy - 0.35 * r)} Z`,
    }, g);
    for (const [sx, sy] of [[-0.4, -0.05], [0.4, -0.05], [0, 0.25], [-0.2, 0.5], [0.2, 0.5]]) {
      el("circle", { cx: r2(cx + sx * r), cy: r2(cy + sy * r), r: r2(r * 0.07), fill: "#ffe8a3" }, g);
    }
    const lf = [[-0.65, -0.72], [-0.2, -0.48], [0, -0.95], [0.2, -0.48], [0.65, -0.72], [0, -0.3]];
    el("polygon", { class: "berry-leaf", fill: "#2f9e44", points: lf.map(([px, py]) => `${r2(cx + px * r)},${r2(cy + py * r)}`).join(" ") }, g);
  } else {
    // a blueberry: round, with a star-shaped crown
    el("circle", { class: "berry-body", cx: r2(cx), cy: r2(cy + 0.05 * r), r: r2(0.9 * r), fill: t.color, stroke: t.dark, "stroke-width": r2(r * 0.12) }, g);
    const pts = [];
    for (let i = 0; i < 10; i += 1) {
      const a = (Math.PI / 5) * i - Math.PI / 2;
      const rr = i % 2 ? 0.12 * r : 0.3 * r;
      pts.push(`${r2(cx + rr * Math.cos(a))},${r2(cy - 0.38 * r + rr * Math.sin(a))}`);
    }
    el("polygon", { class: "berry-crown", fill: t.dark, points: pts.join(" ") }, g);
    el("circle", { cx: r2(cx + 0.35 * r), cy: r2(cy + 0.25 * r), r: r2(0.14 * r), fill: "#ffffff", opacity: 0.55 }, g);
  }
  return g;
}

const LAYOUTS = {
  1: [[0.5, 0.48, 0.24]],
  2: [[0.32, 0.34, 0.18], [0.64, 0.62, 0.18]],
  3: [[0.5, 0.28, 0.16], [0.27, 0.62, 0.16], [0.68, 0.6, 0.16]],
  4: [[0.29, 0.28, 0.15], [0.69, 0.28, 0.15], [0.29, 0.66, 0.15], [0.66, 0.64, 0.13]],
};

/** `count` berries of `team` in the cell at (x0, y0), with the number written. */
function drawTile(parent, team, count, x0, y0) {
  const spots = LAYOUTS[Math.min(Math.max(count, 1), 4)];
  for (const [px, py, pr] of spots) drawBerry(parent, team, x0 + px * CELL, y0 + py * CELL, pr * CELL);
  el("rect", { class: "count-badge", x: r2(x0 + CELL - 21), y: r2(y0 + CELL - 21), width: 18, height: 18, rx: 5 }, parent);
  const text = el("text", { class: `count count-${TEAMS[team].key}`, x: r2(x0 + CELL - 12), y: r2(y0 + CELL - 11.5), "text-anchor": "middle", "dominant-baseline": "central" }, parent);
  text.textContent = String(count);
}

/** A small inline SVG (for HTML text): a berry of `team`, a candle, or the keeper's "?". */
export function icon(kind, label = null) {
  const node = el("svg", { class: `bm-icon bm-icon-${kind}`, viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": label ? null : "true", role: label ? "img" : null, "aria-label": label });
  if (kind === "strawberry") drawBerry(node, 0, 12, 12.5, 10);
  else if (kind === "blueberry") drawBerry(node, 1, 12, 12.5, 10);
  else if (kind === "candle") {
    el("path", { class: "flame", d: "M12 1 C15 5 15 8 12 9.5 C9 8 9 5 12 1 Z", fill: "#f08c00" }, node);
    el("rect", { class: "wax", x: 8.5, y: 10.5, width: 7, height: 12, rx: 1.5, fill: "#fff5d6", stroke: "#b08900", "stroke-width": 1.2 }, node);
  } else {
    el("rect", { x: 2, y: 2, width: 20, height: 20, rx: 4, fill: "#efe7ff", stroke: "#7048e8", "stroke-width": 1.5, "stroke-dasharray": "3 2" }, node);
    const t = el("text", { x: 12, y: 13, "text-anchor": "middle", "dominant-baseline": "central", class: "q", fill: "#5f3dc4" }, node);
    t.textContent = "?";
  }
  return node;
}

const teamIcon = (team) => icon(TEAMS[team].key);
function tileText(team, count) { return `${count} ${count === 1 ? TEAMS[team].name.toLowerCase() : TEAMS[team].plural}`; }
function mysteryWords(team, count) {
  const word = TILE_WORDS[count] || `${count}-berry`;
  return `${/^[aeiou]/.test(word) ? "an" : "a"} ${word} ${TEAMS[team].name}`;
}

// ---------------------------------------------------------------- the board

/** The Berrymandering part of the game page. */
export function createBoard(container, page) {
  addStyles();
  const view = () => page.game.view || {};
  const mySeat = () => page.mySeat();
  const teamOf = (seat) => { const t = (view().team_of_seat || [])[seat]; return t === undefined ? null : t; };
  const isSolo = () => view().mode === "solo";

  // The cutter's work in progress: kept per position (game, round, eaten cells), also in
  // sessionStorage so a reload keeps it.
  let draft = { key: null, groups: [], forming: [], refused: [] };
  let chosen = null; // the group the chooser tapped once (a second tap eats it)
  let hovered = null; // the group whose button in the list is pointed at or focused
  let focusKey = null;
  let drag = null; // {pointerId, moved, startKey, wasForming} (cutting) or {..., choose: true}
  let cutMessage = { text: "", code: "" };
  let lessonMarks = { packed: new Set(), cracked: new Set() };
  let lastRevealed = null;
  let news = "";
  let newsCells = new Set();
  let geometry = { keys: [], cells: new Map() };

  const svgRoot = el("svg", { class: "bm-board", role: "group", "aria-label": "The cake", "aria-roledescription": "game board", preserveAspectRatio: "xMidYMid meet" });
  container.appendChild(svgRoot);

  // ---- the cutter's bar, under the board
  const cutStatus = h("p", { id: "cut-status", class: "cut-status" });
  const cutMsg = h("p", { id: "cut-message", class: "cut-message", role: "status", "aria-live": "polite" });
  const undoButton = h("button", { type: "button", id: "cut-undo", class: "button" }, "Undo group");
  const clearButton = h("button", { type: "button", id: "cut-clear", class: "button button-quiet" }, "Clear all");
  const submitButton = h("button", { type: "button", id: "cut-submit", class: "button button-primary" }, "Cut the cake");
  const cutTools = h("section", { id: "cut-tools", class: "cut-tools", "aria-label": "Cutting the cake", hidden: true },
    cutStatus, cutMsg, h("div", { class: "cut-buttons" }, undoButton, clearButton, submitButton));
  page.addBoardExtra(cutTools);

  // ---- key and how to play
  const legend = h("ul", { class: "legend bm-legend", "aria-label": "Key" },
    h("li", {}, icon("strawberry"), "Strawberry tile (the number says how many)"),
    h("li", {}, icon("blueberry"), "Blueberry tile"),
    h("li", {}, icon("mystery"), "Random tile: a Mystery tile counts here when the group is eaten"),
    h("li", {}, h("span", { class: "legend-eaten", "aria-hidden": "true" }), "Eaten"),
    h("li", {}, icon("candle"), "Candle: the team with more berries in an eaten group gets one"),
    h("li", { class: "legend-lesson", hidden: true }, h("span", { class: "legend-packed", "aria-hidden": "true" }), "Packed group (see the lesson below)"),
    h("li", { class: "legend-lesson", hidden: true }, h("span", { class: "legend-cracked", "aria-hidden": "true" }), "Cracked: a team lost it narrowly"));
  const help = howToPlay([
    "Two teams share a cake: Strawberry and Blueberry. Each round one player cuts and the other chooses; then the roles switch.",
    "Cutting: split ALL the cake that is left into groups of exactly 4 pieces that touch side by side (not just at corners). Drag across 4 pieces, or tap them one by one. Tap a piece again to take it out of the group you are making.",
    "With a keyboard: press Tab to reach the cake, move with the arrow keys, and press Enter or Space to add a piece. Escape drops the group you are making; Backspace undoes the last group.",
    "When every piece is in a group, press \"Cut the cake\". Undo takes back your last group; Clear all starts again. If some pieces can no longer make groups of 4, they are marked in red.",
    "Choosing: look at the berries in each group and eat one (tap it twice, or use the list beside the cake). The team with more berries in that group gets a candle; a tie gets no candle.",
    "A Random tile (?) shows a Mystery tile when its group is eaten, and those berries count too. Mystery tiles that have been shown stay face up for everyone.",
    "When all the cake is eaten, the team with more candles rules Cakeland. Equal candles: a draw (with 3 players, the Mystery keeper wins).",
    "3 players: the third player is the Mystery keeper and picks which Mystery tile goes on each Random tile that is eaten.",
    "Solo: each round you cut all the cake, then choose 3 groups. You get a candle for each group where your team has more berries. 5 candles or more and you rule Cakeland!",
    "Strategy variant: every Random tile shows its Mystery tile from the start, so there is no luck.",
  ]);
  page.addBoardExtra(legend);
  page.addBoardExtra(help);

  // ---- the panel card: round, candles, roles, Mystery tiles
  const roundNode = h("p", { id: "bm-round", class: "bm-round" });
  const candlesNode = h("ul", { id: "bm-candles", class: "bm-candles" });
  const rolesNode = h("ul", { id: "bm-roles", class: "bm-roles" });
  const mysteryLeft = h("p", { id: "mystery-left", class: "mystery-left" });
  const mysteryNews = h("p", { id: "mystery-news", class: "mystery-news", role: "status", "aria-live": "polite" });
  const revealedList = h("ul", { id: "mystery-revealed", class: "mystery-revealed", "aria-label": "Mystery tiles shown so far" });
  page.addPanelCard(h("section", { id: "cakeland", class: "card bm-card", "aria-labelledby": "cakeland-heading" },
    h("h2", { id: "cakeland-heading" }, "Cakeland"), roundNode, candlesNode, rolesNode,
    h("h3", { class: "bm-sub" }, "Mystery tiles"), mysteryNews, mysteryLeft, revealedList));
  // the chooser's list and the keeper's tiles
  const chooseList = h("ul", { id: "choose-list", class: "choose-list" });
  const chooseCard = h("section", { id: "choose-card", class: "card bm-card", "aria-labelledby": "choose-heading", hidden: true },
    h("h2", { id: "choose-heading" }, "The groups"), h("p", { id: "choose-help", class: "bm-help" }), chooseList);
  page.addPanelCard(chooseCard);
  const mysteryPick = h("div", { id: "mystery-pick", class: "mystery-pick" });
  const mysteryCard = h("section", { id: "mystery-card", class: "card bm-card", "aria-labelledby": "mystery-heading", hidden: true },
    h("h2", { id: "mystery-heading" }, "Pick a Mystery tile"), h("p", { id: "mystery-help", class: "bm-help" }), mysteryPick);
  page.addPanelCard(mysteryCard);

  // ---------------------------------------------------------------- state of play
  function myRole() {
    const v = view();
    const seat = mySeat();
    if (seat === null || seat === undefined || v.is_over || page.game.status !== "active") return null;
    if (!(v.to_move || []).includes(seat)) return null;
    if (v.phase === "cut") return "cut";
    if (v.phase === "choose") return "choose";
    if (v.phase === "mystery") return "mystery";
    return null;
  }
  const canAct = () => page.status().canAct;

  function positionKey() {
    const v = view();
    const eaten = (v.cells || []).map((c) => (c.eaten ? "1" : "0")).join("");
    return `${page.game.id}:${v.round}:${eaten}`;
  }
  function storageKey() { return `bm-draft:${draft.key}`; }
  function syncDraft() {
    const key = positionKey();
    if (draft.key === key) return;
    draft = { key, groups: [], forming: [], refused: [] };
    cutMessage = { text: "", code: "" };
    try {
      const saved = JSON.parse(sessionStorage.getItem(storageKey()) || "null");
      if (saved && Array.isArray(saved.groups)) {
        const free = uneatenKeys();
        const all = saved.groups.flat();
        const ok = new Set(all).size === all.length && saved.groups.every((g) => Array.isArray(g)
          && g.length === 4 && g.every((k) => free.has(k)) && connected(g));
        if (ok) draft.groups = saved.groups;
      }
    } catch { /* storage is optional */ }
  }
  function saveDraft() {
    try {
      if (draft.groups.length) sessionStorage.setItem(storageKey(), JSON.stringify({ groups: draft.groups }));
      else sessionStorage.removeItem(storageKey());
    } catch { /* storage is optional */ }
  }
  function uneatenKeys() {
    return new Set((view().cells || []).filter((c) => !c.eaten).map((c) => cellKey(c.x, c.y)));
  }
  function draftGroupOf() {
    const of = new Map();
    draft.groups.forEach((g, i) => g.forEach((k) => of.set(k, i)));
    return of;
  }
  function cutGroupOf() {
    const of = new Map();
    (view().cut || []).forEach((g, i) => g.forEach(([x, y]) => of.set(cellKey(x, y), i)));
    return of;
  }
  function leftKeys() {
    const grouped = draftGroupOf();
    return [...uneatenKeys()].filter((k) => !grouped.has(k));
  }
  function stuckNow() { return stuckToShow(leftKeys()); }

  function say(text, code = "info") {
    cutMessage = { text, code };
  }

  // ---------------------------------------------------------------- cutting
  function tapForCut(key) {
    const why = page.refusal();
    if (why) { page.showMessage(...why); return; }
    const cell = geometry.cells.get(key);
    if (!cell) return;
    draft.refused = [];
    if (cell.eaten) { say(`That piece ${fmtCell(key)} has been eaten.`, "eaten"); redraw(); return; }
    const inGroup = draftGroupOf().get(key);
    if (inGroup !== undefined) {
      say(`That piece ${fmtCell(key)} is already in group ${inGroup + 1}. Undo groups to change it.`, "in_group");
      redraw();
      return;
    }
    const at = draft.forming.indexOf(key);
    if (at >= 0) {
      draft.forming.splice(at, 1);
      say(draft.forming.length ? `${plural(4 - draft.forming.length, "more piece", "more pieces")} for this group.` : "", "forming");
      redraw();
      return;
    }
    addForming(key);
  }

  /** Add a cell to the group being formed; the 4th closes it (or is refused, with why). */
  function addForming(key) {
    draft.forming.push(key);
    if (draft.forming.length < 4) {
      say(`${plural(4 - draft.forming.length, "more piece", "more pieces")} for this group.`, "forming");
      redraw();
      return;
    }
    const cells = draft.forming;
    draft.forming = [];
    if (!connected(cells)) {
      draft.refused = cells;
      say("These 4 cells are not connected: the pieces of a group must touch side by side.", "not_connected");
      redraw();
      return;
    }
    draft.groups.push(readingOrder(cells));
    saveDraft();
    afterGroupChange(`Group ${draft.groups.length} is ready.`);
  }

  function afterGroupChange(done) {
    const left = leftKeys().length;
    const stuck = stuckNow();
    if (stuck.length) say(stuckWords(stuck[0]), "stuck");
    else if (!left) say(`${done} Every piece is in a group: press "Cut the cake".`, "complete");
    else say(done, "ok");
    redraw();
  }

  undoButton.addEventListener("click", () => undoGroup());
  clearButton.addEventListener("click", () => {
    draft.groups = [];
    draft.forming = [];
    draft.refused = [];
    saveDraft();
    say("All groups cleared: start again.", "cleared");
    redraw();
  });
  submitButton.addEventListener("click", () => submitCut());

  function undoGroup() {
    draft.refused = [];
    if (draft.forming.length) { draft.forming = []; say("The group you were making is dropped.", "undo"); redraw(); return; }
    if (!draft.groups.length) { say("There is no group to undo.", "undo"); redraw(); return; }
    draft.groups.pop();
    saveDraft();
    afterGroupChange("Group taken back.");
  }

  function submitCut() {
    const why = page.refusal();
    if (why) { page.showMessage(...why); return; }
    if (draft.forming.length) {
      say(`A group has exactly 4 pieces: the one you are making has ${draft.forming.length}.`, "group_size");
      redraw();
      return;
    }
    const left = leftKeys();
    if (left.length) {
      const stuck = stuckNow();
      say(stuck.length ? stuckWords(stuck[0])
        : `${plural(left.length, "piece is", "pieces are")} not in any group yet: every piece of cake must be cut.`, stuck.length ? "stuck" : "uncut");
      redraw();
      return;
    }
    const move = { type: "cut", groups: draft.groups.map((g) => g.map(parseKey)) };
    if (page.send(move)) say("Cut sent: waiting for the chooser.", "sent");
    redraw();
  }

  // ---------------------------------------------------------------- choosing
  function groupCells(i) { return ((view().cut || [])[i] || []).map(([x, y]) => [x, y]); }
  function firstCell(i) {
    const cells = groupCells(i).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return cells[0];
  }
  function eat(i) {
    const cell = firstCell(i);
    if (!cell) return;
    chosen = null;
    page.send({ type: "choose", cell });
  }
  function tapForChoose(key) {
    const why = page.refusal();
    if (why) { page.showMessage(...why); return; }
    const cell = geometry.cells.get(key);
    if (cell && cell.eaten) { page.setHint("That piece has been eaten: choose one of the groups."); return; }
    const i = cutGroupOf().get(key);
    if (i === undefined) return;
    if (chosen === i) { eat(i); return; }
    chosen = i;
    const b = (view().cut_berries || [])[i] || {};
    page.setHint(`Group ${i + 1}: ${groupWords(b)}. Tap it again (or press Enter) to eat it.`);
    redraw();
    renderChoose();
  }
  function groupWords(b) {
    const parts = [`${b.strawberries || 0} ${b.strawberries === 1 ? "strawberry" : "strawberries"}`,
      `${b.blueberries || 0} ${b.blueberries === 1 ? "blueberry" : "blueberries"}`];
    if (b.random) parts.push(`${plural(b.random, "Random tile", "Random tiles")} still to show`);
    return parts.join(", ");
  }

  // ---------------------------------------------------------------- input on the cake
  const cellAt = (x, y) => {
    const node = document.elementFromPoint(x, y);
    const g = node && node.closest ? node.closest("[data-cell]") : null;
    return g && svgRoot.contains(g) ? g.getAttribute("data-cell") : null;
  };
  function touchesForming(key) {
    const [x, y] = parseKey(key);
    return draft.forming.some((k) => { const [a, b] = parseKey(k); return Math.abs(a - x) + Math.abs(b - y) === 1; });
  }

  svgRoot.addEventListener("pointerdown", (e) => {
    if (e.button !== undefined && e.button > 0) return;
    const key = cellAt(e.clientX, e.clientY);
    if (!key) return;
    setRoving(key);
    if (myRole() === "cut" && canAct()) {
      e.preventDefault();
      const wasForming = draft.forming.includes(key);
      drag = { pointerId: e.pointerId, moved: false, startKey: key, wasForming };
      try { svgRoot.setPointerCapture(e.pointerId); } catch { /* not every pointer can be captured */ }
      if (!wasForming) tapForCut(key);
      return;
    }
    drag = { pointerId: e.pointerId, moved: false, startKey: key, choose: true };
  });
  svgRoot.addEventListener("pointermove", (e) => {
    if (!drag || drag.pointerId !== e.pointerId || drag.choose) return;
    const key = cellAt(e.clientX, e.clientY);
    if (!key || key === drag.startKey && !drag.moved) return;
    if (draft.forming.includes(key)) { drag.moved = drag.moved || key !== drag.startKey; return; }
    drag.moved = true;
    const cell = geometry.cells.get(key);
    // A drag only takes pieces next to the group being formed (a quick diagonal move that
    // skips a piece is ignored rather than refused).
    if (!cell || cell.eaten || draftGroupOf().has(key) || !draft.forming.length || !touchesForming(key)) return;
    addForming(key);
  });
  const endDrag = (e) => {
    if (!drag || drag.pointerId !== e.pointerId) return;
    const d = drag;
    drag = null;
    if (d.choose) {
      const key = cellAt(e.clientX, e.clientY);
      if (!key || key !== d.startKey) return;
      if (myRole() === "choose") tapForChoose(key);
      else { const why = page.refusal(); if (why) page.showMessage(...why); }
      return;
    }
    if (d.wasForming && !d.moved) tapForCut(d.startKey); // a tap on a piece of the group: take it out
  };
  svgRoot.addEventListener("pointerup", endDrag);
  svgRoot.addEventListener("pointercancel", (e) => { if (drag && drag.pointerId === e.pointerId) drag = null; });

  svgRoot.addEventListener("focusin", (e) => {
    const key = e.target.getAttribute && e.target.getAttribute("data-cell");
    if (key) setRoving(key);
  });
  svgRoot.addEventListener("keydown", (e) => {
    const key = e.target.getAttribute && e.target.getAttribute("data-cell");
    if (!key) return;
    if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      if (myRole() === "cut") tapForCut(key);
      else if (myRole() === "choose") tapForChoose(key);
      else { const why = page.refusal(); if (why) page.showMessage(...why); }
      return;
    }
    if (e.key === "Escape" && draft.forming.length) { draft.forming = []; say("The group you were making is dropped.", "undo"); redraw(); return; }
    if ((e.key === "Backspace" || e.key === "Delete") && myRole() === "cut") { e.preventDefault(); undoGroup(); return; }
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[e.key];
    if (!dir) return;
    e.preventDefault();
    const next = stepFrom(key, dir);
    if (next) focusCell(next);
  });

  /** The nearest cell from `key` in direction `dir` (the map may have gaps). */
  function stepFrom(key, [dx, dy]) {
    const [x, y] = parseKey(key);
    let best = null;
    let bestScore = Infinity;
    for (const k of geometry.keys) {
      const [a, b] = parseKey(k);
      const along = (a - x) * dx + (b - y) * dy;
      if (along <= 0) continue;
      const across = Math.abs((a - x) * dy) + Math.abs((b - y) * dx);
      const score = along + 3 * across;
      if (score < bestScore) { bestScore = score; best = k; }
    }
    return best;
  }
  function setRoving(key) {
    if (focusKey === key) return;
    const old = focusKey && svgRoot.querySelector(`[data-cell="${focusKey}"]`);
    if (old) old.setAttribute("tabindex", "-1");
    const node = svgRoot.querySelector(`[data-cell="${key}"]`);
    if (node) node.setAttribute("tabindex", "0");
    focusKey = key;
  }
  function focusCell(key) {
    setRoving(key);
    const node = svgRoot.querySelector(`[data-cell="${key}"]`);
    if (node) node.focus({ preventScroll: false });
  }

  // ---------------------------------------------------------------- drawing the cake
  function redraw() {
    draw();
    renderTools();
  }

  function draw() {
    const v = view();
    const cells = v.cells || [];
    geometry = { keys: cells.map((c) => cellKey(c.x, c.y)), cells: new Map(cells.map((c) => [cellKey(c.x, c.y), c])) };
    const hadFocus = svgRoot.contains(document.activeElement);
    const role = myRole();
    const interactive = (role === "cut" || role === "choose") && canAct();
    svgRoot.dataset.phase = v.phase || "";
    svgRoot.dataset.interactive = interactive ? "true" : "false";
    svgRoot.dataset.role = role || "";
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (const c of cells) {
      minX = Math.min(minX, c.x); minY = Math.min(minY, c.y); maxX = Math.max(maxX, c.x); maxY = Math.max(maxY, c.y);
    }
    if (!cells.length) { minX = 0; minY = 0; maxX = 5; maxY = 5; }
    const pad = 6;
    svgRoot.setAttribute("viewBox", [minX * CELL - pad, minY * CELL - pad, (maxX - minX + 1) * CELL + 2 * pad, (maxY - minY + 1) * CELL + 2 * pad].join(" "));

    // which group each cell is in, and what is shown of groups
    const cutting = role === "cut";
    const groupOf = cutting ? draftGroupOf() : (v.phase === "choose" || v.phase === "mystery") ? cutGroupOf() : new Map();
    const groups = cutting ? draft.groups.map((g) => g.slice()) : (v.cut || []).map((g) => g.map(([x, y]) => cellKey(x, y)));
    const forming = new Set(cutting ? draft.forming : []);
    const refused = new Set(cutting ? draft.refused : []);
    const stuck = new Set();
    if (cutting) for (const s of stuckNow()) s.cells.forEach((k) => stuck.add(k));
    const pendingGroup = new Set(((v.pending || {}).group || []).map(([x, y]) => cellKey(x, y)));
    const pendingNext = v.pending && v.pending.random && v.pending.random.length ? cellKey(...v.pending.random[0]) : null;
    const eatenIndex = new Map();
    (v.history || []).forEach((entry, k) => entry.cells.forEach(([x, y]) => eatenIndex.set(cellKey(x, y), k)));

    svgRoot.replaceChildren();
    const defs = el("defs", {}, svgRoot);
    const crumbs = el("pattern", { id: "bm-crumbs", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 10, height: 10, fill: "#e9ecef" }, crumbs);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#ced4da", "stroke-width": 4 }, crumbs);
    const redHatch = el("pattern", { id: "bm-stuck", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" }, defs);
    el("rect", { width: 8, height: 8, fill: "#ffe3e3" }, redHatch);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#fa5252", "stroke-width": 3 }, redHatch);

    const gCells = el("g", { class: "cells" }, svgRoot);
    const gLines = el("g", { class: "group-lines", "aria-hidden": "true" }, svgRoot);
    const gMarks = el("g", { class: "group-marks" }, svgRoot);

    for (const c of cells) {
      const key = cellKey(c.x, c.y);
      const x0 = c.x * CELL;
      const y0 = c.y * CELL;
      const gi = groupOf.get(key);
      const classes = ["bm-cell"];
      if (c.eaten) classes.push("eaten");
      if (gi !== undefined) classes.push("grouped");
      if (forming.has(key)) classes.push("forming");
      if (refused.has(key)) classes.push("refused");
      if (stuck.has(key)) classes.push("stuck");
      if (!cutting && gi !== undefined && (gi === chosen || gi === hovered)) classes.push("selected");
      if (pendingGroup.has(key)) classes.push("pending");
      if (key === pendingNext) classes.push("pending-next");
      if (newsCells.has(key)) classes.push("just-revealed");
      const ei = eatenIndex.get(key);
      if (ei !== undefined && lessonMarks.packed.has(ei)) classes.push("lesson-packed");
      if (ei !== undefined && lessonMarks.cracked.has(ei)) classes.push("lesson-cracked");
      const tile = c.tile || {};
      const tileCode = tile.kind === "random" ? "random" : `${TEAMS[tile.team].key}-${tile.count}`;
      const g = el("g", {
        class: classes.join(" "), "data-cell": key, "data-tile": tileCode, "data-eaten": c.eaten ? "true" : "false",
        "data-mystery": c.mystery ? `${TEAMS[c.mystery.team].key}-${c.mystery.count}` : null,
        "data-group": gi ?? null, "data-forming": forming.has(key) ? "true" : null, "data-stuck": stuck.has(key) ? "true" : null,
        tabindex: "-1", role: "button", "aria-label": cellLabel(c, gi, cutting, forming.has(key), stuck.has(key)),
      }, gCells);
      let fill = "#fff8ec";
      if (c.eaten) fill = "url(#bm-crumbs)";
      else if (stuck.has(key)) fill = "url(#bm-stuck)";
      else if (gi !== undefined) fill = GROUP_TINTS[gi % GROUP_TINTS.length];
      else if (forming.has(key)) fill = "#fff9db";
      el("rect", { class: "cell-bg", x: x0 + 1, y: y0 + 1, width: CELL - 2, height: CELL - 2, rx: 6, fill }, g);
      const art = el("g", { class: "tile-art" }, g);
      if (tile.kind === "random") {
        el("rect", { class: "random-face", x: x0 + 5, y: y0 + 5, width: CELL - 10, height: CELL - 10, rx: 8 }, art);
        if (c.mystery) {
          drawTile(art, c.mystery.team, c.mystery.count, x0, y0);
          const q = el("text", { class: "random-mark", x: x0 + 13, y: y0 + 15, "text-anchor": "middle", "dominant-baseline": "central" }, art);
          q.textContent = "?";
        } else {
          const q = el("text", { class: "random-q", x: x0 + CELL / 2, y: y0 + CELL / 2 + 1, "text-anchor": "middle", "dominant-baseline": "central" }, art);
          q.textContent = "?";
        }
      } else {
        drawTile(art, tile.team, tile.count, x0, y0);
      }
      if (forming.has(key)) {
        el("rect", { class: "forming-ring", x: x0 + 3, y: y0 + 3, width: CELL - 6, height: CELL - 6, rx: 6 }, g);
        const order = el("text", { class: "forming-order", x: x0 + 10, y: y0 + CELL - 10, "text-anchor": "middle", "dominant-baseline": "central" }, g);
        order.textContent = String(draft.forming.indexOf(key) + 1);
      }
      if (refused.has(key)) el("rect", { class: "refused-ring", x: x0 + 3, y: y0 + 3, width: CELL - 6, height: CELL - 6, rx: 6 }, g);
      el("rect", { class: "focus-ring", x: x0 + 2, y: y0 + 2, width: CELL - 4, height: CELL - 4, rx: 7 }, g);
      el("title", {}, g).textContent = cellLabel(c, gi, cutting, forming.has(key), stuck.has(key));
    }

    // Outlines: the current groups (thick), the eaten groups (thin), the cake's edge.
    const outline = (keys, cls) => {
      const set = new Set(keys);
      for (const k of keys) {
        const [x, y] = parseKey(k);
        const x0 = x * CELL; const y0 = y * CELL;
        const sides = [[0, -1, x0, y0, x0 + CELL, y0], [0, 1, x0, y0 + CELL, x0 + CELL, y0 + CELL],
          [-1, 0, x0, y0, x0, y0 + CELL], [1, 0, x0 + CELL, y0, x0 + CELL, y0 + CELL]];
        for (const [dx, dy, x1, y1, x2, y2] of sides) {
          if (!set.has(cellKey(x + dx, y + dy))) el("line", { class: cls, x1, y1, x2, y2 }, gLines);
        }
      }
    };
    outline(geometry.keys, "cake-edge");
    (v.history || []).forEach((entry, k) => {
      const keys = entry.cells.map(([x, y]) => cellKey(x, y));
      outline(keys, "eaten-line");
      if (lessonMarks.packed.has(k)) outline(keys, "lesson-line lesson-packed-line");
      if (lessonMarks.cracked.has(k)) outline(keys, "lesson-line lesson-cracked-line");
    });
    groups.forEach((g) => outline(g, "group-line"));
    if (stuck.size) for (const s of stuckNow()) outline(s.cells, "stuck-line");
    if (pendingGroup.size) outline([...pendingGroup], "pending-line");

    // Group numbers (cutting), berries per group (choosing), candles on eaten groups.
    const centre = (keys) => {
      const pts = keys.map(parseKey);
      let cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
      let cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      // keep the mark on a cell of the group (an L's centre may be outside it)
      const inside = pts.some(([x, y]) => Math.abs(x - cx) < 0.5 && Math.abs(y - cy) < 0.5);
      if (!inside) {
        const near = pts.reduce((best, p) => (Math.hypot(p[0] - cx, p[1] - cy) < Math.hypot(best[0] - cx, best[1] - cy) ? p : best));
        cx = (cx + near[0]) / 2; cy = (cy + near[1]) / 2;
      }
      return [(cx + 0.5) * CELL, (cy + 0.5) * CELL];
    };
    if (cutting) {
      // the group's number in the top left corner of its first piece
      groups.forEach((g, i) => {
        const [x, y] = parseKey(readingOrder(g)[0]);
        const m = el("g", { class: "group-label", "data-group-label": i }, gMarks);
        el("circle", { cx: x * CELL + 11, cy: y * CELL + 11, r: 9.5 }, m);
        el("text", { x: x * CELL + 11, y: y * CELL + 11.5, "text-anchor": "middle", "dominant-baseline": "central" }, m).textContent = String(i + 1);
      });
    } else if (v.phase === "choose" || v.phase === "mystery") {
      // a narrow badge per group: its number, then its strawberries and blueberries (and
      // the Random tiles still face down), one line each
      const berries = v.cut_berries || [];
      groups.forEach((g, i) => {
        const b = berries[i] || {};
        let [cx, cy] = centre(g);
        const lines = b.random ? 3 : 2;
        const bw = 40;
        const bh = 10 + 15 * lines;
        cx = Math.min(Math.max(cx, (minX * CELL) + bw / 2 + 2), (maxX + 1) * CELL - bw / 2 - 2);
        cy = Math.min(Math.max(cy, (minY * CELL) + bh / 2 + 8), (maxY + 1) * CELL - bh / 2 - 2);
        const top = cy - bh / 2;
        const m = el("g", { class: `group-badge${chosen === i || hovered === i ? " selected" : ""}`, "data-group-badge": i, "aria-hidden": "true" }, gMarks);
        el("rect", { class: "badge-bg", x: r2(cx - bw / 2), y: r2(top), width: bw, height: bh, rx: 8 }, m);
        el("circle", { class: "badge-num-bg", cx: r2(cx - bw / 2), cy: r2(top), r: 8 }, m);
        el("text", { class: "badge-num", x: r2(cx - bw / 2), y: r2(top + 0.5), "dominant-baseline": "central", "text-anchor": "middle" }, m).textContent = String(i + 1);
        const row = (k) => top + 12.5 + 15 * k;
        drawBerry(m, 0, cx - 9, row(0), 6);
        el("text", { class: "badge-count", x: r2(cx + 1), y: r2(row(0)), "dominant-baseline": "central" }, m).textContent = String(b.strawberries ?? 0);
        drawBerry(m, 1, cx - 9, row(1), 6);
        el("text", { class: "badge-count", x: r2(cx + 1), y: r2(row(1)), "dominant-baseline": "central" }, m).textContent = String(b.blueberries ?? 0);
        if (b.random) {
          el("text", { class: "badge-count badge-random", x: r2(cx - 9), y: r2(row(2)), "dominant-baseline": "central", "text-anchor": "middle" }, m).textContent = "?";
          el("text", { class: "badge-count badge-random", x: r2(cx + 1), y: r2(row(2)), "dominant-baseline": "central" }, m).textContent = String(b.random);
        }
      });
    }
    (v.history || []).forEach((entry, k) => {
      const [cx, cy] = centre(entry.cells.map(([x, y]) => cellKey(x, y)));
      const won = entry.candle;
      const tie = entry.berries[0] === entry.berries[1];
      const m = el("g", { class: `eaten-mark${won === null || won === undefined ? " no-candle" : ` candle-${TEAMS[won].key}`}`, "data-eaten-group": k, role: "img" }, gMarks);
      const words = `Group ${k + 1}, eaten in round ${entry.round}: Strawberry ${entry.berries[0]}, Blueberry ${entry.berries[1]} - `
        + (won === null || won === undefined ? (tie ? "a tie, no candle" : "no candle") : `a candle for ${TEAMS[won].name}`);
      m.setAttribute("aria-label", words);
      el("title", {}, m).textContent = words;
      el("circle", { class: "mark-bg", cx: r2(cx), cy: r2(cy), r: 15 }, m);
      // the order it was eaten in: the lesson after the game calls it "group k + 1"
      el("circle", { class: "mark-num-bg", cx: r2(cx - 13), cy: r2(cy - 12), r: 8 }, m);
      el("text", { class: "mark-num", x: r2(cx - 13), y: r2(cy - 11.5), "text-anchor": "middle", "dominant-baseline": "central" }, m).textContent = String(k + 1);
      if (won === null || won === undefined) {
        el("text", { class: "mark-tie", x: r2(cx), y: r2(cy), "text-anchor": "middle", "dominant-baseline": "central" }, m).textContent = tie ? "=" : "-";
      } else {
        drawBerry(m, won, cx, cy + 1, 9);
        el("path", { class: "mark-flame", d: `M${r2(cx + 9)},${r2(cy - 15)} c3,4 3,7 0,8 c-3,-1 -3,-4 0,-8 z` }, m);
      }
    });

    // keyboard focus: keep the focused cell, else one near the top left that is still there
    if (!focusKey || !geometry.cells.has(focusKey)) focusKey = geometry.keys.find((k) => !geometry.cells.get(k).eaten) || geometry.keys[0] || null;
    const keep = focusKey;
    focusKey = null;
    if (keep) {
      setRoving(keep);
      if (hadFocus) svgRoot.querySelector(`[data-cell="${keep}"]`).focus({ preventScroll: true });
    }
  }

  function cellLabel(c, gi, cutting, isForming, isStuck) {
    const tile = c.tile || {};
    let text = `Piece (${c.x},${c.y}): `;
    if (tile.kind === "random") {
      text += c.mystery ? `Random tile showing ${tileText(c.mystery.team, c.mystery.count)}` : "Random tile (?)";
    } else {
      text += tileText(tile.team, tile.count);
    }
    if (c.eaten) text += ", eaten";
    if (gi !== undefined) text += `, in group ${gi + 1}`;
    if (isForming) text += ", in the group you are making";
    if (isStuck) text += ", cannot be grouped any more";
    return text;
  }

  // ---------------------------------------------------------------- side cards
  function renderTools() {
    const cutting = myRole() === "cut";
    cutTools.hidden = !cutting;
    if (!cutting) return;
    const free = uneatenKeys().size;
    const total = free / 4;
    const left = leftKeys().length;
    cutStatus.replaceChildren(h("strong", {}, `${plural(draft.groups.length, "group", "groups")} of ${total}`),
      draft.forming.length ? ` - making group ${draft.groups.length + 1}: ${draft.forming.length} of 4 pieces` : "",
      left && !draft.forming.length ? ` - ${plural(left, "piece", "pieces")} still to group` : "");
    cutMsg.textContent = cutMessage.text;
    cutMsg.dataset.code = cutMessage.code || "";
    const busy = !canAct();
    undoButton.disabled = busy || (!draft.groups.length && !draft.forming.length);
    clearButton.disabled = busy || (!draft.groups.length && !draft.forming.length);
    submitButton.disabled = busy || left > 0;
  }

  function renderCakeland() {
    const v = view();
    const seats = page.game.seats || [];
    roundNode.replaceChildren(h("strong", {}, v.is_over ? "All the cake is eaten" : `Round ${v.round} of ${v.rounds}`),
      isSolo() && !v.is_over && v.phase === "choose" ? ` - ${plural(v.choices_left ?? 0, "group", "groups")} left to choose` : "");
    const mine = teamOf(mySeat());
    candlesNode.replaceChildren(...[0, 1].filter((t) => !isSolo() || t === teamOf(0)).map((t) => {
      const n = (v.candles || [0, 0])[t];
      const flames = h("span", { class: "candle-row", "aria-hidden": "true" });
      for (let i = 0; i < Math.min(n, 12); i += 1) flames.append(icon("candle"));
      return h("li", { dataset: { team: String(t), candles: String(n) }, class: `bm-team-${t}` },
        teamIcon(t), h("span", { class: "team-name" }, TEAMS[t].name + (t === mine ? " (you)" : "")),
        h("span", { class: "candle-count", "aria-label": `${plural(n, "candle", "candles")}` }, String(n)), flames);
    }));
    const roles = [];
    if (!isSolo()) {
      roles.push(["cutter", "Cuts", v.cutter], ["chooser", "Chooses", v.chooser]);
      if (v.players === 3) roles.push(["keeper", "Mystery keeper", KEEPER]);
    } else {
      roles.push(["cutter", "Cuts and chooses", 0]);
    }
    rolesNode.replaceChildren(...roles.map(([role, words, seat]) => h("li", {
      dataset: { role, seat: String(seat) },
      class: (v.to_move || []).includes(seat) && !v.is_over && ((role === "cutter" && v.phase === "cut") || (role === "chooser" && v.phase === "choose") || role === "keeper" && v.phase === "mystery") ? "active" : "",
    }, h("span", { class: "role-words" }, `${words}:`), " ", chipFor(seat, seats[seat] ? page.seatName(seat) : `Player ${seat + 1}`))));
    // Mystery tiles
    const revealed = v.mystery_revealed || [];
    if (lastRevealed !== null && revealed.length > lastRevealed) {
      const fresh = revealed.slice(lastRevealed);
      news = fresh.map((r) => `The Random tile at (${r.cell[0]},${r.cell[1]}) shows ${mysteryWords(r.team, r.count)} Mystery tile!`).join(" ");
      newsCells = new Set(fresh.map((r) => cellKey(r.cell[0], r.cell[1])));
    }
    lastRevealed = revealed.length;
    mysteryNews.textContent = news;
    const down = v.mystery_face_down;
    if (typeof down === "number") mysteryLeft.textContent = `${plural(down, "Mystery tile is", "Mystery tiles are")} still face down (nobody knows their order).`;
    else if (v.players === 3) mysteryLeft.textContent = `The Mystery keeper holds ${plural((down || []).length, "tile", "tiles")}: ${(down || []).map((t) => tileText(t.team, t.count)).join(", ") || "none"}.`;
    else mysteryLeft.textContent = `Strategy variant: every Random tile shows its Mystery tile (${plural((down || []).length, "is", "are")} still on the cake).`;
    revealedList.replaceChildren(...revealed.map((r) => h("li", { dataset: { cell: cellKey(r.cell[0], r.cell[1]), team: String(r.team), count: String(r.count) } },
      teamIcon(r.team), ` ${tileText(r.team, r.count)} on (${r.cell[0]},${r.cell[1]})`)));
    revealedList.hidden = !revealed.length;
  }

  function renderChoose() {
    const v = view();
    const role = myRole();
    const show = (v.phase === "choose" || v.phase === "mystery") && (v.cut || []).length > 0 && !v.is_over;
    chooseCard.hidden = !show;
    if (!show) { chosen = null; hovered = null; return; }
    const berries = v.cut_berries || [];
    const mineToChoose = role === "choose";
    const helpText = mineToChoose
      ? (isSolo() ? `Choose a group to eat (${plural(v.choices_left ?? 0, "choice", "choices")} left this round). You get a candle when your team has more berries.`
        : "Choose a group to eat. The team with more berries in it gets a candle; a tie gets none.")
      : `${page.seatName(v.chooser)} is choosing a group.`;
    chooseCard.querySelector("#choose-help").textContent = v.phase === "mystery" ? "The chosen group waits for its Mystery tiles." : helpText;
    const myTeam = teamOf(mySeat());
    chooseList.replaceChildren(...(v.cut || []).map((g, i) => {
      const b = berries[i] || {};
      const lead = (b.strawberries || 0) - (b.blueberries || 0);
      const verdict = b.random ? "Random tiles may change it" : lead > 0 ? "Strawberry would get a candle" : lead < 0 ? "Blueberry would get a candle" : "a tie: no candle";
      const content = [h("span", { class: "choose-num" }, `Group ${i + 1}`),
        h("span", { class: "choose-berries" }, teamIcon(0), ` ${b.strawberries ?? 0} `, teamIcon(1), ` ${b.blueberries ?? 0}`, b.random ? h("span", { class: "choose-random" }, " ", icon("mystery"), ` ${b.random}`) : ""),
        h("span", { class: "choose-verdict" }, verdict + (myTeam !== null && ((lead > 0 && myTeam === 0) || (lead < 0 && myTeam === 1)) && !b.random ? " (yours)" : ""))];
      const item = mineToChoose
        ? h("button", {
          type: "button", class: `button choose-button${chosen === i ? " selected" : ""}`, dataset: { choose: String(i) },
          "aria-label": `Eat group ${i + 1}: ${groupWords(b)}`, disabled: !canAct(),
          onclick: () => eat(i),
          onmouseenter: () => { hovered = i; draw(); },
          onmouseleave: () => { hovered = null; draw(); },
          onfocus: () => { hovered = i; draw(); },
          onblur: () => { hovered = null; draw(); },
        }, ...content)
        : h("div", { class: "choose-row", dataset: { group: String(i) } }, ...content);
      return h("li", {}, item);
    }));
  }

  /** The berries of the group waiting for Mystery tiles: [strawberries, blueberries, open]. */
  function pendingBerries() {
    const v = view();
    const byKey = new Map((v.cells || []).map((c) => [cellKey(c.x, c.y), c]));
    const out = [0, 0, 0];
    for (const [x, y] of (v.pending || {}).group || []) {
      const c = byKey.get(cellKey(x, y));
      if (!c) continue;
      if (c.tile && c.tile.kind === "berries") out[c.tile.team] += c.tile.count;
      if (c.mystery) out[c.mystery.team] += c.mystery.count;
      else if (c.tile && c.tile.kind === "random") out[2] += 1;
    }
    return out;
  }

  function renderMystery() {
    const v = view();
    const show = v.phase === "mystery" && !v.is_over;
    mysteryCard.hidden = !show;
    if (!show) return;
    const mine = myRole() === "mystery";
    const next = v.pending && v.pending.random && v.pending.random[0];
    const [st, bl, open] = pendingBerries();
    const sofar = `The chosen group has ${tileText(0, st)} and ${tileText(1, bl)} so far, with ${plural(open, "Random tile", "Random tiles")} to fill.`;
    mysteryCard.querySelector("#mystery-help").textContent = (mine
      ? `A Random tile at (${next}) is being eaten. Pick the Mystery tile that goes on it. `
      : `${page.seatName(KEEPER)}, the Mystery keeper, is picking a Mystery tile for the Random tile at (${next}). `) + sofar;
    const outcome = (t) => {
      if (open !== 1) return "";
      const after = [st, bl];
      after[t.team] += t.count;
      if (after[0] === after[1]) return ` - ${after[0]} to ${after[1]}: a tie, no candle`;
      const top = after[0] > after[1] ? 0 : 1;
      return ` - ${Math.max(...after)} to ${Math.min(...after)}: a candle for ${TEAMS[top].name}`;
    };
    mysteryPick.replaceChildren(...(Array.isArray(v.mystery_face_down) ? v.mystery_face_down : []).map((t) => {
      const content = [teamIcon(t.team), ` ${tileText(t.team, t.count)}`, h("span", { class: "mystery-outcome" }, outcome(t))];
      return mine
        ? h("button", { type: "button", class: "button mystery-button", dataset: { mystery: String(t.tile) }, disabled: !canAct(), onclick: () => page.send({ type: "mystery", tile: t.tile }) }, ...content)
        : h("span", { class: "mystery-tile", dataset: { tile: String(t.tile) } }, ...content);
    }));
  }

  function chipFor(seat, label) {
    const team = teamOf(seat);
    if (team === null) return h("span", { class: "bm-chip bm-keeper" }, icon("mystery"), label);
    return h("span", { class: `bm-chip bm-team-${team}` }, teamIcon(team), label);
  }

  return {
    render(game, status) {
      const v = view();
      if (v.phase === "cut" && myRole() === "cut") syncDraft();
      else if (v.phase !== "cut" && draft.key) { // the cut went through: forget the draft
        try { sessionStorage.removeItem(storageKey()); } catch { /* storage is optional */ }
        draft = { key: null, groups: [], forming: [], refused: [] };
      }
      if (v.phase !== "choose") chosen = null;
      if (lastRevealed !== null && (v.mystery_revealed || []).length < lastRevealed) { lastRevealed = null; news = ""; }
      renderCakeland();
      draw();
      renderTools();
      renderChoose();
      renderMystery();
      newsCells = new Set();
    },

    turnDetail(game, status) {
      const v = game.view || {};
      const role = myRole();
      const who = (seat) => (seat === status.mySeat ? "You" : page.seatName(seat));
      let text;
      if (isSolo()) {
        text = v.phase === "cut" ? "Cut all the cake into groups of 4." : `Choose a group to eat (${plural(v.choices_left ?? 0, "choice", "choices")} left).`;
      } else if (v.phase === "cut") {
        text = role === "cut" ? "Cut all the cake into groups of 4 pieces." : `${who(v.cutter)} ${v.cutter === status.mySeat ? "cut" : "cuts"} the cake; ${who(v.chooser)} ${v.chooser === status.mySeat ? "choose" : "chooses"} next.`;
      } else if (v.phase === "choose") {
        text = role === "choose" ? "Choose a group to eat." : `${who(v.chooser)} ${v.chooser === status.mySeat ? "choose" : "chooses"} a group to eat.`;
      } else if (v.phase === "mystery") {
        text = role === "mystery" ? "Pick a Mystery tile for the Random tile." : "The Mystery keeper picks a Mystery tile.";
      }
      const candles = isSolo() ? `${plural((v.candles || [0, 0])[teamOf(0)] ?? 0, "candle", "candles")}`
        : `Candles: Strawberry ${(v.candles || [0, 0])[0]}, Blueberry ${(v.candles || [0, 0])[1]}`;
      return h("div", { id: "berry-turn", class: "berry-turn", dataset: { phase: v.phase || "", round: String(v.round) } },
        h("p", { class: "berry-round" }, h("strong", {}, `Round ${v.round} of ${v.rounds}`), ` - ${candles}`),
        text ? h("p", { class: "berry-task" }, text) : null);
    },

    seatChip(seat, label, game) {
      const team = ((game.view || {}).team_of_seat || [])[seat];
      if (team === null || team === undefined) return h("span", { class: "bm-chip bm-keeper" }, icon("mystery"), label);
      return h("span", { class: `bm-chip bm-team-${team}` }, teamIcon(team), label);
    },

    decidedBy(result) { return DECIDED_BY[result.decided_by] || ""; },

    onError(code, message) {
      if (myRole() === "cut") { say(message || "The cut was not accepted.", code); renderTools(); }
    },

    showLesson(lesson) {
      const marks = { packed: new Set(), cracked: new Set() };
      for (const d of lesson.districts || []) {
        if (d.packed !== null && d.packed !== undefined) marks.packed.add(d.index);
        if ((d.cracked || []).length) marks.cracked.add(d.index);
      }
      lessonMarks = marks;
      legend.querySelectorAll(".legend-lesson").forEach((li) => { li.hidden = false; });
      page.render();
    },

    resultDetail(game) {
      const v = game.view || {};
      const r = v.result || {};
      const candles = v.candles || [0, 0];
      if (v.mode === "solo") {
        const groups = (v.cells || []).length / 4;
        const scaled = Math.floor(((r.score ?? 0) * 9) / (groups || 9));
        const row = [...SOLO_SHEET].reverse().find(([least]) => scaled >= least) || SOLO_SHEET[0];
        return h("div", { id: "solo-rating", class: "solo-rating", dataset: { rating: String(row[0]), candles: String(r.score ?? 0) } },
          h("p", { class: "solo-candles" }, icon("candle"), ` ${plural(r.score ?? 0, "candle", "candles")}`, groups !== 9 ? ` (counted as ${scaled} of 9 on the score sheet)` : ""),
          h("p", { class: "solo-words" }, r.rating || row[2]),
          h("table", { class: "solo-sheet" }, h("caption", {}, "The score sheet"),
            h("tbody", {}, SOLO_SHEET.map(([least, range, words]) => h("tr", { class: least === row[0] ? "current" : "" }, h("th", { scope: "row" }, range), h("td", {}, words))))));
      }
      return h("div", { id: "final-candles", class: "final-candles" },
        ...[0, 1].map((t) => h("p", { dataset: { team: String(t), candles: String(candles[t]) } }, teamIcon(t), ` ${TEAMS[t].name}: ${plural(candles[t], "candle", "candles")}`)),
        v.players === 3 ? h("p", {}, icon("mystery"), " The Mystery keeper wins when the candles are equal.") : null);
    },
  };
}

function addStyles() {
  if (document.querySelector("link[data-board-css='berrymandering']")) return;
  const href = new URL(STYLE_REF.slice(8, -2), import.meta.url).href;
  document.head.append(h("link", { rel: "stylesheet", href, dataset: { boardCss: "berrymandering" } }));
}

