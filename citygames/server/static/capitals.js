// The Capitals as SVG: renderCapitals(svgRoot, observation, components, legal, onAction[, opts]).
//
// Draws, from one observation (the seat's own, or a spectator's): the initiative track with every
// player's marker, the round track and phase, the projects area ($0/$2/$4 rows), the six tracks
// (money, culture, employment, population, public service, progress) with every player's marker,
// and each city as a grid of tiles with cubes, tourists and construction tokens, its power plant,
// prestige (where the observation gives it) and the Highest Culture token.
//
// Legal actions that happen at a place on the board are drawn there and are clickable: take (a
// tile in the projects area), place (an empty slot, showing its penalty), activate / free_activate
// (a tile, showing its cost), initiative (a space on the initiative track), move_token (a corner).
// renderCapitals returns the legal actions that have no place on the board (pay_cubes, tourist,
// end_activations, upgrade, decline, no_activation_reward, resolve_effect, ...) so the page can show
// them as buttons.
//
// This module is The Capitals' view for the pages (see games.js for the interface): render,
// recent, seatColors, prompt, describe, status, panels (the World Expo results), logClass, scoring.

import { cap, h, swatch } from "./app.js";
import { el, fitText as svgFit, hideTip, makeClickable as clickable, makeWhy, tip, touchMode, txt, wrap as svgWrap } from "./svg.js";

export { hideTip };


export const PLAYER_COLORS = {
  green: "#2f9e44", red: "#e03131", blue: "#1c7ed6", purple: "#9c36b5", black: "#343a40",
};

export const TYPE_STYLE = {
  housing: { head: "#d99a00", body: "#fff3c4", ink: "#5a3e00", label: "Housing" },
  industry: { head: "#5f6b78", body: "#e4e8ec", ink: "#2b3138", label: "Industry" },
  commerce: { head: "#5c940d", body: "#ebf8cf", ink: "#2d4a06", label: "Commerce" },
  tourism: { head: "#c2255c", body: "#ffe0ec", ink: "#6b0f33", label: "Tourism" },
  public: { head: "#0c7c93", body: "#d3f4f9", ink: "#08424e", label: "Public" },
};
// tiles of the Prosperity expansion and the Lakes (face-down prosperity tiles)
const EXTRA_STYLE = {
  prosperity: { head: "#6741d9", body: "#efe9ff", ink: "#35207a", label: "Prosperity" },
  lake: { head: "#1971c2", body: "#a5d8ff", ink: "#0b3d6b", label: "Lake" },
};
function styleOf(type) { return TYPE_STYLE[type] || EXTRA_STYLE[type] || OTHER_STYLE; }
const OTHER_STYLE = { head: "#7a6a55", body: "#f1ebe0", ink: "#3b3124", label: "Other" };

/** Action kinds drawn on the board; every other kind is left to the page as a button. */
export const BOARD_KINDS = new Set(["take", "place", "activate", "free_activate", "initiative", "move_token"]);

const TRACKS = [
  { key: "money", label: "Money", unit: "$" },
  { key: "culture", label: "Culture" },
  { key: "employment", label: "Employment" },
  { key: "population", label: "Population" },
  { key: "public_service", label: "Public service" },
  { key: "progress", label: "Progress" },
];

const PHASES = [
  ["politics", "Politics"], ["building", "Building"], ["executive", "Executive"],
  ["administration", "Admin"], ["world expo", "World Expo"],
];

const ROMAN = ["S", "I", "II", "III"];
const W = 1040;          // logical width of the board
const TARGET_H = 870;    // logical height the layout aims for (fits 1400x900 with the side panel)

// ---- small SVG helpers ---------------------------------------------------------------------

// capitals.js lays text out a little tighter than the shared defaults
const fitText = (parent, x, y, s, maxW, size, attrs, charW = 0.47) => svgFit(parent, x, y, s, maxW, size, attrs, charW, 1.22);
const wrap = (s, maxW, size, maxLines) => svgWrap(s, maxW, size, maxLines, 0.47, false);

// (issue 15, defect 8: no initials such as "BW" or "Subw" on a small tile; its full name wraps on
// up to three lines in a smaller narrow font, and the tooltip / details panel give it whole)

function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}


/** Tooltip HTML of a tile: name, type, density, era, each effect on its own line. */
export function tileTipHTML(tile, extra) {
  const st = styleOf(tile.type);
  const sub = [st.label, tile.density ? `${tile.density} density` : null,
    tile.era ? `era ${ROMAN[tile.era]}` : "starting tile",
    tile.cubes !== null && tile.cubes !== undefined ? `${tile.cubes} printed cube${tile.cubes === 1 ? "" : "s"}` : null]
    .filter(Boolean).join(" · ");
  const fx = String(tile.effect || "no effect").split(/\.\s+(?=[A-Z])/).map((part) => {
    const m = part.match(/^(Build|Activate[^:]*|Construction|Permanent|End):\s*(.*)$/);
    return m ? `<div class="fx"><b>${esc(m[1])}:</b> ${esc(m[2])}</div>` : `<div class="fx">${esc(part)}</div>`;
  }).join("");
  return `<div class="tt">${esc(tile.name)}</div><div class="band" style="background:${st.head}"></div>` +
    `<div class="ts">${esc(sub)}</div>${fx}${extra ? `<div class="act">${extra}</div>` : ""}`;
}

// ---- clickable elements ---------------------------------------------------------------------

// penalty and cost stay readable on the element (data-penalty, data-cost); a click hides the tooltip
function makeClickable(node, action, ctx) {
  return clickable(node, action, ctx, { data: ["penalty", "cost"], before: hideTip });
}

// ---- defs -----------------------------------------------------------------------------------

function defs(svg) {
  const d = el("defs", null, svg);
  const f = el("filter", { id: "cg-shadow", x: "-20%", y: "-20%", width: "140%", height: "150%" }, d);
  el("feDropShadow", { dx: 0, dy: 1, stdDeviation: 1.2, "flood-color": "#3d2b0f", "flood-opacity": 0.28 }, f);
  const g = el("filter", { id: "cg-glow", x: "-10%", y: "-10%", width: "120%", height: "120%" }, d);
  el("feDropShadow", { dx: 0, dy: 0, stdDeviation: 4, "flood-color": "#ffb000", "flood-opacity": 0.75 }, g);
  const hatch = el("pattern", { id: "cg-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, d);
  el("rect", { width: 6, height: 6, fill: "#ece6da" }, hatch);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#d4cab6", "stroke-width": 2 }, hatch);
}

// ---- pieces ---------------------------------------------------------------------------------

function disc(parent, x, y, r, color, attrs = {}) {
  return el("circle", { cx: x, cy: y, r, fill: color, stroke: "#fff", "stroke-width": 1.6, filter: "url(#cg-shadow)", ...attrs }, parent);
}

function cube(parent, x, y, s) {
  const g = el("g", null, parent);
  el("rect", { x, y, width: s, height: s, rx: 1, fill: "#ffa94d", stroke: "#9a4b00", "stroke-width": 0.8 }, g);
  el("path", { d: `M${x + 0.8} ${y + s * 0.35} L${x + s - 0.8} ${y + s * 0.35}`, stroke: "#ffd8a8", "stroke-width": 0.7 }, g);
  return g;
}

function car(parent, x, y, s, color, faded) {
  // a small wooden car seen from the side; (x, y) is its top-left corner, s its width
  const g = el("g", { opacity: faded ? 0.45 : 1 }, parent);
  const h = s * 0.5;
  el("path", {
    d: `M${x} ${y + h * 0.45} L${x + s * 0.2} ${y + h * 0.45} L${x + s * 0.32} ${y} L${x + s * 0.72} ${y} ` +
      `L${x + s * 0.84} ${y + h * 0.45} L${x + s} ${y + h * 0.5} L${x + s} ${y + h * 0.85} L${x} ${y + h * 0.85} Z`,
    fill: color, stroke: "#fff", "stroke-width": 0.9, filter: "url(#cg-shadow)",
  }, g);
  el("circle", { cx: x + s * 0.24, cy: y + h * 0.88, r: s * 0.11, fill: "#222" }, g);
  el("circle", { cx: x + s * 0.76, cy: y + h * 0.88, r: s * 0.11, fill: "#222" }, g);
  return g;
}

function token(parent, x, y, s, color) {
  // a construction token: a diamond in the player's colour with a white crane mark
  const g = el("g", null, parent);
  el("path", { d: `M${x} ${y - s} L${x + s} ${y} L${x} ${y + s} L${x - s} ${y} Z`, fill: color, stroke: "#fff", "stroke-width": 1.8, filter: "url(#cg-shadow)" }, g);
  el("path", { d: `M${x - s * 0.35} ${y + s * 0.35} L${x - s * 0.35} ${y - s * 0.35} L${x + s * 0.4} ${y - s * 0.35}`, fill: "none", stroke: "#fff", "stroke-width": Math.max(1, s * 0.16), "stroke-linecap": "round" }, g);
  return g;
}

/**
 * The whole cost of a choice on its face (issue 15, defect 3): a badge "$5" (or "free"), and when
 * the payment needs loans a red line "+3 loans −3★" under it; the numbers are the action's own
 * (`money`, `a.loans`, `a.loan_prestige`, the same as in its text). Class "cost-face" with
 * data-money / data-loans / data-prestige for scripts.
 */
function costFace(parent, x, y, money, a, maxW) {
  const g = el("g", { class: "cost-face", "data-money": money, "data-loans": a.loans || 0, "data-prestige": a.loan_prestige || 0 }, parent);
  const loans = a.loans || 0;
  if (!loans) {
    badge(g, x, y, money ? `pay $${money}` : "free", money ? "#b5651d" : "#2b8a3e", "#fff", 10);
    return g;
  }
  badge(g, x, y, `pay $${money}`, "#b5651d", "#fff", 10);
  const line = `+${loans} loan${loans === 1 ? "" : "s"} ${String(a.loan_prestige).replace("-", "−")}★`;
  const tg = el("g", null, g);
  el("rect", { x: x - maxW / 2, y: y + 9, width: maxW, height: 12, rx: 3, fill: "#fff0ee", stroke: "#f5b5ad", "stroke-width": 0.8 }, tg);
  fitText(tg, x, y + 18.5, line, maxW - 4, 9.5, { fill: "#c92a2a", "font-weight": 700, "text-anchor": "middle", class: "narrow" });
  return g;
}

function badge(parent, x, y, label, fill, ink = "#fff", size = 10) {
  const w = Math.max(size * 1.6, label.length * size * 0.58 + 8);
  const g = el("g", null, parent);
  el("rect", { x: x - w / 2, y: y - size * 0.85, width: w, height: size * 1.7, rx: size * 0.85, fill, stroke: "#fff", "stroke-width": 1.2, filter: "url(#cg-shadow)" }, g);
  txt(g, x, y + size * 0.36, label, { "font-size": size, "font-weight": 700, fill: ink, "text-anchor": "middle" });
  return g;
}

/**
 * One tile, top-left at (x, y), size w×h. opts: {cubes, tourists: [{color, used}], card: bool}.
 * Returns the group (the caller adds a tooltip and click handler).
 */
function drawTile(parent, x, y, w, h, tile, opts = {}) {
  const st = styleOf(tile.type);
  const g = el("g", { class: "tilehit" + (opts.recent ? " recent" : "") }, parent);
  el("rect", { class: "tframe", x, y, width: w, height: h, rx: 4, fill: st.body, stroke: st.head, "stroke-width": 1.4, filter: "url(#cg-shadow)" }, g);
  if (tile.type === "lake") {
    for (let i = 1; i <= 3; i++) {
      const yy = y + h * i / 4;
      el("path", { d: `M${x + w * 0.15} ${yy} q${w * 0.12} ${-h * 0.08} ${w * 0.23} 0 t${w * 0.23} 0 t${w * 0.23} 0`, fill: "none", stroke: "#fff", "stroke-width": Math.max(1, w * 0.025), opacity: 0.8 }, g);
    }
    if (Math.min(w, h) >= 30) txt(g, x + w / 2, y + h / 2 + 4, "Lake", { "font-size": Math.max(8, Math.min(12, w * 0.18)), "font-weight": 700, fill: st.ink, "text-anchor": "middle" });
    if (opts.revealed) txt(g, x + w / 2, y + h - 4, opts.revealed, { "font-size": Math.max(6.5, Math.min(9, w * 0.12)), fill: st.ink, "text-anchor": "middle", class: "narrow" });
    return g;
  }
  const tiny = Math.min(w, h) < 40;
  let f = Math.max(8, Math.min(11.5, Math.min(w, h * 1.2) * 0.17));
  if (opts.card) f = Math.max(8.5, Math.min(11, w * 0.125));
  if (tiny) {
    // the full name, wrapped, in the smallest legible size that fits the tile's head
    const words = String(tile.name).split(/\s+/).length;
    const fs = Math.max(6.5, Math.min(9, (w - 3) / Math.max(4, ...String(tile.name).split(/\s+/).map(x => x.length)) / 0.45));
    const lines = wrap(tile.name, w - 3, fs, Math.min(3, words));
    const lh = fs * 1.0;
    el("rect", { x, y, width: w, height: Math.max(h * 0.55, lines.length * lh + 4), rx: 4, fill: st.head }, g);
    lines.forEach((ln, i) => fitText(g, x + w / 2, y + 1 + lh * (i + 0.85), ln, w - 3, fs,
      { fill: "#fff", "font-weight": 700, "text-anchor": "middle", class: "narrow" }));
  } else {
    // the full name: a smaller size when its longest word would not fit, up to three lines
    // (issue 15, defect 8: no name cut short)
    const longest = Math.max(...String(tile.name).split(/\s+/).map(x => x.length));
    const fName = Math.max(7, Math.min(f, (w - 6) / (longest * 0.47 * 0.92)));
    const lines = wrap(tile.name, w - 6, fName, opts.card ? 2 : 3);
    const headH = lines.length * fName * 1.08 + 5;
    el("path", { d: `M${x} ${y + 4} Q${x} ${y} ${x + 4} ${y} L${x + w - 4} ${y} Q${x + w} ${y} ${x + w} ${y + 4} L${x + w} ${y + headH} L${x} ${y + headH} Z`, fill: st.head }, g);
    lines.forEach((ln, i) => fitText(g, x + w / 2, y + 2 + fName * (i + 1) * 1.02, ln, w - 6, fName,
      { fill: "#fff", "font-weight": 700, "text-anchor": "middle", class: "narrow" }));
    // body: type / density line
    const by = y + headH + f * 0.95 + 1;
    if (h - headH > f * 2.2 || opts.card) {
      const sub = opts.card
        ? (tile.density ? `${st.label} · ${tile.density}` : st.label)
        : (tile.density ? `${tile.density} density` : st.label);
      // (beside the printed-cube box when a long name's head pushes the line down to it)
      const box = Math.max(8, Math.min(13, Math.min(w, h) * 0.2));
      const sx = tile.cubes !== null && tile.cubes !== undefined && by > y + h - box - 3 ? box + 6 : 0;
      fitText(g, x + 4 + sx, by, sub, w - 8 - sx - (opts.card ? f * 1.6 : 0), f * 0.86, { fill: st.ink, class: "narrow" });
    } else if (tile.density) {
      fitText(g, x + 4, by, tile.density[0].toUpperCase(), w / 2, f * 0.86, { fill: st.ink, "font-weight": 700 });
    }
    if (opts.card) {
      txt(g, x + w - 4, by, tile.type === "prosperity" ? "" : (ROMAN[tile.era] || ""), { "font-size": f * 0.8, fill: st.ink, "text-anchor": "end", opacity: 0.7, "font-weight": 700 });
    }
  }
  // printed cubes (activation cost base): a white cube with the number, bottom-left
  const bs = Math.max(8, Math.min(13, Math.min(w, h) * 0.2));
  let cx = x + 3;
  const cy = y + h - bs - 3;
  if (tile.cubes !== null && tile.cubes !== undefined && !tiny) {
    el("rect", { x: cx, y: cy, width: bs, height: bs, rx: 1.5, fill: "#fff", stroke: "#6b5a3a", "stroke-width": 0.9 }, g);
    txt(g, cx + bs / 2, cy + bs * 0.8, String(tile.cubes), { "font-size": bs * 0.82, "text-anchor": "middle", fill: "#3b2f1e", "font-weight": 700 });
    cx += bs + 3;
  }
  // energy cubes on the tile
  const n = opts.cubes || 0;
  if (n > 0) {
    const s = Math.max(6, bs * 0.85);
    if (n <= 3 || tiny) {
      for (let i = 0; i < Math.min(n, tiny ? 2 : 3); i++) cube(g, cx + i * (s + 1.5), cy + (bs - s) / 2, s);
      if (tiny && n > 2) txt(g, cx + 2 * (s + 1.5), cy + bs * 0.8, `+${n - 2}`, { "font-size": s, fill: "#9a4b00", "font-weight": 700 });
    } else {
      cube(g, cx, cy + (bs - s) / 2, s);
      txt(g, cx + s + 2, cy + bs * 0.8, `×${n}`, { "font-size": s * 1.1, fill: "#9a4b00", "font-weight": 700 });
    }
  }
  // tourists parked on the tile, bottom-right
  const ts = opts.tourists || [];
  const cs = Math.max(11, Math.min(18, w * 0.26));
  const carY = tiny ? y + h - cs * 0.5 - 3 : Math.max(y + h * 0.45, cy - cs * 0.55 - 2);
  ts.forEach((t, i) => car(g, x + w - 3 - cs - i * (cs * 0.75), carY, cs, PLAYER_COLORS[t.color] || t.color, t.used));
  if (opts.recent) {
    const r = Math.max(3, Math.min(5, w * 0.07));
    el("circle", { cx: x + w - r - 3, cy: y + r + 3, r, fill: "#ffd43b", stroke: "#fff", "stroke-width": 1.2 }, g);
  }
  return g;
}

// ---- the board ------------------------------------------------------------------------------

/** Tile ids built since the current round began, from the log (for opts.recentTiles). */
export function recentTiles(log) {
  const out = [];
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.kind === "capitals.round") break;
    if ((e.kind === "capitals.build" || e.kind === "capitals.prosperity") && e.data && e.data.tile) out.push(e.data.tile);
  }
  return out;
}

/**
 * Draw The Capitals into `svgRoot` (an <svg> element; its content is replaced).
 *
 * @param {SVGSVGElement} svgRoot
 * @param {object} obs          state.observation(seat) (seat null: spectator)
 * @param {object} comp         game.components_json()
 * @param {Array} legal         action_json list for the seat to move ([] when it is not yours)
 * @param {Function|null} onAction  called with (action_id, action) when a legal element is clicked
 * @param {object} [opts]       {names: [seat names], busy: bool}
 * @returns {Array} the legal actions not drawn on the board (show them as buttons)
 */
export function renderCapitals(svgRoot, obs, comp, legal, onAction, opts = {}) {
  hideTip();
  while (svgRoot.firstChild) svgRoot.removeChild(svgRoot.firstChild);
  svgRoot.classList.add("capitals");
  svgRoot.setAttribute("preserveAspectRatio", "xMidYMin meet");
  legal = legal || [];
  const n = obs.num_players;
  const colors = comp.colors;
  const names = (opts.names && opts.names.length === n) ? opts.names : colors.slice(0, n).map(cap);
  const ctx = {
    obs, comp, n, names, legal, recent: new Set(opts.recentTiles || []),
    onAction: typeof onAction === "function" ? onAction : null,
    onWhy: typeof opts.onWhy === "function" ? opts.onWhy : null,
    pcol: (p) => PLAYER_COLORS[colors[p]] || colors[p],
    drawn: new Set(),
    take: new Map(), place: new Map(), act: new Map(), init: new Map(), corner: new Map(),
  };
  for (const a of legal) {
    if (a.kind === "take") ctx.take.set(a.tile, a);
    else if ((a.kind === "place" || a.kind === "place_lake") && a.x !== undefined) ctx.place.set(`${a.x},${a.y}`, a);
    else if (a.kind === "activate" || a.kind === "free_activate") ctx.act.set(`${a.x},${a.y}`, a);
    else if (a.kind === "initiative") ctx.init.set(a.space, a);
    else if (a.kind === "move_token") ctx.corner.set(`${a.x},${a.y}`, a);
  }
  ctx.kinds = new Set(legal.map(a => a.kind));
  // the action kind a greyed slot of the player's own city answers "why not?" for (issue 15)
  ctx.cityWhy = ctx.kinds.has("end_activations") ? "activate" : ctx.kinds.has("free_activate") ? "free_activate"
    : ctx.kinds.has("place") ? "place" : ctx.kinds.has("place_lake") ? "place_lake" : null;
  ctx.mover = obs.current_player;
  ctx.myMove = ctx.onAction && legal.length > 0 && obs.seat !== null && obs.seat !== undefined ? obs.seat : null;
  svgRoot.classList.toggle("busy", !!opts.busy);

  defs(svgRoot);
  el("rect", { x: 0, y: 0, width: W, height: 4000, fill: "transparent" }, svgRoot);
  let y = drawTop(svgRoot, ctx);
  y = drawTracks(svgRoot, ctx, y + 10);
  const legendH = 26;
  const cityH = Math.max(330, TARGET_H - (y + 10) - legendH - 6);
  y = drawCities(svgRoot, ctx, y + 10, cityH);
  y = drawLegend(svgRoot, ctx, y + 6);
  svgRoot.setAttribute("viewBox", `0 0 ${W} ${Math.ceil(y + 2)}`);
  return legal.filter(a => !ctx.drawn.has(a.id));
}

function sectionLabel(parent, x, y, s) {
  return txt(parent, x, y, s.toUpperCase(), { "font-size": 10.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.08em" });
}

// Initiative track, round track, phase; projects area.
function drawTop(svg, ctx) {
  const { obs, comp } = ctx;
  const g = el("g", { class: "top" }, svg);

  // -- initiative track
  sectionLabel(g, 0, 11, "Initiative track");
  const sw = 60, sh = 64, sy = 18;
  const politics = obs.phase === "politics";
  const chosen = (obs.pending && obs.pending.chosen_spaces) || [];
  comp.initiative.forEach((sp, i) => {
    const x = i * (sw + 2);
    const usable = !sp.players_icon || sp.players_icon <= ctx.n || (comp.politics_spaces || []).includes(sp.space);
    const a = ctx.init.get(sp.space);
    const sg = el("g", { class: "space", "data-space": sp.space }, g);
    el("rect", { class: "spbg", x, y: sy, width: sw, height: sh, rx: 5, fill: usable ? "#fbf6ea" : "url(#cg-hatch)", stroke: "#cdbf9f", "stroke-width": 1 }, sg);
    el("line", { x1: x + 4, y1: sy + sh / 2, x2: x + sw - 4, y2: sy + sh / 2, stroke: "#e3d8c0", "stroke-width": 1 }, sg);
    txt(sg, x + 7, sy + 23, `$${sp.cost}`, { "font-size": 17, "font-weight": 800, fill: usable ? "#3b2f1e" : "#a89f8e" });
    txt(sg, x + 7, sy + 55, `×${sp.multiplier}`, { "font-size": 14, "font-weight": 600, fill: usable ? "#7a5a20" : "#a89f8e" });
    if (sp.players_icon) {
      el("circle", { cx: x + sw - 9, cy: sy + sh - 2, r: 7, fill: usable ? "#6b5a3a" : "#b8ae9c" }, sg);
      txt(sg, x + sw - 9, sy + sh + 1.5, String(sp.players_icon), { "font-size": 9, fill: "#fff", "text-anchor": "middle", "font-weight": 700 });
    }
    // markers
    const occupant = obs.initiative[i];
    const mark = (p, cy, faded) => {
      const c = disc(sg, x + sw - 17, cy, 10, ctx.pcol(p), faded ? { opacity: 0.4, "stroke-dasharray": "2 2" } : {});
      if (p === ctx.mover && !faded) el("circle", { cx: x + sw - 17, cy, r: 13.5, fill: "none", stroke: "#ffb000", "stroke-width": 2.5 }, sg);
      return c;
    };
    if (politics) {
      if (occupant !== null && occupant !== undefined) mark(occupant, sy + 48, true);
      chosen.forEach((s, p) => { if (s === sp.space) mark(p, sy + 18, false); });
    } else if (occupant !== null && occupant !== undefined) {
      mark(occupant, sy + sh / 2, false);
    }
    const tipText = `<div class="tt">Initiative space ${sp.space}</div><div class="ts">$${sp.cost} × the multiplier of the space you leave (this one: ×${sp.multiplier})` +
      `${sp.players_icon ? `; needs ${sp.players_icon}+ players` : ""}</div>` +
      (occupant !== null && occupant !== undefined ? `<div class="fx">${esc(ctx.names[occupant])}'s marker${politics ? " (before this politics phase)" : ""}</div>` : "") +
      (a ? `<div class="act">${esc(a.text)}</div>` : "");
    tip(sg, tipText);
    if (a && makeClickable(sg, a, ctx)) {
      el("rect", { class: "hl", x: x - 1, y: sy - 1, width: sw + 2, height: sh + 2, rx: 6 }, sg);
      costFace(sg, x + sw / 2, sy + sh + 10, a.cost, a, sw + 2);
    } else if (!a && ctx.init.size && politics) {
      // a space the player cannot choose now: a click says why (issue 15, "why can't I do this?")
      if (makeWhy(sg, { kind: "initiative", arg: sp.space - 1 }, ctx, `Initiative space ${sp.space}`)) {
        txt(sg, x + sw / 2, sy + sh + 13, "why not?", { "font-size": 8.5, fill: "#a89f8e", "text-anchor": "middle", "font-style": "italic", class: "whylabel" });
      }
    }
  });

  // -- round track
  const ry = 124;
  sectionLabel(g, 0, ry - 4, `Round ${obs.round} of ${comp.rounds} · era ${ROMAN[obs.era] || obs.era}`);
  const eraFill = ["#f3ead6", "#efe3c8", "#e4cfa2", "#d5b57a"];
  for (let r = 1; r <= comp.rounds; r++) {
    const x = (r - 1) * 31;
    const era = Math.ceil(r / (comp.rounds / 3));
    const current = r === obs.round && !obs.terminal;
    const expo = comp.expo_rounds.includes(r);
    el("rect", { x, y: ry + 2, width: 29, height: 24, rx: 4, fill: current ? "#2d2a26" : eraFill[era], stroke: current ? "#000" : "#cdbf9f", "stroke-width": current ? 1.5 : 1 }, g);
    txt(g, x + 14.5, ry + 19, String(r), { "font-size": 12, "font-weight": 700, "text-anchor": "middle", fill: current ? "#fff" : (r < obs.round || obs.terminal ? "#a89f8e" : "#3b2f1e") });
    if ((obs.prosperity_rounds || []).includes(r)) {
      el("circle", { cx: x + 24.5, cy: ry + 6.5, r: 3.6, fill: "#6741d9", stroke: "#fff", "stroke-width": 1 }, g);
    }
    if (expo) {
      el("rect", { x: x + 3, y: ry + 28, width: 23, height: 10, rx: 3, fill: "#f0b400" }, g);
      txt(g, x + 14.5, ry + 36, "EXPO", { "font-size": 6.8, "font-weight": 800, "text-anchor": "middle", fill: "#4a3500" });
    }
  }

  // -- phase chips
  const py = 168;
  const phases = PHASES.slice();
  if (obs.prosperity) phases.splice(4, 0, ["prosperity", "Prosperity"]);
  if (!phases.some(([k]) => k === obs.phase) && !obs.terminal && obs.phase) phases.push([obs.phase, cap(obs.phase)]);
  const chipW = 370 / phases.length;
  phases.forEach(([key, label], i) => {
    const x = i * chipW;
    const on = obs.phase === key;
    el("rect", { x, y: py, width: chipW - 4, height: 22, rx: 11, fill: on ? "#b5651d" : "#efe6d3", stroke: on ? "#8a4a12" : "#d8ccb2" }, g);
    fitText(g, x + (chipW - 4) / 2, py + 15, label, chipW - 10, chipW < 66 ? 10 : 11, { "font-weight": on ? 700 : 500, fill: on ? "#fff" : "#7a6a4d", "text-anchor": "middle" });
  });
  if (obs.terminal) {
    el("rect", { x: 0, y: py, width: 364, height: 22, rx: 11, fill: "#2b8a3e" }, g);
    txt(g, 182, py + 15, "Game over", { "font-size": 12, "font-weight": 700, fill: "#fff", "text-anchor": "middle" });
  }
  txt(g, 0, py + 36, `Decks: era I ${obs.deck_sizes["1"]} · II ${obs.deck_sizes["2"]} · III ${obs.deck_sizes["3"]} tiles`, { "font-size": 10.5, fill: "#8a7a5a" });

  // -- projects area
  const px = 392;
  const pw = W - px;
  sectionLabel(g, px, 11, "Projects area");
  txt(g, W, 11, touchMode() ? "tap a tile for its effects" : "hover a tile for its effects", { "font-size": 10, fill: "#a89f8e", "text-anchor": "end", "font-style": "italic" });
  const pending = obs.pending && obs.pending.tile && String(obs.step).startsWith("choose where to build") ? obs.pending.tile : null;
  const rowH = 56, rowGap = 5, labelW = 42;
  const rightW = pending ? 118 : 0;
  const rows = obs.projects;
  const maxLen = Math.max(4, ...rows.map(r => r.length));
  const tw = Math.min(104, (pw - labelW - rightW - 4 - (maxLen - 1) * 5) / maxLen);
  rows.forEach((row, ri) => {
    const y = 18 + ri * (rowH + rowGap);
    el("rect", { x: px, y, width: pw - rightW, height: rowH, rx: 6, fill: "#efe6d3", stroke: "#ddd0b4" }, g);
    txt(g, px + labelW / 2, y + rowH / 2 + 6, `$${obs.row_prices[ri]}`, { "font-size": 17, "font-weight": 800, fill: "#7a5a20", "text-anchor": "middle" });
    if (!row.length) txt(g, px + labelW + 8, y + rowH / 2 + 4, "empty", { "font-size": 11, fill: "#b3a68a", "font-style": "italic" });
    row.forEach((tid, i) => {
      const tile = comp.tiles[tid];
      if (!tile) return;
      const x = px + labelW + i * (tw + 5);
      const tg = el("g", { class: "project", "data-tile": tid }, g);
      drawTile(tg, x, y + 4, tw, rowH - 8, tile, { card: true });
      const a = ctx.take.get(tid);
      tip(tg, () => tileTipHTML(tile, a ? esc(a.text) : `costs $${obs.row_prices[ri]} to take`));
      if (a && makeClickable(tg, a, ctx)) {
        el("rect", { class: "hl", x: x - 2, y: y + 2, width: tw + 4, height: rowH - 4, rx: 6 }, tg);
        costFace(tg, x + tw / 2, y + rowH - 15, a.price, a, tw);
      } else if (!a && ctx.take.size) {
        makeWhy(tg, { kind: "take", arg: Object.keys(comp.tiles).indexOf(tid) }, ctx, `Take ${tile.name}`);
      }
    });
  });
  if (pending && comp.tiles[pending]) {
    const x = W - rightW + 10;
    const tile = comp.tiles[pending];
    txt(g, x, 30, "Now building:", { "font-size": 11, "font-weight": 700, fill: "#7a5a20" });
    const tg = el("g", { class: "pending-tile" }, g);
    drawTile(tg, x, 38, rightW - 12, 70, tile, { card: true });
    el("rect", { x: x - 2, y: 36, width: rightW - 8, height: 74, rx: 6, fill: "none", stroke: ctx.pcol(ctx.mover), "stroke-width": 2.5, "stroke-dasharray": "5 3" }, tg);
    tip(tg, () => tileTipHTML(tile, "choose a slot in the city"));
    txt(g, x, 124, "pick a slot in", { "font-size": 10.5, fill: "#7a6a4d" });
    txt(g, x, 137, `${ctx.names[ctx.mover]}'s city`, { "font-size": 10.5, fill: "#7a6a4d" });
  }
  return 18 + 3 * (rowH + rowGap);
}

// The six tracks, each a row of spaces with every player's marker, values at the right.
function drawTracks(svg, ctx, y0) {
  const { obs, comp, n } = ctx;
  const g = el("g", { class: "tracks" }, svg);
  const labelW = 104, colW = n > 4 ? 30 : 34, valW = colW * n + 6;
  const x0 = labelW, x1 = W - valW;
  const rowH = 22;
  sectionLabel(g, 0, y0 + 9, "Tracks");
  obs.players.forEach((pl, p) => {
    const cx = x1 + 6 + colW * p + colW / 2;
    el("rect", { x: cx - colW / 2 + 2, y: y0, width: colW - 4, height: 13, rx: 3, fill: ctx.pcol(p) }, g);
    fitText(g, cx, y0 + 10, String(ctx.names[p]).split(" ")[0], colW - 6, 9, { fill: "#fff", "text-anchor": "middle", "font-weight": 700, class: "narrow" });
  });
  const parts = Object.entries(obs.plants_left || {}).map(([lvl, cs]) => `L${lvl}: ${cs.length ? cs.join(" ") : "—"}`);
  if (parts.length) {
    const pg = el("g", { class: "plants-left" }, g);
    el("rect", { x: labelW, y: y0 - 1, width: x1 - labelW - 8, height: 14, fill: "transparent" }, pg);
    fitText(pg, x1 - 8, y0 + 10, `Power plants left (cubes, best first) — ${parts.join(" · ")}`, x1 - labelW - 8, 10, { fill: "#8a7a5a", "text-anchor": "end" });
    tip(pg, `<div class="tt">Power plants left</div><div class="ts">Cubes of the plants still in each level's stack, best first; the first city to reach a level takes the best.</div>`);
  }
  let y = y0 + 16;
  const loop = comp.progress_loop || 8;
  TRACKS.forEach((tr, ti) => {
    const bounds = tr.key === "progress" ? { min: 0, max: loop - 1 } : comp.tracks[tr.key];
    const lo = bounds.min, hi = bounds.max;
    const cells = hi - lo + 1;
    const cw = (x1 - x0) / cells;
    const rg = el("g", { class: "track", "data-track": tr.key }, g);
    el("rect", { x: 0, y, width: W, height: rowH, fill: ti % 2 ? "#f7f1e4" : "#fbf7ee", rx: 3 }, rg);
    txt(rg, 6, y + 15, tr.label, { "font-size": 12, "font-weight": 600, fill: "#4a3d28" });
    for (let v = lo; v <= hi; v++) {
      const x = x0 + (v - lo) * cw;
      let fill = "#fffdf8";
      let stroke = "#e6dcc8";
      if (tr.key === "public_service" && v < 0) fill = "#fde8e8";
      if (tr.key === "public_service" && v === 0) stroke = "#8a7a5a";
      if (tr.key === "progress" && v === 0) fill = "#ffe8cc";
      const lvl = tr.key === "culture" ? comp.attraction_levels.findIndex(a => a.at === v) : -1;
      if (lvl >= 0) { fill = ["#d3f9d8", "#ffe8cc", "#d0ebff"][lvl] || "#eee"; stroke = "#c7a44a"; }
      el("rect", { x: x + 0.5, y: y + 3, width: cw - 1, height: rowH - 6, rx: 2, fill, stroke, "stroke-width": 0.8 }, rg);
      const every = cw < 15 ? 5 : 1;
      if (v % every === 0 || v === lo || v === hi) {
        txt(rg, x + cw / 2, y + rowH / 2 + 3, String(v), { "font-size": cw < 15 ? 7.5 : 9, "text-anchor": "middle", fill: "#b0a388" });
      }
      if (lvl >= 0) txt(rg, x + cw / 2, y + 2.5, `A${lvl + 1}`, { "font-size": 6.5, "text-anchor": "middle", fill: "#8a6d1a", "font-weight": 800 });
      if (tr.key === "progress" && v === 0) txt(rg, x + 5, y + rowH / 2 + 4, "⚡", { "font-size": 11, fill: "#b35c00", "font-weight": 700 });
    }
    // markers, stacked where they share a space (the 2-player neutral marker on culture: "N")
    const at = new Map();
    const put = (v, who) => {
      v = Math.max(lo, Math.min(hi, v));
      if (!at.has(v)) at.set(v, []);
      at.get(v).push(who);
    };
    obs.players.forEach((pl, p) => put(pl[tr.key], p));
    if (tr.key === "culture" && obs.neutral) put(obs.neutral.culture, "N");
    for (const [v, ps] of at) {
      const cx = x0 + (v - lo) * cw + cw / 2;
      const k = ps.length;
      ps.forEach((p, i) => {
        const dy = (i - (k - 1) / 2) * Math.min(4, 10 / k);
        const dx = (i - (k - 1) / 2) * Math.min(cw * 0.5, 3.5);
        const r = Math.min(6.5, cw * 0.42 + 1.2);
        if (p === "N") {
          disc(rg, cx + dx, y + rowH / 2 + dy, r, "#adb5bd", { stroke: PLAYER_COLORS[obs.neutral.color] || "#555", "stroke-width": 1.6 });
          txt(rg, cx + dx, y + rowH / 2 + dy + 3, "N", { "font-size": 8, "font-weight": 800, fill: "#fff", "text-anchor": "middle" });
        } else {
          disc(rg, cx + dx, y + rowH / 2 + dy, r, ctx.pcol(p), p === ctx.mover ? { stroke: "#ffb000", "stroke-width": 2 } : {});
        }
      });
    }
    // values
    obs.players.forEach((pl, p) => {
      const cx = x1 + 6 + colW * p + colW / 2;
      let v = pl[tr.key];
      let s = tr.unit === "$" ? `$${v}` : String(v);
      txt(rg, cx, y + 15.5, s, { "font-size": 12.5, "font-weight": 700, fill: ctx.pcol(p), "text-anchor": "middle" });
    });
    const tipHtml = () => {
      const vals = obs.players.map((pl, p) => `<div class="fx"><span class="swatch" style="background:${ctx.pcol(p)}"></span> ${esc(ctx.names[p])}: <b>${tr.unit === "$" ? "$" : ""}${pl[tr.key]}</b>` +
        (tr.key === "progress" ? ` (total ${pl.progress_total}, plant level ${pl.plant.level})` : "") + "</div>").join("") +
        (tr.key === "culture" && obs.neutral ? `<div class="fx">N = the neutral marker (2-player variant): <b>${obs.neutral.culture}</b></div>` : "");
      const notes = {
        money: "At least $1 after every payment (loans: +$3 for −1 prestige). Final scoring: 1 prestige per $4.",
        culture: `Highest culture takes the lowest city's tourist; attraction levels at ${comp.attraction_levels.map(a => a.at).join(", ")} take more. Final scoring: 1 prestige per 2 culture.`,
        employment: "Scored at each World Expo; never above population.",
        population: "Population minus employment is unemployment (−1 prestige each at the Expo, at most −3).",
        public_service: "At each World Expo it moves progress, and −2 prestige per city higher on it.",
        progress: `A loop of ${loop} spaces; passing ⚡ lets the city upgrade its power plant.`,
      }[tr.key];
      return `<div class="tt">${tr.label}</div><div class="ts">${esc(notes)}</div>${vals}`;
    };
    tip(rg, tipHtml);
    y += rowH + 1;
  });
  return y;
}

// Each city: header (name, plant, prestige, tourists, Highest Culture) and the grid of tiles.
function drawCities(svg, ctx, y0, H) {
  const { obs, comp, n } = ctx;
  const g = el("g", { class: "cities" }, svg);
  const gap = 10;
  const me = obs.seat;
  const weights = obs.players.map((_, p) => (me !== null && me !== undefined && p === me ? (n >= 4 ? 1.5 : 1.25) : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const avail = W - gap * (n - 1);
  let x = 0;
  obs.players.forEach((pl, p) => {
    const w = avail * weights[p] / total;
    drawCity(g, ctx, pl, p, x, y0, w, H);
    x += w + gap;
  });
  return y0 + H;
}

function cityBounds(pl, ctx, mine) {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  const add = (x, y) => { minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); };
  for (const t of pl.city) add(t.x, t.y);
  if (minX === Infinity) add(0, 0);
  const addCorner = (cx, cy) => {
    if (cx < minX) minX = cx;
    if (cx > maxX + 1) maxX = cx - 1;
    if (cy < minY) minY = cy;
    if (cy > maxY + 1) maxY = cy - 1;
  };
  for (const [cx, cy] of pl.construction_tokens) addCorner(cx, cy);
  if (mine) {
    for (const a of ctx.place.values()) add(a.x, a.y);
    for (const a of ctx.corner.values()) addCorner(a.x, a.y);
  }
  return { minX, maxX, minY, maxY };
}

/** The action argument of city slot (x, y): (y + g//2) * g + x + g//2, g the grid side (components). */
function slotArg(comp, x, y) {
  const g = comp.grid;
  if (!Number.isInteger(g)) return null;
  const o = Math.floor(g / 2);
  return x + o >= 0 && x + o < g && y + o >= 0 && y + o < g ? (y + o) * g + x + o : null;
}

/** The words of a greyed city slot's "why not?" by the action kind it answers for. */
const CITY_WHY = {
  activate: (name) => `Activate ${name}`, free_activate: (name) => `Activate ${name} for free`,
  place: (name, x, y) => name ? `Build on ${name}` : `Build at (${x}, ${y})`,
  place_lake: (name, x, y) => name ? `Put the Lake on ${name}` : `Put the Lake at (${x}, ${y})`,
};

/**
 * Make a slot of the player's own city that the current step cannot use a "why not?" target
 * (issue 15, rules help): a tile that cannot be activated (or freely activated), a slot where the
 * tile in hand cannot be built. A small grey "?" marks a greyed tile in the executive phase.
 */
function cityWhy(node, ctx, x, y, name, bx, by, ts) {
  const arg = slotArg(ctx.comp, x, y);
  if (!ctx.cityWhy || arg === null) return false;
  if (!makeWhy(node, { kind: ctx.cityWhy, arg }, ctx, CITY_WHY[ctx.cityWhy](name, x, y))) return false;
  if (name && (ctx.cityWhy === "activate" || ctx.cityWhy === "free_activate")) {
    const bg = badge(node, bx + ts - 8, by + 8, "?", "#adb5bd", "#fff", Math.max(8.5, Math.min(11, ts * 0.17)));
    bg.setAttribute("class", "whybadge");
  }
  return true;
}

function drawCity(parent, ctx, pl, p, x0, y0, w, H) {
  const { obs, comp } = ctx;
  const g = el("g", { class: "city", "data-seat": p }, parent);
  const col = ctx.pcol(p);
  const active = ctx.mover === p && !obs.terminal;
  const mine = ctx.myMove === p;
  const you = obs.seat === p;
  // panel
  el("rect", {
    x: x0, y: y0, width: w, height: H, rx: 8, fill: active ? "#fffef6" : "#fffdf8",
    stroke: active ? col : "#d9cfb8", "stroke-width": active ? 3 : 1.2, filter: active ? "url(#cg-glow)" : "url(#cg-shadow)",
  }, g);
  el("path", { d: `M${x0} ${y0 + 8} Q${x0} ${y0} ${x0 + 8} ${y0} L${x0 + w - 8} ${y0} Q${x0 + w} ${y0} ${x0 + w} ${y0 + 8} L${x0 + w} ${y0 + 7} L${x0} ${y0 + 7} Z`, fill: col }, g);
  // header line 1: name, tags; prestige at the right
  const narrow = w < 260;
  const hy = y0 + 26;
  disc(g, x0 + 16, hy - 5, 8, col);
  let tags = [];
  if (you) tags.push(["YOU", "#2d2a26"]);
  if (active) tags.push([narrow ? "▶" : "▶ to move", "#b5651d"]);
  const prestige = pl.prestige;
  const prestW = narrow ? 44 : 76;
  const tagW = tags.reduce((s, [t]) => s + t.length * 6.4 + 14, 0);
  const nameW = w - 30 - prestW - tagW - 8;
  const nameNode = fitText(g, x0 + 29, hy, ctx.names[p], Math.max(30, nameW), 14, { "font-weight": 700, fill: "#2d2a26" }, 0.55);
  let tx = x0 + 29 + Math.min(Math.max(30, nameW), ctx.names[p].length * 14 * 0.55) + 8;
  for (const [t, c] of tags) {
    const tw = t.length * 6.4 + 10;
    el("rect", { x: tx, y: hy - 12, width: tw, height: 16, rx: 8, fill: c }, g);
    txt(g, tx + tw / 2, hy, t, { "font-size": 10, "font-weight": 700, fill: "#fff", "text-anchor": "middle" });
    tx += tw + 4;
  }
  void nameNode;
  const pg = el("g", { class: "prestige" }, g);
  const ptxt = prestige === null || prestige === undefined ? "?" : String(prestige);
  el("rect", { x: x0 + w - prestW - 8, y: hy - 13, width: prestW, height: 18, rx: 9, fill: prestige === null || prestige === undefined ? "#ece6da" : "#fff3bf", stroke: "#d9c27a" }, pg);
  txt(pg, x0 + w - prestW / 2 - 8, hy + 0.5, narrow ? `★ ${ptxt}` : `★ ${ptxt} prestige`, { "font-size": 11, "font-weight": 700, fill: "#6b4e00", "text-anchor": "middle" });
  tip(pg, prestige === null || prestige === undefined
    ? `<div class="tt">Prestige</div><div class="ts">Prestige tokens are kept face down: hidden until the end of the game.</div>`
    : `<div class="tt">Prestige: ${prestige}</div><div class="ts">${you && !obs.terminal ? "Only you can see this." : "Prestige so far."}</div>`);

  // header line 2: power plant, Highest Culture token, tourists beside the city
  const ly = y0 + 44;
  const plant = pl.plant;
  const plg = el("g", { class: "plant" }, g);
  el("rect", { x: x0 + 8, y: ly - 12, width: 30, height: 17, rx: 3, fill: "#e8590c", stroke: "#a33d00" }, plg);
  txt(plg, x0 + 23, ly + 0.5, `L${plant.level}`, { "font-size": 11, "font-weight": 800, fill: "#fff", "text-anchor": "middle" });
  cube(plg, x0 + 43, ly - 10, 10);
  const plantTxt = narrow ? `${plant.cubes} · ${plant.activations} act` : `${plant.cubes} cubes · ${plant.activations} activation${plant.activations === 1 ? "" : "s"}`;
  txt(plg, x0 + 57, ly, plantTxt, { "font-size": 11, fill: "#4a3d28", "font-weight": 600 });
  tip(plg, `<div class="tt">Power plant, level ${plant.level}</div><div class="ts">${plant.cubes} energy cubes on it; ${plant.activations} activation${plant.activations === 1 ? "" : "s"} per round` +
    `${obs.highest_culture === p ? " (+1 from the Highest Culture token)" : ""}.</div>` +
    (pl.pending_upgrades ? `<div class="fx">${pl.pending_upgrades} upgrade(s) pending</div>` : ""));
  let rx = x0 + w - 8;
  if (obs.highest_culture === p) {
    const hg = el("g", { class: "hc-token" }, g);
    const hw = narrow ? 26 : 94;
    el("rect", { x: rx - hw, y: ly - 12, width: hw, height: 17, rx: 8.5, fill: "#f0b400", stroke: "#a37800" }, hg);
    txt(hg, rx - hw / 2, ly + 0.5, narrow ? "HC" : "Highest Culture", { "font-size": 10, "font-weight": 800, fill: "#3d2c00", "text-anchor": "middle" });
    tip(hg, `<div class="tt">Highest Culture token</div><div class="ts">${esc(ctx.names[p])} is highest on culture: +1 activation this round, and tourists come here.</div>`);
    rx -= hw + 6;
  }
  const beside = pl.tourists.filter(t => !t.on);
  if (beside.length) {
    const tg = el("g", { class: "tourists-beside" }, g);
    beside.forEach((t, i) => car(tg, rx - 22 - i * 19, ly - 10, 18, PLAYER_COLORS[t.color] || t.color, t.used));
    tip(tg, `<div class="tt">Tourists beside the city</div>` + beside.map(t => `<div class="fx"><span class="swatch" style="background:${PLAYER_COLORS[t.color]}"></span> ${esc(cap(t.color))} tourist${t.used ? " (used this phase)" : " (free to use)"}</div>`).join(""));
  }

  // Prosperity: the seat's own hand (names, buildable or not), the others' hand sizes
  let headH = 56;
  if (obs.prosperity) {
    const py = y0 + 64;
    const hg = el("g", { class: "prosperity-hand" }, g);
    const hand = pl.prosperity_hand;
    txt(hg, x0 + 8, py + 3, "Prosperity:", { "font-size": 10, "font-weight": 700, fill: "#6741d9" });
    if (Array.isArray(hand)) {
      let hx = x0 + 66;
      for (const item of hand) {
        const tile = comp.tiles[item.tile];
        if (!tile) continue;
        const label = tile.name;
        const cw = Math.min(label.length * 5.2 + 10, 110);
        if (hx + cw > x0 + w - 6) { txt(hg, hx, py + 3, "…", { "font-size": 11, fill: "#6741d9" }); break; }
        const cg = el("g", null, hg);
        el("rect", { x: hx, y: py - 8, width: cw, height: 15, rx: 7.5, fill: item.can_build ? "#6741d9" : "#efe9ff", stroke: "#6741d9", "stroke-width": 1 }, cg);
        fitText(cg, hx + cw / 2, py + 3, label, cw - 8, 9.5, { fill: item.can_build ? "#fff" : "#35207a", "text-anchor": "middle", "font-weight": 600, class: "narrow" });
        tip(cg, () => tileTipHTML(tile, `${item.can_build ? "Can be built now" : "Cannot be built now"}: ${esc(item.why || "")}`));
        // the prosperity step: a tile of the hand that cannot be built answers "why not?" (issue 15)
        const lake = mine && !item.can_build ? ctx.legal.find(x => x.kind === "lake" && x.tile === item.tile) : null;
        if (lake) makeWhy(cg, { kind: "prosperity", arg: lake.arg }, ctx, `Build ${tile.name}`);
        hx += cw + 4;
      }
      if (!hand.length) txt(hg, x0 + 66, py + 3, "none left", { "font-size": 10, fill: "#7a6a4d" });
    } else {
      const k = pl.prosperity_hand_size ?? 0;
      txt(hg, x0 + 66, py + 3, `${k} face-down tile${k === 1 ? "" : "s"} in hand`, { "font-size": 10, fill: "#7a6a4d" });
    }
    headH = 74;
  }

  // grid
  const gy0 = y0 + headH, gx0 = x0 + 8;
  const gw = w - 16, gh = H - headH - 8;
  const b = cityBounds(pl, ctx, mine);
  const cols = b.maxX - b.minX + 1, rows = b.maxY - b.minY + 1;
  const ts = Math.max(18, Math.min(88, Math.floor(Math.min(gw / cols, gh / rows))));
  const ox = gx0 + (gw - cols * ts) / 2;
  const oy = gy0 + Math.max(0, (gh - rows * ts) / 2);
  const px = (cx) => ox + (cx - b.minX) * ts;
  const py = (cy) => oy + (cy - b.minY) * ts;
  const occupied = new Map(pl.city.map(t => [`${t.x},${t.y}`, t]));
  // the land
  el("rect", { x: ox - 3, y: oy - 3, width: cols * ts + 6, height: rows * ts + 6, rx: 6, fill: "#f1eadb", stroke: "#e2d6bd" }, g);
  for (let cy = b.minY; cy <= b.maxY; cy++) {
    for (let cx = b.minX; cx <= b.maxX; cx++) {
      if (occupied.has(`${cx},${cy}`)) continue;
      const eg = el("rect", { x: px(cx) + 2, y: py(cy) + 2, width: ts - 4, height: ts - 4, rx: 3, fill: "#f8f3e8", stroke: "#e6dcc8", "stroke-dasharray": "3 3" }, g);
      // an empty slot the tile in hand cannot go on (issue 15, "why not?")
      if (mine && (ctx.cityWhy === "place" || ctx.cityWhy === "place_lake") && !ctx.place.has(`${cx},${cy}`)) {
        const wg = el("g", { class: "slot-why", "data-x": cx, "data-y": cy }, g);
        wg.appendChild(eg);
        tip(wg, `<div class="tt">Empty slot (${cx}, ${cy})</div>`);
        cityWhy(wg, ctx, cx, cy, null, px(cx), py(cy), ts);
      }
    }
  }
  const touristsOn = new Map();
  for (const t of pl.tourists) if (t.on) {
    const k = `${t.on[0]},${t.on[1]}`;
    if (!touristsOn.has(k)) touristsOn.set(k, []);
    touristsOn.get(k).push(t);
  }
  const lakes = new Map((pl.lakes || []).map(l => [`${l.x},${l.y}`, l.revealed]));
  const pendSlot = obs.pending && Array.isArray(obs.pending.slot) && active ? `${obs.pending.slot[0]},${obs.pending.slot[1]}` : null;
  for (const t of pl.city) {
    const tile = comp.tiles[t.tile];
    if (!tile) continue;
    const k = `${t.x},${t.y}`;
    const tg = el("g", { class: "ctile", "data-x": t.x, "data-y": t.y, "data-tile": t.tile }, g);
    const tourists = touristsOn.get(k) || [];
    const revealedId = lakes.get(k);
    const revealed = revealedId && comp.tiles[revealedId] ? comp.tiles[revealedId].name : null;
    drawTile(tg, px(t.x) + 2, py(t.y) + 2, ts - 4, ts - 4, tile, { cubes: t.cubes, tourists, recent: ctx.recent.has(t.tile), revealed });
    const a = mine ? ctx.act.get(k) : null;
    const extra = [];
    if (revealed) extra.push(`a Lake: the face-down ${revealed}`);
    if (ctx.recent.has(t.tile)) extra.push("built this round");
    if (t.cubes) extra.push(`${t.cubes} energy cube${t.cubes === 1 ? "" : "s"} on it`);
    if (tourists.length) extra.push(`${tourists.map(x => cap(x.color)).join(", ")} tourist${tourists.length > 1 ? "s" : ""} on it`);
    tip(tg, () => tileTipHTML(tile, [a ? esc(a.text) : null, extra.length ? esc(extra.join("; ")) : null].filter(Boolean).join("<br>")));
    if (k === pendSlot) {
      el("rect", { x: px(t.x), y: py(t.y), width: ts, height: ts, rx: 5, fill: "none", stroke: "#e8590c", "stroke-width": 3.5 }, tg);
      badge(tg, px(t.x) + ts / 2, py(t.y) + ts - 2, "activating", "#e8590c", "#fff", Math.max(7.5, Math.min(10, ts * 0.14)));
    }
    if (a && makeClickable(tg, a, ctx)) {
      el("rect", { class: "hl", x: px(t.x) + 0.5, y: py(t.y) + 0.5, width: ts - 1, height: ts - 1, rx: 5 }, tg);
      const label = a.kind === "free_activate" ? "free" : `${a.cost}`;
      const bg = badge(tg, px(t.x) + ts - 8, py(t.y) + 8, label, a.kind === "free_activate" ? "#2b8a3e" : "#e8590c", "#fff", Math.max(8.5, Math.min(11, ts * 0.17)));
      bg.setAttribute("class", "cost");
    } else if (mine && !a && k !== pendSlot) {
      cityWhy(tg, ctx, t.x, t.y, tile.name, px(t.x), py(t.y), ts);
    }
  }
  // legal empty slots
  if (mine) {
    for (const a of ctx.place.values()) {
      const sg = el("g", { class: "slot", "data-x": a.x, "data-y": a.y }, g);
      el("rect", { class: "slotbg", x: px(a.x) + 2, y: py(a.y) + 2, width: ts - 4, height: ts - 4, rx: 4, fill: "transparent" }, sg);
      makeClickable(sg, a, ctx);
      el("rect", { class: "hl", x: px(a.x) + 2, y: py(a.y) + 2, width: ts - 4, height: ts - 4, rx: 4, "stroke-dasharray": a.penalty ? "5 3" : null }, sg);
      const fs = Math.max(10, Math.min(18, ts * 0.3));
      if (a.kind === "place_lake") {
        txt(sg, px(a.x) + ts / 2, py(a.y) + ts / 2 + fs * 0.3, "Lake", { "font-size": fs * 0.8, "font-weight": 800, fill: "#1971c2", "text-anchor": "middle" });
      } else if (a.penalty) {
        txt(sg, px(a.x) + ts / 2, py(a.y) + ts / 2 + fs * 0.36, `${a.penalty}`.replace("-", "−"), { "font-size": fs, "font-weight": 800, fill: "#c92a2a", "text-anchor": "middle" });
        if (ts >= 44) txt(sg, px(a.x) + ts / 2, py(a.y) + ts / 2 + fs * 0.36 + fs * 0.7, "prestige", { "font-size": fs * 0.45, fill: "#c92a2a", "text-anchor": "middle" });
      } else {
        txt(sg, px(a.x) + ts / 2, py(a.y) + ts / 2 + fs * 0.36, "✓", { "font-size": fs, "font-weight": 800, fill: "#2b8a3e", "text-anchor": "middle" });
        if (ts >= 44) txt(sg, px(a.x) + ts / 2, py(a.y) + ts / 2 + fs * 0.36 + fs * 0.7, "no penalty", { "font-size": fs * 0.45, fill: "#2b8a3e", "text-anchor": "middle" });
      }
      tip(sg, `<div class="tt">Build here (${a.x}, ${a.y})</div><div class="ts">${esc(a.text)}</div>` +
        (a.kind === "place_lake" ? "" : `<div class="act">${a.penalty ? `${a.penalty} prestige placement penalty` : "no placement penalty"}</div>`));
    }
  }
  // construction tokens
  const ks = Math.max(6, Math.min(10, ts * 0.15));
  const movingToken = active && obs.pending && Number.isInteger(obs.pending.token) ? obs.pending.token : null;
  pl.construction_tokens.forEach(([cx, cy], i) => {
    const tg = el("g", { class: "token", "data-x": cx, "data-y": cy }, g);
    token(tg, px(cx), py(cy), ks, col);
    if (movingToken === i) el("circle", { cx: px(cx), cy: py(cy), r: ks + 5, fill: "none", stroke: "#e8590c", "stroke-width": 2.5, "stroke-dasharray": "3 2" }, tg);
    tip(tg, `<div class="tt">Construction token</div><div class="ts">Corner (${cx}, ${cy}). Tiles built in the 4 slots around it break no rule A.${movingToken === i ? " Its 4 slots are full: it may move now." : ""}</div>`);
  });
  if (mine) {
    for (const a of ctx.corner.values()) {
      const cg = el("g", { class: "corner", "data-x": a.x, "data-y": a.y }, g);
      el("circle", { class: "cbg", cx: px(a.x), cy: py(a.y), r: ks + 2, fill: "rgba(255,255,255,.85)", stroke: col, "stroke-width": 1.5, "stroke-dasharray": "2 2" }, cg);
      makeClickable(cg, a, ctx);
      el("circle", { class: "hl", cx: px(a.x), cy: py(a.y), r: ks + 4 }, cg);
      tip(cg, `<div class="tt">Move the construction token here</div><div class="ts">${esc(a.text)}</div>`);
    }
  }
}

function drawLegend(svg, ctx, y) {
  const { obs } = ctx;
  const g = el("g", { class: "legend" }, svg);
  let x = 0;
  const cy = y + 12;
  for (const [type, st] of Object.entries(TYPE_STYLE)) {
    el("rect", { x, y: cy - 7, width: 14, height: 14, rx: 3, fill: st.body, stroke: st.head, "stroke-width": 3 }, g);
    txt(g, x + 18, cy + 4, st.label, { "font-size": 11, fill: "#4a3d28" });
    x += 18 + st.label.length * 6.3 + 10;
  }
  x += 4;
  el("rect", { x, y: cy - 6, width: 12, height: 12, rx: 1.5, fill: "#fff", stroke: "#6b5a3a" }, g);
  txt(g, x + 6, cy + 4, "1", { "font-size": 10, "text-anchor": "middle", "font-weight": 700 });
  txt(g, x + 16, cy + 4, "printed cubes", { "font-size": 11, fill: "#4a3d28" });
  x += 100;
  cube(g, x, cy - 5, 10);
  txt(g, x + 14, cy + 4, "energy cube", { "font-size": 11, fill: "#4a3d28" });
  x += 86;
  car(g, x, cy - 6, 18, "#777");
  txt(g, x + 22, cy + 4, "tourist", { "font-size": 11, fill: "#4a3d28" });
  x += 66;
  token(g, x + 7, cy, 7, "#777");
  txt(g, x + 18, cy + 4, "construction token", { "font-size": 11, fill: "#4a3d28" });
  x += 128;
  el("rect", { x, y: cy - 7, width: 16, height: 14, rx: 3, fill: "none", stroke: "#ffc400", "stroke-width": 3 }, g);
  txt(g, x + 21, cy + 4, "your choices (click)", { "font-size": 11, fill: "#4a3d28" });
  x += 128;
  el("circle", { cx: x + 6, cy, r: 4.5, fill: "#ffd43b", stroke: "#c9a200" }, g);
  txt(g, x + 14, cy + 4, "new this round", { "font-size": 11, fill: "#4a3d28" });
  x += 96;
  return y + 24;
}

// ---- the view interface (games.js) ----------------------------------------------------------

/** games.js `render`: renderCapitals with the page's ui object. */
export function render(svg, obs, comps, legal, ui = {}) {
  return renderCapitals(svg, obs, comps, legal, ui.onAction || null,
    { names: ui.names, busy: ui.busy, recentTiles: ui.recent, onWhy: ui.onWhy || null });
}

/** games.js `recent`: the tiles built this round (marked on the board). */
export const recent = recentTiles;

/** games.js `seatColors`: the seats' colours (green, red, blue, purple, black) as CSS colours. */
export function seatColors(comps, n) {
  const names = (comps && comps.colors) || Object.keys(PLAYER_COLORS);
  return Array.from({ length: n }, (_, p) => PLAYER_COLORS[names[p]] || names[p] || "#888");
}

const STEP_PROMPTS = {
  "take a tile from the projects area": "Click a highlighted tile in the projects area (the $2 and $4 rows cost money).",
  "choose where to build the tile": "Click a highlighted slot in your city. The number is the prestige penalty; ✓ means none.",
  "choose an initiative space": "Click a space on the initiative track; what you pay is shown under it.",
  "activate a tile or end activations": "Click a highlighted tile in your city to activate it (its cost in cubes is on the badge), or end your activations.",
  "pay the activation": "Pay the activation: with a tourist or with energy cubes from your power plant.",
  "upgrade the power plant?": "Your progress marker passed the ⚡ space: upgrade your power plant?",
  "choose a tile to activate for free": "Click a highlighted tile to activate it for free, or decline.",
  "move the construction token?": "All 4 slots around a construction token are full: click a highlighted corner to move it, or leave it.",
  "build a prosperity tile or a Lake": "Prosperity round: build one of your prosperity tiles whose requirement you meet, or reveal one and build it as a Lake (+2 energy cubes).",
  "choose where to build the Lake": "Choose where to build the Lake: any empty slot next to your city, no placement rules.",
  "choose the reward for making no activation": "You made no activation this phase: choose your reward.",
  "choose which end-game effect to resolve next": "Your end-game effects change each other's result: choose which one resolves first.",
};

/** games.js `prompt`: what to do at this step. */
export function prompt(obs) {
  const s = STEP_PROMPTS[obs.step] || "Choose an action.";
  return s;   // table.js says "Tap" on a phone (svg.js touchWords)
}

/** games.js `describe`: "Round 3 (era I) · building phase — take a tile from the projects area". */
export function describe(obs) {
  return `Round ${obs.round} (era ${"I".repeat(obs.era)}) · ${obs.phase} phase — ${obs.step}`;
}

/** games.js `status`: "round 3/10 · building". */
export function status(obs, comps) {
  return `round ${obs.round}/${comps && comps.rounds ? comps.rounds : "?"} · ${obs.phase}`;
}

/** games.js `logClass`: World Expo entries stand out. */
export function logClass(e) { return (e.kind || "").endsWith(".expo") ? "expo" : null; }

/**
 * games.js `isSkip`: an executive turn that ended by itself with a reason (issue 15, defect 6):
 * `capitals.cannot_activate`, `no_activation` or `end_activations` whose `data.why` is not the
 * ordinary "no activation left" (executive.py `why_no_activation`).
 */
export function isSkip(e) {
  return !!e && !!e.data && typeof e.data.why === "string" && e.data.why !== "no activation left" &&
    /^capitals\.(cannot_activate|no_activation|end_activations)$/.test(e.kind || "");
}

/** games.js `panels`: the World Expo results so far. */
export function panels(log, { colors, names }) {
  const t = expoTable(log, colors, names);
  return t ? [{ id: "expo-card", class: "expo-card", title: "World Expo results", node: t }] : [];
}

/** games.js `scoring`: the score sheet's wording. */
export const scoring = {
  labels: {
    placement_penalties: "Placement penalties", loans: "Loans", tile_effects: "Tile effects (during play)",
    expo_employment: "World Expo: employment", expo_unemployment: "World Expo: unemployment",
    expo_public_service: "World Expo: public service", end_game_tile_effects: "End-game tile effects",
    energy_cubes: "Energy cubes", money: "Money", culture: "Culture", progress: "Progress",
  },
  total: "Total prestige",
  winner: (name) => `${name} wins and hosts the World Expo.`,
};

/** A small table of the World Expo results from the expo log entries, or null if none. */
export function expoTable(entries, colors, names) {
  const expos = (entries || []).filter(e => (e.kind || "").endsWith(".expo") && e.data);
  if (!expos.length) return null;
  const byEra = new Map();
  for (const e of expos) {
    const era = e.data.era;
    if (!byEra.has(era)) byEra.set(era, []);
    byEra.get(era).push(e);
  }
  const body = [];
  for (const [era, list] of byEra) {
    body.push(h("tr", null, h("td", { class: "era", colspan: 5 }, `World Expo, era ${ROMAN[era] || era}`)));
    for (const e of list.sort((a, b) => a.player - b.player)) {
      const d = e.data;
      const tot = (d.employment_prestige || 0) + (d.unemployment_prestige || 0) + (d.public_service_prestige || 0);
      body.push(h("tr", { title: e.text },
        h("td", null, swatch(colors[e.player]), " ", names[e.player] ?? `Seat ${e.player}`),
        h("td", null, signed(d.employment_prestige)),
        h("td", null, signed(d.unemployment_prestige)),
        h("td", null, `${signed(d.public_service_prestige)}`),
        h("td", null, h("b", null, signed(tot)), d.progress ? h("span", { class: "hint" }, ` (${signed(d.progress)} prog.)`) : null)));
    }
  }
  return h("table", null,
    h("thead", null, h("tr", null, h("th", null, "player"), h("th", { title: "employment" }, "empl."),
      h("th", { title: "unemployment" }, "unempl."), h("th", { title: "public service rank" }, "pub. s."), h("th", null, "prestige"))),
    h("tbody", null, body));
}

function signed(v) { return v > 0 ? `+${v}` : `${v ?? 0}`; }
