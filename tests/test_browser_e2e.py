"""End to end in a real browser: the lobby, a whole 3-player game of The Capitals played by
clicking against two greedy bots, the final score sheet, and the replay viewer; then a game that
has no board view of its own (the toy game for two seats) created from its options in the lobby
and played on the generic view.

Starts ``citygames serve`` as a subprocess (free port, temporary SQLite file, ``--bot-delay 0``,
the toy games of ``tests/`` registered besides the built-in ones) and drives Debian's Chromium
(``/usr/bin/chromium``) with Playwright. Screenshots go to
``test-artifacts/browser_e2e/`` (git-ignored). Skipped only when Chromium is not installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "browser_e2e"
TESTS_DIR = Path(__file__).resolve().parent
# `citygames serve` with the toy games registered too: "toy" (2-4 seats), "toy_duo" (exactly 2
# seats, no num_players option, a flag, a number and a string choice, like 7 Wonders Duel) and
# "toy_sim" (sealed bids: a simultaneous step every round)
SERVE = ("import sys; sys.path.insert(0, {tests!r}); "
         "from citygames.core import register_game; from toygame import ToyGame; from simtoy import SealedBids; "
         "from test_server_api import DuoGame; register_game('toy', ToyGame); register_game('toy_duo', DuoGame); "
         "register_game('toy_sim', SealedBids); "
         "from citygames.cli import main; main()")
MAX_TURNS = 600          # decisions of seat 0 (a game takes about 70)
STEP_TIMEOUT_MS = 20000  # waiting for the bots and the server after each click

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def create_table(server: str, body: dict) -> dict:
    """``POST /api/tables`` with the JSON ``body`` on ``server``; the answer (asserting 201)."""
    req = urllib.request.Request(server + "/api/tables", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 201
        return json.load(r)


#: base URL -> the log file of each server ``serving`` runs (conftest.py adds its end to a failed
#: test's report)
SERVER_LOGS: dict[str, Path] = {}


@contextlib.contextmanager
def serving(tmp: Path, bot_delay: float = 0.0, extra: tuple[str, ...] = ()):
    """Run ``citygames serve`` on a free port with a fresh SQLite file in ``tmp``, bots waiting
    ``bot_delay`` seconds and the further options ``extra``; yields its base URL, stops the server
    after. Raises ``RuntimeError`` if the server exits or does not answer within 30 s (with its log).
    A test that fails while the server runs gets the end of the server's log in its report."""
    port = _free_port()
    log = open(tmp / "server.log", "w")
    cmd = [sys.executable, "-c", SERVE.format(tests=str(TESTS_DIR)), "serve", "--host", "127.0.0.1",
           "--port", str(port), "--db", f"sqlite:///{tmp / 'e2e.sqlite3'}", "--bot-delay", str(bot_delay), *extra]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    SERVER_LOGS[base] = tmp / "server.log"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited ({proc.returncode}): {(tmp / 'server.log').read_text()}")
            try:
                _get_json(base + "/api/games")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {(tmp / 'server.log').read_text()}")
                time.sleep(0.2)
        yield base
    finally:
        SERVER_LOGS.pop(base, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``citygames serve`` on a free port with a fresh SQLite database, no bot delay; yields its base URL."""
    with serving(tmp_path_factory.mktemp("browser_e2e")) as url:
        yield url


def _unwritten_view(url: str) -> bool:
    """A game's board module that static/games.js lists but nobody has written yet: the page falls
    back to the generic view, and the browser reports the 404 of the attempt."""
    path = urllib.parse.urlparse(url or "").path
    static = Path(__file__).resolve().parents[1] / "citygames" / "server" / "static"
    return path.startswith("/static/") and path.endswith(".js") and not (static / path[len("/static/"):]).exists()


def _watch_errors(page, errors: list) -> None:
    """Collect page errors, console errors and failed requests (but an unwritten view module's)."""
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))

    def console(m):
        if m.type == "error" and not _unwritten_view((m.location or {}).get("url")):
            errors.append(f"console: {m.text}")

    def response(r):
        if r.status >= 400 and not _unwritten_view(r.url):
            errors.append(f"HTTP {r.status} {r.url}")

    page.on("console", console)
    page.on("response", response)


# The first choice the page offers: the first highlighted board element, else the first accessible
# card (7 Wonders Duel: its menu then opens), else the first action button. Shared by the tests that
# only need some legal move of any game.
FIRST_CHOICE = r"""
() => {
  const board = document.querySelector('#board .legal[data-action]');
  if (board) return {sel: `#board .legal[data-action="${board.dataset.action}"]`, menu: false};
  const pick = document.querySelector('#board .pick[data-slot]');
  if (pick) return {sel: `#board .pick[data-slot="${pick.dataset.slot}"]`, menu: true};
  const b = document.querySelector('#actions button[data-action]');
  return b ? {sel: `#actions button[data-action="${b.dataset.action}"]`, menu: false} : null;
}
"""

# The choice of seat 0, made in the page from what it shows: the highlighted board elements
# ([data-action].legal in the SVG) and the action buttons. Deterministic: placements without a
# penalty first, the cheapest initiative space, one activation then end activations, always
# upgrade, never move a construction token.
CHOOSE = r"""
() => {
  const last = window.citygames && window.citygames.last;
  const board = [...document.querySelectorAll('#board .legal[data-action]')];
  const buttons = [...document.querySelectorAll('#actions button[data-action]')];
  const all = board.concat(buttons);
  if (!all.length) return null;
  const kind = (k) => all.filter(e => e.dataset.kind === k);
  const pick = (e) => ({id: e.dataset.action, kind: e.dataset.kind, where: board.includes(e) ? 'board' : 'button'});
  const byNum = (attr, f = (x) => x) => (a, b) => f(Number(a.dataset[attr])) - f(Number(b.dataset[attr]));
  const pending = (last && last.observation && last.observation.pending) || {};
  if (kind('place').length) return pick(kind('place').sort(byNum('penalty', Math.abs))[0]);
  if (kind('initiative').length) return pick(kind('initiative').sort(byNum('cost'))[0]);
  if (kind('take').length) return pick(kind('take')[0]);
  if (kind('end_activations').length && (pending.activations_made || 0) >= 1) return pick(kind('end_activations')[0]);
  if (kind('activate').length) return pick(kind('activate').sort(byNum('cost'))[0]);
  if (kind('free_activate').length) return pick(kind('free_activate')[0]);
  if (kind('upgrade').length) return pick(kind('upgrade')[0]);
  if (kind('decline').length) return pick(kind('decline')[0]);
  return pick(buttons[0] || board[0]);
}
"""


def test_play_a_whole_game_by_clicking(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            _watch_errors(page, errors)

            # --- the lobby: create a 3-player table, seat 0 human, two greedy bots
            page.goto(server + "/")
            page.wait_for_selector("#seat-kind-0 option", state="attached")
            page.select_option("#game", "the_capitals")
            page.select_option("#num-players", "3")
            page.wait_for_selector("#seat-kind-2")
            assert page.locator(".seat-row").count() == 3
            page.select_option("#seat-kind-0", "human")
            page.fill("#seat-name-0", "Tester")
            page.select_option("#seat-kind-1", "bot:greedy")
            page.select_option("#seat-kind-2", "bot:greedy")
            page.fill("#seed", "7")
            page.screenshot(path=str(ARTIFACTS / "01-lobby.png"))
            page.click("#create")
            page.wait_for_selector("#play-seat-0")
            href = page.get_attribute("#play-seat-0", "href")
            assert "seat=0" in href and "token=" in href
            table_id = page.get_attribute("#created-table", "data-table")
            assert table_id and href.startswith(f"/table/{table_id}?")
            # only the human seat has a join link
            assert page.locator("#created-table .join-link").count() == 1
            page.screenshot(path=str(ARTIFACTS / "02-table-created.png"))

            # --- the table: play every decision of seat 0 by clicking
            page.click("#play-seat-0")
            page.wait_for_url(f"**/table/{table_id}?seat=0&token=*")
            page.wait_for_selector("body[data-seq]")
            clicked_at = None
            shots = {"start": False, "mid": False}
            kinds_clicked: dict[str, int] = {}
            for _ in range(MAX_TURNS):
                page.wait_for_function(
                    "(seq) => document.body.dataset.terminal === 'true' || "
                    "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
                    arg=str(clicked_at), timeout=STEP_TIMEOUT_MS)
                if page.evaluate("document.body.dataset.terminal") == "true":
                    break
                obs = page.evaluate("window.citygames.last.observation")
                if not shots["start"]:
                    page.screenshot(path=str(ARTIFACTS / "03-start.png"))
                    shots["start"] = True
                if not shots["mid"] and obs["round"] >= 7 and obs["phase"] == "building":
                    page.screenshot(path=str(ARTIFACTS / "04-mid-game.png"))
                    shots["mid"] = True
                choice = page.evaluate(CHOOSE)
                assert choice is not None, f"seat 0 is to move but nothing is clickable (step {obs['step']!r})"
                seq = page.evaluate("document.body.dataset.seq")
                if choice["where"] == "board":
                    page.locator(f'#board .legal[data-action="{choice["id"]}"]').click()
                else:
                    page.locator(f'#actions button[data-action="{choice["id"]}"]').click()
                kinds_clicked[choice["kind"]] = kinds_clicked.get(choice["kind"], 0) + 1
                clicked_at = seq
            else:
                pytest.fail(f"the game did not end within {MAX_TURNS} decisions of seat 0")

            # the board actions were really clicked on the board
            for k in ("take", "place", "initiative", "activate"):
                assert kinds_clicked.get(k), f"never clicked a {k} action: {kinds_clicked}"

            # --- the final score sheet
            page.wait_for_selector("#score-overlay #scoresheet")
            page.screenshot(path=str(ARTIFACTS / "05-end.png"))
            sheet = page.locator("#score-overlay #scoresheet")
            assert sheet.locator("thead th[data-seat]").count() == 3
            totals = [int(sheet.locator(f'td.total[data-seat="{p}"]').inner_text()) for p in range(3)]
            summary = _get_json(f"{server}/api/tables/{table_id}")
            assert summary["status"] == "finished"
            assert totals == summary["result"]["scores"]
            # each column's categories add up to its total
            for p in range(3):
                assert sum(summary["result"]["breakdown"][p].values()) == totals[p]
            log_text = page.inner_text("#log")
            assert "World Expo" in log_text and "Game over" in log_text
            assert page.locator("#log .entry.expo").count() >= 3 * 3  # three Expos, three cities
            page.click("#score-overlay button.primary")  # close it

            # --- the replay viewer
            steps = summary["seq"]
            page.goto(f"{server}/replay/{table_id}")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `0 / ${n}`",
                                   arg=steps)
            page.wait_for_selector("#board .city")
            for _ in range(5):
                page.keyboard.press("ArrowRight")
            page.click("#next")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `6 / ${n}`",
                                   arg=steps)
            page.keyboard.press("ArrowLeft")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `5 / ${n}`",
                                   arg=steps)
            early_log = page.locator("#log .entry").count()
            mid = steps // 2
            page.evaluate("(k) => { const s = document.getElementById('slider'); s.value = k;"
                          " s.dispatchEvent(new Event('input', {bubbles: true})); }", mid)
            page.wait_for_function("(t) => document.getElementById('stepno').textContent.trim() === t",
                                   arg=f"{mid} / {steps}")
            page.wait_for_function("(k) => location.hash === `#step=${k}`", arg=mid)
            assert page.locator("#log .entry").count() > early_log
            page.screenshot(path=str(ARTIFACTS / "06-replay-mid.png"))
            page.keyboard.press("End")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `${n} / ${n}`",
                                   arg=steps)
            page.wait_for_selector("#score-card:not([hidden]) #scoresheet")
            replay_totals = [int(page.locator(f'#score-card td.total[data-seat="{p}"]').inner_text()) for p in range(3)]
            assert replay_totals == totals
            page.screenshot(path=str(ARTIFACTS / "07-replay-end.png"))
            assert page.get_attribute("#download", "href") == f"/api/tables/{table_id}/record"
            record = _get_json(f"{server}/api/tables/{table_id}/record")
            assert len(record["actions"]) == steps

            # --- the lobby lists the finished game with its replay link
            page.goto(server + "/")
            page.wait_for_selector(f'#finished-tables tr[data-table="{table_id}"] a.replay-link')
        finally:
            browser.close()
    assert not errors, "\n".join(errors)


GENERIC_GAME = "toy_duo"  # registered by the server fixture; no module in static/games.js


def test_a_game_without_a_board_view_plays_on_the_generic_view(server):
    """The lobby builds the form from GET /api/games alone; a game without a view module gets the
    observation as text and every legal action as a button, the log and the score sheet."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            _watch_errors(page, errors)

            page.goto(server + "/")
            page.wait_for_selector("#seat-kind-0 option", state="attached")
            listed = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
            assert listed == [g["id"] for g in _get_json(server + "/api/games")]
            page.select_option("#game", GENERIC_GAME)
            page.wait_for_selector("#opt-house_rule")
            # two seats and no choice about it; one input per option, with its default
            assert page.eval_on_selector_all("#num-players option", "os => os.map(o => o.value)") == ["2"]
            assert page.is_disabled("#num-players")
            assert page.locator(".seat-row").count() == 2
            assert not page.is_checked("#opt-big_pile")
            assert page.input_value("#opt-last_bonus") == "2"
            page.check("#opt-big_pile")
            page.fill("#opt-last_bonus", "4")
            page.select_option("#opt-house_rule", label="first_print")
            page.select_option("#seat-kind-0", "human")
            page.select_option("#seat-kind-1", "bot:greedy")
            page.fill("#seed", "11")
            page.screenshot(path=str(ARTIFACTS / "11-generic-lobby.png"))
            page.click("#create")
            page.wait_for_selector("#play-seat-0")
            table_id = page.get_attribute("#created-table", "data-table")
            summary = _get_json(f"{server}/api/tables/{table_id}")
            assert summary["game"] == GENERIC_GAME
            assert summary["options"] == {"big_pile": True, "last_bonus": 4, "house_rule": "first_print"}

            page.click("#play-seat-0")
            page.wait_for_selector("body[data-seq]")
            assert page.get_attribute("body", "data-view") == "generic"
            assert page.is_visible("#generic") and not page.is_visible("#board")
            clicked_at = None
            for _ in range(60):
                page.wait_for_function(
                    "(seq) => document.body.dataset.terminal === 'true' || "
                    "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
                    arg=str(clicked_at), timeout=STEP_TIMEOUT_MS)
                if page.evaluate("document.body.dataset.terminal") == "true":
                    break
                legal = page.evaluate("window.citygames.last.legal.map(a => a.id)")
                buttons = page.eval_on_selector_all("#actions button[data-action]", "bs => bs.map(b => Number(b.dataset.action))")
                assert buttons == legal
                seq = page.evaluate("document.body.dataset.seq")
                page.locator("#actions button[data-action]").first.click()
                clicked_at = seq
            else:
                pytest.fail("the toy game did not end")
            page.wait_for_selector("#score-overlay #scoresheet")
            page.screenshot(path=str(ARTIFACTS / "12-generic-end.png"))
            summary = _get_json(f"{server}/api/tables/{table_id}")
            totals = [int(page.locator(f'#score-overlay td.total[data-seat="{p}"]').inner_text()) for p in range(2)]
            assert totals == summary["result"]["scores"]
            assert page.locator("#log .entry").count() > 0

            page.goto(f"{server}/replay/{table_id}")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `0 / ${n}`",
                                   arg=summary["seq"])
            page.keyboard.press("End")
            page.wait_for_selector("#score-card:not([hidden]) #scoresheet")
            assert page.is_visible("#generic") and not page.is_visible("#board")
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
