"""Between Two Cities: the shape of one city (``shared/reference/between_two_cities.md``, cited as §N).

A city lives on a square grid of side ``W``: the base game's engine uses ``W = 7`` (the first tile
goes in the centre and the 4 x 4 frame may lie anywhere around it, §4); the Capitals uses ``W = 9``
with the landscape mat in the centre (the 5 x 5 frame, §8.3). A cell is ``row * W + col``, row 0 at
the top, column 0 at the left.

A ``Geometry`` holds what never changes during a game for one city layout: the landscape mat's
terrain squares (never built on, §8.3), its bridges (the tiles on the two sides of a bridge are
adjacent "for placement and for all scoring", §8.3, HU-CAP) and, derived from those, each cell's
neighbours and the straight lines the shop scoring reads (§5). One ``Geometry`` is built per layout
and shared by every state of every game with that layout, so it is immutable.
"""

from __future__ import annotations

from typing import Iterable


class Geometry:
    """The cells, neighbours and straight lines of one city layout (immutable, hashable, picklable).

    Args:
        width: ``W``, the side of the square grid (>= 1); cells are ``0 .. W*W - 1``, ``row * W + col``.
        terrain: the cells that are terrain (a landscape mat's unbuildable squares, §8.3); none in the
            base game.
        bridges: pairs ``(a, b)`` of non-terrain cells that a bridge links (§8.3), usually the two
            cells on either side of one terrain square. Stored sorted, each pair as ``(min, max)``.
        lines_cross_bridges: whether a bridge spanning exactly one terrain square in a row (or a
            column) joins the straight runs on its two sides into one line for the shop scoring
            (§8.3 / §10 #6 PROJECT DEFAULT: yes, [U]); when False, terrain always breaks a line.

    Attributes:
        width, size (``W * W``), terrain, bridges, lines_cross_bridges: as given.
        adj: per cell, the tuple of its neighbour cells: the orthogonal grid neighbours that are not
            terrain, in the order up, left, right, down, then its bridge partners (§5: adjacency is
            "always orthogonal"; §8.3: bridges). Terrain cells have ``()``.
        row_lines / col_lines: every maximal straight run of non-terrain cells along a row / a column
            (singletons included), each a tuple of cells in order (left to right / top to bottom), so
            consecutive entries are line neighbours; a one-square bridge in line joins two runs when
            ``lines_cross_bridges``. Rows top to bottom, then columns left to right.
        lines: ``row_lines + col_lines`` (every non-terrain cell is in exactly one row line and one
            column line).
        next_h / next_v: per cell, the next cell of its row line / column line, or -1 (terrain: -1).
        prev_h / prev_v: per cell, the previous cell of its row line / column line, or -1.
        memo: a per-layout cache for the scoring (results keyed by what they depend on); not part of
            the layout's identity, never pickled.

    Raises:
        ValueError: a width below 1, a terrain cell or a bridge end outside the grid, a bridge end on
            terrain, or a bridge linking a cell to itself.
    """

    __slots__ = ("width", "size", "terrain", "bridges", "lines_cross_bridges", "adj", "row_lines", "col_lines",
                 "lines", "next_h", "prev_h", "next_v", "prev_v", "memo")

    def __init__(self, width: int, terrain: Iterable[int] = frozenset(),
                 bridges: Iterable[tuple[int, int]] = (), lines_cross_bridges: bool = True):
        width = int(width)
        if width < 1:
            raise ValueError(f"a city grid needs a width of at least 1, got {width}")
        size = width * width
        terrain = frozenset(int(c) for c in terrain)
        bad = sorted(c for c in terrain if not 0 <= c < size)
        if bad:
            raise ValueError(f"terrain cells {bad} lie outside the {width} x {width} grid")
        pairs = []
        for pair in bridges:
            a, b = (int(x) for x in pair)
            for c in (a, b):
                if not 0 <= c < size:
                    raise ValueError(f"bridge {a}-{b}: cell {c} lies outside the {width} x {width} grid")
                if c in terrain:
                    raise ValueError(f"bridge {a}-{b}: cell {c} is terrain (a bridge links two buildable cells)")
            if a == b:
                raise ValueError(f"bridge {a}-{b} links a cell to itself")
            pairs.append((min(a, b), max(a, b)))
        bridges = tuple(sorted(set(pairs)))
        put = object.__setattr__
        put(self, "width", width)
        put(self, "size", size)
        put(self, "terrain", terrain)
        put(self, "bridges", bridges)
        put(self, "lines_cross_bridges", bool(lines_cross_bridges))
        put(self, "memo", {})

        nbrs: list[list[int]] = [[] for _ in range(size)]
        for cell in range(size):
            if cell in terrain:
                continue
            r, c = divmod(cell, width)
            for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
                if 0 <= rr < width and 0 <= cc < width and rr * width + cc not in terrain:
                    nbrs[cell].append(rr * width + cc)
        for a, b in bridges:
            if b not in nbrs[a]:
                nbrs[a].append(b)
                nbrs[b].append(a)
        put(self, "adj", tuple(tuple(n) for n in nbrs))

        # line links: consecutive non-terrain cells of a row / column, plus in-line one-square bridges
        next_h, prev_h, next_v, prev_v = [-1] * size, [-1] * size, [-1] * size, [-1] * size
        for cell in range(size):
            if cell in terrain:
                continue
            r, c = divmod(cell, width)
            if c + 1 < width and cell + 1 not in terrain:
                next_h[cell], prev_h[cell + 1] = cell + 1, cell
            if r + 1 < width and cell + width not in terrain:
                next_v[cell], prev_v[cell + width] = cell + width, cell
        if lines_cross_bridges:
            for a, b in bridges:       # a < b
                ra, ca = divmod(a, width)
                rb, cb = divmod(b, width)
                if ra == rb and cb - ca == 2 and a + 1 in terrain:
                    next_h[a], prev_h[b] = b, a
                elif ca == cb and rb - ra == 2 and a + width in terrain:
                    next_v[a], prev_v[b] = b, a
        put(self, "next_h", tuple(next_h))
        put(self, "prev_h", tuple(prev_h))
        put(self, "next_v", tuple(next_v))
        put(self, "prev_v", tuple(prev_v))

        def chains(order: Iterable[int], prev: list[int], nxt: list[int]) -> tuple[tuple[int, ...], ...]:
            out = []
            for start in order:
                if start in terrain or prev[start] != -1:
                    continue
                line, cell = [], start
                while cell != -1:
                    line.append(cell)
                    cell = nxt[cell]
                out.append(tuple(line))
            return tuple(out)

        rows = chains(range(size), prev_h, next_h)
        cols = chains((r * width + c for c in range(width) for r in range(width)), prev_v, next_v)
        put(self, "row_lines", rows)
        put(self, "col_lines", cols)
        put(self, "lines", rows + cols)

    def __setattr__(self, name, value):
        raise AttributeError(f"Geometry is immutable (cannot set {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"Geometry is immutable (cannot delete {name!r})")

    def _key(self) -> tuple:
        return (self.width, self.terrain, self.bridges, self.lines_cross_bridges)

    def __eq__(self, other) -> bool:
        return isinstance(other, Geometry) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self):
        return (Geometry, (self.width, tuple(sorted(self.terrain)), self.bridges, self.lines_cross_bridges))

    def __repr__(self) -> str:
        return (f"Geometry(width={self.width}, terrain={sorted(self.terrain)}, bridges={list(self.bridges)}, "
                f"lines_cross_bridges={self.lines_cross_bridges})")

    def cell(self, row: int, col: int) -> int:
        """The cell index of 0-based ``(row, col)``; ``ValueError`` outside the grid."""
        if not (0 <= row < self.width and 0 <= col < self.width):
            raise ValueError(f"({row}, {col}) lies outside the {self.width} x {self.width} grid")
        return row * self.width + col

    def rowcol(self, cell: int) -> tuple[int, int]:
        """The 0-based ``(row, col)`` of a cell index."""
        return divmod(cell, self.width)


__all__ = ["Geometry"]
