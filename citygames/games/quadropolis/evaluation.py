"""Quadropolis: the greedy bot's evaluation (issue: "the score of the best allocation of the city so
far plus the value of held resources").

``evaluate(state, p)`` = p's VP under the best allocation of its city and resources as they stand
(§7, ``scoring.best_allocation``; the penalties for unused resources count fully only at the end, as
resources held during the game will still activate buildings built later), minus the best VP among
the other seats, so that taking a tile an opponent needs counts too.
"""

from __future__ import annotations

from .constants import P_END

#: during the game, each unused inhabitant or energy is worth this much (instead of its -1 VP
#: penalty): it can still activate a building placed later
HELD_VALUE = 0.5


def seat_value(s, p: int) -> float:
    """Seat ``p``'s VP under its best allocation, held resources valued ``HELD_VALUE`` each before the end."""
    bd = s.best(p).breakdown if s.phase != P_END else s.score_breakdown(p)
    total = sum(bd.values())
    if s.phase != P_END:
        unused = -(bd["inhabitants"] + bd["energy"])   # the penalties are -1 per unused unit
        total += unused * (1 + HELD_VALUE)
    return float(total)


def evaluate(s, p: int) -> float:
    """Heuristic value of ``s`` for seat ``p`` (higher is better): its value minus the best other's."""
    mine = seat_value(s, p)
    others = [seat_value(s, q) for q in range(s.game.num_players) if q != p]
    return mine - max(others) if others else mine


__all__ = ["evaluate", "seat_value", "HELD_VALUE"]
