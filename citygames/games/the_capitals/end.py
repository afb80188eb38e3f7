"""The Capitals: the end of the game (HU "A játék vége", IT "Fine del gioco", reference §8 "End of game", §10 #5).

1. Before the round-12 World Expo, each city in initiative order resolves its "before the last
   Expo" effects (Gene Research Lab, Public Meeting Hall, Technology Park; reference §10 #5).
2. After the last Expo each city pays for its initiative space one last time, borrowing if needed
   (IT "Prima del punteggio finale"; the amount is a PROJECT DEFAULT, ``final_payment``).
3. Each city resolves the end-game effects of its buildings, then the final conversions
   (``scoring.py``).

A city resolves its effects in the order its owner chooses (the rulebooks let a player update the
tracks in any order): effects whose order cannot change anything resolve at once; among those that
interact (one gains on a track the other counts, e.g. Public Meeting Hall's employment and Gene
Research Lab's "per 4 employment", or a Technology Park's free activation) the owner chooses which
to resolve next.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from . import building, executive, scoring
from .components import EMP, PER_TRACK, POP, PRESTIGE
from .steps import P_EXPO, P_FINAL, S_EFFECT
from .tracks import C_END_TILES, best_order, changes, gain, pay, snapshot

BEFORE_EXPO, END_OF_GAME = "before_expo", "end"

def _parts(tile, stage: str):
    """``(flat gains, conditionals, area effects, free activation)`` of ``tile``'s effect at ``stage``."""
    if stage == BEFORE_EXPO:
        return tile.before_expo_flat, tile.before_expo_cond, (), tile.before_expo_free
    return tile.end_flat, tile.end_cond, tile.end_game, False


def has_effect(tile, stage: str) -> bool:
    """Whether ``tile`` has an effect to resolve at ``stage`` (``BEFORE_EXPO`` or ``END_OF_GAME``)."""
    flat, cond, area, free = _parts(tile, stage)
    return bool(flat or cond or area or free)


def _io(tile, stage: str):
    """``(tracks it gains on, tracks it counts, free activation?)`` of a tile's effect at ``stage``."""
    flat, cond, area, free = _parts(tile, stage)
    gains = [tr for tr, _ in flat]
    gains += [tr for cd in cond for tr, _ in cd.gains]
    gains += [tr for eff in area for tr, _ in eff.gains]
    produces = {tr for tr in gains if tr != PRESTIGE}
    reads = {PER_TRACK[cd.per] for cd in cond if cd.per in PER_TRACK}
    if EMP in produces:
        reads.add(POP)   # employment is capped by population
    return produces, reads, free


def _interact(a, b) -> bool:
    (pa, ra, fa), (pb, rb, fb) = a, b
    return bool(fa or fb or pa & rb or pb & ra)


def order_matters(s, p: int, slots, stage: str) -> list:
    """The slots among ``slots`` whose effect interacts with another one's (their order can change
    the result): one gains on a track the other counts, or one is a free activation."""
    tiles = s.c.tiles
    city = s.city[p]
    io = {q: _io(tiles[city[q]], stage) for q in slots}
    return [q for q in slots if any(r != q and _interact(io[q], io[r]) for r in slots)]


def resolve(s, p: int, slot: int, stage: str) -> None:
    """Resolve the ``stage`` effect of the tile on ``slot`` of seat ``p``'s city (a Technology Park's
    free activation becomes a decision when it has a target)."""
    tile = s.c.tiles[s.city[p][slot]]
    flat, cond, area, free = _parts(tile, stage)
    before = snapshot(s, p)
    acc = list(flat)
    for eff in area:
        k = building.count_area(s, p, slot, tile, eff.adjacent, eff.match)
        acc.extend((tr, amt * k) for tr, amt in eff.gains if k)
    acc.extend(building.conditional_gains(s, p, cond))
    if acc:
        gain(s, p, best_order(acc), C_END_TILES, set())
    moved = changes(s, p, before)
    if moved:
        s.event("before_expo" if stage == BEFORE_EXPO else "end_effect", p, tile=tile.id, slot=slot, changes=moved)
    if free:
        executive.offer_free_activation(s, p, slot)


def _resolve_pending(s, p: int, stage: str) -> None:
    """Resolve seat ``p``'s pending effects until one asks a decision or none is left: effects whose
    order does not matter resolve at once; the owner chooses the order of the others."""
    while s.pending_effects and s.step == NO_DECISION:
        ordered = order_matters(s, p, s.pending_effects, stage)
        loose = [q for q in s.pending_effects if q not in ordered]
        if not loose:
            s.player = p
            s.step = S_EFFECT
            return
        slot = loose[0]
        s.pending_effects.remove(slot)
        resolve(s, p, slot, stage)


def _stage(s) -> str:
    return END_OF_GAME if s.phase == P_FINAL else BEFORE_EXPO


def _seat_effects(s, stage: str) -> bool:
    """Work through the effects of the seat whose turn it is; True when that seat is done."""
    p = s.order[s.turn]
    s.player = p
    if not s.effects_gathered:
        tiles = s.c.tiles
        s.pending_effects = sorted(q for q, x in s.city[p].items() if has_effect(tiles[x], stage))
        s.effects_gathered = True
    _resolve_pending(s, p, stage)
    if s.step != NO_DECISION or s.pending_effects:
        return False
    s.effects_gathered = False
    return True


# --- the decision -----------------------------------------------------------------------------------
def legal_effect(s) -> list:
    """One action per pending effect (argument: the tile's slot)."""
    g = s.game
    table = g.action_space.table
    off = g.off["resolve_effect"]
    return [table[off + q] for q in s.pending_effects]


def why_effect(s, a) -> str:
    return "end of the game: choose one of your end-game effects still to resolve"


def choose_effect(s, slot: int) -> None:
    """Step handler: resolve the effect of the tile on ``slot`` next."""
    s.step = NO_DECISION
    s.pending_effects.remove(slot)
    resolve(s, s.player, slot, _stage(s))


# --- the phases -------------------------------------------------------------------------------------
def run_before_last_expo(s) -> None:
    """Each city in initiative order resolves its "before the last Expo" effects; then the last Expo."""
    if s.turn < s.n:
        if _seat_effects(s, BEFORE_EXPO):
            s.turn += 1
        return
    s.phase = P_EXPO
    s.expo_scored = False


def final_payment(s, p: int) -> int:
    """$ seat ``p`` pays for its initiative space before the final scoring (data ``final_payment``:
    the space's own $ x its own multiplier, reference §8 PROJECT DEFAULT, or the $ alone)."""
    c = s.c
    space = s.initiative[p]
    if c.final_payment == "own_cost":
        return c.init_cost[space]
    return c.init_cost[space] * c.init_mult[space]


def begin_final_scoring(s) -> None:
    """After the last Expo: every city pays for its initiative space, then the final scoring starts."""
    for p in s.order:
        amount = final_payment(s, p)
        loans = pay(s, p, amount)
        s.event("final_payment", p, paid=amount, loans=loans)
    s.phase = P_FINAL
    s.turn = 0
    s.effects_gathered = False


def run_final_scoring(s) -> None:
    """Each city in initiative order resolves its end-game effects and converts what it holds; then
    the game is over."""
    if s.turn < s.n:
        if _seat_effects(s, END_OF_GAME):
            scoring.convert(s, s.order[s.turn])
            s.turn += 1
        return
    scoring.finish(s)
