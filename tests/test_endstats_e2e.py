"""End-of-game statistics and the "How to play" pages in a real browser (issue 15, "End of game"
and "Rules help").

A bot-vs-bot table is played to the end by the server (``--bot-delay 0``); its table page, opened
as a spectator, shows on the final score card the points-over-time chart (one line per seat, a
category chooser), the "what each player took" table and the links to the replay and the record;
the replay viewer shows the same chart at its last step; the top bar links to the game's "How to
play" page, which opens in a new tab. Reuses the ``citygames serve`` fixture of
``test_browser_e2e``. Screenshots (desktop 1366 x 900, phone 390 x 844) go to
``test-artifacts/endstats_e2e/`` (git-ignored).
"""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

import test_browser_e2e as base
from server_helpers import wait_until
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "endstats_e2e"
TIMEOUT_MS = 30000
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

pytestmark = base.pytestmark


def _status(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status


def _finished_table(server: str, game: str, seats: int, seed: int) -> str:
    table = base.create_table(server, {"game": game, "seed": seed,
                                       "seats": [{"kind": "bot", "bot": "random"}] * seats})
    tid = table["table_id"]
    wait_until(lambda: base._get_json(f"{server}/api/tables/{tid}")["status"] == "finished", 60,
               "the bots finishing the game")
    return tid


def _open_finished(page, server: str, tid: str) -> None:
    page.goto(f"{server}/table/{tid}")
    page.wait_for_function("() => document.body.dataset.terminal === 'true'", timeout=TIMEOUT_MS)
    page.wait_for_selector("#end-stats svg.es-chart", timeout=TIMEOUT_MS)
    if page.locator("#score-overlay").count():
        page.locator("#score-overlay button.primary").click()   # the overlay's "Close"


# game, seats, seed, whether to look at the replay's last step and at a phone too (one game each, for time)
@pytest.mark.parametrize("game,seats,seed,replay,phone", [("seven_wonders_duel", 2, 4, True, False),
                                                          ("between_two_cities", 3, 6, False, True),
                                                          ("the_capitals", 3, 8, False, False)])
def test_a_finished_table_shows_the_chart_the_counts_and_the_links(server, game, seats, seed, replay, phone):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tid = _finished_table(server, game, seats, seed)
    stats = base._get_json(f"{server}/api/tables/{tid}/stats")
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport=DESKTOP)
            page = ctx.new_page()
            watch_errors(page, errors)
            _open_finished(page, server, tid)

            # the chart: one line per seat, one dot per point, in the seats' colours
            assert page.locator("#end-stats svg.es-chart polyline").count() == seats
            assert page.locator("#end-stats svg.es-chart g.es-seat").first.locator("circle").count() == len(stats["points"])
            titles = page.locator("#end-stats svg.es-chart g.es-seat[data-seat='0'] circle title").all_text_contents()
            assert titles[-1].endswith(f": {stats['final']['scores'][0]}")
            strokes = page.eval_on_selector_all("#end-stats svg.es-chart polyline", "els => els.map(e => e.getAttribute('stroke'))")
            assert len(set(strokes)) == seats
            # the chooser redraws it for one category
            cat = stats["categories"][0]
            page.select_option("#es-category", cat)
            want = stats["final"]["breakdown"][0][cat]
            page.wait_for_function("(w) => [...document.querySelectorAll(\"#end-stats g.es-seat[data-seat='0'] circle title\")]"
                                   ".pop().textContent.endsWith(': ' + w)", arg=want, timeout=5000)
            page.select_option("#es-category", "")

            # what each player took
            rows = page.locator("#end-stats table.es-taken tbody tr")
            assert rows.count() == len(stats["taken"])
            first = stats["taken"][0]
            cells = page.locator(f"#end-stats table.es-taken tr[data-count='{first['key']}'] td").all_text_contents()
            assert cells == [first["label"]] + [str(c) for c in first["counts"]]

            # the score sheet is still there, and the links work
            assert page.locator("#score-card #scoresheet").is_visible()
            replay = page.locator("#end-links a", has_text="Watch the replay")
            record = page.locator("#end-links a", has_text="Download the record")
            assert replay.get_attribute("href") == f"/replay/{tid}"
            assert record.get_attribute("href") == f"/api/tables/{tid}/record"
            assert _status(server + record.get_attribute("href")) == 200

            # How to play: in the top bar, opening the game's page in a new tab
            link = page.locator("#howto-link")
            assert link.is_visible() and link.get_attribute("target") == "_blank"
            assert link.get_attribute("href") == f"/rules/{game}"
            with ctx.expect_page() as new:
                link.click()
            rules = new.value
            rules.wait_for_load_state()
            assert rules.locator("article.howto h1").inner_text().startswith("How to play")
            rules.close()

            page.locator("#score-card").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"{game}_desktop.png"))
            page.locator("#score-card").screenshot(path=str(ARTIFACTS / f"{game}_score_card.png"))

            ctx.close()
            if replay:   # the replay viewer at its last step shows the chart too
                ctx = browser.new_context(viewport=DESKTOP)
                page = ctx.new_page()
                watch_errors(page, errors)
                page.goto(f"{server}/replay/{tid}#step={stats['steps']}")
                page.wait_for_selector("#end-stats svg.es-chart", timeout=TIMEOUT_MS)
                assert page.locator("#end-stats svg.es-chart polyline").count() == seats
                page.locator("#end-stats").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"{game}_replay_last_step.png"))
                ctx.close()
            if phone:
                ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                page = ctx.new_page()
                watch_errors(page, errors)
                _open_finished(page, server, tid)
                box = page.locator("#end-stats svg.es-chart").bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
                page.locator("#end-stats").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"{game}_phone.png"))
                ctx.close()
        finally:
            browser.close()
    assert not errors, errors


def test_how_to_play_pages_desktop_and_phone(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                ctx = browser.new_context(viewport=viewport)
                page = ctx.new_page()
                watch_errors(page, errors)
                for game in ("the_capitals", "seven_wonders_duel", "quadropolis", "between_two_cities"):
                    page.goto(f"{server}/rules/{game}")
                    assert page.locator("article.howto h2").count() >= 4
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= viewport["width"], f"{game} overflows sideways at {name}: {width}px"
                    if game in ("the_capitals", "between_two_cities"):   # two of them, for time
                        page.screenshot(path=str(ARTIFACTS / f"rules_{game}_{name}.png"))
                # the way back
                page.locator("a", has_text="Back to the lobby").last.click()
                page.wait_for_url(f"{server}/")
                # the lobby links to the chosen game's page
                page.wait_for_selector("#howto-link:not([hidden])")
                page.select_option("#game", "quadropolis")
                assert page.locator("#howto-link").get_attribute("href") == "/rules/quadropolis"
                page.screenshot(path=str(ARTIFACTS / f"lobby_{name}.png"))
                ctx.close()
        finally:
            browser.close()
    assert not errors, errors
