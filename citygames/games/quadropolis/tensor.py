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
(kept in ``game.__dict__``) and the observation dict is never built. A call copies a zero vector (a
float32 ``array.array``), stores the values one by one and wraps it as a NumPy array. Two parts are
kept from one call to the next (found again by comparing the state's lists, so states of any number
of games may be mixed): the construction site's block (site, Urbanist, slots' architects: the same
for every observer, unchanged from a take to the placement that follows), and the per-seat block
(cities, resources, allocation, scores). A seat's part of that block changes only when it builds
(or in the hand allocation), so it is cached per seat by content (``_seat_key``): the allocation
search behind the allocation and scores shown runs once per new city, not once per call.
"""

from __future__ import annotations

from array import array

import numpy as np

from citygames.core.tensor import TensorLayout, seat_orders

from .components import HARBOUR, MARKERS, MONUMENT, OFFICE, PUBLIC, SHOP, TYPES
from .constants import P_ALLOCATION, P_END, PLACE, STEP_KEYS
from .end import best, final_allocation, score_breakdown, winners
from .game import NSLOTS
from .scoring import CATEGORIES
from .site import face_down_markers

_TABLES_KEY = "_quadropolis_tensor_tables"
#: most seat vectors (about 1 KB each) cached per game object (the cache is emptied when full)
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
    group and height, a monument with 4 of its best or worst neighbours; the types of the mode's
    tiles only: Classic has no offices or monuments), printed VP on every space,
    the best public-service district and harbour-run values, and the penalties of holding the most
    inhabitants and energy a seat can gather. Categories these rules do not name get the sum of all
    (so the bounds stay true whatever the score pad calls them)."""
    b = game.board
    S = b.spaces
    tiles = game.tiles
    present = {t.type for t in tiles}
    vp_public = max([t.vp for t in tiles if t.type == PUBLIC] or [0])
    vp_harbour = max([t.vp for t in tiles if t.type == HARBOUR] or [0])
    factory = max(b.factory_vp[t] for t in present)
    monument = [b.monument_vp[t] for t in present] if MONUMENT in present else [0]
    known = {
        "towers": (0, S * b.tower_vp[b.max_height]),
        "shops": (0, S * b.shop_vp[b.shop_capacity]),
        "public_services": (0, b.public_vp[b.districts] + S * vp_public),
        "parks": (0, S * max(b.park_vp)),
        "factories": (0, S * 4 * factory),
        "harbours": (0, 2 * max(b.harbour_vp) + S * vp_harbour),
        "offices": (0, S * max(max(r) for r in b.office_vp) if OFFICE in present else 0),
        "monuments": (S * 4 * min(0, *monument), S * 4 * max(0, *monument)),
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
#: the observer-independent slices about the construction site, adjacent in the layout in this order
SITE_SLICES = ("site", "urbanist", "slot_blocked", "slot_architect")
#: the per-seat slices, adjacent in the layout in this order (``allocated`` only with the hand allocation)
SEAT_SLICES = ("city_type", "city_height", "city_vp", "city_active", "city_customers", "inhabitants", "energy",
               "allocated", "breakdown", "score")


class _Tables:
    """Offsets, lookup lists and the caches of one game object (see ``_tables``)."""

    def __init__(self, game):
        lay = game.observation_tensor_layout()
        b = game.board
        n = game.num_players
        self.n = n
        self.S = b.spaces
        self.K = K = b.architect_numbers
        self.pool = b.shared_pool
        self.manual = game.options.get("allocation") == "manual"
        self.zero = array("f", bytes(4 * lay.size))
        off = {sl.name: sl.offset for sl in lay}
        self.o = type("Offsets", (), off)
        kk = kinds(game)
        kind_index = {code: i for i, code in enumerate(kk)}
        self.tile_kind = [kind_index[t.code] for t in game.tiles]
        self.build = game.off["build"]
        # per square q and tile t: the index of the tile's kind on that square ([q][-1]: the square is
        # empty); per square, the index of "face down" (2-3 players only, §3)
        width = len(kk) + len(SITE_EXTRA)
        self.site_index = [[off["site"] + q * width + kind_index[t.code] for t in game.tiles]
                           + [off["site"] + q * width + len(kk) + 1] for q in range(25)]
        self.face_down_index = [off["site"] + q * width + len(kk) for q in range(25)]
        self.hidden = face_down_markers(n) < len(MARKERS)
        # the Urbanist on square u: its index, and the slots it blocks (its column's top and bottom, its
        # row's left and right)
        blocked = off["slot_blocked"]
        self.urbanist = [(off["urbanist"] + u, blocked + u % 5, blocked + 5 + u % 5, blocked + 10 + u // 5,
                          blocked + 15 + u // 5) for u in range(25)]
        self.slot_arch = [off["slot_architect"] + i * K - 1 for i in range(NSLOTS)]   # + k
        for x, y in zip(SITE_SLICES, SITE_SLICES[1:]):
            assert lay[x].stop == lay[y].offset, f"tensor slices {x} and {y} must be adjacent"
        self.site_span = (lay[SITE_SLICES[0]].offset, lay[SITE_SLICES[-1]].stop)
        #: the site, the Urbanist and the slots' architects of the last call, and their block
        self.last_site = None
        # the cities: the tile's type (index of city_types) and printed VP
        types = city_types(game)
        self.T = len(types)
        type_index = [-1] * len(TYPES)
        for i, t in enumerate(types):
            type_index[t] = i
        self.tile_type = [type_index[t.type] for t in game.tiles]
        self.tile_vp = [t.vp for t in game.tiles]
        # seat orders (key: the observer's seat, None for a spectator) and each seat's place in them
        self.orders, self.rel = seat_orders(n)
        # per observer: the index of slot i's seat p (slot_seat[seat][i][p]) and of architect #k+1 of
        # seat p (Classic: architects[seat][p * K + k])
        self.slot_seat = {}
        self.architects = {}
        for key, rel in self.rel.items():
            self.slot_seat[key] = [[off["slot_seat"] + i * n + rel[p] for p in range(n)] for i in range(NSLOTS)]
            if not self.pool:
                self.architects[key] = [off["architects"] + rel[p] * K + k for p in range(n) for k in range(K)]
        # the per-seat slices: one block. A seat's values are one vector (its part of each slice, in slice
        # order); the block is the seats' vectors (in the observer's order) gathered by seat_take
        names = [x for x in SEAT_SLICES if x != "allocated" or self.manual]
        for x, y in zip(names, names[1:]):
            assert lay[x].stop == lay[y].offset, f"tensor slices {x} and {y} must be adjacent"
        self.seat_span = (lay[names[0]].offset, lay[names[-1]].stop)
        widths = [lay[x].size // n for x in names]
        L = sum(widths)
        take = []
        pos = 0
        for w in widths:
            for i in range(n):
                take.extend(range(i * L + pos, i * L + pos + w))
            pos += w
        self.seat_take = np.array(take, dtype=np.intp)
        self.seat_zero = array("f", bytes(4 * L))
        #: seat vectors by seat key (``_seat_key``)
        self.seat_cache: dict = {}
        #: the cities, resources (and hand allocation) of the last call, their seat vectors and the
        #: blocks per observer order made of them (``_seat_block``)
        self.last = None


def _tables(game) -> _Tables:
    t = game.__dict__.get(_TABLES_KEY)
    if t is None:
        t = game.__dict__[_TABLES_KEY] = _Tables(game)
    return t


def _remember(cache: dict, key, value) -> None:
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value


def _seat_vector(s, tb: _Tables, p: int, key: tuple) -> array:
    """Seat ``p``'s values of the per-seat slices (its part of each, in slice order) as a float32
    ``array``, cached by ``key``: what they depend on (``_seat_key``), so the allocation search behind
    the allocation and the scores shown runs once per new city."""
    vec = tb.seat_cache.get(key)
    if vec is not None:
        return vec
    S, T = tb.S, tb.T
    base = p * S
    ct = s.city_tile[base:base + S]
    vec = tb.seat_zero[:]
    tile_type, tile_vp = tb.tile_type, tb.tile_vp
    own = tb.manual and (s.allocated[p] or s.phase == P_ALLOCATION)   # as end.final_allocation shows it
    if own:
        active, customers = final_allocation(s, p)
        bd = score_breakdown(s, p)
    else:   # the best allocation, with its scores (end.best, once per new city)
        a = best(s, p)
        active, customers, bd = a.active, a.customers, a.breakdown
    o_vp, o_act = S * T + S, S * T + 2 * S
    for x in range(S):
        t = ct[x]
        if t >= 0:
            vec[x * T + tile_type[t]] = 1.0
            vec[o_vp + x] = tile_vp[t]
            if active[x]:
                vec[o_act + x] = 1.0
    vec[S * T:S * T + S] = array("f", s.city_height[base:base + S])
    tail = list(customers) + [s.inhabitants[p], s.energy[p]]
    if tb.manual:
        tail.append(1 if s.allocated[p] else 0)
    tail += [bd.get(c, 0) for c in CATEGORIES]
    tail.append(sum(bd.values()))
    vec[o_act + S:] = array("f", tail)
    _remember(tb.seat_cache, key, vec)
    return vec


def _seat_key(s, tb: _Tables, p: int) -> tuple:
    """What seat ``p``'s values of the per-seat slices depend on: its city's top tiles and heights and
    what it holds, and, where the observation shows the seat's own allocation (the hand allocation),
    that allocation and whether the seat has finished (elsewhere the allocation and the scores shown
    are the best ones, a function of the rest)."""
    S = tb.S
    a, z = p * S, (p + 1) * S
    key = (*s.city_tile[a:z], *s.city_height[a:z], s.inhabitants[p], s.energy[p])
    if tb.manual and (s.allocated[p] or s.phase == P_ALLOCATION):
        key += (bool(s.allocated[p]), *s.active[a:z], *s.customers[a:z])
    return key


def _seat_block(s, tb: _Tables, order: list) -> array:
    """The per-seat slices for the observer whose seat order is ``order``.

    The seats' vectors and their blocks per observer order are kept for the cities as they were at
    the last call (``tb.last``): consecutive calls of one game find them again by comparing lists (no
    hashing), and after a build only the builder's vector is new. A state of another game finds its
    seats' vectors in ``tb.seat_cache``."""
    ct, ch, inh, en = s.city_tile, s.city_height, s.inhabitants, s.energy
    shown = tb.manual and s.phase   # the hand allocation (or its result) is shown: it is part of the content
    extra = (s.phase, tuple(s.allocated), tuple(s.active), tuple(s.customers)) if shown else None
    last = tb.last
    if last is not None and last[4] == extra and last[0] == ct and last[1] == ch and last[2] == inh \
            and last[3] == en:
        vectors, blocks = last[5], last[6]
    else:
        n, S = tb.n, tb.S
        vectors = []
        for p in range(n):
            a, z = p * S, (p + 1) * S
            if last is not None and extra is None and last[4] is None and last[0][a:z] == ct[a:z] \
                    and last[1][a:z] == ch[a:z] and last[2][p] == inh[p] and last[3][p] == en[p]:
                vectors.append(last[5][p])
            else:
                vectors.append(_seat_vector(s, tb, p, _seat_key(s, tb, p)))
        blocks = {}
        tb.last = (ct[:], ch[:], inh[:], en[:], extra, vectors, blocks)
    block = blocks.get(order[0])
    if block is None:
        m = array("f")
        for p in order:
            m += vectors[p]
        block = blocks[order[0]] = array("f", np.frombuffer(m, dtype=np.float32)[tb.seat_take].tobytes())
    return block


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
    # the construction site, the Urbanist and the slots' architects (one block, the same for every
    # observer: kept from the last call while they do not change)
    a, z = tb.site_span
    site, u, slot_k = s.site, s.urbanist, s.slot_k
    last = tb.last_site
    if last is not None and last[1] == u and last[0] == site and last[2] == slot_k:
        v[a:z] = last[3]
    else:
        site_index = tb.site_index
        if tb.hidden:
            fd, down = s.face_down, tb.face_down_index
            for q, t in enumerate(site):
                v[down[q] if fd[q] and t >= 0 else site_index[q][t]] = 1.0
        else:
            for q, t in enumerate(site):
                v[site_index[q][t]] = 1.0
        if u >= 0:
            for i in tb.urbanist[u]:
                v[i] = 1.0
        slot_arch = tb.slot_arch
        for i, k in enumerate(slot_k):
            if k:
                v[slot_arch[i] + k] = 1.0
        tb.last_site = (site[:], u, slot_k[:], v[a:z])
    slot_seat = tb.slot_seat[seat]
    for i, p in enumerate(s.slot_seat):
        if p >= 0:
            v[slot_seat[i][p]] = 1.0
    if tb.pool:
        v[o.pool:o.pool + tb.K] = array("f", s.architects)
    else:
        m = tb.architects[seat]
        for j, on in enumerate(s.architects):
            if on:
                v[m[j]] = 1.0
    if step == PLACE:
        v[o.pending_tile + tb.tile_kind[s.taken]] = 1.0
        v[o.pending_architect + s.taken_k - 1] = 1.0
        b = o.pending_spaces - tb.build   # the legal builds are the spaces (cached by the state, and
        for a in s.legal_actions():        # asked for anyway when the tensor is used to choose a move)
            if a.kind == "build":
                v[b + a.id] = 1.0
    a, z = tb.seat_span
    v[a:z] = _seat_block(s, tb, tb.orders[seat])
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

    With the data as shipped (auto / manual): Classic 64 / 130 (2 players), 96 / 179 (3), 128 / 244 (4);
    Expert 80 / 167, 120 / 228, 160 / 314. The rounds' part is reached (a game where every turn takes a
    tile and builds it); TENSOR.md compares the bounds with the longest games seen.
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
           "SITE_EXTRA", "SITE_SLICES", "SEAT_SLICES", "CACHE_SIZE"]
