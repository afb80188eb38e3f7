"""7 Wonders Duel: victory points, the end of the game and who wins.

Rules: HU "A játék vége és a győztes" and "Polgári győzelem" (after Age III: military VP + blue,
green, yellow, purple cards + wonders + progress tokens + 1 VP per 3 coins; a tie goes to the most
blue-card VP, then the victory is shared); ref §6.7, §7 and pitfalls P18 (guilds count the city with
most at the end), P22 (the tie-break) and P25 (scores are computed from scratch, so a destroyed card
takes its VP with it). Military and scientific supremacy end the game at once (``military.py``,
``science.py``) through ``finish``. The conflict track's VP (``military_vp``) are counted here.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .components import AGRICULTURE, BLUE, GREEN, MATHEMATICS, NC, PHILOSOPHY, PURPLE, YELLOW
from .constants import CIVILIAN, SHARED, VICTORY_NAMES


def count_colors(s, q: int, colors) -> int:
    """Cards of the given colours in seat ``q``'s city."""
    cc = s.color_count
    b = q * NC
    return sum(cc[b + col] for col in colors)


def wonders_built(s, p: int) -> int:
    """How many wonders seat ``p`` has built."""
    wc = s.wonder_card
    return sum(1 for w in s.wonders[p] if wc[w] >= 0)


def military_vp(s, p: int) -> int:
    """VP from the conflict track for seat ``p`` (ref §4.7, §7): 2 / 5 / 10 at distance 1-2 / 3-5 / 6-8
    toward the opponent's capital, 0 on its own side or in the centre."""
    dist = s.pawn if p == 0 else -s.pawn
    if dist <= 0 or dist >= s.c.capital:
        return 0
    return s.c.conflict_vp[dist]


def score_breakdown(s, seat: int) -> dict[str, int]:
    """VP of ``seat`` by category (``CATEGORIES``, ref §7); the values sum to ``scores()[seat]``.
    Guilds count the city with most now (P18): final at the end."""
    c = s.c
    cards = c.cards
    p = seat
    q = 1 - p
    blue = green = yellow = purple = 0
    for x in s.city[p]:
        cd = cards[x]
        col = cd.color
        if col == BLUE:
            blue += cd.vp
        elif col == GREEN:
            green += cd.vp
        elif col == YELLOW:
            yellow += cd.vp
        elif col == PURPLE:
            if cd.guild_vp:
                purple += cd.guild_vp * max(count_colors(s, r, cd.guild_colors) for r in (p, q))
            elif cd.guild_wonder_vp:
                purple += cd.guild_wonder_vp * max(wonders_built(s, p), wonders_built(s, q))
            elif cd.guild_coin_vp:
                purple += cd.guild_coin_vp * (max(s.coins[p], s.coins[q]) // 3)
    wonder_card = s.wonder_card
    wonders = sum(c.wonders[w].vp for w in s.wonders[p] if wonder_card[w] >= 0)
    tk = s.progress_tokens[p]
    progress = 0
    if tk >> AGRICULTURE & 1:
        progress += c.tokens[AGRICULTURE].vp
    if tk >> PHILOSOPHY & 1:
        progress += c.tokens[PHILOSOPHY].vp
    if tk >> MATHEMATICS & 1:
        progress += 3 * bin(tk).count("1")
    return {"military": military_vp(s, p), "blue": blue, "green": green, "yellow": yellow, "purple": purple,
            "wonders": wonders, "progress": progress, "coins": s.coins[p] // c.setup["coins_per_vp"]}


def scores(s) -> list[int]:
    """Victory points of each seat as they stand (final at the end)."""
    return [sum(score_breakdown(s, p).values()) for p in (0, 1)]


def ranking(s) -> list[int]:
    """The winner first; with a shared victory (or before the end) the seat with more VP first, seat 0
    on a tie."""
    if s.winner == 1:
        return [1, 0]
    if s.winner == 0:
        return [0, 1]
    sc = scores(s)
    return [1, 0] if sc[1] > sc[0] else [0, 1]


def returns(s) -> list[float]:
    """1 for the winner, 0 for the loser, 0.5 each for a shared victory; all 0 before the end."""
    if s.victory < 0:
        return [0.0, 0.0]
    if s.winner < 0:
        return [0.5, 0.5]
    return [1.0 if p == s.winner else 0.0 for p in (0, 1)]


def outcome(s) -> str | None:
    """The victory type at the end (``VICTORY_NAMES``: civilian, military, science, shared); ``None`` before."""
    return VICTORY_NAMES[s.victory] if s.victory >= 0 else None


def finish(s, winner: int, how: int) -> None:
    """End the game: ``winner`` (-1: nobody, a shared victory) wins by ``how`` (index of ``VICTORY_NAMES``)."""
    s.winner = winner
    s.victory = how
    s.step = NO_DECISION
    s.extra_turn = False
    s.event("game_end", winner, victory=VICTORY_NAMES[how], scores=scores(s))


def finish_civilian(s) -> None:
    """The end of Age III (HU "Polgári győzelem", ref §6.7): most VP; tie: most blue-card VP; still
    tied: a shared victory (P22)."""
    bd = [score_breakdown(s, p) for p in (0, 1)]
    total = [sum(b.values()) for b in bd]
    blue = [b["blue"] for b in bd]
    if total[0] != total[1]:
        finish(s, 0 if total[0] > total[1] else 1, CIVILIAN)
    elif blue[0] != blue[1]:
        finish(s, 0 if blue[0] > blue[1] else 1, CIVILIAN)
    else:
        finish(s, -1, SHARED)


__all__ = ["count_colors", "wonders_built", "military_vp",
           "score_breakdown", "scores", "ranking", "returns", "outcome", "finish", "finish_civilian"]
