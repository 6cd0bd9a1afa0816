// The First Past the Post board module: the map as SVG, drawn only from the engine view, and
// the First Past the Post parts of the game page (createBoard, at the end; the shell is
// game.js).
//
// Geometry: pointy-top hexes in axial coordinates (q, r), r growing southwards: hex (q, r) is
// drawn at x = q + r/2, y = r (in hex widths and rows), so the map is drawn north up.  The six
// neighbour directions are (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1).  Constituency borders
// are bold lines, national borders thicker and dashed, the coast a plain outline.  A vote
// counter has its player's colour AND shape (Red circle, Blue square, Purple triangle, Pink
// diamond, Black star), so five players are told apart without colour too.
//
// Input: with a mouse, click a hex; on a touch screen, tap a hex to see it (a tap near a hex
// snaps to the nearest one) and tap it again to act; with a keyboard, Tab to the map, arrows
// between hexes, Enter or Space to act, Escape to cancel.  Cards: click (or tap) a card to
// pick it and again (or "Play this card") to play it; number keys 1-9 pick the n-th card,
// arrow keys move between cards, Enter plays the picked card.  The engine stays the judge:
// a refused move's message is shown where the move was made (a refused Gerrymander Hex says
// which condition it breaks).
//
// DOM hooks (stable, used by tests):
//   svg.fptp-board[data-step][data-mode][data-showing]   the map (inside #board); data-mode
//                              "campaign" | "gerrymander" | "" (what a click does for you now);
//                              data-showing "fptp" | "av" once over (whose winners it shows)
//   [data-hex="q,r"]           a hex (focusable): data-type, data-constituency, data-nation,
//                              data-colour, data-owner (seat or ""), data-stack ("0,2,1": top
//                              first), data-gerrymandered (colour), data-legal ("true" where a
//                              click now campaigns or gerrymanders), data-bus="true"
//   [data-counter="q,r"]       the top vote counter drawn on a hex: data-seat, data-shape
//   [data-bus-mark]            the battle bus
//   [data-const-mark="name"]   a constituency's mark on its City: data-leader (seat, "tied",
//                              "none"), data-decided ("true" when it can no longer change)
//   #board-zoom                zoom button (phones)
//   #fptp-hand                 your cards: [data-card="v"] buttons (aria-pressed when picked),
//                              #bid-submit, #hand-message[data-code], #my-bid
//   #fptp-campaign             the campaign: #campaign-hex, [data-committed-seat="s"]
//                              (data-committed "true"/"false": who has chosen, never what)
//   #fptp-reveal               the last reveal: [data-reveal-seat="s"] (data-bid, data-bonus,
//                              data-sway), #reveal-winner[data-seat], #reveal-drawoff li,
//                              #reveal-stack (AV: the counters' order)
//   #news-card[data-kind]      the news card in play, for everybody
//   #news-dialog               the active player's news decision: [data-give-seat="s"]
//                              (+ [data-discard="kind"]), [data-pay="v"], [data-urbanise=
//                              "q,r|q,r"], [data-clean-seat="s"], #news-decline; #news-open
//                              (in the turn card) opens it again
//   #gerry-tools               placing a Gerrymander Hex: [data-gerry-colour="c"] buttons,
//                              #gerry-message[data-code] (the engine's reason for a refusal)
//   #fptp-standings            [data-constituency="name"] rows (data-leader, data-decided)
//   #fptp-parties              [data-party-seat="s"] (data-left), [data-perm="kind"] cards
//   #fptp-piles                #budget-pile, #budget-discard, #news-pile, [data-gerry-left]
//   #end-vote                  the offer to end: #end-agree, #end-refuse, [data-agreed-seat]
//   #leave-game, #leave-dialog, #leave-confirm   leaving the game
//   #fptp-final                the end screen: #final-fptp / #final-av [data-winners],
//                              [data-final-constituency="name"] (data-fptp, data-av, data-differs),
//                              [data-show-system="fptp"|"av"] buttons, #av-rounds
//                              [data-av-constituency="name"] li[data-round]
//   .fptp-hex.lesson-packed, .fptp-hex.lesson-cracked   constituencies the lesson marks

import { SVG_NS, h, howToPlay, joinNames, plural } from "./ui.js";

// The stylesheet lives next to this module.  The production static storage rewrites the
// path of every dynamic import to its hashed file name, even inside a string: that is how
// this module learns the hashed name of its stylesheet (tests/games/test_fptp_static.py).
// Elsewhere the path stays as written.  (Never write that import form anywhere else in this
// file, comments too.)
const STYLE_REF = 'import("../css/fptp.css")';

// ---------------------------------------------------------------- game data shown here

// Counter colours by the engine's colour names; the shapes come from the view.
export const SEAT_STYLE = {
  Red: { color: "#d62828", tint: "#f7c9c9", ink: "#ffffff" },
  Blue: { color: "#1d4ed8", tint: "#c8d6fa", ink: "#ffffff" },
  Purple: { color: "#7b2cbf", tint: "#e0cdf3", ink: "#ffffff" },
  Pink: { color: "#e05797", tint: "#f9d2e4", ink: "#ffffff" },
  Black: { color: "#222222", tint: "#cfcfcf", ink: "#ffffff" },
};
const SHAPES = ["circle", "square", "triangle", "diamond", "star"];
export const CONSTITUENCY_COLOURS = {
  green: { fill: "#cfe8c4", line: "#3f8a3f" },
  orange: { fill: "#f8d3a6", line: "#c8731a" },
  yellow: { fill: "#f5e89a", line: "#a88a00" },
  grey: { fill: "#d9dbe0", line: "#6b707a" },
};
const TYPE_NAMES = { city: "City", large_town: "Large Town", small_town: "Small Town", rural: "Rural" };
const SYSTEM_NAMES = { fptp: "First Past the Post", av: "Alternative Vote" };

// The news cards as players read them (the same data as the engine's news deck; the static
// test checks they agree).  Permanent cards carry their sway and region so the page can show
// what a card would be worth on the hex being fought over.
export const NEWS_CARDS = {
  "gerrymander_green": { "type": "action", "title": "Gerrymander Green", "text": "You may pay 28 to gerrymander with a green Gerrymander Hex." },
  "gerrymander_orange": { "type": "action", "title": "Gerrymander Orange", "text": "You may pay 28 to gerrymander with an orange Gerrymander Hex." },
  "gerrymander_yellow": { "type": "action", "title": "Gerrymander Yellow", "text": "You may pay 28 to gerrymander with a yellow Gerrymander Hex." },
  "gerrymander_grey": { "type": "action", "title": "Gerrymander Grey", "text": "You may pay 28 to gerrymander with a grey Gerrymander Hex." },
  "powermander": { "type": "action", "title": "Powermander", "text": "You may pay 32 to gerrymander with any Gerrymander Hex that is left." },
  "floods": { "type": "action", "title": "Floods", "text": "This turn you may campaign again for a Rural hex that is already won; its holder gets +5 sway there." },
  "riots": { "type": "action", "title": "Riots", "text": "This turn you may campaign again for a City hex that is already won; its holder gets +5 sway there." },
  "urbanisation": { "type": "action", "title": "Urbanisation", "text": "You may swap the vote counters of one Rural hex and the City hex of the same constituency." },
  "clean_slate": { "type": "action", "title": "Clean Slate", "text": "You may pay 30 to discard all the Permanent news cards of any one player." },
  "city_scandal": { "type": "permanent", "title": "City Scandal", "text": "-4 sway in City hexes.", "sway": -4, "where": { "hex_type": "city" } },
  "rural_gaffe": { "type": "permanent", "title": "Rural Gaffe", "text": "-4 sway in Rural hexes.", "sway": -4, "where": { "hex_type": "rural" } },
  "irish_glory": { "type": "permanent", "title": "Irish Glory", "text": "+7 sway in Northern Ireland.", "sway": 7, "where": { "nation": "Northern Ireland" } },
  "bad_friday": { "type": "permanent", "title": "Bad Friday", "text": "-6 sway in Northern Ireland.", "sway": -6, "where": { "nation": "Northern Ireland" } },
  "scottish_cheer": { "type": "permanent", "title": "Scottish Cheer", "text": "+7 sway in Scotland.", "sway": 7, "where": { "nation": "Scotland" } },
  "scottish_rage": { "type": "permanent", "title": "Scottish Rage", "text": "-5 sway in Scotland.", "sway": -5, "where": { "nation": "Scotland" } },
  "divided_kingdom": { "type": "permanent", "title": "Divided Kingdom", "text": "+5 sway outside England.", "sway": 5, "where": { "not_nation": "England" } },
  "up_the_english": { "type": "permanent", "title": "Up the English", "text": "+5 sway in England.", "sway": 5, "where": { "nation": "England" } },
  "down_the_english": { "type": "permanent", "title": "Down the English", "text": "-4 sway in England.", "sway": -4, "where": { "nation": "England" } },
  "central_power": { "type": "permanent", "title": "Central Power", "text": "+8 sway in the London constituency.", "sway": 8, "where": { "constituency": "London" } }
};

const DECIDED_BY = {
  constituencies: "Decided by the most constituencies won.",
  hexes: "Tied on constituencies: decided by the most hexes won.",
  shared: "Tied on constituencies and on hexes won: a shared win.",
};

// ---------------------------------------------------------------- pure helpers (exported)

export const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const SIZE = 30;
const SQ3 = Math.sqrt(3);
export const hexKey = (q, r) => `${q},${r}`;
export const parseKey = (key) => key.split(",").map(Number);
export function hexCenter(q, r) { return { x: SIZE * SQ3 * (q + r / 2), y: SIZE * 1.5 * r }; }
const r2 = (n) => Math.round(n * 100) / 100;

function corners(cx, cy, radius) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push([cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
  }
  return pts;
}
const points = (pts) => pts.map((p) => p.map(r2).join(",")).join(" ");

/** The segment hex a shares with its neighbour in direction d (pointy-top). */
function sharedEdge(q, r, d) {
  const a = hexCenter(q, r);
  const b = hexCenter(q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]);
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const px = -(b.y - a.y) / len;
  const py = (b.x - a.x) / len;
  const half = SIZE / 2;
  return { x1: mx - px * half, y1: my - py * half, x2: mx + px * half, y2: my + py * half };
}

/** Does a Permanent card's region hold this hex (a view hex)? */
export function inRegion(hex, where) {
  if (!where) return false;
  if ("hex_type" in where) return hex.type === where.hex_type;
  if ("nation" in where) return hex.nation === where.nation;
  if ("not_nation" in where) return hex.nation !== where.not_nation;
  if ("constituency" in where) return hex.constituency === where.constituency;
  return false;
}

/** The sway a seat's Permanent cards add in a hex: [total, [[kind, sway], ...]]. */
export function bonusAt(permanents, hex) {
  const parts = [];
  for (const kind of permanents || []) {
    const card = NEWS_CARDS[kind];
    if (card && card.type === "permanent" && inRegion(hex, card.where)) parts.push([kind, card.sway]);
  }
  return [parts.reduce((n, [, s]) => n + s, 0), parts];
}

const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

/** node.replaceChildren, leaving out the parts that are not there (null, undefined, false). */
function fill(node, ...kids) {
  node.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
  return node;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** A counter's shape centred at (cx, cy), radius r. */
export function drawShape(parent, shape, cx, cy, r, attrs = {}) {
  if (shape === "square") {
    const s = r * 1.6;
    return el("rect", { ...attrs, x: r2(cx - s / 2), y: r2(cy - s / 2), width: r2(s), height: r2(s), rx: r2(s * 0.12) }, parent);
  }
  if (shape === "triangle") {
    const pts = [[cx, cy - r * 1.15], [cx + r * 1.1, cy + r * 0.8], [cx - r * 1.1, cy + r * 0.8]];
    return el("polygon", { ...attrs, points: points(pts), "stroke-linejoin": "round" }, parent);
  }
  if (shape === "diamond") {
    const s = r * 1.25;
    return el("polygon", { ...attrs, points: points([[cx, cy - s], [cx + s, cy], [cx, cy + s], [cx - s, cy]]), "stroke-linejoin": "round" }, parent);
  }
  if (shape === "star") {
    const pts = [];
    for (let i = 0; i < 10; i += 1) {
      const a = (Math.PI / 5) * i - Math.PI / 2;
      const rr = i % 2 ? r * 0.55 : r * 1.2;
      pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
    }
    return el("polygon", { ...attrs, points: points(pts), "stroke-linejoin": "round" }, parent);
  }
  return el("circle", { ...attrs, cx: r2(cx), cy: r2(cy), r: r2(r) }, parent);
}

/** A small inline SVG: a seat's counter (for HTML text). */
export function counterIcon(seatRow, label = null, size = 18) {
  const node = el("svg", { class: "fptp-icon", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": label ? null : "true", role: label ? "img" : null, "aria-label": label });
  const style = SEAT_STYLE[seatRow.colour] || SEAT_STYLE.Black;
  drawShape(node, seatRow.shape, 12, 12.5, 8.5, { fill: style.color, stroke: "#ffffff", "stroke-width": 1.5 });
  return node;
}

function symbol(parent, type, cx, cy) {
  const g = el("g", { class: `sym sym-${type}`, "aria-hidden": "true" }, parent);
  if (type === "city") {
    // a skyline: three towers
    el("rect", { x: r2(cx - 10), y: r2(cy - 5), width: 6, height: 11 }, g);
    el("rect", { x: r2(cx - 3.5), y: r2(cy - 10), width: 7, height: 16 }, g);
    el("rect", { x: r2(cx + 4), y: r2(cy - 3), width: 6, height: 9 }, g);
  } else if (type === "large_town") {
    for (const dx of [-6, 6]) {
      el("polygon", { points: points([[cx + dx - 5, cy + 6], [cx + dx - 5, cy - 1], [cx + dx, cy - 6], [cx + dx + 5, cy - 1], [cx + dx + 5, cy + 6]]) }, g);
    }
  } else if (type === "small_town") {
    el("polygon", { points: points([[cx - 5, cy + 6], [cx - 5, cy - 1], [cx, cy - 6], [cx + 5, cy - 1], [cx + 5, cy + 6]]) }, g);
  } else {
    // rural: two tufts of grass
    el("path", { class: "tuft", d: `M${r2(cx - 8)},${r2(cy + 4)} l2,-5 l2,5 M${r2(cx + 3)},${r2(cy + 4)} l2,-5 l2,5` }, g);
  }
  return g;
}

function drawBus(parent, cx, cy, onMap = false) {
  const g = el("g", { class: "bus", "data-bus-mark": onMap ? "true" : null, "aria-hidden": "true" }, parent);
  el("rect", { class: "bus-body", x: r2(cx - 13), y: r2(cy - 7), width: 26, height: 13, rx: 3 }, g);
  for (const dx of [-9, -3, 3]) el("rect", { class: "bus-window", x: r2(cx + dx), y: r2(cy - 5), width: 5, height: 4, rx: 1 }, g);
  el("rect", { class: "bus-window", x: r2(cx + 8.5), y: r2(cy - 5), width: 3, height: 6, rx: 1 }, g);
  for (const dx of [-7, 7]) el("circle", { class: "bus-wheel", cx: r2(cx + dx), cy: r2(cy + 6.5), r: 2.6 }, g);
  return g;
}

// ---------------------------------------------------------------- the board

/** The First Past the Post part of the game page. */
export function createBoard(container, page) {
  addStyles();
  const view = () => page.game.view || {};
  const mySeat = () => page.mySeat();
  const seatRow = (s) => (view().seats || [])[s] || { seat: s, colour: "Black", shape: SHAPES[s] || "circle" };
  const styleOf = (s) => SEAT_STYLE[seatRow(s).colour] || SEAT_STYLE.Black;
  const canAct = () => page.status().canAct;

  let focusKey = null;
  let armedKey = null;
  let lastPointer = "mouse";
  let picked = null; // the card picked in the hand (a number)
  let handMessage = { text: "", code: "" };
  let gerryColour = null;
  let gerryMessage = { text: "", code: "" };
  let refusedKey = null;
  let newsDismissed = null; // the version at which the player closed the news dialog
  let newsShownFor = null; // the version the open news dialog was drawn for
  let showing = null; // once over: "fptp" | "av" (whose winners the map shows)
  let lessonMarks = { packed: new Set(), cracked: new Set() };
  let hexIndex = new Map();

  const svgRoot = el("svg", { class: "fptp-board", role: "group", "aria-label": "The map", "aria-roledescription": "game board", preserveAspectRatio: "xMidYMid meet" });
  container.appendChild(svgRoot);

  // ---- under the board: zoom, the gerrymander bar, the key, how to play
  const zoom = h("button", { type: "button", class: "button button-small board-zoom", id: "board-zoom", "aria-pressed": "false" }, "Zoom in");
  zoom.addEventListener("click", () => {
    const on = container.classList.toggle("zoomed");
    zoom.setAttribute("aria-pressed", on ? "true" : "false");
    zoom.textContent = on ? "Zoom out" : "Zoom in";
  });
  page.addBoardExtra(zoom);

  const gerryText = h("p", { id: "gerry-text", class: "gerry-text" });
  const gerryColours = h("div", { id: "gerry-colours", class: "gerry-colours" });
  const gerryMsg = h("p", { id: "gerry-message", class: "gerry-message", role: "status", "aria-live": "polite" });
  const gerryTools = h("section", { id: "gerry-tools", class: "gerry-tools", "aria-label": "Placing a Gerrymander Hex", hidden: true },
    gerryText, gerryColours, gerryMsg);
  page.addBoardExtra(gerryTools);

  const legendShapes = h("li", { class: "legend-counters" });
  const legend = h("ul", { class: "legend fptp-legend", id: "fptp-legend", "aria-label": "Key" },
    legendShapes,
    h("li", {}, legendSymbol("city"), "City"),
    h("li", {}, legendSymbol("large_town"), "Large Town"),
    h("li", {}, legendSymbol("small_town"), "Small Town"),
    h("li", {}, legendSymbol("rural"), "Rural"),
    h("li", {}, h("span", { class: "legend-line legend-const", "aria-hidden": "true" }), "Constituency border"),
    h("li", {}, h("span", { class: "legend-line legend-nation", "aria-hidden": "true" }), "National border"),
    h("li", {}, legendBus(), "Battle bus: the hex being fought over"),
    h("li", {}, h("span", { class: "legend-gerry", "aria-hidden": "true" }), "Gerrymandered hex"),
    h("li", {}, h("span", { class: "legend-mark", "aria-hidden": "true" }), "Leader of a constituency (solid ring: it can no longer change)"),
    h("li", { class: "legend-lesson", hidden: true }, h("span", { class: "legend-packed", "aria-hidden": "true" }), "Packed constituency (see the lesson below)"),
    h("li", { class: "legend-lesson", hidden: true }, h("span", { class: "legend-cracked", "aria-hidden": "true" }), "Cracked: a party lost it narrowly"));
  const help = howToPlay([
    "You are a party in an election. Each hexagon is a hex of voters; hexes of one colour with a bold border around them make a constituency. Every constituency has one City and some Large and Small Towns.",
    "On your turn you first draw budget cards until you hold (players in the game) + 2, then a news card (if they are on), then you put the battle bus on a hex without a vote counter.",
    "Then everybody picks one budget card at the same time, face down. Nobody sees what the others picked until all have picked. Your sway is your card plus the bonuses of your Permanent news cards for that hex. The highest sway wins the hex and puts a vote counter on it.",
    "Ties: the player whose turn it is wins a tie. Otherwise the tied players turn over the top card of the budget pile (a draw-off); the highest wins. All the cards played go face up onto the discard pile.",
    "Tip from the rulebook: don't waste your budget! One vote more than your rival is enough; every vote beyond that is wasted.",
    "News cards. Permanent: give it to a player (yourself too); it changes their sway in some hexes. A player holds at most 2: giving a third replaces one of theirs, and you choose which. Action: do what it says, or leave it (\"You may\"); a card you leave goes to the bottom of the news pile.",
    "Gerrymander: pay a budget card of at least the cost to move a Rural hex (with its vote counter) into a constituency of the Gerrymander Hex's colour that it touches. The map marks where it can go; if you try another hex, the page tells you which rule stops it (not Rural, not next to that colour, already that colour, across a national border, cutting hexes off from their City, joining two constituencies, or gerrymandered before).",
    "Floods and Riots let you campaign again for a won Rural or City hex this turn (its holder gets +5 sway there). Urbanisation swaps the counters of a Rural hex and its City. Clean Slate throws away all the Permanent cards of one player.",
    "The end: when every hex is won, or when no constituency can change hands any more and every player agrees to stop. Whoever has the most counters in a constituency wins it (ties: the City, then a Large Town, then a Small Town, then a draw-off). Most constituencies wins the game; a tie goes to the most hexes won.",
    "Alternative Vote: every campaign stacks all the players' counters, highest sway on top. To win a constituency a player needs more than half its votes (or exactly half with the City); if nobody has that, the player with the fewest votes is taken out and their hexes go to the next counter down, again and again. The end screen shows both counts for every game.",
    "You may leave the game at any time (your counters stay and still count). With a mouse, click a hex; on a phone, tap a hex and tap it again (use Zoom in). With a keyboard: Tab to the map, arrow keys between hexes, Enter to choose, Escape to cancel; press 1 to 9 to pick a card and Enter to play it.",
  ]);
  page.addBoardExtra(legend);
  page.addBoardExtra(help);

  // ---- panel cards
  const handList = h("div", { id: "hand-cards", class: "hand-cards", role: "group", "aria-label": "Your budget cards" });
  const handInfo = h("p", { id: "hand-info", class: "fptp-help" });
  const handMsg = h("p", { id: "hand-message", class: "hand-message", role: "status", "aria-live": "polite" });
  const bidSubmit = h("button", { type: "button", id: "bid-submit", class: "button button-primary", hidden: true });
  const myBid = h("p", { id: "my-bid", class: "my-bid", hidden: true });
  const handCard = h("section", { id: "fptp-hand", class: "card fptp-card", "aria-labelledby": "hand-heading", hidden: true },
    h("h2", { id: "hand-heading" }, "Your budget cards"), handInfo, handList, myBid, bidSubmit, handMsg);
  page.addPanelCard(handCard);

  const newsCardNode = h("section", { id: "news-card", class: "card fptp-card news-card", "aria-labelledby": "news-heading", hidden: true });
  page.addPanelCard(newsCardNode);
  const endVote = h("section", { id: "end-vote", class: "card fptp-card end-vote", "aria-labelledby": "end-heading", hidden: true });
  page.addPanelCard(endVote);
  const campaignCard = h("section", { id: "fptp-campaign", class: "card fptp-card", "aria-labelledby": "campaign-heading", hidden: true });
  page.addPanelCard(campaignCard);
  const revealCard = h("section", { id: "fptp-reveal", class: "card fptp-card", "aria-labelledby": "reveal-heading", hidden: true });
  page.addPanelCard(revealCard);
  const standings = h("section", { id: "fptp-standings", class: "card fptp-card", "aria-labelledby": "standings-heading" });
  page.addPanelCard(standings);
  const parties = h("section", { id: "fptp-parties", class: "card fptp-card", "aria-labelledby": "parties-heading" });
  page.addPanelCard(parties);
  const piles = h("section", { id: "fptp-piles", class: "card fptp-card", "aria-labelledby": "piles-heading" });
  page.addPanelCard(piles);
  const leaveButton = h("button", { type: "button", id: "leave-game", class: "button button-quiet" }, "Leave the game");
  const leaveCard = h("section", { class: "card fptp-card leave-card", hidden: true }, leaveButton);
  page.addPanelCard(leaveCard);

  // ---- dialogs: the news decision, leaving
  const newsDialog = h("dialog", { id: "news-dialog", class: "tie-dialog fptp-dialog", "aria-labelledby": "news-dialog-title" });
  page.root.append(newsDialog);
  newsDialog.addEventListener("close", () => {
    if (newsDialog.returnValue === "later") newsDismissed = page.game.version;
    page.render();
  });
  const leaveDialog = h("dialog", { id: "leave-dialog", class: "tie-dialog fptp-dialog", "aria-labelledby": "leave-title" },
    h("h2", { id: "leave-title" }, "Leave the game?"),
    h("p", {}, "You cannot come back. Your cards are discarded, but your vote counters stay on the map and still count at the end."),
    h("div", { class: "dialog-buttons" },
      h("button", { type: "button", id: "leave-confirm", class: "button button-danger" }, "Leave the game"),
      h("form", { method: "dialog" }, h("button", { class: "button button-quiet", value: "stay", id: "leave-cancel" }, "Stay in the game"))));
  page.root.append(leaveDialog);
  leaveButton.addEventListener("click", () => {
    if (typeof leaveDialog.showModal === "function") leaveDialog.showModal(); else leaveDialog.setAttribute("open", "");
  });
  leaveDialog.querySelector("#leave-confirm").addEventListener("click", () => {
    leaveDialog.close("leave");
    page.send({ type: "leave" });
  });

  // ---------------------------------------------------------------- what the player can do
  const legal = () => view().legal_moves || [];
  const step = () => view().step || "";
  const myMove = () => {
    const seat = mySeat();
    return seat !== null && seat !== undefined && page.game.status === "active" && !view().is_over
      && (view().to_move || []).includes(seat);
  };
  function mode() {
    if (!myMove()) return "";
    if (step() === "campaign") return "campaign";
    if (step() === "gerrymander") return "gerrymander";
    return "";
  }
  const newsDecision = () => myMove() && (step() === "news" || step() === "clean_slate");
  function legalHexes() {
    const m = mode();
    const out = new Set();
    for (const mv of legal()) {
      if (m === "campaign" && mv.type === "campaign") out.add(hexKey(...mv.hex));
      if (m === "gerrymander" && mv.type === "gerrymander" && mv.colour === gerryColour) out.add(hexKey(...mv.hex));
    }
    return out;
  }
  function gerryColoursLegal() {
    return [...new Set(legal().filter((m) => m.type === "gerrymander").map((m) => m.colour))];
  }

  // ---------------------------------------------------------------- acting on hexes
  function act(key) {
    const hex = hexIndex.get(key);
    if (!hex) return;
    const m = mode();
    if (!m) { page.setHint(hexWords(hex)); return; }
    const why = page.refusal();
    if (why) { page.showMessage(...why); return; }
    const [q, r] = parseKey(key);
    if (m === "campaign") {
      // an illegal hex is sent too: the engine's message says why
      if (page.send({ type: "campaign", hex: [q, r] })) page.setHint(`Battle bus to ${hexWords(hex)}.`);
      return;
    }
    if (!gerryColour) { gerryMessage = { text: "First choose the colour of the Gerrymander Hex.", code: "choose_colour" }; renderGerry(); return; }
    refusedKey = key;
    gerryMessage = { text: `Placing a ${gerryColour} Gerrymander Hex on ${hexWords(hex, false)}...`, code: "sent" };
    page.send({ type: "gerrymander", hex: [q, r], colour: gerryColour });
    renderGerry();
  }

  function armOrAct(key, touch) {
    if (touch && mode() && armedKey !== key) {
      armedKey = key;
      setRoving(key);
      const hex = hexIndex.get(key);
      page.setHint(`${hexWords(hex)}. Tap it again to ${mode() === "campaign" ? "campaign here" : "put the Gerrymander Hex here"}.`);
      draw();
      return;
    }
    armedKey = null;
    act(key);
  }

  function hexWords(hex, full = true) {
    const base = `${TYPE_NAMES[hex.type] || hex.type} hex (${hex.q},${hex.r}) of ${hex.constituency}`;
    if (!full) return base;
    let text = `${base} (${hex.colour}, ${hex.nation})`;
    if (hex.owner !== null && hex.owner !== undefined) {
      text += `: ${seatRow(hex.owner).colour} counter`;
      if ((hex.stack || []).length > 1) text += ` (stack, top first: ${hex.stack.map((s) => seatRow(s).colour).join(", ")})`;
    } else text += ": no counter yet";
    if (hex.gerrymandered) text += `; gerrymandered with a ${hex.gerrymandered} hex`;
    return text;
  }

  svgRoot.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; });
  svgRoot.addEventListener("click", (e) => {
    const touch = lastPointer === "touch" || lastPointer === "pen";
    lastPointer = "mouse";
    const g = e.target.closest ? e.target.closest("[data-hex]") : null;
    // a finger is wider than a hex's edge: a tap anywhere snaps to the nearest hex
    const key = g ? g.getAttribute("data-hex") : (touch ? nearestHex(e) : null);
    if (!key) { armedKey = null; draw(); return; }
    setRoving(key);
    armOrAct(key, touch);
  });
  svgRoot.addEventListener("focusin", (e) => {
    const key = e.target.getAttribute && e.target.getAttribute("data-hex");
    if (key && key !== armedKey && hexIndex.has(key)) { setRoving(key); page.setHint(hexWords(hexIndex.get(key))); }
  });
  svgRoot.addEventListener("keydown", (e) => {
    const key = e.target.getAttribute && e.target.getAttribute("data-hex");
    if (!key) return;
    if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") { e.preventDefault(); act(key); return; }
    if (e.key === "Escape") { armedKey = null; page.setHint(""); draw(); return; }
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[e.key];
    if (!dir) return;
    e.preventDefault();
    const next = stepFrom(key, dir);
    if (next) focusHex(next);
  });

  function nearestHex(event) {
    const matrix = svgRoot.getScreenCTM && svgRoot.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    let best = null;
    let bestD = SIZE * 1.3;
    for (const key of hexIndex.keys()) {
      const c = hexCenter(...parseKey(key));
      const d = Math.hypot(c.x - p.x, c.y - p.y);
      if (d < bestD) { bestD = d; best = key; }
    }
    return best;
  }

  /** The nearest hex from `key` in the screen direction `dir`. */
  function stepFrom(key, [dx, dy]) {
    const from = hexCenter(...parseKey(key));
    let best = null;
    let bestScore = Infinity;
    for (const k of hexIndex.keys()) {
      if (k === key) continue;
      const c = hexCenter(...parseKey(k));
      const vx = c.x - from.x;
      const vy = c.y - from.y;
      const dist = Math.hypot(vx, vy);
      const cos = (vx * dx + vy * dy) / dist;
      if (cos < 0.35) continue;
      const score = dist * (1 + 2.5 * (1 - cos));
      if (score < bestScore) { bestScore = score; best = k; }
    }
    return best;
  }
  function setRoving(key) {
    if (focusKey === key) return;
    const old = focusKey && svgRoot.querySelector(`[data-hex="${focusKey}"]`);
    if (old) old.setAttribute("tabindex", "-1");
    const node = svgRoot.querySelector(`[data-hex="${key}"]`);
    if (node) node.setAttribute("tabindex", "0");
    focusKey = key;
  }
  function focusHex(key) {
    setRoving(key);
    const node = svgRoot.querySelector(`[data-hex="${key}"]`);
    if (node) node.focus({ preventScroll: false });
  }

  // ---------------------------------------------------------------- cards in hand
  const bidding = () => myMove() && step() === "bid";
  const handCards = () => (view().hand || []).slice();

  function pickCard(value, confirm = false) {
    if (!bidding()) {
      const why = page.refusal();
      if (why) page.showMessage(...why);
      else handMessage = { text: "You play a card when everybody campaigns for the hex under the battle bus.", code: "not_bidding" };
      renderHand();
      return;
    }
    if (confirm || picked === value) { playCard(value); return; }
    picked = value;
    handMessage = { text: `Card ${value} picked: press "Play card ${value}" (or pick it again) to play it.`, code: "picked" };
    renderHand();
    const node = handList.querySelector(`[data-card="${value}"]`);
    if (node) node.focus({ preventScroll: true });
  }
  function playCard(value) {
    if (page.send({ type: "bid", card: value })) {
      handMessage = { text: `You played ${value}. Wait for the others: nobody sees it until everybody has chosen.`, code: "sent" };
      picked = null;
    }
    renderHand();
  }
  bidSubmit.addEventListener("click", () => { if (picked !== null) playCard(picked); });
  handList.addEventListener("keydown", (e) => {
    const cards = handCards();
    const target = e.target.getAttribute && e.target.getAttribute("data-card");
    if (!target) return;
    const at = cards.indexOf(Number(target));
    const dir = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (dir) {
      e.preventDefault();
      const next = cards[Math.min(cards.length - 1, Math.max(0, at + dir))];
      const node = handList.querySelector(`[data-card="${next}"]`);
      if (node) node.focus();
      if (bidding()) { picked = next; renderHand(); }  // the redraw keeps the focus on it
    } else if (e.key === "Escape") {
      picked = null; handMessage = { text: "", code: "" }; renderHand();
    }
  });
  // number keys pick the n-th card, anywhere on the page but in a text field
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (newsDialog.open || leaveDialog.open) return;
    if (!/^[1-9]$/.test(e.key) || !bidding()) return;
    const cards = handCards();
    const value = cards[Number(e.key) - 1];
    if (value === undefined) return;
    e.preventDefault();
    pickCard(value);
  });

  function renderHand() {
    const v = view();
    const seat = mySeat();
    const show = seat !== null && seat !== undefined && !v.is_over && !(v.seats || [])[seat]?.left;
    handCard.hidden = !show;
    if (!show) return;
    const cards = handCards();
    if (picked !== null && !cards.includes(picked)) picked = null;
    const bus = busHex();
    const mine = seatRow(seat);
    const [bonus] = bus ? bonusAt(mine.permanents, bus) : [0];
    const active = bidding();
    // Redrawing the cards must not drop the keyboard's place in the hand: a frame or an ack
    // can arrive between two key presses.
    const focused = handList.contains(document.activeElement) ? document.activeElement.dataset.card : "";
    fill(handList, ...cards.map((c, i) => {
      const sway = c + bonus;
      return h("button", {
        type: "button", class: `button hand-card${picked === c ? " picked" : ""}`,
        dataset: { card: String(c), key: String(i + 1) }, "aria-pressed": picked === c ? "true" : "false",
        disabled: active ? !canAct() : false,
        "aria-label": `Budget card ${c}${bus && active ? `, sway ${sway} on the hex under the bus` : ""}${i < 9 ? ` (key ${i + 1})` : ""}`,
        onclick: () => pickCard(c),
      }, h("span", { class: "card-value" }, String(c)),
      bus && active && bonus ? h("span", { class: "card-sway" }, `sway ${sway}`) : null);
    }));
    if (focused) handList.querySelector(`[data-card="${focused}"]`)?.focus({ preventScroll: true });
    if (v.my_bid !== null && v.my_bid !== undefined) {
      myBid.hidden = false;
      fill(myBid, "You chose ", h("strong", {}, String(v.my_bid)), " for this campaign (nobody else can see it).");
    } else myBid.hidden = true;
    bidSubmit.hidden = !(active && picked !== null);
    if (picked !== null) bidSubmit.textContent = `Play card ${picked}`;
    bidSubmit.disabled = !canAct();
    if (active) {
      handInfo.textContent = bonus
        ? `Pick a card for ${hexWords(bus, false)}. Your Permanent cards give you ${signed(bonus)} sway here.`
        : `Pick a card for ${hexWords(bus, false)}. The highest sway wins it.`;
    } else if (!cards.length) handInfo.textContent = "You have no budget cards: you sit this campaign out.";
    else handInfo.textContent = `${plural(cards.length, "card", "cards")}. You draw up to ${v.draw_to} at the start of your turn.`;
    if (!active && (handMessage.code === "picked" || handMessage.code === "sent")) handMessage = { text: "", code: "" };
    handMsg.textContent = handMessage.text;
    handMsg.dataset.code = handMessage.code || "";
  }

  // ---------------------------------------------------------------- the news card
  function newsCardWords(card) {
    return card ? (NEWS_CARDS[card.kind] || card) : null;
  }

  function renderNewsCard() {
    const v = view();
    const card = v.news_card;
    newsCardNode.hidden = !card || v.is_over;
    if (newsCardNode.hidden) { delete newsCardNode.dataset.kind; return; }
    newsCardNode.dataset.kind = card.kind;
    const who = v.active === mySeat() ? "You" : page.seatName(v.active);
    let task = "";
    const deciding = step() === "news" || step() === "gerrymander" || step() === "clean_slate";
    if (card.type === "permanent") task = `${who} ${v.active === mySeat() ? "give" : "gives"} it to a player.`;
    else if (step() === "gerrymander") task = `${who} paid ${v.paid} and ${v.active === mySeat() ? "place" : "places"} the Gerrymander Hex.`;
    else if (step() === "clean_slate") task = `${who} paid ${v.paid} and ${v.active === mySeat() ? "choose" : "chooses"} whose Permanent cards go.`;
    else if (deciding) task = `${who} ${v.active === mySeat() ? "decide" : "decides"} whether to use it.`;
    else if (v.recampaign === null && step() === "campaign") task = `${who} may campaign again for a won ${card.kind === "floods" ? "Rural" : "City"} hex this turn, or campaign for an empty hex and leave the card.`;
    const reopen = newsDecision() ? h("button", { type: "button", class: "button", id: "news-card-open", onclick: () => openNewsDialog(true) }, "Decide") : null;
    fill(newsCardNode, 
      h("h2", { id: "news-heading" }, "News card"),
      h("div", { class: `news-face news-${card.type}` },
        h("p", { class: "news-type" }, card.type === "permanent" ? "Permanent" : "Action"),
        h("p", { class: "news-title" }, card.title), h("p", { class: "news-text" }, card.text)),
      task ? h("p", { class: "fptp-help" }, task) : null, reopen);
  }

  function openNewsDialog(force = false) {
    const game = page.game;
    if (!newsDecision()) return;
    if (!force && newsDismissed === game.version) return;
    // already open on this very position: keep it as it is (and the player's focus in it)
    if (newsDialog.open && newsShownFor === game.version) return;
    newsShownFor = game.version;
    const v = view();
    const card = v.news_card || {};
    const moves = legal().filter((m) => m.type !== "leave");
    const body = [];
    const give = moves.filter((m) => m.type === "give");
    const decline = moves.find((m) => m.type === "news");
    if (step() === "clean_slate") {
      body.push(h("p", {}, "Clean Slate: choose the player whose Permanent cards are all discarded (it can be you)."));
      body.push(h("div", { class: "choice-list" }, moves.filter((m) => m.type === "clean_slate").map((m) => h("button", {
        type: "button", class: "button choice", dataset: { cleanSeat: String(m.seat) },
        onclick: () => sendNews(m),
      }, chip(m.seat), ` ${whoName(m.seat)}: ${seatRow(m.seat).permanents.map((k) => NEWS_CARDS[k].title).join(", ")}`))));
    } else if (card.type === "permanent") {
      body.push(h("p", {}, "A Permanent card: give it to a player (you may keep it yourself). It stays face up in front of them and changes their sway in some hexes."));
      const bySeat = new Map();
      for (const m of give) { if (!bySeat.has(m.seat)) bySeat.set(m.seat, []); bySeat.get(m.seat).push(m); }
      body.push(h("div", { class: "choice-list" }, [...bySeat.entries()].map(([seat, ms]) => {
        if (ms.length === 1 && !ms[0].discard) {
          return h("button", { type: "button", class: "button choice", dataset: { giveSeat: String(seat) }, onclick: () => sendNews(ms[0]) },
            chip(seat), ` Give to ${whoName(seat)}`);
        }
        return h("div", { class: "choice-group", dataset: { giveGroup: String(seat) } },
          h("p", {}, chip(seat), ` ${whoName(seat)} already holds 2 Permanent cards. Give it to them and discard:`),
          ms.map((m) => h("button", { type: "button", class: "button choice", dataset: { giveSeat: String(seat), discard: m.discard }, onclick: () => sendNews(m) },
            `${NEWS_CARDS[m.discard].title} (${NEWS_CARDS[m.discard].text})`)));
      })));
    } else {
      const pays = moves.filter((m) => m.type === "pay");
      const swaps = moves.filter((m) => m.type === "urbanise");
      if (pays.length) {
        body.push(h("p", {}, "Pay with a budget card at least as high as the cost (it goes face up onto the discard pile), or leave the card."));
        body.push(h("div", { class: "choice-list pay-list" }, pays.map((m) => h("button", {
          type: "button", class: "button choice pay-choice", dataset: { pay: String(m.card) }, onclick: () => sendNews(m),
        }, `Pay ${m.card}`))));
      } else if (swaps.length) {
        body.push(h("p", {}, "Swap the vote counters of a Rural hex and the City of its constituency, or leave the card."));
        body.push(h("div", { class: "choice-list" }, swaps.map((m) => {
          const rural = hexIndex.get(hexKey(...m.rural));
          const city = hexIndex.get(hexKey(...m.city));
          return h("button", {
            type: "button", class: "button choice", dataset: { urbanise: `${hexKey(...m.rural)}|${hexKey(...m.city)}` },
            onclick: () => sendNews(m),
          }, `${rural.constituency}: Rural (${m.rural.join(",")}) `, chip(rural.owner), ` with the City `, chip(city.owner));
        })));
      } else if (card.kind === "urbanisation") {
        body.push(h("p", {}, "No constituency has a Rural hex and a City with counters of different players: there is nothing to swap. Leave the card."));
      } else {
        body.push(h("p", {}, "You cannot use this card now: nobody holds a Permanent card, no Gerrymander Hex can go anywhere, or you hold no budget card high enough to pay. Leave it: it goes to the bottom of the news pile."));
      }
    }
    const buttons = [];
    if (decline) buttons.push(h("button", { type: "button", class: "button", id: "news-decline", onclick: () => sendNews(decline) }, "Leave the card (to the bottom of the news pile)"));
    fill(newsDialog, 
      h("h2", { id: "news-dialog-title" }, `News: ${card.title || ""}`),
      h("div", { class: `news-face news-${card.type}` }, h("p", { class: "news-type" }, card.type === "permanent" ? "Permanent" : "Action"),
        h("p", { class: "news-title" }, card.title || ""), h("p", { class: "news-text" }, card.text || "")),
      ...body,
      h("div", { class: "dialog-buttons" }, ...buttons,
        h("form", { method: "dialog" }, h("button", { class: "button button-quiet", value: "later", id: "news-later" }, "Look at the map first"))));
    if (!newsDialog.open) {
      newsDialog.returnValue = "";
      if (typeof newsDialog.showModal === "function") newsDialog.showModal(); else newsDialog.setAttribute("open", "");
    }
  }
  function sendNews(move) {
    newsDismissed = null;
    if (newsDialog.open) newsDialog.close("sent");
    page.send(move);
  }

  // ---------------------------------------------------------------- gerrymandering
  function renderGerry() {
    const on = mode() === "gerrymander";
    gerryTools.hidden = !on;
    if (!on) { gerryColour = null; return; }
    const colours = gerryColoursLegal();
    if (!colours.includes(gerryColour)) gerryColour = colours.length === 1 ? colours[0] : null;
    const count = legalHexes().size;
    gerryText.textContent = gerryColour
      ? `Put the ${gerryColour} Gerrymander Hex on a marked Rural hex (${plural(count, "place is", "places are")} allowed). It moves that hex, with its counter, into the ${gerryColour} constituency it touches.`
      : "Choose the colour of the Gerrymander Hex to place.";
    fill(gerryColours, ...colours.map((c) => h("button", {
      type: "button", class: `button gerry-colour gerry-${c}${c === gerryColour ? " picked" : ""}`,
      dataset: { gerryColour: c }, "aria-pressed": c === gerryColour ? "true" : "false",
      onclick: () => { gerryColour = c; gerryMessage = { text: "", code: "" }; renderGerry(); draw(); },
    }, h("span", { class: `swatch const-${c}`, "aria-hidden": "true" }), ` ${c} (${(view().gerrymander_left || {})[c] ?? 0} left)`)));
    gerryColours.hidden = colours.length <= 1;
    gerryMsg.textContent = gerryMessage.text;
    gerryMsg.dataset.code = gerryMessage.code || "";
  }

  // ---------------------------------------------------------------- the campaign and the reveal
  function busHex() {
    const bus = view().bus;
    return bus ? hexIndex.get(hexKey(...bus)) : null;
  }
  function whoName(seat) { return seat === mySeat() ? "you" : page.seatName(seat); }
  function chip(seat, label = null) {
    if (seat === null || seat === undefined) return h("span", { class: "fptp-chip none" }, label ?? "nobody");
    const row = seatRow(seat);
    return h("span", { class: "fptp-chip", dataset: { seat: String(seat) } }, counterIcon(row), label ?? row.colour);
  }

  function renderCampaign() {
    const v = view();
    const hex = busHex();
    const show = step() === "bid" && !!hex && !v.is_over;
    campaignCard.hidden = !show;
    if (!show) return;
    const n = v.players || 0;
    const rows = [];
    for (let s = 0; s < n; s += 1) {
      const row = seatRow(s);
      if (row.left) continue;
      const [bonus, parts] = bonusAt(row.permanents, hex);
      const rec = v.recampaign && v.recampaign.holder === s ? v.recampaign.bonus : 0;
      const done = !!row.committed;
      const waiting = (v.to_move || []).includes(s);
      const words = done ? "has chosen a card" : (waiting ? "is choosing..." : "has no cards");
      rows.push(h("li", { dataset: { committedSeat: String(s), committed: done ? "true" : "false" }, class: done ? "done" : "" },
        chip(s, s === mySeat() ? "You" : page.seatName(s)), ` ${words}`,
        bonus || rec ? h("span", { class: "bonus" }, ` (${[...parts.map(([k, x]) => `${NEWS_CARDS[k].title} ${signed(x)}`), rec ? `${v.recampaign.kind === "floods" ? "Floods" : "Riots"} holder +${rec}` : null].filter(Boolean).join(", ")} here)`) : null));
    }
    fill(campaignCard, 
      h("h2", { id: "campaign-heading" }, `Campaign, turn ${v.turn}`),
      h("p", { id: "campaign-hex" }, "The battle bus is on the ", h("strong", {}, hexWords(hex, false)), v.recampaign ? ` (campaigning again: ${page.seatName(v.recampaign.holder)} holds it)` : "", "."),
      h("ul", { class: "committed-list" }, rows));
  }

  function renderReveal() {
    const v = view();
    const rev = v.last_reveal;
    revealCard.hidden = !rev;
    if (!rev) return;
    const hex = hexIndex.get(hexKey(...rev.hex));
    const n = v.players || 0;
    const order = [];
    for (let k = 0; k < n; k += 1) order.push((rev.active + k) % n);
    const rows = order.filter((s) => rev.bids[s] !== null && rev.bids[s] !== undefined).map((s) => {
      const bonus = rev.bonus[s] || 0;
      return h("tr", { dataset: { revealSeat: String(s), bid: String(rev.bids[s]), bonus: String(bonus), sway: String(rev.sways[s]) }, class: s === rev.winner ? "winner-row" : "" },
        h("th", { scope: "row" }, chip(s, s === mySeat() ? "You" : page.seatName(s))),
        h("td", {}, String(rev.bids[s])), h("td", {}, bonus ? signed(bonus) : "-"), h("td", { class: "sway" }, String(rev.sways[s])));
    });
    const top = rev.winner === null ? null : rev.sways[rev.winner];
    const tied = (rev.ranking || []).filter((s) => rev.sways[s] === top);
    let why = "";
    if (tied.length > 1) why = rev.winner === rev.active ? " The tie goes to the active player." : " A tie: a draw-off decided.";
    fill(revealCard, 
      h("h2", { id: "reveal-heading" }, `Cards revealed (turn ${rev.turn})`),
      h("p", {}, hex ? hexWords({ ...hex, constituency: rev.constituency }, false) : ""),
      rows.length ? h("div", { class: "table-scroll" }, h("table", { class: "reveal-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Card"), h("th", {}, "Bonus"), h("th", {}, "Sway"))),
        h("tbody", {}, rows))) : h("p", {}, "Nobody could campaign: the hex stays empty."),
      rev.winner === null ? null : h("p", { id: "reveal-winner", dataset: { seat: String(rev.winner) } }, chip(rev.winner, rev.winner === mySeat() ? "You" : page.seatName(rev.winner)), ` ${rev.winner === mySeat() ? "win" : "wins"} the hex with sway ${top}.${why}`),
      (rev.drawoff || []).length ? h("div", {}, h("p", {}, "Draw-off (top cards of the budget pile):"),
        h("ol", { id: "reveal-drawoff" }, rev.drawoff.map((round) => h("li", {}, round.map(([s, c]) => `${page.seatName(s)} ${c}`).join(", "))))) : null,
      v.variant === "av" && (rev.ranking || []).length > 1
        ? h("p", { id: "reveal-stack" }, "Vote counter stack, top first: ", ...rev.ranking.flatMap((s, i) => [i ? ", " : "", chip(s)])) : null);
  }

  // ---------------------------------------------------------------- the end offer
  function renderEndVote() {
    const v = view();
    const on = step() === "end_vote" && !v.is_over;
    endVote.hidden = !on;
    if (!on) return;
    const agreed = (v.end_vote || {}).agreed || [];
    const mine = myMove();
    fill(endVote, 
      h("h2", { id: "end-heading" }, "End the game?"),
      h("p", {}, "No constituency can change hands any more (news cards aside). If everybody agrees, the game ends now and is counted; one \"Play on\" and it goes on."),
      agreed.length ? h("ul", { class: "agreed-list" }, agreed.map((s) => h("li", { dataset: { agreedSeat: String(s) } }, chip(s, page.seatName(s)), " agrees to end"))) : null,
      mine ? h("div", { class: "dialog-buttons" },
        h("button", { type: "button", id: "end-agree", class: "button button-primary", disabled: !canAct(), onclick: () => page.send({ type: "end", agree: true }) }, "End the game"),
        h("button", { type: "button", id: "end-refuse", class: "button", disabled: !canAct(), onclick: () => page.send({ type: "end", agree: false }) }, "Play on"))
        : h("p", { class: "fptp-help" }, `Waiting for ${joinNames((v.to_move || []).map((s) => page.seatName(s)))}.`));
  }

  // ---------------------------------------------------------------- standings, parties, piles
  function leaderWords(c) {
    if (c.leader !== null && c.leader !== undefined) return page.seatName(c.leader);
    if ((c.tied || []).length) return `tie: ${c.tied.map((s) => page.seatName(s)).join(" / ")}`;
    return "nobody yet";
  }
  function renderStandings() {
    const v = view();
    const over = !!v.is_over;
    const system = over ? (showing || v.variant) : v.variant;
    const rows = (v.constituencies || []).map((c, k) => {
      const winner = over ? winnerUnder(system, k) : c.leader;
      const votes = (c.votes || []).map((n, s) => (n ? [s, n] : null)).filter(Boolean);
      return h("tr", {
        dataset: { constituency: c.name, leader: winner === null || winner === undefined ? ((c.tied || []).length && !over ? "tied" : "none") : String(winner), decided: c.decided ? "true" : "false" },
        class: winner === mySeat() && winner !== null ? "mine" : "",
      },
      h("th", { scope: "row" }, h("span", { class: `swatch const-${c.colour}`, "aria-hidden": "true" }), ` ${c.name}`, h("small", { class: "nation" }, ` ${c.nation}`)),
      h("td", { class: "votes" }, votes.length ? votes.map(([s, n]) => h("span", { class: "vote" }, counterIcon(seatRow(s), null, 14), String(n))) : "-"),
      h("td", {}, String(c.unclaimed)),
      h("td", { class: "leader" }, winner === null || winner === undefined ? (over ? "nobody" : leaderWords(c)) : chip(winner, page.seatName(winner)),
        !over && c.decided && c.unclaimed ? h("span", { class: "tag tag-ready" }, "safe") : null));
    });
    fill(standings, 
      h("h2", { id: "standings-heading" }, over ? `Constituencies (${SYSTEM_NAMES[system]})` : `Who leads each constituency (${SYSTEM_NAMES[v.variant] || ""})`),
      h("div", { class: "table-scroll" }, h("table", { class: "standings-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "Constituency"), h("th", {}, "Counters"), h("th", { title: "Hexes without a counter" }, "Empty"), h("th", {}, over ? "Winner" : "Leader"))),
        h("tbody", {}, rows))));
  }

  function renderParties() {
    const v = view();
    const items = (v.seats || []).map((row) => {
      const s = row.seat;
      const perms = (row.permanents || []).map((k) => h("li", { class: "perm", dataset: { perm: k } },
        h("strong", {}, NEWS_CARDS[k] ? NEWS_CARDS[k].title : k), " ", NEWS_CARDS[k] ? NEWS_CARDS[k].text : ""));
      return h("li", { dataset: { partySeat: String(s), left: row.left ? "true" : "false" }, class: `party-row${row.left ? " left" : ""}` },
        h("p", { class: "party-line" }, chip(s, `${row.colour}: ${s === mySeat() ? "you" : page.seatName(s)}`),
          row.left ? h("span", { class: "tag" }, "left the game") : null,
          row.committed ? h("span", { class: "tag tag-ready" }, step() === "end_vote" ? "has answered" : "has chosen a card") : null),
        h("p", { class: "party-figures" }, `${plural(row.constituencies, "constituency", "constituencies")}${v.is_over ? "" : " leading"}, ${plural(row.hexes, "hex", "hexes")} won, ${plural(row.hand_size, "card", "cards")} in hand`),
        perms.length ? h("ul", { class: "perm-list", "aria-label": "Permanent news cards" }, perms) : null);
    });
    fill(parties, h("h2", { id: "parties-heading" }, "Parties"), h("ul", { class: "party-list" }, items));
    fill(legendShapes, ...(v.seats || []).map((row) => h("span", { class: "legend-counter" }, counterIcon(row), ` ${row.colour}`)));
  }

  function renderPiles() {
    const v = view();
    const discard = v.budget_discard || [];
    const left = v.gerrymander_left || {};
    const bottom = (v.news_pile_bottom || []).map((k) => NEWS_CARDS[k] ? NEWS_CARDS[k].title : k);
    fill(piles, 
      h("h2", { id: "piles-heading" }, "On the table"),
      h("p", { id: "budget-pile" }, `Budget draw pile: ${plural(v.budget_pile ?? 0, "card", "cards")} (face down).`),
      h("p", { id: "budget-discard" }, `Discard pile (face up): ${discard.length ? discard.slice(-12).reverse().join(", ") + (discard.length > 12 ? ", ..." : "") : "empty"}.`),
      v.news ? h("p", { id: "news-pile" }, `News pile: ${plural(v.news_pile ?? 0, "card", "cards")}${bottom.length ? `; known at the bottom: ${bottom.join(", ")}` : ""}.`)
        : h("p", { id: "news-pile" }, "No news cards in this game."),
      h("p", { class: "gerry-left" }, "Gerrymander Hexes left: ", ...Object.keys(CONSTITUENCY_COLOURS).map((c) => h("span", { class: "gerry-left-item", dataset: { gerryLeft: c } },
        h("span", { class: `swatch const-${c}`, "aria-hidden": "true" }), ` ${c} ${left[c] ?? 0} `))));
    leaveCard.hidden = !(mySeat() !== null && mySeat() !== undefined && !v.is_over && page.game.status === "active" && !seatRow(mySeat()).left);
  }

  // ---------------------------------------------------------------- the end
  function winnerUnder(system, k) {
    const fin = view().final;
    if (!fin || !fin[system]) return null;
    const row = fin[system].constituencies[k];
    return row ? row.winner : null;
  }

  function finalDetail(game) {
    const v = game.view || {};
    const r = v.result || {};
    const fin = v.final || {};
    if (!fin.fptp || !fin.av) return null;
    const n = v.players || 0;
    const winners = (system) => (system === v.variant ? r.winners : (r.other_system || {}).winners) || [];
    const totals = h("table", { class: "final-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Party"), h("th", { scope: "col" }, SYSTEM_NAMES.fptp), h("th", { scope: "col" }, SYSTEM_NAMES.av))),
      h("tbody", {}, Array.from({ length: n }, (_, s) => h("tr", { dataset: { finalSeat: String(s) } },
        h("th", { scope: "row" }, chip(s, page.seatName(s))),
        h("td", { dataset: { system: "fptp" } }, String(fin.fptp.per_seat[s])),
        h("td", { dataset: { system: "av" } }, String(fin.av.per_seat[s]))))));
    const line = (system) => {
      const ws = winners(system);
      const played = system === v.variant;
      const who = ws.length ? joinNames(ws.map((s) => page.seatName(s))) : "nobody";
      return h("p", { id: `final-${system}`, class: `final-line${played ? " played" : ""}`, dataset: { winners: ws.join(",") } },
        h("strong", {}, `${SYSTEM_NAMES[system]}${played ? " (this game)" : " (the same campaign)"}: `),
        played ? `${who} ${ws.length > 1 ? "share the win" : "wins"}.` : `${who} would ${ws.length > 1 ? "share the win" : "win"}.`);
    };
    const consts = (v.constituencies || []).map((c, k) => {
      const a = winnerUnder("fptp", k);
      const b = winnerUnder("av", k);
      return h("tr", { dataset: { finalConstituency: c.name, fptp: a === null ? "" : String(a), av: b === null ? "" : String(b), differs: a !== b ? "true" : "false" }, class: a !== b ? "differs" : "" },
        h("th", { scope: "row" }, h("span", { class: `swatch const-${c.colour}`, "aria-hidden": "true" }), ` ${c.name}`),
        h("td", {}, a === null ? "nobody" : chip(a)), h("td", {}, b === null ? "nobody" : chip(b)));
    });
    const differ = consts.filter((tr) => tr.dataset.differs === "true").length;
    const toggle = h("div", { class: "show-system", role: "group", "aria-label": "Show on the map the winners under" },
      ...["fptp", "av"].map((system) => h("button", {
        type: "button", class: `button button-small${(showing || v.variant) === system ? " picked" : ""}`,
        dataset: { showSystem: system }, "aria-pressed": (showing || v.variant) === system ? "true" : "false",
        onclick: () => { showing = system; page.render(); },
      }, `Map: ${SYSTEM_NAMES[system]}`)));
    const rounds = h("details", { id: "av-rounds", class: "av-rounds", open: v.variant === "av" ? true : null },
      h("summary", {}, "Alternative Vote, constituency by constituency"),
      h("p", { class: "fptp-help" }, "Each hex's stack of counters is its voters' ranking. Round by round, the party with the fewest votes is taken out and its hexes count for the next counter down, until a party has more than half (or half with the City)."),
      ...(fin.av.constituencies || []).map((c) => h("div", { class: "av-constituency", dataset: { avConstituency: c.name } },
        h("h4", {}, `${c.name}: `, c.winner === null ? "nobody" : chip(c.winner, page.seatName(c.winner))),
        h("ol", {}, (c.rounds || []).map((round, i) => h("li", { dataset: { round: String(i + 1) } },
          (round.votes || []).map((x, s) => (x ? `${seatRow(s).colour} ${x}` : null)).filter(Boolean).join(", ") || "no votes",
          round.eliminated !== null && round.eliminated !== undefined ? ` - ${seatRow(round.eliminated).colour} out` : (c.winner !== null ? ` - ${seatRow(c.winner).colour} wins` : "")))))));
    return h("div", { id: "fptp-final", class: "fptp-final" },
      h("h3", {}, "One campaign, two voting systems"),
      line(v.variant), line(v.variant === "fptp" ? "av" : "fptp"),
      h("div", { class: "table-scroll" }, totals),
      h("p", { class: "fptp-help" }, differ ? `${plural(differ, "constituency", "constituencies")} would go to another party under the other system.` : "Every constituency goes to the same party under both systems."),
      toggle,
      h("div", { class: "table-scroll" }, h("table", { class: "final-table final-constituencies" },
        h("thead", {}, h("tr", {}, h("th", {}, "Constituency"), h("th", {}, SYSTEM_NAMES.fptp), h("th", {}, SYSTEM_NAMES.av))),
        h("tbody", {}, consts))),
      rounds);
  }

  // ---------------------------------------------------------------- drawing the map
  function draw() {
    const v = view();
    const hexes = v.hexes || [];
    hexIndex = new Map(hexes.map((x) => [hexKey(x.q, x.r), x]));
    const hadFocus = svgRoot.contains(document.activeElement);
    const m = mode();
    const legalSet = legalHexes();
    const over = !!v.is_over;
    const system = over ? (showing || v.variant) : null;
    svgRoot.dataset.step = step();
    svgRoot.dataset.mode = m && canAct() ? m : "";
    svgRoot.dataset.showing = system || "";

    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (const x of hexes) {
      const c = hexCenter(x.q, x.r);
      minX = Math.min(minX, c.x - SIZE); maxX = Math.max(maxX, c.x + SIZE);
      minY = Math.min(minY, c.y - SIZE); maxY = Math.max(maxY, c.y + SIZE);
    }
    if (!hexes.length) { minX = -100; minY = -100; maxX = 100; maxY = 100; }
    const pad = 10;
    svgRoot.setAttribute("viewBox", [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad].map(r2).join(" "));
    svgRoot.replaceChildren();

    // which constituency each hex shows as won at the end (under the system shown)
    const constIndex = new Map((v.constituencies || []).map((c, k) => [c.name, k]));
    const gHexes = el("g", { class: "hexes" }, svgRoot);
    const gLines = el("g", { class: "lines", "aria-hidden": "true" }, svgRoot);
    const gMarks = el("g", { class: "marks" }, svgRoot);
    // the battle bus stands on its hex while the cards are chosen
    const bus = v.bus && step() === "bid" ? hexKey(...v.bus) : null;
    const recampaign = v.news_card && (v.news_card.kind === "floods" || v.news_card.kind === "riots") && step() === "campaign";

    for (const x of hexes) {
      const key = hexKey(x.q, x.r);
      const c = hexCenter(x.q, x.r);
      const isLegal = legalSet.has(key);
      const classes = ["fptp-hex", `type-${x.type}`];
      if (isLegal) classes.push("legal");
      if (isLegal && recampaign && x.owner !== null) classes.push("recampaign");
      if (key === armedKey) classes.push("armed");
      if (key === bus) classes.push("bus-hex");
      if (key === refusedKey && gerryMessage.code && gerryMessage.code !== "sent") classes.push("refused");
      if (lessonMarks.packed.has(key)) classes.push("lesson-packed");
      if (lessonMarks.cracked.has(key)) classes.push("lesson-cracked");
      if (m === "gerrymander" && x.type !== "rural") classes.push("dim");
      const g = el("g", {
        class: classes.join(" "), "data-hex": key, "data-type": x.type, "data-constituency": x.constituency,
        "data-nation": x.nation, "data-colour": x.colour, "data-owner": x.owner === null ? "" : x.owner,
        "data-stack": (x.stack || []).join(","), "data-gerrymandered": x.gerrymandered || null,
        "data-legal": m ? (isLegal ? "true" : "false") : null, "data-bus": key === bus ? "true" : null,
        tabindex: "-1", role: "button", "aria-label": hexWords(x),
      }, gHexes);
      let fill = (CONSTITUENCY_COLOURS[x.colour] || CONSTITUENCY_COLOURS.grey).fill;
      if (system) {
        const w = winnerUnder(system, constIndex.get(x.constituency));
        if (w !== null && w !== undefined) fill = styleOf(w).tint;
      }
      el("polygon", { class: "hex", points: points(corners(c.x, c.y, SIZE)), fill }, g);
      if (x.gerrymandered) {
        el("polygon", { class: `gerry-ring gerry-${x.gerrymandered}`, points: points(corners(c.x, c.y, SIZE * 0.8)) }, g);
      }
      symbol(g, x.type, c.x, c.y - 11);
      const stack = x.stack || [];
      if (stack.length) {
        const top = stack[0];
        const row = seatRow(top);
        const st = styleOf(top);
        const shape = drawShape(g, row.shape, c.x, c.y + 9, 8.5, { class: "counter", fill: st.color, "data-counter": key, "data-seat": top, "data-shape": row.shape });
        shape.setAttribute("stroke", "#ffffff");
        if (v.variant === "av" || over) {
          stack.slice(1, 5).forEach((s, i) => {
            drawShape(g, seatRow(s).shape, c.x + 17, c.y - 5 + i * 7.5, 3, { class: "stack-counter", fill: styleOf(s).color });
          });
        }
      }
      el("polygon", { class: "hex-outline", points: points(corners(c.x, c.y, SIZE - 1.5)) }, g);
      el("title", {}, g).textContent = hexWords(x);
    }

    // borders: constituencies, nations, the coast
    for (const x of hexes) {
      for (let d = 0; d < 6; d += 1) {
        const nq = x.q + DIRECTIONS[d][0];
        const nr = x.r + DIRECTIONS[d][1];
        const other = hexIndex.get(hexKey(nq, nr));
        if (other && (d >= 3)) continue; // each inner edge once
        const s = sharedEdge(x.q, x.r, d);
        let cls = null;
        if (!other) cls = "coast-line";
        else if (other.nation !== x.nation) cls = "nation-line";
        else if (other.constituency !== x.constituency) cls = "const-line";
        if (cls) el("line", { class: cls, x1: r2(s.x1), y1: r2(s.y1), x2: r2(s.x2), y2: r2(s.y2) }, gLines);
      }
    }

    // constituency marks on their Cities: who leads (or won, at the end)
    (v.constituencies || []).forEach((c, k) => {
      if (!c.city) return;
      const p = hexCenter(c.city[0], c.city[1]);
      const cx = p.x + SIZE * 0.52;
      const cy = p.y - SIZE * 0.55;
      const winner = system ? winnerUnder(system, k) : c.leader;
      const tied = !system && (winner === null || winner === undefined) && (c.tied || []).length > 0;
      const decided = system ? true : !!c.decided;
      const g = el("g", {
        class: `const-mark${decided ? " decided" : ""}`, "data-const-mark": c.name,
        "data-leader": winner === null || winner === undefined ? (tied ? "tied" : "none") : winner,
        "data-decided": decided ? "true" : "false", role: "img",
      }, gMarks);
      el("circle", { class: "mark-bg", cx: r2(cx), cy: r2(cy), r: 8 }, g);
      if (winner !== null && winner !== undefined) {
        drawShape(g, seatRow(winner).shape, cx, cy, 4.2, { class: "mark-shape", fill: styleOf(winner).color });
      } else {
        el("text", { class: "mark-text", x: r2(cx), y: r2(cy + 0.5), "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = tied ? "=" : "?";
      }
      const words = system
        ? `${c.name}: won by ${winner === null || winner === undefined ? "nobody" : seatRow(winner).colour} under ${SYSTEM_NAMES[system]}`
        : `${c.name}: ${winner === null || winner === undefined ? (tied ? "tied" : "nobody leads") : `${seatRow(winner).colour} leads`}${decided ? " (can no longer change)" : ""}`;
      g.setAttribute("aria-label", words);
      el("title", {}, g).textContent = words;
    });

    if (bus && hexIndex.has(bus) && step() === "bid") {
      const p = hexCenter(...parseKey(bus));
      drawBus(gMarks, p.x, p.y - SIZE * 0.62, true);
    }

    // keyboard focus: keep the focused hex, else a legal one, else the first
    let keep = focusKey && hexIndex.has(focusKey) ? focusKey : null;
    if (!keep) keep = [...legalSet][0] || (hexes[0] ? hexKey(hexes[0].q, hexes[0].r) : null);
    focusKey = null;
    if (keep) {
      setRoving(keep);
      if (hadFocus) svgRoot.querySelector(`[data-hex="${keep}"]`).focus({ preventScroll: true });
    }
  }

  // ---------------------------------------------------------------- the module interface
  return {
    render(game, status) {
      const v = view();
      if (!bidding()) picked = null;
      if (mode() !== "gerrymander" && gerryMessage.code) { gerryMessage = { text: "", code: "" }; refusedKey = null; }
      if (armedKey && !mode()) armedKey = null;
      if (v.is_over && !showing) showing = v.variant;
      renderGerry();
      draw();
      renderHand();
      renderNewsCard();
      renderCampaign();
      renderReveal();
      renderEndVote();
      renderStandings();
      renderParties();
      renderPiles();
      if (newsDecision() && game.status === "active") openNewsDialog();
      else if (newsDialog.open) newsDialog.close("gone");
      if (leaveDialog.open && (v.is_over || game.status !== "active")) leaveDialog.close("gone");
    },

    turnDetail(game, status) {
      const v = game.view || {};
      const me = status.mySeat;
      const who = (s) => (s === me ? "You" : page.seatName(s));
      let text = "";
      let extra = null;
      const s = v.step;
      if (s === "news" || s === "clean_slate") {
        text = v.active === me ? `Your news card: ${(v.news_card || {}).title}.` : `${who(v.active)} decides about the news card ${(v.news_card || {}).title}.`;
        if (v.active === me && myMove()) extra = h("button", { type: "button", id: "news-open", class: "button button-primary", onclick: () => openNewsDialog(true) }, "Decide about the news card");
      } else if (s === "gerrymander") {
        text = v.active === me ? "Place your Gerrymander Hex on a marked hex." : `${who(v.active)} places a Gerrymander Hex.`;
      } else if (s === "campaign") {
        text = v.active === me ? "Put the battle bus on a hex without a counter: click (or tap twice) a marked hex." : `${who(v.active)} chooses the hex to campaign for.`;
        if (v.news_card && v.active === me) text += ` ${(NEWS_CARDS[v.news_card.kind] || {}).title}: you may also campaign again for a won hex of that kind.`;
      } else if (s === "bid") {
        const chosen = (v.committed || []).length;
        const all = chosen + (v.to_move || []).length;
        text = (v.to_move || []).includes(me) ? "Choose a budget card for the hex under the battle bus." : "Waiting for the others to choose their cards.";
        extra = h("p", { class: "turn-sub", id: "bid-progress", dataset: { chosen: String(chosen), of: String(all) } }, `${chosen} of ${all} cards chosen`);
      } else if (s === "end_vote") {
        text = "No constituency can change hands any more: end the game?";
      }
      return h("div", { id: "fptp-turn", class: "fptp-turn", dataset: { step: s || "", turn: String(v.turn) } },
        h("p", { class: "fptp-turn-line" }, h("strong", {}, `Turn ${v.turn}`), ` - ${who(v.active)}${v.active === me ? " are" : " is"} the active player`),
        text ? h("p", { class: "fptp-task" }, text) : null, extra);
    },

    seatChip(seat, label, game) {
      const row = ((game.view || {}).seats || [])[seat];
      if (!row) return h("span", { class: "fptp-chip" }, label);
      return h("span", { class: "fptp-chip", dataset: { seat: String(seat) } }, counterIcon(row), label);
    },

    decidedBy(result, game) {
      const words = DECIDED_BY[result.decided_by] || "";
      const system = SYSTEM_NAMES[result.variant] || "";
      return words && system ? `${words} (${system})` : words;
    },

    onError(code, message) {
      if (mode() === "gerrymander") { gerryMessage = { text: message || "The Gerrymander Hex cannot go there.", code }; renderGerry(); draw(); return; }
      if (step() === "bid") { handMessage = { text: message || "That card cannot be played.", code }; renderHand(); }
    },

    showLesson(lesson) {
      const marks = { packed: new Set(), cracked: new Set() };
      for (const d of lesson.districts || []) {
        const keys = (d.cells || []).map(([q, r]) => hexKey(q, r));
        if (d.packed !== null && d.packed !== undefined) keys.forEach((k) => marks.packed.add(k));
        if ((d.cracked || []).length) keys.forEach((k) => marks.cracked.add(k));
      }
      lessonMarks = marks;
      legend.querySelectorAll(".legend-lesson").forEach((li) => { li.hidden = false; });
      page.render();
    },

    resultDetail(game) { return finalDetail(game); },
  };
}

function legendSymbol(type) {
  const node = el("svg", { class: "fptp-icon legend-sym", viewBox: "-14 -14 28 28", width: 22, height: 22, "aria-hidden": "true" });
  symbol(node, type, 0, 0);
  return node;
}

function legendBus() {
  const node = el("svg", { class: "fptp-icon legend-sym", viewBox: "-15 -10 30 20", width: 28, height: 18, "aria-hidden": "true" });
  drawBus(node, 0, 0);
  return node;
}

function addStyles() {
  if (document.querySelector("link[data-board-css='fptp']")) return;
  const href = new URL(STYLE_REF.slice(8, -2), import.meta.url).href;
  document.head.append(h("link", { rel: "stylesheet", href, dataset: { boardCss: "fptp" } }));
}
