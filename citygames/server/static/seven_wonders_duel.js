// 7 Wonders Duel as SVG — the game's view for the pages (see games.js for the interface):
// render, recent, seatColors, prompt, describe, status, logClass, scoring.
//
// The board (one viewBox of W×H, seat 0 on the left, seat 1 on the right, the conflict track
// with seat 0's capital on the left across the top):
//   - the conflict track: 19 spaces, the pawn, both capitals, the VP zones and the military
//     tokens still on the board (2 and 5 coins);
//   - the progress tokens on the board (clickable when a science pair lets the mover take one);
//   - the centre: during the draft the revealed wonders as large cards (click one to take it);
//     during the ages the card structure in its real shape (rows overlap, columns in half-card
//     units), face-up cards in their colour with name, cost and effect (the full text in a
//     <title> tooltip), face-down backs (guild backs distinct), accessible cards highlighted.
//     Clicking an accessible card opens a small menu with its choices: construct (price or
//     chain), discard (coins) and each wonder it can build (price); unaffordable choices are
//     shown greyed. Special decisions draw a panel over the centre: the Great Library's draw
//     (the builder only), the discard pile for the Mausoleum, who starts the next age, the end.
//   - each player: coins, score (total and a score pad by category), production and trading
//     prices, science symbols, progress tokens, chains, the four wonders (built with the tucked
//     card, unbuilt with cost and price, removed greyed) and the city grouped by colour (the
//     opponent's cards are clickable for the Statue of Zeus / Circus Maximus).
//
// Clickable elements carry class "legal", data-action and data-kind (games.js convention); the
// structure's accessible cards, which only open the menu, carry class "pick" and data-card.

import { cap } from "./app.js";
import { button, el, fitText, makeClickable as clickable, makeWhy, nodeDetails, selectTarget, touchMode, txt, wrap } from "./svg.js";


const W = 1040;             // logical width of the board
const H = 844;              // logical height (fits the 1400x900 table page beside the side panel)
const PANEL_W = 266;        // a player's panel
const CX0 = 272, CX1 = 768; // the centre column
const CW = 74, CH = 106;    // a card of the structure
const HALF = 39;            // one column unit (half a card plus half a gap)
const TOP = 210, BOTTOM = 760;  // the structure's area

/** Seat colours (seat 0, seat 1). */
export const SEAT_COLORS = ["#1971c2", "#e8590c"];

const CARD_STYLE = {
  brown: { fill: "#9a6232", dark: "#5e3817", light: "#f3e4d2", label: "Raw materials (brown)" },
  grey: { fill: "#7f878f", dark: "#464d54", light: "#eceef0", label: "Manufactured goods (grey)" },
  red: { fill: "#d2382c", dark: "#861a12", light: "#ffe3e0", label: "Military (red)" },
  green: { fill: "#2b9443", dark: "#185a26", light: "#dcf5e0", label: "Scientific (green)" },
  blue: { fill: "#1f6fc4", dark: "#0d3f78", light: "#dceaff", label: "Civilian (blue)" },
  yellow: { fill: "#e3a20b", dark: "#7f5900", light: "#fff3c9", label: "Commercial (yellow)" },
  purple: { fill: "#7a3fb6", dark: "#44206c", light: "#efe3fb", label: "Guild (purple)" },
};
const COLOR_ORDER = ["brown", "grey", "yellow", "red", "blue", "green", "purple"];
const RES = {
  wood: { fill: "#6b4220", ink: "#fff", letter: "W" },
  clay: { fill: "#c1512c", ink: "#fff", letter: "C" },
  stone: { fill: "#7b8288", ink: "#fff", letter: "S" },
  glass: { fill: "#1ea2bd", ink: "#fff", letter: "G" },
  papyrus: { fill: "#e0bd62", ink: "#4a3510", letter: "P" },
};
const RES_ORDER = ["wood", "clay", "stone", "glass", "papyrus"];
const SCI = {
  armillary_sphere: "⊕", wheel: "☸", sundial: "◷", mortar_pestle: "⚗", plumb_bob: "⚲", quill: "✒", law_scales: "⚖",
};
const SCI_ORDER = ["armillary_sphere", "wheel", "sundial", "mortar_pestle", "plumb_bob", "quill", "law_scales"];
const CHAIN = {
  horseshoe: "Ω", sword: "†", tower: "♜", book: "▤", gear: "⚙", mask: "☺", moon: "☾", water_drop: "♦",
  amphora: "⚱", target: "◎", helmet: "♞", lyre: "♪", lamp: "♨", column: "‖", sun: "☀", temple: "⌂", barrel: "⛁",
};
const AGE_BACK = { 1: ["#b5773b", "#7a4a1c"], 2: ["#3f7fb8", "#1f4f7e"], 3: ["#b23a55", "#6e1b30"] };
const GUILD_BACK = ["#4b2a86", "#e0b44a"];
const ROMAN = ["", "I", "II", "III"];
const TOKEN_ABBR = ["Agr", "Arc", "Eco", "Law", "Mas", "Mat", "Phi", "Str", "The", "Urb"];
const WONDER_INK = "#4a3b28";
const GOLD = "#f2c12e";
const VP_FILL = "#5c8a16";

// ---- small SVG helpers ---------------------------------------------------------------------

function title(node, s) {
  const t = el("title", null);
  t.textContent = s;
  node.insertBefore(t, node.firstChild);
  return node;
}

function words(s) { return String(s || "").replace(/_/g, " "); }
function plural(n, s) { return `${n} ${s}${n === 1 ? "" : "s"}`; }

// ---- icons ----------------------------------------------------------------------------------

function resIcon(g, x, y, s, r) {
  const st = RES[r] || { fill: "#888", ink: "#fff", letter: "?" };
  el("rect", { x, y, width: s, height: s, rx: s * 0.2, fill: st.fill, stroke: "rgba(0,0,0,.35)", "stroke-width": 0.7 }, g);
  txt(g, x + s / 2, y + s * 0.77, st.letter, { "font-size": s * 0.72, "font-weight": 700, fill: st.ink, "text-anchor": "middle" });
}

function coinIcon(g, cx, cy, r, label, opts = {}) {
  el("circle", { cx, cy, r, fill: opts.fill || GOLD, stroke: opts.stroke || "#9c7408", "stroke-width": Math.max(0.8, r * 0.13) }, g);
  if (label !== undefined && label !== null && label !== "") {
    const s = String(label);
    fitText(g, cx, cy + r * 0.38, s, r * 1.7, r * (s.length > 2 ? 0.9 : 1.08), { "font-weight": 800, fill: opts.ink || "#4a3300", "text-anchor": "middle" }, 0.58);
  }
}

function vpIcon(g, cx, cy, r, label) {
  // a laurel-green medallion with the points
  el("circle", { cx, cy, r, fill: VP_FILL, stroke: "#35520a", "stroke-width": Math.max(0.8, r * 0.12) }, g);
  el("circle", { cx, cy, r: r * 0.78, fill: "none", stroke: "#b7d77a", "stroke-width": Math.max(0.5, r * 0.08), "stroke-dasharray": `${r * 0.3} ${r * 0.16}` }, g);
  if (label !== undefined && label !== null) {
    const s = String(label);
    fitText(g, cx, cy + r * 0.37, s, r * 1.6, r * (s.length > 1 ? 0.92 : 1.05), { "font-weight": 800, fill: "#fff", "text-anchor": "middle" }, 0.58);
  }
}

function shieldIcon(g, x, y, s) {
  const w = s * 0.82;
  el("path", {
    d: `M${x} ${y + s * 0.1} L${x + w / 2} ${y} L${x + w} ${y + s * 0.1} L${x + w} ${y + s * 0.5} Q${x + w} ${y + s * 0.85} ${x + w / 2} ${y + s} Q${x} ${y + s * 0.85} ${x} ${y + s * 0.5} Z`,
    fill: "#d9342b", stroke: "#7a1710", "stroke-width": Math.max(0.7, s * 0.07),
  }, g);
  el("path", { d: `M${x + w / 2} ${y + s * 0.14} L${x + w / 2} ${y + s * 0.86}`, stroke: "#ffd0cc", "stroke-width": Math.max(0.6, s * 0.08) }, g);
}

function sciIcon(g, cx, cy, r, sym, owned = true) {
  el("circle", { cx, cy, r, fill: owned ? "#2b9443" : "#f4f1ea", stroke: owned ? "#185a26" : "#c9c0ad", "stroke-width": Math.max(0.7, r * 0.1), "stroke-dasharray": owned ? null : "2 2" }, g);
  txt(g, cx, cy + r * 0.4, SCI[sym] || "?", { "font-size": r * 1.18, fill: owned ? "#fff" : "#b7ad99", "text-anchor": "middle", "font-family": "DejaVu Sans, sans-serif" });
}

function chainIcon(g, cx, cy, r, sym, from = false) {
  el("circle", { cx, cy, r, fill: from ? "#fff8e1" : "#fff", stroke: from ? "#b8860b" : "#333", "stroke-width": Math.max(0.7, r * 0.12), "stroke-dasharray": from ? `${r * 0.4} ${r * 0.2}` : null }, g);
  txt(g, cx, cy + r * 0.42, CHAIN[sym] || "?", { "font-size": r * 1.2, fill: "#222", "text-anchor": "middle", "font-family": "DejaVu Sans, sans-serif" });
}

function wonderGlyph(g, x, y, s) {
  el("path", { d: `M${x} ${y + s} L${x + s / 2} ${y + s * 0.1} L${x + s} ${y + s} Z`, fill: "#c9a45c", stroke: "#6b5225", "stroke-width": Math.max(0.6, s * 0.07) }, g);
  el("path", { d: `M${x + s * 0.25} ${y + s * 0.6} L${x + s * 0.75} ${y + s * 0.6}`, stroke: "#6b5225", "stroke-width": Math.max(0.5, s * 0.06) }, g);
}

function tokenDisc(g, cx, cy, r, t, comps, opts = {}) {
  el("circle", { cx, cy, r, fill: opts.back ? "#5f7f5f" : "#2f9e44", stroke: "#fff", "stroke-width": Math.max(1, r * 0.1), filter: "url(#d-shadow)" }, g);
  el("circle", { cx, cy, r: r * 0.82, fill: "none", stroke: opts.back ? "#8fb08f" : "#b2f2bb", "stroke-width": Math.max(0.6, r * 0.06) }, g);
  if (opts.back) {
    txt(g, cx, cy + r * 0.35, "?", { "font-size": r, "font-weight": 800, fill: "#dfe", "text-anchor": "middle" });
    return;
  }
  const tok = comps.tokens[t];
  txt(g, cx, cy + r * 0.3, TOKEN_ABBR[t] || (tok ? tok.name.slice(0, 3) : "?"),
    { "font-size": r * 0.78, "font-weight": 800, fill: "#fff", "text-anchor": "middle" });
}

// ---- effect items (a row of icons) -------------------------------------------------------------

function resList(list, out) {
  list.forEach((r, i) => { if (i) out.push({ t: "slash" }); out.push({ t: "res", r }); });
}

/** Icons for a card's effect, parsed from components_json "effect" and the card's fields. */
function cardItems(card) {
  const out = [];
  for (const seg of String(card.effect || "").split("; ").filter(Boolean)) {
    let m;
    if (seg.startsWith("produces")) {
      for (const r of RES_ORDER) for (let i = 0; i < (card.produces[r] || 0); i++) out.push({ t: "res", r });
    } else if ((m = seg.match(/^one of (.+) per construction$/))) {
      resList(m[1].split("/"), out);
    } else if ((m = seg.match(/^buy (.+) at 1 coin$/))) {
      resList(m[1].split("/"), out);
      out.push({ t: "txt", s: "=" }, { t: "coin", v: 1 });
    } else if ((m = seg.match(/^(\d+) shields?$/))) {
      for (let i = 0; i < Number(m[1]); i++) out.push({ t: "shield" });
    } else if (seg.startsWith("science")) {
      out.push({ t: "sci", sym: card.science });
    } else if ((m = seg.match(/^\+(\d+) coins?$/))) {
      out.push({ t: "coin", v: m[1] });
    } else if ((m = seg.match(/^\+(\d+) coins? per own (\S+) card/))) {
      out.push({ t: "coin", v: m[1] }, { t: "txt", s: "/" });
      for (const c of m[2].split("/")) out.push({ t: "sq", color: c });
    } else if ((m = seg.match(/^\+(\d+) coins per own built wonder/))) {
      out.push({ t: "coin", v: m[1] }, { t: "txt", s: "/" }, { t: "wonder" });
    } else if ((m = seg.match(/^(\d+) coin now and (\d+) VP at the end per (\S+) card/))) {
      for (const c of m[3].split("+")) out.push({ t: "sq", color: c });
      out.push({ t: "txt", s: ":" }, { t: "coin", v: m[1] }, { t: "vp", v: m[2] });
    } else if ((m = seg.match(/^(\d+) VP per built wonder/))) {
      out.push({ t: "wonder" }, { t: "txt", s: ":" }, { t: "vp", v: m[1] });
    } else if (seg.match(/^1 VP per 3 coins/)) {
      out.push({ t: "coin", v: 3 }, { t: "txt", s: ":" }, { t: "vp", v: 1 });
    } else if ((m = seg.match(/^(\d+) VP$/))) {
      out.push({ t: "vp", v: m[1] });
    } else if (seg.startsWith("chain:") || seg.startsWith("free with")) {
      // drawn as chain symbols
    } else {
      out.push({ t: "txt", s: seg });
    }
  }
  return out;
}

/** Icons for a wonder's effect, parsed from its effect text. */
function wonderItems(wonder) {
  const out = [];
  for (const seg of String(wonder.effect || "").split("; ").filter(Boolean)) {
    let m;
    if ((m = seg.match(/^(\d+) VP$/))) out.push({ t: "vp", v: m[1] });
    else if ((m = seg.match(/^\+(\d+) coins?$/))) out.push({ t: "coin", v: m[1] });
    else if ((m = seg.match(/^opponent loses (\d+) coins?$/))) out.push({ t: "coin", v: `-${m[1]}`, neg: true });
    else if ((m = seg.match(/^(\d+) shields?$/))) { for (let i = 0; i < Number(m[1]); i++) out.push({ t: "shield" }); }
    else if ((m = seg.match(/^discard one (\w+) card of the opponent$/))) out.push({ t: "destroy", color: m[1] });
    else if ((m = seg.match(/^one of (.+) per construction$/))) resList(m[1].split("/"), out);
    else if (seg.startsWith("draw 3 boxed progress tokens")) out.push({ t: "tok" }, { t: "txt", s: "3→1" });
    else if (seg.startsWith("build a discarded card")) out.push({ t: "txt", s: "discard→build" });
    else if (seg === "play again") out.push({ t: "again" });
    else out.push({ t: "txt", s: seg });
  }
  return out;
}

function itemWidth(it, s) {
  switch (it.t) {
    case "slash": return s * 0.45;
    case "shield": return s * 0.82;
    case "sq": return s * 0.62;
    case "txt": return Math.max(s * 0.4, String(it.s).length * s * 0.55);
    case "again": return s * 1.05;
    case "destroy": return s * 1.3;
    default: return s;
  }
}

/** Draw `items` in a row, centred on cx (or from x when align="start"), vertical centre cy. */
function drawItems(parent, items, cx, cy, maxW, s, align = "middle") {
  if (!items.length) return 0;
  const gap = s * 0.16;
  const total = items.reduce((a, it) => a + itemWidth(it, s), 0) + gap * (items.length - 1);
  const k = total > maxW ? maxW / total : 1;
  const g = el("g", null, parent);
  const x0 = align === "start" ? 0 : -total / 2;
  let x = x0;
  for (const it of items) {
    const w = itemWidth(it, s);
    const y = -s / 2;
    switch (it.t) {
      case "res": resIcon(g, x, y, s, it.r); break;
      case "slash": txt(g, x + w / 2, s * 0.34, "/", { "font-size": s * 0.9, fill: "#333", "text-anchor": "middle", "font-weight": 700 }); break;
      case "coin": coinIcon(g, x + s / 2, 0, s / 2, it.v, it.neg ? { fill: "#fab005", ink: "#a61e1e", stroke: "#a61e1e" } : {}); break;
      case "vp": vpIcon(g, x + s / 2, 0, s / 2, it.v); break;
      case "shield": shieldIcon(g, x, y, s); break;
      case "sci": sciIcon(g, x + s / 2, 0, s / 2, it.sym); break;
      case "sq": el("rect", { x, y: -s * 0.36, width: s * 0.62, height: s * 0.72, rx: 1.5, fill: (CARD_STYLE[it.color] || {}).fill || "#888", stroke: "#222", "stroke-width": 0.6 }, g); break;
      case "wonder": wonderGlyph(g, x, y, s); break;
      case "tok": tokenDisc(g, x + s / 2, 0, s / 2, 0, { tokens: [] }, { back: true }); break;
      case "again":
        el("circle", { cx: x + w / 2, cy: 0, r: s / 2, fill: "#fff", stroke: "#2b6cb0", "stroke-width": Math.max(0.8, s * 0.1) }, g);
        txt(g, x + w / 2, s * 0.33, "↻", { "font-size": s * 0.95, fill: "#2b6cb0", "text-anchor": "middle", "font-weight": 700, "font-family": "DejaVu Sans, sans-serif" });
        break;
      case "destroy":
        el("rect", { x, y: -s * 0.45, width: s * 0.7, height: s * 0.9, rx: 1.5, fill: (CARD_STYLE[it.color] || {}).fill || "#888", stroke: "#222", "stroke-width": 0.6 }, g);
        txt(g, x + s * 0.98, s * 0.36, "✕", { "font-size": s, fill: "#c92a2a", "text-anchor": "middle", "font-weight": 800, "font-family": "DejaVu Sans, sans-serif" });
        break;
      default: txt(g, x + w / 2, s * 0.33, String(it.s), { "font-size": s * 0.82, fill: "#333", "text-anchor": "middle", "font-weight": 700, class: "narrow" });
    }
    x += w + gap;
  }
  g.setAttribute("transform", `translate(${cx} ${cy}) scale(${k})`);
  return total * k;
}

/** Cost icons: coins first, then one icon per resource unit. */
function costItems(coins, cost) {
  const out = [];
  if (coins) out.push({ t: "coin", v: coins });
  for (const r of RES_ORDER) for (let i = 0; i < ((cost || {})[r] || 0); i++) out.push({ t: "res", r });
  return out;
}

// ---- defs -----------------------------------------------------------------------------------

function defs(svg) {
  const d = el("defs", null, svg);
  const f = el("filter", { id: "d-shadow", x: "-20%", y: "-20%", width: "140%", height: "150%" }, d);
  el("feDropShadow", { dx: 0, dy: 1, stdDeviation: 1.1, "flood-color": "#3d2b0f", "flood-opacity": 0.3 }, f);
  const hatch = el("pattern", { id: "d-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, d);
  el("rect", { width: 6, height: 6, fill: "#efe8d8" }, hatch);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#d9ceb6", "stroke-width": 2 }, hatch);
  const gl = el("linearGradient", { id: "d-parch", x1: 0, y1: 0, x2: 0, y2: 1 }, d);
  el("stop", { offset: "0", "stop-color": "#fbf4e2" }, gl);
  el("stop", { offset: "1", "stop-color": "#efe0bd" }, gl);
}

// ---- clickable elements ---------------------------------------------------------------------

// the price stays readable on the element (data-price); a click closes the card menu
function makeClickable(node, action, ctx, direct = false) {
  return clickable(node, action, ctx, { data: ["price"], before: closeMenu, direct });
}

function hl(parent, x, y, w, h, rx = 6) {
  return el("rect", { class: "hl", x: x - 2, y: y - 2, width: w + 4, height: h + 4, rx, fill: "none" }, parent);
}

// ---- cards ----------------------------------------------------------------------------------

function cardTitle(card, extra) {
  const st = CARD_STYLE[card.color] || {};
  const lines = [`${card.name} — ${st.label || card.color}, Age ${ROMAN[card.age] || card.age}`,
    `Cost: ${card.cost_text}`, `Effect: ${card.effect || "none"}`];
  if (extra) lines.push(extra);
  return lines.join("\n");
}

/** A face-up card of the structure, top-left (x, y), CW×CH. */
function drawCardFace(g, x, y, card, opts = {}) {
  const st = CARD_STYLE[card.color] || CARD_STYLE.grey;
  const w = opts.w || CW, h = opts.h || CH;
  el("rect", { class: "cframe", x, y, width: w, height: h, rx: 5, fill: st.fill, stroke: st.dark, "stroke-width": 1.2, filter: "url(#d-shadow)" }, g);
  // effect band
  el("rect", { x: x + 3, y: y + 3, width: w - 6, height: 28, rx: 3, fill: "rgba(255,255,255,.93)" }, g);
  drawItems(g, cardItems(card), x + w / 2, y + 17, w - 10, 16);
  // name
  fitText(g, x + w / 2, y + 44, card.name, w - 6, 11, { fill: "#fff", "font-weight": 700, "text-anchor": "middle", class: "narrow" }, 0.45);
  // cost: a column (two when long) on the left
  const cost = costItems(card.coins, card.cost);
  const s = 12;
  const perCol = 4;
  if (!cost.length) {
    txt(g, x + 5, y + 62, "free", { "font-size": 8.5, fill: "rgba(255,255,255,.9)", "font-weight": 700, class: "narrow" });
  }
  cost.forEach((it, i) => {
    const col = Math.floor(i / perCol), row = i % perCol;
    const ix = x + 4 + col * (s + 2), iy = y + 52 + row * (s + 1.5);
    if (it.t === "coin") coinIcon(g, ix + s / 2, iy + s / 2, s / 2, it.v);
    else resIcon(g, ix, iy, s, it.r);
  });
  // chains: what it gives (top of the right side), what makes it free (below, dashed)
  let cy = y + 60;
  if (card.chain_to) { chainIcon(g, x + w - 12, cy, 8, card.chain_to); cy += 19; }
  if (card.chain_from) {
    chainIcon(g, x + w - 12, cy, 8, card.chain_from, true);
    txt(g, x + w - 12, cy + 16, "free", { "font-size": 7.5, fill: "#fff", "text-anchor": "middle", "font-weight": 700, class: "narrow" });
  }
  // age mark
  txt(g, x + w / 2, y + h - 4, ROMAN[card.age] || "", { "font-size": 7.5, fill: "rgba(255,255,255,.7)", "text-anchor": "middle", "font-weight": 700 });
  if (opts.recent) el("rect", { x: x - 1.5, y: y - 1.5, width: w + 3, height: h + 3, rx: 6, fill: "none", stroke: "#ffd43b", "stroke-width": 3 }, g);
}

function drawCardBack(g, x, y, age, guild, w = CW, h = CH) {
  const [fill, dark] = guild ? GUILD_BACK : (AGE_BACK[age] || AGE_BACK[1]);
  el("rect", { x, y, width: w, height: h, rx: 5, fill, stroke: guild ? "#e0b44a" : dark, "stroke-width": guild ? 2 : 1.2, filter: "url(#d-shadow)" }, g);
  el("rect", { x: x + 4, y: y + 4, width: w - 8, height: h - 8, rx: 3, fill: "none", stroke: guild ? "#e0b44a" : "rgba(255,255,255,.35)", "stroke-width": 1 }, g);
  if (guild) {
    txt(g, x + w / 2, y + 24, "GUILD", { "font-size": 12, "font-weight": 800, fill: "#f3d27a", "text-anchor": "middle", "letter-spacing": "0.08em" });
    txt(g, x + w / 2, y + 46, "III", { "font-size": 12, "font-weight": 800, fill: "#f3d27a", "text-anchor": "middle" });
  } else {
    txt(g, x + w / 2, y + 34, ROMAN[age] || "", { "font-size": 22, "font-weight": 800, fill: "rgba(255,255,255,.85)", "text-anchor": "middle", "font-family": "DejaVu Serif, serif" });
  }
}

// ---- the board ------------------------------------------------------------------------------

let menu = null;          // {slot, layer} the open choice menu
let lastKey = null;       // legal ids of the last render (re-open the menu on a same-state redraw)
let lastResult = null;    // for scoring.winner
let escBound = false;

function closeMenu() {
  if (!menu) return;
  if (menu.layer) while (menu.layer.firstChild) menu.layer.removeChild(menu.layer.firstChild);
  menu.slot = null;
}

/**
 * games.js `render`: draw the whole board into `svg`; returns the legal actions not drawn as
 * clickable board elements (none, normally).
 */
export function render(svg, obs, comps, legal, ui = {}) {
  legal = legal || [];
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.classList.add("duel");
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  svg.classList.toggle("busy", !!ui.busy);
  const names = [0, 1].map(p => (ui.names && ui.names[p]) || (obs.players[p] && obs.players[p].name) || `Seat ${p}`);
  const colors = ui.colors && ui.colors.length >= 2 ? ui.colors : SEAT_COLORS;
  const byKind = {};
  for (const a of legal) (byKind[a.kind] = byKind[a.kind] || []).push(a);
  const ctx = {
    obs, comps, legal, ui, names, colors, byKind, drawn: new Set(),
    onAction: typeof ui.onAction === "function" && legal.length ? ui.onAction : null,
    viewer: ui.seat ?? obs.seat ?? null,
    mover: obs.current_player,
    recent: ui.recent || null,
    cardActions: new Map(),
  };
  for (const k of ["construct", "discard", "wonder"]) {
    for (const a of byKind[k] || []) {
      if (!ctx.cardActions.has(a.card)) ctx.cardActions.set(a.card, []);
      ctx.cardActions.get(a.card).push(a);
    }
  }
  lastResult = obs.result || null;

  defs(svg);
  const bg = el("rect", { x: 0, y: 0, width: W, height: H, fill: "transparent" }, svg);
  bg.addEventListener("click", closeMenu);
  drawConflict(svg, ctx);
  drawProgressBoard(svg, ctx);
  for (const p of [0, 1]) drawPlayer(svg, ctx, p, p === 0 ? 0 : W - PANEL_W, 104, PANEL_W, H - 106);
  const centre = el("g", { class: "centre" }, svg);
  if (obs.phase === "draft") drawDraft(centre, ctx);
  else if (obs.structure && obs.structure.length) drawStructure(centre, ctx);
  drawDiscard(svg, ctx);
  drawOverlays(svg, ctx);

  // the choice menu lives in its own layer on top of everything
  const layer = el("g", { class: "menu-layer" }, svg);
  const key = JSON.stringify([obs.phase, obs.age, legal.map(a => a.id)]);
  const reopen = menu && menu.slot !== null && menu.slot !== undefined && key === lastKey ? { ...menu } : null;
  menu = { slot: null, layer };
  lastKey = key;
  if (reopen && ctx.onAction) {
    const s = (obs.structure || []).find(x => x.slot === reopen.slot);
    if (s && s.card !== null && s.accessible) openMenu(ctx, s, reopen.x, reopen.y);
  }
  svg.onclick = (e) => {
    if (!e.target.closest || (!e.target.closest(".choice-menu") && !e.target.closest(".pick"))) closeMenu();
  };
  if (!escBound) {
    escBound = true;
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenu(); });
  }
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  return legal.filter(a => !ctx.drawn.has(a.id));
}

// -- the conflict track ---------------------------------------------------------------------------

function drawConflict(svg, ctx) {
  const { obs, comps, names, colors } = ctx;
  const conf = comps.conflict || { capital: 9, vp_by_distance: [0, 2, 2, 5, 5, 5, 10, 10, 10], tokens: [{ at: 3, coins: 2 }, { at: 6, coins: 5 }] };
  const capital = conf.capital || 9;
  const n = 2 * capital + 1;
  const sw = 36, sh = 34;
  const tw = n * sw;
  const x0 = (W - tw) / 2, ty = 26;
  const g = el("g", { class: "conflict" }, svg);
  const sx = (pos) => x0 + (pos + capital) * sw;
  const vpAt = (d) => d >= capital ? null : (conf.vp_by_distance[d] || 0);
  el("rect", { x: x0 - 6, y: ty - 22, width: tw + 12, height: sh + 62, rx: 10, fill: "#efe3c6", stroke: "#c9b48a", "stroke-width": 1 }, g);
  // zones: above the track, the VP the leading player scores there
  const zones = [];
  for (let d = 1; d < capital; d++) {
    const v = vpAt(d);
    const z = zones[zones.length - 1];
    if (z && z.v === v) z.to = d; else zones.push({ from: d, to: d, v });
  }
  const zoneFill = { 0: "#f7f0dc", 2: "#f1e4c2", 5: "#e8d3a3", 10: "#dcbd7f" };
  for (const side of [-1, 1]) {
    for (const z of zones) {
      const a = side < 0 ? sx(-z.to) : sx(z.from);
      const b = side < 0 ? sx(-z.from) + sw : sx(z.to) + sw;
      el("rect", { x: a, y: ty, width: b - a, height: sh, fill: zoneFill[z.v] || "#eadbb8" }, g);
      if (z.v) {
        const zg = el("g", null, g);
        vpIcon(zg, (a + b) / 2, ty - 10, 8.5, z.v);
        // the VP go to the player whose pawn is here: the other side's owner
        title(zg, `${z.v} VP at the end for ${names[side < 0 ? 1 : 0]} if the pawn ends here`);
      }
    }
  }
  // spaces
  for (let pos = -capital; pos <= capital; pos++) {
    const x = sx(pos);
    const capitalOf = pos === -capital ? 0 : pos === capital ? 1 : null;
    if (capitalOf !== null) {
      el("rect", { x: x + 1, y: ty - 4, width: sw - 2, height: sh + 8, rx: 5, fill: colors[capitalOf], stroke: "#3b2f1e", "stroke-width": 1 }, g);
      txt(g, x + sw / 2, ty + sh / 2 + 8, "♜", { "font-size": 22, fill: "#fff", "text-anchor": "middle", "font-family": "DejaVu Sans, sans-serif" });
      title(g.lastChild, `${names[capitalOf]}'s capital: the pawn reaching it is a military victory for ${names[1 - capitalOf]}`);
    } else {
      el("rect", { x: x + 1, y: ty + 1, width: sw - 2, height: sh - 2, rx: 3, fill: "none", stroke: "#b59a66", "stroke-width": 1 }, g);
      if (pos === 0) el("rect", { x: x + 4, y: ty + 4, width: sw - 8, height: sh - 8, rx: 3, fill: "#c9a45c", opacity: 0.55 }, g);
    }
  }
  // the capitals' names beside the track
  for (const p of [0, 1]) {
    const left = p === 0;
    const gx = left ? x0 - 14 : x0 + tw + 14;
    const ng = el("g", null, g);
    el("circle", { cx: left ? gx - 6 : gx + 6, cy: ty + sh / 2 - 4, r: 6, fill: colors[p], stroke: "#fff", "stroke-width": 1.5 }, ng);
    fitText(ng, left ? gx - 16 : gx + 16, ty + sh / 2, names[p], 104, 13,
      { "text-anchor": left ? "end" : "start", "font-weight": 700, fill: "#3b2f1e" }, 0.55);
    txt(ng, left ? gx - 16 : gx + 16, ty + sh / 2 + 14, "capital", { "font-size": 10, fill: "#7a6a4d", "text-anchor": left ? "end" : "start" });
  }
  // military tokens below the track: tokens[side] = [2-coin present, 5-coin present]
  const toks = (obs.conflict && obs.conflict.tokens) || [[true, true], [true, true]];
  (conf.tokens || []).forEach((tk, i) => {
    const zone = zones.find(z => z.from === tk.at) || { from: tk.at, to: tk.at + 2 };
    for (const [side, owner] of [[-1, 0], [1, 1]]) {
      const present = toks[owner] && toks[owner][i];
      const a = side < 0 ? sx(-zone.to) : sx(zone.from);
      const b = side < 0 ? sx(-zone.from) + sw : sx(zone.to) + sw;
      const tg = el("g", { class: "mtoken", "data-side": owner, "data-coins": tk.coins, "data-present": present ? "true" : "false" }, g);
      if (present) {
        el("rect", { x: a + 6, y: ty + sh + 5, width: b - a - 12, height: 16, rx: 8, fill: "#7d2e1d", stroke: "#fff", "stroke-width": 1, filter: "url(#d-shadow)" }, tg);
        coinIcon(tg, (a + b) / 2 - 12, ty + sh + 13, 6.5, tk.coins);
        txt(tg, (a + b) / 2 + 2, ty + sh + 17, `−${tk.coins}`, { "font-size": 10.5, fill: "#fff", "font-weight": 800 });
        title(tg, `Military token: when the pawn enters this zone, ${names[owner]} loses ${tk.coins} coins (once)`);
      } else {
        el("rect", { x: a + 6, y: ty + sh + 5, width: b - a - 12, height: 16, rx: 8, fill: "none", stroke: "#b59a66", "stroke-dasharray": "3 3" }, tg);
        title(tg, `The ${tk.coins}-coin military token on ${names[owner]}'s side is gone`);
      }
    }
  });
  // the pawn
  const pawn = (obs.conflict && obs.conflict.pawn) || 0;
  const px = sx(Math.max(-capital, Math.min(capital, pawn))) + sw / 2;
  const pg = el("g", { class: "pawn", "data-pawn": pawn }, g);
  el("path", { d: `M${px - 9} ${ty + sh - 4} L${px + 9} ${ty + sh - 4} L${px + 5} ${ty + 12} L${px - 5} ${ty + 12} Z`, fill: "#a61e1e", stroke: "#fff", "stroke-width": 1.2, filter: "url(#d-shadow)" }, pg);
  el("circle", { cx: px, cy: ty + 10, r: 6.5, fill: "#c92a2a", stroke: "#fff", "stroke-width": 1.2 }, pg);
  const lead = pawn > 0 ? 0 : pawn < 0 ? 1 : null;
  const d = Math.abs(pawn);
  title(pg, lead === null ? "The conflict pawn is in the centre" :
    `Conflict pawn: ${plural(d, "space")} toward ${names[1 - lead]}'s capital — ${names[lead]} scores ${vpAt(d) ?? "military victory"}${vpAt(d) !== null ? " VP" : ""}`);
}

// -- progress tokens on the board ------------------------------------------------------------------

function drawProgressBoard(svg, ctx) {
  const { obs, comps } = ctx;
  const g = el("g", { class: "progress-board" }, svg);
  const list = obs.progress_board || [];
  const acts = new Map((ctx.byKind.progress || []).map(a => [a.token, a]));
  const onBoard = obs.phase === "progress_token";
  const y = 122, r = 18, step = 90;
  const x0 = (CX0 + CX1) / 2 - (list.length - 1) * step / 2;
  list.forEach((t, i) => {
    const cx = x0 + i * step;
    const tg = el("g", { class: "ptoken", "data-token": t }, g);
    const tok = comps.tokens[t] || { name: `token ${t}`, effect: "" };
    const a = onBoard ? acts.get(t) : null;
    tokenDisc(tg, cx, y, r, t, comps);
    txt(tg, cx, y + r + 12, tok.name, { "font-size": 10.5, fill: "#2b5e2f", "text-anchor": "middle", "font-weight": 600 });
    title(tg, `${tok.name} (progress token): ${tok.effect}${a ? "\nClick to take it" : ""}`);
    if (a && makeClickable(tg, a, ctx)) el("circle", { class: "hl", cx, cy: y, r: r + 4, fill: "none" }, tg);
    else if (!a && obs.phase === "play") makeWhy(tg, { kind: "progress", arg: t }, ctx, `Take ${tok.name}`);   // issue 15
  });
  if (!list.length) txt(g, (CX0 + CX1) / 2, y + 4, "no progress token left on the board", { "font-size": 11, fill: "#7a6a4d", "text-anchor": "middle" });
}

// -- the draft ---------------------------------------------------------------------------------------

function drawDraft(g, ctx) {
  const { obs, comps, names } = ctx;
  const acts = new Map((ctx.byKind.draft || []).map(a => [a.wonder, a]));
  const owned = obs.players.reduce((k, p) => k + p.wonders.length, 0);
  const round = owned < 4 ? 1 : 2;
  const cx = (CX0 + CX1) / 2;
  const cw = 232, ch = 134, gap = 14;
  const y0 = TOP + Math.max(0, (BOTTOM - TOP - (70 + 2 * (ch + gap))) / 3);
  txt(g, cx, y0, `WONDER DRAFT · ROUND ${round} OF 2`, { "font-size": 13, "font-weight": 800, fill: "#6b5225", "text-anchor": "middle", "letter-spacing": "0.08em" });
  const mover = obs.current_player;
  if (mover !== null && mover !== undefined) {
    const mine = ctx.onAction && acts.size;
    txt(g, cx, y0 + 18, mine ? "Click a wonder to take it" : `${names[mover]} is choosing a wonder`,
      { "font-size": 12, fill: "#7a6a4d", "text-anchor": "middle" });
  }
  const ws = obs.draft || [];
  ws.forEach((w, i) => {
    const col = i % 2, row = Math.floor(i / 2);
    const x = cx - cw - gap / 2 + col * (cw + gap);
    const y = y0 + 34 + row * (ch + gap);
    const wg = el("g", { class: "draft-wonder", "data-wonder": w }, g);
    drawWonder(wg, x, y, cw, ch, comps.wonders[w], { big: true });
    const a = acts.get(w);
    title(wg, wonderTitle(comps.wonders[w], a ? "Click to take it" : null));
    if (a && makeClickable(wg, a, ctx)) hl(wg, x, y, cw, ch, 9);
  });
  // the wonder draft order, as a reminder
  const yy = y0 + 34 + 2 * (ch + gap) + 14;
  const first = obs.first_player ?? 0;
  const order = round === 1 ? [first, 1 - first, 1 - first, first] : [1 - first, first, first, 1 - first];
  const picked = owned % 4;
  const og = el("g", { class: "draft-order" }, g);
  txt(og, cx - 150, yy + 4, "Order:", { "font-size": 11, fill: "#7a6a4d", "text-anchor": "end" });
  order.forEach((p, i) => {
    const x = cx - 140 + i * 76;
    el("rect", { x, y: yy - 9, width: 70, height: 18, rx: 9, fill: i < picked ? "#e9e2d2" : ctx.colors[p], opacity: i < picked ? 1 : (i === picked ? 1 : 0.55), stroke: i === picked ? "#3b2f1e" : "none", "stroke-width": 1.5 }, og);
    fitText(og, x + 35, yy + 4, names[p], 62, 10.5, { fill: i < picked ? "#9a8e78" : "#fff", "text-anchor": "middle", "font-weight": 700 });
  });
}

function wonderTitle(w, extra) {
  return `${w.name} (wonder)\nCost: ${w.cost_text}\nEffect: ${w.effect}${extra ? `\n${extra}` : ""}`;
}

/** A wonder card at (x, y), w×h. opts: {big, built, removed, price, buildable, recent}. */
function drawWonder(g, x, y, w, h, wonder, opts = {}) {
  const big = !!opts.big;
  if (opts.built) {
    // the tucked card sticks out below the wonder
    el("rect", { x: x + 10, y: y + h - 8, width: w - 20, height: 14, rx: 3, fill: "#8c6b3f", stroke: "#5a4020", "stroke-width": 1 }, g);
  }
  const body = el("g", { opacity: opts.removed ? 0.35 : 1 }, g);
  el("rect", { class: "wframe", x, y, width: w, height: h, rx: big ? 9 : 6, fill: "url(#d-parch)", stroke: opts.built ? "#2b8a3e" : "#b08d4a", "stroke-width": opts.built ? 2 : 1.3, filter: "url(#d-shadow)" }, body);
  const hh = big ? 26 : 17;
  el("path", { d: `M${x} ${y + (big ? 9 : 6)} Q${x} ${y} ${x + (big ? 9 : 6)} ${y} L${x + w - (big ? 9 : 6)} ${y} Q${x + w} ${y} ${x + w} ${y + (big ? 9 : 6)} L${x + w} ${y + hh} L${x} ${y + hh} Z`, fill: WONDER_INK }, body);
  fitText(body, x + (big ? 10 : 6), y + hh - (big ? 8 : 5), wonder.name, w - (big ? 20 : opts.built ? 26 : 12), big ? 15 : 10.5, { fill: "#fff", "font-weight": 700 }, 0.5);
  const items = wonderItems(wonder);
  if (big) {
    drawItems(body, items, x + w / 2, y + hh + 21, w - 20, 25);
    txt(body, x + 10, y + hh + 53, "COST", { "font-size": 9.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.06em" });
    drawItems(body, costItems(0, wonder.cost), x + 46, y + hh + 49, w - 56, 17, "start");
    const lines = wrap(cap(wonder.effect), w - 20, 12, 3, 0.5);
    lines.forEach((ln, i) => txt(body, x + 10, y + hh + 78 + i * 15, ln, { "font-size": 12, fill: "#3b2f1e" }));
  } else {
    drawItems(body, items, x + 6, y + hh + 13, w - 12, 14, "start");
    drawItems(body, costItems(0, wonder.cost), x + 6, y + h - 11, w - 50, 10.5, "start");
  }
  if (opts.built) {
    el("circle", { cx: x + w - 10, cy: y + hh / 2, r: 7, fill: "#2b8a3e", stroke: "#fff", "stroke-width": 1 }, g);
    txt(g, x + w - 10, y + hh / 2 + 3.5, "✓", { "font-size": 10, fill: "#fff", "text-anchor": "middle", "font-weight": 800, "font-family": "DejaVu Sans, sans-serif" });
  }
  if (opts.removed) {
    el("line", { x1: x + 4, y1: y + h - 4, x2: x + w - 4, y2: y + 4, stroke: "#868e96", "stroke-width": 2 }, g);
    el("rect", { x: x + w / 2 - 44, y: y + h / 2 + 2, width: 88, height: 16, rx: 8, fill: "#fff", stroke: "#adb5bd" }, g);
    txt(g, x + w / 2, y + h / 2 + 14, "out of the game", { "font-size": 10, fill: "#495057", "text-anchor": "middle", "font-weight": 700 });
  }
  if (opts.price !== undefined && opts.price !== null && !opts.built && !opts.removed) {
    const pg = el("g", { class: "wprice" }, g);
    const ok = opts.buildable;
    el("rect", { x: x + w - 40, y: y + h - 20, width: 36, height: 16, rx: 8, fill: ok ? "#fff3bf" : "#f1f3f5", stroke: ok ? "#e0a800" : "#adb5bd", "stroke-width": 1 }, pg);
    coinIcon(pg, x + w - 31, y + h - 12, 5.5, "");
    txt(pg, x + w - 14, y + h - 8, opts.price ? String(opts.price) : "free", { "font-size": 10.5, "font-weight": 800, fill: ok ? "#5c3d00" : "#868e96", "text-anchor": "middle" });
  }
  if (opts.recent) el("rect", { x: x - 2, y: y - 2, width: w + 4, height: h + 4, rx: 8, fill: "none", stroke: "#ffd43b", "stroke-width": 3 }, g);
}

// -- the structure ------------------------------------------------------------------------------------

function drawStructure(g, ctx) {
  const { obs, comps } = ctx;
  const slots = obs.structure;
  const cols = slots.map(s => s.col), rows = slots.map(s => s.row);
  const minC = Math.min(...cols), maxC = Math.max(...cols), maxR = Math.max(...rows);
  const totalW = (maxC - minC) * HALF + CW;
  const dy = Math.min(80, (BOTTOM - TOP - CH) / Math.max(1, maxR - 1));
  const totalH = (maxR - 1) * dy + CH;
  const x0 = (CX0 + CX1) / 2 - totalW / 2;
  const y0 = TOP + Math.max(0, (BOTTOM - TOP - totalH) / 3);
  const left = slots.filter(s => !s.taken).length;
  const head = el("g", { class: "age-head" }, g);
  txt(head, (CX0 + CX1) / 2, 174, `AGE ${ROMAN[obs.age] || obs.age}`, { "font-size": 14, "font-weight": 800, fill: "#6b5225", "text-anchor": "middle", "letter-spacing": "0.1em" });
  txt(head, CX0 + 4, 174, `${plural(left, "card")} left`, { "font-size": 11, fill: "#7a6a4d" });
  txt(head, CX1 - 4, 174, `wonders built ${obs.wonders_built ?? 0}/7`, { "font-size": 11, fill: "#7a6a4d", "text-anchor": "end" });
  const prices = obs.prices || {};
  const myTurn = !!ctx.onAction && obs.phase === "play";
  const order = slots.slice().sort((a, b) => a.row - b.row || a.col - b.col);
  for (const s of order) {
    if (s.taken) continue;
    const x = x0 + (s.col - minC) * HALF;
    const y = y0 + (s.row - 1) * dy;
    const sg = el("g", { class: "slot", "data-slot": s.slot, "data-row": s.row, "data-col": s.col }, g);
    if (s.card === null || s.card === undefined) {
      sg.classList.add("back");
      drawCardBack(sg, x, y, obs.age, s.guild_back);
      title(sg, s.guild_back ? "A face-down guild card" : `A face-down Age ${ROMAN[obs.age]} card`);
      continue;
    }
    const card = comps.cards[s.card];
    sg.setAttribute("data-card", s.card);
    const acts = myTurn && s.accessible ? (ctx.cardActions.get(s.card) || []) : [];
    const pr = prices[String(s.card)];
    drawCardFace(sg, x, y, card, { recent: false });
    let extra = null;
    if (s.accessible && pr) {
      extra = pr.chain ? "Accessible: free through a chain" : `Accessible: construct for ${plural(pr.construct, "coin")}, discard for ${plural(pr.discard, "coin")}`;
    } else if (!s.accessible) {
      extra = "Covered: not accessible yet";
    }
    title(sg, cardTitle(card, extra));
    if (s.accessible && myTurn && acts.length) {
      sg.classList.add("legal", "pick");
      sg.setAttribute("data-kind", "card");
      // a mouse opens the choice menu on the board; a touch screen the details panel (legible at
      // any size) with the same choices as commit buttons (issue 15, defect 2)
      button(sg, `${card.name}: choose what to do with it`, () => (touchMode() ? pickSheet(ctx, s, sg) : openMenu(ctx, s, x, y)));
      hl(sg, x, y, CW, CH, 7);
      if (pr) priceBadge(sg, x + CW - 4, y + CH - 6, pr, acts);
      for (const a of acts) ctx.drawn.add(a.id);
    } else if (s.accessible) {
      el("rect", { x: x - 1, y: y - 1, width: CW + 2, height: CH + 2, rx: 6, fill: "none", stroke: "#fff8dc", "stroke-width": 2 }, sg);
    } else if (myTurn) {
      makeWhy(sg, { kind: "construct", arg: s.card }, ctx, card.name);   // covered: "why not?"
    }
  }
}

function priceBadge(g, x, y, pr, acts) {
  const canBuild = acts.some(a => a.kind === "construct");
  const free = pr.chain || pr.construct === 0;
  const label = free ? "free" : String(pr.construct);   // what this player pays now, trading included
  const w = free ? 34 : 26;
  const bg = el("g", { class: "cost" }, g);
  el("rect", { x: x - w + 4, y: y - 9, width: w, height: 17, rx: 8.5, fill: !canBuild ? "#868e96" : free ? "#2b8a3e" : "#fff3bf", stroke: "#fff", "stroke-width": 1.2, filter: "url(#d-shadow)" }, bg);
  if (!free) coinIcon(bg, x - w + 12, y - 0.5, 5.5, "");
  txt(bg, free ? x - w / 2 + 4 : x - 3, y + 3.5, label, { "font-size": 10.5, "font-weight": 800, fill: !canBuild || free ? "#fff" : "#5c3d00", "text-anchor": free ? "middle" : "end" });
}

/** The choices of an accessible card (construct / discard / each wonder): [{a, label, note, why}]. */
function cardChoices(ctx, s) {
  const { obs, comps } = ctx;
  const acts = ctx.cardActions.get(s.card) || [];
  const pr = (obs.prices || {})[String(s.card)] || {};
  const me = ctx.mover;
  const coins = me !== null && me !== undefined ? obs.players[me].coins : 0;
  const rows = [];
  const con = acts.find(a => a.kind === "construct");
  if (con) {
    rows.push({ a: con, label: pr.chain ? "Construct — free (chain)" : con.price ? `Construct — ${plural(con.price, "coin")}` : "Construct — free", icon: "build" });
  } else {
    rows.push({ a: null, label: `Construct — ${plural(pr.construct ?? 0, "coin")}`, note: `you have ${coins}`, icon: "build",
      why: { kind: "construct", arg: s.card } });
  }
  const dis = acts.find(a => a.kind === "discard");
  if (dis) rows.push({ a: dis, label: `Discard — +${plural(-dis.price, "coin")}`, icon: "discard" });
  const wonderActs = new Map(acts.filter(a => a.kind === "wonder").map(a => [a.wonder, a]));
  const mine = me !== null && me !== undefined ? obs.players[me].wonders : [];
  for (const w of mine) {
    if (w.built) continue;
    if (w.removed) {   // the rule of seven wonders (P8): shown, greyed, with its "why not?"
      rows.push({ a: null, label: comps.wonders[w.wonder].name, note: "out of the game", icon: "wonder",
        why: { kind: "wonder", arg: w.wonder * comps.cards.length + s.card } });
      continue;
    }
    const a = wonderActs.get(w.wonder);
    const price = a ? a.price : (pr.wonders || {})[String(w.wonder)];
    const nm = comps.wonders[w.wonder].name;
    if (a) rows.push({ a, label: `${nm} — ${price ? plural(price, "coin") : "free"}`, icon: "wonder" });
    else if ((obs.wonders_built ?? 0) < 7) {
      rows.push({ a: null, label: `${nm} — ${price !== undefined ? plural(price, "coin") : "?"}`, note: "can't pay", icon: "wonder",
        why: { kind: "wonder", arg: w.wonder * comps.cards.length + s.card } });
    }
  }
  return rows;
}

/** On a touch screen: the card's details and its choices in the details panel (svg.js). */
function pickSheet(ctx, s, node) {
  const rows = cardChoices(ctx, s);
  selectTarget(node, {
    html: nodeDetails(node),
    choices: rows.map(r => (r.a ? { action: r.a, label: r.label, before: closeMenu } : { why: r.why, label: r.label })),
  }, ctx);
}

/** The choice menu of an accessible card: construct / discard / each wonder. */
function openMenu(ctx, s, x, y) {
  closeMenu();
  const { obs, comps, names } = ctx;
  const layer = menu.layer;
  menu.slot = s.slot;
  menu.x = x;
  menu.y = y;
  const card = comps.cards[s.card];
  const rows = cardChoices(ctx, s);
  const mw = 290, rh = 27, pad = 6, top = 42;
  const mh = top + rows.length * (rh + 3) + pad;
  let mx = x + CW / 2 - mw / 2;
  mx = Math.max(CX0 - 40, Math.min(CX1 + 40 - mw, mx));
  let my = y + CH + 6;
  if (my + mh > H - 4) my = y - mh - 6;
  if (my < 4) my = 4;
  const g = el("g", { class: "choice-menu", "data-card": s.card }, layer);
  el("rect", { x: mx, y: my, width: mw, height: mh, rx: 8, fill: "#fffdf7", stroke: "#8a7a5a", "stroke-width": 1.2, filter: "url(#d-shadow)" }, g);
  const st = CARD_STYLE[card.color] || CARD_STYLE.grey;
  el("rect", { x: mx, y: my, width: mw, height: 22, rx: 8, fill: st.fill }, g);
  el("rect", { x: mx, y: my + 12, width: mw, height: 10, fill: st.fill }, g);
  fitText(g, mx + 10, my + 15.5, card.name, mw - 40, 12, { fill: "#fff", "font-weight": 700 });
  fitText(g, mx + 10, my + 35, cap(card.effect || ""), mw - 20, 10.5, { fill: "#5a4a2a" });
  const close = el("g", { class: "menu-close" }, g);
  txt(close, mx + mw - 12, my + 16, "✕", { "font-size": 13, fill: "#fff", "text-anchor": "middle", "font-weight": 700, "font-family": "DejaVu Sans, sans-serif" });
  el("rect", { x: mx + mw - 24, y: my, width: 24, height: 22, fill: "transparent", style: "cursor:pointer" }, close);
  close.addEventListener("click", (e) => { e.stopPropagation(); closeMenu(); });
  rows.forEach((r, i) => {
    const ry = my + top + i * (rh + 3);
    const rg = el("g", { class: "choice" + (r.a ? "" : " disabled") }, g);
    el("rect", { class: "cbg", x: mx + pad, y: ry, width: mw - 2 * pad, height: rh, rx: 5, fill: r.a ? "#fff6d6" : "#f1f3f5", stroke: r.a ? "#e0b53d" : "#dee2e6", "stroke-width": 1 }, rg);
    const ic = r.icon === "build" ? "⚒" : r.icon === "discard" ? "⟲" : "▲";
    txt(rg, mx + pad + 13, ry + 18, ic, { "font-size": 13, fill: r.a ? "#7a4a00" : "#adb5bd", "text-anchor": "middle", "font-family": "DejaVu Sans, sans-serif" });
    fitText(rg, mx + pad + 26, ry + 17.5, r.label, mw - 2 * pad - (r.note ? 96 : 32), 12, { fill: r.a ? "#3b2f1e" : "#868e96", "font-weight": r.a ? 600 : 400 });
    if (r.note) txt(rg, mx + mw - pad - 8, ry + 17.5, r.note, { "font-size": 10.5, fill: "#c92a2a", "text-anchor": "end", "font-style": "italic" });
    if (r.a) {
      title(rg, r.a.text);
      makeClickable(rg, r.a, ctx, true);
      rg.addEventListener("click", () => closeMenu());
    } else if (r.why) {
      title(rg, `${r.label}: you cannot pay it now`);
      makeWhy(rg, r.why, ctx, r.label);
    }
  });
  const first = g.querySelector(".legal");
  if (first && first.focus) try { first.focus({ preventScroll: true }); } catch { /* old browsers */ }
}

// -- the discard pile --------------------------------------------------------------------------------

function drawDiscard(svg, ctx) {
  const { obs, comps } = ctx;
  if (obs.phase === "draft") return;
  const pile = obs.discard || [];
  if (ctx.recent && ctx.recent.text && obs.phase !== "end") {
    const rg = el("g", { class: "last-move", "data-player": ctx.recent.player ?? "" }, svg);
    const who = ctx.recent.player;
    if (who === 0 || who === 1) el("circle", { cx: CX0 + 12, cy: H - 63, r: 5, fill: ctx.colors[who] }, rg);
    fitText(rg, CX0 + 22, H - 59, `Last move: ${ctx.recent.text}`, CX1 - CX0 - 30, 11.5, { fill: "#5a4a2a", "font-style": "italic" });
  }
  const g = el("g", { class: "discard-pile", "data-count": pile.length }, svg);
  const x = CX0 + 4, y = H - 52, w = CX1 - CX0 - 8, h = 46;
  el("rect", { x, y, width: w, height: h, rx: 7, fill: "#ece3cf", stroke: "#cdbf9f", "stroke-width": 1 }, g);
  txt(g, x + 10, y + 15, `DISCARD PILE (${pile.length})`, { "font-size": 10, "font-weight": 700, fill: "#7a6a4d", "letter-spacing": "0.06em" });
  const recent = ctx.recent && ctx.recent.kind === "discard" ? ctx.recent.card : null;
  const shown = pile.slice(-6);
  shown.forEach((c, i) => {
    const card = comps.cards[c];
    const cx = x + 10 + i * 79;
    const cg = el("g", { class: "discarded", "data-card": c }, g);
    miniChip(cg, cx, y + 22, 75, 18, card, { recent: c === recent && i === shown.length - 1 });
    title(cg, cardTitle(card, "In the discard pile"));
  });
  if (pile.length > shown.length) txt(g, x + w - 8, y + 15, `+${pile.length - shown.length} older`, { "font-size": 10, fill: "#7a6a4d", "text-anchor": "end" });
  if (!pile.length) txt(g, x + 10, y + 35, "empty", { "font-size": 11, fill: "#9a8e78", "font-style": "italic" });
  title(g, pile.length ? `Discard pile: ${pile.map(c => comps.cards[c].name).join(", ")}` : "The discard pile is empty");
}

/** A small card chip (the city, the discard pile): colour, name, a hint of its effect. */
function miniChip(g, x, y, w, h, card, opts = {}) {
  const st = CARD_STYLE[card.color] || CARD_STYLE.grey;
  el("rect", { class: "chip", x, y, width: w, height: h, rx: 3, fill: st.fill, stroke: opts.recent ? "#ffd43b" : st.dark, "stroke-width": opts.recent ? 2.5 : 0.8 }, g);
  // a hint on the right: what it gives
  const hint = chipHint(card);
  let hw = 0;
  if (hint.length) {
    const s = h - 6;
    hw = Math.min(w * 0.45, hint.reduce((a, it) => a + itemWidth(it, s), 0) + s * 0.16 * (hint.length - 1) + 4);
    el("rect", { x: x + w - hw - 2, y: y + 2, width: hw, height: h - 4, rx: 2, fill: "rgba(255,255,255,.9)" }, g);
    drawItems(g, hint, x + w - hw / 2 - 2, y + h / 2, hw - 3, s);
  }
  fitText(g, x + 4, y + h / 2 + 3.6, card.name, w - hw - 9, Math.min(10, h * 0.6), { fill: "#fff", "font-weight": 700, class: "narrow" }, 0.45);
}

function chipHint(card) {
  const items = cardItems(card);
  // keep it short: the first icons (production, shields, science, VP)
  const keep = items.filter(it => it.t !== "txt" || it.s === "/");
  if (keep.length > 3) {
    const vp = keep.find(it => it.t === "vp");
    const first = keep.filter(it => it.t !== "slash" && it.t !== "txt")[0];
    return [first, vp].filter(Boolean).filter((v, i, a) => a.indexOf(v) === i);
  }
  return keep;
}

// -- a player ------------------------------------------------------------------------------------

function drawPlayer(svg, ctx, p, x0, y0, w, h) {
  const { obs, comps, names, colors } = ctx;
  const pl = obs.players[p];
  const g = el("g", { class: "player", "data-seat": p }, svg);
  const col = colors[p];
  const moving = obs.current_player === p && obs.phase !== "end";
  el("rect", { x: x0 + 1, y: y0, width: w - 2, height: h, rx: 10, fill: "#fbf7ee", stroke: moving ? col : "#d8ccb2", "stroke-width": moving ? 3 : 1.2 }, g);
  // header: name, coins, score
  el("path", { d: `M${x0 + 1} ${y0 + 10} Q${x0 + 1} ${y0} ${x0 + 11} ${y0} L${x0 + w - 11} ${y0} Q${x0 + w - 1} ${y0} ${x0 + w - 1} ${y0 + 10} L${x0 + w - 1} ${y0 + 36} L${x0 + 1} ${y0 + 36} Z`, fill: col }, g);
  const you = ctx.viewer === p ? " (you)" : "";
  fitText(g, x0 + 12, y0 + 16, names[p] + you, w - 120, 14, { fill: "#fff", "font-weight": 800 }, 0.55);
  txt(g, x0 + 12, y0 + 30, moving ? "▶ to move" : obs.first_player === p && obs.phase === "draft" ? "drafts first" : (pl.name !== names[p] ? pl.name : ""),
    { "font-size": 10, fill: "rgba(255,255,255,.9)", "font-weight": moving ? 700 : 400 });
  const coinG = el("g", { class: "coins", "data-coins": pl.coins }, g);
  coinIcon(coinG, x0 + w - 88, y0 + 18, 13, pl.coins);
  title(coinG, `${names[p]}: ${plural(pl.coins, "coin")} (${Math.floor(pl.coins / 3)} VP at the end)`);
  const vpG = el("g", { class: "score", "data-score": pl.score }, g);
  vpIcon(vpG, x0 + w - 30, y0 + 18, 14, pl.score);
  title(vpG, `${names[p]}: ${pl.score} VP now\n` + Object.entries(pl.vp || {}).map(([k, v]) => `${scoring.labels[k] || k}: ${v}`).join("\n"));
  txt(g, x0 + w - 52, y0 + 22, "VP", { "font-size": 8, fill: "rgba(255,255,255,.85)", "text-anchor": "end", "font-weight": 700 });
  let y = y0 + 42;
  // the score pad: one cell per category
  const cats = ["military", "blue", "green", "yellow", "purple", "wonders", "progress", "coins"];
  const cellFill = { military: "#d2382c", blue: "#1f6fc4", green: "#2b9443", yellow: "#e3a20b", purple: "#7a3fb6", wonders: "#a88a4f", progress: "#37b24d", coins: "#c9a000" };
  const cellLabel = { military: "⚔", blue: "", green: "", yellow: "", purple: "", wonders: "▲", progress: "●", coins: "¢" };
  const cw = (w - 16) / cats.length;
  const pad = el("g", { class: "scorepad" }, g);
  cats.forEach((k, i) => {
    const cx = x0 + 8 + i * cw;
    const cg = el("g", { "data-category": k }, pad);
    el("rect", { x: cx + 1, y, width: cw - 2, height: 22, rx: 4, fill: cellFill[k], opacity: 0.92 }, cg);
    if (cellLabel[k]) txt(cg, cx + 7, y + 15, cellLabel[k], { "font-size": 9, fill: "rgba(255,255,255,.8)", "text-anchor": "middle", "font-family": "DejaVu Sans, sans-serif" });
    txt(cg, cx + cw / 2 + (cellLabel[k] ? 4 : 0), y + 15.5, String((pl.vp || {})[k] ?? 0), { "font-size": 12, fill: "#fff", "text-anchor": "middle", "font-weight": 800 });
    title(cg, `${scoring.labels[k] || k}: ${(pl.vp || {})[k] ?? 0} VP`);
  });
  y += 30;
  // production and trading prices
  const rg = el("g", { class: "resources" }, g);
  txt(rg, x0 + 10, y + 10, "PRODUCES", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
  txt(rg, x0 + 10, y + 33, "BUYS AT", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
  const rw = 38;
  RES_ORDER.forEach((r, i) => {
    const rx = x0 + 64 + i * rw;
    const cg = el("g", { "data-resource": r }, rg);
    const n = (pl.production || {})[r] || 0;
    resIcon(cg, rx, y, 15, r);
    txt(cg, rx + 19, y + 12.5, String(n), { "font-size": 13, "font-weight": 800, fill: n ? "#3b2f1e" : "#c2b89f" });
    const price = (pl.trade_prices || {})[r];
    const fixed = (pl.fixed_price || []).includes(r);
    coinIcon(cg, rx + 7.5, y + 29, 8, price ?? "", fixed ? { fill: "#ffe066", stroke: "#2b8a3e" } : {});
    title(cg, `${cap(r)}: produces ${n}; buys from the bank at ${plural(price ?? 0, "coin")} each${fixed ? " (fixed price, yellow card)" : ""}`);
  });
  y += 42;
  // one-of producers (Forum, Caravansery, wonders)
  const oneOf = pl.one_of || [];
  const extras = el("g", { class: "one-of" }, g);
  let ex = x0 + 10;
  if (oneOf.length) {
    txt(extras, ex, y + 10, "+ ONE OF", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a" });
    ex += 46;
    for (const list of oneOf) {
      const items = [];
      resList(list, items);
      const ww = drawItems(extras, items, ex, y + 6, 120, 12, "start");
      ex += ww + 10;
    }
    title(extras, "Each turn, one of these resources for free (one per group)");
    y += 18;
  }
  // science, progress tokens, chains
  const sg = el("g", { class: "science" }, g);
  txt(sg, x0 + 10, y + 13, "SCIENCE", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
  const have = new Set(pl.science || []);
  SCI_ORDER.forEach((sym, i) => {
    const cg = el("g", { "data-symbol": sym }, sg);
    sciIcon(cg, x0 + 72 + i * 24, y + 9, 10, sym, have.has(sym));
    title(cg, `${cap(words(sym))}${have.has(sym) ? ": owned" : ": not yet"}`);
  });
  txt(sg, x0 + w - 10, y + 13, `${have.size}/6`, { "font-size": 11, "font-weight": 800, fill: have.size >= 5 ? "#c92a2a" : "#2b5e2f", "text-anchor": "end" });
  title(sg, `${names[p]} has ${have.size} different scientific symbols (6 = scientific victory)`);
  y += 24;
  const tg = el("g", { class: "tokens" }, g);
  txt(tg, x0 + 10, y + 13, "PROGRESS", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
  const toks = pl.tokens || [];
  if (!toks.length) txt(tg, x0 + 72, y + 13, "none", { "font-size": 10, fill: "#b3a78f", "font-style": "italic" });
  toks.forEach((t, i) => {
    const cg = el("g", { class: "owned-token", "data-token": t }, tg);
    tokenDisc(cg, x0 + 82 + i * 26, y + 9, 11, t, comps);
    const tok = comps.tokens[t];
    title(cg, `${tok.name}: ${tok.effect}`);
  });
  y += 24;
  const chains = pl.chains || [];
  if (chains.length) {
    const cg = el("g", { class: "chains" }, g);
    txt(cg, x0 + 10, y + 12, "CHAINS", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
    chains.forEach((c, i) => {
      const ig = el("g", null, cg);
      chainIcon(ig, x0 + 76 + i * 19, y + 8, 8, c);
      title(ig, `Chain symbol: ${words(c)} (the card showing it is free)`);
    });
    y += 20;
  }
  // wonders (2×2)
  y += 2;
  txt(g, x0 + 10, y + 9, "WONDERS", { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
  y += 14;
  const wonderPrices = moverWonderPrices(ctx, p);
  const buildable = new Set((ctx.byKind.wonder || []).map(a => a.wonder));
  const recentW = ctx.recent && ctx.recent.kind === "wonder" ? ctx.recent.wonder : null;
  const ww = (w - 22) / 2, wh = 58;
  for (let i = 0; i < 4; i++) {
    const wx = x0 + 8 + (i % 2) * (ww + 6), wy = y + Math.floor(i / 2) * (wh + 14);
    const w8 = pl.wonders[i];
    if (!w8) {
      el("rect", { x: wx, y: wy, width: ww, height: wh, rx: 6, fill: "none", stroke: "#d8ccb2", "stroke-dasharray": "4 3" }, g);
      continue;
    }
    const wonder = comps.wonders[w8.wonder];
    const wg = el("g", { class: "wonder", "data-wonder": w8.wonder, "data-built": w8.built ? "true" : "false", "data-removed": w8.removed ? "true" : "false" }, g);
    const price = wonderPrices ? wonderPrices[String(w8.wonder)] : undefined;
    drawWonder(wg, wx, wy, ww, wh, wonder, {
      built: w8.built, removed: w8.removed, price, buildable: buildable.has(w8.wonder) && ctx.mover === p,
      recent: recentW === w8.wonder,
    });
    const state = w8.removed ? "Out of the game (seven wonders were built)" : w8.built ? "Built" :
      price !== undefined ? `Not built yet: costs ${plural(price, "coin")} now${buildable.has(w8.wonder) && ctx.mover === p ? " — click an accessible card to build it" : ""}` : "Not built yet";
    title(wg, wonderTitle(wonder, state));
    // the player's own wonder it cannot build now (cost, built, out of the game): "why not?" (issue 15)
    if (ctx.onAction && obs.phase === "play" && ctx.mover === p && ctx.viewer === p && !buildable.has(w8.wonder)) {
      const card = (obs.structure || []).find(x => x.accessible && !x.taken && x.card !== null && x.card !== undefined);
      if (card) makeWhy(wg, { kind: "wonder", arg: w8.wonder * comps.cards.length + card.card }, ctx, `Build ${wonder.name}`);
    }
  }
  y += 2 * (wh + 14) + 2;
  // the city by colour
  drawCity(g, ctx, p, x0 + 8, y, w - 16, y0 + h - y - 8);
}

function moverWonderPrices(ctx, p) {
  const { obs } = ctx;
  if (obs.phase !== "play" || obs.current_player !== p) return null;
  const first = Object.values(obs.prices || {})[0];
  return first ? first.wonders || {} : null;
}

function drawCity(g, ctx, p, x0, y0, w, h) {
  const { obs, comps } = ctx;
  const pl = obs.players[p];
  const cg = el("g", { class: "city", "data-seat": p }, g);
  txt(cg, x0 + 2, y0 + 9, `CITY (${pl.cards.length})`, { "font-size": 8.5, "font-weight": 700, fill: "#8a7a5a", "letter-spacing": "0.05em" });
  const by = {};
  for (const c of pl.cards) {
    const col = comps.cards[c].color;
    (by[col] = by[col] || []).push(c);
  }
  const destroyActs = new Map((ctx.byKind.destroy || []).map(a => [a.card, a]));
  const recentCard = ctx.recent && (ctx.recent.kind === "construct" || ctx.recent.kind === "mausoleum") && ctx.recent.player === p ? ctx.recent.card : null;
  const groups = COLOR_ORDER.filter(c => by[c] && by[c].length);
  if (!groups.length) {
    txt(cg, x0 + 2, y0 + 28, "no building yet", { "font-size": 10.5, fill: "#b3a78f", "font-style": "italic" });
    return;
  }
  // columns of 4 per row; chips shrink when a column gets long
  const ncol = 3, gap = 5;
  const colW = (w - gap * (ncol - 1)) / ncol;
  const top = y0 + 14;
  const rowsOfGroups = [];
  for (let i = 0; i < groups.length; i += ncol) rowsOfGroups.push(groups.slice(i, i + ncol));
  const longest = rowsOfGroups.map(r => Math.max(...r.map(c => by[c].length)));
  const avail = h - 14 - (rowsOfGroups.length - 1) * 8;
  const need = longest.reduce((a, k) => a + k, 0);
  const chipH = Math.max(11, Math.min(18, Math.floor(avail / Math.max(1, need)) - 2));
  let y = top;
  rowsOfGroups.forEach((row, ri) => {
    row.forEach((color, ci) => {
      const x = x0 + ci * (colW + gap);
      by[color].forEach((c, k) => {
        const card = comps.cards[c];
        const chip = el("g", { class: "city-card", "data-card": c, "data-color": color }, cg);
        const cy = y + k * (chipH + 2);
        miniChip(chip, x, cy, colW, chipH, card, { recent: c === recentCard });
        const a = destroyActs.get(c);
        title(chip, cardTitle(card, a ? "Click to put it into the discard pile" : null));
        if (a && makeClickable(chip, a, ctx)) hl(chip, x, cy, colW, chipH, 4);
        else if (!a && destroyActs.size && p !== ctx.viewer) makeWhy(chip, { kind: "destroy", arg: c }, ctx, `Destroy ${card.name}`);
      });
    });
    y += longest[ri] * (chipH + 2) + 8;
  });
}

// -- panels over the centre ---------------------------------------------------------------------------

function centrePanel(svg, cls, titleText, h, yTop = 200) {
  const g = el("g", { class: `centre-panel ${cls}` }, svg);
  el("rect", { x: CX0, y: 160, width: CX1 - CX0, height: H - 218, fill: "rgba(243,239,230,.78)" }, g);
  const x = CX0 + 10, w = CX1 - CX0 - 20;
  el("rect", { x, y: yTop, width: w, height: h, rx: 10, fill: "#fffdf7", stroke: "#b08d4a", "stroke-width": 1.5, filter: "url(#d-shadow)" }, g);
  txt(g, x + w / 2, yTop + 26, titleText, { "font-size": 16, "font-weight": 800, fill: "#4a3b28", "text-anchor": "middle" });
  return { g, x, y: yTop, w, h };
}

function drawOverlays(svg, ctx) {
  const { obs, comps, names } = ctx;
  const mover = obs.current_player;
  const mineNow = !!ctx.onAction;
  if (obs.phase === "library") {
    const draw = obs.library_draw || [];
    const acts = new Map((ctx.byKind.progress || []).map(a => [a.token, a]));
    const P = centrePanel(svg, "library", "The Great Library", draw.length ? 222 : 170);
    txt(P.g, P.x + P.w / 2, P.y + 46, draw.length ? "Keep one of these 3 progress tokens (the others go back to the box)" :
      `${names[mover]} draws 3 tokens from the box and keeps one`, { "font-size": 11.5, fill: "#7a6a4d", "text-anchor": "middle" });
    const list = draw.length ? draw : [null, null, null];
    list.forEach((t, i) => {
      const cx = P.x + P.w / 2 + (i - 1) * 136;
      const tg = el("g", { class: "library-token", "data-token": t ?? "" }, P.g);
      if (t === null) {
        tokenDisc(tg, cx, P.y + 110, 32, 0, comps, { back: true });
        title(tg, "A face-down progress token");
        return;
      }
      const tok = comps.tokens[t];
      tokenDisc(tg, cx, P.y + 110, 32, t, comps);
      txt(tg, cx, P.y + 160, tok.name, { "font-size": 13, "font-weight": 700, fill: "#2b5e2f", "text-anchor": "middle" });
      wrap(tok.effect, 124, 10.5, 3).forEach((ln, k) => txt(tg, cx, P.y + 177 + k * 13, ln, { "font-size": 10.5, fill: "#555", "text-anchor": "middle" }));
      title(tg, `${tok.name}: ${tok.effect}`);
      const a = acts.get(t);
      if (a && makeClickable(tg, a, ctx)) el("circle", { class: "hl", cx, cy: P.y + 110, r: 37, fill: "none" }, tg);
    });
  } else if (obs.phase === "mausoleum") {
    const pile = obs.discard || [];
    const acts = new Map((ctx.byKind.mausoleum || []).map(a => [a.card, a]));
    const perRow = 6, gx = 79;
    const rows = Math.max(1, Math.ceil(pile.length / perRow));
    const k = Math.min(1, (H - 70 - 176 - 66) / (rows * (CH + 10)));   // shrink a very long pile
    const cw = CW * k, ch = CH * k;
    const P = centrePanel(svg, "mausoleum", "The Mausoleum", 66 + rows * (ch + 10), 176);
    txt(P.g, P.x + P.w / 2, P.y + 44, mineNow ? "Click a card of the discard pile to construct it for free" : `${names[mover]} builds a discarded card for free`,
      { "font-size": 11.5, fill: "#7a6a4d", "text-anchor": "middle" });
    pile.forEach((c, i) => {
      const row = Math.floor(i / perRow), col = i % perRow;
      const inRow = Math.min(perRow, pile.length - row * perRow);
      const x = P.x + P.w / 2 - (inRow * gx * k - (gx - CW) * k) / 2 + col * gx * k;
      const y = P.y + 56 + row * (ch + 10);
      const cg = el("g", { class: "maus-card", "data-card": c }, P.g);
      drawCardFace(el("g", { transform: `translate(${x} ${y}) scale(${k})` }, cg), 0, 0, comps.cards[c]);
      const a = acts.get(c);
      title(cg, cardTitle(comps.cards[c], a ? "Click to construct it for free" : null));
      if (a && makeClickable(cg, a, ctx)) hl(cg, x, y, cw, ch, 7);
    });
  } else if (obs.phase === "choose_starter") {
    const acts = new Map((ctx.byKind.start || []).map(a => [a.seat, a]));
    const P = centrePanel(svg, "starter", `Who starts Age ${ROMAN[obs.age] || obs.age}?`, 170);
    const why = obs.conflict.pawn === 0 ? "took the last card of the age" : "is the weaker on the conflict track";
    txt(P.g, P.x + P.w / 2, P.y + 46, mineNow ? `You ${why.replace("is the", "are the")}: you choose` :
      `${names[mover]} ${why} and chooses who starts`, { "font-size": 11.5, fill: "#7a6a4d", "text-anchor": "middle" });
    [0, 1].forEach((p) => {
      const bx = P.x + 24 + p * (P.w / 2 - 12), bw = P.w / 2 - 36, by = P.y + 70;
      const bg = el("g", { class: "starter", "data-seat": p }, P.g);
      el("rect", { x: bx, y: by, width: bw, height: 64, rx: 10, fill: ctx.colors[p], stroke: "#fff", "stroke-width": 2, filter: "url(#d-shadow)" }, bg);
      fitText(bg, bx + bw / 2, by + 28, ctx.viewer === p ? "I start" : `${names[p]} starts`, bw - 20, 16, { fill: "#fff", "font-weight": 800, "text-anchor": "middle" });
      txt(bg, bx + bw / 2, by + 48, ctx.viewer === p ? `(${names[p]})` : "", { "font-size": 11, fill: "rgba(255,255,255,.9)", "text-anchor": "middle" });
      const a = acts.get(p);
      if (a && makeClickable(bg, a, ctx)) hl(bg, bx, by, bw, 64, 12);
    });
  } else if (obs.phase === "destroy" || obs.phase === "progress_token") {
    const what = obs.phase === "destroy"
      ? (mineNow ? `Click one of ${names[1 - mover]}'s ${obs.destroy_color} cards to discard it` : `${names[mover]} discards one of ${names[1 - mover]}'s ${obs.destroy_color} cards`)
      : (mineNow ? "A pair of science symbols: click a progress token above" : `${names[mover]} takes a progress token`);
    const g = el("g", { class: "banner" }, svg);
    const bw = 420, bx = (CX0 + CX1) / 2 - bw / 2, by = 182;
    el("rect", { x: bx, y: by, width: bw, height: 24, rx: 12, fill: obs.phase === "destroy" ? "#862e9c" : "#2b8a3e", stroke: "#fff", "stroke-width": 1.5, filter: "url(#d-shadow)" }, g);
    fitText(g, bx + bw / 2, by + 16.5, what, bw - 20, 12.5, { fill: "#fff", "font-weight": 700, "text-anchor": "middle" });
  } else if (obs.phase === "end" && obs.result) {
    const r = obs.result;
    const P = centrePanel(svg, "result", "", 300);
    const win = r.winner;
    const line = win === null || win === undefined || r.victory === "shared"
      ? "Shared victory" : `${names[win]} wins — ${r.victory} victory`;
    const lg = el("g", { class: "winner-line", "data-winner": win ?? "", "data-victory": r.victory }, P.g);
    const lt = fitText(lg, P.x + P.w / 2, P.y + 30, line, P.w - 80, 19, { "font-weight": 800, fill: "#3b2f1e", "text-anchor": "middle" }, 0.55);
    let lw = Math.min(P.w - 80, line.length * 19 * 0.55);
    try { if (lt.isConnected) lw = Math.min(lw, lt.getComputedTextLength()) || lw; } catch { /* not rendered */ }
    if (win !== null && win !== undefined && r.victory !== "shared") el("circle", { cx: P.x + P.w / 2 - lw / 2 - 16, cy: P.y + 24, r: 9, fill: ctx.colors[win], stroke: "#fff", "stroke-width": 2 }, lg);
    const expl = { military: "the conflict pawn reached the opponent's capital", science: "six different scientific symbols",
      civilian: "the most victory points at the end of Age III", shared: "equal points and equal blue points" }[r.victory] || "";
    txt(P.g, P.x + P.w / 2, P.y + 48, expl, { "font-size": 11, fill: "#7a6a4d", "text-anchor": "middle" });
    // score table
    const cats = ["military", "blue", "green", "yellow", "purple", "wonders", "progress", "coins"];
    const tx = P.x + 30, tw = P.w - 60, ty = P.y + 66, rh = 22;
    const colX = (p) => tx + tw - 8 - (1 - p) * 110;   // right edge of seat p's column
    [0, 1].forEach((p) => {
      fitText(P.g, colX(p), ty + 4, names[p], 92, 11.5, { "font-weight": 700, fill: ctx.colors[p], "text-anchor": "end" });
    });
    cats.forEach((k, i) => {
      const y = ty + 12 + i * rh;
      if (i % 2 === 0) el("rect", { x: tx, y, width: tw, height: rh, fill: "#f6efe0" }, P.g);
      txt(P.g, tx + 8, y + 15, scoring.labels[k], { "font-size": 11.5, fill: "#3b2f1e" });
      [0, 1].forEach((p) => txt(P.g, colX(p), y + 15, String(obs.players[p].vp[k] ?? 0),
        { "font-size": 12, "font-weight": 700, fill: "#3b2f1e", "text-anchor": "end", "data-seat": p, "data-category": k }));
    });
    const yT = ty + 12 + cats.length * rh;
    el("line", { x1: tx, y1: yT + 2, x2: tx + tw, y2: yT + 2, stroke: "#3b2f1e", "stroke-width": 1.5 }, P.g);
    txt(P.g, tx + 8, yT + 20, "Total", { "font-size": 13, "font-weight": 800, fill: "#3b2f1e" });
    [0, 1].forEach((p) => txt(P.g, colX(p), yT + 20, String((r.scores || [])[p] ?? obs.players[p].score),
      { class: "final-total", "data-seat": p, "font-size": 14, "font-weight": 800, fill: "#3b2f1e", "text-anchor": "end" }));
  }
}

// ---- the view interface (games.js) ----------------------------------------------------------

/** games.js `recent`: the last card taken (constructed, discarded, under a wonder, Mausoleum). */
export function recent(log) {
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    const k = (e.kind || "").replace(/^duel\./, "");
    if (k === "age") return null;
    if ((k === "construct" || k === "discard" || k === "mausoleum") && e.data) return { kind: k, card: e.data.card, player: e.player, text: e.text };
    if (k === "wonder" && e.data) return { kind: "wonder", wonder: e.data.wonder, player: e.player, text: e.text };
  }
  return null;
}

/** games.js `seatColors`. */
export function seatColors(comps, n) { return Array.from({ length: n }, (_, i) => SEAT_COLORS[i % SEAT_COLORS.length]); }

/** games.js `prompt`. */
export function prompt(obs, legal) {
  switch (obs.phase) {
    case "draft": return "Click one of the revealed wonders to take it.";
    case "play": return "Click a highlighted card of the structure, then choose: construct it, discard it for coins, or build one of your wonders with it.";
    case "progress_token": return "You have a pair of identical science symbols: click a progress token on the board.";
    case "library": return "The Great Library: click one of the three drawn progress tokens to keep it.";
    case "destroy": return `Click one of your opponent's ${obs.destroy_color || ""} cards to put it into the discard pile.`;
    case "mausoleum": return "The Mausoleum: click a card of the discard pile to construct it for free.";
    case "choose_starter": return "Choose who starts the next age.";
    default: return "Choose an action.";
  }
}

function moverName(obs) {
  const p = obs.current_player;
  if (p === null || p === undefined || !obs.players[p]) return null;
  return p === obs.seat ? "You" : obs.players[p].name;
}

/** games.js `describe`: "Age II — South: take an accessible card: …". */
export function describe(obs) {
  const who = moverName(obs);
  if (obs.phase === "end") {
    const r = obs.result;
    if (!r) return "Game over";
    return r.winner === null || r.winner === undefined ? "Game over — shared victory" : `Game over — ${obs.players[r.winner].name} wins (${r.victory} victory)`;
  }
  const where = obs.phase === "draft" ? "Wonder draft" : `Age ${ROMAN[obs.age] || obs.age}`;
  return `${where} — ${who ? `${who}: ` : ""}${obs.decision}`;
}

/** games.js `status`: "Age II · South" for the top bar. */
export function status(obs) {
  if (obs.phase === "end") return "game over";
  const where = obs.phase === "draft" ? "wonder draft" : `Age ${ROMAN[obs.age] || obs.age}`;
  const extra = { progress_token: "progress token", library: "Great Library", destroy: "destroy a card", mausoleum: "Mausoleum", choose_starter: "who starts" }[obs.phase];
  return extra ? `${where} · ${extra}` : where;
}

/** games.js `logClass`: ages stand out; conflict and science entries are tinted. */
export function logClass(e) {
  const k = (e.kind || "").replace(/^duel\./, "");
  if (k === "age") return "round";
  if (k === "game_end") return "end";
  if (k === "military") return "duel-mil";
  if (k === "progress" || k === "library_draw") return "duel-sci";
  if (k === "wonder" || k === "wonder_removed") return "duel-wonder";
  return null;
}

/** games.js `scoring`: the score sheet's wording. */
export const scoring = {
  labels: {
    military: "Military (conflict)", blue: "Civilian (blue)", green: "Scientific (green)", yellow: "Commercial (yellow)",
    purple: "Guilds (purple)", wonders: "Wonders", progress: "Progress tokens", coins: "Treasury (1 per 3 coins)",
  },
  total: "Total VP",
  winner: (name) => {
    const r = lastResult;
    if (r && (r.victory === "shared" || r.winner === null)) return "Shared victory: equal points and equal civilian (blue) points.";
    return r ? `${name} wins — ${r.victory} victory.` : `${name} wins.`;
  },
};
