"""End to end in a real browser: 7 Wonders Duel created in the lobby (one human seat, a greedy bot),
the wonder draft and the whole game played by clicking the board (the first highlighted element
each time; an accessible card opens its choice menu, whose first choice is clicked), the final
score sheet checked against the server, then the replay viewer.

Reuses the server fixture and helpers of ``test_browser_e2e`` (``citygames serve`` as a
subprocess, Debian's Chromium at ``/usr/bin/chromium`` driven by Playwright). Screenshots go to
``test-artifacts/duel_e2e/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import test_browser_e2e as base
from test_browser_e2e import _get_json as get_json
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "duel_e2e"
MAX_TURNS = 200          # decisions of seat 0 (a game takes about 40)
STEP_TIMEOUT_MS = 20000

pytestmark = base.pytestmark

# What seat 0 clicks: the first highlighted board element with an action; else the first
# accessible card of the structure (it opens the choice menu); else the first action button.
CHOOSE = r"""
() => {
  const board = [...document.querySelectorAll('#board .legal[data-action]')];
  if (board.length) return {id: board[0].dataset.action, kind: board[0].dataset.kind, where: 'board'};
  const pick = document.querySelector('#board .pick[data-slot]');
  if (pick) return {slot: pick.dataset.slot, card: pick.dataset.card, where: 'pick'};
  const buttons = [...document.querySelectorAll('#actions button[data-action]')];
  if (buttons.length) return {id: buttons[0].dataset.action, kind: buttons[0].dataset.kind, where: 'button'};
  return null;
}
"""


def test_play_seven_wonders_duel_by_clicking(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            watch_errors(page, errors)

            # --- the lobby: 7 Wonders Duel, seat 0 human, seat 1 a greedy bot
            page.goto(server + "/")
            page.wait_for_selector("#seat-kind-0 option", state="attached")
            page.select_option("#game", "seven_wonders_duel")
            page.wait_for_selector("#opt-first_game_wonders")
            assert page.is_disabled("#num-players") and page.locator(".seat-row").count() == 2
            assert not page.is_checked("#opt-first_game_wonders")  # the draft is played
            page.select_option("#seat-kind-0", "human")
            page.fill("#seat-name-0", "Tester")
            page.select_option("#seat-kind-1", "bot:greedy")
            page.fill("#seed", "3")
            page.click("#create")
            page.wait_for_selector("#play-seat-0")
            table_id = page.get_attribute("#created-table", "data-table")
            summary = get_json(f"{server}/api/tables/{table_id}")
            assert summary["game"] == "seven_wonders_duel"

            # --- the table: every decision of seat 0 by clicking the board
            page.click("#play-seat-0")
            page.wait_for_selector("body[data-seq]")
            assert page.get_attribute("body", "data-view") == "seven_wonders_duel"
            clicked_at = None
            shots: set[str] = set()
            kinds: dict[str, int] = {}
            menus = 0
            for _ in range(MAX_TURNS):
                page.wait_for_function(
                    "(seq) => document.body.dataset.terminal === 'true' || "
                    "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
                    arg=str(clicked_at), timeout=STEP_TIMEOUT_MS)
                if page.evaluate("document.body.dataset.terminal") == "true":
                    break
                obs = page.evaluate("window.citygames.last.observation")
                legal = page.evaluate("window.citygames.last.legal")
                # every legal action has its place on the board: no leftover buttons
                assert page.locator("#actions button").count() == 0, [a["text"] for a in legal]
                left = sum(1 for s in obs["structure"] if not s["taken"])
                for name, cond in (("01-draft", obs["phase"] == "draft"),
                                   ("02-age1-mid", obs["age"] == 1 and obs["phase"] == "play" and left <= 12),
                                   ("04-age2", obs["age"] == 2 and obs["phase"] == "play"),
                                   ("05-age3", obs["age"] == 3 and obs["phase"] == "play"),
                                   ("06-" + obs["phase"], obs["phase"] not in ("draft", "play"))):
                    if cond and name not in shots:
                        shots.add(name)
                        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
                choice = page.evaluate(CHOOSE)
                assert choice is not None, f"seat 0 is to move but nothing is clickable ({obs['phase']})"
                seq = page.evaluate("document.body.dataset.seq")
                if choice["where"] == "pick":
                    # an accessible card: its menu offers construct / discard / wonders
                    card = page.locator(f'#board .pick[data-slot="{choice["slot"]}"]')
                    card.click()
                    menu = page.locator("#board .choice-menu .legal[data-action]")
                    menu.first.wait_for()
                    offered = {page.locator("#board .choice-menu .legal[data-action]").nth(i).get_attribute("data-action")
                               for i in range(menu.count())}
                    for_card = {str(a["id"]) for a in legal if a.get("card") == int(choice["card"])
                                and a["kind"] in ("construct", "discard", "wonder")}
                    assert offered == for_card, (offered, for_card)
                    if menus == 0:
                        page.screenshot(path=str(ARTIFACTS / "03-card-menu.png"))
                    menus += 1
                    kind = menu.first.get_attribute("data-kind")
                    menu.first.click()
                elif choice["where"] == "board":
                    kind = choice["kind"]
                    page.locator(f'#board .legal[data-action="{choice["id"]}"]').first.click()
                else:
                    kind = choice["kind"]
                    page.locator(f'#actions button[data-action="{choice["id"]}"]').click()
                kinds[kind] = kinds.get(kind, 0) + 1
                clicked_at = seq
            else:
                pytest.fail(f"the game did not end within {MAX_TURNS} decisions of seat 0")
            assert kinds.get("draft") and kinds.get("construct"), kinds
            assert menus >= 10

            # --- the end: the score sheet equals the server's scores; the board's winner line
            page.wait_for_selector("#score-overlay #scoresheet")
            page.screenshot(path=str(ARTIFACTS / "07-end.png"))
            summary = get_json(f"{server}/api/tables/{table_id}")
            assert summary["status"] == "finished"
            result = summary["result"]
            sheet = page.locator("#score-overlay #scoresheet")
            totals = [int(sheet.locator(f'td.total[data-seat="{p}"]').inner_text()) for p in range(2)]
            assert totals == result["scores"]
            for p in range(2):
                assert sum(result["breakdown"][p].values()) == totals[p]
            labels = sheet.locator("tbody tr[data-category] td:first-child").all_inner_texts()
            assert "Wonders" in labels and "Progress tokens" in labels and len(labels) == 8
            obs = page.evaluate("window.citygames.last.observation")
            victory = obs["result"]["victory"]
            line = page.locator("#board .winner-line")
            assert line.get_attribute("data-victory") == victory
            assert victory in line.text_content() or victory == "shared"
            board_totals = [int(page.locator(f'#board .final-total[data-seat="{p}"]').text_content()) for p in range(2)]
            assert board_totals == totals
            sub = page.inner_text("#score-overlay .sub")
            assert victory in sub or "Shared" in sub
            page.click("#score-overlay button.primary")
            page.screenshot(path=str(ARTIFACTS / "08-end-board.png"))

            # --- the replay viewer draws the same board for the spectator
            page.goto(f"{server}/replay/{table_id}")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `0 / ${n}`",
                                   arg=summary["seq"])
            page.wait_for_selector("#board .draft-wonder")
            page.keyboard.press("End")
            page.wait_for_selector("#score-card:not([hidden]) #scoresheet")
            page.wait_for_selector("#board .winner-line")
            page.screenshot(path=str(ARTIFACTS / "09-replay-end.png"))
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
