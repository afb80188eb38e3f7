"""Between Two Cities: one city as text, in the reference sheet's notation (§6 of
``shared/reference/between_two_cities.md``), for tests, bug reports and the terminal.

**Notation.** Rows top to bottom, separated by ``/`` or line breaks; in a row, one token per cell
separated by spaces, from ``constants.KIND_CODES`` (case-insensitive)::

    S  shop        F  factory     Tm Tf Td Tb  tavern: music, food, drink, bed
    O  office      P  park        H  house     C0 .. C20  civic building k (Capitals)
    .  empty       #  terrain (a landscape mat's unbuildable square, Capitals)

Every row has the same number of cells. Clauses may follow the grid, each after a ``|``:

- ``bridges r1c2-r1c4 r3c1-r5c1`` (spaces or commas between them): bridges between the cells at 1-based
  row / column of the text's grid (§8.3: the tiles on the two sides of a bridge are adjacent).
- ``lines break``: a bridge never carries a shop line across terrain (``Geometry(lines_cross_bridges=
  False)``; the default carries it across a one-square bridge in line, §8.3 PROJECT DEFAULT).

Example (a Capitals corner with a bridge over a river square)::

    S S # S / . H # F | bridges r1c2-r1c4 r2c2-r2c4
"""

from __future__ import annotations

from typing import Iterable

from citygames.core.errors import PositionError

from .constants import EMPTY, KIND_CODES, TERRAIN
from .geometry import Geometry

_KIND_OF = {code.upper(): kind for kind, code in enumerate(KIND_CODES)}
_CODES_HELP = " ".join(KIND_CODES)


def _cell_ref(text: str, rows: int, cols: int) -> tuple[int, int]:
    t = text.strip().lower()
    r, sep, c = t[1:].partition("c")
    if not t.startswith("r") or not sep or not r.isdigit() or not c.isdigit():
        raise PositionError(f"bridge end {text!r}: write a cell as rROWcCOL, 1-based (e.g. r1c2)")
    row, col = int(r), int(c)
    if not (1 <= row <= rows and 1 <= col <= cols):
        raise PositionError(f"bridge end {text!r} lies outside the {rows} x {cols} city text")
    return row - 1, col - 1


def parse_city(text: str, width: int | None = None, bridges: Iterable[tuple[int, int]] = (),
               lines_cross_bridges: bool = True, origin: tuple[int, int] = (0, 0)
               ) -> tuple[list[int], Geometry]:
    """Read a city in the module's notation.

    Args:
        text: the city, e.g. ``"S S S S / H H O Tm / O P O O / O P H P"``.
        width: the grid side ``W`` (the engine's: 7 for the base game, 9 for the Capitals); ``None``:
            the text's larger dimension.
        bridges: more bridges, as pairs of cell indices of the final ``W x W`` grid.
        lines_cross_bridges: as ``Geometry``; a ``| lines break`` clause sets it to False.
        origin: the 0-based ``(row, col)`` of the grid where the text's top-left cell goes.
    Returns:
        ``(cells, geo)``: ``W * W`` kind codes (``TERRAIN`` on ``#``) and the layout (terrain = the ``#``
        cells).
    Raises:
        PositionError: an unknown token (named with its row), rows of different lengths, an empty text,
            a text that does not fit the width, an unknown clause or a bad bridge (the message says which).
    """
    if not isinstance(text, str):
        raise PositionError(f"a city text must be a text, got {type(text).__name__}")
    grid_text, *clauses = text.split("|")
    rows = [line.split() for part in grid_text.split("/") for line in part.splitlines()]
    rows = [r for r in rows if r]
    if not rows:
        raise PositionError("the city text has no rows")
    ncols = len(rows[0])
    kinds: list[list[int]] = []
    for r, tokens in enumerate(rows, 1):
        if len(tokens) != ncols:
            raise PositionError(f"row {r} has {len(tokens)} cells, row 1 has {ncols} (every row needs the same number; "
                                f"'.' is an empty cell)")
        row = []
        for c, tok in enumerate(tokens, 1):
            kind = _KIND_OF.get(tok.upper())
            if kind is None:
                raise PositionError(f"row {r}, cell {c}: unknown token {tok!r} (a cell is one of {_CODES_HELP})")
            row.append(kind)
        kinds.append(row)
    nrows = len(rows)
    text_bridges: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for clause in clauses:
        words = clause.replace(",", " ").split()
        if not words:
            raise PositionError("an empty clause after '|' (clauses: 'bridges r1c2-r1c4 ...', 'lines break')")
        head = words[0].lower()
        if head == "bridges":
            for item in words[1:]:
                a, sep, b = item.partition("-")
                if not sep:
                    raise PositionError(f"bridge {item!r}: write a bridge as rROWcCOL-rROWcCOL (e.g. r1c2-r1c4)")
                text_bridges.append((_cell_ref(a, nrows, ncols), _cell_ref(b, nrows, ncols)))
        elif head == "lines" and [w.lower() for w in words[1:]] == ["break"]:
            lines_cross_bridges = False
        else:
            raise PositionError(f"unknown clause {clause.strip()!r} (clauses: 'bridges r1c2-r1c4 ...', 'lines break')")
    r0, c0 = origin
    w = max(nrows, ncols) if width is None else int(width)
    if r0 < 0 or c0 < 0 or r0 + nrows > w or c0 + ncols > w:
        raise PositionError(f"a city text of {nrows} x {ncols} at (row {r0}, col {c0}) does not fit a {w} x {w} grid")
    cells = [EMPTY] * (w * w)
    for r, row in enumerate(kinds):
        for c, kind in enumerate(row):
            cells[(r0 + r) * w + c0 + c] = kind
    pairs = [((r0 + ra) * w + c0 + ca, (r0 + rb) * w + c0 + cb) for (ra, ca), (rb, cb) in text_bridges]
    pairs += [tuple(p) for p in bridges]
    try:
        geo = Geometry(w, frozenset(i for i, k in enumerate(cells) if k == TERRAIN), pairs, lines_cross_bridges)
    except ValueError as exc:
        raise PositionError(f"bad city layout: {exc}") from None
    return cells, geo


def format_city(cells: list[int] | tuple[int, ...], geo: Geometry, trim: bool = True) -> str:
    """The city in the module's notation (``parse_city`` reads it back).

    Args:
        cells: kind codes, length ``geo.size``.
        trim: keep only the bounding box of the non-empty cells (terrain included) and the bridges' ends;
            the whole ``W x W`` grid when False or when the city is empty. Bridges are written relative to
            the box, so ``parse_city(format_city(cells, geo, trim=False), geo.width)`` gives ``(cells, geo)``
            back, and a trimmed text gives them back with ``origin`` = the box's top-left.
    Returns:
        e.g. ``"S S S S / H H O Tm / O P O O / O P H P"``, then ``" | bridges r1c2-r1c4"`` if there are
        bridges and ``" | lines break"`` if ``geo.lines_cross_bridges`` is False and there are bridges.
    Raises:
        ValueError: ``cells`` is not ``geo.size`` long or holds a code that is not a kind.
    """
    w = geo.width
    if len(cells) != geo.size:
        raise ValueError(f"a city of this layout has {geo.size} cells, got {len(cells)}")
    used = {i for i, k in enumerate(cells) if k != EMPTY} | {c for pair in geo.bridges for c in pair}
    if trim and used:
        rows = [i // w for i in used]
        cols = [i % w for i in used]
        r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    else:
        r0, r1, c0, c1 = 0, w - 1, 0, w - 1
    out = []
    for r in range(r0, r1 + 1):
        toks = []
        for c in range(c0, c1 + 1):
            k = cells[r * w + c]
            if not 0 <= k < len(KIND_CODES):
                raise ValueError(f"cell {r * w + c} holds {k!r}, not a kind code")
            toks.append(KIND_CODES[k])
        out.append(" ".join(toks))
    text = " / ".join(out)
    if geo.bridges:
        refs = []
        for a, b in geo.bridges:
            (ra, ca), (rb, cb) = divmod(a, w), divmod(b, w)
            refs.append(f"r{ra - r0 + 1}c{ca - c0 + 1}-r{rb - r0 + 1}c{cb - c0 + 1}")
        text += " | bridges " + " ".join(refs)
        if not geo.lines_cross_bridges:
            text += " | lines break"
    return text


__all__ = ["parse_city", "format_city"]
