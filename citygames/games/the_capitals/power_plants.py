"""The Capitals: power-plant upgrades (HU "Fejlődés sáv" and "Erőmű", reference §3.6, §6).

Passing the upgrade space of the progress track owes the city an upgrade: it takes the best plant
left of the next level, whose cubes join those already on its plant. Owed upgrades are settled
before anything else happens, in initiative order (the machine's interrupt). A player may decline
an upgrade (``engine_rules`` in ``data/board.yaml``: upgrades are optional); with no plant of the
next level left the upgrade is lost (reference §12 #15 PROJECT DEFAULT).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .components import CUBES, LEVEL, NT
from .steps import S_UPGRADE
from .tracks import C_TILES, changes, gain, snapshot

def possible(s, p: int) -> bool:
    """Whether a plant of the level above seat ``p``'s is left in the supply."""
    level = s.tracks[p * NT + LEVEL]
    if level >= s.c.max_plant_level:
        return False
    return s.plants_taken[level + 1] < len(s.game.plant_supply[level + 1])


def next_plant(s, p: int):
    """The plant seat ``p`` would take on an upgrade now (best left of the next level), or ``None``."""
    if not possible(s, p):
        return None
    level = s.tracks[p * NT + LEVEL] + 1
    return s.c.plants[s.game.plant_supply[level][s.plants_taken[level]]]


def settle_owed(s) -> bool:
    """The machine's interrupt: the first seat in initiative order that owes an upgrade decides it
    now, or loses it when no plant of the next level is left. Returns True when it did something."""
    if not any(s.upgrades_due):
        return False
    p = next(q for q in s.order if s.upgrades_due[q])
    if possible(s, p):
        s.player = p
        s.step = S_UPGRADE
    else:
        s.upgrades_due[p] -= 1
        s.event("upgrade_lost", p, level=s.tracks[p * NT + LEVEL])
    return True


def upgrade(s, arg: int) -> None:
    """Step handler: the player to move takes the best plant left of the next level; permanent
    "on upgrade" effects of its tiles fire (reference §3.6)."""
    p = s.player
    plant = next_plant(s, p)
    s.plants_taken[plant.level] += 1
    before = snapshot(s, p)
    base = p * NT
    s.tracks[base + LEVEL] = plant.level
    s.tracks[base + CUBES] += plant.cubes
    s.plant[p] = plant.idx
    s.upgrades_due[p] -= 1
    fired = set()
    tiles = s.c.tiles
    for x in s.city[p].values():
        if tiles[x].perm_upgrade:
            gain(s, p, tiles[x].perm_upgrade, C_TILES, fired)
    s.step = NO_DECISION
    s.event("upgrade", p, level=plant.level, plant_cubes=plant.cubes, changes=changes(s, p, before))


def decline(s, arg: int) -> None:
    """Step handler: keep the current plant; the owed upgrade is given up."""
    p = s.player
    s.upgrades_due[p] -= 1
    s.step = NO_DECISION
    s.event("upgrade_declined", p, level=s.tracks[p * NT + LEVEL])


def legal(s) -> list:
    """Upgrade or decline."""
    g = s.game
    table = g.action_space.table
    return [table[g.off["upgrade"]], table[g.off["decline"]]]
