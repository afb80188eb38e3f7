"""7 Wonders Duel: the conflict track — shields move the pawn, military tokens are looted, military
supremacy wins at once (the VP of the pawn's place are counted in ``scoring.military_vp``).

Rules: HU "Katonaság" and "Katonai győzelem"; ref §4.7 (19 spaces in 9 zones; 2 / 5 / 10 VP by
distance; one 2-coin and one 5-coin token on each side) and pitfalls P13 (a loss is capped at the
coins held), P14 (one move can pass both tokens of a side; supremacy is checked after every move;
the pawn never passes a capital).

``state.pawn`` is an int in -9..9 counted toward seat 1's capital; ``state.military_tokens`` holds
whether each token is still on the track (seat 0's side 2-coin, 5-coin, then seat 1's side).
"""

from __future__ import annotations

from .constants import MILITARY
from .scoring import finish


def move_pawn(s, p: int, shields: int) -> None:
    """Seat ``p`` gains ``shields``: the pawn moves that many spaces toward the opponent's capital (not
    past it, P14); each token of the opponent's side whose zone the pawn enters is looted (P13, P14);
    reaching the capital is military supremacy and ends the game."""
    c = s.c
    cap = c.capital
    d = 1 if p == 0 else -1
    old = s.pawn
    new = max(-cap, min(cap, old + d * shields))
    s.pawn = new
    q = 1 - p
    dist = new * d      # distance into q's side
    looted = []
    tokens = s.military_tokens
    for k, (at, loot) in enumerate(c.military_tokens):
        i = q * 2 + k
        if dist >= at and tokens[i]:
            tokens = tokens[:i] + (False,) + tokens[i + 1:]
            lost = min(loot, s.coins[q])
            s.coins[q] -= lost
            looted.append(lost)
    s.military_tokens = tokens
    s.event("military", p, shields=shields, pawn=new, before=old, looted=looted)
    if dist >= cap:
        finish(s, p, MILITARY)


__all__ = ["move_pawn"]
