"""The Capitals as text: action descriptions, log sentences, tile effect texts, the board for the
terminal, and the rules summary of ``citygames rules the_capitals``."""

from __future__ import annotations

from citygames.core.data import assumption_lines, override_lines
from citygames.core.events import register_renderer, seat_label

from .components import CUBES, NT, TRACK_NAMES, TYPE_NAMES, components
from .steps import S_FREE, S_TOKEN, S_UPGRADE
from .tracks import loans_needed

SHORT = {"money": "$", "culture": "culture", "employment": "employment", "population": "population",
         "public_service": "public service", "progress": "progress", "prestige": "prestige",
         "cubes": "energy cubes", "plant_level": "plant level"}
TYPE_STYLE = {"housing": "yellow", "industry": "bright_black", "commerce": "green", "tourism": "magenta",
              "public": "cyan", "prosperity": "bright_yellow", "lake": "blue"}
COLOR_STYLE = {"green": "green", "red": "red", "blue": "blue", "purple": "magenta", "black": "white"}


def color_name(p) -> str:
    if p is None or p < 0:
        return "nobody"
    return components().colors[p].capitalize()


def player_name(p) -> str:
    """How a sentence names seat ``p``: the player's name under ``named_seats`` (issue 15, defect 4), else
    its colour ("Green"); "nobody" for ``None`` or a negative seat."""
    if p is None or p < 0:
        return "nobody"
    labels = _seat_colours()
    return seat_label(p, labels)


def _seat_colours() -> tuple[str, ...]:
    c = components()
    return tuple(col.capitalize() for col in c.colors)


def amount(track: str, v: int) -> str:
    """``amount("money", -12)`` -> ``"-$12"``; ``amount("culture", 3)`` -> ``"+3 culture"``."""
    sign = "+" if v >= 0 else "-"
    if track == "money":
        return f"{sign}${abs(v)}"
    name = SHORT.get(track, track)
    if abs(v) == 1 and name.endswith("cubes"):
        name = name[:-1]
    return f"{sign}{abs(v)} {name}"


def gains_text(gains) -> str:
    """Compiled gains ``((track, amount), ...)`` as ``"+1 progress, +2 employment"``."""
    return ", ".join(amount(TRACK_NAMES[tr], v) for tr, v in gains)


def changes_text(changes: dict) -> str:
    order = ("progress", "population", "employment", "culture", "public_service", "money", "cubes", "plant_level",
             "prestige")
    return ", ".join(amount(k, changes[k]) for k in order if changes.get(k))


# --- tile effect text ---------------------------------------------------------------------------
def _cond_text(cd) -> str:
    what = {"money": "$", "culture": "culture", "employment": "employment", "population": "population",
            "public_service_above_zero": "public service above 0", "players_ahead_culture": "city ahead on culture",
            "plant_level": "plant level", "plant_cubes": "energy cubes on the plant"}.get(cd.per)
    if cd.per == "tiles":
        what = cd.match.describe()
    per = f"{cd.n} {what}" if cd.n > 1 else what
    return f"{gains_text(cd.gains)} per {per}"


def tile_effect_text(tile) -> str:
    """A tile's effects in one line, e.g. ``"Build: +2 progress, +2 culture. Construction: ..."``."""
    parts = []
    imm = []
    if tile.imm:
        imm.append(gains_text(tile.imm))
    imm.extend(_cond_text(cd) for cd in tile.cond)
    if imm:
        parts.append("Build: " + "; ".join(imm))
    if tile.has_activation:
        parts.append(f"Activate ({tile.cubes} printed cube{'s' if tile.cubes != 1 else ''}): " + activation_text(tile))
    for eff in tile.construction:
        where = "adjacent" if eff.adjacent else "in the city"
        parts.append(f"Construction: {gains_text(eff.gains)} per {eff.match.describe()} {where}")
    for m, gains in tile.perm_adjacent:
        what = f"adjacent {m.describe()}" if m else "adjacent tile"
        parts.append(f"Permanent: {gains_text(gains)} when an {what} is activated".replace("an adjacent", "an adjacent"))
    if tile.perm_upgrade:
        parts.append(f"Permanent: {gains_text(tile.perm_upgrade)} per power-plant upgrade")
    for eff in tile.end_game:
        where = "adjacent" if eff.adjacent else "in the city"
        parts.append(f"End: {gains_text(eff.gains)} per {eff.match.describe()} {where}")
    return ". ".join(parts) if parts else "no effect"


def activation_text(tile) -> str:
    """The activation effect alone, e.g. ``"-1 culture → +$7"``."""
    act = []
    if tile.act_cost:
        act.append(gains_text([(tr, -v) for tr, v in tile.act_cost]) + " →")
    if tile.act_gain:
        act.append(gains_text(tile.act_gain))
    act.extend(_cond_text(cd) for cd in tile.act_cond)
    if tile.act_free_adjacent:
        act.append("activate an adjacent tile for free")
    return " ".join(act)


def tile_label(tile) -> str:
    dens = f" {tile.density_name}-density" if tile.density_name else ""
    return f"{tile.name} ({tile.type_name}{dens})"


# --- actions in context -------------------------------------------------------------------------
def _loans_note(state, p, amount_: int) -> str:
    k = loans_needed(state, p, amount_)
    if not k:
        return ""
    return f"; {k} loan{'s' if k > 1 else ''}: {k * state.c.loan_prestige} prestige"


#: the action kinds whose gains ``capped_gains`` works out
_GAINING = frozenset(("activate", "free_activate", "place", "place_lake", "no_activation_reward", "end_activations"))


def capped_gains(state, a) -> list[dict]:
    """The gains of action ``a`` (legal now) that would not apply in full, worked out on a clone.

    Issue 15, defect 5: "activate City Hall → +1 employment" with population 0 gains nothing, and the
    player must see that before the click. Each item: ``{"track": name, "wanted": +N, "applied": M,
    "why": "population" | "track end"}`` (``applied`` < ``wanted``: employment never exceeds population;
    a marker stops on its track's last space), plus ``"overflow": "+3 energy cubes"`` when the track's
    red-arrow overflow applies instead. Covers
    activations (paid or free), building the pending tile, placing a Lake and the no-activation
    reward; ``[]`` for other actions or when everything applies. Only visible information is used
    (no card is drawn), so the answer is the same for every viewer.
    """
    kind = a.kind
    if kind not in _GAINING:
        return []
    from . import building, executive, prosperity
    from .tracks import C_TILES, gain, recording_caps
    p = state.player
    c = state.c
    sim = state.clone()
    with recording_caps() as log:
        if kind in ("activate", "free_activate"):
            if a.arg not in sim.city[p]:
                return []
            executive.activate_effect(sim, p, a.arg, free=kind == "free_activate")
        elif kind == "place":
            if sim.pending_tile < 0:
                return []
            building.build(sim, p, sim.pending_tile, a.arg)
        elif kind == "place_lake":
            if sim.pending_tile < 0:
                return []
            prosperity.place_lake(sim, a.arg)
        elif kind == "no_activation_reward":
            gain(sim, p, c.no_activation_rewards[a.arg], C_TILES, set())
        else:   # end_activations: with one reward and no activation made, the reward comes at once
            if state.activations_made or len(c.no_activation_rewards) != 1:
                return []
            gain(sim, p, c.no_activation_rewards[0], C_TILES, set())
    out: dict[int, dict] = {}
    for _phase, seat, tr, wanted, applied, why in log:
        if seat != p:
            continue
        d = out.setdefault(tr, {"track": TRACK_NAMES[tr], "wanted": 0, "applied": 0, "why": why})
        if why == "track end" and c.overflow_high[tr] and "overflow" not in d:
            d["overflow"] = gains_text(c.overflow_high[tr])
        d["wanted"] += wanted
        d["applied"] += max(applied, 0)
        if why == "population":
            d["why"] = why
    return list(out.values())


def caps_text(caps: list[dict]) -> str:
    """``capped_gains`` in words: ``"+0 employment: capped by population"``,
    ``"+0 public service: capped at the track's end, overflow +3 energy cubes"``; ``""`` for none."""
    parts = []
    for d in caps:
        why = "capped by population" if d["why"] == "population" else "capped at the track's end"
        of = f" of {amount(d['track'], d['wanted'])}" if d["applied"] else ""
        over = f", overflow {d['overflow']}" if d.get("overflow") else ""
        parts.append(f"{amount(d['track'], d['applied'])}{of}: {why}{over}")
    return "; ".join(parts)


def _with_caps(state, a, text: str) -> str:
    note = caps_text(capped_gains(state, a))
    return f"{text} ({note})" if note else text


def describe_action(state, a) -> str:
    """The action in the current context: what it costs and what rule it breaks."""
    game = state.game
    c = state.c
    p = state.player
    kind = a.kind
    if kind == "initiative":
        cost = state.politics_cost(p, a.arg)
        return (f"initiative space {a.arg + 1} (${c.init_cost[a.arg]}, ×{c.init_mult[a.arg]}): pay ${cost}"
                + _loans_note(state, p, cost))
    if kind == "take":
        tile = c.tiles[a.arg]
        r = state.row_of(a.arg)
        price = c.row_prices[r] if r >= 0 else 0
        pay = f"pay ${price}" + _loans_note(state, p, price) if price else "free"
        return f"take {tile_label(tile)} from the ${price} row ({pay})"
    if kind == "place":
        x, y = game.xy(a.arg)
        if state.pending_tile < 0:
            return f"build at ({x}, {y})"
        ra, rb = state.broken_rules(p, state.pending_tile, a.arg)
        notes = []
        if ra:
            notes.append("not at a construction token (rule A)")
        if rb:
            notes.append("not next to a tile of its type (rule B)")
        pen = (ra + rb) * c.placement_penalty
        extra = f" — {' and '.join(notes)}: {pen} prestige" if notes else ""
        return _with_caps(state, a, f"build {c.tiles[state.pending_tile].name} at ({x}, {y}){extra}")
    if kind in ("activate", "free_activate"):
        x, y = game.xy(a.arg)
        sid = state.city[p].get(a.arg)
        if sid is None:
            return str(a)
        tile = c.tiles[sid]
        if kind == "free_activate":
            return _with_caps(state, a, f"activate {tile.name} at ({x}, {y}) for free")
        cost = state.activation_cost(p, a.arg)
        return _with_caps(state, a, f"activate {tile.name} at ({x}, {y}) for {cost} cube{'s' if cost != 1 else ''}: "
                                    f"{activation_text(tile)}")
    if kind == "tourist":
        sl = state.tourist_slot[state.tourist_index(a.arg)]
        where = "beside the city" if sl < 0 else f"from {c.tiles[state.city[p][sl]].name}"
        neutral = " neutral" if state.n == 2 and a.arg == c.neutral_color else ""
        return f"pay 1 cube with the {c.colors[a.arg]}{neutral} tourist ({where})"
    if kind == "pay_cubes":
        return f"pay the remaining {state.cubes_due} with energy cubes (plant holds {state.tracks[p * NT + CUBES]})"
    if kind == "end_activations":
        rewards = c.no_activation_rewards
        if state.activations_made == 0 and rewards:
            choice = " or ".join(gains_text(r) for r in rewards)
            return _with_caps(state, a, f"end activations without activating "
                                        f"({'then choose ' if len(rewards) > 1 else ''}{choice})")
        return "end activations"
    if kind == "no_activation_reward":
        return _with_caps(state, a, f"no activation this phase: take {gains_text(c.no_activation_rewards[a.arg])}")
    if kind == "resolve_effect":
        x, y = game.xy(a.arg)
        sid = state.city[p].get(a.arg)
        if sid is None:
            return str(a)
        return f"resolve the end-game effect of {c.tiles[sid].name} at ({x}, {y}) next"
    if kind == "upgrade":
        plant = state.next_plant(p)
        return f"upgrade the power plant to level {plant.level} (+{plant.cubes} energy cubes)"
    if kind == "decline":
        return {S_UPGRADE: "keep the current power plant (no upgrade)", S_FREE: "do not use the free activation",
                S_TOKEN: "leave the construction token where it is"}.get(state.step, "decline")
    if kind == "move_token":
        x, y = game.corner_xy(a.arg)
        return f"move the construction token to corner ({x}, {y})"
    if kind == "prosperity":
        tile = c.tiles[c.prosperity_tiles[a.arg]]
        ok, why = state.requirement_status(p, tile.idx)
        return f"build {tile.name} ({why}): {prosperity_effect_text(tile)}"
    if kind == "lake":
        tile = c.tiles[c.prosperity_tiles[a.arg]]
        return f"build a Lake, revealing {tile.name} (+2 energy cubes, any slot next to the city)"
    if kind == "place_lake":
        x, y = game.xy(a.arg)
        return _with_caps(state, a, f"build the Lake at ({x}, {y})")
    return str(a)


def requirement_text(tile) -> str:
    """A prosperity tile's construction requirement in words."""
    req = tile.requirement
    if req is None:
        return ""
    tie = " (a tie is enough)" if req.ties_ok else ""
    if req.kind == "most":
        return "most " + " + ".join(TYPE_NAMES[t] for t in sorted(req.types)) + " tiles" + tie
    if req.kind == "most_tiles":
        return f"most {req.match.describe()}s{tie}"
    if req.kind == "fewest":
        return "fewest " + " + ".join(TYPE_NAMES[t] for t in sorted(req.types)) + " tiles"
    if req.kind == "pay":
        return "pay " + ", ".join(amount(TRACK_NAMES[tr], v).lstrip("+") for tr, v in req.cost)
    what = {"plant_cubes": "energy cubes on the plant", "progress": "progress (plant level, then progress)"}.get(
        req.track, req.track.replace("_", " "))
    return f"{req.kind} {what}"


def prosperity_effect_text(tile) -> str:
    """A prosperity tile's effects, with era-dependent values written I/II/III."""
    from dataclasses import replace
    parts = []
    if tile.imm_era:
        vals = []
        for tr, _ in tile.imm_era[0]:
            per_era = [dict(g).get(tr, 0) for g in tile.imm_era]
            if len(set(per_era)) == 1:
                vals.append(amount(TRACK_NAMES[tr], per_era[0]))
            else:
                vals.append(f"{'/'.join(f'{v:+d}' for v in per_era)} {SHORT[TRACK_NAMES[tr]]} (era I/II/III)")
        parts.append("Build: " + ", ".join(vals))
        tile = replace(tile, imm=())
    base = tile_effect_text(tile)
    if base != "no effect":
        parts.append(base)
    if tile.extra_build:
        parts.append("Build: build 1 more tile from the projects area")
    if tile.imm_free_adjacent:
        parts.append("Build: activate an adjacent tile for free")
    if tile.penalty_immunity:
        parts.append("Permanent: tiles built next to it suffer no placement penalty")
    for m, g in tile.perm_own:
        parts.append(f"Permanent: {gains_text(g)} per own {m.describe() if m else 'tile'} activation")
    if tile.perm_tourism:
        parts.append(f"Permanent: {gains_text(tile.perm_tourism)} per tourist in the city after each tourism phase")
    ends = [gains_text(tile.end_flat)] if tile.end_flat else []
    ends += [_cond_text(cd) for cd in tile.end_cond]
    if ends:
        parts.append("End: " + "; ".join(ends))
    before = [gains_text(tile.before_expo_flat)] if tile.before_expo_flat else []
    before += [_cond_text(cd) for cd in tile.before_expo_cond]
    if tile.before_expo_free:
        before.append("activate an adjacent tile for free")
    if before:
        parts.append("Before the last Expo: " + "; ".join(before))
    return ". ".join(parts)


# --- log sentences ------------------------------------------------------------------------------
def _r(kind):
    def deco(fn):
        register_renderer("capitals." + kind, fn)
        return fn
    return deco


def _tile_name(tid: str) -> str:
    return components().tile_by_id[tid].name


def _loans(n: int) -> str:
    return f" ({n} loan{'s' if n > 1 else ''}, {-n} prestige)" if n else ""


@_r("setup")
def _setup(e):
    order = ", ".join(player_name(p) for p in e.data["order"])
    pays = ", ".join(f"{player_name(p)} ${v}" for p, v in enumerate(e.data["paid"]))
    return f"Setup: initiative order {order}; each pays the $ above its marker ({pays})."


@_r("round")
def _round(e):
    return f"Round {e.data['round']} begins (era {'I' * e.data['era']})."


@_r("politics")
def _politics(e):
    return f"{player_name(e.player)} takes initiative space {e.data['space'] + 1} and pays ${e.data['paid']}{_loans(e.data['loans'])}."


@_r("take")
def _take(e):
    price = e.data["price"]
    how = f"for ${price}{_loans(e.data['loans'])}" if price else "for free"
    return f"{player_name(e.player)} takes {_tile_name(e.data['tile'])} from the projects area {how}."


@_r("build")
def _build(e):
    from .game import _xy
    x, y = _xy(components(), e.data["slot"])
    bits = []
    if e.data.get("rule_a"):
        bits.append("away from its construction tokens")
    if e.data.get("rule_b"):
        bits.append("away from tiles of its type")
    pen = f", {' and '.join(bits)}" if bits else ""
    ch = changes_text(e.data["changes"])
    return (f"{player_name(e.player)} builds {_tile_name(e.data['tile'])} at ({x}, {y}){pen}"
            f"{_loans(e.data.get('loans', 0))}: {ch or 'no change'}.")


@_r("tourism")
def _tourism(e):
    d = e.data
    lvl = f" (attraction level {d['level']})" if d.get("level") else ""
    moved = "; ".join(f"the {color_name(col).lower()} tourist goes to {player_name(h)}" for col, h in d["moved"])
    low = "the neutral marker is lowest" if d["lowest"] < 0 else f"{player_name(d['lowest'])} has the lowest"
    return (f"Tourism: {player_name(e.player)} has the highest culture{lvl}; {low}. "
            + (moved[:1].upper() + moved[1:] + "." if moved else "Tourists stay where they are."))


@_r("neutral")
def _neutral(e):
    return f"The neutral culture marker advances to {e.data['culture']}."


@_r("activate")
def _activate(e):
    from .game import _xy
    d = e.data
    x, y = _xy(components(), d["slot"])
    how = "for free" if d.get("free") else ""
    ch = changes_text(d["changes"])
    return f"{player_name(e.player)} activates {_tile_name(d['tile'])} at ({x}, {y}){' ' + how if how else ''}{_loans(d.get('loans', 0))}: {ch or 'no change'}."


#: ``why`` of an executive turn that ended because no activation was left: the code is also the words
NONE_LEFT = "no activation left"


def lacking_text(part) -> str:
    """One lacking "lose X" cost, ``[track name, amount, what the city has]``, in words:
    ``"1 culture (the city has 0)"`` (issue 15, defect 6)."""
    track, amt, has = part
    return f"{amt} {track.replace('_', ' ')} (the city has {has})"


def why_text(d: dict) -> str:
    """The words of an automatic end of an executive turn from its event data (``executive.why_no_activation``):
    ``"no activation left"``, ``"no tile with an activation effect"`` or ``"nothing affordable: Hotel
    costs 1 culture (the city has 0); City Hall needs 2 energy cubes, the plant holds 1, with 1 usable
    tourist"``. ``""`` when ``d`` has no ``why``; any other ``why`` string (a log written before the
    codes, when it held the words) is returned as it is (issue 15, defect 6)."""
    why = d.get("why")
    if not why:
        return ""
    if why == "no_effect":
        return "no tile with an activation effect"
    if why != "unaffordable":
        return why
    parts = [f"{_tile_name(tid)} costs {' and '.join(lacking_text(x) for x in short)}"
             for tid, short in d.get("lacking") or ()]
    if d.get("more"):
        parts.append(f"{d['more']} more")
    if d.get("cheapest"):
        tid, cost, held, tourists = d["cheapest"]
        plus = f", with {tourists} usable tourist{'s' if tourists != 1 else ''}" if tourists else ""
        parts.append(f"{_tile_name(tid)} needs {cost} energy cube{'s' if cost != 1 else ''}, "
                     f"the plant holds {held}{plus}")
    return "nothing affordable: " + "; ".join(parts)


@_r("no_activation")
def _noact(e):
    rew = ", ".join(amount(k, v) for k, v in e.data["reward"].items()) if isinstance(e.data["reward"], dict) else ""
    why = why_text(e.data)
    why = f" ({why})" if why else ""
    return f"{player_name(e.player)} makes no activation{why} and gains {rew}."


@_r("extra_build_lost")
def _extra_lost(e):
    return f"{player_name(e.player)}'s Financial District owes one more build, but the projects area is empty."


@_r("cannot_activate")
def _cannot(e):
    return f"{player_name(e.player)} cannot activate anything ({why_text(e.data)})."


@_r("end_activations")
def _endact(e):
    why = why_text(e.data)
    why = f" ({why})" if why else ""
    return (f"{player_name(e.player)} ends the executive phase after {e.data['made']} "
            f"activation{'s' if e.data['made'] != 1 else ''}{why}.")


@_r("upgrade")
def _upgrade(e):
    return f"{player_name(e.player)} upgrades the power plant to level {e.data['level']} (+{e.data['plant_cubes']} energy cubes)."


@_r("upgrade_declined")
def _updecl(e):
    return f"{player_name(e.player)} declines a power-plant upgrade."


@_r("upgrade_lost")
def _uplost(e):
    return f"{player_name(e.player)} reaches the upgrade space but no plant above level {e.data['level']} is left."


@_r("token")
def _token(e):
    from .game import _corner_xy
    x, y = _corner_xy(components(), e.data["to"])
    return f"{player_name(e.player)} moves a construction token to corner ({x}, {y})."


@_r("admin")
def _admin(e):
    gone = e.data["discarded"]
    return "Administration: the projects rows shift" + (
        f"; {', '.join(_tile_name(t) for t in gone)} leave{'s' if len(gone) == 1 else ''} the game." if gone else ".")


@_r("refill")
def _refill(e):
    tiles = e.data["tiles"]
    if not tiles:
        return f"No era {'I' * e.data['era']} tile is drawn."
    return f"New era {'I' * e.data['era']} projects: {', '.join(_tile_name(t) for t in tiles)}."


@_r("expo")
def _expo(e):
    d = e.data
    return (f"World Expo (era {'I' * d['era']}), {player_name(e.player)}: employment {d['employment']} "
            f"{d['employment_prestige']:+d} prestige; unemployment {d['unemployment']} {d['unemployment_prestige']:+d}; "
            f"public service {d['public_service']}: progress {d['progress']:+d}, rank {d['public_service_rank']} "
            f"{d['public_service_prestige']:+d} prestige.")


@_r("clear_cubes")
def _clear(e):
    return "Energy cubes on buildings return to the supply (tourists stay)."


@_r("final_payment")
def _finalpay(e):
    return f"{player_name(e.player)} pays ${e.data['paid']} for its initiative space one last time{_loans(e.data['loans'])}."


@_r("final_scoring")
def _finalscore(e):
    d = e.data
    left = f" ({d['cubes_left']} left)" if "cubes_left" in d else ""
    return (f"Final scoring, {player_name(e.player)}: end-game tiles {d['end_tiles']:+d}, cubes {d['cubes']:+d}{left}, "
            f"money {d['money']:+d}, culture {d['culture']:+d}, progress {d['progress']:+d} → {d['prestige']} prestige.")


@_r("deal")
def _deal(e):
    return f"{player_name(e.player)} is dealt the prosperity tiles {', '.join(_tile_name(t) for t in e.data['tiles'])}."


@_r("prosperity")
def _prosperity(e):
    return f"{player_name(e.player)} builds the prosperity tile {_tile_name(e.data['tile'])}{_loans(e.data.get('loans', 0))}."


@_r("lake_reveal")
def _lake_reveal(e):
    return f"{player_name(e.player)} reveals {_tile_name(e.data['tile'])} and builds it as a Lake."


@_r("lake")
def _lake(e):
    from .game import _xy
    x, y = _xy(components(), e.data["slot"])
    return f"{player_name(e.player)} builds a Lake at ({x}, {y}): {changes_text(e.data['changes'])}."


@_r("casino")
def _casino(e):
    return f"{player_name(e.player)}'s Casino pays for {e.data['tourists']} tourist{'s' if e.data['tourists'] != 1 else ''}."


@_r("before_expo")
def _before_expo(e):
    what = changes_text(e.data["changes"]) or "no change"
    return f"Before the last World Expo, {player_name(e.player)}'s {_tile_name(e.data['tile'])}: {what}."


@_r("end_effect")
def _end_effect(e):
    what = changes_text(e.data["changes"]) or "no change"
    return f"End of the game, {player_name(e.player)}'s {_tile_name(e.data['tile'])}: {what}."


@_r("game_end")
def _gameend(e):
    d = e.data
    winner = d["ranking"][0]
    scores = ", ".join(f"{player_name(p)} {d['scores'][p]}" for p in d["ranking"])
    return f"Game over: {player_name(winner)} wins and hosts the World Expo ({scores})."


# --- the board for the terminal -----------------------------------------------------------------
def render_text(state, seat, width: int | None = None) -> str:
    """The board as rich-markup text: tracks, initiative, projects area and each city as a grid,
    laid out for ``width`` columns (default: the terminal's width, at least 100; the player table
    keeps its own width, about 110 columns)."""
    import shutil

    from .board_text import board_text
    if width is None:
        width = max(100, shutil.get_terminal_size((120, 40)).columns)
    return board_text(state, seat, width=width)


# --- rules summary ------------------------------------------------------------------------------
def describe_rules(game, assumptions: bool = False) -> str:
    """Components, options and (with ``assumptions``) every value no source confirms."""
    c = game.components
    lines = [f"{game.info.name} (game id {game.info.id}), {game.info.min_players}-{game.info.max_players} players",
             "", "Options:"]
    for o in game.info.options:
        rng = f" [{o.min}-{o.max}]" if o.min is not None else ""
        lines.append(f"  {o.name} = {game.options[o.name]} (default {o.default}){rng}: {o.doc}")
    overridden = override_lines(c.assumptions)
    if overridden:
        lines += ["", f"Data overrides in effect ({len(overridden)}), for this game only:"] + overridden
    if assumptions:
        lines += [""] + assumption_lines(c.assumptions)
        return "\n".join(lines)
    lines += ["", f"{c.rounds} rounds in 3 eras; World Expo after rounds {sorted(c.expo_rounds)}.",
              "Initiative track: " + ", ".join(f"{i + 1}: ${a} ×{m}" for i, (a, m) in
                                               enumerate(zip(c.init_cost, c.init_mult))),
              "Power plants (cubes, best first; 4p/5p = only with that many players):"]
    for level in range(1, c.max_plant_level + 1):
        plants = [p for p in c.plants if p.level == level]
        cubes = ", ".join(f"{p.cubes}" + (f" ({p.players}p)" if p.players > 3 else "") for p in plants)
        lines.append(f"  level {level}{' (starting plant)' if level == 1 else ''}: {cubes}; "
                     f"{plants[0].activations} activation{'s' if plants[0].activations > 1 else ''}")
    lines.append("")
    # prosperity tiles carry era 0 in the data but are not starting tiles: they are listed once,
    # below, with their requirement and their whole effect (issue 15, defect 7)
    prosperity = set(c.prosperity_tiles)
    for era in (0, 1, 2, 3):
        tiles = [t for i, t in enumerate(c.tiles) if t.era == era and i not in prosperity]
        lines.append(f"{'Starting tiles' if era == 0 else 'Era ' + 'I' * era} ({len(tiles)} tiles):")
        for t in tiles:
            lines.append(f"  {tile_label(t)}: {tile_effect_text(t)}")
        lines.append("")
    pros = [c.tiles[i] for i in c.prosperity_tiles]
    lines.append(f"Prosperity tiles ({len(pros)}; with the prosperity option, built in rounds "
                 f"{sorted(c.prosperity_rounds)}):")
    for t in pros:
        lines.append(f"  {t.name} — requires {requirement_text(t)}: {prosperity_effect_text(t)}")
    lines.append("")
    lines.append("`citygames rules the_capitals --assumptions` lists every value no source confirms.")
    return "\n".join(lines)


# --- data for user interfaces ----------------------------------------------------------------
def action_json(state, a) -> dict:
    """The action for a user interface: ``id, kind, arg, text`` plus where it happens and what it
    costs: ``space, cost`` (initiative), ``tile, price`` (take), and for both ``loans`` (the loans the
    payment takes, as in the text) and ``loan_prestige`` (the prestige they cost, <= 0) so the board
    can print the whole cost on its face (issue 15, defect 3); ``x, y, tile, penalty`` (place),
    ``x, y, tile, cost`` (activate), ..."""
    game = state.game
    c = state.c
    p = state.player
    d = {"id": a.id, "kind": a.kind, "arg": a.arg, "text": describe_action(state, a)}
    kind = a.kind
    caps = capped_gains(state, a)
    if caps:    # issue 15, defect 5: the gains as they will apply, before the click
        d["capped"] = caps
    if kind == "initiative":
        d["space"] = a.arg + 1
        d["cost"] = state.politics_cost(p, a.arg)
        # the loans the payment takes and the prestige they cost, as in the text (issue 15, defect 3)
        d["loans"] = loans_needed(state, p, d["cost"])
        d["loan_prestige"] = d["loans"] * c.loan_prestige
    elif kind == "take":
        d["tile"] = c.tiles[a.arg].id
        r = state.row_of(a.arg)
        d["price"] = c.row_prices[r] if r >= 0 else 0
        d["loans"] = loans_needed(state, p, d["price"]) if d["price"] else 0
        d["loan_prestige"] = d["loans"] * c.loan_prestige
    elif kind == "place":
        d["x"], d["y"] = game.xy(a.arg)
        if state.pending_tile >= 0:
            d["tile"] = c.tiles[state.pending_tile].id
            ra, rb = state.broken_rules(p, state.pending_tile, a.arg)
            d["penalty"] = (int(ra) + int(rb)) * c.placement_penalty
    elif kind in ("activate", "free_activate"):
        d["x"], d["y"] = game.xy(a.arg)
        x = state.city[p].get(a.arg)
        if x is not None:
            d["tile"] = c.tiles[x].id
            if kind == "activate":
                d["cost"] = state.activation_cost(p, a.arg)
    elif kind == "tourist":
        d["color"] = c.colors[a.arg]
    elif kind == "move_token":
        d["x"], d["y"] = game.corner_xy(a.arg)
    elif kind == "place_lake":
        d["x"], d["y"] = game.xy(a.arg)
        d["tile"] = "lake"
    elif kind in ("prosperity", "lake"):
        x = c.prosperity_tiles[a.arg]
        d["tile"] = c.tiles[x].id
        d["can_build"], d["why"] = state.requirement_status(p, x)
    return d


def components_json(game) -> dict:
    """Static data to draw The Capitals: colours, tiles (type, density, era, printed cubes, effect
    text), initiative spaces, row prices, track bounds, attraction levels, Expo rounds."""
    c = game.components
    return {
        "game": game.info.id,
        "name": game.info.name,
        "colors": list(c.colors),
        "tiles": {t.id: {"name": t.name, "type": t.type_name, "density": t.density_name, "era": t.era,
                         "cubes": t.cubes if t.has_activation else None, "effect": tile_effect_text(t),
                         "activation": activation_text(t) if t.has_activation else None}
                  for t in c.tiles},
        "initiative": [{"space": i + 1, "cost": c.init_cost[i], "multiplier": c.init_mult[i],
                        "players_icon": c.init_icon[i]} for i in range(len(c.init_cost))],
        "politics_spaces": [s + 1 for s in game.politics_spaces],
        "row_prices": list(c.row_prices),
        "tracks": {name: {"min": c.track_min[i], "max": c.track_max[i]}
                   for i, name in enumerate(TRACK_NAMES[:5])},
        "attraction_levels": [{"at": at, "takes_at_most": takes} for at, takes in c.attraction],
        "progress_loop": c.loop,
        "expo_rounds": sorted(c.expo_rounds),
        "rounds": c.rounds,
        # the side of the square city grid: city slot (x, y) is action argument (y + g//2) * g + x + g//2
        "grid": c.grid,
    }
