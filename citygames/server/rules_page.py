"""The "How to play" page of each game (issue 15, "Rules help"): ``GET /rules/{game_id}``.

The text is the project's own, kept as data: ``citygames/games/<game>/data/howto.md`` (Markdown).
It is rendered on the server with markdown-it-py with raw HTML turned off (a ``<script>`` in the
file is shown as text, never run) into a page with no inline script or style, so it is served under
the server's Content-Security-Policy as it is. ``citygames rules GAME --how-to-play`` prints the same text.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from importlib import resources

from fastapi.responses import HTMLResponse

from citygames.core import registered_games
from citygames.core.registry import game_info

__all__ = ["howto_text", "howto_html", "rules_page", "NoHowTo"]


class NoHowTo(LookupError):
    """The game is unknown or has no "How to play" text."""


def howto_text(game_id: str) -> str:
    """The Markdown text of ``game_id``'s "How to play" (``data/howto.md`` of its package).

    Raises:
        NoHowTo: ``game_id`` is not a registered game or its package has no ``data/howto.md``.
    """
    if game_id not in registered_games():
        raise NoHowTo(f"no game {game_id!r}")
    try:
        return (resources.files(f"citygames.games.{game_id}") / "data" / "howto.md").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, OSError):
        raise NoHowTo(f"{game_id} has no how-to-play page") from None


def _markdown():
    from markdown_it import MarkdownIt
    # commonmark with raw HTML off: "<b>" in the text is escaped; tables on for the scoring summaries
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


#: a code span holding only a colour, ``#1c7ed6``: drawn as a small square of that colour
_SWATCH = re.compile(r"<code>(#[0-9a-fA-F]{6})</code>")


def _swatch(m: re.Match) -> str:
    # an SVG presentation attribute, not a style: nothing the Content-Security-Policy refuses
    return (f'<svg class="howto-swatch" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">'
            f'<rect x="0.5" y="0.5" width="13" height="13" rx="3" fill="{m.group(1)}" stroke="rgba(0,0,0,.35)"/></svg>')


@lru_cache(maxsize=16)
def howto_html(game_id: str) -> str:
    """``howto_text(game_id)`` rendered as an HTML fragment (raw HTML in the text escaped, unsafe
    link schemes such as ``javascript:`` dropped by markdown-it's link check). A code span holding
    only a colour (`` `#1c7ed6` ``) becomes a small square of that colour: the colours the board
    draws.

    Raises:
        NoHowTo: as ``howto_text``.
    """
    return _SWATCH.sub(_swatch, _markdown().render(howto_text(game_id)))


def _game_name(game_id: str) -> str:
    try:
        return game_info(game_id).name
    except Exception:  # pragma: no cover - a broken game package: its id is name enough
        return game_id


def _shell(status: int, title: str, body: str) -> HTMLResponse:
    esc = html.escape
    others = "".join(
        f'<li><a href="/rules/{esc(g)}">{esc(_game_name(g))}</a></li>'
        for g in registered_games() if _has_howto(g))
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{esc(title)} — citygames</title><link rel="stylesheet" href="/static/style.css">'
        f'<link rel="stylesheet" href="/static/rules.css"><link rel="icon" href="data:,"></head>'
        f'<body class="rules-page"><header class="topbar"><a class="brand" href="/">city<span>games</span></a>'
        f'<span class="status-line">{esc(title)}</span><span class="spacer"></span>'
        f'<a class="rules-back" href="/" id="rules-back">← Back to the lobby</a></header>'
        f'<main class="rules-main">{body}'
        f'<nav class="rules-nav card" aria-label="other games"><h2>How to play</h2><ul>{others}</ul>'
        f'<p><a href="/">← Back to the lobby</a></p></nav></main></body></html>', status_code=status)


@lru_cache(maxsize=32)
def _has_howto(game_id: str) -> bool:
    try:
        howto_text(game_id)
        return True
    except NoHowTo:
        return False


def rules_page(game_id: str) -> HTMLResponse:
    """The "How to play" page of ``game_id`` (200), or a 404 page with the way back when the game
    is unknown or has no text. Reads a file and renders Markdown: call it in a worker thread."""
    try:
        body = howto_html(game_id)
    except NoHowTo:
        shown = game_id if len(game_id) <= 40 and game_id.isprintable() else "that game"
        return _shell(404, "No such game",
                      f'<article class="card howto"><h1>No such game</h1><p class="message-text">'
                      f'There is no how-to-play page for {html.escape(shown)}. The games are listed '
                      f'below.</p></article>')
    name = _game_name(game_id)
    return _shell(200, f"How to play {name}",
                  f'<article class="card howto" id="howto" data-game="{html.escape(game_id)}">{body}</article>')
