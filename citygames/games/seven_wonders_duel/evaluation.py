"""7 Wonders Duel: the greedy bot's evaluation of a state for one seat.

An estimate of the final margin in victory points, plus the two sudden-death threats: the
conflict pawn's distance to each capital (P14) and the science symbols toward 6 (P17). A
terminal state is worth +-1000 (a shared victory 0).
"""

from __future__ import annotations

from .state import NS, PH_END


def evaluate(s, p: int) -> float:
    """Heuristic value of state ``s`` for seat ``p`` (higher is better)."""
    if s.phase == PH_END:
        if s.winner < 0:
            return 0.0
        return 1000.0 if s.winner == p else -1000.0
    q = 1 - p
    vp = s.scores()
    v = float(vp[p] - vp[q])
    # military: each step toward the opponent's capital is worth more the closer it gets
    dist = s.pawn if p == 0 else -s.pawn
    v += 1.5 * dist + (12.0 if dist >= 6 else 0.0) - (12.0 if dist <= -6 else 0.0)
    # science: distinct symbols, with a sharp bonus near supremacy
    for who, sign in ((p, 1.0), (q, -1.0)):
        k = sum(1 for i in range(NS) if s.sci[who * NS + i])
        v += sign * (2.0 * k + (10.0 if k >= 5 else 0.0) + (4.0 if k >= 4 else 0.0))
    # economy: coins count beyond their VP; production lowers future prices
    v += 0.3 * (s.coins[p] - s.coins[q])
    v += 0.8 * (sum(s.prod[p * 5:p * 5 + 5]) - sum(s.prod[q * 5:q * 5 + 5])) * (3 - s.age) / 2
    return v
