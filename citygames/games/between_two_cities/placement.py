"""Between Two Cities: placing tiles and duplexes in the cities (§4, §8.3).

Rules (§4 [C]): the first tile of a city may go anywhere (the engine: the centre cell of its 7 x 7
grid, every position being the same up to translation); with the Capitals on an empty square of the
city's landscape mat (§8.3 [C]). Every later tile shares an edge with a placed tile (bridges count as
edges, §8.3; the mat's squares are not placed tiles); the bounding box of the tiles (Capitals: and of
the mat) stays within 4 x 4 (Capitals 5 x 5); nothing is rotated. A duplex covers two cells side by
side (horizontal) or one above the other (vertical), both empty and inside the frame, at least one
half next to a placed tile. Every seat places one of its two tiles in each of its two cities: the
first may go to either city, the second to the other.

"Never place so that the finished city could not be a square" (§4, §8.3 [C]) is more than the
bounding box: a city also has to take, in round 2, two duplexes whose orientations nobody knows
before they are drawn, each with a half next to a placed tile. With ``tiles.yaml``
``rules.frame_rule: completable`` (the default) a placement is legal only if the city stays
*completable*: after it, the singles the city still receives in round 1 can be placed (adjacent,
in the frame) so that, whatever the orientation of the first duplex, it has a spot after which,
whatever the orientation of the second, that one has a spot too (``completable``). Round 3's singles
always fill the rest (a frame's buildable squares are connected, ``components._check_fillable``).
This holds for an empty city, and a city that is completable always has a placement that keeps it
so, so the stricter rule never leaves a seat without a legal move (``rules.frame_rule:
bounding_box`` checks the bounding box only).

When nothing is legal (§4 is silent, §10 #7) the engine relaxes the rule step by step
(``rules.placement_fallback``), logging the level used: 2 adjacent and inside the frame (the bounding
box alone), 3 any empty cell inside the frame, 4 any empty cell next to a placed tile, 5 any empty
cell. With ``frame_rule: completable`` this happens only where the rule cannot be kept at all (a
data override of the hand size, say); with ``bounding_box`` a duplex may find no spot (random
2-player Capitals play: 1 game in 8).
"""

from __future__ import annotations

from citygames.core.events import game_seat_label
from citygames.core.phases import NO_DECISION

from .constants import EMPTY, TERRAIN
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


#: (id(a city's ``front`` tuple), query) -> (the tuple, (level, cells)). A city's front tuple is made
#: anew by every placement in it and shared by the clones that have not moved since, so it identifies
#: the city's tiles: where a tile may go is computed once per city position (legal actions, the
#: placement itself, observations and bots ask again and again). Holding the tuple keeps its id unique.
_SEEN: dict = {}


#: the same for empty cities, by layout: (id(geometry), frame, hand size, stage, id(components)) ->
#: (geometry, components, level, cells)
_EMPTY: dict = {}


def _recall(s, city: int, query) -> tuple:
    """``(front, answer or None)`` of the cache for ``city`` now (``front`` None: not cacheable)."""
    front = s.front[city]
    if not front:
        return None, None
    e = _SEEN.get((id(front), query))
    if e is None or e[0] is not front:
        return front, None
    return front, e[1]


def _remember(front, query, answer) -> None:
    if front is None:
        return
    if len(_SEEN) > 200_000:
        _SEEN.clear()
    _SEEN[(id(front), query)] = (front, answer)


def _single_levels(s, city: int) -> tuple[int, list[int]]:
    if s.count[city] == 0:     # an empty city: the answer depends on its layout only
        g = s.game
        geo = g.geometries(s.mats)[city]
        key = (id(geo), g.frame, g.hand_size, s.stage, id(g.components))
        got = _EMPTY.get(key)
        if got is None or got[0] is not geo or got[1] is not g.components:
            level, out = _single_levels_now(s, city)
            got = _EMPTY[key] = (geo, g.components, level, tuple(out))
        return got[2], list(got[3])
    front, got = _recall(s, city, s.stage)
    if got is not None:
        return got[0], list(got[1])
    level, out = _single_levels_now(s, city)
    _remember(front, s.stage, (level, tuple(out)))
    return level, out


def _single_levels_now(s, city: int) -> tuple[int, list[int]]:
    g = s.game
    size = g.size
    base = city * size
    cells = s.cells
    if s.count[city] == 0:
        out = [x for x in first_cells(s, city) if cells[base + x] == EMPTY]
    else:
        r0, r1, c0, c1 = window(s, city)
        row_of, col_of = g.row_of, g.col_of
        out = [x for x in s.front[city] if r0 <= row_of[x] <= r1 and c0 <= col_of[x] <= c1]
    if out:
        if not _strict(g):
            return 1, out
        kept = _keep_completable(s, city, out)
        if kept:
            return 1, kept
        return 2, out
    r0, r1, c0, c1 = window(s, city)
    W = g.width
    free = [x for r in range(r0, r1 + 1) for x in range(r * W + c0, r * W + c1 + 1) if cells[base + x] == EMPTY]
    if free:
        return 3, free
    if s.front[city]:
        return 4, list(s.front[city])
    return 5, [x for x in range(size) if cells[base + x] == EMPTY]


# --- the frame: keeping the city completable (§4, §8.3; module docstring) ------------------------
#: bytes.translate table: a cell's kind -> 1 if it holds a tile (not empty, not terrain)
_OCC = bytes(1 if 0 < k < TERRAIN else 0 for k in range(256))
_LAYOUTS: dict = {}


def _strict(g) -> bool:
    rule = g.components.rules.get("frame_rule", "completable")
    if rule == "completable":
        return True
    if rule == "bounding_box":
        return False
    raise ValueError(f"tiles.yaml rules.frame_rule: 'completable' or 'bounding_box' expected, got {rule!r}")


class _Layout:
    """A city layout's masks for the frame check. A set of cells is an int with one *byte* per cell
    (cell ``x`` is bit ``8 x``), so that it can be read straight from the state's cells
    (``bytes.translate``) and a grid neighbour is a shift by 8 (a column) or ``8 W`` (a row)."""

    __slots__ = ("W", "F", "one", "nbr", "build", "notlast", "notfirst", "bridges", "rband", "cband", "rooms",
                 "memo", "plain", "rc", "spots")

    def __init__(self, geo, frame: int):
        W = geo.width
        size = W * W
        one = tuple(1 << 8 * x for x in range(size))
        self.W, self.F, self.one = W, frame, one
        self.nbr = tuple(sum(one[y] for y in geo.adj[x]) for x in range(size))
        self.build = sum(one[x] for x in range(size) if x not in geo.terrain)
        self.notlast = sum(one[x] for x in range(size) if x % W != W - 1)
        self.notfirst = sum(one[x] for x in range(size) if x % W != 0)
        self.bridges = tuple((one[a], one[b]) for a, b in geo.bridges)
        self.rband = [[sum(one[x] for x in range(size) if lo <= x // W <= hi) for hi in range(W)] for lo in range(W)]
        self.cband = [[sum(one[x] for x in range(size) if lo <= x % W <= hi) for hi in range(W)] for lo in range(W)]
        self.rooms: dict = {}
        self.memo: dict = {}
        self.rc = tuple(divmod(x, W) for x in range(size))
        #: per frame-sized window (by its top-left cell): the anchors of the side-by-side and of the
        #: upright spots lying wholly inside it
        spots = []
        for x in range(size):
            top, left = divmod(x, W)
            if top + frame > W or left + frame > W:
                spots.append((0, 0, 0))
                continue
            win = self.rband[top][top + frame - 1] & self.cband[left][left + frame - 1]
            spots.append((win & (win >> 8) & self.notlast, win & (win >> 8 * W), win & self.build))
        self.spots = tuple(spots)
        #: no terrain and no bridges (the base game): translations change nothing
        self.plain = not geo.terrain and not geo.bridges and W >= 2 * frame - 1

    def room(self, box) -> int:
        """The buildable cells a tile may take without the box growing beyond the frame."""
        m = self.rooms.get(box)
        if m is None:
            r0, r1, c0, c1 = box
            F, W = self.F, self.W
            if r1 < 0:
                m = self.build
            else:
                m = (self.rband[max(0, r1 - F + 1)][min(W - 1, r0 + F - 1)]
                     & self.cband[max(0, c1 - F + 1)][min(W - 1, c0 + F - 1)] & self.build)
            self.rooms[box] = m
        return m

    def reach(self, start: int, region: int) -> int:
        """The cells of ``region`` connected to ``start`` (a part of it) through ``region`` (bridges too)."""
        R = start
        W8 = 8 * self.W
        notfirst, notlast, bridges = self.notfirst, self.notlast, self.bridges
        while True:
            N = R | ((R << 8) & notfirst) | ((R >> 8) & notlast) | (R << W8) | (R >> W8)
            for a, b in bridges:
                if R & a:
                    N |= b
                if R & b:
                    N |= a
            N &= region
            if N == R:
                return R
            R = N


def _layout(g, geo) -> _Layout:
    got = _LAYOUTS.get((id(geo), g.frame))   # geometries live as long as the components: ids are stable
    if got is not None and got[0] is geo:
        return got[1]
    lay = _Layout(geo, g.frame)
    _LAYOUTS[(id(geo), g.frame)] = (geo, lay)
    return lay


def _grow(box, W: int, x: int, y: int | None = None) -> tuple:
    r0, r1, c0, c1 = box
    for z in (x, y):
        if z is None:
            continue
        r, c = divmod(z, W)
        if r < r0:
            r0 = r
        if r > r1:
            r1 = r
        if c < c0:
            c0 = c
        if c > c1:
            c1 = c
    return r0, r1, c0, c1


def _one_more(lay: _Layout, T: int, fr: int, box) -> int:
    """Whatever its orientation, one more duplex has a spot: two empty cells in the frame, one next to
    a tile. ``T``: the tiles, ``fr``: the empty cells next to them, ``box``: the tiles' (and mat's) box.
    One duplex alone fits the frame exactly when each half does, so this is a few mask operations.
    Returns 0 if not; else the cells of a spot of each orientation."""
    E = lay.room(box) & ~T
    h = E & (E >> 8) & lay.notlast & (fr | fr >> 8)
    if not h:
        return 0
    s = 8 * lay.W
    v = E & (E >> s) & (fr | fr >> s)
    if not v:
        return 0
    h &= -h
    v &= -v
    return h | (h << 8) | v | (v << s)


def _quick(lay: _Layout, T: int, fr: int, box) -> tuple[int, int] | None:
    """A cheap proof of ``_two_more``: in one frame-sized window around the tiles (where all spots fit
    together), two disjoint spots of each orientation next to the tiles, and a side-by-side and an
    upright one apart. Returns ``(the window's cells, the five spots' cells)`` or None. A tile on a
    cell of the window outside those spots leaves the proof standing."""
    E = lay.room(box) & ~T
    W = lay.W
    s = 8 * W
    H = E & (E >> 8) & lay.notlast & (fr | fr >> 8)
    if not H:
        return None
    V = E & (E >> s) & (fr | fr >> s)
    if not V:
        return None
    r0, r1, c0, c1 = box
    F = lay.F
    spots = lay.spots
    for top in range(max(0, r1 - F + 1), min(r0, W - F) + 1):
        for left in range(max(0, c1 - F + 1), min(c0, W - F) + 1):
            wh, wv, win = spots[top * W + left]
            h = H & wh
            if not h:
                continue
            v = V & wv
            if not v:
                continue
            lh = h & -h
            lv = v & -v
            h2 = h & ~(lh | lh << 8)
            v2 = v & ~(lv | lv << s)
            v3 = v & ~(lh | lh << 8 | lh >> s | lh >> (s - 8))
            if h2 and v2 and v3:
                h2 &= -h2
                v2 &= -v2
                v3 &= -v3
                hs = lh | h2
                vs = lv | v2 | v3
                return win, hs | hs << 8 | vs | vs << s
    return None


def _two_more(lay: _Layout, T: int, fr: int, box) -> bool:
    """Whatever the orientation of the first of two more duplexes, it has a spot after which
    ``_one_more`` holds (whatever the orientation of the second)."""
    if _quick(lay, T, fr, box) is not None:
        return True
    E = lay.room(box) & ~T
    W = lay.W
    s = 8 * W
    H = E & (E >> 8) & lay.notlast & (fr | fr >> 8)
    V = E & (E >> s) & (fr | fr >> s)
    # try every first spot of each orientation
    one, nbr, build = lay.one, lay.nbr, lay.build
    for step, first in ((1, H), (W, V)):
        while first:
            low = first & -first
            x = (low.bit_length() - 1) >> 3
            y = x + step
            T2 = T | low | one[y]
            if _one_more(lay, T2, (fr | nbr[x] | nbr[y]) & ~T2 & build, _grow(box, W, x, y)):
                break
            first ^= low
        else:
            return False
    return True


def completable(lay: _Layout, T: int, fr: int, box, singles: int, duplexes: int) -> bool:
    """Whether a city (tiles ``T``, empty neighbours ``fr``, box ``box``; ``_Layout`` masks) can still take
    ``singles`` single tiles and then ``duplexes`` (0-2) duplexes of any orientations (each known only
    when it comes), every tile adjacent and the city within the frame (module docstring). Memoised."""
    return _extension(lay, T, fr, box, singles, duplexes) >= 0


def _extension(lay: _Layout, T: int, fr: int, box, singles: int, duplexes: int) -> int:
    """``completable`` with a witness: the cells of ``singles`` singles after which the duplexes fit
    (``-1``: none). The order of singles does not matter, only the set, so any of these cells next to
    ``T`` could be placed first (``_keep_completable`` uses that)."""
    if singles == 0:
        if duplexes == 0:
            return 0
        ok = _one_more(lay, T, fr, box) if duplexes == 1 else _two_more(lay, T, fr, box)
        return 0 if ok else -1
    key = (T, singles, duplexes)
    memo = lay.memo
    got = memo.get(key)
    if got is not None:
        return got
    nbr, build, rc = lay.nbr, lay.build, lay.rc
    r0, r1, c0, c1 = box
    cand = fr & lay.room(box)
    # cells inside the box first: they keep the most room for the duplexes
    inside = cand & lay.rband[r0][r1] & lay.cband[c0][c1]
    got = -1
    for group in (inside, cand & ~inside):
        while group:
            low = group & -group
            x = (low.bit_length() - 1) >> 3
            T2 = T | low
            r, c = rc[x]
            got = _extension(lay, T2, (fr | nbr[x]) & ~T2 & build,
                             (r if r < r0 else r0, r if r > r1 else r1, c if c < c0 else c0, c if c > c1 else c1),
                             singles - 1, duplexes)
            if got >= 0:
                got |= low
                break
            group ^= low
        if got >= 0:
            break
    if len(memo) > 400_000:
        memo.clear()
    memo[key] = got
    return got


def _to_come(s, city: int, duplex: bool) -> tuple[int, int]:
    """What ``city`` still receives after the placement being chosen and before round 3: ``(singles,
    duplexes)``. Every city gets ``2 * (hand_size // 2)`` singles in round 1 (3+ players: one from
    each neighbour a turn; 2 players: one a turn in 1a and 1b), then 2 duplexes."""
    g = s.game
    rnd = g.stages[s.stage][0]
    if rnd == 3:
        return 0, 0
    first = 2 * (g.hand_size // 2)
    if not duplex:
        return max(0, first - s.count[city] - 1), 2
    return 0, max(0, 1 - (s.count[city] - first) // 2)


def _masks(s, city: int) -> tuple:
    """``(layout, tiles, empty cells next to them, box)`` of ``city`` for the frame check."""
    g = s.game
    lay = _layout(g, g.geometries(s.mats)[city])
    size = g.size
    base = city * size
    T = int.from_bytes(bytes(s.cells[base:base + size]).translate(_OCC), "little")
    one = lay.one
    fr = 0
    for x in s.front[city]:
        fr |= one[x]
    return lay, T, fr, tuple(s.box[4 * city:4 * city + 4])


def _keep_completable(s, city: int, cand: list[int], d: int | None = None, masks: tuple | None = None) -> list[int]:
    """The cells of ``cand`` (where a single, or duplex ``d``'s first half, may go by the bounding box)
    after which ``city`` stays completable. ``masks``: ``_masks(s, city)`` if already at hand."""
    singles, duplexes = _to_come(s, city, d is not None)
    if not duplexes:
        return cand
    g = s.game
    horizontal = d is not None and g.components.duplexes[d].horizontal
    lay, T, fr, box = masks or _masks(s, city)
    one, nbr, build, W = lay.one, lay.nbr, lay.build, lay.W
    shift = 0
    if lay.plain and T:
        # no terrain: the answer does not change with a translation, so the tiles are moved to put
        # their box's top-left cell at row and column F - 1 (every frame around them stays on the grid)
        r0, r1, c0, c1 = box
        F = lay.F
        shift = (F - 1 - r0) * W + (F - 1 - c0)
        if shift:
            fr &= lay.room(box)
            if shift > 0:
                T, fr = T << 8 * shift, fr << 8 * shift
            else:
                T, fr = T >> -8 * shift, fr >> -8 * shift
            box = (F - 1, F - 1 + r1 - r0, F - 1, F - 1 + c1 - c0)
            cand = [x + shift for x in cand]
    key = (T, d is None, horizontal, singles, duplexes)
    memo = lay.memo
    out = memo.get(key)
    if out is not None:
        return [x - shift for x in out] if shift else list(out)
    out = []
    if d is None:
        # candidates known good: the cells next to T of a found set of singles (any of them may go
        # first); the search that allowed the last placement may have found one for T already
        known = memo.get((T, singles + 1, duplexes), -1)
        proved = known & fr if known > 0 else 0
        # a cheap proof that the duplexes fit now (``_quick``) stands while the tiles go on cells of its
        # window outside its spots; so a tile on such a cell next to T is good if the singles still to
        # come after it have room enough among the cells reachable from T that way
        q = _quick(lay, T, fr, box) if duplexes == 2 else None
        if q is not None:
            free = q[0] & ~q[1] & ~T
            if not singles:
                proved |= free
            else:
                R = lay.reach(fr & free, free)
                if R.bit_count() > singles:
                    proved |= R
        for x in cand:
            bit = one[x]
            if proved & bit:
                out.append(x)
                continue
            T2 = T | bit
            got = _extension(lay, T2, (fr | nbr[x]) & ~T2 & build, _grow(box, W, x), singles, duplexes)
            if got >= 0:
                out.append(x)
                proved |= got & fr
    else:
        step = 1 if horizontal else W
        # spots for the last duplex next to the tiles now: a duplex clear of them (whose box leaves them
        # in the frame) leaves them open, so only the others are tried one by one
        spots = _one_more(lay, T, fr, box) if duplexes == 1 else 0
        allowed = 0
        if spots:
            hv = spots
            allowed = lay.build
            while hv:   # the box of the tiles with each spot
                low = hv & -hv
                z = (low.bit_length() - 1) >> 3
                allowed &= lay.room(_grow(box, W, z))
                hv ^= low
        for x in cand:
            y = x + step
            pair = one[x] | one[y]
            if spots and not pair & spots and allowed & one[x] and allowed & one[y]:
                out.append(x)
                continue
            T2 = T | pair
            if completable(lay, T2, (fr | nbr[x] | nbr[y]) & ~T2 & build, _grow(box, W, x, y), 0, duplexes):
                out.append(x)
    if len(memo) > 400_000:
        memo.clear()
    memo[key] = tuple(out)
    return [x - shift for x in out] if shift else out


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
    query = (s.stage, s.game.components.duplexes[d].horizontal)
    front, got = _recall(s, city, query)
    if got is None:
        got = _duplex_levels_now(s, city, d)
        _remember(front, query, got)
    level, out = got
    if strict and level > 1:
        return 1, []
    return level, list(out)


def _duplex_levels_now(s, city: int, d: int) -> tuple[int, tuple]:
    g = s.game
    masks = None
    if s.count[city] and _strict(g):
        # the rule's spots (one half next to a tile, both in the frame) from the masks the check needs
        masks = lay, T, fr, box = _masks(s, city)
        step = 1 if g.components.duplexes[d].horizontal else g.width
        sh = 8 * step
        E = lay.room(box) & ~T
        spots = E & (E >> sh) & (fr | fr >> sh)
        if step == 1:
            spots &= lay.notlast
        out = []
        while spots:
            low = spots & -spots
            out.append((low.bit_length() - 1) >> 3)
            spots ^= low
    else:
        out = _duplex_level(s, city, d, 1)
    if out:
        if not _strict(g):
            return 1, tuple(out)
        kept = _keep_completable(s, city, out, d, masks)
        if kept:
            return 1, tuple(kept)
        return 2, tuple(out)
    for level in (2, 3, 4):
        out = _duplex_level(s, city, d, level)
        if out:
            return level + 1, tuple(out)
    return 5, ()


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
        return f"now {game_seat_label(g, s.player)} must place one of its chosen tiles (§3)"
    rest, x = divmod(a.arg, MAX_CELLS)
    k, side = divmod(rest, 2)
    k += 1
    p = s.player
    if k not in s.todo[2 * p:2 * p + 2]:
        return f"{game_seat_label(g, p)} has no such tile to place"
    if side not in _sides_open(s, p):
        return "a seat places one tile in each of its two cities: the second goes to the other city (§3)"
    city = _cities(s, p)[side]
    if x >= g.size or s.cells[city * g.size + x] != EMPTY:
        return "that square is not an empty buildable square of the city"
    if s.count[city] == 0:
        return ("the first building goes on an empty square of the landscape mat (§8.3)" if g.capitals
                else "the engine puts a city's first tile in the centre of its grid (§4: any position is the same)")
    r0, r1, c0, c1 = window(s, city)
    if x in s.front[city] and r0 <= g.row_of[x] <= r1 and c0 <= g.col_of[x] <= c1:
        return _unfinishable(g)
    return (f"a tile must share an edge with a placed tile and the city must stay within {g.frame} x {g.frame} "
            f"(§4{', §8.3' if g.capitals else ''})")


def _unfinishable(g) -> str:
    return (f"the finished city could then not be a {g.frame} x {g.frame} square: the tiles it still gets would "
            f"leave no room for round 2's duplexes, whatever their orientation (§4{', §8.3' if g.capitals else ''}; "
            f"tiles.yaml rules.frame_rule)")


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
    front = s.front
    old = front[city]
    base = city * g.size
    cells = s.cells
    new = [y for y in g.geometries(s.mats)[city].adj[x] if cells[base + y] == EMPTY and y not in old]
    if new:
        new += [y for y in old if y != x]
        new.sort()
        fr = tuple(new)
    else:
        fr = tuple(y for y in old if y != x)
    s.front = front[:city] + (fr,) + front[city + 1:]


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
        return f"now {game_seat_label(g, s.player)} must place one of its kept duplexes (§3 round 2)"
    rest, x = divmod(a.arg, MAX_CELLS)
    d, side = divmod(rest, 2)
    p = s.player
    if d not in s.todo[2 * p:2 * p + 2]:
        return f"{game_seat_label(g, p)} has no such duplex to place"
    if side not in _sides_open(s, p):
        return "a seat places one duplex in each of its two cities: the second goes to the other city (§3)"
    city = _cities(s, p)[side]
    if x in _duplex_level(s, city, d, 1):
        return _unfinishable(g)
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
