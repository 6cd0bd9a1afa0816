// The lesson after the game, drawn from a "lesson" frame (games/lessons.py): votes against
// seats, wasted votes, the efficiency gap or the Gallagher index, packed and cracked
// districts, the ensemble of random maps (a histogram per party with this game marked and its
// percentile, and a progress bar while the maps are drawn), and for a game counted two ways,
// both counts side by side.  Every game's lesson has the same shape (games/engine/lesson.py).
//
// Test hooks: #lesson, #lesson-progress (progress[value][max]), #votes-seats [data-party],
// #wasted-votes, #lesson-measure, #ensemble figure[data-party] (a histogram: its bars
// rect[data-seats], this game's [data-this-game]; figcaption[data-percentile]),
// #count-systems.

import { fmt, h, svg } from "./ui.js";

const pct = (x) => `${Math.round((x ?? 0) * 100)}%`;
const COLORS = ["#d43d3d", "#2f6fd6", "#e0b400", "#2e9b4b", "#8a4fbf", "#8b8f98"];

function partyColor(lesson, party, index) {
  const named = (lesson.colors || {})[party];
  return named || COLORS[index % COLORS.length];
}

function capital(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

/** Bars of vote share and seat share per party, side by side, and the same as a table. */
function votesSeats(lesson) {
  const parties = lesson.parties || [];
  const rowH = 64;
  const width = 300;
  const chart = svg("svg", {
    viewBox: `0 0 ${width + 250} ${parties.length * rowH + 8}`, class: "lesson-chart", role: "img",
    "aria-label": "Share of votes against share of seats, per party",
  });
  parties.forEach((p, i) => {
    const y = i * rowH + 4;
    const color = partyColor(lesson, p.party, i);
    svg("text", { x: 0, y: y + 14, class: "chart-label" }, chart).textContent = p.name;
    [[0, p.vote_share, "votes"], [1, p.seat_share, lesson.unit.many]].forEach(([k, share, what]) => {
      const by = y + 20 + k * 20;
      svg("rect", {
        x: 0, y: by, width: fmt(Math.max(1, share * width)), height: 15, fill: color,
        opacity: k ? 1 : 0.45, "data-share": what,
      }, chart);
      svg("text", { x: fmt(share * width + 6), y: by + 12, class: "chart-value" }, chart)
        .textContent = `${pct(share)} of the ${what}`;
    });
  });
  const rows = parties.map((p, i) => h("tr", { dataset: { party: String(p.party) } },
    h("th", { scope: "row" }, h("span", { class: "swatch", style: { background: partyColor(lesson, p.party, i) } }), " ", p.name),
    h("td", {}, String(p.votes)), h("td", {}, pct(p.vote_share)),
    h("td", {}, String(p.seats)), h("td", {}, pct(p.seat_share))));
  return h("section", { id: "votes-seats", class: "lesson-part" },
    h("h3", {}, `Votes against ${lesson.unit.many}`), chart,
    h("div", { class: "table-scroll" }, h("table", { class: "lesson-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Party"), h("th", {}, "Votes"), h("th", {}, "Share of votes"),
        h("th", {}, capital(lesson.unit.many)), h("th", {}, `Share of ${lesson.unit.many}`))),
      h("tbody", {}, rows))));
}

function wasted(lesson) {
  const parties = lesson.parties || [];
  const name = (key) => (parties.find((x) => x.party === key) || { name: String(key) }).name;
  const gap = lesson.efficiency_gap;
  const measure = h("p", { id: "lesson-measure", class: "lesson-measure" });
  if (gap && gap.favours !== null && gap.favours !== undefined) {
    measure.append(`Efficiency gap: ${pct(Math.abs(gap.value))} in favour of the ${name(gap.favours)} `
      + `(about ${fmt(gap.seats)} ${lesson.unit.many} more than a map where both parties waste as many votes).`);
  } else if (gap) {
    measure.append("Efficiency gap: 0%: both parties wasted as many votes.");
  } else if (lesson.gallagher !== null && lesson.gallagher !== undefined) {
    measure.append(`Gallagher index: ${fmt(lesson.gallagher)}. It is 0 when each party's share of `
      + `${lesson.unit.many} equals its share of votes; the bigger, the further apart they are.`);
  }
  const marks = [];
  for (const d of lesson.districts || []) {
    const label = `${capital(lesson.unit.one)} ${d.index + 1}`;
    if (d.packed !== null && d.packed !== undefined) {
      marks.push(h("li", { dataset: { district: String(d.index), mark: "packed" } },
        `${label}: packed - the ${name(d.packed)} won it by ${d.margin} votes, far more than they needed.`));
    }
    for (const c of d.cracked || []) {
      marks.push(h("li", { dataset: { district: String(d.index), mark: "cracked" } },
        `${label}: cracked - the ${name(c)} lost it narrowly, as they did elsewhere.`));
    }
  }
  return h("section", { id: "wasted-votes", class: "lesson-part" },
    h("h3", {}, "Wasted votes"),
    h("p", {}, "A vote is wasted when it goes to a loser, or to a winner beyond what it needed to win."),
    h("div", { class: "table-scroll" }, h("table", { class: "lesson-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Party"), h("th", {}, "For losers"), h("th", {}, "Beyond the win"),
        h("th", {}, "Wasted"), h("th", {}, "Of its votes"))),
      h("tbody", {}, parties.map((p) => h("tr", { dataset: { party: String(p.party) } },
        h("th", { scope: "row" }, p.name), h("td", {}, String(p.wasted_lost)), h("td", {}, String(p.wasted_surplus)),
        h("td", {}, String(p.wasted)), h("td", {}, pct(p.wasted_share))))))),
    measure,
    marks.length ? h("ul", { class: "lesson-marks", id: "lesson-marks" }, marks) : null);
}

function systems(lesson) {
  if (!Array.isArray(lesson.systems) || lesson.systems.length < 2) return null;
  const parties = lesson.parties || [];
  return h("section", { id: "count-systems", class: "lesson-part" },
    h("h3", {}, "The same votes, counted two ways"),
    h("div", { class: "table-scroll" }, h("table", { class: "lesson-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Party"), ...lesson.systems.map((s) => h("th", {}, s.name)))),
      h("tbody", {}, parties.map((p, i) => h("tr", { dataset: { party: String(p.party) } },
        h("th", { scope: "row" }, p.name),
        ...lesson.systems.map((s) => h("td", {}, String((s.seats || [])[i] ?? "")))))))),
    ...lesson.systems.filter((s) => s.words).map((s) => h("p", {}, s.words)));
}

function histogram(lesson, row, index) {
  const top = Math.max(...row.histogram, 1);
  const barW = 22;
  const height = 80;
  const chart = svg("svg", {
    viewBox: `0 0 ${row.histogram.length * barW + 4} ${height + 18}`, class: "histogram", role: "img",
    "aria-label": `${row.name}: ${lesson.unit.many} won on the random maps`,
  });
  row.histogram.forEach((count, seats) => {
    const bh = (count / top) * height;
    const mine = seats === row.seats;
    svg("rect", {
      x: seats * barW + 2, y: fmt(height - bh), width: barW - 3, height: fmt(Math.max(bh, count ? 1 : 0)),
      fill: partyColor(lesson, row.party, index), opacity: mine ? 1 : 0.4, "data-seats": seats,
      "data-count": count, "data-this-game": mine ? "true" : null,
      stroke: mine ? "#1f2437" : null, "stroke-width": mine ? 2 : null,
    }, chart);
    svg("text", { x: seats * barW + 2 + (barW - 3) / 2, y: height + 14, "text-anchor": "middle", class: "chart-value" }, chart)
      .textContent = String(seats);
  });
  const many = row.seats === 1 ? lesson.unit.one : lesson.unit.many;
  const share = row.at_least ?? 0;
  const words = share <= 0.5
    ? `A map this good for the ${row.name} (${row.seats} ${many}) came up in ${pct(share)} of random maps.`
    : `The ${row.name} won ${row.seats} ${many}; ${pct(row.at_most ?? 0)} of random maps gave them that many or fewer.`;
  return h("figure", { class: "ensemble-party", dataset: { party: String(row.party) } }, chart,
    h("figcaption", { dataset: { percentile: String(Math.round(share * 100)) } }, words));
}

function ensemble(event) {
  const lesson = event.lesson;
  const node = h("section", { id: "ensemble", class: "lesson-part" },
    h("h3", {}, `This map among ${event.maps} random maps`));
  if (event.status !== "done" || !event.summary) {
    node.append(h("p", {}, `Drawing ${event.maps} random maps of the same board and voters: ${event.drawn} so far.`),
      h("progress", { id: "lesson-progress", max: String(event.maps), value: String(event.drawn), "aria-label": "Random maps drawn" }));
    return node;
  }
  node.append(h("p", {}, `Each random map follows the same rules with the same voters. How many ${lesson.unit.many} `
    + "each party won on them, with this game's result marked:"));
  node.append(h("div", { class: "ensemble-grid" }, event.summary.parties.map((row, i) => histogram(lesson, row, i))));
  return node;
}

/** Render (or re-render) the lesson of `event` (a "lesson" frame) into `container`. */
export function renderLesson(container, event) {
  const lesson = event && event.lesson;
  if (!lesson) { container.replaceChildren(); container.hidden = true; return container; }
  container.hidden = false;
  container.replaceChildren(...[
    h("h2", { id: "lesson-heading" }, "What this game shows"),
    h("ul", { class: "lesson-words" }, (lesson.words || []).map((w) => h("li", {}, w))),
    votesSeats(lesson), systems(lesson), wasted(lesson),
    event.maps ? ensemble(event) : null].filter(Boolean));
  return container;
}
