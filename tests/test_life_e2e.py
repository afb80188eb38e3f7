"""Resign, rematch, clocks and bot takeover in a real browser (issue 15, "Tests it must have"):
a resign in 7 Wonders Duel ends the game for the other player, who sees the final score sheet
with the win; the rematch flow with two browser contexts (both end up seated at the new table);
a live clock running out (a 2 s bank) and a bot taking the seat, which the player takes back; a
player away (page closed) whose seat the other player hands to a bot once the away grace has
passed, and who takes it back on coming back; the lobby's Clock select and Abandon button.

Starts its own ``citygames serve`` (as ``test_browser_e2e`` does, but with ``--bot-delay 0.5`` so a
bot playing a seat taken over leaves time to take it back, and ``--away-grace 3``) and drives Debian's Chromium with
Playwright. Screenshots go to ``test-artifacts/life_e2e/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import test_browser_e2e as base
from test_browser_e2e import _watch_errors as watch_errors

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "life_e2e"
TIMEOUT_MS = 20000
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
AWAY_GRACE = 3   # the server's --away-grace (seconds)

pytestmark = base.pytestmark


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``citygames serve`` on a free port, a fresh SQLite file, bots waiting 0.5 s (time to take a
    seat back); its base URL."""
    with base.serving(tmp_path_factory.mktemp("life_e2e"), bot_delay=0.5, extra=("--away-grace", str(AWAY_GRACE))) as url:
        yield url


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=base.CHROMIUM, args=base.CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _duel(server: str, clock: dict | None = None, second: dict | None = None) -> dict:
    body = {"game": "seven_wonders_duel", "seed": 7,
            "seats": [{"kind": "human", "name": "Ann"}, second or {"kind": "human", "name": "Bob"}]}
    if clock:
        body["clock"] = clock
    return base.create_table(server, body)


def _open(browser, url: str, errors: list, viewport=DESKTOP):
    page = browser.new_context(viewport=viewport).new_page()
    watch_errors(page, errors)
    page.goto(url)
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT_MS)
    return page


def _resign(page) -> None:
    """Resign from the turn card: "Resign…", then the inline confirmation."""
    page.click("#life-resign")
    assert "The other player wins" in page.inner_text("#life-confirm-resign")
    page.click("#life-resign-yes")


def test_a_resign_in_duel_ends_the_game_for_the_other_player(server, browser):
    t = _duel(server)
    errors: list[str] = []
    ann = _open(browser, server + t["seats"][0]["join_url"], errors)
    bob = _open(browser, server + t["seats"][1]["join_url"], errors, PHONE)
    ann.screenshot(path=str(ARTIFACTS / "01-resign-button.png"))
    _resign(ann)
    for page in (ann, bob):
        page.wait_for_selector("body[data-terminal='true'][data-status='finished']", timeout=TIMEOUT_MS)
    # Bob sees the final score sheet with his win, and that Ann resigned
    overlay = bob.locator("#score-overlay")
    assert overlay.is_visible() and "Bob wins." in overlay.inner_text()
    assert "winner" in bob.locator("#score-overlay th.win").inner_text() and "Bob" in bob.locator("#score-overlay th.win").inner_text()
    bob.screenshot(path=str(ARTIFACTS / "02-resign-seen-by-the-winner-phone.png"))
    bob.click("#score-overlay button.primary:has-text('Close')")
    assert bob.inner_text("#life-resigned") == "Ann resigned. You win."
    assert "Ann resigned" in bob.inner_text("#life-notices")
    assert bob.locator("#log .life-entry").last.inner_text() == "Ann resigned"   # the game log says it too
    assert bob.locator("#score-card").is_visible() and bob.locator("#life-resign").count() == 0
    # the resigned game's board marks nobody "to move" (its engine state still has a mover)
    assert bob.evaluate("window.citygames.last.observation.current_player") is not None
    assert "to move" not in bob.locator("#board").text_content()
    bob.screenshot(path=str(ARTIFACTS / "03-after-resign-phone.png"), full_page=True)
    assert ann.inner_text("#life-resigned").startswith("You resigned.")
    res = base._get_json(f"{server}/api/tables/{t['table_id']}")
    assert res["status"] == "finished" and res["result"]["resigned"] == [0] and res["result"]["ranking"] == [1, 0]
    # the replay of the resigned game ends with the score sheet and says who resigned
    ann.goto(f"{server}/replay/{t['table_id']}")
    ann.wait_for_selector("#score-card:not([hidden]) #scoresheet", timeout=TIMEOUT_MS)
    assert ann.inner_text("#where") == "Game over: Ann resigned."
    ann.screenshot(path=str(ARTIFACTS / "03b-replay-of-a-resigned-game.png"))
    assert not errors, errors


def test_rematch_with_two_browser_contexts(server, browser):
    t = _duel(server)
    errors: list[str] = []
    ann = _open(browser, server + t["seats"][0]["join_url"], errors)
    bob = _open(browser, server + t["seats"][1]["join_url"], errors)
    _resign(bob)
    for page in (ann, bob):
        page.wait_for_selector("#score-overlay .life-rematch", timeout=TIMEOUT_MS)
    assert ann.inner_text("#score-overlay .life-rematch") == "Play again"
    ann.screenshot(path=str(ARTIFACTS / "04-play-again.png"))
    ann.click("#score-overlay .life-rematch")
    ann.wait_for_url(lambda u: t["table_id"] not in u, timeout=TIMEOUT_MS)
    ann.wait_for_selector("body[data-status='open']", timeout=TIMEOUT_MS)
    new_id = ann.evaluate("window.citygames.last.table_id")
    assert new_id != t["table_id"] and ann.evaluate("window.citygames.last.your_seat") == 0
    # Bob is offered the seat on his finished table
    offer = bob.locator("#score-overlay .life-offer")
    offer.wait_for(timeout=TIMEOUT_MS)
    assert offer.inner_text().startswith("Ann wants a rematch")
    bob.screenshot(path=str(ARTIFACTS / "05-rematch-offer.png"))
    bob.click("#score-overlay .life-offer .life-rematch")
    bob.wait_for_url(lambda u: new_id in u, timeout=TIMEOUT_MS)
    bob.wait_for_selector("body[data-status='open']", timeout=TIMEOUT_MS)
    assert bob.evaluate("window.citygames.last.your_seat") == 1
    # both seated at the new table: each sees the other connected, the same game
    for page in (ann, bob):
        page.wait_for_function("() => window.citygames.last.seats.every(s => s.connected)", timeout=TIMEOUT_MS)
        assert page.evaluate("window.citygames.last.table_id") == new_id
        assert page.evaluate("window.citygames.last.life.rematch_of") == t["table_id"]
    assert "playing seat 1" in bob.inner_text("#role")
    bob.screenshot(path=str(ARTIFACTS / "06-rematch-seated.png"))
    summary = base._get_json(f"{server}/api/tables/{new_id}")
    assert [(s["kind"], s["name"]) for s in summary["seats"]] == [("human", "Ann"), ("human", "Bob")]
    # the creator of the rematch (Ann) may abandon it: her page offers it
    assert ann.locator("#life-abandon").is_visible() and bob.locator("#life-abandon").count() == 0
    assert not errors, errors


def test_a_clock_runs_out_a_bot_takes_the_seat_and_the_player_takes_it_back(server, browser):
    t = _duel(server, clock={"mode": "live", "bank_s": 2, "increment_s": 0},
              second={"kind": "bot", "bot": "greedy"})
    errors: list[str] = []
    page = _open(browser, server + t["seats"][0]["join_url"], errors, PHONE)
    page.wait_for_selector("#life-clocks .life-clock[data-seat='0']", timeout=TIMEOUT_MS)
    page.screenshot(path=str(ARTIFACTS / "07-clock-running-phone.png"))
    page.wait_for_selector("body[data-zombie='0']", timeout=TIMEOUT_MS)
    banner = page.locator("#life-zombie")
    assert banner.is_visible() and "A bot is playing for you" in banner.inner_text()
    assert "Ann ran out of time: a bot plays for them" in page.inner_text("#life-notices")
    assert "Ann ran out of time: a bot plays for them" in page.inner_text("#log")
    assert page.inner_text("#life-clocks .life-clock[data-seat='0'] .t") == "0:00"
    page.screenshot(path=str(ARTIFACTS / "08-bot-plays-for-you-phone.png"))
    page.click("#life-take-back")
    page.wait_for_selector("body[data-zombie='']", timeout=TIMEOUT_MS)
    assert page.locator("#life-zombie").count() == 0
    assert "Ann took their seat back from the bot" in page.inner_text("#life-notices")
    page.screenshot(path=str(ARTIFACTS / "09-taken-back-phone.png"))
    assert not errors, errors


def test_the_lobby_creates_a_table_with_a_clock_and_abandons_it(server, browser):
    errors: list[str] = []
    page = browser.new_context(viewport=DESKTOP).new_page()
    watch_errors(page, errors)
    page.goto(server + "/")
    page.wait_for_selector("#game option[value='seven_wonders_duel']", state="attached")
    page.select_option("#game", "seven_wonders_duel")
    page.select_option("#seat-kind-1", "human")
    page.fill("#seat-name-0", "Ann")
    page.select_option("#clock", "live10")
    page.click("#create")
    page.wait_for_selector("#created-table")
    tid = page.get_attribute("#created-table", "data-table")
    page.screenshot(path=str(ARTIFACTS / "10-lobby-clock.png"))
    # the table page shows both clocks, not running until Bob has come too
    table = browser.new_context(viewport=DESKTOP).new_page()
    watch_errors(table, errors)
    table.goto(server + page.get_attribute("#created-table .join-link[data-seat='0']", "href"))
    table.wait_for_selector("#life-clocks .life-clock[data-seat='1']", timeout=TIMEOUT_MS)
    assert table.inner_text("#life-clocks .life-clock[data-seat='0'] .t") == "10:00"
    assert "live: 10 min + 10 s a move" in table.inner_text("#life-clocks")
    # the lobby abandons it (this browser created it); the table page hears it
    row = page.locator(f"tr[data-table='{tid}']")
    row.wait_for(timeout=TIMEOUT_MS)
    row.locator(f"[data-abandon='{tid}']").click()
    row.locator(f"[data-abandon-yes='{tid}']").click()
    page.wait_for_selector(f"tr[data-table='{tid}']", state="detached", timeout=TIMEOUT_MS)
    table.wait_for_selector("body[data-status='abandoned']", timeout=TIMEOUT_MS)
    assert "abandoned by its creator" in table.inner_text("#life-abandoned")
    table.screenshot(path=str(ARTIFACTS / "11-abandoned.png"))
    assert base._get_json(f"{server}/api/tables/{tid}")["status"] == "abandoned"
    assert not errors, errors


def test_a_player_away_is_replaced_by_a_bot_by_the_other_and_takes_the_seat_back(server, browser):
    """The player to move closes their page; the other sees them away with a countdown, then "Let a
    bot play for …", clicks it, and the bot moves for the seat; the player comes back (a new page),
    is told a bot plays for them and why, and takes the seat back."""
    t = _duel(server)
    errors: list[str] = []
    ann = _open(browser, server + t["seats"][0]["join_url"], errors)
    bob = _open(browser, server + t["seats"][1]["join_url"], errors)
    mover = ann.evaluate("window.citygames.last.to_move[0]")
    names = ["Ann", "Bob"]
    gone, stays = (ann, bob) if mover == 0 else (bob, ann)
    stays.wait_for_function("() => window.citygames.last.seats.every(s => s.connected)", timeout=TIMEOUT_MS)
    assert stays.locator(".life-banner.away").count() == 0
    gone.context.close()   # the player to move leaves
    row = stays.locator(f"#life-away-{mover}")
    row.wait_for(timeout=TIMEOUT_MS)
    text = " ".join(row.inner_text().split())
    assert text.startswith(f"{names[mover]} is away (") and "— you may let a bot play for them in 0:0" in text, text
    badge = stays.locator(f"#players-list .player-row[data-seat='{mover}'] .life-away-badge")
    assert badge.inner_text().startswith("bot in 0:0")
    stays.screenshot(path=str(ARTIFACTS / "12-away-countdown.png"))
    # once the grace has passed the button replaces the countdown, in the turn card and the Players card
    button = stays.locator(f"#life-away-{mover} button.life-hand")
    button.wait_for(timeout=TIMEOUT_MS)
    assert button.inner_text() == f"Let a bot play for {names[mover]}"
    assert stays.locator(f"#players-list .player-row[data-seat='{mover}'] button.life-hand-row").inner_text() == "Let a bot play"
    stays.screenshot(path=str(ARTIFACTS / "13-let-a-bot-play.png"))
    stays.set_viewport_size(PHONE)   # the same on a phone: the turn card under the board
    button.scroll_into_view_if_needed()
    assert button.is_visible()
    stays.screenshot(path=str(ARTIFACTS / "13b-let-a-bot-play-phone.png"))
    stays.set_viewport_size(DESKTOP)
    seq = stays.evaluate("window.citygames.last.seq")
    button.click()
    stays.wait_for_selector(f"body[data-zombie='{mover}']", timeout=TIMEOUT_MS)
    stays.wait_for_function(f"() => window.citygames.last.seq > {seq}", timeout=TIMEOUT_MS)   # the bot moved
    notice = f"{names[1 - mover]} handed {names[mover]}'s seat to a bot (away for "
    assert notice in stays.inner_text("#life-notices") and notice in stays.inner_text("#log")
    assert f"{names[mover]}: played by a bot (away)" in stays.inner_text("#life")
    assert stays.inner_text(f"#players-list .player-row[data-seat='{mover}'] .seat-badges") == "bot playing"
    assert stays.locator(".life-banner.away").count() == 0
    stays.screenshot(path=str(ARTIFACTS / "14-bot-plays-the-seat-away.png"))
    # the player comes back (on a phone): told a bot plays for them, and why; takes the seat back
    back = _open(browser, server + t["seats"][mover]["join_url"], errors, PHONE)
    banner = back.locator("#life-zombie")
    banner.wait_for(timeout=TIMEOUT_MS)
    assert (f"A bot is playing for you — {names[1 - mover]} let a bot play for you while you were away."
            in banner.inner_text())
    back.screenshot(path=str(ARTIFACTS / "15-back-bot-plays-for-you-phone.png"))
    back.click("#life-take-back")
    back.wait_for_selector("body[data-zombie='']", timeout=TIMEOUT_MS)
    stays.wait_for_selector("body[data-zombie='']", timeout=TIMEOUT_MS)
    assert f"{names[mover]} took their seat back from the bot" in stays.inner_text("#life-notices")
    back.screenshot(path=str(ARTIFACTS / "16-taken-back-phone.png"))
    assert base._get_json(f"{server}/api/tables/{t['table_id']}")["seats"][mover].get("zombie") is None
    assert not errors, errors
