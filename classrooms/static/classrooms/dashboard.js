// Live dashboard: one row per table, pushed by /ws/assignments/<id>/.
import { csrfToken, el, liveSocket } from "./live.js";

const table = document.getElementById("dashboard");
const tbody = table.querySelector("tbody");
const students = JSON.parse(document.getElementById("students-data").textContent);
const statusEl = document.getElementById("live-status");

function since(iso) {
  if (!iso) return "no move yet";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h`;
}

async function post(url, data) {
  const body = new URLSearchParams(data);
  const res = await fetch(url, {
    method: "POST", body, credentials: "same-origin",
    headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
  });
  const out = await res.json().catch(() => ({ ok: false, message: "Request failed." }));
  statusEl.textContent = out.message || "";
}

function seatControls(row, p) {
  if (row.finished) return null;
  const url = table.dataset.seatUrl;
  if (!p.is_bot && !p.open) {
    return el("button", { class: "button button-small", type: "button", "data-action": "to-bot",
      onclick: () => post(url, { table_id: row.table_id, index: p.index, action: "bot" }) }, "→ bot");
  }
  const benched = students.find((s) => s.id === p.benched_user_id);
  const select = el("select", { "aria-label": `Give seat ${p.index + 1} to a student` },
    el("option", { value: "" }, "give to…"),
    students.map((s) => el("option", { value: s.id }, s.name)));
  select.addEventListener("change", () => select.value &&
    post(url, { table_id: row.table_id, index: p.index, action: "student", student_id: select.value }));
  return el("span", {},
    benched ? el("button", { class: "button button-small", type: "button", "data-action": "back",
      onclick: () => post(url, { table_id: row.table_id, index: p.index, action: "student", student_id: benched.id }) },
      `back to ${benched.name}`) : null, " ", select);
}

function rowNode(row) {
  const players = row.players.map((p) =>
    el("div", { class: p.to_move ? "to-move" : null, "data-seat": p.index },
      el("span", { title: p.summary.map((i) => `${i.label}: ${i.value}`).join(", ") },
        [p.name, ...p.summary.map((i) => String(i.value))].join(" · ")),
      " ", seatControls(row, p)));
  let state = row.status_label;
  if (row.finished && row.winners.length) state = `Finished: ${row.winners.join(" & ")} won${row.decided_by ? ` (${row.decided_by})` : ""}`;
  return el("tr", { dataset: { tableId: row.table_id, gameId: row.game_id, status: row.status, version: row.version } },
    el("td", {}, row.table),
    el("td", { "data-role": "players" }, players),
    el("td", { "data-role": "turn" }, row.to_move.join(", ")),
    el("td", { "data-role": "since", "data-last-move": row.last_move_at || "" }, row.finished ? "" : since(row.last_move_at)),
    el("td", { "data-role": "state" }, state),
    el("td", {}, el("a", { href: row.url, target: "_blank", rel: "noopener" }, "Watch")));
}

function upsert(row) {
  const old = tbody.querySelector(`tr[data-table-id="${row.table_id}"]`);
  if (old && Number(old.dataset.version) > row.version) return;  // an older event arrived late
  const node = rowNode(row);
  if (old) old.replaceWith(node); else tbody.append(node);
}

function setPaused(paused) {
  const form = document.getElementById("pause-form");
  const button = form.querySelector("button");
  button.value = paused ? "0" : "1";
  button.id = paused ? "resume-all" : "pause-all";
  button.textContent = paused ? "Resume all games" : "Pause all games (eyes on me)";
  form.querySelector(".pause-message").hidden = paused;
}

document.getElementById("pause-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const button = e.target.querySelector("button");
  post(e.target.action, { paused: button.value, message: e.target.querySelector("#pause-message").value });
});
document.getElementById("move-form").addEventListener("submit", (e) => {
  e.preventDefault();
  post(e.target.action, Object.fromEntries(new FormData(e.target)));
});

for (const row of JSON.parse(document.getElementById("rows-data").textContent)) upsert(row);
liveSocket(table.dataset.wsPath, (msg) => {
  if (msg.type === "rows") { tbody.replaceChildren(); msg.rows.forEach(upsert); setPaused(msg.paused); }
  else if (msg.type === "row") upsert(msg.row);
  else if (msg.type === "paused") setPaused(msg.paused);
}, (s, message) => { table.dataset.live = s; if (message) statusEl.textContent = message; });

setInterval(() => {
  for (const td of tbody.querySelectorAll('td[data-role="since"]')) {
    if (td.closest("tr").dataset.status !== "finished") td.textContent = since(td.dataset.lastMove);
  }
}, 1000);
