"""'Why can't I do this?' on a greyed Capitals city tile (issue 15, rules help), in a real browser:
in the executive phase a tile of the player's own city that cannot be activated now is greyed (a
"?" badge, class ``whynot``); on a desktop (1366 x 900) hovering it shows its tooltip ending with
"why not? click" and a click shows the engine's reason in the details panel without playing; on a
phone (390 x 844, touch) a tap does the same. The seat plays its first board target each turn
against a greedy bot until such a tile shows.

Reuses the server fixture of ``test_browser_e2e``. Screenshots go to ``test-artifacts/whynot/``
(git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors
from test_browser_e2e import create_table

server = base.server

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "whynot"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
STEP_MS = 20000
MAX_TURNS = 60

pytestmark = base.pytestmark

GREYED = "#board g.city .ctile.whynot[data-why-kind='activate']"


def _wait_mine(page, clicked_at):
    page.wait_for_function(
        "(seq) => document.body.dataset.terminal === 'true' || "
        "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
        arg=str(clicked_at), timeout=STEP_MS)


def _to_greyed_tile(page, phone: bool) -> str:
    """Play seat 0's first board target (else its first action button) until a greyed city tile
    shows in the executive phase; returns the seq of that state."""
    clicked_at = None
    for _ in range(MAX_TURNS):
        _wait_mine(page, clicked_at)
        assert page.evaluate("document.body.dataset.terminal") != "true"
        seq = page.evaluate("document.body.dataset.seq")
        if page.locator(GREYED).count():
            return seq
        board = page.locator("#board .legal[data-action]")
        if board.count():
            if phone:
                board.first.tap()
                page.locator("#details button.commit").first.tap()
            else:
                board.first.click()
        else:
            btn = page.locator("#actions button[data-action]").first
            btn.tap() if phone else btn.click()
        clicked_at = seq
    raise AssertionError("no greyed city tile in the executive phase")


def _game(server):
    return create_table(server, {"game": "the_capitals", "seed": 0, "options": {"num_players": 2},
                                 "seats": [{"kind": "human", "name": "Asker"}, {"kind": "bot", "bot": "greedy"}]})


def _check_reason(page, seq):
    page.wait_for_selector("#details .details-why.no")
    reason = page.locator("#details .details-why").inner_text()
    assert reason.startswith("Not allowed: executive: "), reason
    # the rule in words: the cost the city lacks, the cubes, or no activation effect
    assert any(w in reason for w in ("(the city has ", "the plant holds", "no activation effect",
                                     "no activations left")), reason
    assert page.evaluate("document.body.dataset.seq") == seq     # asking played nothing
    return reason


def test_greyed_city_tile_says_why_on_desktop(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=DESKTOP)
            watch_errors(page, errors)
            t = _game(server)
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            seq = _to_greyed_tile(page, phone=False)
            tile = page.locator(GREYED).first
            assert tile.locator(".whybadge").count() == 1
            tile.hover()
            page.wait_for_selector(".tip .whyhint")
            assert page.locator(".tip .whyhint").inner_text() == "why not? click"
            assert tile.evaluate("n => getComputedStyle(n).cursor") == "help"
            page.screenshot(path=str(ARTIFACTS / "desktop-hover.png"))
            tile.click()
            reason = _check_reason(page, seq)
            name = tile.get_attribute("data-tile")
            assert name
            page.screenshot(path=str(ARTIFACTS / "desktop-reason.png"))
            page.locator("#details button.cancel").click()
            assert page.locator("#details").is_hidden()
            # the seat can still play: the board's legal targets are there, same seq
            assert page.evaluate("document.body.dataset.seq") == seq and reason
        finally:
            browser.close()
    assert not errors, "\n".join(errors)


def test_greyed_city_tile_says_why_on_a_phone(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
            page = ctx.new_page()
            watch_errors(page, errors)
            t = _game(server)
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            seq = _to_greyed_tile(page, phone=True)
            page.locator(GREYED).first.tap()
            _check_reason(page, seq)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            page.screenshot(path=str(ARTIFACTS / "phone-reason.png"))
            page.locator("#details button.cancel").tap()
            assert page.locator("#details").is_hidden()
            ctx.close()
        finally:
            browser.close()
    assert not errors, "\n".join(errors)


def test_duel_progress_token_says_why_on_desktop(server):
    """7 Wonders Duel at 1366 x 900: on a card turn a progress token of the board is greyed; its
    tooltip ends with "why not? click" and a click names the science-pair rule."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    token = "#board .ptoken.whynot[data-why-kind='progress']"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=DESKTOP)
            watch_errors(page, errors)
            t = create_table(server, {"game": "seven_wonders_duel", "seed": 2,
                                      "seats": [{"kind": "human", "name": "Asker"}, {"kind": "bot", "bot": "greedy"}]})
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            clicked_at = None
            for _ in range(MAX_TURNS):
                _wait_mine(page, clicked_at)
                seq = page.evaluate("document.body.dataset.seq")
                if page.locator(token).count():
                    break
                board = page.locator("#board .legal[data-action]")
                if board.count():
                    board.first.click()
                else:
                    page.locator("#actions button[data-action]").first.click()
                clicked_at = seq
            else:
                raise AssertionError("no card turn with a progress token")
            tok = page.locator(token).first
            tok.hover()
            page.wait_for_selector(".tip .whyhint")
            assert "progress token" in page.locator(".tip").inner_text()
            page.screenshot(path=str(ARTIFACTS / "duel-hover.png"))
            tok.click()
            page.wait_for_selector("#details .details-why.no")
            reason = page.locator("#details .details-why").inner_text()
            assert "pair of identical science symbols" in reason, reason
            assert page.evaluate("document.body.dataset.seq") == seq
            page.screenshot(path=str(ARTIFACTS / "duel-reason.png"))
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
