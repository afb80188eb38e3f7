"""End to end in a real browser: Between Two Cities on its own board view
(static/between_two_cities.js).

A 3-player table (seat 0 human, seats 1 and 2 greedy bots) is played to the end by clicking the
board only: in a singles round two tiles of the hand, then "Choose these two"; in round 2 the
duplex to discard; then the highlighted squares of the player's cities to place each tile or
duplex. The same seat is open on a 390 x 844 phone screen too, where the first choice is made.
Checked on the way: the bots choosing at once ("2 of 3 have chosen"), the chosen tiles revealed in
the log, every action drawn on the board (no buttons), the tiles placed appearing in the cities,
full cities at the end, the final table (every city, the lower-city rule, the winner) and the score
sheet agreeing with the server's result. (The bots always choose first here, so the human's choice
closes each step at once; changing a choice is played in test_simultaneous_browser_e2e.)

Reuses the server fixture of ``test_browser_e2e`` (``citygames serve`` as a subprocess, Debian's
Chromium at ``/usr/bin/chromium`` driven by Playwright; skipped when Chromium is absent).
Screenshots go to ``test-artifacts/btc_e2e/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import test_browser_e2e as base
from test_browser_e2e import _get_json as get_json
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

pytestmark = base.pytestmark

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "btc_e2e"
TIMEOUT_MS = 20000
MAX_DECISIONS = 80       # seat 0 makes 3 x 3 choices + 18 placements + 1 discard at 3 players

# Seat 0's next decision: its turn at a step not yet answered, or the end. Steps are told apart by
# the seq they opened at (``step_seq``), not by ``seq``: in a choose step the bots' choices move
# ``seq`` on while seat 0 is still to choose, so a page still showing the step just answered (its
# answer not yet back) must not count as a new decision.
WAIT_MINE = ("(step) => document.body.dataset.terminal === 'true' || (document.body.dataset.mine === 'true'"
             " && window.citygames.last.step_seq !== step)")


def _create(server: str) -> dict:
    body = {"game": "between_two_cities", "seed": 17, "options": {"num_players": 3},
            "seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"},
                      {"kind": "bot", "bot": "greedy"}]}
    return base.create_table(server, body)


def _choose_two(page, first: int, second: int) -> None:
    """Select hand tiles ``first`` and ``second`` and confirm."""
    picks = page.locator("#board .btc-pick.pickable")
    picks.nth(first).click()
    picks.nth(second).click()
    page.locator("#board .btc-confirm.legal").click()


def _tiles_on_board(page) -> int:
    return page.locator("#board .btc-city .btc-sq .btc-tile").count()


def test_play_between_two_cities_by_clicking(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    table = _create(server)
    url = server + table["seats"][0]["join_url"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            for p in (page, phone):
                watch_errors(p, errors)
                p.goto(url)
                p.wait_for_selector("#board .btc-city")
                assert p.get_attribute("body", "data-view") == "between_two_cities"
            # the bots have chosen at once; three cities, each between two players
            for p in (page, phone):
                p.wait_for_function("() => document.body.dataset.chosen === '2/3'", timeout=TIMEOUT_MS)
                assert p.locator("#board .btc-city").count() == 3
                assert p.inner_text("#sim-count") == "2 of 3 have chosen"
                assert p.locator("#board .btc-pick.pickable").count() == 7
            page.screenshot(path=str(ARTIFACTS / "01-desktop-choose.png"))
            phone.screenshot(path=str(ARTIFACTS / "02-phone-choose.png"), full_page=True)

            # the first choice on the phone, then a change of mind on the desktop
            hand = phone.evaluate("window.citygames.last.observation.hand")
            _choose_two(phone, 0, 1)
            for p in (page, phone):
                p.wait_for_function("() => document.body.dataset.myChoice !== '' || document.body.dataset.simultaneous === 'false'",
                                    timeout=TIMEOUT_MS)
            # the last to choose closes the step at once: the two bots chose first, so the reveal follows
            page.wait_for_function("() => document.body.dataset.simultaneous === 'false'", timeout=TIMEOUT_MS)
            reveal = page.locator('#log .entry[data-kind="between_two_cities.reveal"]').first.inner_text()
            chosen = sorted(hand[:2])
            names = get_json(f"{server}/api/games/between_two_cities/components?num_players=3")["kinds"]
            assert all(names[k]["name"] in reveal for k in chosen), reveal

            answered = None   # the step_seq of seat 0's last decision
            decisions = chose = placed = discarded = 0
            shots = {"mid": False, "duplex": False}
            for _ in range(MAX_DECISIONS):
                page.wait_for_function(WAIT_MINE, arg=answered, timeout=TIMEOUT_MS)
                if page.get_attribute("body", "data-terminal") == "true":
                    break
                last = page.evaluate("window.citygames.last")
                answered = last["step_seq"]
                kinds = {a["kind"] for a in last["legal"]}
                assert not page.locator("#actions button").count(), "every action has its place on the board"
                if "choose" in kinds:
                    # the bots choose without waiting for the human (on a busy machine they may still be at it)
                    page.wait_for_function("() => document.body.dataset.chosen === '2/3'", timeout=TIMEOUT_MS)
                    _choose_two(page, decisions % 2, 2)
                    chose += 1
                elif "discard_duplex" in kinds:
                    if not shots["duplex"]:
                        page.screenshot(path=str(ARTIFACTS / "04-desktop-duplexes.png"))
                        shots["duplex"] = True
                    page.locator("#board .btc-dslot.legal").first.click()
                    discarded += 1
                else:
                    assert kinds <= {"place", "place_duplex"}, kinds
                    before = _tiles_on_board(page)
                    squares = page.locator("#board .btc-sq.legal")
                    assert squares.count() >= 1
                    squares.first.click()
                    page.wait_for_function("(n) => document.querySelectorAll('#board .btc-city .btc-sq .btc-tile').length > n",
                                           arg=before, timeout=TIMEOUT_MS)
                    placed += 1
                    if not shots["mid"] and last["observation"]["round"] == 2:
                        page.screenshot(path=str(ARTIFACTS / "03-desktop-round-2.png"))
                        phone.screenshot(path=str(ARTIFACTS / "05-phone-round-2.png"), full_page=True)
                        shots["mid"] = True
                decisions += 1
            else:
                pytest.fail(f"the game did not end within {MAX_DECISIONS} decisions of seat 0")
            assert (chose, discarded, placed) == (2 + 3, 1, 2 * 3 + 2 + 2 * 3)

            # the end: the final table on the board, the score sheet as the server says
            page.wait_for_selector("#score-overlay #scoresheet")
            summary = get_json(f"{server}/api/tables/{table['table_id']}")
            assert summary["status"] == "finished"
            result = summary["result"]
            totals = [int(page.locator(f'#score-overlay td.total[data-seat="{p}"]').inner_text()) for p in range(3)]
            assert totals == result["scores"]
            page.screenshot(path=str(ARTIFACTS / "06-desktop-end.png"))
            page.click("#score-overlay button.primary")
            final = page.locator("#board #btc-final")
            assert final.locator(".btc-final-city").count() == 3 and final.locator(".btc-final-seat").count() == 3
            text = page.evaluate("document.getElementById('btc-final').textContent")
            assert "lower of their two cities" in text and "wins" in text
            obs = page.evaluate("window.citygames.last.observation")
            for c in obs["cities"]:
                assert len([k for k in c["cells"] if k]) == 4 * 4   # every city full at 3 players
            page.screenshot(path=str(ARTIFACTS / "07-desktop-final-table.png"))
            phone.wait_for_function("() => document.body.dataset.terminal === 'true'", timeout=TIMEOUT_MS)
            phone.wait_for_selector("#score-overlay #scoresheet")
            phone.click("#score-overlay button.primary")
            phone.screenshot(path=str(ARTIFACTS / "08-phone-end.png"), full_page=True)

            # the replay viewer draws the same board for a spectator, step by step
            steps = summary["seq"]
            page.goto(f"{server}/replay/{table['table_id']}")
            page.wait_for_function("(n) => document.getElementById('stepno').textContent.trim() === `0 / ${n}`",
                                   arg=steps)
            page.wait_for_selector("#board .btc-city")
            page.keyboard.press("End")
            page.wait_for_selector("#board #btc-final")
            assert page.locator("#board .legal").count() == 0
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
