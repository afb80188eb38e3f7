// Between Two Cities as SVG — the game's view for the pages (see games.js for the interface): render,
// seatColors, prompt, describe, status, logClass, scoring.
//
// The board, drawn from one observation (the seat's own, or a spectator's):
//   - a panel on top: where the game stands, then what the viewer does now — its hand with
//     "choose 2" (click two tiles, then "Choose these two"; the choice can be changed from the
//     turn card until everybody has chosen), its three duplexes to discard one of (round 2), or
//     the tiles it has to place (click one to select it, then a highlighted square); the hands it
//     has already seen this round; at the end, the final table instead: every city's breakdown,
//     each player's two cities with the lower one (the player's score; the sum with 2 players)
//     and the winner.
//   - the ring of cities with the players between them, unrolled into rows that wrap: each
//     city between its two players (a player's left city on its left, its right city on its
//     right), the viewer's two cities first; the last city leads back to the first player. A
//     city shows the squares it may still grow into (its 4 x 4 frame, 5 x 5 with the Capitals,
//     not yet fixed), its tiles, a Capitals landscape mat's terrain and bridges, and its running
//     score. A player shows its score (its lower city), whether it has chosen, its revealed
//     tiles still to place. With 2 players each builds its two cities alone: one row each.
//
// Layouts: landscape (the desktop page) and portrait (a phone: at most 760 px wide, where
// style.css's .phone-page rules stack the page into one column).
//
// Clickable elements carry class "legal", data-action and data-kind (games.js convention), and
// data-city / data-cell (place, place_duplex: the square clicked; a duplex covers it and the next
// square right or below) or data-duplex (discard_duplex). Hand tiles to select carry class
// "btc-pick" and data-index (choose) or data-item (the tile or duplex to place).

import { el, fitText, hideTip, makeClickable as clickable, button, phoneLayout, startBoard, tip, txt } from "./svg.js";

/** Seat colours: Blue, Red, Green, Yellow, Purple, Orange, White (drawn grey). */
export const SEAT_COLORS = ["#1c7ed6", "#e03131", "#2f9e44", "#f0b400", "#9c36b5", "#f76707", "#868e96"];
const SEAT_INK = ["#fff", "#fff", "#fff", "#3d2e00", "#fff", "#fff", "#fff"];

/** Scoring types: tile colours and names. */
const TYPE_STYLE = {
  shop: { fill: "#f5c542", ink: "#5c4300", name: "Shop" },
  factory: { fill: "#9aa1a8", ink: "#2b2f33", name: "Factory" },
  tavern: { fill: "#e8590c", ink: "#fff", name: "Tavern" },
  office: { fill: "#3b6fd1", ink: "#fff", name: "Office" },
  park: { fill: "#40a350", ink: "#fff", name: "Park" },
  house: { fill: "#b5835a", ink: "#fff", name: "House" },
  civic: { fill: "#8e44ad", ink: "#fff", name: "Civic building" },
  terrain: { fill: "#6b5b45", ink: "#e9dfc9", name: "Terrain" },
};
const NO_STYLE = { fill: "#ddd", ink: "#333", name: "?" };
/** Tavern kinds' letter: music, food, drink, bed. */
const TAVERN_LETTER = { Tm: "M", Tf: "F", Td: "D", Tb: "B" };

const CATEGORY_LABELS = {
  shops: "Shops", factories: "Factories", taverns: "Taverns", offices: "Offices", parks: "Parks",
  houses: "Houses", civics: "Civic buildings", districts: "Districts",
};

function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}
function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }
function plural(n, s) { return `${n} ${s}${n === 1 ? "" : "s"}`; }

// ---- selection (kept across the redraws of one decision) -------------------------------------

/** The viewer's pending selection: two hand tiles for "choose"; the tile or duplex to place. */
const sel = { chooseKey: null, picks: [], placeKey: null, item: null };

// ---- tiles ---------------------------------------------------------------------------------

function kindInfo(ctx, k) { return (ctx.comps.kinds || [])[k] || { kind: k, code: "?", name: "?", type: "none" }; }
function styleOfKind(ctx, k) { return TYPE_STYLE[kindInfo(ctx, k).type] || NO_STYLE; }

/** A small pictogram of a scoring type centred at (cx, cy), `s` wide. */
function icon(g, type, cx, cy, s, ink) {
  const a = { fill: "none", stroke: ink, "stroke-width": Math.max(1, s * 0.09), "stroke-linejoin": "round", "stroke-linecap": "round" };
  const h = s / 2;
  if (type === "shop") {
    el("path", { ...a, d: `M${cx - h} ${cy - h * 0.2} L${cx - h * 0.8} ${cy - h * 0.8} H${cx + h * 0.8} L${cx + h} ${cy - h * 0.2} Z M${cx - h * 0.8} ${cy - h * 0.2} V${cy + h * 0.8} H${cx + h * 0.8} V${cy - h * 0.2} M${cx - h * 0.2} ${cy + h * 0.8} V${cy + h * 0.2} H${cx + h * 0.25} V${cy + h * 0.8}` }, g);
  } else if (type === "factory") {
    el("path", { ...a, d: `M${cx - h} ${cy + h * 0.8} V${cy - h * 0.1} L${cx - h * 0.4} ${cy - h * 0.5} V${cy - h * 0.1} L${cx + h * 0.2} ${cy - h * 0.5} V${cy - h * 0.1} L${cx + h * 0.55} ${cy - h * 0.35} V${cy - h} H${cx + h * 0.9} V${cy + h * 0.8} Z` }, g);
  } else if (type === "tavern") {
    el("path", { ...a, d: `M${cx - h * 0.6} ${cy - h * 0.6} H${cx + h * 0.35} V${cy + h * 0.8} H${cx - h * 0.6} Z M${cx + h * 0.35} ${cy - h * 0.25} H${cx + h * 0.75} V${cy + h * 0.35} H${cx + h * 0.35}` }, g);
  } else if (type === "office") {
    el("rect", { ...a, x: cx - h * 0.55, y: cy - h, width: h * 1.1, height: h * 1.9 }, g);
    for (const dy of [-0.6, -0.15, 0.3]) for (const dx of [-0.25, 0.25]) {
      el("rect", { x: cx + dx * h - h * 0.1, y: cy + dy * h, width: h * 0.2, height: h * 0.22, fill: ink }, g);
    }
  } else if (type === "park") {
    el("circle", { ...a, cx, cy: cy - h * 0.25, r: h * 0.58 }, g);
    el("path", { ...a, d: `M${cx} ${cy + h * 0.3} V${cy + h * 0.95}` }, g);
  } else if (type === "house") {
    el("path", { ...a, d: `M${cx - h * 0.8} ${cy - h * 0.05} L${cx} ${cy - h * 0.85} L${cx + h * 0.8} ${cy - h * 0.05} M${cx - h * 0.6} ${cy - h * 0.2} V${cy + h * 0.8} H${cx + h * 0.6} V${cy - h * 0.2}` }, g);
  } else if (type === "civic") {
    el("path", { ...a, d: `M${cx - h} ${cy - h * 0.35} L${cx} ${cy - h * 0.95} L${cx + h} ${cy - h * 0.35} Z M${cx - h * 0.6} ${cy - h * 0.2} V${cy + h * 0.6} M${cx} ${cy - h * 0.2} V${cy + h * 0.6} M${cx + h * 0.6} ${cy - h * 0.2} V${cy + h * 0.6} M${cx - h} ${cy + h * 0.85} H${cx + h}` }, g);
  }
}

/** One square tile of kind `k` at (x, y), `s` wide: its colour, pictogram and code. */
function drawKind(parent, ctx, x, y, s, k, opts = {}) {
  const info = kindInfo(ctx, k);
  const st = TYPE_STYLE[info.type] || NO_STYLE;
  const g = el("g", { class: "btc-tile", "data-kind-code": info.code }, parent);
  if (info.type === "terrain") {
    el("rect", { x, y, width: s, height: s, fill: st.fill, rx: Math.min(3, s * 0.08) }, g);
    const step = Math.max(4, s / 5);
    const d = [];
    for (let t = step; t < 2 * s; t += step) d.push(`M${x + Math.max(0, t - s)} ${y + Math.min(s, t)} L${x + Math.min(s, t)} ${y + Math.max(0, t - s)}`);
    el("path", { d: d.join(" "), stroke: "#8a7a60", "stroke-width": 1, fill: "none" }, g);
    return g;
  }
  el("rect", { class: "btc-face", x, y, width: s, height: s, rx: Math.min(5, s * 0.12), fill: st.fill,
    stroke: opts.stroke || "rgba(0,0,0,.35)", "stroke-width": opts.strokeWidth || 1 }, g);
  const letter = info.type === "tavern" ? TAVERN_LETTER[info.code] : info.type === "civic" ? info.code.slice(1) : null;
  if (s >= 24) {
    icon(g, info.type, x + s / 2, y + s * (letter ? 0.44 : 0.5), s * 0.5, st.ink);
    if (letter) txt(g, x + s / 2, y + s * 0.93, letter, { "font-size": Math.max(7, s * 0.24), "font-weight": 800, fill: st.ink, "text-anchor": "middle" });
  } else {
    txt(g, x + s / 2, y + s * 0.68, info.code, { "font-size": Math.max(6, s * 0.5), "font-weight": 800, fill: st.ink, "text-anchor": "middle" });
  }
  return g;
}

function kindTip(ctx, k, extra = []) {
  const info = kindInfo(ctx, k);
  const st = TYPE_STYLE[info.type] || NO_STYLE;
  const ex = extra.filter(Boolean);
  return `<div class="tt">${esc(cap(info.name))}</div><div class="band" style="background:${st.fill}"></div>` +
    `<div class="ts">${esc(st.name)} · code ${esc(info.code)}</div>` + (ex.length ? `<div class="act">${ex.map(esc).join("<br>")}</div>` : "");
}

function duplexInfo(ctx, d) { return (ctx.comps.duplexes || [])[d] || { id: `D${d}`, horizontal: true, halves: [0, 0], name: "?" }; }

/** A duplex drawn as its two halves joined (side by side, or stacked when vertical). */
function drawDuplex(parent, ctx, x, y, s, d, opts = {}) {
  const dp = duplexInfo(ctx, d);
  const g = el("g", { class: "btc-duplex", "data-duplex": d }, parent);
  drawKind(g, ctx, x, y, s, dp.halves[0], opts);
  if (dp.horizontal) drawKind(g, ctx, x + s, y, s, dp.halves[1], opts);
  else drawKind(g, ctx, x, y + s, s, dp.halves[1], opts);
  el("rect", { x: x - 1, y: y - 1, width: (dp.horizontal ? 2 * s : s) + 2, height: (dp.horizontal ? s : 2 * s) + 2, rx: 5,
    fill: "none", stroke: "#3d3425", "stroke-width": 1.6 }, g);
  return g;
}

// ---- cities --------------------------------------------------------------------------------

/** The window of grid rows and columns a city may still use: its frame (F x F) is not fixed until
 * its tiles span F rows and F columns. */
function cityWindow(ctx, city) {
  const W = city.width;
  const F = ctx.comps.frame || 4;
  const centre = Math.floor(W / 2);
  const [r0, r1, c0, c1] = city.frame || [centre, centre, centre, centre];
  return {
    rlo: Math.max(0, r1 - F + 1), rhi: Math.min(W - 1, r0 + F - 1),
    clo: Math.max(0, c1 - F + 1), chi: Math.min(W - 1, c0 + F - 1),
  };
}

function cityLabel(ctx, c) {
  const seats = ctx.obs.cities[c].seats;
  if (seats.length === 1) {   // 2 players: each builds two cities alone
    const pl = ctx.obs.players[seats[0]];
    return `${ctx.names[seats[0]]} · ${pl && pl.left === c ? "left" : "right"} city`;
  }
  return seats.map(p => ctx.names[p]).join(" – ");
}

function breakdownHTML(ctx, c) {
  const city = ctx.obs.cities[c];
  const rows = Object.entries(city.breakdown || {}).map(([k, v]) =>
    `<tr><td>${esc(CATEGORY_LABELS[k] || cap(k))}</td><td style="text-align:right">${v}</td></tr>`).join("");
  const mat = city.mat ? `<div class="ts">${esc(city.mat.name)}</div>` : "";
  return `<div class="tt">${esc(cityLabel(ctx, c))}: ${city.score} points</div>${mat}<div class="ts">${plural(city.tiles, "tile")}</div>` +
    `<table style="font-size:12px;border-collapse:collapse">${rows}</table>`;
}

/** The actions of the viewer that place the selected tile or duplex in `c`, by square. */
function placesIn(ctx, c) {
  const out = new Map();
  for (const a of ctx.places) {
    if (a.city !== c) continue;
    const item = a.kind === "place" ? a.tile : a.duplex;
    if (item !== ctx.item) continue;
    out.set(a.cells[0], a);
  }
  return out;
}

/** Draw city `c` in the square (x, y, size); the label above it. Returns the height used. */
function drawCity(parent, ctx, c, x, y, size) {
  const { obs, comps } = ctx;
  const city = obs.cities[c];
  const W = city.width;
  const g = el("g", { class: "btc-city", "data-city": c }, parent);
  const labelH = Math.max(16, Math.min(22, size * 0.09));
  // the label: the two players' colours, the name, the running score
  const mineCity = ctx.viewer !== null && city.seats.includes(ctx.viewer);
  const head = el("g", { class: "btc-city-head" }, g);
  el("rect", { x, y, width: size, height: labelH, rx: 5, fill: mineCity ? "#fff4d6" : "#efe7d6", stroke: mineCity ? "#e0a800" : "#d8ccb2" }, head);
  const dot = labelH * 0.28;
  city.seats.forEach((p, i) => el("circle", { cx: x + dot + 4 + i * (dot * 2 + 2), cy: y + labelH / 2, r: dot, fill: ctx.colors[p], stroke: "#fff" }, head));
  const lx = x + 6 + city.seats.length * (dot * 2 + 2) + 2;
  const fs = labelH * 0.62;
  const scoreW = fs * 2.6;
  fitText(head, lx, y + labelH * 0.7, cityLabel(ctx, c), size - (lx - x) - scoreW - 4, fs, { fill: "#3d3425", "font-weight": 600 });
  txt(head, x + size - 6, y + labelH * 0.72, String(city.score), { "font-size": fs * 1.1, "font-weight": 800, fill: "#3d3425", "text-anchor": "end", class: "btc-score", "data-score": city.score });
  tip(head, () => breakdownHTML(ctx, c));
  // the grid window
  const win = cityWindow(ctx, city);
  const nr = win.rhi - win.rlo + 1, nc = win.chi - win.clo + 1;
  const gy = y + labelH + 4;
  const area = size;
  const cell = Math.floor(area / Math.max(nr, nc) * 10) / 10;
  const gx = x + (size - nc * cell) / 2;
  const gyy = gy + (area - nr * cell) / 2;
  el("rect", { x, y: gy, width: size, height: area, rx: 6, fill: "#f7f2e7", stroke: "#e2d8c3" }, g);
  const F = comps.frame || 4;
  const fixed = city.frame && city.frame[1] - city.frame[0] + 1 >= F && city.frame[3] - city.frame[2] + 1 >= F;
  const places = ctx.onAction ? placesIn(ctx, c) : new Map();
  const pad = Math.max(1, cell * 0.05);
  for (let r = win.rlo; r <= win.rhi; r++) {
    for (let col = win.clo; col <= win.chi; col++) {
      const q = r * W + col;
      const cx = gx + (col - win.clo) * cell, cy = gyy + (r - win.rlo) * cell;
      const k = city.cells[q];
      const sq = el("g", { class: "btc-sq", "data-cell": q }, g);
      if (k) {
        drawKind(sq, ctx, cx + pad, cy + pad, cell - 2 * pad, k);
        tip(sq, () => kindTip(ctx, k, [`${cityLabel(ctx, c)}, row ${r + 1}, column ${col + 1}`]));
      } else {
        el("rect", { class: "btc-empty", x: cx + pad, y: cy + pad, width: cell - 2 * pad, height: cell - 2 * pad, rx: Math.min(4, cell * 0.1),
          fill: fixed ? "#fffdf8" : "rgba(255,253,248,.55)", stroke: "#d6ccb6", "stroke-width": 0.8, "stroke-dasharray": fixed ? null : "3 3" }, sq);
      }
      const a = places.get(q);
      if (a) {
        clickable(sq, a, ctx, { data: ["city", "side"], before: hideTip });
        sq.setAttribute("data-cell", q);
        el("rect", { class: "btc-hl", x: cx + pad, y: cy + pad, width: cell - 2 * pad, height: cell - 2 * pad, rx: Math.min(4, cell * 0.1) }, sq);
        if (a.kind === "place_duplex") {
          // hovering shows where the duplex would lie
          const dp = duplexInfo(ctx, a.duplex);
          const ghost = el("g", { class: "btc-ghost", opacity: 0, "pointer-events": "none" }, g);
          drawKind(ghost, ctx, cx + pad, cy + pad, cell - 2 * pad, dp.halves[0]);
          drawKind(ghost, ctx, cx + pad + (dp.horizontal ? cell : 0), cy + pad + (dp.horizontal ? 0 : cell), cell - 2 * pad, dp.halves[1]);
          tip(sq, `<div class="tt">${esc(cap(a.text))}</div>`, (on) => ghost.setAttribute("opacity", on ? 0.85 : 0));
        } else {
          tip(sq, `<div class="tt">${esc(cap(a.text))}</div>`);
        }
      }
    }
  }
  // a landscape mat's bridges
  if (city.mat) {
    const mat = (comps.mats || []).find(m => m.id === city.mat.id);
    for (const [a, b] of (mat && mat.bridges) || []) {
      const ra = Math.floor(a / W), ca = a % W, rb = Math.floor(b / W), cb = b % W;
      if ([ra, rb].some(r => r < win.rlo || r > win.rhi) || [ca, cb].some(q => q < win.clo || q > win.chi)) continue;
      const p = (r, q) => [gx + (q - win.clo + 0.5) * cell, gyy + (r - win.rlo + 0.5) * cell];
      const [x1, y1] = p(ra, ca), [x2, y2] = p(rb, cb);
      el("line", { x1, y1, x2, y2, stroke: "#f8f1e0", "stroke-width": Math.max(3, cell * 0.14), "stroke-linecap": "round", opacity: 0.9, "pointer-events": "none" }, g);
      el("line", { x1, y1, x2, y2, stroke: "#6b5b45", "stroke-width": 1.2, "stroke-dasharray": "3 2", "pointer-events": "none" }, g);
    }
  }
  if (fixed) {
    el("rect", { x: gx + (city.frame[2] - win.clo) * cell, y: gyy + (city.frame[0] - win.rlo) * cell, width: F * cell, height: F * cell,
      rx: 4, fill: "none", stroke: "#8c7f66", "stroke-width": 1.4, "pointer-events": "none" }, g);
  }
  return labelH + 4 + area;
}

// ---- players -------------------------------------------------------------------------------

/** A player between its two cities: colour, name, score, status, tiles revealed still to place. */
function drawSeat(parent, ctx, p, x, y, w, h) {
  const { obs } = ctx;
  const pl = obs.players[p];
  const g = el("g", { class: "btc-seat", "data-seat": p }, parent);
  const you = ctx.viewer === p;
  const toMove = (obs.to_move || []).includes(p);
  el("rect", { x, y, width: w, height: h, rx: 8, fill: you ? "#fff8e1" : "#fbf8f1", stroke: toMove ? "#e0a800" : "#ddd2bd", "stroke-width": toMove ? 2.2 : 1 }, g);
  const r = Math.min(w * 0.22, 15);
  const cx = x + w / 2;
  el("circle", { cx, cy: y + r + 6, r, fill: ctx.colors[p], stroke: "#fff", "stroke-width": 1.5 }, g);
  txt(g, cx, y + r + 6 + r * 0.38, (ctx.names[p] || "?").slice(0, 1).toUpperCase(), { "font-size": r * 1.05, "font-weight": 800, fill: SEAT_INK[p % SEAT_INK.length], "text-anchor": "middle" });
  let yy = y + 2 * r + 8;
  fitText(g, cx, yy + 10, you ? "you" : ctx.names[p], w - 6, 11, { "text-anchor": "middle", "font-weight": 600, fill: "#3d3425" });
  yy += 14;
  txt(g, cx, yy + 16, String(pl.score), { "font-size": 17, "font-weight": 800, fill: "#3d3425", "text-anchor": "middle", class: "btc-player-score" });
  yy += 18;
  if (!obs.two_players && pl.lower_city !== null && pl.lower_city !== undefined) {
    const side = pl.lower_city === pl.left ? "◀ lower" : "lower ▶";
    txt(g, cx, yy + 10, side, { "font-size": 9, fill: "#7a6f5b", "text-anchor": "middle" });
    yy += 12;
  }
  // status
  let status = "";
  if (obs.phase !== "end") {
    if ((obs.chosen || []).includes(p)) status = "✓ chosen";
    else if ((obs.choosing || []).includes(p)) status = "choosing…";
    else if (toMove) status = "▶ placing";
  }
  if (status) {
    txt(g, cx, yy + 11, status, { "font-size": 10, "font-weight": 700, fill: status.startsWith("✓") ? "#2b8a3e" : "#8a6100", "text-anchor": "middle", class: "btc-status" });
    yy += 14;
  }
  // revealed tiles still to place
  const tp = (obs.to_place || [])[p] || {};
  const items = tp.tiles || tp.duplexes || [];
  const s = Math.min(22, (w - 10) / 2);
  if (items.length) {
    items.forEach((it, i) => {
      const tx = x + w / 2 - s - 1 + (i % 2) * (s + 2), ty = yy + 2 + Math.floor(i / 2) * (s + 2);
      if (tp.duplexes) {
        const dp = duplexInfo(ctx, it);
        const ds = s / 2;
        const dg = el("g", null, g);
        drawDuplex(dg, ctx, tx + (dp.horizontal ? 0 : ds / 2), ty, ds, it);
        tip(dg, `<div class="tt">Duplex ${esc(dp.id)}</div><div class="ts">${esc(dp.name)}</div>`);
      } else {
        const kg = drawKind(g, ctx, tx, ty, s, it);
        tip(kg, () => kindTip(ctx, it, [`${ctx.names[p]} places it this turn`]));
      }
    });
  }
  tip(el("rect", { x, y, width: w, height: 2 * r + 36, fill: "transparent" }, g), () => {
    const left = obs.cities[pl.left], right = obs.cities[pl.right];
    const rule = obs.two_players ? "scores the sum of its two cities" : "scores its lower city";
    return `<div class="tt">${esc(ctx.names[p])}: ${pl.score}</div><div class="ts">${esc(rule)}</div>` +
      `<div class="fx">left: ${esc(cityLabel(ctx, pl.left))} (${left.score})</div><div class="fx">right: ${esc(cityLabel(ctx, pl.right))} (${right.score})</div>`;
  });
  return g;
}

// ---- the ring, unrolled ----------------------------------------------------------------------

/** Rows of the ring: each row [seat, city, seat, city, ..., seat], the viewer's cities first.
 * With 2 players: one row per seat [its left city, the seat, its right city]. */
function ringRows(ctx, perRow) {
  const { obs } = ctx;
  const n = obs.players.length;
  const start = ctx.viewer !== null && ctx.viewer >= 0 && ctx.viewer < n ? ctx.viewer
    : (obs.current_player !== null && obs.current_player !== undefined ? obs.current_player : 0);
  if (obs.two_players) {
    return Array.from({ length: n }, (_, i) => {
      const p = (start + i) % n;
      return { items: [{ city: obs.players[p].left }, { seat: p }, { city: obs.players[p].right }] };
    });
  }
  const first = (start - 1 + n) % n;   // the viewer's left neighbour: the viewer's left city comes first
  const cities = Array.from({ length: n }, (_, i) => (first + i) % n);
  const rows = [];
  for (let i = 0; i < cities.length; i += perRow) {
    const cs = cities.slice(i, i + perRow);
    const items = [];
    for (const c of cs) {
      items.push({ seat: obs.cities[c].seats[0] });
      items.push({ city: c });
    }
    items.push({ seat: obs.cities[cs[cs.length - 1]].seats[1], wrap: i + perRow >= cities.length });
    rows.push({ items });
  }
  return rows;
}

function drawRing(svg, ctx, x0, y0, W, opts) {
  const { obs } = ctx;
  const n = obs.players.length;
  const perRow = opts.perRow(n);
  const rows = ringRows(ctx, perRow);
  const seatW = opts.seatW;
  const gap = 6;
  let y = y0;
  // one city size for every row: that of the fullest row
  const widest = rows.reduce((m, row) => (row.items.length > m.items.length ? row : m), rows[0]);
  const wc = widest.items.filter(it => it.city !== undefined).length;
  const size = Math.min(opts.maxCity, (W - (widest.items.length - wc) * seatW - (widest.items.length - 1) * gap) / Math.max(1, wc));
  for (const row of rows) {
    const nCities = row.items.filter(it => it.city !== undefined).length;
    const nSeats = row.items.length - nCities;
    const rowW = nCities * size + nSeats * seatW + (row.items.length - 1) * gap;
    let x = x0 + (W - rowW) / 2;
    let h = 0;
    const seatsAt = [];
    for (const it of row.items) {
      if (it.city !== undefined) {
        h = Math.max(h, drawCity(svg, ctx, it.city, x, y, size));
        x += size + gap;
      } else {
        seatsAt.push([it, x]);
        x += seatW + gap;
      }
    }
    const labelH = Math.max(16, Math.min(22, size * 0.09));
    for (const [it, sx] of seatsAt) {
      const sh = Math.min(h - labelH - 4, 170);
      const sy = y + labelH + 4 + (h - labelH - 4 - sh) / 2;
      drawSeat(svg, ctx, it.seat, sx, sy, seatW, sh);
      if (it.wrap && n > 2) {
        txt(svg, sx + seatW / 2, sy + sh + 12, "↺ ring", { "font-size": 10, fill: "#8c7f66", "text-anchor": "middle" });
      }
    }
    y += h + 16;
  }
  return y;
}

// ---- the panel on top ------------------------------------------------------------------------

function stageText(obs) {
  if (obs.phase === "end") return "Game over";
  const parts = [`Round ${obs.stage || obs.round}`];
  if (obs.round === 2) parts.push("duplexes");
  else parts.push(`turn ${Math.min(obs.turn + 1, obs.turns)} of ${obs.turns}`);
  if (obs.passing) parts.push(obs.passing === "opponent" ? "hands pass to the opponent" : `hands pass ${obs.passing}`);
  return parts.join(" · ");
}

/** The viewer's hand: click two tiles, then "Choose these two" (the choose action of that pair). */
function drawHand(svg, ctx, x, y, W, s) {
  const { obs } = ctx;
  const hand = obs.hand || [];
  const chooses = ctx.legal.filter(a => a.kind === "choose");
  const key = `${obs.seat}|${obs.stage}|${obs.turn}|${hand.join(",")}`;
  if (sel.chooseKey !== key) { sel.chooseKey = key; sel.picks = []; }
  const canChoose = !!ctx.onAction && chooses.length > 0;
  // the viewer's pending choice marks two tiles of its hand
  const mc = ctx.myChoice;
  const chosenIdx = mc && mc.kind === "choose" && mc.kinds ? pairIndices(hand, mc.kinds) : [];
  const gap = Math.max(4, s * 0.12);
  const total = hand.length * s + (hand.length - 1) * gap;
  let x1 = x + Math.max(0, (W - total) / 2);
  for (let i = 0; i < hand.length; i++) {
    const k = hand[i];
    const g = el("g", { class: "btc-pick" + (canChoose ? " pickable" : ""), "data-index": i, "data-kind": k }, svg);
    const picked = canChoose && sel.picks.includes(i);
    const lift = picked ? -s * 0.14 : 0;
    drawKind(g, ctx, x1, y + s * 0.14 + lift, s, k, { stroke: picked || chosenIdx.includes(i) ? "#e0a800" : null, strokeWidth: picked || chosenIdx.includes(i) ? 3 : 1 });
    if (picked || chosenIdx.includes(i)) {
      txt(g, x1 + s / 2, y + s * 0.14 + lift - 3, chosenIdx.includes(i) ? "chosen" : "✓", { "font-size": 11, "font-weight": 800, fill: "#8a6100", "text-anchor": "middle" });
    }
    if (canChoose) {
      el("rect", { class: "btc-pick-hl", x: x1 - 2, y: y + s * 0.14 + lift - 2, width: s + 4, height: s + 4, rx: 6, fill: "none" }, g);
      button(g, `select ${kindInfo(ctx, k).name}`, () => {
        hideTip();
        const at = sel.picks.indexOf(i);
        if (at >= 0) sel.picks.splice(at, 1);
        else { sel.picks.push(i); if (sel.picks.length > 2) sel.picks.shift(); }
        redraw();
      });
    }
    tip(g, () => kindTip(ctx, k, [canChoose ? "Click to select it (two tiles make your choice)" : null]));
    x1 += s + gap;
  }
  let yy = y + s * 1.3 + 6;
  if (canChoose) {
    // the confirm button: the choose action of the two selected tiles
    const pair = sel.picks.length === 2 ? [hand[sel.picks[0]], hand[sel.picks[1]]].sort((a, b) => a - b) : null;
    const action = pair ? chooses.find(a => a.kinds[0] === pair[0] && a.kinds[1] === pair[1]) : null;
    for (const a of chooses) ctx.drawn.add(a.id);   // every pair is reachable from the hand
    const bw = Math.min(W - 20, 260), bh = 32;
    const bx = x + (W - bw) / 2;
    const bg = el("g", { class: "btc-confirm" + (action ? "" : " off") }, svg);
    el("rect", { class: "btc-confirm-bg", x: bx, y: yy, width: bw, height: bh, rx: 8, fill: action ? "#b5651d" : "#e9e1d0", stroke: action ? "#8a4a12" : "#d8ccb2" }, bg);
    const label = action ? "Choose these two" : (sel.picks.length === 1 ? "Select one more tile" : "Select two tiles");
    txt(bg, bx + bw / 2, yy + bh * 0.66, label, { "font-size": 14, "font-weight": 700, fill: action ? "#fff" : "#8c7f66", "text-anchor": "middle" });
    if (action) {
      clickable(bg, action, ctx, { before: () => { hideTip(); }, direct: true });   // itself the commit control
      el("rect", { class: "btc-hl", x: bx, y: yy, width: bw, height: bh, rx: 8 }, bg);
      tip(bg, `<div class="tt">${esc(cap(action.text))}</div><div class="ts">secret until everybody has chosen</div>`);
    }
    yy += bh + 8;
  } else if (obs.pending && obs.phase === "choose") {
    txt(svg, x + W / 2, yy + 14, `You chose ${obs.pending.text.replace(/^choose /, "")} — waiting for the others (${obs.choice_status})`,
      { "font-size": 13, fill: "#3d3425", "text-anchor": "middle" });
    yy += 22;
  }
  return yy;
}

function pairIndices(hand, kinds) {
  const i = hand.indexOf(kinds[0]);
  let j = hand.indexOf(kinds[1]);
  if (j === i) j = hand.indexOf(kinds[1], i + 1);
  return [i, j].filter(v => v >= 0);
}

/** Round 2: the viewer's three duplexes; clicking one discards it (the other two are kept). */
function drawDuplexes(svg, ctx, x, y, W, s) {
  const { obs } = ctx;
  const ds = obs.duplexes || [];
  const acts = new Map(ctx.legal.filter(a => a.kind === "discard_duplex").map(a => [a.duplex, a]));
  const mc = ctx.myChoice;
  const pendingD = mc && mc.kind === "discard_duplex" ? mc.duplex : null;
  const slot = 2 * s + 24;
  let x1 = x + Math.max(0, (W - ds.length * slot) / 2);
  for (const d of ds) {
    const dp = duplexInfo(ctx, d);
    const g = el("g", { class: "btc-dslot", "data-duplex": d }, svg);
    const ox = x1 + (dp.horizontal ? 0 : s / 2), oy = y + (dp.horizontal ? s / 2 : 0);
    drawDuplex(g, ctx, ox, oy, s, d);
    const a = acts.get(d);
    if (a) {
      clickable(g, a, ctx, { data: ["duplex"], before: hideTip });
      el("rect", { class: "btc-hl", x: ox - 3, y: oy - 3, width: (dp.horizontal ? 2 * s : s) + 6, height: (dp.horizontal ? s : 2 * s) + 6, rx: 6 }, g);
      tip(g, `<div class="tt">${esc(cap(a.text))}</div><div class="ts">you keep the other two</div>`);
    } else {
      tip(g, `<div class="tt">Duplex ${esc(dp.id)}</div><div class="ts">${esc(dp.name)}</div>`);
    }
    if (pendingD === d) {
      el("line", { x1: ox, y1: oy, x2: ox + (dp.horizontal ? 2 * s : s), y2: oy + (dp.horizontal ? s : 2 * s), stroke: "#c92a2a", "stroke-width": 4 }, g);
      txt(g, x1 + s, y + 2 * s + 14, "discarded", { "font-size": 11, "font-weight": 700, fill: "#c92a2a", "text-anchor": "middle" });
    }
    x1 += slot;
  }
  return y + 2 * s + 20;
}

/** The tiles or duplexes the viewer places now: click one to select it for the highlighted squares. */
function drawToPlace(svg, ctx, x, y, W, s) {
  const { obs } = ctx;
  const tp = (obs.to_place || [])[ctx.viewer] || {};
  const items = tp.tiles || tp.duplexes || [];
  const dup = !!tp.duplexes;
  if (!items.length) return y;
  const gap = 14;
  const slot = dup ? 2 * s + gap : s + gap;
  let x1 = x + Math.max(0, (W - items.length * slot) / 2);
  items.forEach((it, i) => {
    const g = el("g", { class: "btc-pick" + (ctx.places.length ? " pickable" : ""), "data-item": it, "data-index": i }, svg);
    const picked = ctx.places.length && ctx.item === it;
    if (dup) {
      const dp = duplexInfo(ctx, it);
      drawDuplex(g, ctx, x1 + (dp.horizontal ? 0 : s / 2), y + (dp.horizontal ? s / 2 : 0), s, it);
    } else {
      drawKind(g, ctx, x1, y, s, it, { stroke: picked ? "#e0a800" : null, strokeWidth: picked ? 3 : 1 });
    }
    if (picked) txt(g, x1 + (dup ? s : s / 2), y - 4, "selected", { "font-size": 11, "font-weight": 800, fill: "#8a6100", "text-anchor": "middle" });
    if (ctx.places.length && items.length > 1) {
      button(g, `select ${dup ? "duplex " + duplexInfo(ctx, it).id : kindInfo(ctx, it).name}`, () => {
        hideTip();
        sel.item = it;
        redraw();
      });
    }
    tip(g, () => dup ? `<div class="tt">Duplex ${esc(duplexInfo(ctx, it).id)}</div><div class="ts">${esc(duplexInfo(ctx, it).name)}</div>`
      : kindTip(ctx, it, [ctx.places.length ? "Click a highlighted square of one of your cities" : null]));
    x1 += slot;
  });
  return y + (dup ? 2 * s : s) + 8;
}

/** The hands the viewer has held this round (as they are now), but the one it holds. */
function drawKnownHands(svg, ctx, x, y, W) {
  const { obs } = ctx;
  const known = (obs.hands_known || []).filter(h => h.holder !== obs.seat && h.tiles.length);
  if (!known.length) return y;
  const s = 16;
  txt(svg, x, y + 12, "Hands you have seen this round:", { "font-size": 11, fill: "#7a6f5b" });
  y += 16;
  for (const h of known) {
    const name = ctx.names[h.holder] || `Seat ${h.holder}`;
    el("circle", { cx: x + 5, cy: y + s / 2, r: 5, fill: ctx.colors[h.holder] }, svg);
    fitText(svg, x + 14, y + s * 0.75, `${name} holds`, 84, 11, { fill: "#3d3425" });
    h.tiles.forEach((k, i) => {
      const g = drawKind(svg, ctx, x + 104 + i * (s + 3), y, s, k);
      tip(g, () => kindTip(ctx, k));
    });
    y += s + 4;
  }
  return y;
}

function drawPanel(svg, ctx, x, y, W, phone) {
  const { obs } = ctx;
  const head = el("g", { class: "btc-head" }, svg);
  txt(head, x + 4, y + 16, stageText(obs), { "font-size": 15, "font-weight": 700, fill: "#3d3425" });
  let y1 = y + 22;
  const info = obs.phase === "end" ? [] : [`${plural(obs.bag, "tile")} in the bag`];
  if (obs.capitals && obs.districts && obs.districts.length) {
    info.push("districts: " + obs.districts.map(d => `${d.types.join("/")} ${d.first}/${d.second}`).join(", "));
  }
  fitText(head, x + 4, y1 + 12, info.join(" · "), W - 8, 11.5, { fill: "#7a6f5b" });
  y1 += 18;
  if (obs.phase === "end") return drawFinal(svg, ctx, x, y1 + 4, W, phone);
  const seated = ctx.viewer !== null && ctx.viewer !== undefined;
  if (!seated) {
    const what = obs.choice_status ? `${obs.choice_status}: ${obs.decision}` : obs.decision;
    fitText(svg, x + 4, y1 + 14, cap(what), W - 8, 13, { fill: "#3d3425" });
    return y1 + 24;
  }
  const s = phone ? Math.min(44, (W - 20) / Math.max(7, (obs.hand || []).length) - 5) : 56;
  if (obs.phase === "choose") {
    const mine = ctx.onAction && ctx.legal.some(a => a.kind === "choose");
    txt(svg, x + 4, y1 + 14, mine ? "Your hand — choose 2 tiles:" : "Your hand:", { "font-size": 13, "font-weight": 600, fill: "#3d3425" });
    y1 = drawHand(svg, ctx, x, y1 + 20, W, s);
  } else if (obs.phase === "discard") {
    const mine = ctx.onAction && ctx.legal.some(a => a.kind === "discard_duplex");
    txt(svg, x + 4, y1 + 14, mine ? "Your duplexes — click the one you discard:" : "Your duplexes:", { "font-size": 13, "font-weight": 600, fill: "#3d3425" });
    y1 = drawDuplexes(svg, ctx, x, y1 + 22, W, phone ? 34 : 40);
    if (obs.pending) {
      txt(svg, x + W / 2, y1 + 8, `${obs.choice_status} — you may change yours until then`, { "font-size": 12, fill: "#3d3425", "text-anchor": "middle" });
      y1 += 16;
    }
  } else if (obs.phase === "place" || obs.phase === "place_duplex") {
    const mine = ctx.places.length > 0;
    const who = obs.current_player;
    const label = mine ? `Your turn — place ${obs.phase === "place" ? "a tile" : "a duplex"} in one of your cities (one in each):`
      : `Waiting for ${ctx.names[who] || "the next player"} to place. Your tiles to place:`;
    fitText(svg, x + 4, y1 + 14, label, W - 8, 13, { "font-weight": 600, fill: "#3d3425" });
    y1 = drawToPlace(svg, ctx, x, y1 + 26, W, phone ? 40 : 48);
    if (!((obs.to_place || [])[ctx.viewer] || {}).tiles?.length && !((obs.to_place || [])[ctx.viewer] || {}).duplexes?.length) {
      txt(svg, x + W / 2, y1 + 4, "(you have placed yours)", { "font-size": 12, fill: "#7a6f5b", "text-anchor": "middle" });
      y1 += 10;
    }
    if (obs.hand && obs.hand.length) {
      txt(svg, x + 4, y1 + 14, "Your next hand:", { "font-size": 12, fill: "#7a6f5b" });
      obs.hand.forEach((k, i) => drawKind(svg, ctx, x + 100 + i * 25, y1 + 2, 22, k));
      y1 += 28;
    }
  }
  if (obs.phase === "choose") y1 = drawKnownHands(svg, ctx, x + 4, y1, W);
  return y1 + 6;
}

// ---- the end -------------------------------------------------------------------------------

/** The final table: every city's breakdown; each player's two cities, the lower one (the sum with
 * 2 players) and the winner. */
function drawFinal(svg, ctx, x, y, W, phone) {
  const { obs } = ctx;
  const g = el("g", { class: "btc-final", id: "btc-final" }, svg);
  const cats = Object.keys(obs.cities[0].breakdown || {});
  const res = obs.result || { winners: [], ranking: [], scores: [] };
  const winners = res.winners || [];
  const rule = obs.two_players ? "Each player scores the sum of their two cities." : "Each player scores the lower of their two cities.";
  txt(g, x + 4, y + 14, "Final scores", { "font-size": 16, "font-weight": 800, fill: "#3d3425" });
  fitText(g, x + 116, y + 14, rule, W - 120, 12, { fill: "#5a4a2a" });
  y += 24;
  // the cities' table
  const nameW = phone ? 96 : 190;
  const colW = (W - nameW - 8) / (cats.length + 1);
  const fs = phone ? 9.5 : 12;
  const rowH = phone ? 16 : 20;
  el("rect", { x, y, width: W, height: rowH, fill: "#efe6d3" }, g);
  txt(g, x + 4, y + rowH * 0.7, "City", { "font-size": fs, "font-weight": 700, fill: "#3d3425" });
  cats.forEach((k, i) => fitText(g, x + nameW + i * colW + colW / 2, y + rowH * 0.7, CATEGORY_LABELS[k] || cap(k), colW - 2, fs * 0.9,
    { "font-weight": 700, fill: "#3d3425", "text-anchor": "middle" }, 0.55));
  txt(g, x + nameW + cats.length * colW + colW / 2, y + rowH * 0.7, "Total", { "font-size": fs, "font-weight": 800, fill: "#3d3425", "text-anchor": "middle" });
  y += rowH;
  const lowers = new Set(obs.players.map(p => p.lower_city).filter(c => c !== null && c !== undefined));
  obs.cities.forEach((city, c) => {
    const rg = el("g", { class: "btc-final-city", "data-city": c }, g);
    el("rect", { x, y, width: W, height: rowH, fill: c % 2 ? "#fbf8f1" : "#fffdf8" }, rg);
    city.seats.forEach((p, i) => el("circle", { cx: x + 7 + i * 11, cy: y + rowH / 2, r: 4.5, fill: ctx.colors[p] }, rg));
    fitText(rg, x + 8 + city.seats.length * 11, y + rowH * 0.7, cityLabel(ctx, c), nameW - 12 - city.seats.length * 11, fs, { fill: "#3d3425" });
    cats.forEach((k, i) => {
      const v = city.breakdown[k] || 0;
      txt(rg, x + nameW + i * colW + colW / 2, y + rowH * 0.7, String(v), { "font-size": fs, fill: v ? "#3d3425" : "#b8ad96", "text-anchor": "middle" });
    });
    txt(rg, x + nameW + cats.length * colW + colW / 2, y + rowH * 0.7, String(city.score), { "font-size": fs * 1.1, "font-weight": 800, fill: lowers.has(c) ? "#8a4a12" : "#3d3425", "text-anchor": "middle" });
    y += rowH;
  });
  y += 8;
  // the players, in ranking order
  const order = res.ranking && res.ranking.length ? res.ranking : obs.players.map(p => p.seat);
  for (const p of order) {
    const pl = obs.players[p];
    const L = obs.cities[pl.left], R = obs.cities[pl.right];
    const pg = el("g", { class: "btc-final-seat", "data-seat": p }, g);
    const win = winners.includes(p);
    el("rect", { x, y, width: W, height: rowH + 4, rx: 5, fill: win ? "#fff3bf" : "transparent" }, pg);
    el("circle", { cx: x + 9, cy: y + (rowH + 4) / 2, r: 6, fill: ctx.colors[p] }, pg);
    let line;
    if (obs.two_players) line = `${ctx.names[p]}: ${L.score} + ${R.score} = ${pl.score}`;
    else {
      const low = pl.lower_city === pl.left ? "left" : "right";
      line = `${ctx.names[p]}: left ${L.score}, right ${R.score} → the lower (${low}) = ${pl.score}`;
    }
    fitText(pg, x + 20, y + rowH * 0.8, line + (win ? (winners.length > 1 ? "  — shares the win" : "  — wins") : ""), W - 24, fs * 1.1,
      { "font-weight": win ? 800 : 500, fill: "#3d3425" });
    y += rowH + 6;
  }
  const tied = winners.length > 1 || (res.ranking && res.ranking.length > 1 && res.scores &&
    res.scores[res.ranking[0]] === res.scores[res.ranking[1]]);
  if (tied) {
    fitText(g, x + 4, y + 12, obs.two_players ? "Ties: the most shops, then factories, taverns, offices, parks, houses."
      : "Ties: the higher city decides, then the most shops, factories, taverns, offices, parks, houses.", W - 8, 11, { fill: "#7a6f5b" });
    y += 18;
  }
  return y + 6;
}

// ---- the whole board -------------------------------------------------------------------------

let lastArgs = null;
const VIEW = { hooked: false };

function redraw() { if (lastArgs) render(...lastArgs); }

/**
 * games.js `render`: draw the whole board into `svg`; every legal action has its place on it, so
 * it returns only those it could not draw (none, normally).
 */
export function render(svg, obs, comps, legal, ui = {}) {
  lastArgs = [svg, obs, comps, legal, ui];
  let names, colors, viewer;
  ({ legal, names, colors, viewer } = startBoard(VIEW, svg, obs, legal, ui, "btc-board", SEAT_COLORS, redraw));
  const onAction = typeof ui.onAction === "function" && legal.length ? ui.onAction : null;
  const places = onAction ? legal.filter(a => a.kind === "place" || a.kind === "place_duplex") : [];
  // the tile or duplex to place: the one selected, else the first that has a square
  const tp = viewer !== null && obs.to_place ? (obs.to_place[viewer] || {}) : {};
  const items = tp.tiles || tp.duplexes || [];
  const placeKey = `${viewer}|${obs.stage}|${obs.turn}|${obs.phase}|${items.join(",")}`;
  if (sel.placeKey !== placeKey) { sel.placeKey = placeKey; sel.item = null; }
  const placeable = new Set(places.map(a => (a.kind === "place" ? a.tile : a.duplex)));
  if (!placeable.has(sel.item)) sel.item = items.find(it => placeable.has(it)) ?? null;
  const ctx = { obs, comps, legal, names, colors, viewer, onAction, drawn: new Set(), places, item: sel.item,
    myChoice: ui.myChoice || null };
  for (const a of places) ctx.drawn.add(a.id);   // reachable by selecting the tile, then its square

  const phone = phoneLayout();
  const W = phone ? 400 : 1000;
  el("rect", { x: 0, y: 0, width: W, height: 4000, fill: "transparent" }, svg);
  let y = drawPanel(svg, ctx, 0, 0, W, phone);
  y = drawRing(svg, ctx, 0, y + 6, W, phone
    ? { perRow: () => 1, seatW: 62, maxCity: 250 }
    : { perRow: (m) => (m <= 3 ? m : m === 4 ? 2 : Math.ceil(m / 2)), seatW: 74, maxCity: 330 });
  svg.setAttribute("viewBox", `0 0 ${W} ${Math.ceil(y)}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  return legal.filter(a => !ctx.drawn.has(a.id));
}

// ---- the view interface (games.js) ----------------------------------------------------------

/** games.js `seatColors`: Blue, Red, Green, Yellow, Purple, Orange, White. */
export function seatColors(comps, n) { return Array.from({ length: n }, (_, i) => SEAT_COLORS[i % SEAT_COLORS.length]); }

/** games.js `prompt`: what to do now. */
export function prompt(obs, legal) {
  const kinds = new Set((legal || []).map(a => a.kind));
  if (kinds.has("choose")) return "Click two tiles of your hand, then “Choose these two”: one goes in each of your cities once everybody has chosen.";
  if (kinds.has("discard_duplex")) return "Click the duplex you discard; you keep the other two, one for each of your cities.";
  if (kinds.has("place")) return "Click a highlighted square to place the selected tile (click the other tile to switch). One tile goes in each of your two cities.";
  if (kinds.has("place_duplex")) return "Click a highlighted square: the selected duplex covers it and the square right of it (or below, when upright). One duplex in each city.";
  return "Choose an action.";
}

/** games.js `describe`: "Round 1 · turn 2 of 3 · hands pass left — choose 2 tiles …". */
export function describe(obs) {
  if (obs.phase === "end") {
    const r = obs.result;
    if (!r || !r.winners || !r.winners.length) return "Game over";
    const names = r.winners.map(p => (obs.players[p] || {}).name || `Seat ${p}`);
    return `Game over — ${names.join(" and ")} win${names.length > 1 ? "" : "s"}`;
  }
  return `${stageText(obs)} — ${obs.decision}`;
}

/** games.js `status`: "round 1 · turn 2/3 · choosing" for the top bar. */
export function status(obs) {
  if (obs.phase === "end") return "game over";
  const turn = obs.round === 2 ? "duplexes" : `turn ${Math.min(obs.turn + 1, obs.turns)}/${obs.turns}`;
  const what = { choose: "choosing", discard: "discarding", place: "placing", place_duplex: "placing" }[obs.phase] || obs.phase;
  return `round ${obs.stage || obs.round} · ${turn} · ${what}`;
}

/** games.js `logClass`: stages and the end stand out, reveals are marked. */
export function logClass(e) {
  const k = (e.kind || "").replace(/^between_two_cities\./, "");
  if (k === "stage") return "round";
  if (k === "game_end") return "end";
  if (k === "reveal" || k === "reveal_duplexes") return "btc-reveal";
  if (k === "discard_last" || k === "setup") return "sys";
  return null;
}

/** games.js `scoring`: the score sheet's wording (a player's breakdown is its lower city's). */
export const scoring = {
  labels: CATEGORY_LABELS,
  total: "Score (lower city)",
  winner: (name) => `${name} wins.`,
};
