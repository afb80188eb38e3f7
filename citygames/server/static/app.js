// citygames — shared front-end code: API calls, the table's WebSocket with reconnect, the game
// log panel, action buttons, the final score sheet, toasts. Plain ES modules, no build step.
// Nothing here is specific to one game: each game's view (colours, prompts, extra panels, score
// wording) comes from its module through games.js.

// ---- DOM helpers ----------------------------------------------------------------------------

/** h("div", {class: "x", onclick: f}, child, "text", ...) */
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (k === "class") e.className = v;
      else if (k === "style" && typeof v === "object") {
        for (const [sk, sv] of Object.entries(v)) {
          if (sk.startsWith("--")) e.style.setProperty(sk, sv);
          else e.style[sk] = sv;
        }
      }
      else if (k === "html") e.innerHTML = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

/** A round dot of a seat's CSS colour. */
export function swatch(color) { return h("span", { class: "swatch", style: { background: color || "#888" } }); }

// ---- API ------------------------------------------------------------------------------------

/** fetch JSON from the server; throws an Error carrying the server's {"error": ...} message. */
export async function api(path, opts = {}) {
  const init = { headers: { Accept: "application/json" }, ...opts };
  if (opts.body !== undefined && typeof opts.body !== "string") {
    init.body = JSON.stringify(opts.body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Error(`cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const msg = data && data.error ? data.error : `${res.status} ${res.statusText}`;
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data;
}

const componentsCache = new Map();

/** GET /api/games/{game}/components?<options> (cached): a table's options as stored with it. */
export function loadComponents(game, options = {}) {
  const q = new URLSearchParams();
  for (const k of Object.keys(options || {}).sort()) {
    if (options[k] !== null && options[k] !== undefined) q.set(k, String(options[k]));
  }
  const qs = q.toString();
  const key = `${game}?${qs}`;
  if (!componentsCache.has(key)) {
    componentsCache.set(key, api(`/api/games/${encodeURIComponent(game)}/components${qs ? `?${qs}` : ""}`)
      .catch((e) => { componentsCache.delete(key); throw e; }));
  }
  return componentsCache.get(key);
}

// ---- toasts ---------------------------------------------------------------------------------

export function toast(message, kind = "error", ms = 4500) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  const t = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.appendChild(t);
  setTimeout(() => t.classList.add("hide"), ms);
  setTimeout(() => t.remove(), ms + 500);
  return t;
}

// ---- WebSocket with reconnect ---------------------------------------------------------------

/**
 * Connect to /ws/tables/{id}[?seat=N&token=T]. Reconnects with backoff after a drop (not after
 * 4403 wrong token or 4404 unknown table).
 * handlers: onState(msg), onError(msg), onStatus(status, detail) with status in
 * "connecting" | "open" | "closed" | "fatal".
 * Returns {send(obj) -> bool, close()}.
 */
export function connectTable(tableId, seat, token, handlers = {}) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = seat !== null && seat !== undefined && seat !== "" ? `?seat=${encodeURIComponent(seat)}&token=${encodeURIComponent(token || "")}` : "";
  const url = `${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${q}`;
  let ws = null;
  let closed = false;
  let attempt = 0;
  let timer = null;
  let pinger = null;
  const status = (s, d) => handlers.onStatus && handlers.onStatus(s, d);

  function open() {
    if (closed) return;
    status("connecting", attempt);
    ws = new WebSocket(url);
    ws.onopen = () => {
      attempt = 0;
      status("open");
      clearInterval(pinger);
      pinger = setInterval(() => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" })); }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "state") handlers.onState && handlers.onState(msg);
      else if (msg.type === "error") handlers.onError && handlers.onError(msg);
      else if (msg.type === "why") handlers.onWhy && handlers.onWhy(msg);   // "why not?" (svg.js makeWhy)
      else handlers.onMessage && handlers.onMessage(msg);   // chat and other messages (issue 15)
    };
    ws.onclose = (ev) => {
      clearInterval(pinger);
      if (closed) return;
      if (ev.code === 4403 || ev.code === 4404) {
        closed = true;
        status("fatal", ev.code === 4403 ? "wrong or missing seat token" : "no such table");
        return;
      }
      attempt += 1;
      const delay = Math.min(10000, 500 * 2 ** Math.min(attempt, 5));
      status("closed", delay);
      timer = setTimeout(open, delay);
    };
    ws.onerror = () => { /* onclose follows */ };
  }
  open();
  return {
    send(obj) {
      if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj)); return true; }
      return false;
    },
    close() { closed = true; clearTimeout(timer); clearInterval(pinger); if (ws) ws.close(); },
  };
}

/** Show a connection status in a pill element. */
export function showConn(pill, s, d) {
  pill.className = "conn " + ({ open: "ok", fatal: "bad", closed: "wait", connecting: "wait" }[s] || "");
  pill.textContent = {
    open: "connected", connecting: "connecting…", closed: `reconnecting in ${Math.round((d || 0) / 1000)}s`,
    fatal: `cannot join: ${d}`,
  }[s] || s;
}

// ---- the game log ---------------------------------------------------------------------------

/**
 * The log panel: keeps every entry by index; `update(entries, logFrom)` drops what is at or
 * after logFrom (an undo or a reconnect) and appends the new entries. `colors`: CSS colour of
 * each seat (the stripe of its entries); `extraClass(entry)`: a game's own class for an entry.
 *
 * The box follows play: it stays at the newest entry unless the reader has scrolled up. Whether
 * to follow is decided by the reader's own scrolling (not measured when entries arrive: the page
 * around the box changes height between states, which would leave it "scrolled up" by itself),
 * and the box is pinned to the bottom again whenever its size changes. When the reader has
 * scrolled up and new entries arrive, a "Jump to latest" button (.log-latest) appears over the
 * bottom of the box.
 */
export class LogPanel {
  constructor(el, colors, extraClass) {
    this.el = el;
    this.colors = colors || [];
    this.extraClass = extraClass || null;
    this.entries = [];
    this.follow = true;       // pinned to the newest entry
    this.autoTop = null;      // the scrollTop this panel set itself (its scroll event is not the reader's)
    this.latest = h("button", { type: "button", class: "small log-latest", hidden: true,
      title: "Scroll the log to its newest entry", onclick: () => this.jumpToLatest() }, "↓ Jump to latest");
    if (el.parentNode) el.parentNode.insertBefore(this.latest, el.nextSibling);
    el.addEventListener("scroll", () => this.onScroll());
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => { if (this.follow) this.pin(); }).observe(el);
  }

  setColors(colors) { this.colors = colors || []; }

  /** Set the seat colours and the game's entry classes; redraws the entries. */
  setView(colors, extraClass) {
    this.colors = colors || [];
    this.extraClass = extraClass || null;
    this.render();
    if (this.follow) this.pin();
  }

  /** Whether the box shows its last line (within a few pixels). */
  atBottom() { return this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 24; }

  /** Scroll to the newest entry (remembering the position as set by the panel, not the reader). */
  pin() {
    this.el.scrollTop = this.el.scrollHeight;
    this.autoTop = this.el.scrollTop;
  }

  onScroll() {
    if (this.autoTop !== null && Math.abs(this.el.scrollTop - this.autoTop) < 2) return;  // the panel's own
    this.autoTop = null;
    this.follow = this.atBottom();
    if (this.follow) this.latest.hidden = true;
  }

  /** Keep to the newest entry after the page around the box has changed (its height with it). */
  settle() { if (this.follow) this.pin(); }

  /** Follow play again from the newest entry (the "Jump to latest" button). */
  jumpToLatest() {
    this.follow = true;
    this.latest.hidden = true;
    this.pin();
  }

  update(entries, logFrom = 0, { fresh = true } = {}) {
    entries = entries || [];
    const from = logFrom ?? 0;
    // entries carry their index in the game's whole log (some are hidden from this seat), so
    // keep what lies before log_from and drop the rest (an undo or a reconnect resends it)
    const keep = from === 0 ? [] : this.entries.filter(e => e.index === undefined || e.index < from);
    const rebuilt = keep.length < this.entries.length;
    this.entries = keep.concat(entries);
    if (rebuilt || from === 0) {
      // (a reconnect or an undo: the whole log again, shown from its newest entry)
      this.render();
      this.follow = true;
      this.latest.hidden = true;
    } else {
      for (const e of entries) this.el.appendChild(this.entryNode(e, fresh));
      if (!this.follow && entries.length) this.latest.hidden = false;
    }
    if (this.follow) this.pin();
  }

  set(entries) { this.entries = []; this.update(entries, 0, { fresh: false }); }

  render() {
    this.el.textContent = "";
    const frag = document.createDocumentFragment();
    for (const e of this.entries) frag.appendChild(this.entryNode(e, false));
    this.el.appendChild(frag);
  }

  entryNode(e, fresh) {
    const kind = (e.kind || "").split(".").pop();
    const cls = ["entry"];
    const hasPlayer = e.player !== null && e.player !== undefined;
    const color = hasPlayer ? this.colors[e.player] : null;
    const extra = this.extraClass ? this.extraClass(e) : null;
    if (extra) cls.push(extra);
    else if (kind === "round") cls.push("round");
    else if (kind === "game_end" || kind === "final_scoring") cls.push("end");
    else if (!hasPlayer) cls.push("sys");
    if (fresh) cls.push("fresh");
    return h("div", {
      class: cls.join(" "), "data-kind": e.kind, "data-index": e.index, "data-player": hasPlayer ? e.player : null,
      style: color ? { "--pc": color } : null,
    }, e.text || e.kind);
  }
}

function fmtSigned(v) { return v > 0 ? `+${v}` : `${v ?? 0}`; }

// ---- action buttons -------------------------------------------------------------------------

/**
 * Buttons for the legal actions that have no place on the board; each calls onAction(id).
 * The same buttons (same actions, same state) are left in place rather than drawn again: a state
 * message that changes nothing for them (another seat choosing in a simultaneous step, a seat
 * connecting) must not swallow a click under way (press and release on two different buttons).
 */
export function actionButtons(container, actions, onAction, { disabled = false } = {}) {
  const key = JSON.stringify([disabled, actions.map(a => [a.id, a.kind, a.text])]);
  if (container.dataset.key === key && container.childElementCount === actions.length) {
    container._onAction = onAction;
    for (const b of container.children) b.disabled = disabled;   // (the page may have disabled them meanwhile)
    return;
  }
  container.dataset.key = key;
  container._onAction = onAction;
  container.textContent = "";
  actions.forEach((a, i) => {
    const b = h("button", {
      class: "act", "data-action": a.id, "data-kind": a.kind, disabled,
      title: a.text, onclick: () => container._onAction(a.id, a),
    }, i < 9 ? h("span", { class: "k" }, `${i + 1}`) : null, a.text || a.kind);
    container.appendChild(b);
  });
}

// ---- simultaneous steps ---------------------------------------------------------------------

/**
 * Where a simultaneous step stands for the viewer of a `state` message (PROTOCOL.md,
 * "Simultaneous steps"), or null outside one (`msg.chosen` is null):
 * {chosen: seats that have chosen, waiting: seats still to choose, n, m ("n of m have chosen"),
 *  mine: the viewer is still to choose, chose: the viewer has chosen, myChoice: its own choice
 *  (an action as in `legal`) or null}. Only counts and names: what the others chose never
 *  reaches the page.
 */
export function simultaneousStep(msg) {
  if (!msg || msg.chosen === null || msg.chosen === undefined) return null;
  const chosen = msg.chosen || [];
  const waiting = msg.to_move || [];
  const seat = msg.your_seat;
  const seated = seat !== null && seat !== undefined;
  return {
    chosen, waiting, n: chosen.length, m: chosen.length + waiting.length,
    mine: seated && waiting.includes(seat), chose: seated && chosen.includes(seat),
    myChoice: msg.my_choice || null,
  };
}

/**
 * The turn card's part for a simultaneous step: "N of M have chosen", who has (✓) and who is
 * still choosing, by name; for a seat that has chosen "You chose X" and a Change button calling
 * `onChange()` (null: no button, e.g. while an answer is awaited).
 */
export function simultaneousNode(step, names, colors, onChange, { busy = false } = {}) {
  const who = (p, done) => h("span", { class: `chooser ${done ? "done" : "waiting"}`, "data-seat": p },
    swatch(colors[p]), ` ${names[p] ?? `Seat ${p}`}`, done ? " ✓" : "");
  const count = h("div", { class: "sim-count", id: "sim-count" },
    h("b", null, `${step.n} of ${step.m}`), ` ${step.n === 1 ? "has" : "have"} chosen`);
  const people = h("div", { class: "sim-who" },
    ...step.chosen.map(p => who(p, true)), ...step.waiting.map(p => who(p, false)));
  const parts = [count, people];
  if (step.chose) {
    // ("You chose factory + office", not "You chose choose factory + office")
    const text = step.myChoice ? (step.myChoice.text || step.myChoice.kind).replace(/^choose\s+/i, "") : "your choice";
    parts.push(h("div", { class: "sim-mine", id: "my-choice", "data-action": step.myChoice ? step.myChoice.id : null },
      h("span", null, "You chose ", h("b", null, text)),
      onChange ? h("button", { class: "small", id: "change-choice", disabled: busy, onclick: onChange,
        title: "Take your choice back and choose again (until everybody has chosen)" }, "Change") : null));
    parts.push(h("div", { class: "hint" }, "The others cannot see it. It is revealed when everybody has chosen."));
  } else if (step.mine) {
    parts.push(h("div", { class: "hint" },
      "Everybody chooses at the same time; nobody sees your choice until all have chosen, and you may change it until then."));
  }
  return h("div", { class: "sim" }, ...parts);
}

// ---- score sheet ----------------------------------------------------------------------------

export function categoryLabel(k, labels = {}) { return labels[k] || cap(String(k).replace(/_/g, " ")); }

/**
 * The final score sheet: one column per player, one row per category of result.breakdown, the
 * total (result.scores) at the bottom and the winner marked. `colors`: CSS colours of the seats;
 * `scoring`: the game's wording {labels: {category: label}, total: "Total"} (games.js).
 */
export function scoreSheet(result, colors, names, scoring = {}) {
  const n = result.scores.length;
  const cats = [];
  for (const b of result.breakdown || []) for (const k of Object.keys(b)) if (!cats.includes(k)) cats.push(k);
  const rankOf = new Array(n);
  (result.ranking || []).forEach((p, i) => { rankOf[p] = i + 1; });
  const winner = result.ranking ? result.ranking[0] : null;
  const ordinal = (r) => r === 1 ? "1st" : r === 2 ? "2nd" : r === 3 ? "3rd" : `${r}th`;
  const head = h("tr", null, h("th", null, ""), ...Array.from({ length: n }, (_, p) =>
    h("th", { class: p === winner ? "win" : null, "data-seat": p },
      swatch(colors[p]), " ", names[p] ?? `Seat ${p}`,
      rankOf[p] ? h("span", { class: "rank" }, p === winner ? "winner" : ordinal(rankOf[p])) : null)));
  const rows = cats.map(k => h("tr", { "data-category": k }, h("td", null, categoryLabel(k, scoring.labels || {})),
    ...Array.from({ length: n }, (_, p) => {
      const v = (result.breakdown[p] || {})[k] ?? 0;
      return h("td", { class: v < 0 ? "neg" : v === 0 ? "zero" : null }, fmtSigned(v));
    })));
  const total = h("tr", { class: "total" }, h("td", null, scoring.total || "Total"),
    ...result.scores.map((s, p) => h("td", { class: "total", "data-seat": p }, String(s))));
  return h("div", { class: "scoresheet", id: "scoresheet" },
    h("table", null, h("thead", null, head), h("tbody", null, rows, total)));
}

/** Show the score sheet as a dismissable overlay (once per page). */
export function showScoreOverlay(result, colors, names, extraLinks = [], scoring = {}) {
  if (document.getElementById("score-overlay")) return;
  const winner = result.ranking ? result.ranking[0] : null;
  const close = () => ov.remove();
  const ov = h("div", { class: "overlay", id: "score-overlay", onclick: (e) => { if (e.target === ov) close(); } },
    h("div", { class: "card" },
      h("h2", null, "Final scores"),
      winner !== null ? h("div", { class: "sub" }, swatch(colors[winner]), " ",
        (scoring.winner || ((n) => `${n} wins.`))(names[winner] ?? `Seat ${winner}`)) : null,
      scoreSheet(result, colors, names, scoring),
      h("div", { class: "toolbar" }, ...extraLinks, h("button", { class: "primary", onclick: close }, "Close"))));
  document.body.appendChild(ov);
  document.addEventListener("keydown", function esc(e) { if (e.key === "Escape") { close(); document.removeEventListener("keydown", esc); } });
}

// ---- misc -----------------------------------------------------------------------------------

/** Display names of n seats from the server's seat list (the server always names a seat). */
export function seatNames(seats, n) {
  return Array.from({ length: n }, (_, p) => {
    const s = (seats || []).find(x => x.seat === p) || {};
    if (s.name) return s.name;
    return s.kind === "bot" ? `Seat ${p} (${s.bot || "bot"})` : `Seat ${p}`;
  });
}

export function fmtTime(iso) {
  if (!iso) return "";
  const d = typeof iso === "number" ? new Date(iso * 1000) : new Date(iso);
  if (isNaN(d)) return String(iso);
  return d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** Stored join links of the tables this browser created: {table_id: {seats: [...], watch_url}}. */
export const myTables = {
  all() {
    try { return JSON.parse(localStorage.getItem("citygames.myTables") || "{}"); } catch { return {}; }
  },
  get(id) { return this.all()[id] || null; },
  put(id, info) {
    const all = this.all();
    all[id] = info;
    try { localStorage.setItem("citygames.myTables", JSON.stringify(all)); } catch { /* private mode */ }
  },
};
