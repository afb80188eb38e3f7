"""Quadropolis: the board as text for the terminal (rich console markup).

``render_text(state, seat)`` renders ``state.observation(seat)`` (``seat=None``: a spectator) and
the game's static data (tiles, board) only, so it cannot show what the seat may not see: a
face-down tile on the construction site is drawn as ``??`` and the rounds to come never appear.
The text reads well with the markup stripped: every fact a colour carries is also written out
(an architect in a slot is the initial of its owner and its number, ``B3``).

Sections, top to bottom: header (mode, round, turn, the Mayor, VP now, whose turn and what they
must do); during the rounds the construction site (the 5 x 5 squares with the 20 architect slots
around them, the Urbanist's square marked) beside a panel (the Urbanist, the Expert pool, what is
left on the site, the tile codes); for a *take*, what each legal slot would take; for a *place*,
the building taken and the spaces it may go on; the cities side by side (stacks, districts, Expert
space numbers, resources held, architects left, VP); at the end the allocation on each city and
the final score sheet with the winner. The decision is repeated at the bottom, next to the menu
the terminal prints.
"""

from __future__ import annotations

from citygames.core.markup import Line, flow as _core_flow, m as _m, plain_len, plural as _plural, wrap

from .components import MONUMENT, PARK, SHOP, STACKING, TYPE_LETTERS, TYPES
from .game import slot_name, slot_target

#: width the board is laid out for (a 120-column terminal)
WIDTH = 120
#: rich style of each seat's colour (the seat's name is its colour, and is always written out too)
SEAT_STYLE = {"Blue": "bold dodger_blue1", "Red": "bold red", "Green": "bold green3", "Yellow": "bold yellow"}
#: marks on the construction site
FREE = "·"          # a free architect slot
BLOCKED = "x"       # a free slot in the Urbanist's row or column
EMPTY = "··"        # an empty square
BACK = "??"         # a face-down tile
URBANIST = "U"      # prefixed to the Urbanist's square
#: marks in the cities
LEGAL = "◇"         # a space the pending building may go on
ACTIVE = "✓"        # activated (or needs no activation) in the allocation shown
REMOVED = "✗"       # not activated: removed before scoring
#: site layout: square width, the columns of the left slots, the grid and the right slots
SQ = 7
X_LEFT = 6
X_GRID = 10
X_RIGHT = X_GRID + 1 + 5 * SQ + 2
SITE_W = X_RIGHT + 3
#: the panel beside the site starts here
X_PANEL = SITE_W + 3
#: a city square: Classic (type, height or printed VP, marks) and Expert (space number first)
CELL = {"classic": 5, "expert": 6}
#: gap between cities side by side
GAP = 4
#: score sheet rows (score pad order) and their labels
CATEGORY_LABEL = {"towers": "tower blocks", "shops": "shops", "public_services": "public services", "parks": "parks",
                  "factories": "factories", "harbours": "harbours", "offices": "office towers",
                  "monuments": "monuments", "inhabitants": "unused inhabitants", "energy": "pollution (energy)"}
EXPERT_ONLY = ("offices", "monuments")


def render_text(state, seat, width: int = WIDTH) -> str:
    """The board of ``state`` as seen by ``seat`` (``None``: a spectator), as rich-markup text."""
    return render_observation(state.observation(seat), state.game, width)


# --- small helpers ------------------------------------------------------------------------------
def _seat(obs: dict, p: int | None, you: bool = True) -> str:
    """A seat's name in its colour, ``(you)`` for the viewer."""
    if p is None:
        return "nobody"
    name = obs["players"][p]["name"]
    mark = " (you)" if you and p == obs["seat"] else ""
    return _m(name, SEAT_STYLE.get(name, "bold")) + mark


def _sq(q: int) -> str:
    return f"r{q // 5 + 1}c{q % 5 + 1}"


def _space(x: int, cols: int) -> str:
    return f"r{x // cols + 1}c{x % cols + 1}"


def flow(parts: list[str], width: int, sep: str = " · ", indent: int = 4, first: str = "") -> list[str]:
    """``citygames.core.markup.flow`` kept within ``width``: a broken line ends with ``sep`` stripped,
    which ``flow`` does not count."""
    return _core_flow(parts, width - len(sep.rstrip()), sep=sep, indent=indent, first=first)


def _pad(markup: str, w: int) -> str:
    """``markup`` padded with spaces to ``w`` cells."""
    return markup + " " * max(0, w - plain_len(markup))


def _beside(left: list[str], right: list[str], x: int) -> list[str]:
    """Two blocks of lines side by side, the right one starting at column ``x``."""
    out = []
    for k in range(max(len(left), len(right))):
        a = left[k] if k < len(left) else ""
        b = right[k] if k < len(right) else ""
        out.append((_pad(a, x) + b).rstrip(" ") if b else a.rstrip(" "))
    return out


def _take_word(tile) -> str:
    """A building's short type word (``tower``, ``public``, ``mayor tower``)."""
    if tile.mayor:
        return "mayor tower"
    if tile.playground:
        return "playground"
    return TYPES[tile.type]


def _pool(obs: dict) -> dict[int, int]:
    return {int(k): v for k, v in (obs["pool"] or {}).items()}


def _numbers(obs: dict, p: int) -> list[int]:
    """The architect numbers seat ``p`` may use now (Classic: its own unused ones; Expert: the pool's)."""
    if obs["pool"] is not None:
        return [k for k, v in sorted(_pool(obs).items()) if v > 0]
    return list(obs["players"][p]["architects"])


def _arch_list(ks: list[int]) -> str:
    return ", ".join(f"#{k}" for k in ks) if ks else "none"


# --- the board ----------------------------------------------------------------------------------
def render_observation(obs: dict, game, width: int = WIDTH) -> str:
    """The board from an observation dict (see ``observation.py``) and ``game``'s static data only
    (its tiles and board, which data overrides may change)."""
    width = max(width, 80) - 1   # keep the last column free
    lines: list[str] = []
    lines += _header(obs, game, width)
    if obs["phase"] in ("take", "place"):
        lines.append("")
        lines += _beside(_site(obs, game), _panel(obs, game, width - X_PANEL), X_PANEL)
    if obs["phase"] == "take":
        lines.append("")
        lines += _choices(obs, game, width)
    elif obs["phase"] == "place":
        lines.append("")
        lines += _pending(obs, game, width)
    lines.append("")
    lines += _cities(obs, game, width)
    if obs["result"] is not None:
        lines.append("")
        lines += _score_sheet(obs, width)
    else:
        lines.append("")
        lines += _now(obs, game, width)
    return "\n".join(lines)


def _header(obs: dict, game, width: int) -> list[str]:
    viewer = obs["seat"]
    you = f"{_seat(obs, viewer, you=False)}'s view" if viewer is not None else "spectator view"
    over = obs["result"] is not None
    parts = [f"{_m('QUADROPOLIS', 'bold')} ({you})", f"{obs['mode'].capitalize()} game",
             _m(f"Round {obs['round']}/{obs['rounds']}", "bold")]
    if obs["phase"] in ("take", "place"):
        parts.append(f"turn {obs['turn'] + 1} of {obs['turns']} this round")
    elif obs["phase"] == "allocate":
        parts.append("end-of-game allocation")
    nxt = obs["phase"] in ("take", "place") and obs["round"] < obs["rounds"]
    parts.append(("Mayor (starts the next round): " if nxt else "Mayor: ") + _seat(obs, obs["mayor"]))
    vp = "VP" if over else "VP now"
    parts.append(f"{vp}: " + ", ".join(f"{pl['name']} {pl['score']}" for pl in obs["players"]))
    return flow(parts, width) + _now(obs, game, width)


def _now(obs: dict, game, width: int) -> list[str]:
    """Whose turn it is and what they must do (or the result)."""
    if obs["result"] is not None:
        return wrap(_m("Game over: ", "bold") + _result_text(obs), width)
    p = obs["current_player"]
    ph = obs["phase"]
    who = _seat(obs, p)
    if ph == "take":
        ks = _numbers(obs, p)
        if obs["pool"] is not None:
            left = "pool: " + ", ".join(f"#{k} x{v}" for k, v in sorted(_pool(obs).items()) if v)
        else:
            left = f"architects left: {_arch_list(ks)}"
        what = f"put an architect in a free slot and take the building it points at ({left})"
    elif ph == "place":
        pend = obs["pending"]
        tile = game.tiles[pend["tile"]]
        spaces = _space_list(obs, game, p, pend["spaces"])
        back = game.components.rules["discard_placeable"]
        what = (f"place the {_m(tile.name, 'bold')} [{tile.code}] taken with architect #{pend['architect']}: on "
                f"{spaces}" + (", or put it back in the box" if back else ""))
    elif ph == "allocate":
        inh, en = _left_to_allocate(obs, game, p)
        what = (f"allocate inhabitants and energy: activate buildings, put customers on shops "
                f"({_plural(inh, 'inhabitant')} and {en} energy left)")
    else:
        what = obs["decision"]
    return wrap(f"{_m('Now:', 'bold')} {who} must {what}.", width)


def _space_list(obs: dict, game, p: int, spaces: list[int]) -> str:
    b = game.board
    city = obs["players"][p]["city"]
    out = []
    for x in spaces:
        h = city[x]["height"]
        out.append(_space(x, b.cols) + (f" (floor {h + 1})" if h else ""))
    return ", ".join(out)


def _left_to_allocate(obs: dict, game, p: int) -> tuple[int, int]:
    """Inhabitants and energy seat ``p`` has not put on its city in the hand allocation."""
    b = game.board
    pl = obs["players"][p]
    inh, en = pl["inhabitants"], pl["energy"]
    for cell in pl["city"]:
        if cell["type"] is not None and cell["active"]:
            ty = TYPES.index(cell["type"])
            inh -= b.cost_inh[ty]
            en -= b.cost_energy[ty]
        inh -= cell["customers"]
    return inh, en


def _result_text(obs: dict) -> str:
    res = obs["result"]
    pls = obs["players"]
    sc = res["scores"]
    w = res["winners"]
    ranking = ", ".join(f"{k}. {pls[p]['name']} {sc[p]}" for k, p in enumerate(res["ranking"], start=1))
    if len(w) > 1:
        names = " and ".join(pls[p]["name"] for p in w)
        return f"shared victory: {names} (tied on VP, inhabitants and empty spaces); {ranking}."
    win = w[0]
    head = f"{_seat(obs, win)} wins with {sc[win]} VP"
    tied = [p for p in range(len(pls)) if p != win and sc[p] == sc[win]]
    if tied:
        inh = [p for p in tied if pls[p]["inhabitants"] == pls[win]["inhabitants"]]
        if len(inh) < len(tied):
            head += f" (tie-break: most inhabitants, {pls[win]['inhabitants']})"
        else:
            head += f" (tie-break: fewest empty spaces, {pls[win]['empty_spaces']})"
    return f"{head}; {ranking}."


# --- the construction site ----------------------------------------------------------------------
def _slot_mark(obs: dict, slot: dict) -> tuple[str, str | None]:
    """What a slot shows: its architect (owner's initial and number, owner's colour), ``x`` when the
    Urbanist blocks it, ``·`` when free."""
    if slot["architect"] is not None:
        name = obs["players"][slot["seat"]]["name"]
        return f"{name[0]}{slot['architect']}", SEAT_STYLE.get(name, "bold")
    if slot["blocked"]:
        return BLOCKED, "bold red"
    return FREE, "dim"


def _square(obs: dict, game, q: int) -> tuple[str, str | None]:
    sq = obs["site"][q]
    if sq["face_down"]:
        text, style = BACK, "magenta"
    elif sq["tile"] is None:
        text, style = EMPTY, "dim"
    else:
        tile = game.tiles[sq["tile"]]
        text, style = tile.code, "bold" if tile.mayor else None
    if obs["urbanist"] == q:
        return URBANIST + text, "bold reverse"
    return text, style


def _site(obs: dict, game) -> list[str]:
    """The 5 x 5 construction site with its 20 slots: above, below, left and right of the grid."""
    slots = obs["slots"]
    out = [_m(f"Construction site, round {obs['round']}", "bold underline")]
    head = Line().add("", None, X_GRID + 1)
    for c in range(5):
        head.add(f"col {c + 1}".center(SQ), "dim")
    out.append(str(head))

    def slot_row(side: int, label: str) -> str:
        ln = Line().add(label, "dim").at(X_GRID + 1)
        for c in range(5):
            text, style = _slot_mark(obs, slots[side * 5 + c])
            ln.add(text.center(SQ), style)
        return str(ln)

    out.append(slot_row(0, "above"))
    out.append(_m(" " * X_GRID + "┌" + "─" * (5 * SQ + 1) + "┐", "bright_black"))
    for r in range(5):
        ln = Line().add(f"row {r + 1}", "dim").at(X_LEFT)
        text, style = _slot_mark(obs, slots[10 + r])
        ln.add(text.center(3), style).at(X_GRID).add("│", "bright_black")
        for c in range(5):
            text, style = _square(obs, game, r * 5 + c)
            ln.add(" " + text.ljust(SQ - 1), style)
        ln.add(" ").add("│", "bright_black").at(X_RIGHT)
        text, style = _slot_mark(obs, slots[15 + r])
        ln.add(text.center(3), style)
        out.append(str(ln))
    out.append(_m(" " * X_GRID + "└" + "─" * (5 * SQ + 1) + "┘", "bright_black"))
    out.append(slot_row(1, "below"))
    return out


def _panel(obs: dict, game, width: int) -> list[str]:
    """Beside the site: the Urbanist, the slots, the Expert pool, what is left, the codes."""
    width = max(width, 30)
    u = obs["urbanist"]
    out = []
    if u is None:
        out += wrap(f"{_m('Urbanist', 'bold')}: beside the board (blocks nothing)", width)
    else:
        out += wrap(f"{_m('Urbanist', 'bold')} ({URBANIST}) on {_sq(u)}: no architect in row {u // 5 + 1} or "
                    f"column {u % 5 + 1} ({BLOCKED})", width)
    used = sum(1 for s in obs["slots"] if s["architect"] is not None)
    blocked = sum(1 for s in obs["slots"] if s["architect"] is None and s["blocked"])
    out += wrap(f"Slots: {used} used, {blocked} blocked, {20 - used - blocked} free ({FREE}); "
                "B3 = Blue's architect #3", width)
    if obs["pool"] is not None:
        pool = ", ".join(f"#{k} x{v}" for k, v in sorted(_pool(obs).items()))
        out += wrap(f"{_m('Architect pool', 'bold')} (shared): {pool}", width)
    tiles = sum(1 for s in obs["site"] if s["tile"] is not None or s["face_down"])
    down = sum(1 for s in obs["site"] if s["face_down"])
    hidden = f", {down} of them face down ({BACK})" if down else ""
    out += wrap(f"On the site: {_plural(tiles, 'building')}{hidden}; empty {EMPTY}", width)
    legend = ("Codes: T tower block, S shop, P public service, K park, F factory, H harbour"
              + (", O office tower, M monument" if obs["mode"] == "expert" else "")
              + "; then i inhabitants, e energy, v VP printed; * mayor tower"
              + ("; + playground park" if obs["mode"] == "expert" else ""))
    out += wrap(_m(legend, "dim"), width, indent=2)
    return out


def _choices(obs: dict, game, width: int) -> list[str]:
    """What each legal slot would take for the player to move, slot by slot."""
    p = obs["current_player"]
    ks = _numbers(obs, p)
    out = wrap(f"{_m('Where', 'bold')} {_seat(obs, p)} can put an architect and what it would take "
               f"(architect #: building, square):", width)
    for s in obs["slots"]:
        if s["architect"] is not None or s["blocked"]:
            continue
        parts = []
        for k in ks:
            q = slot_target(s["slot"], k)
            sq = obs["site"][q]
            if sq["face_down"]:
                what = _m(f"nothing ({_sq(q)} face down)", "dim")
            elif sq["tile"] is None:
                what = _m(f"nothing ({_sq(q)} empty)", "dim")
            else:
                tile = game.tiles[sq["tile"]]
                what = f"{_m(tile.code, 'bold')} {_take_word(tile)} ({_sq(q)})"
            parts.append(f"#{k} {what}")
        label = f"  {slot_name(s['slot']) + ':':<16}"
        out += flow(parts, width, sep=", ", indent=len(label), first=label)
    return out


def _pending(obs: dict, game, width: int) -> list[str]:
    p = obs["current_player"]
    pend = obs["pending"]
    tile = game.tiles[pend["tile"]]
    spaces = _space_list(obs, game, p, pend["spaces"])
    back = game.components.rules["discard_placeable"]
    text = (f"{_m('Building taken', 'bold')}: {_seat(obs, p)} took the {_m(tile.name, 'bold')} [{tile.code}] with "
            f"architect #{pend['architect']}. It may go on {spaces} ({LEGAL} in the city)"
            + ("; or back in the box (no resources)." if back else "."))
    return wrap(text, width)


# --- the cities ---------------------------------------------------------------------------------
def _show_alloc(obs: dict, p: int) -> str | None:
    """Which allocation marks seat ``p``'s city shows: ``"final"`` (✓ and ✗) at the end, ``"partial"``
    (✓ only) during the hand allocation, else ``None``."""
    if obs["result"] is not None:
        return "final"
    if obs["phase"] == "allocate":
        return "final" if obs["players"][p]["allocated"] else "partial"
    return None


def _cell(cell: dict, game, alloc: str | None, legal: bool) -> tuple[str, str, str | None]:
    """A city space as ``(number, text, style)``: Expert, the space number (``"3 "``; Classic ``""``);
    the top tile (type letter, floors of a stack or VP printed), the allocation marks, a legal-space
    mark; the style of the text."""
    number = f"{cell['number']} " if game.board.placement == "space_or_district" else ""
    if cell["tile"] is None:
        return number, (LEGAL if legal else "·"), "bold" if legal else "dim"
    tile = game.tiles[cell["tile"]]
    text = TYPE_LETTERS[tile.type]
    if tile.type in STACKING:
        text += str(cell["height"])
    elif tile.vp:
        text += f"{tile.vp}v"
    if tile.playground:
        text += "+"
    style = "bold" if tile.type in STACKING else None
    if alloc is not None:
        free = tile.type in (PARK, MONUMENT)
        if tile.type == SHOP and cell["active"]:
            text += f"{cell['customers']}c"
        if cell["active"] or free:
            text += ACTIVE
        elif alloc == "final":
            text += REMOVED
            style = "dim strike"
    if legal:
        text += LEGAL
    return number, text, style


_JUNCTION = {(1, 1, 1, 1): "┼", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (1, 1, 1, 0): "┤", (1, 1, 0, 1): "├",
             (1, 0, 1, 1): "┴", (0, 1, 1, 1): "┬", (1, 0, 1, 0): "┘", (1, 0, 0, 1): "└", (0, 1, 1, 0): "┐",
             (0, 1, 0, 1): "┌", (0, 0, 0, 0): " ", (1, 0, 0, 0): "│", (0, 1, 0, 0): "│", (0, 0, 1, 0): "─",
             (0, 0, 0, 1): "─"}


def _grid(obs: dict, game, p: int, legal: set[int]) -> list[str]:
    """Seat ``p``'s city: a line per row, district borders between spaces of different districts."""
    b = game.board
    cw = CELL[game.mode]
    city = obs["players"][p]["city"]
    alloc = _show_alloc(obs, p)
    d = b.district
    rows, cols = b.rows, b.cols
    line_style = "bright_black"

    def vsep(r: int, c: int) -> bool:   # a border between (r, c - 1) and (r, c)
        return 0 <= r < rows and d[r * cols + c - 1] != d[r * cols + c]

    def hsep(r: int, c: int) -> bool:   # a border between (r - 1, c) and (r, c)
        return 0 <= c < cols and d[(r - 1) * cols + c] != d[r * cols + c]

    head = "  " + " ".join(f"{c + 1:^{cw}}" for c in range(cols))
    out = [_m(head.rstrip(), "dim")]
    for r in range(rows):
        if r:
            sep = "  "
            for c in range(cols):
                if c:
                    key = (int(vsep(r - 1, c)), int(vsep(r, c)), int(hsep(r, c - 1)), int(hsep(r, c)))
                    sep += _JUNCTION[key]
                sep += ("─" if hsep(r, c) else " ") * cw
            if any(hsep(r, c) for c in range(cols)):
                out.append(_m(sep.rstrip(), line_style))
        ln = _m(f"{r + 1} ", "dim")
        for c in range(cols):
            if c:
                ln += _m("│", line_style) if vsep(r, c) else " "
            x = r * cols + c
            number, text, style = _cell(city[x], game, alloc, x in legal)
            text = text[:cw - len(number)]
            ln += _m(number, "dim") + _m(text, style) + " " * (cw - len(number) - len(text))
        out.append(ln)
    return out


def _city(obs: dict, game, p: int, bw: int) -> list[str]:
    pl = obs["players"][p]
    over = obs["result"] is not None
    legal = set(obs["pending"]["spaces"]) if obs["pending"] and obs["current_player"] == p else set()
    title = _seat(obs, p)
    if obs["current_player"] == p and not over:
        title += _m(" ◀ to move", "bold")
    out = [title]
    vp = f"{pl['score']} VP" if over else f"{pl['score']} VP now"
    out += flow([vp] + (["Mayor"] if obs["mayor"] == p else []), bw, indent=0)
    out += _grid(obs, game, p, legal)
    held = [_plural(pl["inhabitants"], "inhabitant"), f"{pl['energy']} energy"]
    out += flow(held, bw, sep=", ", indent=0)
    if obs["phase"] in ("take", "place") and obs["pool"] is None:
        ks = " ".join(f"#{k}" for k in pl["architects"]) or "none left"
        out += wrap(f"architects: {ks}", bw, indent=0)
    alloc = _show_alloc(obs, p)
    if alloc == "final":
        removed = sum(1 for c in pl["city"] if c["tile"] is not None and not c["active"]
                      and TYPES.index(c["type"]) not in (PARK, MONUMENT))
        out += flow([f"{removed} removed ({REMOVED})" if removed else "nothing removed",
                     _plural(pl["empty_spaces"], "empty space")], bw, sep=", ", indent=0)
    elif alloc == "partial" and obs["current_player"] == p:
        inh, en = _left_to_allocate(obs, game, p)
        out += flow([f"left: {inh} inh, {en} energy"], bw, indent=0)
    elif alloc == "partial":
        out.append(_m("allocating later", "dim"))
    return [_pad(ln, bw) for ln in out]


def _cities(obs: dict, game, width: int) -> list[str]:
    """Every city, side by side (as many per band as fit), in seat order."""
    b = game.board
    cw = CELL[game.mode]
    bw = 2 + b.cols * cw + (b.cols - 1)
    n = len(obs["players"])
    fit = max(1, (width + GAP) // (bw + GAP))
    bands = -(-n // fit)
    per = -(-n // bands)
    out: list[str] = []
    for start in range(0, n, per):
        blocks = [_city(obs, game, p, bw) for p in range(start, min(n, start + per))]
        h = max(len(bl) for bl in blocks)
        for bl in blocks:
            bl += [" " * bw] * (h - len(bl))
        if start:
            out.append("")
        for k in range(h):
            out.append((" " * GAP).join(bl[k] for bl in blocks).rstrip(" "))
    legend = ["T3 = a tower block 3 floors high", "P2v = 2 VP printed"]
    if game.mode == "expert":
        legend.append("the digit before a space is its number (district numbers: "
                      + ", ".join(f"{_district_name(game, k)} {v}" for k, v in enumerate(b.district_number)) + ")")
    if any(_show_alloc(obs, p) for p in range(n)):
        legend += [f"{ACTIVE} activated or needs no activation", f"{REMOVED} not activated: removed",
                   "S3c = a shop with 3 customers"]
    if obs["pending"]:
        legend.append(f"{LEGAL} where the building taken may go")
    legend.append("borders between districts")
    out += flow([_m(x, "dim") for x in legend], width, sep=_m("; ", "dim"), indent=2)
    return out


def _district_name(game, k: int) -> str:
    b = game.board
    spaces = [x for x in range(b.spaces) if b.district[x] == k]
    rows = sorted({x // b.cols + 1 for x in spaces})
    cols = sorted({x % b.cols + 1 for x in spaces})

    def span(v):
        return str(v[0]) if len(v) == 1 else f"{v[0]}-{v[-1]}"
    return f"r{span(rows)}c{span(cols)}"


# --- the end --------------------------------------------------------------------------------------
def _score_sheet(obs: dict, width: int) -> list[str]:
    pls = obs["players"]
    lw, cw = 22, 10
    out = [_m("Final score sheet", "bold underline")]
    out.append(" " * lw + "".join(_m(f"{pl['name']:>{cw}}", SEAT_STYLE.get(pl["name"], "bold")) for pl in pls))
    for cat in pls[0]["breakdown"]:
        if cat in EXPERT_ONLY and obs["mode"] != "expert":
            continue
        out.append(f"{CATEGORY_LABEL.get(cat, cat):<{lw}}" + "".join(f"{pl['breakdown'][cat]:>{cw}}" for pl in pls))
    out.append(" " * lw + "-" * (cw * len(pls)))
    out.append(_m(f"{'total':<{lw}}" + "".join(f"{s:>{cw}}" for s in obs["result"]["scores"]), "bold"))
    out.append(f"{'inhabitants held':<{lw}}" + "".join(f"{pl['inhabitants']:>{cw}}" for pl in pls))
    out.append(f"{'empty spaces':<{lw}}" + "".join(f"{pl['empty_spaces']:>{cw}}" for pl in pls))
    out += wrap(_m("Result: ", "bold") + _result_text(obs), width)
    return out


__all__ = ["render_text", "render_observation", "WIDTH", "FREE", "BLOCKED", "EMPTY", "BACK", "URBANIST", "LEGAL",
           "ACTIVE", "REMOVED", "CATEGORY_LABEL"]
