// Live dashboard: one row per table, pushed by /ws/assignments/<id>/, and the room (who is
// seated, online, idle or offline; stalled tables; a summary line), sent again every few
// seconds.  Test hooks: see the comment at the top of templates/classrooms/dashboard.html.
import { csrfToken, el, liveSocket } from "./live.js";

const table = document.getElementById("dashboard");
const tbody = table.querySelector("tbody");
const students = JSON.parse(document.getElementById("students-data").textContent);
const statusEl = document.getElementById("live-status");
const roomEl = document.getElementById("room");
const roomList = document.getElementById("room-students");
const summaryEl = document.getElementById("room-summary");
const seatAll = document.getElementById("seat-all");
let presence = {};  // user id -> "online" | "idle" | "offline"
let socket = null;

function since(iso) {
  if (!iso) return "no move yet";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h`;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

async function post(url, data) {
  const body = new URLSearchParams(data);
  const res = await fetch(url, {
    method: "POST", body, credentials: "same-origin",
    headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
  });
  const out = await res.json().catch(() => ({ ok: false, message: "Request failed." }));
  statusEl.textContent = out.message || "";
  askRoom();
  return out;
}

function askRoom() {
  if (socket) socket.send({ type: "room" });
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

function progressCell(row) {
  if (row.progress === null || row.progress === undefined) return el("td", { "data-role": "progress" }, "");
  const pct = Math.round(row.progress * 100);
  return el("td", { "data-role": "progress" },
    el("progress", { max: "100", value: String(pct), "data-role": "bar", "aria-label": `Table ${row.table}: ${pct}% done` }),
    ` ${pct}%`);
}

function isStalled(tr) {
  if (tr.dataset.status !== "active" || !tr.dataset.since) return false;
  return (Date.now() - Date.parse(tr.dataset.since)) / 1000 > Number(tr.dataset.stallAfter || 180);
}

function sinceText(tr) {
  if (tr.dataset.status === "finished") return "";
  const text = since(tr.dataset.lastMove);
  return tr.dataset.stalled === "true" ? `${text} · stalled` : text;
}

function rowNode(row) {
  const players = row.players.map((p) =>
    el("div", { class: p.to_move ? "to-move" : null, "data-seat": p.index,
      "data-user-id": p.user_id || null, "data-presence": p.user_id ? (presence[p.user_id] || "offline") : null },
      el("span", { title: p.summary.map((i) => `${i.label}: ${i.value}`).join(", ") },
        [p.name, ...p.summary.map((i) => String(i.value))].join(" · ")),
      " ", seatControls(row, p)));
  let state = row.status_label;
  const how = row.decided_by ? ` (${row.decided_by})` : "";
  if (row.finished && row.winners.length) state = `Finished: ${row.winners.join(" & ")} won${how}`;
  else if (row.draw) state = `Finished, nobody won: ${row.decided_by || "a draw"}`;
  const tr = el("tr", { dataset: { tableId: row.table_id, gameId: row.game_id, status: row.status, version: row.version,
    since: row.since_at || "", lastMove: row.last_move_at || "", stallAfter: row.stall_after_s || 180 } },
    el("td", {}, row.table),
    el("td", { "data-role": "players" }, players),
    el("td", { "data-role": "turn" }, row.to_move.join(", ")),
    el("td", { "data-role": "since", "data-last-move": row.last_move_at || "" }, ""),
    progressCell(row),
    el("td", { "data-role": "state" }, state),
    el("td", {}, el("a", { href: row.url, target: "_blank", rel: "noopener" }, "Watch")));
  tr.dataset.stalled = String(isStalled(tr));
  tr.querySelector('td[data-role="since"]').textContent = sinceText(tr);
  return tr;
}

function upsert(row) {
  const old = tbody.querySelector(`tr[data-table-id="${row.table_id}"]`);
  if (old && Number(old.dataset.version) > row.version) return;  // an older event arrived late
  const node = rowNode(row);
  if (old) old.replaceWith(node); else tbody.append(node);
}

// --- the room ------------------------------------------------------------------------------
const STATUS_WORDS = { not_seated: "not seated", replaced: "replaced by a bot", playing: "playing",
  finished: "finished", closed: "not finished (closed)" };

function summaryWords(s) {
  return `${s.finished} of ${plural(s.tables, "table")} finished, ${s.stalled} stalled, `
    + `${plural(s.not_seated, "student")} not seated`
    + ` · ${s.online} online, ${s.idle} idle, ${s.offline} offline`;
}

function studentNode(s) {
  const where = s.table ? ` · table ${s.table}` : "";
  const seatable = s.status === "not_seated" || s.status === "replaced";
  const seen = s.last_active ? `last active ${new Date(s.last_active).toLocaleTimeString()}` : "not seen yet";
  return el("li", { class: "room-student", dataset: { studentId: s.id, status: s.status, presence: s.presence },
    title: `${s.label}: ${s.presence}, ${seen}` },
    el("span", { class: "presence-dot", "aria-hidden": "true" }),
    el("span", { class: "room-name" }, s.name),
    el("span", { class: "room-status" }, ` ${STATUS_WORDS[s.status] || s.status}${where} · ${s.presence}`),
    seatable ? el("button", { class: "button button-small", type: "button", "data-action": "seat", "data-student-id": s.id,
      onclick: (e) => { e.target.disabled = true; post(roomEl.dataset.seatStudentUrl, { student_id: s.id }); } },
      s.status === "replaced" ? "Seat again" : "Seat") : null);
}

function showRoom(room) {
  if (!room) return;
  presence = Object.fromEntries(room.students.map((s) => [s.id, s.presence]));
  summaryEl.textContent = summaryWords(room.summary);
  roomList.replaceChildren(...room.students.map(studentNode));
  seatAll.hidden = room.summary.not_seated < 2;
  for (const div of tbody.querySelectorAll("[data-user-id]")) {
    div.dataset.presence = presence[div.dataset.userId] || "offline";
  }
  for (const tr of tbody.querySelectorAll("tr[data-table-id]")) {
    tr.dataset.stalled = String(room.stalled.includes(Number(tr.dataset.tableId)) || isStalled(tr));
  }
  document.getElementById("closed-notice").hidden = !room.closed_at;
}

seatAll.addEventListener("click", () => { seatAll.disabled = true; post(roomEl.dataset.seatStudentUrl, { all: "1" }).finally(() => { seatAll.disabled = false; }); });

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

tbody.replaceChildren();
for (const row of JSON.parse(document.getElementById("rows-data").textContent)) upsert(row);
showRoom(JSON.parse(document.getElementById("room-data").textContent));
socket = liveSocket(table.dataset.wsPath, (msg) => {
  if (msg.type === "rows") { tbody.replaceChildren(); msg.rows.forEach(upsert); setPaused(msg.paused); showRoom(msg.room); }
  else if (msg.type === "row") upsert(msg.row);
  else if (msg.type === "paused") setPaused(msg.paused);
  else if (msg.type === "room") showRoom(msg.room);
}, (s, message) => { table.dataset.live = s; if (message) statusEl.textContent = message; });

setInterval(() => {
  for (const tr of tbody.querySelectorAll("tr[data-table-id]")) {
    if (tr.dataset.status === "active" && isStalled(tr)) tr.dataset.stalled = "true";
    tr.querySelector('td[data-role="since"]').textContent = sinceText(tr);
  }
}, 1000);
