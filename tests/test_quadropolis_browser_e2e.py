"""End to end in a real browser: Quadropolis on its own board view (static/quadropolis.js).

A Classic table for two (seat 0 human, seat 1 a greedy bot) is played by clicking the board only:
an architect's number badge at a free slot of the construction site (data-kind "take"), then a
highlighted space of the city (data-kind "build"), for several turns into round 2. Checked on the
way: hovering a badge marks the square it would take and says what it takes; the log grows; the
built buildings appear in the city; and no face-down building's identity reaches the page (at two
players every tile marked "3-4" or "4" stays face down all game, so none of those tile ids may
appear anywhere on the board nor in the observation). Then an Expert table: the cities are drawn
4 x 5 with five numbered districts and the shared architect pool.

Reuses the server fixture and helpers of ``test_browser_e2e`` (``citygames serve`` as a
subprocess, Debian's Chromium at ``/usr/bin/chromium`` driven by Playwright; skipped when Chromium
is absent). Screenshots go to ``test-artifacts/quadropolis_e2e/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import test_browser_e2e as base
from test_browser_e2e import _get_json as get_json
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

pytestmark = base.pytestmark

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "quadropolis_e2e"
TAKES = 6                # seat 0's turns to play (a round is 4 turns each)
STEP_TIMEOUT_MS = 20000

# Seat 0's next state: its turn at a new seq, or the end.
WAIT_MINE = ("(seq) => document.body.dataset.terminal === 'true' || "
             "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)")

# What the page shows of the site and the tiles, for the hidden-information check.
PAGE_TILES = r"""
() => ({
  tiles: [...document.querySelectorAll('#board [data-tile]')].map(e => Number(e.dataset.tile)),
  backs: document.querySelectorAll('#board .qp-site .qp-back').length,
  backsWithId: [...document.querySelectorAll('#board .qp-site .qp-back')]
    .filter(b => b.closest('[data-tile]') || b.querySelector('[data-tile]')).length,
})
"""


def _create(server: str, options: dict, seed: int) -> dict:
    body = {"game": "quadropolis", "seed": seed, "options": options,
            "seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"}]}
    return base.create_table(server, body)


def _observed_tiles(obs: dict) -> set[int]:
    """Every tile id the observation shows: the site's face-up squares, the cities, the pending tile."""
    out = {s["tile"] for s in obs["site"] if s["tile"] is not None}
    out |= {c["tile"] for p in obs["players"] for c in p["city"] if c["tile"] is not None}
    if obs.get("pending"):
        out.add(obs["pending"]["tile"])
    return out


def test_play_quadropolis_by_clicking_the_board(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    comps = get_json(f"{server}/api/games/quadropolis/components?mode=classic&num_players=2")
    hidden = {t["id"] for t in comps["tiles"] if t["marker"] != "all"}   # face down at 2 players (§3)
    assert hidden, "a Classic round has tiles marked 3-4 and 4"
    table = _create(server, {"mode": "classic", "num_players": 2}, seed=21)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            watch_errors(page, errors)
            page.goto(server + table["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            assert page.get_attribute("body", "data-view") == "quadropolis"
            page.wait_for_selector("#board .qp-site")
            log0 = page.locator("#log .entry").count()

            takes = builds = 0
            seq = None
            while takes < TAKES or builds < takes:
                page.wait_for_function(WAIT_MINE, arg=str(seq), timeout=STEP_TIMEOUT_MS)
                assert page.evaluate("document.body.dataset.terminal") == "false"
                obs = page.evaluate("window.citygames.last.observation")
                legal = page.evaluate("window.citygames.last.legal")
                seq = page.evaluate("document.body.dataset.seq")

                # nothing face down reaches the page: no hidden id on the board or in the observation,
                # one back per face-down square, and no back carries a tile id
                shown = page.evaluate(PAGE_TILES)
                assert not hidden & set(shown["tiles"]), hidden & set(shown["tiles"])
                assert not hidden & _observed_tiles(obs)
                down = sum(s["face_down"] for s in obs["site"])
                assert down > 0 and shown["backs"] == down
                assert shown["backsWithId"] == 0

                kinds = {a["kind"] for a in legal}
                # every action but "discard" has its place on the board
                assert {b for b in page.locator("#actions button").evaluate_all("bs => bs.map(b => b.dataset.kind)")} <= {"discard"}
                if "take" in kinds:
                    badges = page.locator('#board .qp-badge.legal[data-kind="take"]')
                    assert badges.count() == sum(1 for a in legal if a["kind"] == "take")
                    # the first badge that takes a building (else any)
                    pick = page.locator('#board .qp-badge.legal[data-kind="take"]:not([data-takes="nothing"])')
                    badge = pick.first if pick.count() else badges.first
                    square = badge.get_attribute("data-square")
                    action = next(a for a in legal if str(a["id"]) == badge.get_attribute("data-action"))
                    assert action["slot"] == int(badge.get_attribute("data-slot"))
                    assert action["architect"] == int(badge.get_attribute("data-architect"))
                    page.mouse.move(1, 1)   # off the board, so that hovering the badge enters it
                    badge.hover()
                    target = page.locator(f'#board .qp-sq[data-square="{square}"] .qp-target')
                    assert target.get_attribute("visibility") == "visible"
                    tip = page.locator("div.tip").inner_text()
                    tile = action["tile"]
                    if tile is not None:
                        assert comps["tiles"][tile]["name"] in tip and "Takes the" in tip, tip
                    else:
                        assert "nothing" in tip.lower(), tip
                    if takes == 0:
                        page.screenshot(path=str(ARTIFACTS / "01-take-hover.png"))
                    badge.click()
                    takes += 1
                elif "build" in kinds:
                    spaces = page.locator('#board .qp-city[data-seat="0"] .qp-space.legal[data-kind="build"]')
                    assert spaces.count() == sum(1 for a in legal if a["kind"] == "build")
                    assert set(obs["pending"]["spaces"]) == {int(x) for x in spaces.evaluate_all("es => es.map(e => e.dataset.space)")}
                    if builds == 0:
                        page.screenshot(path=str(ARTIFACTS / "02-place.png"))
                    spaces.first.click()
                    builds += 1
                else:   # the building fits nowhere: the only way on is the button
                    assert kinds == {"discard"}, kinds
                    page.locator('#actions button[data-kind="discard"]').click()
                    builds += 1

            page.wait_for_function(WAIT_MINE, arg=str(seq), timeout=STEP_TIMEOUT_MS)
            obs = page.evaluate("window.citygames.last.observation")
            assert obs["round"] >= 2, "several turns: into round 2"
            built = [c for c in obs["players"][0]["city"] if c["tile"] is not None]
            assert built
            for c in built:   # the city shows what it holds
                assert page.locator(f'#board .qp-city[data-seat="0"] .qp-space[data-space="{c["space"]}"] .qp-tile[data-tile="{c["tile"]}"]').count() == 1
            assert page.locator("#log .entry").count() >= log0 + 4 * TAKES   # takes and builds of both seats
            assert page.locator('#log .entry[data-kind="quadropolis.round"]').count() >= 2
            shown = page.evaluate(PAGE_TILES)
            assert not hidden & set(shown["tiles"])
            assert "Round 2/4" in page.inner_text("#turn-what") or "Round 3/4" in page.inner_text("#turn-what")
            page.screenshot(path=str(ARTIFACTS / "03-round2.png"))
        finally:
            browser.close()
    assert not errors, "\n".join(errors)


def test_quadropolis_expert_board(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    table = _create(server, {"mode": "expert", "num_players": 2}, seed=4)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            watch_errors(page, errors)
            page.goto(server + table["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            page.wait_for_function(WAIT_MINE, arg="none", timeout=STEP_TIMEOUT_MS)
            obs = page.evaluate("window.citygames.last.observation")
            assert obs["mode"] == "expert"
            for p in (0, 1):
                city = page.locator(f'#board .qp-city[data-seat="{p}"] .qp-space')
                assert city.count() == 20
                assert page.locator(f'#board .qp-city[data-seat="{p}"] .qp-district').count() == 5
            box = [page.locator(f'#board .qp-city[data-seat="0"] .qp-space[data-space="{x}"]').bounding_box()
                   for x in range(20)]
            assert len({round(b["y"]) for b in box}) == 4 and len({round(b["x"]) for b in box}) == 5   # 4 rows x 5 columns
            assert page.locator("#board .qp-pool").count() == 1
            # Expert numbers go up to 5
            assert page.locator('#board .qp-badge.legal[data-architect="5"]').count() > 0
            page.screenshot(path=str(ARTIFACTS / "04-expert.png"))
            # one turn: take, then build (or discard)
            seq = page.evaluate("document.body.dataset.seq")
            page.locator('#board .qp-badge.legal[data-kind="take"]:not([data-takes="nothing"])').first.click()
            page.wait_for_function(WAIT_MINE, arg=seq, timeout=STEP_TIMEOUT_MS)
            seq = page.evaluate("document.body.dataset.seq")
            build = page.locator('#board .qp-city[data-seat="0"] .legal[data-kind="build"]')
            if build.count():
                build.first.click()
            else:
                page.locator('#actions button[data-kind="discard"]').click()
            page.wait_for_function(WAIT_MINE, arg=seq, timeout=STEP_TIMEOUT_MS)
            # a phone: the page turns into one column and the board still fits its width
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(200)
            width = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
            assert 300 < width <= 390
            page.screenshot(path=str(ARTIFACTS / "05-expert-phone.png"), full_page=True)
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
