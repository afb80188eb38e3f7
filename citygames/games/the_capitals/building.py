"""The Capitals, phase 2: building (HU "Épület fázis", IT "Fase Costruzione", reference §8 Phase 2).

In initiative order each player takes one tile from the projects area, paying the row's price ($0,
$2 or $4), and builds it in its city on an empty slot touching the city (diagonals count). Two
placement rules may be broken at -2 prestige each (HU "Építési büntetés"): A, the slot is at a
corner of one of the city's construction tokens; B, the tile touches a tile of its type (unless it
is the city's first of that type). Then the tile's effects resolve: its immediate and conditional
effects (conditionals count what the city holds at the moment of building, HU p. 7), its own
construction effects (counting the matching tiles already there, reference §10 #6), and the
construction effects of the tiles already in the city that the new tile triggers. The player
updates the tracks in any order (HU "tetszőleges sorrendben", IT "in quale ordine desidera"): all
gains of one build are applied together in the order best for the player (population before
employment, ``tracks.best_order``).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from . import executive
from .components import CULTURE, LAKE, NT, NTYPES, PER_TRACK, PS
from .steps import P_BUILDING, P_TOURISM, S_PLACE, S_TAKE
from .tracks import C_PLACEMENT, C_TILES, best_order, changes, gain, pay, prestige, snapshot

def row_of(s, tile: int) -> int:
    """Projects-area row (0, 1, 2 for the $0, $2, $4 rows) holding ``tile``; -1 if none."""
    for r, row in enumerate(s.projects):
        if tile in row:
            return r
    return -1


def frontier(s, p: int) -> set:
    """Empty slots adjacent (diagonals included) to a tile of seat ``p``'s city."""
    city = s.city[p]
    nb = s.game.neighbours
    out = set()
    for slot in city:
        for q in nb[slot]:
            if q not in city:
                out.add(q)
    return out


def broken_rules(s, p: int, tile: int, slot: int) -> tuple[bool, bool]:
    """Which placement rules building ``tile`` on ``slot`` breaks: ``(rule A, rule B)``.

    A: the slot must be at a corner of one of the city's construction tokens.
    B: the tile must be adjacent (diagonals included) to a tile of its type, unless it is the
    city's first tile of that type. Each broken rule costs -2 prestige (HU "Építési büntetés").
    A tile built adjacent to a Subway breaks neither (Prosperity, reference §9.6).
    """
    g = s.game
    tiles = s.c.tiles
    new = tiles[tile]
    city = s.city[p]
    if s.prosperity and any(q in city and tiles[city[q]].penalty_immunity for q in g.neighbours[slot]):
        return False, False
    isect = g.isect_slots
    a = not any(slot in isect[tok] for tok in s.tokens[p])
    b = False
    if s.type_count[p * NTYPES + new.type]:
        b = True
        for q in g.neighbours[slot]:
            x = city.get(q)
            if x is not None and tiles[x].type == new.type:
                b = False
                break
    return a, b


def count_area(s, p: int, slot: int, tile, adjacent: bool, match) -> int:
    """How many tiles an area effect of ``tile`` on ``slot`` counts (never the tile itself).

    "Different type" counts distinct other types; a Lake "does not count as any building type"
    (IT "Building a Lake", HU "Tó építése"), so it is never a different type.
    """
    city = s.city[p]
    tiles = s.c.tiles
    if adjacent:
        others = [tiles[city[q]] for q in s.game.neighbours[slot] if q in city]
    else:
        others = [tiles[x] for q, x in city.items() if q != slot]
    if match.distinct_other_types:
        return len({o.type for o in others if o.type != tile.type and o.type != LAKE})
    return sum(1 for o in others if match(o))


def conditional_gains(s, p: int, conds, exclude: int = -1) -> list:
    """Gains of "for every N of X" effects given seat ``p``'s holdings now (HU p. 7, reference §8)."""
    if not conds:
        return []
    t = s.tracks
    base = p * NT
    out = []
    for cd in conds:
        per = cd.per
        if per == "tiles":
            tiles = s.c.tiles
            v = sum(1 for q, x in s.city[p].items() if q != exclude and cd.match(tiles[x]))
        elif per == "public_service_above_zero":
            v = max(0, t[base + PS])
        elif per == "players_ahead_culture":
            mine = t[base + CULTURE]
            v = sum(1 for q in range(s.n) if t[q * NT + CULTURE] > mine)
            if s.neutral_culture > mine and s.c.neutral_counts_ahead:
                v += 1
        else:
            v = t[base + PER_TRACK[per]]
        k = v // cd.n
        if k > 0:
            out.extend((tr, amt * k) for tr, amt in cd.gains)
    return out


def triggered_construction(s, p: int, slot: int, new) -> list:
    """Gains of the construction effects of seat ``p``'s other tiles that the new tile ``new`` on
    ``slot`` triggers (adjacent effects only for neighbours of ``slot``; reference §10 #6)."""
    city = s.city[p]
    tiles = s.c.tiles
    nb_all = s.game.neighbours
    nb = nb_all[slot]
    acc = []
    for q, x in city.items():
        other = tiles[x]
        if not other.construction or q == slot:
            continue
        for eff in other.construction:
            m = eff.match
            if eff.adjacent:
                if q not in nb:
                    continue
                if m.distinct_other_types:
                    if new.type == other.type or new.type == LAKE:
                        continue
                    # a new type among the neighbours of q (the new tile excluded)
                    if any(r != slot and r in city and tiles[city[r]].type == new.type for r in nb_all[q]):
                        continue
                elif not m(new):
                    continue
            elif m.distinct_other_types or not m(new):
                continue
            acc.extend(eff.gains)
    return acc


def build(s, p: int, tile_idx: int, slot: int) -> None:
    """Place ``tile_idx`` on ``slot`` of seat ``p``'s city and resolve its effects (HU p. 6-8).

    Placement penalties first; conditionals count the holdings at the moment of building, before
    the tile's own effects (data rule ``conditional_counts_before_own_effects``); then every gain
    of the build (immediate, conditional, own and triggered construction effects) is applied in the
    order best for the player. A Financial District owes one more build, a Technology Park offers a
    free activation of an adjacent tile (reference §9.6).
    """
    c = s.c
    tile = c.tiles[tile_idx]
    before = snapshot(s, p)
    a, b = broken_rules(s, p, tile_idx, slot)
    broken = int(a) + int(b)
    if broken:
        prestige(s, p, broken * c.placement_penalty, C_PLACEMENT)
    cond = conditional_gains(s, p, tile.cond) if c.cond_before_own else ()
    s.city[p][slot] = tile_idx
    s.type_count[p * NTYPES + tile.type] += 1
    imm = tile.imm_for(c.era_of_round[s.round]) if tile.imm_era else tile.imm
    own = []
    for eff in tile.construction:
        k = count_area(s, p, slot, tile, eff.adjacent, eff.match)
        if k:
            own.extend((tr, amt * k) for tr, amt in eff.gains)
    fired = set()
    loans = 0
    if c.cond_before_own:
        loans += gain(s, p, best_order([*imm, *cond, *own, *triggered_construction(s, p, slot, tile)]), C_TILES,
                      fired)
    else:  # the other reading: the tile's immediate effects first, then what it counts
        loans += gain(s, p, best_order(imm), C_TILES, fired)
        cond = conditional_gains(s, p, tile.cond, exclude=slot)
        loans += gain(s, p, best_order([*cond, *own, *triggered_construction(s, p, slot, tile)]), C_TILES, fired)
    s.event("build", p, tile=tile.id, slot=slot, rule_a=a, rule_b=b, loans=loans, changes=changes(s, p, before))
    if tile.extra_build:
        s.extra_build_due = True
    if tile.imm_free_adjacent:
        executive.offer_free_activation(s, p, slot)


# --- decisions ----------------------------------------------------------------------------------
def legal_take(s) -> list:
    """Every tile of the projects area."""
    g = s.game
    table = g.action_space.table
    off = g.off["take"]
    return [table[off + x] for row in s.projects for x in row]


def why_take(s, a) -> str:
    return f"building: {s.c.tiles[a.arg].name} is not in the projects area"


def take(s, tile: int) -> None:
    """Step handler: take ``tile`` from the projects area, paying its row's price."""
    p = s.player
    r = row_of(s, tile)
    s.projects[r].remove(tile)
    price = s.c.row_prices[r]
    loans = pay(s, p, price)
    s.event("take", p, tile=s.c.tiles[tile].id, price=price, loans=loans)
    s.pending_tile = tile
    s.step = S_PLACE


def legal_place(s) -> list:
    """Every empty slot touching the city (placement rules may be broken at a cost)."""
    g = s.game
    table = g.action_space.table
    off = g.off["place"]
    return [table[off + slot] for slot in sorted(frontier(s, s.player))]


def why_place(s, a) -> str:
    """Why the tile in hand may not go on slot ``a.arg``, the rule in words (issue 15, "why can't I
    do this?"): the slot holds a tile (named), or it touches no tile of the city."""
    return slot_refusal(s, a.arg, "building", "tile",
                        "a tile must go on an empty slot next to the city, diagonals included")


def slot_refusal(s, slot: int, step: str, neighbour: str, rule: str) -> str:
    """The refusal of a placement on ``slot`` of the mover's city at ``step`` ("building",
    "prosperity"): the slot holds a tile (named), or it touches no ``neighbour`` ("tile",
    "building tile") of the city; ``rule`` is the rule in words, quoted at the end."""
    x, y = s.game.xy(slot)
    taken = s.city[s.player].get(slot)
    if taken is not None:
        return f"{step}: slot ({x}, {y}) is taken by your {s.c.tiles[taken].name} ({rule})"
    return f"{step}: slot ({x}, {y}) touches no {neighbour} of your city ({rule})"


def place(s, slot: int) -> None:
    """Step handler: build the pending tile on ``slot``; in the building phase the turn passes on."""
    p = s.player
    tile = s.pending_tile
    s.pending_tile = -1
    s.step = NO_DECISION
    if s.phase == P_BUILDING:
        s.turn += 1
    build(s, p, tile, slot)


def run(s) -> None:
    """Each player in turn order takes and builds one tile; then tourism."""
    if s.turn < s.n:
        s.player = s.order[s.turn]
        s.step = S_TAKE
        return
    s.phase = P_TOURISM

