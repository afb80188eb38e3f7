"""A player chooses "hard" for a seat in the lobby and plays against it (issue 12, "Done when"):
headless Chromium, a real ``citygames serve``. The lobby lists the difficulty levels first; while
the hard bot searches, the turn card says it is thinking; it answers every move.

Reuses the ``citygames serve`` fixture of ``test_browser_e2e``. Screenshots go to
``test-artifacts/levels_e2e/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors
from test_social_e2e import _move

server = base.server   # the module-scoped `citygames serve` fixture

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "levels_e2e"
TIMEOUT_MS = 30000


def test_a_player_chooses_hard_in_the_lobby_and_plays_against_it(server):
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            watch_errors(page, errors)
            page.goto(server + "/")
            page.wait_for_selector("#seat-kind-1 option", state="attached")
            page.select_option("#game", "seven_wonders_duel")
            groups = page.locator("#seat-kind-1 optgroup")
            assert groups.first.get_attribute("label") == "Bots by difficulty"
            levels = groups.first.locator("option")
            assert [levels.nth(i).get_attribute("value") for i in range(levels.count())] == \
                ["bot:easy", "bot:medium", "bot:hard", "bot:expert"]
            assert "1.5 s" in levels.nth(2).get_attribute("title")
            page.select_option("#seat-kind-0", "human")
            page.fill("#seat-name-0", "Ann")
            page.select_option("#seat-kind-1", "bot:hard")
            page.fill("#seed", "4")
            page.click("#create")
            page.wait_for_selector("#play-seat-0")
            page.click("#play-seat-0")
            page.wait_for_selector("body[data-seq]")
            assert "bot · hard" in page.inner_text("#players-list")
            thought = False
            for _ in range(5):   # five moves of Ann's, each answered by the hard bot
                page.wait_for_selector("body[data-mine=true]", timeout=TIMEOUT_MS)
                _move(page)
                try:
                    page.wait_for_selector("body[data-thinking='1']", timeout=3000)
                except Exception:   # the bot's move was forced (one legal action): no search
                    continue
                if not thought:
                    assert "is thinking" in page.inner_text("#turn-thinking")
                    page.screenshot(path=str(ARTIFACTS / "thinking.png"))
                thought = True
            page.wait_for_selector("body[data-mine=true]", timeout=TIMEOUT_MS)
            assert thought
            assert page.locator("#turn-thinking").is_hidden()
            assert int(page.get_attribute("body", "data-seq")) >= 10
        finally:
            browser.close()
    assert not errors, errors
