"""Quadropolis: the end-of-game allocation search as a benchmark (``citygames bench quadropolis``
prints it after the engine's three figures; the issue's budget is 20 ms per city on average).

The cities are the final cities of seeded random games (random play leaves cities with every mix
of buildings and resources), each searched once from scratch.
"""

from __future__ import annotations

import time

from citygames.core.rng import Rng

from .end import city_arrays
from .scoring import best_allocation

#: the issue's budget for the allocation search, in ms per city on average
ALLOCATION_BUDGET_MS = 20.0


def final_cities(game, count: int, seed: int = 0) -> list[tuple]:
    """``count`` final cities ``(types, heights, vps, inhabitants, energy)`` of seeded random games."""
    rng = Rng(seed ^ 0xA110C)
    out: list[tuple] = []
    g = 0
    while len(out) < count:
        s = game.new_initial_state(seed + g)
        g += 1
        while s.phase == 0:   # the rounds (hand allocation, if any, not played)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randbelow(len(legal))])
        for p in range(game.num_players):
            out.append((*city_arrays(s, p), s.inhabitants[p], s.energy[p]))
    return out[:count]


def extra(game, seconds: float, seed: int = 0) -> list[tuple[str, str, str]]:
    """``[(label, value, budget)]`` lines for ``citygames bench``: the mean and the slowest
    ``best_allocation`` time over final cities of random games (about ``seconds`` of searching)."""
    cities = final_cities(game, 64, seed)
    times = []
    spent = 0.0
    b = game.board
    while spent < seconds or not times:
        for types, heights, vps, inh, en in cities:
            t0 = time.perf_counter()
            best_allocation(b, types, heights, vps, inh, en)
            dt = time.perf_counter() - t0
            times.append(dt)
            spent += dt
    mean = 1000 * sum(times) / len(times)
    return [("allocation search", f"{mean:.2f} ms/city mean, {1000 * max(times):.2f} max, {len(times):,} searches",
             f"budget {ALLOCATION_BUDGET_MS:g} ms mean")]


__all__ = ["final_cities", "extra", "ALLOCATION_BUDGET_MS"]
