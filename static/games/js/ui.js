// Small DOM helpers shared by the game page shell and the board modules.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** h("div", {class, text, dataset, onclick, ...attrs}, ...children): an HTML element.
 *  Styles are set through the CSSOM (a `style` object), never as an attribute string, so
 *  the page works under a Content-Security-Policy without 'unsafe-inline'. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** svg("rect", {...attrs}, parent): an SVG element, appended to parent when given. */
export function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  setAttrs(node, attrs);
  if (parent) parent.appendChild(node);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "text") node.textContent = v;
    else if (k === "style" && typeof v === "object") {
      for (const [prop, value] of Object.entries(v)) node.style.setProperty(prop, value);
    } else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

export function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

/** "Ana, Ben and Cy" */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function fmt(n) { return Math.round(n * 100) / 100; }

/** A board's "How to play" panel: one list item per rule, in the rulebook's order. */
export function howToPlay(lines, id = "how-to-play") {
  return h("details", { class: "help", id },
    h("summary", {}, "How to play"),
    h("ul", {}, ...lines.map((line) => h("li", {}, line))));
}
