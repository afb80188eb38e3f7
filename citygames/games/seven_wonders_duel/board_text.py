"""7 Wonders Duel: the board as text for the terminal (rich console markup).

``render_text(state, seat)`` renders ``state.observation(seat)`` (``seat=None``: a spectator) and
static component data only, so it cannot show what the seat may not see: face-down cards are
drawn as backs (``[?]``, guilds ``[G?]``), removed cards and boxed tokens never appear, and the
Great Library draw is shown to its builder only. The text reads well with the markup stripped:
every card colour is also written out.

Sections, top to bottom: header (age, phase, scores now, whose turn and what they must decide),
the wonder draft (during the draft) or the current age's structure drawn in its real shape (row 1,
reached last, at the top; ``col`` is in half-card units), the conflict track, the progress tokens
on the board, the discard pile, one block per city (the viewer's own city last), then the pending
decision with its prices (each accessible card: construct / discard / wonder) or the final score
sheet.
"""

from __future__ import annotations

from rich.markup import escape

from citygames.core.markup import Line, flow as _flow, m as _m, plural as _plural, wrap as _wrap

from .components import COLORS, RESOURCES, SYMBOLS, Components, components
from .render import ROMAN, card_effect_text, cost_text, token_effect_text, wonder_effect_text

#: width the board is laid out for (a 120-column terminal)
WIDTH = 120
#: a card of the structure: 1 marker column + up to ``NAME`` characters
CELL = 17
NAME = CELL - 1
#: characters per half-card unit of a structure column (two units = a card + one space)
HALF = (CELL + 1) // 2
#: left margin of the structure (the row label)
LABEL = 8
#: marks an accessible card in the structure
ACCESS = "▸"
PAWN = "●"
#: the conflict track: first column of space -9 and characters per space
TRACK_X0 = 10
SPACE_W = 5
BACK = "[?]"
GUILD_BACK = "[G?]"

#: rich style of each card colour (the colour is always written out too)
COLOR_STYLE = {"brown": "dark_orange3", "grey": "grey70", "red": "bright_red", "green": "green3",
               "blue": "dodger_blue1", "yellow": "yellow", "purple": "magenta"}
#: resource letters of the compact costs in the structure (the legend below it spells them out)
RES_LETTER = {"wood": "W", "clay": "C", "stone": "S", "glass": "G", "papyrus": "P"}
SYMBOL_NAME = {"armillary_sphere": "armillary", "wheel": "wheel", "sundial": "sundial", "mortar_pestle": "mortar",
               "plumb_bob": "plumb bob", "quill": "quill", "law_scales": "scales (Law)"}
#: names longer than ``NAME`` characters, shortened for the structure
SHORT_NAMES = {"Chamber of Commerce": "Chamber of Comm.", "Magistrates Guild": "Magistrates Gld",
               "Moneylenders Guild": "Moneylenders Gld"}
CATEGORY_LABEL = {"military": "military (conflict track)", "blue": "blue cards", "green": "green cards",
                  "yellow": "yellow cards", "purple": "guilds (purple)", "wonders": "wonders",
                  "progress": "progress tokens", "coins": "coins (1 VP per 3)"}


def render_text(state, seat, width: int = WIDTH) -> str:
    """The board of ``state`` as seen by ``seat`` (``None``: a spectator), as rich-markup text."""
    return render_observation(state.observation(seat), width, state.game.components)


# --- small helpers ------------------------------------------------------------------------------
def short_name(card: int, c: Components | None = None) -> str:
    """The name a structure cell shows for ``card`` (at most ``NAME`` characters, distinct); ``c``: the
    game's components (default: the data files as they are)."""
    name = (c or components()).cards[card].name
    return SHORT_NAMES.get(name, name)[:NAME]


def _cstyle(color: str) -> str:
    return "bold " + COLOR_STYLE[color]


def _card(card: int, with_color: bool = True, c: Components | None = None) -> str:
    """A card's name in its colour, with the colour written out: ``Baths (blue)``."""
    cd = (c or components()).cards[card]
    color = COLORS[cd.color]
    name = _m(cd.name, _cstyle(color))
    return f"{name} ({color})" if with_color else name


def _coins(k: int) -> str:
    return _plural(k, "coin")


class _Line(Line):
    """A line of this board: a piece's leading and trailing spaces stay unstyled (lines rstrip cleanly)."""

    __slots__ = ()
    bare_spaces = True


def compact_cost(card: int, c: Components | None = None) -> str:
    """A card's cost in a few characters: ``$2 SSP`` (coins, then one letter per resource unit); ``c``:
    the game's components (default: the data files as they are)."""
    cd = (c or components()).cards[card]
    parts = [f"${cd.coins}"] if cd.coins else []
    res = "".join(RES_LETTER[RESOURCES[r]] * k for r, k in enumerate(cd.cost) if k)
    if res:
        parts.append(res)
    return " ".join(parts) or "free"


def short_effect(card: int, c: Components | None = None) -> str:
    """A card's effect in at most ``NAME`` characters (the structure's third line, the city lists); ``c``:
    the game's components (default: the data files as they are)."""
    c = c or components()
    cd = c.cards[card]
    if any(cd.produces):
        out = " ".join((f"{k} " if k > 1 else "") + RESOURCES[r] for r, k in enumerate(cd.produces) if k)
    elif cd.one_of:
        out = "one of " + "/".join(RES_LETTER[RESOURCES[r]] for r in cd.one_of)
    elif cd.fixed_price:
        out = "/".join(RESOURCES[r] if len(cd.fixed_price) == 1 else RES_LETTER[RESOURCES[r]]
                       for r in cd.fixed_price) + " at $1"
    elif cd.shields:
        out = _plural(cd.shields, "shield")
    elif cd.science >= 0:
        out = SYMBOL_NAME[SYMBOLS[cd.science]] + (f" {cd.vp} VP" if cd.vp else "")
    elif cd.guild:
        if cd.guild_colors:
            short = {"brown": "brn", "grey": "gry"} if len(cd.guild_colors) > 1 else {}
            what = "+".join(short.get(COLORS[x], COLORS[x]) for x in cd.guild_colors)
            out = f"{cd.guild_vp} VP/{what}"
        elif cd.guild_wonder_vp:
            out = f"{cd.guild_wonder_vp} VP/wonder"
        else:
            out = "1 VP per $3"
    else:
        bits = [f"{cd.vp} VP"] if cd.vp else []
        if cd.coins_now:
            bits.append(f"+${cd.coins_now}")
        if cd.coins_per_own:
            cols, k = cd.coins_per_own
            bits.append(f"${k}/{'/'.join(COLORS[x] for x in cols)}")
        if cd.coins_per_wonder:
            bits.append(f"${cd.coins_per_wonder}/wonder")
        out = " ".join(bits)
    return out[:NAME]


def _seat(obs: dict, p: int | None, you: bool = True) -> str:
    if p is None:
        return "nobody"
    name = obs["players"][p]["name"]
    mark = " (you)" if you and p == obs["seat"] else ""
    return _m(name, "bold") + mark


def _wname(w: int, c: Components | None = None) -> str:
    """A wonder's name without its article (``Sphinx``, ``Great Library``)."""
    name = (c or components()).wonders[w].name
    return name.removeprefix("The ")


# --- the board ----------------------------------------------------------------------------------
def render_observation(obs: dict, width: int = WIDTH, c: Components | None = None) -> str:
    """The board from an observation dict (see ``observation.py``) and static data only: ``c``, the
    game's components (``game.components``, which data overrides may change; default: the data
    files as they are)."""
    c = c or components()
    width = max(width, LABEL + 6 * 2 * HALF) - 1   # keep the last column free
    lines: list[str] = []
    lines += _header(obs, width)
    if obs["phase"] == "draft":
        lines.append("")
        lines += _draft(obs, width, c)
    if obs["structure"]:
        lines.append("")
        lines += _structure(obs, width, c)
    lines.append("")
    lines += _conflict(obs, width, c)
    lines.append("")
    lines += _progress_board(obs, width, c)
    lines += _discard(obs, width, c)
    viewer = obs["seat"]
    order = [1 - viewer, viewer] if viewer is not None else [0, 1]
    for p in order:
        lines.append("")
        lines += _city(obs, p, width, c)
    lines.append("")
    if obs["result"] is not None:
        lines += _score_sheet(obs, width)
    else:
        lines += _decision(obs, width, c)
    return "\n".join(lines)


def _header(obs: dict, width: int) -> list[str]:
    viewer = obs["seat"]
    you = f"{obs['players'][viewer]['name']}'s view" if viewer is not None else "spectator view"
    age = "Wonder draft" if obs["age"] == 0 else f"Age {ROMAN[obs['age']]} of III"
    pls = obs["players"]
    parts = [f"{_m('7 WONDERS DUEL', 'bold')} ({you})", _m(age, "bold")]
    if obs["structure"]:
        left = sum(1 for s in obs["structure"] if not s["taken"])
        parts.append(f"{left}/20 cards left")
    parts.append(f"wonders built {obs['wonders_built']}/7")
    parts.append(("VP: " if obs["result"] else "VP now: ") + ", ".join(f"{pl['name']} {pl['score']}" for pl in pls))
    out = _flow(parts, width)
    out += _now(obs, width)
    return out


def _now(obs: dict, width: int) -> list[str]:
    """Whose turn it is and what they must decide."""
    res = obs["result"]
    if res is not None:
        return _wrap(_m("Game over: ", "bold") + _result_text(obs), width)
    p = obs["current_player"]
    what = obs["decision"]
    ph = obs["phase"]
    pl = obs["players"][p]
    if ph == "choose_starter":
        pawn = obs["conflict"]["pawn"]
        if pawn == 0:
            why = f"the pawn is in the centre and {pl['name']} took the last card"
        else:
            why = f"the conflict pawn is on {pl['name']}'s side"
        what = f"choose who starts Age {ROMAN[obs['age']]} ({why})"
    elif ph == "destroy":
        what = f"put one of {obs['players'][1 - p]['name']}'s {obs['destroy_color']} cards into the discard pile"
    elif ph == "draft":
        k = len(obs["draft"])
        what = f"take one of the {k} revealed wonders" if k != 1 else "take the last revealed wonder"
    line = f"{_m('Now:', 'bold')} {_seat(obs, p)} must {what}; {pl['name']} has {_coins(pl['coins'])}."
    return _wrap(line, width)


def _result_text(obs: dict) -> str:
    res = obs["result"]
    pls = obs["players"]
    sc = res["scores"]
    score = f"{pls[0]['name']} {sc[0]} VP, {pls[1]['name']} {sc[1]} VP"
    if res["winner"] is None:
        return f"shared victory (equal VP and equal blue-card VP; {score})"
    w = res["winner"]
    name = _m(pls[w]["name"], "bold")
    how = {"civilian": "civilian victory (most VP at the end of Age III",
           "military": f"military supremacy (the conflict pawn reached {pls[1 - w]['name']}'s capital",
           "science": "scientific supremacy (6 different science symbols"}[res["victory"]]
    return f"{name} wins by {how}; {score})."


def _draft(obs: dict, width: int, c: Components) -> list[str]:
    taken = sum(len(pl["wonders"]) for pl in obs["players"])
    rnd = 1 if taken < 4 else 2
    out = [_m(f"Wonder draft, round {rnd} of 2", "bold") + " — revealed wonders still to take:"]
    for w in obs["draft"]:
        wd = c.wonders[w]
        out += _wrap(f"  {_m(wd.name, 'bold')} — cost {cost_text(0, wd.cost)}; {wonder_effect_text(w, c)}", width, 6)
    return out


# --- the structure ------------------------------------------------------------------------------
def _structure(obs: dict, width: int, c: Components) -> list[str]:
    age = obs["age"]
    slots = obs["structure"]
    nrows = max(s["row"] for s in slots)
    minc = min(s["col"] for s in slots)
    acc = [s for s in slots if s["accessible"]]
    guilds = f", {GUILD_BACK} a face-down guild" if age == 3 else ""
    head = (f"{_m(f'Age {ROMAN[age]} structure', 'bold')} ({ACCESS} = accessible: can be taken now; "
            f"{BACK} face down{guilds}; row 1 is reached last)")
    if all(s["taken"] for s in slots):
        return [_m(f"Age {ROMAN[age]} structure", "bold") + ": all 20 cards have been taken"]
    out = _wrap(head.replace(GUILD_BACK, escape(GUILD_BACK)).replace(f"{BACK} face", f"{escape(BACK)} face"), width)
    for r in range(1, nrows + 1):
        row = sorted((s for s in slots if s["row"] == r), key=lambda s: s["col"])
        if all(s["taken"] for s in row):
            out.append(_m(f"row {r}", "dim"))
            continue
        lines = [_Line().add(f"row {r}", "dim"), _Line(), _Line()]
        for s in row:
            x = LABEL + (s["col"] - minc) * HALF
            for ln in lines:
                ln.at(x)
            if s["taken"]:
                continue
            if s["card"] is None:
                back = GUILD_BACK if s["guild_back"] else BACK
                lines[0].add(" " + back, "bold magenta" if s["guild_back"] else "bold", CELL)
                lines[1].add(" guild, face down" if s["guild_back"] else " face down", "dim", CELL)
                continue
            cd = c.cards[s["card"]]
            color = COLORS[cd.color]
            mark = ACCESS if s["accessible"] else " "
            style = _cstyle(color) + (" underline" if s["accessible"] else "")
            lines[0].add(mark, "bold").add(short_name(cd.idx, c), style, NAME)
            lines[1].add(" " + f"{color:<7}{compact_cost(cd.idx, c)}"[:NAME], COLOR_STYLE[color], CELL)
            lines[2].add(" " + short_effect(cd.idx, c), None, CELL)
        out += [str(ln) for ln in lines]
    out.append(_m("  costs: $ coins, W wood, C clay, S stone, G glass, P papyrus (one letter per unit); "
                  f"{len(acc)} accessible card{'s' if len(acc) != 1 else ''}", "dim"))
    return out


# --- the conflict track -------------------------------------------------------------------------
def _conflict(obs: dict, width: int, c: Components) -> list[str]:
    pls = obs["players"]
    n0, n1 = pls[0]["name"], pls[1]["name"]
    pawn = obs["conflict"]["pawn"]
    toks = obs["conflict"]["tokens"]
    cap = c.capital
    sw, x0 = SPACE_W, TRACK_X0
    if pawn == 0:
        state = "the pawn is in the centre: nobody is ahead"
    else:
        lead = 0 if pawn > 0 else 1
        vp = pls[lead]["vp"]["military"]
        state = (f"the pawn is {_plural(abs(pawn), 'space')} toward {pls[1 - lead]['name']}'s capital: "
                 f"{_m(pls[lead]['name'], 'bold')} is ahead ({vp} military VP)")
    rule = "" if obs["result"] else "; reaching a capital wins at once"
    out = _wrap(f"{_m('Conflict track', 'bold')} — {state}{rule}.", width)

    def xs(v: int) -> int:   # the first column of space v (-9..9)
        return x0 + (v + cap) * sw

    head = _Line().add(f"{n0}'s capital", "bold").at(xs(0) - 1).add("centre", "dim")
    head.at(xs(cap) + sw - len(f"{n1}'s capital")).add(f"{n1}'s capital", "bold")
    space = _Line().add("space", "dim")
    vpl = _Line().add("VP", "dim")
    track = _Line().add("pawn", "dim")
    for v in range(-cap, cap + 1):
        d = abs(v)
        space.at(xs(v)).add(f"{'CAP' if d == cap else d:^{sw}}", "bold" if d == cap else None)
        if d < cap:
            vpl.at(xs(v)).add(f"{c.conflict_vp[d]:^{sw}}", "dim")
        cell = f"{PAWN:^{sw}}" if v == pawn else (f"{'|':^{sw}}" if d == cap else f"{'·':^{sw}}")
        track.at(xs(v)).add(cell, "bold red" if v == pawn else "dim")
    tok = _Line().add("tokens", "dim")
    spans = []
    present = []
    for side, name in ((0, n0), (1, n1)):
        sign = -1 if side == 0 else 1
        left = []
        for k, (at, coins) in enumerate(c.military_tokens):
            if not toks[side][k]:
                continue
            end = c.military_tokens[k + 1][0] - 1 if k + 1 < len(c.military_tokens) else cap - 1
            lo, hi = sorted((sign * at, sign * end))
            spans.append((xs(lo), (hi - lo + 1) * sw - 1, f"-{coins} {name}"))
            left.append(_coins(coins))
        present.append(f"{name}'s side " + (" and ".join(left) if left else "none left"))
    for x, w, label in sorted(spans):
        tok.at(x).add(f"[{label:^{w - 2}}]", "yellow")
    out += [str(head), str(space), str(track), str(vpl), str(tok)]
    note = " (a player loses a token's coins when the pawn first enters its zone on their side)"
    out += _wrap(_m("  military tokens left: " + "; ".join(present) + note, "dim"), width)
    return out


# --- progress tokens, discard pile -----------------------------------------------------------------
def _progress_board(obs: dict, width: int, c: Components) -> list[str]:
    board = obs["progress_board"]
    if not board:
        return [_m("Progress tokens on the board: ", "bold") + "none left"]
    out = [_m("Progress tokens on the board", "bold") + " (a pair of equal science symbols takes one):"]
    for t in board:
        out.append(f"  {_m(c.tokens[t].name, 'bold green')} — {token_effect_text(t)}")
    return out


def _discard(obs: dict, width: int, c: Components) -> list[str]:
    pile = obs["discard"]
    if not pile:
        return [_m("Discard pile: ", "bold") + "empty"]
    return _flow([_card(x, c=c) for x in pile], width, sep=", ", first=_m(f"Discard pile ({len(pile)}): ", "bold"))


# --- a city ---------------------------------------------------------------------------------------
def _city(obs: dict, p: int, width: int, c: Components) -> list[str]:
    pl = obs["players"][p]
    opp = obs["players"][1 - p]
    mover = " — to move" if obs["current_player"] == p and obs["result"] is None else ""
    city_name = pl["name"] + "'s city"
    vp = "VP" if obs["result"] else "VP now"
    title = (f"{_m(city_name, 'bold underline')}{' (you)' if p == obs['seat'] else ''}{mover}: "
             f"{_m(_coins(pl['coins']), 'bold yellow')} · {pl['score']} {vp} · {_plural(len(pl['cards']), 'card')}"
             f" · a discard gives {_coins(pl['discard_value'])}")
    out = _wrap(title, width)
    # cards by colour
    by_color: dict[str, list[int]] = {}
    for x in pl["cards"]:
        by_color.setdefault(COLORS[c.cards[x].color], []).append(x)
    for color in COLORS:
        cards = by_color.get(color)
        if not cards:
            continue
        label = f"  {_m(f'{color:<6}', _cstyle(color))} {len(cards)}: "
        items = [f"{_m(c.cards[x].name, COLOR_STYLE[color])} ({short_effect(x, c)})" for x in cards]
        extra = ""
        if color == "red":
            extra = f"  = {_plural(sum(c.cards[x].shields for x in cards), 'shield')}"
        elif color == "blue":
            extra = f"  = {pl['vp']['blue']} VP"
        if extra:
            items[-1] += extra
        out += _flow(items, width, sep=", ", indent=13, first=label)
    if not pl["cards"]:
        out.append("  no cards yet")
    if obs["phase"] == "draft":
        if pl["wonders"]:
            out.append("  wonders taken: " + ", ".join(c.wonders[wd["wonder"]].name for wd in pl["wonders"]))
        return out
    # production, trading, chains, science
    prod = [f"{k} {r}" for r, k in pl["production"].items() if k]
    one = ["one of " + "/".join(f) for f in pl["one_of"]]
    out += _flow(prod + one or ["nothing"], width, sep=", ", first="  produces: ")
    prices = []
    for r, k in pl["trade_prices"].items():
        why = "fixed" if r in pl["fixed_price"] else (f"{opp['name']} makes {opp['production'][r]}"
                                                       if opp["production"][r] else "")
        prices.append(f"{r} {k}" + (f" ({why})" if why else ""))
    out += _flow(prices, width, sep=", ", first="  buys from the bank, coins per unit: ")
    chains = ", ".join(s.replace("_", " ") for s in pl["chains"]) or "none"
    sci = pl["science"]
    sci_txt = (", ".join(SYMBOL_NAME[s] for s in sci) or "none") + f" ({len(sci)} of 6 different for supremacy)"
    out += _flow([f"chain symbols: {chains}", f"science symbols: {sci_txt}"], width, sep=" · ", first="  ")
    # wonders
    wparts = []
    for wd in pl["wonders"]:
        w = wd["wonder"]
        wo = c.wonders[w]
        name = _m(wo.name, "bold")
        if wd["built"]:
            wparts.append(f"{name} built ({wonder_effect_text(w, c)})")
        elif wd["removed"]:
            wparts.append(f"{name} out of the game (seven wonders were built)")
        else:
            wparts.append(f"{name} not built: cost {cost_text(0, wo.cost)}; {wonder_effect_text(w, c)}")
    if wparts:
        out.append("  wonders:")
        for wp in wparts:
            out += _wrap("    " + wp, width, 8)
    toks = [f"{_m(c.tokens[t].name, 'bold green')} ({token_effect_text(t)})" for t in pl["tokens"]]
    if toks:
        out += _flow(toks, width, sep=", ", first="  progress tokens: ")
    return out


# --- the decision ---------------------------------------------------------------------------------
def _decision(obs: dict, width: int, c: Components) -> list[str]:
    ph = obs["phase"]
    p = obs["current_player"]
    pl = obs["players"][p]
    out: list[str] = []
    if ph == "play" and obs["prices"]:
        who = _seat(obs, p)
        coins = pl["coins"]
        out += _wrap(f"{_m('Accessible cards', 'bold')} — prices for {who}, who has {_coins(coins)}:", width)
        wonders = next(iter(obs["prices"].values()))["wonders"]
        for key, pr in obs["prices"].items():
            x = int(key)
            cd = c.cards[x]
            cost = cost_text(cd.coins, cd.cost)
            out += _wrap(f"  {ACCESS} {_card(x, c=c)} — {'cost ' if cost != 'free' else ''}{cost}; "
                         f"{card_effect_text(x, c)}", width, 6)
            if pr["chain"]:
                cons = _m("construct for free (chain)", "bold green")
            elif pr["construct"] > coins:
                cons = _m(f"cannot construct (costs {_coins(pr['construct'])})", "red")
            elif pr["construct"] == 0:
                cons = _m("construct for free", "bold")
            else:
                trade = pr["construct"] - cd.coins
                extra = (f" (${cd.coins} + {trade} trading)" if cd.coins else " (trading)") if trade else ""
                cons = _m(f"construct for {_coins(pr['construct'])}", "bold") + extra
            parts = [cons, f"discard for +{_coins(pr['discard'])}"]
            ok = [f"{_wname(int(w), c)} for {price}" for w, price in pr["wonders"].items() if price <= coins]
            if ok:
                parts.append("wonder: " + ", ".join(ok))
            elif pr["wonders"]:
                parts.append(_m("no wonder affordable", "dim"))
            out += _flow(parts, width, sep=" · ", indent=6, first="      ")
        dear = [f"{_wname(int(w), c)} {_coins(price)}" for w, price in wonders.items() if price > coins]
        if dear:
            out += _flow(dear, width, sep=", ", indent=6, first=f"  wonders {pl['name']} cannot afford now: ")
        elif not wonders and obs["wonders_built"] >= 7:
            out.append("  no wonder can be built any more (seven are built)")
        else:
            out.append(f"  {pl['name']} has no unbuilt wonder left")
    elif ph in ("progress_token", "library"):
        toks = obs["library_draw"] if ph == "library" else obs["progress_board"]
        src = "drawn by the Great Library; only you see them" if ph == "library" else "on the board"
        if toks:
            out.append(f"{_m('Progress tokens to choose from', 'bold')} ({src}):")
            for t in toks:
                out.append(f"  {_m(c.tokens[t].name, 'bold green')} — {token_effect_text(t)}")
        else:
            out.append(f"{_seat(obs, p)} is choosing one of the 3 progress tokens the Great Library drew "
                       "(hidden from you).")
    elif ph == "destroy":
        opp = obs["players"][1 - p]
        cards = [x for x in opp["cards"] if COLORS[c.cards[x].color] == obs["destroy_color"]]
        out += _flow([_card(x, c=c) for x in cards], width, sep=", ",
                     first=f"{_m('Cards that can be put into the discard pile', 'bold')} ({opp['name']}'s): ")
    elif ph == "mausoleum":
        out.append(f"{_m('The Mausoleum', 'bold')}: build one card of the discard pile for free:")
        for x in sorted(set(obs["discard"])):
            out += _wrap(f"  {_card(x, c=c)} — {card_effect_text(x, c)}", width, 6)
    elif ph == "choose_starter":
        out.append(f"{_m('Who starts', 'bold')} Age {ROMAN[obs['age']]}? {pl['name']} decides "
                   f"(starting means taking the first card of the new structure).")
    elif ph == "draft":
        pass
    out += _now(obs, width)
    return out


# --- the end --------------------------------------------------------------------------------------
def _score_sheet(obs: dict, width: int) -> list[str]:
    pls = obs["players"]
    lw, cw = 28, 10
    out = [_m("Final score sheet", "bold underline")]
    head = _Line().add("", None, lw)
    for pl in pls:
        head.add(f"{pl['name']:>{cw}}", "bold")
    out.append(str(head))
    for cat in pls[0]["vp"]:
        ln = _Line().add(CATEGORY_LABEL.get(cat, cat), None, lw)
        for pl in pls:
            ln.add(f"{pl['vp'].get(cat, 0):>{cw}}")
        out.append(str(ln))
    out.append(" " * lw + "-" * (cw * 2))
    tot = _Line().add("total", "bold", lw)
    for p, pl in enumerate(pls):
        tot.add(f"{obs['result']['scores'][p]:>{cw}}", "bold")
    out.append(str(tot))
    if obs["result"]["victory"] in ("military", "science"):
        out.append(_m("  (the VP above do not decide: a supremacy wins at once)", "dim"))
    out += _wrap(_m("Result: ", "bold") + _result_text(obs), width)
    return out
