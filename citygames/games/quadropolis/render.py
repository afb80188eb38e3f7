"""Quadropolis as text: tile effects, action texts, log sentences, components for user interfaces,
rules.

The log sentences are registered with ``citygames.core.events.register_renderer`` when this module is
imported (the package ``__init__`` does it).
"""

from __future__ import annotations

from citygames.core.data import assumption_lines, override_lines
from citygames.core.events import register_renderer, seat_label

from .components import (FACTORY, HARBOUR, MARKERS, MONUMENT, OFFICE, PARK, PUBLIC, SHOP, TOWER, TYPE_LETTERS,
                         TYPE_NAMES, TYPES, Components, Tile, components)
from .game import MAX_K, SEAT_NAMES, slot_name, slot_target

_C: Components | None = None


def _c() -> Components:
    global _C
    if _C is None:
        _C = components()
    return _C


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def tile_effect(tile: Tile, board) -> str:
    """What a tile gives and how it scores, in one line (§7, §8), e.g. "gives 2 inhabitants; needs 1
    energy; scores by height: 1/3/6/10"."""
    t = tile.type
    gives = []
    if tile.inhabitants:
        gives.append(_plural(tile.inhabitants, "inhabitant"))
    if tile.energy:
        gives.append(f"{tile.energy} energy")
    out = [f"gives {' and '.join(gives)}"] if gives else []
    if tile.mayor:
        out.append("its builder takes the Mayor")
    ci, ce = board.cost_inh[t], board.cost_energy[t]
    need = [x for x in (_plural(ci, "inhabitant") if ci else "", f"{ce} energy" if ce else "") if x]
    out.append(f"needs {' and '.join(need)} to be active" if need else "always active")
    h = board.max_height
    if t == TOWER:
        out.append("VP by floors " + "/".join(map(str, board.tower_vp[1:h + 1])) + f", stacks up to {h}")
    elif t == SHOP:
        out.append(f"VP by customers (up to {board.shop_capacity}) " + "/".join(map(str, board.shop_vp[1:board.shop_capacity + 1])))
    elif t == PUBLIC:
        out.append(f"{tile.vp} VP printed, plus VP by districts with a public service "
                   + "/".join(map(str, board.public_vp[1:board.districts + 1])))
    elif t == PARK:
        what = "towers and offices" if board.parks_count_offices else "towers"
        out.append(f"VP by adjacent {what} " + "/".join(map(str, board.park_vp[1:]))
                   + f"; absorbs {board.park_absorbs} energy")
    elif t == FACTORY:
        bits = [f"+{board.factory_vp[x]} per adjacent {TYPE_NAMES[x]}" for x in (SHOP, HARBOUR, OFFICE)
                if board.factory_vp[x] and (x != OFFICE or board.mode == "expert")]
        out.append(", ".join(bits))
    elif t == HARBOUR:
        if tile.vp:
            out.append(f"{tile.vp} VP printed")
        out.append("VP by the longest harbour run in a row and in a column "
                   + "/".join(map(str, board.harbour_vp[1:board.cols + 1])))
    elif t == OFFICE:
        out.append(f"VP by group size and height, stacks up to {h}")
    elif t == MONUMENT:
        out.append("per adjacent building: park +5, shop +3, public service +2, factory or harbour -5")
    return "; ".join(out)


def describe_action(s, a) -> str:
    """The action in its context: what an architect would take, where a building would go."""
    g = s.game
    b = g.board
    if a.kind == "take":
        slot, k = divmod(a.arg, MAX_K)
        q = slot_target(slot, k + 1)
        t = s.site[q]
        where = f"r{q // 5 + 1}c{q % 5 + 1}"
        what = ("nothing (empty square)" if t < 0 else "nothing (face-down tile)" if s.face_down[q]
                else g.tiles[t].name)
        return f"architect #{k + 1} {slot_name(slot)}: takes {what} from {where}"
    if a.kind == "build":
        x = a.arg
        h = s.city_height[s.player * b.spaces + x]
        tile = g.tiles[s.taken]
        where = b.space_name(x)
        if h:
            return f"build the {TYPE_NAMES[tile.type]} on {where} as floor {h + 1}"
        return f"build the {tile.name} on {where}"
    if a.kind == "discard":
        return f"put the {g.tiles[s.taken].name} back in the box (no resources)"
    if a.kind == "activate":
        t = s.city_tile[s.player * b.spaces + a.arg]
        ty = g.tiles[t].type
        cost = [x for x in (_plural(b.cost_inh[ty], "inhabitant") if b.cost_inh[ty] else "",
                            f"{b.cost_energy[ty]} energy" if b.cost_energy[ty] else "") if x]
        return f"activate the {TYPE_NAMES[ty]} on {b.space_name(a.arg)} ({' and '.join(cost)})"
    if a.kind == "customer":
        return f"one inhabitant onto the shop on {b.space_name(a.arg)} as a customer"
    if a.kind == "best":
        return f"use the best allocation ({s.best(s.player).total} VP) and finish"
    if a.kind == "finish":
        return "finish the allocation (what is left costs 1 VP a unit)"
    return a.text


def action_json(s, a) -> dict:
    """A legal action for user interfaces: ``{id, kind, arg, text}`` plus ``slot``, ``architect``,
    ``square``, ``tile`` (take: what it would take, ``None`` when nothing), or ``space``, ``height``
    (build: the floors after building; activate, customer)."""
    out = {"id": a.id, "kind": a.kind, "arg": a.arg, "text": describe_action(s, a)}
    if a.kind == "take":
        slot, k = divmod(a.arg, MAX_K)
        q = slot_target(slot, k + 1)
        t = s.site[q]
        out.update(slot=slot, architect=k + 1, square=q, tile=t if t >= 0 and not s.face_down[q] else None)
    elif a.kind in ("build", "activate", "customer"):
        b = s.game.board
        out["space"] = a.arg
        out["height"] = s.city_height[s.player * b.spaces + a.arg] + (a.kind == "build")
    return out


def components_json(game) -> dict:
    """Static data for user interfaces: the mode's tiles (type, gains, printed VP, marker, effect
    text), the board (rows, cols, districts, numbers, limits) and the scoring tables."""
    b = game.board
    return {
        "game": game.info.id, "name": game.info.name, "mode": game.mode, "seats": list(SEAT_NAMES),
        "types": list(TYPES), "type_names": list(TYPE_NAMES), "type_letters": TYPE_LETTERS,
        "tiles": [{"id": t.idx, "round": t.round, "type": TYPES[t.type], "name": t.name, "code": t.code,
                   "inhabitants": t.inhabitants, "energy": t.energy, "vp": t.vp, "mayor": t.mayor,
                   "playground": t.playground, "marker": MARKERS[t.marker], "effect": tile_effect(t, b)}
                  for t in game.tiles],
        "board": {"rows": b.rows, "cols": b.cols, "district": list(b.district), "districts": b.districts,
                  "district_number": list(b.district_number), "space_number": list(b.space_number),
                  "placement": b.placement, "architect_numbers": b.architect_numbers,
                  "shared_pool": b.shared_pool, "max_height": b.max_height, "shop_capacity": b.shop_capacity,
                  "rounds": b.rounds},
        "scoring": {"tower": list(b.tower_vp), "shop": list(b.shop_vp), "public": list(b.public_vp),
                    "park": list(b.park_vp), "harbour": list(b.harbour_vp),
                    "office": [list(r) for r in b.office_vp],
                    "factory": {TYPES[x]: v for x, v in enumerate(b.factory_vp) if v},
                    "monument": {TYPES[x]: v for x, v in enumerate(b.monument_vp) if x}},
    }


def describe_rules(game, assumptions: bool = False) -> str:
    """Components, options and (with ``assumptions``) every value no source confirms, as text."""
    c = game.components
    b = game.board
    lines = [f"{game.info.name} ({game.info.id}), {game.info.min_players}-{game.info.max_players} players, "
             f"{game.mode} mode",
             f"  {len(game.tiles)} building tiles in {b.rounds} rounds of 25; cities {b.rows} x {b.cols} with "
             f"{b.districts} districts; architects #1-#{b.architect_numbers}"
             + (" (a shared pool)" if b.shared_pool else " per player"),
             "Options:"]
    lines += [f"  {o.name} = {game.options.get(o.name)} (default {o.default}): {o.doc}" for o in game.info.options]
    overridden = override_lines(c.assumptions)
    if overridden:
        lines += [f"Data overrides in effect ({len(overridden)}), for this game only:"] + overridden
    lines.append("Rule choices (data/board.yaml rules):")
    lines += [f"  {k} = {v}" for k, v in c.rules.items()]
    lines.append("Tiles (code: name: effect):")
    seen = set()
    for t in game.tiles:
        key = (t.round, t.code, t.marker)
        if key in seen:
            continue
        seen.add(key)
        k = sum(1 for u in game.tiles if (u.round, u.code, u.marker) == key)
        mark = "" if not t.marker else f" [{MARKERS[t.marker]}]"
        lines.append(f"  round {t.round}: {k} x {t.code}{mark}: {t.name}: {tile_effect(t, b)}")
    if assumptions:
        lines += assumption_lines(c.assumptions)
    return "\n".join(lines)


# --- log sentences --------------------------------------------------------------------------------
def _who(e) -> str:
    return seat_label(e.player, SEAT_NAMES) if e.player is not None and e.player >= 0 else "Nobody"


def _tile(e) -> str:
    mode = e.data.get("mode") or "classic"
    return _c().tiles[mode][e.data["tile"]].name


def _sq(q: int) -> str:
    return f"r{q // 5 + 1}c{q % 5 + 1}"


def _take(e) -> str:
    d = e.data
    where = f"architect #{d['k']} {slot_name(d['slot'])}"
    if d["tile"] is None:
        what = "an empty square" if d.get("why") == "empty" else "a face-down tile"
        return f"{_who(e)} puts {where}; it points at {what} at {_sq(d['square'])}, so nothing is taken."
    return f"{_who(e)} puts {where} and takes the {_tile(e)} from {_sq(d['square'])}."


def _build(e) -> str:
    d = e.data
    sp = d["at"]
    floor = f" as floor {d['height']}" if d["height"] > 1 else ""
    return f"{_who(e)} builds the {_tile(e)} on {sp}{floor}."


def _discard(e) -> str:
    if e.data["forced"]:
        return f"{_who(e)} cannot place the {_tile(e)} anywhere: it goes back to the box, with no resources."
    return f"{_who(e)} puts the {_tile(e)} back in the box."


register_renderer("quadropolis.setup", lambda e: f"{seat_label(e.data['mayor'], SEAT_NAMES)} starts and holds the Mayor "
                  f"({e.data['mode']} game).")
register_renderer("quadropolis.round", lambda e: f"Round {e.data['round']} begins: 25 buildings are on the "
                  f"construction site; {seat_label(e.data['first'], SEAT_NAMES)} plays first.")
register_renderer("quadropolis.take", _take)
register_renderer("quadropolis.build", _build)
register_renderer("quadropolis.discard", _discard)
register_renderer("quadropolis.mayor", lambda e: f"{_who(e)} built the mayor tower and takes the Mayor: "
                  "it will start the next round.")
register_renderer("quadropolis.round_end", lambda e: f"Round {e.data['round']} is over; "
                  f"{_plural(e.data['discarded'], 'building')} left on the site go back to the box.")
register_renderer("quadropolis.allocation", lambda e: "The last round is over. Each player now allocates "
                  f"inhabitants and energy, starting with {seat_label(e.data['first'], SEAT_NAMES)}.")
register_renderer("quadropolis.activate", lambda e: f"{_who(e)} activates the building on {e.data['at']}.")
register_renderer("quadropolis.customer", lambda e: f"{_who(e)} puts a customer on the shop on "
                  f"{e.data['at']}.")
register_renderer("quadropolis.best_allocation", lambda e: f"{_who(e)} uses the best allocation "
                  f"({e.data['total']} VP).")
register_renderer("quadropolis.allocated", lambda e: f"{_who(e)} has allocated.")
register_renderer("quadropolis.game_end", lambda e: f"The game is over after round {e.data['rounds']}: "
                  "buildings not activated are removed and the cities are scored.")

__all__ = ["tile_effect", "describe_action", "action_json", "components_json", "describe_rules"]
