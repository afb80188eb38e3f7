"""Rich-markup helpers for terminal boards (game-agnostic).

Every game's ``board_text.py`` lays its board out as rich console markup: styled pieces joined into
lines whose plain width (terminal cells) is tracked so columns line up, lists flowed over several
lines, long sentences wrapped with their styles carried over the breaks. These helpers do that
once; the games keep what they draw and in which style.

Nothing here knows a game, and nothing here prints: the functions return markup strings.
"""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.markup import escape
from rich.text import Text

__all__ = ["Line", "flow", "m", "plain_len", "plural", "wrap"]


def m(text: str, style: str | None = None) -> str:
    """``text`` escaped, wrapped in ``style`` markup when a style is given and the text is not empty."""
    text = escape(text)
    return f"[{style}]{text}[/]" if style and text else text


@lru_cache(maxsize=4096)
def plain_len(markup: str) -> int:
    """How many terminal cells ``markup`` takes once rendered (markup tags take none)."""
    return Text.from_markup(markup).cell_len


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1: ``1 lap``, ``0 laps``, ``3 laps``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def flow(parts: list[str], width: int, sep: str = " · ", indent: int = 4, first: str = "",
         style: str | None = None) -> list[str]:
    """Join markup ``parts`` with ``sep`` into lines of at most ``width`` cells, breaking between parts.

    The first line starts with ``first`` (markup, e.g. a label), the others with ``indent`` spaces;
    a line that is broken ends with ``sep`` without its trailing spaces. ``style`` wraps each part.
    A part longer than ``width`` stays whole on its own line.
    """
    lines: list[str] = []
    cur, cur_w = first, plain_len(first)
    fresh = True
    for part in parts:
        if style:
            part = f"[{style}]{part}[/]"
        w = plain_len(part)
        if not fresh and cur_w + len(sep) + w > width:
            lines.append(cur + sep.rstrip())
            cur, cur_w = " " * indent + part, indent + w
        elif not fresh:
            cur, cur_w = cur + sep + part, cur_w + len(sep) + w
        else:
            cur, cur_w = cur + part, cur_w + w
        fresh = False
    if cur.strip():
        lines.append(cur)
    return lines


def wrap(markup: str, width: int, indent: int = 4) -> list[str]:
    """Wrap one markup line at spaces into lines of at most ``width`` cells.

    Continuation lines are indented by ``indent`` spaces; styles carry over the breaks. A word
    longer than a line is cut.
    """
    text = Text.from_markup(markup)
    plain = text.plain
    cuts: list[int] = []
    start, limit = 0, width
    while len(plain) - start > limit:
        cut = plain.rfind(" ", start + 1, start + limit + 1)
        if cut <= start:
            cut = start + limit
        cuts.append(cut)
        start = cut + 1 if plain[cut:cut + 1] == " " else cut
        limit = width - indent
    lines = []
    for k, piece in enumerate(text.divide(cuts)):
        if k:
            piece = piece[1:] if piece.plain.startswith(" ") else piece
            lines.append(" " * indent + piece.markup)
        else:
            lines.append(piece.markup)
    return lines


class Line:
    """A line built from styled pieces placed left to right, tracking its plain width for alignment.

    ``str(line)`` is the markup with trailing spaces removed. A subclass may set ``bare_spaces``
    to keep a piece's leading and trailing spaces outside its style (so that a line ending in a
    padded piece still strips cleanly).
    """

    __slots__ = ("parts", "width")
    #: keep a piece's leading and trailing spaces unstyled
    bare_spaces = False

    def __init__(self):
        self.parts: list[str] = []
        self.width = 0

    def at(self, x: int) -> Line:
        """Pad with spaces up to column ``x`` (nothing if the line already reaches it)."""
        if self.width < x:
            self.parts.append(" " * (x - self.width))
            self.width = x
        return self

    def add(self, text: str, style: str | None = None, width: int | None = None, right: bool = False) -> Line:
        """Append plain ``text`` (escaped) in ``style``.

        With ``width``, the text is cut to ``width`` characters and padded with spaces to fill
        ``width`` cells: after it, or before it when ``right`` (right-aligned).
        """
        if width is not None:
            text = text[:width]
        w = cell_len(text)
        pad = " " * (width - w) if width is not None else ""
        if right:
            self.parts.append(pad)
        if self.bare_spaces:
            core = text.strip(" ")
            lead = len(text) - len(text.lstrip(" "))
            self.parts.append(" " * lead + m(core, style) + " " * (len(text) - lead - len(core)))
        else:
            self.parts.append(m(text, style))
        if not right:
            self.parts.append(pad)
        self.width += w + len(pad)
        return self

    def __str__(self) -> str:
        return "".join(self.parts).rstrip(" ")
