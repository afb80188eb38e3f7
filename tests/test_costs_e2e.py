"""Costs on the faces (issue 15, defect 3), in a real browser at 1366 x 900: every clickable choice
of The Capitals' initiative track and projects area shows on its face the same cost as its
action's text (money, loans, the prestige they cost), and every card of the 7 Wonders Duel
pyramid and every unbuilt wonder shows what the player would pay now (trading included, "free"
for chains) -- the same number as the construct / wonder action's text.

The Capitals seat plays the dearest choice each time (the top initiative space, the $4 row), so
its money runs out and the loans show. Reuses the server fixture of ``test_browser_e2e``.
Screenshots go to ``test-artifacts/costs/`` (git-ignored).
"""

from __future__ import annotations

import re
from pathlib import Path

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors
from test_browser_e2e import create_table

server = base.server

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "costs"
DESKTOP = {"width": 1366, "height": 900}
STEP_MS = 20000

pytestmark = base.pytestmark


def _text_cost(text: str) -> tuple[int, int, int]:
    """(money, loans, prestige) an action's text says: "pay $8; 2 loans: -2 prestige", "(free)"."""
    m = re.search(r"pay \$(\d+)", text)
    money = int(m.group(1)) if m else 0
    assert m or "free" in text, text
    lm = re.search(r"(\d+) loans?: (-?\d+) prestige", text)
    return money, int(lm.group(1)) if lm else 0, int(lm.group(2)) if lm else 0


def _face_cost(face: str) -> tuple[int, int, int]:
    """(money, loans, prestige) a face shows: "pay $8", "+2 loans −2★", "free"."""
    m = re.search(r"\$(\d+)", face)
    assert m or "free" in face, face
    lm = re.search(r"\+(\d+) loans?", face)
    pm = re.search(r"−(\d+)★", face)
    return int(m.group(1)) if m else 0, int(lm.group(1)) if lm else 0, -int(pm.group(1)) if pm else 0


FACES = r"""
(sel) => [...document.querySelectorAll(sel)].map(n => ({
  id: n.dataset.action, face: n.querySelector('.cost-face') ? n.querySelector('.cost-face').textContent : null}))
"""


def _wait_mine(page, clicked_at):
    page.wait_for_function(
        "(seq) => document.body.dataset.terminal === 'true' || "
        "(document.body.dataset.mine === 'true' && document.body.dataset.seq !== seq)",
        arg=str(clicked_at), timeout=STEP_MS)


def test_capitals_faces_show_the_action_cost(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    checked = {"initiative": 0, "take": 0}
    loans_seen = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=DESKTOP)
            watch_errors(page, errors)
            t = create_table(server, {"game": "the_capitals", "seed": 4, "options": {"num_players": 3},
                                      "seats": [{"kind": "human", "name": "Costly"}, {"kind": "bot", "bot": "greedy"},
                                                {"kind": "bot", "bot": "greedy"}]})
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            clicked_at = None
            for _ in range(120):
                _wait_mine(page, clicked_at)
                if page.evaluate("document.body.dataset.terminal") == "true":
                    break
                legal = {str(a["id"]): a for a in page.evaluate("window.citygames.last.legal")}
                seq = page.evaluate("document.body.dataset.seq")
                kinds = {a["kind"] for a in legal.values()}
                for kind, sel in (("initiative", "#board .space.legal"), ("take", "#board .project.legal")):
                    if kind not in kinds:
                        continue
                    faces = page.evaluate(FACES, sel)
                    # every clickable choice of that kind is on the board, each with its cost face
                    assert {f["id"] for f in faces} == {i for i, a in legal.items() if a["kind"] == kind}
                    for f in faces:
                        a = legal[f["id"]]
                        assert f["face"], a
                        want = _text_cost(a["text"])
                        assert _face_cost(f["face"]) == want, (f["face"], a["text"])
                        loans_seen += want[1] > 0
                    checked[kind] += 1
                    if kind == "initiative" and checked[kind] == 1:
                        # on a desktop too, a click on a greyed space says why not (and plays nothing)
                        greyed = page.locator("#board .space.whynot")
                        assert greyed.count() >= 1
                        greyed.last.click()
                        page.wait_for_selector("#details .details-why.no")
                        assert page.locator("#details .details-why").inner_text().startswith("Not allowed:")
                        assert page.evaluate("document.body.dataset.seq") == seq
                        page.screenshot(path=str(ARTIFACTS / "capitals-why-desktop.png"))
                        page.locator("#details button.cancel").click()
                        assert page.locator("#details").is_hidden()
                    if checked[kind] == 1 or (loans_seen and "loans" not in checked):
                        if loans_seen:
                            checked["loans"] = 1
                        page.screenshot(path=str(ARTIFACTS / f"capitals-{kind}-{checked[kind]}.png"))
                # the dearest choice: money runs out and the loans show
                if "initiative" in kinds or "take" in kinds:
                    dear = max((a for a in legal.values() if a["kind"] in ("initiative", "take")),
                               key=lambda a: (_text_cost(a["text"])[0], -a["id"]))
                    page.locator(f'#board .legal[data-action="{dear["id"]}"]').first.click()
                else:
                    board = page.locator("#board .legal[data-action]")
                    (board.first if board.count() else page.locator("#actions button[data-action]").first).click()
                clicked_at = seq
                if checked["initiative"] >= 3 and checked["take"] >= 4 and loans_seen:
                    break
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
    assert checked["initiative"] >= 3 and checked["take"] >= 4, checked
    assert loans_seen, "no choice needed a loan: the loans part of the faces was never checked"


def test_duel_pyramid_and_wonders_show_the_price_now(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    plays = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=DESKTOP)
            watch_errors(page, errors)
            t = create_table(server, {"game": "seven_wonders_duel", "seed": 5,
                                      "seats": [{"kind": "human", "name": "Costly"}, {"kind": "bot", "bot": "greedy"}]})
            page.goto(server + t["seats"][0]["join_url"])
            page.wait_for_selector("body[data-seq]")
            clicked_at = None
            for _ in range(80):
                _wait_mine(page, clicked_at)
                if page.evaluate("document.body.dataset.terminal") == "true":
                    break
                last = page.evaluate("window.citygames.last")
                obs, legal = last["observation"], last["legal"]
                seq = page.evaluate("document.body.dataset.seq")
                if obs["phase"] == "play":
                    plays += 1
                    picks = page.evaluate("""() => [...document.querySelectorAll('#board .slot.pick')].map(n =>
                        ({card: n.dataset.card, face: n.querySelector('.cost').textContent}))""")
                    assert picks
                    for p in picks:
                        con = [a for a in legal if a["kind"] == "construct" and str(a["card"]) == p["card"]]
                        if con:
                            m = re.search(r"for (\d+) coins?", con[0]["text"])
                            want = "free" if "free" in con[0]["text"] or (m and m.group(1) == "0") else m.group(1)
                        else:   # cannot pay: the face still shows the price now
                            want = str(obs["prices"][p["card"]]["construct"])
                        assert p["face"] == want, (p, con[0]["text"] if con else obs["prices"][p["card"]])
                    me = obs["current_player"]
                    for w in obs["players"][me]["wonders"]:
                        if w["built"] or w["removed"]:
                            continue
                        face = page.locator(f'#board .wonder[data-wonder="{w["wonder"]}"] .wprice').text_content()
                        acts = [a for a in legal if a["kind"] == "wonder" and a["wonder"] == w["wonder"]]
                        if acts:
                            m = re.search(r"for (\d+) coins?", acts[0]["text"])
                            want = m.group(1) if m.group(1) != "0" else "free"
                            assert all(a["text"].endswith(f"for {m.group(1)} coin" + ("" if m.group(1) == "1" else "s"))
                                       for a in acts)
                            assert face == want, (face, acts[0]["text"])
                    if plays == 1:
                        page.screenshot(path=str(ARTIFACTS / "duel-pyramid.png"))
                board = page.locator("#board .legal[data-action]")
                if board.count():
                    board.first.click()
                else:
                    page.locator("#board .pick[data-slot]").first.click()
                    page.locator("#board .choice-menu .legal[data-action]").first.click()
                clicked_at = seq
                if plays >= 12:
                    break
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
    assert plays >= 12
