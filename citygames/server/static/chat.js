// citygames — the table's chat panel (issue 15: chat per table, players and spectators).
//
// The server sends {"type": "chat", "messages": [{n, seat, name, text, at}]}: the last 100 messages when
// the socket opens ("history": true, when there are any; again after a reconnect: kept by n, so nothing
// shows twice), then each new one.
// A message is sent as {"type": "chat", "text": ...} (a spectator adds the name it chose, if any).
// Every name and text is shown with textContent: a message is never HTML.
// The card folds (its header is a button); folded, it counts the messages not read yet. On a phone
// it starts folded.
import { h, swatch } from "/static/app.js";
import { savedName, saveName } from "/static/players.js";

const MAX_CHAT = 300;
const PHONE = "(max-width: 760px)";

function timeOf(iso) {
  const d = new Date(iso);
  return isNaN(d) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export class ChatPanel {
  /**
   * @param {HTMLElement} root  the card (section.card#chat-card)
   * @param {object} opts  {send(obj) -> bool, spectator: bool}
   */
  constructor(root, { send, spectator }) {
    this.root = root;
    this.send = send;
    this.spectator = spectator;
    this.messages = new Map();   // n -> message
    this.unread = 0;
    this.colors = [];
    this.badge = h("span", { class: "chat-unread", id: "chat-unread", hidden: true });
    this.toggle = h("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": "true",
      onclick: () => this.setFolded(!this.folded) }, h("span", { class: "chat-title" }, "Chat"), this.badge,
      h("span", { class: "chat-caret", "aria-hidden": "true" }, "▾"));
    this.list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" },
      h("li", { class: "chat-empty" }, "No messages yet."));
    this.input = h("input", { id: "chat-input", type: "text", maxlength: MAX_CHAT, autocomplete: "off",
      placeholder: "Message", "aria-label": "Chat message" });
    // a spectator may give a name (shown as "Kim (watching)"); without one it posts as "Spectator"
    this.nameInput = spectator ? h("input", { id: "chat-name", type: "text", maxlength: 40, autocomplete: "nickname",
      placeholder: "Spectator", value: savedName(), "aria-label": "Your name (optional)" }) : null;
    this.err = h("div", { class: "chat-error", role: "alert" });
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      this.input, h("button", { type: "submit", id: "chat-send" }, "Send"));
    this.body = h("div", { class: "chat-body" }, this.list, this.form,
      spectator ? h("label", { class: "chat-as" }, "Watching as ", this.nameInput) : null, this.err);
    root.textContent = "";
    root.append(h("h2", { class: "chat-head" }, this.toggle), this.body);
    root.hidden = false;
    this.folded = false;
    this.setFolded(matchMedia(PHONE).matches);
  }

  setFolded(folded) {
    this.folded = folded;
    this.root.classList.toggle("folded", folded);
    this.body.hidden = folded;
    this.toggle.setAttribute("aria-expanded", String(!folded));
    if (!folded) {
      this.unread = 0;
      this.list.scrollTop = this.list.scrollHeight;
    }
    this.showUnread();
  }

  showUnread() {
    this.badge.hidden = !this.unread;
    this.badge.textContent = this.unread ? String(this.unread) : "";
    this.badge.title = this.unread ? `${this.unread} unread` : "";
  }

  setColors(colors) { this.colors = colors || []; }

  /** Messages from the server; `history`: the earlier messages sent when the socket opens (not "unread"). */
  add(messages, history = false) {
    let fresh = 0;
    for (const m of messages || []) {
      if (typeof m.n !== "number" || this.messages.has(m.n)) continue;
      this.messages.set(m.n, m);
      fresh++;
    }
    if (!fresh) return;
    const follow = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 30;
    this.list.textContent = "";
    for (const n of [...this.messages.keys()].sort((a, b) => a - b)) {
      const m = this.messages.get(n);
      const seat = typeof m.seat === "number" ? m.seat : null;
      this.list.appendChild(h("li", { class: `chat-msg${seat === null ? " watcher" : ""}`, "data-n": n },
        h("span", { class: "chat-meta" },
          seat !== null ? swatch(this.colors[seat]) : null,
          h("b", { class: "chat-name" }, String(m.name ?? "")),
          h("time", { class: "chat-time", datetime: m.at || "" }, timeOf(m.at))),
        h("span", { class: "chat-text" }, String(m.text ?? ""))));
    }
    if (this.folded) {
      if (!history) { this.unread += fresh; this.showUnread(); }
    } else if (follow || history) {
      this.list.scrollTop = this.list.scrollHeight;
    }
  }

  submit() {
    const text = this.input.value.trim();
    this.err.textContent = "";
    if (!text) return;
    if (text.length > MAX_CHAT) { this.err.textContent = `At most ${MAX_CHAT} characters.`; return; }
    const msg = { type: "chat", text };
    if (this.nameInput) {
      const name = this.nameInput.value.trim();
      if (name) msg.name = name;
      saveName(name);
    }
    if (!this.send(msg)) { this.err.textContent = "Not connected — the message was not sent."; return; }
    this.input.value = "";
  }

  /** A refusal from the server about chat (too many messages, ...). */
  error(message) { this.err.textContent = message; }
}
