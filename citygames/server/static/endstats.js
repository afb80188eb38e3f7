// citygames — end-of-game statistics on the final score card (issue 15, "End of game"): a small SVG
// chart of the points over time (one line per seat in its colour, the total or one score-sheet
// category), a table of what each seat took, and the links to the replay and the record.
// Data: GET /api/tables/{id}/stats (PROTOCOL.md, "How to play and statistics"). No chart library:
// the chart is plain SVG drawn here; no inline script or style element (the CSP allows neither).
import { api, h, swatch, categoryLabel } from "/static/app.js";

const SVGNS = "http://www.w3.org/2000/svg";
const W = 330, H = 176;                             // the chart's viewBox
const PAD = { left: 34, right: 10, top: 10, bottom: 30 };
const fetched = new Map();                          // table id -> Promise of its stats

/** GET /api/tables/{id}/stats, once per table and page (a finished table never changes). */
export function loadStats(tableId) {
  if (!fetched.has(tableId)) {
    fetched.set(tableId, api(`/api/tables/${encodeURIComponent(tableId)}/stats`)
      .catch((e) => { fetched.delete(tableId); throw e; }));
  }
  return fetched.get(tableId);
}

function s(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** A "nice" step for an axis spanning `span` points with about `n` ticks. */
function niceStep(span, n) {
  const raw = Math.max(1, span / n);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** The value of seat `p` at point `pt` for `cat` ("" = the total score). */
function valueAt(pt, p, cat) {
  return cat ? ((pt.breakdown[p] || {})[cat] ?? 0) : pt.scores[p];
}

/**
 * The points-over-time chart as an <svg>: x = the stats' points (Start, each round / age end, End),
 * y = points; one polyline per seat in colors[p], a dot per point with a <title> ("Ann, End of
 * round 3: 12"). `cat`: a score-sheet category, or "" for the total.
 */
export function pointsChart(stats, colors, names, cat = "", scoring = {}) {
  const pts = stats.points || [];
  const n = stats.num_players;
  const vals = [];
  for (const pt of pts) for (let p = 0; p < n; p++) vals.push(valueAt(pt, p, cat));
  let lo = Math.min(0, ...vals), hi = Math.max(0, ...vals);
  if (hi === lo) hi = lo + 1;
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const iw = W - PAD.left - PAD.right, ih = H - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (pts.length > 1 ? (i * iw) / (pts.length - 1) : iw / 2);
  const y = (v) => PAD.top + ih - ((v - lo) * ih) / (hi - lo);
  const what = cat ? categoryLabel(cat, scoring.labels || {}) : (scoring.total || "Total");
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "es-chart", role: "img",
    "aria-label": `${what} over the game, one line per player` });
  s("title", null, svg).textContent = `${what} over the game`;
  // grid and y labels
  for (let v = lo; v <= hi + 1e-9; v += step) {
    s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: v === 0 ? "es-zero" : "es-grid" }, svg);
    s("text", { x: PAD.left - 4, y: y(v) + 3.5, class: "es-ylab", "text-anchor": "end" }, svg).textContent = String(v);
  }
  // x labels: all when they fit, else every k-th (always the first and the last)
  const every = Math.max(1, Math.ceil(pts.length / 8));
  pts.forEach((pt, i) => {
    if (i % every && i !== pts.length - 1) return;
    s("text", { x: x(i), y: H - PAD.bottom + 14, class: "es-xlab", "text-anchor": i === 0 ? "start" : i === pts.length - 1 ? "end" : "middle" }, svg)
      .textContent = pt.short;
  });
  s("text", { x: PAD.left + iw / 2, y: H - 3, class: "es-axis", "text-anchor": "middle" }, svg)
    .textContent = stats.unit === "Age" ? "end of each age" : "end of each round";
  // one line per seat; its dots carry the values. Lines drawn first are wider, so a line that
  // runs along another (equal scores) still shows both colours
  for (let p = 0; p < n; p++) {
    const g = s("g", { class: "es-seat", "data-seat": p }, svg);
    const color = colors[p] || "#888";
    const width = n > 1 ? 1.9 + (1.5 * (n - 1 - p)) / (n - 1) : 2.2;
    s("polyline", { points: pts.map((pt, i) => `${x(i).toFixed(1)},${y(valueAt(pt, p, cat)).toFixed(1)}`).join(" "),
      fill: "none", stroke: color, "stroke-width": width.toFixed(2), "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
    pts.forEach((pt, i) => {
      const v = valueAt(pt, p, cat);
      const dot = s("circle", { cx: x(i), cy: y(v), r: 3, fill: color, stroke: "#fff", "stroke-width": 1 }, g);
      s("title", null, dot).textContent = `${names[p] ?? `Seat ${p}`}, ${pt.label}: ${v}`;
    });
  }
  return svg;
}

/** The "what each player took" table: one row per count, one column per seat. */
export function takenTable(stats, colors, names) {
  const n = stats.num_players;
  const head = h("tr", null, h("th", null, ""), ...Array.from({ length: n }, (_, p) =>
    h("th", { "data-seat": p, title: names[p] ?? `Seat ${p}` }, swatch(colors[p]), " ", names[p] ?? `Seat ${p}`)));
  const rows = (stats.taken || []).map(row => h("tr", { "data-count": row.key }, h("td", null, row.label),
    ...row.counts.map(c => h("td", { class: c === 0 ? "zero" : null }, String(c)))));
  return h("table", { class: "es-taken" }, h("thead", null, head), h("tbody", null, rows));
}

/**
 * Fill `box` with the end-of-game statistics of table `tableId`: the links (replay, record), the
 * chart with a category chooser and the "taken" table. `opts`: {colors, names, scoring,
 * links: false to leave the links out (the replay page has its own)}. Errors are shown in the box.
 */
export async function showEndStats(box, tableId, { colors = [], names = [], scoring = {}, links = true } = {}) {
  if (!box || box.dataset.table === tableId) return;   // drawn once per table
  box.dataset.table = tableId;
  box.textContent = "";
  box.classList.add("end-stats");
  const id = encodeURIComponent(tableId);
  if (links) {
    box.appendChild(h("div", { class: "es-links" },
      h("a", { class: "big-link", id: "es-replay", href: `/replay/${id}` }, "Watch the replay"),
      h("a", { id: "es-record", href: `/api/tables/${id}/record`, download: `citygames-${tableId}.json` }, "Download the record")));
  }
  const wait = h("div", { class: "hint" }, "Loading the statistics…");
  box.appendChild(wait);
  let stats;
  try {
    stats = await loadStats(tableId);
  } catch (e) {
    wait.textContent = `No statistics: ${e.message}`;
    delete box.dataset.table;
    return;
  }
  wait.remove();
  const chartBox = h("div", { class: "es-chart-box", id: "es-chart" });
  const pick = h("select", { class: "es-pick", id: "es-category", "aria-label": "what the chart shows" },
    h("option", { value: "" }, scoring.total || "Total"),
    ...(stats.categories || []).map(c => h("option", { value: c }, categoryLabel(c, scoring.labels || {}))));
  const draw = () => { chartBox.textContent = ""; chartBox.appendChild(pointsChart(stats, colors, names, pick.value, scoring)); };
  pick.addEventListener("change", draw);
  draw();
  const legend = h("div", { class: "es-legend" }, ...Array.from({ length: stats.num_players }, (_, p) =>
    h("span", null, swatch(colors[p]), " ", names[p] ?? `Seat ${p}`)));
  box.append(h("h3", { class: "es-title" }, "Points over time ", pick), chartBox, legend);
  if ((stats.taken || []).length) box.append(h("h3", { class: "es-title" }, "What each player took"), takenTable(stats, colors, names));
}
