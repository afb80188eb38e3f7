"""Quadropolis: placing the taken building in a city, stacking, resources and the Mayor (HU "A játék
egy köre" 3-4, "Kezdőjátékos"; reference §6, §7, §10 #4, #11-#13).

- Placement (§6 [C]): Classic, any empty space of row k or column k (k = the architect's number);
  Expert, an empty space numbered k or any empty space of the district numbered k (§5.2).
- Stacking (§6 [C], §10 #4, #13): only tower blocks (and, in Expert, office towers) stack, on their
  own kind, up to 4 floors (Classic) or 5 (Expert), where the normal rule allows *or* where the
  height after placing equals k.
- A building that fits nowhere goes back to the box with no resources (§6 [C], §10 #12); a
  placeable one may be put back too (PROJECT DEFAULT §6 [I-M], data ``rules.discard_placeable``).
- Resources (§7 [C]): the builder takes the tile's inhabitants and energy when it is placed.
- The Mayor (§10 #11 [C]): whoever builds the mayor tower takes the Mayor at once and starts the next
  round; if nobody builds it, the Mayor stays (§12 #7).
"""

from __future__ import annotations

from citygames.core.events import game_seat_label

from .components import EMPTY, STACKING
from .constants import PLACE
from .site import end_of_turn


def placements(s, p: int, tile: int, k: int) -> list[int]:
    """The spaces of seat ``p``'s city where ``tile`` may go with architect #k (§6), in space order:
    empty spaces of the normal rule, and the tops of stacks of its own kind under the height limit
    that the normal rule or "height after = k" allows."""
    g = s.game
    b = g.board
    ty = g.tiles[tile].type
    base = p * b.spaces
    ct, ch = s.city_tile, s.city_height
    tiles = g.tiles
    normal = b.normal[k]
    out = [x for x in normal if ct[base + x] < 0]
    if ty in STACKING:
        limit = b.max_height
        for x in range(b.spaces):
            h = ch[base + x]
            if h and h < limit and tiles[ct[base + x]].type == ty and (x in normal or h + 1 == k):
                out.append(x)
        out.sort()
    return out


def city_type(s, p: int, x: int) -> int:
    """The building type on space ``x`` of seat ``p``'s city (``EMPTY`` = 0 when none)."""
    t = s.city_tile[p * s.game.board.spaces + x]
    return EMPTY if t < 0 else s.game.tiles[t].type


def after_take(s, tile: int, k: int) -> None:
    """The tile ``tile`` was taken with architect #k: ask where to place it, or put it back in the box
    when it fits nowhere (§6)."""
    if placements(s, s.player, tile, k):
        s.taken, s.taken_k = tile, k
        s.step = PLACE
        return
    s.event("discard", s.player, tile=tile, forced=True, mode=s.game.mode)
    end_of_turn(s)


def place_legal(s) -> list:
    """Legal actions of the place decision: ``build`` on each legal space, then ``discard`` when the
    data rule allows putting a placeable tile back (§6, §12 #6)."""
    g = s.game
    table = g.action_space.table
    off = g.off["build"]
    out = [table[off + x] for x in placements(s, s.player, s.taken, s.taken_k)]
    if g.components.rules["discard_placeable"]:
        out.append(table[g.off["discard"]])
    return out


def place_why(s, a) -> str:
    g = s.game
    if a.kind == "discard":
        return "a building that can be placed must be placed (data rule discard_placeable is false)"
    if a.kind != "build":
        return f"now {game_seat_label(g, s.player)} must place the building taken (§3 step 3)"
    b = g.board
    x = a.arg
    if x >= b.spaces:
        return f"the {g.mode} city has {b.spaces} spaces"
    ty = g.tiles[s.taken].type
    here = city_type(s, s.player, x)
    rule = ("row or column" if b.placement == "row_or_column" else "space number or district number")
    if here == EMPTY:
        return f"architect #{s.taken_k} places only in {rule} {s.taken_k} (§6)"
    if ty not in STACKING or here != ty:
        return "only tower blocks (and office towers) stack, and only on their own kind (§6)"
    h = s.city_height[s.player * b.spaces + x]
    if h >= b.max_height:
        return f"a stack has at most {b.max_height} floors (§6)"
    return (f"a floor goes on a stack in {rule} {s.taken_k}, or where the height after placing equals the "
            f"architect's number {s.taken_k} (§6)")


def build(s, x: int) -> None:
    """Place the taken tile on space ``x`` (on top of a stack when there is one), take its resources and,
    for the mayor tower, the Mayor (§6, §7, §10 #11)."""
    g = s.game
    b = g.board
    p = s.player
    t = s.taken
    tile = g.tiles[t]
    i = p * b.spaces + x
    s.city_tile[i] = t
    s.city_height[i] += 1
    s.inhabitants[p] += tile.inhabitants
    s.energy[p] += tile.energy
    s.taken, s.taken_k = -1, 0
    s.event("build", p, tile=t, space=x, at=b.space_name(x), height=s.city_height[i], mode=g.mode)
    if tile.mayor and s.mayor != p:
        s.mayor = p
        s.event("mayor", p)
    end_of_turn(s)


def discard(s, _arg: int) -> None:
    """Put the taken tile back in the box: no resources, and the Mayor stays where it is (§6, §12 #6-#7;
    it moves anyway when the data rule ``mayor_moves_on_discarded_mayor_tower`` says so)."""
    t = s.taken
    s.taken, s.taken_k = -1, 0
    s.event("discard", s.player, tile=t, forced=False, mode=s.game.mode)
    g = s.game
    if g.tiles[t].mayor and g.components.rules["mayor_moves_on_discarded_mayor_tower"] and s.mayor != s.player:
        s.mayor = s.player
        s.event("mayor", s.player)
    end_of_turn(s)


__all__ = ["placements", "city_type", "after_take", "place_legal", "place_why", "build", "discard"]
