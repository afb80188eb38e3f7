"""The Capitals: the Prosperity expansion's build (HU "Jólét kiegészítő szabályok", IT "Regole variante
prosperità", reference §7, §9.6).

At the end of the administration phase of each marked round, in initiative order, each city builds
one prosperity tile from its hidden hand whose requirement it meets (normal placement rules and
penalties) or reveals one and builds it face down as a Lake: any empty slot touching a building
tile, no placement rule, no type, +2 energy cubes (HU, IT "Tó építése"). A Financial District lets
its owner build one more tile from the projects area at once.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from . import administration
from .building import frontier, slot_refusal, triggered_construction
from .components import CUBES, LEVEL, MONEY, NT, NTYPES, PROG, TRACK_INDEX, TRACK_NAMES, TYPE_NAMES
from .steps import S_LAKE, S_PLACE, S_PROSPERITY, S_TAKE
from .tracks import C_TILES, best_order, can_lose, changes, gain, snapshot


def _count_types(s, q: int, types) -> int:
    return sum(s.type_count[q * NTYPES + ty] for ty in types)


def _requirement_value(s, q: int, req):
    t = s.tracks
    if req.kind in ("most", "fewest"):
        return _count_types(s, q, req.types)
    if req.kind == "most_tiles":
        tiles = s.c.tiles
        return sum(1 for x in s.city[q].values() if req.match(tiles[x]))
    if req.track == "progress":  # plant level, then nearness to the next upgrade (Technology Park)
        return t[q * NT + LEVEL], t[q * NT + PROG] % s.c.loop
    if req.track == "plant_cubes":
        return t[q * NT + CUBES]
    return t[q * NT + TRACK_INDEX[req.track]]


def _neg(v):
    """Sort key putting larger values (ints or tuples of ints) first."""
    return tuple(-x for x in v) if isinstance(v, tuple) else -v


def requirement_status(s, p: int, tile_idx: int) -> tuple[bool, str]:
    """Whether seat ``p`` may build prosperity tile ``tile_idx`` now, and why (or why not).

    "most" needs a strict majority unless the tile allows a tie; "highest"/"lowest"/"fewest" use the
    game's tie-break chain (more money, then leftmost initiative) to order equal cities (reference
    §9.6, §12 #17 PROJECT DEFAULT). Mayor's House's payment: the $ may come from extra taxation
    (§12 #19, data ``mayors_house_loans_allowed``); the public service and culture must be held in
    full (data rule ``activation_cost_needs_holding``).
    """
    tile = s.c.tiles[tile_idx]
    req = tile.requirement
    n = s.n
    if req.kind == "pay":
        cost = dict(req.cost).get(MONEY, 0)
        have = s.tracks[p * NT + MONEY]
        if cost and not s.c.mayor_loans_allowed and have - cost < s.c.min_money:
            return False, f"needs ${cost} without loans and ${s.c.min_money} left: you have ${have}"
        if not can_lose(s, p, req.cost):
            short = [f"{amt} {TRACK_NAMES[tr].replace('_', ' ')}" for tr, amt in req.cost if tr != MONEY]
            return False, "needs " + " and ".join(short) + " to give up: you do not hold them"
        return True, "pays " + ", ".join(f"{amt} {TRACK_NAMES[tr].replace('_', ' ')}" for tr, amt in req.cost)
    mine = _requirement_value(s, p, req)
    others = [_requirement_value(s, q, req) for q in range(n) if q != p]
    if req.kind in ("most", "most_tiles"):
        what = (" + ".join(TYPE_NAMES[ty] for ty in sorted(req.types)) if req.kind == "most"
                else req.match.describe() + "s")
        best = max(others) if others else -1
        if mine > best or (req.ties_ok and mine == best):
            return True, f"you have the most {what} ({mine})"
        if mine == best:
            return False, f"tied for most {what} ({mine}); this tile needs the most outright"
        return False, f"needs the most {what}: you have {mine}, another city has {best}"
    t = s.tracks
    values = {q: _requirement_value(s, q, req) for q in range(n)}
    label = {"fewest": "fewest " + " + ".join(TYPE_NAMES[ty] for ty in sorted(req.types)) + " tiles"}.get(
        req.kind, f"{req.kind} {req.track.replace('_', ' ')}")
    order = sorted(range(n), key=lambda q: (_neg(values[q]), -t[q * NT + MONEY], s.initiative[q]))  # highest first
    ok = order[0] == p if req.kind == "highest" else order[-1] == p        # lowest / fewest: last
    tied = sum(1 for q in range(n) if values[q] == mine) > 1
    if ok:
        return True, f"you have the {label}" + (" (after the tie-break)" if tied else "")
    if tied and (values[order[0]] == mine if req.kind == "highest" else values[order[-1]] == mine):
        return False, f"tied for the {label}; the tie-break (money, then initiative) favours another city"
    return False, f"needs the {label}"


# --- decisions ------------------------------------------------------------------------------------
def legal_build(s) -> list:
    """The hand's tiles whose requirement holds, then a Lake from any tile of the hand."""
    g = s.game
    table = g.action_space.table
    p = s.player
    first = s.c.prosperity_tiles[0]
    out = [table[g.off["prosperity"] + x - first] for x in s.hands[p] if requirement_status(s, p, x)[0]]
    out.extend(table[g.off["lake"] + x - first] for x in s.hands[p])
    return out


def why_build(s, a) -> str:
    c = s.c
    x = c.prosperity_tiles[a.arg]
    if x not in s.hands[s.player]:
        return f"prosperity: {c.tiles[x].name} is not in your hand"
    return f"prosperity: {c.tiles[x].name} cannot be built now: {requirement_status(s, s.player, x)[1]}"


def build_tile(s, arg: int) -> None:
    """Step handler: build prosperity tile ``arg`` (index among the prosperity tiles) from the hand;
    Mayor's House pays its cost first; then the player chooses where (``building.place``)."""
    p = s.player
    x = s.c.prosperity_tiles[arg]
    tile = s.c.tiles[x]
    s.hands[p].remove(x)
    loans = 0
    if tile.requirement.kind == "pay":  # Mayor's House: pay $12, 1 public service, 2 culture
        loans = gain(s, p, [(tr, -amt) for tr, amt in tile.requirement.cost], C_TILES, set())
    s.event("prosperity", p, tile=tile.id, loans=loans)
    s.pending_tile = x
    s.step = S_PLACE


def reveal_lake(s, arg: int) -> None:
    """Step handler: reveal prosperity tile ``arg`` of the hand to build it as a Lake."""
    p = s.player
    x = s.c.prosperity_tiles[arg]
    s.hands[p].remove(x)
    s.pending_tile = x
    s.event("lake_reveal", p, tile=s.c.tiles[x].id)
    s.step = S_LAKE


def legal_lake(s) -> list:
    """Empty slots next to another building tile (HU, IT "Tó építése")."""
    g = s.game
    table = g.action_space.table
    off = g.off["place_lake"]
    p = s.player
    city = s.city[p]
    lake = s.c.lake.idx
    nb = g.neighbours
    return [table[off + slot] for slot in sorted(frontier(s, p)) if any(city.get(q, lake) != lake for q in nb[slot])]


def why_lake(s, a) -> str:
    """Why the Lake may not go on slot ``a.arg`` (issue 15, "why can't I do this?"): the slot holds a
    tile (named), or it touches no building tile of the city."""
    return slot_refusal(s, a.arg, "prosperity", "building tile",
                        "a Lake must go on an empty slot adjacent to a tile of the city (HU 'Tó építése')")


def place_lake(s, slot: int) -> None:
    """Step handler: the Lake goes on ``slot``, ignoring the placement rules, and brings +2 energy
    cubes; it has no type and is not a prosperity tile (HU, IT "Tó építése"). Construction effects
    of the city's tiles fire only if the data rule ``lake_is_a_tile`` makes a Lake count as a tile."""
    p = s.player
    c = s.c
    s.city[p][slot] = c.lake.idx
    s.type_count[p * NTYPES + c.lake.type] += 1
    s.lakes[p].append([slot, s.pending_tile])
    before = snapshot(s, p)
    gain(s, p, best_order([*c.lake_gains, *triggered_construction(s, p, slot, c.lake)]), C_TILES, set())
    s.event("lake", p, tile=c.tiles[s.pending_tile].id, slot=slot, changes=changes(s, p, before))
    s.pending_tile = -1
    s.step = NO_DECISION


def run(s) -> None:
    """In initiative order each city builds (a Financial District's extra build first); then the Expo
    or the next round."""
    if s.extra_build_due:  # Financial District: one more tile from the projects area (§9.6)
        s.extra_build_due = False
        if any(s.projects):
            s.step = S_TAKE
            return
        s.event("extra_build_lost", s.player)     # said, not skipped in silence (issue 15, defect 6)
    if s.prosperity_started:
        s.prosperity_started = False
        s.turn += 1
        return
    if s.turn < s.n:
        s.player = s.order[s.turn]
        s.prosperity_started = True
        s.step = S_PROSPERITY
        return
    administration.after_admin(s)
