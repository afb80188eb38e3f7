"""Between Two Cities: the board as text for the terminal (rich console markup).

``render_text(state, seat)`` renders ``state.observation(seat)`` (``seat=None``: a spectator) and the
game's static data only, so it cannot show what the seat may not see: other hands appear only as their
sizes, other seats' pending choices only as "has chosen". The text reads well with the markup
stripped: every fact a colour carries is also written out.

Sections, top to bottom: header (players, round, turn, passing direction, who has chosen); the ring of
seats and cities (each city between the two seats who build it, with its running score); the viewer's
hand, its pending choice, the other hands it knows, the revealed tiles waiting to be placed; the
cities in rows (as many side by side as fit), each cropped around its tiles (with a one-square
margin), its running score by category, the squares where the seat to move may place marked ``◇``;
Capitals: the districts; at the end the score sheet of every city, each seat's lower city and the
winner. The decision is repeated at the bottom, next to the menu the terminal prints.
"""

from __future__ import annotations

from citygames.core.markup import flow as _core_flow, m as _m, plain_len, wrap

from .constants import KIND_CODES, TERRAIN

#: width the board is laid out for (a 120-column terminal)
WIDTH = 120
#: rich style of each seat's colour
SEAT_STYLE = {"Blue": "bold dodger_blue1", "Red": "bold red", "Green": "bold green3", "Yellow": "bold yellow",
              "Purple": "bold magenta", "Orange": "bold dark_orange", "White": "bold white"}
#: rich style of each kind code's first letter
KIND_STYLE = {"S": "yellow", "F": "grey62", "T": "red", "O": "cyan", "P": "green", "H": "dodger_blue1",
              "C": "magenta", "#": "dim"}
LEGAL = "◇"          # a square where the seat to move may place
EMPTY = "·"
CELL = 3             # a square's width
GAP = 3              # between cities side by side
LABELS = {"shops": "S", "factories": "F", "taverns": "T", "offices": "O", "parks": "P", "houses": "H",
          "civics": "C", "districts": "D"}


def render_text(state, seat, width: int = WIDTH) -> str:
    """The board of ``state`` as seen by ``seat`` (``None``: a spectator), as rich-markup text."""
    return render_observation(state.observation(seat), state.game, width)


def flow(parts: list[str], width: int, sep: str = " · ", indent: int = 4, first: str = "") -> list[str]:
    return _core_flow(parts, width - len(sep.rstrip()), sep=sep, indent=indent, first=first)


def _seat(obs: dict, p: int | None, you: bool = True) -> str:
    if p is None:
        return "nobody"
    name = obs["players"][p]["name"]
    return _m(name, SEAT_STYLE.get(name, "bold")) + (" (you)" if you and p == obs["seat"] else "")


def _code(k: int) -> str:
    code = KIND_CODES[k]
    return _m(code, KIND_STYLE.get(code[0]))


def _kinds(kinds: list[int], game) -> str:
    return " ".join(_code(k) for k in kinds) if kinds else "—"


def _pad(markup: str, w: int) -> str:
    return markup + " " * max(0, w - plain_len(markup))


def _city_label(obs: dict, c: int) -> str:
    seats = obs["cities"][c]["seats"]
    return f"city {c + 1} (" + "|".join(_seat(obs, p, you=False) for p in seats) + ")"


def render_observation(obs: dict, game, width: int = WIDTH) -> str:
    """The board from an observation dict (``observation.py``) and ``game``'s static data only."""
    width = max(width, 80) - 1
    lines: list[str] = []
    lines += _header(obs, game, width)
    lines.append("")
    lines += _ring(obs, width)
    mine = _mine(obs, game, width)
    if mine:
        lines.append("")
        lines += mine
    lines.append("")
    lines += _cities(obs, game, width)
    if obs["districts"]:
        lines.append("")
        lines += flow([f"{' + '.join(d['types'])} ({d['first']}/{d['second']})" for d in obs["districts"]], width,
                      first=_m("Districts: ", "bold"))
    lines.append("")
    if obs["result"] is not None:
        lines += _score_sheet(obs, width)
    else:
        lines += _now(obs, game, width)
    return "\n".join(lines)


def _header(obs: dict, game, width: int) -> list[str]:
    viewer = obs["seat"]
    you = f"{_seat(obs, viewer, you=False)}'s view" if viewer is not None else "spectator view"
    parts = [f"{_m('BETWEEN TWO CITIES', 'bold')} ({you})",
             f"{obs['num_players']} players" + (", Capitals" if obs["capitals"] else "")
             + (" (two-player variant: score = sum of your two cities)" if obs["two_players"]
                else " (score = your lower city)")]
    if obs["result"] is None and obs["stage"]:
        parts.append(_m(f"Round {obs['stage']}", "bold"))
        if obs["passing"]:
            parts.append(f"turn {obs['turn'] + 1} of {obs['turns']}, hands pass to the {obs['passing']}")
        else:
            parts.append("duplexes: keep 2 of 3")
        if obs["choice_status"]:
            parts.append(obs["choice_status"])
    parts.append("scores: " + ", ".join(f"{pl['name']} {pl['score']}" for pl in obs["players"]))
    return flow(parts, width)


def _ring(obs: dict, width: int) -> list[str]:
    """The seats and the cities between them, with the cities' running scores."""
    cities = obs["cities"]
    if obs["two_players"]:
        parts = [f"{_seat(obs, pl['seat'])}: city {pl['left'] + 1} ({cities[pl['left']]['score']}) and city "
                 f"{pl['right'] + 1} ({cities[pl['right']]['score']}) = {pl['score']}" for pl in obs["players"]]
        return flow(parts, width, first=_m("Cities: ", "bold"), sep="   ")
    parts = []
    for pl in obs["players"]:
        c = pl["right"]
        parts.append(f"{_seat(obs, pl['seat'])} " + _m(f"─[city {c + 1}: {cities[c]['score']}]─"))
    parts.append(_seat(obs, 0))
    return flow(parts, width, first=_m("Around the table: ", "bold"), sep=" ")


def _mine(obs: dict, game, width: int) -> list[str]:
    """The viewer's hand, pending choice, known hands and the tiles waiting to be placed."""
    from .render import kind_name
    out = []
    seat = obs["seat"]
    if obs["hand"] is not None:
        out += wrap(f"{_m('Your hand', 'bold')} ({len(obs['hand'])}): {_kinds(obs['hand'], game)}", width)
    if obs["duplexes"] is not None:
        c = game.components
        out += flow([f"{c.duplexes[d].id} {c.duplexes[d].code}" for d in obs["duplexes"]], width,
                    first=_m("Your duplexes: ", "bold"), sep="   ")
    if obs["pending"] is not None:
        out += wrap(f"{_m('Your choice (secret until everybody has chosen):', 'bold')} {obs['pending']['text']}",
                    width)
    if obs["hands_known"]:
        parts = [f"held by {_seat(obs, h['holder'])}: {_kinds(h['tiles'], game)}" for h in obs["hands_known"]
                 if h["holder"] != seat]
        if parts:
            out += flow(parts, width, first=_m("Hands you have seen: ", "bold"), sep="  ·  ")
    if obs["hand_sizes"] and any(obs["hand_sizes"]):
        out += flow([f"{pl['name']} {n}" for pl, n in zip(obs["players"], obs["hand_sizes"])], width,
                    first="Tiles in hand: ")
    waiting = []
    c = game.components
    for pl, tp in zip(obs["players"], obs["to_place"]):
        items = tp.get("tiles") or tp.get("duplexes") or []
        if not items:
            continue
        text = (", ".join(kind_name(k, c) for k in items) if "tiles" in tp
                else ", ".join(f"{c.duplexes[d].id} {c.duplexes[d].code}" for d in items))
        waiting.append(f"{_seat(obs, pl['seat'])}: {text}")
    if waiting:
        out += flow(waiting, width, first=_m("To place: ", "bold"), sep="  ·  ")
    return out


def _crop(city: dict, legal: set[int], side: int, over: bool) -> tuple[int, int, int, int]:
    """Rows and columns to draw: the tiles (and mat) and the legal squares, with one square around in
    a direction the city may still grow (its span is below ``side``, the final square's side), none
    once the game is over."""
    W = city["width"]
    cells = [x for x, k in enumerate(city["cells"]) if k] + list(legal)
    if not cells:
        mid = W // 2
        return max(0, mid - 1), min(W - 1, mid + 1), max(0, mid - 1), min(W - 1, mid + 1)
    rows = [x // W for x in cells]
    cols = [x % W for x in cells]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    mr = 0 if over or r1 - r0 + 1 >= side else 1
    mc = 0 if over or c1 - c0 + 1 >= side else 1
    return max(0, r0 - mr), min(W - 1, r1 + mr), max(0, c0 - mc), min(W - 1, c1 + mc)


def _city_block(obs: dict, game, c: int) -> list[str]:
    city = obs["cities"][c]
    W = city["width"]
    pl = obs["placements"]
    legal: set[int] = set()
    if pl is not None:
        p = pl["seat"]
        me = obs["players"][p]
        for side in ("left", "right"):
            if me[side] == c:
                for cells in pl[side].values():
                    legal.update(cells)
    if pl is not None and obs["phase"] == "place_duplex":
        dups = game.components.duplexes
        extra = set()
        for side in ("left", "right"):
            if obs["players"][pl["seat"]][side] == c:
                for d, cells in pl[side].items():
                    step = 1 if dups[int(d)].horizontal else W
                    extra.update(x + step for x in cells)
        legal |= extra
    r0, r1, c0, c1 = _crop(city, legal, 5 if obs["capitals"] else 4, obs["result"] is not None)
    cw = CELL + 1 if obs["capitals"] else CELL
    out = [_city_label(obs, c) + f" {_m(str(city['score']), 'bold')}"]
    if city["mat"]:
        out.append(_m(city["mat"]["name"].replace(" (invented placeholder)", "*"), "dim"))
    out.append("   " + "".join(f"{col + 1:<{cw}}" for col in range(c0, c1 + 1)).rstrip())
    for r in range(r0, r1 + 1):
        row = f"{r + 1:>2} "
        for col in range(c0, c1 + 1):
            x = r * W + col
            k = city["cells"][x]
            if k == 0:
                tok = _m(LEGAL, "bold") if x in legal else _m(EMPTY, "dim")
                w = 1
            else:
                tok = _code(k) if k != TERRAIN else _m("##", "dim")
                w = len(KIND_CODES[k]) if k != TERRAIN else 2
            row += tok + " " * (cw - w)
        out.append(row.rstrip())
    bd = city["breakdown"]
    out.append(" ".join(f"{LABELS[k]}{v}" for k, v in bd.items() if v or k in ("shops",)))
    return out


def _cities(obs: dict, game, width: int) -> list[str]:
    blocks = [_city_block(obs, game, c) for c in range(len(obs["cities"]))]
    out: list[str] = []
    row: list[list[str]] = []
    row_w = 0
    for b in blocks:
        bw = max(plain_len(x) for x in b) + GAP
        if row and row_w + bw > width:
            out += _side_by_side(row)
            out.append("")
            row, row_w = [], 0
        row.append(b)
        row_w += bw
    if row:
        out += _side_by_side(row)
    return out


def _side_by_side(blocks: list[list[str]]) -> list[str]:
    widths = [max(plain_len(x) for x in b) + GAP for b in blocks]
    h = max(len(b) for b in blocks)
    out = []
    for i in range(h):
        line = ""
        for b, w in zip(blocks, widths):
            line += _pad(b[i] if i < len(b) else "", w)
        out.append(line.rstrip())
    return out


def _now(obs: dict, game, width: int) -> list[str]:
    ph = obs["phase"]
    if ph in ("choose", "discard"):
        who = ", ".join(_seat(obs, p) for p in obs["choosing"])
        done = ", ".join(_seat(obs, p) for p in obs["chosen"]) or "nobody yet"
        what = "choose 2 tiles of the hand they hold" if ph == "choose" else "choose a duplex to discard"
        return wrap(f"{_m('Now:', 'bold')} {who} must {what}, in secret (chosen: {done}).", width)
    p = obs["current_player"]
    what = "place a tile" if ph == "place" else "place a duplex"
    tp = obs["to_place"][p]
    done = tp["side_done"]
    where = "in either of its cities" if done is None else f"in its {'right' if done == 0 else 'left'} city"
    fb = obs["placements"]["fallback"] if obs["placements"] else {}
    note = (f" (no legal square: fallback level {', '.join(map(str, fb.values()))})" if fb else "")
    return wrap(f"{_m('Now:', 'bold')} {_seat(obs, p)} must {what} {where}{note}; {LEGAL} marks where.", width)


def _score_sheet(obs: dict, width: int) -> list[str]:
    cities = obs["cities"]
    cats = list(cities[0]["breakdown"])
    lw, cw = 11, 8
    out = [_m("Final score sheet (cities)", "bold underline")]
    head = " " * lw + "".join(f"{'city ' + str(c + 1):>{cw}}" for c in range(len(cities)))
    for start in range(0, len(cities), (width - lw) // cw):
        part = cities[start:start + (width - lw) // cw]
        head = " " * lw + "".join(f"{'city ' + str(c['city'] + 1):>{cw}}" for c in part)
        out.append(head)
        out.append(" " * lw + "".join(f"{'|'.join(obs['players'][p]['name'][:2] for p in c['seats']):>{cw}}"
                                      for c in part))
        for cat in cats:
            out.append(f"{cat:<{lw}}" + "".join(f"{c['breakdown'][cat]:>{cw}}" for c in part))
        out.append(_m(f"{'total':<{lw}}" + "".join(f"{c['score']:>{cw}}" for c in part), "bold"))
    out.append("")
    rule = "the sum of its two cities" if obs["two_players"] else "the lower of its two cities"
    out.append(_m(f"Each player's score is {rule}:", "bold"))
    res = obs["result"]
    for place, p in enumerate(res["ranking"], start=1):
        pl = obs["players"][p]
        left, right = cities[pl["left"]]["score"], cities[pl["right"]]["score"]
        sep = " + " if obs["two_players"] else " and "
        out.append(f"  {place}. {_seat(obs, p)}: city {pl['left'] + 1} ({left}){sep}city {pl['right'] + 1} "
                   f"({right}) -> {_m(str(pl['score']), 'bold')}")
    win = " and ".join(_seat(obs, p) for p in res["winners"])
    out += wrap(_m("Result: ", "bold") + f"{win} {'win' if len(res['winners']) > 1 else 'wins'}"
                + (" (tied on every tie-break: a shared victory)" if len(res["winners"]) > 1 else "") + ".", width)
    return out


__all__ = ["render_text", "render_observation", "WIDTH", "LEGAL", "EMPTY"]
