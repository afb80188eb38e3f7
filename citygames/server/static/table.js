// citygames — the script of the table page (table.html), kept in its own file so that the Content-Security-Policy
// (script-src 'self') runs it with no inline script allowed.
import {
  api, connectTable, showConn, LogPanel, actionButtons, scoreSheet, showScoreOverlay,
  loadComponents, toast, h, swatch, seatNames, simultaneousStep, simultaneousNode,
} from "/static/app.js";
import { loadView } from "/static/games.js";
import { hideTip, closeDetails, refreshDetails, touchWords } from "/static/svg.js";
import { PlayersCard } from "/static/players.js";
import { ChatPanel } from "/static/chat.js";
import { TurnNotifier } from "/static/notify.js";
import { showEndStats } from "/static/endstats.js";
import { initLife, lifeUpdate, settledObservation } from "/static/life.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
const seatParam = params.get("seat");
const seat = seatParam !== null && seatParam !== "" ? Number(seatParam) : null;
const token = params.get("token");

const $ = (id) => document.getElementById(id);
/** The game's board (SVG) or the generic view (the observation as text). */
function showBoard(on) {
  document.getElementById("board").toggleAttribute("hidden", !on);  // an SVG element has no .hidden
  document.getElementById("generic").hidden = on;
}
const svg = $("board");
const logPanel = new LogPanel($("log"), []);
let view = null;        // the game's view (games.js), once known
let comps = null;       // game.components_json() of this table
let colors = [];        // CSS colour of each seat
let last = null;        // last state message
let busy = false;       // an action was sent; waiting for the next state or an error
let busySeq = null;     // the seq the action was sent at
let conn = null;
let scoreShown = false;
let summaryP = null;
let setupP = null;      // setup(msg) under way or done, for setupGame
let setupGame = null;

$("role").textContent = seat === null ? "watching" : `playing seat ${seat}`;

// names, presence, chat and turn notifications (issue 15): players.js, chat.js, notify.js
const quietSend = (obj) => !!conn && conn.send(obj);
const players = new PlayersCard($("players-card"), { tableId, send: quietSend });
const chat = new ChatPanel($("chat-card"), { send: quietSend, spectator: seat === null });
const notifier = seat === null ? null : new TurnNotifier($("notify-bar"));
/** A refusal of a chat message or a name goes to the chat panel (no action was waiting for it). */
function socialError(msg) {
  const m = msg.message || "";
  if (/^(chat refused|too many chat)/.test(m)) { chat.error(m); return true; }
  if (/^(name refused|too many name)/.test(m)) { toast(m); return true; }
  return false;
}

/** The game's view, its components (with this table's options) and the seat colours. */
async function setup(msg) {
  view = await loadView(msg.game);
  if (!summaryP) summaryP = api(`/api/tables/${encodeURIComponent(tableId)}`);
  try {
    const summary = await summaryP;
    comps = await loadComponents(msg.game, summary.options || {});
  } catch (e) {
    summaryP = null;
    toast(`Cannot load the game components: ${e.message}`);
    comps = null;
  }
  colors = view.seatColors(comps, (msg.seats || []).length);
  logPanel.setView(colors, view.logClass);
  const howto = $("howto-link");   // the game's "How to play" page (issue 15, rules help), in a new tab
  howto.href = `/rules/${encodeURIComponent(msg.game)}`;
  howto.hidden = false;
  if (!comps) setupP = null;  // try again with the next state
}

function names(msg) {
  return seatNames(msg.seats, (msg.seats || []).length || (msg.observation || {}).num_players || 0);
}

function send(obj) {
  if (!conn || !conn.send(obj)) {
    toast("Not connected — the action was not sent; reconnecting…");
    return false;
  }
  return true;
}

/** Ask the server why a greyed choice is not open ({kind, arg} or {action}); resolves with its
 * answer {action, legal, reason} (PROTOCOL.md, "Why not"). One question at a time. */
let whyPending = null;
function onWhy(query) {
  if (whyPending) whyPending.reject(new Error("another question was asked"));
  return new Promise((resolve, reject) => {
    whyPending = { resolve, reject };
    if (!send({ type: "why", ...query })) { whyPending = null; reject(new Error("not connected")); }
  });
}
function gotWhy(msg) {
  if (!whyPending) return;
  const p = whyPending;
  whyPending = null;
  p.resolve(msg);
}

function onAction(id) {
  if (busy || !last) return;
  closeDetails();
  hideTip();   // no tooltip of the chosen element stays over the next board and turn card
  busy = true;
  busySeq = last.seq;
  svg.classList.add("busy");
  for (const b of document.querySelectorAll("#actions button, #all-actions-list button, #undo, #change-choice")) b.disabled = true;
  if (!send({ type: "action", seq: last.seq, action: id })) unbusy();
}

/** Take back this seat's choice in a simultaneous step (it then chooses again). */
function onChange() {
  if (busy || !last) return;
  busy = true;
  busySeq = last.seq;
  for (const b of document.querySelectorAll("#change-choice")) b.disabled = true;
  if (!send({ type: "withdraw", seq: last.seq })) unbusy();
}

function unbusy() {
  busy = false;
  busySeq = null;
  svg.classList.remove("busy");
  for (const b of document.querySelectorAll("#actions button, #all-actions-list button, #undo, #change-choice")) b.disabled = false;
}

$("undo").addEventListener("click", () => {
  if (!last || busy) return;
  busy = true;
  busySeq = last.seq;
  if (!send({ type: "undo", seq: last.seq })) unbusy();
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  if (/^[1-9]$/.test(e.key)) {
    const b = document.querySelectorAll("#actions button")[Number(e.key) - 1];
    if (b && !b.disabled) b.click();
  } else if ((e.key === "z" || e.key === "Z") && (e.ctrlKey || e.metaKey)) {
    const change = $("change-choice");
    if (change && !change.disabled) change.click();
    else if (!$("undo").hidden && !$("undo").disabled) $("undo").click();
  }
});

/** The "thinking" line of the turn card: which bot seats are searching now (a `thinking` message
 * or the `thinking` of a state; one from an older seq than the state shown is ignored). */
function showThinking(seats, seq) {
  const box = $("turn-thinking");
  if (!box || !last || seq !== last.seq) return;
  const live = last.terminal ? [] : seats;
  document.body.dataset.thinking = live.join(",");
  box.hidden = !live.length;
  box.textContent = "";
  if (!live.length) return;
  const nm = names(last);
  live.forEach((p, i) => box.append(i ? ", " : "", swatch(colors[p]), ` ${nm[p] ?? `Seat ${p}`}`));
  box.append(live.length === 1 ? " is thinking" : " are thinking", h("span", { class: "dots", "aria-hidden": "true" }));
}

/** The seats to move, for display: obs.current_player when the game gives it, else to_move. */
function movers(msg) {
  const cp = msg.observation ? msg.observation.current_player : undefined;
  if (cp !== null && cp !== undefined && cp >= 0) return [cp];
  return (msg.to_move || []).filter(p => p !== null && p !== undefined && p >= 0);
}

async function onState(msg) {
  const first = !last;
  last = msg;
  // a state at the same seq (someone joined or left) does not answer a pending action
  if (busy && msg.seq !== busySeq) { busy = false; busySeq = null; }
  const obs = msg.observation || {};
  if (!setupP || setupGame !== msg.game) { setupGame = msg.game; setupP = setup(msg); }
  await setupP;
  if (msg !== last) return;  // a newer state arrived while loading
  const nm = names(msg);
  const mine = msg.your_seat !== null && msg.your_seat !== undefined && (msg.to_move || []).includes(msg.your_seat);
  const sim = msg.terminal ? null : simultaneousStep(msg);   // several seats choosing at once
  const gname = comps && comps.name ? comps.name : msg.game;
  document.title = `${mine ? (sim ? "● Your choice — " : "● Your turn — ") : ""}${gname} — table ${msg.table_id} — citygames`;
  const legal = mine ? (msg.legal || []) : [];

  // for scripts and tests: where the table stands
  document.body.dataset.seq = msg.seq;
  document.body.dataset.mine = mine ? "true" : "false";
  document.body.dataset.terminal = msg.terminal ? "true" : "false";
  document.body.dataset.game = msg.game;
  document.body.dataset.view = view.generic ? "generic" : msg.game;
  document.body.dataset.simultaneous = sim ? "true" : "false";
  document.body.dataset.chosen = sim ? `${sim.n}/${sim.m}` : "";
  document.body.dataset.myChoice = sim && sim.myChoice ? String(sim.myChoice.id) : "";

  // log
  logPanel.update(msg.log || [], msg.log_from ?? 0, { fresh: !first });

  // board
  let unplaced = legal;
  if (view.render && comps) {
    showBoard(true);
    // a finished table (ended, resigned, abandoned) shows nobody to move on any board (life.js)
    const rest = view.render(svg, msg.terminal ? settledObservation(obs) : obs, comps, legal, {
      onAction: mine ? onAction : null, onWhy: mine ? onWhy : null, names: nm, colors, seat: msg.your_seat ?? null, busy,
      recent: view.recent(logPanel.entries), log: logPanel.entries, replay: false, myChoice: msg.my_choice || null,
    });
    if (Array.isArray(rest)) unplaced = rest;
  } else {
    showBoard(false);
    document.body.classList.add("phone-page");   // one column on a phone
    $("generic").textContent = JSON.stringify(obs, null, 1);
  }

  hideTip();   // the board was drawn again: a tooltip shown now belongs to nothing under the pointer
  if (mine) refreshDetails(legal.map(a => a.id));   // a selection whose action is gone closes
  else closeDetails();

  // turn card
  const who = $("turn-who");
  who.textContent = "";
  const mv = movers(msg);
  if (msg.terminal) {
    who.append("Game over");
  } else if (sim && mine) {
    who.append(swatch(colors[msg.your_seat]), " Your choice");
  } else if (sim && sim.chose) {
    who.append(swatch(colors[msg.your_seat]), " You have chosen — waiting for the others");
  } else if (sim) {
    who.append(`${sim.m === 1 ? "One seat" : "Everybody"} choosing at once`);
  } else if (mine) {
    who.append(swatch(colors[msg.your_seat]), " Your turn");
  } else if (mv.length) {
    mv.forEach((p, i) => who.append(i ? ", " : "", swatch(colors[p]), ` ${nm[p] ?? `Seat ${p}`}`));
    who.append(" to move");
  } else {
    who.append("Waiting…");
  }
  $("turn-card").classList.toggle("mine", mine);
  showThinking(msg.thinking || [], msg.seq);
  $("turn-what").textContent = msg.terminal ? "The game has ended." : view.describe(obs, comps);
  showSkipNotice(msg);
  const simBox = $("turn-sim");
  simBox.textContent = "";
  simBox.hidden = !sim;
  if (sim) simBox.appendChild(simultaneousNode(sim, nm, colors, sim.chose ? onChange : null, { busy }));
  const prompt = $("turn-prompt");
  prompt.hidden = !mine;
  prompt.textContent = mine ? touchWords(view.prompt(obs, legal)) : "";   // "Tap" on a phone
  actionButtons($("actions"), unplaced, onAction, { disabled: busy });
  const all = $("all-actions");
  all.hidden = !mine || legal.length === unplaced.length;
  $("n-legal").textContent = legal.length;
  actionButtons($("all-actions-list"), legal, onAction, { disabled: busy });
  $("undo").hidden = !msg.can_undo || !!sim;   // in a simultaneous step "Change" takes a choice back
  $("undo").disabled = busy;

  // status line
  const sl = $("status-line");
  sl.textContent = "";
  sl.append(h("b", null, gname), ` · table ${msg.table_id} · `);
  if (msg.terminal) sl.append("game over");
  else {
    const st = view.status(obs, comps);
    if (sim) {
      sl.append(st ? `${st} · ` : "", `${sim.n} of ${sim.m} chosen`,
        mine ? h("b", null, " · your choice") : sim.chose ? " · you have chosen" : "");
    } else {
      sl.append(st ? `${st} · ` : "",
        mv.length ? (mine ? h("b", null, "your turn") : `${mv.map(p => nm[p] ?? `Seat ${p}`).join(", ")} to move`) : "");
    }
  }

  // the game's own side panels (The Capitals: World Expo results)
  const panels = $("game-panels");
  panels.textContent = "";
  for (const p of view.panels(logPanel.entries, { comps, colors, names: nm }) || []) {
    panels.appendChild(h("section", { class: `card ${p.class || ""}`, id: p.id || null }, h("h2", null, p.title || ""), p.node));
  }

  // the end
  if (msg.terminal && msg.result) {
    $("score-card").hidden = false;
    $("score-body").textContent = "";
    $("score-body").appendChild(scoreSheet(msg.result, colors, nm, view.scoring));
    const links = [h("a", { class: "big-link", href: `/replay/${encodeURIComponent(msg.table_id)}` }, "Watch the replay"),
      h("a", { href: `/api/tables/${encodeURIComponent(msg.table_id)}/record`, download: `citygames-${msg.table_id}.json`, style: { marginLeft: "10px", alignSelf: "center" } }, "Download the record")];
    $("end-links").textContent = "";
    $("end-links").append(...links);
    // points over time and what each seat took (endstats.js; drawn once per table)
    showEndStats($("end-stats"), msg.table_id, { colors, names: nm, scoring: view.scoring, links: false });
    if (!scoreShown) {
      scoreShown = true;
      showScoreOverlay(msg.result, colors, nm, [
        h("a", { class: "big-link", href: `/replay/${encodeURIComponent(msg.table_id)}`, style: { marginTop: 0 } }, "Watch the replay"),
      ], view.scoring);
    }
  } else {
    $("score-card").hidden = true;
  }
  // players card, chat colours, turn notification (issue 15)
  players.update(msg, { colors, names: nm, toMove: mv });
  chat.setColors(colors);
  if (notifier) notifier.update(mine && !msg.terminal, msg.terminal ? "" : view.describe(obs, comps));
  lifeUpdate(msg, nm, colors);   // clocks, resign, abandon, take back, rematch (life.js)
  logPanel.settle();   // the turn card, the panels and the score card above changed the log box's height
}

/**
 * Turns that passed by themselves are said in the turn card with their reasons, not only in the log
 * (issue 15, defect 6): the log entries the game's view calls skips (`view.isSkip`; The Capitals'
 * "cannot activate anything (nothing affordable: ...)"), for a player those since their own last
 * action (so they see why they or others were skipped meanwhile), for a spectator those among the
 * last 6 entries.
 * At most the 3 newest are shown.
 */
function showSkipNotice(msg) {
  let box = $("turn-notice");
  if (!box) {
    box = h("div", { id: "turn-notice", class: "turn-notice", role: "status" });
    $("turn-what").after(box);
  }
  const entries = logPanel.entries;
  const isWhy = (x) => !!x && view.isSkip(x);   // the game's view knows its skip entries (games.js)
  let from = Math.max(0, entries.length - 6);
  if (msg.your_seat !== null && msg.your_seat !== undefined) {
    from = Math.max(0, entries.length - 60);
    for (let i = entries.length - 1; i >= from; i--) {
      if (entries[i] && entries[i].player === msg.your_seat && !isWhy(entries[i])) { from = i + 1; break; }
    }
  }
  const shown = msg.terminal ? [] : entries.slice(from).filter(isWhy).slice(-3);
  box.hidden = !shown.length;
  box.textContent = "";
  for (const e of shown) box.appendChild(h("div", null, e.text));
}

function onError(msg) {
  unbusy();
  toast(msg.message || "error");
}

// A press is not cut short by a state message. Each message redraws the board and the turn card;
// one arriving between the press and the release of a button (another seat choosing in a
// simultaneous step, a seat connecting) would take the pressed element away, and the click would
// never happen. So while a pointer is down the messages wait, and are drawn in order once the
// click has been handled (after the release if no click follows; after HOLD_MS at the most).
const HOLD_MS = 2000;
let pressed = false;
let holdTimer = null;
const held = [];
function deliver(m) {
  return onState(m).catch(e => { console.error(e); toast(`Display error: ${e.message}`); });
}
async function release() {
  clearTimeout(holdTimer);
  if (!pressed) return;
  pressed = false;
  while (held.length && !pressed) await deliver(held.shift());
}
const releaseSoon = (ms) => () => { clearTimeout(holdTimer); holdTimer = setTimeout(release, ms); };
document.addEventListener("pointerdown", () => { pressed = true; releaseSoon(HOLD_MS)(); }, true);
window.addEventListener("click", releaseSoon(0), true);           // after the click's own handlers
window.addEventListener("pointerup", releaseSoon(300), true);     // a release that makes no click
window.addEventListener("pointercancel", releaseSoon(0), true);   // e.g. a touch that became a scroll

initLife({ tableId, seat, token, send });
conn = connectTable(tableId, seat, token, {
  onState: (m) => { if (pressed || held.length) held.push(m); else deliver(m); },
  onError: (m) => { if (!socialError(m)) onError(m); },
  onWhy: gotWhy,
  onMessage: (m) => {
    if (m.type === "chat") chat.add(m.messages, !!m.history);
    else if (m.type === "thinking") showThinking(m.seats || [], m.seq);
  },
  onStatus: (s, d) => {
    showConn($("conn"), s, d);
    if (s === "fatal") { $("turn-who").textContent = `Cannot join this table: ${d}.`; toast(`Cannot join: ${d}`); }
  },
});
window.citygames = { get last() { return last; }, get view() { return view; } };
