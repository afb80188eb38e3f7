"""The Capitals: the board as text for the terminal (rich console markup).

``board_text(state, seat)`` renders ``state.observation(seat)`` (``seat=None``: a spectator) and
static component data only, so it cannot show what the seat may not see. The text reads well with
the markup stripped: every fact carried by a colour is also written out (tile types, seat colours,
tourist initials).

Sections, top to bottom: header (round, era, phase, whose turn and what they must do), initiative
track, tracks table (one row per seat), projects area, power plants left, one grid per city (the
viewer's own city last, closest to the action menu) and the pending decision again.

City grids use city coordinates (the Hotel is (0, 0), y grows downwards); a construction token is
drawn as ``◆`` on the grid corner it sits on (corner (x, y) is the top-left corner of slot (x, y)).
"""

from __future__ import annotations

import textwrap

from citygames.core.markup import Line as _Line, flow, m as _m, plural as _plural

from .components import Components, components
from .render import COLOR_STYLE, TYPE_STYLE, tile_effect_text

#: width the board is laid out for (a 120-column terminal)
WIDTH = 120
#: inner width of a city cell (a tile's short name fits in it)
CELL = 12
#: width of the row-coordinate label left of a city grid
LABEL = 5

ROMAN = {0: "0", 1: "I", 2: "II", 3: "III"}
TOURIST_INITIAL = {"green": "G", "red": "R", "blue": "B", "purple": "P", "black": "K"}
DENSITY_SHORT = {"low": "lo", "medium": "med", "high": "hi"}
CUBE = "■"
TOKEN = "◆"
STAR = "★"

#: short names (at most CELL characters) for tiles whose name is longer; other tiles keep their
#: name. Names shared by two tiles get the era appended (School I / School II).
SHORT_NAMES = {
    "barrel_factory": "Barrel Fact.", "dancing_horse_statue": "Horse Statue", "davinci_estate": "DaVinci Est.",
    "dillon_residences": "Dillon Res.", "downtown_abode": "Downtown Ab.", "heritage_windmill": "Windmill",
    "king_george_mansion": "King George", "museum_of_industry": "Museum Ind.", "steam_engine_plant": "Steam Engine",
    "train_station": "Train Stn.", "tudor_townhouses": "Tudor Houses", "victoria_terraces": "Victoria Ter",
    "bulls_eye_emporium": "Bulls-Eye", "cogswell_cogs": "Cogswell", "delight_consulting": "Delight Cons",
    "exxedout_oil_refinery": "Exxedout Oil", "fire_department": "Fire Dept.", "furley_apartments": "Furley Apts.",
    "garden_gnome_mfg": "Garden Gnome", "generally_electrical": "Gen. Electr.", "hotrock_tire_factory": "Hotrock Tire",
    "inspiration_fountain": "Inspiration", "jefferson_apartments": "Jefferson", "luxury_lanes_mall": "Luxury Lanes",
    "magnificent_arch": "Magnif. Arch", "museum_of_art": "Museum Art", "natural_history_museum": "Nat. History",
    "office_furniture_mfg": "Office Furn.", "osler_general": "Osler Gen.", "police_station": "Police Stn.",
    "public_utilities": "Public Util.", "science_center": "Science Ctr.", "titan_of_progress": "Titan Progr.",
    "west_81st_street": "West 81st St", "windsor_cottages": "Windsor Cott", "abl_semiconductor": "ABL Semicon.",
    "bel_air_tower": "Bel-Air Twr.", "belt_and_howl_labs": "Belt & Howl", "boardgame_factory": "Boardgame F.",
    "boing_aerospace": "Boing Aero.", "botanical_gardens": "Botanical G.", "community_center": "Community C.",
    "convention_center": "Conv. Center", "executive_estates": "Exec Estates", "fertilizer_plant": "Fertilizer",
    "harwood_heights": "Harwood Hts.", "high_finance_square": "High Finance", "legacy_park_homes": "Legacy Park",
    "modern_dance_tribute": "Modern Dance", "museum_of_history": "Museum Hist.", "nature_trails": "Nature Trail",
    "penfield_health": "Penfield H.", "prescott_pharmaceuticals": "Prescott Ph.", "recycling_facility": "Recycling",
    "technotech_inc": "Technotech",
}


def board_text(state, seat, width: int = WIDTH) -> str:
    """The board of ``state`` as seen by ``seat`` (``None``: a spectator), as rich-markup text.

    ``width``: the terminal width the text is laid out for (flowing lines and city grids adapt;
    the tables need about 115 columns).
    """
    return render_observation(state.observation(seat), width, state.game.components)


# --- small helpers ------------------------------------------------------------------------------
def _short_names() -> dict[str, str]:
    c = components()
    counts: dict[str, int] = {}
    for t in c.tiles:
        counts[t.name] = counts.get(t.name, 0) + 1
    out = {}
    for t in c.tiles:
        name = SHORT_NAMES.get(t.id, t.name)
        if counts[t.name] > 1 and t.id not in SHORT_NAMES:
            name = f"{t.name} {ROMAN[t.era]}"
        out[t.id] = name[:CELL]
    return out


_SHORT: dict[str, str] = {}


def short_name(tile) -> str:
    """The name a city cell shows for ``tile`` (a ``Tile`` or its id): at most ``CELL`` characters,
    different for every tile name."""
    if not _SHORT:
        _SHORT.update(_short_names())
    tid = tile if isinstance(tile, str) else tile.id
    return _SHORT[tid]


def _color_style(color: str) -> str:
    return "bold " + COLOR_STYLE.get(color, "default")


def _cname(color: str) -> str:
    return color.capitalize()


def _seat_markup(obs: dict, p) -> str:
    if p is None:
        return "nobody"
    color = obs["players"][p]["color"]
    return _m(_cname(color), _color_style(color))


def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def _flow(parts: list[str], width: int, sep: str = " · ", style: str | None = None) -> list[str]:
    """``flow`` with this board's continuation indent (2 spaces)."""
    return flow(parts, width, sep, indent=2, style=style)


# --- sections -----------------------------------------------------------------------------------
def render_observation(obs: dict, width: int = WIDTH, c: Components | None = None) -> str:
    """The board from an observation dict (see ``observation.observation``) and static data only:
    ``c``, the game's components (``game.components``, which data overrides may change; default: the
    data files as they are)."""
    c = c or components()
    lines: list[str] = []
    width = max(width, LABEL + 2 * (CELL + 1) + 1) - 1  # keep the last column free
    lines += _header(obs, width, c)
    lines.append("")
    lines += _initiative(obs, width, c)
    lines.append("")
    lines += _tracks(obs, width, c)
    lines.append("")
    lines += _projects(obs, width, c)
    lines += _plants(obs, width)
    lines += _neutral(obs, width)
    lines += _prosperity(obs, width, c)
    viewer = obs["seat"]
    seats = [p for p in range(obs["num_players"]) if p != viewer]
    if viewer is not None:
        seats.append(viewer)
    for p in seats:
        lines.append("")
        lines += _city(obs, p, width, c)
    lines.append("")
    lines += _legend(width)
    lines += _now(obs, width, c)
    return "\n".join(lines)


def _header(obs: dict, width: int, c: Components) -> list[str]:
    rnd, era = obs["round"], obs["era"]
    expos = sorted(c.expo_rounds)
    nxt = next((r for r in expos if r >= rnd), None)
    if obs["terminal"]:
        expo_note = "all three held"
    elif obs["phase"] == "world expo":
        expo_note = "now"
    else:
        expo_note = f"next: {nxt}" if nxt is not None else "none left"
    viewer = obs["seat"]
    you = (_seat_markup(obs, viewer) + "'s view") if viewer is not None else "spectator view"
    parts = [f"{_m('THE CAPITALS', 'bold')} ({you})", _m(f"Round {rnd}/{c.rounds}", "bold"), f"Era {ROMAN[era]}",
             obs["phase"] if obs["terminal"] else f"{obs['phase']} phase",
             f"World Expo after rounds {', '.join(map(str, expos))} ({expo_note})"]
    return _flow(parts, width) + _now(obs, width, c)


def _now(obs: dict, width: int, c: Components) -> list[str]:
    """Whose turn it is and what they must do, with the pending context."""
    if obs["terminal"]:
        scores = obs.get("scores") or [None] * obs["num_players"]
        pls = obs["players"]
        # ties: more cubes on the plant, then money, then leftmost initiative (reference §8)
        ranked = sorted(range(obs["num_players"]), key=lambda p: (-(scores[p] or 0), -pls[p]["plant"]["cubes"],
                                                                  -pls[p]["money"], pls[p]["initiative_space"]))
        parts = ", ".join(f"{k}. {_seat_markup(obs, p)} {scores[p]}" for k, p in enumerate(ranked, start=1))
        return _flow([f"{_m('Game over', 'bold')} — {_seat_markup(obs, ranked[0])} wins; final prestige: {parts}"], width)
    cur = obs["current_player"]
    pend = obs.get("pending") or {}
    bits = [obs["step"]]
    if "tile" in pend:
        tile = c.tile_by_id[pend["tile"]]
        bits = [f"{obs['step']}: {_m(tile.name, 'bold ' + TYPE_STYLE[tile.type_name])} ({_type_label(tile)})"]
    if cur is not None and "token" in pend:
        k = pend["token"]
        toks = obs["players"][cur]["construction_tokens"]
        if isinstance(k, int) and 0 <= k < len(toks):
            bits.append(f"the token at corner ({toks[k][0]}, {toks[k][1]}) is surrounded")
    elif cur is not None and "slot" in pend:
        x, y = pend["slot"]
        on = next((t for t in obs["players"][cur]["city"] if t["x"] == x and t["y"] == y), None)
        name = c.tile_by_id[on["tile"]].name if on else "the tile"
        verb = "activating" if obs["step"] == "pay the activation" else "from"
        bits.append(f"{verb} {name} at ({x}, {y})")
    if "remaining_cost" in pend:
        held = f" (plant holds {obs['players'][cur]['plant']['cubes']})" if cur is not None else ""
        bits.append(f"{_plural(pend['remaining_cost'], 'cube')} to pay{held}")
    if "activations_left" in pend:
        bits.append(f"{_plural(pend['activations_left'], 'activation')} left ({pend.get('activations_made', 0)} made)")
    if obs["step"] in ("choose an initiative space", "take a tile from the projects area") and cur is not None:
        bits.append(f"has ${obs['players'][cur]['money']}")
    if obs["step"] == "choose an initiative space" and cur is not None:
        old = obs["players"][cur]["initiative_space"]
        mult = c.init_mult[old - 1]
        if old == len(c.init_mult) and _round2_note(obs):
            mult = c.five_player_round2_mult
        bits.append(f"leaving space {old}: pays the new space's $ × {mult}")
    if obs["step"] == "upgrade the power plant?" and cur is not None:
        level = obs["players"][cur]["plant"]["level"] + 1
        left = (obs.get("plants_left") or {}).get(str(level)) or []
        if left:
            bits.append(f"next level-{level} plant brings {_plural(left[0], 'cube')}")
    who = _seat_markup(obs, cur)
    bits[0] = f"{_m('Now:', 'bold')} {who} — {bits[0]}"
    return _flow(bits, width)


def _initiative(obs: dict, width: int, c: Components) -> list[str]:
    n = obs["num_players"]
    usable = set(c.usable_spaces(n, politics=True))
    w = 9
    head = _Line().add("Initiative", "bold", 13).add("space", None, 7)
    cost = _Line().add("(left first)", None, 13).add("$ ×", None, 7)
    who = _Line().add("", None, 13).add("seat", None, 7)
    chosen = obs.get("pending", {}).get("chosen_spaces")
    new = _Line().add("", None, 13).add("chosen", None, 7)
    by_new = {}
    if chosen:
        for p, s in enumerate(chosen):
            if s is not None:
                by_new[s - 1] = p
    for i, (cst, mult) in enumerate(zip(c.init_cost, c.init_mult)):
        head.add(str(i + 1), "bold", w)
        mtxt = f"×{mult}"
        if i == len(c.init_mult) - 1 and _round2_note(obs):
            mtxt += f"({c.five_player_round2_mult}*)"
        cost.add(f"${cst} {mtxt}", None, w)
        p = obs["initiative"][i] if i < len(obs["initiative"]) else None
        if p is not None:
            color = obs["players"][p]["color"]
            who.add(_cname(color), _color_style(color), w)
        elif i not in usable:
            who.add("closed", "dim", w)
        else:
            who.add("—", "dim", w)
        if chosen is not None:
            q = by_new.get(i)
            if q is not None:
                color = obs["players"][q]["color"]
                new.add(_cname(color), _color_style(color), w)
            else:
                new.add("", None, w)
    out = [str(head), str(cost), str(who)]
    if chosen is not None:
        out.append(str(new))
    notes = [f"closed = not used with {n} players"] if len(usable) < len(c.init_cost) else []
    notes.append("politics: pay the new space's $ × the multiplier of the space you leave")
    if _round2_note(obs):
        notes.append(f"* ×{c.five_player_round2_mult} in the round-2 politics phase")
    out += _flow(notes, width, sep="; ", style="dim")
    return out


def _round2_note(obs: dict) -> bool:
    """Whether to show the 5-player round-2 multiplier of the last initiative space (reference §2.1)."""
    return obs["num_players"] == 5 and (obs["round"] == 1 or (obs["round"] == 2 and obs["phase"] == "politics"))


TRACK_COLS = (("Player", 17), ("Init", 5), ("Money", 6), ("Culture", 8), ("Employ", 7), ("Popul", 6),
              ("PubServ", 8), ("Progress", 11), ("Plant", 6), ("Cubes", 6), ("Acts", 5), ("Prestige", 9),
              ("Tourists", 12))


def _tracks(obs: dict, width: int, c: Components) -> list[str]:
    head = _Line()
    for name, w in TRACK_COLS:
        head.add(name, "bold", w, right=name not in ("Player", "Tourists"))
        if name not in ("Player", "Tourists"):
            head.add(" ")
    out = [str(head)]
    viewer = obs["seat"]
    hc = obs.get("highest_culture")
    widths = dict(TRACK_COLS)
    for pl in obs["players"]:
        p = pl["seat"]
        color = pl["color"]
        ln = _Line()
        label = _cname(color) + (" (you)" if p == viewer else "")
        ln.add(label, _color_style(color))
        if p == hc:
            ln.add(" " + STAR, "bold yellow")
        ln.at(widths["Player"])

        def cell(text, name, style=None):
            ln.add(text, style, widths[name], right=True)
            ln.add(" ")

        cell(str(pl["initiative_space"]), "Init")
        cell(f"${pl['money']}", "Money")
        cell(str(pl["culture"]), "Culture")
        cell(str(pl["employment"]), "Employ")
        cell(str(pl["population"]), "Popul")
        cell(_signed(pl["public_service"]), "PubServ")
        laps = max(0, pl["progress_total"] // c.loop)
        cell(f"{pl['progress']} ({_plural(laps, 'lap')})", "Progress")
        plant = pl["plant"]
        cell(f"L{plant['level']}", "Plant")
        cell(str(plant["cubes"]), "Cubes")
        acts = str(plant["activations"]) + (f"+{c.hc_extra}" if p == hc and c.hc_extra else "")
        cell(acts, "Acts")
        pres = pl.get("prestige")
        cell("hidden" if pres is None else str(pres), "Prestige", "dim" if pres is None else "bold")
        ln.add(" ")
        tl = []
        for t in pl["tourists"]:
            ini = TOURIST_INITIAL.get(t["color"], t["color"][:1].upper())
            tl.append(_m(ini + ("" if t["on"] is not None else "*"), _color_style(t["color"])))
        ln.parts.append(" ".join(tl) if tl else _m("—", "dim"))
        out.append(str(ln))
    notes = [f"{STAR} highest culture (+{c.hc_extra} activation)" if c.hc_extra else f"{STAR} highest culture",
             f"Progress: space on the {c.loop}-space loop (upgrade symbol on space 0) and laps completed",
             "Plant: level; Acts: activations per executive phase",
             "Tourists: initials of the tourists in the city, * = beside the city"]
    out += _flow(notes, width, sep="; ", style="dim")
    return out


def _type_label(tile) -> str:
    if tile.density_name:
        return f"{tile.type_name}, {tile.density_name} density"
    return tile.type_name


def _projects(obs: dict, width: int, c: Components) -> list[str]:
    decks = obs.get("deck_sizes") or {}
    deck_txt = ", ".join(f"era {ROMAN[int(e)]} {k}" for e, k in sorted(decks.items()))
    out = [_m("Projects area", "bold") + _m(f"  (tiles left in the decks: {deck_txt})", "dim")]
    prices = obs.get("row_prices") or list(c.row_prices)
    for r, row in enumerate(obs["projects"]):
        price = prices[r] if r < len(prices) else 0
        tag = f" ${price} "
        if not row:
            out.append(_m(tag, "bold") + _m("  (empty)", "dim"))
            continue
        for k, tid in enumerate(row):
            tile = c.tile_by_id[tid]
            lead = tag if k == 0 else " " * len(tag)
            name = f"{tile.name} ({_type_label(tile)}, era {ROMAN[tile.era]})"
            effect = tile_effect_text(tile)
            plain = f"{lead} {name}: {effect}"
            wrapped = textwrap.wrap(plain, width=width, subsequent_indent=" " * (len(tag) + 3),
                                    break_on_hyphens=False)
            # style the first line's name; the rest is plain (escaped)
            first = wrapped[0]
            head_plain = f"{lead} {name}:"
            if first.startswith(head_plain):
                first_m = (_m(lead, "bold") + " " + _m(tile.name, "bold " + TYPE_STYLE[tile.type_name])
                           + _m(f" ({_type_label(tile)}, era {ROMAN[tile.era]}):") + _m(first[len(head_plain):]))
            else:
                first_m = _m(first)
            out.append(first_m)
            out.extend(_m(x) for x in wrapped[1:])
    return out


def _plants(obs: dict, width: int) -> list[str]:
    left = obs.get("plants_left") or {}
    parts = []
    for level in sorted(left, key=int):
        cubes = left[level]
        parts.append(f"L{level}: " + (" ".join(str(x) for x in cubes) if cubes else "none"))
    parts[0] = _m("Power plants left", "bold") + " (cubes, best first): " + parts[0]
    return _flow(parts, width)


def _neutral(obs: dict, width: int) -> list[str]:
    """2 players: the neutral culture marker and where its tourist is (HU, IT 2-player rules)."""
    nt = obs.get("neutral")
    if not nt:
        return []
    with_ = nt.get("tourist_with")
    where = f"with {_cname(obs['players'][with_]['color'])}" if with_ is not None else "beside the board"
    return _flow([_m("Neutral marker", "bold") + f" ({nt['color']}): culture {nt['culture']}, loses every tie, "
                  f"+1 at the start of each administration phase; the neutral tourist is {where}"], width)


def _prosperity(obs: dict, width: int, c: Components) -> list[str]:
    """Prosperity: the viewer's own hand with what may be built now and why not; hand sizes."""
    if not obs.get("prosperity"):
        return []
    from .render import prosperity_effect_text, requirement_text
    rounds = ", ".join(str(r) for r in obs.get("prosperity_rounds") or [])
    sizes = ", ".join(f"{_cname(pl['color'])} {pl.get('prosperity_hand_size', 0)}" for pl in obs["players"])
    out = [_m("Prosperity", "bold") + _m(f"  (built at the end of rounds {rounds}; tiles in hand: {sizes})")]
    seat = obs["seat"]
    hand = obs["players"][seat].get("prosperity_hand") if seat is not None else None
    if hand:
        out.append(_m("  Your prosperity tiles (a Lake is always possible: reveal one, +2 energy cubes):"))
        for h in hand:
            tile = c.tile_by_id[h["tile"]]
            mark = _m("can build", "bold green") if h["can_build"] else _m("not now", "bold red")
            plain = f"    {tile.name} — requires {requirement_text(tile)}: {prosperity_effect_text(tile)}"
            for i, ln in enumerate(textwrap.wrap(plain, width=width, subsequent_indent=" " * 6, break_on_hyphens=False)):
                out.append(_m(ln))
            out.append("      " + mark + _m(f" ({h['why']})"))
    return out


def _tile_line2(tile, cubes: int, tourists: list) -> str:
    """Second line of a city cell: type, cubes on the tile, tourists on it (markup)."""
    extra_plain = ""
    extra_m = ""
    if cubes:
        extra_plain += f" {CUBE}{cubes}"
        extra_m += " " + _m(f"{CUBE}{cubes}", "bold")
    if tourists:
        extra_plain += " T:"
        extra_m += " T:"
        for t in tourists:
            ini = TOURIST_INITIAL.get(t["color"], t["color"][:1].upper())
            if t.get("used_now"):
                ini = ini.lower()
            extra_plain += ini
            extra_m += _m(ini, _color_style(t["color"]))
    room = CELL - len(extra_plain)
    if tile.density_name:
        d = DENSITY_SHORT.get(tile.density_name, tile.density_name)
        options = [f"housing {d}", f"hous {d}", f"h {d}", "h"]
    else:
        options = [tile.type_name, tile.type_name[:4], tile.type_name[:1]]
    label = next((o for o in options if len(o) <= room), "")
    if len(label) + len(extra_plain) > CELL:  # too many tourists: cut the extras
        extra_plain = extra_plain[:CELL]
        extra_m = _m(extra_plain)
    text = label + extra_plain
    return _m(label, TYPE_STYLE[tile.type_name]) + extra_m + " " * (CELL - len(text))


def _city(obs: dict, p: int, width: int, c: Components) -> list[str]:
    pl = obs["players"][p]
    color = pl["color"]
    executive = obs["phase"] == "executive"
    cells: dict[tuple[int, int], dict] = {(t["x"], t["y"]): t for t in pl["city"]}
    tour_on: dict[tuple[int, int], list] = {}
    beside = []
    for t in pl["tourists"]:
        t = dict(t, used_now=executive and t.get("used"))
        if t["on"] is None:
            beside.append(t)
        else:
            tour_on.setdefault((t["on"][0], t["on"][1]), []).append(t)
    tokens = {(x, y) for x, y in pl["construction_tokens"]}
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    for tx, ty in tokens:  # a token's 4 slots are inside the box
        x0, x1, y0, y1 = min(x0, tx - 1), max(x1, tx), min(y0, ty - 1), max(y1, ty)
    pend = obs.get("pending") or {}
    hl = None
    if obs.get("current_player") == p and isinstance(pend.get("slot"), list):
        hl = tuple(pend["slot"])

    name = _m(f"{_cname(color)} city" + (" (you)" if p == obs["seat"] else ""), _color_style(color))
    if p == obs.get("highest_culture"):
        name += " " + _m(STAR, "bold yellow")
    tok_txt = ", ".join(f"({x}, {y})" for x, y in sorted(tokens))
    parts = [f"{name} — {_plural(len(pl['city']), 'tile')}", _m(f"construction tokens {TOKEN} at corners {tok_txt}")]
    if beside:
        ini = " ".join(TOURIST_INITIAL.get(t["color"], "?") + ("(used)" if t["used_now"] else "") for t in beside)
        parts.append(f"tourists beside the city: {ini}")
    if pl.get("pending_upgrades"):
        parts.append(f"{_plural(pl['pending_upgrades'], 'plant upgrade')} pending")
    if pl.get("lakes"):
        parts.append("Lakes: " + ", ".join(f"({lk['x']}, {lk['y']}) revealing {c.tile_by_id[lk['revealed']].name}"
                                           for lk in pl["lakes"]))
    out = _flow(parts, width, sep="; ")

    per_band = max(1, (width - LABEL - 1) // (CELL + 1))
    cols = list(range(x0, x1 + 1))
    for b in range(0, len(cols), per_band):
        band = cols[b:b + per_band]
        out += _grid(band, y0, y1, cells, tour_on, tokens, color, hl, c)
    shortened = sorted({(short_name(tile), tile.name) for tile in (c.tile_by_id[t["tile"]] for t in cells.values())
                        if not short_name(tile).startswith(tile.name)})
    if shortened:  # a cell shows at most CELL characters: name in full every tile it shortens
        out += _flow([_m("Short names: ", "dim") + _m(f"{short} = {full}", "dim") if i == 0 else
                      _m(f"{short} = {full}", "dim") for i, (short, full) in enumerate(shortened)], width, sep="; ")
    return out


def _grid(band, y0, y1, cells, tour_on, tokens, color, hl, c: Components) -> list[str]:
    grid = "bright_black"
    tok_style = _color_style(color)
    out = []
    hdr = _Line().add("", None, LABEL)
    for x in band:
        label = f" {x:^{CELL}}"
        core = label.strip()
        left = label.index(core)
        hdr.add(label[:left]).add(core, "bold").add(label[left + len(core):])
    out.append(str(hdr))
    bx0, bx1 = band[0], band[-1]

    def border(y: int, top: bool, bottom: bool) -> str:
        ln = _Line().add("", None, LABEL)
        for x in list(band) + [bx1 + 1]:
            if (x, y) in tokens:
                ln.add(TOKEN, tok_style)
            else:
                left, right = x == bx0, x == bx1 + 1
                row = "┌┬┐" if top else "└┴┘" if bottom else "├┼┤"
                ln.add(row[0] if left else row[2] if right else row[1], grid)
            if x <= bx1:
                ln.add("─" * CELL, grid)
        return str(ln)

    for y in range(y0, y1 + 1):
        out.append(border(y, top=y == y0, bottom=False))
        if not any((x, y) in cells for x in band):  # an empty (margin) row: one line is enough
            ln = _Line().add(f"{y:>{LABEL - 1}} ", "bold")
            for _ in band:
                ln.add("│", grid).add("", None, CELL)
            out.append(str(ln.add("│", grid)))
            continue
        l1 = _Line().add(f"{y:>{LABEL - 1}} ", "bold")
        l2 = _Line().add("", None, LABEL)
        for x in band:
            l1.add("│", grid)
            l2.add("│", grid)
            t = cells.get((x, y))
            if t is None:
                l1.add("", None, CELL)
                l2.add("", None, CELL)
                continue
            tile = c.tile_by_id[t["tile"]]
            style = "bold " + TYPE_STYLE[tile.type_name] + (" reverse" if hl == (x, y) else "")
            l1.add(short_name(tile), style, CELL)
            l2.parts.append(_tile_line2(tile, t.get("cubes", 0), tour_on.get((x, y), [])))
            l2.width += CELL
        l1.add("│", grid)
        l2.add("│", grid)
        out += [str(l1), str(l2)]
    out.append(border(y1 + 1, top=False, bottom=True))
    return out


def _legend(width: int) -> list[str]:
    types = " ".join(_m(name, TYPE_STYLE[name]) for name in TYPE_STYLE)
    ini = ", ".join(f"{v} {k}" for k, v in TOURIST_INITIAL.items())
    parts = [_m("Cells: tile, then type ", "dim") + types,
             _m(f"{CUBE}n = energy cubes on the tile", "dim"),
             _m(f"T: tourists on the tile ({ini}; lowercase = used this executive phase)", "dim"),
             _m(f"{TOKEN} = construction token (corner (x, y) is the top-left corner of slot (x, y))", "dim")]
    return _flow(parts, width, sep="; ")
