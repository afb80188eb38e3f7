"""Quadropolis: the greedy bot's evaluation (issue: "the score of the best allocation of the city so
far plus the value of held resources").

``evaluate(state, p)`` = p's value minus the best value among the other seats (so that taking a tile
an opponent needs counts too). A seat's value is its VP under the best allocation of its city and
resources as they stand (§7, ``scoring.best_allocation``); before the end, each unused inhabitant
or energy counts ``HELD_VALUE`` instead of its -1 VP penalty, since it may still activate a building
placed later. When the seat has just taken a tile and must place it, its value is that of the best
placement (one step further: the greedy bot scores a take by where the tile would go).
"""

from __future__ import annotations

from .constants import P_END, PLACE
from .end import city_arrays
from .scoring import best_allocation

#: before the end, what one unused inhabitant or energy is worth (it may still activate a building
#: placed later), instead of its -1 VP penalty
HELD_VALUE = 0.5
_MEMO: dict = {}


def _value(board, types, heights, vps, inh: int, en: int) -> float:
    key = (board.mode, tuple(types), tuple(heights), tuple(vps), inh, en)
    v = _MEMO.get(key)
    if v is None:
        a = best_allocation(board, types, heights, vps, inh, en)
        bd = a.breakdown
        unused = -(bd["inhabitants"] + bd["energy"])
        v = a.total + unused * (1 + HELD_VALUE)
        if len(_MEMO) > 50_000:
            _MEMO.clear()
        _MEMO[key] = v
    return v


def seat_value(s, p: int) -> float:
    """Seat ``p``'s value: its final VP at the end; before, its VP under the best allocation with held
    resources valued ``HELD_VALUE`` each, and with a tile waiting to be placed, the best placement's."""
    if s.phase == P_END:
        return float(sum(s.score_breakdown(p).values()))
    g = s.game
    b = g.board
    types, heights, vps = city_arrays(s, p)
    inh, en = s.inhabitants[p], s.energy[p]
    best = _value(b, types, heights, vps, inh, en)
    if s.step == PLACE and s.player == p and s.taken >= 0:
        tile = g.tiles[s.taken]
        for x in s.placements(p, s.taken, s.taken_k):
            t2, h2, v2 = types[:], heights[:], vps[:]
            t2[x], h2[x], v2[x] = tile.type, h2[x] + 1, tile.vp
            best = max(best, _value(b, t2, h2, v2, inh + tile.inhabitants, en + tile.energy))
    return best


def evaluate(s, p: int) -> float:
    """Heuristic value of ``s`` for seat ``p`` (higher is better): its value minus the best other's."""
    mine = seat_value(s, p)
    others = [seat_value(s, q) for q in range(s.game.num_players) if q != p]
    return mine - max(others) if others else mine


__all__ = ["evaluate", "seat_value", "HELD_VALUE"]
