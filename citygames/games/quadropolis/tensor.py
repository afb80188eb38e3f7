"""Quadropolis: the fixed-size views for learning — the observation tensor's layout
(``game.observation_tensor_layout()``), the tensor of one seat's observation
(``state.observation_tensor(seat)``) and the bound on a game's length (``game.max_game_length()``).

The tensor is ``observation(seat)`` (``observation.py``) as one flat ``float32`` vector laid out as
``layout(game)`` names it; ``TENSOR.md`` beside this module describes it and holds the table of the
default options. It holds nothing the observation hides (§3): not the identity of a face-down tile
on the construction site (2 and 3 players: only "face down" is shown), not the layout of the rounds
not dealt yet.

Conventions:

- Per-seat axes have ``num_players`` rows, from the observer on (``citygames.core.tensor.seat_order``:
  index 0 is "me", then the seats after it clockwise); a spectator (``seat=None``) sees seat 0 first.
  Seats named in values (the seat to move, the Mayor, the first player, an architect's owner, the
  winners) are one-hot (or flags) over the same relative order. So the layout depends on the player
  count (as The Capitals') and on the mode (the city's size, the architect numbers, the tile kinds,
  the building types, Classic's per-seat architects or Expert's pool) and on ``allocation`` (the
  ``allocated`` flags of the hand allocation).
- A tile *kind* is a tile's ``code`` (``components.Tile.code``: type letter, gains, printed VP, ``*``
  the mayor tower, ``+`` a playground park): tiles of one kind are alike for the rules, so the site
  and the pending tile are one-hot over the mode's kinds (in the order they first appear in the data).
- City spaces are ``row * cols + col``, site squares ``row * 5 + col``, architect slots as
  ``game.SIDES`` numbers them (0-4 above columns 1-5, 5-9 below, 10-14 left of rows 1-5, 15-19 right).
- The cities show the allocation the observation shows (the best one, or the seat's own in the hand
  allocation) and the scores as they stand (``observation()["players"][p]["breakdown"]``, by
  ``scoring.CATEGORIES``). Every bound is derived from the rules and the data (``layout``), so no
  value is ever clipped.

Speed (an RL adapter calls this at every step): the index tables are built once per game object
(kept in ``game.__dict__``) and the observation dict is never built. A seat's part of the per-seat
slices (its city, resources, allocation and scores) changes only when it builds, or in the hand
allocation, so it is cached per seat by content (its city's tiles and heights, what it holds, and
what the allocation shown depends on): the allocation search behind the scores runs once per new
city, not once per call. A call copies a zero vector (a float32 ``array.array``), stores the values
one by one or the cached seat blocks slice by slice, and wraps it as a NumPy array.
"""

from __future__ import annotations

from array import array

import numpy as np

from citygames.core.tensor import TensorLayout

from .components import HARBOUR, PUBLIC, SHOP, TYPES
from .constants import P_ALLOCATION, P_END, PLACE, STEP_KEYS
from .end import final_allocation, score_breakdown, winners
from .game import NSLOTS
from .scoring import CATEGORIES
from .site import face_down_markers

_TABLES_KEY = "_quadropolis_tensor_tables"
#: most entries of each cache of a game object (a cache is emptied when full): seat vectors (about
#: 0.5 KB), per-seat blocks (about 2 KB) and site blocks (about 3 KB)
CACHE_SIZE = 4096
#: the site's per-square states after the tile kinds
SITE_EXTRA = ("face down", "empty")


# --- sizes and bounds derived from the rules and the data ------------------------------------------
def kinds(game) -> list[str]:
    """The mode's tile kinds (``Tile.code``), in the order they first appear in the data."""
    out: list[str] = []
    for t in game.tiles:
        if t.code not in out:
            out.append(t.code)
    return out


def city_types(game) -> list[int]:
    """The building type codes the mode's tiles use (Classic: tower .. harbour; Expert: + office,
    monument), ascending: the ``city_type`` one-hot's axis."""
    return sorted({t.type for t in game.tiles})


def _gain_high(game, attr: str) -> int:
    """Most inhabitants (``attr="inhabitants"``) or energy one seat can hold: a seat builds at most
    ``turns_per_round`` tiles per round, so per round the largest gains of that many of its tiles."""
    b = game.board
    c = game.components
    total = 0
    for r in range(1, b.rounds + 1):
        gains = sorted((getattr(game.tiles[t], attr) for t in c.round_tiles[game.mode][r]), reverse=True)
        total += sum(gains[:b.turns_per_round])
    return total


def category_bounds(game) -> dict[str, tuple[int, int]]:
    """``{category: (low, high)}``: bounds of each score category of one city (§8), from the
    tables: every space scoring the most a space can (a tower of the highest height, a full shop,
    a park with 4 towers around, a factory with 4 of its best neighbours, an office of the largest
    group and height, a monument with 4 of its best or worst neighbours), printed VP on every space,
    the best public-service district and harbour-run values, and the penalties of holding the most
    inhabitants and energy a seat can gather. Categories these rules do not name get the sum of all
    (so the bounds stay true whatever the score pad calls them)."""
    b = game.board
    S = b.spaces
    tiles = game.tiles
    vp_public = max([t.vp for t in tiles if t.type == PUBLIC] or [0])
    vp_harbour = max([t.vp for t in tiles if t.type == HARBOUR] or [0])
    known = {
        "towers": (0, S * b.tower_vp[b.max_height]),
        "shops": (0, S * b.shop_vp[b.shop_capacity]),
        "public_services": (0, b.public_vp[b.districts] + S * vp_public),
        "parks": (0, S * max(b.park_vp)),
        "factories": (0, S * 4 * max(b.factory_vp)),
        "harbours": (0, 2 * max(b.harbour_vp) + S * vp_harbour),
        "offices": (0, S * max(max(r) for r in b.office_vp)),
        "monuments": (S * 4 * min(0, min(b.monument_vp)), S * 4 * max(b.monument_vp)),
        "inhabitants": (-b.penalty * _gain_high(game, "inhabitants"), 0),
        "energy": (-b.penalty * _gain_high(game, "energy"), 0),
    }
    low = sum(lo for lo, _ in known.values())
    high = sum(hi for _, hi in known.values())
    return {cat: known.get(cat, (low, high)) for cat in CATEGORIES}


# --- the layout ------------------------------------------------------------------------------------
def layout(game) -> TensorLayout:
    """The named layout of ``observation_tensor`` for ``game``'s options (``TENSOR.md``).

    Its size depends on the player count ``n`` (the per-seat slices), the mode (city spaces ``S``,
    architect numbers, tile kinds, building types, per-seat architects or the pool) and the
    allocation option (``allocated`` with ``"manual"`` only); it is fixed for one option set.
    """
    b = game.board
    n = game.num_players
    S = b.spaces
    K = b.architect_numbers
    kk = kinds(game)
    types = city_types(game)
    turns = n * b.turns_per_round
    bounds = category_bounds(game)
    per_seat = "per seat from the observer on"
    s = [
        ("step", len(STEP_KEYS), 0, 1, "one-hot", "the pending decision: " + ", ".join(STEP_KEYS)
         + " (end: the game is over)"),
        ("seat", n, 0, 1, "one-hot", "the observer's seat (colour index; all 0 for a spectator)"),
        ("to_move", n, 0, 1, "one-hot", "the seat to move, from the observer on (all 0 at the end)"),
        ("round", b.rounds, 0, 1, "one-hot", f"the round, 1 to {b.rounds}"),
        ("turn", 1, 0, turns, "count", f"turns taken in this round (all seats; {turns} per round)"),
        ("mayor", n, 0, 1, "one-hot", "the seat holding the Mayor (first player of the next round), from the "
         "observer on"),
        ("first_player", n, 0, 1, "one-hot", "the seat that started this round, from the observer on"),
        ("site", (25, len(kk) + len(SITE_EXTRA)), 0, 1, "one-hot",
         "per construction-site square (row * 5 + col): the kind of its face-up tile (" + ", ".join(kk)
         + "), then face down, empty"),
        ("urbanist", 25, 0, 1, "one-hot", "the square the Urbanist stands on (all 0 beside the board)"),
        ("slot_blocked", NSLOTS, 0, 1, "flag", "per slot: 1 in the Urbanist's row or column (no architect may "
         "go there)"),
        ("slot_architect", (NSLOTS, K), 0, 1, "one-hot",
         f"per architect slot (0-4 above columns 1-5, 5-9 below, 10-14 left of rows 1-5, 15-19 right): the "
         f"number (#1-#{K}) of the architect in it (all 0 free)"),
        ("slot_seat", (NSLOTS, n), 0, 1, "one-hot", "per slot: the seat whose architect is in it, from the "
         "observer on (all 0 free)"),
    ]
    if b.shared_pool:
        s.append(("pool", K, 0, n, "count", f"per number #1-#{K}: architects left in the shared pool this round"))
    else:
        s.append(("architects", (n, K), 0, 1, "flag", f"{per_seat}: per number #1-#{K}, 1 while unused this round"))
    s += [
        ("pending_tile", len(kk), 0, 1, "one-hot", "the kind of the tile taken and waiting to be placed (all 0 "
         "none)"),
        ("pending_architect", K, 0, 1, "one-hot", "the number of the architect that took it (all 0 none)"),
        ("pending_spaces", S, 0, 1, "flag", "per city space of the seat to move: 1 where the pending tile may "
         "be placed"),
        ("city_type", (n, S, len(types)), 0, 1, "one-hot",
         f"{per_seat}, per city space (row * {b.cols} + col): the type of its top tile ("
         + ", ".join(TYPES[t] for t in types) + "; all 0 empty)"),
        ("city_height", (n, S), 0, b.max_height, "floors", f"{per_seat}, per space: floors of the stack (0 empty)"),
        ("city_vp", (n, S), 0, max(t.vp for t in game.tiles), "VP",
         f"{per_seat}, per space: VP printed on the top tile (public services, harbours)"),
        ("city_active", (n, S), 0, 1, "flag",
         f"{per_seat}, per space: 1 where the allocation shown activates the top tile (the best allocation, "
         "or the seat's own in the hand allocation)"),
        ("city_customers", (n, S), 0, b.shop_capacity, "inhabitants",
         f"{per_seat}, per space: customers the allocation shown puts on the shop there"),
        ("inhabitants", n, 0, _gain_high(game, "inhabitants"), "inhabitants", f"{per_seat}: inhabitants held"),
        ("energy", n, 0, _gain_high(game, "energy"), "energy", f"{per_seat}: energy held"),
    ]
    if game.options.get("allocation") == "manual":
        s.append(("allocated", n, 0, 1, "flag", f"{per_seat}: 1 once it finished the hand allocation"))
    s += [
        ("breakdown", (n, len(CATEGORIES)), min(lo for lo, _ in bounds.values()),
         max(hi for _, hi in bounds.values()), "VP",
         f"{per_seat}: VP by category as they stand (" + ", ".join(CATEGORIES) + "; the last two are the "
         "penalties, <= 0)"),
        ("score", n, sum(lo for lo, _ in bounds.values()), sum(hi for _, hi in bounds.values()), "VP",
         f"{per_seat}: VP as they stand (the breakdown's sum)"),
        ("winners", n, 0, 1, "flag", f"{per_seat}: 1 for the winners once the game is over (ties after the "
         "tie-breaks share)"),
    ]
    return TensorLayout(s)


# --- index tables, built once per game ---------------------------------------------------------------
#: the per-seat slices, adjacent in the layout in this order (``allocated`` only with the hand allocation)
SEAT_SLICES = ("city_type", "city_height", "city_vp", "city_active", "city_customers", "inhabitants", "energy",
               "allocated", "breakdown", "score")
#: the observer-independent slices about the construction site, adjacent in the layout in this order
SITE_SLICES = ("site", "urbanist", "slot_blocked", "slot_architect")


class _Tables:
    """Offsets, lookup lists and the caches of one game object (see ``_tables``)."""

    def __init__(self, game):
        lay = game.observation_tensor_layout()
        b = game.board
        n = game.num_players
        self.n = n
        self.S = S = b.spaces
        self.K = K = b.architect_numbers
        self.pool = b.shared_pool
        self.manual = game.options.get("allocation") == "manual"
        self.zero = array("f", bytes(4 * lay.size))
        off = {sl.name: sl.offset for sl in lay}
        self.off = off

        def block(names):
            """(start, stop) of the adjacent slices ``names`` (asserted adjacent: one copy fills them)."""
            for x, y in zip(names, names[1:]):
                assert lay[x].stop == lay[y].offset, f"tensor slices {x} and {y} must be adjacent"
            return lay[names[0]].offset, lay[names[-1]].stop

        # the construction site, the Urbanist and the slots' architects: one block, cached by content
        self.site_span = block(SITE_SLICES)
        site0 = self.site_span[0]
        kk = kinds(game)
        kind_index = {code: i for i, code in enumerate(kk)}
        width = len(kk) + len(SITE_EXTRA)
        self.tile_kind = [kind_index[t.code] for t in game.tiles]
        # per square, the block index of its "tile kind 0" (add the kind), "face down" and "empty"
        self.site_base = [off["site"] - site0 + q * width for q in range(25)]
        self.face_down = len(kk)
        self.empty = len(kk) + 1
        self.urbanist = off["urbanist"] - site0
        blocked = off["slot_blocked"] - site0
        # slots blocked by the Urbanist on square u: its column's (top, bottom) and its row's (left, right)
        self.blocked = [(blocked + u % 5, blocked + 5 + u % 5, blocked + 10 + u // 5, blocked + 15 + u // 5)
                        for u in range(25)]
        self.slot_arch = off["slot_architect"] - site0 - 1   # + slot * K + k
        self.site_zero = array("f", bytes(4 * (self.site_span[1] - site0)))
        self.site_cache: dict = {}
        # the cities: the tile's type (index of city_types) and printed VP
        types = city_types(game)
        self.T = len(types)
        type_index = [-1] * len(TYPES)
        for i, t in enumerate(types):
            type_index[t] = i
        self.tile_type = [type_index[t.type] for t in game.tiles]
        self.tile_vp = [t.vp for t in game.tiles]
        # seat orders (key: the observer's seat, None for a spectator) and each seat's place in them
        self.orders = {}
        self.rel = {}
        for key in list(range(n)) + [None]:
            first = 0 if key is None else key
            order = [(first + i) % n for i in range(n)]
            rel = [0] * n
            for i, q in enumerate(order):
                rel[q] = i
            self.orders[key] = order
            self.rel[key] = rel
        # the per-seat slices: one block; a seat's values are one vector (its part of each slice, in
        # slice order), and the block is the seats' vectors (in the observer's order) permuted by seat_take
        names = [x for x in SEAT_SLICES if x != "allocated" or self.manual]
        self.seat_span = block(names)
        widths = [lay[x].size // n for x in names]
        self.seat_width = L = sum(widths)
        take = []
        pos = 0
        for w in widths:
            for i in range(n):
                take.extend(range(i * L + pos, i * L + pos + w))
            pos += w
        self.seat_take = np.array(take, dtype=np.intp)
        self.seat_zero = array("f", bytes(4 * L))
        # per observer (seat, None for a spectator): the tensor index of slot i's seat p is
        # slot_seat_index[seat][i][p]; of architect #k+1 of seat p (Classic) architects_index[seat][p * K + k]
        self.slot_seat_index = {}
        self.architects_index = {}
        for key, order in self.orders.items():
            rel = self.rel[key]
            self.slot_seat_index[key] = [[off["slot_seat"] + i * n + rel[p] for p in range(n)] for i in range(NSLOTS)]
            if not self.pool:
                self.architects_index[key] = [off["architects"] + rel[p] * K + k for p in range(n) for k in range(K)]
        self.o = type("Offsets", (), off)
        self.seat_cache: dict = {}
        self.section_cache: dict = {}


def _tables(game) -> _Tables:
    t = game.__dict__.get(_TABLES_KEY)
    if t is None:
        t = game.__dict__[_TABLES_KEY] = _Tables(game)
    return t


def _remember(cache: dict, key, value) -> None:
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value


def _site_block(s, tb: _Tables) -> array:
    """The values of ``SITE_SLICES`` (the same for every observer), computed once per content: the
    site's tiles, the Urbanist and the slots' architects (face-down flags follow from the tiles: a
    tile's marker and the player count)."""
    key = (tuple(s.site), s.urbanist, tuple(s.slot_k))
    v = tb.site_cache.get(key)
    if v is not None:
        return v
    v = tb.site_zero[:]
    site_base = tb.site_base
    fd = s.face_down
    kind = tb.tile_kind
    empty, down = tb.empty, tb.face_down
    for q, t in enumerate(s.site):
        if t < 0:
            v[site_base[q] + empty] = 1.0
        elif fd[q]:
            v[site_base[q] + down] = 1.0
        else:
            v[site_base[q] + kind[t]] = 1.0
    u = s.urbanist
    if u >= 0:
        v[tb.urbanist + u] = 1.0
        for i in tb.blocked[u]:
            v[i] = 1.0
    K = tb.K
    o = tb.slot_arch
    for i, k in enumerate(s.slot_k):
        if k:
            v[o + i * K + k] = 1.0
    _remember(tb.site_cache, key, v)
    return v


def _seat_key(s, tb: _Tables, p: int) -> tuple:
    """What seat ``p``'s per-seat values depend on: its city's top tiles and heights, what it holds,
    and, where the observation shows the seat's own allocation (hand allocation), that allocation and
    whether the seat has finished (else the allocation and scores shown are the best ones, a function
    of the rest)."""
    S = tb.S
    base = p * S
    if tb.manual and (s.allocated[p] or s.phase == P_ALLOCATION):
        return (tuple(s.city_tile[base:base + S]), tuple(s.city_height[base:base + S]), s.inhabitants[p],
                s.energy[p], bool(s.allocated[p]), tuple(s.active[base:base + S]), tuple(s.customers[base:base + S]))
    return (tuple(s.city_tile[base:base + S]), tuple(s.city_height[base:base + S]), s.inhabitants[p], s.energy[p])


def _seat_vector(s, tb: _Tables, p: int, key: tuple) -> array:
    """Seat ``p``'s values of the per-seat slices (its part of each, in slice order) as a float32
    ``array``, cached by ``_seat_key`` (``key``): the allocation search behind the scores runs once per
    new city."""
    vec = tb.seat_cache.get(key)
    if vec is not None:
        return vec
    S, T = tb.S, tb.T
    base = p * S
    ct = s.city_tile[base:base + S]
    vec = tb.seat_zero[:]
    tile_type, tile_vp = tb.tile_type, tb.tile_vp
    active, customers = final_allocation(s, p)
    o_vp, o_act = S * T + S, S * T + 2 * S
    for x in range(S):
        t = ct[x]
        if t >= 0:
            vec[x * T + tile_type[t]] = 1.0
            vec[o_vp + x] = tile_vp[t]
            if active[x]:
                vec[o_act + x] = 1.0
    bd = score_breakdown(s, p)
    tail = s.city_height[base:base + S] + [0] * S + list(customers) + [s.inhabitants[p], s.energy[p]]
    if tb.manual:
        tail.append(1 if s.allocated[p] else 0)
    tail += [bd.get(c, 0) for c in CATEGORIES]
    tail.append(sum(bd.values()))
    # heights, then (after the VP and the activations written above) customers and the scalars
    vec[S * T:S * T + S] = array("f", tail[:S])
    vec[o_act + S:] = array("f", tail[2 * S:])
    _remember(tb.seat_cache, key, vec)
    return vec


def _seat_section(s, tb: _Tables, order: list) -> array:
    """The per-seat block for an observer whose seat order is ``order``, cached by the seats' contents."""
    n = tb.n
    if tb.manual and s.phase:
        keys = [_seat_key(s, tb, p) for p in range(n)]
        key = (order[0], *keys)
    else:
        keys = None
        key = (order[0], tuple(s.city_tile), tuple(s.city_height), tuple(s.inhabitants), tuple(s.energy))
    sec = tb.section_cache.get(key)
    if sec is None:
        if keys is None:
            keys = [_seat_key(s, tb, p) for p in range(n)]
        m = array("f")
        for p in order:
            m += _seat_vector(s, tb, p, keys[p])
        sec = array("f", np.frombuffer(m, dtype=np.float32)[tb.seat_take].tobytes())
        _remember(tb.section_cache, key, sec)
    return sec


# --- the tensor --------------------------------------------------------------------------------------
def observation_tensor(s, seat: int | None) -> np.ndarray:
    """What ``seat`` sees (``None``: a spectator) as a flat ``float32`` vector laid out as
    ``layout(game)`` names it (the ``"observation_tensor"`` part)."""
    g = s.game
    tb = g.__dict__.get(_TABLES_KEY) or _tables(g)
    o = tb.o
    v = tb.zero[:]
    rel = tb.rel[seat]
    over = s.phase == P_END
    step = s.step
    v[o.step + step] = 1.0
    if seat is not None:
        v[o.seat + seat] = 1.0
    if not over:
        v[o.to_move + rel[s.player]] = 1.0
    if s.round:
        v[o.round + s.round - 1] = 1.0
    v[o.turn] = s.turn
    v[o.mayor + rel[s.mayor]] = 1.0
    v[o.first_player + rel[s.first]] = 1.0
    a, z = tb.site_span
    v[a:z] = _site_block(s, tb)
    m = tb.slot_seat_index[seat]
    for i, p in enumerate(s.slot_seat):
        if p >= 0:
            v[m[i][p]] = 1.0
    if tb.pool:
        v[o.pool:o.pool + tb.K] = array("f", s.architects)
    else:
        m = tb.architects_index[seat]
        for j, on in enumerate(s.architects):
            if on:
                v[m[j]] = 1.0
    if step == PLACE:
        v[o.pending_tile + tb.tile_kind[s.taken]] = 1.0
        v[o.pending_architect + s.taken_k - 1] = 1.0
        b = o.pending_spaces
        for x in s.placements(s.player, s.taken, s.taken_k):
            v[b + x] = 1.0
    a, z = tb.seat_span
    v[a:z] = _seat_section(s, tb, tb.orders[seat])
    if over:
        b = o.winners
        for p in winners(s):
            v[b + rel[p]] = 1.0
    return np.frombuffer(v, dtype=np.float32)


# --- the longest game ---------------------------------------------------------------------------------
def max_game_length(game) -> int:
    """An upper bound on the actions of one game with ``game``'s options (the ``"max_game_length"`` part).

    Every action is one decision (``constants.DECISIONS``), bounded by the rules:

    - the rounds (§3): ``rounds`` rounds (4 Classic, 5 Expert) of ``turns_per_round`` (4) turns per
      player; a turn is one ``take`` (an architect into a slot), then at most one ``build`` or
      ``discard`` (none when the architect pointed at an empty square or a face-down tile, or the tile
      fits nowhere): at most ``rounds * 4 * n * 2`` actions;
    - the hand allocation (``allocation="manual"`` only, §7): each seat makes at most one ``activate``
      per space of its city (a space is never activated twice, and nothing deactivates), at most
      ``shop_capacity`` ``customer`` actions per shop in its city, and one ``finish`` (or ``best``,
      which ends its allocation too). Every shop is a different shop tile, so all cities together hold
      at most as many shops as the mode has shop tiles that can be taken (face-up with this player
      count: §3, tiles marked for more players stay face down and cannot be taken):
      ``n * (spaces + 1) + min(n * spaces, shops) * shop_capacity``.

    Classic: 4 players 128 (auto) / 388 (manual), 2 players 64 / 114. Expert: 4 players 160 / 444,
    2 players 80 / 142 (with the data as shipped; TENSOR.md compares them with the longest games seen).
    """
    b = game.board
    n = game.num_players
    bound = b.rounds * b.turns_per_round * n * 2
    if game.options.get("allocation") == "manual":
        hide = face_down_markers(n)
        shops = sum(1 for t in game.tiles if t.type == SHOP and t.marker < hide)
        bound += n * (b.spaces + 1) + min(n * b.spaces, shops) * b.shop_capacity
    return bound


__all__ = ["layout", "observation_tensor", "max_game_length", "kinds", "city_types", "category_bounds",
           "SITE_EXTRA", "SEAT_SLICES", "SITE_SLICES", "CACHE_SIZE"]
