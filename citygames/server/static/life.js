// citygames — the life of a table beyond its moves (issue 15): resign, abandon, a bot playing a
// seat whose time ran out or whose player is away ("Let a bot play for Ann", Board Game Arena's
// zombie) and "Take back", clocks, and "Play again" (rematch). The server side is
// citygames/server/lifecycle.py; the protocol is in PROTOCOL.md ("Resign, abandon, bot takeover,
// clocks, rematch"). Everything users wrote (names) goes into the page as text, never as HTML.
import { api, h, toast, myTables, swatch } from "/static/app.js";

const $ = (id) => document.getElementById(id);

// ---- clocks -----------------------------------------------------------------------------------

/** "9:58", "1:02:03", "2 d 3 h" for a number of seconds (never negative). */
export function fmtClock(s) {
  s = Math.max(0, Math.ceil(s));
  if (s >= 48 * 3600) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (x) => String(x).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** The clock settings in words: "live: 10 min + 10 s a move", "turn-based: 24 h a move". */
export function clockWords(clock) {
  if (!clock) return "no clock";
  const dur = (s) => s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`;
  if (clock.mode === "turn") return `turn-based: ${dur(clock.per_move_s)} a move`;
  return `live: ${dur(clock.bank_s)}${clock.increment_s ? ` + ${clock.increment_s} s a move` : ""}`;
}

let clocks = [];         // the last state's clocks
let clocksAt = 0;        // performance.now() when they arrived
let ticker = null;

function clockLeft(c) {
  return c.running ? c.remaining_s - (performance.now() - clocksAt) / 1000 : c.remaining_s;
}

/** Draw every clock: the rows of #life-clocks and any .seat-clock[data-seat=N] on the page;
 * also the countdowns of the seats away (and draw the page's part again when one reaches 0). */
function drawClocks() {
  drawAway();
  for (const c of clocks) {
    const left = clockLeft(c);
    const text = fmtClock(left);
    const low = c.running && left <= 30;
    for (const el of document.querySelectorAll(`.seat-clock[data-seat="${c.seat}"], .life-clock[data-seat="${c.seat}"] .t`)) {
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", !!c.running);
      el.classList.toggle("low", low);
    }
  }
}

// ---- seats away: "Let a bot play for Ann" (PROTOCOL.md, "Resign, abandon, bot takeover, ...") ---

let away = [];           // the last state's seats away: [{seat, since, handable_at, wait_s}] (seats[].away)
let awayAt = 0;          // performance.now() when it arrived
let awayGrace = 120;     // life.away_grace_s
let awayOpen = new Set();  // seats whose wait was over at the last draw

function awayWait(a) { return Math.max(0, a.wait_s - (performance.now() - awayAt) / 1000); }
/** Seconds the seat has been away: the grace minus what is left of it, then counting on. */
function awayFor(a) { return Math.max(0, awayGrace - a.wait_s + (performance.now() - awayAt) / 1000); }

/** "40 s", "3 min", "1 h 5 min", as the server's notices say it. */
export function durationWords(s) {
  s = Math.max(0, Math.floor(s));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) { const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60); return mm ? `${hh} h ${mm} min` : `${hh} h`; }
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600);
  return hh ? `${d} d ${hh} h` : `${d} d`;
}

/** Tick the countdowns of the seats away; when one reaches 0 the button replaces it. */
function drawAway() {
  let opened = false;
  for (const a of away) {
    const left = awayWait(a);
    if (left <= 0 && !awayOpen.has(a.seat)) opened = true;
    for (const el of document.querySelectorAll(`.life-away-wait[data-seat="${a.seat}"]`)) {
      const t = fmtClock(left);
      if (el.textContent !== t) el.textContent = t;
    }
    for (const el of document.querySelectorAll(`.life-away-for[data-seat="${a.seat}"]`)) {
      const t = durationWords(awayFor(a));
      if (el.textContent !== t) el.textContent = t;
    }
  }
  if (opened) redraw();
}

/** May this page hand `seat` to a bot (a player of another seat)? */
function canHand(seat) { return seated() && seat !== ctx.seat; }

function handButton(a, name, cls, text) {
  return h("button", { class: cls, "data-hand": a.seat, title: `${name} is to move and away: a bot plays for them until they take their seat back`,
    onclick: () => ctx.send({ type: "hand_to_bot", seat: a.seat }) }, text);
}

/** The turn card's rows "Ann is away (3 min) — [Let a bot play for Ann]" (a countdown before). */
function awayRows(names, colors) {
  return away.map((a) => {
    const name = names[a.seat] ?? `Seat ${a.seat}`;
    const row = h("div", { class: "life-banner away", id: `life-away-${a.seat}`, "data-seat": a.seat },
      h("span", { class: "life-away-text" }, swatch(colors[a.seat]), " ", h("b", null, name), " is away (",
        h("span", { class: "life-away-for", "data-seat": a.seat }, durationWords(awayFor(a))), ")",
        canHand(a.seat) ? " —" : ""));
    if (!canHand(a.seat)) return row;
    if (awayOpen.has(a.seat)) {
      row.append(handButton(a, name, "primary life-hand", `Let a bot play for ${name}`));
    } else {
      row.append(h("span", { class: "life-away-text" }, "you may let a bot play for them in ",
        h("span", { class: "life-away-wait", "data-seat": a.seat }, fmtClock(awayWait(a)))));
    }
    return row;
  });
}

/** The Players card's row of each seat away gets a small control too (the card is drawn first). */
function awayBadges(names, seats, over) {
  for (const el of document.querySelectorAll("#players-list .life-hand-row, #players-list .life-away-badge, #players-list .life-bot-badge")) el.remove();
  for (const s of over ? [] : seats) {   // a human seat a bot plays says so in its row
    const slot = s.zombie ? document.querySelector(`#players-list .player-row[data-seat="${s.seat}"] .seat-badges`) : null;
    if (slot) slot.appendChild(h("span", { class: "life-bot-badge", title: s.zombie === "away" ? "a bot plays while the player is away" : "a bot plays: the player ran out of time" }, "bot playing"));
  }
  for (const a of away) {
    const slot = document.querySelector(`#players-list .player-row[data-seat="${a.seat}"] .seat-badges`);
    if (!slot || !canHand(a.seat)) continue;
    const name = names[a.seat] ?? `Seat ${a.seat}`;
    slot.appendChild(awayOpen.has(a.seat)
      ? handButton(a, name, "small life-hand-row", "Let a bot play")
      : h("span", { class: "life-away-badge", title: `${name} is away: you may let a bot play for them once the countdown ends` },
        "bot in ", h("span", { class: "life-away-wait", "data-seat": a.seat }, fmtClock(awayWait(a)))));
  }
}

// ---- the table page ---------------------------------------------------------------------------

/**
 * The observation a finished table's board is drawn from: nobody to move. A resigned or abandoned
 * table stops mid-game, where the engine still names a player to move; every view reads who is to
 * move from `current_player` (or `to_move`, or `choosing` in a simultaneous step), so clearing them here keeps "▶ to move" off every
 * board (issue 15: a resignation ends the game for everybody). An observation with nobody to
 * move is returned as it is.
 */
export function settledObservation(obs) {
  if (!obs) return obs;
  const cp = obs.current_player;
  const listed = (k) => Array.isArray(obs[k]) && obs[k].length > 0;
  const some = (cp !== null && cp !== undefined && cp >= 0) || listed("to_move") || listed("choosing");
  if (!some) return obs;
  const out = { ...obs, current_player: null, to_move: [] };
  if ("choosing" in obs) out.choosing = [];   // Between Two Cities: the seats still to choose
  return out;
}

let ctx = null;           // {tableId, seat, token, send}
let confirming = null;    // "resign" | "abandon" | null: an inline confirmation is open
let lastMsg = null;
let drawnMsg = null;      // the message lifeUpdate drew last (a redraw draws the same one again)

/** Set up the table page's part (called once by table.js). */
export function initLife(context) {
  ctx = context;
}

function seated() { return ctx && ctx.seat !== null && ctx.seat !== undefined && ctx.token; }

function confirmRow(what, question, label, onYes) {
  return h("div", { class: "life-confirm", id: `life-confirm-${what}` },
    h("span", null, question), " ",
    h("button", { class: "danger", id: `life-${what}-yes`, onclick: () => { confirming = null; onYes(); } }, label), " ",
    h("button", { onclick: () => { confirming = null; redraw(); } }, "Cancel"));
}

function redraw() { if (lastMsg) lifeUpdate(lastMsg, lastNames, lastColors); }
let lastNames = [];
let lastColors = [];

async function abandon() {
  const mine = myTables.get(ctx.tableId);
  try {
    await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/abandon`, { method: "POST", body: { creator_token: mine.creator_token } });
  } catch (e) {
    toast(`Cannot abandon the table: ${e.message}`);
  }
}

/** Ask the server for this player's seat in the rematch (creating it the first time) and go there. */
async function goRematch() {
  try {
    const res = await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/rematch`, { method: "POST", body: { seat: ctx.seat, token: ctx.token } });
    // this browser's join link of the rematch (and its creator token, for the first to ask), as the lobby keeps them
    const prev = myTables.get(res.table_id) || {};
    const creator = res.creator_token || prev.creator_token;
    myTables.put(res.table_id, { seats: [{ seat: res.seat, join_url: res.join_url }], watch_url: `/table/${res.table_id}`,
      rematch_of: ctx.tableId, ...(creator ? { creator_token: creator } : {}) });
    location.href = res.join_url;
  } catch (e) {
    toast(`Cannot start the rematch: ${e.message}`);
  }
}

/** The rematch controls for the end of the game (a fresh node each time). */
function rematchNode(msg, names, cls = "primary") {
  const life = msg.life || {};
  const rm = life.rematch;
  if (msg.status !== "finished") return null;
  if (seated()) {
    if (!rm) return h("button", { class: `${cls} life-rematch`, onclick: goRematch }, "Play again");
    if (rm.by === ctx.seat) return h("button", { class: `${cls} life-rematch`, onclick: goRematch }, "Go to the new table");
    return h("div", { class: "life-offer" }, h("b", null, `${rm.by_name} wants a rematch`), " ",
      h("button", { class: `${cls} life-rematch`, onclick: goRematch }, "Join"));
  }
  if (rm) return h("a", { class: "big-link", href: `/table/${encodeURIComponent(rm.table_id)}` }, "Watch the rematch");
  return null;
}

/**
 * Update the table page's part from a state message (called by table.js after it drew the state):
 * the clocks, "a bot plays for you — Take back", the seats away ("Ann is away — Let a bot play for
 * Ann", in the turn card and the Players card), resign and abandon (with an inline confirmation),
 * the table's notices, and the rematch controls in the score card and the final overlay.
 */
export function lifeUpdate(msg, names, colors) {
  lastMsg = msg; lastNames = names || []; lastColors = colors || [];
  const life = msg.life || {};
  const box = $("life");
  if (!box) return;
  box.textContent = "";
  const over = msg.status && msg.status !== "open";
  document.body.dataset.status = msg.status || "";
  document.body.dataset.zombie = (msg.seats || []).filter(s => s.zombie).map(s => s.seat).join(",");

  // clocks and the seats away (their times count from the message's arrival, not from a redraw)
  const fresh = msg !== drawnMsg;
  drawnMsg = msg;
  away = over ? [] : (msg.seats || []).filter(x => x.away && x.seat !== msg.your_seat).map(x => ({ seat: x.seat, ...x.away }));
  if (fresh) awayAt = performance.now();
  if (typeof life.away_grace_s === "number") awayGrace = life.away_grace_s;
  awayOpen = new Set(away.filter(a => awayWait(a) <= 0).map(a => a.seat));
  clocks = msg.clocks || [];
  if (fresh) clocksAt = performance.now();
  if (msg.clock && clocks.length && !over) {
    box.appendChild(h("div", { class: "life-clocks", id: "life-clocks", title: clockWords(msg.clock) },
      clocks.map(c => h("span", { class: `life-clock${c.running ? " running" : ""}`, "data-seat": c.seat },
        swatch(colors[c.seat]), " ", h("span", { class: "n" }, names[c.seat] ?? `Seat ${c.seat}`), " ",
        h("span", { class: "t" }, fmtClock(c.remaining_s)))),
      h("span", { class: "hint" }, clockWords(msg.clock))));
  }
  drawClocks();
  if (!ticker) ticker = setInterval(drawClocks, 250);

  // a bot plays a seat
  if (life.bot_plays_you && !over) {
    const why = life.bot_plays_you_why === "away"
      ? (life.handed_by ? `${life.handed_by} let a bot play for you while you were away.` : "you were away.")
      : "your time ran out.";
    box.appendChild(h("div", { class: "life-banner zombie", id: "life-zombie" },
      h("span", null, `A bot is playing for you — ${why}`), " ",
      h("button", { class: "primary", id: "life-take-back", onclick: () => ctx.send({ type: "take_back" }) }, "Take back")));
  }
  for (const s of msg.seats || []) {
    if (s.zombie && s.seat !== msg.your_seat) {
      box.appendChild(h("div", { class: "life-banner bot-seat", "data-seat": s.seat }, swatch(colors[s.seat]), " ",
        `${names[s.seat] ?? `Seat ${s.seat}`}: played by a bot (${s.zombie === "away" ? "away" : "out of time"})`));
    }
  }
  // seats to move whose player is away: the others may let a bot play for them
  for (const row of awayRows(names, colors)) box.appendChild(row);
  awayBadges(names, msg.seats || [], over);
  if (msg.status === "abandoned") {
    box.appendChild(h("div", { class: "life-banner abandoned", id: "life-abandoned" }, "This table was abandoned by its creator: nobody plays on."));
  }
  if (life.resigned && life.resigned.length) {
    const r = life.resigned[0];
    const w = msg.result && msg.result.ranking ? msg.result.ranking[0] : null;
    box.appendChild(h("div", { class: "life-banner resigned", id: "life-resigned" },
      r === msg.your_seat ? "You resigned." : `${names[r] ?? `Seat ${r}`} resigned.`,
      w !== null && w !== undefined ? (w === msg.your_seat ? " You win." : ` ${names[w] ?? `Seat ${w}`} wins.`) : ""));
  }

  // resign, abandon
  const tools = h("div", { class: "life-tools" });
  if (!over && seated()) {
    tools.appendChild(confirming === "resign"
      ? confirmRow("resign", (msg.seats || []).length === 2 ? "Resign? The other player wins." : "Resign? You are ranked last and the game ends.", "Resign", () => ctx.send({ type: "resign", seq: msg.seq }))
      : h("button", { id: "life-resign", onclick: () => { confirming = "resign"; redraw(); } }, "Resign…"));
  }
  const mine = myTables.get(ctx.tableId);
  if (!over && life.can_abandon && mine && mine.creator_token) {
    tools.appendChild(confirming === "abandon"
      ? confirmRow("abandon", "Abandon this table for everybody?", "Abandon", abandon)
      : h("button", { id: "life-abandon", onclick: () => { confirming = "abandon"; redraw(); } }, "Abandon table…"));
  }
  if (tools.childNodes.length) box.appendChild(tools);

  // notices (newest last; the last few)
  const notices = (life.notices || []).slice(-3);
  if (notices.length) {
    box.appendChild(h("ul", { class: "life-notices", id: "life-notices" },
      notices.map(n => h("li", null, n.text))));
  }
  box.hidden = !box.childNodes.length;
  placeNotices(life.notices || []);

  // the end: rematch in the score card and in the final overlay
  const end = $("life-end");
  if (end) {
    end.textContent = "";
    const node = rematchNode(msg, names);
    if (node) end.appendChild(node);
    end.hidden = !node;
  }
  const ovBar = document.querySelector("#score-overlay .toolbar");
  if (ovBar) {
    const old = ovBar.querySelector(".life-overlay");
    if (old) old.remove();
    // not .primary there: the overlay's primary button is its Close
    const node = rematchNode(msg, names, "life-cta");
    if (node) ovBar.prepend(h("span", { class: "life-overlay" }, node));
  }
}

/**
 * The table's notices in the game log too, each where it happened: before the first entry whose
 * index is at least the notice's `log` (the log panel may have drawn itself again: put back what
 * is missing).
 */
function placeNotices(notices) {
  const log = $("log");
  if (!log) return;
  notices.forEach((n) => {
    const key = `${n.at}|${n.text}`;
    if (log.querySelector(`.life-entry[data-notice="${CSS.escape(key)}"]`)) return;
    const node = h("div", { class: "entry sys life-entry", "data-notice": key }, n.text);
    const at = typeof n.log === "number" ? n.log : Infinity;
    const next = [...log.querySelectorAll(".entry[data-index]")].find(e => Number(e.dataset.index) >= at);
    if (next) log.insertBefore(node, next);
    else log.appendChild(node);
  });
}

// ---- the lobby --------------------------------------------------------------------------------

const CLOCKS = [
  ["none", "No clock", null],
  ["live10", "Live: 10 min + 10 s a move", { mode: "live", bank_s: 600, increment_s: 10 }],
  ["live3", "Live: 3 min + 2 s a move", { mode: "live", bank_s: 180, increment_s: 2 }],
  ["turn1h", "Turn-based: 1 h a move", { mode: "turn", per_move_s: 3600 }],
  ["turn24h", "Turn-based: 24 h a move", { mode: "turn", per_move_s: 86400 }],
];

/** The lobby form's "Clock" row (a select with id "clock"). */
export function clockRow() {
  return h("div", { class: "form-row", title: "Out of time, a bot plays your seat until you take it back" },
    h("label", { for: "clock" }, "Clock"),
    h("select", { id: "clock", name: "clock" }, CLOCKS.map(([v, text]) => h("option", { value: v }, text))));
}

/** The clock the form's select names, as POST /api/tables wants it (null: none). */
export function clockOf(select) {
  const c = CLOCKS.find(([v]) => v === (select && select.value));
  return c ? c[2] : null;
}

let pendingAbandon = null;   // the table whose lobby confirmation is open (the list is redrawn every few seconds)

/** An "Abandon" control for the lobby's row of an open table this browser created: "Abandon", then
 * "Abandon for everybody? [Abandon] [Cancel]" (kept open when the list is drawn again). */
export function abandonButton(tableId, creatorToken, done) {
  const wrap = h("span", { class: "life-lobby-abandon" });
  const draw = () => {
    wrap.textContent = "";
    if (pendingAbandon !== tableId) {
      wrap.append(h("button", { class: "small", "data-abandon": tableId, onclick: () => { pendingAbandon = tableId; draw(); } }, "Abandon"));
      return;
    }
    wrap.append("Abandon for everybody? ",
      h("button", { class: "small danger", "data-abandon-yes": tableId, onclick: async () => {
        pendingAbandon = null;
        try {
          await api(`/api/tables/${encodeURIComponent(tableId)}/abandon`, { method: "POST", body: { creator_token: creatorToken } });
          toast("Table abandoned", "ok");
        } catch (e) {
          toast(`Cannot abandon the table: ${e.message}`);
        }
        done();
      } }, "Abandon"), " ",
      h("button", { class: "small", onclick: () => { pendingAbandon = null; draw(); } }, "Cancel"));
  };
  draw();
  return wrap;
}
