"""Between Two Cities: the fixed-size views for learning — the observation tensor's layout
(``game.observation_tensor_layout()``) and the tensor of one seat's observation
(``state.observation_tensor(seat)``); the bound on a game's length is ``render.max_game_length`` (every
game has exactly that many actions).

The tensor is ``observation(seat)`` (``observation.py``) as one flat ``float32`` vector laid out as
``layout(game)`` names it; ``TENSOR.md`` beside this module describes it and holds the table of the
default options. It holds nothing the observation hides (§3): of the hands, only those the observer has
held this stage (as they are now); of the face-down discards, those of these hands; of a secret choice,
only the observer's own (the others show only *that* a seat has chosen); nothing of the bag and the
duplex stack but their sizes.

Conventions:

- Per-seat axes have ``num_players`` rows, from the observer on (``citygames.core.tensor.seat_order``:
  index 0 is "me", then the seats after it in seat order, i.e. to its left); a spectator (``seat=None``)
  sees seat 0 first. Seats named in values (to move, chosen, winners) are flags over the same order.
- Cities come from the observer's side too: its left city, its right city, then the others going left
  (with 3+ players city ``(seat - 1 + k) % n`` for k = 0, 1, ...; with 2 players the observer's two
  cities, then the opponent's left and right). A spectator sees them as seat 0 does.
- A city square (``row * W + col`` of the engine's ``W x W`` grid: 7 x 7, Capitals 9 x 9) is one-hot
  over the single kinds of the game (the 9 base kinds ``S F Tm Tf Td Tb O P H``, then with the Capitals
  the civic buildings ``C0`` .. ``C20``) and terrain; all 0 is an empty square. Hands, choices, tiles to
  place and discards are counts per kind over the same kinds; duplexes are flags over the 24 (``H1`` ..
  ``H12``, ``V1`` .. ``V12``, data order).
- Scores are the running scores the observation shows (``cities[c]["breakdown"]``, by
  ``scoring.CATEGORIES``: the base game's six, with the Capitals eight); every bound is derived from the
  scoring tables and the number of squares a city gets, so no value is ever clipped.

Speed (an RL adapter calls this at every step): the index tables are built once per game object (kept in
``game.__dict__``) and the observation dict is never built. A call copies a zero vector (a float32
``array.array``), stores the values one by one and wraps it as a NumPy array; each city's block of
``cities`` is kept from call to call by content (a city changes only when a tile is placed in it) and copied
in whole. The running scores are the
engine's (``end.city_scores``, cached in the state until the next action); the seats' scores and lower
cities are read from them here with ``end``'s rules (the lower city, the left one when equal; with 2
players the sum).
"""

from __future__ import annotations

from array import array

import numpy as np

from citygames.core.game import SIMULTANEOUS
from citygames.core.tensor import TensorLayout, seat_orders

from .constants import EMPTY, KIND_CODES, TERRAIN, TYPE_NAMES
from .draft import direction, seen_hands, singles_round
from .end import categories, city_scores, winners
from .game import PAIRS
from .observation import known_discards
from .steps import P_END, STEP_KEYS

_TABLES_KEY = "_btc_tensor_tables"


# --- sizes and bounds derived from the rules and the data ------------------------------------------
def kinds(game) -> list[int]:
    """The single kinds of the game, ascending: the 9 base kinds, with the Capitals the 21 civic buildings."""
    return sorted(set(game.singles))


def city_squares(game) -> int:
    """The most squares one city gets: its seats (2, with 2 players 1) times, per stage, the turns of a
    singles stage (one tile each) or 2 (one duplex)."""
    per_seat = sum(game.hand_size // 2 if singles_round(game, st) else 2 for st in range(len(game.stages)))
    return len(game.city_seats[0]) * per_seat


def _per(table) -> float:
    """The most points one item of a set table gives (``table[k] / k``)."""
    return max([table[k] / k for k in range(1, len(table))] + [0])


def category_bounds(game) -> dict[str, tuple[int, int]]:
    """``{category: (low, high)}`` for one city: every square scoring the most one item of that category
    can score (a shop in the best line, a factory of the biggest majority, a tavern of the fullest set,
    an office of a full set next to a tavern, a park of the best group, a house with every other base type,
    a civic building next to both its positive types), times the city's squares; districts: every
    district tile's best place. Negative table values (data overrides) give a negative low bound."""
    r = game.components.scoring
    C = city_squares(game)
    per = {
        "shops": _per(r.shop),
        "factories": max(r.factory),
        "taverns": _per(r.tavern),
        "offices": _per(r.office) + max(0, r.office_tavern_bonus),
        "parks": max(_per(r.park), r.park_extra),     # a group beyond the table adds park_extra per park
        "houses": max(5, r.house_next_factory),
        "civics": max(r.civic),
    }
    low_per = {
        "shops": min([0] + list(r.shop)), "factories": min([0] + list(r.factory)), "taverns": min([0] + list(r.tavern)),
        "offices": min([0] + list(r.office)) + min(0, r.office_tavern_bonus),
        "parks": min([0] + list(r.park)) + min(0, r.park_extra), "houses": min(0, r.house_next_factory),
        "civics": min([0] + list(r.civic)),
    }
    out = {cat: (int(np.floor(low_per[cat] * C)), int(np.ceil(per[cat] * C))) for cat in per}
    out["districts"] = (sum(min(0, a, b) for a, b in r.districts), sum(max(0, a, b) for a, b in r.districts))
    return {cat: out[cat] for cat in categories(game)}


def city_order(game, seat: int | None) -> list[int]:
    """The cities as ``seat`` sees them (``None``: as seat 0): its left and right cities first."""
    p = 0 if seat is None else seat
    n = game.num_players
    if game.two_player:
        q = 1 - p
        return [game.left[p], game.right[p], game.left[q], game.right[q]]
    return [(p - 1 + k) % n for k in range(n)]


# --- the layout ------------------------------------------------------------------------------------
def layout(game) -> TensorLayout:
    """The named layout of ``observation_tensor`` for ``game``'s options (``TENSOR.md``).

    Its size depends on the player count ``n`` (per-seat slices, the cities: ``n``, with 2 players 4) and
    on the Capitals (9 x 9 grids instead of 7 x 7, 30 kinds instead of 9, civics and districts, mats)."""
    n = game.num_players
    kk = kinds(game)
    K = len(kk)
    D = len(game.components.duplexes)
    nc = game.n_cities
    hs = game.hand_size
    cats = categories(game)
    bounds = category_bounds(game)
    supply = {k: game.singles.count(k) for k in kk}
    turns = max(game.hand_size // 2, 1)
    city_high = sum(hi for _, hi in bounds.values())
    city_low = sum(lo for lo, _ in bounds.values())
    per_seat = "per seat from the observer on"
    codes = " ".join(KIND_CODES[k] for k in kk)
    s = [
        ("step", len(STEP_KEYS), 0, 1, "one-hot", "the pending decision: " + ", ".join(STEP_KEYS)
         + " (end: the game is over)"),
        ("seat", n, 0, 1, "one-hot", "the observer's seat (colour index; all 0 for a spectator)"),
        ("stage", len(game.stages), 0, 1, "one-hot", "the stage: rounds 1, 2, 3"
         + (" (2 players: 1a, 1b, 2a, 2b, 3a, 3b)" if game.two_player else "")),
        ("turn", 1, 0, turns - 1, "count", f"turns played in this stage (0 to {turns - 1}; 0 in round 2)"),
        ("to_move", n, 0, 1, "flag", f"{per_seat}: 1 for each seat to move (several in a secret choice)"),
        ("chosen", n, 0, 1, "flag", f"{per_seat}: 1 for each seat that has made its secret choice in the "
         "pending step (what it chose stays hidden)"),
        ("my_choice_tiles", K, 0, 2, "count", f"per kind ({codes}): the observer's own secret pair, not yet "
         "revealed"),
        ("my_choice_duplex", D, 0, 1, "flag", "per duplex: the one the observer chose to discard, not yet "
         "revealed"),
        ("hand_sizes", n, 0, hs, "tiles", f"{per_seat}: tiles in the hand it holds (rounds 1 and 3)"),
        ("known_hands", (n, K), 0, hs, "tiles", f"{per_seat}: the tiles of the hand it holds, per kind, when "
         "the observer has held that hand this stage (row 0: the observer's own hand); 0 otherwise"),
        ("known_hand", n, 0, 1, "flag", f"{per_seat}: 1 when the observer knows the hand that seat holds"),
        ("my_duplexes", D, 0, 1, "flag", "per duplex: the 3 the observer drew (round 2, until the reveal)"),
        ("known_discards", K, 0, max(supply.values()), "tiles", "per kind: the face-down last tiles of the "
         "hands the observer held"),
        ("my_discarded_duplexes", D, 0, 1, "flag", "per duplex: those the observer discarded"),
        ("to_place_tiles", (n, K), 0, 2, "tiles", f"{per_seat}: per kind, the revealed tiles still to place "
         "this turn"),
        ("to_place_duplexes", (n, D), 0, 1, "flag", f"{per_seat}: per duplex, the kept duplexes still to place"),
        ("side_done", (n, 2), 0, 1, "flag", f"{per_seat}: the city (left, right) of its first placement this "
         "turn"),
        ("cities", (nc, game.size, K + 1), 0, 1, "one-hot",
         f"per city (the observer's left city, right city, then the others), per square (row * {game.width} + "
         f"col): its kind ({codes}), then terrain; all 0 empty"),
        ("city_breakdown", (nc, len(cats)), min(lo for lo, _ in bounds.values()),
         max(hi for _, hi in bounds.values()), "VP",
         "per city (same order): its running score by category (" + ", ".join(cats) + ")"),
        ("city_score", nc, city_low, city_high, "VP", "per city (same order): its running score"),
        ("score", n, city_low * (2 if game.two_player else 1), city_high * (2 if game.two_player else 1), "VP",
         f"{per_seat}: its score as it stands ("
         + ("the sum of its two cities, §7.1)" if game.two_player else "its lower city, §5)")),
        ("lower_city", (n, 2), 0, 1, "one-hot", f"{per_seat}: which of its cities (left, right) is the lower, "
         "the one that scores" + (" (all 0: with 2 players both score)" if game.two_player else "")),
    ]
    if game.capitals:
        mats = game.components.mats
        types = game.components.district_cards
        tnames = ", ".join(TYPE_NAMES[t] for t in types)
        s += [
            ("mats", (nc, len(mats)), 0, 1, "one-hot", "per city (same order): its landscape mat ("
             + ", ".join(m.id for m in mats) + ")"),
            ("districts", (3, len(types)), 0, 1, "flag", f"per district scoring tile 1-3: its two types ({tnames})"),
            ("district_discard", len(types), 0, 1, "one-hot", "the district card put away at setup"),
        ]
    s += [
        ("bag", 1, 0, len(game.singles), "tiles", "single tiles left in the bag"),
        ("duplex_bag", 1, 0, D, "tiles", "duplexes left in the stack"),
        ("winners", n, 0, 1, "flag", f"{per_seat}: 1 for the winners once the game is over (ties after the "
         "tie-breaks share)"),
    ]
    return TensorLayout(s)


# --- the tensor ------------------------------------------------------------------------------------
#: most city blocks (one city's part of ``cities``, by content) kept per game object: 2 KB each in the base
#: game, 10 KB with the Capitals; a game uses about 20 per city
CITY_CACHE = 1024


class _Tables:
    """What every call needs, computed once per game object."""

    def __init__(self, game):
        lay = game.observation_tensor_layout()
        self.layout = lay
        self.off = {sl.name: sl.offset for sl in lay}
        self.zeros = array("f", bytes(4 * lay.size))
        n = game.num_players
        kk = kinds(game)
        self.K = len(kk)
        self.col = [-1] * (TERRAIN + 1)          # kind code -> column of the kinds axis (terrain: the last)
        for i, k in enumerate(kk):
            self.col[k] = i
        self.col[TERRAIN] = self.K
        self.orders, self.rel = seat_orders(n)
        self.cities = {key: city_order(game, key) for key in list(range(n)) + [None]}
        self.city_block = game.size * (self.K + 1)
        self.city_cache: dict = {}
        self.cats = categories(game)
        self.type_col = {t: i for i, t in enumerate(game.components.district_cards)}
        self.D = len(game.components.duplexes)
        self.nm = len(game.components.mats)


def _tables(game) -> _Tables:
    t = game.__dict__.get(_TABLES_KEY)
    if t is None:
        t = game.__dict__[_TABLES_KEY] = _Tables(game)
    return t


def _city_block(T: _Tables, cells: tuple) -> array:
    """A city's block of ``cities`` (squares x kinds one-hot) for these cells, cached by content: a city
    changes only when a tile is placed in it."""
    out = T.city_cache.get(cells)
    if out is None:
        if len(T.city_cache) >= CITY_CACHE:
            T.city_cache.clear()
        w = T.K + 1
        col = T.col
        out = array("f", bytes(4 * T.city_block))
        for x, k in enumerate(cells):
            if k != EMPTY:
                out[x * w + col[k]] = 1
        T.city_cache[cells] = out
    return out


def observation_tensor(s, seat: int | None) -> np.ndarray:
    """``observation(s, seat)`` as the flat ``float32`` vector ``layout(game)`` describes (see the module
    docstring); nothing the observation hides."""
    g = s.game
    T = _tables(g)
    off = T.off
    K = T.K
    col = T.col
    n = g.num_players
    v = array("f", T.zeros)
    rel = T.rel[seat]
    over = s.phase == P_END
    stage = s.stage
    singles = stage >= 0 and singles_round(g, stage) and not over
    simultaneous = s.player == SIMULTANEOUS and not over
    v[off["step"] + s.step] = 1
    if seat is not None:
        v[off["seat"] + seat] = 1
    if stage >= 0:
        v[off["stage"] + stage] = 1
    v[off["turn"]] = s.turn
    o = off["to_move"]
    for p in s.players_to_move():
        v[o + rel[p]] = 1
    if simultaneous:
        o = off["chosen"]
        movers = s.movers
        for p in range(n):
            if p not in movers:
                v[o + rel[p]] = 1
        if seat is not None and s.pending[seat] >= 0:
            a = g.action_space.table[s.pending[seat]]
            if a.kind == "choose":
                x, y = PAIRS[a.arg]
                v[off["my_choice_tiles"] + col[x]] += 1
                v[off["my_choice_tiles"] + col[y]] += 1
            else:
                v[off["my_choice_duplex"] + a.arg] = 1
    hs = g.hand_size
    if singles:
        d = direction(g, stage)
        turn = s.turn
        hand_n = s.hand_n
        o = off["hand_sizes"]
        for p in range(n):
            v[o + rel[p]] = hand_n[(p + d * turn) % n]          # the hand seat p holds (draft.held)
        if seat is not None:
            hands = s.hands
            for h in seen_hands(g, stage, turn, seat):
                holder = rel[(h - d * turn) % n]
                v[off["known_hand"] + holder] = 1
                base = off["known_hands"] + holder * K
                for kd in hands[h * hs:h * hs + hand_n[h]]:
                    v[base + col[kd]] += 1
    k = g.duplexes_drawn
    if seat is not None:
        if s.dhands[seat * k] >= 0:
            for dd in s.dhands[seat * k:(seat + 1) * k]:
                v[off["my_duplexes"] + dd] = 1
        if s.discards:
            for _, _, kd in known_discards(s, seat):
                v[off["known_discards"] + col[kd]] += 1
        for _, q, dd in s.ddiscards:
            if q == seat:
                v[off["my_discarded_duplexes"] + dd] = 1
    duplex_stage = stage >= 0 and not singles_round(g, stage)
    D = T.D
    todo = s.todo
    side = s.side
    for p in range(n):
        r = rel[p]
        for t in todo[2 * p:2 * p + 2]:
            if t >= 0:
                if duplex_stage:
                    v[off["to_place_duplexes"] + r * D + t] = 1
                else:
                    v[off["to_place_tiles"] + r * K + col[t]] += 1
        sd = side[p]
        if sd == 0 or sd == 1:
            v[off["side_done"] + 2 * r + sd] = 1
    # the cities, from the observer's side
    size = g.size
    cells = s.cells
    block = T.city_block
    o = off["cities"]
    for i, c in enumerate(T.cities[seat]):
        base = o + i * block
        v[base:base + block] = _city_block(T, tuple(cells[c * size:(c + 1) * size]))
    bds = city_scores(s)
    totals = [sum(bd.values()) for bd in bds]
    cats = T.cats
    nk = len(cats)
    ob, oc = off["city_breakdown"], off["city_score"]
    for i, c in enumerate(T.cities[seat]):
        bd = bds[c]
        base = ob + i * nk
        for j, cat in enumerate(cats):
            v[base + j] = bd[cat]
        v[oc + i] = totals[c]
    left, right = g.left, g.right
    os_, ol = off["score"], off["lower_city"]
    two = g.two_player
    for p in range(n):
        r = rel[p]
        a, b = totals[left[p]], totals[right[p]]
        if two:                                       # end.scores: the sum of the two cities (§7.1)
            v[os_ + r] = a + b
        else:                                         # end.scores / end.lower_city: the lower, left if equal (§5)
            v[os_ + r] = b if b < a else a
            v[ol + 2 * r + (1 if b < a else 0)] = 1
    if g.capitals:
        nm = T.nm
        for i, c in enumerate(T.cities[seat]):
            v[off["mats"] + i * nm + s.mats[c]] = 1
        nt = len(T.type_col)
        for a, b, tile in s.districts:
            v[off["districts"] + tile * nt + T.type_col[a]] = 1
            v[off["districts"] + tile * nt + T.type_col[b]] = 1
        if s.district_discard >= 0:
            v[off["district_discard"] + T.type_col[s.district_discard]] = 1
    v[off["bag"]] = len(s.bag)
    v[off["duplex_bag"]] = len(s.dbag)
    if over:
        for p in winners(s):
            v[off["winners"] + rel[p]] = 1
    return np.frombuffer(v, np.float32)


__all__ = ["layout", "observation_tensor", "kinds", "category_bounds", "city_order", "city_squares"]
