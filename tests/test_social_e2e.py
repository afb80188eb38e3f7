"""Names, presence, chat and turn notifications in a real browser (issue 15): two browser contexts
are the two players of a 7 Wonders Duel table, A on a desktop (1366 x 900), B on a phone (390 x 844).

- A is asked for a name, gives "Ann"; B's Players card shows it;
- chat between the two contexts, with a message holding ``<script>alert(1)</script>`` shown as
  text (no dialog, no element made from it); on the phone the folded chat counts the unread one;
  a spectator (a third context) posts as "Kim (watching)";
- a turn notification: A's tab is hidden (``document.hidden`` faked by an init script, with
  ``Notification`` and ``AudioContext`` replaced by recorders) when B's move makes it A's turn:
  A's page plays the chime, shows the notification and titles the tab "● Your turn";
- presence: B closes its page and A's card shows B away within a few seconds.

Reuses the ``citygames serve`` fixture of ``test_browser_e2e``. Screenshots go to
``test-artifacts/social_e2e/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "social_e2e"
TIMEOUT_MS = 15000
EVIL = "<script>alert(1)</script> <img src=x onerror=alert(2)> hi Bob"

# A's page: a tab whose visibility the test sets (window.__hidden), and recorders in place of the
# browser's notifications and audio (headless Chromium has neither a visible tab to hide nor a
# notification centre)
FAKES = r"""
window.__hidden = false;
Object.defineProperty(Document.prototype, 'hidden', { get() { return window.__hidden; }, configurable: true });
window.__notes = [];
window.__chimes = 0;
window.Notification = class {
  constructor(title, opts) { window.__notes.push({ title, body: (opts || {}).body || '' }); }
  static get permission() { return 'granted'; }
  static requestPermission() { return Promise.resolve('granted'); }
};
window.AudioContext = class {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() { window.__chimes++; return { frequency: {}, connect: (x) => x, start() {}, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (x) => x }; }
};
"""

CHOOSE = base.FIRST_CHOICE   # some legal move of the page (test_browser_e2e)


def _move(page) -> None:
    """The page's player makes one move by clicking; returns once the page shows the next state."""
    seq = page.evaluate("document.body.dataset.seq")
    choice = page.evaluate(CHOOSE)
    assert choice is not None, "the seat is to move but nothing is clickable"
    page.click(choice["sel"])
    commit = page.locator("#details button.commit[data-action]")
    if commit.count():   # a touch screen: the tap only selected, the details panel commits (issue 15)
        commit.first.click()
    elif choice["menu"]:
        page.locator("#board .choice-menu .legal[data-action]").first.click()
    page.wait_for_function("(s) => document.body.dataset.seq !== s", arg=seq, timeout=TIMEOUT_MS)


def _row(page, seat: int):
    return page.locator(f"#players-list .player-row[data-seat='{seat}']")


def test_names_chat_notifications_and_presence_between_two_players(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = base.create_table(server, {"game": "seven_wonders_duel", "seed": 5,
                                       "seats": [{"kind": "human"}, {"kind": "human"}]})
    errors: list[str] = []
    dialogs: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ctx_a = browser.new_context(viewport={"width": 1366, "height": 900})
            ctx_a.add_init_script(FAKES)
            ctx_b = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            a, b = ctx_a.new_page(), ctx_b.new_page()
            for p in (a, b):
                watch_errors(p, errors)
                p.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

            # --- names: A is asked once and names the seat; B sees the name ---------------------
            a.goto(server + table["seats"][0]["join_url"])
            a.wait_for_selector("#name-form")
            assert a.locator("#name-input").input_value() == ""
            a.screenshot(path=str(ARTIFACTS / "01-desktop-name-asked.png"))
            a.fill("#name-input", "  Ann  ")
            a.click("#name-save")
            a.wait_for_function("() => document.querySelector(\"#players-list .player-row[data-seat='0'] .player-name\")"
                                ".textContent === 'Ann'", timeout=TIMEOUT_MS)
            assert a.locator("#name-form").count() == 0
            assert "you" in _row(a, 0).inner_text()

            b.goto(server + table["seats"][1]["join_url"])
            b.wait_for_selector("#name-form")
            assert _row(b, 0).locator(".player-name").inner_text() == "Ann"
            b.click("#name-skip")   # keeps the default name; not asked again on this page
            assert b.locator("#name-form").count() == 0
            # presence: each sees the other connected
            a.wait_for_function("() => document.querySelector(\"#players-list .player-row[data-seat='1']\")"
                                ".dataset.connected === 'true'", timeout=TIMEOUT_MS)
            assert _row(b, 0).get_attribute("data-connected") == "true"

            # --- chat: a script is text; the phone's folded chat counts it ---------------------
            assert b.locator("#chat-card").evaluate("e => e.classList.contains('folded')")   # folded on a phone
            a.fill("#chat-input", EVIL)
            a.press("#chat-input", "Enter")
            a.wait_for_selector("#chat-list .chat-msg")
            b.wait_for_function("() => document.getElementById('chat-unread').textContent === '1'", timeout=TIMEOUT_MS)
            texts = b.evaluate("() => [...document.querySelectorAll('#chat-list .chat-text')].map(e => e.textContent)")
            assert texts == [EVIL]
            assert b.evaluate("() => document.querySelectorAll('#chat-list script, #chat-list img').length") == 0
            assert b.locator("#chat-list .chat-name").first.inner_text() == "Ann"
            b.screenshot(path=str(ARTIFACTS / "02-phone-unread.png"), full_page=True)
            b.click("#chat-toggle")
            assert b.locator("#chat-unread").is_hidden()
            b.fill("#chat-input", "hello Ann")
            b.click("#chat-send")
            a.wait_for_function("() => document.querySelectorAll('#chat-list .chat-msg').length === 2", timeout=TIMEOUT_MS)
            assert a.locator("#chat-list .chat-text").nth(1).inner_text() == "hello Ann"
            assert a.evaluate("() => document.querySelectorAll('#chat-list script, #chat-list img').length") == 0

            # a spectator posts under the name it gives, marked as watching
            ctx_c = browser.new_context(viewport={"width": 1366, "height": 900})
            c = ctx_c.new_page()
            watch_errors(c, errors)
            c.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            c.goto(server + table["watch_url"])
            c.wait_for_function("() => document.querySelectorAll('#chat-list .chat-msg').length === 2", timeout=TIMEOUT_MS)
            assert c.locator("#name-form").count() == 0 and c.locator("#notify-toggle").count() == 0
            c.fill("#chat-name", "Kim")
            c.fill("#chat-input", "watching you two")
            c.press("#chat-input", "Enter")
            a.wait_for_function("() => document.querySelectorAll('#chat-list .chat-msg').length === 3", timeout=TIMEOUT_MS)
            assert a.locator("#chat-list .chat-name").nth(2).inner_text() == "Kim (watching)"
            c.screenshot(path=str(ARTIFACTS / "06-desktop-spectator.png"))
            ctx_c.close()

            # --- turn notification: A's tab hidden when it becomes A's turn --------------------
            a.click("#notify-toggle")
            assert a.locator("#notify-toggle").get_attribute("aria-pressed") == "true"
            while a.evaluate("document.body.dataset.mine") == "true":
                _move(a)
            b.wait_for_function("() => document.body.dataset.mine === 'true'", timeout=TIMEOUT_MS)
            a.evaluate("() => { window.__hidden = true; }")
            assert a.evaluate("window.__notes.length") == 0 and a.evaluate("window.__chimes") == 0
            while b.evaluate("document.body.dataset.mine") == "true":
                _move(b)
            a.wait_for_function("() => document.body.dataset.mine === 'true'", timeout=TIMEOUT_MS)
            notes = a.evaluate("window.__notes")
            assert len(notes) == 1 and notes[0]["title"] == "Your turn — citygames", notes
            assert a.evaluate("window.__chimes") >= 2   # two notes
            assert a.title().startswith("● Your")
            a.evaluate("() => { window.__hidden = false; }")
            a.screenshot(path=str(ARTIFACTS / "03-desktop-chat-players.png"))
            b.screenshot(path=str(ARTIFACTS / "04-phone-chat-open.png"), full_page=True)

            # mute: the next turn rings nothing (still notified)
            a.click("#sound-toggle")
            assert a.evaluate("localStorage.getItem('citygames.mute')") == "1"
            chimes = a.evaluate("window.__chimes")
            while a.evaluate("document.body.dataset.mine") == "true":
                _move(a)
            a.evaluate("() => { window.__hidden = true; }")
            b.wait_for_function("() => document.body.dataset.mine === 'true'", timeout=TIMEOUT_MS)
            while b.evaluate("document.body.dataset.mine") == "true":
                _move(b)
            a.wait_for_function("() => window.__notes.length === 2", timeout=TIMEOUT_MS)
            assert a.evaluate("window.__chimes") == chimes
            a.evaluate("() => { window.__hidden = false; }")

            # --- presence: B leaves, A sees it at once -----------------------------------------
            b.close()
            a.wait_for_function("() => document.querySelector(\"#players-list .player-row[data-seat='1']\")"
                                ".dataset.connected === 'false'", timeout=5000)
            assert "away" in _row(a, 1).get_attribute("class")
            a.screenshot(path=str(ARTIFACTS / "05-desktop-b-away.png"))

            # a new page of B's is not asked again (skipped once), and gets the chat history
            b2 = ctx_b.new_page()
            watch_errors(b2, errors)
            b2.goto(server + table["seats"][1]["join_url"])
            b2.wait_for_function("() => document.querySelectorAll('#chat-list .chat-msg').length === 3", timeout=TIMEOUT_MS)
            assert b2.locator("#name-form").count() == 0
            assert b2.locator("#chat-unread").is_hidden()   # the history is not "unread"
        finally:
            browser.close()
    assert not dialogs, dialogs
    assert not errors, errors
