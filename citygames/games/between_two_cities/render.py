"""Between Two Cities as text: action texts, log sentences, components for user interfaces, rules.

The log sentences are registered with ``citygames.core.events.register_renderer`` when this module is
imported (the package ``__init__`` does it).
"""

from __future__ import annotations

from citygames.core.data import assumption_lines, override_lines
from citygames.core.events import register_renderer, seat_label
from citygames.core.markup import plural

from .components import MAX_CELLS, Components, components
from .constants import CIVIC0, KIND_CODES, KIND_NAMES, NUM_CIVICS, TYPE_NAMES
from .game import PAIRS, SEAT_NAMES

_C: Components | None = None


def _c() -> Components:
    global _C
    if _C is None:
        _C = components()
    return _C


def kind_name(k: int, c: Components | None = None) -> str:
    """A kind's name for people: ``"shop"``, ``"tavern (music)"``, a civic building's own name."""
    if CIVIC0 <= k < CIVIC0 + NUM_CIVICS:
        cv = (c or _c()).civics[k - CIVIC0]
        return f"{cv.name} ({cv.effect})"
    return KIND_NAMES[k]


def _article(name: str) -> str:
    return "an" if name[:1].lower() in "aeiou" else "a"


def _cell(w: int, x: int) -> str:
    return f"row {x // w + 1}, column {x % w + 1}"


def _city_for(s, p: int, side: int) -> str:
    g = s.game
    city = (g.left[p], g.right[p])[side]
    if g.two_player:
        return f"the {('left', 'right')[side]} city"
    return f"{g.city_name(city, p)} ({('left', 'right')[side]})"


def describe_action(s, a) -> str:
    """The action in its context: the tiles of a pair, the city (named by the neighbour who shares it)
    and the square of a placement."""
    g = s.game
    c = g.components
    if a.kind == "choose":
        x, y = PAIRS[a.arg]
        return f"choose {kind_name(x, c)} + {kind_name(y, c)}"
    if a.kind == "discard_duplex":
        d = c.duplexes[a.arg]
        return f"discard duplex {d.id} ({d.name}, {'horizontal' if d.horizontal else 'vertical'})"
    rest, x = divmod(a.arg, MAX_CELLS)
    what, side = divmod(rest, 2)
    p = s.player if s.player >= 0 else 0
    if a.kind == "place":
        name = kind_name(what + 1, c)
        return f"place the {name} in {_city_for(s, p, side)} at {_cell(g.width, x)}"
    if a.kind == "place_duplex":
        d = c.duplexes[what]
        y = x + (1 if d.horizontal else g.width)
        return (f"place duplex {d.id} ({d.name}) in {_city_for(s, p, side)} at {_cell(g.width, x)} and "
                f"{_cell(g.width, y)}")
    return a.text


def action_json(s, a) -> dict:
    """A legal action for user interfaces: ``{id, kind, arg, text}`` plus ``kinds`` (choose: the pair),
    ``duplex`` (discard_duplex, place_duplex), ``kind``-of-tile as ``tile``, ``side``, ``city`` and
    ``cells`` (place, place_duplex: the squares covered)."""
    g = s.game
    out = {"id": a.id, "kind": a.kind, "arg": a.arg, "text": describe_action(s, a)}
    if a.kind == "choose":
        out["kinds"] = list(PAIRS[a.arg])
    elif a.kind == "discard_duplex":
        out["duplex"] = a.arg
    else:
        rest, x = divmod(a.arg, MAX_CELLS)
        what, side = divmod(rest, 2)
        p = s.player if s.player >= 0 else 0
        out["side"] = side
        out["city"] = (g.left[p], g.right[p])[side]
        if a.kind == "place":
            out["tile"] = what + 1
            out["cells"] = [x]
        else:
            d = g.components.duplexes[what]
            out["duplex"] = what
            out["cells"] = [x, x + (1 if d.horizontal else g.width)]
    return out


def components_json(game) -> dict:
    """Static data for user interfaces: seats, kinds (codes, names, types), duplexes, civic buildings,
    mats, the grid and frame, the scoring tables."""
    c = game.components
    from .constants import TYPE_OF
    sc = c.scoring
    return {
        "game": game.info.id, "name": game.info.name, "seats": list(SEAT_NAMES[:game.num_players]),
        "capitals": game.capitals, "width": game.width, "frame": game.frame, "hand_size": game.hand_size,
        "kinds": [{"kind": k, "code": KIND_CODES[k], "name": kind_name(k, c) if k else "empty",
                   "type": TYPE_NAMES[TYPE_OF[k]]} for k in range(len(KIND_CODES))],
        "duplexes": [{"idx": d.idx, "id": d.id, "horizontal": d.horizontal, "halves": list(d.halves),
                      "name": d.name} for d in c.duplexes],
        "civics": [{"k": cv.k, "kind": CIVIC0 + cv.k, "name": cv.name, "plus": [TYPE_NAMES[t] for t in cv.plus],
                    "minus": TYPE_NAMES[cv.minus]} for cv in c.civics],
        "mats": [{"idx": m.idx, "id": m.id, "name": m.name, "rows": list(m.picture), "top": m.top, "left": m.left,
                  "bridges": [list(b) for b in m.bridges]} for m in c.mats],
        "cities": [{"city": i, "seats": list(game.city_seats[i])} for i in range(game.n_cities)],
        "scoring": {"shop": list(sc.shop), "tavern": list(sc.tavern), "office": list(sc.office),
                    "office_tavern_bonus": sc.office_tavern_bonus, "park": list(sc.park), "park_extra": sc.park_extra,
                    "factory": list(sc.factory), "house_next_factory": sc.house_next_factory,
                    "civic": list(sc.civic), "districts": [list(d) for d in sc.districts]},
    }


def max_game_length(game) -> int:
    """The number of actions of every game (fixed by the rules): per singles stage, ``hand_size // 2``
    turns of N choices and 2N placements; per duplex stage N discards and 2N placements."""
    n = game.num_players
    turns = game.hand_size // 2
    total = 0
    for rnd, _ in game.stages:
        total += 3 * n * (turns if rnd != 2 else 1)
    return total


def describe_rules(game, assumptions: bool = False) -> str:
    """Components, options, rule choices and (with ``assumptions``) every value no source confirms."""
    c = game.components
    n = game.num_players
    lines = [f"{game.info.name} ({game.info.id}), {game.info.min_players}-{game.info.max_players} players"
             + (", Capitals expansion" if game.capitals else ""),
             f"  {n} players, {game.n_cities} cities"
             + (" (two each, built alone; every round twice; score = the sum)" if game.two_player
                else " (one between each two neighbours; score = the lower of your two)"),
             f"  {len(game.singles)} singles ("
             + ", ".join(f"{KIND_CODES[k]} x{game.singles.count(k)}" for k in range(1, 10))
             + (", 21 civic buildings" if game.capitals else "") + f"), 24 duplexes; hands of {game.hand_size}; "
             f"cities {game.frame} x {game.frame} on a {game.width} x {game.width} grid",
             "Options:"]
    lines += [f"  {o.name} = {game.options.get(o.name)} (default {o.default}): {o.doc}" for o in game.info.options]
    overridden = override_lines(c.assumptions)
    if overridden:
        lines += [f"Data overrides in effect ({len(overridden)}), for this game only:"] + overridden
    lines.append("Rule choices (data/tiles.yaml rules, data/capitals.yaml rules):")
    lines += [f"  {k} = {v}" for k, v in c.rules.items()]
    if game.capitals:
        lines += [f"  capitals.{k} = {v}" for k, v in c.capitals.items()]
    lines.append("Duplexes:")
    lines += [f"  {d.id}: {d.name} ({'horizontal' if d.horizontal else 'vertical'})" for d in c.duplexes]
    if game.capitals:
        lines.append("Civic buildings (§8.4; all but the Elementary School are synthetic placeholders):")
        lines += [f"  {KIND_CODES[CIVIC0 + cv.k]}: {cv.name}: {cv.effect}" for cv in c.civics]
        lines.append("Landscape mats (§8.3; invented placeholders):")
        for m in c.mats:
            bridges = ", ".join(f"r{a // game.width - m.top + 1}c{a % game.width - m.left + 1}-"
                                f"r{b // game.width - m.top + 1}c{b % game.width - m.left + 1}" for a, b in m.bridges)
            lines.append(f"  {m.id}: {m.name}: {' / '.join(m.picture)}" + (f"; bridges {bridges}" if bridges else ""))
        lines.append("District cards: " + ", ".join(TYPE_NAMES[t] for t in c.district_cards)
                     + "; scoring tiles " + ", ".join(f"{a}/{b}" for a, b in c.district_tiles))
    if assumptions:
        lines += assumption_lines(c.assumptions)
    return "\n".join(lines)


# --- log sentences --------------------------------------------------------------------------------
def _who(e) -> str:
    return seat_label(e.player, SEAT_NAMES) if e.player is not None and e.player >= 0 else "Nobody"


def _stage(e) -> str:
    d = e.data
    label = f"{d['round']}{'ab'[d['half']]}" if d.get("two_players") else str(d["round"])
    if d["round"] == 2:
        return f"Round {label} begins: everybody draws {d['tiles']} duplexes and keeps 2."
    way = "to the opponent" if d.get("two_players") else ("to the left" if d["direction"] > 0 else "to the right")
    return f"Round {label} begins: everybody draws {plural(d['tiles'], 'tile')}; hands pass {way}."


def _reveal(e) -> str:
    parts = [f"{seat_label(p, SEAT_NAMES)} {kind_name(a)} + {kind_name(b)}" for p, (a, b) in enumerate(e.data["chosen"])]
    return f"Revealed (turn {e.data['turn'] + 1}): " + "; ".join(parts) + "."


def _reveal_duplexes(e) -> str:
    c = _c()
    parts = [f"{seat_label(p, SEAT_NAMES)} keeps {' and '.join(c.duplexes[d].id for d in kept)}"
             for p, kept in enumerate(e.data["kept"])]
    return "Revealed: " + "; ".join(parts) + " (the third duplex is discarded face down)."


def _city(e) -> str:
    c = e.data["city"]
    return f"city {c + 1}"


def _rc(x: int, w: int) -> str:
    return f"row {x // w + 1}, column {x % w + 1}"


def _place(e) -> str:
    d = e.data
    w = d.get("width", 0)
    where = f" at {_rc(d['cell'], w)}" if w else f" on cell {d['cell']}"
    extra = f" (no legal square: fallback level {d['fallback']})" if d.get("fallback") else ""
    return f"{_who(e)} places the {kind_name(d['tile'])} in {_city(e)}{where}{extra}."


def _place_duplex(e) -> str:
    d = e.data
    dup = _c().duplexes[d["duplex"]]
    w = d.get("width", 0)
    where = f" at {_rc(d['cell'], w)}" if w else f" on cell {d['cell']}"
    extra = f" (no legal spot: fallback level {d['fallback']})" if d.get("fallback") else ""
    return f"{_who(e)} places duplex {dup.id} ({dup.name}) in {_city(e)}{where}{extra}."


def _setup(e) -> str:
    d = e.data
    text = f"{d['players']} players" + (", Capitals" if d["capitals"] else "")
    if d["capitals"]:
        c = _c()
        mats = ", ".join(f"city {i + 1} {c.mats[m].id}" for i, m in enumerate(d["mats"]))
        dist = "; ".join(f"{TYPE_NAMES[a]} + {TYPE_NAMES[b]} (tile {t + 1})" for a, b, t in d["districts"])
        text += f": mats {mats}; districts {dist}; {TYPE_NAMES[d['district_discard']]} card put away"
    return f"Setup: {text}."


def _end(e) -> str:
    d = e.data
    win = " and ".join(seat_label(p, SEAT_NAMES) for p in d["winners"])
    scores = ", ".join(f"{seat_label(p, SEAT_NAMES)} {v}" for p, v in enumerate(d["scores"]))
    return f"The game is over. Cities: {', '.join(map(str, d['cities']))}. Scores: {scores}. {win} wins."


P = "between_two_cities."
register_renderer(P + "setup", _setup)
register_renderer(P + "stage", _stage)
register_renderer(P + "reveal", _reveal)
register_renderer(P + "reveal_duplexes", _reveal_duplexes)
register_renderer(P + "place", _place)
register_renderer(P + "place_duplex", _place_duplex)
register_renderer(P + "pass", lambda e: "Hands pass " + ("to the opponent" if e.data.get("two_players") else
                                                         "to the left" if e.data["direction"] > 0 else "to the right")
                  + f" (turn {e.data['turn'] + 1}).")
register_renderer(P + "discard_last", lambda e: "The last tile of each hand is discarded face down.")
register_renderer(P + "game_end", _end)

__all__ = ["kind_name", "describe_action", "action_json", "components_json", "describe_rules", "max_game_length"]
