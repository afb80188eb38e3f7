"""Table UX in a real browser (issue 15): the game log follows play and offers "Jump to latest"
when the reader has scrolled up; the page routes answer a browser an HTML page (with a way back)
for a wrong seat token or an unknown table; the replay viewer of an unfinished table says so and
links to the live table.

Reuses the server fixture and helpers of ``test_browser_e2e`` (``citygames serve`` as a
subprocess, Debian's Chromium at ``/usr/bin/chromium`` driven by Playwright). Screenshots go to
``test-artifacts/table_ux_e2e/`` (git-ignored).
"""

from __future__ import annotations

import html
import json
import urllib.error
import urllib.request
from pathlib import Path

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "table_ux_e2e"
STEP_TIMEOUT_MS = 20000

pytestmark = base.pytestmark

CHOOSE = base.FIRST_CHOICE   # some legal move of the page (test_browser_e2e)

# where the newest log entry is: inside the visible part of the box or not, and the box's scroll
LAST_ENTRY = r"""
() => {
  const log = document.getElementById('log');
  const last = log.lastElementChild;
  const box = log.getBoundingClientRect(), r = last.getBoundingClientRect();
  return {visible: r.top >= box.top - 1 && r.bottom <= box.bottom + 1, top: log.scrollTop,
          overflows: log.scrollHeight > log.clientHeight + 5, n: log.childElementCount, text: last.textContent};
}
"""


def _get(url: str, accept: str) -> tuple[int, str, str]:
    """(status, content type, body) of a GET with the ``Accept`` header ``accept``."""
    req = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers["content-type"], r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["content-type"], e.read().decode()


def _move(page) -> None:
    """Seat 0 makes one move by clicking, and the page shows the next state."""
    seq = page.evaluate("document.body.dataset.seq")
    choice = page.evaluate(CHOOSE)
    assert choice is not None, "seat 0 is to move but nothing is clickable"
    page.click(choice["sel"])
    if choice["menu"]:
        page.locator("#board .choice-menu .legal[data-action]").first.click()
    page.wait_for_function("(s) => document.body.dataset.seq !== s && (document.body.dataset.mine === 'true' || "
                           "document.body.dataset.terminal === 'true')", arg=seq, timeout=STEP_TIMEOUT_MS)


def test_the_log_follows_play_and_offers_jump_to_latest(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = base.create_table(server, {"game": "seven_wonders_duel", "seed": 5,
                                       "seats": [{"kind": "human", "name": "Tester"},
                                                 {"kind": "bot", "bot": "random"}]})
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            watch_errors(page, errors)
            page.goto(server + table["seats"][0]["join_url"])
            page.wait_for_selector("body[data-mine='true']")
            # ~30 turns (seat 0's and the bot's): from the moment the log overflows its box, its
            # newest entry is in view after every state
            followed = 0
            for _ in range(16):
                _move(page)
                assert page.evaluate("document.body.dataset.terminal") == "false"
                where = page.evaluate(LAST_ENTRY)
                if where["overflows"]:
                    assert where["visible"], where
                    followed += 1
            assert followed >= 5, "the log never overflowed its box: the test proves nothing"
            assert page.locator(".log-latest").is_hidden()

            # the reader scrolls up: new entries do not move the box, "Jump to latest" appears
            page.hover("#log")
            page.mouse.wheel(0, -5000)
            page.wait_for_function("() => document.getElementById('log').scrollTop === 0")
            before = page.evaluate(LAST_ENTRY)
            for _ in range(2):
                _move(page)
            after = page.evaluate(LAST_ENTRY)
            assert after["n"] > before["n"] and after["top"] == 0 and not after["visible"], after
            latest = page.locator(".log-latest")
            assert latest.is_visible() and "Jump to latest" in latest.inner_text()
            page.screenshot(path=str(ARTIFACTS / "01-log-scrolled-up.png"))
            latest.click()
            now = page.evaluate(LAST_ENTRY)
            assert now["visible"] and now["text"] == after["text"], now
            assert latest.is_hidden()
            # following again: the next entries stay in view
            _move(page)
            assert page.evaluate(LAST_ENTRY)["visible"]
            page.screenshot(path=str(ARTIFACTS / "02-log-following.png"))
            assert not errors, errors
        finally:
            browser.close()


def test_page_routes_answer_a_browser_with_a_page(server):
    from playwright.sync_api import sync_playwright

    table = base.create_table(server, {"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}]})
    tid = table["table_id"]
    browser_accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"   # what Chromium sends
    cases = [(f"/table/{tid}?seat=0&token=wrong", 403, "Wrong seat or token."),
             ("/table/nosuchtable", 404, "No table 'nosuchtable'."),
             ("/replay/nosuchtable", 404, "No table 'nosuchtable'.")]
    for path, status, message in cases:
        code, ctype, body = _get(server + path, browser_accept)
        assert code == status and ctype.startswith("text/html"), (path, code, ctype)
        assert html.escape(message) in body and 'href="/"' in body and "<script" not in body, body
        # a client asking for JSON still gets {"error": ...}; the API answers JSON to a browser too
        code, ctype, body = _get(server + path, "application/json")
        assert code == status and ctype == "application/json" and json.loads(body)["error"]
    code, ctype, body = _get(f"{server}/api/tables/nosuchtable", browser_accept)
    assert code == 404 and ctype == "application/json" and json.loads(body)["error"]

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            csp: list[str] = []
            page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
            # a wrong token: the message, a way to watch the table and back to the lobby
            r = page.goto(f"{server}/table/{tid}?seat=1&token=nope")
            assert r.status == 403
            assert page.locator("h1").inner_text() == "Wrong seat or token"
            page.screenshot(path=str(ARTIFACTS / "03-wrong-token.png"))
            page.click("text=Watch this table as a spectator")
            page.wait_for_selector("body[data-seq]")
            assert page.locator("#role").inner_text() == "watching"
            # the replay of an unfinished table: a message and a link to the live table, no board
            r = page.goto(f"{server}/replay/{tid}")
            assert r.status == 200
            page.wait_for_selector("#not-finished")
            assert "the game is not finished: its replay opens at the end; watch it live" in \
                page.locator("#not-finished").inner_text().lower()
            assert page.locator("#board").count() == 0 and page.locator("#next").count() == 0
            page.screenshot(path=str(ARTIFACTS / "04-replay-unfinished.png"))
            page.click("#watch-live")
            page.wait_for_selector("body[data-seq]")
            assert page.url.endswith(f"/table/{tid}")
            # an unknown table: back to the lobby from the page
            r = page.goto(f"{server}/table/nosuchtable")
            assert r.status == 404 and page.locator("h1").inner_text() == "No such table"
            page.click("text=Back to the lobby")
            page.wait_for_selector("#create")
            assert not csp, csp
        finally:
            browser.close()


def test_a_turn_that_passed_by_itself_is_explained_in_the_turn_card(server):
    """Issue 15, defect 6: an executive turn that ends by itself ("cannot activate anything (nothing
    affordable: ...)") is said with its reason in the turn card, not only in the log: the player
    sees, at their next turn, why they or the others were skipped since their own last action."""
    t = base.create_table(server, {"game": "the_capitals", "seed": 1, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        watch_errors(page, errors)
        page.goto(server + t["seats"][0]["join_url"])
        seen = None
        clicked_at = ""
        for _ in range(40):   # round 1's executive phase comes within a few decisions
            page.wait_for_function(
                "(seq) => document.body.dataset.terminal === 'true' || "
                "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
                arg=clicked_at, timeout=STEP_TIMEOUT_MS)
            notice = page.locator("#turn-notice")
            if notice.count() and notice.is_visible() and "cannot activate anything" in notice.inner_text():
                seen = notice.inner_text()
                break
            choice = page.evaluate(base.CHOOSE)
            assert choice is not None, "seat 0 is to move but nothing is clickable"
            clicked_at = page.evaluate("document.body.dataset.seq")
            where = "#board .legal" if choice["where"] == "board" else "#actions button"
            page.locator(f'{where}[data-action="{choice["id"]}"]').click()
        assert seen, "no skipped turn was explained in the turn card within 40 decisions"
        page.screenshot(path=str(ARTIFACTS / "skip-notice.png"))
        # the same sentences as the log's, names of players and all
        log = page.locator("#log").inner_text()
        for line in seen.splitlines():
            assert line in log, (line, log[-600:])
            assert "(nothing affordable: " in line or "(no tile with an activation effect)" in line, line
        assert not errors, errors
        browser.close()
