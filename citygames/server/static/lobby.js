// citygames — the script of the lobby page (index.html), kept in its own file so that the Content-Security-Policy
// (script-src 'self') runs it with no inline script allowed.
import { api, h, cap, toast, myTables, fmtTime, loadComponents } from "/static/app.js";
import { loadView, DEFAULT_COLORS } from "/static/games.js";
import { clockRow, clockOf, abandonButton } from "/static/life.js";

// Every game comes from GET /api/games ({id, name, min_players, max_players, options}); nothing
// here knows a game by its id. Seat colours come from the game's view (games.js).
const $ = (id) => document.getElementById(id);
let games = [];
let bots = [];   // GET /api/bots/info: [{name, about, level}], the difficulty levels first
let gameNames = {};

function currentGame() { return games.find(g => g.id === $("game").value) || games[0]; }

function hasOption(game, name) { return !!(game && game.options || []).find(o => o.name === name); }

/** CSS colours of n seats of `gameId` with these options (the game's view decides). */
async function seatColors(gameId, n, options = {}) {
  const fallback = Array.from({ length: n }, (_, i) => DEFAULT_COLORS[i % DEFAULT_COLORS.length]);
  try {
    const view = await loadView(gameId);
    const comps = await loadComponents(gameId, options).catch(() => null);
    return view.seatColors(comps, n) || fallback;
  } catch {
    return fallback;
  }
}

/** The options of the form, as POST /api/tables wants them. */
function formOptions(g, n) {
  const options = {};
  if (hasOption(g, "num_players")) options.num_players = n;
  for (const inp of $("options").querySelectorAll("[data-option]")) {
    const k = inp.dataset.option;
    const spec = g.options.find(o => o.name === k) || {};
    if (inp.type === "checkbox") options[k] = inp.checked;
    else if (inp.type === "number") { if (inp.value !== "") options[k] = Number(inp.value); }
    else if (inp.tagName === "SELECT") options[k] = JSON.parse(inp.value);
    else if (inp.value !== "" || (spec.default !== null && spec.default !== undefined)) options[k] = inp.value;
  }
  return options;
}

function renderOptions() {
  const g = currentGame();
  const howto = $("howto-link");   // the chosen game's "How to play" page (issue 15, rules help)
  if (howto) { howto.href = `/rules/${encodeURIComponent(g.id)}`; howto.textContent = `How to play ${g.name} ↗`; howto.hidden = false; }
  const box = $("options");
  box.textContent = "";
  const np = g.options.find(o => o.name === "num_players");
  const sel = $("num-players");
  const prev = Number(sel.value) || (np ? np.default : g.min_players);
  sel.textContent = "";
  for (let k = g.min_players; k <= g.max_players; k++) sel.appendChild(h("option", { value: k, selected: k === Math.min(Math.max(prev, g.min_players), g.max_players) }, k));
  sel.disabled = g.min_players === g.max_players;
  for (const o of g.options) {
    if (o.name === "num_players") continue;
    const id = `opt-${o.name}`;
    let input;
    if (o.choices && o.choices.length) {
      input = h("select", { id, name: o.name, "data-option": o.name }, o.choices.map(c => h("option", { value: JSON.stringify(c), selected: c === o.default }, String(c))));
    } else if (typeof o.default === "boolean") {
      input = h("input", { id, type: "checkbox", "data-option": o.name, checked: o.default, style: { flex: "0 0 auto" } });
    } else if (typeof o.default === "number") {
      input = h("input", { id, type: "number", "data-option": o.name, value: o.default, min: o.min, max: o.max, step: Number.isInteger(o.default) ? 1 : "any" });
    } else {
      input = h("input", { id, type: "text", "data-option": o.name, value: o.default ?? "" });
    }
    box.appendChild(h("div", { class: "form-row", title: o.doc || "" },
      h("label", { for: id }, cap(o.name.replace(/_/g, " "))), input,
      typeof o.default === "boolean" ? h("span", { class: "hint", style: { flex: 1 } }, o.doc || "") : null));
  }
  for (const inp of box.querySelectorAll("[data-option]")) inp.addEventListener("change", recolorSeats);
  renderSeats();
}

/** Colour the seat dots for the game, player count and options now chosen. */
async function recolorSeats() {
  const g = currentGame();
  const n = Number($("num-players").value);
  let opts;
  try { opts = formOptions(g, n); } catch { opts = hasOption(g, "num_players") ? { num_players: n } : {}; }
  const cols = await seatColors(g.id, n, opts);
  if (g !== currentGame() || n !== Number($("num-players").value)) return;  // changed meanwhile
  [...$("seats").querySelectorAll(".seat-row .dot")].forEach((dot, i) => { dot.style.background = cols[i]; });
}

function renderSeats() {
  const n = Number($("num-players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-row")].map(r => ({ kind: r.querySelector("select").value, name: r.querySelector("input").value }));
  box.textContent = "";
  for (let i = 0; i < n; i++) {
    const names = bots.map(b => b.name);
    const prev = old[i] || { kind: i === 0 ? "human" : `bot:${names.includes("greedy") ? "greedy" : names[0]}`, name: "" };
    const option = (b) => h("option", { value: `bot:${b.name}`, selected: prev.kind === `bot:${b.name}`, title: b.about },
      `Bot: ${b.name}`);
    const kind = h("select", { name: `kind-${i}`, id: `seat-kind-${i}`, "data-seat": i, "aria-label": `seat ${i} player` },
      h("option", { value: "human", selected: prev.kind === "human" }, "Human"),
      h("optgroup", { label: "Bots by difficulty" }, bots.filter(b => b.level).map(option)),
      h("optgroup", { label: "Other bots" }, bots.filter(b => !b.level).map(option)));
    const name = h("input", { name: `name-${i}`, id: `seat-name-${i}`, placeholder: i === 0 ? "your name" : `Player ${i + 1}`, value: prev.name, maxlength: 40, "aria-label": `seat ${i} name` });
    const dot = h("span", { class: "dot", title: `seat ${i}`, style: { background: DEFAULT_COLORS[i % DEFAULT_COLORS.length] } });
    const sync = () => { name.disabled = kind.value !== "human"; name.style.visibility = kind.value === "human" ? "visible" : "hidden"; };
    kind.addEventListener("change", sync);
    sync();
    const row = h("div", { class: "seat-row", "data-seat": i }, dot, kind, name);
    box.appendChild(row);
  }
  recolorSeats();
}

function absolute(url) { return new URL(url, location.origin).href; }

function copyButton(text) {
  return h("button", {
    type: "button", class: "small", onclick: async (e) => {
      try { await navigator.clipboard.writeText(text); e.target.textContent = "Copied"; }
      catch { prompt("Copy this link:", text); }
    },
  }, "Copy");
}

function showCreated(res, colors) {
  const box = $("created");
  box.textContent = "";
  const humans = res.seats.filter(s => s.kind === "human");
  const seat0 = res.seats.find(s => s.seat === 0);
  box.appendChild(h("div", { class: "created", id: "created-table", "data-table": res.table_id },
    h("h4", null, `Table ${res.table_id} is ready`),
    humans.length ? h("div", { class: "hint" }, "Send each player their own link — the token in it is that seat's secret.") : null,
    humans.map(s => h("div", { class: "linkrow" },
      h("span", { class: "dot", style: { display: "inline-block", width: "12px", height: "12px", borderRadius: "50%", background: colors[s.seat] } }),
      h("b", null, `Seat ${s.seat}${s.name ? ` (${s.name})` : ""}`),
      h("code", null, absolute(s.join_url)),
      copyButton(absolute(s.join_url)),
      h("a", { class: "join-link", "data-seat": s.seat, href: s.join_url }, "Open"))),
    h("div", { class: "linkrow" }, h("b", null, "Spectators"), h("code", null, absolute(res.watch_url)), copyButton(absolute(res.watch_url))),
    seat0 && seat0.kind === "human"
      ? h("a", { class: "big-link", id: "play-seat-0", href: seat0.join_url }, "Play seat 0 now →")
      : h("a", { class: "big-link", id: "watch-now", href: res.watch_url }, "Watch the bots play →")));
}

$("game").addEventListener("change", renderOptions);
$("num-players").addEventListener("change", renderSeats);

$("create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const g = currentGame();
  const n = Number($("num-players").value);
  const options = formOptions(g, n);
  const seats = [...$("seats").querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector("select").value;
    const name = row.querySelector("input").value.trim();
    return kind === "human" ? (name ? { kind: "human", name } : { kind: "human" }) : { kind: "bot", bot: kind.slice(4) };
  });
  const body = { game: g.id, options, seats };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  const clock = clockOf($("clock"));
  if (clock) body.clock = clock;
  $("create").disabled = true;
  try {
    const res = await api("/api/tables", { method: "POST", body });
    const cols = await seatColors(g.id, n, options);
    myTables.put(res.table_id, { seats: res.seats.filter(s => s.kind === "human").map(s => ({ seat: s.seat, name: s.name, join_url: s.join_url })), watch_url: res.watch_url, creator_token: res.creator_token });
    showCreated(res, cols);
    refresh();
  } catch (err) {
    toast(`Could not create the table: ${err.message}`);
  } finally {
    $("create").disabled = false;
  }
});

function seatPills(t, cols) {
  return (t.seats || []).map(s => h("span", { class: `pill ${s.kind}` },
    h("span", { class: "sw", style: { background: cols[s.seat] } }),
    s.name || (s.kind === "bot" ? `${s.bot} bot` : `seat ${s.seat}`),   // the seat's name, as the winner line
    t.result && t.result.scores ? ` ${t.result.scores[s.seat]}` : ""));
}

function winnerName(t, w) {
  const s = (t.seats || []).find(x => x.seat === w);
  return s && s.name ? s.name : `seat ${w}`;
}

async function renderList(box, tables, finished) {
  box.textContent = "";
  if (!tables.length) {
    box.appendChild(h("div", { class: "empty" }, finished ? "No finished games yet." : "No open tables — create one."));
    return;
  }
  tables.sort((a, b) => String(b.finished_at || b.created_at).localeCompare(String(a.finished_at || a.created_at)));
  const rows = [];
  for (const t of tables) {
    const n = (t.seats || []).length;
    const cols = await seatColors(t.game, n, t.options || {});
    const gname = gameNames[t.game] || t.game;
    const id = encodeURIComponent(t.table_id);
    let links;
    if (finished) {
      const w = t.result && t.result.ranking ? t.result.ranking[0] : null;
      links = h("td", null,
        h("a", { href: `/replay/${id}`, class: "replay-link" }, "Replay"), " · ",
        h("a", { href: `/api/tables/${id}/record`, download: `citygames-${t.table_id}.json` }, "Record JSON"),
        w !== null ? h("div", { class: "hint" }, "winner: ", h("span", { class: "winner", style: { color: cols[w] } }, winnerName(t, w))) : null);
    } else {
      const mine = myTables.get(t.table_id);
      links = h("td", null, h("a", { href: `/table/${id}`, class: "watch-link" }, "Watch"),
        mine && mine.creator_token ? h("div", null, abandonButton(t.table_id, mine.creator_token, refresh)) : null,
        mine ? h("div", null, mine.seats.map(s => h("div", null, h("a", { href: s.join_url, class: "join-link", "data-seat": s.seat }, `Play seat ${s.seat}${s.name ? ` (${s.name})` : ""}`)))) : null);
    }
    rows.push(h("tr", { "data-table": t.table_id },
      h("td", null, h("b", null, gname), h("div", { class: "hint" }, `table ${t.table_id}`)),
      h("td", null, seatPills(t, cols)),
      h("td", { class: "hint" }, finished ? fmtTime(t.finished_at) : `${t.seq} moves`, h("br"), finished ? "" : fmtTime(t.created_at)),
      links));
  }
  box.appendChild(h("table", { class: "list" },
    h("thead", null, h("tr", null, h("th", null, "Game"), h("th", null, finished ? "Players and scores" : "Players"), h("th", null, finished ? "Finished" : "Progress"), h("th", null, ""))),
    h("tbody", null, rows)));
}

async function refresh() {
  try {
    const [open, fin] = await Promise.all([api("/api/tables?status=open"), api("/api/tables?status=finished")]);
    await renderList($("open-tables"), open || [], false);
    await renderList($("finished-tables"), fin || [], true);
  } catch (e) {
    $("open-tables").textContent = `Cannot list the tables: ${e.message}`;
  }
}
$("refresh").addEventListener("click", refresh);

async function init() {
  try {
    [games, bots] = await Promise.all([api("/api/games"), api("/api/bots/info")]);
  } catch (e) {
    toast(`Cannot reach the server: ${e.message}`);
    return;
  }
  gameNames = Object.fromEntries(games.map(g => [g.id, g.name]));
  $("game").textContent = "";
  for (const g of games) {
    const players = g.min_players === g.max_players ? `${g.min_players}` : `${g.min_players}–${g.max_players}`;
    $("game").appendChild(h("option", { value: g.id }, `${g.name} (${players} players)`));
  }
  $("seed").closest(".form-row").before(clockRow());   // clocks (life.js, issue 15)
  renderOptions();
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
}
init();
