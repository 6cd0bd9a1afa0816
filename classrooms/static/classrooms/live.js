// A reconnecting JSON socket for the classroom pages (dashboard, my games), on the game
// socket's URL, backoff and close-code rules.  On every (re)connect the server sends the full
// list first, so nothing is missed.
import { backoffDelay, FATAL_CLOSE_CODES, RESYNC_CLOSE_CODE, socketUrl } from "../games/js/socket.js";
import { h } from "../games/js/ui.js";

export function liveSocket(path, onMessage, onStatus = () => {}) {
  let attempt = 0;
  let current = null;
  const url = socketUrl(path);
  function connect() {
    onStatus("connecting");
    const ws = new WebSocket(url);
    current = ws;
    ws.onopen = () => onStatus("open");
    ws.onmessage = (e) => {
      attempt = 0; // reset on a frame, not on open: a server that accepts then drops backs off
      let data;
      try { data = JSON.parse(e.data); } catch { return; }
      onMessage(data);
    };
    ws.onclose = (e) => {
      if (e.code in FATAL_CLOSE_CODES) { onStatus("denied", FATAL_CLOSE_CODES[e.code]); return; }
      if (e.code === RESYNC_CLOSE_CODE) { connect(); return; }
      onStatus("reconnecting");
      setTimeout(connect, backoffDelay(attempt++));
    };
  }
  connect();
  // send(frame): a JSON frame on the socket now open (dropped while reconnecting: the full
  // list comes again on every connect)
  return { send(frame) { if (current && current.readyState === WebSocket.OPEN) current.send(JSON.stringify(frame)); } };
}

export const el = h;

export function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}
