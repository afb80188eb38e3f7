"""The Capitals, phase 4: executive (HU "Végrehajtás fázis", IT "Fase Esecutiva", reference §8 Phase 4).

In initiative order each player makes its activations before the next one starts: as many as its
power plant allows, +1 with the Highest Culture token. Activating a tile costs energy cubes:
printed cubes + the cubes and tourists already on it + 1 (HU, P7). Tourists in the city pay 1 cube
each; a tourist must move to be used (it cannot help the tile it stands on) and pays once per
phase (HU p. 11). The activation effect resolves ("lose X to gain Y": X first), then the permanent
effects of the *other* tiles it triggers (a tile never triggers its own). A city that makes no
activation at all gains one of the rewards the HU rulebook shows ("1 [icon] or 1 [icon]"; the icons
are unknown, reference §8 Phase 4): the player chooses (``data/board.yaml``
``executive.no_activation_rewards``).

Free activations (Convention Center, Technology Park) cost no cube and no activation slot and
trigger permanent effects (reference §10 #8 PROJECT DEFAULT, data ``engine_rules.free_activation``).
"""

from __future__ import annotations

from citygames.core.markup import plural
from citygames.core.phases import NO_DECISION

from . import administration, building
from .components import CUBES, MONEY, NT, TRACK_NAMES
from .render import NONE_LEFT, lacking_text
from .steps import P_PRE_EXPO, S_ACTIVATE, S_FREE, S_PAY, S_REWARD
from .tracks import C_TILES, best_order, can_lose, changes, gain, snapshot


def activation_cost(s, p: int, slot: int) -> int:
    """Cubes to activate the tile on ``slot``: printed + cubes and tourists on it + 1 (HU, P7)."""
    tile = s.c.tiles[s.city[p][slot]]
    on = s.cubes_on[p].get(slot, 0)
    for k in range(len(s.tourist_host)):
        if s.tourist_host[k] == p and s.tourist_slot[k] == slot:
            on += 1
    return tile.cubes + on + 1


def usable_tourists(s, p: int, slot: int) -> list[int]:
    """Tourists seat ``p`` may move onto ``slot`` now: in its city, unused this phase, and not already
    on ``slot`` (a tourist must move to be used, HU p. 11)."""
    return [k for k in range(len(s.tourist_host))
            if s.tourist_host[k] == p and not s.tourist_used[k] and s.tourist_slot[k] != slot]


def can_activate(s, p: int, slot: int) -> bool:
    """Whether seat ``p`` may activate the tile on ``slot`` now: an activation left, the tile has an
    activation effect whose costs ``p`` can pay (``tracks.can_lose``), and cubes plus usable tourists
    cover the activation cost."""
    tile = s.c.tiles[s.city[p][slot]]
    if tile.cubes < 0 or s.activations_left <= 0 or not can_lose(s, p, tile.act_cost):
        return False
    cost = activation_cost(s, p, slot)
    have = s.tracks[p * NT + CUBES]
    return have >= cost or have + len(usable_tourists(s, p, slot)) >= cost


def activatable_slots(s, p: int, first: bool = False) -> list[int]:
    """The slots of seat ``p``'s city whose tile ``can_activate`` now, in slot order; with ``first``
    only the first one found (``[]`` or one slot, not necessarily the lowest).

    The same rule as ``can_activate`` per slot, in one pass: the tourists are looked at once for the
    whole city instead of twice per tile (``activation_cost`` and ``usable_tourists``), as random play
    asks this at every executive step (issue 15: the skip reasons are not to slow play down)."""
    if s.activations_left <= 0:
        return []
    city = s.city[p]
    tiles = s.c.tiles
    have = s.tracks[p * NT + CUBES]
    host = s.tourist_host
    where = s.tourist_slot
    used = s.tourist_used
    on = s.cubes_on[p]
    sitting: dict = {}      # slot -> tourists on it (they raise its cost)
    sitting_free: dict = {}  # slot -> unused tourists on it (not usable for that slot: they must move)
    free = 0
    for k in range(len(host)):
        if host[k] == p:
            slot = where[k]
            if slot >= 0:
                sitting[slot] = sitting.get(slot, 0) + 1
            if not used[k]:
                free += 1
                if slot >= 0:
                    sitting_free[slot] = sitting_free.get(slot, 0) + 1
    out = []
    for slot in (city if first else sorted(city)):
        tile = tiles[city[slot]]
        if tile.cubes < 0 or (tile.act_cost and not can_lose(s, p, tile.act_cost)):
            continue
        cost = tile.cubes + on.get(slot, 0) + sitting.get(slot, 0) + 1
        if have >= cost or have + free - sitting_free.get(slot, 0) >= cost:
            out.append(slot)
            if first:
                break
    return out


def any_activatable(s, p: int) -> bool:
    """Whether seat ``p`` can activate any tile of its city now."""
    return bool(activatable_slots(s, p, first=True))


def free_targets(s, p: int, slot: int) -> list[int]:
    """Slots of the tiles adjacent to ``slot`` that the free activation of the tile on ``slot`` may
    activate: tiles with an activation effect whose costs can be paid (reference §10 #8). A
    Technology Park may activate the Convention Center ("1 adjacent building tile", IT appendix; data
    ``engine_rules.technology_park_may_activate_convention_center``); the Convention Center, the only
    one of the game, is never its own neighbour."""
    city = s.city[p]
    tiles = s.c.tiles
    cc_ok = s.c.tech_park_may_activate_cc
    out = []
    for q in sorted(s.game.neighbours[slot]):
        x = city.get(q)
        if x is None:
            continue
        target = tiles[x]
        if target.has_activation and (cc_ok or not target.act_free_adjacent) and can_lose(s, p, target.act_cost):
            out.append(q)
    return out


def offer_free_activation(s, p: int, slot: int) -> None:
    """Ask seat ``p`` for the target of the free activation of the tile on ``slot``, if it has one."""
    if free_targets(s, p, slot):
        s.player = p
        s.pending_slot = slot
        s.step = S_FREE


def activate_effect(s, p: int, slot: int, free: bool, paid_cubes: int = 0) -> None:
    """Resolve the activation effect of the tile on ``slot``: its cost first ("lose X to gain Y"),
    then its gains together with the permanent effects of the other tiles it triggers, in the order
    best for the player (HU p. 11: a tile never triggers its own permanent effect). A free activation
    triggers permanents unless the data says otherwise. A Convention Center then offers its own free
    activation."""
    c = s.c
    tiles = c.tiles
    tile = tiles[s.city[p][slot]]
    before = snapshot(s, p)
    fired = set()
    loans = 0
    if tile.act_cost:
        loans += gain(s, p, [(tr, -amt) for tr, amt in tile.act_cost], C_TILES, fired)
    acc = list(tile.act_gain)
    acc.extend(building.conditional_gains(s, p, tile.act_cond))
    if not free or c.free_act_triggers_permanents:
        city = s.city[p]
        for q in s.game.neighbours[slot]:
            x = city.get(q)
            if x is None:
                continue
            for m, gains in tiles[x].perm_adjacent:
                if m is None or m(tile):
                    acc.extend(gains)
        if s.prosperity:  # Warehouse, Bus Station: each own activation of a type (§9.6)
            for x in city.values():
                for m, gains in tiles[x].perm_own:
                    if m is None or m(tile):
                        acc.extend(gains)
    if acc:
        loans += gain(s, p, best_order(acc), C_TILES, fired)
    s.event("activate", p, tile=tile.id, slot=slot, free=free, cubes=paid_cubes, loans=loans,
            changes=changes(s, p, before))
    if tile.act_free_adjacent:
        offer_free_activation(s, p, slot)


# --- activating and paying ------------------------------------------------------------------------
def legal_activate(s) -> list:
    """The activatable tiles, then "end activations"."""
    g = s.game
    table = g.action_space.table
    p = s.player
    off = g.off["activate"]
    out = [table[off + slot] for slot in activatable_slots(s, p)]
    out.append(table[g.off["end_activations"]])
    return out


def lacking_parts(s, p: int, tile) -> list[list]:
    """The parts of ``tile``'s activation cost ("lose X") that seat ``p``'s city cannot pay now, as plain
    data: ``[[track name, amount, what the city has], ...]``, e.g. ``[["culture", 1, 0]]`` (money is
    never lacking: loans pay it). Empty when the city can pay them all (issue 15, defect 6)."""
    t = s.tracks
    base = p * NT
    lo = s.c.track_min
    return [[TRACK_NAMES[tr], amt, t[base + tr]]
            for tr, amt in tile.act_cost if tr != MONEY and t[base + tr] - amt < lo[tr]]


def lacking_costs(s, p: int, tile) -> list[str]:
    """``lacking_parts`` in words: ``["1 culture (the city has 0)"]`` (issue 15, "why can't I do this?"
    and defect 6)."""
    return [lacking_text(part) for part in lacking_parts(s, p, tile)]


def _cube_words(s, p: int, slot: int) -> str:
    """"3 cubes (printed 1 + 1 on it + 1), the plant holds 2" and the usable tourists, if any."""
    tile = s.c.tiles[s.city[p][slot]]
    cost = activation_cost(s, p, slot)
    on = cost - tile.cubes - 1
    tourists = len(usable_tourists(s, p, slot))
    plus = f" and {plural(tourists, 'usable tourist')} in the city" if tourists else ""
    return (f"{plural(cost, 'cube')} (printed {tile.cubes} + {on} cube{'s' if on != 1 else ''} and tourists "
            f"on it + 1), the plant holds {s.tracks[p * NT + CUBES]}{plus}")


def why_activate(s, a) -> str:
    """Why seat to move may not activate the tile on slot ``a.arg`` now, the rule in words (issue 15,
    "why can't I do this?"): no tile there, no activation effect, no activation left, a "lose X"
    cost the city cannot pay ("activating Hotel costs 1 culture (the city has 0)"), or the energy
    cubes it costs against what the plant holds."""
    p = s.player
    slot = a.arg
    if slot not in s.city[p]:
        return "executive: there is no tile of yours on that slot"
    tile = s.c.tiles[s.city[p][slot]]
    if not tile.has_activation:
        return f"executive: {tile.name} has no activation effect (only tiles with an activation effect can be activated)"
    if s.activations_left <= 0:
        return (f"executive: no activations left this phase (you made {s.activations_made}; the power plant "
                "allows its activations per round, +1 with the Highest Culture token)")
    short = lacking_costs(s, p, tile)
    if short or not can_lose(s, p, tile.act_cost):
        what = " and ".join(short) or "what the city does not have"
        return (f"executive: activating {tile.name} costs {what}: you cannot lose what you do not have "
                "(\"lose X to gain Y\" needs X)")
    return f"executive: activating {tile.name} costs {_cube_words(s, p, slot)}: not enough energy"


def activate(s, slot: int) -> None:
    """Step handler: start activating the tile on ``slot``; with usable tourists the player chooses
    how to pay, else the plant's cubes pay."""
    p = s.player
    cost = activation_cost(s, p, slot)
    s.activations_left -= 1
    s.activations_made += 1
    s.pending_slot = slot
    s.cubes_due = cost
    if usable_tourists(s, p, slot):
        s.step = S_PAY
    else:
        _finish_payment(s, cost)


def legal_pay(s) -> list:
    """A usable tourist (1 cube each), or the rest in cubes if the plant holds enough."""
    g = s.game
    table = g.action_space.table
    p = s.player
    off = g.off["tourist"]
    neutral = s.c.neutral_color
    out = [table[off + (k if k < s.n else neutral)] for k in usable_tourists(s, p, s.pending_slot)]
    if s.tracks[p * NT + CUBES] >= s.cubes_due:
        out.append(table[g.off["pay_cubes"]])
    return out


def why_pay(s, a) -> str:
    if a.kind == "tourist":
        return "executive: that tourist is not usable (it must be in your city, unused this phase, and not on this tile)"
    return (f"executive: not enough energy cubes on the power plant ({plural(s.cubes_due, 'cube')} due, "
            f"the plant holds {s.tracks[s.player * NT + CUBES]}): use a tourist")


def use_tourist(s, color: int) -> None:
    """Step handler: the tourist of ``color`` moves onto the tile and pays 1 cube."""
    k = s.tourist_index(color)
    s.tourist_slot[k] = s.pending_slot
    s.tourist_used[k] = True
    s.cubes_due -= 1
    if s.cubes_due == 0:
        _finish_payment(s, 0)


def pay_cubes(s, arg: int) -> None:
    """Step handler: the plant's cubes pay the rest."""
    _finish_payment(s, s.cubes_due)


def _finish_payment(s, cubes: int) -> None:
    p = s.player
    slot = s.pending_slot
    if cubes:
        s.tracks[p * NT + CUBES] -= cubes
        on = s.cubes_on[p]
        on[slot] = on.get(slot, 0) + cubes
    s.step = NO_DECISION
    s.cubes_due = -1
    s.pending_slot = -1
    activate_effect(s, p, slot, free=False, paid_cubes=cubes)


# --- free activations -----------------------------------------------------------------------------
def legal_free(s) -> list:
    """The free activation's targets, or decline."""
    g = s.game
    table = g.action_space.table
    off = g.off["free_activate"]
    out = [table[off + q] for q in free_targets(s, s.player, s.pending_slot)]
    out.append(table[g.off["decline"]])
    return out


def why_free(s, a) -> str:
    """Why the free activation (Convention Center, Technology Park) may not target slot ``a.arg``:
    no tile there, not adjacent, no activation effect, the Convention Center, or a cost the city
    cannot pay (issue 15, "why can't I do this?")."""
    p = s.player
    rule = "the free activation must target an adjacent tile with an activation effect"
    if a.kind != "free_activate" or s.pending_slot < 0 or s.pending_slot not in s.city[p]:
        return f"executive: {rule}"
    source = s.c.tiles[s.city[p][s.pending_slot]].name
    x = s.city[p].get(a.arg)
    if x is None:
        return f"executive: there is no tile of yours on that slot ({rule})"
    target = s.c.tiles[x]
    if a.arg == s.pending_slot:
        return f"executive: {source} cannot activate itself ({rule})"
    if a.arg not in s.game.neighbours[s.pending_slot]:
        return f"executive: {target.name} is not next to {source} ({rule})"
    if not target.has_activation:
        return f"executive: {target.name} has no activation effect ({rule})"
    short = lacking_costs(s, p, target)
    if short:
        return f"executive: activating {target.name} costs {' and '.join(short)}: you cannot lose what you do not have"
    return f"executive: {source} may not activate {target.name} for free (the Convention Center is never a free target)"


def free_activate(s, slot: int) -> None:
    """Step handler: activate the tile on ``slot`` for free."""
    s.step = NO_DECISION
    s.pending_slot = -1
    activate_effect(s, s.player, slot, free=True)


def decline_free(s, arg: int) -> None:
    """Step handler: the free activation is not used."""
    s.step = NO_DECISION
    s.pending_slot = -1


# --- the end of a player's executive turn ---------------------------------------------------------
def end_activations(s, arg: int = 0, why: dict | None = None) -> None:
    """Step handler (and the automatic end when nothing is activatable): a city that made no
    activation chooses its reward (or gets the only one), then the next player's turn. ``why``: the
    reason of an automatic end (``why_no_activation``'s plain data), logged with it (issue 15, defect 6)."""
    p = s.player
    rewards = s.c.no_activation_rewards
    if s.activations_made == 0 and rewards:
        if len(rewards) > 1:
            s.activations_left = 0
            s.step = S_REWARD
            if why:     # the reward is chosen next; the reason is told now
                s.event("cannot_activate", p, **why)
            return
        _give_reward(s, p, 0, why)
    elif why:
        s.event("end_activations", p, made=s.activations_made, **why)
    else:
        s.event("end_activations", p, made=s.activations_made)
    _close_turn(s)


def why_no_activation(s, p: int) -> dict:
    """Why seat ``p`` can activate nothing (more) now, as the event's plain data (issue 15, defect 6);
    ``render.why_text`` words it. The shapes:

    - ``{"why": "no activation left"}`` (the code is also the sentence: the browser's turn card tells
      this ordinary end apart by it);
    - ``{"why": "no_effect"}``: no tile with an activation effect;
    - ``{"why": "unaffordable", "lacking": [[tile id, [[track name, amount, has], ...]], ...],
      "more": int, "cheapest": [tile id, cubes due, cubes held, usable tourists] | None}``: up to two
      tiles (by slot) whose "lose X" cost the city lacks (``lacking_parts``), how many more such
      tiles there are, and the cheapest activation in energy cubes (lowest slot on a tie).

    Runs once per executive turn that ends by itself, so it builds no text: ints, ids and short lists."""
    if s.activations_left <= 0:
        return {"why": NONE_LEFT}
    tiles = s.c.tiles
    city = s.city[p]
    lacking = []
    cheapest_cost = cheapest_slot = -1
    on = dict(s.cubes_on[p])     # cubes and tourists on each tile: activation_cost without its loop per tile
    for k in range(len(s.tourist_host)):
        if s.tourist_host[k] == p and s.tourist_slot[k] >= 0:
            on[s.tourist_slot[k]] = on.get(s.tourist_slot[k], 0) + 1
    for slot, x in city.items():
        tile = tiles[x]
        if tile.cubes < 0:
            continue
        if tile.act_cost and not can_lose(s, p, tile.act_cost):
            lacking.append(slot)
            continue
        cost = tile.cubes + on.get(slot, 0) + 1
        if cheapest_slot < 0 or cost < cheapest_cost or (cost == cheapest_cost and slot < cheapest_slot):
            cheapest_cost, cheapest_slot = cost, slot
    if not lacking and cheapest_slot < 0:
        return {"why": "no_effect"}
    lacking.sort()
    named = []
    for slot in lacking[:2]:
        tile = tiles[city[slot]]
        named.append([tile.id, lacking_parts(s, p, tile)])
    cheapest = None
    if cheapest_slot >= 0:
        cheapest = [tiles[city[cheapest_slot]].id, cheapest_cost, s.tracks[p * NT + CUBES],
                    len(usable_tourists(s, p, cheapest_slot))]
    return {"why": "unaffordable", "lacking": named, "more": max(0, len(lacking) - 2), "cheapest": cheapest}


def legal_reward(s) -> list:
    """One action per reward of ``data/board.yaml`` ``executive.no_activation_rewards``."""
    g = s.game
    table = g.action_space.table
    off = g.off["no_activation_reward"]
    return [table[off + k] for k in range(len(s.c.no_activation_rewards))]


def choose_reward(s, k: int) -> None:
    """Step handler: take no-activation reward ``k``."""
    _give_reward(s, s.player, k)
    _close_turn(s)


def _give_reward(s, p: int, k: int, why: dict | None = None) -> None:
    reward = s.c.no_activation_rewards[k]
    gain(s, p, reward, C_TILES, set())
    if why:
        s.event("no_activation", p, reward={TRACK_NAMES[tr]: amt for tr, amt in reward}, **why)
    else:
        s.event("no_activation", p, reward={TRACK_NAMES[tr]: amt for tr, amt in reward})


def _close_turn(s) -> None:
    s.executive_started = False
    s.activations_left = s.activations_made = 0
    s.turn += 1
    s.step = NO_DECISION


def run(s) -> None:
    """Each player in turn order activates until it ends or can do nothing more; after the last
    player, the administration phase (round 12: the effects before the last World Expo)."""
    if not s.executive_started:
        if s.turn >= s.n:
            _end_phase(s)
            return
        p = s.order[s.turn]
        s.player = p
        s.executive_started = True
        s.activations_made = 0
        s.activations_left = s.c.plants[s.plant[p]].activations + (s.c.hc_extra if p == s.highest_culture else 0)
    if s.activations_left > 0 and any_activatable(s, s.player):
        s.step = S_ACTIVATE
    else:
        end_activations(s, why=why_no_activation(s, s.player))


def _end_phase(s) -> None:
    s.turn = 0
    if s.round >= s.c.rounds:
        s.phase = P_PRE_EXPO
        s.effects_gathered = False
        return
    administration.begin(s)
