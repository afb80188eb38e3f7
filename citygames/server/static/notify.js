// citygames — turn notifications of the table page (issue 15: "a sound (with a mute switch) and a desktop
// notification when it becomes your turn while the tab is hidden").
//
// Two switches in the top bar: the bell (desktop notifications; turning it on asks the browser's
// permission, which needs a click) and the speaker (the sound; muted or not). Both are kept in
// localStorage. When a state makes it this seat's turn (it was not before) while the tab is hidden,
// a short two-note chime is played (WebAudio, no file) unless muted, and a notification is shown if the
// bell is on and permission was granted. The tab title ("● Your turn — …") is set by table.js.
import { h } from "/static/app.js";

const BELL_KEY = "citygames.notify";
const MUTE_KEY = "citygames.mute";

function load(key) { try { return localStorage.getItem(key); } catch { return null; } }
function store(key, v) { try { localStorage.setItem(key, v); } catch { /* private mode */ } }

const SVG_NS = "http://www.w3.org/2000/svg";
// 16 x 16 line icons (no emoji: a browser without an emoji font shows boxes)
const ICONS = {
  bell: "M8 2.2c-2.2 0-3.8 1.7-3.8 3.9v2.6L2.8 11h10.4l-1.4-2.3V6.1C11.8 3.9 10.2 2.2 8 2.2z M6.6 12.6a1.5 1.5 0 0 0 2.8 0",
  speaker: "M2.5 6h2.6L8.6 3v10L5.1 10H2.5z M10.6 5.6a3.4 3.4 0 0 1 0 4.8 M12.3 4a5.6 5.6 0 0 1 0 8",
};
/** An icon (ICONS[name]), struck through when `off`. */
function icon(name, off) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "toggle-icon");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", ICONS[name]);
  svg.appendChild(path);
  if (off) {
    const slash = document.createElementNS(SVG_NS, "path");
    slash.setAttribute("d", "M2.5 2.5l11 11");
    slash.setAttribute("class", "slash");
    svg.appendChild(slash);
  }
  return svg;
}

let audio = null;
/** A short chime made with WebAudio (two sine notes, about 0.35 s). Returns whether it played. */
export function chime() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return false;
  try {
    audio = audio || new AC();
    if (audio.state === "suspended") audio.resume();
    const t0 = audio.currentTime + 0.01;
    [[660, 0], [880, 0.16]].forEach(([freq, at]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.2);
    });
    return true;
  } catch {
    return false;
  }
}

export class TurnNotifier {
  /** @param {HTMLElement} bar  a span in the top bar to hold the two switches */
  constructor(bar) {
    this.wasMine = null;    // null until the first state: a page opened on one's turn does not ring
    this.muted = load(MUTE_KEY) === "1";
    this.bellOn = load(BELL_KEY) === "1";
    this.bell = h("button", { type: "button", class: "topbar-toggle", id: "notify-toggle", onclick: () => this.toggleBell() });
    this.sound = h("button", { type: "button", class: "topbar-toggle", id: "sound-toggle", onclick: () => this.toggleSound() });
    bar.textContent = "";
    bar.append(this.bell, this.sound);
    this.draw();
  }

  get permission() { return typeof Notification === "undefined" ? "unsupported" : Notification.permission; }

  draw() {
    const on = this.bellOn && this.permission === "granted";
    this.bell.replaceChildren(icon("bell", !on));
    this.bell.classList.toggle("on", on);
    this.bell.setAttribute("aria-pressed", String(on));
    this.bell.title = this.permission === "unsupported" ? "Desktop notifications are not available in this browser"
      : this.permission === "denied" ? "Desktop notifications are blocked for this site (change it in the browser's site settings)"
        : on ? "Desktop notification when it becomes your turn: on (click to turn off)"
          : "Desktop notification when it becomes your turn: off (click to turn on)";
    this.sound.replaceChildren(icon("speaker", this.muted));
    this.sound.classList.toggle("on", !this.muted);
    this.sound.setAttribute("aria-pressed", String(!this.muted));
    this.sound.title = this.muted ? "Turn sound: muted (click to unmute)" : "Turn sound: on (click to mute)";
  }

  async toggleBell() {
    if (this.permission === "unsupported") { this.draw(); return; }
    if (this.bellOn && this.permission === "granted") {
      this.bellOn = false;
    } else {
      this.bellOn = true;
      if (Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch { /* old browsers: callback form */ }
      }
    }
    store(BELL_KEY, this.bellOn ? "1" : "0");
    this.draw();
  }

  toggleSound() {
    this.muted = !this.muted;
    store(MUTE_KEY, this.muted ? "1" : "0");
    if (!this.muted) chime();   // a click unlocks the audio context and lets the player hear it
    this.draw();
  }

  /** After each state: `mine` whether this seat is to move; `text` the notification's body. */
  update(mine, text) {
    const became = this.wasMine === false && mine;
    this.wasMine = mine;
    if (!became || !document.hidden) return;
    if (!this.muted) chime();
    if (this.bellOn && this.permission === "granted") {
      try {
        const n = new Notification("Your turn — citygames", { body: text || "", tag: "citygames-turn" });
        n.onclick = () => { window.focus(); n.close(); };
      } catch { /* e.g. a mobile browser that only notifies from a service worker */ }
    }
    document.body.dataset.notified = String(Number(document.body.dataset.notified || 0) + 1);   // for tests
  }
}
