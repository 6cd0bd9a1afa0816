// A tiny reconnecting JSON socket for the classroom pages (dashboard, my games).
// On every (re)connect the server sends the full list first, so nothing is missed.
const FATAL = new Set([4401, 4403, 4404]);

export function liveSocket(path, onMessage, onStatus = () => {}) {
  let attempt = 0;
  let ws = null;
  const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
  function connect() {
    onStatus("connecting");
    ws = new WebSocket(url);
    ws.onopen = () => { attempt = 0; onStatus("open"); };
    ws.onmessage = (e) => {
      let data;
      try { data = JSON.parse(e.data); } catch { return; }
      onMessage(data);
    };
    ws.onclose = (e) => {
      if (FATAL.has(e.code)) { onStatus("denied"); return; }
      const base = Math.min(10000, 500 * 2 ** attempt++);
      onStatus("reconnecting");
      setTimeout(connect, base / 2 + Math.random() * base / 2);
    };
  }
  connect();
  return { send: (obj) => ws && ws.readyState === 1 && ws.send(JSON.stringify(obj)) };
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
