"""End to end in a real browser: Between Two Cities with two humans at two machines.

One 3-seat table: Ann (seat 0) in a 1366 x 900 page, Bob (seat 1) in a 390 x 844 phone page and a
greedy bot (seat 2), seed fixed. The whole game is played by clicking the board in both pages, as
two friends would:

- every simultaneous step (6 "choose 2 tiles", 1 "discard a duplex" in round 2) is answered by
  both humans in alternating orders (Ann first in even steps, Bob first in odd ones), after the bot
  (which chooses at once);
- twice a human changes a choice with "Change" before the other has chosen: Ann on the desktop in
  the first step (her tiles), Bob on the phone in round 2 (his duplex). Meanwhile the other page
  shows only "N of 3 have chosen" and who, never what: its view, and every state message it
  receives, say nothing of the pending choice (the messages it gets while Ann's first and her
  changed choice are pending are the same), and the reveal, once everybody has chosen, carries the
  changed choice;
- once (the third step) Bob presses "Choose these two" and Ann's choice reaches his page before he
  lets go: his click still counts (a state message used to redraw the board under the press and
  swallow it);
- once (the fifth step) Ann presses "Change" and Bob's choice closes the step before she lets go:
  her change is refused as stale (the step is over), her page says so, her first choice is
  revealed;
- the tiles (and duplexes) are then placed turn by turn in seat order, each human on a
  highlighted square of its own page (sometimes after selecting its other tile first), and every
  placement appears on both pages.

At the end both pages show the same final table (every city, every player's line), which is what
the server's record replays to and what its result says; the record holds each human's last
choice, not the one taken back.

Reuses the server fixture of ``test_browser_e2e`` (``citygames serve`` as a subprocess with
``--bot-delay 0``, Debian's Chromium driven by Playwright). Screenshots go to
``test-artifacts/btc_two_humans_e2e/`` (git-ignored).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import test_browser_e2e as base
from citygames.core.events import named_seats
from test_browser_e2e import _get_json as get_json
from test_browser_e2e import _watch_errors as watch_errors

server = base.server   # the module-scoped `citygames serve` fixture (pytest finds it by this name)

pytestmark = base.pytestmark

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "btc_two_humans_e2e"
TIMEOUT_MS = 20000
SEED = 23
NAMES = ("Ann", "Bob")
MAX_DECISIONS = 120      # 2 humans x (7 simultaneous steps + 14 placements), and the bot's turns
CHANGES = {0: 0, 3: 1}   # simultaneous step -> the seat that changes its choice in it
LATE_STEP = 4            # Ann presses "Change" and Bob's choice closes the step before she lets go
PRESS_STEP = 2           # Bob presses "Choose these two" and Ann's choice reaches his page before he lets go

# where a page stands: the last state message it drew
STAND = ("() => { const m = window.citygames.last; const b = document.body.dataset;"
         " return m ? {seq: m.seq, step: m.step_seq, mine: b.mine === 'true', sim: b.simultaneous === 'true',"
         " chosen: b.chosen, terminal: b.terminal === 'true', phase: m.observation.phase} : null; }")


def _create(server: str) -> dict:
    body = {"game": "between_two_cities", "seed": SEED, "options": {"num_players": 3},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                      {"kind": "bot", "bot": "greedy"}]}
    return base.create_table(server, body)


def _wait(page, js: str, arg=None) -> None:
    page.wait_for_function(js, arg=arg, timeout=TIMEOUT_MS)


def _tiles_on_board(page) -> int:
    return page.locator("#board .btc-city .btc-sq .btc-tile").count()


def _statuses(page, seat: int) -> set[str]:
    """What the board says of ``seat`` beside its cities (the ring shows a seat once or twice)."""
    return set(page.locator(f'#board .btc-seat[data-seat="{seat}"] .btc-status').all_text_contents())


def _picked(page) -> list[int]:
    """The hand tiles the page shows selected (marked ✓)."""
    return page.evaluate("() => [...document.querySelectorAll('#board .btc-pick.pickable')]"
                         ".filter(g => [...g.querySelectorAll('text')].some(t => t.textContent === '✓'))"
                         ".map(g => Number(g.dataset.index))")


def _select(page, pair: tuple[int, int]):
    """Select exactly the hand tiles of ``pair`` (by position; clicking a selected tile unselects
    it); returns the "Choose these two" button, which is then the choice of that pair."""
    picks = page.locator("#board .btc-pick.pickable")
    for i in _picked(page):
        if i not in pair:
            picks.nth(i).click()
    for i in pair:
        if i not in _picked(page):
            picks.nth(i).click()
    assert sorted(_picked(page)) == sorted(pair)
    return page.locator("#board .btc-confirm.legal")


def _choose(page, pair: tuple[int, int]) -> int:
    """Select the hand tiles of ``pair``, then "Choose these two"; returns the action id chosen."""
    confirm = _select(page, pair)
    aid = int(confirm.get_attribute("data-action"))
    confirm.click()
    return aid


def _choose_on(page, k: int, seat: int, phase: str, first: bool) -> int:
    """``seat``'s choice in simultaneous step ``k`` on its ``page``: two tiles of its hand, or a
    duplex to discard; ``first=False``: another one (a change of mind). Returns the action id."""
    if phase == "choose":
        hand = page.evaluate("window.citygames.last.observation.hand")
        pair = ((k + seat) % 2, 2 + k % (len(hand) - 2))
        return _choose(page, pair if first else _other_pair(hand, pair))
    assert phase == "discard"
    slots = page.locator("#board .btc-dslot.legal")
    slot = slots.nth(0 if first else slots.count() - 1)
    aid = int(slot.get_attribute("data-action"))
    slot.click()
    return aid


def _other_pair(hand: list[int], pair: tuple[int, int]) -> tuple[int, int]:
    """Two positions of ``hand`` holding another pair of kinds than ``pair``."""
    old = sorted((hand[pair[0]], hand[pair[1]]))
    for i in range(len(hand)):
        for j in range(i + 1, len(hand)):
            if sorted((hand[i], hand[j])) != old and not {i, j} & set(pair):
                return (i, j)
    raise AssertionError(f"no other pair in {hand}")


def _choice_words(action: dict) -> str:
    """How the turn card names a pending choice: "factory + office" for "choose factory + office",
    "discard duplex H10 (...)" as it is."""
    return action["text"].removeprefix("choose ")


def _shown_choice(page) -> str:
    """The turn card's "You chose X" line, as X."""
    text = page.inner_text("#my-choice").split("\n")[0].strip()
    assert text.startswith("You chose "), text
    return text.removeprefix("You chose ").removesuffix("Change").strip()


def _record_frames(page, frames: list) -> None:
    """Keep every state message the page's sockets receive."""
    def on_ws(ws):
        def got(payload):
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if msg.get("type") == "state":
                frames.append(msg)
        ws.on("framereceived", got)
    page.on("websocket", on_ws)


def _next(pages) -> tuple[str, object]:
    """Poll both pages until one has a decision to make or the game is over: ("sim", None) when a
    simultaneous step is open, ("place", page) for the page to place, ("end", None)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        st = [p.evaluate(STAND) for p in pages]
        if all(s and s["terminal"] for s in st):
            return "end", None
        if any(s and s["sim"] and s["mine"] for s in st):
            return "sim", None
        for p, s in zip(pages, st):
            if s and s["mine"] and not s["sim"] and not s["terminal"]:
                return "place", p
        time.sleep(0.03)
    raise AssertionError(f"nobody to move: {[p.evaluate(STAND) for p in pages]}")


def _final_rows(page) -> dict:
    """The final table as the page draws it: each city's row and each player's line, as text."""
    return page.evaluate("""() => ({
        cities: [...document.querySelectorAll('#btc-final .btc-final-city')].map(g =>
            [Number(g.dataset.city), [...g.querySelectorAll('text')].map(t => t.textContent)]),
        seats: [...document.querySelectorAll('#btc-final .btc-final-seat')].map(g =>
            [Number(g.dataset.seat), g.textContent]),
    })""")


def test_two_humans_play_between_two_cities(server):
    from playwright.sync_api import sync_playwright

    from citygames.core.records import replay

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    frames: tuple[list, list] = ([], [])
    table = _create(server)
    tid = table["table_id"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            ann = browser.new_page(viewport={"width": 1366, "height": 900})
            bob = browser.new_page(viewport={"width": 390, "height": 844})
            pages = (ann, bob)
            for seat, p in enumerate(pages):
                p.set_default_timeout(TIMEOUT_MS)
                watch_errors(p, errors)
                _record_frames(p, frames[seat])
                p.goto(server + table["seats"][seat]["join_url"])
                p.wait_for_selector("#board .btc-city")
                assert p.get_attribute("body", "data-view") == "between_two_cities"

            sim_steps = 0
            chose = [0, 0]
            discarded = [0, 0]
            placed = [0, 0]
            final_choices: list[dict] = []   # per simultaneous step: {human seat: the action id it chose}
            withdrawn: list[tuple[int, int, int]] = []   # (step, seat, the id taken back)
            shots = set()
            for _ in range(MAX_DECISIONS):
                what, who = _next(pages)
                if what == "end":
                    break
                if what == "sim":
                    k = sim_steps
                    # both humans to choose, the bot has chosen already
                    for p in pages:
                        _wait(p, "() => document.body.dataset.simultaneous === 'true' && document.body.dataset.mine === 'true'"
                                 " && document.body.dataset.chosen === '1/3'")
                    steps = {p.evaluate("window.citygames.last.step_seq") for p in pages}
                    assert len(steps) == 1, steps
                    step0 = steps.pop()
                    for p in pages:
                        assert p.inner_text("#sim-count") == "1 of 3 has chosen"
                        assert p.locator('#turn-sim .chooser.done[data-seat="2"]').count() == 1
                        assert _statuses(p, 2) == {"✓ chosen"}
                    phase = ann.evaluate("window.citygames.last.observation.phase")
                    reveals = [p.locator("#log .entry.btc-reveal").count() for p in pages]
                    logs = [p.locator("#log .entry").count() for p in pages]
                    order = (0, 1) if k % 2 == 0 else (1, 0)
                    choices: dict[int, int] = {}
                    changed = None   # (seat, the choice the reveal must show) when a human tried a change
                    seen = [len(f) for f in frames]
                    if k == 0:
                        ann.screenshot(path=str(ARTIFACTS / "01-ann-to-choose.png"))
                        bob.screenshot(path=str(ARTIFACTS / "02-bob-phone-to-choose.png"), full_page=True)
                    if k == PRESS_STEP:
                        choices.update(_choose_while_pressing(ann, bob, frames[1], k))
                        order = ()
                    for turn, seat in enumerate(order):
                        me, other = pages[seat], pages[1 - seat]
                        choices[seat] = _choose_on(me, k, seat, phase, True)
                        if turn == 1:   # the last to choose closes the step
                            break
                        _wait(me, "() => document.body.dataset.myChoice !== ''")
                        mine = me.evaluate("window.citygames.last.my_choice")
                        assert mine["id"] == choices[seat]
                        assert me.get_attribute("body", "data-mine") == "false"
                        assert _shown_choice(me) == _choice_words(mine)
                        assert "waiting for the others" in me.inner_text("#turn-who")
                        assert me.locator("#change-choice").is_visible()
                        # the other page: who has chosen, and that is all
                        _wait(other, "() => document.body.dataset.chosen === '2/3'")
                        _check_secret(other, NAMES[seat], seat, mine, logs[1 - seat])
                        if k == 0:
                            ann.screenshot(path=str(ARTIFACTS / "03-ann-chose.png"))
                            bob.screenshot(path=str(ARTIFACTS / "04-bob-phone-ann-chose.png"), full_page=True)
                        if CHANGES.get(k) == seat:
                            # a change of mind before the other has chosen
                            me.click("#change-choice")
                            for p in pages:
                                _wait(p, "() => document.body.dataset.chosen === '1/3'")
                            assert me.get_attribute("body", "data-mine") == "true"
                            assert me.locator("#change-choice").count() == 0
                            assert other.locator(f'#turn-sim .chooser.waiting[data-seat="{seat}"]').count() == 1
                            withdrawn.append((k, seat, mine["id"]))
                            choices[seat] = _choose_on(me, k, seat, phase, False)
                            _wait(me, "() => document.body.dataset.myChoice !== ''")
                            again = me.evaluate("window.citygames.last.my_choice")
                            assert again["id"] == choices[seat] != mine["id"], (mine, again)
                            assert _shown_choice(me) == _choice_words(again)
                            _wait(other, "() => document.body.dataset.chosen === '2/3'")
                            _check_secret(other, NAMES[seat], seat, again, logs[1 - seat])
                            _check_secret(other, NAMES[seat], seat, mine, logs[1 - seat])
                            if seat == 1:
                                bob.screenshot(path=str(ARTIFACTS / "05-bob-phone-changed-discard.png"), full_page=True)
                                ann.screenshot(path=str(ARTIFACTS / "06-ann-bob-chose.png"))
                            changed = (seat, again)
                        if k == LATE_STEP:   # Ann changes her mind as Bob closes the step: too late
                            choices[1 - seat] = _change_too_late(me, other, frames[seat], k, 1 - seat)
                            changed = (seat, mine)   # her first choice stands, and is revealed
                            break
                    # the step resolves on both pages: the choices are revealed together
                    for p, n in zip(pages, reveals):
                        _wait(p, "([s, n]) => window.citygames.last.step_seq !== s"
                                 " && document.querySelectorAll('#log .entry.btc-reveal').length > n", [step0, n])
                        assert p.get_attribute("body", "data-simultaneous") == "false"
                    if changed:   # the reveal, on both pages, carries the choice that stood
                        for p, f, n in zip(pages, frames, seen):
                            _check_reveal(p, f, n, *changed)
                    final_choices.append(choices)
                    for seat in (0, 1):
                        (chose if phase == "choose" else discarded)[seat] += 1
                    sim_steps += 1
                    continue
                # a placement: the page whose turn it is clicks a highlighted square
                page = who
                seat = pages.index(page)
                last = page.evaluate("window.citygames.last")
                obs = last["observation"]
                assert obs["current_player"] == seat and obs["phase"] in ("place", "place_duplex")
                other = pages[1 - seat]
                assert other.get_attribute("body", "data-mine") == "false"
                assert not page.locator("#actions button").count(), "every action has its place on the board"
                before = _tiles_on_board(page)
                items = page.locator("#board .btc-pick.pickable")
                if items.count() > 1 and placed[seat] % 3 == 1:
                    items.nth(1).click()   # the other tile (duplex) first
                    _wait(page, "() => [...document.querySelectorAll('#board .btc-pick.pickable')][1]"
                                ".textContent.includes('selected')")
                squares = page.locator("#board .btc-sq.legal")
                assert squares.count() >= 1
                if seat == 1 and obs["round"] == 2 and "phone-place" not in shots:
                    bob.screenshot(path=str(ARTIFACTS / "07-bob-phone-place-duplex.png"), full_page=True)
                    shots.add("phone-place")
                squares.nth(squares.count() // 2).click()
                grow = 2 if obs["phase"] == "place_duplex" else 1
                for p in pages:   # drawn on both pages
                    _wait(p, "(n) => document.querySelectorAll('#board .btc-city .btc-sq .btc-tile').length >= n",
                          before + grow)
                _wait(page, "(s) => window.citygames.last.seq !== s", last["seq"])
                placed[seat] += 1
            else:
                pytest.fail(f"the game did not end within {MAX_DECISIONS} decisions")
            assert sim_steps == 7 and chose == [6, 6] and discarded == [1, 1], (sim_steps, chose, discarded)
            assert placed == [14, 14], placed

            # the end: the server's record and result; both pages show the same final table
            summary = get_json(f"{server}/api/tables/{tid}")
            assert summary["status"] == "finished"
            result = summary["result"]
            record = get_json(f"{server}/api/tables/{tid}/record")
            state = replay(record)
            assert state.is_terminal() and list(state.scores()) == result["scores"]
            _check_record(record, final_choices, withdrawn)
            with named_seats(record["players"]):   # the table names the cities after the players (issue 15)
                truth = state.observation(None)
            rows = []
            for seat, p in enumerate(pages):
                _wait(p, "() => document.body.dataset.terminal === 'true'")
                p.wait_for_selector("#score-overlay #scoresheet")
                totals = [int(p.locator(f'#score-overlay td.total[data-seat="{q}"]').inner_text()) for q in range(3)]
                assert totals == result["scores"]
                p.screenshot(path=str(ARTIFACTS / f"{8 + 2 * seat:02d}-{NAMES[seat].lower()}-end.png"),
                             full_page=seat == 1)
                p.click("#score-overlay button.primary")
                p.wait_for_selector("#board #btc-final")
                obs = p.evaluate("window.citygames.last.observation")
                assert obs["cities"] == truth["cities"] and obs["players"] == truth["players"]
                assert obs["result"] == truth["result"]
                assert p.locator("#board .legal").count() == 0
                final = _final_rows(p)
                for c, texts in final["cities"]:
                    city = truth["cities"][c]
                    numbers = [int(t) for t in texts[1:]]
                    assert numbers == [*city["breakdown"].values(), city["score"]], (c, texts, city)
                seat_names = [s["name"] for s in summary["seats"]]
                for q, line in final["seats"]:
                    pl = truth["players"][q]
                    left, right = truth["cities"][pl["left"]]["score"], truth["cities"][pl["right"]]["score"]
                    assert line.startswith(f"{seat_names[q]}: left {left}, right {right} → the lower"), line
                    assert f") = {result['scores'][q]}" in line, line
                winner = result["ranking"][0]
                assert [q for q, line in final["seats"] if "wins" in line or "shares the win" in line][:1] == [winner]
                rows.append(final)
                p.screenshot(path=str(ARTIFACTS / f"{9 + 2 * seat:02d}-{NAMES[seat].lower()}-final-table.png"),
                             full_page=seat == 1)
            # the same final table on both pages (the phone cuts a long city name short: "Bob – Green (gr…")
            assert rows[0]["seats"] == rows[1]["seats"]
            for (c0, t0), (c1, t1) in zip(rows[0]["cities"], rows[1]["cities"], strict=True):
                assert c0 == c1 and t0[1:] == t1[1:], (t0, t1)
                assert t0[0] == t1[0] or t1[0].endswith("…") and t0[0].startswith(t1[0][:-1]), (t0[0], t1[0])
        finally:
            browser.close()
    assert not errors, "\n".join(errors)
    _check_frames(frames)


def _choose_while_pressing(ann, bob, bob_frames: list, k: int) -> dict:
    """Bob selects two tiles and presses "Choose these two"; before he lets go, Ann chooses and her
    choice reaches his page (a state message). His click must still count: his choice closes the
    step. Returns {seat: the action id chosen}."""
    assert ann.evaluate("window.citygames.last.observation.phase") == "choose"
    confirm = _select(bob, (k % 2, 2))
    aid = int(confirm.get_attribute("data-action"))
    confirm.scroll_into_view_if_needed()
    box = confirm.bounding_box()
    bob.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    seen = len(bob_frames)
    bob.mouse.down()
    mine = _choose(ann, ((k + 1) % 2, 2))
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not any(m["chosen"] == [0, 2] for m in bob_frames[seen:]):
        assert time.monotonic() < deadline, "Ann's choice never reached Bob's page"
        bob.wait_for_timeout(20)
    bob.wait_for_timeout(50)   # (the page has had the message)
    bob.mouse.up()
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        _wait(bob, "() => document.body.dataset.simultaneous === 'false'")
    except PlaywrightTimeout:
        pytest.fail("Bob's click on “Choose these two” was lost: Ann's choice redrew his board under his press")
    return {0: mine, 1: aid}


def _change_too_late(me, other, my_frames: list, k: int, other_seat: int) -> int:
    """``me`` (Ann, who has chosen) presses "Change"; before she lets go, the other human chooses
    and closes the step. Her change comes too late: the server refuses it as stale (the step it
    was meant for is over), her page says so, and her first choice stands. Returns the other's
    action id."""
    change = me.locator("#change-choice")
    change.scroll_into_view_if_needed()
    box = change.bounding_box()
    me.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    seen = len(my_frames)
    me.mouse.down()
    aid = _choose_on(other, k, other_seat, "choose", True)
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not any(m["chosen"] is None for m in my_frames[seen:]):
        assert time.monotonic() < deadline, "the end of the step never reached Ann's page"
        me.wait_for_timeout(20)
    me.wait_for_timeout(50)
    me.mouse.up()
    toast = me.locator("#toasts .toast.error").last
    toast.wait_for()
    assert toast.inner_text().startswith("stale: the table has moved on"), toast.inner_text()
    _wait(me, "() => document.body.dataset.simultaneous === 'false'")
    assert me.locator("#change-choice").count() == 0
    return aid


def _check_secret(page, name: str, seat: int, choice: dict, log_at: int) -> None:
    """``page`` (the other human) shows that ``seat`` has chosen, not what it chose (in its view and
    its log since the step opened, ``log_at`` entries)."""
    assert page.inner_text("#sim-count") == "2 of 3 have chosen"
    assert f"{name} ✓" in page.inner_text("#turn-sim")
    assert _statuses(page, seat) == {"✓ chosen"}
    last = page.evaluate("window.citygames.last")
    assert last["my_choice"] is None and last["observation"]["pending"] is None
    assert sorted(last["chosen"]) == [seat, 2]
    # (what the page shows of the step; its own legal actions, listed hidden in the turn card, aside)
    seen = page.evaluate("(n) => ['#board', '#turn-who', '#turn-what', '#turn-sim', '#status-line']"
                         ".map(s => document.querySelector(s).textContent)"
                         ".concat([...document.querySelectorAll('#log .entry')].slice(n).map(e => e.textContent))"
                         ".join('\\n')", log_at)
    assert "You chose" not in seen
    assert _choice_words(choice) not in seen, choice["text"]


def _check_reveal(page, frames: list, start: int, seat: int, choice: dict) -> None:
    """The reveal among the state messages ``page`` received from ``frames[start]`` on shows
    ``choice`` as ``seat``'s: its two tiles, or the two duplexes it kept (not the one it discarded)."""
    kinds = ("between_two_cities.reveal", "between_two_cities.reveal_duplexes")
    for _ in range(100):   # (the page has drawn it: its message is here or about to be)
        events = [e for m in frames[start:] for e in m["log"] if e["kind"] in kinds]
        if events:
            break
        page.wait_for_timeout(20)
    assert len(events) == 1, events
    data = events[0]["data"]
    if choice["kind"] == "choose":
        assert sorted(data["chosen"][seat]) == sorted(choice["kinds"]), (data, choice)
    else:
        assert choice["duplex"] not in data["kept"][seat] and len(data["kept"][seat]) == 2, (data, choice)


def _check_frames(frames) -> None:
    """Every state message a page received: its own pending choice only; within a step, what one
    seat receives while the other's choice is pending does not depend on that choice."""
    for seat, msgs in enumerate(frames):
        assert msgs, f"no state message recorded for seat {seat}"
        for m in msgs:
            if m["chosen"] is None or seat not in m["chosen"]:
                assert m["my_choice"] is None and m["observation"]["pending"] is None, m["seq"]
        # messages of the same step and seq, while the same seats have chosen, are the same
        by_key: dict = {}
        for m in msgs:
            if m["chosen"] and seat not in m["chosen"]:
                key = (m["step_seq"], m["seq"], tuple(m["chosen"]))
                body = {k: v for k, v in m.items() if k not in ("log", "log_from", "seats")}
                by_key.setdefault(key, []).append(body)
        repeated = [v for v in by_key.values() if len(v) > 1]
        # Bob got the same message while Ann's first choice and her changed one were pending, and
        # Ann likewise while Bob's first and his changed discard were
        assert repeated, f"seat {seat} was never told of another seat's choice twice"
        for v in repeated:
            assert all(b == v[0] for b in v), f"seat {seat}'s messages told apart two choices of another seat"


def _check_record(record: dict, final_choices: list, withdrawn: list) -> None:
    """The record holds every seat's last choice of each simultaneous step as a [seat, id] pair
    (the bot's and the two humans'), and not a choice taken back."""
    pairs = [tuple(a) for a in record["actions"] if isinstance(a, list)]
    assert len(pairs) == 3 * len(final_choices), pairs
    steps = [dict(pairs[i:i + 3]) for i in range(0, len(pairs), 3)]
    for k, choices in enumerate(final_choices):
        assert set(steps[k]) == {0, 1, 2}
        assert {s: steps[k][s] for s in choices} == choices, (k, steps[k], choices)
    for k, seat, aid in withdrawn:
        assert steps[k][seat] != aid
