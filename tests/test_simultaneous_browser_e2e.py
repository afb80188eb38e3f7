"""End to end in a real browser: a simultaneous step on the generic table page (the toy game
``toy_sim``, "Sealed bids", which has no view module of its own).

Two human seats in two pages (Ann at 1366 x 900, Bob on a 390 x 844 phone screen) and a greedy
bot. The bot chooses at once; each page shows "N of M have chosen" and who, by name; Ann chooses,
sees "You chose ..." and changes her choice; Bob's page never learns what she chose; when the last
seat has chosen the bids are revealed in both logs. Then the game is played to the end by clicking.

Reuses the server fixture of ``test_browser_e2e`` (``citygames serve`` as a subprocess with the toy
games registered, Debian's Chromium driven by Playwright). Screenshots go to
``test-artifacts/simultaneous_e2e/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

pytestmark = base.pytestmark

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "simultaneous_e2e"
TIMEOUT_MS = 20000


def _create(server: str) -> dict:
    body = {"game": "toy_sim", "seed": 31, "options": {"num_players": 3},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                      {"kind": "bot", "bot": "greedy"}]}
    return base.create_table(server, body)


def _bid_id(page, coins: int) -> str:
    return page.evaluate("(c) => String(window.citygames.last.legal.find(a => a.kind === 'bid' && a.arg === c).id)",
                         coins)


def _wait(page, js: str, arg=None):
    page.wait_for_function(js, arg=arg, timeout=TIMEOUT_MS)


def test_choose_change_and_wait_in_a_simultaneous_step(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    table = _create(server)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ann = browser.new_page(viewport={"width": 1366, "height": 900})
            bob = browser.new_page(viewport={"width": 390, "height": 844})
            for page in (ann, bob):
                watch_errors(page, errors)
            ann.goto(server + table["seats"][0]["join_url"])
            bob.goto(server + table["seats"][1]["join_url"])
            for page in (ann, bob):
                # the bot has chosen already: it waits for nobody
                _wait(page, "() => document.body.dataset.chosen === '1/3'")
                assert page.get_attribute("body", "data-view") == "generic"
                assert page.get_attribute("body", "data-mine") == "true"
                assert "Your choice" in page.inner_text("#turn-who")
                assert page.inner_text("#sim-count") == "1 of 3 has chosen"
                assert page.locator('#turn-sim .chooser.done[data-seat="2"]').count() == 1
                assert page.locator("#turn-sim .chooser.waiting").count() == 2
                assert page.locator("#actions button[data-kind=bid]").count() == 4
                assert page.is_hidden("#undo") and page.locator("#change-choice").count() == 0
            ann.screenshot(path=str(ARTIFACTS / "01-ann-to-choose.png"))

            # Ann bids 2: she sees her choice and a Change button; Bob sees that she chose, not what
            ann.click(f'#actions button[data-action="{_bid_id(ann, 2)}"]')
            _wait(ann, "(id) => document.body.dataset.myChoice === id", _bid_id(bob, 2))
            assert "You chose bid 2 coins" in ann.inner_text("#my-choice")
            assert ann.get_attribute("body", "data-mine") == "false"
            assert ann.locator("#actions button").count() == 0
            assert "waiting for the others" in ann.inner_text("#turn-who")
            _wait(bob, "() => document.body.dataset.chosen === '2/3'")
            assert bob.inner_text("#sim-count") == "2 of 3 have chosen"
            assert "Ann ✓" in bob.inner_text("#turn-sim") and "bid" not in bob.inner_text("#turn-sim")
            last = bob.evaluate("window.citygames.last")
            assert last["my_choice"] is None and "my_bid" not in last["observation"]
            assert last["chosen"] == [0, 2]
            ann.screenshot(path=str(ARTIFACTS / "02-ann-chose.png"))
            bob.screenshot(path=str(ARTIFACTS / "03-bob-phone-waiting-for-him.png"), full_page=True)

            # Ann changes her mind: her choice is taken back, she chooses again
            ann.click("#change-choice")
            _wait(ann, "() => document.body.dataset.mine === 'true' && document.body.dataset.chosen === '1/3'")
            _wait(bob, "() => document.body.dataset.chosen === '1/3'")
            ann.click(f'#actions button[data-action="{_bid_id(ann, 1)}"]')
            _wait(ann, "(id) => document.body.dataset.myChoice === id", _bid_id(bob, 1))

            # Bob chooses last: the bids are revealed to everybody
            bob.click(f'#actions button[data-action="{_bid_id(bob, 3)}"]')
            for page in (ann, bob):
                _wait(page, "() => document.body.dataset.simultaneous === 'false'")
                reveal = page.locator('#log .entry[data-kind="simtoy.reveal"]').first.inner_text()
                assert "seat 0 bids 1, seat 1 bids 3" in reveal

            # the rest of the game by clicking the first button of whoever may act
            for _ in range(60):
                if all(p.get_attribute("body", "data-terminal") == "true" for p in (ann, bob)):
                    break
                acted = False
                for page in (ann, bob):
                    if page.get_attribute("body", "data-mine") != "true" or not page.locator("#actions button").count():
                        continue
                    seq, step = page.evaluate("[window.citygames.last.seq, window.citygames.last.step_seq]")
                    choice = page.get_attribute("body", "data-simultaneous") == "true"
                    page.locator("#actions button").first.click()
                    if choice:   # answered once the choice is in, or the step it closed is over
                        _wait(page, "(s) => { const m = window.citygames.last;"
                                    " return m.terminal || m.my_choice !== null || m.step_seq !== s; }", step)
                    else:
                        _wait(page, "(s) => window.citygames.last.seq !== s", seq)
                    acted = True
                if not acted:   # the bot is thinking
                    _wait(ann, "() => document.body.dataset.mine === 'true' || document.body.dataset.terminal === 'true'"
                               " || document.body.dataset.simultaneous === 'true'")
                    _wait(bob, "() => document.body.dataset.mine === 'true' || document.body.dataset.terminal === 'true'"
                               " || document.body.dataset.simultaneous === 'true'")
            for page in (ann, bob):
                _wait(page, "() => document.body.dataset.terminal === 'true'")
                page.wait_for_selector("#score-overlay #scoresheet")
            ann.screenshot(path=str(ARTIFACTS / "04-ann-end.png"))
            bob.screenshot(path=str(ARTIFACTS / "05-bob-phone-end.png"))
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
