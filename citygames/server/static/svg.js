// Small SVG drawing helpers shared by the game renderer modules (capitals.js, seven_wonders_duel.js,
// quadropolis.js): elements, fitted and wrapped text, clickable elements for legal actions, tooltips.

export const NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with `attrs` (null, undefined and false values are left out), appended to `parent`. */
export function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A <text> element at (x, y) holding `s`. */
export function txt(parent, x, y, s, attrs) {
  const t = el("text", { x, y, ...attrs }, parent);
  t.textContent = touchWords(s);
  return t;
}

/**
 * Text that never overflows `maxW` (SVG units), estimating a glyph as `charW` x the font size:
 * squeezed with textLength up to `slack` x, cut with an ellipsis beyond that.
 */
export function fitText(parent, x, y, s, maxW, size, attrs = {}, charW = 0.5, slack = 1.25) {
  let str = String(s);
  let est = str.length * size * charW;
  if (est > maxW * slack) {
    const keep = Math.max(1, Math.floor((maxW * (slack - 0.02)) / (size * charW)) - 1);
    str = str.slice(0, keep).trimEnd() + "…";
    est = str.length * size * charW;
  }
  const a = { "font-size": size, ...attrs };
  if (est > maxW) { a.textLength = maxW.toFixed(1); a.lengthAdjust = "spacingAndGlyphs"; }
  return txt(parent, x, y, str, a);
}

/**
 * Greedy word wrap by estimated width into at most `maxLines` lines. Overflow: with `ellipsis`
 * the last line ends in " …", else the rest is joined onto the last line (for fitText to squeeze).
 */
export function wrap(s, maxW, size, maxLines, charW = 0.5, ellipsis = true) {
  const words = String(s).split(/\s+/).filter(Boolean);
  const lines = [];
  let cur = "";
  for (const w of words) {
    const cand = cur ? cur + " " + w : w;
    if (!cur || cand.length * size * charW <= maxW) cur = cand;
    else { lines.push(cur); cur = w; }
  }
  if (cur) lines.push(cur);
  if (lines.length <= maxLines) return lines;
  const head = lines.slice(0, maxLines - 1);
  head.push(ellipsis ? lines[maxLines - 1].replace(/\s*\S*$/, "") + " …" : lines.slice(maxLines - 1).join(" "));
  return head;
}

/**
 * Make `node` a button for mouse and keyboard: focusable (tabindex 0), role "button" with the
 * accessible name `label`; a click, Enter or Space calls `fn(event)` after preventDefault and
 * stopPropagation (so the board behind it sees nothing).
 */
export function button(node, label, fn) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  const fire = (e) => {
    e.preventDefault();
    e.stopPropagation();
    fn(e);
  };
  node.addEventListener("click", fire);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") fire(e); });
}

/**
 * Draw `node` as the place of the legal `action` (the games.js convention the keyboard and the
 * end-to-end tests rely on): class "legal", data-action, data-kind, and data-<key> for each of
 * `data` the action carries (e.g. ["cost"]); a button (see `button`) that calls `before()` (e.g.
 * hide a tooltip) then `ctx.onAction(action.id, action)`. The action id goes into `ctx.drawn`
 * (the actions the page need not show as buttons). Does nothing and returns false when there is
 * no action or no `ctx.onAction` (not this seat's turn, a spectator, a replay); else true.
 */
export function makeClickable(node, action, ctx, { data = [], before = null, direct = false } = {}) {
  if (!action || !ctx.onAction) return false;
  node.classList.add("legal");
  node.setAttribute("data-action", action.id);
  node.setAttribute("data-kind", action.kind);
  for (const k of data) if (action[k] !== undefined) node.setAttribute(`data-${k}`, action[k]);
  button(node, action.text || action.kind, () => {
    // on a touch screen a tap only selects: the details panel shows what it is and commits it
    // (issue 15, defect 2); `direct`: the element is itself a commit control (a choice menu's row)
    if (!direct && touchMode()) {
      selectTarget(node, { html: nodeDetails(node), choices: [{ action, before }] }, ctx);
      return;
    }
    if (before) before();
    ctx.onAction(action.id, action);
  });
  ctx.drawn.add(action.id);
  return true;
}

// ---- touch: tap shows details, a second control commits; "why not?" (issue 15) -----------------

/** The media query of a screen without hover (a phone, a tablet): taps select, never act. */
export const TOUCH_QUERY = "(hover: none)";

/** Whether taps select instead of acting (TOUCH_QUERY; `?touch=1` in the page's URL forces it). */
export function touchMode() {
  if (typeof window === "undefined" || !window.matchMedia) return false;
  if (/[?&]touch=1\b/.test(window.location.search)) return true;
  return window.matchMedia(TOUCH_QUERY).matches;
}

/** `s` with "Click"/"click" said as "Tap"/"tap" on a touch screen (touchMode), else `s` unchanged. */
export function touchWords(s) {
  if (typeof s !== "string" || !/click/i.test(s) || !touchMode()) return s;
  return s.replace(/\bClick\b/g, "Tap").replace(/\bclick\b/g, "tap");
}

function escText(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

/** The details of a board element as HTML: its tooltip (see `tip`), else its SVG <title> text. */
export function nodeDetails(node) {
  if (node && node._tipHtml) return typeof node._tipHtml === "function" ? node._tipHtml() : node._tipHtml;
  const t = node && node.querySelector ? node.querySelector(":scope > title") : null;
  if (t && t.textContent) {
    const [head, ...rest] = t.textContent.split("\n");
    return `<div class="tt">${escText(head)}</div>` + rest.map(l => `<div class="fx">${escText(l)}</div>`).join("");
  }
  return "";
}

/** The label of a commit button: the action's own text (the engine's words, costs included). */
export function commitLabel(action) {
  const s = String(action.text || action.kind);
  return s[0].toUpperCase() + s.slice(1);
}

let sheet = null;      // {el, node, ids: action ids it offers}
let whyWaiting = null; // the reason box waiting for a "why" answer

function sheetEl() {
  let d = document.getElementById("details");
  if (!d) {
    d = document.createElement("section");
    d.id = "details";
    d.className = "details-sheet";
    d.setAttribute("role", "dialog");
    d.setAttribute("aria-label", "details");
    d.hidden = true;
    document.body.appendChild(d);
  }
  return d;
}

/** Close the details panel and unmark the selected element. */
export function closeDetails() {
  if (sheet && sheet.node) sheet.node.classList.remove("selected");
  sheet = null;
  whyWaiting = null;
  const d = document.getElementById("details");
  if (d) { d.hidden = true; d.textContent = ""; }
  document.body.classList.remove("has-details");
}

/** After a new state: close the panel if an action it offers is no longer legal (ids: the legal ids). */
export function refreshDetails(legalIds) {
  if (!sheet) return;
  const ok = new Set(legalIds || []);
  if (sheet.ids.some(id => !ok.has(id))) closeDetails();
}

/**
 * Select `node` and show the details panel (fixed at the bottom of the screen): `html` (trusted
 * markup built by the views with escaped texts), then one button per entry of `choices`:
 * `{action, before, label}` commits the action through `ctx.onAction` (label: the action's text by
 * default), `{why: {kind, arg} | {action: id}, label}` is a greyed choice that asks the server why
 * not (`ctx.onWhy`) and shows the rule in the panel. A Cancel button closes it.
 */
export function selectTarget(node, { html = "", choices = [], reason = null } = {}, ctx = {}) {
  closeDetails();
  hideTip();
  const d = sheetEl();
  sheet = { el: d, node, ids: choices.filter(c => c.action).map(c => c.action.id) };
  if (node && node.classList) node.classList.add("selected");
  const body = document.createElement("div");
  body.className = "details-body";
  const first = choices.find(c => c.action);
  body.innerHTML = html || (first ? `<div class="tt">${escText(commitLabel(first.action))}</div>` : "");
  d.appendChild(body);
  const why = document.createElement("div");
  why.className = "details-why";
  why.hidden = true;
  d.appendChild(why);
  const bar = document.createElement("div");
  bar.className = "details-buttons";
  for (const c of choices) {
    const b = document.createElement("button");
    b.type = "button";
    if (c.action) {
      b.className = "primary commit";
      b.dataset.action = c.action.id;
      b.textContent = c.label || commitLabel(c.action);
      b.addEventListener("click", () => {
        const a = c.action;
        const onAction = ctx.onAction;
        if (c.before) c.before();
        closeDetails();
        if (onAction) onAction(a.id, a);
      });
    } else if (c.why) {
      b.className = "whynot-choice";
      b.textContent = `${c.label} — why not?`;
      b.addEventListener("click", () => askWhy(c.why, ctx, why));
    }
    bar.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "cancel";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", closeDetails);
  bar.appendChild(cancel);
  d.appendChild(bar);
  d.hidden = false;
  document.body.classList.add("has-details");
  if (reason) askWhy(reason, ctx, why);
  const commit = d.querySelector("button.commit");
  if (commit && commit.focus) try { commit.focus({ preventScroll: true }); } catch { /* old browsers */ }
}

function askWhy(query, ctx, box) {
  box.hidden = false;
  box.className = "details-why";
  box.textContent = "Why not? Asking the rules…";
  whyWaiting = box;
  const onWhy = ctx.onWhy || (ctx.ui && ctx.ui.onWhy);
  if (!onWhy) { box.textContent = "Not available now."; return; }
  Promise.resolve(onWhy(query)).then((ans) => {
    if (whyWaiting !== box) return;
    box.className = "details-why " + (ans && ans.legal ? "ok" : "no");
    box.textContent = "";
    const b = document.createElement("b");
    b.textContent = ans && ans.legal ? "Allowed: " : ans && ans.legal === false ? "Not allowed: " : "No answer: ";
    box.append(b, String((ans && ans.reason) || "no answer from the server"));
  }, (e) => { if (whyWaiting === box) box.textContent = `No answer: ${e.message || e}`; });
}

/**
 * Draw `node` as a greyed choice the player may wonder about (issue 15, "why can't I do this?"):
 * class "whynot", data-why-kind / data-why-arg (or data-why-action); a click or tap selects it and
 * the details panel shows its details and the engine's reason (`ctx.onWhy`, see table.js).
 * Does nothing and returns false without `ctx.onWhy` or `ctx.onAction` (not this seat's turn).
 */
export function makeWhy(node, query, ctx, label) {
  const onWhy = ctx.onWhy || (ctx.ui && ctx.ui.onWhy);
  if (!onWhy || !ctx.onAction || !query) return false;
  node.classList.add("whynot");
  // desktop: the pointer says "help" (CSS) and the tooltip ends with "why not? click" (tip); an
  // element with only an SVG <title> gets the same tooltip instead of the browser's own
  if (!node._tipHtml) {
    const html = nodeDetails(node) || `<div class="tt">${escText(label)}</div>`;
    const t = node.querySelector ? node.querySelector(":scope > title") : null;
    if (t) t.remove();
    tip(node, html);
  }
  if (query.kind !== undefined) { node.setAttribute("data-why-kind", query.kind); node.setAttribute("data-why-arg", query.arg ?? 0); }
  if (query.action !== undefined) node.setAttribute("data-why-action", query.action);
  button(node, `${label}: why not?`, () => selectTarget(node, { html: nodeDetails(node), reason: query }, ctx));
  return true;
}

// ---- tooltips (one floating <div class="tip"> shared by every view) ---------------------------

let tipEl = null;

/** The last line of a greyed target's tooltip (makeWhy): a click asks the rules why not. */
const WHY_HINT = `<div class="whyhint">why not? click</div>`;

function tipNode() {
  if (!tipEl || !tipEl.isConnected) {
    tipEl = document.createElement("div");
    tipEl.className = "tip";
    tipEl.style.display = "none";
    tipEl.setAttribute("role", "tooltip");
    document.body.appendChild(tipEl);
  }
  return tipEl;
}

function placeTip(evt) {
  const t = tipNode();
  const pad = 14;
  const r = t.getBoundingClientRect();
  let x = evt.clientX + pad;
  let y = evt.clientY + pad;
  if (x + r.width > window.innerWidth - 4) x = evt.clientX - r.width - pad;
  if (y + r.height > window.innerHeight - 4) y = Math.max(4, evt.clientY - r.height - pad);
  t.style.left = `${Math.max(4, x)}px`;
  t.style.top = `${y}px`;
}

/** Hide the tooltip (e.g. before acting on a click, so none stays over the next board). */
export function hideTip() { if (tipEl) tipEl.style.display = "none"; }

/** Show `html` (a string or a function returning one) while the pointer is over `node`; also
 * calls `on(true|false)` on enter / leave and on keyboard focus / blur. */
export function tip(node, html, on) {
  node._tipHtml = html;   // the details panel shows the same (selectTarget)
  const show = (e) => {
    const t = tipNode();
    t.innerHTML = (typeof html === "function" ? html() : html) + (node.classList && node.classList.contains("whynot") ? WHY_HINT : "");
    t.style.display = "block";
    if (e && e.clientX !== undefined) placeTip(e);
    else {
      const r = node.getBoundingClientRect();
      placeTip({ clientX: r.right, clientY: r.bottom });
    }
    if (on) on(true);
  };
  const hide = () => { hideTip(); if (on) on(false); };
  node.addEventListener("mouseenter", (e) => { if (!touchMode()) show(e); });
  node.addEventListener("mousemove", placeTip);
  node.addEventListener("mouseleave", hide);
  // keyboard focus only: a click also focuses the node, and its tooltip would then stay at the
  // node's corner (over the turn card) after the click has been handled and the board redrawn
  node.addEventListener("focus", () => { if (!node.matches || node.matches(":focus-visible")) show(null); });
  node.addEventListener("blur", hide);
}

/** The width below which the board views switch to their one-column phone layout. */
export const PHONE_QUERY = "(max-width: 760px)";

/** Whether the screen is phone-sized (PHONE_QUERY). */
export function phoneLayout() {
  return typeof window !== "undefined" && window.matchMedia && window.matchMedia(PHONE_QUERY).matches;
}

/**
 * The common start of a board view's `render`: hooks `redraw` (once per view: `view.hooked`) to run
 * when the screen crosses between phone and desktop size, hides a left-over tooltip, marks the page
 * for the phone layout, clears `svg` and gives it `boardClass` (and `busy` while an action is under
 * way). Returns `{ legal, n, names, colors, viewer }`: the legal actions (never null), the number
 * of seats, each seat's display name, each seat's colour (`ui.colors`, else `seatColors`) and the
 * seat the page plays (null: a spectator).
 */
export function startBoard(view, svg, obs, legal, ui, boardClass, seatColors, redraw) {
  if (!view.hooked && typeof window !== "undefined") {
    view.hooked = true;
    let phone = phoneLayout();
    window.addEventListener("resize", () => {
      const now = phoneLayout();
      if (now !== phone) { phone = now; redraw(); }
    });
  }
  hideTip();
  if (typeof document !== "undefined" && document.body) document.body.classList.add("phone-page");
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.classList.add(boardClass);
  svg.classList.toggle("busy", !!ui.busy);
  const n = obs.players.length;
  return {
    legal: legal || [],
    n,
    names: Array.from({ length: n }, (_, p) => (ui.names && ui.names[p]) || obs.players[p].name || `Seat ${p}`),
    colors: ui.colors && ui.colors.length >= n ? ui.colors : seatColors,
    viewer: ui.seat ?? obs.seat ?? null,
  };
}
