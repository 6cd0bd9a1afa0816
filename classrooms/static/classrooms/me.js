// "My games": rows pushed by /ws/me/ (new assignment, your turn, finished...).
import { el, liveSocket } from "./live.js";

const list = document.getElementById("my-games");
const empty = document.getElementById("my-games-empty");
const status = document.getElementById("me-status");

// Test hooks (stable): li[data-game-id][data-state] (state: your_turn | waiting | paused |
// finished | closed), [data-role=text], [data-role=due] (with data-due-at, the ISO due time).
function dueText(row) {
  if (!row.due_at || row.state === "finished") return "";
  const when = new Date(row.due_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  if (row.closed) return `closed at ${when}`;
  return `due ${when}${row.closes_at_due ? " (the game stops then)" : ""}`;
}

function rowNode(row) {
  const due = dueText(row);
  return el("li", { dataset: { gameId: row.game_id, state: row.state } },
    el("a", { href: row.url }, row.title), " ",
    el("span", { class: `status-pill ${row.state}`, "data-role": "text" }, row.text), " ",
    el("span", { class: "meta" }, (row.players || []).join(", ")),
    due ? el("span", { class: "meta due", "data-role": "due", "data-due-at": row.due_at }, ` · ${due}`) : null);
}

// Your turn stands out: the row is marked, and the tab says how many games wait for you.
const baseTitle = document.title;
function markTurns() {
  const mine = list.querySelectorAll('li[data-state="your_turn"]').length;
  document.title = mine ? `\u25CF Your turn (${mine}) - ${baseTitle}` : baseTitle;
}

function upsert(row) {
  const old = list.querySelector(`li[data-game-id="${row.game_id}"]`);
  if (row.removed) { if (old) old.remove(); }
  else if (old) old.replaceWith(rowNode(row));
  else list.prepend(rowNode(row));
  empty.hidden = list.children.length > 0;
}

liveSocket(list.dataset.wsPath, (msg) => {
  if (msg.type === "games") {
    list.replaceChildren(...msg.rows.map(rowNode));
    empty.hidden = msg.rows.length > 0;
  } else if (msg.type === "game") {
    upsert(msg.row);
  }
  markTurns();
}, (s, message) => {
  status.textContent = s === "open" ? "Live" : (message || s);
  if (message) status.classList.remove("visually-hidden");
  list.dataset.live = s;
});
