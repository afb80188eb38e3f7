"""The Capitals: what each seat may see (``state.observation(seat)``).

Public: every track, city, plant, tourist, the projects area, the initiative track, the number
of tiles left in each era deck. Hidden: the order of the decks (from everybody) and, because
prestige tokens are kept face down (HU "Tekintélypont szerzése", §1), the prestige total of the
other seats until the game ends.
"""

from __future__ import annotations

from .components import CUBES, CULTURE, EMP, LEVEL, MONEY, NT, POP, PRESTIGE, PROG, PS
from .steps import P_END, P_EXECUTIVE, P_POLITICS, PHASE_NAMES, S_EFFECT, S_FREE, S_PAY, S_TOKEN, STEP_NAMES


def observation(state, seat: int | None) -> dict:
    """JSON-ready dict of what ``seat`` (``None``: spectator) may see.

    Shape: ``{"game", "seat", "num_players", "round", "era", "phase", "step", "current_player",
    "initiative": [seat|None per space], "order": [seats], "projects": [[tile ids] per row],
    "row_prices", "deck_sizes": {era: n}, "plants_left": {level: [cubes, ...]},
    "highest_culture": seat|None, "neutral": None or {color, culture, tourist_with} (2 players),
    "pending": {...}, "players": [per seat dict], "terminal"}``.
    Coordinates are city coordinates (Hotel at (0, 0)).
    """
    game = state.game
    c = state.c
    t = state.tracks
    n = state.n
    tiles = c.tiles
    over = state.phase == P_END
    players = []
    for p in range(n):
        base = p * NT
        city = []
        for s, x in sorted(state.city[p].items()):
            xx, yy = game.xy(s)
            city.append({"x": xx, "y": yy, "tile": tiles[x].id, "cubes": state.cubes_on[p].get(s, 0)})
        tourists = []
        for k in range(len(state.tourist_host)):
            if state.tourist_host[k] == p:
                sl = state.tourist_slot[k]
                tourists.append({"color": c.colors[state.tourist_color(k)], "owner": k if k < n else None,
                                 "on": list(game.xy(sl)) if sl >= 0 else None, "used": state.tourist_used[k]})
        plant = c.plants[state.plant[p]]
        players.append({
            "seat": p, "color": c.colors[p],
            "money": t[base + MONEY], "culture": t[base + CULTURE], "employment": t[base + EMP],
            "population": t[base + POP], "public_service": t[base + PS],
            "progress": t[base + PROG] % c.loop, "progress_total": t[base + PROG],
            "plant": {"level": t[base + LEVEL], "cubes": t[base + CUBES], "activations": plant.activations,
                      "printed_cubes": plant.cubes},
            "prestige": t[base + PRESTIGE] if (over or seat == p) else None,
            "initiative_space": state.initiative[p] + 1,
            "city": city,
            "construction_tokens": [list(game.corner_xy(i)) for i in state.tokens[p]],
            "tourists": tourists,
            "pending_upgrades": state.upgrades_due[p],
        })
        if state.prosperity:
            pl = players[-1]
            pl["prosperity_hand_size"] = len(state.hands[p])
            # a seat's undealt and unbuilt prosperity tiles are visible only to that seat (§7.1)
            if seat == p:
                pl["prosperity_hand"] = [
                    dict(zip(("tile", "can_build", "why"), (tiles[x].id,) + state.requirement_status(p, x)))
                    for x in state.hands[p]]
            pl["lakes"] = [{"x": game.xy(sl)[0], "y": game.xy(sl)[1], "revealed": tiles[x].id}
                           for sl, x in state.lakes[p]]
    initiative = [None] * len(c.init_cost)
    for p in range(n):
        initiative[state.initiative[p]] = p
    pending = {}
    if state.pending_tile >= 0:
        pending["tile"] = tiles[state.pending_tile].id
    if state.step in (S_PAY, S_FREE):
        pending["slot"] = list(game.xy(state.pending_slot))
    elif state.step == S_TOKEN:
        pending["token"] = state.token_index  # which of the two construction tokens may move
    elif state.step == S_EFFECT:
        pending["effects"] = [list(game.xy(q)) for q in state.pending_effects]
    if state.cubes_due >= 0:
        pending["remaining_cost"] = state.cubes_due
    if state.phase == P_EXECUTIVE and state.executive_started:
        pending["activations_left"] = state.activations_left
        pending["activations_made"] = state.activations_made
    if state.phase == P_POLITICS:
        pending["chosen_spaces"] = [s + 1 if s >= 0 else None for s in state.chosen_space]
    plants_left = {}
    for level in range(2, c.max_plant_level + 1):
        sup = game.plant_supply[level]
        plants_left[str(level)] = [c.plants[i].cubes for i in sup[state.plants_taken[level]:]]
    cur = state.current_player()
    return {
        "game": game.info.id,
        "seat": seat,
        "num_players": n,
        "round": state.round,
        "era": c.era_of_round[state.round],
        "phase": PHASE_NAMES[state.phase],
        "step": STEP_NAMES[state.step] if not over else "game over",
        "current_player": cur if cur >= 0 else None,
        "initiative": initiative,
        "order": list(state.order),
        "projects": [[tiles[x].id for x in row] for row in state.projects],
        "row_prices": list(c.row_prices),
        "deck_sizes": {str(e): len(state.decks[e]) for e in (1, 2, 3)},
        "plants_left": plants_left,
        "highest_culture": state.highest_culture if state.highest_culture >= 0 else None,
        "neutral": ({"color": c.colors[c.neutral_color], "culture": state.neutral_culture,
                     "tourist_with": state.tourist_host[n] if state.tourist_host[n] >= 0 else None}
                    if state.neutral_culture >= 0 else None),
        "pending": pending,
        "players": players,
        "prosperity": state.prosperity,
        "prosperity_rounds": sorted(c.prosperity_rounds) if state.prosperity else [],
        "terminal": over,
        "scores": state.scores() if over else None,
    }


def information_state_key(state, seat: int | None) -> tuple:
    """What ``seat`` (``None``: a spectator) knows now, as a compact hashable tuple (for search
    trees keyed by information sets; the contract is ``State.information_state_key``): the seat and
    every public field the observation is built from, the other seats' prestige masked until the
    end (their tokens are face down), the seat's own Prosperity hand and the other hands' sizes, the
    era decks' sizes. The hidden parts ``resample`` redraws (the decks' order, the tiles removed
    unseen, the other hands, the undealt Prosperity tiles) are left out, so a resample for ``seat``
    has the same key."""
    n = state.n
    over = state.phase == P_END
    tracks = state.tracks
    if not over:
        tracks = tracks[:]
        for p in range(n):
            if p != seat:
                tracks[p * NT + PRESTIGE] = -1
    hands = state.hands
    if state.prosperity:
        hands = tuple([tuple(h) if p == seat else len(h) for p, h in enumerate(hands)])
        lakes = tuple([tuple([tuple(x) for x in lk]) for lk in state.lakes])
    else:
        hands = lakes = ()
    return (seat, state.player, state.round, state.phase, state.step, state.turn, tuple(tracks),
            tuple(state.score_sheet) if over else (), tuple(state.plant),
            tuple([frozenset(d.items()) for d in state.city]),       # (whatever the building order)
            tuple([frozenset(d.items()) for d in state.cubes_on]),
            tuple([tuple(x) for x in state.tokens]), tuple(state.tourist_host), tuple(state.tourist_slot),
            tuple(state.tourist_used), tuple(state.initiative), tuple(state.chosen_space), tuple(state.order),
            tuple([tuple(x) for x in state.projects]), tuple([len(d) for d in state.decks]),
            tuple(state.plants_taken), state.highest_culture, state.pending_tile, state.pending_slot,
            state.cubes_due, state.activations_left, state.activations_made, state.executive_started,
            state.token_index, tuple(state.upgrades_due), state.expo_scored, state.neutral_culture,
            hands, lakes, state.prosperity_started, state.extra_build_due, tuple(state.pending_effects),
            state.effects_gathered)
