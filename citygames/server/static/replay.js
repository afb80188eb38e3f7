// citygames — the script of the replay page (replay.html), kept in its own file so that the Content-Security-Policy
// (script-src 'self') runs it with no inline script allowed.
import { api, LogPanel, scoreSheet, loadComponents, toast, h, seatNames, swatch } from "/static/app.js";
import { loadView } from "/static/games.js";
import { showEndStats } from "/static/endstats.js";

const $ = (id) => document.getElementById(id);
/** The game's board (SVG) or the generic view (the observation as text). */
function showBoard(on) {
  document.getElementById("board").toggleAttribute("hidden", !on);  // an SVG element has no .hidden
  document.getElementById("generic").hidden = on;
}
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const svg = $("board");
const logPanel = new LogPanel($("log"), []);
let summary = null;
let view = null;     // the game's view (games.js)
let comps = null;    // game.components_json() of this table
let colors = [];     // CSS colour of each seat
let steps = 0;
let step = 0;
let shown = -1;
let names = [];
let playing = null;
const cache = new Map();
let wanted = 0;

$("download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
$("download").setAttribute("download", `citygames-${tableId}.json`);

function fetchStep(k) {
  if (!cache.has(k)) {
    cache.set(k, api(`/api/tables/${encodeURIComponent(tableId)}/replay?step=${k}`).catch((e) => { cache.delete(k); throw e; }));
  }
  return cache.get(k);
}

async function show(k) {
  k = Math.max(0, Math.min(steps || k, k));
  wanted = k;
  $("slider").value = k;
  $("stepno").textContent = `${k} / ${steps || "?"}`;
  let data;
  try {
    data = await fetchStep(k);
  } catch (e) {
    toast(`Cannot load step ${k}: ${e.message}`);
    stop();
    return;
  }
  if (k !== wanted) return;  // the user moved on meanwhile
  if (data.steps !== undefined && data.steps !== steps) {
    steps = data.steps;
    $("slider").max = steps;
  }
  if (data.seats) names = seatNames(data.seats, data.seats.length);   // the players' names (issue 15)
  $("stepno").textContent = `${k} / ${steps}`;   // (also "0 / 0": a game resigned before any move)
  const obs = data.observation || {};
  step = k;
  shown = k;
  const log = data.log || [];
  if (view.render && comps) {
    showBoard(true);
    view.render(svg, obs, comps, [], {
      onAction: null, names, colors, seat: null, busy: false, recent: view.recent(log), log, replay: true,
    });
  } else {
    showBoard(false);
    $("generic").textContent = JSON.stringify(obs, null, 1);
  }
  logPanel.set(log);
  $("log").scrollTop = $("log").scrollHeight;
  const panels = $("game-panels");
  panels.textContent = "";
  for (const p of view.panels(logPanel.entries, { comps, colors, names }) || []) {
    panels.appendChild(h("section", { class: `card ${p.class || ""}`, id: p.id || null }, h("h2", null, p.title || ""), p.node));
  }
  // a game ended by a resignation (issue 15) is over after its last action, not at the engine's end
  const resigned = k >= steps && data.result && data.result.resigned ? data.result.resigned : null;
  const terminal = (obs.terminal !== undefined ? obs.terminal : k >= steps) || !!resigned;
  const final = data.result && terminal;
  $("score-card").hidden = !final;
  $("score-body").textContent = "";
  if (final) {
    $("score-body").appendChild(scoreSheet(data.result, colors, names, view.scoring));
    showEndStats($("end-stats"), tableId, { colors, names, scoring: view.scoring, links: false });
  }
  const cp = obs.current_player;
  const mv = cp !== null && cp !== undefined && cp >= 0 ? [cp] : (data.to_move || []);
  const where = view.describe(obs, comps);
  $("where").textContent = resigned ? `Game over: ${names[resigned[0]] ?? `Seat ${resigned[0]}`} resigned.` : terminal ? "Game over." :
    (mv.length ? `${mv.map(p => names[p] ?? `Seat ${p}`).join(", ")}: ` : "") + where;
  $("first").disabled = $("prev").disabled = k <= 0;
  $("last").disabled = $("next").disabled = k >= steps;
  history.replaceState(null, "", `#step=${k}`);
  // warm the cache around the current step
  for (const j of [k + 1, k - 1]) if (j >= 0 && j <= steps) fetchStep(j).catch(() => {});
}

function go(k) { show(Math.max(0, Math.min(steps, k))); }
function stop() { if (playing) { clearInterval(playing); playing = null; $("play").textContent = "▶ Play"; } }
function togglePlay() {
  if (playing) { stop(); return; }
  if (step >= steps) go(0);
  $("play").textContent = "⏸ Pause";
  playing = setInterval(() => { if (step >= steps) stop(); else if (shown === step) go(step + 1); }, 350);
}

$("first").onclick = () => { stop(); go(0); };
$("prev").onclick = () => { stop(); go(wanted - 1); };
$("next").onclick = () => { stop(); go(wanted + 1); };
$("last").onclick = () => { stop(); go(steps); };
$("play").onclick = togglePlay;
let slideTimer = null;
$("slider").addEventListener("input", () => {
  stop();
  const k = Number($("slider").value);
  $("stepno").textContent = `${k} / ${steps}`;
  clearTimeout(slideTimer);
  slideTimer = setTimeout(() => go(k), 60);
});
document.addEventListener("keydown", (e) => {
  if (e.target === $("slider") && (e.key === "ArrowLeft" || e.key === "ArrowRight")) e.preventDefault();
  const k = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 }[e.key];
  if (k) { e.preventDefault(); stop(); go(wanted + k); }
  else if (e.key === "Home") { e.preventDefault(); stop(); go(0); }
  else if (e.key === "End") { e.preventDefault(); stop(); go(steps); }
  else if (e.key === " " && !(e.target instanceof HTMLButtonElement)) { e.preventDefault(); togglePlay(); }
});

/** An unfinished table has no replay yet (its record is hidden until the end): a message with a
 * link to watch it live, in place of an empty board and controls that would do nothing. */
function notFinished(gname) {
  const live = `/table/${encodeURIComponent(tableId)}`;
  $("status-line").append(" · not finished yet");
  $("download").hidden = true;
  const main = document.querySelector("main");
  main.className = "message";
  main.textContent = "";
  main.appendChild(h("section", { class: "card", id: "not-finished" },
    h("h1", null, `${gname}: the game is not finished`),
    h("p", { class: "message-text" }, "The game is not finished: its replay opens at the end; watch it live."),
    h("ul", { class: "message-links" },
      h("li", null, h("a", { href: live, id: "watch-live" }, "Watch it live")),
      h("li", null, h("a", { href: "/" }, "Back to the lobby")))));
  document.body.classList.remove("replay-page");
  document.body.classList.add("message-page");
}

/** Who played: a swatch and the name of every seat (bots marked), above the controls (issue 15). */
function showPlayers(seats) {
  const box = $("replay-players");
  box.textContent = "";
  names.forEach((name, p) => {
    const s = seats.find(x => x.seat === p) || {};
    box.appendChild(h("span", { class: "replay-player", "data-seat": p }, swatch(colors[p]), " ", name,
      s.kind === "bot" ? h("span", { class: "hint" }, " (bot)") : null));
  });
}

async function init() {
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    $("status-line").textContent = `Cannot load table ${tableId}: ${e.message}`;
    return;
  }
  view = await loadView(summary.game);
  try {
    comps = await loadComponents(summary.game, summary.options || {});
  } catch (e) {
    toast(`Cannot load the game components: ${e.message}`);
  }
  names = seatNames(summary.seats, (summary.seats || []).length);
  colors = view.seatColors(comps, names.length);
  showPlayers(summary.seats || []);
  logPanel.setView(colors, view.logClass);
  const gname = comps && comps.name ? comps.name : summary.game;
  const sl = $("status-line");
  sl.textContent = "";
  sl.append(h("b", null, `Replay: ${gname}`), ` · table ${tableId}`);
  if (summary.status !== "finished") {
    notFinished(gname);
    return;
  }
  steps = summary.seq || 0;
  $("slider").max = steps;
  const m = location.hash.match(/step=(\d+)/);
  await show(m ? Number(m[1]) : 0);
}
init();
