// Quadropolis as SVG — the game's view for the pages (see games.js for the interface): render,
// recent, seatColors, prompt, describe, status, logClass, scoring.
//
// The board, drawn from one observation (the seat's own, or a spectator's):
//   - the construction site: 5 x 5 squares (face-up buildings, face-down backs, empty squares),
//     the Urbanist on its square, and the 20 architect slots around it (0-4 above columns 1-5,
//     5-9 below, 10-14 left of rows 1-5, 15-19 right of rows): free, used (the architect's
//     number in its owner's seat colour) or blocked (the Urbanist's row or column). When the
//     viewer is to take, each free slot shows one clickable number badge per legal architect;
//     hovering a badge marks the square it would take and says what it takes.
//   - every city as its grid (4 x 4 Classic, 4 x 5 Expert): districts tinted and outlined,
//     Expert space and district numbers, stacks with their height, which buildings are active
//     and the customers on shops (the allocation the score is computed from), the player's
//     inhabitants, energy, unused architects (Classic), the Mayor, the score. The viewer's city
//     is drawn larger (a spectator: the player to move), with the building waiting to be placed.
//     Legal spaces (build; activate / customer at the end) are clickable.
//   - Expert: the shared pool of architects.
// "discard", "best" and "finish" are left to the page as buttons.
//
// Layouts: landscape (the desktop page) and portrait (a phone; chosen when the page is at most
// 760 px wide, where style.css's .qp- rules stack the page into one column).
//
// Clickable elements carry class "legal", data-action and data-kind (games.js convention), and
// data-slot / data-architect (take) or data-space (build, activate, customer).

import { el, fitText, hideTip, makeClickable as clickable, phoneLayout, startBoard, tip, txt } from "./svg.js";

/** Seat colours: Blue, Red, Green, Yellow. */
export const SEAT_COLORS = ["#1c7ed6", "#e03131", "#2f9e44", "#f0b400"];
const SEAT_INK = ["#fff", "#fff", "#fff", "#3d2e00"];

/** Building types: colours, the board label and the rulebook name. */
const TYPE_STYLE = {
  tower: { head: "#3b5bdb", body: "#dfe6ff", ink: "#1c2f8a", label: "Tower", name: "Tower block" },
  shop: { head: "#e8590c", body: "#fff0e1", ink: "#7a2d00", label: "Shop", name: "Shop" },
  public: { head: "#c2255c", body: "#ffe3ee", ink: "#6b0f33", label: "Public", name: "Public service" },
  park: { head: "#2b8a3e", body: "#dcf5e0", ink: "#14501f", label: "Park", name: "Park" },
  factory: { head: "#7c4a26", body: "#f3e5d8", ink: "#45260f", label: "Factory", name: "Factory" },
  harbour: { head: "#0b7285", body: "#d0f1f6", ink: "#073f4a", label: "Harbour", name: "Harbour" },
  office: { head: "#5f3dc4", body: "#ebe4ff", ink: "#321d7a", label: "Office", name: "Office tower" },
  monument: { head: "#b08800", body: "#fff5c2", ink: "#5c4700", label: "Monument", name: "Monument" },
};
const OTHER_STYLE = { head: "#666", body: "#eee", ink: "#333", label: "?", name: "Building" };
const INH_COLOR = "#1971c2";
const ENERGY_COLOR = "#d6336c";
const URBANIST_COLOR = "#5c636a";
const LEGAL = "#ffc400";

function styleOf(type) { return TYPE_STYLE[type] || OTHER_STYLE; }
function plural(n, s) { return `${n} ${s}${n === 1 ? "" : "s"}`; }
function sq(q) { return `r${Math.floor(q / 5) + 1}c${(q % 5) + 1}`; }
function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}
const SLOT_WHERE = (slot) => {
  const side = Math.floor(slot / 5), line = slot % 5 + 1;
  return [`above column ${line}`, `below column ${line}`, `left of row ${line}`, `right of row ${line}`][side];
};

/** Tooltip HTML of a building: name, type, what it gives and scores, then `extra` lines. */
function tileTipHTML(tile, extra = []) {
  const st = styleOf(tile.type);
  const sub = [st.name, tile.mayor ? "the mayor tower" : null, tile.playground ? "playground" : null,
    `round ${tile.round}`].filter(Boolean).join(" · ");
  const fx = String(tile.effect || "").split("; ").filter(Boolean).map(s => `<div class="fx">${esc(s)}</div>`).join("");
  const ex = extra.filter(Boolean);
  return `<div class="tt">${esc(cap(tile.name))}</div><div class="band" style="background:${st.head}"></div>` +
    `<div class="ts">${esc(sub)}</div>${fx}${ex.length ? `<div class="act">${ex.map(esc).join("<br>")}</div>` : ""}`;
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

// ---- defs and icons -------------------------------------------------------------------------

function defs(svg) {
  const d = el("defs", null, svg);
  const f = el("filter", { id: "qp-shadow", x: "-20%", y: "-20%", width: "140%", height: "150%" }, d);
  el("feDropShadow", { dx: 0, dy: 1, stdDeviation: 1.1, "flood-color": "#2b2a33", "flood-opacity": 0.28 }, f);
  const hatch = el("pattern", { id: "qp-hatch", width: 7, height: 7, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, d);
  el("rect", { width: 7, height: 7, fill: "#e3e1dc" }, hatch);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 7, stroke: "#c4c0b8", "stroke-width": 2.5 }, hatch);
  const back = el("pattern", { id: "qp-back", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, d);
  el("rect", { width: 10, height: 10, fill: "#3d4a5c" }, back);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#4b5a70", "stroke-width": 4 }, back);
}

/** A building type's pictogram centred at (cx, cy), `s` across. */
function typeIcon(g, type, cx, cy, s, color) {
  const a = { fill: color, stroke: "none" };
  const x = cx - s / 2, y = cy - s / 2;
  const p = (d, extra = {}) => el("path", { d, ...a, ...extra }, g);
  switch (type) {
    case "tower": {
      p(`M${x + s * 0.22} ${y + s} V${y + s * 0.12} H${x + s * 0.62} V${y + s * 0.38} H${x + s * 0.8} V${y + s} Z`);
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 2; j++) {
          el("rect", { x: x + s * (0.3 + j * 0.17), y: y + s * (0.2 + i * 0.19), width: s * 0.09, height: s * 0.1, fill: "#fff", opacity: 0.85 }, g);
        }
      }
      break;
    }
    case "shop": {
      p(`M${x + s * 0.12} ${y + s * 0.42} V${y + s} H${x + s * 0.88} V${y + s * 0.42} Z`);
      p(`M${x + s * 0.05} ${y + s * 0.42} L${x + s * 0.16} ${y + s * 0.12} H${x + s * 0.84} L${x + s * 0.95} ${y + s * 0.42} ` +
        `q${-s * 0.075} ${s * 0.14} ${-s * 0.15} 0 q${-s * 0.075} ${s * 0.14} ${-s * 0.15} 0 q${-s * 0.075} ${s * 0.14} ${-s * 0.15} 0 ` +
        `q${-s * 0.075} ${s * 0.14} ${-s * 0.15} 0 q${-s * 0.075} ${s * 0.14} ${-s * 0.15} 0 q${-s * 0.075} ${s * 0.14} ${-s * 0.15} 0 Z`, { fill: color, opacity: 0.75 });
      el("rect", { x: x + s * 0.42, y: y + s * 0.64, width: s * 0.16, height: s * 0.36, fill: "#fff", opacity: 0.85 }, g);
      break;
    }
    case "public": {
      p(`M${x + s * 0.05} ${y + s * 0.34} L${x + s * 0.5} ${y + s * 0.06} L${x + s * 0.95} ${y + s * 0.34} Z`);
      for (let i = 0; i < 4; i++) el("rect", { x: x + s * (0.16 + i * 0.19), y: y + s * 0.4, width: s * 0.11, height: s * 0.44, ...a }, g);
      el("rect", { x: x + s * 0.05, y: y + s * 0.88, width: s * 0.9, height: s * 0.12, ...a }, g);
      break;
    }
    case "park": {
      el("rect", { x: cx - s * 0.06, y: y + s * 0.55, width: s * 0.12, height: s * 0.45, ...a }, g);
      el("circle", { cx, cy: y + s * 0.38, r: s * 0.32, ...a }, g);
      el("circle", { cx: cx - s * 0.24, cy: y + s * 0.56, r: s * 0.2, ...a }, g);
      el("circle", { cx: cx + s * 0.24, cy: y + s * 0.56, r: s * 0.2, ...a }, g);
      break;
    }
    case "factory": {
      p(`M${x + s * 0.05} ${y + s} V${y + s * 0.5} L${x + s * 0.3} ${y + s * 0.32} V${y + s * 0.5} L${x + s * 0.55} ${y + s * 0.32} ` +
        `V${y + s * 0.5} L${x + s * 0.72} ${y + s * 0.38} V${y + s * 0.05} H${x + s * 0.88} V${y + s} Z`);
      el("rect", { x: x + s * 0.16, y: y + s * 0.66, width: s * 0.12, height: s * 0.12, fill: "#fff", opacity: 0.85 }, g);
      el("rect", { x: x + s * 0.4, y: y + s * 0.66, width: s * 0.12, height: s * 0.12, fill: "#fff", opacity: 0.85 }, g);
      break;
    }
    case "harbour": {
      const w = Math.max(1.2, s * 0.1);
      const st = { fill: "none", stroke: color, "stroke-width": w, "stroke-linecap": "round" };
      el("circle", { cx, cy: y + s * 0.14, r: s * 0.1, ...st }, g);
      el("path", { d: `M${cx} ${y + s * 0.24} V${y + s * 0.92}`, ...st }, g);
      el("path", { d: `M${cx - s * 0.22} ${y + s * 0.38} H${cx + s * 0.22}`, ...st }, g);
      el("path", { d: `M${x + s * 0.12} ${y + s * 0.6} Q${x + s * 0.14} ${y + s * 0.92} ${cx} ${y + s * 0.92} Q${x + s * 0.86} ${y + s * 0.92} ${x + s * 0.88} ${y + s * 0.6}`, ...st }, g);
      break;
    }
    case "office": {
      p(`M${x + s * 0.28} ${y + s} V${y + s * 0.16} L${x + s * 0.5} ${y + s * 0.04} L${x + s * 0.72} ${y + s * 0.16} V${y + s} Z`);
      for (let i = 0; i < 5; i++) el("rect", { x: x + s * 0.35, y: y + s * (0.24 + i * 0.14), width: s * 0.3, height: s * 0.06, fill: "#fff", opacity: 0.8 }, g);
      break;
    }
    case "monument": {
      p(`M${x + s * 0.42} ${y + s * 0.82} L${x + s * 0.45} ${y + s * 0.14} L${cx} ${y + s * 0.02} L${x + s * 0.55} ${y + s * 0.14} L${x + s * 0.58} ${y + s * 0.82} Z`);
      el("rect", { x: x + s * 0.22, y: y + s * 0.82, width: s * 0.56, height: s * 0.18, ...a }, g);
      break;
    }
    default:
      txt(g, cx, cy + s * 0.3, "?", { "font-size": s, fill: color, "text-anchor": "middle", "font-weight": 700 });
  }
}

/** An inhabitant (a blue meeple) with its feet at (cx, y + s). */
function meeple(g, cx, y, s, color = INH_COLOR) {
  el("circle", { cx, cy: y + s * 0.2, r: s * 0.2, fill: color }, g);
  el("path", { d: `M${cx - s * 0.36} ${y + s} Q${cx - s * 0.36} ${y + s * 0.42} ${cx} ${y + s * 0.42} Q${cx + s * 0.36} ${y + s * 0.42} ${cx + s * 0.36} ${y + s} Z`, fill: color }, g);
}

/** An energy cylinder `s` tall, its top-left at (x, y). */
function cylinder(g, x, y, s, color = ENERGY_COLOR) {
  const w = s * 0.62, ry = s * 0.14;
  el("path", { d: `M${x} ${y + ry} V${y + s - ry} A${w / 2} ${ry} 0 0 0 ${x + w} ${y + s - ry} V${y + ry} Z`, fill: color }, g);
  el("ellipse", { cx: x + w / 2, cy: y + ry, rx: w / 2, ry, fill: "#f783ac" }, g);
}

/** A VP medallion centred at (cx, cy). */
function vpMark(g, cx, cy, r, v) {
  el("circle", { cx, cy, r, fill: "#8f5d00", stroke: "#fff", "stroke-width": Math.max(0.8, r * 0.12) }, g);
  txt(g, cx, cy + r * 0.38, String(v), { "font-size": r * 1.1, "font-weight": 800, fill: "#fff", "text-anchor": "middle" });
}

/** The Mayor: a gold crown `s` wide with its top-left at (x, y). */
function crown(g, x, y, s) {
  el("path", {
    d: `M${x} ${y + s * 0.7} L${x + s * 0.05} ${y + s * 0.15} L${x + s * 0.3} ${y + s * 0.42} L${x + s * 0.5} ${y} ` +
      `L${x + s * 0.7} ${y + s * 0.42} L${x + s * 0.95} ${y + s * 0.15} L${x + s} ${y + s * 0.7} Z`,
    fill: "#fcc419", stroke: "#8a6100", "stroke-width": Math.max(0.8, s * 0.06), "stroke-linejoin": "round",
  }, g);
}

/** An architect pawn `s` tall (top-left at x, y), its number in the owner's colour. */
function architect(g, x, y, s, k, color, ink) {
  const w = s * 0.8;
  el("path", {
    d: `M${x} ${y + s} L${x + w * 0.14} ${y + s * 0.5} A${w * 0.38} ${w * 0.38} 0 1 1 ${x + w * 0.86} ${y + s * 0.5} L${x + w} ${y + s} Z`,
    fill: color, stroke: "#fff", "stroke-width": Math.max(1, s * 0.05), filter: "url(#qp-shadow)",
  }, g);
  txt(g, x + w / 2, y + s * 0.56, String(k), { "font-size": s * 0.48, "font-weight": 800, fill: ink, "text-anchor": "middle" });
}

/** The Urbanist: a grey pawn `s` tall centred on cx, standing at y + s. */
function urbanist(g, cx, y, s) {
  el("circle", { cx, cy: y + s * 0.2, r: s * 0.19, fill: URBANIST_COLOR, stroke: "#fff", "stroke-width": Math.max(1, s * 0.05) }, g);
  el("path", {
    d: `M${cx - s * 0.3} ${y + s} L${cx - s * 0.16} ${y + s * 0.42} H${cx + s * 0.16} L${cx + s * 0.3} ${y + s} Z`,
    fill: URBANIST_COLOR, stroke: "#fff", "stroke-width": Math.max(1, s * 0.05), "stroke-linejoin": "round",
  }, g);
}

// ---- a building tile ------------------------------------------------------------------------

/**
 * One building, top-left (x, y), w x h. opts: {height, active: bool|null, customers, removed,
 * capacity}. Returns the group (the caller adds a tooltip, a click handler).
 */
function drawTile(parent, x, y, w, h, tile, opts = {}) {
  const st = styleOf(tile.type);
  const g = el("g", { class: "qp-tile", "data-tile": tile.id, opacity: opts.removed ? 0.42 : null }, parent);
  const floors = opts.height || 1;
  const off = Math.min(3, w * 0.05);
  for (let i = Math.min(floors, 4) - 1; i >= 1; i--) {
    el("rect", { x: x + i * off * 0.7, y: y - i * off * 0.7, width: w - 1, height: h - 1, rx: 4, fill: st.body, stroke: st.head, "stroke-width": 1 }, g);
  }
  const lift = Math.min(floors - 1, 3) * off * 0.7;
  x -= 0; y += 0;
  const bw = w - lift, bh = h - lift;
  const by = y + lift;
  el("rect", { class: "qp-frame", x, y: by, width: bw, height: bh, rx: 4, fill: st.body, stroke: st.head, "stroke-width": 1.4, filter: "url(#qp-shadow)" }, g);
  const tiny = Math.min(bw, bh) < 46;
  const headH = tiny ? Math.max(5, bh * 0.16) : Math.max(12, Math.min(17, bh * 0.22));
  el("path", { d: `M${x} ${by + 4} Q${x} ${by} ${x + 4} ${by} L${x + bw - 4} ${by} Q${x + bw} ${by} ${x + bw} ${by + 4} L${x + bw} ${by + headH} L${x} ${by + headH} Z`, fill: st.head }, g);
  if (!tiny) {
    const label = tile.mayor ? "Mayor" : (tile.playground ? "Playgr." : st.label);
    const ind = opts.indent || 0;
    fitText(g, x + 4 + ind, by + headH - headH * 0.26, label, bw - ind - (floors > 1 ? 26 : 8), headH * 0.72,
      { fill: "#fff", "font-weight": 700, class: "qp-narrow" }, 0.5);
  }
  // the pictogram
  const bodyTop = by + headH;
  const foot = tiny ? bh * 0.3 : Math.max(13, bh * 0.26);
  const iconS = Math.max(8, Math.min(bw * 0.5, bh - headH - foot - 4));
  typeIcon(g, tile.type, x + bw / 2, bodyTop + (bh - headH - foot) / 2 + 1, iconS, st.head);
  // what it gives (bottom-left) and its printed VP (bottom-right)
  const fs = tiny ? Math.max(7, bw * 0.22) : Math.max(8.5, Math.min(12, bw * 0.15));
  const fy = by + bh - 3;
  let gx = x + 3;
  if (tile.inhabitants) {
    meeple(g, gx + fs * 0.4, fy - fs, fs, INH_COLOR);
    txt(g, gx + fs * 0.85, fy - 0.5, String(tile.inhabitants), { "font-size": fs, "font-weight": 800, fill: INH_COLOR });
    gx += fs * 1.6;
  }
  if (tile.energy) {
    cylinder(g, gx, fy - fs, fs, ENERGY_COLOR);
    txt(g, gx + fs * 0.7, fy - 0.5, String(tile.energy), { "font-size": fs, "font-weight": 800, fill: ENERGY_COLOR });
  }
  if (tile.vp) vpMark(g, x + bw - fs * 0.7 - 2, fy - fs * 0.55, fs * 0.62, tile.vp);
  if (tile.mayor) crown(g, x + bw - (tiny ? 10 : 17), by + (tiny ? 1 : 2), tiny ? 9 : 14);
  // stack height
  if (floors > 1) {
    const bs = Math.max(8, Math.min(12, bw * 0.17));
    const bx = x + bw - bs * 1.25 - 2 - (tile.mayor ? 16 : 0);
    el("rect", { x: bx, y: by + headH + 2, width: bs * 1.5, height: bs * 1.2, rx: 3, fill: "#212529" }, g);
    txt(g, bx + bs * 0.75, by + headH + 2 + bs * 0.92, `×${floors}`, { "font-size": bs * 0.95, "font-weight": 800, fill: "#fff", "text-anchor": "middle" });
  }
  // customers on a shop
  const n = opts.customers || 0;
  if (n > 0) {
    const ms = Math.max(6, Math.min(11, bw * 0.14));
    for (let i = 0; i < n; i++) meeple(g, x + bw - 4 - ms * 0.45 - i * ms * 0.8, by + headH + 3, ms, INH_COLOR);
  }
  // active (in the allocation the score is computed from)
  if (opts.active !== null && opts.active !== undefined) {
    const r = Math.max(3, Math.min(5.5, bw * 0.075));
    const cx = x + bw - r - 2, cy = by + bh - r - 2 - (tile.vp ? fs * 1.2 : 0);
    if (opts.active) {
      el("circle", { cx, cy, r, fill: "#37b24d", stroke: "#fff", "stroke-width": 1 }, g);
      el("path", { d: `M${cx - r * 0.5} ${cy} l${r * 0.35} ${r * 0.4} l${r * 0.6} ${-r * 0.8}`, fill: "none", stroke: "#fff", "stroke-width": Math.max(1, r * 0.35) }, g);
    } else {
      el("circle", { cx, cy, r, fill: "#fff", stroke: "#adb5bd", "stroke-width": 1.2 }, g);
    }
  }
  if (opts.removed) {
    el("path", { d: `M${x + 4} ${by + 4} L${x + bw - 4} ${by + bh - 4} M${x + bw - 4} ${by + 4} L${x + 4} ${by + bh - 4}`, stroke: "#868e96", "stroke-width": 2 }, g);
  }
  return g;
}

/** A face-down building (2-3 players): only its back (a city skyline, no identity). */
function drawBack(parent, x, y, w, h) {
  const g = el("g", { class: "qp-back" }, parent);
  el("rect", { x, y, width: w, height: h, rx: 4, fill: "url(#qp-back)", stroke: "#243040", "stroke-width": 1.4, filter: "url(#qp-shadow)" }, g);
  const s = Math.min(w, h);
  const bx = x + (w - s * 0.6) / 2, base = y + h / 2 + s * 0.18;
  el("path", {
    d: `M${bx} ${base} V${base - s * 0.18} H${bx + s * 0.12} V${base - s * 0.32} H${bx + s * 0.24} V${base - s * 0.24} ` +
      `H${bx + s * 0.34} V${base - s * 0.4} H${bx + s * 0.46} V${base - s * 0.2} H${bx + s * 0.6} V${base} Z`,
    fill: "#8da2bb", opacity: 0.75,
  }, g);
  el("rect", { x: bx - s * 0.05, y: base, width: s * 0.7, height: Math.max(1, s * 0.03), fill: "#8da2bb", opacity: 0.75 }, g);
  return g;
}

// ---- the construction site ------------------------------------------------------------------

/** Where the square of slot `slot` lies around a site of squares S at (sx, sy) with bands B. */
function slotBox(slot, sx, sy, S, B) {
  const side = Math.floor(slot / 5), line = slot % 5;
  if (side === 0) return { x: sx + line * S, y: sy - B, w: S, h: B, side: "top" };
  if (side === 1) return { x: sx + line * S, y: sy + 5 * S, w: S, h: B, side: "bottom" };
  if (side === 2) return { x: sx - B, y: sy + line * S, w: B, h: S, side: "left" };
  return { x: sx + 5 * S, y: sy + line * S, w: B, h: S, side: "right" };
}

/** The best grid (cols, rows, diameter) for n circles in a w x h box. */
function badgeGrid(n, w, h, maxD) {
  let best = { cols: 1, rows: n, d: 0 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const d = Math.min(maxD, w / cols, h / rows);
    if (d > best.d + 0.01) best = { cols, rows, d };
  }
  return best;
}

function drawSite(svg, ctx, x0, y0, S, B) {
  const { obs } = ctx;
  const g = el("g", { class: "qp-site" }, svg);
  const sx = x0 + B, sy = y0 + B;
  // the board
  el("rect", { x: x0 + 2, y: y0 + 2, width: 5 * S + 2 * B - 4, height: 5 * S + 2 * B - 4, rx: 14, fill: "#e9e4d8", stroke: "#cfc6b1", "stroke-width": 1.5 }, g);
  el("rect", { x: sx - 3, y: sy - 3, width: 5 * S + 6, height: 5 * S + 6, rx: 6, fill: "#b9b2a1" }, g);
  const squares = new Map();
  for (const s of obs.site) {
    const x = sx + s.col * S, y = sy + s.row * S;
    const sg = el("g", { class: "qp-sq", "data-square": s.square }, g);
    el("rect", { x: x + 1.5, y: y + 1.5, width: S - 3, height: S - 3, rx: 4, fill: "#d8d2c4" }, sg);
    if (s.face_down) {
      drawBack(sg, x + 3, y + 3, S - 6, S - 6);
      tip(sg, `<div class="tt">A face-down building</div><div class="ts">Square ${sq(s.square)}</div>` +
        `<div class="fx">With ${obs.players.length} players this building stays face down. An architect pointing at it takes nothing (the Urbanist still moves here).</div>`);
    } else if (s.tile !== null && s.tile !== undefined && ctx.tiles.get(s.tile)) {
      const tile = ctx.tiles.get(s.tile);
      drawTile(sg, x + 3, y + 3, S - 6, S - 6, tile);
      tip(sg, () => {
        const by = (ctx.takeBySquare.get(s.square) || []).map(a => `#${a.architect} ${SLOT_WHERE(a.slot)}`);
        return tileTipHTML(tile, [`Square ${sq(s.square)}`, by.length ? `You can take it with: ${by.join(", ")}` : null]);
      });
    } else {
      txt(sg, x + S / 2, y + S / 2 + 4, sq(s.square), { "font-size": Math.max(8, S * 0.15), fill: "#a39b89", "text-anchor": "middle" });
    }
    const hl = el("rect", { class: "qp-target", x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: 5, fill: "rgba(255,140,0,.18)", stroke: "#ff8c00", "stroke-width": 4, visibility: "hidden" }, sg);
    squares.set(s.square, hl);
  }
  // the Urbanist
  if (obs.urbanist !== null && obs.urbanist !== undefined) {
    const q = obs.urbanist;
    const x = sx + (q % 5) * S, y = sy + Math.floor(q / 5) * S;
    const ug = el("g", { class: "qp-urbanist", "data-square": q }, g);
    el("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.36, fill: "rgba(255,255,255,.72)", stroke: URBANIST_COLOR, "stroke-width": 1.5, "stroke-dasharray": "3 2" }, ug);
    urbanist(ug, x + S / 2, y + S * 0.2, S * 0.58);
    tip(ug, `<div class="tt">The Urbanist</div><div class="ts">On ${sq(q)}</div><div class="fx">No architect may be put in row ${Math.floor(q / 5) + 1} or column ${q % 5 + 1} (the slots at both ends of its row and column are blocked).</div>`);
  }
  // the slots
  for (const slot of obs.slots) {
    const b = slotBox(slot.slot, sx, sy, S, B);
    const pg = el("g", { class: "qp-slot", "data-slot": slot.slot }, g);
    const pad = 3;
    const bx = b.x + pad, by = b.y + pad, bw = b.w - 2 * pad, bh = b.h - 2 * pad;
    const used = slot.architect !== null && slot.architect !== undefined;
    const acts = ctx.takeBySlot.get(slot.slot) || [];
    el("rect", {
      x: bx, y: by, width: bw, height: bh, rx: 6,
      fill: slot.blocked ? "url(#qp-hatch)" : (acts.length ? "#fff8dc" : "#f6f3ec"),
      stroke: slot.blocked ? "#b5afa3" : (acts.length ? "#e0b000" : "#cbc3b1"), "stroke-width": 1,
      "stroke-dasharray": used || slot.blocked || acts.length ? null : "3 3",
    }, pg);
    // an arrow pointing into the site
    const ar = Math.min(5, S * 0.07);
    const arrow = { top: [b.x + b.w / 2, b.y + b.h - 1, 0, 1], bottom: [b.x + b.w / 2, b.y + 1, 0, -1], left: [b.x + b.w - 1, b.y + b.h / 2, 1, 0], right: [b.x + 1, b.y + b.h / 2, -1, 0] }[b.side];
    {
      const [ax, ay, dx, dy] = arrow;
      el("path", { d: `M${ax - dx * ar * 1.2 - dy * ar} ${ay - dy * ar * 1.2 - dx * ar} L${ax} ${ay} L${ax - dx * ar * 1.2 + dy * ar} ${ay - dy * ar * 1.2 + dx * ar} Z`, fill: used ? ctx.colors[slot.seat] || "#888" : "#b9b09c" }, pg);
    }
    if (used) {
      const s = Math.min(bh * 0.9, bw * 0.9, 34);
      const col = ctx.colors[slot.seat] || "#888";
      const last = ctx.recent.take && ctx.recent.take.slot === slot.slot;
      if (last) el("rect", { class: "qp-last", x: bx - 1, y: by - 1, width: bw + 2, height: bh + 2, rx: 7, fill: "none", stroke: "#ff8c00", "stroke-width": 2.5 }, pg);
      architect(pg, bx + bw / 2 - s * 0.4, by + (bh - s) / 2, s, slot.architect, col, SEAT_INK[slot.seat] || "#fff");
      const target = sq(slotTarget(slot.slot, slot.architect));
      tip(pg, `<div class="tt">Architect #${slot.architect}${last ? " (the last one put)" : ""}</div><div class="ts">${esc(ctx.names[slot.seat] || "")}, ${SLOT_WHERE(slot.slot)}: it pointed at ${target}.</div>` +
        (slot.blocked ? `<div class="fx">The Urbanist's line.</div>` : ""));
    } else if (acts.length) {
      const grid = badgeGrid(acts.length, bw - 2, bh - 2, Math.min(28, S * 0.4));
      const d = grid.d;
      const ox = bx + (bw - grid.cols * d) / 2, oy = by + (bh - grid.rows * d) / 2;
      acts.forEach((a, i) => {
        const c = i % grid.cols, r = Math.floor(i / grid.cols);
        const cx = ox + c * d + d / 2, cy = oy + r * d + d / 2;
        const nothing = a.tile === null || a.tile === undefined;
        const bgroup = el("g", { class: "qp-badge", "data-slot": a.slot, "data-architect": a.architect, "data-square": a.square }, pg);
        el("circle", { class: "qp-bg", cx, cy, r: d / 2 - 1.5, fill: nothing ? "#f1efe9" : "#fff", stroke: ctx.mine, "stroke-width": 1.6, "stroke-dasharray": nothing ? "2 2" : null }, bgroup);
        txt(bgroup, cx, cy + d * 0.19, String(a.architect), { "font-size": d * 0.54, "font-weight": 800, fill: nothing ? "#8c8577" : "#222", "text-anchor": "middle" });
        clickable(bgroup, a, ctx, { data: ["slot", "architect", "square"], before: hideTip });
        if (bgroup.classList.contains("legal")) el("circle", { class: "qp-hl", cx, cy, r: d / 2 - 0.5 }, bgroup);
        const tile = nothing ? null : ctx.tiles.get(a.tile);
        const what = tile ? `takes the ${tile.name} from ${sq(a.square)}` : `nothing (${obs.site[a.square] && obs.site[a.square].face_down ? "a face-down building" : "an empty square"} at ${sq(a.square)})`;
        bgroup.setAttribute("data-takes", tile ? tile.name : "nothing");
        tip(bgroup, () => `<div class="tt">Architect #${a.architect} ${esc(SLOT_WHERE(a.slot))}</div>` +
          `<div class="fx"><b>${esc(tile ? `Takes the ${tile.name} from ${sq(a.square)}` : `Takes nothing: ${what.replace(/^nothing \(|\)$/g, "")}`)}</b></div>` +
          (tile ? String(tile.effect || "").split("; ").map(s => `<div class="fx">${esc(s)}</div>`).join("") : "") +
          `<div class="act">The Urbanist then moves to ${sq(a.square)}.</div>`,
        (on) => { const hl = squares.get(a.square); if (hl) hl.setAttribute("visibility", on ? "visible" : "hidden"); });
      });
    } else if (slot.blocked) {
      tip(pg, `<div class="tt">Blocked slot</div><div class="ts">${SLOT_WHERE(slot.slot)}</div><div class="fx">The Urbanist stands in this line: no architect may be put here.</div>`);
    }
  }
  return g;
}

/** The square architect #k in `slot` points at (as the engine's slot_target). */
function slotTarget(slot, k) {
  const side = Math.floor(slot / 5), line = slot % 5;
  if (side === 0) return (k - 1) * 5 + line;
  if (side === 1) return (5 - k) * 5 + line;
  if (side === 2) return line * 5 + k - 1;
  return line * 5 + 5 - k;
}

// ---- a city ---------------------------------------------------------------------------------

const DISTRICT_TINT = ["#f4efe3", "#e9f1f7", "#f5ebf0", "#ecf4e8", "#f7f1dc"];

/**
 * Player p's panel: header (name, Mayor, score, inhabitants, energy, architects) and the city
 * grid. (x, y) top-left, width w, cells of at most maxCell. opts: {big, pendingSide}. Returns
 * the height used.
 */
function drawCity(svg, ctx, p, x, y, w, maxCell, opts = {}) {
  const { obs, comps } = ctx;
  const pl = obs.players[p];
  const board = comps.board || { rows: 4, cols: 4 };
  const rows = board.rows, cols = board.cols;
  const big = !!opts.big;
  const col = ctx.colors[p] || "#888";
  const g = el("g", { class: "qp-city" + (big ? " qp-big" : ""), "data-seat": p }, svg);
  const moving = obs.current_player === p;
  const pending = obs.pending && moving ? obs.pending : null;
  const headH = big ? 52 : 46;
  const sideW = opts.pendingSide ? Math.max(96, Math.min(130, w * 0.26)) : 0;
  const cell = Math.floor(Math.min(maxCell, (w - 16 - sideW) / cols));
  const gw = cell * cols, gh = cell * rows;
  const dm = comps.mode === "expert" ? Math.max(11, Math.min(15, cell * 0.2)) : 0;  // district labels
  const H = headH + gh + 14 + 2 * dm;
  // the panel
  el("rect", { x, y, width: w, height: H, rx: 10, fill: "#fffdf8", stroke: moving ? col : "#ddd5c4", "stroke-width": moving ? 2.5 : 1, filter: "url(#qp-shadow)" }, g);
  el("rect", { x, y, width: 7, height: H, rx: 3, fill: col }, g);
  // header line 1: name, Mayor, score
  const f1 = big ? 16 : 13;
  const won = obs.result && obs.result.winners && obs.result.winners.includes(p);
  const you = ctx.viewer === p;
  const scoreW = big ? 78 : 60;
  let nx = x + 14;
  if (obs.mayor === p) {
    const cs = big ? 20 : 16;
    const cg = el("g", { class: "qp-mayor" }, g);
    crown(cg, nx, y + 7, cs);
    tip(cg, `<div class="tt">The Mayor</div><div class="fx">${esc(ctx.names[p])} holds the Mayor and starts the next round.</div>`);
    nx += cs + 5;
  }
  const mini = pending && !opts.pendingSide ? (big ? 40 : 26) + 12 : 0;
  fitText(g, nx, y + 8 + f1, `${ctx.names[p]}${you ? " (you)" : ""}`, x + w - scoreW - 10 - nx - mini, f1, { "font-weight": 700, fill: "#222" });
  const sg = el("g", { class: "qp-score", "data-seat": p }, g);
  const label = obs.phase === "end" ? `${pl.score} VP` : `${pl.score} VP`;
  el("rect", { x: x + w - scoreW - 8, y: y + 6, width: scoreW, height: f1 + 7, rx: (f1 + 7) / 2, fill: won ? "#fcc419" : "#f1ebe0", stroke: won ? "#8a6100" : "#d9ceb8" }, sg);
  txt(sg, x + w - scoreW / 2 - 8, y + 6 + f1 * 0.98, label, { "font-size": f1 * 0.9, "font-weight": 800, fill: "#3b3124", "text-anchor": "middle" });
  tip(sg, () => breakdownHTML(ctx, p));
  // header line 2: inhabitants, energy, architects, status
  const f2 = big ? 12.5 : 11;
  const ly = y + headH - 8;
  let rx = x + 14;
  const rg = el("g", { class: "qp-res" }, g);
  // at the end (hand allocation, final): what is not used yet
  const alloc = obs.phase === "allocate" || obs.phase === "end";
  const used = alloc ? usedResources(ctx, pl) : null;
  const resource = (value, free, color) => {
    txt(rg, rx, ly, String(value), { "font-size": f2, "font-weight": 700, fill: color });
    rx += String(value).length * f2 * 0.62 + 3;
    if (free !== null) {
      const s = `(${free} free)`;
      txt(rg, rx, ly, s, { "font-size": f2 * 0.82, fill: color, opacity: 0.8 });
      rx += s.length * f2 * 0.82 * 0.5 + 3;
    }
    rx += 6;
  };
  meeple(rg, rx + f2 * 0.5, ly - f2 * 1.05, f2 * 1.1);
  rx += f2 * 1.15;
  resource(pl.inhabitants, used ? pl.inhabitants - used.inhabitants : null, INH_COLOR);
  cylinder(rg, rx, ly - f2 * 1.05, f2 * 1.1);
  rx += f2 * 0.85;
  resource(pl.energy, used ? pl.energy - used.energy : null, ENERGY_COLOR);
  rx += 2;
  tip(rg, () => `<div class="tt">${esc(ctx.names[p])}'s resources</div><div class="fx">${plural(pl.inhabitants, "inhabitant")}, ${pl.energy} energy.</div>` +
    (used ? `<div class="fx">Used by the allocation${obs.phase === "end" ? "" : " so far"}: ${plural(used.inhabitants, "inhabitant")} (activations and customers), ${used.energy} energy.</div>` : "") +
    `<div class="fx">Towers and shops need 1 energy to be active; public services, factories and harbours 1 inhabitant${comps.mode === "expert" ? "; offices both" : ""}. Shops hold inhabitants as customers. Each unused inhabitant and each energy no park absorbs costs 1 VP.</div>`);
  if (!(board.shared_pool) && Array.isArray(pl.architects) && obs.phase !== "end" && obs.phase !== "allocate") {
    const ag = el("g", { class: "qp-architects" }, g);
    const s = f2 * 1.45;
    const all = Array.from({ length: board.architect_numbers || 4 }, (_, i) => i + 1);
    for (const k of all) {
      const left = pl.architects.includes(k);
      const pg = el("g", { opacity: left ? 1 : 0.22 }, ag);
      architect(pg, rx, ly - s + 2, s, k, col, SEAT_INK[p] || "#fff");
      rx += s * 0.8 + 3;
    }
    tip(ag, `<div class="tt">${esc(ctx.names[p])}'s architects</div><div class="fx">Still to use this round: ${pl.architects.length ? pl.architects.map(k => `#${k}`).join(", ") : "none"}.</div>`);
    rx += 6;
  }
  const state = obs.phase === "end" ? (won ? "winner" : "") : obs.phase === "allocate" ? (pl.allocated ? "allocated" : (moving ? "allocating" : "")) :
    (moving ? (obs.phase === "place" ? "placing" : "to take") : "");
  if (state && rx < x + w - 50) {
    const sw = state.length * f2 * 0.58 + 12;
    el("rect", { x: rx, y: ly - f2 - 1, width: sw, height: f2 + 5, rx: (f2 + 5) / 2, fill: state === "winner" ? "#fcc419" : col }, g);
    txt(g, rx + sw / 2, ly + 1, state, { "font-size": f2 * 0.9, "font-weight": 700, fill: state === "winner" ? "#3b3124" : (SEAT_INK[p] || "#fff"), "text-anchor": "middle" });
  }
  // the grid
  const gx = x + 8 + Math.max(0, (w - 16 - sideW - gw) / 2), gy = y + headH + 4 + dm;
  drawGrid(g, ctx, p, gx, gy, cell, pending, dm);
  // the building waiting to be placed
  if (pending) {
    const tile = ctx.tiles.get(pending.tile);
    if (tile && opts.pendingSide) {
      const px = x + w - sideW - 4, ts = Math.min(sideW - 20, cell * 1.1, 100);
      const pg = el("g", { class: "qp-pending", "data-tile": pending.tile }, g);
      txt(pg, px + sideW / 2, gy + 12, "to place", { "font-size": 12, "font-weight": 700, fill: "#7a4a00", "text-anchor": "middle" });
      el("rect", { x: px + (sideW - ts) / 2 - 5, y: gy + 18, width: ts + 10, height: ts + 10, rx: 8, fill: "#fff3bf", stroke: LEGAL, "stroke-width": 2 }, pg);
      drawTile(pg, px + (sideW - ts) / 2, gy + 23, ts, ts, tile);
      const ay = gy + 23 + ts + 18;
      architect(pg, px + sideW / 2 - 26, ay - 13, 18, pending.architect, col, SEAT_INK[p] || "#fff");
      txt(pg, px + sideW / 2 - 8, ay, `architect #${pending.architect}`, { "font-size": 11, fill: "#555" });
      const where = comps.board && comps.board.placement === "space_or_district"
        ? `a space numbered ${pending.architect} or the district numbered ${pending.architect}`
        : `row ${pending.architect} or column ${pending.architect}`;
      tip(pg, () => tileTipHTML(tile, [`Taken with architect #${pending.architect}: it goes in ${where}, or onto a tower of its kind whose new height equals ${pending.architect}.`,
        `${plural(pending.spaces.length, "legal space")}${you && ctx.onAction ? " (highlighted); or put it back in the box" : ""}.`]));
    } else if (tile) {
      const ts = big ? 40 : 26;
      const px = x + w - scoreW - 14 - ts;
      const pg = el("g", { class: "qp-pending", "data-tile": pending.tile }, g);
      el("rect", { x: px - 3, y: y + 1, width: ts + 6, height: ts + 6, rx: 6, fill: "#fff3bf", stroke: LEGAL, "stroke-width": 1.5 }, pg);
      drawTile(pg, px, y + 4, ts, ts, tile);
      const as = big ? 15 : 12;
      architect(pg, px - as * 0.5, y + 4 + ts - as * 0.8, as, pending.architect, col, SEAT_INK[p] || "#fff");
      tip(pg, () => tileTipHTML(tile, [`${ctx.names[p]} is placing it (architect #${pending.architect}).`]));
    }
  }
  return H;
}

/** What activating a building of `tile`'s type costs, [inhabitants, energy], read from its effect
 * text ("needs 1 inhabitant and 1 energy to be active"). */
function activationCost(tile) {
  const m = /needs ([^;]*) to be active/.exec((tile && tile.effect) || "");
  if (!m) return [0, 0];
  const inh = /(\d+) inhabitant/.exec(m[1]), en = /(\d+) energy/.exec(m[1]);
  return [inh ? Number(inh[1]) : 0, en ? Number(en[1]) : 0];
}

/** The inhabitants and energy player `pl`'s allocation uses: activations and customers. */
function usedResources(ctx, pl) {
  let inhabitants = 0, energy = 0;
  for (const c of pl.city) {
    if (c.tile === null || c.tile === undefined) continue;
    if (c.active) {
      const [i, e] = activationCost(ctx.tiles.get(c.tile));
      inhabitants += i;
      energy += e;
    }
    inhabitants += c.customers || 0;
  }
  return { inhabitants, energy };
}

function breakdownHTML(ctx, p) {
  const pl = ctx.obs.players[p];
  const rows = Object.entries(pl.breakdown || {}).filter(([k, v]) => v || !["offices", "monuments"].includes(k) || ctx.comps.mode === "expert")
    .map(([k, v]) => `<div class="fx">${esc(scoring.labels[k] || k)}: <b>${v > 0 ? "+" : ""}${v}</b></div>`).join("");
  const how = ctx.obs.phase === "end" ? "Final score"
    : (ctx.obs.phase === "allocate" && pl.allocated ? "Score of the allocation made"
      : "Score if the game ended now, with the best allocation of inhabitants and energy");
  return `<div class="tt">${esc(ctx.names[p])}: ${pl.score} VP</div><div class="ts">${how}</div>${rows}`;
}

/** The grid of player p's city; the viewer's legal spaces are clickable. */
function drawGrid(g, ctx, p, gx, gy, cell, pending, dm = 0) {
  const { obs, comps } = ctx;
  const pl = obs.players[p];
  const board = comps.board || { rows: 4, cols: 4 };
  const rows = board.rows, cols = board.cols;
  const expert = comps.mode === "expert";
  const at = (c) => ({ x: gx + c.col * cell, y: gy + c.row * cell });
  const byPos = new Map(pl.city.map(c => [`${c.row},${c.col}`, c]));
  const mine = ctx.viewer === p && !!ctx.onAction;
  const pendingSpaces = new Set(pending ? pending.spaces : []);
  const end = obs.phase === "end";
  // district tints
  for (const c of pl.city) {
    const { x, y } = at(c);
    el("rect", { x, y, width: cell, height: cell, fill: DISTRICT_TINT[c.district % DISTRICT_TINT.length] }, g);
  }
  // district numbers (Expert): on the district's top-left space
  const firstOf = new Map();
  for (const c of pl.city) if (!firstOf.has(c.district)) firstOf.set(c.district, c);
  // the spaces
  for (const c of pl.city) {
    const { x, y } = at(c);
    const cg = el("g", { class: "qp-space", "data-seat": p, "data-space": c.space }, g);
    el("rect", { class: "qp-spbg", x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 4, fill: "rgba(255,255,255,.55)", stroke: "#d6ccb6", "stroke-width": 0.8, "stroke-dasharray": c.tile === null ? "3 3" : null }, cg);
    const tile = c.tile !== null && c.tile !== undefined ? ctx.tiles.get(c.tile) : null;
    const nr = Math.max(5, Math.min(8, cell * 0.1));  // the radius of an Expert space number on a building
    // parks and monuments need no activation (§7): always active, whatever the allocation says
    const needs = tile ? activationCost(tile).some(v => v > 0) : false;
    if (tile) {
      drawTile(cg, x + 3, y + 3, cell - 6, cell - 6, tile, {
        height: c.height, customers: c.customers, active: needs ? c.active : null, removed: end && needs && !c.active,
        indent: expert ? nr * 2 - 1 : 0,
      });
      if (expert) {
        el("circle", { cx: x + nr + 1.5, cy: y + nr + 1.5, r: nr, fill: "#fff", stroke: "#495057", "stroke-width": 0.8 }, cg);
        txt(cg, x + nr + 1.5, y + nr * 1.45 + 1.5, String(c.number), { "font-size": nr * 1.3, "font-weight": 800, fill: "#343a40", "text-anchor": "middle" });
      }
    } else if (expert) {
      const r = Math.max(6, Math.min(12, cell * 0.16));
      el("circle", { cx: x + cell / 2, cy: y + cell / 2 - r * 0.3, r, fill: "#fff", stroke: "#8c8577", "stroke-width": 1 }, cg);
      txt(cg, x + cell / 2, y + cell / 2 - r * 0.3 + r * 0.45, String(c.number), { "font-size": r * 1.25, "font-weight": 800, fill: "#495057", "text-anchor": "middle" });
      if (cell >= 40) txt(cg, x + cell / 2, y + cell / 2 + r * 1.65, `r${c.row + 1}c${c.col + 1}`, { "font-size": Math.max(7.5, cell * 0.12), fill: "#b8ad96", "text-anchor": "middle" });
    } else if (cell >= 34) {
      txt(cg, x + cell / 2, y + cell / 2 + 4, `r${c.row + 1}c${c.col + 1}`, { "font-size": Math.max(8, cell * 0.14), fill: "#b8ad96", "text-anchor": "middle" });
    }
    const lastBuild = ctx.recent.builds ? ctx.recent.builds[p] : null;
    if (tile && lastBuild && lastBuild.space === c.space && lastBuild.tile === c.tile && obs.phase !== "end") {
      el("circle", { class: "qp-new", cx: x + cell - 3.5, cy: y + 3.5, r: Math.max(3, Math.min(5, cell * 0.07)), fill: "#ffd43b", stroke: "#8a6100", "stroke-width": 1 }, cg);
    }
    const acts = mine ? (ctx.bySpace.get(c.space) || []) : [];
    if (pendingSpaces.has(c.space) && !acts.length) {
      el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 4, fill: "rgba(255,196,0,.12)", stroke: "#e0a800", "stroke-width": 1.6, "stroke-dasharray": "4 3" }, cg);
    }
    if (acts.length === 1) {
      const a = acts[0];
      clickable(cg, a, ctx, { data: ["space", "height"], before: hideTip });
      el("rect", { class: "qp-hl", x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 5 }, cg);
      spaceMark(cg, a, x, y, cell, ctx);
    } else if (acts.length > 1) {
      acts.forEach((a, i) => {
        const bw = (cell - 8) / acts.length;
        const bg = el("g", { class: "qp-alloc", "data-space": c.space }, cg);
        el("rect", { class: "qp-bg", x: x + 4 + i * bw, y: y + cell * 0.34, width: bw - 2, height: cell * 0.32, rx: 5, fill: "#fff", stroke: "#e0a800" }, bg);
        txt(bg, x + 4 + i * bw + bw / 2 - 1, y + cell * 0.54, a.kind === "customer" ? "+cust." : "activate", { "font-size": Math.max(8, cell * 0.11), "font-weight": 700, fill: "#5a3d10", "text-anchor": "middle" });
        clickable(bg, a, ctx, { data: ["space", "height"], before: hideTip });
        el("rect", { class: "qp-hl", x: x + 4 + i * bw, y: y + cell * 0.34, width: bw - 2, height: cell * 0.32, rx: 5 }, bg);
        tip(bg, `<div class="tt">${esc(cap(a.text))}</div>`);
      });
    }
    tip(cg, () => spaceTip(ctx, p, c, tile, acts.length === 1 ? acts[0] : null));
  }
  // district borders: thick lines between spaces of different districts, and around the city
  const thick = Math.max(2.2, cell * 0.05);
  const path = [];
  for (const c of pl.city) {
    const { x, y } = at(c);
    const right = byPos.get(`${c.row},${c.col + 1}`), below = byPos.get(`${c.row + 1},${c.col}`);
    if (right && right.district !== c.district) path.push(`M${x + cell} ${y} V${y + cell}`);
    if (below && below.district !== c.district) path.push(`M${x} ${y + cell} H${x + cell}`);
  }
  el("path", { d: path.join(" "), stroke: "#5c5240", "stroke-width": thick, "stroke-linecap": "round", fill: "none" }, g);
  el("rect", { x: gx, y: gy, width: cols * cell, height: rows * cell, rx: 3, fill: "none", stroke: "#5c5240", "stroke-width": thick }, g);
  if (expert && dm) {
    // district numbers outside the grid: above the districts of the top row, below the others
    for (const d of firstOf.keys()) {
      const cells = pl.city.filter(c => c.district === d);
      const c0 = Math.min(...cells.map(c => c.col)), c1 = Math.max(...cells.map(c => c.col));
      const top = Math.min(...cells.map(c => c.row)) === 0;
      const num = (board.district_number || [])[d] ?? d + 1;
      const fs = dm * 0.72;
      const ly = top ? gy - dm / 2 - 1 : gy + rows * cell + dm / 2 + 1;
      const lx0 = gx + c0 * cell + 4, lx1 = gx + (c1 + 1) * cell - 4;
      const label = (lx1 - lx0) >= fs * 5.2 ? `district ${num}` : `D${num}`;
      const lw = label.length * fs * 0.56 + 8;
      const dg = el("g", { class: "qp-district", "data-district": d, "data-number": num }, g);
      el("path", { d: `M${lx0} ${ly + (top ? 3 : -3)} V${ly} H${lx1} V${ly + (top ? 3 : -3)}`, fill: "none", stroke: "#8c7f66", "stroke-width": 1 }, dg);
      el("rect", { x: (lx0 + lx1) / 2 - lw / 2, y: ly - fs * 0.7, width: lw, height: fs * 1.4, rx: fs * 0.7, fill: "#5c5240" }, dg);
      txt(dg, (lx0 + lx1) / 2, ly + fs * 0.36, label, { "font-size": fs, "font-weight": 700, fill: "#fff", "text-anchor": "middle" });
    }
  }
  return rows * cell;
}

function spaceMark(cg, a, x, y, cell, ctx) {
  const fs = Math.max(9, Math.min(15, cell * 0.2));
  let label;
  if (a.kind === "build") label = a.height > 1 ? `floor ${a.height}` : "build";
  else if (a.kind === "activate") label = "activate";
  else if (a.kind === "customer") label = "+customer";
  else return;
  const w = label.length * fs * 0.58 + 10;
  const bx = x + (cell - w) / 2, by = y + cell - fs * 1.6 - 5;
  el("rect", { x: bx, y: by, width: w, height: fs * 1.5, rx: fs * 0.75, fill: "#ffc400", stroke: "#fff", "stroke-width": 1.2 }, cg);
  txt(cg, x + cell / 2, by + fs * 1.08, label, { "font-size": fs, "font-weight": 800, fill: "#3b2c00", "text-anchor": "middle" });
}

function spaceTip(ctx, p, c, tile, action) {
  const { obs, comps } = ctx;
  const where = `r${c.row + 1}c${c.col + 1}` + (comps.mode === "expert" ? ` · space number ${c.number}, district ${(comps.board.district_number || [])[c.district] ?? c.district + 1}` : ` · district ${c.district + 1}`);
  const act = action ? cap(action.text) : null;
  if (!tile) return `<div class="tt">Empty space</div><div class="ts">${esc(ctx.names[p])}'s city, ${esc(where)}</div>${act ? `<div class="act">${esc(act)}</div>` : ""}`;
  const extra = [where];
  if (c.height > 1) extra.push(`a stack of ${c.height} floors`);
  if (activationCost(tile).some(v => v > 0)) {
    const how = obs.phase === "end" ? (c.active ? "active" : "not active: removed before scoring")
      : obs.phase === "allocate" ? (c.active ? "activated" : "not activated yet")
        : (c.active ? "active in the best allocation now" : "not active in the best allocation now");
    extra.push(how);
  }
  if (tile.type === "shop") extra.push(plural(c.customers || 0, "customer"));
  const lb = ctx.recent.builds ? ctx.recent.builds[p] : null;
  if (lb && lb.space === c.space && lb.tile === c.tile && obs.phase !== "end") extra.push(`${ctx.names[p]}'s last building`);
  if (act) extra.push(act);
  return tileTipHTML(tile, extra);
}

// ---- the top line and the legend ------------------------------------------------------------

function drawInfo(svg, ctx, x, y, w) {
  const { obs, comps } = ctx;
  const g = el("g", { class: "qp-info" }, svg);
  let s;
  if (obs.phase === "end") s = `Game over after round ${obs.rounds}`;
  else if (obs.phase === "allocate") s = `Round ${obs.round}/${obs.rounds} over · final allocation`;
  else s = `Round ${obs.round}/${obs.rounds} · turn ${Math.min(obs.turn + 1, obs.turns)}/${obs.turns}`;
  txt(g, x, y + 15, s, { "font-size": 15, "font-weight": 800, fill: "#2d2a26" });
  const mayor = obs.mayor;
  if (mayor !== null && mayor !== undefined) {
    const mx = x + s.length * 8.3 + 14;
    if (mx + 120 < x + w) {
      crown(g, mx, y + 3, 15);
      fitText(g, mx + 19, y + 15, `${ctx.names[mayor]}`, x + w - mx - 20, 12.5, { fill: "#5c4700", "font-weight": 600 });
    }
  }
  return y + 22;
}

function drawPool(svg, ctx, x, y, w) {
  const { obs } = ctx;
  if (!obs.pool) return y;
  const g = el("g", { class: "qp-pool" }, svg);
  txt(g, x, y + 14, "Architect pool", { "font-size": 11.5, "font-weight": 700, fill: "#555" });
  let px = x + 86;
  const s = 20;
  for (let k = 1; k <= 5; k++) {
    const n = obs.pool[k] ?? obs.pool[String(k)] ?? 0;
    const pg = el("g", { opacity: n ? 1 : 0.3, "data-architect": k }, g);
    architect(pg, px, y, s, k, "#868e96", "#fff");
    txt(pg, px + s * 0.85, y + s * 0.85, `×${n}`, { "font-size": 11, "font-weight": 700, fill: "#495057" });
    px += Math.min(44, (w - 86) / 5);
  }
  tip(g, `<div class="tt">The architect pool (Expert)</div><div class="fx">On your turn take any architect left in the pool; the same number may be used by several players. All return at the end of the round.</div>`);
  return y + s + 4;
}

function drawLegend(svg, ctx, x, y, w) {
  const g = el("g", { class: "qp-legend" }, svg);
  const types = ctx.comps.mode === "expert" ? Object.keys(TYPE_STYLE) : Object.keys(TYPE_STYLE).filter(t => t !== "office" && t !== "monument");
  const items = types.map(t => ({ t, label: TYPE_STYLE[t].label }));
  items.push({ t: "_inh", label: "inhabitant" }, { t: "_en", label: "energy" }, { t: "_vp", label: "printed VP" }, { t: "_act", label: "active" },
    { t: "_new", label: "last built" });
  let lx = x, ly = y;
  for (const it of items) {
    const iw = 22 + it.label.length * 6.1 + 8;
    if (lx + iw > x + w) { lx = x; ly += 20; }
    const st = TYPE_STYLE[it.t];
    if (st) {
      el("rect", { x: lx, y: ly, width: 16, height: 16, rx: 3, fill: st.body, stroke: st.head, "stroke-width": 1.2 }, g);
      typeIcon(g, it.t, lx + 8, ly + 8, 11, st.head);
    } else if (it.t === "_inh") meeple(g, lx + 8, ly + 1, 14);
    else if (it.t === "_en") cylinder(g, lx + 3, ly + 1, 14);
    else if (it.t === "_vp") vpMark(g, lx + 8, ly + 8, 7, 2);
    else if (it.t === "_new") el("circle", { cx: lx + 8, cy: ly + 8, r: 5, fill: "#ffd43b", stroke: "#8a6100", "stroke-width": 1 }, g);
    else if (it.t === "_act") {
      el("circle", { cx: lx + 8, cy: ly + 8, r: 6, fill: "#37b24d" }, g);
      el("path", { d: `M${lx + 5} ${ly + 8} l2 2.4 l3.6 -4.8`, fill: "none", stroke: "#fff", "stroke-width": 2 }, g);
    }
    txt(g, lx + 20, ly + 12.5, it.label, { "font-size": 11, fill: "#4a4033" });
    lx += iw;
  }
  return ly + 20;
}

// ---- the whole board ------------------------------------------------------------------------

let lastArgs = null;
const VIEW = { hooked: false };

/** The order the cities are drawn in: the big one (the viewer; a spectator: the player to move,
 * else seat 0), then the others clockwise from it. */
function cityOrder(obs, viewer) {
  const n = obs.players.length;
  let first = viewer;
  if (first === null || first === undefined || first < 0 || first >= n) {
    first = obs.current_player !== null && obs.current_player !== undefined ? obs.current_player : 0;
  }
  return Array.from({ length: n }, (_, i) => (first + i) % n);
}

/**
 * games.js `render`: draw the whole board into `svg`; returns the legal actions not drawn on the
 * board (discard, best, finish) for the page's buttons.
 */
export function render(svg, obs, comps, legal, ui = {}) {
  lastArgs = [svg, obs, comps, legal, ui];
  let names, colors, viewer;
  ({ legal, names, colors, viewer } = startBoard(VIEW, svg, obs, legal, ui, "qp-board", SEAT_COLORS,
    () => render(...lastArgs)));
  const ctx = {
    obs, comps, legal, names, colors, viewer, drawn: new Set(),
    onAction: typeof ui.onAction === "function" && legal.length ? ui.onAction : null,
    tiles: new Map((comps.tiles || []).map(t => [t.id, t])),
    takeBySlot: new Map(), takeBySquare: new Map(), bySpace: new Map(),
    mine: viewer !== null && viewer !== undefined ? (colors[viewer] || "#888") : "#888",
    recent: ui.recent && typeof ui.recent === "object" ? ui.recent : { take: null, builds: {} },
  };
  for (const a of legal) {
    if (a.kind === "take") {
      if (!ctx.takeBySlot.has(a.slot)) ctx.takeBySlot.set(a.slot, []);
      ctx.takeBySlot.get(a.slot).push(a);
      if (!ctx.takeBySquare.has(a.square)) ctx.takeBySquare.set(a.square, []);
      ctx.takeBySquare.get(a.square).push(a);
    } else if ((a.kind === "build" || a.kind === "activate" || a.kind === "customer") && a.space !== undefined) {
      if (!ctx.bySpace.has(a.space)) ctx.bySpace.set(a.space, []);
      ctx.bySpace.get(a.space).push(a);
    }
  }
  for (const list of ctx.takeBySlot.values()) list.sort((a, b) => a.architect - b.architect);
  if (!ctx.onAction) { ctx.takeBySlot.clear(); ctx.takeBySquare.clear(); ctx.bySpace.clear(); }

  defs(svg);
  const order = cityOrder(obs, viewer);
  const H = phoneLayout() ? portrait(svg, ctx, order) : landscape(svg, ctx, order);
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  return legal.filter(a => !ctx.drawn.has(a.id));
}

function landscape(svg, ctx, order) {
  const { comps } = ctx;
  const W = 1000;
  const expert = comps.mode === "expert";
  el("rect", { x: 0, y: 0, width: W, height: 2000, fill: "transparent" }, svg);
  let y = drawInfo(svg, ctx, 4, 2, 460);
  const S = 72, B = 44;
  const siteTop = y + 6;
  drawSite(svg, ctx, 0, siteTop, S, B);
  let yl = siteTop + 5 * S + 2 * B + 6;
  yl = drawPool(svg, ctx, 8, yl, 450);
  // the big city, right of the site
  const cx = 5 * S + 2 * B + 16;
  const cw = W - cx;
  const bigH = drawCity(svg, ctx, order[0], cx, siteTop - 26, cw, expert ? 74 : 88, { big: true, pendingSide: true });
  let yr = siteTop - 26 + bigH + 10;
  yr = drawLegend(svg, ctx, cx + 4, yr, cw - 8);
  // the other cities below
  const others = order.slice(1);
  let y2 = Math.max(yl, yr) + 8;
  if (others.length) {
    const gap = 12;
    const ow = Math.min(400, (W - gap * (others.length - 1)) / others.length);
    const total = ow * others.length + gap * (others.length - 1);
    let ox = (W - total) / 2;
    let h = 0;
    for (const p of others) {
      h = Math.max(h, drawCity(svg, ctx, p, ox, y2, ow, 58));
      ox += ow + gap;
    }
    y2 += h + 6;
  }
  const H = Math.ceil(y2);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  return H;
}

function portrait(svg, ctx, order) {
  const { comps } = ctx;
  const W = 400;
  const expert = comps.mode === "expert";
  el("rect", { x: 0, y: 0, width: W, height: 3000, fill: "transparent" }, svg);
  let y = drawInfo(svg, ctx, 4, 0, W - 8);
  const B = 48, S = Math.floor((W - 2 * B) / 5);
  drawSite(svg, ctx, (W - 5 * S - 2 * B) / 2, y + 4, S, B);
  y += 4 + 5 * S + 2 * B + 6;
  y = drawPool(svg, ctx, 8, y, W - 16) + 4;
  y += drawCity(svg, ctx, order[0], 0, y, W, expert ? 76 : 92, { big: true }) + 10;
  const others = order.slice(1);
  const perRow = others.length === 1 ? 1 : 2;
  const gap = 8;
  const ow = (W - gap * (perRow - 1)) / perRow;
  for (let i = 0; i < others.length; i += perRow) {
    let h = 0;
    others.slice(i, i + perRow).forEach((p, j) => {
      h = Math.max(h, drawCity(svg, ctx, p, j * (ow + gap), y, ow, perRow === 1 ? 50 : 44));
    });
    y += h + 8;
  }
  y = drawLegend(svg, ctx, 4, y + 2, W - 8) + 4;
  svg.setAttribute("viewBox", `0 0 ${W} ${Math.ceil(y)}`);
  return y;
}

// ---- the view interface (games.js) ----------------------------------------------------------

/** games.js `recent`: the last architect put this round ({player, slot, k, square, tile}) and each
 * player's last building ({player: {space, tile, height}}), marked on the board. */
export function recent(log) {
  let take = null;
  const builds = {};
  let inRound = true;
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    const k = (e.kind || "").replace(/^quadropolis\./, "");
    if (k === "round") inRound = false;
    if (!take && inRound && k === "take") take = { player: e.player, ...(e.data || {}) };
    if (k === "build" && e.player !== null && e.player !== undefined && !(e.player in builds)) builds[e.player] = { ...(e.data || {}) };
  }
  return { take, builds };
}

/** games.js `seatColors`: Blue, Red, Green, Yellow. */
export function seatColors(comps, n) { return Array.from({ length: n }, (_, i) => SEAT_COLORS[i % SEAT_COLORS.length]); }

/** games.js `prompt`: what to do now. */
export function prompt(obs, legal) {
  const kinds = new Set((legal || []).map(a => a.kind));
  if (kinds.has("take")) {
    return obs.pool
      ? "Click a number badge at a free slot: it puts that architect from the pool there and takes the building that many squares in (hover a badge to see what it takes)."
      : "Click a number badge at a free slot: architect #k takes the k-th square from that edge (hover a badge to see what it takes).";
  }
  if (kinds.has("build")) return "Click a highlighted space of your city to build there, or put the building back in the box (no resources).";
  if (kinds.has("discard")) return "The building fits nowhere in your city: it goes back in the box.";
  if (kinds.has("activate") || kinds.has("customer")) {
    return "Allocate: click your buildings to activate them (towers and shops: 1 energy; the others: 1 inhabitant) and active shops to add customers; or use the best allocation.";
  }
  if (kinds.has("best") || kinds.has("finish")) return "Use the best allocation, or finish your allocation.";
  return "Choose an action.";
}

function seatName(obs, comps, p) {
  if (p === null || p === undefined) return null;
  if (obs.players && obs.players[p] && obs.players[p].name) return obs.players[p].name;
  return (comps && comps.seats && comps.seats[p]) || `Seat ${p}`;
}

/** games.js `describe`: "Round 2/4 · turn 5/8 — Red: put an architect in a free slot …". */
export function describe(obs, comps) {
  if (obs.phase === "end") {
    const r = obs.result;
    if (!r || !r.winners || !r.winners.length) return `Game over after round ${obs.rounds}`;
    return `Game over after round ${obs.rounds} — ${r.winners.map(p => seatName(obs, comps, p)).join(" and ")} win${r.winners.length > 1 ? "" : "s"}`;
  }
  const who = obs.current_player !== null && obs.current_player === obs.seat ? "You" : seatName(obs, comps, obs.current_player);
  const where = obs.phase === "allocate" ? "Final allocation" : `Round ${obs.round}/${obs.rounds} · turn ${Math.min(obs.turn + 1, obs.turns)}/${obs.turns}`;
  return `${where} — ${who ? `${who}: ` : ""}${obs.decision}`;
}

/** games.js `status`: "round 2/4 · turn 5/8" for the top bar. */
export function status(obs) {
  if (obs.phase === "end") return "game over";
  if (obs.phase === "allocate") return "final allocation";
  return `round ${obs.round}/${obs.rounds} · turn ${Math.min(obs.turn + 1, obs.turns)}/${obs.turns}${obs.phase === "place" ? " · placing" : ""}`;
}

/** games.js `logClass`: rounds and the end stand out. */
export function logClass(e) {
  const k = (e.kind || "").replace(/^quadropolis\./, "");
  if (k === "round" || k === "allocation") return "round";
  if (k === "game_end") return "end";
  if (k === "round_end" || k === "setup") return "sys";
  return null;
}

/** games.js `scoring`: the score sheet's wording. */
export const scoring = {
  labels: {
    towers: "Tower blocks", shops: "Shops", public_services: "Public services", parks: "Parks",
    factories: "Factories", harbours: "Harbours", offices: "Office towers", monuments: "Monuments",
    inhabitants: "Unused inhabitants", energy: "Pollution",
  },
  total: "Total VP",
  winner: (name) => `${name} wins.`,
};
