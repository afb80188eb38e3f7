"""7 Wonders Duel: the wonder draft — 4 wonders revealed, taken first / second / second / first; 4 more,
taken second / first / first / second; then the first player starts Age I.

Rules: HU "A csodák kiválasztása" (and "A legelső játékok során": the fixed split for a first game,
option ``first_game_wonders``); ref §6.2. The picking order is ``board.yaml`` ``setup.draft_order``.

The draft is the phase before Age I (``state.age == 0``): its automatic work (``run``) reveals the
next 4 wonders or, once both rounds are taken, starts Age I; ``draft`` is its decision.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .constants import DRAFT
from .structure import start_age


def draft_round(s) -> int:
    """Index of the draft round whose wonders are revealed now (0 or 1): the rounds revealed so far
    minus one (in a first game, where no draft is played, 1)."""
    c = s.c
    return (len(c.wonders) - len(s.unrevealed_wonders)) // len(c.draft_order[0]) - 1


def run(s) -> None:
    """Reveal the next round's wonders (the seat named first in ``draft_order`` picks); after the last
    round, start Age I with the first player."""
    c = s.c
    rnd = draft_round(s) + 1
    if rnd >= len(c.draft_order):
        start_age(s, 1, s.first_player)
        return
    k = len(c.draft_order[rnd])
    s.draft_pool = tuple(sorted(s.unrevealed_wonders[:k]))
    s.unrevealed_wonders = s.unrevealed_wonders[k:]
    s.player = s.first_player ^ c.draft_order[rnd][0]
    s.step = DRAFT
    s.event("draft_reveal", None, round=rnd + 1, wonders=list(s.draft_pool))


def legal(s) -> list:
    g = s.game
    table = g.action_space.table
    base = g.off["draft"]
    return [table[base + w] for w in s.draft_pool]


def take(s, w: int) -> None:
    """The player to move takes revealed wonder ``w``; the next picker follows ``draft_order``."""
    p = s.player
    s.draft_pool = tuple(x for x in s.draft_pool if x != w)
    wonders = s.wonders
    s.wonders = (wonders[0] + (w,), wonders[1]) if p == 0 else (wonders[0], wonders[1] + (w,))
    s.event("draft", p, wonder=w)
    if s.draft_pool:
        order = s.c.draft_order[draft_round(s)]
        s.player = s.first_player ^ order[len(order) - len(s.draft_pool)]
    else:
        s.step = NO_DECISION


def why(s, a) -> str:
    return f"wonder draft (§6.2): {s.c.wonders[a.arg].name} is not among the revealed wonders"


__all__ = ["draft_round", "run", "legal", "take", "why"]
