"""A phone (issue 15, defect 2): at 390 x 844 with touch, a whole 7 Wonders Duel game played by
tapping board targets and the details panel's commit button (never the action list) against a
greedy bot, to the final score sheet; a tap only selects (the details panel shows what it is),
the second control commits; the lobby and the table never scroll sideways; a few turns of The
Capitals by tapping, with a "why not?" on a greyed initiative space when one shows.

Reuses the server fixture of ``test_browser_e2e`` (``citygames serve`` as a subprocess, Chromium).
Screenshots go to ``test-artifacts/phone/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import test_browser_e2e as base
from test_browser_e2e import _get_json as get_json
from test_browser_e2e import _watch_errors as watch_errors
from test_browser_e2e import create_table

server = base.server

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "phone"
PHONE = {"width": 390, "height": 844}
MAX_TURNS = 200
STEP_MS = 20000

pytestmark = base.pytestmark

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"

# the first board target of seat 0: a legal element with an action, else an accessible card (pick)
TARGET = r"""
() => {
  const board = [...document.querySelectorAll('#board .legal[data-action]')];
  if (board.length) return {id: board[0].dataset.action, kind: board[0].dataset.kind, where: 'board'};
  const pick = document.querySelector('#board .pick[data-slot]');
  if (pick) return {slot: pick.dataset.slot, card: pick.dataset.card, where: 'pick'};
  return null;
}
"""


def _phone(browser):
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    return ctx, ctx.new_page()


def _wait_mine(page, clicked_at):
    page.wait_for_function(
        "(seq) => document.body.dataset.terminal === 'true' || "
        "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
        arg=str(clicked_at), timeout=STEP_MS)


def test_whole_duel_on_a_phone_by_tapping(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ctx, page = _phone(browser)
            watch_errors(page, errors)
            # --- the lobby fits the screen
            page.goto(server + "/")
            page.wait_for_selector("#seat-kind-0 option", state="attached")
            page.select_option("#game", "seven_wonders_duel")
            page.wait_for_selector("#opt-first_game_wonders")
            assert page.evaluate(NO_SIDEWAYS), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            page.screenshot(path=str(ARTIFACTS / "01-lobby.png"), full_page=True)
            t = create_table(server, {"game": "seven_wonders_duel", "seed": 3,
                                      "seats": [{"kind": "human", "name": "Phone"}, {"kind": "bot", "bot": "greedy"}]})
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            assert page.evaluate("matchMedia('(hover: none)').matches")
            # board first, the turn card right under it, at full width
            board = page.locator("#board").bounding_box()
            turn = page.locator("#turn-card").bounding_box()
            assert board["width"] >= PHONE["width"] - 12 and turn["y"] >= board["y"] + board["height"] - 2
            clicked_at = None
            taps = sheets = 0
            shots: set[str] = set()
            for _ in range(MAX_TURNS):
                _wait_mine(page, clicked_at)
                if page.evaluate("document.body.dataset.terminal") == "true":
                    break
                assert page.evaluate(NO_SIDEWAYS)
                obs = page.evaluate("window.citygames.last.observation")
                legal = page.evaluate("window.citygames.last.legal")
                target = page.evaluate(TARGET)
                assert target is not None, f"nothing to tap ({obs['phase']})"
                seq = page.evaluate("document.body.dataset.seq")
                if target["where"] == "pick":
                    page.locator(f'#board .pick[data-slot="{target["slot"]}"]').tap()
                    offered = page.locator("#details button.commit[data-action]")
                else:
                    page.locator(f'#board .legal[data-action="{target["id"]}"]').first.tap()
                    offered = page.locator("#details button.commit[data-action]")
                offered.first.wait_for()
                # the tap only selected: nothing was sent, the details panel explains and offers
                assert page.evaluate("document.body.dataset.seq") == seq
                assert page.locator("#details .details-body").inner_text().strip(), target
                ids = {offered.nth(i).get_attribute("data-action") for i in range(offered.count())}
                assert ids <= {str(a["id"]) for a in legal}
                sheets += 1
                name = "02-draft-sheet" if obs["phase"] == "draft" else f"03-age{obs['age']}-sheet"
                if name not in shots:
                    shots.add(name)
                    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
                if target["where"] == "pick" and "04-greyed" not in shots and page.locator("#details .whynot-choice").count():
                    page.locator("#details .whynot-choice").first.tap()
                    page.wait_for_selector("#details .details-why.no")
                    assert page.locator("#details .details-why").inner_text().startswith("Not allowed:")
                    shots.add("04-greyed")
                    page.screenshot(path=str(ARTIFACTS / "04-why-not.png"))
                page.locator("#details button.commit").first.tap()
                taps += 1
                clicked_at = seq
            else:
                pytest.fail(f"the game did not end within {MAX_TURNS} decisions")
            assert taps >= 15 and sheets == taps
            page.wait_for_selector("#score-overlay #scoresheet")
            page.screenshot(path=str(ARTIFACTS / "05-end.png"))
            summary = get_json(f"{server}/api/tables/{t['table_id']}")
            assert summary["status"] == "finished"
            totals = [int(page.locator(f'#score-overlay td.total[data-seat="{p}"]').inner_text()) for p in range(2)]
            assert totals == summary["result"]["scores"]
            assert page.evaluate(NO_SIDEWAYS)
            page.locator("#score-overlay button.primary").tap()
            page.screenshot(path=str(ARTIFACTS / "06-end-page.png"), full_page=True)
            # the lobby with tables listed still fits the screen
            page.goto(server + "/")
            page.wait_for_selector(f'#finished-tables tr[data-table="{t["table_id"]}"]')
            assert page.evaluate(NO_SIDEWAYS), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            page.screenshot(path=str(ARTIFACTS / "07-lobby-lists.png"), full_page=True)
            ctx.close()
        finally:
            browser.close()
    assert not errors, "\n".join(errors)


def test_capitals_on_a_phone_a_few_turns(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ctx, page = _phone(browser)
            watch_errors(page, errors)
            t = create_table(server, {"game": "the_capitals", "seed": 7, "options": {"num_players": 3},
                                      "seats": [{"kind": "human", "name": "Phone"}, {"kind": "bot", "bot": "greedy"},
                                                {"kind": "bot", "bot": "greedy"}]})
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            clicked_at = None
            done = 0
            asked = False
            for _ in range(40):
                _wait_mine(page, clicked_at)
                assert page.evaluate(NO_SIDEWAYS)
                seq = page.evaluate("document.body.dataset.seq")
                greyed = page.locator("#board .space.whynot")
                if not asked and greyed.count():
                    greyed.first.tap()
                    page.wait_for_selector("#details .details-why.no")
                    reason = page.locator("#details .details-why").inner_text()
                    assert "taken" in reason or "players" in reason, reason
                    page.screenshot(path=str(ARTIFACTS / "12-capitals-why.png"))
                    page.locator("#details button.cancel").tap()
                    asked = True
                target = page.evaluate(TARGET)
                if target is None:
                    page.locator("#actions button[data-action]").first.tap()
                else:
                    page.locator(f'#board .legal[data-action="{target["id"]}"]').first.tap()
                    page.locator("#details button.commit").first.wait_for()
                    assert page.evaluate("document.body.dataset.seq") == seq   # a tap only selects
                    if done == 0:
                        page.screenshot(path=str(ARTIFACTS / "11-capitals-sheet.png"))
                    page.locator("#details button.commit").first.tap()
                    done += 1
                clicked_at = seq
                if done >= 6 and asked:
                    break
            assert done >= 6
            page.wait_for_function("(s) => document.body.dataset.seq !== s", arg=str(clicked_at), timeout=STEP_MS)
            page.screenshot(path=str(ARTIFACTS / "13-capitals-page.png"), full_page=True)
            ctx.close()
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
