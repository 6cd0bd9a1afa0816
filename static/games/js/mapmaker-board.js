// The Mapmaker board module: the SVG board, drawn only from the engine view, and the
// Mapmaker parts of the game page (createBoard, at the end).
//
// Geometry: pointy-top hexes in axial coordinates (q, r), centre (0, 0).  The six neighbour
// directions are (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1).  An edge between two counties in
// play is a potential border; an edge towards a position not in play is the board edge.
//
// DOM hooks (stable, used by tests):
//   svg.mm-board                        the board (inside #board)
//   [data-edge="q1,r1|q2,r2"]           focusable hit target of a free edge; the pair is sorted
//                                       by (q, r) numerically, see edgeKey()
//   [data-legal="true"|"false"]         on those targets, from view.legal_moves
//   [data-border="q1,r1|q2,r2"]         a placed border line
//   [data-county="q,r"]                 a county group; [data-district="i"] when in a district
//   [data-district-marker="i"]          the marker of completed district i

import { SVG_NS, h, howToPlay, plural } from "./ui.js";

export const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

export const PARTIES = [
  { name: "Red Elephants", short: "Red", letter: "R", animal: "Elephants", color: "#d43d3d", tint: "#f5c9c9", ink: "#ffffff" },
  { name: "Blue Donkeys", short: "Blue", letter: "B", animal: "Donkeys", color: "#2f6fd6", tint: "#c9d9f5", ink: "#ffffff" },
  { name: "Yellow Porcupines", short: "Yellow", letter: "Y", animal: "Porcupines", color: "#e0b400", tint: "#f6e7a6", ink: "#2b2200" },
  { name: "Green Leaves", short: "Green", letter: "G", animal: "Leaves", color: "#2e9b4b", tint: "#c7e8cf", ink: "#ffffff" },
];
export const NEUTRAL = { name: "Neutral", short: "Neutral", letter: "N", color: "#8b8f98", tint: "#e4e5e8", ink: "#ffffff" };

export function partyInfo(party) {
  return party === null || party === undefined ? NEUTRAL : (PARTIES[party] || NEUTRAL);
}

const SIZE = 30; // hex circumradius in viewBox units
const SQ3 = Math.sqrt(3);
const HIT_HALF_WIDTH = SIZE * 0.3; // hit area is 0.8 x 0.6 of an edge

export function countyKey(q, r) { return `${q},${r}`; }

/** "q1,r1|q2,r2" with the pair sorted by q, then r (numerically). */
export function edgeKey(a, b) {
  const [x, y] = (a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1])) ? [a, b] : [b, a];
  return `${x[0]},${x[1]}|${y[0]},${y[1]}`;
}

export function parseEdgeKey(key) {
  return key.split("|").map((part) => part.split(",").map(Number));
}

export function hexCenter(q, r) {
  return { x: SIZE * SQ3 * (q + r / 2), y: SIZE * 1.5 * r };
}

function hexCorners(cx, cy, radius) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push([cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
  }
  return pts;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function fmt(n) { return Math.round(n * 100) / 100; }

/** The segment two neighbouring hexes share (pointy-top: edge length == circumradius). */
function sharedEdge(a, b, shrink = 1) {
  const ca = hexCenter(a[0], a[1]);
  const cb = hexCenter(b[0], b[1]);
  const mx = (ca.x + cb.x) / 2;
  const my = (ca.y + cb.y) / 2;
  const dx = cb.x - ca.x;
  const dy = cb.y - ca.y;
  const len = Math.hypot(dx, dy);
  const px = -dy / len;
  const py = dx / len;
  const half = (SIZE / 2) * shrink;
  return { x1: mx - px * half, y1: my - py * half, x2: mx + px * half, y2: my + py * half, mx, my };
}

/** Token outline per party (shape as well as colour, for colour-blind players). */
function drawToken(parent, cx, cy, party) {
  const info = partyInfo(party);
  const r = SIZE * 0.47;
  const common = { class: "token-shape", fill: info.color };
  if (party === 1) {
    const s = r * 1.62;
    return el("rect", { ...common, x: fmt(cx - s / 2), y: fmt(cy - s / 2), width: fmt(s), height: fmt(s), rx: fmt(s * 0.22) }, parent);
  }
  if (party === 2) {
    const s = r * 1.2;
    const pts = [[cx, cy - s], [cx + s, cy], [cx, cy + s], [cx - s, cy]];
    return el("polygon", { ...common, points: pts.map((p) => p.map(fmt).join(",")).join(" "), "stroke-linejoin": "round" }, parent);
  }
  if (party === 3) {
    const pts = [];
    for (let i = 0; i < 8; i += 1) {
      const a = (Math.PI / 4) * i + Math.PI / 8;
      pts.push([cx + r * 1.05 * Math.cos(a), cy + r * 1.05 * Math.sin(a)]);
    }
    return el("polygon", { ...common, points: pts.map((p) => p.map(fmt).join(",")).join(" ") }, parent);
  }
  return el("circle", { ...common, cx: fmt(cx), cy: fmt(cy), r: fmt(r) }, parent);
}

const ARROWS = {
  ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};

export class MapmakerBoard {
  /**
   * @param {HTMLElement} container  element the <svg> goes into (#board)
   * @param {object} options
   *   onEdge({key, between, legal})   the player activated an edge (click, tap, Enter, Space)
   *   onHint(text)                    short hints ("Tap again to place the border")
   */
  constructor(container, options = {}) {
    this.container = container;
    this.onEdge = options.onEdge || (() => {});
    this.onHint = options.onHint || (() => {});
    this.view = null;
    this.interactive = false;
    this.focusKey = null;
    this.armedKey = null;
    this.lastPointerType = "mouse";
    this.edgeNodes = new Map();
    this.edgeMid = new Map();
    this.lessonMarks = { packed: new Set(), cracked: new Set() };
    this.svg = el("svg", {
      class: "mm-board",
      role: "group",
      "aria-label": "Mapmaker board",
      "aria-roledescription": "game board",
      preserveAspectRatio: "xMidYMid meet",
    });
    this.container.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (e) => { this.lastPointerType = e.pointerType || "mouse"; });
    this.svg.addEventListener("click", (e) => this._onClick(e));
    this.svg.addEventListener("keydown", (e) => this._onKeyDown(e));
    this.svg.addEventListener("focusin", (e) => {
      const key = e.target.getAttribute && e.target.getAttribute("data-edge");
      if (key) this._setRoving(key);
    });
  }

  /**
   * Draw the board.
   * @param {object} view      engine view
   * @param {object} options   {interactive: bool, highlightDistrict: index|null, mode}
   */
  render(view, options = {}) {
    const hadFocus = this.svg.contains(document.activeElement);
    const prevFocusMid = this.focusKey ? this.edgeMid.get(this.focusKey) : null;
    this.view = view;
    this.interactive = !!options.interactive;
    this.armedKey = null;
    const highlight = options.highlightDistrict ?? null;
    const mode = view.mode || "multiplayer";

    const counties = new Map();
    for (const c of view.counties || []) counties.set(countyKey(c.q, c.r), c);
    const districts = view.districts || [];
    const districtOf = new Map();
    districts.forEach((d, i) => {
      for (const [q, r] of d.counties || []) districtOf.set(countyKey(q, r), i);
    });
    for (const c of counties.values()) {
      if (c.district !== null && c.district !== undefined && !districtOf.has(countyKey(c.q, c.r))) {
        districtOf.set(countyKey(c.q, c.r), c.district);
      }
    }
    const borders = new Set((view.borders || []).map(([a, b]) => edgeKey(a, b)));
    const legal = new Set();
    for (const m of view.legal_moves || []) {
      if (m.type === "border" && m.between) legal.add(edgeKey(m.between[0], m.between[1]));
    }
    // The borders of the turn in play and of the turn before it stay marked (a bot places
    // four borders in two seconds; a glow would be gone before anyone saw it).
    const turnOf = new Map();
    const placed = view.borders || [];
    const turns = view.border_turns;
    const current = turns ? (view.turn && view.turn.number ? view.turn.number - 1 : 0) : null;
    placed.forEach(([a, b], i) => {
      const key = edgeKey(a, b);
      if (turns) {
        if (turns[i] === current) turnOf.set(key, "this-turn");
        else if (turns[i] === current - 1) turnOf.set(key, "last-turn");
      } else if (i === placed.length - 1) turnOf.set(key, "this-turn");
    });

    // Edges: interior (free or border) and board edge.
    const interior = [];
    const boardEdges = [];
    const seen = new Set();
    for (const c of counties.values()) {
      for (const [dq, dr] of DIRECTIONS) {
        const nq = c.q + dq;
        const nr = c.r + dr;
        const a = [c.q, c.r];
        const b = [nq, nr];
        const key = edgeKey(a, b);
        if (seen.has(key)) continue;
        seen.add(key);
        if (counties.has(countyKey(nq, nr))) interior.push({ key, a, b });
        else boardEdges.push({ key, a, b });
      }
    }

    // Bounding box.
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (const c of counties.values()) {
      const { x, y } = hexCenter(c.q, c.r);
      minX = Math.min(minX, x - SIZE * SQ3 / 2); maxX = Math.max(maxX, x + SIZE * SQ3 / 2);
      minY = Math.min(minY, y - SIZE); maxY = Math.max(maxY, y + SIZE);
    }
    if (!Number.isFinite(minX)) { minX = -100; minY = -100; maxX = 100; maxY = 100; }
    const pad = 8;
    this.svg.setAttribute("viewBox", [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad].map(fmt).join(" "));
    this.svg.dataset.interactive = this.interactive ? "true" : "false";
    this.svg.dataset.mode = mode;

    this.svg.replaceChildren();
    const defs = el("defs", {}, this.svg);
    const hatch = el("pattern", { id: "mm-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 8, height: 8, fill: "#eceef2" }, hatch);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#c3c7d1", "stroke-width": 3 }, hatch);

    const gCounties = el("g", { class: "counties", "aria-hidden": "false" }, this.svg);
    const gLines = el("g", { class: "lines", "aria-hidden": "true" }, this.svg);
    const gMarkers = el("g", { class: "markers" }, this.svg);
    const gEdges = el("g", { class: "edges", role: "group", "aria-label": "Edges where a border can go" }, this.svg);

    // Counties.
    for (const c of counties.values()) {
      const key = countyKey(c.q, c.r);
      const { x, y } = hexCenter(c.q, c.r);
      const di = districtOf.get(key);
      const d = di !== undefined ? districts[di] : null;
      const swing = c.swing !== undefined ? !!c.swing : (c.value === 0 || c.value === 1);
      const info = partyInfo(c.party);
      const classes = ["county"];
      if (swing) classes.push("swing");
      if (this.lessonMarks.packed.has(key)) classes.push("lesson-packed");
      if (this.lessonMarks.cracked.has(key)) classes.push("lesson-cracked");
      if (d) classes.push("in-district");
      if (di !== undefined && di === highlight) classes.push("highlight");
      const g = el("g", { class: classes.join(" "), "data-county": key, "data-district": di ?? null, role: "img" }, gCounties);
      let fill = "#fffdf7";
      if (d) {
        if (d.winner !== null && d.winner !== undefined) fill = partyInfo(d.winner).tint;
        else fill = "url(#mm-hatch)";
      } else if (swing) {
        fill = "#f3ebfb";
      }
      el("polygon", {
        class: "hex",
        points: hexCorners(x, y, SIZE).map((p) => p.map(fmt).join(",")).join(" "),
        fill,
      }, g);
      if (swing) {
        el("polygon", {
          class: "swing-ring",
          points: hexCorners(x, y, SIZE * 0.84).map((p) => p.map(fmt).join(",")).join(" "),
        }, g);
      }
      const token = drawToken(g, x, y, c.party);
      if (swing) token.classList.add("swing-token");
      const text = el("text", {
        class: "value", x: fmt(x), y: fmt(y), "text-anchor": "middle", "dominant-baseline": "central",
        fill: info.ink,
      }, g);
      text.textContent = String(c.value);
      let label = `County (${c.q},${c.r}): ${c.party === null || c.party === undefined ? "neutral token" : info.name}, ${c.value} ${c.value === 1 ? "vote" : "votes"}`;
      if (swing) label += ", swing county";
      if (d) {
        label += d.winner !== null && d.winner !== undefined
          ? `, in a district won by ${partyInfo(d.winner).name}` : ", in a tied district";
      }
      g.setAttribute("aria-label", label);
      el("title", {}, g).textContent = label;
    }

    // Board edge and placed borders.
    for (const e of boardEdges) {
      const s = sharedEdge(e.a, e.b);
      el("line", { class: "board-edge", x1: fmt(s.x1), y1: fmt(s.y1), x2: fmt(s.x2), y2: fmt(s.y2) }, gLines);
    }
    for (const e of interior) {
      if (!borders.has(e.key)) continue;
      const s = sharedEdge(e.a, e.b);
      el("line", {
        class: turnOf.has(e.key) ? `border ${turnOf.get(e.key)}` : "border",
        "data-border": e.key,
        "data-turn-mark": turnOf.get(e.key) || null,
        x1: fmt(s.x1), y1: fmt(s.y1), x2: fmt(s.x2), y2: fmt(s.y2),
      }, gLines);
    }

    // District markers: on the county nearest the district's centroid.
    districts.forEach((d, i) => {
      const cs = (d.counties || []).filter(([q, r]) => counties.has(countyKey(q, r)));
      if (!cs.length) return;
      const pts = cs.map(([q, r]) => hexCenter(q, r));
      const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
      const cy = pts.reduce((s, p) => s + p.y, 0) / pts.length;
      let best = pts[0];
      for (const p of pts) if (Math.hypot(p.x - cx, p.y - cy) < Math.hypot(best.x - cx, best.y - cy)) best = p;
      const mx = best.x + SIZE * 0.5;
      const my = best.y - SIZE * 0.5;
      const won = d.winner !== null && d.winner !== undefined;
      const pending = !won && i === highlight;
      const info = won ? partyInfo(d.winner) : null;
      const g = el("g", {
        class: `district-marker${won ? "" : " tied"}${pending ? " pending" : ""}`,
        "data-district-marker": i,
        "data-winner": won ? d.winner : "none",
        role: "img",
      }, gMarkers);
      el("circle", { cx: fmt(mx), cy: fmt(my), r: fmt(SIZE * 0.36), fill: won ? info.color : (pending ? "#5b3fb5" : "#5d6272") }, g);
      const t = el("text", {
        x: fmt(mx), y: fmt(my), "text-anchor": "middle", "dominant-baseline": "central",
        fill: won ? info.ink : "#ffffff",
      }, g);
      t.textContent = won ? info.letter : (pending ? "?" : "=");
      let label;
      if (won) label = `District ${i + 1}: won by ${info.name}`;
      else if (pending) label = `District ${i + 1}: tied, waiting for the winner to be chosen`;
      else label = `District ${i + 1}: tied`;
      if (d.votes && typeof d.votes === "object") {
        const parts = Object.entries(d.votes)
          .filter(([, v]) => v > 0)
          .map(([p, v]) => `${partyInfo(Number(p)).short} ${v}`);
        if (parts.length) label += ` (votes: ${parts.join(", ")})`;
      } else if (Array.isArray(d.votes)) {
        const parts = d.votes.map((v, p) => (v > 0 ? `${partyInfo(p).short} ${v}` : null)).filter(Boolean);
        if (parts.length) label += ` (votes: ${parts.join(", ")})`;
      }
      g.setAttribute("aria-label", label);
      el("title", {}, g).textContent = label;
    });

    // Free edges: an invisible wide hit line and a preview line each.
    this.edgeNodes = new Map();
    this.edgeMid = new Map();
    const free = interior.filter((e) => {
      if (borders.has(e.key)) return false;
      const da = districtOf.get(countyKey(e.a[0], e.a[1]));
      const db = districtOf.get(countyKey(e.b[0], e.b[1]));
      return !(da !== undefined && da === db); // never inside a completed district
    });
    for (const e of free) {
      const [a, b] = parseEdgeKey(e.key);
      const s = sharedEdge(a, b);
      const hs = sharedEdge(a, b, 0.8);
      // Hit area: a transparent rectangle along the edge (a polygon, not a stroked line, so
      // its bounding box is never empty: test tools see it as visible and clickable).
      const ux = (hs.x2 - hs.x1) / (SIZE * 0.8);
      const uy = (hs.y2 - hs.y1) / (SIZE * 0.8);
      const w = HIT_HALF_WIDTH;
      const rect = [
        [hs.x1 - uy * w, hs.y1 + ux * w], [hs.x2 - uy * w, hs.y2 + ux * w],
        [hs.x2 + uy * w, hs.y2 - ux * w], [hs.x1 + uy * w, hs.y1 - ux * w],
      ];
      const isLegal = legal.has(e.key);
      const g = el("g", { class: "edge" }, gEdges);
      const hit = el("polygon", {
        class: "edge-hit",
        "data-edge": e.key,
        "data-legal": isLegal ? "true" : "false",
        tabindex: "-1",
        role: "button",
        "aria-label": `Border between county (${a[0]},${a[1]}) and (${b[0]},${b[1]})`,
        // Not aria-disabled: an illegal edge can still be tried (the engine says why not).
        "aria-description": this.interactive ? (isLegal ? "allowed" : "not allowed") : null,
        points: rect.map((p) => p.map(fmt).join(",")).join(" "),
      }, g);
      el("line", {
        class: "edge-preview",
        "aria-hidden": "true",
        x1: fmt(s.x1), y1: fmt(s.y1), x2: fmt(s.x2), y2: fmt(s.y2),
      }, g);
      this.edgeNodes.set(e.key, hit);
      this.edgeMid.set(e.key, { x: s.mx, y: s.my });
    }

    // Roving tabindex: keep the focused edge, else the nearest one, else a legal one near the centre.
    let key = this.focusKey && this.edgeNodes.has(this.focusKey) ? this.focusKey : null;
    if (!key && this.edgeNodes.size) {
      const target = prevFocusMid || { x: 0, y: 0 };
      let bestD = Infinity;
      for (const [k, mid] of this.edgeMid) {
        const penalty = !prevFocusMid && !legal.has(k) ? 1e6 : 0;
        const dist = Math.hypot(mid.x - target.x, mid.y - target.y) + penalty;
        if (dist < bestD) { bestD = dist; key = k; }
      }
    }
    this.focusKey = null;
    if (key) {
      this._setRoving(key);
      if (hadFocus) this.edgeNodes.get(key).focus({ preventScroll: true });
    }
  }

  _setRoving(key) {
    if (this.focusKey === key) return;
    const old = this.focusKey && this.edgeNodes.get(this.focusKey);
    if (old) old.setAttribute("tabindex", "-1");
    const node = this.edgeNodes.get(key);
    if (node) node.setAttribute("tabindex", "0");
    this.focusKey = key;
  }

  focusEdge(key) {
    const node = this.edgeNodes.get(key);
    if (!node) return false;
    this._setRoving(key);
    node.focus({ preventScroll: false });
    return true;
  }

  /** Mark the counties of the districts the lesson after the game calls packed or cracked. */
  markLesson(lesson) {
    const marks = { packed: new Set(), cracked: new Set() };
    for (const d of lesson.districts || []) {
      const keys = (d.cells || []).map(([q, r]) => countyKey(q, r));
      if (d.packed !== null && d.packed !== undefined) keys.forEach((k) => marks.packed.add(k));
      if ((d.cracked || []).length) keys.forEach((k) => marks.cracked.add(k));
    }
    this.lessonMarks = marks;
  }

  /** Mark an edge as "being placed" until the next render (feedback while the move travels). */
  markPlacing(key) {
    const node = this.edgeNodes.get(key);
    if (node) node.parentNode.classList.add("placing");
  }

  _disarm() {
    if (!this.armedKey) return;
    const node = this.edgeNodes.get(this.armedKey);
    if (node) node.parentNode.classList.remove("armed");
    this.armedKey = null;
  }

  _activate(key, viaTouch) {
    const node = this.edgeNodes.get(key);
    if (!node) return;
    if (viaTouch && this.interactive && this.armedKey !== key) {
      // Touch has no hover preview: the first tap shows the border, the second places it.
      this._disarm();
      this.armedKey = key;
      node.parentNode.classList.add("armed");
      this._setRoving(key);
      this.onHint("Tap the same edge again to place the border.");
      return;
    }
    this._disarm();
    const between = parseEdgeKey(key);
    this.onEdge({ key, between, legal: node.getAttribute("data-legal") === "true" });
  }

  _onClick(event) {
    const touch = this.lastPointerType === "touch" || this.lastPointerType === "pen";
    this.lastPointerType = "mouse";
    const target = event.target.closest ? event.target.closest("[data-edge]") : null;
    // A finger is wider than an edge: a tap anywhere snaps to the nearest free edge.
    const key = target ? target.getAttribute("data-edge") : (touch ? this.nearestEdge(event) : null);
    if (!key) { this._disarm(); return; }
    this._setRoving(key);
    this._activate(key, touch);
  }

  /** The free edge whose middle is nearest the pointer (within one county), or null. */
  nearestEdge(event) {
    const matrix = this.svg.getScreenCTM && this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    let best = null;
    let bestD = SIZE;
    for (const [k, mid] of this.edgeMid) {
      const d = Math.hypot(mid.x - point.x, mid.y - point.y);
      if (d < bestD) { bestD = d; best = k; }
    }
    return best;
  }

  _onKeyDown(event) {
    const key = event.target.getAttribute && event.target.getAttribute("data-edge");
    if (!key) return;
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      this._activate(key, false);
      return;
    }
    if (event.key === "Escape") { this._disarm(); return; }
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const keys = [...this.edgeNodes.keys()];
      if (keys.length) this.focusEdge(event.key === "Home" ? keys[0] : keys[keys.length - 1]);
      return;
    }
    const dir = ARROWS[event.key];
    if (!dir) return;
    event.preventDefault();
    const next = this.nearestInDirection(key, dir);
    if (next) this.focusEdge(next);
  }

  /** The edge whose midpoint is nearest in the direction `dir` ([dx, dy], screen axes). */
  nearestInDirection(fromKey, dir) {
    const from = this.edgeMid.get(fromKey);
    if (!from) return null;
    let best = null;
    let bestScore = Infinity;
    for (const [k, mid] of this.edgeMid) {
      if (k === fromKey) continue;
      const dx = mid.x - from.x;
      const dy = mid.y - from.y;
      const dist = Math.hypot(dx, dy);
      if (dist < 1e-6) continue;
      const cos = (dx * dir[0] + dy * dir[1]) / dist;
      if (cos < 0.35) continue; // within ~70 degrees of the arrow
      const score = dist * (1 + 2.5 * (1 - cos));
      if (score < bestScore) { bestScore = score; best = k; }
    }
    return best;
  }
}

// --- The Mapmaker board module for the game page shell (static/games/js/game.js) ----------

const DECIDED_BY = {
  districts: "Decided by the number of districts won.",
  swing_counties: "Decided by swing counties: the tied players had the same number of districts, so the one controlling more swing counties won.",
  supreme_court: "Decided by the Supreme Court: still tied on swing counties, so the tied player with the fewest votes for their own party inside their own districts won.",
  shared: "A shared win: the players were still tied after every tie-break.",
};

export function partyChip(party, label) {
  const info = partyInfo(party);
  return h("span", { class: `party-chip party-${party ?? "none"}` },
    h("span", { class: "swatch", style: { background: info.color }, "aria-hidden": "true" }),
    label ?? info.name);
}

function countsByParty(view) {
  const counts = {};
  (view.district_counts || []).forEach((n, p) => { counts[p] = n; });
  return counts;
}

/** The Mapmaker part of the game page: the SVG board, the tie dialog, district counts, the
 *  solo score and undo, the key and the how-to-play. */
export function createBoard(container, page) {
  const view = () => page.game.view || {};
  const isSolo = () => String(view().mode || "").startsWith("solo");
  const partyOfSeat = (seat) => {
    const pos = view().party_of_seat;
    return Array.isArray(pos) && pos[seat] !== undefined ? pos[seat] : seat;
  };
  const pending = () => view().pending_choice || null;
  let tieDismissed = null; // version at which the player closed the tie dialog

  const board = new MapmakerBoard(container, {
    onEdge: (edge) => {
      const why = page.refusal();
      if (why) { page.showMessage(...why); return; }
      if (pending()) { page.showMessage("First choose the winner of the tied district.", "pending_choice"); openTieDialog(true); return; }
      // Illegal edges are sent too: the engine's message tells the student why.
      if (page.send({ type: "border", between: edge.between }) && edge.legal) board.markPlacing(edge.key);
    },
    onHint: (text) => page.setHint(text),
  });

  // Key and how to play, under the board.
  const legend = h("ul", { class: "legend", "aria-label": "Key" },
    ...PARTIES.map((p, i) => h("li", { class: `legend-party legend-party-${i}` }, partyChip(i, p.name))),
    h("li", {}, h("span", { class: "legend-swing", "aria-hidden": "true" }), "Swing county (0 or 1 vote)"),
    h("li", {}, h("span", { class: "legend-border", "aria-hidden": "true" }), "District border"),
    h("li", {}, h("span", { class: "legend-border legend-this-turn", "aria-hidden": "true" }), "Placed this turn"),
    h("li", {}, h("span", { class: "legend-border legend-last-turn", "aria-hidden": "true" }), "Placed last turn"));
  const help = howToPlay([
    "Each hexagon is a county with one voter token: its party and its number of votes. You play one party; the purple counties (0 or 1 vote) are swing counties.",
    "Players take turns placing district borders on the edges between counties: the first player places 1 border, the second 2, the next 3, and from then on everyone places 4 each turn. You cannot pass, and you cannot place a border on the edge of the board or inside a finished district.",
    "A district is a closed-off group of at least 4 counties that cannot be split into two groups of 4 or more. You may never close off fewer than 4 counties. A district forms as soon as its last border is placed.",
    "The party with the most votes in a district wins it. If parties tie, the player who placed the closing border chooses which of the tied parties wins (their own, or not).",
    "When every county is in a district, the game ends: most districts wins. A tie is broken by swing counties in the districts each player won; still tied, by the Supreme Court: the player with the fewest votes for their own party inside their own districts wins. Still tied: a shared win.",
    "Solo: in the easy game, place borders anywhere (no turns) and win as many districts as you can; tied districts are not allowed, and you can undo. In the competitive game, every district must be tied: 10 points a district, minus 1 for each border.",
    "With a mouse, point at an edge to preview it and click to place it. On a tablet or phone, tap near an edge to preview it (the nearest edge is chosen) and tap again to place it; use Zoom in on a small screen. With a keyboard: Tab to the board, arrow keys between edges, Enter or Space to place.",
  ]);
  // On a small screen the whole board is small: zoom in (and scroll) to place borders.
  const zoom = h("button", { type: "button", class: "button button-small board-zoom", id: "board-zoom", "aria-pressed": "false" }, "Zoom in");
  zoom.addEventListener("click", () => {
    const on = container.classList.toggle("zoomed");
    zoom.setAttribute("aria-pressed", on ? "true" : "false");
    zoom.textContent = on ? "Zoom out" : "Zoom in";
  });
  page.addBoardExtra(zoom);
  page.addBoardExtra(legend);
  page.addBoardExtra(help);

  // Side cards: district counts, and the solo score with undo.
  const counts = h("div", { id: "district-counts", class: "district-counts" });
  const progress = h("p", { class: "progress-text", id: "district-progress" });
  page.addPanelCard(h("section", { class: "card", "aria-labelledby": "counts-heading" },
    h("h2", { id: "counts-heading" }, "Districts"), counts, progress));
  const soloScore = h("span", { id: "solo-score", class: "solo-score-value" }, "0");
  const soloDetail = h("p", { id: "solo-detail", class: "solo-detail" });
  const undo = h("button", { type: "button", id: "undo-button", class: "button" }, "Undo last border");
  const soloCard = h("section", { class: "card solo-card", "aria-labelledby": "solo-heading", hidden: true },
    h("h2", { id: "solo-heading" }, "Your score"), h("p", { class: "solo-score" }, soloScore), soloDetail, undo);
  page.addPanelCard(soloCard);
  undo.addEventListener("click", () => { if (view().can_undo) page.send({ type: "undo" }); });

  // The tie dialog: only for the player who closed the tied district.
  const tieText = h("p", { id: "tie-text" });
  const tieChoices = h("div", { id: "tie-choices", class: "tie-choices" });
  const tieDialog = h("dialog", { id: "tie-dialog", class: "tie-dialog", "aria-labelledby": "tie-title", "aria-describedby": "tie-text" },
    h("h2", { id: "tie-title" }, "It's a tie! You choose the winner"), tieText, tieChoices,
    h("form", { method: "dialog", class: "tie-later" },
      h("button", { class: "button button-quiet", value: "later" }, "Let me look at the board first")));
  page.root.append(tieDialog);
  tieDialog.addEventListener("close", () => {
    if (tieDialog.returnValue === "later") tieDismissed = page.game.version;
    page.render();
  });

  function openTieDialog(force = false) {
    const pc = pending();
    const game = page.game;
    if (!pc || pc.seat !== page.mySeat() || game.status !== "active" || view().is_over) return;
    if (!force && tieDismissed === game.version) return;
    const d = (view().districts || [])[pc.district] || {};
    const v = Array.isArray(d.votes) ? d.votes[pc.parties[0]] : undefined;
    tieText.textContent = `You closed a district where ${pc.parties.map((p) => partyInfo(p).name).join(" and ")} are tied`
      + (v !== undefined ? ` with ${plural(v, "vote", "votes")} each` : "")
      + ". Pick the party that wins it (it can be yours, or not).";
    tieChoices.replaceChildren(...pc.parties.map((p) => h("button", {
      type: "button", class: `button party-button party-${p}`, dataset: { party: String(p) },
      style: { "--party": partyInfo(p).color },
      onclick: () => {
        tieDismissed = null;
        tieDialog.close("chosen");
        page.send({ type: "choose_winner", party: p });
      },
    }, partyChip(p), p === partyOfSeat(page.mySeat()) ? " (you)" : "")));
    if (!tieDialog.open) {
      tieDialog.returnValue = "";
      if (typeof tieDialog.showModal === "function") tieDialog.showModal();
      else tieDialog.setAttribute("open", "");
    }
  }

  function partiesInPlay() {
    const v = view();
    const set = new Set(v.parties || []);
    return [...set].sort();
  }

  function renderCounts() {
    const v = view();
    const c = countsByParty(v);
    const seatOfParty = {};
    (v.party_of_seat || []).forEach((p, s) => { seatOfParty[p] = s; });
    const rows = partiesInPlay().map((p) => {
      const s = seatOfParty[p];
      const seatRow = s !== undefined ? (page.game.seats || [])[s] : null;
      const who = s !== undefined
        ? (s === page.mySeat() ? "you" : (seatRow && seatRow.open ? "open seat" : page.seatName(s)))
        : (isSolo() ? "other" : "");
      return h("li", { class: "count-row", dataset: { party: String(p), count: String(c[p] || 0) } },
        partyChip(p), who ? h("span", { class: "count-who" }, who) : null,
        h("span", { class: "count-value", "aria-label": `${c[p] || 0} districts` }, String(c[p] || 0)));
    });
    const tied = (v.districts || []).filter((d) => d.winner === null || d.winner === undefined).length;
    if (tied) {
      rows.push(h("li", { class: "count-row", dataset: { party: "tied", count: String(tied) } },
        h("span", { class: "party-chip" }, h("span", { class: "swatch swatch-tied", "aria-hidden": "true" }), "Tied"),
        h("span", { class: "count-value" }, String(tied))));
    }
    counts.replaceChildren(h("ul", { class: "count-list" }, rows));
    const total = (v.counties || []).length;
    const inDistricts = (v.districts || []).reduce((n, d) => n + (d.counties || []).length, 0);
    progress.replaceChildren(
      `${plural((v.districts || []).length, "district", "districts")}; ${inDistricts} of ${total} counties districted.`,
      h("progress", { max: String(total || 1), value: String(inDistricts), "aria-label": "Counties in districts" }));
    const inPlay = new Set(partiesInPlay());
    legend.querySelectorAll(".legend-party").forEach((li, i) => { li.hidden = !inPlay.has(i); });
  }

  function renderSolo(status) {
    const v = view();
    soloCard.hidden = !isSolo();
    if (!isSolo()) return;
    undo.hidden = status.mySeat === null;
    soloScore.textContent = String(v.score ?? 0);
    const districts = (v.districts || []).length;
    if (v.mode === "solo-competitive") {
      soloDetail.textContent = `10 points per district (${districts}) minus 1 per border (${v.borders_used ?? 0}). Every district must be tied.`;
    } else {
      const c = countsByParty(v);
      const mine = partyOfSeat(status.mySeat ?? 0);
      soloDetail.textContent = `Your districts (${c[mine] || 0}) minus the other party's (${c[mine === 0 ? 1 : 0] || 0}). Tied districts are not allowed.`;
    }
    if (v.stuck) page.setHint("Every border left would close a tied district: undo a border to go on.");
    undo.disabled = !v.can_undo || status.busy || !status.connected || status.over || page.game.status !== "active";
  }

  return {
    render(game, status) {
      const v = view();
      const pc = pending();
      renderCounts();
      renderSolo(status);
      board.render(v, { interactive: status.canAct && !pc, highlightDistrict: pc ? pc.district : null });
      if (pc && pc.seat === status.mySeat && game.status === "active" && !status.over) openTieDialog();
      else if (tieDialog.open) tieDialog.close("gone");
    },

    turnDetail(game, status) {
      const v = view();
      const pc = pending();
      if (pc) {
        if (pc.seat !== status.mySeat) return h("p", {}, partyChip(partyOfSeat(pc.seat), page.seatName(pc.seat)), " is choosing the winner of a tied district.");
        return h("div", {}, h("p", {}, "A tied district! Choose its winner."),
          h("button", { type: "button", id: "tie-open", class: "button button-primary", onclick: () => openTieDialog(true) }, "Choose the district winner"));
      }
      if (isSolo()) return h("p", { id: "borders-left", class: "borders-left" }, `Borders placed: ${v.borders_used ?? 0}`);
      const turn = v.turn;
      if (!turn || typeof turn.borders_left !== "number") return null;
      const quota = turn.quota || turn.borders_left;
      const pips = h("span", { class: "pips", "aria-hidden": "true" });
      for (let i = 0; i < quota; i += 1) pips.append(h("span", { class: i < quota - turn.borders_left ? "pip used" : "pip" }));
      return h("p", { id: "borders-left", class: "borders-left", dataset: { left: String(turn.borders_left) } },
        h("span", { class: "borders-left-text" }, `${plural(turn.borders_left, "border", "borders")} left this turn`),
        h("span", { class: "visually-hidden" }, ` (of ${quota})`), pips,
        h("span", { class: "turn-sub" }, partyInfo(partyOfSeat(turn.seat)).name));
    },

    seatChip(seat, label, game) {
      const pos = (game.view || {}).party_of_seat || [];
      return partyChip(pos[seat] ?? seat, label);
    },

    decidedBy(result) { return DECIDED_BY[result.decided_by] || ""; },

    // A guided first game (solo, easy): what to try next, step by step.
    guideSteps: [
      { text: "You play one party against the other. Tap or click an edge between two counties to place a border there.",
        done: (game) => (game.view.borders || []).length >= 1 },
      { text: "Borders cut the board into pieces. Close off a group of at least 4 counties with borders all around it: it becomes a district.",
        done: (game) => (game.view.districts || []).length >= 1 },
      { text: "The party with the most votes in a district wins it. Draw a district where your party has more votes than the other.",
        done: (game) => (game.view.district_counts || [])[(game.view.party_of_seat || [])[0]] >= 1 },
      { text: "Packing: put many of the other party's voters together in one district, so they win it by far more than they need. Cracking: split the rest of their voters across districts you win narrowly.",
        done: (game) => (game.view.districts || []).length >= 4 },
      { text: "Keep going until every county is in a district. Tied districts are not allowed here: if you get stuck, undo a border.",
        done: (game) => !!game.view.is_over },
    ],

    guideEnd(game) {
      const v = game.view;
      const mine = (v.party_of_seat || [])[0];
      const counts = v.district_counts || [];
      const other = counts.reduce((n, c, p) => (p === mine ? n : n + c), 0);
      return `You won ${counts[mine] || 0} districts to ${other} with the same voters: that is gerrymandering. `
        + "Now play a real game against a classmate or a bot, where the other player draws borders too.";
    },

    showLesson(lesson) {
      board.markLesson(lesson);
      page.render();
    },

    resultDetail(game) {
      const v = game.view || {};
      if (!String(v.mode || "").startsWith("solo")) return null;
      const r = v.result || {};
      return h("div", { class: "solo-result" },
        h("p", {}, "Final score: ", h("strong", { id: "result-score" }, String(r.score ?? v.score ?? 0))),
        h("p", {}, `${plural(r.borders_used ?? v.borders_used ?? 0, "border", "borders")} used, ${plural((v.districts || []).length, "district", "districts")}.`),
        v.mode === "solo-competitive" && !r.won ? h("p", {}, "Every district had to be tied between Red and Blue.") : null);
    },
  };
}
