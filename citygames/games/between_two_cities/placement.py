"""Between Two Cities: placing tiles and duplexes in the cities (§4, §8.3).

Rules (§4 [C]): the first tile of a city may go anywhere (the engine: the centre cell of its 7 x 7
grid, every position being the same up to translation); with the Capitals on an empty square of the
city's landscape mat (§8.3 [C]). Every later tile shares an edge with a placed tile (bridges count as
edges, §8.3; the mat's squares are not placed tiles); the bounding box of the tiles (Capitals: and of
the mat) stays within 4 x 4 (Capitals 5 x 5); nothing is rotated. A duplex covers two cells side by
side (horizontal) or one above the other (vertical), both empty and inside the frame, at least one
half next to a placed tile. Every seat places one of its two tiles in each of its two cities: the
first may go to either city, the second to the other.

When nothing is legal (§4 is silent, §10 #7), the engine relaxes the rule step by step
(``tiles.yaml`` ``rules.placement_fallback``): 2 any empty cell inside the frame, 3 any empty cell
next to a placed tile, 4 any empty cell. Level 1 (the rule) always has a spot for a single tile
before the city is full; the other levels only matter for a duplex that fits nowhere.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .constants import EMPTY
from .components import MAX_CELLS
from .draft import end_of_turn
from .steps import PLACE, PLACE_DUPLEX


def window(s, city: int) -> tuple[int, int, int, int]:
    """Rows and columns ``(r0, r1, c0, c1)`` (inclusive) a new tile of ``city`` may take without its
    bounding box (Capitals: with the mat) growing beyond the frame."""
    g = s.game
    W, F = g.width, g.frame
    minr, maxr, minc, maxc = s.box[4 * city:4 * city + 4]
    if maxr < 0:
        return 0, W - 1, 0, W - 1
    return max(0, maxr - F + 1), min(W - 1, minr + F - 1), max(0, maxc - F + 1), min(W - 1, minc + F - 1)


def first_cells(s, city: int) -> tuple[int, ...]:
    """Where a city's first tile may go: the centre cell (base game), the mat's empty squares (§8.3)."""
    g = s.game
    if g.capitals:
        return g.components.mats[s.mats[city]].squares
    return (g.centre,)


def _in(g, box: tuple, x: int) -> bool:
    r0, r1, c0, c1 = box
    r = g.row_of[x]
    c = g.col_of[x]
    return r0 <= r <= r1 and c0 <= c <= c1


def _single_levels(s, city: int) -> tuple[int, list[int]]:
    g = s.game
    size = g.size
    base = city * size
    cells = s.cells
    if s.count[city] == 0:
        return 1, [x for x in first_cells(s, city) if cells[base + x] == EMPTY]
    r0, r1, c0, c1 = window(s, city)
    row_of, col_of = g.row_of, g.col_of
    out = [x for x in s.front[city] if r0 <= row_of[x] <= r1 and c0 <= col_of[x] <= c1]
    if out:
        return 1, out
    W = g.width
    free = [x for r in range(r0, r1 + 1) for x in range(r * W + c0, r * W + c1 + 1) if cells[base + x] == EMPTY]
    if free:
        return 2, free
    if s.front[city]:
        return 3, list(s.front[city])
    return 4, [x for x in range(size) if cells[base + x] == EMPTY]


def single_cells(s, city: int) -> tuple[int, list[int]]:
    """``(level, cells)``: where a single tile may go in ``city`` now, and by which level of
    ``placement_fallback`` (1: the rule)."""
    return _single_levels(s, city)


def _duplex_level(s, city: int, d: int, level: int) -> list[int]:
    g = s.game
    W = g.width
    size = g.size
    base = city * size
    cells = s.cells
    step = 1 if g.components.duplexes[d].horizontal else W
    box = window(s, city) if level <= 2 else (0, W - 1, 0, W - 1)
    col_of = g.col_of
    if level in (1, 3):   # one half next to a placed tile (or, in an empty city, on a first-tile square)
        near = s.front[city] if s.count[city] else first_cells(s, city)
        cand = sorted({y for x in near for y in (x, x - step)})
    else:
        cand = range(size)
    out = []
    for x in cand:
        y = x + step
        if x < 0 or y >= size or (step == 1 and col_of[x] == W - 1):
            continue
        if cells[base + x] != EMPTY or cells[base + y] != EMPTY:
            continue
        if _in(g, box, x) and _in(g, box, y):
            out.append(x)
    return out


def duplex_cells(s, city: int, d: int, strict: bool = False) -> list[int]:
    """The cells where duplex ``d``'s left (or top) half may go in ``city``: by the rule (§4), or if
    there is none and not ``strict``, by the first fallback level with a spot (module docstring)."""
    return duplex_levels(s, city, d, strict)[1]


def duplex_levels(s, city: int, d: int, strict: bool = False) -> tuple[int, list[int]]:
    """``(level, cells)`` for duplex ``d`` in ``city`` (see ``duplex_cells``)."""
    for level in ((1,) if strict else (1, 2, 3, 4)):
        out = _duplex_level(s, city, d, level)
        if out:
            return level, out
    return (1 if strict else 4), []


def _cities(s, p: int) -> tuple[int, int]:
    g = s.game
    return g.left[p], g.right[p]


def _sides_open(s, p: int) -> tuple[int, ...]:
    """The sides seat ``p`` may still place on this turn: both, or the other one after its first."""
    side = s.side[p]
    return (0, 1) if side < 0 else (1 - side,)


def place_legal(s) -> list:
    """The ``place`` actions of the seat to move: each tile it still has to place, on each side open to
    it, on each cell ``single_cells`` allows (§4)."""
    g = s.game
    p = s.player
    table = g.action_space.table
    off = g.off["place"]
    kinds = sorted({k for k in s.todo[2 * p:2 * p + 2] if k > 0})
    cities = _cities(s, p)
    out = []
    sides = _sides_open(s, p)
    spots = [_single_levels(s, cities[side])[1] if side in sides else () for side in (0, 1)]
    for k in kinds:
        for side in sides:
            base = off + ((k - 1) * 2 + side) * MAX_CELLS
            out += [table[base + x] for x in spots[side]]
    return out


def place_why(s, a) -> str:
    g = s.game
    if a.kind != "place":
        return f"now {g.seat_name(s.player)} must place one of its chosen tiles (§3)"
    rest, x = divmod(a.arg, MAX_CELLS)
    k, side = divmod(rest, 2)
    k += 1
    p = s.player
    if k not in s.todo[2 * p:2 * p + 2]:
        return f"{g.seat_name(p)} has no such tile to place"
    if side not in _sides_open(s, p):
        return "a seat places one tile in each of its two cities: the second goes to the other city (§3)"
    city = _cities(s, p)[side]
    if x >= g.size or s.cells[city * g.size + x] != EMPTY:
        return "that square is not an empty buildable square of the city"
    if s.count[city] == 0:
        return ("the first building goes on an empty square of the landscape mat (§8.3)" if g.capitals
                else "the engine puts a city's first tile in the centre of its grid (§4: any position is the same)")
    return (f"a tile must share an edge with a placed tile and the city must stay within {g.frame} x {g.frame} "
            f"(§4{', §8.3' if g.capitals else ''})")


def _put(s, city: int, x: int, kind: int) -> None:
    g = s.game
    s.cells[city * g.size + x] = kind
    s.count[city] += 1
    r, c = divmod(x, g.width)
    b = 4 * city
    box = s.box
    if r < box[b]:
        box[b] = r
    if r > box[b + 1]:
        box[b + 1] = r
    if c < box[b + 2]:
        box[b + 2] = c
    if c > box[b + 3]:
        box[b + 3] = c
    fr = set(s.front[city])
    fr.discard(x)
    base = city * g.size
    cells = s.cells
    for y in g.geometries(s.mats)[city].adj[x]:
        if cells[base + y] == EMPTY:
            fr.add(y)
    front = s.front
    s.front = front[:city] + (tuple(sorted(fr)),) + front[city + 1:]


def _placed(s, p: int, side: int, slot: int) -> None:
    """Bookkeeping after seat ``p`` placed the tile of ``todo`` slot ``slot`` on ``side``: its next
    placement, the next seat, or the end of the turn."""
    s.todo[2 * p + slot] = -1
    if s.side[p] < 0:
        s.side[p] = side
        return
    s.side[p] = 2
    n = s.game.num_players
    if p + 1 < n:
        s.player = p + 1
        return
    s.step = NO_DECISION
    s.player = 0
    end_of_turn(s)


def place(s, arg: int) -> None:
    """Put a chosen tile on a cell of one of the seat's cities (§3, §4)."""
    rest, x = divmod(arg, MAX_CELLS)
    k, side = divmod(rest, 2)
    k += 1
    p = s.player
    city = _cities(s, p)[side]
    level = single_cells(s, city)[0]
    _put(s, city, x, k)
    slot = 0 if s.todo[2 * p] == k else 1
    data = {"tile": k, "city": city, "cell": x, "width": s.game.width}
    if level > 1:
        data["fallback"] = level
    s.event("place", p, **data)
    _placed(s, p, side, slot)


def place_duplex_legal(s) -> list:
    """The ``place_duplex`` actions of the seat to move: each duplex it still has to place, on each side
    open to it, at each anchor cell ``duplex_cells`` allows (§4)."""
    g = s.game
    p = s.player
    table = g.action_space.table
    off = g.off["place_duplex"]
    cities = _cities(s, p)
    out = []
    for d in sorted({d for d in s.todo[2 * p:2 * p + 2] if d >= 0}):
        for side in _sides_open(s, p):
            base = off + (d * 2 + side) * MAX_CELLS
            for x in duplex_cells(s, cities[side], d):
                out.append(table[base + x])
    return out


def place_duplex_why(s, a) -> str:
    g = s.game
    if a.kind != "place_duplex":
        return f"now {g.seat_name(s.player)} must place one of its kept duplexes (§3 round 2)"
    rest, x = divmod(a.arg, MAX_CELLS)
    d, side = divmod(rest, 2)
    p = s.player
    if d not in s.todo[2 * p:2 * p + 2]:
        return f"{g.seat_name(p)} has no such duplex to place"
    if side not in _sides_open(s, p):
        return "a seat places one duplex in each of its two cities: the second goes to the other city (§3)"
    return (f"a duplex covers two empty squares in its printed orientation, one half next to a placed tile, "
            f"inside the {g.frame} x {g.frame} city (§4)")


def place_duplex(s, arg: int) -> None:
    """Put a kept duplex on two cells of one of the seat's cities (§3, §4)."""
    g = s.game
    rest, x = divmod(arg, MAX_CELLS)
    d, side = divmod(rest, 2)
    p = s.player
    city = _cities(s, p)[side]
    level = duplex_levels(s, city, d)[0]
    dup = g.components.duplexes[d]
    y = x + (1 if dup.horizontal else g.width)
    _put(s, city, x, dup.halves[0])
    _put(s, city, y, dup.halves[1])
    slot = 0 if s.todo[2 * p] == d else 1
    data = {"duplex": d, "city": city, "cell": x, "width": g.width}
    if level > 1:
        data["fallback"] = level
    s.event("place_duplex", p, **data)
    _placed(s, p, side, slot)


__all__ = ["window", "first_cells", "single_cells", "duplex_cells", "duplex_levels", "place_legal", "place_why",
           "place", "place_duplex_legal", "place_duplex_why", "place_duplex", "PLACE", "PLACE_DUPLEX"]
