// A reconnecting JSON socket for the classroom pages (dashboard, my games), on the game
// socket's URL, backoff and close-code rules.  On every (re)connect the server sends the full
// list first, so nothing is missed.
import { backoffDelay, FATAL_CLOSE_CODES, socketUrl } from "../games/js/socket.js";

export function liveSocket(path, onMessage, onStatus = () => {}) {
  let attempt = 0;
  const url = socketUrl(path);
  function connect() {
    onStatus("connecting");
    const ws = new WebSocket(url);
    ws.onopen = () => onStatus("open");
    ws.onmessage = (e) => {
      attempt = 0; // reset on a frame, not on open: a server that accepts then drops backs off
      let data;
      try { data = JSON.parse(e.data); } catch { return; }
      onMessage(data);
    };
    ws.onclose = (e) => {
      if (e.code in FATAL_CLOSE_CODES) { onStatus("denied"); return; }
      onStatus("reconnecting");
      setTimeout(connect, backoffDelay(attempt++));
    };
  }
  connect();
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}
