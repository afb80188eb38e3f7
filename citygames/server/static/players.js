// citygames — the "Players" card of the table page (issue 15: names and presence), generic for every game.
//
// One row per seat: colour swatch, name, "you", bot/human, a connected dot for humans (green: connected,
// grey: away), whose turn it is, and two empty slots other parts fill (.seat-clock, .seat-badges).
// A human player whose seat still has its default name (seats[].named false) is asked once for a name
// (an inline form, prefilled from localStorage); "Skip" keeps the default; the ✎ button in the player's
// own row renames later. Names are sent as {"type": "name", "name": ...}; the server answers every
// connection with a state carrying the new name. Every name is shown with textContent only.
import { h, swatch } from "/static/app.js";

const NAME_KEY = "citygames.playerName";      // the name chosen last time, on any table
const MAX_NAME = 40;

function store(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch { /* private mode */ }
}
function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** The name this browser chose last (for the chat of a spectator, and to prefill the form). */
export function savedName() { return load(NAME_KEY) || ""; }
/** Remember `name` as this browser's name (a spectator's chat name, a seat's name). */
export function saveName(name) { store(NAME_KEY, name || null); }

export class PlayersCard {
  /**
   * @param {HTMLElement} root  the card (section.card#players-card)
   * @param {object} opts  {tableId, send(obj) -> bool}
   */
  constructor(root, { tableId, send }) {
    this.root = root;
    this.tableId = tableId;
    this.send = send;
    this.editing = false;     // the name form is open
    this.asked = false;       // asked once on this page already
    this.last = null;
    this.ctx = null;
    this.list = h("ul", { class: "players", id: "players-list" });
    this.form = null;
    root.textContent = "";
    root.append(h("h2", null, "Players"), this.list);
    root.hidden = false;
  }

  skipKey(seat) { return `citygames.nameSkipped.${this.tableId}.${seat}`; }

  /** Draw the card from a state message. ctx: {colors, names, toMove: [seats]} */
  update(msg, ctx) {
    this.last = msg;
    this.ctx = ctx;
    const mySeat = msg.your_seat ?? null;
    const seats = msg.seats || [];
    const n = seats.length || (ctx.names || []).length;
    this.list.textContent = "";
    for (let p = 0; p < n; p++) {
      const s = seats.find(x => x.seat === p) || { seat: p, kind: "human" };
      const me = p === mySeat;
      const turn = !msg.terminal && (ctx.toMove || []).includes(p);
      const human = s.kind !== "bot";
      const dot = human
        ? h("span", { class: `presence ${s.connected ? "on" : "off"}`, title: s.connected ? "connected" : "away",
          "aria-label": s.connected ? "connected" : "away" })
        : h("span", { class: "presence bot", title: "a bot: always here", "aria-label": "bot" });
      const row = h("li", {
        class: `player-row${me ? " me" : ""}${turn ? " turn" : ""}${human && !s.connected ? " away" : ""}`,
        "data-seat": p, "data-connected": human ? String(!!s.connected) : "bot",
      },
        swatch(ctx.colors[p]),
        h("span", { class: "player-name", "data-seat": p }, ctx.names[p] ?? s.name ?? `Seat ${p}`),
        me ? h("span", { class: "you-tag" }, "you") : null,
        h("span", { class: "kind-tag" }, human ? "" : `bot${s.bot ? ` · ${s.bot}` : ""}`),
        me && human ? h("button", { class: "rename", type: "button", title: "Change your name", "aria-label": "Change your name",
          onclick: () => this.openForm(false) }, "✎") : null,
        h("span", { class: "spacer" }),
        h("span", { class: "seat-badges" }),
        h("span", { class: "seat-clock", "data-seat": p }),
        turn ? h("span", { class: "turn-tag", title: "to move" }, "▶") : null,
        dot,
      );
      this.list.appendChild(row);
    }
    // ask a player without a name of their own, once
    const mine = mySeat !== null ? seats.find(x => x.seat === mySeat) : null;
    if (mine && mine.kind === "human" && mine.named === false && !this.asked && !this.editing
        && load(this.skipKey(mySeat)) === null) {
      this.asked = true;
      this.openForm(true);
    }
  }

  /** The inline name form; `first`: the first request (with "Skip"). */
  openForm(first) {
    if (this.form) { this.form.querySelector("input").focus(); return; }
    const mySeat = this.last ? this.last.your_seat : null;
    if (mySeat === null || mySeat === undefined) return;
    this.editing = true;
    const current = (this.ctx && this.ctx.names[mySeat]) || "";
    const input = h("input", { id: "name-input", type: "text", maxlength: MAX_NAME, autocomplete: "nickname",
      placeholder: "Your name", "aria-label": "Your name", value: savedName() || (first ? "" : current) });
    const err = h("div", { class: "name-error", role: "alert" });
    const close = () => { this.form.remove(); this.form = null; this.editing = false; };
    const submit = (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) { err.textContent = "Type a name, or skip."; return; }
      if (name.length > MAX_NAME) { err.textContent = `At most ${MAX_NAME} characters.`; return; }
      if (!this.send({ type: "name", name })) { err.textContent = "Not connected — try again in a moment."; return; }
      store(NAME_KEY, name);
      close();
    };
    const skip = () => { store(this.skipKey(mySeat), "1"); close(); };
    this.form = h("form", { class: "name-form", id: "name-form", onsubmit: submit },
      h("label", { for: "name-input" }, first ? "Choose the name the others see:" : "Your name:"),
      h("div", { class: "name-row" }, input,
        h("button", { type: "submit", class: "primary", id: "name-save" }, "Save"),
        h("button", { type: "button", id: "name-skip", onclick: skip }, first ? "Skip" : "Cancel")),
      err);
    this.root.appendChild(this.form);
    if (!first || !matchMedia("(max-width: 760px)").matches) input.focus({ preventScroll: true });
  }
}
