"""The "How to play" pages, ``GET /rules/{game}`` (issue 15, "Rules help").

Each of the four games has a page made from its ``data/howto.md`` with the goal, the turn
structure, the symbols and the scoring; an unknown game answers a 404 page with a way back; raw
HTML in the Markdown is shown as text, never passed through; the page has no inline script or style
(the Content-Security-Policy would refuse them).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from citygames.cli import main
from citygames.server import rules_page

from server_helpers import server, watchdog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = {
    "the_capitals": ("How to play The Capitals", ["The goal", "A round", "What you see on the board", "Scoring"],
                     ["Politics", "World Expo", "Placement penalties", "construction tokens"]),
    "quadropolis": ("How to play Quadropolis", ["The goal", "Rounds and turns", "What you see on the board", "Scoring"],
                    ["Urbanist", "Mayor", "Unused inhabitants", "Pollution"]),
    "seven_wonders_duel": ("How to play 7 Wonders Duel", ["The goal", "A turn", "What you see on the board", "Scoring"],
                           ["Age III", "Military supremacy", "Progress tokens", "Treasury"]),
    "between_two_cities": ("How to play Between Two Cities", ["The goal", "Rounds", "What you see on the board",
                                                             "Scoring"],
                           ["duplexes", "lower of your two cities", "Taverns", "Houses"]),
}


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(60):
        yield


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with server(tmp_path_factory.mktemp("rules") / "t.sqlite3") as c:
        yield c


def _headings(page: str, level: int) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(rf"<h{level}>(.*?)</h{level}>", page)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_has_its_page(client, game):
    title, sections, words = GAMES[game]
    r = client.get(f"/rules/{game}", headers={"Accept": "text/html"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = r.text
    assert _headings(page, 1) == [title]
    assert set(sections) <= set(_headings(page, 2))
    for w in words:
        assert w in page
    assert "<table>" in page                       # the symbols and scoring tables are rendered
    assert '<a class="brand" href="/">' in page and 'href="/"' in page   # the way back to the lobby
    for other in GAMES:                            # and to the other games' pages
        assert f'href="/rules/{other}"' in page
    # nothing inline: the server's Content-Security-Policy allows only its own files
    assert "<script" not in page and "<style" not in page and " style=" not in page
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert '<link rel="stylesheet" href="/static/rules.css">' in page
    assert client.get("/static/rules.css").status_code == 200


@pytest.mark.parametrize("path", ["/rules/chess", "/rules/%3Cscript%3Ealert(1)",
                                  "/rules/" + "x" * 300])
def test_unknown_game_is_a_404_page_with_a_way_back(client, path):
    r = client.get(path, headers={"Accept": "text/html"})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "No such game" in r.text and 'href="/"' in r.text
    assert "<script>" not in r.text
    assert 'href="/rules/the_capitals"' in r.text


def test_raw_html_in_the_markdown_is_not_passed_through(client, monkeypatch):
    text = ("# How to play X\n\n<script>alert(1)</script>\n\n<b onclick=\"x()\">bold</b> and "
            "[a link](javascript:alert(2)) and <img src=x onerror=alert(3)>\n")
    monkeypatch.setattr(rules_page, "howto_text", lambda game_id: text)
    rules_page.howto_html.cache_clear()
    try:
        page = client.get("/rules/the_capitals").text
    finally:
        rules_page.howto_html.cache_clear()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b " not in page and "&lt;b onclick" in page
    assert "<img" not in page and "javascript:" not in page.replace("[a link](javascript:alert(2))", "")
    assert 'href="javascript' not in page


def test_cli_prints_the_same_text():
    r = CliRunner().invoke(main, ["rules", "quadropolis", "--how-to-play"])
    assert r.exit_code == 0, r.output
    assert r.output.strip() == rules_page.howto_text("quadropolis").strip()
    assert "# How to play Quadropolis" in r.output
