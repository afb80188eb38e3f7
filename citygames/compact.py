"""A compact view of a game for an 80 x 24 terminal (issue 15, defect 9).

``citygames play`` shows it instead of the full board (``render_text``) when the terminal is small
(``--layout auto``) or when asked (``--layout compact``); the full board stays one key away (``b``).
The summary is a few plain-text lines made from the seat's observation (so it shows nothing the
seat may not see): the round and the decision, one line per player with the numbers that matter,
and the game's shared board in brief. ``compact_lines`` knows the four games; for another game it
returns ``None`` and the caller shows the full board.
"""

from __future__ import annotations

import textwrap
from typing import Callable

#: at most this many characters per line
WIDTH = 80


def _fit(lines: list[str], width: int) -> list[str]:
    out = []
    for line in lines:
        out.extend(textwrap.wrap(line, width, subsequent_indent="  ") or [""])
    return out


def _mark(seat: int, current, viewer) -> str:
    return (">" if seat == current else " ") + ("*" if seat == viewer else " ")


def _capitals(state, seat) -> list[str]:
    o = state.observation(seat)
    c = state.game.components
    name = {t.id: t.name for t in c.tiles}
    lines = [f"Round {o['round']} (era {'I' * o['era']}), {o['phase']}: {o['step']}"]
    cur = o["current_player"]
    for p in o["players"]:
        plant = p["plant"]
        lines.append(f"{_mark(p['seat'], cur, seat)}{p['color'].capitalize():<6} ${p['money']:<2} "
                     f"culture {p['culture']} employment {p['employment']}/{p['population']} "
                     f"service {p['public_service']:+d} progress {p['progress']} cubes {plant['cubes']}"
                     + (f" prestige {p['prestige']}" if p.get("prestige") is not None else ""))
    rows = [f"${price}: " + (", ".join(name[t] for t in row) or "-")
            for price, row in zip(o["row_prices"], o["projects"])]
    lines.append("Projects " + " | ".join(rows))
    return lines


def _duel(state, seat) -> list[str]:
    o = state.observation(seat)
    c = state.game.components
    lines = [(f"Age {'I' * o['age']}" if o["age"] else "Wonder draft") + f": {o['decision']}"]
    cur = o["current_player"]
    for p in o["players"]:
        cards = ", ".join(f"{v} {k}" for k, v in p["colors"].items() if v)
        built = sum(1 for w in p["wonders"] if w["built"])
        lines.append(f"{_mark(p['seat'], cur, seat)}{p['name']:<6} {p['coins']:>2} coins  {p['score']:>2} VP  "
                     + (f"wonders {built}/{len(p['wonders'])}  " if p["wonders"] else "")
                     + f"tokens {len(p['tokens'])}  "
                     f"science symbols {len(set(p['science']))}")
        lines.append(f"    cards: {cards or 'none'}")
    pawn = o["conflict"]["pawn"]
    where = "centre" if pawn == 0 else f"{abs(pawn)} toward {o['players'][1 if pawn > 0 else 0]['name']}'s capital"
    lines.append(f"Conflict pawn: {where}")
    free = [c.cards[s["card"]].name for s in o["structure"]
            if s.get("accessible") and s.get("face_up") and not s.get("taken") and s.get("card") is not None]
    if free:
        lines.append("Accessible: " + ", ".join(free))
    return lines


def _quadropolis(state, seat) -> list[str]:
    o = state.observation(seat)
    lines = [f"Round {o['round']}/{o['rounds']}, turn {o['turn'] + 1}/{o['turns']}: {o['decision']}"]
    cur = o["current_player"]
    names = {p["seat"]: p["name"] for p in o["players"]}
    for p in o["players"]:
        arch = f"architects {','.join(map(str, p['architects'])):<7}  " if p.get("architects") else ""
        lines.append(f"{_mark(p['seat'], cur, seat)}{p['name']:<7} score {p['score']:>3}  inhabitants "
                     f"{p['inhabitants']:>2}  energy {p['energy']:>2}  {arch}empty {p['empty_spaces']}")
    if isinstance(o.get("pool"), dict):
        lines.append("Shared architects: " + ", ".join(f"#{k} x{v}" for k, v in sorted(o["pool"].items()) if v))
    me = seat if seat is not None else cur
    if me is not None:
        lines.extend(_quadropolis_city(o["players"][me]["city"], "your" if me == seat else f"{names[me]}'s"))
    lines.append(f"Mayor: {names.get(o['mayor'], '-')}; construction site: "
                 f"{sum(1 for q in o['site'] if q['tile'] is not None)} buildings left (b shows it)")
    return lines


_QTYPE = {"tower": "Tw", "shop": "Sh", "public": "PS", "park": "Pk", "factory": "Fa", "harbour": "Hb",
          "office": "Of", "monument": "Mo"}


def _quadropolis_city(city: list[dict], whose: str) -> list[str]:
    """A Quadropolis city in two or three lines: its rows side by side, each space a type code and
    the floors (``Sh2``: a shop 2 floors high; ``.``: empty), then the codes used."""
    rows: dict[int, list[str]] = {}
    used = set()
    for sp in city:
        code = "."
        if sp["tile"] is not None and sp["type"]:
            code = _QTYPE.get(sp["type"], sp["type"][:2].capitalize()) + str(sp["height"])
            used.add(sp["type"])
        rows.setdefault(sp["row"], []).append(code)
    cells = [f"r{r + 1}: " + " ".join(f"{c:<3}" for c in rows[r]) for r in sorted(rows)]
    half = (len(cells) + 1) // 2
    out = [f"{whose.capitalize()} city  " + "   ".join(cells[:half]).rstrip(),
           " " * (len(whose) + 7) + "   ".join(cells[half:]).rstrip()]
    if used:
        out.append("  (" + ", ".join(f"{_QTYPE.get(t, t[:2].capitalize())} {t}" for t in sorted(used)) + ")")
    return out


def _btc(state, seat) -> list[str]:
    o = state.observation(seat)
    lines = [f"Round {o['round']}, turn {o['turn'] + 1}/{o['turns']}: {o['decision']}",
             "  (a player's score is its lower city's)"]
    cur = o["current_player"]
    cities = o["cities"]
    for p in o["players"]:
        left, right = cities[p["left"]], cities[p["right"]]
        lines.append(f"{_mark(p['seat'], cur, seat)}{p['name']:<7} score {p['score']:>3}   "
                     f"left: city {p['left'] + 1} {left['score']:>3}  right: city {p['right'] + 1} {right['score']:>3}")
    tiles = [f"{i + 1}: {sum(1 for x in city['cells'] if x)}" for i, city in enumerate(cities)]
    lines.append("Tiles per city: " + ", ".join(tiles))
    return lines


_SUMMARIES: dict[str, Callable] = {"the_capitals": _capitals, "seven_wonders_duel": _duel,
                                   "quadropolis": _quadropolis, "between_two_cities": _btc}


def has_compact(game_id: str) -> bool:
    """Whether game ``game_id`` has a compact view (``compact_lines`` does not return ``None``)."""
    return game_id in _SUMMARIES


def compact_lines(state, seat, width: int = WIDTH) -> list[str] | None:
    """The compact view of ``state`` as ``seat`` (``None``: a spectator) sees it: plain lines of at
    most ``width`` characters (long ones wrapped), about 6 to 9 of them; ``None`` for a game without
    a compact view. ``>`` marks the player to move, ``*`` the viewer."""
    fn = _SUMMARIES.get(state.game.info.id)
    if fn is None:
        return None
    return _fit(fn(state, seat), width)
