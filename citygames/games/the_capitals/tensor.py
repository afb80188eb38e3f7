"""The Capitals: fixed-size views for learning (``game.observation_tensor_layout()``,
``state.observation_tensor(seat)``, ``game.max_game_length()``).

The tensor is ``observation(seat)`` (``observation.py``) as one flat ``float32`` vector, laid out
as ``layout(game)`` names it; ``TENSOR.md`` beside this module describes it and holds the table of
the default options. It holds nothing the observation hides: not the order of the era decks, not
the tiles removed unseen (2 players), not the other seats' prestige before the game ends
(prestige tokens are kept face down, HU "Tekintélypont szerzése"), not the other seats'
prosperity hands nor the undealt prosperity tiles (reference §7.1).

Conventions:

- Per-seat axes run from the observer on (``citygames.core.tensor.seat_order``): index 0 is the
  observer ("me"), then the seats after it in seat order; a spectator (``seat=None``) sees seat 0
  first. Seats named in values (the seat to move, hosts of tourists, the Highest Culture token) are
  one-hot over the same relative order.
- The tile axis ``K`` is the tile index of ``components.tiles``: the 80 building tiles (the
  ``take`` action's argument is the same index), then with Prosperity the 25 prosperity tiles.
  Every tile exists once (the starting tiles once per city), so a city is described per tile:
  built or not, where (coordinates), energy cubes on it.
- Coordinates are city coordinates in squares: the Hotel at (0, 0), the City Hall at (1, 0), y
  growing downwards (as ``observation`` gives them); construction-token corners are numbered like
  the square whose top-left corner they are.
- Values the rules do not bound (prestige, energy cubes, progress moved in all) are clipped at
  the documented caps.

Speed (an RL adapter calls this at every step): the index tables are built once per game object
(kept in ``game.__dict__``), and the observation dict is never built. The cities, the bulk of the
vector, change only when a tile is built or a construction token moves, so each observer's city
block is kept as a template, found again by comparing the cities' contents; a call copies the
template and stores the other values into it one by one (a float32 ``array.array``, where a store
costs less than a NumPy call), then wraps it as a NumPy array. Every cache entry is immutable once
made and checked by content, so states of any number of games may be mixed.
"""

from __future__ import annotations

from array import array

import numpy as np

from citygames.core.tensor import TensorLayout, seat_orders

from .components import CULTURE, EMP, MONEY, NT, NTYPES, POP, PROG, PS, TYPE_NAMES, Components
from .end import BEFORE_EXPO, END_OF_GAME, has_effect
from .steps import (P_END, P_EXECUTIVE, P_POLITICS, PHASE_NAMES, S_EFFECT, S_FREE, S_PAY, S_TOKEN, STEP_KEYS,
                    STEP_NAMES)

#: caps of the values the rules leave unbounded (values beyond are clipped)
PRESTIGE_CAP = 150      # |prestige| (random 5-player games reach about -110, greedy ones +55)
PLANT_CUBES_CAP = 60    # energy cubes on a power plant (observed up to about 45)
TILE_CUBES_CAP = 40     # energy cubes on one tile (cleared at each World Expo; observed up to about 20)
COST_CAP = 60           # cubes still due for an activation
UPGRADES_CAP = 4        # power-plant upgrades owed at once (observed: 1)

_TABLES_KEY = "_capitals_tensor_tables"


# --- sizes derived from the rules and the data ------------------------------------------------------
def _prosperity_rounds(c: Components) -> int:
    """Prosperity builds per city: marked rounds that have an administration phase (rounds before the last)."""
    return sum(1 for r in c.prosperity_rounds if 1 <= r < c.rounds)


def _extra_builds(c: Components) -> int:
    """Financial Districts (tiles owing one more build), each built at most once per game."""
    return sum(1 for x in c.prosperity_tiles if c.tiles[x].extra_build)


def max_city_tiles(game) -> int:
    """Most tiles one city can hold: the Hotel and the City Hall, one tile per round's building
    phase, and with Prosperity one prosperity tile or Lake per marked round before the last plus
    a Financial District's extra build (HU p. 6, reference §7.2, §9.6)."""
    c = game.components
    m = 2 + c.rounds
    if game.options.get("prosperity"):
        m += _prosperity_rounds(c) + _extra_builds(c)
    return m


def _tourists(n: int) -> int:
    """Tourist markers: one per seat, and the neutral tourist with 2 players (HU, IT 2-player rules)."""
    return n + 1 if n == 2 else n


# --- the layout ----------------------------------------------------------------------------------------
def layout(game) -> TensorLayout:
    """The named layout of ``observation_tensor`` for ``game``'s options (``TENSOR.md``).

    Its size depends on the player count ``n`` (per-seat slices, tourists, the 2-player neutral
    marker) and on Prosperity (25 more tile kinds and the prosperity slices); it is fixed for one
    option set (``TENSOR.md`` gives the sizes and lists every slice).
    """
    c = game.components
    n = game.num_players
    pros = bool(game.options.get("prosperity"))
    nb = c.n_building
    npros = len(c.prosperity_tiles)
    k = nb + (npros if pros else 0)
    spaces = len(c.init_cost)
    levels = c.max_plant_level - 1
    tourists = _tourists(n)
    m = max_city_tiles(game)
    far = m - 1
    plants = c.plants
    supply = game.plant_supply
    max_left = max(len(supply[lv]) for lv in range(2, c.max_plant_level + 1))
    max_acts = max(p.activations for p in plants) + c.hc_extra
    lo, hi = c.track_min, c.track_max
    tiles_word = "building tiles" + (" then prosperity tiles" if pros else "")
    per_seat = "per seat from the observer on"
    s = [
        ("round", c.rounds, 0, 1, "one-hot", f"the round, 1 to {c.rounds}"),
        ("era", 3, 0, 1, "one-hot", "the era of the round, I to III"),
        ("phase", len(PHASE_NAMES), 0, 1, "one-hot", "the phase: " + ", ".join(PHASE_NAMES)),
        ("step", len(STEP_NAMES), 0, 1, "one-hot",
         "the pending decision (steps.STEP_NAMES, by their position keys): " + ", ".join(STEP_KEYS)
         + " (none at the end)"),
        ("seat", n, 0, 1, "one-hot", "the observer's seat (colour index; all 0 for a spectator)"),
        ("to_move", n, 0, 1, "one-hot", "the seat to move, from the observer on (all 0 at the end)"),
        ("turn_order", (n, n), 0, 1, "one-hot", f"{per_seat}: its place in the round's turn order"),
        ("initiative", (n, spaces), 0, 1, "one-hot", f"{per_seat}: its initiative space, left to right"),
        ("chosen_space", (n, spaces), 0, 1, "one-hot",
         f"{per_seat}: the space chosen in this politics phase (all 0 not yet, and outside politics)"),
        ("money", n, lo[MONEY], hi[MONEY], "coins", f"{per_seat}: money"),
        ("culture", n, lo[CULTURE], hi[CULTURE], "spaces", f"{per_seat}: culture track"),
        ("employment", n, lo[EMP], hi[EMP], "spaces", f"{per_seat}: employment track"),
        ("population", n, lo[POP], hi[POP], "spaces", f"{per_seat}: population track"),
        ("public_service", n, lo[PS], hi[PS], "spaces", f"{per_seat}: public-service track"),
        ("progress", n, 0, c.loop - 1, "spaces",
         f"{per_seat}: position on the progress loop (0 is the upgrade space)"),
        ("progress_total", n, -2 * c.loop, 8 * c.loop, "spaces",
         f"{per_seat}: progress spaces moved in all, clipped at {-2 * c.loop} and {8 * c.loop}"),
        ("prestige", n, -PRESTIGE_CAP, PRESTIGE_CAP, "VP",
         f"{per_seat}: prestige where shown (own; everyone's at the end), else 0; clipped at ±{PRESTIGE_CAP}"),
        ("prestige_known", n, 0, 1, "flag", f"{per_seat}: 1 where the prestige is shown"),
        ("plant_cubes", n, 0, PLANT_CUBES_CAP, "cubes",
         f"{per_seat}: energy cubes on its power plant, clipped at {PLANT_CUBES_CAP}"),
        ("plant_level", n, 1, c.max_plant_level, "level", f"{per_seat}: power-plant level"),
        ("plant_activations", n, min(p.activations for p in plants), max(p.activations for p in plants), "count",
         f"{per_seat}: activations its power plant gives per executive phase"),
        ("plant_printed_cubes", n, min(p.cubes for p in plants), max(p.cubes for p in plants), "cubes",
         f"{per_seat}: cubes printed on its power plant"),
        ("upgrades_due", n, 0, UPGRADES_CAP, "count",
         f"{per_seat}: power-plant upgrades owed, clipped at {UPGRADES_CAP}"),
    ]
    if pros:
        s.append(("hand_size", n, 0, max(c.prosperity_hand.values()), "count",
                  f"{per_seat}: prosperity tiles in its hand"))
    s += [
        ("tiles_by_type", (n, NTYPES), 0, m, "count",
         f"{per_seat}: tiles in its city by type ({', '.join(TYPE_NAMES)})"),
        ("city_tile", (n, k), 0, 1, "flag",
         f"{per_seat}, per tile kind ({tiles_word}, by tile index): 1 where built in its city"),
        ("city_xy", (n, k, 2), -far, far, "squares",
         f"{per_seat}, per tile kind: (x, y) of the tile in its city (of its Lake for a prosperity tile "
         "built as one), 0 where absent"),
        ("tokens", (n, 2, 2), -m, m, "squares",
         f"{per_seat}: (x, y) of the corner of each of its two construction tokens"),
        ("city_cubes", (n, k), 0, TILE_CUBES_CAP, "cubes",
         f"{per_seat}, per tile kind: energy cubes on the tile, clipped at {TILE_CUBES_CAP}"),
        ("tourist_host", (tourists, n), 0, 1, "one-hot",
         "per tourist (the seats' tourists from the observer's on" + (", then the neutral one" if n == 2 else "")
         + "): the city hosting it, from the observer on (all 0 beside the board)"),
        ("tourist_on_tile", tourists, 0, 1, "flag", "per tourist: 1 where it stands on a tile of its host's city"),
        ("tourist_xy", (tourists, 2), -far, far, "squares",
         "per tourist: (x, y) of the tile it stands on, 0 beside the city"),
        ("tourist_used", tourists, 0, 1, "flag", "per tourist: 1 where it paid an activation this executive phase"),
        ("projects", (nb, 3), 0, 1, "flag",
         "per building tile (by tile index): 1 in the projects row it lies in ($0, $2, $4)"),
        ("deck_sizes", 3, 0, max(len(c.era_tiles[e]) for e in (1, 2, 3)), "count",
         "tiles left in the era I, II, III decks"),
        ("plants_left", levels, 0, max_left, "count", f"per plant level 2 to {c.max_plant_level}: plants left"),
        ("next_plant_cubes", levels, 0, max(p.cubes for p in plants), "cubes",
         "per plant level: cubes of the plant an upgrade to it takes now (the best left; 0 when none)"),
        ("highest_culture", n, 0, 1, "one-hot",
         "the seat holding the Highest Culture token, from the observer on (all 0 before the first tourism)"),
    ]
    if n == 2:
        s.append(("neutral_culture", 1, lo[CULTURE], hi[CULTURE], "spaces",
                  "the 2-player neutral marker's culture"))
    s += [
        ("pending_tile", k, 0, 1, "one-hot",
         "the tile taken and not yet built, or the prosperity tile being built or revealed as a Lake (all 0 none)"),
        ("pending_slot_known", 1, 0, 1, "flag",
         "1 while an activation is paid for or a free activation is offered (the tile in pending_slot_xy)"),
        ("pending_slot_xy", 2, -far, far, "squares",
         "(x, y) of the tile being paid for, or the tile giving the free activation, in the mover's city"),
        ("pending_token", 2, 0, 1, "one-hot", "which construction token may move (administration)"),
        ("pending_effects", k, 0, 1, "flag",
         "per tile kind: 1 where the mover's effect before the last Expo or at the end is still to resolve "
         "(effect decision)"),
        ("remaining_cost", 1, 0, COST_CAP, "cubes",
         f"cubes still to pay for the activation in progress (0 none), clipped at {COST_CAP}"),
        ("activations_left", 1, 0, max_acts, "count", "activations the mover may still make this executive phase"),
        ("activations_made", 1, 0, max_acts, "count", "activations the mover made this executive phase"),
    ]
    if pros:
        s += [
            ("hand", npros, 0, 1, "flag", "per prosperity tile: 1 in the observer's hand (all 0 for a spectator)"),
            ("city_lake", (n, npros), 0, 1, "flag",
             f"{per_seat}, per prosperity tile: 1 where revealed for a Lake of its city (the Lake at city_xy)"),
        ]
    return TensorLayout(s)


# --- index tables, built once per game --------------------------------------------------------------
#: most cached city rows (one seat's city, about 2 KB) kept per game object (emptied when full),
#: and how many sets of cities ``_Tables.city_template`` remembers (each with up to n + 1
#: templates of the tensor's size)
CITY_CACHE_SIZE = 4096
REGION_MEMO = 8


class _Tables:
    """Offsets, lookup lists and the city caches of one game object (see ``_tables``)."""

    def __init__(self, game):
        lay = game.observation_tensor_layout()
        c = game.components
        n = game.num_players
        g = c.grid
        o = g // 2
        self.size = lay.size
        self.n = n
        self.pros = bool(game.options.get("prosperity"))
        self.k = c.n_building + (len(c.prosperity_tiles) if self.pros else 0)
        self.spaces = len(c.init_cost)
        self.loop = c.loop
        self.first_pros = c.prosperity_tiles[0] if c.prosperity_tiles else 0
        self.npros = len(c.prosperity_tiles)
        off = {sl.name: sl.offset for sl in lay}
        self.off = off
        # seat orders (key: the observer's seat, None for a spectator) and each seat's place in it
        self.orders, self.rel = seat_orders(n)

        def block(*names):
            """(start, stop) of adjacent slices ``names`` (asserted adjacent: one assignment fills them)."""
            for x, y in zip(names, names[1:]):
                assert lay[x].stop == lay[y].offset, f"tensor slices {x} and {y} must be adjacent"
            return lay[names[0]].offset, lay[names[-1]].stop

        # per seat position i: the indices of its 14 track values (and its hand size, or -1)
        start = lay["money"].offset
        self.track_dst = [tuple(start + i + m * n for m in range(14)) + (start + i + 14 * n if self.pros else -1,)
                          for i in range(n)]
        self.tracks_block = block("money", "culture", "employment", "population", "public_service", "progress",
                                  "progress_total", "prestige", "prestige_known", "plant_cubes", "plant_level",
                                  "plant_activations", "plant_printed_cubes", "upgrades_due",
                                  *(("hand_size",) if self.pros else ()))
        self.city_block = block("tiles_by_type", "city_tile", "city_xy", "tokens")
        self.supply_block = block("deck_sizes", "plants_left", "next_plant_cubes")
        self.lo_prog, self.hi_prog = -2 * c.loop, 8 * c.loop
        self.city_cache: dict = {}
        self.memo: list = []
        # one seat's city row is [tiles by type | built flags | coordinates | token corners]; a
        # template is zeros, each part of the rows of the seats from the observer on, zeros
        names = ("tiles_by_type", "city_tile", "city_xy", "tokens")
        width = [lay[nm].size // n for nm in names]
        self.row_size = sum(width)
        self.row_parts = [sum(width[:j]) for j in range(len(names) + 1)]
        a, b = self.city_block
        self.zeros_before, self.zeros_after = bytes(4 * a), bytes(4 * (self.size - b))
        # slot and corner coordinates
        self.sxy = [(s % g - o, s // g - o) for s in range(g * g)]
        gi = g + 1
        self.cxy = [(i % gi - o, i // gi - o) for i in range(gi * gi)]
        # tile index -> position on the K axis (-1: the Lake, described through city_lake); tile types
        kind = list(range(len(c.tiles)))
        kind[c.lake.idx] = -1
        self.kind = kind
        self.type_of = [t.type for t in c.tiles]
        self.plants = [(p.activations, p.cubes) for p in c.plants]
        self.levels = [(lv, len(game.plant_supply[lv]), [c.plants[i].cubes for i in game.plant_supply[lv]])
                       for lv in range(2, c.max_plant_level + 1)]
        self.era_of_round = c.era_of_round

    def city_row(self, city: dict, tokens) -> tuple:
        """One seat's city as ``(row, parts)``: the float32 ``array.array`` row ``[tiles by type
        (NTYPES) | built flags (K) | coordinates (2K) | token corners (4)]`` and its four parts as
        bytes (joined into templates); cached by the city's contents and tokens."""
        key = (tuple(city.items()), tokens[0], tokens[1])
        out = self.city_cache.get(key)
        if out is None:
            row = array("f", bytes(4 * self.row_size))
            self._add_tiles(row, city.items(), tokens)
            out = row, self.row_bytes(row)
            if len(self.city_cache) >= CITY_CACHE_SIZE:
                self.city_cache.clear()
            self.city_cache[key] = out
        return out

    def grown_row(self, row: array, last: dict, city: dict, tokens) -> tuple:
        """``city_row`` of ``city`` from ``row``, the row of ``last`` (a city ``city`` holds with
        every tile where it was), and ``tokens``."""
        row = row[:]
        self._add_tiles(row, [(slot, x) for slot, x in city.items() if slot not in last], tokens)
        return row, self.row_bytes(row)

    def _add_tiles(self, row: array, items, tokens) -> None:
        """Count, flag and place the tiles ``items`` (``(slot, tile)``) in ``row``; set the tokens."""
        kind, sxy, type_of = self.kind, self.sxy, self.type_of
        flags, xy, tok = self.row_parts[1], self.row_parts[2], self.row_parts[3]
        for slot, x in items:
            row[type_of[x]] += 1
            j = kind[x]
            if j >= 0:
                row[flags + j] = 1
                row[xy + 2 * j], row[xy + 2 * j + 1] = sxy[slot]
        row[tok], row[tok + 1] = self.cxy[tokens[0]]
        row[tok + 2], row[tok + 3] = self.cxy[tokens[1]]

    def row_bytes(self, row: array) -> tuple:
        """A city row's four parts as bytes (float32), to be joined into templates."""
        o = self.row_parts
        return row[:o[1]].tobytes(), row[o[1]:o[2]].tobytes(), row[o[2]:o[3]].tobytes(), row[o[3]:].tobytes()

    def city_template(self, state, seat) -> array:
        """A float32 ``array.array`` of the layout's size holding the city block (tiles_by_type,
        city_tile, city_xy, tokens) for observer ``seat`` (every seat's ``city_row``, from the
        observer on) and zeros elsewhere: the start of the tensor (copy it before writing).

        A city only grows, so this repeats over many steps: the last ``REGION_MEMO`` sets of cities
        are remembered (compared by content: copies of the cities and tokens) with their rows and,
        made once per observer, the template. A new set takes the rows of the seats whose city did
        not change from the latest one and adds the new tiles to the rows of the cities that grew.
        """
        cities = state.city
        tokens = state.tokens
        memo = self.memo
        size = sum(map(len, cities))   # tells most other sets apart at once
        for entry in memo:
            if entry[0] == size and entry[1] == cities and entry[2] == tokens:
                break
        else:
            n = self.n
            if memo:
                last_cities, last_tokens, last_rows, last_parts = memo[0][1:5]
                copies, rows, parts = [], [], []
                for q in range(n):
                    city, last = cities[q], last_cities[q]
                    if last == city and last_tokens[q] == tokens[q]:
                        copies.append(last)
                        rows.append(last_rows[q])
                        parts.append(last_parts[q])
                        continue
                    if last.items() <= city.items():   # the city grew (or a token moved): add to its row
                        row, part = self.grown_row(last_rows[q], last, city, tokens[q])
                    else:
                        row, part = self.city_row(city, tokens[q])
                    copies.append(dict(city))
                    rows.append(row)
                    parts.append(part)
            else:
                made = [self.city_row(cities[q], tokens[q]) for q in range(n)]
                copies = [dict(c) for c in cities]
                rows = [m[0] for m in made]
                parts = [m[1] for m in made]
            entry = (size, copies, [tk[:] for tk in tokens], rows, parts, {})
            memo.insert(0, entry)
            del memo[REGION_MEMO:]
        by_seat = entry[5]
        template = by_seat.get(seat)
        if template is None:
            parts = [entry[4][q] for q in self.orders[seat]]
            template = by_seat[seat] = array("f", b"".join(
                [self.zeros_before, *[p[0] for p in parts], *[p[1] for p in parts], *[p[2] for p in parts],
                 *[p[3] for p in parts], self.zeros_after]))
        return template


def _tables(game) -> _Tables:
    """The game object's ``_Tables``, built on first use."""
    t = game.__dict__.get(_TABLES_KEY)
    if t is None:
        t = game.__dict__[_TABLES_KEY] = _Tables(game)
    return t


# --- the tensor ----------------------------------------------------------------------------------------
def observation_tensor(state, seat: int | None) -> np.ndarray:
    """What ``seat`` sees (``None``: a spectator) as a ``float32`` vector of length
    ``game.observation_tensor_size()``, laid out as ``layout(game)`` names it.

    It holds exactly what ``observation(seat)`` shows (``observation.py``), with the per-seat axes
    from the observer on: hidden parts (deck order, other seats' prestige before the end, other
    seats' prosperity hands) never enter it. Units: coins, cubes, VP, track spaces, squares
    (city coordinates), counts, flags and one-hots.

    The values are written one by one into a copy of the observer's city template (a float32
    ``array.array``: a store costs less there than a NumPy call), which the result wraps.
    """
    game = state.game
    T = game.__dict__.get(_TABLES_KEY) or _tables(game)
    n = T.n
    off = T.off
    order = T.orders[seat]
    rel = T.rel[seat]
    v = T.city_template(state, seat)[:]
    phase = state.phase
    over = phase == P_END
    rnd = state.round
    step = state.step
    v[off["round"] + rnd - 1] = 1
    v[off["era"] + T.era_of_round[rnd] - 1] = 1
    v[off["phase"] + phase] = 1
    v[off["step"] + step] = 1
    if seat is not None:
        v[off["seat"] + seat] = 1
    cur = state.current_player()
    if cur >= 0:
        v[off["to_move"] + rel[cur]] = 1
    base = off["turn_order"]
    for pos, q in enumerate(state.order):
        v[base + rel[q] * n + pos] = 1
    spaces = T.spaces
    base = off["initiative"]
    ini = state.initiative
    for i, q in enumerate(order):
        v[base + i * spaces + ini[q]] = 1
    if phase == P_POLITICS:
        base = off["chosen_space"]
        for q, sp in enumerate(state.chosen_space):
            if sp >= 0:
                v[base + rel[q] * spaces + sp] = 1
    # the tracks block: slices of n values from money to upgrades_due (and hand_size), seat i at +i
    t = state.tracks
    loop = T.loop
    lo_prog, hi_prog = T.lo_prog, T.hi_prog
    plants = T.plants
    plant = state.plant
    upg = state.upgrades_due
    hands = state.hands if T.pros else None
    for q, dst in zip(order, T.track_dst):
        b = q * NT
        money, culture, emp, pop, ps, prog, prest, cubes, level = t[b:b + NT]
        j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, j12, j13, j14 = dst
        v[j0] = money
        v[j1] = culture
        v[j2] = emp
        v[j3] = pop
        v[j4] = ps
        v[j5] = prog % loop
        v[j6] = hi_prog if prog > hi_prog else (lo_prog if prog < lo_prog else prog)
        if over or q == seat:
            v[j7] = PRESTIGE_CAP if prest > PRESTIGE_CAP else (-PRESTIGE_CAP if prest < -PRESTIGE_CAP else prest)
            v[j8] = 1
        v[j9] = PLANT_CUBES_CAP if cubes > PLANT_CUBES_CAP else cubes
        v[j10] = level
        v[j11], v[j12] = plants[plant[q]]
        u = upg[q]
        v[j13] = UPGRADES_CAP if u > UPGRADES_CAP else u
        if hands:
            v[j14] = len(hands[q])
    # cities: the block is in the template; the cubes on the tiles
    k = T.k
    kind = T.kind
    sxy = T.sxy
    cities = state.city
    cubes_on = state.cubes_on
    base = off["city_cubes"]
    for i, q in enumerate(order):
        on = cubes_on[q]
        if on:
            city = cities[q]
            cb = base + i * k
            for slot, m in on.items():
                v[cb + kind[city[slot]]] = TILE_CUBES_CAP if m > TILE_CUBES_CAP else m
    # tourists
    th, ton, txy, tu = off["tourist_host"], off["tourist_on_tile"], off["tourist_xy"], off["tourist_used"]
    tslots = state.tourist_slot
    used = state.tourist_used
    for kk, h in enumerate(state.tourist_host):
        if h < 0:
            continue
        ti = rel[kk] if kk < n else n
        v[th + ti * n + rel[h]] = 1
        sl = tslots[kk]
        if sl >= 0:
            v[ton + ti] = 1
            v[txy + 2 * ti], v[txy + 2 * ti + 1] = sxy[sl]
        if used[kk]:
            v[tu + ti] = 1
    # the board
    base = off["projects"]
    for r, row in enumerate(state.projects):
        for x in row:
            v[base + 3 * x + r] = 1
    decks = state.decks
    j = T.supply_block[0]
    v[j] = len(decks[1])
    v[j + 1] = len(decks[2])
    v[j + 2] = len(decks[3])
    j += 3
    levels = len(T.levels)
    taken = state.plants_taken
    for lv, size, cubes_of in T.levels:
        gone = taken[lv]
        if gone < size:
            v[j] = size - gone
            v[j + levels] = cubes_of[gone]
        j += 1
    hc = state.highest_culture
    if hc >= 0:
        v[off["highest_culture"] + rel[hc]] = 1
    if n == 2:
        v[off["neutral_culture"]] = state.neutral_culture
    # the pending decision
    if state.pending_tile >= 0:
        v[off["pending_tile"] + kind[state.pending_tile]] = 1
    if step == S_PAY or step == S_FREE:
        v[off["pending_slot_known"]] = 1
        j = off["pending_slot_xy"]
        v[j], v[j + 1] = sxy[state.pending_slot]
    elif step == S_TOKEN:
        v[off["pending_token"] + state.token_index] = 1
    elif step == S_EFFECT:
        base = off["pending_effects"]
        city = cities[state.player]
        for slot in state.pending_effects:
            v[base + kind[city[slot]]] = 1
    due = state.cubes_due
    if due >= 0:
        v[off["remaining_cost"]] = COST_CAP if due > COST_CAP else due
    if phase == P_EXECUTIVE and state.executive_started:
        v[off["activations_left"]] = state.activations_left
        v[off["activations_made"]] = state.activations_made
    # Prosperity: the own hand and the Lakes (their coordinates go to city_xy); hand sizes are with the tracks
    if hands:
        first = T.first_pros
        if seat is not None:
            base = off["hand"]
            for x in hands[seat]:
                v[base + x - first] = 1
        lb = off["city_lake"]
        c_xy = off["city_xy"]
        npros = T.npros
        for i, q in enumerate(order):
            lakes = state.lakes[q]
            if lakes:
                xb = c_xy + i * 2 * k
                for slot, x in lakes:
                    v[lb + i * npros + x - first] = 1
                    v[xb + 2 * x], v[xb + 2 * x + 1] = sxy[slot]
    return np.frombuffer(v, dtype=np.float32)


# --- the longest game ------------------------------------------------------------------------------------
def _count_max(c: Components, game, per: str) -> int:
    """The largest count a conditional "for every N of ``per``" can see (before dividing by N)."""
    n = game.num_players
    if per in ("money", "culture", "employment", "population"):
        return c.track_max[{"money": MONEY, "culture": CULTURE, "employment": EMP, "population": POP}[per]]
    if per == "public_service_above_zero":
        return max(0, c.track_max[PS])
    if per == "players_ahead_culture":
        return n            # the other seats and the 2-player neutral marker
    if per == "plant_level":
        return c.max_plant_level
    if per == "tiles":
        return max_city_tiles(game)
    if per == "tourists_in_city":
        return _tourists(n)
    return PLANT_CUBES_CAP * 4  # plant_cubes: no rule bounds them; a generous stand-in (no data uses it for progress)


def _prog(gains) -> int:
    """Progress among ``gains`` (``(track, amount)`` pairs), positive part."""
    return max(0, sum(a for tr, a in gains if tr == PROG))


def _cond_prog(c, game, conds) -> int:
    return sum(_prog(cd.gains) * (_count_max(c, game, cd.per) // cd.n) for cd in conds)


def _area_prog(effects, far: int) -> int:
    """Progress the area effects of one tile can give over a whole game: an adjacent effect counts
    each of the 8 neighbouring squares once (at the tile's own build or at the neighbour's), a
    city-wide one each other tile of the city once."""
    return sum(_prog(e.gains) * (8 if e.adjacent else far) for e in effects)


def max_game_length(game) -> int:
    """An upper bound on the number of actions (decisions) in one game with ``game``'s options.

    Derived from the rules (HU, IT rulebooks, reference §8) and the data, summing the most
    decisions each part of a game can ask, with ``n`` players, ``R`` rounds (12), ``A`` the most
    activations a power plant gives, ``h`` the Highest Culture token's extra activations and ``T``
    the tourists (``n``, +1 neutral with 2 players):

    - politics: one space per seat in rounds 2..R (round 1 starts with building): ``(R - 1) n``;
    - building: take and place per seat and round: ``2 R n``; with Prosperity, per seat and marked
      round before the last, a prosperity tile or Lake and where to build it: ``2 n P``, and a
      Financial District's extra take and place: ``2 E``;
    - executive, per round: a seat with ``a`` activations left makes at most ``a`` activations,
      each an ``activate`` and at most one ``pay_cubes``, plus ``end_activations`` and, with no
      activation, the reward choice: at most ``max(2a, 2)``; the seats together ``2 (n A + h)``;
      each tourist pays once per phase (HU p. 11): ``T`` more;
    - free activations offered: each paid activation of a tile with a free adjacent activation
      (Convention Center, ``Fa`` such tiles, at most ``R (A + h)`` each) offers a chain of at most
      ``Fa`` (a chain never revisits a tile: with the data's single such tile it cannot), and each
      tile offering one when built or before the last Expo (Technology Park) a chain of ``1 + Fa``;
    - administration: each of a seat's two construction tokens may be offered a move in rounds
      1..R-1: ``2 n (R - 1)``;
    - end-game effects: one decision per effect resolved, each tile resolving its "before the last
      Expo" and its end-game effect once;
    - power-plant upgrades: one decision per upgrade owed, owed each time the progress marker
      passes the upgrade space upwards (reference §3.6). Over all seats the progress gained is at
      most the sum of: the immediate and conditional progress of the tiles built (each tile exists
      once; the most a city can build, summed over the best tiles), every construction and
      end-game area effect over a whole game (8 neighbours, or the other tiles of a city), the
      activation and permanent progress of each tile times the most activations one city makes
      (``R (A + h)`` plus the free ones), the World Expos' public-service progress. A marker
      moved back (public service at an Expo) can pass a space it passed before once more, so
      each seat adds one per backward move. Upgrade effects giving progress would feed back; the
      bound solves for that (and refuses a data change that makes it unbounded).

    The measured longest games are about half of it (``TENSOR.md``).

    Raises:
        ValueError: the data (with overrides) lets upgrades give a full loop of progress or more.
    """
    c = game.components
    n = game.num_players
    pros = bool(game.options.get("prosperity"))
    R = c.rounds
    tiles = [c.tiles[i] for e in (1, 2, 3) for i in c.era_tiles[e]]
    pros_tiles = [c.tiles[i] for i in c.prosperity_tiles] if pros else []
    every = tiles + pros_tiles
    plants = c.plants
    a_plant = max(p.activations for p in plants)
    h = c.hc_extra
    T = _tourists(n)
    P = _prosperity_rounds(c) if pros else 0
    E = _extra_builds(c) if pros else 0
    m = max_city_tiles(game)
    far = m - 1

    politics = (R - 1) * n
    building = 2 * R * n + 2 * n * P + 2 * E
    executive = R * (2 * (n * a_plant + h) + T)
    fa = sum(1 for t in every if t.act_free_adjacent)
    triggers = sum(1 for t in every if t.imm_free_adjacent or t.before_expo_free)
    per_city_paid = R * (a_plant + h)
    free = fa * per_city_paid * fa + triggers * (1 + fa)
    tokens = 2 * n * (R - 1)
    effects = sum(int(has_effect(t, BEFORE_EXPO)) + int(has_effect(t, END_OF_GAME)) for t in every)

    # progress over all seats
    era_max = max(c.era_of_round[1:])
    build_prog = sorted((max([_prog(t.imm)] + [_prog(x) for x in t.imm_era[:era_max]]) + _cond_prog(c, game, t.cond)
                         for t in tiles), reverse=True)
    gained = sum(build_prog[:n * (R + E)])
    if pros_tiles:
        p_prog = sorted((max([_prog(t.imm)] + [_prog(x) for x in t.imm_era]) + _cond_prog(c, game, t.cond)
                         for t in pros_tiles), reverse=True)
        gained += max(sum(p_prog[:n * P]), 0) + n * P * _prog(c.lake_gains)
    gained += sum(_area_prog(t.construction, far) + _area_prog(t.end_game, far) for t in every)
    gained += sum(_prog(t.end_flat) + _cond_prog(c, game, t.end_cond) + _prog(t.before_expo_flat)
                  + _cond_prog(c, game, t.before_expo_cond) for t in pros_tiles)
    per_city_acts = per_city_paid + free
    act_prog = sum(_prog(t.act_gain) + _cond_prog(c, game, t.act_cond)
                   + sum(_prog(g) for _, g in t.perm_adjacent) + sum(_prog(g) for _, g in t.perm_own)
                   for t in every)
    gained += per_city_acts * act_prog
    expos = len(c.expo_rounds)
    gained += n * expos * max(0, max(c.ps_expo_progress))
    back = expos * (1 if min(c.ps_expo_progress) < 0 else 0)
    start = n * (c.progress_start % c.loop)
    up_prog = sum(_prog(t.perm_upgrade) for t in every)
    if up_prog >= c.loop:
        raise ValueError("the_capitals: upgrade effects give a full progress loop or more: no bound on the upgrades")
    # u upgrades owed: u <= (start + gained + u * up_prog) / loop + n * back
    upgrades = (start + gained + n * back * c.loop) // (c.loop - up_prog)
    return politics + building + executive + free + tokens + effects + upgrades
